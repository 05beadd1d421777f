"""Eight of Spades: the grid and illuminati, each player's points, the call, the log and the prompt."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from cardtui.games import Event, PlayerView
from cardtui.games.base import Phase
from cardtui.session import Session
from cardtui.source import TableSource
from cardtui.tui.common import fit_parts
from cardtui.tui.screens.dialog import Keys
from cardtui.tui.screens.fit import FitsTerminal
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.prompt_bar import PromptBar
from cardtui.tui.widgets.scoreboard import Scoreboard
from cardtui.tui.widgets.text_line import TextLines
from cardtui.variants import entry_of
from cardtui.variants.base import Grid, GridView

FLIP_PROMPT = "Your turn: call with c d h s 8, move with arrows or type D4 / I2, Enter flips"


class GridScreen(FitsTerminal, GameScreen):
    """All of the table is public, so there is no hand to hide between people's turns."""

    FOLDS_SIDE = False  # the points and the call stay in sight: the side panel narrows instead
    MOVE_KEYS: ClassVar[Keys] = (
        ("c d h s 8", "call clubs, diamonds, hearts, spades or the eight of spades"),
        ("arrows", "move over the grid; down from row 7 reaches the illuminati"),
        ("D4, I2", "type a position to move there (c or d then a digit is a position)"),
        ("Enter or Space", "flip the card under the cursor with the call"),
    )
    MORE_KEYS: ClassVar[Keys] = (
        ("F4 / shift+F4", "computer players faster / slower (remembered)"),
        ("F9", "settings: speed, theme, suits as letters, hint level"),
    )
    MOVE_WORD = "flip"
    DEALING = "laying out"

    def __init__(self, session: Session | TableSource, settings: Settings, resumed: bool = False) -> None:
        super().__init__(session, settings, resumed)
        grid = entry_of(self.source.ruleset).grid
        assert grid is not None  # every game the grid draws has its places, calls and words
        self.grid: Grid = grid

    def compose(self) -> ComposeResult:
        yield TextLines("", id="status")
        with Horizontal(id="main"):
            yield GridBoard(self.grid, self.ascii_only, id="board")
            with Vertical(id="side"):
                yield TextLines("", id="call-line", wrap=True)
                yield Scoreboard(id="scores")
                yield GameLog(self.tell, self.viewer, id="log")
        yield PromptBar(id="promptbar")
        yield self.size_notice()
        yield KeyFooter()

    def seat_view(self) -> PlayerView:
        """The view of the seat at the keyboard (or of the first person's seat)."""
        return self.source.view(self.viewer if self.viewer is not None else self.humans[0] if self.humans else 0)

    def view(self) -> GridView:
        """The seat's view as the grid reads it: the board and each seat's points."""
        return self.grid.view(self.seat_view())

    def hand_over(self, seat: int) -> None:
        self.viewer = seat
        self.redraw()
        self.advance()

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        view = self.seat_view()
        v = self.grid.view(view)
        board = self.query_one(GridBoard)
        board.show(v.faces, v.down, v.locked)
        tm = view.to_move
        # each line fits the side panel (25 columns, fewer on a narrow terminal): a line cut short would hide a seat
        scores = self.query_one(Scoreboard)
        width = scores.content_region.width or 25
        name_width = max(4, min(12, width - 8))
        lines = fit_parts(["Points", *self.grid.terms(view)], width)
        for seat in range(v.seats):
            mark = "▶" if tm is not None and tm.seat == seat else " "
            out = " out" if seat in v.eliminated else ""
            won = " ★" if seat in v.winners else ""
            lines.append(f"{mark} {self.who(seat)[:name_width]:<{name_width}} {v.points[seat]:>4}{out}{won}")
        lines += fit_parts([f"Face down {bin(v.down).count('1')}", self.settings.speed], width)
        scores.show(lines)
        call = board.call
        calls = " ".join(f"[{c}]" if c == call else c for c, _ in self.grid.calls)
        where = self.grid.position_name(board.cursor)
        self.query_one("#call-line", TextLines).set(
            f"Call: {calls}\n{dict(self.grid.calls).get(call or '', 'no call yet')} at {where}"
        )
        whose = self.whose_turn(view)
        title = entry_of(view.ruleset).title
        rules = f" · {view.ruleset.title}" if view.ruleset.title != title else ""  # never said twice
        self.set_status(f" {title}{rules} · {whose}")

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.call_after_refresh(self.redraw)  # the points are fitted to the side panel's new width

    def ask_person(self, seat: int, phase: Phase) -> None:
        self.turn_came()
        self.show_prompt(FLIP_PROMPT if len(self.humans) < 2 else f"{self.who(seat)}: " + FLIP_PROMPT[11:])
        self.query_one(GridBoard).focus()

    def handle(self, events: list[Event]) -> None:
        super().handle(events)

    def on_grid_board_changed(self, message: GridBoard.Changed) -> None:
        self.prompt_bar().set_typed(message.typed)
        self.redraw()

    def on_grid_board_problem(self, message: GridBoard.Problem) -> None:
        self.say(message.text, error=True)

    def on_grid_board_flip_requested(self, message: GridBoard.FlipRequested) -> None:
        seat = self.human_turn()
        if seat is None:
            self.say(self.NOT_YET, error=True)
            return
        if message.call is None:
            self.say("Choose a call first: c, d, h, s or 8 (the eight of spades).", error=True)
            return
        flip = self.grid.flip(self.seat_view(), seat, message.call, message.pos)
        if isinstance(flip, str):  # the engine's own reason, from the public table: nothing is sent
            self.say(flip, error=True)
            return
        self.apply_action(flip)
