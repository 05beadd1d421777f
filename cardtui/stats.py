"""Your record, from the saves catalog: games, wins and per-game figures by game and by opponents' level.

"You" are the person at the table: seat 0 when it is a person's seat, else
the first seat a person holds. In a hot-seat game every other person's seat
counts as an opponent of level "human", so one game is counted once. Saves
with no person's seat (computer-only games) and broken saves are not counted.
Wins and win rates count finished games; per-deal figures count every deal
played to its end, in games finished or not.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from cardtui.catalog import Entry, SavedSummary, SeatSummary
from cardtui.measure import wilson
from cardtui.review import Reviewed
from cardtui.variants import find_game, game_names

ALL = "all"


class StatsError(ValueError):
    """A bad `--since`; the message says what is allowed."""


def parse_since(text: str) -> dt.date:
    """A `--since` date: YYYY-MM-DD."""
    try:
        return dt.date.fromisoformat(text) if len(text) == 10 else _bad_date(text)
    except ValueError:
        return _bad_date(text)


def _bad_date(text: str) -> dt.date:
    raise StatsError(f"--since: expected a date like 2026-11-01 (YYYY-MM-DD), found {text[:40]!r}")


def you_of(seats: Sequence[SeatSummary]) -> int | None:
    """Your seat: seat 0 when a person holds it, else the first person's seat; None in a computer-only game."""
    people = [i for i, s in enumerate(seats) if s.person]
    return people[0] if people else None


@dataclasses.dataclass(slots=True)
class Record:
    """The figures of one game, number of players and opponents' level, added up save by save."""

    game: str
    opponents: str
    players: int
    """How many seats the games had: a 3-player game is never counted with 4-player ones."""
    games: int = 0
    in_progress: int = 0
    wins: int = 0
    deals: int = 0
    points: int = 0
    counts: Counter[str] = dataclasses.field(default_factory=Counter)
    """The game's own figures (moons shot, contracts made, ace hits...) by name."""

    def count(self, key: str, n: int) -> None:
        self.counts[key] += n

    def add(self, other: Record) -> None:
        """Another tally of the same game, players and opponents added in: every number field but the number of
        players, so a figure added to the class is never left out of a sum, and the game's own figures."""
        for f in dataclasses.fields(self):
            mine = getattr(self, f.name)
            if isinstance(mine, int) and f.name != "players":
                setattr(self, f.name, mine + getattr(other, f.name))
        self.counts.update(other.counts)

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        out: dict[str, Any] = {
            "game": self.game,
            "opponents": self.opponents,
            "players": self.players,
            "games": self.games,
            "in_progress": self.in_progress,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else None,
            "win_rate_95": [round(low, 4), round(high, 4)] if self.games else None,
        }
        c = self.counts
        entry = find_game(self.game)
        if not entry.has_deals:
            out["average_points"] = round(self.points / self.games, 2) if self.games else None
        else:
            out["deals"] = self.deals
            out["points_per_deal"] = round(self.points / self.deals, 2) if self.deals else None
        out |= {k: c[k] for k in entry.stat_keys}
        for k in entry.per_deal_keys:
            out[f"{k}_per_deal"] = round(c[k] / self.deals, 2) if self.deals else None
        return out


def opponents_of(seats: Sequence[SeatSummary], sides: Sequence[Sequence[int]], you: int) -> str:
    """The levels of the seats not on your side ("human" for a person), distinct and sorted, joined by +."""
    mine = next(side for side in sides if you in side)
    levels = {s.who for i, s in enumerate(seats) if i not in mine}
    return "+".join(sorted(levels))


def deal_scores(summary: SavedSummary, you: int) -> list[int]:
    """Your side's score in each deal played to its end (a trick game's save)."""
    side = summary.side_of(you)
    return [scores[side] for scores in summary.deals]


