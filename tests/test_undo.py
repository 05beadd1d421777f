"""Undo: a person alone at the table takes back a decision; the log keeps everything and replays the same."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.api import ApiError, new_game
from cardtui.cards import CardSet, parse_card
from cardtui.catalog import _Counter, summarise
from cardtui.games import IllegalAction, PlayerView, create_game, event_from_json
from cardtui.games.base import Bid, Play, ToMove, Undo, Undone
from cardtui.games.history import History
from cardtui.games.trick import TrickGame, TrickWon
from cardtui.replay import Replay
from cardtui.rules import Ruleset, load_preset
from cardtui.saves import SaveError, load_save, parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.dealing import make_deal
from tests.support.session import to_person, to_play

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
ONE_PERSON = [
    Seat("You", "human"),
    Seat("West", "bot", "random"),
    Seat("North", "bot", "random"),
    Seat("East", "bot", "random"),
]


def session_of(preset: str = "hearts", seed: int = 7, seats: list[Seat] | None = None, **knobs: Any) -> Session:
    rules = load_preset(preset)
    if knobs:
        rules = rules.replace(**knobs)
    return Session.new(rules, seats or ONE_PERSON, seed, autosave=False)


def everything(game: Any) -> tuple[tuple[PlayerView, ...], tuple[CardSet, ...]]:
    """The whole position: every seat's view and, in trick games, every hand."""
    views = tuple(game.view(s) for s in range(game.seats))
    hands = tuple(game.hand(s) for s in range(game.seats)) if isinstance(game, TrickGame) else ()
    return views, hands


def test_undo_brings_back_the_position_before_your_card() -> None:
    session = session_of()
    to_play(session)
    before, index = everything(session.game), len(session.log)
    card = session.game.legal_actions()[0]
    session.apply(card)
    to_person(session)
    game = session.game
    assert isinstance(game, TrickGame)
    assert game.hand(0) != before[1][0]
    undo = session.undo_action(0)
    assert undo == Undo(0, index)
    (event,) = session.apply(undo)
    assert isinstance(event, Undone) and event.taken_back[0] == card
    assert everything(session.game) == before
    # The log keeps the card and the computer players' moves after it, then the undo.
    assert session.log[index] == card and session.log[-1] == undo
    assert session.history.moves == index
    assert session.history.taken_back() == set(range(index, len(session.log) - 1))


def test_the_computer_players_answer_a_card_played_again_the_same_way() -> None:
    session = session_of("cutthroat", seed=3)
    to_play(session)
    card = session.game.legal_actions()[0]
    start = len(session.log)
    session.apply(card)
    to_person(session)
    first = session.log[start:]
    session.apply(session.undo_action(0))
    again = len(session.log)
    session.apply(card)
    to_person(session)
    assert session.log[again:] == first


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ("knob", "undo is off in these rules (undo = false)"),
        ("hot seat", "undo is only for one person playing against the computer, and here 2 people play"),
        ("fresh deal", "you have made no decision to take back since the cards were dealt or passed"),
    ],
)
def test_undo_is_refused_with_a_sentence(setup: str, why: str) -> None:
    seats = list(ONE_PERSON)
    if setup == "hot seat":
        seats[2] = Seat("North", "human")
    session = session_of("cutthroat", seats=seats, **({"undo": False} if setup == "knob" else {}))
    to_person(session)
    if setup != "fresh deal":
        session.apply(session.game.legal_actions()[0])
        to_person(session)
    assert session.undo_error(0) == why
    with pytest.raises(IllegalAction, match=why.split(" (")[0]):
        session.undo_action(0)


def test_undo_never_reaches_into_the_previous_deal_or_past_the_pass() -> None:
    session = session_of("hearts", seed=11)
    to_play(session)  # the pass is made and the passed cards have come in
    assert "since the cards were dealt or passed" in (session.undo_error(0) or "")
    while session.deal_number < 2:
        tm = session.game.to_move
        assert tm is not None
        if tm.phase == "deal" or session.seats[tm.seat].is_bot:
            session.play_bot_turn()
        else:
            session.apply(session.game.legal_actions()[0])
    assert "since the cards were dealt or passed" in (session.undo_error(0) or "")


def test_only_the_person_may_undo_and_only_to_their_last_decision() -> None:
    session = session_of("cutthroat")
    to_play(session)
    index = len(session.log)
    session.apply(session.game.legal_actions()[0])
    to_person(session)
    assert session.undo_error(1) == "only the person at the table (seat 0) may take back a move"
    with pytest.raises(IllegalAction, match=f"last decision is log\\[{index}\\], not log\\[{index - 1}\\]"):
        session.apply(Undo(0, index - 1))


