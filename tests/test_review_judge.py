"""The judge is independent of the player it judges: its own samples, its uncertainty, marks only past noise."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from cardtui import review as review_module
from cardtui.bots.judge import Trial, Weighing, paired, weigh
from cardtui.games.base import Action, Bid, PlayerView
from cardtui.games.spades import SpadesView
from cardtui.replay import Replay
from cardtui.review import Judgement, judge_rng, mark_for, review, verdict
from cardtui.rules import default_preset
from cardtui.saves import LoadedSave, parse_save
from cardtui.seats import Seat
from cardtui.session import Session, bot_rng
from cardtui.variants import make_bot, make_judge
from tests.support.reviews import sample_deals


def hard_player_game(game: str, seed: int, deals: int) -> LoadedSave:
    """A game whose seat 0 is a person who played every decision as the hard computer player (the others
    normal), stopped after `deals` deals."""
    seats = [Seat("Hard", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset(game), seats, seed, autosave=False)
    hard = make_bot(game, "hard")
    played = 0
    while not session.is_over:
        if session.game.is_chance:
            if played == deals:
                break
            played += 1
            session.advance_chance()
            continue
        seat = session.seat_to_move()
        assert seat is not None
        if seat.is_bot:
            session.play_bot_turn()
        else:
            tm = session.game.to_move
            assert tm is not None
            view = session.game.view(tm.seat)
            session.apply(hard.decide(view, bot_rng(session.seed, session.history.moves)).action)
    return parse_save(session.to_save())


def _choices(judged: Judgement) -> bool:
    return judged.choices > 1


@pytest.mark.slow  # a review: the judge searches every decision
@pytest.mark.parametrize(("game", "deals"), [("hearts", 3), ("spades", 2)])
def test_the_hard_players_own_decisions_are_rarely_marked_by_a_judge_with_other_samples(game: str, deals: int) -> None:
    loaded = hard_player_game(game, seed=11, deals=deals)
    weighed: list[Judgement] = []
    for judge_seed in (1, 2):
        result = review(loaded, budget_ms=150, judge_seed=judge_seed)
        weighed += [j for j in result.judgements if _choices(j)]
    assert len(weighed) >= 40
    marked = [j for j in weighed if j.mark]
    assert len(marked) <= 0.05 * len(weighed), [j.why for j in marked]


def test_the_judge_never_draws_the_hard_players_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator handed to the judge is not the session's generator for that decision, and another judge seed
    gives another one."""
    loaded = parse_save(sample_deals("hearts", 1))
    handed: list[tuple[float, float]] = []

    class Spy:
        def __init__(self, inner: object) -> None:
            self.inner = inner

        def weigh(self, view: PlayerView, action: Action, rng: random.Random, bot: random.Random) -> object:
            handed.append((random.Random(rng.random()).random(), random.Random(bot.random()).random()))
            return self.inner.weigh(view, action, rng, bot)  # type: ignore[attr-defined]

        def solve(self, game: object, view: PlayerView, action: Action) -> object:
            return self.inner.solve(game, view, action)  # type: ignore[attr-defined]

    monkeypatch.setattr(review_module, "make_judge", lambda g, lv, b: Spy(make_judge(g, lv, b)))
    review(loaded, seats=[0], budget_ms=5)
    assert handed and all(mine != bots for mine, bots in handed)
    assert judge_rng(5, 3, 0).random() != judge_rng(5, 3, 1).random()
    assert judge_rng(5, 3, 0).random() != bot_rng(5, 3).random()


def _trial(means: list[float], noise: float) -> Trial:
    """Options whose value is a mean plus a shared noise (common to all options) and a small own noise."""

    def run(rng: random.Random, alive: list[int]) -> list[tuple[float, float]]:
        common = rng.gauss(0.0, noise)
        return [(means[i] + common + rng.gauss(0.0, 1.0), means[i]) for i in alive]

    return Trial([Bid(0, b) for b in range(len(means))], 0, 100, run)  # type: ignore[arg-type]


def test_a_paired_comparison_cancels_the_noise_the_choices_share() -> None:
    """Samples that move every choice alike (the common layout) do not widen the loss's interval."""
    ev = weigh(_trial([0.0, -3.0], noise=50.0), 1, "points", 50, 0.25, random.Random(1))
    assert ev.best.action == Bid(0, 0)
    assert ev.loss == pytest.approx(3.0, abs=1.0)
    assert ev.loss_se < 0.5  # the shared noise (SD 50) cancels; the own noise (SD 1 each) remains
    assert ev.clear
    assert ev.loss == pytest.approx(ev.best_value - ev.chosen_value)