def tally_one(summary: SavedSummary, you: int) -> Record:
    """One save's figures for your seat and side."""
    game = summary.game
    side = summary.side_of(you)
    t = Record(game, opponents_of(summary.seats, summary.sides, you), len(summary.seats))
    finished = summary.finished
    if finished:
        t.games = 1
        t.wins = int(side in (summary.winner or ()))
    else:
        t.in_progress = 1
    entry = find_game(game)
    if not entry.has_deals:
        t.points = summary.points[you] if finished else 0
    else:
        scores = deal_scores(summary, you)
        t.deals = len(scores)
        t.points = sum(scores)
    for key, n in entry.stat_counts(summary.figures, you, side).items():
        t.count(key, n)
    return t


@dataclasses.dataclass(frozen=True, slots=True)
class StatsFigures:
    """Your record over the catalog: one row per game and opponents' level, plus each game's `all` row, and the
    saves not counted (broken, or with no person at the table). `to_json` is `cardtui stats --json`."""

    game: str | None
    since: dt.date | None
    rows: tuple[Record, ...]
    broken: int
    without_a_person: int
    accuracy: tuple[tuple[str, tuple[float, ...]], ...] = ()
    """Per game, the review's accuracy of each reviewed finished game, once however many copies of its save were
    reviewed, oldest first (`cardtui review` keeps them)."""
    unfinished: tuple[tuple[str, int], ...] = ()
    """Per game, how many reviewed games were unfinished when reviewed (not in the trend)."""

    def to_json(self) -> dict[str, Any]:
        trend = [
            {"game": g, "accuracy": list(self.accuracy_of(g)), "unfinished": self.unfinished_of(g)}
            for g in self.reviewed_games()
        ]
        return {
            "game": self.game,
            "since": self.since.isoformat() if self.since is not None else None,
            "rows": [row.to_json() for row in self.rows],
            "broken": self.broken,
            "without_a_person": self.without_a_person,
            "review_accuracy": trend,
        }

    def accuracy_of(self, game: str) -> tuple[float, ...]:
        return next((a for g, a in self.accuracy if g == game), ())

    def unfinished_of(self, game: str) -> int:
        return next((n for g, n in self.unfinished if g == game), 0)

    def reviewed_games(self) -> list[str]:
        """The games with a reviewed game, finished or not, in the registry's order."""
        return [g for g in game_names() if self.accuracy_of(g) or self.unfinished_of(g)]


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewedGame:
    """One reviewed save as the trend counts it: which game it is (by content, so copies are one), whether the
    review was of the game finished, and its accuracy."""

    game: str
    updated: str
    identity: tuple[str, ...]
    finished: bool
    accuracy: float
    decisions: int

    @property
    def played(self) -> tuple[str, str, int]:
        """What the record says of the game: its name, when it was last played, the decisions reviewed."""
        return (self.game, self.updated, self.decisions)


def reviewed_as_played(reviewed: Sequence[Reviewed], entries: Iterable[Entry]) -> list[ReviewedGame]:
    """Each kept review with what its save is now: a save in the catalog is known from its row, one elsewhere is
    read (as loading does); a save that is gone or broken is known from the record alone (its game, the time it
    was last played and its decisions, which a copy shares). A review of a save that has been played since was of
    an unfinished game."""
    from cardtui.catalog import summarise
    from cardtui.files import resolved
    from cardtui.saves import SaveError

    known = {str(resolved(e.info.path)): e.summary for e in entries}
    out = []
    for r in reviewed:
        summary = known.get(r.key)
        if summary is None and r.key not in known and Path(r.key).is_absolute():
            try:
                summary = summarise(Path(r.key)).saved()
            except (SaveError, OSError):
                summary = None
        if summary is None or summary.game != r.game:
            identity: tuple[str, ...] = ("record", r.game, r.updated, str(r.decisions))
            out.append(ReviewedGame(r.game, r.updated, identity, True, r.accuracy, r.decisions))
            continue
        finished = summary.finished and summary.updated == r.updated
        identity = ("content", summary.content)
        out.append(ReviewedGame(r.game, r.updated, identity, finished, r.accuracy, r.decisions))
    return out