def test_a_blind_bid_cannot_be_taken_back() -> None:
    history = History(load_preset("spades-blind"), [0])
    history.apply(make_deal(3, {}))
    history.apply(Bid(0, 4, blind=True))
    assert history.undo_error(0) == "a blind bid was made before you saw your cards, so it can't be taken back"


def test_undo_in_eight_of_spades_takes_back_a_flip() -> None:
    rules = load_preset("eight-of-spades").replace(players=2)
    session = Session.new(rules, [Seat("You", "human"), Seat("P1", "bot", "easy")], 4, autosave=False)
    to_person(session)
    before = everything(session.game)
    session.apply(session.game.legal_actions()[0])
    to_person(session)
    if not session.is_over:
        session.apply(session.undo_action(0))
        assert everything(session.game) == before


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.sampled_from(["hearts", "spades", "cutthroat"]), st.integers(0, 10**6), st.lists(st.booleans(), max_size=40))
def test_any_undo_gives_the_position_of_the_log_without_what_it_took_back(
    preset: str, seed: int, undos: list[bool]
) -> None:
    session = session_of(preset, seed=seed)
    rng = random.Random(seed)
    for undo in undos:
        to_person(session)
        if session.is_over:
            break
        if undo and session.undo_error(0) is None:
            session.apply(session.undo_action(0))
            kept = [session.log[i] for i in session.history.line]
            fresh = create_game(session.ruleset)
            for action in kept:
                fresh.apply(action)
            assert everything(session.game) == everything(fresh)
        else:
            session.apply(rng.choice(list(session.game.legal_actions())))
    # The save reloads to the same position, undos and all.
    loaded = parse_save(session.to_save())
    assert loaded.log == session.log and everything(loaded.game) == everything(session.game)


def game_with_an_undo(tmp_path: Path) -> tuple[Session, Path]:
    path = tmp_path / "undo.json"
    rules = load_preset("hearts")
    session = Session.new(rules, ONE_PERSON, 7, path)
    to_play(session)
    session.apply(session.game.legal_actions()[0])
    to_person(session)
    session.apply(session.undo_action(0))
    session.apply(session.game.legal_actions()[-1])
    to_person(session)
    return session, path


def test_a_save_with_an_undo_resumes_and_replays_the_same(tmp_path: Path) -> None:
    session, path = game_with_an_undo(tmp_path)
    data = json.loads(path.read_text())
    assert data["version"] == 2 and data["ruleset"]["undo"] is True
    assert [e for e in data["log"] if e["type"] == "undo"] == [a.to_json() for a in session.log if a.type == "undo"]
    assert len([e for e in data["log"] if e["type"] == "undo"]) == 1
    position = everything(session.game)
    session.close()
    resumed = Session.resume(path)
    assert resumed.log == session.log and everything(resumed.game) == position
    resumed.close()
    replay = Replay.open(path)
    index = next(i for i, a in enumerate(replay.log) if a.type == "undo")
    replay.seek(index)
    assert replay.taken_back() is None
    replay.forward()
    undone = replay.taken_back()
    assert undone is not None and undone.seat == 0 and undone.taken_back[0] == replay.log[undone.to]
    assert everything(replay.game) == everything(replay.state_at(undone.to))
    replay.end()
    assert everything(replay.game) == position
    for p in random.Random(3).sample(range(len(replay) + 1), len(replay) + 1):
        replay.seek(p)
        straight = History.replay(replay.loaded.ruleset, [0], replay.log[:p])
        assert everything(replay.game) == everything(straight.game), p


def test_a_version_1_save_with_an_undo_is_refused(tmp_path: Path) -> None:
    _, path = game_with_an_undo(tmp_path)
    data = json.loads(path.read_text())
    data["version"] = 1
    index = next(i for i, e in enumerate(data["log"]) if e["type"] == "undo")
    with pytest.raises(SaveError, match=rf"log\[{index}\]: a version 1 save holds no undo actions"):
        parse_save(data)


def old_marks(log: list[Any]) -> tuple[list[int], list[int]]:
    """Where deals start and tricks end, as version 1 logs were always read: every fourth play ends a trick."""
    deals, tricks, plays = [], [], 0
    for i, action in enumerate(log):
        if action.type == "deal":
            deals.append(i)
            plays = 0
        elif action.type == "play":
            plays += 1
            if plays % 4 == 0:
                tricks.append(i + 1)
    return deals, tricks


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_every_shipped_version_1_save_loads_and_replays_as_before(path: Path) -> None:
    data = json.loads(path.read_text())
    assert data["version"] == 1 and "undo" not in data["ruleset"]
    loaded = load_save(path)
    plain = create_game(loaded.ruleset)
    for entry in data["log"]:
        plain.apply(plain.parse_action(entry))
    assert everything(loaded.game) == everything(plain)
    assert [a.to_json() for a in loaded.log] == data["log"] and loaded.version == 1
    knobs = loaded.ruleset.to_dict()
    assert {k: knobs[k] for k in data["ruleset"]} == data["ruleset"] and knobs["undo"] is True
    if loaded.ruleset.game != "eight-of-spades":
        replay = Replay.open(path)
        assert (replay.deal_starts, replay.trick_ends) == old_marks(loaded.log)


