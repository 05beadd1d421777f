"""The score history (F6 at the table, h at a deal's end), the Spades deal-end breakdown and the Statistics screen."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable, Static

from cardtui.api import ApiGame, new_game
from cardtui.catalog import list_entries
from cardtui.games.spades import NilResult, SpadesGame, spades_breakdown
from cardtui.games.summary import history_of, summary_of
from cardtui.rules import load_preset
from cardtui.saves import load_save, write_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.source import LocalSource
from cardtui.stats import compute, played, render, running_win_rate
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.history import HistoryScreen, history_rows
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.screens.stats import EMPTY, StatsScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.chart import Chart, bin_counts, whole_ticks
from tests.support.scripted import moon_deal
from tests.support.tui import drawn_when, fast_forward, make_app, play_turns, settle, settled_at, shot, workers_done

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def table_rows(screen: HistoryScreen) -> list[list[str]]:
    table = screen.query_one(DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


@contextlib.asynccontextmanager
async def history_over(
    pilot: Pilot[Any], app: CardtuiApp, key: str, under: type[Screen[Any]]
) -> AsyncIterator[HistoryScreen]:
    """`key` over the screen in front (an `under`) opens the score history; once the test is done with it,
    Esc comes back to that screen."""
    assert isinstance(app.screen, under)
    await pilot.press(key)
    await pilot.pause()
    history = app.screen
    assert isinstance(history, HistoryScreen)
    yield history
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, under)


def at_your_turn_after(preset: str, seed: int, deals: int) -> tuple[CardtuiApp, Session]:
    """A game played by the computer players until `deals` deals are scored and it is your turn again."""
    app, session = make_app(preset, seed=seed)
    fast_forward(session, lambda s: len(s.game.deal_records) >= deals and s.seat_to_move() == s.seats[0])
    return app, session


def text_of(app: CardtuiApp) -> str:
    """The text of the top screen's Static widgets, laid out at their widths."""
    out = []
    for widget in app.screen.query(Static):
        console = Console(width=max(widget.size.width, 20), record=True, file=io.StringIO())
        content = widget.content
        console.print(content if not isinstance(content, str) else Text(content))
        out.append(console.export_text())
    return "\n".join(out)


def write_and_path(game: ApiGame) -> Path:
    """The game saved in the test's home (a save's seats, as the app gets them)."""
    path = Path(os.environ["CARDTUI_HOME"]) / "moon.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_save(path, game.to_save())
    return path


def sample_at_deal_end(tmp_path: Path, name: str, deals: int) -> Session:
    """A sample save cut just after its `deals`-th deal was scored, resumed (a game still in progress)."""
    data = json.loads((SAMPLES / name).read_text())
    starts = [i for i, a in enumerate(data["log"]) if a["type"] == "deal"]
    data["log"] = data["log"][: starts[deals]]
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return Session.resume(path)


# ---------------------------------------------------------------- the domain's figures


def test_spades_breakdown_of_the_sample_matches_the_engine() -> None:
    game = load_save(SAMPLES / "spades.json").game
    assert isinstance(game, SpadesGame)
    second = spades_breakdown(game.ruleset, game.deal_records, 1)
    assert [(s.contract, s.tricks, s.made, s.bags) for s in second] == [(5, 6, True, 5), (4, 4, True, 1)]
    assert second[0].nils == (NilResult(seat=2, blind=False, made=False, tricks=3),)
    assert second[1].nils == (NilResult(seat=1, blind=False, made=True, tricks=0),)
    for index, record in enumerate(game.deal_records):
        sides = spades_breakdown(game.ruleset, game.deal_records, index)
        assert [s.score for s in sides] == list(record.scores)
        assert [s.bags for s in sides] == list(record.bags or ())
    with pytest.raises(ValueError, match="no Spades deal 11"):
        spades_breakdown(game.ruleset, game.deal_records, 10)


