"""A widget's own keys run in the order they were pressed, with the characters typed around them."""

from __future__ import annotations

from textual import events
from textual.widget import Widget
from textual.widgets import Input


async def run_own_binding(widget: Widget, event: events.Key) -> bool:
    """Run `widget`'s own binding for this key now, in turn with the keys around it; True when one ran.

    Textual runs a focused widget's bindings only once the key has bubbled up to
    the app, while characters are handled where they arrive, so under fast input
    (a paste, a burst from tmux, a very quick typist) a character typed after
    Enter can reach the widget before the Enter does: "qs Enter 2h" would read
    "qs2h" and then play whatever card was under the cursor. The bindings stay
    declared as usual, for the footer and the help.
    """
    for binding in widget._bindings.key_to_bindings.get(event.key, ()):
        if not binding.priority and await widget.app.run_action(binding.action, widget):
            event.stop()
            event.prevent_default()
            return True
    return False


class InOrderInput(Input):
    """Textual's one-line input, its own keys (Enter, Backspace, arrows) run in turn with the characters typed."""

    async def _on_key(self, event: events.Key) -> None:
        if not await run_own_binding(self, event):
            await super()._on_key(event)
