"""The finished deals of a game in progress, as a replay: never the deal being played, never in hot seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtui.replay import Replay
from cardtui.rules import load_preset
from cardtui.saves import SaveError, parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.tui import fast_forward

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def session_of(preset: str, people: int = 1, seed: int = 3) -> Session:
    rules = load_preset(preset)
    count = getattr(rules, "players", 4)
    seats = [Seat(f"P{i}", "human") if i < people else Seat(f"P{i}", "bot", "easy") for i in range(count)]
    return Session.new(rules, seats, seed, autosave=False)


def deals_done(session: Session) -> int:
    return len(getattr(session.game, "deal_records", ()))


def deal_starts(session: Session) -> list[int]:
    return [i for i, action in enumerate(session.log) if action.type == "deal"]


@pytest.mark.parametrize("preset", ["hearts", "spades"])
def test_a_game_in_the_middle_of_a_deal_replays_up_to_the_end_of_the_last_finished_one(preset: str) -> None:
    session = session_of(preset)
    fast_forward(session, lambda s: deals_done(s) == 2 and not s.game.is_chance and len(s.log) > deal_starts(s)[-1] + 6)
    assert not session.is_over and deals_done(session) == 2
    replay = Replay.finished_deals(parse_save(session.to_save(), "game.json"))
    cut = deal_starts(session)[-1]
    assert replay.in_progress and len(replay) == cut
    assert replay.log == session.log[:cut]  # not one action of the deal being played
    replay.end()
    assert len(replay.game.deal_records) == 2  # type: ignore[attr-defined]
    assert replay.game.is_chance  # it stops where the third deal's cards would come
    assert sum(1 for a in replay.log if a.type == "deal") == 2


def test_between_two_deals_every_logged_action_is_a_finished_deal() -> None:
    session = session_of("hearts")
    fast_forward(session, lambda s: deals_done(s) == 1 and s.game.is_chance)
    replay = Replay.finished_deals(parse_save(session.to_save(), "game.json"))
    assert len(replay) == len(session.log)


def test_hot_seat_is_refused_with_the_reason() -> None:
    session = session_of("hearts", people=2)
    fast_forward(session, lambda s: deals_done(s) == 1 and not s.game.is_chance)
    with pytest.raises(SaveError, match=r"^save: 2 people play this game, and a replay shows every hand"):
        Replay.finished_deals(parse_save(session.to_save(), "game.json"))


def test_no_finished_deal_yet_is_refused() -> None:
    session = session_of("spades")
    fast_forward(session, lambda s: len(s.log) > 10)
    with pytest.raises(SaveError, match="no deal of this game has finished yet"):
        Replay.finished_deals(parse_save(session.to_save(), "game.json"))


def test_a_game_of_one_deal_waits_for_its_end() -> None:
    session = session_of("eight-of-spades")
    fast_forward(session, lambda s: len(s.log) > 10)
    with pytest.raises(SaveError, match="Eight of Spades is played as one deal, so it can be watched once the game"):
        Replay.finished_deals(parse_save(session.to_save(), "game.json"))


def test_open_watchable_gives_a_finished_game_whole_and_a_game_in_progress_its_finished_deals(
    tmp_path: Path,
) -> None:
    whole = Replay.open_watchable(SAMPLES / "hearts.json")
    assert not whole.in_progress and whole.loaded.game.is_over
    session = session_of("hearts")
    fast_forward(session, lambda s: deals_done(s) == 1 and not s.game.is_chance and len(s.log) > deal_starts(s)[-1] + 3)
    path = tmp_path / "going-on.json"
    from cardtui.saves import write_save

    write_save(path, session.to_save())
    part = Replay.open_watchable(path)
    assert part.in_progress and len(part) == deal_starts(session)[-1]
