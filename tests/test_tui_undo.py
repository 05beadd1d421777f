"""Pilot tests: ctrl+z takes back your card at the table, F5 claims, and the replay shows the undo."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from cardtui.games.base import Play
from cardtui.games.trick import TrickGame
from cardtui.replay import Replay
from cardtui.rules import load_preset
from cardtui.saves import build_save, parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import card_label
from cardtui.tui.screens.claimed import ClaimedScreen
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.prompt_bar import PromptBar
from tests.support.dealing import make_deal
from tests.support.session import to_person, to_play
from tests.support.tui import in_front, make_app, pass_first_cards, settle, settled_at, type_text

SEATS = [Seat("You", "human"), *(Seat(name, "bot", "easy") for name in ("West", "North", "East"))]


async def test_ctrl_z_takes_back_your_card_and_the_computer_players_after_it() -> None:
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        await settle(pilot, app)
        table = app.screen
        assert isinstance(table, TableScreen)
        game = session.game
        assert isinstance(game, TrickGame)
        hand, trick = game.hand(0), list(game.trick)
        await pilot.press("ctrl+z")
        assert "since the cards were dealt or passed" in table.query_one(PromptBar).message
        card = next(a.card for a in game.legal_actions() if isinstance(a, Play))
        await type_text(pilot, card.code)
        await settle(pilot, app)
        after = session.game
        assert isinstance(after, TrickGame) and card not in after.hand(0)
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        restored = session.game
        assert isinstance(restored, TrickGame)
        assert restored.hand(0) == hand and list(restored.trick) == trick
        assert session.log[-1].type == "undo"
        lines = table.query_one(GameLog).lines()
    assert any(line.startswith(f"You take back {card_label(card, False)}") for line in lines), lines[-6:]


async def test_f5_refuses_a_claim_that_is_not_certain_and_says_why() -> None:
    app, session = make_app("cutthroat", seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(20):
            await settle(pilot, app)
            if isinstance(app.screen, TableScreen):
                break
            await type_text(pilot, "3")
        table = app.screen
        assert isinstance(table, TableScreen)
        before = len(session.log)
        await pilot.press("f5")
        said = table.query_one(PromptBar).message
        assert said.startswith("Claim refused: ") and len(session.log) == before


@pytest.mark.parametrize("ascii_only", [False, True])
async def test_a_claim_refusal_names_the_cards_as_the_table_draws_them(ascii_only: bool) -> None:
    rules = load_preset("hearts").replace(pass_cycle=["none"])
    deal = make_deal(3, {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC AC 2D"})  # the king of clubs is out
    session = Session.of_save(parse_save(build_save(rules, SEATS, 1, [deal])))
    app = CardtuiApp(Start(session=session), Settings(speed="instant", ascii_only=ascii_only))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await settled_at(pilot, app, TableScreen)
        await pilot.press("f5")
        said = table.query_one(PromptBar).message
    cards = "2C (KC)" if ascii_only else "2♣ (K♣)"
    assert said == f"Claim refused: a club higher than your {cards} is still out."


@pytest.mark.parametrize("key", ["f5", "exclamation_mark"])  # `!`: where a browser takes F5 to reload
async def test_f5_claims_the_rest_when_every_trick_is_yours(key: str) -> None:
    rules = load_preset("hearts").replace(pass_cycle=["none"])
    deal = make_deal(3, {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"})
    session = Session.of_save(parse_save(build_save(rules, SEATS, 1, [deal])))
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        await pilot.press(key)
        await pilot.pause()
        ask = app.screen
        assert isinstance(ask, ConfirmScreen), "a claim is asked about first"
        assert "Claim the last 13 tricks?" in str(ask.query_one("#confirm-question", Static).render())
        await pilot.press("y")
        await settle(pilot, app)
        shown = app.screen
        assert isinstance(shown, ClaimedScreen), "the claimed tricks are shown before the deal's end"
        assert shown.title_text == "You claim the last 13 tricks:"
        lines = [str(line.render()) for line in shown.query("#claimed-tricks Static").results(Static)]
        assert len(lines) == 13 and all(line.endswith("You take it.") for line in lines)
        assert lines[0].startswith("You 2♣, West ") and lines[-1].startswith("You ")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, DealEndScreen)
        game = session.game
        assert isinstance(game, TrickGame) and game.deal_records[0].tricks == (13, 0, 0, 0)
        assert session.log[-1].to_json() == {"type": "claim", "seat": 0}


async def test_a_claim_answered_no_leaves_the_deal_as_it_was() -> None:
    rules = load_preset("hearts").replace(pass_cycle=["none"])
    deal = make_deal(3, {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"})
    session = Session.of_save(parse_save(build_save(rules, SEATS, 1, [deal])))
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await settled_at(pilot, app, TableScreen)
        before = len(session.log)
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot, app)
        assert in_front(app, table) and len(session.log) == before
        assert table.query_one(PromptBar).message == "No claim: play on."


async def test_the_replay_shows_the_undo_as_a_step() -> None:
    session = Session.new(load_preset("hearts"), SEATS, 7, autosave=False)
    to_play(session)
    card = session.game.legal_actions()[0]
    assert isinstance(card, Play)
    session.apply(card)
    to_person(session)
    session.apply(session.undo_action(0))
    replay = Replay.from_save(session.to_save())
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = ReplayScreen(replay)
        await app.push_screen(screen)
        await pilot.press("end")
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert f"after You took back {card_label(card.card, False)}" in status
        await pilot.press("left")
        await pilot.pause()
        assert "took back" not in str(screen.query_one("#status").render())


async def test_ctrl_z_while_the_computer_players_move_says_to_wait_and_the_words_stay() -> None:
    """ctrl+z pressed while computer players are moving is refused in words that stay until the person acts."""
    session = Session.new(load_preset("hearts"), SEATS, 7)
    app = CardtuiApp(Start(session=session), Settings(speed="instant", bot_delay_override=0.2))
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        table = await settled_at(pilot, app, TableScreen)
        game = session.game
        assert isinstance(game, TrickGame)
        card = next(a.card for a in game.legal_actions() if isinstance(a, Play))
        await type_text(pilot, card.code)
        assert table.waiting, "a computer player is thinking"
        await pilot.press("ctrl+z")
        said = table.query_one(PromptBar).message
        assert said == "Undo on your own turn, once the computer players have moved."
        await settle(pilot, app)
        assert table.human_turn() == 0 and session.log[-1] != Play(0, card)  # the computer players moved
        assert table.query_one(PromptBar).message == said
