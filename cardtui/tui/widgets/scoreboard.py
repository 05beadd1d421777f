"""Scores, bags, the target, what is broken and where the pass goes."""

from __future__ import annotations

from cardtui.tui.widgets.text_line import TextLines


class Scoreboard(TextLines):
    """A few plain lines; its height follows the number of lines (a layout pass only when that changes)."""

    def show(self, lines: list[str]) -> None:
        """The lines; the box's height (`auto`, borders and all) is laid out again only when their count changes."""
        relayout = len(lines) != self.text.count("\n") + 1
        self.set("\n".join(lines))
        if relayout:
            self.refresh(layout=True)
