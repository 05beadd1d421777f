"""Help: the rules of the current game as its ruleset sets them, and every key."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.inert import inert
from cardtui.rules import Ruleset
from cardtui.tui.common import GAME_TITLES, ascii_text
from cardtui.variants import entry_of

GENERAL = (
    "cardtui plays {games}. "
    "A game is saved after every action; `cardtui resume SAVE` continues it and "
    "`cardtui replay SAVE` steps through it with every hand shown.\n\n"
    "Card codes are rank then suit: 2-10, J, Q, K, A and C D H S, like 10C or QS. "
    "Lower case and T for ten work too (tc, qs)."
)
"""One line a paragraph: the help wraps them to the terminal's width. `{games}`: the registry's games."""

_COLUMN = re.compile(r"^(\s*)(\S.*?\s{2,}(?=\S)|[^=]+ = .*?: |)")


def hanging(line: str, width: int) -> list[str]:
    """A line wrapped to `width` between words, its continuation indented under its second column.

    A key's line (`  ctrl+q     quit ...`) continues under the words after the gap; a house rule's
    (`  name = value: what it does`) under the words after the colon; a paragraph at its own indent.
    """
    if len(line) <= width:
        return [line]
    match = _COLUMN.match(line)
    lead = match.group(1) if match else ""
    indent = len(match.group(0)) if match else 0
    if indent > width // 2:
        indent = len(lead) + 2
    wrapper = textwrap.TextWrapper(
        width=width,
        subsequent_indent=" " * indent,
        break_long_words=True,
        break_on_hyphens=False,
        drop_whitespace=True,
    )
    return wrapper.wrap(line) or [line]


class HelpText(Static):
    """The help as plain text (its `content`), drawn with hanging indents: no phrase lands in the wrong column."""

    def __init__(self, text: str, id: str | None = None) -> None:
        text = inert(text, lines=True)
        super().__init__(text, markup=False, id=id)
        self.text = text

    def lines(self, width: int) -> list[str]:
        return [part for line in self.text.split("\n") for part in hanging(line, max(width, 20))]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        shown = ascii_text("\n".join(self.lines(self.content_region.width)), self.app.has_class("-ascii"))
        return Text(shown, no_wrap=True)


def toml_value(value: object) -> str:
    """A knob's value as the TOML file writes it (`true`, `"add_to_others"`), on one line."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    import tomli_w

    return tomli_w.dumps({"v": value}).strip().removeprefix("v = ")


def rules_text(ruleset: Ruleset) -> str:
    """The game in a paragraph (its registry entry's), then every knob of the ruleset with its value."""
    intro = entry_of(ruleset).rules_text
    lines = [f"{ruleset.title}", ruleset.description, "", intro, "", "These house rules:"]
    plain = ruleset.to_dict()
    for field in type(ruleset).knobs():
        lines.append(f"  {field.name} = {toml_value(plain[field.name])}: {field.metadata['doc']}")
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    """Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,question_mark", "close", "Close", id="help.close")]

    def __init__(self, ruleset: Ruleset | None, keys: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.keys = keys

    def compose(self) -> ComposeResult:
        column = max((len(k) for k, _ in self.keys), default=0)
        key_lines = "\n".join(f"  {k:<{column}}  {what}" for k, what in self.keys)
        *most, last = GAME_TITLES.values()
        body = [GENERAL.format(games=f"{', '.join(most)} and {last}" if most else last)]
        if key_lines:
            body.append("Keys:\n" + key_lines)
        if self.ruleset is not None:
            body.append(rules_text(self.ruleset))
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Static("Help (Esc to close)", classes="dialog-title", markup=False)
            yield HelpText("\n\n".join(body), id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)
