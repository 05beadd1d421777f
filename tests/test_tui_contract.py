"""Spades contract progress in the side panel: each side's bid, tricks won, still needed, each nil, bags."""

from __future__ import annotations

from collections.abc import Callable

from cardtui.games.base import Bid, ToMove
from cardtui.games.spades import SpadesView
from cardtui.session import Session
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.scoreboard import Scoreboard
from tests.support.tui import fast_forward, make_app, settled_at


def spades_view(session: Session) -> SpadesView:
    view = session.game.view(0)
    assert isinstance(view, SpadesView)
    return view


def tricks_in(count: int) -> Callable[[Session], bool]:
    def stop(session: Session) -> bool:
        return len(spades_view(session).tricks) >= count and session.game.to_move == ToMove(0, "play")

    return stop


async def test_partnership_sides_show_bid_won_need_nil_and_bags() -> None:
    app, session = make_app("spades", seed=5)
    fast_forward(session, lambda s: s.game.to_move == ToMove(0, "bid"))
    session.apply(Bid(0, 0))  # You bid nil
    fast_forward(session, tricks_in(4))
    view = spades_view(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        await pilot.pause()
        text = screen.query_one("#scores", Scoreboard).text
        bids = view.detail.bids
        for i, side in enumerate(view.sides):
            made = [bids[s] for s in side]
            assert all(b is not None for b in made)
            contract = sum(b.bid for b in made if b is not None)
            won = sum(view.tricks_won[s] for s in side)
            nils = [s for s in side if (b := bids[s]) is not None and b.bid == 0]
            counted = won - sum(view.tricks_won[s] for s in nils)
            names = " + ".join(session.seats[s].name for s in side)
            assert f"{names}: bid {contract}\n" in text, text
            need = contract - counted
            state = f"need {need}" if need > 0 else "made" + (f", {-need} over" if need else "")
            assert f"won {won} · {state}" in text, text
            assert f"bags {view.detail.bags[i]} carried" in text
        taken = view.tricks_won[0]
        assert ("You nil: safe so far" if taken == 0 else f"You nil: broken ({taken} taken)") in text, text


async def test_cutthroat_shows_each_seat_on_its_own() -> None:
    app, session = make_app("cutthroat", seed=5)
    fast_forward(session, tricks_in(3))
    view = spades_view(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        await pilot.pause()
        text = screen.query_one("#scores", Scoreboard).text
        for seat, bid in enumerate(view.detail.bids):
            assert bid is not None
            assert f"{session.seats[seat].name}: bid {bid.bid}\n  won {view.tricks_won[seat]}" in text, text
        assert "+" not in text.split("Contracts this deal")[1]  # nobody is partnered
        assert "bags" not in text.split("Contracts this deal")[1]  # cutthroat counts no bags


async def test_hearts_has_no_contracts() -> None:
    app, session = make_app("hearts", seed=5)
    fast_forward(session, lambda s: s.game.to_move == ToMove(0, "play"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        text = screen.query_one("#scores", Scoreboard).text
        assert "Scores" in text and "Contracts" not in text


async def test_a_nil_bid_is_said_nil_in_the_contracts_as_on_the_seat() -> None:
    app, session = make_app("cutthroat", seed=5)
    fast_forward(session, lambda s: s.game.to_move == ToMove(0, "bid"))
    session.apply(Bid(0, 0))  # You bid nil
    fast_forward(session, tricks_in(1))
    view = spades_view(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        await pilot.pause()
        text = screen.query_one("#scores", Scoreboard).text
    taken = view.tricks_won[0]
    assert f"You: bid nil\n  won {taken} · nil\n" in text, text
    assert "bid 0" not in text and "no contract" not in text
