"""The house-rules editor: every knob with what it allows, checked as you type, saved as TOML."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Select, Static

from cardtui.files import occupied
from cardtui.inert import inert
from cardtui.rules import (
    Ruleset,
    RulesetError,
    dump_toml,
    house_rules,
    list_presets,
    read_house_rules,
    ruleset_from_dict,
    target_problem,
    write_toml,
)
from cardtui.rules.base import Bool, Check, ChoiceList, IntOrWord, IntRange, knob_help, show
from cardtui.tui.common import HOUSE
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.widgets.key_footer import KeyFooter

PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,59}")
"""A ruleset's name the editor also makes its file's name: letters, digits, `.`, `_` and `-`, not led by a dot."""


def _plain_name(name: str) -> bool:
    return PLAIN_NAME.fullmatch(name) is not None and not name.endswith(".toml")


def to_text(check: Check, value: Any) -> str:
    """A knob's value as typed in the editor: no TOML quoting, lists comma-separated."""
    plain = check.to_plain(value)
    if isinstance(plain, bool):
        return "true" if plain else "false"
    if isinstance(plain, list):
        return ", ".join(str(v) for v in plain)
    return str(plain)


def from_text(check: Check, text: str) -> Any:
    """What a typed text means for this knob; ValueError when the check refuses it."""
    raw = text.strip()
    value: Any = raw
    if isinstance(check, Bool):
        if raw.lower() not in ("true", "false"):
            raise ValueError
        value = raw.lower() == "true"
    elif isinstance(check, IntRange):
        value = int(raw)
    elif isinstance(check, IntOrWord):
        value = raw if raw == check.word else int(raw)
    elif isinstance(check, ChoiceList):
        value = [v for v in raw.replace(",", " ").split() if v]
    else:
        value = text
    check.convert(value)
    return check.to_plain(check.convert(value))


