"""The bid: a number of tricks up to the hand's size, nil, and blind bids (before the hand is shown) when allowed;
with Settings' confirm on, a nil or blind bid asks y/n first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Static

from cardtui.cards import Card
from cardtui.games.base import Bid, bid_label
from cardtui.inert import inert
from cardtui.tui.common import bid_examples, card_label, parse_bid_text
from cardtui.tui.screens.dialog import DecisionDialog, Keys, TableHelp
from cardtui.tui.screens.fit import MIN_HEIGHT, MIN_WIDTH
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.tui.widgets.keys_in_order import InOrderInput


class BidScreen(DecisionDialog[Bid]):
    """Gives back the chosen Bid. With blind bids on offer, the hand stays face down until "look".

    `hand` comes in the order to show it; `earlier` is the bids made so far this deal (the partner's among them),
    told in words."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("escape", "look", "Look at the hand"),
        *(b for b in DecisionDialog.BINDINGS if isinstance(b, Binding) and b.key == "escape"),  # once looked
    ]
    KEYS: ClassVar[Keys] = (
        ("0-13 or nil + Enter", "bid that many tricks (nil: none)"),
        ("blind nil, blind 5 + Enter", "a blind bid, before looking at the hand (when the rules allow)"),
        ("Esc or look + Enter", "look at the hand first (once looked, Esc leaves to the menu, after asking)"),
        ("Tab, Enter", "move to a button and press it"),
        ("y or n", "with Settings' confirm nil and blind bids on: make the nil, 0 or blind bid, or choose again"),
        ("F1", "this help"),
        ("F2", "hint: the bid the computer player of your hint level (Settings) would make, and why"),
    )

    def __init__(
        self,
        name: str,
        bids: Sequence[Bid],
        hand: Sequence[Card],
        ascii_only: bool,
        on_look: Callable[[], None] | None = None,
        earlier: str = "",
        table_help: TableHelp | None = None,
        refusal: Callable[[int, bool], str | None] | None = None,
    ) -> None:
        super().__init__(table_help)
        self.HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-narrow"), (80, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-short"), (30, "-tall")]
        self.player = inert(name)
        self.earlier = inert(earlier, lines=True)
        self.bids = list(bids)
        self.hand = list(hand)
        self.ascii_only = ascii_only
        self.on_look = on_look
        self.refusal = refusal
        """Why a bid (tricks, blind) is not allowed now, in the engine's words."""
        self.confirm = False
        """Ask y/n before a costly bid (nil, blind nil, a typed 0, a blind bid): Settings' confirm_costly."""
        self.blind_stage = any(b.blind for b in self.bids)
        self.most = max((b.bid for b in self.bids), default=13)
        """The highest bid offered: a number typed may go this high (13, or 17 in cutthroat for three)."""

    def help_keys(self) -> Keys:
        """The keys, the number typed going as high as the bids offered."""
        first, *rest = super().help_keys()
        return [(first[0].replace("13", str(self.most)), first[1]), *rest]

    def _options(self) -> list[Bid]:
        return [b for b in self.bids if b.blind == self.blind_stage]

    def compose(self) -> ComposeResult:
        with Vertical(id="bid-dialog", classes="dialog"):
            yield Static("", id="bid-title", markup=False)
            yield Static(self.earlier, id="bid-earlier", markup=False)
            yield Static("", id="bid-hand", markup=False)
            yield Grid(id="bid-buttons")
            yield Horizontal(id="bid-extra")
            yield InOrderInput(placeholder=f"type a bid: {bid_examples(self.bids)} — then Enter", id="bid-input")
            yield Static("", id="bid-message", markup=False, classes="message")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        title = self.query_one("#bid-title", Static)
        hand = self.query_one("#bid-hand", Static)
        if self.blind_stage:
            title.update(f"{self.player}: bid blind, before looking at your hand? Or look first.")
            hand.update("Your hand is face down.")
        else:
            title.update(f"{self.player}: how many tricks will you take?")
            self._show_hand()
        offered = self.bids if self.blind_stage else [b for b in self.bids if not b.blind]
        self.query_one("#bid-input", Input).placeholder = f"type a bid: {bid_examples(offered)} — then Enter"
        grid = self.query_one("#bid-buttons", Grid)
        grid.remove_children()
        grid.set_class(self.blind_stage, "-blind")
        buttons = [Button(b.label(), id=f"bid-{b.bid}-{int(b.blind)}", compact=True) for b in self._options()]
        grid.mount_all(buttons)
        extra = self.query_one("#bid-extra", Horizontal)
        extra.remove_children()
        if self.blind_stage:
            extra.mount(Button("look at the hand", id="bid-look", compact=True, variant="primary"))
        # the dialog's height follows the new buttons once they are mounted
        self.call_after_refresh(self.query_one("#bid-dialog").refresh, layout=True)
        self.query_one("#bid-input", Input).focus()

    def _show_hand(self) -> None:
        cards = "  ".join(card_label(c, self.ascii_only) for c in self.hand)
        self.query_one("#bid-hand", Static).update(cards)

    def show_hand(self, hand: Sequence[Card]) -> None:
        """The hand arrived, in the order to show it (a network seat's host sends it only once the seat looks)."""
        self.hand = list(hand)
        if not self.blind_stage:
            self._show_hand()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc looks at the hand only while it is face down (the footer offers it only then)."""
        if action == "look":
            return self.blind_stage and not self.aside
        return super().check_action(action, parameters)

    def action_look(self) -> None:
        if self.blind_stage:
            self.blind_stage = False
            if self.on_look is not None:
                self.on_look()
            self._draw()
            self.refresh_bindings()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        key = event.button.id or ""
        if key == "bid-look":
            self.action_look()
            return
        _, number, blind = key.split("-")
        self._choose(int(number), blind == "1")

    @on(Input.Submitted, "#bid-input")
    def typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        if self.blind_stage and text.lower() in ("look", "l", ""):
            self.action_look()
            return
        try:
            number, blind = parse_bid_text(text, any(b.blind for b in self.bids), self.most)
        except ValueError as err:
            self.say(str(err))
            return
        self._choose(number, blind, typed_zero=text.split()[-1:] == ["0"])

    def _choose(self, number: int, blind: bool, typed_zero: bool = False) -> None:
        for b in self.bids:
            if b.bid == number and b.blind == blind:
                if blind != self.blind_stage:
                    break
                if self.confirm and (b.is_nil or b.blind):
                    self._ask(b, typed_zero)
                else:
                    self.dismiss(b)
                return
        label = bid_label(number, blind)
        why = self.refusal(number, blind) if self.refusal is not None else None
        if blind and not self.blind_stage and any(b.blind for b in self.bids):
            self.say(f"{label}: a blind bid is made before looking at the hand")
        elif not blind and self.blind_stage:
            self.say("look at your hand first (Esc or the button) to bid in the open")
        elif why is not None:
            self.say(why)
        elif blind:
            self.say(f"{label} is not allowed now (the rules or the score do not allow it)")
        else:
            self.say(f"{label} is not allowed in these rules")

    def _ask(self, bid: Bid, typed_zero: bool) -> None:
        """The y/n question before a costly bid: yes makes it, no leaves the dialog to choose again."""
        from cardtui.tui.screens.confirm import ConfirmScreen

        label = bid.label()
        what = "You typed 0, which bids nil" if typed_zero else f"{label[0].upper()}{label[1:]}"
        promise = "to take no trick at all" if bid.is_nil else f"{bid.bid} tricks or more"
        seen = " before seeing your hand" if bid.blind else ""
        question = f"{what}{seen}: you promise {promise}."

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(bid)
            else:
                self.say(f"Not bid: {label}. Choose your bid.")
                self.query_one("#bid-input", Input).focus()

        self.app.push_screen(ConfirmScreen(f"Bid {label}?", question, f"bid {label}", "choose again"), answered)

    def say(self, text: str) -> None:
        self.query_one("#bid-message", Static).update(text)

    def hint_refused(self) -> str | None:
        if self.blind_stage:
            return "A hint would look at your hand: look first (Esc) — a blind bid is yours alone."
        return None
