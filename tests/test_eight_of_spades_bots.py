"""Eight of Spades computer players: always legal, reproducible, and sensible where the choice is plain."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtui.bots.eight_of_spades import LEVELS, ClassicBot, EasyBot, HardBot, Reckoning, make_bot
from cardtui.cards import DECK, Suit, parse_card
from cardtui.games.eight_of_spades import GRID_CELLS, EightOfSpadesGame, EightOfSpadesView, Flip, Layout
from cardtui.rules import EightOfSpadesRules

RULES = EightOfSpadesRules(game="eight-of-spades")


def play(levels: list[str], seed: int, **knobs: Any) -> tuple[EightOfSpadesGame, list[str]]:
    """A whole game between bots; every decision must be one of the view's legal actions."""
    game = EightOfSpadesGame(RULES.replace(players=len(levels), **knobs))
    bots = [make_bot(level) for level in levels]
    rng = random.Random(seed)
    game.apply(game.chance_action(rng))
    reasons = []
    while not game.is_over:
        seat = game.to_move.seat  # type: ignore[union-attr]
        view = game.view(seat)
        decision = bots[seat].decide(view, rng)
        assert decision.action in view.legal, (levels[seat], decision)
        assert decision.reason
        reasons.append(decision.reason)
        game.apply(decision.action)
    return game, reasons


def test_levels_and_unknown_level() -> None:
    assert LEVELS == ("easy", "classic", "hard")
    assert isinstance(make_bot("easy"), EasyBot)
    assert isinstance(make_bot("classic"), ClassicBot)
    assert isinstance(make_bot("hard"), HardBot)
    for level in LEVELS:
        assert make_bot(level).level == level
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        make_bot("expert")


@pytest.mark.slow  # 48 whole games, the hard player's endgame searches among them
@pytest.mark.parametrize(
    "knobs",
    [
        {},
        {"illuminati_stake": 0},
        {"illuminati_stake": 1, "illuminati_value": 3},
        {"eight_value": 52, "first_turn_eight_wins": True},
    ],
)
def test_never_an_illegal_action(knobs: dict[str, Any]) -> None:
    rng = random.Random(11)
    for i in range(12):
        players = rng.randint(2, 8)
        levels = [LEVELS[(i + s) % 3] for s in range(players)]
        game, _ = play(levels, seed=i, **knobs)
        assert game.is_over and game.winners


@pytest.mark.slow  # the hard player searches at every move
@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level: str) -> None:
    first, reasons = play([level] * 4, seed=5)
    second, again = play([level] * 4, seed=5)
    assert reasons == again
    assert first.points == second.points and first.winners == second.winners


def test_easy_is_loud() -> None:
    """Easy calls 8S 30-45% of the time and goes to the illuminati 25-40% of the time it may."""
    game = EightOfSpadesGame(RULES.replace(illuminati_stake=0))
    game.apply(game.chance_action(random.Random(2)))
    view = game.view(0)
    bot = EasyBot()
    rng = random.Random(3)
    actions = [bot.decide(view, rng).action for _ in range(4000)]
    eights = sum(isinstance(a, Flip) and a.call == "8S" for a in actions) / len(actions)
    ill = sum(isinstance(a, Flip) and a.pos >= GRID_CELLS for a in actions) / len(actions)
    assert 0.30 <= eights <= 0.45
    assert 0.25 <= ill <= 0.40


def _late_board(call_suit: bool = False, **knobs: Any) -> EightOfSpadesGame:
    """2 players; 37 clubs, diamonds and spades flipped (and `call_suit`: collected); 12 hearts left in
    the grid; the illuminati holds AH, 8S and AS."""
    others = [c for c in DECK if c.suit != Suit.HEARTS and c.code not in ("8S", "AS")]
    hearts = [c for c in DECK if c.suit == Suit.HEARTS and c.code != "AH"]
    cards = others + hearts + [parse_card("AH"), parse_card("8S"), parse_card("AS")]
    game = EightOfSpadesGame(RULES.replace(players=2, **knobs))
    game.apply(Layout.from_cards(cards))
    for pos, card in enumerate(others):
        game.apply(Flip(game.to_move.seat, card.suit.letter if call_suit else "8S", pos))  # type: ignore[union-attr]
    return game


@pytest.mark.parametrize("level", ["classic", "hard"])
def test_calls_the_suit_that_is_left(level: str) -> None:
    game = _late_board(call_suit=True, eight_value=1, illuminati_stake=52)
    seat = game.to_move.seat  # type: ignore[union-attr]
    view = game.view(seat)
    assert isinstance(view, EightOfSpadesView)
    t = Reckoning(view)
    assert t.counts == [0, 0, 13, 0, 1, 1] and t.unseen == 15
    decision = make_bot(level).decide(view, random.Random(1))
    assert isinstance(decision.action, Flip)
    assert decision.action.call == "H" and decision.action.pos < GRID_CELLS
    assert decision.reason.startswith("calls H at ")


@pytest.mark.parametrize("level", ["classic", "hard"])
def test_goes_for_the_eight_in_the_illuminati(level: str) -> None:
    game = _late_board(illuminati_stake=0)
    while game.down & ((1 << GRID_CELLS) - 1):  # flip the hearts too, missing
        pos = (game.down & -game.down).bit_length() - 1
        game.apply(Flip(game.to_move.seat, "C", pos))  # type: ignore[union-attr]
    seat = game.to_move.seat  # type: ignore[union-attr]
    decision = make_bot(level).decide(game.view(seat), random.Random(1))
    assert isinstance(decision.action, Flip)
    assert decision.action.call == "8S" and decision.action.pos >= GRID_CELLS
    assert "1 in 3 to win the game outright" in decision.reason
