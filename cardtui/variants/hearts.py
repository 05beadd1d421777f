"""Hearts' entry in the registry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardtui.cards import DECK, QUEEN_OF_SPADES, Suit
from cardtui.games.base import Action, DealRecord, Event, Game, Pass, Play, PlayerView
from cardtui.games.hearts import HeartsGame, HeartsView, pass_offset
from cardtui.games.trick import TrickView, TrickWon
from cardtui.rules import HeartsRules, Ruleset
from cardtui.variants.base import CardText, GameEntry, ReviewWords, ScoreLines, TableWords, side_name
from cardtui.variants.trick import Players, play_facts, points_text, trick_fields, tricks_text

THRESHOLDS = {"points": (1.0, 4.0)}
"""The review's marks: `?` from a point (about a heart for nothing), `??` from 4 (a trick of hearts)."""

RULES_TEXT = (
    "Hearts: avoid taking hearts (1 point each) and the queen of spades (13). Follow suit if you can. "
    "Take them all and you shoot the moon. The game ends when a seat reaches the end score; lowest wins."
)


def _players() -> Players:
    from cardtui.bots.hearts import HeartsBot
    from cardtui.bots.hearts_judge import HeartsJudge
    from cardtui.bots.hearts_search import HeartsSearch

    return HeartsSearch, HeartsBot, HeartsJudge


def _queen_taken(event: Event) -> int | None:
    """The seat that took a trick holding the queen of spades."""
    return event.seat if isinstance(event, TrickWon) and DECK[QUEEN_OF_SPADES] in event.cards else None


def _figures(game: Game, counts: Sequence[int]) -> dict[str, list[int]]:
    """Per seat: moons shot and tricks with the queen of spades taken (`counts`)."""
    records = game.deal_records
    return {
        "moons": [sum(1 for r in records if r.moon == s) for s in range(game.seats)],
        "queens": list(counts[: game.seats]),
    }


def _stat_counts(figures: Mapping[str, list[int]], you: int, side: int) -> dict[str, int]:
    moons = figures["moons"]
    return {"moons_shot": moons[you], "moons_against": sum(moons) - moons[you], "queens_taken": figures["queens"][you]}


def _amount(view: PlayerView, points: float) -> str:
    from cardtui.bots.hearts_judge import MOON_UNIT, moon_holder

    assert isinstance(view, TrickView)
    unit = "points taken this deal" if view.phase != "play" or moon_holder(view) is None else MOON_UNIT
    return f"{points:.1f} {unit}"


def _moon_causes(view: HeartsView, names: Sequence[str]) -> list[str]:
    """A moon still possible: the one seat that has taken every point card so far, and how a moon is scored."""
    from cardtui.bots.hearts_judge import moon_holder, moon_scoring

    holder = moon_holder(view)
    if holder is None:
        return []
    seat, points = holder
    scoring = moon_scoring(view.ruleset)
    if seat == view.seat:
        return [f"shooting the moon: you have taken every point so far ({points}), and a moon scores {scoring}"]
    return [f"{names[seat]} has taken every point so far ({points}) and may shoot the moon, scored {scoring}"]


def _rest(view: PlayerView) -> str:
    """The others' points, the moon and the game's end, at its price in the judge's points."""
    from cardtui.bots.hearts_search import GAME_WIN_HEARTS

    n = view.ruleset.seats
    won, lost = GAME_WIN_HEARTS * (n - 1) / n, GAME_WIN_HEARTS / n
    end = f"the game's end (winning the game counts +{won:.3g} points, losing it -{lost:.3g})"
    return f"the others' points, the moon and {end}"


