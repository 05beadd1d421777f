"""The review: it finds a mistake and names the better choice, repeats itself, and sees only the seat's view."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtui import review as review_module
from cardtui.bots.judge import Solved, Valued, Weighing
from cardtui.cards import parse_cards
from cardtui.cli import app
from cardtui.games.base import Action, Bid, Game, Play, PlayerView
from cardtui.games.hearts import HeartsView
from cardtui.review import POINTS, THRESHOLDS, ReviewError, explain, mark_for, review
from cardtui.rules import HeartsRules, default_preset
from cardtui.saves import LoadedSave, parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import make_judge
from tests.support.dealing import deal_of
from tests.support.reviews import sample_deals

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"
runner = CliRunner()
CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"


def hearts_save(actions: list[Action], people: tuple[int, ...] = (1,)) -> LoadedSave:
    """A Hearts game without passing (and points allowed on the first trick) that went as `actions`."""
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    rules = base.replace(pass_cycle=("none",), no_points_first_trick=False)
    seats = [Seat(f"P{s}", "human") if s in people else Seat(f"P{s}", "bot", "normal") for s in range(4)]
    session = Session.new(rules, seats, seed=7, autosave=False)
    for action in actions:
        session.apply(action)
    return parse_save(session.to_save())


def card(text: str) -> Any:
    return parse_cards([text])[0]


QUEEN_DEAL = deal_of({0: CLUBS, 1: "QS 2H 3H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD"})


def test_a_kept_queen_of_spades_is_marked_and_the_drop_is_named() -> None:
    # P1 holds no club and keeps the Q♠ on a trick P0 (void of nothing but clubs) will win: it had to go.
    loaded = hearts_save([QUEEN_DEAL, Play(0, card("2C")), Play(1, card("9D"))])
    result = review(loaded, budget_ms=20)
    assert result.status == "in_progress"
    assert result.seats == (1,)
    [judged] = result.judgements
    assert judged.index == 2 and judged.seat == 1 and judged.phase == "play"
    assert judged.action == Play(1, card("9D"))
    assert judged.best == Play(1, card("QS"))
    assert judged.mark == "??"
    assert judged.loss >= THRESHOLDS["hearts"]["points"][1]
    assert judged.why.startswith("QS was better by ")
    assert "9D" in judged.why
    assert judged.line.startswith("Q♠ was better")
    # words from what P1 could know: it holds no club and saw one played, so twelve are out (all in P0's hand)
    assert "12 clubs still out" in judged.why


def test_a_decision_taken_back_is_left_out_and_the_one_made_instead_is_reviewed() -> None:
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    rules = base.replace(pass_cycle=("none",), no_points_first_trick=False)
    seats = [Seat("P0", "bot", "normal"), Seat("P1", "human"), Seat("P2", "bot", "normal"), Seat("P3", "bot", "normal")]
    session = Session.new(rules, seats, seed=7, autosave=False)
    for action in (QUEEN_DEAL, Play(0, card("2C")), Play(1, card("9D"))):
        session.apply(action)
    session.apply(session.undo_action(1))  # the 9D is taken back ...
    session.apply(Play(1, card("QS")))  # ... and the queen dropped instead
    result = review(parse_save(session.to_save()), budget_ms=20)
    [judged] = result.judgements
    assert judged.index == 4 and judged.action == Play(1, card("QS"))
    assert judged.mark == "" and result.tally(1).decisions == 1


def test_a_spades_bid_far_below_the_hand_is_marked() -> None:
    spades = " ".join(f"{r}S" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("spades"), seats, seed=3, autosave=False)
    session.apply(deal_of({0: spades}, dealer=3))
    session.apply(Bid(0, 1))
    [judged] = review(parse_save(session.to_save()), budget_ms=20).judgements
    assert judged.phase == "bid" and judged.mark == "??"
    assert isinstance(judged.best, Bid) and judged.best.bid >= 12
    assert judged.why.startswith(f"bid {judged.best.bid} was better by ")
    assert "the hand holds 13 spades" in judged.why


def test_the_right_play_is_not_marked() -> None:
    loaded = hearts_save([QUEEN_DEAL, Play(0, card("2C")), Play(1, card("QS"))])
    [judged] = review(loaded, budget_ms=20).judgements
    assert judged.mark == "" and judged.loss == 0.0
    assert judged.best == judged.action
    assert "was the best choice" in judged.why


def test_the_same_review_twice_gives_the_same_json() -> None:
    loaded = hearts_save([QUEEN_DEAL, Play(0, card("2C")), Play(1, card("9D"))], people=(0, 1))
    again = hearts_save([QUEEN_DEAL, Play(0, card("2C")), Play(1, card("9D"))], people=(0, 1))
    first = json.dumps(review(loaded, budget_ms=20).to_json())
    assert first == json.dumps(review(again, budget_ms=20).to_json())


@pytest.mark.slow  # a review: the judge searches every decision
def test_worker_processes_give_the_same_review(tmp_path: Path) -> None:
    loaded = parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text()))
    alone = review(loaded, budget_ms=10).to_json()
    seen: list[tuple[int, int]] = []
    spread = review(loaded, budget_ms=10, jobs=2, progress=lambda done, total: seen.append((done, total))).to_json()
    assert spread == alone
    assert seen[-1] == (len(alone["decisions"]), len(alone["decisions"]))


class SpyJudge:
    """Wraps the real judge and records everything it is handed."""

    def __init__(self, inner: Any, log: list[tuple[object, object]]) -> None:
        self.inner = inner
        self.log = log

    def weigh(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> Weighing:
        self.log.append((view, rng))
        result: Weighing = self.inner.weigh(view, action, rng, bot_rng)
        return result

    def solve(self, game: Game, view: PlayerView, action: Action) -> Solved | None:
        solved: Solved | None = self.inner.solve(game, view, action)
        return solved


def test_a_review_hands_the_judge_only_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text()))
    log: list[tuple[object, object]] = []
    monkeypatch.setattr(review_module, "make_judge", lambda g, lv, b: SpyJudge(make_judge(g, lv, b), log))
    result = review(loaded, budget_ms=5)
    assert len(log) == len(result.judgements) > 10
    hands = _hands_before(loaded)
    for (view, rng), judged in zip(log, result.judgements, strict=True):
        assert type(view) is HeartsView and not isinstance(view, Game)
        assert type(rng) is random.Random
        assert view.seat == judged.seat == 0
        # the only hand in the view is the seat's own, as it was at that moment
        assert view.hand.mask == hands[judged.index][0]


def _hands_before(loaded: LoadedSave) -> dict[int, list[int]]:
    from cardtui.games import create_game

    game = create_game(loaded.ruleset)
    out: dict[int, list[int]] = {}
    for i, action in enumerate(loaded.log):
        out[i] = list(getattr(game, "hands", []))
        game.apply(action)
    return out


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_hot_seat_game_reviews_each_persons_seat() -> None:
    data = json.loads((SAMPLES / "hearts-mid-deal.json").read_text())
    data["seats"][2] = {"name": "Pat", "kind": "human"}
    result = review(parse_save(data), budget_ms=5)
    assert result.seats == (0, 2)
    assert {j.seat for j in result.judgements} == {0, 2}
    totals = result.to_json()["game_total"]
    assert [t["seat"] for t in totals] == [0, 2]
    assert all(t["decisions"] == sum(1 for j in result.judgements if j.seat == t["seat"]) for t in totals)


@pytest.mark.slow  # a review: the judge searches every decision
def test_spades_bids_and_eight_of_spades_flips_are_judged() -> None:
    spades = parse_save(sample_deals("spades", 1))  # one deal: a bid and the plays
    judged = review(spades, seats=[1], budget_ms=2)
    assert {j.phase for j in judged.judgements} >= {"bid", "play"}
    assert all(j.unit == "points" for j in judged.judgements)
    eights = review(parse_save(json.loads((SAMPLES / "eight-of-spades.json").read_text())), seats=[0])
    assert {j.phase for j in eights.judgements} == {"flip"}
    assert {j.unit for j in eights.judgements} <= {"points", "win chance"}
    assert any(j.unit == "win chance" for j in eights.judgements)
    assert eights.to_json()["thresholds"] == {"points": {"?": 1.0, "??": 3.0}, "win_chance": {"?": 0.05, "??": 0.15}}
    for j in eights.judgements:
        assert j.mark == mark_for("eight-of-spades", j.unit, j.loss)


def test_marks_follow_the_thresholds() -> None:
    assert mark_for("hearts", "points", 0.99) == ""
    assert mark_for("hearts", "points", 1.0) == "?"
    assert mark_for("hearts", "points", 4.0) == "??"
    assert mark_for("spades", "points", 39.0) == "?"
    assert mark_for("eight-of-spades", "win chance", 0.2) == "??"


def test_a_game_of_computer_players_needs_a_seat() -> None:
    loaded = parse_save(json.loads((SAMPLES / "hearts.json").read_text()))
    with pytest.raises(ReviewError, match="--seat"):
        review(loaded)
    with pytest.raises(ReviewError, match=r"seats are 0\.\.3"):
        review(loaded, seats=[4])
    with pytest.raises(ReviewError, match="hard"):
        review(loaded, seats=[0], level="normal")


def test_cli_review_json_fields(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    result = runner.invoke(app, ["review", str(SAMPLES / "hearts-mid-deal.json"), "--budget-ms", "5", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["format"] == "cardtui-review" and out["version"] == 2
    assert out["status"] == "in_progress" and out["game"] == "hearts" and out["level"] == "hard"
    assert out["seats"] == [{"seat": 0, "name": "You"}]
    assert out["thresholds"] == {"points": {"?": 1.0, "??": 4.0}}
    first = out["decisions"][0]
    assert set(first) == {
        "index", "deal", "seat", "phase", "action", "best", "unit", "chosen_value", "best_value",
        "chosen_points", "best_points", "loss", "loss_se", "margin", "margin_se", "mark", "close", "choices",
        "samples", "options", "hard_player", "solver", "why",
    }  # fmt: skip
    assert first["phase"] == "pass" and first["action"]["type"] == "pass"
    assert [d["deal"] for d in out["deals"]] == [1]  # the deal being played is never reviewed, as never replayed
    total = out["game_total"][0]
    assert set(total) == {"seat", "decisions", "marked", "loss", "win_chance_loss", "costliest", "accuracy"}
    assert total["loss"] == pytest.approx(sum(d["loss"] for d in out["decisions"]), abs=0.01)
    assert len(total["costliest"]) <= 3


def test_cli_review_text_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    text = runner.invoke(app, ["review", str(SAMPLES / "hearts-mid-deal.json"), "--budget-ms", "5"])
    assert text.exit_code == 0
    assert "Marks by expected loss less 2 standard errors: ? from 1.0 points, ?? from 4.0 points." in text.stdout
    assert "You (seat 0), the game:" in text.stdout
    bots = runner.invoke(app, ["review", str(SAMPLES / "hearts.json")])
    assert bots.exit_code == 2
    assert "every seat of this game is a computer player" in bots.stderr
    level = runner.invoke(app, ["review", str(SAMPLES / "hearts-mid-deal.json"), "--level", "easy"])
    assert level.exit_code == 2 and "use hard" in level.stderr
    missing = runner.invoke(app, ["review", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "Traceback" not in missing.output


def test_a_review_line_whose_gap_counts_the_others_says_so_and_adds_up() -> None:
    """`better by 6.8` beside 6.6 against 11.4 (4.8 apart) would read as a mistake: the line splits the 6.8 into
    the 4.8 of the seat's own score and the 2.0 from the others' points, the moon and the game's end."""
    view = hearts_save([QUEEN_DEAL, Play(0, card("2C"))]).game.view(1)
    best, mine = Play(1, card("QS")), Play(1, card("9D"))
    ev = weighing(best, mine, (-6.6, 6.6), (-13.4, 11.4), 0.5)
    line = explain(view, ev, ["P0", "P1", "P2", "P3"], lambda c: c.code)
    assert line.startswith("QS was better by 6.8 points (± 1.0): 6.6 points taken this deal against 11.4 for 9D; ")
    assert "; 4.8 of it in your own score, 2.0 from the others' points, the moon and the game's end" in line
    plain = weighing(best, mine, (-6.6, 6.6), (-11.4, 11.4), 0.5)
    said = explain(view, plain, ["P0", "P1", "P2", "P3"], lambda c: c.code)
    assert said.startswith("QS was better by 4.8 points (± 1.0): 6.6 points taken this deal against 11.4 for 9D,")
    noisy = weighing(best, mine, (-6.6, 6.6), (-11.4, 11.4), 3.0)
    said = explain(view, noisy, ["P0", "P1", "P2", "P3"], lambda c: c.code)
    assert said.startswith("QS looks better, within the noise, by 4.8 points (± 6.0): ")


