"""A new game: which game, which rules (a preset or a TOML file), who sits where, and the seed."""

from __future__ import annotations

import dataclasses
import re
import secrets
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static
from textual.worker import Worker, WorkerState

from cardtui.inert import inert
from cardtui.rules import OtherGame, Ruleset, SeatCountConflict, list_presets, read_house_rules, resolve_ruleset
from cardtui.saves import MAX_SEED
from cardtui.seats import MAX_NAME, Seat, SeatError, check_seats, default_names, place_names
from cardtui.tui.common import GAME_TITLES, HOUSE
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.variants import GAMES, find_game

FILE = "__file__"
MAX_SEATS = 8


@dataclasses.dataclass(frozen=True)
class GameSetup:
    """Everything `Session.new` needs."""

    ruleset: Ruleset
    seats: list[Seat]
    seed: int


@dataclasses.dataclass(frozen=True)
class Form:
    """The form as typed; `setup()` reads its rules (maybe a file, so off the event loop) and checks them."""

    game: str
    rules: str
    path: str
    players: int
    seats: list[Seat]
    seed: int

    def setup(self) -> GameSetup:
        """The GameSetup, or a ValueError (a RulesetError too) saying what is wrong.

        The rules are read as `--rules` is (`resolve_ruleset`): the game's own preset and a file without
        `players` are re-seated for the Players chosen; rules that say how many play (a preset for a count,
        house rules, a file writing `players`) at another count are refused, naming both.
        """
        if self.rules == FILE:
            if not self.path:
                raise ValueError("type the path of a TOML rules file, or choose a preset")
            spec: str | Path = Path(self.path).expanduser()
        elif self.rules.startswith(HOUSE):
            spec = Path(self.rules.removeprefix(HOUSE))
        else:
            spec = self.rules
        entry = find_game(self.game)
        try:
            ruleset = resolve_ruleset(self.game, spec, self.players if entry.players_knob else None)
        except SeatCountConflict as err:
            title, seats = err.ruleset.title, err.ruleset.seats
            raise ValueError(
                f"Rules: {title} are for {seats} players, not {self.players} — choose {seats} players, or other rules"
            ) from None
        except OtherGame as err:
            theirs = find_game(err.ruleset.game).title
            raise ValueError(
                f"Rules: {err.ruleset.title} are for {theirs}, not {entry.title} — choose {theirs} as the game, or "
                "other rules"
            ) from None
        ruleset = entry.with_seats(ruleset, self.players)
        return GameSetup(ruleset, self.seats, self.seed)


def seat_problem(err: SeatError) -> str:
    """A seat check's refusal in the form's words: `seats[1].name` is the field the person sees, "Seat 1's name"."""
    match = re.fullmatch(r"seats\[(\d+)\]\.(\w+)", err.where)
    if match is None:
        return f"Seats: {err.message}"
    seat, field = match.groups()
    if field == "name" and (same := re.match(r"seats\[(\d+)\] has the same name", err.message)):
        return f"Seat {seat}'s name: Seat {same[1]} has that name; every seat needs a name of its own"
    if field == "name":
        return f"Seat {seat}'s name: a name is 1 to {MAX_NAME} printable characters (no tabs or control keys)"
    return f"Seat {seat}'s {field}: {err.message}"


def _levels(game: str) -> tuple[str, ...]:
    from cardtui.variants import levels

    return tuple(levels(game))


