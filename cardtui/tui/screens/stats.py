"""Statistics: your record from the saves catalog (as `cardtui stats` prints it) and two charts.

The catalog is brought up to date in a worker (many new saves take a while to
read); the screen says how far it has got. The charts follow one game at a
time (g: the next game): your win rate after each finished game, and how many
points your side made per deal.
"""

from __future__ import annotations

import dataclasses
import textwrap
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from cardtui.inert import inert
from cardtui.tui.common import GAME_TITLES, Stopped, until_cancelled
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.variants import find_game

if TYPE_CHECKING:
    from cardtui.stats import Played, StatsFigures

EMPTY = "No games played yet: finish a game at the table and your record shows here."


def _counts(games: list[Played]) -> str:
    """`3 and 4`: the numbers of players these games had, fewest first."""
    counts = [str(n) for n in sorted({g.players for g in games})]
    return ", ".join(counts[:-1]) + " and " + counts[-1]


@dataclasses.dataclass
class StatsProgress(Message):
    """How many of the saves that needed reading have been read (from the worker)."""

    done: int
    total: int


@dataclasses.dataclass
class StatsRead(Message):
    """The catalog's figures (the `cardtui stats --json` object) and the games you played, oldest first."""

    stats: StatsFigures
    games: list[Played]
    problem: str = ""
    note: str | None = None
    """Says how many damaged catalog rows were rebuilt and damaged review entries skipped, when any were."""


SCROLL_KEYS = (
    ("up", "scroll_charts(-1)"),
    ("down", "scroll_charts(1)"),
    ("left", "scroll_table(-4)"),
    ("right", "scroll_table(4)"),
)
"""Whatever has focus: the record table scrolls sideways when it is wider than the screen, the charts up and down
when they stand one under another."""

NARROW_CHART = 22
"""Columns below which a chart's title and axes crowd each other: the charts then stand one under another."""


