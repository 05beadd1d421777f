"""The key line at the bottom of every screen: Textual's footer, recomposed once for a burst of changes."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's footer recomposes its keys on every refresh of the bindings, and a turn, a focus change and a
    resize each refresh them in the same frame: each recompose restyles every key. Here the recomposes queued
    for one frame are one."""

    _stale = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._stale = True
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        if self._stale:
            self._stale = False
            await super().recompose()
