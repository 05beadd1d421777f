"""Memory linear in the log: replay checkpoints share one log, a big save is decoded entry by entry (and read
exactly as a small one would be), a file of millions of tiny values is refused without holding them, and
`resume` reads its save once."""

from __future__ import annotations

import json
import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.replay import long_history
from cardtui import files, saves
from cardtui.cli import app
from cardtui.games.history import History
from cardtui.replay import Replay
from cardtui.rules import load_preset
from cardtui.saves import SaveError, build_save, load_save, parse_json, parse_save
from cardtui.seats import Seat

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("python_gc")]  # long games, their peak memory measured

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
BOTS = [Seat(n, "bot", "random") for n in ("South", "West", "North", "East")]


def long_spades(deals: int, seed: int = 1) -> dict[str, Any]:
    """A Spades save of `deals` deals of random legal play (no win target reached, no floor), as the benchmark
    builds it."""
    history = long_history(deals, seed)
    return build_save(history.ruleset, BOTS, seed, history.log)


def peak_of(work: Callable[[], object]) -> int:
    """The most memory Python held while `work` ran, beyond what it held before."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_replay_memory_grows_linearly_with_the_log() -> None:
    short, long = long_spades(100), long_spades(400)
    small = peak_of(lambda: Replay.from_save(short))
    big = peak_of(lambda: Replay.from_save(long))
    # four times the log: about four times the memory (each checkpoint holding its own copy of the log made it 16)
    assert big < 6 * small, (small, big)


def test_checkpoints_along_a_long_game_share_its_deal_records() -> None:
    """A checkpoint per deal of a 1,000-deal game costs about what as many checkpoints of its first deal do:
    none holds its own list of every deal before it (that was 8 bytes x deals^2 / 2: 4 MB here)."""
    log = Replay.from_save(long_spades(1000)).log
    ruleset = load_preset("spades").replace(win_target=10000, losing_floor="off", max_deals=1000)
    first_deal = log[: next(i for i, a in enumerate(log) if i > 0 and a.type == "deal")]

    def one_per_deal() -> object:
        history, points = History(ruleset, []), []
        for action in log:
            history.apply(action)
            if action.type == "deal":
                points.append(history.checkpoint())
        return points

    def as_many_at_the_start() -> object:
        history = History.replay(ruleset, [], first_deal)
        return [history.checkpoint() for _ in range(1000)]

    along, start = peak_of(one_per_deal), peak_of(as_many_at_the_start)
    assert along < start + 2_500_000, (start, along)


def test_a_replay_still_jumps_to_every_position_of_a_long_game() -> None:
    data = long_spades(30)
    replay = Replay.from_save(data)
    history = History(replay.loaded.ruleset, [])
    positions = [0, 1, 32, 33, 500, len(replay) // 2, len(replay) - 1, len(replay), 7]
    for position in sorted(positions):
        while len(history.log) < position:
            history.apply(replay.log[len(history.log)])
        assert replay.state_at(position).view(0) == history.game.view(0)
    for position in positions:
        replay.seek(position)
        assert replay.game.view(1) == replay.state_at(position).view(1)


def outcome(text: str) -> tuple[str, object]:
    try:
        loaded = parse_save(parse_json(text.encode(), "s.json"), "s.json")
    except SaveError as err:
        return "refused", str(err)
    return "loaded", [a.to_json() for a in loaded.log]


@pytest.mark.parametrize("sample", ["hearts.json", "spades.json", "eight-of-spades.json", "hearts-mid-deal.json"])
def test_a_big_save_is_read_exactly_as_a_small_one(sample: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Decoding entry by entry (what a save of 4 MB or more gets) gives the same game or the same sentence."""
    text = (SAMPLES / sample).read_text()
    rng = random.Random(sample)
    cases = [text, text.replace('"log": [', '"log": [\n\n'), text.replace(", ", ",")]
    cases += [text[: rng.randrange(len(text))] for _ in range(20)]
    for _ in range(40):
        i = rng.randrange(len(text))
        cases.append(text[:i] + text[i + 1 :])
        cases.append(text[:i] + rng.choice('{}[],:"x1 ') + text[i:])
    for case in cases:
        monkeypatch.setattr(saves, "STREAM_FROM", 1 << 40)
        whole = outcome(case)
        monkeypatch.setattr(saves, "STREAM_FROM", 0)
        assert outcome(case) == whole


def test_a_file_of_tiny_values_is_refused_without_holding_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # at a tenth of the real scale (a 64 MB file, 1,000,000 actions), decoded entry by entry as a big file is
    monkeypatch.setattr(saves, "MAX_LOG", 100_000)
    monkeypatch.setattr(saves, "STREAM_FROM", 0, raising=False)
    path = tmp_path / "garbage.json"
    head = '{"format": "cardtui-save", "version": 2, "game": "hearts", "ruleset": {"game": "hearts"}, "seed": 1, '
    tail = (
        '"created": "2026-11-22T10:00:00Z", "updated": "2026-11-22T10:00:00Z", "seats": '
        + json.dumps([s.to_json() for s in BOTS])
        + "}"
    )
    path.write_text(head + '"log": [' + "{}, " * 400_000 + "{}], " + tail)
    size = path.stat().st_size

    def load() -> None:
        with pytest.raises(SaveError, match=r"log: too long \("):
            load_save(path)

    peak = peak_of(load)
    assert peak < 4 * size, (size, peak)  # decoding them all at once held 30 times the file


def test_resume_reads_the_save_once(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = home / "saves" / "hearts-mid-deal.json"
    path.parent.mkdir(parents=True)
    path.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    reads: list[Path] = []
    real = files.read_regular

    def counting(where: Path, *args: Any, **kwargs: Any) -> bytes:
        reads.append(Path(where))
        return real(where, *args, **kwargs)

    monkeypatch.setattr(files, "read_regular", counting)
    result = CliRunner().invoke(app, ["resume", str(path)])
    assert "needs a terminal" in result.output  # the test has none; everything before the screen ran
    assert reads == [path]
    reads.clear()
    finished = home / "saves" / "hearts.json"
    finished.write_bytes((SAMPLES / "hearts.json").read_bytes())
    result = CliRunner().invoke(app, ["resume", str(finished)])
    assert result.exit_code == 2 and "the game is finished" in result.output
    assert reads == [finished]
