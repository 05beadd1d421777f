"""Helpers of the arena tests: the figures of a summary that do not depend on timing."""

from __future__ import annotations

from typing import Any


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without the count of workers, the one thing that differs between any two splits of a run."""
    return {k: v for k, v in summary.items() if k != "workers"}
