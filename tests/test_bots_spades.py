"""The hard Spades player makes its contract against opponents who keep taking tricks."""

from __future__ import annotations

import random

import pytest

from cardtui.cards import parse_cards
from cardtui.games.base import Bid, Play
from cardtui.games.spades import SpadesGame
from cardtui.rules import default_preset
from cardtui.variants import make_bot
from tests.support.dealing import deal_of, play


def two_short_with_four_to_go() -> SpadesGame:
    """Seat 2 and its partner bid 4 + 3 and have taken 5 tricks; four tricks are left. The opponents lead the ten
    of spades and seat 2, last to play, holds the queen (the top spade left) over it."""
    g = SpadesGame(default_preset("spades"))  # type: ignore[arg-type]
    g.apply(
        deal_of(
            {
                0: "2C 10C KC AC 4D 5D 7D 9D KD 2H QH 2S KS",
                1: "4C 8C QC 2D 8D QD 5H 8H JH 3S 4S 6S 7S",
                2: "9C JC JD AD 4H 6H 7H 9H AH 5S 8S JS QS",
                3: "3C 5C 6C 7C 3D 6D 10D 3H 10H KH 9S 10S AS",
            },
            dealer=1,
        )
    )
    for seat, bid in ((2, 4), (3, 2), (0, 3), (1, 2)):
        g.apply(Bid(seat, bid))
    tricks = "JC 3C 2C QC/QD JD 3D KD/2H JH AH 3H/AD 6D 4D 2D/4H KH QH 5H/10D 5D 8D 6H/10H 2S 8H 7H/10C 4C 9C 5C"
    for trick in (tricks + "/KS 3S JS AS/10S KC 4S").split("/"):
        play(g, *trick.split(" "))
    return g


@pytest.mark.parametrize("seed", range(4))
def test_hard_takes_a_trick_its_contract_needs_instead_of_ducking(seed: int) -> None:
    """Ducking under the ten leaves the last two tricks to how the opponents play; opponents who keep taking tricks
    once their own contract is made (rather than ducking bags) would set the side."""
    g = two_short_with_four_to_go()
    view = g.view(2)
    assert view.phase == "play" and g.tricks_won[0] + g.tricks_won[2] == 5
    decision = make_bot("spades", "hard", budget_ms=100).decide(view, random.Random(seed))
    assert decision.action == Play(2, parse_cards(["QS"])[0])