def _trend(
    reviewed: Sequence[Reviewed],
    entries: Sequence[Entry],
    game: str | None,
    since: dt.date | None,
) -> tuple[tuple[tuple[str, tuple[float, ...]], ...], tuple[tuple[str, int], ...]]:
    """Per game, the accuracy of each reviewed finished game once (oldest first, the first review of a game
    reviewed as several copies), and how many reviewed games were unfinished."""
    games = reviewed_as_played(reviewed, entries)
    here = {g.played for g in games if g.identity[0] == "content"}
    seen: set[tuple[str, ...]] = set()
    trend, unfinished = [], []
    for name in game_names():
        scores: list[float] = []
        open_games = 0
        for g in games:
            if g.game != name or (game is not None and name != game):
                continue
            if since is not None and dt.date.fromisoformat(g.updated[:10]) < since:
                continue
            if g.identity in seen or (g.identity[0] == "record" and g.played in here):
                continue  # a copy of a game already counted (a gone save's record matching a save still here)
            seen.add(g.identity)
            if g.finished:
                scores.append(g.accuracy)
            else:
                open_games += 1
        if scores:
            trend.append((name, tuple(scores)))
        if open_games:
            unfinished.append((name, open_games))
    return tuple(trend), tuple(unfinished)


def compute(
    entries: Iterable[Entry],
    game: str | None = None,
    since: dt.date | None = None,
    reviewed: Sequence[Reviewed] = (),
) -> StatsFigures:
    """Your record per game and opponents' level over the catalog's entries (only `game`, only `since`), and
    the accuracy of the reviewed games (`reviewed`, oldest first) per game: each game once, finished ones in the
    trend and unfinished ones counted beside it."""
    entries = list(entries)
    groups: dict[tuple[str, int, str], Record] = {}
    broken = unplayed = 0
    for entry in entries:
        summary = entry.summary
        if summary is None:
            broken += 1
            continue
        if game is not None and summary.game != game:
            continue
        if since is not None and dt.date.fromisoformat(summary.updated[:10]) < since:
            continue
        you = you_of(summary.seats)
        if you is None:
            unplayed += 1
            continue
        one = tally_one(summary, you)
        key = (one.game, one.players, one.opponents)
        groups.setdefault(key, Record(one.game, one.opponents, one.players)).add(one)
    rows: list[Record] = []
    for name in game_names():
        for players in sorted({k[1] for k in groups if k[0] == name}):
            mine = [groups[k] for k in sorted(groups) if k[:2] == (name, players)]
            rows.extend(mine)
            if len(mine) > 1:
                total = Record(name, ALL, players)
                for t in mine:
                    total.add(t)
                rows.append(total)
    trend, unfinished = _trend(reviewed, entries, game, since)
    return StatsFigures(game, since, tuple(rows), broken, unplayed, trend, unfinished)


def trend_words(accuracy: Sequence[float]) -> str:
    """The review accuracy over reviewed games in a line: the last one, and the first half's mean against the
    second half's."""
    n = len(accuracy)
    if n == 1:
        return f"1 reviewed game: accuracy {accuracy[0]:.0f}%"
    half = n // 2
    first, second = sum(accuracy[:half]) / half, sum(accuracy[half:]) / (n - half)
    return (
        f"{n} reviewed games: accuracy {first:.0f}% in the first half, {second:.0f}% in the second "
        f"(last {accuracy[-1]:.0f}%)"
    )


def review_words(stats: StatsFigures, game: str) -> str:
    """The game's review trend in a line, with the reviewed games that were unfinished (not in the trend)."""
    accuracy, n = stats.accuracy_of(game), stats.unfinished_of(game)
    if not accuracy:
        return f"no finished game reviewed yet ({n} unfinished, not in the trend)"
    return trend_words(accuracy) + (f" (+{n} unfinished, not in the trend)" if n else "")


