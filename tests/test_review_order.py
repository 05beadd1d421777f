"""Every review's numbers are in order: the choices best first by value, the best's value the first one's, the loss
the best's value less the chosen one's (never below 0) and the chosen index the choice made, in every game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardtui import review as review_module
from cardtui.bots.judge import Weighing
from cardtui.review import review
from cardtui.saves import parse_save
from cardtui.variants import make_judge

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def with_a_person(name: str) -> dict[str, Any]:
    """A shipped save with seat 0 played by a person (so it is the seat reviewed)."""
    data: dict[str, Any] = json.loads((SAMPLES / name).read_text())
    data["seats"][0] = {"name": "You", "kind": "human"}
    return data


def assert_in_order(decision: dict[str, Any]) -> None:
    options = decision["options"]
    values = [o["value"] for o in options]
    where = f"log[{decision['index']}]: {values}"
    assert values == sorted(values, reverse=True), where
    assert decision["best_value"] == values[0], where
    assert decision["loss"] >= 0, where
    assert abs(decision["loss"] - (decision["best_value"] - decision["chosen_value"])) <= 0.0015, where
    made = [o for o in options if o["action"] == decision["action"]]
    assert len(made) == 1 and made[0]["value"] == decision["chosen_value"], where
    if decision["loss"] == 0:
        assert decision["best"] == decision["action"], where


def assert_weighing_in_order(ev: Weighing) -> None:
    values = [o.value for o in ev.options]
    assert values == sorted(values, reverse=True), values
    assert ev.best_value == values[0] and ev.chosen_value == values[ev.chosen], values
    assert ev.loss == max(0.0, ev.best_value - ev.chosen_value)


def test_every_eight_of_spades_decision_is_in_order_and_a_small_loss_is_told_as_level() -> None:
    out = review(parse_save(with_a_person("eight-of-spades.json"))).to_json()
    assert out["decisions"]
    for decision in out["decisions"]:
        assert_in_order(decision)
    # a choice worth a little less than the best is never "the best": its loss is told, and worded as level when it
    # is too small to show in its unit (0.05 points; half a point of win chance)
    small = [d for d in out["decisions"] if 0 < d["loss"] < (0.05 if d["unit"] == "points" else 0.005)]
    assert small
    for d in small:
        assert d["best"] != d["action"] and not d["mark"] and " come out level, less than " in d["why"], d["why"]
        assert " was the best choice" not in d["why"]


@pytest.mark.slow  # reviews whole games with the judge
def test_hearts_and_spades_decisions_are_in_order() -> None:
    for name in ("hearts-mid-deal.json", "spades.json"):
        loaded = parse_save(json.loads((SAMPLES / name).read_text()))
        for decision in review(loaded, seats=[0], budget_ms=2).to_json()["decisions"]:
            assert_in_order(decision)


def test_a_choice_dropped_early_is_not_listed_above_the_best() -> None:
    # Spades' log[522]: a bid dropped after 16 samples had a mean above the best's over all its samples
    loaded = parse_save(json.loads((SAMPLES / "spades.json").read_text()))
    [(index, _, _, moves, view, game)] = [d for d in review_module.decisions(loaded, (0,)) if d[0] == 522]
    judge = make_judge("spades", "hard", 250)
    ev, _ = review_module.weigh(judge, loaded.seed, 0, loaded.log[index], view, moves, game)
    assert min(o.samples for o in ev.options) < ev.best.samples  # a choice was dropped
    assert_weighing_in_order(ev)
