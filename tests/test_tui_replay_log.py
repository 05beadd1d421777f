"""The replay shows the pass (received cards marked in each hand) and a log of this deal's actions beside the table."""

from __future__ import annotations

from pathlib import Path

from cardtui.cards import parse_card
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.log import GameLog

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def cards(codes: str) -> set[object]:
    return {parse_card(code) for code in codes.split()}


async def test_the_replay_marks_received_cards_and_logs_the_deal_up_to_the_position() -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / "hearts.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("home", *["right"] * 6)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        lines = screen.query_one(GameLog).lines()
        assert lines[0] == "Deal 1: West deals."
        assert "South passes 7♣ Q♣ A♠ to West." in lines and lines[-1] == "East plays 2♣."
        west = screen.query_one("#replay-hand-1", Hand)
        assert west.received == cards("7C QC AS"), "the cards West received are marked"
        assert "* 7♣" in str(west.render())
        await pilot.press("left")
        await pilot.pause()
        assert screen.query_one(GameLog).lines()[-1] == "East passes A♦ 10♥ K♠ to South.", "only up to the position"
        await pilot.press("pagedown", "right")
        await pilot.pause()
        assert screen.query_one(GameLog).lines()[0].startswith("Deal 2: "), "the log is this deal's"
