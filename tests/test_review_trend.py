"""The trend over games: each review keeps the reviewed save's accuracy, and the statistics show it per game."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui.cli import app
from cardtui.review import Reviewed, record, record_path, review, reviewed_games
from cardtui.saves import load_save
from cardtui.stats import compute, render, trend_words

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
    assert figures.to_json()["review_accuracy"] == [{"game": "hearts", "accuracy": [60.0, 70.0, 80.0, 90.0]}]
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


def test_cli_review_then_stats_shows_the_accuracy(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    shutil.copy(SAMPLES / "hearts-mid-deal.json", path)
    done = runner.invoke(app, ["review", str(path), "--budget-ms", "5", "--json"])
    assert done.exit_code == 0, done.output
    accuracy = json.loads(done.stdout)["game_total"][0]["accuracy"]
    stats = runner.invoke(app, ["stats", "--json"])
    assert stats.exit_code == 0, stats.output
    assert json.loads(stats.stdout)["review_accuracy"] == [{"game": "hearts", "accuracy": [accuracy]}]
    text = runner.invoke(app, ["stats"])
    assert text.exit_code == 0, text.output
    assert f"1 reviewed game: accuracy {accuracy:.0f}%" in text.stdout
    assert "no games played yet" not in text.stdout
