"""The review benchmark reports CPU time beside wall time, and an Eight of Spades deal among the deals."""

from __future__ import annotations

import pytest

from benchmarks.review import game_figures, solver_times


def test_the_solver_figures_give_cpu_time_beside_wall_time() -> None:
    figures = solver_times(1, 500)
    assert set(figures) == {f"{game}_last_{n}" for game in ("hearts", "spades") for n in (5, 7, 13)}
    for one in figures.values():
        assert {"cpu_seconds", "wall_seconds", "nodes", "complete"} <= set(one)
        assert isinstance(one["cpu_seconds"], float) and one["cpu_seconds"] >= 0


@pytest.mark.slow  # a review: the judge searches every decision
def test_eight_of_spades_has_a_single_deal_entry() -> None:
    figures = game_figures("eight-of-spades", 1, 5)
    deal, whole = figures["deal"], figures["whole_game"]
    assert isinstance(deal, dict) and isinstance(whole, dict)
    assert deal["deal_is_the_game"] is True and deal["target_s"] == 2.0 and deal["deals"] == 1
    assert deal["cpu_seconds"] == whole["cpu_seconds"] and deal["decisions"] == whole["decisions"] > 0