def _queen_facts(view: TrickView, best: Play, mine: Play, text: CardText, unseen: int) -> list[str]:
    """Whether the queen of spades is still out, and what points the trick holds."""
    facts: list[str] = []
    queen = DECK[QUEEN_OF_SPADES]
    if unseen & queen.bit and Suit.SPADES in {best.card.suit, mine.card.suit}:
        facts.append(f"{text(queen)} is still out")
    hearts = sum(1 for _, c in view.trick if c.suit == Suit.HEARTS)
    held = [f"{hearts} heart{'s' if hearts != 1 else ''}"] if hearts else []
    held += [text(queen)] if any(c is queen for _, c in view.trick) else []
    if held:
        facts.append(f"the trick holds {' and '.join(held)}")
    return facts


def _facts(view: PlayerView, best: Action, mine: Action, names: Sequence[str], text: CardText) -> list[str]:
    assert isinstance(view, HeartsView)
    if isinstance(best, Play) and isinstance(mine, Play):
        return play_facts(view, best, mine, names, text, _queen_facts, _moon_causes(view, names))
    if isinstance(best, Pass):
        return [f"passing {view.detail.pass_direction}"]
    return []


def _way(view: PlayerView) -> str:
    """This deal's pass direction (`left`), or nothing in a deal without a pass."""
    assert isinstance(view, HeartsView)
    direction = view.detail.pass_direction
    return "" if direction == "none" else direction


def _seat_line(view: PlayerView, seat: int) -> str:
    """The tricks a seat took this deal and the points in them."""
    assert isinstance(view, HeartsView)
    return f"{tricks_text(view.tricks_won[seat])} · {points_text(view.detail.points_taken[seat])}"


def _scores(view: PlayerView, names: Sequence[str]) -> ScoreLines:
    """Each side's total, whether hearts are broken (where a rule waits for it), the pass."""
    assert isinstance(view, HeartsView)
    rows = tuple((side_name(names, side), f"{view.totals[i]:>5}") for i, side in enumerate(view.sides))
    direction = view.detail.pass_direction
    breaking = ("Hearts broken" if view.broken else "Hearts not broken",) if view.ruleset.hearts_must_be_broken else ()
    notes = (*breaking, "No pass this deal" if direction == "none" else f"Pass: {direction}")
    return ScoreLines(f"Scores (game ends at {view.ruleset.end_score})", rows, 18, notes)


def _passing(view: PlayerView, seat: int, names: Sequence[str]) -> tuple[tuple[int, ...], str]:
    """This deal's pass: how many cards, which way, to whom."""
    assert isinstance(view, HeartsView)
    count = view.ruleset.pass_count
    direction = view.detail.pass_direction
    to = (seat + pass_offset(direction, len(names))) % len(names)
    return (count,), f"pass {count} cards {direction} to {names[to]}"


def _shot(rules: Ruleset, record: DealRecord, names: Sequence[str]) -> str:
    """The moon, or the sun where the rules have it and the seat took every trick too."""
    assert isinstance(rules, HeartsRules) and record.moon is not None
    sun = rules.sun != "off" and record.tricks[record.moon] == sum(record.tricks)
    return f"{names[record.moon]} shot the {'sun' if sun else 'moon'}!"


HEARTS = GameEntry(
    **trick_fields(_players, THRESHOLDS),
    name="hearts",
    title="Hearts",
    presets=("hearts", "hearts-3", "hearts-5", "hearts-6"),
    engine=HeartsGame,
    rules_text=RULES_TEXT,
    deal_table="points",
    review=ReviewWords(amount=_amount, points_hurt=True, own_score="your own", facts=_facts, rest=_rest, way=_way),
    seat_counts=(3, 4, 5, 6),
    players_knob="players",
    figures=_figures,
    count=_queen_taken,
    seat_figures=("moons", "queens"),
    side_figures=(),
    stat_counts=_stat_counts,
    stat_keys=("moons_shot", "moons_against", "queens_taken"),
    per_deal_keys=(),
    stat_columns=(("moons_shot", "moons shot"), ("moons_against", "moons against"), ("queens_taken", "QS taken")),
    table_words=TableWords(seat_line=_seat_line, scores=_scores, passing=_passing, shot=_shot),
)
