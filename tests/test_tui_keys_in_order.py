"""Keys that arrive in a burst (a paste, tmux, a very quick typist) act in the order they were pressed.

Textual runs a focused widget's bindings (Enter, Space, arrows) only after the
key has bubbled up to the app; the hand and the grid run their own at once, so a
character typed just after Enter can't slip in before it.
"""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input

from cardtui.cards import parse_card
from cardtui.games.eight_of_spades import parse_position
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.keys_in_order import InOrderInput
from cardtui.variants import find_game


class Holder(App[None]):
    """One widget, focused, and every message it posts, in order."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget
        self.seen: list[Message] = []

    def compose(self) -> ComposeResult:
        yield self.widget

    def on_mount(self) -> None:
        self.widget.focus()

    def on_hand_picked(self, message: Hand.Picked) -> None:
        self.seen.append(message)

    def on_hand_problem(self, message: Hand.Problem) -> None:
        self.seen.append(message)

    def on_grid_board_flip_requested(self, message: GridBoard.FlipRequested) -> None:
        self.seen.append(message)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        self.seen.append(message)


async def burst(pilot: Pilot[None], keys: str) -> list[Message]:
    """Every key posted at once, without waiting for any to be handled, as a terminal delivers a burst; then
    every message the widget has posted so far."""
    app = pilot.app
    assert isinstance(app, Holder)
    for key in keys.split():
        char = {"enter": "\r", "space": " "}.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, char))
    await pilot.pause()
    return app.seen


async def test_a_typed_card_then_enter_then_the_next_code_plays_the_first_card() -> None:
    hand = Hand()
    async with Holder(hand).run_test() as pilot:
        hand.show([parse_card(c) for c in ("2H", "QS", "AS", "3D")])
        seen = await burst(pilot, "q s enter 2 h")
        assert [(type(m), getattr(m, "card", None)) for m in seen] == [(Hand.Picked, parse_card("QS"))]
        assert hand.buffer == "2h"
        seen = await burst(pilot, "enter right space")
        # 2H as typed, then the cursor moves on from it and Space picks QS
        assert [m.card.code for m in seen if isinstance(m, Hand.Picked)] == ["QS", "2H", "QS"]


async def test_keys_typed_after_the_last_card_do_not_reach_the_next_deal() -> None:
    """A code typed ahead belongs to this deal's hand: once it is empty, no card can be meant, so what was typed
    is forgotten and keys typed at an empty hand are not kept for the next deal's first card."""
    hand = Hand()
    async with Holder(hand).run_test() as pilot:
        hand.show([parse_card("2H")])
        seen = await burst(pilot, "2 h enter k c")
        assert [m.card.code for m in seen if isinstance(m, Hand.Picked)] == ["2H"]
        assert hand.buffer == "kc"
        hand.show([])
        assert hand.buffer == ""
        await burst(pilot, "q s")
        assert hand.buffer == ""
        hand.show([parse_card(c) for c in ("2S", "QS")])
        seen = await burst(pilot, "2 s enter")
        assert [m.card.code for m in seen if isinstance(m, Hand.Picked)] == ["2H", "2S"]  # every pick so far


async def test_a_call_and_position_then_enter_then_another_call_flips_the_first() -> None:
    grid = find_game("eight-of-spades").grid
    assert grid is not None
    board = GridBoard(grid)
    async with Holder(board).run_test() as pilot:
        seen = await burst(pilot, "c a 1 enter h b 2")
        assert [(m.call, m.pos) for m in seen if isinstance(m, GridBoard.FlipRequested)] == [
            ("C", parse_position("A1"))
        ]
        assert (board.call, board.cursor) == ("H", parse_position("B2"))


async def test_a_bid_typed_then_enter_then_more_keys_submits_the_bid_alone() -> None:
    field = InOrderInput()
    async with Holder(field).run_test() as pilot:
        seen = await burst(pilot, "4 enter q s backspace")
        assert [m.value for m in seen if isinstance(m, Input.Submitted)] == ["4"]
        assert field.value == "4q"
