"""Hot seat: every line a person at the keyboard can read is what their seat may know."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot

from cardtui.games.base import Pass, Play, ToMove
from cardtui.rules import load_preset
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp
from cardtui.tui.common import card_label
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.widgets.log import GameLog
from tests.test_tui_support import answer_simply, make_app, pass_first_cards, settle, type_text

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def known_cards(session: Session, viewer: int | None) -> set[str]:
    """What the viewer's seat may know: cards played, and its own hand and the cards it passed."""
    game: Any = session.game
    cards = {a.card for a in session.log if isinstance(a, Play)}
    if viewer is not None:
        cards |= set(game.hand(viewer))
        cards |= {c for a in session.log if isinstance(a, Pass) and a.seat == viewer for c in a.cards}
    return {card_label(c, False) for c in cards}


def leaks(table: GameScreen) -> list[str]:
    """The log's lines naming a card the seat at the keyboard may not know."""
    known = known_cards(table.session, table.viewer)
    return [f"{table.viewer}: {line}" for line in table.query_one(GameLog).lines() if set(CARD.findall(line)) - known]


async def play_deal(pilot: Pilot[Any], app: CardtuiApp, session: Session, blind_nil: bool = False) -> list[str]:
    """Answer every person's turn through the passes or bids and two tricks; note the lines that leak at hand-overs.

    Returns what each seat passed, as the passer's own log told it (so the check is not empty)."""
    own_passes: list[str] = []
    found: list[str] = []
    for _ in range(400):
        await settle(pilot, app)
        screen = app.screen
        if isinstance(screen, HotSeatScreen):
            table = app.screen_stack[-2]
            assert isinstance(table, GameScreen)
            found += leaks(table)
            await pilot.press("space")
            await settle(pilot, app)
            table = app.screen if isinstance(app.screen, GameScreen) else app.screen_stack[-2]
            assert isinstance(table, GameScreen)
            found += leaks(table)
            mine = table.who(table.viewer or 0) + " pass"
            own_passes += [line for line in table.query_one(GameLog).lines() if line.startswith(mine)]
            continue
        if isinstance(screen, PassScreen):
            await pass_first_cards(pilot, screen)
            continue
        if isinstance(screen, BidScreen):
            await type_text(pilot, "blind nil" if blind_nil and screen.blind_stage else "look")
            if isinstance(app.screen, BidScreen):
                await type_text(pilot, "3")
            continue
        if not isinstance(screen, GameScreen) or sum(isinstance(a, Play) for a in session.log) >= 8:
            break
        await answer_simply(pilot, app)  # the first card that may be played
    assert found == []
    return own_passes


@pytest.mark.parametrize("humans", [(0, 1), (0, 1, 2), (0, 1, 2, 3)])
async def test_hearts_hand_over_shows_no_other_persons_passed_cards(humans: tuple[int, ...]) -> None:
    app, session = make_app("hearts", seed=4, humans=humans)
    async with app.run_test(size=(100, 30)) as pilot:
        passes = await play_deal(pilot, app, session)
    assert len(passes) >= 1, "a passer reads the cards they passed"


@pytest.mark.parametrize("humans", [(0, 1), (0, 1, 2), (0, 1, 2, 3)])
async def test_spades_blind_nil_exchange_stays_between_the_partners(humans: tuple[int, ...]) -> None:
    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    app, session = make_app("spades", seed=4, humans=humans, ruleset=rules)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_deal(pilot, app, session, blind_nil=True)
    assert any(isinstance(a, Pass) for a in session.log), "the blind nil exchange was made"


async def test_cutthroat_hand_over_shows_no_hand() -> None:
    app, session = make_app("cutthroat", seed=4, humans=(0, 1, 2, 3))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_deal(pilot, app, session)


async def test_an_optional_exchange_may_pass_no_cards_on_both_sides() -> None:
    # Seed 002: "the bidder may exchange two cards with partner" — the pass dialog takes Enter with none chosen.
    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    app, session = make_app("spades", seed=4, humans=(0, 2), ruleset=rules)
    titles: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(60):
            await settle(pilot, app)
            screen = app.screen
            if isinstance(screen, HotSeatScreen):
                await pilot.press("space")
            elif isinstance(screen, BidScreen):
                you = session.game.to_move == ToMove(0, "bid")  # You (seat 0) bid blind nil, North looks
                await type_text(pilot, "blind nil" if screen.blind_stage and you else "look")
                if isinstance(app.screen, BidScreen):
                    await type_text(pilot, "3")
            elif isinstance(screen, PassScreen):
                titles.append(screen.title_text)
                await pilot.press("enter")
            elif sum(isinstance(a, Pass) for a in session.log) == 2:
                break
    passes = [a for a in session.log if isinstance(a, Pass)]
    assert passes == [Pass(0, ()), Pass(2, ())]
    assert titles == [
        "You: give 2 cards to your partner North, or none (Enter with none chosen) to keep your hand",
        "North: your partner You passed you no cards: Enter passes none back",
    ]