def test_a_failed_nil_alone_on_its_side_shows_its_tricks_once() -> None:
    """Cutthroat: a nil bidder has no contract, so its side's row has no tricks taken toward one ("took 0" read
    as a contradiction of the nil's own "took 9")."""
    from cardtui.games.base import Bid, DealRecord
    from cardtui.variants import find_game

    rules = load_preset("cutthroat-3")
    record = DealRecord(
        dealer=0,
        tricks=(9, 6, 2),
        scores=(-100, 61, -40),
        totals=(-100, 61, -40),
        bids=(Bid(0, 0), Bid(1, 5), Bid(2, 4)),
        bags=(0, 0, 0),
        bag_penalties=(0, 0, 0),
    )
    words = find_game("cutthroat").table_words
    assert words is not None and words.breakdown is not None
    rows = words.breakdown(rules, (record,), 0, ["You", "Ann", "Bo"]).rows
    assert rows[0][:5] == ("You", "-", "-", "nil only", "You nil failed (took 9)")
    assert rows[1][:4] == ("Ann", "5", "6", "made") and rows[2][:4] == ("Bo", "4", "2", "set")


def test_detailed_summary_adds_running_totals_and_hearts_moons_to_inspects() -> None:
    game = load_save(SAMPLES / "hearts.json").game
    hearts = summary_of(game, 0, detail=True)
    plain = summary_of(game, 0)
    plain_keys = ("dealer", "bids", "blind", "tricks", "scores")
    assert [{k: d[k] for k in plain_keys} for d in hearts["deals"]] == plain["deals"]
    running = [0, 0, 0, 0]
    for deal in hearts["deals"]:
        running = [t + s for t, s in zip(running, deal["scores"], strict=True)]
        assert deal["totals"] == running
        assert "moon" in deal and len(deal["points"]) == 4
    assert running == hearts["totals"]


def test_chart_helpers() -> None:
    assert whole_ticks(0, 407) == [0, 100, 200, 300, 400, 500]
    assert whole_ticks(-150, 520) == [-200, 0, 200, 400, 600]
    assert bin_counts([-149, 141, 60, 61, 52], 8) == (
        ["-150..-101", "-100..-51", "-50..-1", "0..49", "50..99", "100..149"],
        [1, 0, 0, 0, 3, 1],
    )
    assert bin_counts([5, 5], 8) == (["5"], [2])


async def test_a_histogram_too_tall_for_its_chart_bins_its_values_wider_and_leaves_none_out() -> None:
    from textual.app import App, ComposeResult

    values = [12, 17, 22, 27, 32, 37, 42, 47, 50, 51]
    assert len(bin_counts(values, 8)[1]) == 9  # nine ranges of five: one more than the rows below

    class OneChart(App[None]):
        def compose(self) -> ComposeResult:
            yield Chart(id="chart")

    app = OneChart()
    async with app.run_test(size=(60, 10)) as pilot:
        chart = app.query_one(Chart)
        chart.histogram("points", values, xlabel="points per deal")
        await pilot.pause()
        lines = chart.render().plain.splitlines()  # type: ignore[union-attr]
        bars = lines[1:-1]
        assert len(bars) <= 8 and sum(int(line.split()[-1]) for line in bars) == len(values)


# ---------------------------------------------------------------- the history screen