class ConfirmOverwrite(ModalScreen[bool]):
    """Asks before a file is replaced: True to replace it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Replace", id="overwrite.yes"),
        Binding("n,escape", "answer(False)", "Keep it", id="overwrite.no"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="overwrite-dialog"):
            yield Static("Replace the file?", classes="dialog-title", markup=False)
            yield Static(inert(f"{self.path} already exists; saving replaces it, comments and all."), markup=False)
            yield Static("y: replace it · n or Esc: keep it", markup=False)
        yield KeyFooter()

    def action_answer(self, replace: bool) -> None:
        self.dismiss(replace)


class RulesEditorScreen(Screen[tuple[Path, Ruleset] | None]):
    """Gives back a saved ruleset and its path, to play with at once, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="rules.back"),
        Binding("ctrl+s", "save", "Save", id="rules.save"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.presets = list_presets()
        self.house: list[tuple[Path, Ruleset]] = []
        """The house rules already saved in the rules folder, each openable as it is (read in a worker)."""
        self.base: Ruleset = self.presets[0]
        self.base_path: Path | None = None
        """The saved file the base was read from; None for a preset."""
        self.base_key = self.base.name
        """The Start from list's value for the base: a preset's name, or `house:` and a saved file's path."""
        self.shown: Ruleset = house_rules(self.base)
        """The base as the form first shows it: a preset named, titled and described as the player's own rules; a
        saved file as it is."""
        self.checks: dict[str, Check] = {}
        self.as_loaded: dict[str, str] = {}
        """Each knob's text as the form put it there, so Esc can tell whether anything typed would be lost."""
        self.loading = False
        self.waiting_save: bool | None = None
        """A save asked for (its `play`) while the list of presets was open or a preset's rows were on their way,
        made once the choice and its rows are in."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="form-row", id="rules-top"):
            yield Static("Start from ", classes="label")
            yield Select(
                self.starts(),
                value=self.base.name,
                allow_blank=False,
                id="preset",
            )
        yield VerticalScroll(id="knobs")
        yield Static("", id="form-message", markup=False)
        with Horizontal(id="rules-footer"):
            yield Input("", placeholder="file to save to", id="rules-path")
            yield Button("Save (ctrl+s)", id="save", compact=True)
            yield Button("Save and play", id="play", compact=True, variant="primary")
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.watch(self.query_one("#preset", Select), "expanded", self.presets_shown, init=False)
        await self.load(self.base)
        self.look_for_house_rules()

    @work(thread=True, exclusive=True, group="house-rules")
    def look_for_house_rules(self) -> None:
        """The rules already saved in the rules folder (files, so off the event loop), then offered to open."""
        from cardtui.saves import house_rules_dir

        found, _ = read_house_rules(house_rules_dir())  # New game says how many could not be read
        self.app.call_from_thread(self.house_rules_read, found)

    def house_rules_read(self, found: list[tuple[Path, Ruleset]]) -> None:
        self.house = found
        if found:
            select = self.query_one("#preset", Select)
            with self.prevent(Select.Changed):
                select.set_options(self.starts())
                select.value = self.base_key

    def starts(self) -> list[tuple[Text, str]]:
        """The Start from list: each preset, then each house-rules file already saved, named inert."""
        presets = [(Text(inert(f"{p.title} ({p.name})")), p.name) for p in self.presets]
        return presets + [(Text(inert(f"{r.title} ({path.name}, saved)")), HOUSE + str(path)) for path, r in self.house]

    def presets_shown(self, shown: bool) -> None:
        if not shown:
            self.save_waiting()

    def save_waiting(self) -> None:
        """Make a save that waited for the list of presets to close or a preset's rows to come in (it waits again
        while a chosen preset is still on its way)."""
        if self.waiting_save is not None:
            play, self.waiting_save = self.waiting_save, None
            self.save(play)

    async def load(self, ruleset: Ruleset, path: Path | None = None) -> None:
        """One row per field: its name, what it does and allows, the value, and an error line.

        Awaited, so the screen handles no other message between the old rows going and the new ones being
        mounted. The reading notes are several lines of prose, not a knob: they travel with the ruleset, as
        `house_rules` words them.
        """
        from cardtui.saves import house_rules_dir

        self.base, self.base_path = ruleset, path
        self.base_key = ruleset.name if path is None else HOUSE + str(path)
        self.shown = house_rules(ruleset) if path is None else ruleset
        self.loading = True
        knobs = self.query_one("#knobs", VerticalScroll)
        await knobs.remove_children()
        plain = ruleset.to_dict()
        rows = []
        self.checks = {}
        for field in dataclasses.fields(ruleset):
            if field.name in ("game", "notes"):
                continue
            check: Check = field.metadata["check"]
            self.checks[field.name] = check
            rows.append(
                Vertical(
                    Static(field.name, classes="knob-name", markup=False),
                    Static(knob_help(field), classes="knob-doc", markup=False),
                    Input(to_text(check, getattr(self.shown, field.name)), id=f"knob-{field.name}"),
                    Static("", classes="knob-error", id=f"error-{field.name}", markup=False),
                    classes="knob",
                )
            )
        await knobs.mount_all(rows)
        del plain
        self.query_one("#rules-path", Input).value = str(path or house_rules_dir() / f"{self.shown.name}.toml")
        self.as_loaded = self.typed()
        self.loading = False
        self.save_waiting()

    @on(Select.Changed, "#preset")
    async def preset_changed(self, event: Select.Changed) -> None:
        if event.value == self.base_key:
            return
        for p in self.presets:
            if p.name == event.value:
                await self.load(p)
        for path, r in self.house:
            if HOUSE + str(path) == event.value:
                await self.load(r, path)

    def typed(self) -> dict[str, str]:
        """Every knob's text now (the file's path is where to save, not the rules)."""
        return {key: self.query_one(f"#knob-{key}", Input).value for key in self.checks}

    @on(Input.Changed)
    def knob_changed(self, event: Input.Changed) -> None:
        key = (event.input.id or "").removeprefix("knob-")
        check = self.checks.get(key)
        if check is None or not (event.input.id or "").startswith("knob-"):
            return
        if key == "name" and not self.loading:
            self.path_follows(event.value)
        problem = ""
        try:
            from_text(check, event.value)
        except (ValueError, TypeError):
            problem = f"expected {check.allowed()}"
        event.input.set_class(bool(problem), "-invalid")
        self.query_one(f"#error-{key}", Static).update(inert(problem))

    def path_follows(self, name: str) -> None:
        """A renamed ruleset is saved under its new name: the path moves with it while it is still the one the form
        gave (a path typed by the player stays), and the name is a plain file name."""
        from cardtui.saves import house_rules_dir

        field = self.query_one("#rules-path", Input)
        folder = house_rules_dir()
        if Path(field.value).parent != folder or Path(field.value).suffix != ".toml":
            return
        if name == self.as_loaded.get("name"):  # the name the form showed: the file it was read from, if any
            field.value = str(self.base_path or folder / f"{name}.toml")
        elif _plain_name(name):
            field.value = str(folder / f"{name}.toml")

    def ruleset(self) -> Ruleset:
        """Every field read and checked together; a RulesetError names the knob."""
        data: dict[str, Any] = {"game": self.base.game, "notes": self.base.notes}
        for key, check in self.checks.items():
            text = self.query_one(f"#knob-{key}", Input).value
            try:
                data[key] = from_text(check, text)
            except (ValueError, TypeError):
                raise RulesetError(f"{key}: expected {check.allowed()}, found {show(text)}") from None
        rules = ruleset_from_dict(data)
        if self.base_path is not None:  # a saved file: its name, title and description are the player's already
            return rules
        if rules.description == self.shown.description:  # left as shown: it says what differs from the preset
            rules = rules.replace(description=self.base.description)
        return house_rules(self.base, rules)

    def save(self, play: bool = False) -> None:
        """Check every knob, ask before replacing a file, then write (and with `play`, go on to a new game).

        A save asked for while the list of presets is open (keys typed fast: Down, Enter, ctrl+s reach the screen
        before the list has made its choice) or a chosen preset is on its way to the form waits for the choice and
        its rows, so what is written is the preset chosen, as the form then shows it.
        """
        presets = self.query_one("#preset", Select)
        if presets.expanded or self.loading or presets.value != self.base_key:
            self.waiting_save = play
            return
        message = self.query_one("#form-message", Static)
        try:
            ruleset = self.ruleset()
        except RulesetError as err:
            message.update(inert(str(err)))
            return
        path = Path(self.query_one("#rules-path", Input).value.strip()).expanduser()

        def answered(replace: bool | None) -> None:
            if replace:
                self.write(ruleset, path, play)
            else:
                message.update(inert(f"Not saved: {path} is kept as it was."))

        problem = target_problem(path)
        if problem is not None:
            message.update(inert(problem))
            return
        if occupied(path):
            self.app.push_screen(ConfirmOverwrite(path), answered)
        else:
            self.write(ruleset, path, play)

    def write(self, ruleset: Ruleset, path: Path, play: bool) -> None:
        message = self.query_one("#form-message", Static)
        try:
            write_toml(path, dump_toml(ruleset), make_folders=True)
        except RulesetError as err:
            message.update(inert(str(err)))
            return
        message.update(inert(f"Saved {path} — play it with `cardtui play {ruleset.game} --rules {path}`"))
        if play:
            self.dismiss((path, ruleset))

    def action_save(self) -> None:
        self.save()

    @on(Button.Pressed, "#save")
    def save_pressed(self) -> None:
        self.save()

    @on(Button.Pressed, "#play")
    def play_pressed(self) -> None:
        self.save(play=True)

    def action_cancel(self) -> None:
        """Back to the menu; first a question when something typed here would be lost."""
        if self.typed() == self.as_loaded:
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        question = "What you changed here is not saved; leaving drops it (ctrl+s saves)."
        self.app.push_screen(ConfirmScreen("Leave without saving?", question, "leave", "stay"), answered)
