"""The replay of a game of 3, 5 or 6 seats: every seat's hand and the whole trick, from 60x20 up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import Static

from cardtui.api import new_game
from cardtui.games.trick import TrickGame
from cardtui.hand_order import arrange
from cardtui.replay import Replay
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import card_label
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import drawn_when, screen_lines


def rows_of(lines: list[str], region: Region) -> str:
    return "\n".join(line[region.x : region.right] for line in lines[region.y : region.bottom])


def finished_save(tmp_path: Path, game: str, preset: str) -> Path:
    """A whole game of easy computer players under `preset`, saved as a file."""
    played = new_game(game, preset, seed=7)
    while not played.is_over:
        played.apply(played.suggest("easy")["action"])
    path = tmp_path / f"{preset}.json"
    path.write_text(json.dumps(played.to_save()), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("game", "preset", "count"),
    [("hearts", "hearts-3", 3), ("hearts", "hearts-5", 5), ("hearts", "hearts-6", 6), ("cutthroat", "cutthroat-3", 3)],
)
@pytest.mark.parametrize("size", [(60, 20), (100, 30)])
async def test_every_seat_and_the_whole_trick_are_in_sight(
    tmp_path: Path, game: str, preset: str, count: int, size: tuple[int, int]
) -> None:
    app = CardtuiApp(Start(replay_path=finished_save(tmp_path, game, preset)))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.seats) == count
        await pilot.press("home")
        status = str(screen.query_one("#status", Static).content)
        assert "the start" in status and "deal 0" not in status and "after the start" not in status
        played = screen.replay.game
        assert isinstance(played, TrickGame)
        for _ in range(50):  # to the last card of the first trick, every seat's card on the table
            if len(played.view(0).trick) == count - 1:
                break
            await pilot.press("right")
            played = screen.replay.game
            assert isinstance(played, TrickGame)
        trick_cards = played.view(0).trick
        assert len(trick_cards) == count - 1
        await pilot.press("right")  # the trick is whole: every seat's card stays in front of it
        names = [seat.name for seat in screen.seats]
        await drawn_when(pilot, app, lambda t: "took it" in t and all(n in t for n in names))
        lines = screen_lines(app)
        played = screen.replay.game
        assert isinstance(played, TrickGame)
        below = screen.query_one("#review-line").region.y
        hands = screen.query_one("#replay-hands")

        for seat in range(count):  # five hands of ten cards outgrow 60x20: the hands scroll to the last
            hand = screen.query_one(f"#replay-hand-{seat}", Hand)
            hands.scroll_to_widget(hand, animate=False, immediate=True)
            await pilot.pause()
            lines = screen_lines(app)
            region = hand.region
            assert region.width > 0 and region.bottom <= below, (seat, region)
            assert screen.region.contains_region(region), (seat, region)
            drawn = rows_of(lines, region).split("\n")
            assert names[seat] in drawn[0], seat  # the title, then every card held
            parts = (part.lstrip("*") for part in " ".join(drawn[1:]).split())  # `*`: a card the pass brought
            labels = [part for part in parts if part and not set(part) <= set("│╰╯─")]
            assert labels == [card_label(card, False) for card in arrange(played.hand(seat))], seat
        trick = screen.query_one(Trick)
        drawn_trick = rows_of(lines, trick.region)
        _, winner, cards = played.view(0).tricks[-1]
        assert len(cards) == count and f"{names[winner]} took it" in drawn_trick
        for _, card in cards:
            assert card_label(card, False) in drawn_trick, (card, drawn_trick)


@pytest.mark.parametrize(
    ("game", "preset", "named"),
    [("hearts", "hearts-6", "Hearts for six"), ("cutthroat", "cutthroat-3", "Cutthroat Spades for three")],
)
async def test_the_replay_names_the_game_as_the_table_does(tmp_path: Path, game: str, preset: str, named: str) -> None:
    """The table said "Hearts for six" and the replay of the same game said "Hearts"."""
    app = CardtuiApp(Start(replay_path=finished_save(tmp_path, game, preset)))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        status = str(screen.query_one("#status", Static).content)
        assert status.startswith(f" Replay · {named} · action "), status


def save_in_progress(tmp_path: Path, game: str, preset: str) -> Path:
    """A game of easy computer players a few cards into its second deal, saved as a file: its replay shows the
    finished deal only (the status says `finished deals`)."""
    played = new_game(game, preset, seed=7)
    while not played.engine.deal_records or (played.to_move or {}).get("phase") != "play" or len(played.log) % 7:
        played.apply(played.suggest("easy")["action"])
    path = tmp_path / f"{preset}-in-progress.json"
    path.write_text(json.dumps(played.to_save()), encoding="utf-8")
    return path


async def test_six_hands_stay_whole_at_80x24_in_a_game_in_progress(tmp_path: Path) -> None:
    """At 80x24 a six-seat replay of a game in progress wrapped its title onto a second line, and the bottom hand's
    second row of cards fell below the hands' edge."""
    app = CardtuiApp(Start(replay=Replay.open_watchable(save_in_progress(tmp_path, "hearts", "hearts-6"))))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", "right")
        names = [seat.name for seat in screen.seats]
        await drawn_when(pilot, app, lambda t: all(f"{n} · 0 tricks" in t for n in names))
        played = screen.replay.game
        assert isinstance(played, TrickGame)
        status = screen.query_one("#status", Static)
        assert screen.replay.in_progress
        assert status.region.height == 1, str(status.content)  # a second line costs the hands a row
        lines = screen_lines(app)
        below = screen.query_one("#review-line").region.y
        shown = screen.query_one("#replay-hands").region
        for seat in range(len(names)):
            hand = screen.query_one(f"#replay-hand-{seat}", Hand)
            region = hand.region
            assert region.bottom <= min(below, shown.bottom), (seat, region, shown)
            drawn = rows_of(lines, region).split("\n")
            assert names[seat] in drawn[0], seat
            labels = [part.lstrip("*") for part in " ".join(drawn[1:]).split()]
            assert labels == [card_label(card, False) for card in arrange(played.hand(seat))], (seat, drawn)