async def test_f6_at_the_table_shows_every_deal_and_esc_goes_back() -> None:
    app, session = at_your_turn_after("hearts", seed=7, deals=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        async with history_over(pilot, app, "f6", TableScreen) as screen:
            rows = table_rows(screen)
            records = session.game.deal_records  # type: ignore[attr-defined]
            assert len(rows) == len(records) >= 3
            for row, record in zip(rows, records, strict=True):
                assert row[1:9:2] == [str(s) for s in record.scores]
                assert row[2:9:2] == [str(t) for t in record.totals]
            assert rows[-1][2:9:2] == [str(t) for t in session.game.scores]
            # the chart: one line per seat, its last point the running total
            drawn = screen.query_one(Chart).render().plain  # type: ignore[union-attr]
            assert all(session.seats[s].name in drawn for s in range(4)) and "Running totals" in drawn


async def test_f6_in_the_bid_dialog_shows_the_history_and_esc_comes_back_to_the_bid() -> None:
    from cardtui.tui.screens.bid import BidScreen

    app, _session = at_your_turn_after("spades", seed=4, deals=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        async with history_over(pilot, app, "f6", BidScreen) as screen:
            assert len(table_rows(screen)) == 1


async def test_history_of_the_spades_sample_has_its_numbers() -> None:
    loaded = load_save(SAMPLES / "spades.json")
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(HistoryScreen(history_of(loaded.game), loaded.seats))
        await pilot.pause()
        rows = table_rows(app.screen)  # type: ignore[arg-type]
        assert len(rows) == 10
        # deal 1: bids 2 4 3 2, tricks 2 4 4 3, scores 51 and 61; deal 2: North's nil failed, West's made
        assert rows[0] == ["1", "2+3", "2+4", "1", "+51", "51", "4+2", "4+3", "1", "+61", "61"]
        assert rows[1][1] == "5+nil" and rows[1][6] == "nil+4"
        assert rows[6][1] == "bnil+2"  # South's blind nil in deal 7
        assert rows[-1][5] == str(loaded.game.scores[0]) and rows[-1][10] == str(loaded.game.scores[1])


def test_hearts_history_names_the_moon_shooter() -> None:
    game = new_game("hearts", ruleset={"pass_cycle": ["none"]})
    moon_deal(game, 2)
    loaded = load_save(write_and_path(game))
    headings, rows = history_rows(history_of(loaded.game), loaded.seats)
    assert headings[-1] == "moon" and rows[0][-1] == loaded.seats[2].name
    assert rows[0][1:9:2] == ["26", "26", "0", "26"] and rows[0][2:9:2] == ["26", "26", "0", "26"]


def test_cutthroat_history_has_a_column_group_per_seat() -> None:
    loaded = load_save(SAMPLES / "cutthroat.json")
    headings, rows = history_rows(history_of(loaded.game), loaded.seats)
    # No bags column: seed 001 has no bags. A seat's bid and tricks share the column named after it.
    assert len(headings) == 1 + 4 * 3 and headings[1] == "South" and headings[4] == "West"
    assert "bags" not in headings and rows[0][1:4] == ["2/3", "+21", "21"]


@pytest.mark.parametrize(("size", "scrolls"), [((100, 30), False), ((60, 20), True)])
async def test_cutthroat_history_fits_100_columns_and_says_when_arrows_scroll_it(
    size: tuple[int, int], scrolls: bool
) -> None:
    loaded = load_save(SAMPLES / "cutthroat.json")
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.push_screen(HistoryScreen(history_of(loaded.game), loaded.seats))
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        table = screen.query_one(DataTable)
        assert (table.virtual_size.width > table.scrollable_content_region.width) is scrolls
        hint = screen.query_one("#history-scroll", Static)
        assert hint.display is scrolls
        if scrolls:
            assert "← → scroll it" in str(hint.render())
        assert "under a name: bid/tricks taken" in str(screen.query_one("#history-legend", Static).render())


async def test_history_under_ascii_is_ascii_only() -> None:
    loaded = load_save(SAMPLES / "spades-blind.json")
    app = CardtuiApp(Start(), Settings(speed="instant", ascii_only=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(HistoryScreen(history_of(loaded.game), loaded.seats, ascii_only=True))
        await pilot.pause()
        drawn = app.screen.query_one(Chart).render()
        plain = drawn.plain  # type: ignore[union-attr]
        assert plain.isascii() and "*" in plain and "o" in plain


async def test_history_under_no_color_gives_each_line_its_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    loaded = load_save(SAMPLES / "spades.json")
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(HistoryScreen(history_of(loaded.game), loaded.seats))
        await pilot.pause()
        plain = app.screen.query_one(Chart).render().plain  # type: ignore[union-attr]
        assert "** South + North" in plain and "oo West + East" in plain


async def test_history_before_any_deal_says_so() -> None:
    app, session = make_app("spades", seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.push_screen(HistoryScreen.of(LocalSource(session)))
        await pilot.pause()
        note = app.screen.query_one("#history-empty", Static)
        assert "No deal has been played to its end yet." in str(note.render())


# ---------------------------------------------------------------- the Spades deal end


@contextlib.asynccontextmanager
async def deal_end_shown(tmp_path: Path, sample: str, deals: int) -> AsyncIterator[tuple[Pilot[Any], CardtuiApp]]:
    """The end-of-deal screen of a sample game's `deals`th deal, over an empty app."""
    session = sample_at_deal_end(tmp_path, sample, deals)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.push_screen(DealEndScreen(session, session.game.deal_records[-1]))  # type: ignore[attr-defined]
            await pilot.pause()
            yield pilot, app
    finally:
        session.close()


async def test_spades_deal_end_shows_contracts_nils_and_bags_against_the_limit(tmp_path: Path) -> None:
    async with deal_end_shown(tmp_path, "spades.json", 2) as (pilot, app):
        text = text_of(app)
        assert re.search(r"South \+ North .* failed \(took 3\) +4\s", text)  # new bags
        assert re.search(r"West \+ East .* made +0\s", text)
        assert "bags (limit 10)" in text and re.search(r"South \+ North +-46 +5 +5\s", text)  # carried, of the limit
        assert "North nil failed (took 3)" in text and "West nil made" in text
        assert "made" in text
        async with history_over(pilot, app, "h", DealEndScreen) as screen:
            assert len(table_rows(screen)) == 2


async def test_deal_end_says_when_the_bag_limit_was_reached(tmp_path: Path) -> None:
    async with deal_end_shown(tmp_path, "spades.json", 7) as (_pilot, app):
        text = text_of(app)
        assert re.search(r"South \+ North .* made +4\s", text) and "South + North reached 10 bags: -100." in text
        assert re.search(r"South \+ North +\+124 +1 +241\s", text)
        assert "South blind nil made" in text


async def test_cutthroat_deal_end_shows_no_bags() -> None:
    # Seed 001 has no bags (issue 22): the deal's end shows no bag column and no bag limit.
    app, session = make_app("cutthroat", seed=9)
    fast_forward(session, lambda s: sum(len(s.game.hand(i)) for i in range(4)) <= 4 and s.seat_to_move() == s.seats[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        assert isinstance(app.screen, DealEndScreen)
        shown = text_of(app)
        assert "contract" in shown and "this deal" in shown
        assert "bag" not in shown


# ---------------------------------------------------------------- statistics


def play_saves(home: Path, games: list[tuple[str, int]]) -> list[Session]:
    """Finished games with a person in seat 0 (every seat played by the easy computer player), saved in home.

    Played without autosave (a write per action is slow on a busy disk) and saved once at the end.
    """
    (home / "saves").mkdir(parents=True, exist_ok=True)
    out = []
    for preset, seed in games:
        rules = load_preset(preset)
        names = ["West", "North", "East", "P5", "P6"][: rules.seats - 1]
        seats = [Seat("You", "human"), *(Seat(name, "bot", "easy") for name in names)]
        session = Session.new(rules, seats, seed, autosave=False)
        fast_forward(session, lambda s: False)
        write_save(home / "saves" / f"{preset}-{seed}.json", session.to_save())
        out.append(session)
    return out


async def open_stats(app: CardtuiApp, pilot: Any) -> StatsScreen:
    await pilot.pause()
    from textual.widgets import OptionList

    from cardtui.tui.screens.menu import MENU

    app.screen.query_one(OptionList).highlighted = [key for key, _ in MENU].index("stats")
    await pilot.press("enter")
    await pilot.pause()
    await workers_done(app)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, StatsScreen)
    return screen


async def test_statistics_counts_the_saves(home: Path) -> None:
    sessions = play_saves(home, [("hearts", 1), ("hearts", 2), ("spades", 4)])
    hearts_wins = sum(0 in s.game.winners for s in sessions[:2])
    hearts_deals = [r.scores[0] for s in sessions[:2] for r in s.game.deal_records]  # type: ignore[attr-defined]
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_stats(app, pilot)
        assert screen.stats is not None
        rows = {(r["game"], r["opponents"]): r for r in screen.stats.to_json()["rows"]}
        assert rows[("hearts", "easy")]["games"] == 2 and rows[("hearts", "easy")]["wins"] == hearts_wins
        assert rows[("spades", "easy")]["games"] == 1
        shown = str(screen.query_one("#stats-text", Static).render())
        assert shown == render(compute(list_entries()))  # the same table as `cardtui stats`
        # the charts follow Hearts first: a point per finished game, a bar count per deal
        bars = screen.query_one("#stats-points", Chart)._bars
        assert bars is not None and sum(bars[2][1]) == len(hearts_deals)
        assert bars[2] == bin_counts(hearts_deals, 8)
        await pilot.press("g")
        await pilot.pause()
        bars = screen.query_one("#stats-points", Chart)._bars
        assert bars is not None and bars[0].startswith("Spades")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_charts_of_games_of_more_than_one_number_of_players_say_so(home: Path) -> None:
    play_saves(home, [("hearts", 1), ("hearts-3", 2), ("eight-of-spades", 3)])
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_stats(app, pilot)
        note = str(screen.query_one("#stats-chart-note", Static).render())
        assert "; your points per deal; " in note and "games of 3 and 4 players together" in note
        await pilot.press("g")  # Eight of Spades: one score a game, all of four players
        await pilot.pause()
        note = str(screen.query_one("#stats-chart-note", Static).render())
        assert "; your points per game; " in note and "players together" not in note


def test_running_win_rate_is_in_the_order_games_were_written(home: Path) -> None:
    play_saves(home, [("hearts", 1), ("hearts", 2), ("hearts", 3)])
    games = played(list_entries(), "hearts")
    wins = [g.won for g in games]
    assert running_win_rate(games) == [sum(wins[: i + 1]) / (i + 1) for i in range(3)]


async def test_statistics_with_no_games_says_so() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_stats(app, pilot)
        assert str(screen.query_one("#stats-note", Static).render()) == EMPTY
        assert not screen.query_one("#stats-charts").display


# ---------------------------------------------------------------- snapshots (README pictures)


async def test_snapshot_spades_deal_end(snapshot: Any, tmp_path: Path) -> None:
    session = sample_at_deal_end(tmp_path, "spades.json", 7)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.push_screen(DealEndScreen(session, session.game.deal_records[-1]))  # type: ignore[attr-defined]
            await shot(snapshot, app, pilot, "deal_end_spades.svg")
    finally:
        session.close()


async def test_snapshot_score_history(snapshot: Any) -> None:
    loaded = load_save(SAMPLES / "spades.json")
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(HistoryScreen(history_of(loaded.game), loaded.seats))
        await shot(snapshot, app, pilot, "score_history.svg")


async def test_snapshot_statistics(snapshot: Any, home: Path) -> None:
    play_saves(home, [("hearts", 1), ("hearts", 2), ("hearts", 3), ("spades", 4)])
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_stats(app, pilot)
        await shot(snapshot, app, pilot, "statistics.svg")


@pytest.mark.parametrize("key", ["h", "f6"])
async def test_the_game_over_screen_opens_the_score_history(tmp_path: Path, key: str) -> None:
    """At the end of the game the whole history is what one wants to see: h or F6 shows it, Esc comes back."""
    path = tmp_path / "hearts.json"
    path.write_bytes((SAMPLES / "hearts.json").read_bytes())
    session = Session.resume(path)
    assert session.is_over
    app = CardtuiApp(Start(session=session, resumed=True), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        end = await settled_at(pilot, app, GameEndScreen)
        assert "h or F6: the score history" in " ".join(str(s.content) for s in end.query(Static))
        await pilot.press(key)
        await pilot.pause()
        history = app.screen
        assert isinstance(history, HistoryScreen)
        assert len(history.history.deals) == len(session.game.deal_records)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is end


async def test_leaving_the_statistics_while_they_read_the_saves_stops_the_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read went on to the last save after the screen closed, and the app could not quit until it ended
    (SIGTERM waited out its five-second grace over 900 saves)."""
    import cardtui.catalog

    home = tmp_path / "home"
    monkeypatch.setenv("CARDTUI_HOME", str(home))
    (home / "saves").mkdir(parents=True)
    data = (SAMPLES / "spades.json").read_bytes()
    for i in range(400):
        (home / "saves" / f"g{i}.json").write_bytes(data)
    closed = threading.Event()
    after_close: list[Path] = []
    load = cardtui.catalog._load

    def counted(path: Path, st: os.stat_result) -> Any:
        if closed.is_set():
            after_close.append(path)
        return load(path, st)

    monkeypatch.setattr(cardtui.catalog, "_load", counted)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(StatsScreen())
        await drawn_when(pilot, app, lambda text: "Reading new saves" in text)
        closed.set()
        app.pop_screen()
        await workers_done(app)
    await asyncio.get_running_loop().shutdown_default_executor()  # the thread the read ran on, done with it
    # a few may be read while the screen is taken down (its worker is cancelled then); not the rest of the 400
    assert len(after_close) < 50, f"{len(after_close)} saves were read after the screen closed"
