"""The menu: new game, continue the last game, open a save, replays, house rules, settings, help, statistics, quit."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from cardtui.inert import inert
from cardtui.saves import SaveError, SaveInfo
from cardtui.tui.common import Stopped, until_cancelled
from cardtui.tui.messages import OpenGame, OpenReplay, OpenSettings, OpenStats
from cardtui.tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from cardtui.catalog import SavedSummary
    from cardtui.replay import Replay
    from cardtui.rules import Ruleset
    from cardtui.session import Session
    from cardtui.tui.screens.new_game import GameSetup

MENU = (
    ("new", "New game"),
    ("continue", "Continue the last game"),
    ("open", "Open a save"),
    ("replays", "Replays"),
    ("rules", "House rules"),
    ("settings", "Settings"),
    ("help", "Help"),
    ("stats", "Statistics"),
    ("quit", "Quit"),
)


@dataclasses.dataclass
class SaveOpened(Message):
    """A save read off the event loop: a game to go on with, a replay to watch, or why neither."""

    session: Session | None = None
    replay: Replay | None = None
    problem: str = ""
    listed: str | None = None
    """The menu entry whose list of saves the save was chosen in (`open`, `replays`), if any."""
    path: Path | None = None


class MenuScreen(Screen[None]):
    """The first screen of `cardtui`; each entry opens the screen that does it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark,f1", "help", "Help", id="menu.help")]

    def __init__(self) -> None:
        super().__init__()
        # below 24 rows the box drops its blank rows, so its border stays in sight under a message
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static("cardtui", id="menu-title")
            yield Static("Hearts · Spades · Cutthroat · Eight of Spades", id="menu-subtitle")
            yield OptionList(*[Option(label, id=key) for key, label in MENU], id="menu-list")
            yield Static("", id="form-message", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(inert(text))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        getattr(self, f"choose_{event.option.id}")()

    def choose_new(self, rules_path: Path | None = None, rules: Ruleset | None = None) -> None:
        """The new-game form; from the rules editor, with the rules just saved and their player count."""
        from cardtui.tui.screens.new_game import NewGameScreen

        screen = NewGameScreen(rules_path, rules.game, rules.seats) if rules is not None else NewGameScreen()
        self.app.push_screen(screen, self.start_game)

    def start_game(self, setup: GameSetup | None) -> None:
        if setup is None:
            return
        from cardtui.session import Session

        try:
            session = Session.new(setup.ruleset, setup.seats, setup.seed)
        except (SaveError, ValueError) as err:
            self.say(str(err))
            return
        self.post_message(OpenGame(session))

    def choose_continue(self) -> None:
        self.say("Looking for the last unfinished game…")
        self.read_save(None)

    def open_save(self, path: Path | None, replay: bool = False, listed: str | None = None) -> None:
        """`listed`: the entry whose list the save was chosen in, which a replay's Esc goes back to."""
        if path is not None:
            self.say(f"Opening {path.name}…")
            self.read_save(path, replay, listed)

    @work(thread=True, exclusive=True, group="menu-open")
    def read_save(self, path: Path | None, replay: bool = False, listed: str | None = None) -> None:
        """Read a save (None: the last unfinished one) off the event loop; a FIFO or a huge file can't block it."""
        from cardtui.catalog import list_entries
        from cardtui.replay import Replay
        from cardtui.saves import last_game, saves_dir
        from cardtui.session import Session

        try:
            if path is None:
                unfinished = (e.info.path for e in list_entries() if e.info.status == "in_progress")
                path = last_game() or next(unfinished, None)
                if path is None:
                    self.post_message(SaveOpened(problem=f"No unfinished game in {saves_dir()}"))
                    return
            if replay:
                self.post_message(SaveOpened(replay=Replay.open_watchable(path), listed=listed, path=path))
                return
            session = Session.resume(path)
            if session.is_over:
                session.close()
                self.post_message(SaveOpened(replay=Replay.open(path), listed=listed, path=path))
            else:
                self.post_message(SaveOpened(session=session))
        except SaveError as err:
            self.post_message(SaveOpened(problem=str(err)))

    def on_save_opened(self, message: SaveOpened) -> None:
        self.say(message.problem)
        if message.session is not None:
            if self.is_current:
                self.post_message(OpenGame(message.session, resumed=True))
            else:
                message.session.close()
        elif message.replay is not None and self.is_current:
            self.post_message(OpenReplay(message.replay, self.list_again(message.listed, message.path)))

    def list_again(self, listed: str | None, path: Path | None) -> Callable[[], None] | None:
        """Where Esc from a replay goes: back to the list of saves it was chosen in, that save highlighted."""
        if listed == "open":
            return lambda: self.choose_open(path)
        if listed == "replays":
            return lambda: self.choose_replays(path)
        return None

    def choose_open(self, last: Path | None = None) -> None:
        """`last`: the save to highlight (the one just watched)."""
        picker = SavePicker("Open a save (finished games open as replays)", last=last)
        self.app.push_screen(picker, lambda p: self.open_save(p, listed="open"))

    def choose_replays(self, last: Path | None = None) -> None:
        picker = SavePicker("Watch a game again", replays=True, last=last)
        self.app.push_screen(picker, lambda p: self.open_save(p, replay=True, listed="replays"))

    def choose_rules(self) -> None:
        from cardtui.tui.screens.rules_editor import RulesEditorScreen

        def done(saved: tuple[Path, Ruleset] | None) -> None:
            if saved is not None:
                self.choose_new(*saved)

        self.app.push_screen(RulesEditorScreen(), done)

    def choose_settings(self) -> None:
        self.post_message(OpenSettings())

    def choose_stats(self) -> None:
        self.post_message(OpenStats())

    def choose_help(self) -> None:
        self.action_help()

    def action_help(self) -> None:
        from cardtui.tui.screens.help import HelpScreen

        keys = [
            ("↑ ↓ and Enter", "choose in menus and lists"),
            ("Tab / shift+Tab", "move between fields in forms"),
            ("Esc", "back"),
            ("d / a", "in a list of saves: delete / archive the highlighted save (asks first)"),
            ("v or F2", "in a list of saves: the archived saves, where Enter or u restores one to the saves (v: back)"),
            ("F1 or ?", "help on any screen"),
            ("ctrl+q", "quit at any moment; a game in play is saved"),
        ]
        self.app.push_screen(HelpScreen(None, keys))

    def choose_quit(self) -> None:
        self.app.exit(None)


@dataclasses.dataclass
class SavesListed(Message):
    """The saves folder, read through the catalog off the event loop."""

    infos: list[SaveInfo]
    note: str | None = None
    """Says how many damaged catalog rows were rebuilt, when any were."""
    watchable: dict[Path, int] = dataclasses.field(default_factory=dict)
    """The games in progress whose finished deals may be watched (one person plays), and how many there are."""


@dataclasses.dataclass
class SavesProgress(Message):
    """How far the first reading of a big saves folder has gone."""

    done: int
    total: int


@dataclasses.dataclass
class SaveRemoved(Message):
    """A save deleted, archived or restored off the event loop: what was done, or why it was not."""

    text: str
    problem: str = ""


SAVES_KEYS = "Enter: open · d: delete · a: archive (moved to archive/) · v or F2: archived saves · Esc: back"
ARCHIVE_KEYS = "Enter or u: restore to the saves · d: delete · v or F2: back to the saves · Esc: back"
PROGRESS_EVERY = 25
"""Saves read between two progress lines while the catalog is built."""


def save_line(info: SaveInfo, deals: int | None = None) -> Text:
    """One save in the list; a broken one says why on a second line. Names are shown inert, never read as markup.

    `deals`: a game in progress listed among the replays, with that many finished deals to watch.
    """
    if info.status == "broken":
        return Text(inert(f"{info.path.name}  {info.game}  broken") + "\n  " + inert(info.problem or "cannot be read"))
    score = " / ".join(map(str, info.totals)) if info.totals else "-"
    status = info.status.replace("_", " ")
    watch = "" if deals is None else f"  ({deals} finished deal{'' if deals == 1 else 's'})"
    return Text(inert(f"{info.path.name}  {info.game}  {status}  {score}{watch}"))


def watchable_deals(summary: SavedSummary | None) -> int:
    """How many finished deals of a game in progress a replay may show from its catalog summary: none where
    more than one person plays (a replay shows every hand) or the game is one deal."""
    from cardtui.replay import why_no_past_deals

    if summary is None or summary.finished:
        return 0
    people = sum(1 for seat in summary.seats if seat.person)
    deals = len(summary.deals)
    return 0 if why_no_past_deals(summary.game, people, deals) else deals


class SavePicker(ModalScreen[Path | None]):
    """The saved games, most recently written first, or a path typed in; d deletes and a archives the chosen one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="saves.back"),
        Binding("d,delete", "remove('delete')", "Delete", id="saves.delete"),
        Binding("a", "remove('archive')", "Archive", id="saves.archive"),
        Binding("u", "restore", "Restore", id="saves.restore"),
        # F2 too: it reaches the archive from the path input, which takes `v` as a letter (with no save listed the
        # input has the focus).
        Binding("f2,v", "toggle_archive", "Archived saves", id="saves.archived"),
    ]

    def __init__(self, title: str, replays: bool = False, last: Path | None = None) -> None:
        """`last`: the save highlighted once listed (the one just watched), else the first."""
        super().__init__()
        self.title_text = title
        self.replays = replays
        self.last = last
        """The replays: finished games, and the games in progress whose finished deals may be watched."""
        self.infos: list[SaveInfo] = []
        self.archived = False
        """The list shows the archive folder (`v` switches): Enter or `u` restores a save from it."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="saves-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield OptionList(id="saves-list")
            yield Static("Reading the saves folder…", id="saves-note", markup=False)
            yield Input(placeholder="or type the path of a save file and Enter", id="save-path")
            yield Static("", id="saves-message", markup=False)
            yield Static(SAVES_KEYS, id="saves-keys", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#saves-list").display = False
        self.list_saves()

    @work(thread=True, exclusive=True, group="saves")
    def list_saves(self) -> None:
        """The folder through the catalog: only saves written since the last look are read again."""
        from cardtui.catalog import list_entries

        def progress(done: int, total: int) -> None:
            if done % PROGRESS_EVERY == 0 and done < total:
                self.post_message(SavesProgress(done, total))

        from cardtui.saves import archive_dir

        try:
            listing = list_entries(archive_dir() if self.archived else None, progress=until_cancelled(progress))
        except Stopped:
            return
        watchable: dict[Path, int] = {}
        if self.replays and not self.archived:
            deals = ((e.info.path, watchable_deals(e.summary)) for e in listing if e.info.status == "in_progress")
            watchable = {path: count for path, count in deals if count}
        self.post_message(SavesListed([e.info for e in listing], listing.note, watchable))

    def on_saves_progress(self, message: SavesProgress) -> None:
        self.query_one("#saves-note", Static).update(f"Reading the saves folder… {message.done} of {message.total}")

    def on_saves_listed(self, message: SavesListed) -> None:
        listing = self.query_one("#saves-list", OptionList)
        was = listing.highlighted
        watchable = message.watchable
        if self.replays and not self.archived:
            self.infos = [i for i in message.infos if i.status == "finished" or i.path in watchable]
        else:
            self.infos = message.infos
        left_out = len(message.infos) - len(self.infos)
        if message.note:
            self.say(message.note)
        listing.clear_options()
        lines = [save_line(info, watchable.get(info.path)) for info in self.infos]
        listing.add_options([Option(line, id=str(i)) for i, line in enumerate(lines)])
        note = self.query_one("#saves-note", Static)
        saves = f"{left_out} save{'' if left_out == 1 else 's'} with nothing to watch yet"
        why = "broken, no deal finished, or more than one person at the table while the game goes on"
        if was is None and self.last is not None:
            was = next((i for i, info in enumerate(self.infos) if info.path == self.last), None)
        self.last = None
        if self.infos:
            listing.display = True
            listing.highlighted = min(was or 0, len(self.infos) - 1)
            listing.focus()
            note.update(f"Not listed: {saves} ({why}).")
            note.display = left_out > 0
        elif self.archived:
            listing.display = False
            note.update("No archived saves.")
            note.display = True
            self.set_focus(None)  # keys stay the list's (v goes back), not typed into the path
        else:
            listing.display = False
            none = f"No game to watch yet ({saves} not listed: {why})." if left_out else "No saved games yet."
            note.update(f"{none} F2: the archived saves.")
            note.display = True
            self.query_one("#save-path", Input).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.archived:
            self.action_restore()
            return
        self.dismiss(self.infos[int(event.option.id or 0)].path)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Archive in the saves' list; restore in the archive's."""
        if action == "restore":
            return self.archived
        if action == "remove" and parameters[0] == "archive":
            return not self.archived
        return True

    def action_toggle_archive(self) -> None:
        """`v`: the archive folder's saves in place of the saves (and back)."""
        self.archived = not self.archived
        title = "Archived saves" if self.archived else self.title_text
        self.query_one(".dialog-title", Static).update(title)
        self.query_one("#saves-keys", Static).update(ARCHIVE_KEYS if self.archived else SAVES_KEYS)
        self.query_one("#saves-list", OptionList).highlighted = None
        self.say("")
        self.refresh_bindings()
        self.list_saves()

    def action_restore(self) -> None:
        info = self.chosen()
        if info is None:
            self.say("Choose an archived save in the list first.")
            return
        self.say(f"Restoring {info.path.name}…")
        self.restore_save(info.path)

    @work(thread=True, exclusive=True, group="saves-remove")
    def restore_save(self, path: Path) -> None:
        from cardtui.saves import restore_save

        try:
            moved = restore_save(path)
        except SaveError as err:
            self.post_message(SaveRemoved("", str(err)))
            return
        self.post_message(SaveRemoved(f"Restored {path.name} to the saves as {moved.name}."))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.dismiss(Path(event.value.strip()).expanduser())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def say(self, text: str) -> None:
        self.query_one("#saves-message", Static).update(inert(text))

    def chosen(self) -> SaveInfo | None:
        listing = self.query_one("#saves-list", OptionList)
        if not listing.display or listing.highlighted is None or not self.infos:
            return None
        return self.infos[listing.highlighted]

    def action_remove(self, how: str) -> None:
        """Ask first, then delete the highlighted save or move it to the archive folder."""
        from cardtui.saves import ARCHIVE_FOLDER
        from cardtui.tui.screens.confirm import ConfirmScreen

        info = self.chosen()
        if info is None:
            self.say("Choose a save in the list first.")
            return
        name = info.path.name
        if info.path.is_dir() and not info.path.is_symlink():  # listed for its .json name; never removed whole
            self.say(f"{name} is a folder, not a save file: only saves are deleted or archived here.")
            return
        if how == "delete":
            dialog = ConfirmScreen("Delete the save?", f"{name} will be deleted; it cannot be undone.", "delete it")
        else:
            dialog = ConfirmScreen(
                "Archive the save?",
                f"{name} will move to the {ARCHIVE_FOLDER} folder inside the saves folder and leave these lists and"
                " the statistics (restore it to count it again).",
                "archive it",
            )

        def answered(yes: bool | None) -> None:
            if yes:
                self.say(f"{'Deleting' if how == 'delete' else 'Archiving'} {name}…")
                self.remove_save(info.path, how)

        self.app.push_screen(dialog, answered)

    @work(thread=True, exclusive=True, group="saves-remove")
    def remove_save(self, path: Path, how: str) -> None:
        from cardtui.saves import archive_save, delete_save

        try:
            if how == "delete":
                delete_save(path)
                self.post_message(SaveRemoved(f"Deleted {path.name}."))
            else:
                moved = archive_save(path)
                self.post_message(SaveRemoved(f"Archived {path.name} to {moved.parent.name}/{moved.name}."))
        except SaveError as err:
            self.post_message(SaveRemoved("", str(err)))

    def on_save_removed(self, message: SaveRemoved) -> None:
        said = message.problem or message.text
        self.say(said)  # under a long list too: the line below it may be out of sight
        self.notify(inert(said), severity="error" if message.problem else "information", markup=False)
        if not message.problem:
            self.list_saves()
