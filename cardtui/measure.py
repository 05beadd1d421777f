"""Measures the arena, the statistics and the catalog share: a win rate's interval, the cores worth using.

A figure is worked out once: the arena's and `cardtui stats`' win intervals are
the same Wilson interval, and every pool of worker processes is sized from the
same count of usable cores. Imports nothing of cardtui.
"""

from __future__ import annotations

import math
import os


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def usable_cores() -> int:
    """The cores this process may run on: the most worker processes worth starting."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
