"""A number per deal and per game: the accuracy from the losses, and the running loss the replay charts."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path

import pytest

from cardtui.review import THRESHOLDS, accuracy, review, running_loss
from cardtui.saves import parse_save

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def test_accuracy_is_100_without_loss_and_falls_with_it() -> None:
    result = review(parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text())), budget_ms=10)
    weighed = [j for j in result.judgements if j.choices > 1]
    assert weighed
    perfect = [dataclasses.replace(j, loss=0.0) for j in weighed]
    assert accuracy("hearts", perfect) == pytest.approx(100.0)
    question = THRESHOLDS["hearts"]["points"][0]
    at_mark = [dataclasses.replace(j, loss=question) for j in weighed]
    # To one decimal, as the record of reviews keeps it: the review's 65% and the statistics' never differ
    # because one rounded 65.46 and the other the kept 65.5.
    assert accuracy("hearts", at_mark) == round(100 * math.exp(-0.5), 1) == 60.7
    forced = [j for j in result.judgements if j.choices == 1]
    assert forced and accuracy("hearts", forced) is None  # an only card says nothing about the player


def test_the_json_gives_an_accuracy_per_deal_and_for_the_game() -> None:
    result = review(parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text())), budget_ms=10)
    out = result.to_json()
    game = out["game_total"][0]["accuracy"]
    assert 0 <= game <= 100
    per_deal = [d["seats"][0]["accuracy"] for d in out["deals"]]
    assert all(a is None or 0 <= a <= 100 for a in per_deal)
    assert game == pytest.approx(accuracy("hearts", result.judgements), abs=0.05)


def test_the_running_loss_sums_the_seats_losses() -> None:
    result = review(parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text())), budget_ms=10)
    line = running_loss(result, 0)
    assert len(line) == len(result.judgements)
    assert all(b >= a for a, b in itertools.pairwise(line))
    assert line[-1] == pytest.approx(result.tally(0).loss)