@dataclasses.dataclass(frozen=True, slots=True)
class Played:
    """One save of a game you played, for the charts: when, whether it is over and won, points per deal."""

    game: str
    updated: str
    finished: bool
    won: bool
    points: tuple[int, ...]
    """Your side's score per deal; in Eight of Spades (one deal) your points when the game is over."""
    players: int


def played(entries: Iterable[Entry], game: str | None = None) -> list[Played]:
    """The games you played (as `compute` counts them), oldest first by the time written in the save.

    Saves written in the same second keep the order of their files' times (the catalog lists newest first).
    """
    out = []
    for entry in reversed(list(entries)):
        summary = entry.summary
        if summary is None or (game is not None and summary.game != game):
            continue
        you = you_of(summary.seats)
        if you is None:
            continue
        one = tally_one(summary, you)
        if not find_game(summary.game).has_deals:
            points: tuple[int, ...] = (one.points,) if one.games else ()
        else:
            points = tuple(deal_scores(summary, you))
        out.append(Played(summary.game, summary.updated, bool(one.games), bool(one.wins), points, one.players))
    out.sort(key=lambda p: p.updated)
    return out


def running_win_rate(games: Iterable[Played]) -> list[float]:
    """Your win rate (0..1) after each finished game, in order."""
    rates: list[float] = []
    wins = 0
    for p in games:
        if p.finished:
            wins += p.won
            rates.append(wins / (len(rates) + 1))
    return rates


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def _columns(game: str) -> list[tuple[str, str]]:
    entry = find_game(game)
    if not entry.has_deals:
        return [("average_points", "avg points"), *entry.stat_columns]
    return [("deals", "deals"), ("points_per_deal", "points/deal"), *entry.stat_columns]


def opponents_words(opponents: str, players: int, counts: set[int]) -> str:
    """A row's opponents, with its number of players (`easy, 3 players`) when the game's rows are of more than one
    number of players, or of one other than the game's usual number (`counts` holds the one usual number then)."""
    return opponents if len(counts) == 1 and players in counts else f"{opponents}, {players} players"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def render(stats: StatsFigures) -> str:
    """The text report: a table per game and its review accuracy trend (a game reviewed but with no save left to
    count shows its trend alone)."""
    since = f" since {stats.since.isoformat()}" if stats.since else ""
    reviewed = stats.reviewed_games()
    notes = []
    if stats.broken:
        notes.append(f"{_plural(stats.broken, 'broken save', 'broken saves')} not counted (see `cardtui saves`)")
    if stats.without_a_person:
        notes.append(f"{_plural(stats.without_a_person, 'computer-only game', 'computer-only games')} not counted")
    if not stats.rows and not reviewed:
        return "\n".join([f"no {stats.game + ' ' if stats.game else ''}games played yet{since}", *notes])
    lines: list[str] = [] if stats.rows else [f"no saved games to count{since}; your reviews kept:", ""]
    for game in game_names():
        rows = [r.to_json() for r in stats.rows if r.game == game]
        if not rows:
            if game in reviewed:
                lines += [game, "  " + review_words(stats, game), ""]
            continue
        columns = _columns(game)
        counts = {r["players"] for r in rows} | {find_game(game).default_rules().seats}
        table = [["opponents", "games", "wins", "win rate (95%)", *(title for _, title in columns)]]
        for r in rows:
            rate = "-"
            if r["win_rate"] is not None:
                low, high = r["win_rate_95"]
                rate = f"{_percent(r['win_rate'])} ({_percent(low)}-{_percent(high)})"
            played = f"{r['games']}" + (f" (+{r['in_progress']} open)" if r["in_progress"] else "")
            cells = [opponents_words(r["opponents"], r["players"], counts), played, str(r["wins"]), rate]
            cells += ["-" if r[key] is None else str(r[key]) for key, _ in columns]
            table.append(cells)
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines.append(game)
        lines.extend("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table)
        if game in reviewed:
            lines.append("  " + review_words(stats, game))
        lines.append("")
    return "\n".join(lines + notes).rstrip()