class NewGameScreen(Screen[GameSetup | None]):
    """Gives back a GameSetup, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="new-game.back"),
        Binding("ctrl+s", "start", "Start", id="new-game.start"),
    ]

    def __init__(self, rules_path: Path | None = None, game: str | None = None, players: int | None = None) -> None:
        """`rules_path`, `game` and `players`: the form filled in for rules just saved in the editor."""
        super().__init__()
        self.presets = list_presets()
        self.house: list[tuple[Path, Ruleset]] = []
        """The house rules saved in the rules folder (read by a worker once the form is up)."""
        self.rules_path = rules_path
        self.game = game if game in GAME_TITLES else GAMES[0].name
        self._offered_counts = self._player_counts()
        """The player counts the players choice offers (they follow the game)."""
        self.given_players = players if any(n == players for _, n in self._offered_counts) else None
        self._conflict_said = False
        """Whether the message line names rules for another count (it goes once they agree)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="form", id="new-game-form"):
            yield Static("New game", classes="dialog-title")
            with Horizontal(classes="form-row"):
                yield Label("Game")
                yield Select([(t, g) for g, t in GAME_TITLES.items()], value=self.game, allow_blank=False, id="game")
            with Horizontal(classes="form-row"):
                yield Label("Rules")
                yield Select(self._rule_options(), value=self._default_rules(), allow_blank=False, id="rules")
            with Horizontal(classes="form-row"):
                yield Label("TOML file")
                yield Input(str(self.rules_path or ""), placeholder="path of a TOML rules file", id="file")
            with Horizontal(classes="form-row"):
                yield Label("Players")
                seats = self.given_players or find_game(self.game).rules().seats
                yield Select(self._offered_counts, value=seats, allow_blank=False, id="players")
            for seat in range(MAX_SEATS):
                with Horizontal(classes="form-row seat-row", id=f"seat-row-{seat}"):
                    yield Label(f"Seat {seat}")
                    yield Input("", max_length=MAX_NAME, id=f"name-{seat}")
                    yield Select(
                        [("person", "human")], value="human", allow_blank=False, id=f"kind-{seat}", classes="kind"
                    )
            with Horizontal(classes="form-row"):
                yield Label("Seed")
                yield Input("", placeholder="blank = random; the same seed deals the same cards", id="seed")
        yield Static("", id="form-message", markup=False)
        with Horizontal(id="new-game-footer"):
            yield Button("Start (ctrl+s)", id="start", variant="primary", compact=True)
        yield KeyFooter()

    def _rule_options(self) -> list[tuple[Text, str]]:
        out = [(Text(inert(f"{p.title} ({p.name})")), p.name) for p in self.presets if p.game == self.game]
        out += [
            (Text(inert(f"{r.title} ({path.name}, house rules)")), HOUSE + str(path))
            for path, r in self.house
            if r.game == self.game
        ]
        return [*out, (Text("TOML file…"), FILE)]

    def _default_rules(self) -> str:
        if self.rules_path is not None:
            return FILE
        names = [p.name for p in self.presets if p.game == self.game]
        return self.game if self.game in names else (names[0] if names else FILE)

    def on_mount(self) -> None:
        self._fill_seats(reset_names=True)
        self.query_one("#game", Select).focus()
        self.look_for_house_rules()

    @work(thread=True, exclusive=True, group="house-rules")
    def look_for_house_rules(self) -> None:
        """The rulesets the house-rules editor saved (files, so off the event loop), then offered."""
        from cardtui.saves import house_rules_dir

        found, broken = read_house_rules(house_rules_dir())
        self.app.call_from_thread(self.house_rules_read, found, broken)

    def house_rules_read(self, found: list[tuple[Path, Ruleset]], broken: list[Path]) -> None:
        """Offer the house rules in the Rules list, keeping what is chosen; name the files that could not be read."""
        self.house = found
        self._offer_rules(keep=True)
        if broken:
            from cardtui.saves import house_rules_dir

            names = ", ".join(path.name for path in broken[:3]) + (
                f" and {len(broken) - 3} more" if len(broken) > 3 else ""
            )
            files = "file" if len(broken) == 1 else "files"
            self.say(
                f"{len(broken)} {files} in {house_rules_dir()} could not be read as rules ({names}): "
                "`cardtui rules validate FILE` says why."
            )

    def _offer_rules(self, keep: bool) -> None:
        """The Rules list for the game chosen: `keep` the choice when it is still there, else the default (the
        TOML file when a path is typed)."""
        rules = self.query_one("#rules", Select)
        chosen = rules.value
        options = self._rule_options()
        with self.prevent(Select.Changed):  # a choice made here is not a person choosing over a typed path
            rules.set_options(options)
            if keep and any(value == chosen for _, value in options):
                rules.value = chosen
            elif self.query_one("#file", Input).value.strip():
                rules.value = FILE
            else:
                rules.value = self._default_rules()

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(inert(text))

    @on(Input.Changed, "#file")
    def file_typed(self, event: Input.Changed) -> None:
        """A path typed is the rules to play with: the Rules list follows it to "TOML file…"."""
        if event.value.strip():
            self.query_one("#rules", Select).value = FILE

    @on(Select.Changed, "#rules")
    def rules_chosen(self, event: Select.Changed) -> None:
        """A preset or house rules chosen over a typed path: the path goes, so nothing on the form is ignored;
        and the Players field takes the count the rules are for (`hearts-3`: 3)."""
        if event.value != FILE:
            self.query_one("#file", Input).value = ""
        seats = self._rules_seats(event.value)
        players = self.query_one("#players", Select)
        if seats is not None and players.display and any(n == seats for _, n in self._offered_counts):
            players.value = seats

    def _rules_seats(self, value: object) -> int | None:
        """How many play by the rules chosen in the list; None for a file not read yet."""
        if isinstance(value, str) and value.startswith(HOUSE):
            return next((r.seats for path, r in self.house if HOUSE + str(path) == value), None)
        return next((p.seats for p in self.presets if p.game == self.game and p.name == value), None)

    def _reseat_rules(self) -> None:
        """The Players field changed: a preset gives way to the game's preset for that count (`hearts-3` for 3,
        the game's own preset first); house rules for another count are named in a note (Start refuses them)."""
        rules = self.query_one("#rules", Select)
        seats, count = self._rules_seats(rules.value), self._count()
        if self._conflict_said:
            self._conflict_said = False
            self.say("")
        if seats is None or seats == count or find_game(self.game).players_knob is None:
            return
        if isinstance(rules.value, str) and rules.value.startswith(HOUSE):
            title = next((r.title for path, r in self.house if HOUSE + str(path) == rules.value), "")
            self.say(f"Rules: {title} are for {seats} players, not {count} — choose {seats} players, or other rules")
            self._conflict_said = True
            return
        ours = sorted((p for p in self.presets if p.game == self.game), key=lambda p: p.name != self.game)
        sibling = next((p.name for p in ours if p.seats == count), None)
        if sibling is not None:
            rules.value = sibling
        elif rules.value != self.game and any(p.name == self.game for p in ours):
            rules.value = self.game  # the game's own preset plays at any count its rules take

    def _player_counts(self) -> list[tuple[str, int]]:
        """The choices of how many play: every count the game takes (Eight of Spades' 2 to 8)."""
        return [(str(n), n) for n in find_game(self.game).seat_counts]

    def _count(self) -> int:
        entry = find_game(self.game)
        if entry.players_knob is None:
            return entry.seat_counts[0]
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else entry.rules().seats

    def _fill_seats(self, reset_names: bool = False) -> None:
        players = self.query_one("#players", Select)
        players.display = find_game(self.game).players_knob is not None
        counts = self._player_counts()
        if players.display and counts != self._offered_counts:
            self._offered_counts = counts
            chosen = players.value
            players.set_options(counts)
            players.value = chosen if any(n == chosen for _, n in counts) else find_game(self.game).rules().seats
        levels = _levels(self.game)
        options = [("person", "human")] + [(f"computer: {lv}", lv) for lv in levels]
        default = find_game(self.game).default_level
        names = default_names(self._count())
        for seat in range(MAX_SEATS):
            row = self.query_one(f"#seat-row-{seat}")
            row.display = seat < self._count()
            kind = self.query_one(f"#kind-{seat}", Select)
            kind.set_options(options)
            kind.value = "human" if seat == 0 else default
            name = self.query_one(f"#name-{seat}", Input)
            if reset_names or not name.value:
                name.value = names[seat] if seat < len(names) else f"Player {seat + 1}"

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.game:
            self.game = event.value
            self._offer_rules(keep=False)
            self._fill_seats(reset_names=True)
            self._reseat_rules()

    @on(Select.Changed, "#players")
    def players_changed(self) -> None:
        self._fill_seats(reset_names=True)
        self._reseat_rules()

    @on(Select.Changed, ".kind")
    def kind_changed(self) -> None:
        """A second person at the keyboard: a seat still called "You" (the default) is called by its place, as
        "You" on the next person's screen would be someone else."""
        count = self._count()
        kinds = [self.query_one(f"#kind-{seat}", Select).value for seat in range(count)]
        if kinds.count("human") < 2:
            return
        for seat, place in enumerate(place_names(count)):
            name = self.query_one(f"#name-{seat}", Input)
            if name.value == "You":
                name.value = place

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            form = self.form()
        except ValueError as err:
            self.say(str(err))
            return
        self.check_setup(form)

    @work(thread=True, exclusive=True, group="new-game")
    def check_setup(self, form: Form) -> GameSetup | str:
        """Read the rules off the event loop: a TOML file may be slow, huge or not a file at all."""
        try:
            return form.setup()
        except ValueError as err:
            return str(err)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The rules are read: start with them, or say what is wrong (the worker is done, so leaving is safe)."""
        if event.worker.group != "new-game" or event.state != WorkerState.SUCCESS:
            return
        result = event.worker.result
        if isinstance(result, GameSetup):
            self.dismiss(result)
        else:
            self.say(str(result))

    def form(self) -> Form:
        """The form read; the seats checked as a save's seats are; a ValueError says what is wrong."""

        seats: list[Seat] = []
        for seat in range(self._count()):
            name = self.query_one(f"#name-{seat}", Input).value.strip() or f"Player {seat + 1}"
            kind = self.query_one(f"#kind-{seat}", Select).value
            seats.append(Seat(name, "human") if kind == "human" else Seat(name, "bot", str(kind)))
        try:
            checked = list(check_seats(seats, len(seats), self.game))
        except SeatError as err:
            raise ValueError(seat_problem(err)) from None
        text = self.query_one("#seed", Input).value.strip()
        if not text:
            seed = secrets.randbelow(2**32)
        elif text.isascii() and text.isdigit() and int(text) <= MAX_SEED:
            seed = int(text)
        else:
            raise ValueError(f"seed: a whole number 0..{MAX_SEED}, or blank for a random one")
        rules = str(self.query_one("#rules", Select).value)
        path = self.query_one("#file", Input).value.strip()
        return Form(self.game, rules, path, self._count(), checked, seed)

    def action_cancel(self) -> None:
        self.dismiss(None)
