"""Off a terminal a long review tells its progress on stderr: nothing before it has run two seconds, then at most a
line every two seconds, each naming the deal and how many decisions are weighed (checked on a fake clock)."""

from __future__ import annotations

import itertools
import re

import pytest

from cardtui import cli

LINE = re.compile(r"reviewing deal \d+ of 3: (\d+ of 30 decisions weighed|decision \d+ of 30, \d+% weighed)")


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_lines_come_after_two_seconds_at_most_every_two_seconds_with_the_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock = Clock()
    said: list[tuple[float, str]] = []

    def heard() -> None:
        said.extend((clock.now, line) for line in capsys.readouterr().err.splitlines())

    # 3 deals of 10 decisions, each weighed in 0.3 s and telling its share every 0.1 s: a deal takes 3 s
    with cli._review_progress(clock=clock) as (progress, on_deal, within):
        for done in range(30):
            if done % 10 == 0:
                on_deal(done // 10 + 1, 3)
                heard()
            for tenth in range(3):
                clock.now += 0.1
                within(done, 30, tenth / 3)
                heard()
            progress(done + 1, 30)
            heard()
    assert said, "a review of 9 seconds tells its progress"
    times = [t - 100.0 for t, _ in said]
    assert times[0] >= 2.0 - 1e-9
    assert all(b - a >= 2.0 - 1e-9 for a, b in itertools.pairwise(times)), times
    assert all(b - a <= 2.0 + 0.1 + 1e-9 for a, b in itertools.pairwise(times)), times  # none skipped
    for _, line in said:
        assert LINE.fullmatch(line), line
    assert {line.split(":")[0] for _, line in said} == {f"reviewing deal {k} of 3" for k in (1, 2, 3)}


def test_a_quick_review_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    with cli._review_progress(clock=clock) as (progress, on_deal, within):
        on_deal(1, 1)
        for done in range(10):
            clock.now += 0.15
            within(done, 10, 0.5)
            progress(done + 1, 10)
    assert capsys.readouterr().err == ""
