"""The replay timeline: every jump lands on the same state a straight replay reaches."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardtui.games import create_game
from cardtui.replay import Replay
from cardtui.saves import load_save

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def fingerprint(replay: Replay) -> tuple[object, ...]:
    game = replay.game
    tm = game.to_move
    views = tuple(repr(game.view(s)) for s in range(game.seats))
    return (tm, game.scores, views)


def straight(path: Path, position: int) -> tuple[object, ...]:
    loaded = load_save(path)
    game = create_game(loaded.ruleset)
    for a in loaded.log[:position]:
        game.apply(a)
    return (game.to_move, game.scores, tuple(repr(game.view(s)) for s in range(game.seats)))


@pytest.mark.parametrize("name", ["hearts.json", "spades-blind.json", "eight-of-spades.json"])
def test_random_jumps_match_a_straight_replay(name: str) -> None:
    replay = Replay.open(SAMPLES / name, checkpoint_every=16)
    rng = random.Random(name)
    for _ in range(8):
        p = rng.randrange(len(replay) + 1)
        assert replay.seek(p) == p
        assert fingerprint(replay) == straight(SAMPLES / name, p)


def test_forward_and_back() -> None:
    replay = Replay.open(SAMPLES / "hearts.json")
    replay.start()
    assert replay.at_start and replay.last_action() is None and replay.deal_index() == -1
    assert replay.forward()
    assert replay.position == 1 and replay.deal_index() == 0
    assert replay.last_action() is not None and replay.last_action().type == "deal"  # type: ignore[union-attr]
    replay.back()
    assert replay.position == 0
    assert replay.back() == 0
    replay.end()
    assert replay.at_end and replay.forward() == [] and replay.game.is_over


def test_tricks_and_deals() -> None:
    replay = Replay.open(SAMPLES / "spades.json")
    replay.start()
    replay.next_deal()
    assert replay.position == 1 and replay.game.to_move is not None
    first_trick_end = replay.next_trick()
    assert replay.log[first_trick_end - 1].type == "play"
    plays = sum(1 for a in replay.log[:first_trick_end] if a.type == "play")
    assert plays == 4
    assert replay.next_trick() == first_trick_end + 4
    assert replay.prev_trick() == first_trick_end
    second_deal = replay.next_deal()
    assert replay.log[second_deal - 1].type == "deal" and second_deal > first_trick_end
    assert replay.prev_deal() == 1
    assert replay.prev_deal() == 0
    replay.end()
    assert replay.next_trick() == len(replay) and replay.next_deal() == len(replay)


def test_state_at_is_independent() -> None:
    replay = Replay.open(SAMPLES / "hearts-mid-deal.json")
    replay.seek(10)
    game = replay.state_at(20)
    before = replay.game.to_move
    game.apply(game.legal_actions()[0])
    assert replay.game.to_move == before
    assert replay.state_at(20).to_move == replay.state_at(20).to_move


def test_from_save_dict_and_clamping() -> None:
    import json

    replay = Replay.from_save(json.loads((SAMPLES / "cutthroat.json").read_text()))
    assert replay.seek(-5) == 0 and replay.seek(10**9) == len(replay)
