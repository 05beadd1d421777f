"""The key line at the bottom of every screen: Textual's footer, recomposed once for a burst of changes, and only
when the keys it shows have changed."""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's footer recomposes its keys on every refresh of the bindings, and a turn, a focus change and a
    resize each refresh them in the same frame: each recompose restyles every key. Here the recomposes queued
    for one frame are one, and none when the keys it would draw are those it drew (a focus change within a
    screen, a hand-over and back, mostly leave them as they were)."""

    _stale = False
    _drawn: Hashable = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._stale = True
        super().bindings_changed(screen)

    def keys(self) -> Hashable:
        """Everything `Footer.compose` reads to draw the keys: each active binding (shown or not), whether it is
        enabled, its tooltip and how its key is written; whether the command palette's key is shown."""
        if not self._bindings_ready:
            return None
        app = self.app
        bindings = tuple(
            (key, binding, enabled, tooltip, app.get_key_display(binding))
            for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
        )
        return (bindings, self.show_command_palette, app.ENABLE_COMMAND_PALETTE, app.COMMAND_PALETTE_BINDING)

    def compose(self) -> ComposeResult:
        self._drawn = self.keys()
        yield from super().compose()

    async def recompose(self) -> None:
        if self._stale and self.is_attached:  # a footer whose screen has gone draws nothing more
            self._stale = False
            if self._drawn is None or self.keys() != self._drawn:
                await super().recompose()
