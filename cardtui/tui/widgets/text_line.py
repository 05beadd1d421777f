"""A fixed-size text widget that repaints without a layout pass (Static.update costs a whole layout)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.widget import Widget

from cardtui.inert import inert
from cardtui.tui.common import ascii_text


class TextLines(Widget):
    """Plain text in a box whose size the stylesheet fixes; `set` repaints only on a change."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"text--strong"}

    def __init__(self, text: str = "", id: str | None = None, classes: str | None = None, wrap: bool = False) -> None:
        super().__init__(id=id, classes=classes)
        self.text = text
        self.strong = False
        self.wrap = wrap
        self.set_class(wrap, "-wrap")
        """Wrap at word boundaries (for a box whose height is `auto`) instead of cutting with an ellipsis."""

    def set(self, text: str, strong: bool = False) -> None:
        """Show `text` (its lines), through the door: a name or a message from outside in it stays inert."""
        text = inert(text, lines=True)
        if (text, strong) != (self.text, self.strong):
            self.text, self.strong = text, strong
            self.refresh(layout=self.wrap)

    def shown(self) -> str:
        """The text as drawn: in ASCII words under `--ascii` (the app's `-ascii` class)."""
        return ascii_text(self.text, self.app.has_class("-ascii"))

    def render(self) -> Text:
        style = self.get_component_rich_style("text--strong") if self.strong else ""
        return Text(self.shown(), style=style, no_wrap=not self.wrap, overflow="fold" if self.wrap else "ellipsis")
