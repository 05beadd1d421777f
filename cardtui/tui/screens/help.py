"""Help: the rules of the current game as its ruleset sets them, and every key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.rules import Ruleset

GENERAL = """\
cardtui plays Hearts, partnership Spades, cutthroat Spades and Eight of Spades.
A game is saved after every action; `cardtui resume SAVE` continues it and
`cardtui replay SAVE` steps through it with every hand shown.

Card codes are rank then suit: 2-10, J, Q, K, A and C D H S, like 10C or QS.
Lower case and T for ten work too (tc, qs)."""

TRICK_RULES = {
    "hearts": "Hearts: avoid taking hearts (1 point each) and the queen of spades (13). Follow suit if you can. "
    "Take them all and you shoot the moon. The game ends when a seat reaches the end score; lowest wins.",
    "spades": "Spades: partners sit opposite. Each seat bids the tricks it will take; spades are trumps. "
    "A side that makes its contract scores 10 a trick plus 1 a bag; missing it loses 10 a trick. Nil bids "
    "take no trick at all.",
    "cutthroat": "Cutthroat Spades: every seat for itself. Bid the tricks you will take; spades are trumps.",
}


def rules_text(ruleset: Ruleset) -> str:
    """The game in a paragraph, then every knob of the ruleset with its value."""
    if ruleset.game == "eight-of-spades":
        from cardtui.games.eight_of_spades import RULES_TEXT

        intro = RULES_TEXT
    else:
        intro = TRICK_RULES.get(ruleset.game, "")
    lines = [f"{ruleset.title}", ruleset.description, "", intro, "", "These house rules:"]
    plain = ruleset.to_dict()
    for field in type(ruleset).knobs():
        lines.append(f"  {field.name} = {plain[field.name]!r}: {field.metadata['doc']}")
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    """Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,question_mark", "close", "Close", id="help.close")]

    def __init__(self, ruleset: Ruleset | None, keys: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.keys = keys

    def compose(self) -> ComposeResult:
        key_lines = "\n".join(f"  {k:<26} {what}" for k, what in self.keys)
        body = [GENERAL]
        if key_lines:
            body.append("Keys:\n" + key_lines)
        if self.ruleset is not None:
            body.append(rules_text(self.ruleset))
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Static("Help (Esc to close)", classes="dialog-title", markup=False)
            yield Static("\n\n".join(body), markup=False, id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)
