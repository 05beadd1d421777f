"""The menu: new game, continue the last game, open a save, replays, house rules, help, quit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from cardtui.tui.app import CardtuiApp
    from cardtui.tui.screens.new_game import GameSetup

MENU = (
    ("new", "New game"),
    ("continue", "Continue the last game"),
    ("open", "Open a save"),
    ("replays", "Replays"),
    ("rules", "House rules"),
    ("help", "Help"),
    ("quit", "Quit"),
)


class MenuScreen(Screen[None]):
    """The first screen of `cardtui`; each entry opens the screen that does it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark,f1", "help", "Help", id="menu.help")]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static("cardtui", id="menu-title")
            yield Static("Hearts · Spades · Cutthroat · Eight of Spades", id="menu-subtitle")
            yield OptionList(*[Option(label, id=key) for key, label in MENU], id="menu-list")
            yield Static("", id="form-message", markup=False)
        yield Footer()

    @property
    def tui(self) -> CardtuiApp:
        return cast("CardtuiApp", self.app)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        getattr(self, f"choose_{event.option.id}")()

    def choose_new(self, rules_path: Path | None = None) -> None:
        from cardtui.tui.screens.new_game import NewGameScreen

        self.app.push_screen(NewGameScreen(rules_path), self.start_game)

    def start_game(self, setup: GameSetup | None) -> None:
        if setup is None:
            return
        from cardtui.saves import SaveError
        from cardtui.session import Session

        try:
            session = Session.new(None, setup.ruleset, setup.seats, setup.seed)
        except (SaveError, ValueError) as err:
            self.say(str(err))
            return
        self.tui.open_game(session)

    def choose_continue(self) -> None:
        from cardtui.saves import latest_unfinished, saves_dir

        found = latest_unfinished()
        if found is None:
            self.say(f"No unfinished game in {saves_dir()}")
            return
        self.open_save(found)

    def open_save(self, path: Path | None, replay: bool = False) -> None:
        if path is None:
            return
        from cardtui.replay import Replay
        from cardtui.saves import SaveError
        from cardtui.session import Session
        from cardtui.tui.screens.replay import ReplayScreen

        try:
            if replay:
                self.app.push_screen(ReplayScreen(Replay.open(path)))
                return
            session = Session.resume(path)
        except SaveError as err:
            self.say(str(err))
            return
        if session.is_over:
            self.app.push_screen(ReplayScreen(Replay.open(path)))
        else:
            self.tui.open_game(session, resumed=True)

    def choose_open(self) -> None:
        self.app.push_screen(SavePicker("Open a save (finished games open as replays)"), self.open_save)

    def choose_replays(self) -> None:
        self.app.push_screen(SavePicker("Watch a game again"), lambda p: self.open_save(p, replay=True))

    def choose_rules(self) -> None:
        from cardtui.tui.screens.rules_editor import RulesEditorScreen

        def done(path: Path | None) -> None:
            if path is not None:
                self.choose_new(path)

        self.app.push_screen(RulesEditorScreen(), done)

    def choose_help(self) -> None:
        self.action_help()

    def action_help(self) -> None:
        from cardtui.tui.screens.help import HelpScreen

        keys = [
            ("↑ ↓ and Enter", "choose in menus and lists"),
            ("Tab / shift+Tab", "move between fields in forms"),
            ("Esc", "back"),
            ("F1 or ?", "help on any screen"),
            ("ctrl+q", "quit at any moment; a game in play is saved"),
        ]
        self.app.push_screen(HelpScreen(None, keys))

    def choose_quit(self) -> None:
        self.app.exit(None)


class SavePicker(ModalScreen[Path | None]):
    """The saved games, newest first, or a path typed in."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back", id="saves.back")]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        from cardtui.saves import list_saves

        self.infos = list_saves()
        options = []
        for i, info in enumerate(self.infos):
            score = " / ".join(map(str, info.totals)) if info.totals else "-"
            status = info.status.replace("_", " ")
            options.append(Option(f"{info.path.name}  {info.game}  {status}  {score}", id=str(i)))
        with Vertical(classes="dialog", id="saves-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            if options:
                yield OptionList(*options, id="saves-list")
            else:
                yield Static("No saved games yet.", markup=False)
            yield Input(placeholder="or type the path of a save file and Enter", id="save-path")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.infos[int(event.option.id or 0)].path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.dismiss(Path(event.value.strip()).expanduser())

    def action_cancel(self) -> None:
        self.dismiss(None)