class StatsScreen(Screen[None]):
    """Your record by game and opponents, your win rate over time and your points per deal."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back", id="stats.close"),
        Binding("g", "next_game", "Next game", id="stats.next-game"),
        *(Binding(key, action, f"Scroll {key}", id=f"stats.{key}", show=False) for key, action in SCROLL_KEYS),
    ]

    def __init__(self, ascii_only: bool = False) -> None:
        super().__init__()
        self.ascii_only = ascii_only
        self.stats: StatsFigures | None = None
        self.games: list[Played] = []
        self.shown: list[str] = []
        """The games with figures, in the catalog's order; `g` moves the charts along them."""
        self.current = 0
        self.where = ""
        """The note's first line: where the figures come from."""

    def compose(self) -> ComposeResult:
        from cardtui.tui.widgets.chart import Chart

        with Vertical(id="stats-box"):
            yield Static("Statistics", classes="dialog-title", markup=False)
            yield Static("Reading the saves catalog…", id="stats-note", markup=False)
            with ScrollableContainer(id="stats-table", can_focus=False):
                yield Static("", id="stats-text", markup=False)
            with ScrollableContainer(id="stats-charts", can_focus=False):
                yield Chart(self.ascii_only, id="stats-win-rate")
                yield Chart(self.ascii_only, id="stats-points")
                yield Chart(self.ascii_only, id="stats-accuracy")
            yield Static("", id="stats-chart-note", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#stats-table").display = False
        self.query_one("#stats-charts").display = False
        self.query_one("#stats-chart-note").display = False
        self.read_catalog()

    @work(thread=True, exclusive=True, group="stats")
    def read_catalog(self) -> None:
        """Bring the catalog up to date with the saves folder and work out the figures, off the event loop."""
        from cardtui.catalog import list_entries
        from cardtui.review import reviewed_games
        from cardtui.stats import compute, played

        def progress(done: int, total: int) -> None:
            self.post_message(StatsProgress(done, total))

        try:
            entries = list_entries(progress=until_cancelled(progress))
        except Stopped:
            return
        except OSError as err:
            self.post_message(StatsRead(compute(()), [], f"Could not read the saves: {err}"))
            return
        reviewed = reviewed_games()
        notes = " · ".join(n for n in (entries.note, reviewed.note) if n) or None
        self.post_message(StatsRead(compute(entries, reviewed=reviewed), played(entries), note=notes))

    def on_stats_progress(self, message: StatsProgress) -> None:
        self.query_one("#stats-note", Static).update(f"Reading new saves: {message.done} of {message.total}…")

    def on_stats_read(self, message: StatsRead) -> None:

        note = self.query_one("#stats-note", Static)
        if message.problem:
            note.update(inert(message.problem))
            return
        self.stats, self.games = message.stats, message.games
        reviewed = message.stats.reviewed_games()
        if not message.stats.rows and not reviewed:
            note.update(EMPTY + (f" ({inert(message.note)})" if message.note else ""))
            self.refresh_bindings()
            return
        self.shown = [g for g in GAME_TITLES if g in reviewed or any(r.game == g for r in message.stats.rows)]
        rebuilt = f" · {inert(message.note)}" if message.note else ""
        where = "Your record from the saves folder."
        if not message.stats.rows:
            where = "No saved game to count in the saves folder; below, the games you reviewed."
        self.where = f"{where}{rebuilt}"
        self.show_note()
        self.show_report()
        self.query_one("#stats-table").display = True
        self.query_one("#stats-charts").display = True
        self.query_one("#stats-chart-note").display = True
        self.refresh_bindings()
        self.draw_charts()

    def show_report(self) -> None:
        """The `cardtui stats` report; each game's review trend wrapped to the screen (the tables scroll)."""
        from cardtui.stats import render, review_words

        if self.stats is None:
            return
        stats = self.stats
        width = max(20, self.size.width - 4)
        trends = {"  " + review_words(stats, g) for g in stats.reviewed_games()}
        lines = []
        for line in render(stats).split("\n"):
            if line in trends and len(line) > width:
                lines += textwrap.wrap(line.strip(), width, initial_indent="  ", subsequent_indent="  ")
            else:
                lines.append(line)
        self.query_one("#stats-text", Static).update(inert("\n".join(lines), lines=True))

    def show_note(self) -> None:
        """Where the figures come from, and the keys: `g` with more than one game, the arrows on a narrow screen."""
        keys = ["g: the charts of the next game"] if len(self.shown) > 1 else []
        if self.query_one("#stats-charts").has_class("narrow"):
            keys.append("arrows: scroll")
        self.query_one("#stats-note", Static).update(f"{self.where}\n{' · '.join([*keys, 'Esc: back'])}")

    def on_resize(self, event: events.Resize) -> None:
        """Side by side while each chart gets `NARROW_CHART` columns or more; else one under another, scrolled."""
        self.query_one("#stats-charts").set_class(event.size.width < 3 * NARROW_CHART + 4, "narrow")
        if self.where:
            self.show_note()
        self.show_report()

    def action_scroll_charts(self, rows: int) -> None:
        self.query_one("#stats-charts").scroll_relative(y=rows, animate=False)

    def action_scroll_table(self, columns: int) -> None:
        self.query_one("#stats-table").scroll_relative(x=columns, animate=False)

    def draw_charts(self) -> None:
        from cardtui.stats import running_win_rate
        from cardtui.tui.widgets.chart import Chart

        game = self.shown[self.current]
        title = GAME_TITLES.get(game, game)
        mine = [p for p in self.games if p.game == game]
        rates = running_win_rate(mine)
        win_rate = self.query_one("#stats-win-rate", Chart)
        win_rate.lines(
            f"{title}: win rate",
            list(range(1, len(rates) + 1)),
            [("win rate %", [round(100 * r) for r in rates])],
            xlabel="finished games",
            ylabel="%",
            ylim=(0, 100),
        )
        points = [n for p in mine for n in p.points]
        what = find_game(game).score_unit
        self.query_one("#stats-points", Chart).histogram(f"{title}: {what}", points, xlabel=what)
        scores = self.stats.accuracy_of(game) if self.stats is not None else ()
        unfinished = self.stats.unfinished_of(game) if self.stats is not None else 0
        said = [
            f"{title}: win rate after each finished game in the saves folder"
            if rates
            else f"{title}: no finished game in the saves folder",
            f"; your {what}" if points else "",
            f"; review accuracy of {len(scores)} reviewed finished game{'s' if len(scores) != 1 else ''}"
            if scores
            else "; no finished game reviewed",
            "" if scores or unfinished else " yet (r in a replay)",
            f" ({unfinished} unfinished not counted)" if unfinished else "",
            f"; games of {_counts(mine)} players together" if len({p.players for p in mine}) > 1 else "",
            ".",
        ]
        self.query_one("#stats-chart-note", Static).update(inert("".join(said)))
        self.query_one("#stats-accuracy", Chart).lines(
            f"{title}: review accuracy",
            list(range(1, len(scores) + 1)),
            [("accuracy %", [round(a) for a in scores])],
            xlabel="reviewed games",
            ylabel="%",
            ylim=(0, 100),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Next game is offered when the charts have more than one game to show."""
        if action == "next_game":
            return len(self.shown) > 1
        return True

    def action_next_game(self) -> None:
        if len(self.shown) > 1:
            self.current = (self.current + 1) % len(self.shown)
            self.draw_charts()

    def action_close(self) -> None:
        self.dismiss(None)
