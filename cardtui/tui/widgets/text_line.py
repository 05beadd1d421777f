"""A fixed-size text widget that repaints without a layout pass (Static.update costs a whole layout)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.widget import Widget


class TextLines(Widget):
    """Plain text in a box whose size the stylesheet fixes; `set` repaints only on a change."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"text--strong"}

    def __init__(self, text: str = "", id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = text
        self.strong = False

    def set(self, text: str, strong: bool = False) -> None:
        if (text, strong) != (self.text, self.strong):
            self.text, self.strong = text, strong
            self.refresh()

    def render(self) -> Text:
        style = self.get_component_rich_style("text--strong") if self.strong else ""
        return Text(self.text, style=style, no_wrap=True, overflow="ellipsis")
