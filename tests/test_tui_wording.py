"""Small things read right: who a column names, the standings' order, whose bags, who deals, a hint said once,
the replay's footer whole at 100 columns, and the hand-over speaking to a player named You."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.table import Table
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from cardtui.saves import parse_save
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.deal_end import deal_parts
from cardtui.tui.screens.game_base import reason_without_cards
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.settings import Settings

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def sample(name: str) -> Session:
    return Session.of_save(parse_save(json.loads((SAMPLES / name).read_text()), name))


@pytest.mark.parametrize(
    ("save", "word"), [("hearts.json", "player"), ("cutthroat.json", "player"), ("spades.json", "side")]
)
def test_the_deal_end_calls_a_lone_player_a_player_and_partners_a_side(save: str, word: str) -> None:
    session = sample(save)
    record = session.game.deal_records[-1]  # type: ignore[attr-defined]
    headings = [
        part.columns[0].header
        for part in deal_parts(session, record)
        if isinstance(part, Table) and part.columns and part.columns[0].header in ("side", "player")
    ]
    assert headings and set(headings) == {word}, headings


@pytest.mark.parametrize("save", ["hearts.json", "spades.json", "cutthroat.json"])
async def test_game_over_lists_the_sides_by_rank(save: str) -> None:
    session = sample(save)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = GameEndScreen(session)
        await app.push_screen(screen)
        await pilot.pause()
        table = next(s.content for s in screen.query(Static) if isinstance(s.content, Table))
        scores = [int(str(cell)) for cell in table.columns[1].cells]
        winner = str(next(iter(table.columns[0].cells)))
        assert "★" in winner, "the winner stands first"
        hearts = save == "hearts.json"
        assert scores == sorted(scores, reverse=not hearts), scores


async def test_the_replay_says_whose_bags_and_that_the_deal_comes_next() -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / "spades.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("home")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        info = str(screen.query_one("#replay-info", Static).render())
        assert "next: the deal" in info and "to move" not in info
        await pilot.press("pagedown", "pagedown", "pagedown", "right")
        await pilot.pause()
        scores = str(screen.query_one("#scores", Static).render())
        assert "Bags: S+N 5 · W+E 1" in scores, scores
        keys = [key for key in screen.query(FooterKey)]
        assert keys and all(key.region.right <= 100 for key in keys), "the footer is whole at 100 columns"
        assert any(key.description == "Back" for key in keys)


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("9D", ""),
        ("9D: the lowest heart", "the lowest heart"),
        ("AS KS QS: high spades", "high spades"),
        ("lead low: safe", "lead low: safe"),
    ],
)
def test_a_hint_does_not_repeat_the_cards_it_names(reason: str, said: str) -> None:
    assert reason_without_cards(reason) == said


async def test_the_hand_over_speaks_to_a_player_named_you_as_you() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        hand_over = HotSeatScreen("You")
        await app.push_screen(hand_over)
        await hand_over.accepting.wait()
        said = " ".join(str(s.render()) for s in hand_over.query(Static))
        assert "to You" not in said and "You, press" not in said
        assert "Your turn: take the keyboard." in said and "Press any key" in said


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_spades_deal_end_names_each_bag_figure_and_fits(size: tuple[int, int]) -> None:
    """`bags 1/10 (+4)` left the reader to guess: the bags a side took this deal stand under `new bags`, those it
    carries under `bags (limit 10)`, whole and in sight from 60x20 to 160x50."""
    from cardtui.tui.screens.deal_end import DealEndScreen
    from tests.support.tui import drawn_when

    data = json.loads((SAMPLES / "spades.json").read_text())
    starts = [i for i, a in enumerate(data["log"]) if a["type"] == "deal"]
    data["log"] = data["log"][: starts[7]]  # just after the deal where South + North reached the limit
    session = Session.of_save(parse_save(data, "spades.json"))
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        dialog = DealEndScreen(session, session.game.deal_records[-1])  # type: ignore[attr-defined]
        await app.push_screen(dialog)
        text = await drawn_when(pilot, app, lambda t: "Go on (Enter)" in t)
        assert "new bags" in text and "bags (limit 10)" in text, text
        assert "/10" not in text and "(+" not in text
        assert "South + North reached 10 bags: -100." in text
        assert "Go on (Enter)" in text and dialog.query_one("#deal-end-dialog").max_scroll_y == 0
