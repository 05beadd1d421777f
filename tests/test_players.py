"""Hearts for 3, 5 and 6 players and cutthroat Spades for 3: the deck, the lead, the pass, whole games, bots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardtui.api import new_game, open_game
from cardtui.arena import ArenaError, run_arena
from cardtui.cards import FULL_MASK, CardSet, parse_card
from cardtui.games import create_game
from cardtui.games.base import Bid, Deal, IllegalAction, Pass, Play
from cardtui.games.hearts import HeartsGame, score_hearts_deal
from cardtui.games.spades import SpadesGame
from cardtui.games.trick import TrickGame
from cardtui.rules import HeartsRules, RulesetError, SpadesRules, for_players, load_preset, ruleset_from_dict
from cardtui.saves import load_save
from cardtui.variants import make_bot

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
HEARTS_ALL = CardSet.parse(f"{rank}H" for rank in [*range(2, 11), "J", "Q", "K", "A"]).mask
QS = parse_card("QS").bit

# players -> (preset, cards each, cards out of the pack, the card that leads the first trick)
COUNTS = {
    3: ("hearts-3", 17, {"2D"}, "2C"),
    5: ("hearts-5", 10, {"2D", "2C"}, "3C"),
    6: ("hearts-6", 8, {"2D", "3D", "3C", "4C"}, "2C"),
}


def hearts(players: int) -> HeartsRules:
    rules = load_preset(COUNTS[players][0])
    assert isinstance(rules, HeartsRules) and rules.players == players
    return rules


def cutthroat3() -> SpadesRules:
    rules = load_preset("cutthroat-3")
    assert isinstance(rules, SpadesRules) and rules.players == 3
    return rules


def codes(mask: int) -> set[str]:
    return {c.code for c in CardSet(mask)}


def to_end(game: TrickGame, seed: int) -> None:
    """Random legal actions until the game is over, every deal checked as it ends."""
    rng = random.Random(seed)
    for _ in range(200_000):
        if game.is_over:
            return
        if game.is_chance:
            game.apply(game.chance_action(rng))
            continue
        legal = game.legal_actions()
        assert legal, f"no legal action in phase {game.phase}"
        game.apply(rng.choice(list(legal)) if game.phase != "pass" else legal[rng.randrange(len(legal))])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [3, 5, 6])
def test_hearts_deals_the_cards_in_play_evenly(players: int) -> None:
    _, size, removed, _ = COUNTS[players]
    game = create_game(hearts(players))
    assert isinstance(game, HeartsGame) and game.seats == players and game.sides == tuple((s,) for s in range(players))
    deal = game.chance_action(random.Random(players))
    assert len(deal.hands) == players and {len(h) for h in deal.hands} == {size}
    held = 0
    for h in deal.hands:
        held |= h.mask
    assert codes(FULL_MASK & ~held) == removed
    game.apply(deal)
    assert all(game.hand(s).mask.bit_count() == size for s in range(players))


def test_a_deal_of_the_whole_pack_is_refused_at_three() -> None:
    game = create_game(hearts(3))
    whole = [c for c in CardSet.full()]
    hands = tuple(CardSet(whole[i * 17 : i * 17 + 17]) for i in range(3))
    with pytest.raises(IllegalAction, match="the hands must hold the 51 cards in play \\(all but 2D\\)"):
        game.apply(Deal(0, hands))
    with pytest.raises(IllegalAction, match="a deal here is 3 hands"):
        game.apply(Deal(0, (*hands, CardSet())))


@pytest.mark.parametrize("players", [3, 5, 6])
def test_the_lowest_club_in_play_leads(players: int) -> None:
    _, _, _, lead = COUNTS[players]
    game = create_game(hearts(players).replace(pass_cycle=["none"]))
    assert isinstance(game, HeartsGame)
    game.apply(game.chance_action(random.Random(1)))
    assert game.phase == "play" and game.to_move is not None
    seat = game.to_move.seat
    assert parse_card(lead) in game.hand(seat)
    assert [a.card.code for a in game.legal_actions() if isinstance(a, Play)] == [lead]
    other = next(c for c in game.hand(seat) if c.code != lead)
    with pytest.raises(IllegalAction) as err:
        game.apply(Play(seat, other))
    assert str(err.value) == f"the first trick is led with the {lead[0]} of clubs ({lead})"


@pytest.mark.parametrize(
    ("players", "direction", "offset"), [(3, "left", 1), (3, "right", 2), (5, "right", 4), (6, "across", 3)]
)
def test_the_pass_goes_to_the_seat_it_names(players: int, direction: str, offset: int) -> None:
    game = create_game(hearts(players).replace(pass_cycle=[direction]))
    assert isinstance(game, HeartsGame)
    game.apply(game.chance_action(random.Random(2)))
    before = [game.hand(s).mask for s in range(players)]
    chosen = []
    while game.phase == "pass":
        assert game.to_move is not None
        seat = game.to_move.seat
        cards = tuple(list(game.hand(seat))[-3:])
        chosen.append((seat, cards))
        game.apply(Pass(seat, cards))
    assert len(chosen) == players
    for seat, cards in chosen:
        to = (seat + offset) % players
        assert all(c in game.hand(to) for c in cards) and not any(c in game.hand(seat) for c in cards)
    assert sum(game.hand(s).mask.bit_count() for s in range(players)) == sum(m.bit_count() for m in before)


def test_across_needs_an_even_number_of_players() -> None:
    with pytest.raises(RulesetError, match='pass_cycle: with 5 players no seat sits across; allowed: "left"'):
        hearts(5).replace(pass_cycle=["left", "across"])
    assert hearts(6).replace(pass_cycle=["across"]).pass_cycle == ("across",)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_a_shooter_gives_every_other_seat_26(players: int) -> None:
    rules = hearts(players)
    taken = [0] * players
    taken[1] = HEARTS_ALL | QS
    scores, moon = score_hearts_deal(rules, taken, [0] * players)
    assert moon == 1 and scores == [0 if s == 1 else 26 for s in range(players)]
    taken[1], taken[0] = HEARTS_ALL, QS
    scores, moon = score_hearts_deal(rules, taken, [0] * players)
    assert moon is None and scores[0] == 13 and scores[1] == 13 and sum(scores) == 26


@pytest.mark.parametrize("players", [3, 5, 6])
def test_whole_hearts_games_end_with_26_a_deal(players: int) -> None:
    _, size, _, _ = COUNTS[players]
    game = create_game(hearts(players))
    assert isinstance(game, HeartsGame)
    to_end(game, players)
    assert game.winners and len(game.totals) == players
    for record in game.deal_records:
        assert sum(record.tricks) == size and len(record.scores) == players
        assert sum(record.scores) in (26, 26 * (players - 1))


def test_cutthroat_for_three_deals_17_without_the_two_of_clubs_and_bids_to_17() -> None:
    game = create_game(cutthroat3())
    assert isinstance(game, SpadesGame) and game.sides == ((0,), (1,), (2,))
    deal = game.chance_action(random.Random(3))
    assert {len(h) for h in deal.hands} == {17} and len(deal.hands) == 3
    held = 0
    for h in deal.hands:
        held |= h.mask
    assert codes(FULL_MASK & ~held) == {"2C"}
    game.apply(deal)
    assert game.phase == "bid" and game.to_move is not None
    seat = game.to_move.seat
    assert sorted(a.bid for a in game.legal_actions() if isinstance(a, Bid)) == list(range(18))
    with pytest.raises(IllegalAction, match="a bid is 0 to 17 tricks, not 18"):
        game.apply(Bid(seat, 18))
    to_end(game, 4)
    assert game.winners and all(sum(r.tricks) == 17 for r in game.deal_records)


def test_the_three_of_clubs_leads_cutthroat_for_three_with_two_of_clubs_leads() -> None:
    game = create_game(cutthroat3().replace(two_of_clubs_leads=True))
    assert isinstance(game, SpadesGame)
    game.apply(game.chance_action(random.Random(5)))
    while game.phase == "bid":
        game.apply(game.legal_actions()[1])
    assert game.to_move is not None and parse_card("3C") in game.hand(game.to_move.seat)
    assert [a.card.code for a in game.legal_actions() if isinstance(a, Play)] == ["3C"]


def test_player_counts_are_checked() -> None:
    with pytest.raises(RulesetError, match=r"players: expected an integer 3\.\.6, found 7"):
        load_preset("hearts").replace(players=7)
    with pytest.raises(RulesetError, match="partnership Spades is played by 4 players, not 3"):
        load_preset("spades").replace(players=3)
    with pytest.raises(RulesetError, match=r"players: expected an integer 3\.\.4, found 5"):
        load_preset("cutthroat").replace(players=5)


def test_rules_and_saves_without_the_knob_read_as_four_players() -> None:
    old = {k: v for k, v in load_preset("hearts").to_dict().items() if k != "players"}
    rules = ruleset_from_dict(old)
    assert isinstance(rules, HeartsRules) and rules.players == 4 and rules.removed == ()
    for name in ("hearts.json", "spades.json", "cutthroat.json"):
        loaded = load_save(SAMPLES / name)
        assert isinstance(loaded.game, TrickGame) and loaded.game.seats == 4 and loaded.game.ruleset.deck == FULL_MASK


def test_the_default_preset_turns_into_the_preset_for_that_count() -> None:
    assert for_players(load_preset("hearts"), 5).name == "hearts-5"
    assert for_players(load_preset("cutthroat"), 3).name == "cutthroat-3"
    house = load_preset("hearts").replace(name="mine", pass_cycle=["left"])
    assert for_players(house, 3) == house.replace(players=3)
    with pytest.raises(RulesetError, match="no seat sits across"):
        for_players(load_preset("hearts").replace(name="mine"), 3)
    with pytest.raises(RulesetError, match=r"players: expected an integer 3\.\.6, found 2"):
        for_players(load_preset("hearts").replace(name="mine"), 2)


def test_a_count_no_preset_ships_for_is_the_games_own_preset_titled_for_it() -> None:
    """Eight of Spades for three was titled "My Eight of Spades" (house rules nobody wrote) in the header and log."""
    three = for_players(load_preset("eight-of-spades"), 3)
    assert (three.name, three.title, three.seats) == ("eight-of-spades-3", "Eight of Spades for three", 3)
    assert three.description == "Three players; otherwise the Eight of Spades preset."
    preset = load_preset("eight-of-spades")
    assert three.replace(players=4, name=preset.name, title=preset.title, description=preset.description) == preset


@pytest.mark.parametrize("preset", ["hearts-3", "hearts-5", "hearts-6", "cutthroat-3"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_only_legal_actions(preset: str, level: str) -> None:
    rules = load_preset(preset)
    bot = make_bot(rules.game, level, budget_ms=5)
    game = create_game(rules)
    assert isinstance(game, TrickGame)
    rng = random.Random(9)
    for _ in range(3 * game.seats + 8):
        if game.is_chance:
            game.apply(game.chance_action(rng))
            continue
        assert game.to_move is not None
        view = game.view(game.to_move.seat)
        action = bot.decide(view, rng).action
        if isinstance(action, Pass):
            assert len(action.cards) == rules.pass_count and all(c in view.hand for c in action.cards)  # type: ignore[attr-defined]
        else:
            assert action in view.legal
        game.apply(action)


@pytest.mark.parametrize("preset", ["hearts-3", "hearts-6", "cutthroat-3"])
def test_save_and_load_give_the_same_game(preset: str) -> None:
    game = new_game(load_preset(preset).game, ruleset=preset, seed=5)
    rng = random.Random(1)
    for _ in range(60):
        if game.is_over:
            break
        tm = game.to_move
        assert tm is not None
        if tm["phase"] == "deal":
            game.deal()
            continue
        game.apply(game.suggest("easy", seed=rng.randrange(1000))["action"])
    again = open_game(game.to_save())
    assert again.summary() == game.summary() and again.legal_actions() == game.legal_actions()
    assert len(again.summary()["sides"]) == load_preset(preset).players  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("hearts", "easy,normal,easy"),
        ("hearts", "easy,normal,easy,normal,easy,normal"),
        ("cutthroat", "easy,normal,easy"),
    ],
)
def test_the_arena_plays_other_counts(game: str, seats: str) -> None:
    levels = seats.split(",")
    summary = run_arena(game, levels, 1, 2, 5, 1, 7).to_json()
    assert summary["seats"] == levels and summary["deals"] == 2
    assert sum(t["seats"] for t in summary["levels"].values()) == len(levels)


def test_the_arena_refuses_a_count_the_game_has_not() -> None:
    with pytest.raises(ArenaError, match="spades has 4 seats: give 4 levels, found 3"):
        run_arena("spades", ["easy", "easy", "easy"], 1, 0, 5, 1, 7)
    with pytest.raises(ArenaError, match="hearts takes 3 to 6 players: give 3 to 6 levels, found 7"):
        run_arena("hearts", ["easy"] * 7, 1, 0, 5, 1, 7)
    with pytest.raises(ArenaError, match="no seat sits across"):
        run_arena("hearts", ["easy"] * 5, 1, 0, 5, 1, 7, load_preset("hearts").replace(name="mine"))
