"""Reviews several test modules read: computed once a process, since a whole-game review takes seconds."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from cardtui.review import Review, review
from cardtui.saves import parse_save

SAMPLES = Path(__file__).resolve().parents[2] / "saves"


@cache
def hearts_sample_review() -> Review:
    """The shipped Hearts sample, seat 0 reviewed at a small budget (the tests only read it).

    One seat's 179 decisions, its passes among them, hold scores of choices on top (a few dozen within the noise)
    and several losses split into causes: enough for every property read here, at a quarter of the cost of all four
    seats."""
    return review(parse_save(json.loads((SAMPLES / "hearts.json").read_text())), seats=[0], budget_ms=5)


def sample_deals(game: str, count: int) -> dict[str, Any]:
    """A shipped sample's save (`hearts`, `spades`, ...) as it stood once its first `count` deals were played (a
    game in progress, waiting for the next deal): for tests whose property holds on any few deals, not only on the
    whole game's. Each decision is weighed from the game as it stood then, so its judgement is the same as in a
    review of the whole game."""
    data: dict[str, Any] = json.loads((SAMPLES / f"{game}.json").read_text())
    starts = [i for i, action in enumerate(data["log"]) if action["type"] == "deal"]
    assert len(starts) > count, "the sample has more deals than that"
    return {**data, "log": data["log"][: starts[count]]}
