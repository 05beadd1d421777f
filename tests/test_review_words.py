"""The review's words name the cause and its numbers add up, over every line of whole reviewed games."""

from __future__ import annotations

import re

import pytest

from cardtui.cards import parse_cards
from cardtui.games import create_game
from cardtui.games.base import Bid, Play
from cardtui.games.eight_of_spades import EIGHT_OF_SPADES, EightOfSpadesView, Flip
from cardtui.review import POINTS, Review, _amount, review
from cardtui.rules import default_preset
from cardtui.saves import parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.dealing import deal_of
from tests.support.reviews import hearts_sample_review, sample_deals

BETTER = re.compile(
    r"by (?P<loss>[\d.]+) points(?: \(± [\d.]+\))?: (?P<best>[+-]?[\d.]+) [^;]*? against (?P<mine>[+-]?[\d.]+) for "
    r"[^;,(]*(?:; (?P<own>-?[\d.]+) of it in (?:your|its) own score, (?P<parts>-?[\d.]+ from .*?)(?:, \d+ samples|$))?"
)
PART = re.compile(r"(?:^|, )(?P<points>-?[\d.]+) from (?P<cause>[^,]+)")


def check_sums(result: Review, points_hurt: bool) -> tuple[int, set[str]]:
    """Every 'better by' line: the loss is the gap between the two amounts, or its own part plus the other parts;
    how many lines were checked and the causes the parts named."""
    checked = 0
    causes: set[str] = set()
    for j in result.judgements:
        if " better by " not in j.why or j.unit != "points":
            continue
        found = BETTER.search(j.why)
        assert found, j.why
        loss, best, mine = (float(found[k]) for k in ("loss", "best", "mine"))
        gap = round(mine - best if points_hurt else best - mine, 1)
        assert loss == pytest.approx(round(j.loss, 1), abs=0.051), j.why
        if found["own"] is None:
            assert gap == pytest.approx(loss, abs=0.051), j.why
        else:
            own = float(found["own"])
            parts = list(PART.finditer(found["parts"]))
            assert parts, j.why
            causes.update(p["cause"] for p in parts)
            assert own == pytest.approx(gap, abs=0.051), j.why
            assert own + sum(float(p["points"]) for p in parts) == pytest.approx(loss, abs=0.051), j.why
        checked += 1
    return checked, causes


def test_every_hearts_line_adds_up() -> None:
    assert check_sums(hearts_sample_review(), points_hurt=True)[0] >= 3


@pytest.mark.slow  # a review: the judge searches every decision
def test_every_spades_line_adds_up() -> None:
    # its first three deals: both causes below, on eight lines (the game's end is checked in test_review_causes)
    loaded = parse_save(sample_deals("spades", 3))
    checked, causes = check_sums(review(loaded, seats=[1, 2], budget_ms=10), points_hurt=False)
    assert checked >= 3
    # each part of a loss beyond the side's own score names one cause, bags with their price
    end = "the game's end (winning the game counts +200 points and losing it -200)"
    assert causes and causes <= {"bags priced at 10.0 points each", "the other side's score", end}
    assert {"bags priced at 10.0 points each", "the other side's score"} <= causes


def spades_session(hands: dict[int, str]) -> Session:
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    return Session.new(default_preset("spades"), seats, seed=3, autosave=False)


def test_a_nil_holding_the_ace_of_spades_names_the_certain_trick() -> None:
    session = spades_session({})
    session.apply(deal_of({0: "AS 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"}, dealer=3))
    session.apply(Bid(0, 0))
    [judged] = review(parse_save(session.to_save()), budget_ms=40).judgements
    assert judged.best != judged.action
    assert "AS is a certain trick, so a nil cannot be made" in judged.why


def test_partners_nil_and_partner_already_winning_are_named() -> None:
    session = spades_session({})
    # North (seat 2) is your partner; the dealer is West, so You bid first and lead... North leads below
    session.apply(
        deal_of({0: "AS KS QS JS AH KH QH AD KD QD AC KC QC", 2: "2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 2C 3C 4C"}, dealer=1)
    )
    for seat, bid in ((2, 0), (3, 3), (0, 10), (1, 2)):
        session.apply(Bid(seat, bid))
    to_move = session.game.to_move
    assert to_move is not None
    while to_move is not None and to_move.seat != 0:
        session.apply(session.bot_decision("normal").action)
        to_move = session.game.to_move
    view = session.game.view(0)
    legal = [a for a in view.legal if isinstance(a, Play)]
    session.apply(max(legal, key=lambda a: a.card.rank))
    words = [j.why for j in review(parse_save(session.to_save()), budget_ms=20).judgements if j.phase == "play"]
    assert words and "North, your partner, bid nil and has taken no trick" in words[0]


def test_trumping_partners_winner_says_partner_was_already_winning() -> None:
    session = spades_session({})
    mine = "2S 3S 4S 2C 3C 4C 5C 6C 2D 3D 4D 5D 6D"  # no hearts: a spade trumps partner's ace
    session.apply(deal_of({0: mine, 1: "2H 3H 4H", 2: "AH", 3: "5H"}, dealer=0))
    for seat in (1, 2, 3, 0):
        session.apply(Bid(seat, 3))
    for seat, code in ((1, "2H"), (2, "AH"), (3, "5H"), (0, "2S")):
        session.apply(Play(seat, parse_cards([code])[0]))
    [judged] = [j for j in review(parse_save(session.to_save()), budget_ms=20).judgements if j.phase == "play"]
    assert "North, your partner, was already winning the trick with AH" in judged.why
    assert judged.best != judged.action  # throwing a club or diamond keeps the spade


def test_calling_the_eight_of_spades_when_it_is_face_up_says_so() -> None:
    """The 8♠ already lies face up, so calling it can match nothing: the line names that cause."""
    seats = [Seat("You", "human"), *(Seat(n, "bot", "easy") for n in ("B", "C", "D"))]
    session = Session.new(default_preset("eight-of-spades"), seats, seed=1, autosave=False)
    while True:
        if session.game.is_chance:
            session.advance_chance()
            continue
        to_move = session.game.to_move
        assert to_move is not None and not session.is_over
        view = session.game.view(to_move.seat)
        assert isinstance(view, EightOfSpadesView)
        if to_move.seat != 0:
            session.play_bot_turn()
        elif EIGHT_OF_SPADES in view.faces:
            session.apply(next(a for a in view.legal if a.call == "8S"))
            break
        else:
            session.apply(view.legal[0])
    judged = review(parse_save(session.to_save()), seats=[0]).judgements[-1]
    assert isinstance(judged.action, Flip) and judged.action.call == "8S"
    assert judged.mark and judged.best != judged.action
    assert "the 8S was face up at " in judged.why and "so a call of it could not match" in judged.why
    assert "the 8♠ was face up at " in judged.line


@pytest.mark.parametrize("game", ["hearts", "spades", "eight-of-spades"])
def test_an_amount_that_rounds_to_nothing_is_never_minus_nothing(game: str) -> None:
    """`-0.0 points expected` was shown for an Eight of Spades choice worth a few hundredths of a point less."""
    said = _amount(create_game(default_preset(game)).view(0), POINTS, -0.04)
    assert "0.0" in said and "-0.0" not in said, said