def weighing(
    best: Action, mine: Action, best_at: tuple[float, float], mine_at: tuple[float, float], se: float
) -> Weighing:
    """Two choices weighed on 100 samples: (value, points) of each and the loss's standard error."""
    options = (Valued(best, best_at[0], se, best_at[1], 100), Valued(mine, mine_at[0], se, mine_at[1], 100))
    loss = best_at[0] - mine_at[0]
    return Weighing(options, 1, POINTS, loss, se, best_at[0], mine_at[0], best_at[1], mine_at[1], 1000)


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_blind_bid_is_explained_without_the_hand_it_was_made_without() -> None:
    """A blind nil is bid with the hand face down, so its line names nothing in that hand."""
    spades = parse_save(json.loads((SAMPLES / "spades.json").read_text()))
    judged = review(spades, seats=[0], budget_ms=2)
    blind = [j for j in judged.judgements if isinstance(j.action, Bid) and j.action.blind]
    assert blind, "the sample holds blind nils of seat 0"
    assert all("the hand holds" not in j.why for j in blind)
    seen = [j for j in judged.judgements if isinstance(j.action, Bid) and not j.action.blind]
    assert any("the hand holds" in j.why for j in seen)


def test_cli_review_refuses_a_hot_seat_game_in_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviewing would show the other person's passes and plays (and the values of their hand) before the game
    ends, as a replay would: refused with the replay's sentence."""
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    seats = [Seat("You", "human"), Seat("Ann", "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    session = Session.new(default_preset("hearts"), seats, 2, save_path=tmp_path / "hot.json")
    while session.deal_number < 2:  # the first deal finished, the second dealt
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(session.bot_decision("easy").action)
    session.close()
    result = runner.invoke(app, ["review", str(tmp_path / "hot.json"), "--seat", "0", "--budget-ms", "5"])
    assert result.exit_code == 2
    assert "2 people play this game" in result.stderr and "Ann" not in result.stdout


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_long_review_tells_its_progress_on_stderr_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a large budget a review runs long: it says which deal it is on (deal k of n) on stderr, and the JSON
    on stdout is the same as a quiet run's."""
    from cardtui import cli

    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    game = tmp_path / "two-deals.json"
    game.write_text(json.dumps(sample_deals("hearts", 2)))
    args = ["review", str(game), "--seat", "0", "--budget-ms", "1", "--json"]
    monkeypatch.setattr(cli, "REVIEW_QUIET_S", 1e9)  # as if every step were quick
    quiet = runner.invoke(app, args)
    assert quiet.exit_code == 0, quiet.output
    monkeypatch.setattr(cli, "REVIEW_QUIET_S", 0.0)  # as if every step took long
    told = runner.invoke(app, args)
    assert told.exit_code == 0, told.output
    assert json.loads(told.stdout) == json.loads(quiet.stdout)
    deals = len(json.loads(told.stdout)["deals"])
    assert deals > 1
    lines = told.stderr.splitlines()
    # every line names its deal and how many decisions are weighed, and every deal is named
    said = re.compile(rf"reviewing deal (\d+) of {deals}: (\d+ of \d+ decisions|decision \d+ of \d+, \d+%) weighed")
    assert all(said.fullmatch(line) for line in lines), lines
    assert sorted({int(m[1]) for line in lines if (m := said.fullmatch(line))}) == list(range(1, deals + 1))
    assert quiet.stderr == ""


@pytest.mark.slow  # a review: the judge searches every decision
def test_the_review_tells_each_deal_as_it_reaches_it() -> None:
    loaded = parse_save(sample_deals("hearts", 3))
    reached: list[tuple[int, int]] = []
    result = review(loaded, seats=[0], budget_ms=1, on_deal=lambda k, n: reached.append((k, n)))
    n = len(result.deals())
    assert reached == [(k, n) for k in range(1, n + 1)]


ACTIONS = ("action", "best", "hard_player")
"""The review's fields that hold an action as the save file writes it (its fields are the save format's)."""


def json_keys(value: Any) -> set[str]:
    """Every key of every object in a JSON value, but those of the actions in it."""
    if isinstance(value, dict):
        return set(value) | {k for key, v in value.items() if key not in ACTIONS for k in json_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in json_keys(v)}
    return set()


def test_every_field_of_the_review_json_is_named_in_the_readme() -> None:
    loaded = hearts_save([QUEEN_DEAL, Play(0, card("2C")), Play(1, card("9D"))])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Reviewing a game") : readme.index("## Large arena runs")]
    named = {word for quoted in re.findall(r"`([^`]+)`", section) for word in re.findall(r"[a-z_?]+", quoted)}
    assert json_keys(review(loaded, budget_ms=20).to_json()) - named == set()
