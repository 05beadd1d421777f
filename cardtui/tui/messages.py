"""What screens ask the app to do; the app alone moves between screens (screens never import it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from cardtui.replay import Replay
    from cardtui.session import Session


@dataclasses.dataclass
class OpenGame(Message):
    """Show the table or the grid for a session (a new game, or one read from a save)."""

    session: Session
    resumed: bool = False


@dataclasses.dataclass
class PlayAgain(Message):
    """Start a new game with the finished one's rules and seats: a new seed and a new save file."""

    finished: Session


@dataclasses.dataclass
class OpenReplay(Message):
    """Step through a game on top of the current screen."""

    replay: Replay
    back: Callable[[], None] | None = None
    """What Esc from the replay goes back to beyond the screen under it (the list of saves it was chosen in)."""


@dataclasses.dataclass
class OpenPastDeals(Message):
    """Step through the finished deals of a game in progress (its save as JSON), on top of its table."""

    save: dict[str, Any]


class BackToMenu(Message):
    """Leave the game or the replay for the menu."""


class AskToLeave(Message):
    """Esc at a table: ask whether to leave it for the menu, then leave (the game saved, or the seat kept)."""


class Quit(Message):
    """End the app, saying where the game is saved."""


class OpenSettings(Message):
    """Show the Settings screen (from the menu)."""


class OpenStats(Message):
    """Show the Statistics screen (from the menu)."""


@dataclasses.dataclass
class UseAscii(Message):
    """Suits as letters and ASCII borders turned on or off (Settings): every screen follows at once."""

    on: bool
