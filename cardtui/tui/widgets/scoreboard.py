"""Scores, bags, the target, what is broken and where the pass goes."""

from __future__ import annotations

from textual.widgets import Static


class Scoreboard(Static):
    """A few plain lines; the table screen writes them from the view after every action."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)

    def show(self, lines: list[str]) -> None:
        self.update("\n".join(lines))