def test_a_loss_within_the_noise_is_close_not_marked() -> None:
    ev = weigh(_trial([0.0, -12.0], noise=0.0), 1, "points", 1, 0.25, random.Random(2))
    assert ev.loss > 10 and ev.clear
    assert verdict("spades", ev) == ("?", False)
    # the same loss with a wide interval: past the threshold, not past the noise
    wide = type(ev)(**{**{f: getattr(ev, f) for f in ev.__slots__}, "loss_se": 7.0})  # type: ignore[attr-defined]
    assert not wide.clear
    assert verdict("spades", wide) == ("", True)
    assert mark_for("spades", "points", wide.loss) == "?"


def test_the_grade_is_decided_on_the_interval_not_the_estimate() -> None:
    """A loss whose estimate is past `??` but whose interval reaches down below it is only `?`; one whose interval
    reaches below `?` is close and unmarked; `??` needs the loss less two standard errors at 40 or more."""
    ev = weigh(_trial([0.0, -45.0], noise=0.0), 1, "points", 1, 0.25, random.Random(2))
    assert ev.loss > 40

    def with_se(se: float) -> Weighing:
        return dataclasses.replace(ev, loss=45.0, loss_se=se)

    assert verdict("spades", with_se(2.0)) == ("??", False)  # 45 - 4 = 41: clearly past 40
    assert verdict("spades", with_se(4.0)) == ("?", False)  # 45 - 8 = 37: clearly past 10, not past 40
    assert verdict("spades", with_se(20.0)) == ("", True)  # 45 - 40 = 5: not clearly past 10
    assert mark_for("spades", "points", 45.0) == "??"


def test_paired_uses_only_the_common_samples() -> None:
    mean, se, n = paired([1.0, 2.0, 3.0, 100.0], [0.0, 1.0, 2.0])
    assert (mean, se, n) == (1.0, 0.0, 3)


def test_a_bid_made_in_sight_of_the_hand_is_not_weighed_against_blind_bids() -> None:
    """The seat looked before a bid that is not blind, so `blind nil` was no longer its choice (it pays double on
    the same cards, and would mark every sighted nil)."""
    save = Path(__file__).resolve().parent.parent / "saves" / "spades.json"
    loaded = parse_save(json.loads(save.read_text()))
    replay = Replay.from_save(json.loads(save.read_text()))
    index = next(i for i, a in enumerate(loaded.log) if isinstance(a, Bid) and a.seat == 0 and a.bid == 0)
    action = loaded.log[index]
    assert isinstance(action, Bid) and not action.blind
    view = replay.state_at(index).view(0)
    assert any(isinstance(a, Bid) and a.blind for a in view.legal)  # the rules would still allow one
    weighed = make_judge("spades", "hard", 5).weigh(view, action, random.Random(1), random.Random(2))
    assert weighed.options and not any(isinstance(o.action, Bid) and o.action.blind for o in weighed.options)


def test_a_blind_bid_is_weighed_with_the_bidders_own_hand_unseen() -> None:
    """A blind nil was bid with the hand face down: the judge values it (and every other bid) the same whatever
    the real hand holds, as it values the other seats' hands, so a lucky or unlucky hand neither hides nor
    makes a mark."""
    save = Path(__file__).resolve().parent.parent / "saves" / "spades.json"
    loaded = parse_save(json.loads(save.read_text()))
    replay = Replay.from_save(json.loads(save.read_text()))
    index = next(i for i, a in enumerate(loaded.log) if isinstance(a, Bid) and a.seat == 0 and a.blind)
    action = loaded.log[index]
    view = replay.state_at(index).view(0)
    assert isinstance(view, SpadesView)
    west = replay.state_at(index).view(1)
    assert isinstance(west, SpadesView)
    swapped = dataclasses.replace(view, hand=west.hand)  # West's cards instead
    assert swapped.hand.mask != view.hand.mask and swapped.hand.mask.bit_count() == view.hand.mask.bit_count()
    judge = make_judge("spades", "hard", 10)
    real = judge.weigh(view, action, random.Random(5), random.Random(6))
    other = judge.weigh(swapped, action, random.Random(5), random.Random(6))
    assert len(real.options) > 2
    assert [(o.action, o.value, o.se) for o in real.options] == [(o.action, o.value, o.se) for o in other.options]
    assert (real.loss, real.loss_se) == (other.loss, other.loss_se)
