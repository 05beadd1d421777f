"""The values of every choice of the decision in view, from the review (the replay's `v`)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from cardtui.tui.screens.lines import LinesDialog


class ValuesScreen(LinesDialog):
    """One line a choice: its value ± two standard errors, its expected points and samples; Esc or v closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,v,enter", "close", "Close", id="values.close"),
    ]
    NAME = "values"
    LIST_ID = "values-list"


class WhyScreen(LinesDialog):
    """The review's whole line for the decision in view, wrapped to the dialog's width; Esc, w or Enter closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,w,enter", "close", "Close", id="why.close"),
    ]
    NAME = "why"
    LIST_ID = "why-list"
