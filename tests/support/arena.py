"""Helpers of the arena tests: the figures of a result that do not depend on timing."""

from __future__ import annotations

from typing import Any

from cardtui.arena import ArenaResult


def figures(result: ArenaResult | dict[str, Any]) -> dict[str, Any]:
    """A result's JSON without the count of workers, the one thing that differs between any two splits of a run."""
    summary = result.to_json() if isinstance(result, ArenaResult) else result
    return {k: v for k, v in summary.items() if k != "workers"}
