"""Scores, bags, the target, what is broken and where the pass goes."""

from __future__ import annotations

from cardtui.tui.widgets.text_line import TextLines


class Scoreboard(TextLines):
    """A few plain lines; its height follows the number of lines (a layout pass only when that changes)."""

    def show(self, lines: list[str]) -> None:
        if len(lines) != self.styles.height.value if self.styles.height is not None else True:
            self.styles.height = len(lines)
        self.set("\n".join(lines))
