"""The coach under a hostile user: a long budget's progress, signals, a newer record, a data folder that is a
file, the solver's honest answers and the hot-seat refusal's words."""

from __future__ import annotations

import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui import cli
from cardtui.cli import app
from cardtui.files import FileProblem
from cardtui.measure import usable_cores
from cardtui.replay import finished_part
from cardtui.review import record, record_path, review, reviewed_games
from cardtui.rules import default_preset
from cardtui.saves import parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.reviews import sample_deals

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"
runner = CliRunner()


def _cardtui(args: list[str], new_group: bool = False) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "cardtui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=new_group,
    )


def _first_line(proc: subprocess.Popen[str], pattern: str, within_s: float = 90.0) -> str:
    """The first stderr line matching `pattern`, waited for at most `within_s` in all ("" if none came)."""
    assert proc.stderr is not None
    end = time.monotonic() + within_s
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stderr, selectors.EVENT_READ)
        while (left := end - time.monotonic()) > 0 and sel.select(timeout=left):
            line = proc.stderr.readline()
            if not line:
                return ""
            if re.search(pattern, line):
                return line
    return ""


def _hearts_sample(tmp_path: Path, name: str = "hearts.json") -> Path:
    path = tmp_path / name
    path.write_bytes((SAMPLES / name).read_bytes())
    return path


def test_a_long_budget_tells_its_progress_within_the_first_decision(tmp_path: Path) -> None:
    """Off a terminal, a review of a minute a decision says within seconds how far through the first decision it
    is, rather than nothing until that decision ends."""
    proc = _cardtui(["review", str(_hearts_sample(tmp_path)), "--seat", "0", "--budget-ms", "60000", "--json"])
    try:
        line = _first_line(proc, r"% weighed")
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert re.fullmatch(r"reviewing deal 1 of \d+: decision \d+ of \d+, \d+% weighed\n", line), line


def test_the_share_of_a_decision_weighed_is_told_and_changes_nothing() -> None:
    """The sample's first deal (its pass and its thirteen plays): every kind of Hearts decision, not the whole
    game's hundreds."""
    loaded = parse_save(sample_deals("hearts", 1))
    told: list[tuple[int, int, float]] = []
    quiet = review(loaded, seats=[0], budget_ms=20)
    result = review(loaded, seats=[0], budget_ms=20, within=lambda k, n, share: told.append((k, n, share)))
    assert result.to_json() == quiet.to_json()
    n = len(result.judgements)
    first = [share for k, total, share in told if k == 0 and total == n]
    assert first and first == sorted(first) and 0 < first[-1] <= 1


@pytest.mark.parametrize(
    ("sig", "status", "group"),
    [
        (signal.SIGINT, 130, False),
        (signal.SIGINT, 130, True),
        (signal.SIGTERM, 143, False),
        (signal.SIGKILL, -9, False),
    ],
)
def test_a_signal_to_a_review_in_workers_prints_no_traceback_or_warning(
    tmp_path: Path, sig: signal.Signals, status: int, group: bool
) -> None:
    """The signal sent to the review alone, or (`group`) to its whole process group, as Ctrl-C at a terminal."""
    if usable_cores() < 2:
        pytest.skip("worker processes need two usable cores")
    args = ["review", str(_hearts_sample(tmp_path)), "--seat", "0", "--jobs", "2", "--budget-ms", "60000"]
    proc = _cardtui(args, new_group=group)
    try:
        assert _first_line(proc, r"% weighed")  # the workers are weighing
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=90)  # until every process that holds stderr (workers, tracker) ends
    finally:
        proc.kill()
    assert proc.returncode == status
    assert "Traceback" not in err and "Error" not in err and "Warning" not in err and "leaked" not in err, err


def test_a_record_of_reviews_from_a_newer_cardtui_is_left_alone_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "REVIEW_QUIET_S", 1e9)  # no progress lines, however slow the machine
    path = record_path()
    path.parent.mkdir(parents=True)
    newer = '{"version":99,"reviews":{"keep":{"x":1}},"future":true}'
    path.write_text(newer)
    game = _hearts_sample(tmp_path, "hearts-mid-deal.json")
    done = runner.invoke(app, ["review", str(game), "--budget-ms", "1"])
    assert done.exit_code == 0
    assert path.read_text() == newer
    assert not list(path.parent.glob("reviews.json.damaged-*"))
    [line] = done.stderr.splitlines()
    assert "the review's accuracy was not kept for the statistics" in line and "made by a newer cardtui" in line
    loaded = finished_part(parse_save(json.loads(game.read_text())))
    with pytest.raises(FileProblem, match="version 99, made by a newer cardtui"):
        record(review(loaded, budget_ms=1), loaded)
    assert reviewed_games().note == (
        "the record of reviews cannot be read (it is version 99, made by a newer cardtui; this one reads version 1);"
        " no review accuracy is shown"
    )
    stats = runner.invoke(app, ["stats"])
    assert stats.exit_code == 0 and "made by a newer cardtui" in stats.stderr


def test_a_data_folder_that_is_a_file_is_said_in_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "REVIEW_QUIET_S", 1e9)
    home = tmp_path / "filehome"
    home.write_text("not a folder")
    monkeypatch.setenv("CARDTUI_HOME", str(home))
    done = runner.invoke(app, ["review", str(_hearts_sample(tmp_path, "hearts-mid-deal.json")), "--budget-ms", "1"])
    assert done.exit_code == 0
    assert done.stderr == (
        f"the review's accuracy was not kept for the statistics: the data folder {home} is a file, not a folder\n"
    )


@pytest.mark.slow  # a review: the judge searches every decision
def test_the_solver_running_out_says_so_in_the_json_too() -> None:
    loaded = parse_save(sample_deals("hearts", 4))  # two of its decisions run the solver out of its budget
    out = review(loaded, seats=[0], budget_ms=1).to_json()
    short = [d for d in out["decisions"] if d["solver"] is not None and not d["solver"]["complete"]]
    assert short
    for d in short:
        assert d["solver"]["note"] == f"the solver ran out of its budget ({d['solver']['nodes']} positions)"
        assert f"With every hand known: {d['solver']['note']}" in d["why"]


def test_a_hot_seat_refusal_speaks_of_the_review(tmp_path: Path) -> None:
    seats = [Seat("You", "human"), Seat("Ann", "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    session = Session.new(default_preset("hearts"), seats, 2, save_path=tmp_path / "hot.json")
    while session.deal_number < 2:
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(session.bot_decision("easy").action)
    session.close()
    result = runner.invoke(app, ["review", str(tmp_path / "hot.json"), "--seat", "0", "--budget-ms", "5"])
    assert result.exit_code == 2
    assert "a review shows every hand and pass, theirs included; it can be reviewed once the game is over" in (
        result.stderr
    )
    assert "replay" not in result.stderr and "watched" not in result.stderr
