"""Choosing cards to pass (the Hearts pass, the blind nil exchange): type or pick them, Enter passes."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Static

from cardtui.cards import Card
from cardtui.inert import inert
from cardtui.tui.common import card_label
from cardtui.tui.screens.dialog import DecisionDialog, Keys, TableHelp
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.key_footer import KeyFooter


class PassHand(Hand):
    """The dialog's hand, whose Enter chooses the card typed or, with nothing typed, passes (said so in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "enter", "Choose / pass", id="pass.enter")]
    SUBMITS = True


class PassScreen(DecisionDialog[tuple[Card, ...]]):
    """Gives back as many cards as one of `counts` allows (an optional exchange: 2, or none).

    Typing or picking a chosen card again unselects it.
    """

    AUTO_FOCUS = "#pass-hand"
    KEYS: ClassVar[Keys] = (
        ("QS, 10c + Enter", "choose the card typed; again to unselect it"),
        ("← → and Space, or click", "choose the card under the cursor"),
        ("Enter", "pass the chosen cards"),
        ("F1", "this help"),
        ("F2", "hint: the cards the computer player of your hint level (Settings) would pass, and why"),
    )

    def __init__(
        self,
        title: str,
        cards: list[Card],
        counts: tuple[int, ...],
        ascii_only: bool,
        table_help: TableHelp | None = None,
    ) -> None:
        super().__init__(table_help)
        self.title_text = inert(title)
        self.cards = cards
        self.counts = counts
        self.count = max(counts)
        self.ascii_only = ascii_only
        self.chosen: list[Card] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="pass-dialog", classes="dialog"):
            yield Static(self.title_text, id="pass-title", markup=False)
            yield Static(
                "Type a card (QS) and Enter, or ←/→ and Space, or click, to choose; again to unselect. Enter passes.",
                id="pass-help",
                markup=False,
            )
            yield PassHand(ascii_only=self.ascii_only, id="pass-hand")
            yield Static("", id="pass-chosen", markup=False)
            yield Static("", id="pass-message", markup=False, classes="message")
            yield Button("Pass", id="pass-go", compact=True, variant="primary")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._draw()
        self.query_one(Hand).focus()

    def _draw(self) -> None:
        hand = self.query_one(Hand)
        hand.show(self.cards, None, set(self.chosen))
        shown = " ".join(card_label(c, self.ascii_only) for c in self.chosen) or "none"
        of = f"{self.count} or none" if 0 in self.counts and self.count else str(self.count)
        self.query_one("#pass-chosen", Static).update(f"Chosen ({len(self.chosen)}/{of}): {shown}")

    def say(self, text: str) -> None:
        self.query_one("#pass-message", Static).update(text)

    def on_hand_picked(self, message: Hand.Picked) -> None:
        message.stop()
        card = message.card
        if card in self.chosen:
            self.chosen.remove(card)
            self.say("")
        elif not self.count:
            self.say("no cards are to be passed: Enter passes none")
        elif len(self.chosen) >= self.count:
            self.say(f"{self.count} cards are chosen already: choose one again to unselect it")
        else:
            self.chosen.append(card)
            self.say("")
        self._draw()

    def on_hand_problem(self, message: Hand.Problem) -> None:
        message.stop()
        self.say(message.text)

    def on_hand_buffer_changed(self, message: Hand.BufferChanged) -> None:
        message.stop()
        if message.text:
            self.say(f"typed: {message.text}")

    def on_hand_submitted(self, message: Hand.Submitted) -> None:
        message.stop()
        self._submit()

    @on(Button.Pressed, "#pass-go")
    def go(self) -> None:
        self._submit()

    def _submit(self) -> None:
        if len(self.chosen) not in self.counts:
            either = " or none" if 0 in self.counts else ""
            self.say(f"choose exactly {self.count} cards{either}: {len(self.chosen)} chosen")
            return
        self.dismiss(tuple(self.chosen))
