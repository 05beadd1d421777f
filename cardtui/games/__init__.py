"""The game engines: pure, deterministic state machines."""

from __future__ import annotations

from typing import Any

from cardtui.games.base import Action, Event, Game, IllegalAction, PlayerView, ToMove, trick_action_from_json
from cardtui.games.codec import FormError, from_json, read_event
from cardtui.rules import EightOfSpadesRules, HeartsRules, Ruleset, SpadesRules, ruleset_class

__all__ = [
    "Action",
    "Event",
    "FormError",
    "Game",
    "IllegalAction",
    "PlayerView",
    "ToMove",
    "create_game",
    "event_from_json",
    "view_from_json",
]


def create_game(ruleset: Ruleset) -> Game:
    """A new game, before its first deal, for any game's ruleset."""
    ruleset_class(ruleset.game)
    if isinstance(ruleset, HeartsRules):
        from cardtui.games.hearts import HeartsGame

        return HeartsGame(ruleset)
    if isinstance(ruleset, SpadesRules):
        from cardtui.games.spades import SpadesGame

        return SpadesGame(ruleset)
    assert isinstance(ruleset, EightOfSpadesRules)
    from cardtui.games.eight_of_spades import EightOfSpadesGame

    return EightOfSpadesGame(ruleset)


def view_from_json(data: Any) -> PlayerView:
    """A seat's view read back from its JSON form (`codec.to_json`); FormError says what is wrong."""
    from cardtui.games.eight_of_spades import EightOfSpadesView
    from cardtui.games.hearts import HeartsView
    from cardtui.games.spades import SpadesView
    from cardtui.rules import ruleset_from_dict

    if not isinstance(data, dict) or not isinstance(data.get("ruleset"), dict):
        raise FormError("a view must be an object with a ruleset")
    classes: dict[str, type[PlayerView]] = {"hearts": HeartsView, "spades": SpadesView, "cutthroat": SpadesView}
    view_class = classes.get(data.get("game", ""), EightOfSpadesView)
    try:
        parse = create_game(ruleset_from_dict(data["ruleset"], "ruleset.")).parse_action
    except ValueError as err:
        raise FormError(str(err)) from None
    return from_json(view_class, data, parse, "view")


def event_from_json(data: Any, game: str) -> Event:
    """An event of `game` read back from its JSON form (`codec.to_json`); FormError says what is wrong."""
    from cardtui.games import (
        eight_of_spades,  # noqa: F401  (its events register their kinds)
        history,  # noqa: F401  (the undo's event registers its kind)
    )
    from cardtui.games.trick import MAX_SEATS

    def parse(action: Any) -> Action:
        if game == "eight-of-spades":
            raise FormError("an Eight of Spades event holds no actions")
        return trick_action_from_json(action, MAX_SEATS)

    return read_event(data, parse)
