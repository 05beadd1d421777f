"""A claim's play-out: the tricks the claim took, shown before the deal's end so a claim is not a jump."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from cardtui.tui.screens.lines import LinesDialog


class ClaimedScreen(LinesDialog):
    """The claimed tricks one a line, in the order they were played out; Enter goes on to the deal's end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Go on", id="claimed.go"),
    ]
    NAME = "claimed"
    LIST_ID = "claimed-tricks"

    def __init__(self, title: str, tricks: list[str]) -> None:
        super().__init__(title, tricks, "Enter: go on to the end of the deal")
