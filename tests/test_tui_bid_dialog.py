"""The bid dialog shows the bids made so far this deal, the partner's named as such, and offers its own keys."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Static

from cardtui.games.base import Bid
from cardtui.tui.app import CardtuiApp
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from tests.support.tui import dialog_message, fast_forward, make_app, settle, settled_at


def your_bid_after_others(session: Any) -> bool:
    tm = session.game.to_move
    return tm is not None and tm.seat == 0 and tm.phase == "bid" and any(session.game.view(0).detail.bids)


async def test_the_bid_dialog_shows_earlier_bids_and_the_partner() -> None:
    app, session = make_app("spades", seed=8)
    fast_forward(session, your_bid_after_others)
    bids = session.game.view(0).detail.bids  # type: ignore[attr-defined]
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, BidScreen)
        earlier = str(app.screen.query_one("#bid-earlier", Static).content)
    assert bids[1] is None and bids[2] is not None and bids[3] is not None  # North and East bid before you
    assert earlier == f"Bids so far: North (your partner) {bids[2].bid}, East {bids[3].bid}"


async def test_the_first_bidder_is_told_so_and_cutthroat_has_no_partner() -> None:
    app, session = make_app("cutthroat", seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, BidScreen)
        bids = session.game.view(0).detail.bids  # type: ignore[attr-defined]
        earlier = str(app.screen.query_one("#bid-earlier", Static).content)
    made = [b for b in bids if b is not None]
    assert "partner" not in earlier
    if made:
        assert earlier.startswith("Bids so far: ") and all(f" {b.bid}" in earlier for b in made if b.bid)
    else:
        assert earlier == "Nobody has bid yet."


@pytest.mark.parametrize(("preset", "offered"), [("spades", "4, nil"), ("spades-blind", "4, nil, blind nil, blind 5")])
async def test_the_bid_prompt_offers_blind_bids_only_when_the_rules_do(preset: str, offered: str) -> None:
    """At the first deal nobody trails, so the pagat rules offer no blind bid; seed 000's table offers any."""
    app, _ = make_app(preset, seed=8)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, BidScreen)
        field = dialog.query_one("#bid-input", Input)
        assert field.placeholder == f"type a bid: {offered} — then Enter"
        await pilot.press(*"seven", "enter")
        said = dialog_message(dialog)
        if "blind" in offered:  # once the hand is looked at, the prompt offers only what may still be bid
            assert dialog.blind_stage
            await pilot.press("escape")
            await pilot.pause()
            assert field.placeholder == "type a bid: 4, nil — then Enter"
    allowed = "a number of tricks 0 to 13, or nil"
    assert said == f"not a bid: 'seven' — type {allowed}" + (
        ", each may be blind (blind 5)" if "blind" in offered else ""
    )


def footer_keys(app: CardtuiApp) -> set[str]:
    """What the footer in front offers: the descriptions of the shown, usable keys."""
    return {b.binding.description for b in app.screen.active_bindings.values() if b.binding.show and b.enabled}


async def test_the_dialogs_footer_offers_its_own_keys_and_look_only_while_the_hand_is_face_down() -> None:
    app, _session = make_app("spades-blind", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        assert dialog.blind_stage
        assert footer_keys(app) == {"Help", "Hint", "Set aside", "Scores", "Look at the hand"}
        await pilot.press("escape")
        assert not dialog.blind_stage and app.screen is dialog
        assert footer_keys(app) == {"Help", "Hint", "Set aside", "Scores"}


async def test_a_refused_blind_nil_says_the_side_must_trail_and_by_how_much_it_does() -> None:
    """At the first deal the scores are level, so the pagat rules refuse blind nil: the dialog says the real
    reason (the side must trail by 100) and where the scores stand, not a guess at rules or score."""
    app, _ = make_app("spades", seed=8)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        await pilot.press(*"blind nil", "enter")
        said = dialog_message(dialog)
    assert said == "blind nil only when your side trails by 100 or more (the scores are level)"


async def test_cutthroat_for_three_takes_a_typed_bid_up_to_the_seventeen_cards_held() -> None:
    app, session = make_app("cutthroat-3", seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, BidScreen) and len(dialog.hand) == 17
        assert dialog.help_keys()[0] == ("0-17 or nil + Enter", "bid that many tricks (nil: none)")
        await pilot.press("1", "8", "enter")
        assert dialog_message(dialog) == "not a bid: '18' — type a number of tricks 0 to 17, or nil"
        await pilot.press("1", "5", "enter")
        await settle(pilot, app)
    assert Bid(0, 15, False) in session.log


def wests_bid_after_yours(session: Any) -> bool:
    tm = session.game.to_move
    return tm is not None and tm.seat == 1 and tm.phase == "bid" and session.game.view(1).detail.bids[0] is not None


async def test_in_hot_seat_another_persons_bid_dialog_does_not_call_the_first_seat_you() -> None:
    app, session = make_app("spades", seed=8, humans=(0, 1))
    fast_forward(session, wests_bid_after_yours)
    bids = session.game.view(1).detail.bids  # type: ignore[attr-defined]
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, HotSeatScreen):
            await pilot.press("space")
        dialog = await settled_at(pilot, app, BidScreen)
        earlier = str(dialog.query_one("#bid-earlier", Static).content)
    assert "You" not in earlier
    assert f"South {bids[0].bid}" in earlier and f"East (your partner) {bids[3].bid}" in earlier


@pytest.mark.parametrize("typed", ["\u0661\u0663", "b\u0661", "\u00b2", "blind \u0663"])
def test_a_bid_is_written_in_ascii_digits(typed: str) -> None:
    """Arabic-Indic digits bid 13 unnoticed and a superscript two raised Python's own "invalid literal" words."""
    from cardtui.tui.common import parse_bid_text

    with pytest.raises(ValueError, match=r"^not a bid: "):
        parse_bid_text(typed)
