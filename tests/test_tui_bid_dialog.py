"""The bid dialog shows the bids made so far this deal, the partner's named as such."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from cardtui.tui.screens.bid import BidScreen
from tests.test_tui_support import fast_forward, make_app, settle


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
