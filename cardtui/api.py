"""The scripting API: the small, stable face of cardtui for scripts, notebooks and other programs.

It speaks the save file's JSON: actions are dicts like
``{"type": "play", "seat": 1, "card": "10C"}``, a game opens from a save dict
or file and gives one back. Every problem (a malformed or illegal action, a
broken save, an unknown game or preset) raises `ApiError`, whose message says
why; nothing else escapes.

At a deal, `legal_actions()` offers exactly one action: the seeded deal, so
``g.apply(g.legal_actions()[0])`` always moves a game on. Any other complete
deal may be applied too.

Two actions are never listed by `legal_actions()` but go through `apply`
like any other: ``{"type": "claim", "seat": S}`` (the seat on lead claims
every remaining trick of the deal; refused with why unless certain) and
``{"type": "undo", "seat": S, "to": N}`` (the one person at the table takes
back their decision at log index N and the computer players' moves after
it; `undo(seat)` finds N).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardtui.games import Game, IllegalAction
from cardtui.games.base import looked_view
from cardtui.games.codec import to_json
from cardtui.games.summary import summary_of
from cardtui.rules import GAMES, Ruleset, RulesetError, knobs_over_preset, resolve_ruleset
from cardtui.rules.base import show
from cardtui.saves import SaveError, parse_json, parse_save, read_bytes
from cardtui.session import Session

__all__ = ["ApiError", "ApiGame", "new_game", "open_game", "summary_of"]


class ApiError(ValueError):
    """The one error of the scripting API; the message says what is wrong."""


class ApiGame:
    """A game driven by a script; every method speaks JSON dicts and raises only ApiError."""

    def __init__(self, session: Session) -> None:
        self._session = session

    @property
    def game(self) -> str:
        return self._session.ruleset.game

    @property
    def engine(self) -> Game:
        """The engine itself, for scripts that want more than the stable API (not covered by it)."""
        return self._session.game

    @property
    def to_move(self) -> dict[str, Any] | None:
        """``{"seat": 1, "phase": "play"}`` (phase "deal" for the chance move), or None once over."""
        tm = self._session.game.to_move
        return tm.to_json() if tm is not None else None

    @property
    def is_over(self) -> bool:
        return self._session.game.is_over

    @property
    def log(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self._session.log]

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every action allowed now; at a deal, the one seeded deal; none once over."""
        game = self._session.game
        if game.is_over:
            return []
        if game.is_chance:
            return [self._session.chance_action().to_json()]
        tm = game.to_move
        if tm is not None and tm.seat in self._session.looked:
            return [a.to_json() for a in looked_view(game.view(tm.seat)).legal]
        return [a.to_json() for a in game.legal_actions()]

    def apply(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply an action dict; returns the events as dicts. Illegal or malformed: ApiError, nothing changes."""
        if not isinstance(action, dict):
            raise ApiError(f"an action must be a dict, found {show(action)}")
        try:
            events = self._session.apply(action)
        except IllegalAction as err:
            raise ApiError(str(err)) from None
        except SaveError as err:
            raise ApiError(str(err)) from None
        return [to_json(e) for e in events]

    def undo(self, seat: int) -> list[dict[str, Any]]:
        """Take back `seat`'s last decision (and the moves after it); ApiError says why when it can't be."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._session.game.seats:
            raise ApiError(f"seat must be 0..{self._session.game.seats - 1}, found {seat!r}")
        try:
            action = self._session.undo_action(seat)
        except IllegalAction as err:
            raise ApiError(str(err)) from None
        return self.apply(action.to_json())

    def deal(self) -> list[dict[str, Any]]:
        """Make the seeded deal when one is due (the same cards `cardtui play --seed` deals)."""
        if not self._session.game.is_chance:
            raise ApiError("it is not time to deal")
        return self.apply(self._session.chance_action().to_json())

    def view(self, seat: int) -> dict[str, Any]:
        """What one seat may know now, as JSON (its own hand, cards played, bids, ...)."""
        game = self._session.game
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.seats:
            raise ApiError(f"seat must be 0..{game.seats - 1}, found {seat!r}")
        result: dict[str, Any] = to_json(game.view(seat))
        return result

    def summary(self) -> dict[str, Any]:
        """The `cardtui inspect --json` object."""
        return summary_of(self._session.game, len(self._session.log))

    def to_save(self) -> dict[str, Any]:
        """A save dict of the game so far (write it with json.dump); version 2 when it holds an undo or a claim."""
        return self._session.to_save()

    def suggest(self, level: str = "normal", seed: int | None = None) -> dict[str, Any]:
        """The computer player's choice for the seat to move: ``{"action": {...}, "reason": "..."}``.

        `seed` seeds the player's generator; None uses the game's own (seed,
        action count) derivation, as a computer seat in play would.
        """
        if not isinstance(level, str):
            raise ApiError(f"a level is a name, found {show(level)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ApiError(f"seed: expected an integer or None, found {show(seed)}")
        session = self._session
        game = session.game
        if game.is_over:
            raise ApiError("the game is over")
        if game.is_chance:
            return {"action": session.chance_action().to_json(), "reason": "the seeded deal"}
        try:
            bot = session.bot_for(level)
            tm = game.to_move
            assert tm is not None
            if seed is None:
                decision = session.bot_decision(level)
            else:
                import random

                decision = bot.decide(game.view(tm.seat), random.Random(seed))
        except (IllegalAction, ValueError, KeyError) as err:
            raise ApiError(str(err)) from None
        return {"action": decision.action.to_json(), "reason": decision.reason}


def _ruleset_for(game: str, ruleset: str | Path | Mapping[str, Any] | Ruleset | None) -> Ruleset:
    if not isinstance(game, str) or game not in GAMES:
        raise ApiError(f"unknown game {show(game)} — choose one of {', '.join(GAMES)}")
    try:
        if isinstance(ruleset, Ruleset):
            chosen = ruleset
        elif isinstance(ruleset, Mapping):
            chosen = knobs_over_preset(game, ruleset, "ruleset.")
        elif ruleset is None or isinstance(ruleset, str | Path):
            return resolve_ruleset(game, ruleset)
        else:
            raise ApiError(f"a ruleset is a preset name, a TOML path or a dict of knobs, found {show(ruleset)}")
    except RulesetError as err:
        raise ApiError(str(err)) from None
    if chosen.game != game:
        raise ApiError(f"the rules {chosen.name!r} are for {chosen.game}, not {game}")
    return chosen


def new_game(
    game: str,
    ruleset: str | Path | Mapping[str, Any] | Ruleset | None = None,
    seed: int = 0,
    seats: Sequence[dict[str, Any]] | None = None,
) -> ApiGame:
    """Start a game (nothing is written to disk).

    `ruleset` is a preset name, a TOML path, or a dict of knobs that override
    the game's default preset; `seats` (optional) are the save file's seat
    dicts. The game starts at its first deal.
    """
    chosen = _ruleset_for(game, ruleset)
    try:
        session = Session.new(chosen, seats, seed, autosave=False)
    except (ValueError, IllegalAction, SaveError) as err:
        raise ApiError(str(err)) from None
    return ApiGame(session)


def open_game(save: dict[str, Any] | str | Path) -> ApiGame:
    """Replay a save (a dict, or a file's path) and continue from where it stopped."""
    try:
        if isinstance(save, dict):
            loaded = parse_save(save, "save")
        elif isinstance(save, str | Path):
            path = Path(save)
            loaded = parse_save(parse_json(read_bytes(path), path.name), path.name)
        else:
            raise ApiError(f"open_game takes a save dict or a path, found {type(save).__name__}")
    except SaveError as err:
        raise ApiError(str(err)) from None
    return ApiGame(Session.of_save(loaded))
