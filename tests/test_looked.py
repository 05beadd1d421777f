"""A person who has seen their hand may no longer bid blind this deal, and the save keeps that: leaving, quitting
or a crash and a resume never turn the hand face down again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtui.games.base import ToMove
from cardtui.rules import load_preset
from cardtui.saves import SaveError, load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.settings import Settings
from tests.support.tui import drawn_when, fast_forward

SEATS = [Seat("You", "human"), Seat("West", "bot", "easy"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]


def blind_bid_turn(path: Path) -> Session:
    session = Session.new(load_preset("spades-blind"), SEATS, 5, save_path=path)
    fast_forward(session, lambda s: s.game.to_move == ToMove(0, "bid"))
    return session


def test_a_look_is_saved_and_read_back_and_a_new_deal_forgets_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = blind_bid_turn(path)
    assert "looked" not in json.loads(path.read_text())  # nothing to say: the key is left out
    session.look(0)
    assert json.loads(path.read_text())["looked"] == [0]
    session.close()
    again = Session.resume(path)
    assert again.looked == {0}
    fast_forward(again, lambda s: s.deal_number == 2)
    assert again.looked == set() and "looked" not in json.loads(path.read_text())
    again.close()


@pytest.mark.parametrize("bad", [[4], [0, 0], ["0"], 0, [True]])
def test_a_save_with_a_wrong_looked_list_is_refused_in_one_sentence(tmp_path: Path, bad: object) -> None:
    path = tmp_path / "game.json"
    blind_bid_turn(path).close()
    data = json.loads(path.read_text())
    data["looked"] = bad
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"looked: expected a list of distinct seat numbers 0\.\.3"):
        load_save(path)


async def test_after_a_look_and_a_resume_the_bid_dialog_offers_no_blind_bid(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = blind_bid_turn(path)
    session.look(0)
    session.close()
    app = CardtuiApp(Start(session=Session.resume(path)), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        text = await drawn_when(pilot, app, lambda _: isinstance(app.screen, BidScreen))
        dialog = app.screen
        assert isinstance(dialog, BidScreen), text
        assert not dialog.blind_stage and not any(b.blind for b in dialog.bids)
        assert "face down" not in text
