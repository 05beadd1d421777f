"""The game engines: pure, deterministic state machines.

`ENGINES` lists every engine; each names the ruleset class it plays (`RULES`)
and its view class (`VIEW`), so a ruleset finds its engine without a table of
game names.
"""

from __future__ import annotations

from typing import Any

from cardtui.games.base import Action, Event, Game, IllegalAction, PlayerView, ToMove, only_its_keys
from cardtui.games.codec import FormError, from_json, read_event
from cardtui.games.eight_of_spades import EightOfSpadesGame
from cardtui.games.hearts import HeartsGame
from cardtui.games.spades import SpadesGame
from cardtui.rules import Ruleset, RulesetError, ruleset_class, ruleset_from_dict

__all__ = [
    "ENGINES",
    "Action",
    "Event",
    "FormError",
    "Game",
    "IllegalAction",
    "PlayerView",
    "ToMove",
    "create_game",
    "engine_of",
    "event_from_json",
    "view_from_json",
]

ENGINES: tuple[type[Game], ...] = (HeartsGame, SpadesGame, EightOfSpadesGame)


def engine_of(game: str) -> type[Game]:
    """The engine class of a game's name; a RulesetError names the games."""
    rules = ruleset_class(game)
    found = [engine for engine in ENGINES if engine.RULES is rules]
    if not found:
        raise RulesetError(f"no engine plays {rules.__name__}")
    return found[0]


def create_game(ruleset: Ruleset) -> Game:
    """A new game, before its first deal, for any game's ruleset."""
    return engine_of(ruleset.game).new(ruleset)


def view_from_json(data: Any) -> PlayerView:
    """A seat's view read back from its JSON form (`codec.to_json`); FormError says what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("ruleset"), dict):
        raise FormError("a view must be an object with a ruleset")
    try:
        ruleset = ruleset_from_dict(data["ruleset"], "ruleset.")
    except ValueError as err:
        raise FormError(str(err)) from None
    if data.get("game") != ruleset.game:
        raise FormError(f"a view of {ruleset.game} must say game {ruleset.game!r}, found {data.get('game')!r}")
    game = create_game(ruleset)
    view = from_json(type(game).VIEW, data, game.action_from_json, "view")
    why = view.refusal()
    if why is not None:
        raise FormError(why)
    return view


def event_from_json(data: Any, game: str) -> Event:
    """An event of `game` read back from its JSON form (`codec.to_json`); FormError says what is wrong."""
    try:
        engine = engine_of(game)
    except RulesetError as err:
        raise FormError(str(err)) from None
    return read_event(data, lambda action: only_its_keys(engine.event_action(action), action))
