"""The game engines: pure, deterministic state machines."""

from __future__ import annotations

from cardtui.games.base import Action, Event, Game, IllegalAction, PlayerView, ToMove
from cardtui.rules import Ruleset, ruleset_class

__all__ = ["Action", "Event", "Game", "IllegalAction", "PlayerView", "ToMove", "create_game"]


def create_game(ruleset: Ruleset) -> Game:
    """A new game, before its first deal, for any game's ruleset."""
    ruleset_class(ruleset.game)
    if ruleset.game == "hearts":
        from cardtui.games.hearts import HeartsGame

        return HeartsGame(ruleset)  # type: ignore[arg-type]
    if ruleset.game in ("spades", "cutthroat"):
        from cardtui.games.spades import SpadesGame

        return SpadesGame(ruleset)  # type: ignore[arg-type]
    from cardtui.games.eight_of_spades import EightOfSpadesGame

    return EightOfSpadesGame(ruleset)  # type: ignore[arg-type]
