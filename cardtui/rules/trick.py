"""What the trick games' rulesets share: how a card may be led and followed, as a few card masks.

The searching computer players play thousands of deals per decision on
these masks (`games/fast.py`); each trick game's ruleset gives its own.
"""

from __future__ import annotations

import dataclasses

from cardtui.rules.base import Ruleset


@dataclasses.dataclass(frozen=True, slots=True)
class FastRules:
    """The rules of play as masks and flags."""

    trump: int
    first_lead: int
    first_block: int
    first_forced: int
    lead_block: int
    break_mask: int
    follow_winning: bool

    @classmethod
    def of(cls, ruleset: Ruleset) -> FastRules:
        """A trick game's rules of play; ValueError for a game that is not played in tricks."""
        if not isinstance(ruleset, TrickRules):
            raise ValueError(f"no fast path for {ruleset.game}")
        return ruleset.fast_rules()


@dataclasses.dataclass(frozen=True)
class TrickRules(Ruleset):
    """A ruleset of a game played in tricks."""

    def fast_rules(self) -> FastRules:
        """The rules of play as masks and flags."""
        raise NotImplementedError
