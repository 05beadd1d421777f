"""Scores, bags, the target, what is broken and where the pass goes."""

from __future__ import annotations

from cardtui.tui.widgets.text_line import TextLines

MORE = "PgDn: more below"
BACK = "PgUp: back up"
"""The last row of a scoreboard taller than its box: which key shows the rest."""


class Scoreboard(TextLines):
    """A few plain lines; its height follows the number of lines (a layout pass only when that changes).

    Paged (F7's panel in place of the table, where a cutthroat contract per seat outgrows 60x20), in a box shorter
    than its lines it shows a page of them and, on its last row, the key that shows the rest (`page`).
    """

    def __init__(self, text: str = "", id: str | None = None, classes: str | None = None) -> None:
        super().__init__(text, id=id, classes=classes)
        self.top = 0
        """The first line in sight when the lines outgrow the box."""
        self.paged = False
        """Whether the lines outgrowing the box are shown a page at a time (the screen has the keys for it)."""

    def set_paged(self, paged: bool) -> None:
        """Page the lines (from the first) or not."""
        if paged != self.paged:
            self.paged, self.top = paged, 0
            self.refresh()

    def show(self, lines: list[str]) -> None:
        """The lines; the box's height (`auto`, borders and all) is laid out again only when their count changes."""
        relayout = len(lines) != self.text.count("\n") + 1
        self.set("\n".join(lines))
        if relayout:
            self.refresh(layout=True)

    def page_rows(self) -> int:
        """The lines a page shows when they outgrow the box (its last row names the key); 0 when they fit."""
        height = self.content_size.height
        return height - 1 if self.paged and 1 < height < self.text.count("\n") + 1 else 0

    def page(self, way: int) -> None:
        """A page down (1) or up (-1), when the lines outgrow the box."""
        rows = self.page_rows()
        if rows:
            self.top = max(0, self.top + way * rows)
            self.refresh()

    def shown(self) -> str:
        text = super().shown()
        rows = self.page_rows()
        if not rows:
            return text
        lines = text.split("\n")
        self.top = min(self.top, len(lines) - rows)
        more = self.top + rows < len(lines)
        return "\n".join([*lines[self.top : self.top + rows], MORE if more else BACK])
