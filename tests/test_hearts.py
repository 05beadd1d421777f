"""Hearts rules on hand-built deals, and the scoring examples."""

from __future__ import annotations

import pytest

from cardtui.cards import CardSet, parse_card
from cardtui.games.base import Claim, IllegalAction, Pass, Play
from cardtui.games.hearts import HeartsGame, hearts_winners, score_hearts_deal
from cardtui.rules import HeartsRules, load_preset
from tests.support.dealing import make_deal, play

HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def rules(**changes: object) -> HeartsRules:
    r = load_preset("hearts").replace(**changes)
    assert isinstance(r, HeartsRules)
    return r


def new(hands: dict[int, str], **changes: object) -> HeartsGame:
    game = HeartsGame(rules(**({"pass_cycle": ["none"]} | changes)))
    game.apply(make_deal(3, hands))
    return game


def error(game: HeartsGame, seat: int, code: str) -> str:
    before = game.view(seat)
    with pytest.raises(IllegalAction) as err:
        game.apply(Play(seat, parse_card(code)))
    assert game.view(seat) == before, "an illegal play must leave the state unchanged"
    return str(err.value)


def test_two_of_clubs_leads() -> None:
    game = new({1: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"})
    assert game.to_move is not None and game.to_move.seat == 1
    assert error(game, 1, "3C") == "the first trick is led with the 2 of clubs (2C)"
    assert error(game, 2, "2D") == "it is seat 1's turn to play a card, not seat 2's"
    assert [a.card.code for a in game.legal_actions() if isinstance(a, Play)] == ["2C"]


def test_any_club_may_lead_when_the_ruleset_says() -> None:
    game = new({1: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"}, first_lead="any_club")
    assert len(game.legal_actions()) == 13
    play(game, "AC")


def test_follow_suit_message_lists_the_suit_held() -> None:
    game = new({0: "2C 4C 9C 2H 3H 4H 5H 6H 7H 8H 9H 10H JH", 1: "3C AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S"})
    play(game, "2C")
    assert error(game, 1, "AS") == "you must follow clubs: you hold 3C"
    assert error(game, 1, "2D") == "you don't hold 2D"


def test_no_points_on_the_first_trick_unless_nothing_else() -> None:
    game = new({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2D"})
    play(game, "2C")
    assert error(game, 1, "KH") == (
        "no points on the first trick: play a card that is not a heart or the queen of spades"
    )
    play(game, "2D")


def test_only_hearts_and_the_queen_plays_the_queen_first() -> None:
    game = new({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH QS"})
    play(game, "2C")
    assert error(game, 1, "KH") == "with only hearts and the queen of spades, the queen goes first"
    assert [a.card.code for a in game.legal_actions() if isinstance(a, Play)] == ["QS"]


def test_only_hearts_may_be_played_on_the_first_trick() -> None:
    game = new({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: HEARTS})
    play(game, "2C", "AH")


BREAK_DEAL = {
    0: "AC AD 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    1: "2C 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    2: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC KH AH",
    3: "2S 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
}


def test_hearts_cannot_be_led_until_broken() -> None:
    game = new(BREAK_DEAL)
    play(game, "2C", "3C", "2D", "AC")
    assert game.to_move is not None and game.to_move.seat == 0 and not game.broken
    assert error(game, 0, "2H") == "hearts are not broken yet: lead another suit"
    play(game, "AD", "3S", "KH")
    assert game.broken
    play(game, "3D")
    assert game.to_move is not None and game.to_move.seat == 0
    play(game, "2H")


def test_a_hand_of_only_hearts_may_lead_them() -> None:
    game = new(BREAK_DEAL)
    play(game, "2C", "3C", "2D", "AC", "AD", "3S", "4C", "3D")
    assert not game.broken and game.to_move is not None and game.to_move.seat == 0
    assert {a.card.code for a in game.legal_actions() if isinstance(a, Play)} == set(
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]
    )


def test_queen_breaks_hearts_when_the_ruleset_says() -> None:
    deal = {
        0: "AC AD 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
        1: "2C 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS QS",
        2: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC KH AH",
        3: "2S 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    }
    for breaks in (False, True):
        game = new(deal, queen_breaks_hearts=breaks)
        play(game, "2C", "3C", "2D", "AC", "AD", "QS", "4C", "3D")
        assert game.broken is breaks


def test_passing_left_right_across() -> None:
    for direction, offset in (("left", 1), ("right", 3), ("across", 2)):
        game = HeartsGame(rules(pass_cycle=[direction]))
        game.apply(make_deal(3, {}))
        before = [game.hand(s) for s in range(4)]
        chosen = {}
        for _ in range(4):
            assert game.to_move is not None and game.to_move.phase == "pass"
            seat = game.to_move.seat
            cards = tuple(list(before[seat])[:3])
            chosen[seat] = cards
            game.apply(Pass(seat, cards))
        assert game.phase == "play"
        for seat in range(4):
            to = (seat + offset) % 4
            assert all(c in game.hand(to) for c in chosen[seat])
            assert game.view(to).detail.received == CardSet(chosen[seat])
            assert game.view(seat).detail.passed == CardSet(chosen[seat])


def test_pass_errors() -> None:
    game = HeartsGame(rules())
    game.apply(make_deal(3, {0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"}))
    assert game.to_move is not None
    seat = game.to_move.seat
    held = list(game.hand(seat))
    with pytest.raises(IllegalAction, match="pass exactly 3 cards, not 2"):
        game.apply(Pass(seat, tuple(held[:2])))
    with pytest.raises(IllegalAction, match="is chosen twice"):
        game.apply(Pass(seat, (held[0], held[0], held[1])))
    other = next(c for c in game.hand((seat + 1) % 4))
    with pytest.raises(IllegalAction, match=f"you don't hold {other.code}"):
        game.apply(Pass(seat, (held[0], held[1], other)))
    assert len(game.legal_actions()) == 286


def test_pass_cycle_repeats_left_right_across_none() -> None:
    game = HeartsGame(rules())
    directions = []
    for dealer in (0, 1, 2, 3, 0):
        game.phase = "deal"
        game.dealer = (dealer - 1) % 4 if game.dealer >= 0 else -1
        game.apply(make_deal(dealer, {}))
        directions.append(game.pass_direction)
    assert directions == ["left", "right", "across", "none", "left"]


def test_deal_is_checked() -> None:
    game = HeartsGame(rules())
    good = make_deal(3, {})
    with pytest.raises(IllegalAction, match="holds 12 cards"):
        game.apply(type(good)(3, (good.hands[0] - CardSet.parse(["2C"]), *good.hands[1:])))
    game.apply(good)
    with pytest.raises(IllegalAction, match="not time to deal"):
        game.apply(good)


def _taken(*groups: str) -> list[int]:
    return [CardSet.parse(g.split()).mask for g in groups]


def test_points_and_moon_variants() -> None:
    normal = _taken("2H 3H", "QS", "AH", "")
    assert score_hearts_deal(rules(), normal, [0, 0, 0, 0]) == ([2, 13, 1, 0], None)
    moon = _taken(HEARTS + " QS", "", "", "")
    assert score_hearts_deal(rules(), moon, [0, 0, 0, 0]) == ([0, 26, 26, 26], 0)
    assert score_hearts_deal(rules(moon="subtract_from_shooter"), moon, [0, 0, 0, 0]) == ([-26, 0, 0, 0], 0)
    # Shooter's choice: adding 26 to the others leaves the shooter 26 ahead either way here; with the
    # shooter far behind, subtracting is better (it keeps the end further off).
    assert score_hearts_deal(rules(moon="shooters_choice"), moon, [0, 0, 0, 0])[0] in ([0, 26, 26, 26], [-26, 0, 0, 0])
    assert score_hearts_deal(rules(moon="shooters_choice"), moon, [90, 0, 0, 0])[0] == [-26, 0, 0, 0]


@pytest.mark.parametrize(
    ("end", "totals", "chosen"),
    [
        # The cases: +26 to the others would end the game with the shooter (seat 0) losing.
        (60, [52, 52, 0, 52], [-26, 0, 0, 0]),
        (100, [78, 78, 0, 78], [-26, 0, 0, 0]),
        # +26 to the others ends the game with the shooter winning alone: better than going on.
        (100, [10, 80, 80, 80], [0, 26, 26, 26]),
        # +26 ends it with the shooter sharing the win (60 and 60), -26 would go on: the shared win.
        (100, [60, 34, 80, 80], [0, 26, 26, 26]),
        # Both go on: a shooter then alone in the lead brings the end nearer, one behind keeps it off.
        (100, [10, 40, 40, 40], [0, 26, 26, 26]),
        (100, [50, 20, 30, 40], [-26, 0, 0, 0]),
    ],
)
def test_shooters_choice_takes_the_better_option(end: int, totals: list[int], chosen: list[int]) -> None:
    # The moon knob: "or the shooter picks whichever is better for them: first by how the game stands after it
    # (won alone, then won shared, then going on, then lost), and when that is the same, the others get the
    # points if the shooter then leads alone, else the shooter loses them".
    moon = _taken(HEARTS + " QS", "", "", "")
    assert score_hearts_deal(rules(moon="shooters_choice", end_score=end), moon, totals, 3) == (chosen, 0)


def test_shooters_choice_in_a_played_game_keeps_the_game_going() -> None:
    # End score 60, totals 52, 52, 0, 52 and seat 0 shoots: the game goes on at 26, 52, 0, 52.
    game = HeartsGame(rules(moon="shooters_choice", end_score=60, pass_cycle=["none"]))
    game.totals = [52, 52, 0, 52]
    # Seat 0 holds AC and 3H..AH, seat 1 the other clubs and 2H, seat 2 the diamonds, seat 3 the spades.
    game.apply(make_deal(3, {0: "AC " + HEARTS[3:], 1: "2C 2H 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"}))
    play(game, "2C", "2D", "2S", "AC", "3H", "2H", "3D", "QS")
    game.apply(Claim(0))
    assert game.deal_records[-1].moon == 0
    assert game.scores == (26, 52, 0, 52) and not game.is_over


def test_jack_of_diamonds() -> None:
    taken = _taken("JD 2H", "QS", "", "")
    assert score_hearts_deal(rules(jack_of_diamonds=-10), taken, [0] * 4)[0] == [-9, 13, 0, 0]
    assert score_hearts_deal(rules(), taken, [0] * 4)[0] == [1, 13, 0, 0]


def test_game_end_lowest_wins_and_ties() -> None:
    assert hearts_winners(rules(), [99, 50, 60, 70], 3) == ()
    assert hearts_winners(rules(), [100, 50, 60, 70], 3) == (1,)
    assert hearts_winners(rules(), [100, 50, 50, 70], 3) == (1, 2)
    assert hearts_winners(rules(on_tie="play_on"), [100, 50, 50, 70], 3) == ()
    assert hearts_winners(rules(end_score=50), [50, 10, 20, 30], 3) == (1,)


def test_tied_lowest_seats_at_the_deal_limit_share_the_win_even_with_play_on() -> None:
    # max_deals: "after this many deals the game ends and the leader wins (ties share the win)".
    r = rules(on_tie="play_on", max_deals=12)
    assert hearts_winners(r, [40, 30, 30, 56], 12) == (1, 2)
    assert hearts_winners(r, [40, 30, 30, 56], 11) == ()
    assert hearts_winners(r, [100, 30, 30, 56], 11) == ()
