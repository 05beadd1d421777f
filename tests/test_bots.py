"""Computer players: they see only views, always play legally, find the one right answer, and repeat themselves."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtui.bots import LEVELS
from cardtui.bots.base import Decision
from cardtui.bots.common import equivalent_groups, read_view
from cardtui.bots.search import sample_hands
from cardtui.cards import FULL_MASK, CardSet, parse_cards
from cardtui.games import create_game
from cardtui.games.base import Bid, Game, Pass, Play
from cardtui.games.hearts import HeartsDetail, HeartsGame, HeartsView
from cardtui.games.spades import SpadesDetail, SpadesGame, SpadesView
from cardtui.games.trick import TrickGame, TrickView
from cardtui.rules import HeartsRules, SpadesRules, default_preset, load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import make_bot
from tests.support.dealing import deal_of
from tests.support.seat_knowledge import cards_named

TRICK_GAMES = ("hearts", "spades", "cutthroat")


def random_positions(game: str, count: int, seed: int, preset: str | None = None) -> list[TrickGame]:
    """Game states reached by random play (passes, bids, exchanges and plays), one per decision."""
    rng = random.Random(seed)
    rules = load_preset(preset) if preset else default_preset(game)
    out: list[TrickGame] = []
    while len(out) < count:
        g = create_game(rules)
        assert isinstance(g, TrickGame)
        deals = 0
        while not g.is_over and len(out) < count:
            if g.is_chance:
                if deals == 4:
                    break
                g.apply(g.chance_action(rng))
                deals += 1
                continue
            out.append(g.clone())
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    return out


def assert_legal(g: Game, decision: Decision) -> None:
    assert isinstance(decision, Decision) and decision.reason
    g.clone().apply(decision.action)


# ---------------------------------------------------------------- views hold nothing hidden


@pytest.mark.parametrize("preset", ["hearts", "spades", "cutthroat", "spades-blind"])
def test_a_view_holds_no_card_of_another_hand(preset: str) -> None:
    game = load_preset(preset).game
    for g in random_positions(game, 400, seed=3, preset=preset):
        for seat in range(4):
            view = g.view(seat)
            assert view.hand.mask == g.hands[seat]
            # What a seat may know of other hands: cards played, and cards it passed, exchanged or received.
            detail = view.detail
            assert isinstance(detail, HeartsDetail | SpadesDetail)
            allowed = view.hand.mask | g.played | detail.passed.mask | detail.received.mask
            assert isinstance(g, HeartsGame | SpadesGame)
            passed = g.passes[seat] if isinstance(g, HeartsGame) else g.gave[seat]
            assert detail.passed.mask == (passed or 0)
            received = g.received[seat] if isinstance(g, HeartsGame) else g.got[seat]
            assert detail.received.mask == received
            assert cards_named(view) & ~allowed == 0


class SpyBot:
    """Wraps a bot and records the types of everything it is handed."""

    def __init__(self, inner: Any, log: list[tuple[type, type]]) -> None:
        self.inner = inner
        self.level = inner.level
        self.log = log

    def decide(self, view: Any, rng: Any) -> Decision:
        self.log.append((type(view), type(rng)))
        decision: Decision = self.inner.decide(view, rng)
        return decision


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_the_arena_hands_bots_only_views(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtui import arena

    log: list[tuple[type, type]] = []
    real = make_bot  # what the arena calls
    monkeypatch.setattr(arena, "make_bot", lambda g, level, budget: SpyBot(real(g, level, budget), log))
    job = arena.Job(game, default_preset(game), ("easy", "normal", "hard", "normal"), 0, 1, 1, 2)
    arena.play_job(job)
    assert log
    for view_type, rng_type in log:
        assert view_type in (HeartsView, SpadesView)
        assert not issubclass(view_type, Game)
        assert rng_type is random.Random


# ---------------------------------------------------------------- always legal


@pytest.mark.parametrize("game", TRICK_GAMES)
@pytest.mark.parametrize(("level", "seed"), [("easy", 11), ("normal", 12)])
def test_rule_levels_play_thousands_of_random_positions_legally(game: str, level: str, seed: int) -> None:
    """Each level meets its own positions, the same in every process (a seed, never `hash()`)."""
    bot = make_bot(game, level)
    rng = random.Random(1)
    for g in random_positions(game, 1500, seed=seed):
        tm = g.to_move
        assert tm is not None
        assert_legal(g, bot.decide(g.view(tm.seat), rng))


def test_rule_levels_play_the_blind_bid_rules_legally() -> None:
    rng = random.Random(2)
    for level in ("easy", "normal"):
        bot = make_bot("spades", level)
        for g in random_positions("spades", 800, seed=5, preset="spades-blind"):
            tm = g.to_move
            assert tm is not None
            assert_legal(g, bot.decide(g.view(tm.seat), rng))


@pytest.mark.slow  # the hard player searches at every move
@pytest.mark.parametrize("game", TRICK_GAMES)
def test_hard_plays_random_positions_legally(game: str) -> None:
    bot = make_bot(game, "hard", budget_ms=1)
    rng = random.Random(1)
    for g in random_positions(game, 150, seed=9):
        tm = g.to_move
        assert tm is not None
        assert_legal(g, bot.decide(g.view(tm.seat), rng))


def test_every_level_plays_whole_games() -> None:
    rng = random.Random(4)
    for game in TRICK_GAMES:
        g = create_game(default_preset(game))
        bots = [make_bot(game, level, budget_ms=1) for level in ("easy", "normal", "hard", "normal")]
        deals = 0
        while not g.is_over and deals < 3:
            tm = g.to_move
            assert tm is not None
            if tm.phase == "deal":
                g.apply(g.chance_action(rng))
                deals += 1
                continue
            g.apply(bots[tm.seat].decide(g.view(tm.seat), rng).action)


# ---------------------------------------------------------------- positions with one right answer


@pytest.mark.parametrize("level", LEVELS)
def test_dumps_the_queen_of_spades_when_void(level: str) -> None:
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    rules = base.replace(pass_cycle=("none",), no_points_first_trick=False)
    g = HeartsGame(rules)  # type: ignore[arg-type]
    clubs = " ".join(f"{r}C" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
    g.apply(deal_of({0: clubs, 1: "QS 2H 3H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD"}, dealer=3))
    g.apply(Play(0, parse_cards(["2C"])[0]))
    decision = make_bot("hearts", level, budget_ms=20).decide(g.view(1), random.Random(1))
    assert decision.action == Play(1, parse_cards(["QS"])[0])
    assert "QS" in decision.reason


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_overtakes_a_partner_whose_nil_is_winning(level: str) -> None:
    g = SpadesGame(default_preset("spades"))  # type: ignore[arg-type]
    g.apply(
        deal_of(
            {
                0: "KH 2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 2S 3S",
                1: "2H 4H",
                2: "AH 3H",
                3: "5H 6H 7H 8H 9H 10H JH QH",
            },
            dealer=2,
        )
    )
    for seat, bid in ((3, 3), (0, 0), (1, 3), (2, 4)):
        g.apply(Bid(seat, bid))
    for seat, code in ((3, "5H"), (0, "KH"), (1, "2H")):
        g.apply(Play(seat, parse_cards([code])[0]))
    decision = make_bot("spades", level, budget_ms=20).decide(g.view(2), random.Random(1))
    assert decision.action == Play(2, parse_cards(["AH"])[0])


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_bids_nil_with_a_hand_that_cant_take_a_trick(level: str) -> None:
    g = SpadesGame(default_preset("spades"))  # type: ignore[arg-type]
    g.apply(deal_of({1: "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S"}, dealer=0))
    decision = make_bot("spades", level, budget_ms=20).decide(g.view(1), random.Random(1))
    assert decision.action == Bid(1, 0)
    assert "nil" in decision.reason


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_cutthroat_plays_a_deal_where_every_other_seat_bid_nil(level: str) -> None:
    """With no opponent holding a contract there is nobody to set; the arena once crashed here."""
    g = SpadesGame(default_preset("cutthroat"))  # type: ignore[arg-type]
    g.apply(deal_of({}, dealer=3))
    for seat, bid in ((0, 4), (1, 0), (2, 0), (3, 0)):
        g.apply(Bid(seat, bid))
    bot = make_bot("cutthroat", level, budget_ms=5)
    rng = random.Random(2)
    for _ in range(52):
        seat = g.to_move.seat  # type: ignore[union-attr]
        decision = bot.decide(g.view(seat), rng)
        assert_legal(g, decision)
        g.apply(decision.action)
    assert g.to_move is not None and g.to_move.phase == "deal"  # the deal was played out and scored
    assert any(g.scores)


def test_easy_follows_low_and_normal_ducks() -> None:
    g = HeartsGame(default_preset("hearts").replace(pass_cycle=("none",)))  # type: ignore[arg-type, attr-defined]
    g.apply(deal_of({0: "2C", 1: "3C 9C KC"}, dealer=3))
    g.apply(Play(0, parse_cards(["2C"])[0]))
    easy = make_bot("hearts", "easy").decide(g.view(1), random.Random(1))
    assert easy.action == Play(1, parse_cards(["3C"])[0])


# ---------------------------------------------------------------- search pieces and determinism


def test_samples_agree_with_voids_and_passed_cards() -> None:
    rng = random.Random(5)
    for g in random_positions("hearts", 300, seed=11):
        tm = g.to_move
        assert tm is not None
        if tm.phase != "play":
            continue
        seen = read_view(g.view(tm.seat))
        hands = sample_hands(seen, rng)
        assert hands[tm.seat] == g.hands[tm.seat]
        all_cards = 0
        for s in range(4):
            assert hands[s].bit_count() == g.hands[s].bit_count()
            assert all_cards & hands[s] == 0
            all_cards |= hands[s]
            assert seen.known[s] & ~hands[s] == 0
            for suit in range(4):
                if seen.voids[s] >> suit & 1:
                    assert not hands[s] >> (13 * suit) & 0x1FFF
                    assert not g.hands[s] >> (13 * suit) & 0x1FFF
        assert all_cards | g.played == FULL_MASK


def test_equivalent_cards_are_grouped() -> None:
    hand = CardSet.parse(["2C", "3C", "5C", "QS", "JS", "KS"]).mask
    unseen = CardSet.parse(["4C", "10S", "AS"]).mask
    groups = equivalent_groups(hand, unseen, CardSet.parse(["QS"]).mask)
    assert sorted(CardSet(g).codes() for g in groups) == sorted([["2C", "3C"], ["5C"], ["JS"], ["QS"], ["KS"]])


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_hard_is_deterministic_for_a_seed(game: str) -> None:
    for g in random_positions(game, 40, seed=21)[::8]:
        tm = g.to_move
        assert tm is not None
        view = g.view(tm.seat)
        a = make_bot(game, "hard", 5).decide(view, random.Random(99))
        b = make_bot(game, "hard", 5).decide(view, random.Random(99))
        assert a == b


def test_make_bot_refuses_unknown_levels() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make_bot("hearts", "grandmaster")
    with pytest.raises(ValueError, match="unknown game"):
        make_bot("bridge", "easy")


def test_spades_rules_type() -> None:
    assert isinstance(default_preset("cutthroat"), SpadesRules)


@pytest.mark.parametrize("partner_bid", [Bid(2, 0), Bid(2, 4)])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_blind_nil_partner_keeps_the_high_cards_it_was_given(partner_bid: Bid, level: str) -> None:
    """The partner of a blind nil hands back low cards, never the A♠ and K♠ it just got (even bidding nil)."""
    from tests.support.dealing import make_deal

    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    game = create_game(rules)
    assert isinstance(game, SpadesGame)
    game.apply(
        make_deal(3, {0: "AS KS 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D", 2: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS AH KH"})
    )
    game.apply(Bid(0, 0, blind=True))
    game.apply(Bid(1, 3))
    game.apply(partner_bid)
    game.apply(Bid(3, 3))
    bot = make_bot("spades", level, 5)
    gift = bot.decide(game.view(0), random.Random(1)).action
    game.apply(gift)
    back = bot.decide(game.view(2), random.Random(1)).action
    assert isinstance(gift, Pass) and isinstance(back, Pass)
    assert {c.code for c in gift.cards} == {"AS", "KS"}
    assert {c.code for c in back.cards} == {"2S", "3S"}  # its lowest: safe for the nil, not the A♥ K♥
    game.apply(back)
    assert {"AS", "KS"} <= {c.code for c in game.hand(2)}


@pytest.mark.parametrize(
    ("preset", "seed", "at", "hand", "card"),
    [
        # With the 2C and 2D out of the pack the diamonds below the 5 are all gone: 5D is the safe lead, not JH.
        ("hearts-5", 1, 31, "9C 5D 10D JD JH", "5D"),
        ("cutthroat-3", 3, 193, "8C JC 5D 10D 6H 7H AH 10S JS", "AH"),
    ],
)
def test_the_normal_player_counts_only_the_cards_in_play(preset: str, seed: int, at: int, hand: str, card: str) -> None:
    """At other than four players some low cards are out of the pack; the normal player never waits for them."""
    rules = load_preset(preset)
    seats = [Seat(f"Bot {s}", "bot", "normal") for s in range(rules.seats)]
    session = Session.new(rules, seats, seed=seed, save_path=None)
    while len(session.log) < at:
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(session.bot_decision().action)
    to_move = session.game.to_move
    assert to_move is not None
    view = session.game.view(to_move.seat)
    assert isinstance(view, TrickView)
    assert CardSet(parse_cards(hand.split())) == view.hand
    decision = session.bot_decision()
    assert isinstance(decision.action, Play)
    assert decision.action.card.code == card, decision.reason
