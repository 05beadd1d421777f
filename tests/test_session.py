"""The session: autosave after every action, seeded deals that survive a resume, bots that see only their view."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardtui.api import ApiError, open_game
from cardtui.bots import Decision
from cardtui.games import IllegalAction, PlayerView, create_game
from cardtui.games.base import Bid
from cardtui.rules import load_preset
from cardtui.saves import SaveError, load_save
from cardtui.seats import Seat, default_seats
from cardtui.session import Session, bot_rng, deal_rng

BOTS = default_seats(4, "random", human=False)


def new(tmp_path: Path, preset: str = "spades", seed: int = 9) -> Session:
    ruleset = load_preset(preset)
    return Session.new(ruleset, BOTS, seed, tmp_path / "g.json")


def test_new_writes_an_empty_save(tmp_path: Path) -> None:
    session = new(tmp_path)
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["log"] == [] and data["seed"] == 9 and data["game"] == "spades"
    assert session.save_path == tmp_path / "g.json"


def test_default_save_path_is_in_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    session = Session.new(load_preset("hearts"), None, 1)
    assert session.save_path is not None and session.save_path.parent == tmp_path / "saves"
    assert session.save_path.name.startswith("hearts-")
    assert session.seats[0].kind == "human" and session.seats[1].kind == "bot"


def test_every_action_is_saved(tmp_path: Path) -> None:
    session = new(tmp_path)
    for n in range(1, 30):
        session.play_bot_turn()
        assert len(load_save(tmp_path / "g.json").log) == n


def test_illegal_action_changes_nothing(tmp_path: Path) -> None:
    session = new(tmp_path)
    session.advance_chance()
    before = (tmp_path / "g.json").read_bytes()
    with pytest.raises(IllegalAction):
        session.apply({"type": "bid", "seat": 3, "bid": 99})
    with pytest.raises(IllegalAction):
        session.apply({"type": "play", "seat": 0, "card": "ZZ"})
    assert len(session.log) == 1 and (tmp_path / "g.json").read_bytes() == before


def test_advance_chance_only_at_a_deal(tmp_path: Path) -> None:
    session = new(tmp_path)
    assert session.advance_chance()
    assert session.advance_chance() == []
    with pytest.raises(IllegalAction):
        session.chance_action()


def test_resume_deals_the_same_future(tmp_path: Path) -> None:
    whole = Session.new(load_preset("hearts"), BOTS, 4, autosave=False)
    for _ in range(200):
        whole.play_bot_turn()
    part = new(tmp_path, "hearts", 4)
    for _ in range(90):
        part.play_bot_turn()
    part.close()  # one writer per save: the first session lets go before the game is resumed
    resumed = Session.resume(tmp_path / "g.json")
    assert resumed.deal_number == part.deal_number
    for _ in range(110):
        resumed.play_bot_turn()
    assert [a.to_json() for a in resumed.log] == [a.to_json() for a in whole.log]


def test_same_seed_same_deals_different_seed_different() -> None:
    rs = load_preset("hearts")
    a = create_game(rs).chance_action(deal_rng(1, 0)).to_json()
    assert a == create_game(rs).chance_action(deal_rng(1, 0)).to_json()
    assert a != create_game(rs).chance_action(deal_rng(2, 0)).to_json()
    assert a != create_game(rs).chance_action(deal_rng(1, 1)).to_json()
    assert bot_rng(1, 5).random() == bot_rng(1, 5).random()


def test_bot_sees_only_its_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    class Spy:
        level = "spy"

        def decide(self, view: PlayerView, rng: random.Random) -> Decision:
            seen.append((view, rng.random()))
            return Decision(view.legal[0], "first")

    monkeypatch.setattr("cardtui.session.make_bot", lambda game, level: Spy())
    session = new(tmp_path)
    session.advance_chance()
    decision = session.bot_decision()
    view, draw = seen[0]
    assert isinstance(view, PlayerView) and not isinstance(view, type(session.game))
    assert session.game.to_move is not None and view.seat == session.game.to_move.seat
    assert draw == bot_rng(9, 1).random()
    assert decision.reason == "first"


def test_bot_decision_for_a_person_needs_a_level(tmp_path: Path) -> None:
    seats = [Seat("You", "human"), *BOTS[1:]]
    session = Session.new(load_preset("hearts"), seats, 3, autosave=False)
    session.advance_chance()
    while session.seat_to_move() != seats[0]:
        session.play_bot_turn()
    with pytest.raises(ValueError, match="is a person"):
        session.bot_decision()
    assert session.bot_decision("random").action in session.game.legal_actions()


def test_bot_decision_at_deal_or_end_is_refused(tmp_path: Path) -> None:
    session = new(tmp_path)
    with pytest.raises(IllegalAction):
        session.bot_decision()
    assert session.seat_to_move() is None


def test_bad_arguments(tmp_path: Path) -> None:
    rs = load_preset("hearts")
    with pytest.raises(ValueError, match="4 seats"):
        Session.new(rs, BOTS[:2], 1, autosave=False)
    with pytest.raises(ValueError, match="seed"):
        Session.new(rs, None, -5, autosave=False)
    with pytest.raises(ValueError, match="kind"):
        Session.new(rs, [{"name": "x", "kind": "?"}] * 4, 1, autosave=False)
    dict_seats = [s.to_json() for s in BOTS]
    assert Session.new(rs, dict_seats, 1, autosave=False).seats == tuple(BOTS)


def test_save_failure_is_a_save_error(tmp_path: Path) -> None:
    session = new(tmp_path)
    session.save_path = tmp_path / "missing" / "g.json"
    with pytest.raises(SaveError):
        session.advance_chance()


def test_resume_bad_file_is_save_error(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SaveError):
        Session.resume(tmp_path / "bad.json")


def test_whole_bot_game_finishes_and_reloads(tmp_path: Path) -> None:
    session = new(tmp_path, "eight-of-spades", 2)
    session.seats = tuple(Seat(s.name, "bot", "random") for s in session.seats)
    while not session.is_over:
        session.play_bot_turn()
    loaded = load_save(tmp_path / "g.json")
    assert loaded.game.is_over and loaded.game.scores == session.game.scores


def at_your_blind_bid(seed: int) -> Session:
    """A Spades deal where blind nil is always allowed, at seat 0's (a person's) bid."""
    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    session = Session.new(rules, default_seats(4, "easy"), seed, autosave=False)
    session.advance_chance()
    while session.game.to_move is not None and session.game.to_move.seat != 0:
        session.apply(session.bot_decision().action)
    return session


def test_once_you_have_looked_no_hint_offers_a_blind_bid_and_none_is_taken() -> None:
    blind_hints = 0
    for seed in range(20):
        session = at_your_blind_bid(seed)
        blind_hints += getattr(session.bot_decision("random").action, "blind", False)
        session.look(0)
        assert not getattr(session.bot_decision("random").action, "blind", False)
    assert blind_hints, "before looking, some hints were blind bids: the check above is not empty"
    with pytest.raises(IllegalAction, match="you have looked at your hand: a blind bid is made before looking"):
        session.apply(Bid(0, 0, blind=True))
    # The scripting API reads who looked from the save: it neither lists nor takes a blind bid then.
    api = open_game(session.to_save())
    assert [a for a in api.legal_actions() if a.get("blind")] == []
    with pytest.raises(ApiError, match="a blind bid is made before looking"):
        api.apply({"type": "bid", "seat": 0, "bid": 0, "blind": True})
