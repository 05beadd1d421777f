"""The prompt line never says what is no longer true: a turn that is over, a seat that is not thinking."""

from __future__ import annotations

from typing import Any

from cardtui.games.base import Play
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.prompt_bar import PromptBar
from cardtui.tui.widgets.text_line import TextLines
from tests.support.tui import (
    fast_forward,
    make_app,
    pass_first_cards,
    settle,
    settled_at,
    type_text,
    workers_done,
)


def prompt_of(table: TableScreen) -> str:
    return table.query_one("#prompt-line", TextLines).text


async def test_your_turn_goes_when_your_card_ends_the_trick() -> None:
    app, session = make_app("hearts", seed=5)
    game: Any = session.game
    fast_forward(session, lambda s: getattr(s.game.to_move, "seat", None) == 0 and len(s.game.view(0).trick) == 3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert prompt_of(table).startswith("Your turn")
        table.settings.trick_delay_override = 60.0  # the finished trick stays on the table
        legal = [a for a in game.legal_actions() if isinstance(a, Play)]
        await type_text(pilot, legal[0].card.code)
        await workers_done(app)
        await pilot.pause()
        assert table.held is not None
        assert not prompt_of(table).startswith("Your turn")
        assert prompt_of(table) == table.held[1] + "."


async def test_nobody_is_thinking_under_the_end_of_the_deal() -> None:
    app, session = make_app("hearts", seed=6)
    fast_forward(session, lambda s: sum(isinstance(a, Play) for a in s.log) >= 50)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(4):
            await settle(pilot, app)
            if isinstance(app.screen, DealEndScreen):
                break
            legal = [a for a in session.game.legal_actions() if isinstance(a, Play)]
            await type_text(pilot, legal[0].card.code)
        assert isinstance(app.screen, DealEndScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        assert "thinking" not in prompt_of(table) and not prompt_of(table).startswith("Your turn")


async def test_a_refusal_goes_when_the_next_code_is_started_and_a_hint_stays() -> None:
    """`not a card: '11c'` answers the last code; once the next one is being typed it is stale and goes. A hint
    is not a refusal: it stays while the person types the card it suggests."""
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        table = await settled_at(pilot, app, TableScreen)
        bar = table.query_one(PromptBar)
        await type_text(pilot, "11c")
        assert bar.message.startswith("not a card: '11c'")
        await pilot.press("q")
        assert bar.message == ""
        await pilot.press("backspace")
        table.say("Hint (hard): play 2♣ — the only card")
        await pilot.press("2")
        assert bar.message.startswith("Hint")
