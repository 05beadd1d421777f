"""The trend over games: each review keeps the reviewed save's accuracy, and the statistics show it per game."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtui.cli import app
from cardtui.review import Reviewed, record, record_path, review, reviewed_games
from cardtui.saves import load_save
from cardtui.stats import compute, render, trend_words
from tests.support.session import easy_one_deal_game

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
runner = CliRunner()


def test_a_review_keeps_the_saves_accuracy_once(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    shutil.copy(SAMPLES / "hearts-mid-deal.json", path)
    loaded = load_save(path)
    result = review(loaded, budget_ms=5)
    record(result, loaded)
    record(result, loaded)  # reviewed again: still one row
    [row] = reviewed_games()
    assert row.game == "hearts" and row.key == str(path.resolve())
    assert row.accuracy == pytest.approx(result.tally(0).accuracy, abs=0.05)
    assert row.decisions == result.tally(0).decisions


def test_a_computer_players_review_is_not_kept() -> None:
    loaded = load_save(SAMPLES / "eight-of-spades.json")  # every seat a computer player, a game of 53 actions
    result = review(loaded, seats=[0], budget_ms=2)
    assert result.tally(0).accuracy is not None  # a person's seat with this review would be kept
    record(result, loaded)
    assert reviewed_games() == []


def test_a_broken_record_counts_as_none() -> None:
    record_path().parent.mkdir(parents=True, exist_ok=True)
    record_path().write_text("{not json")
    assert reviewed_games() == []


def test_the_statistics_give_the_trend_per_game() -> None:
    rows = [
        Reviewed(f"k{i}", "hearts", f"2026-11-0{i + 1}T10:00:00Z", a, 14)
        for i, a in enumerate((60.0, 70.0, 80.0, 90.0))
    ]
    figures = compute((), reviewed=rows)
    assert figures.accuracy_of("hearts") == (60.0, 70.0, 80.0, 90.0)
    assert figures.to_json()["review_accuracy"] == [
        {"game": "hearts", "accuracy": [60.0, 70.0, 80.0, 90.0], "unfinished": 0}
    ]
    assert trend_words((60.0, 70.0, 80.0, 90.0)) == (
        "4 reviewed games: accuracy 65% in the first half, 85% in the second (last 90%)"
    )
    assert trend_words((75.0,)) == "1 reviewed game: accuracy 75%"
    assert compute((), game="spades", reviewed=rows).accuracy == ()
    assert compute((), since=dt.date(2026, 11, 3), reviewed=rows).accuracy_of("hearts") == (80.0, 90.0)
    # no save left to count, yet reviewed: the text shows the trend the JSON has, not "no games"
    assert render(figures).splitlines() == [
        "no saved games to count; your reviews kept:",
        "",
        "hearts",
        "  4 reviewed games: accuracy 65% in the first half, 85% in the second (last 90%)",
    ]
    assert render(compute(())) == "no games played yet"


@pytest.mark.slow  # a review: the judge searches every decision
def test_cli_review_then_stats_shows_the_accuracy(tmp_path: Path) -> None:
    """A save outside the saves folder, reviewed: the text and the JSON tell the same story of it."""
    path = one_deal_game(tmp_path)
    done = runner.invoke(app, ["review", str(path), "--budget-ms", "5", "--json"])
    assert done.exit_code == 0, done.output
    accuracy = json.loads(done.stdout)["game_total"][0]["accuracy"]
    stats = runner.invoke(app, ["stats", "--json"])
    assert stats.exit_code == 0, stats.output
    out = json.loads(stats.stdout)
    assert out["rows"] == [] and out["review_accuracy"] == [{"game": "hearts", "accuracy": [accuracy], "unfinished": 0}]
    reviewed = runner.invoke(app, ["review", str(path), "--budget-ms", "5"])
    assert f"accuracy {accuracy:.0f}%" in reviewed.stdout, reviewed.stdout
    text = runner.invoke(app, ["stats"])
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines() == [
        "no saved games to count; your reviews kept:",
        "",
        "hearts",
        f"  1 reviewed game: accuracy {accuracy:.0f}%",
    ]


def one_deal_game(folder: Path, name: str = "one-deal.json") -> Path:
    """A finished one-deal Hearts game (ends at 10 points) where the person played like the easy level."""
    folder.mkdir(parents=True, exist_ok=True)
    return easy_one_deal_game(folder / name, seed=5)


def _review(path: Path) -> float:
    loaded = load_save(path)
    result = review(loaded, budget_ms=5)
    record(result, loaded)
    accuracy = result.tally(0).accuracy
    assert accuracy is not None
    return round(accuracy, 1)


@pytest.mark.slow  # a review: the judge searches every decision
def test_the_trend_counts_each_game_once_and_only_finished_ones(tmp_path: Path, home: Path) -> None:
    """Copies of one save (in the saves folder, elsewhere, archived, even one deleted since) are one game, and
    a game reviewed unfinished is counted beside the trend, never in it; the text says what the JSON says."""
    from cardtui.saves import saves_dir

    game = one_deal_game(tmp_path / "elsewhere")
    accuracy = _review(game)
    for copy in (saves_dir() / "mine.json", saves_dir() / "archive" / "old.json", tmp_path / "gone.json"):
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(game, copy)
        assert _review(copy) == accuracy
    (tmp_path / "gone.json").unlink()
    for n in range(2):  # one unfinished game, reviewed as two copies
        mid = tmp_path / f"mid-{n}.json"
        shutil.copy(SAMPLES / "hearts-mid-deal.json", mid)
        _review(mid)
    assert len(reviewed_games()) == 6
    done = runner.invoke(app, ["stats", "--json"])
    assert done.exit_code == 0, done.output
    trend = json.loads(done.stdout)["review_accuracy"]
    assert trend == [{"game": "hearts", "accuracy": [accuracy], "unfinished": 1}]
    text = runner.invoke(app, ["stats"])
    assert f"  1 reviewed game: accuracy {accuracy:.0f}% (+1 unfinished, not in the trend)" in text.stdout.splitlines()


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_save_played_on_since_its_review_was_reviewed_unfinished(tmp_path: Path) -> None:
    """The review kept of a save is of the save as it was: one played since (now finished) was reviewed while
    unfinished, and only a review of its end is in the trend."""
    game = one_deal_game(tmp_path)
    data = json.loads(game.read_text())
    final = dict(data)
    data["updated"] = "2026-01-01T00:00:00Z"
    data["log"] = data["log"][: len(data["log"]) - 4]  # the last trick still to play
    game.write_text(json.dumps(data))
    loaded = load_save(game)
    record(review(loaded, budget_ms=5), loaded)
    game.write_text(json.dumps(final))  # played to its end since
    figures = compute((), reviewed=reviewed_games())
    assert figures.accuracy_of("hearts") == () and figures.unfinished_of("hearts") == 1
    assert "no finished game reviewed yet (1 unfinished, not in the trend)" in render(figures)
    accuracy = _review(game)
    figures = compute((), reviewed=reviewed_games())
    assert figures.accuracy_of("hearts") == (accuracy,) and figures.unfinished_of("hearts") == 0


def _entry(accuracy: object, day: int = 1, game: str = "hearts") -> dict[str, object]:
    return {"game": game, "updated": f"2026-11-{day:02d}T10:00:00Z", "accuracy": accuracy, "decisions": 14}


def _write_record(entries: dict[str, object]) -> None:
    record_path().parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": 1, "reviews": entries}, indent=1)
    record_path().write_text(text.replace('"INF"', "Infinity").replace('"NAN"', "NaN"))


DAMAGED: dict[str, object] = {
    "inf": _entry("INF", 2),
    "nan": _entry("NAN", 3),
    "over": _entry(250, 4),
    "below": _entry(-1, 5),
    "text": _entry("80", 6),
    "flag": _entry(True, 7),
    "game": _entry(70.0, 8, game="poker"),
    "list": [1, 2],
}


def test_damaged_entries_are_skipped_and_counted_and_the_good_ones_kept() -> None:
    good = {f"g{i}": _entry(60.0 + i, 10 + i) for i in range(3)}
    _write_record({**good, **DAMAGED})
    rows = reviewed_games()
    assert [r.key for r in rows] == ["g0", "g1", "g2"]
    assert rows.note == f"skipped {len(DAMAGED)} damaged review entries"
    done = runner.invoke(app, ["stats", "--json"])
    assert done.exit_code == 0
    out = json.loads(done.stdout, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    assert out["review_accuracy"] == [{"game": "hearts", "accuracy": [60.0, 61.0, 62.0], "unfinished": 0}]
    assert done.stderr.count(f"skipped {len(DAMAGED)} damaged review entries") == 1
    text = runner.invoke(app, ["stats"])
    assert text.exit_code == 0 and "inf%" not in text.stdout and "nan%" not in text.stdout
    assert "3 reviewed games" in text.stdout


def test_one_damaged_entry_is_said_in_the_singular() -> None:
    _write_record({"a": _entry(55.0), "b": _entry("INF", 2)})
    assert reviewed_games().note == "skipped 1 damaged review entry"


def test_a_review_keeps_the_entries_it_could_not_read(tmp_path: Path) -> None:
    good = {f"g{i}": _entry(60.0 + i, 10 + i) for i in range(13)}
    _write_record({**good, "inf": _entry("INF", 2)})
    path = tmp_path / "game.json"
    shutil.copy(SAMPLES / "hearts-mid-deal.json", path)
    loaded = load_save(path)
    note = record(review(loaded, budget_ms=5), loaded)
    assert note == "skipped 1 damaged review entry"
    assert len(reviewed_games()) == 14
    kept = json.loads(record_path().read_text(), parse_constant=str)["reviews"]
    assert kept["inf"]["accuracy"] == "Infinity" and set(good) <= set(kept)


@pytest.mark.parametrize("damage", ["truncated", "a list", "a folder"])
def test_a_record_that_cannot_be_read_is_moved_aside_not_overwritten(tmp_path: Path, damage: str) -> None:
    record_path().parent.mkdir(parents=True, exist_ok=True)
    if damage == "a folder":
        record_path().mkdir()
        (record_path() / "inside").write_text("mine")
    else:
        record_path().write_text('{"version": 1, "reviews": {"a": ' if damage == "truncated" else "[1, 2]")
    before = sorted(p.name for p in record_path().rglob("*")) if damage == "a folder" else record_path().read_text()
    path = tmp_path / "game.json"
    shutil.copy(SAMPLES / "hearts-mid-deal.json", path)
    done = runner.invoke(app, ["review", str(path), "--budget-ms", "5"])
    assert done.exit_code == 0
    [aside] = record_path().parent.glob("reviews.json.damaged-*")
    assert done.stderr.count("\n") == 1 and f"moved it aside to {aside.name}" in done.stderr
    after = sorted(p.name for p in aside.rglob("*")) if damage == "a folder" else aside.read_text()
    assert after == before
    assert [r.key for r in reviewed_games()] == [str(path.resolve())]


def _cardtui(args: list[str], stdout: Any) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(SAMPLES.parent))
    return subprocess.Popen(
        [sys.executable, "-m", "cardtui", *args], stdout=stdout, stderr=subprocess.PIPE, text=True, env=env
    )


def _args(args: list[str], tmp_path: Path) -> list[str]:
    if args[0] not in ("inspect", "review"):
        return args
    path = tmp_path / "game.json"
    shutil.copy(SAMPLES / "hearts-mid-deal.json", path)
    return [*args, str(path)] + (["--budget-ms", "5"] if args[0] == "review" else [])


OUTPUTS = [["stats"], ["stats", "--json"], ["inspect", "--json"], ["review", "--json"]]


@pytest.mark.parametrize("args", OUTPUTS)
def test_a_closed_stdout_is_one_line_and_status_2(tmp_path: Path, args: list[str]) -> None:
    proc = _cardtui(_args(args, tmp_path), subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # nobody reads: every write to stdout fails
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert err == "cardtui: cannot write the output: Broken pipe\n"


async def test_the_statistics_screen_skips_an_infinite_accuracy(home: Path) -> None:
    from textual.widgets import Static

    from cardtui.tui.app import CardtuiApp, Start
    from cardtui.tui.screens.stats import StatsScreen
    from cardtui.tui.settings import Settings
    from tests.support.tui import workers_done

    (home / "saves").mkdir(parents=True)
    shutil.copy(SAMPLES / "hearts-mid-deal.json", home / "saves" / "hearts-20260101-000001.json")
    _write_record({"a": _entry(55.0), "b": _entry("INF", 2), "c": _entry("NAN", 3), "d": _entry(65.0, 4)})
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(StatsScreen())
        for _ in range(3):
            await pilot.pause()
            await workers_done(app)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.stats is not None
        assert screen.stats.accuracy_of("hearts") == (55.0, 65.0)
        assert "skipped 2 damaged review entries" in str(screen.query_one("#stats-note", Static).render())


async def test_the_statistics_screen_shows_reviews_of_saves_kept_elsewhere(tmp_path: Path) -> None:
    """No save in the saves folder, yet a finished game and an unfinished one reviewed elsewhere: the screen shows
    what `cardtui stats` says of them, not "No games played yet"."""
    from textual.widgets import Static

    from cardtui.tui.app import CardtuiApp, Start
    from cardtui.tui.screens.stats import StatsScreen
    from cardtui.tui.settings import Settings
    from tests.support.tui import drawn_when, workers_done

    accuracy = _review(one_deal_game(tmp_path))
    mid = tmp_path / "mid.json"
    shutil.copy(SAMPLES / "hearts-mid-deal.json", mid)
    _review(mid)
    said = f"1 reviewed game: accuracy {accuracy:.0f}% (+1 unfinished, not in the trend)"
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(StatsScreen())
        await workers_done(app)
        text = await drawn_when(pilot, app, lambda t: said in t)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.stats is not None
        assert said in text and "No games played yet" not in text
        assert screen.shown == ["hearts"] and screen.stats.accuracy_of("hearts") == (accuracy,)
        assert "No saved game to count" in str(screen.query_one("#stats-note", Static).render())
