"""`cardtui serve` and `host --web` without a browser: options, the seat pages' processes, the lobby's links."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui.cli import app
from cardtui.net.protocol import INVITATION_ENV
from cardtui.net.server import Table
from cardtui.net.source import RemoteSource
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.messages import BackToMenu
from cardtui.tui.screens.lobby import LobbyScreen
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.settings import Settings
from cardtui.web import SeatPages
from tests.support.tui import open_table

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["serve", "--tabs", "0"], "--tabs: expected 1..64, found 0"),
        (["serve", "--port", "70000"], "--port: expected 0..65535, found 70000"),
        (["serve", "--tls-cert", "x.pem"], "--tls-cert and --tls-key go together"),
        (["host", "hearts", "--web-port", "8080"], "--web-port is for --web"),
        (["host", "hearts", "--web", "--web-port", "-1"], "--web-port: expected 0..65535, found -1"),
    ],
)
def test_a_wrong_web_option_is_one_sentence(args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output


def test_serve_says_its_limit_of_tabs_in_its_help() -> None:
    result = runner.invoke(app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "at most this many tabs" in result.output


def test_join_without_an_invitation_says_where_to_put_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDTUI_INVITATION", raising=False)
    result = runner.invoke(app, ["join"])
    assert result.exit_code == 2 and "CARDTUI_INVITATION" in result.output


def test_join_takes_its_invitation_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser seat's process gets its invitation there, off its command line; a bad one is refused the same."""
    monkeypatch.setenv("CARDTUI_INVITATION", "http://not-an-invitation")
    result = runner.invoke(app, ["join"])
    assert result.exit_code == 2 and "an invitation looks like ws://HOST:PORT/#TOKEN" in result.output


async def test_seat_pages_run_join_with_only_their_own_seats_invitation(tmp_path: Path) -> None:
    """Each page's process is the same fixed `cardtui join`; the seat's invitation is in its environment alone."""
    seats = [Seat("South", "human"), Seat("West", "human"), Seat("North", "bot", "easy"), Seat("East", "human")]
    table = Table(Session.new(load_preset("hearts"), seats, 3, tmp_path / "table.json"))
    await table.open("127.0.0.1", 0)
    pages = SeatPages("127.0.0.1", 0)
    try:
        links = await pages.open(table, skip=0)
        assert pages.face is not None
        assert set(links) == {1, 3}
        for seat, link in links.items():
            assert link == f"{pages.face.url}/seat/{table.tokens[seat]}"
            launch = pages.face.seats[table.tokens[seat]]
            assert launch.argv == (sys.executable, "-m", "cardtui", "join", "--no-menu")
            assert launch.env == {INVITATION_ENV: table.invitations()[seat], "CARDTUI_HOME": pages.home}
        assert table.tokens[0] not in pages.face.seats  # the host's own seat has no page
    finally:
        await pages.close()
        await table.close()
        table.session.close()


def test_the_lobby_shows_each_seats_link_under_its_invitation() -> None:
    seats = [Seat("South", "human"), Seat("West", "human"), Seat("North", "bot", "easy")]
    lobby = LobbyScreen(seats, {1: "cardtui join ws://h:1/#tok"}, 0, [True, False, True], {1: "http://h:2/seat/tok"})
    lines = lobby.rows().plain.splitlines()
    west = next(i for i, line in enumerate(lines) if line.startswith("West"))
    assert lines[west + 1].strip() == "cardtui join ws://h:1/#tok"
    assert lines[west + 2].strip() == "http://h:2/seat/tok"
    assert len(lines) == west + 4  # North's row follows; no other seat has a link


async def test_a_seat_without_a_menu_leaves_where_the_menu_would_open(tmp_path: Path) -> None:
    """A browser seat's app (`join --no-menu`): the game end's Menu ends it, so its page never shows the saves."""
    table = await open_table(tmp_path)
    async with table:
        remote = await RemoteSource.join(table.invitations()[0])
        app = CardtuiApp(Start(remote=remote, menu=False), Settings(speed="instant"))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                app.post_message(BackToMenu())
                for _ in range(200):
                    await pilot.pause()
                    if app.return_value is not None:
                        break
                assert not any(isinstance(screen, MenuScreen) for screen in app.screen_stack)
        finally:
            await remote.close()
    assert app.return_value == remote.leaving()
