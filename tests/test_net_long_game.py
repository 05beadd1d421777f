"""A long game at a network table: 200 deals of Spades re-opened with `cardtui host --resume`, then joined.

Every finished deal's record travels to the joining seat once, in parts under the frame limit, so the welcome
stays small however long the game; before, a welcome past 64 KB closed the joiner's connection (1009) for good.
"""

from __future__ import annotations

import random
from pathlib import Path

from cardtui.net.protocol import MAX_MESSAGE, records_messages
from cardtui.rules import load_preset
from cardtui.saves import build_save, load_save, write_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.net import host_and_join

ROOT = Path(__file__).resolve().parent.parent
DEALS = 200


def long_spades_save(path: Path) -> Session:
    """A Spades game DEALS deals in (random legal play, seeded), written once as a save; the last deal to go."""
    rules = load_preset("spades").replace(max_deals=DEALS + 1, win_target=10000)
    seats = [
        Seat("South", "human"),
        Seat("West", "bot", "easy"),
        Seat("North", "bot", "easy"),
        Seat("East", "bot", "easy"),
    ]
    session = Session.new(rules, seats, 7, autosave=False)
    rng = random.Random(7)
    while session.deal_number <= DEALS or session.game.is_chance:
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(rng.choice(session.game.legal_actions()))
    assert not session.is_over
    write_save(path, build_save(rules, seats, 7, session.log))
    return session


def test_a_long_games_records_travel_in_parts_under_the_frame_limit(tmp_path: Path) -> None:
    session = long_spades_save(tmp_path / "long.json")
    records = session.game.view(0).records  # type: ignore[attr-defined]
    assert len(records) == DEALS
    frames = list(records_messages(records))
    assert len(frames) > 1 and all(len(f.encode()) < MAX_MESSAGE for f in frames)


async def test_a_200_deal_spades_game_resumed_by_the_host_can_be_joined(tmp_path: Path) -> None:
    save = tmp_path / "long.json"
    long_spades_save(save)
    lines, err, code = await host_and_join(tmp_path, ["--resume", str(save)], 120)
    assert code == 0 and err == b"", err
    assert lines[0] == "seated at a spades table as South (seat 0); easy plays"
    finished = load_save(save).game
    assert finished.is_over and len(finished.view(0).records) == DEALS + 1  # type: ignore[attr-defined]
    assert lines[-1].startswith(f"game over: totals {' / '.join(str(t) for t in finished.scores)}; won: ")