def test_the_catalog_does_not_count_what_was_taken_back() -> None:
    counter = _Counter()
    trick = (parse_card("QS"), parse_card("2S"), parse_card("3S"), parse_card("4S"))
    counter(3, Play(0, trick[0]), [TrickWon(1, 0, trick)])
    counter(9, Play(2, trick[0]), [TrickWon(2, 0, trick)])
    assert counter.per_seat("hearts")[:3] == [0, 1, 1]
    counter(12, Undo(0, 6), [Undone(0, 6, ())])
    assert counter.per_seat("hearts")[:3] == [0, 1, 0]


def test_the_catalog_summary_of_a_save_with_an_undo(tmp_path: Path) -> None:
    session, path = game_with_an_undo(tmp_path)
    session.close()
    summary = summarise(path).to_json()
    assert summary["actions"] == len(session.log) and summary["status"] == "in_progress"


def test_the_api_takes_back_and_claims_through_apply() -> None:
    game = new_game("hearts", seed=7, seats=[s.to_json() for s in ONE_PERSON])
    while game.to_move is not None and (game.to_move["seat"] != 0 or game.to_move["phase"] != "play"):
        game.apply(game.suggest("random")["action"] if game.to_move["phase"] != "deal" else game.legal_actions()[0])
    before = game.view(0)
    played = game.apply(game.legal_actions()[0])
    assert played[0]["kind"] == "card_played"
    while game.to_move is not None and game.to_move["seat"] != 0:
        game.apply(game.suggest("random")["action"])
    events = game.undo(0)
    assert events[0]["kind"] == "undone" and events[0]["taken_back"][0] == game.log[events[0]["to"]]
    undone = event_from_json(events[0], "hearts")
    assert isinstance(undone, Undone) and undone.taken_back[0].to_json() == game.log[undone.to]
    assert game.view(0) == before and game.log[-1]["type"] == "undo"
    with pytest.raises(ApiError, match="no decision to take back"):
        game.undo(0)
    with pytest.raises(ApiError, match="claim when you are on lead at the start of a trick"):
        game.apply({"type": "claim", "seat": 0})
    with pytest.raises(ApiError, match=r"seat must be 0\.\.3"):
        game.undo(7)
    assert game.to_save()["version"] == 2


def test_a_ruleset_with_undo_off_dumps_and_loads(tmp_path: Path) -> None:
    from cardtui.rules import dump_toml, load_ruleset

    rules: Ruleset = load_preset("spades").replace(undo=False)
    text = dump_toml(rules)
    assert "undo = false" in text and "# If true, a person alone at the table" in text
    (tmp_path / "r.toml").write_text(text)
    assert load_ruleset(tmp_path / "r.toml").undo is False  # type: ignore[attr-defined]


def bid_then_play_to(dealer: int) -> History:
    """A Spades deal with the person at seat 0: everyone bids 3, then the first legal cards until seat 0 is to play."""
    history = History(load_preset("spades"), [0])
    history.apply(make_deal(dealer, {}))
    while history.game.to_move != ToMove(0, "play"):
        legal = history.game.legal_actions()
        history.apply(next((a for a in legal if isinstance(a, Bid) and a.bid == 3 and not a.blind), legal[0]))
    return history


def test_a_bid_stands_once_a_card_of_the_deal_is_played() -> None:
    """Taking back a bid after seeing the opening trick's first cards would be bidding again with them in view."""
    history = bid_then_play_to(dealer=0)  # West leads: three cards are down when the person is to play
    game = history.game
    assert isinstance(game, TrickGame) and len(game.trick) == 3
    assert history.undo_error(0) == "the play has begun, so the bids stand (a bid is taken back before any card)"


def test_a_bid_may_be_taken_back_before_any_card_is_played() -> None:
    history = bid_then_play_to(dealer=3)  # the person leads: no card is down yet
    game = history.game
    assert isinstance(game, TrickGame) and not game.trick
    history.apply(Undo(0, history.undo_target(0)))
    assert history.game.to_move is not None and history.game.to_move.phase == "bid"
