"""`cardtui serve` and `host --web` without a browser: options, the seat pages' processes, the lobby's links."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import urlopen

import psutil
import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from cardtui.cli import app
from cardtui.net.protocol import INVITATION_ENV
from cardtui.net.server import Table
from cardtui.net.source import RemoteSource
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui import web
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.messages import BackToMenu
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.lobby import LobbyScreen
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.settings import Settings
from cardtui.tui.web import QUIT_GRACE, Launch, SeatPages, WebFace
from tests.support.tui import drawn_when, make_app, open_table, settle_remote, settled_at

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


STUBBORN = Launch((sys.executable, "-c", "import time; time.sleep(60)"))
"""A tab's process that ignores the request to quit: only the kill after QUIT_GRACE ends it."""


async def until(done: Callable[[], object], within: float, what: str) -> None:
    """Poll `done` until it holds, failing after `within` seconds."""
    deadline = time.monotonic() + within
    while not done():
        assert time.monotonic() < deadline, f"{what} within {within} s"
        await asyncio.sleep(0.02)


@pytest.mark.slow  # another Python process (STUBBORN), and the real QUIT_GRACE waited out
@pytest.mark.parametrize("seat", [False, True], ids=["serve --tabs 1", "seat link"])
async def test_a_reloaded_tab_gets_its_slot_at_once_while_the_old_process_ends(
    seat: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reload closes the only tab's socket and opens another: no "all tabs are taken" or "seat already open"."""
    monkeypatch.setattr(web, "QUIT_GRACE", 2.0)  # long enough to see the old process still ending, short to wait
    face = WebFace(menu=None if seat else STUBBORN, seats={"tok": STUBBORN} if seat else None, limit=1)
    async with face:
        await face.open()
        url = face.url.replace("http://", "ws://") + ("/seat/tok/ws" if seat else "/ws")
        async with connect(url):
            await until(lambda: face.pids(), 10, "the tab's process started")
            (old,) = face.pids()
        await until(lambda: not face.tabs and not face.holders, web.QUIT_GRACE / 2, "the closed tab's slot is free")
        async with connect(url):
            await until(lambda: face.pids() not in ([], [old]), 10, "the new tab's process started")
            assert psutil.pid_exists(old)  # still being ended: asked to quit, killed after QUIT_GRACE
            await until(lambda: not psutil.pid_exists(old), web.QUIT_GRACE + 10, "the old tab's process ended")


def stubborn_processes() -> list[psutil.Process]:
    """This process's children that run STUBBORN and have not exited."""
    found = []
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if child.status() != psutil.STATUS_ZOMBIE and "time.sleep(60)" in " ".join(child.cmdline()):
                found.append(child)
    return found


@pytest.mark.slow  # other Python processes (STUBBORN), each killed after QUIT_GRACE
@pytest.mark.parametrize("seat", [False, True], ids=["serve --tabs 2", "seat link"])
async def test_tabs_opened_and_closed_in_a_loop_never_run_more_processes_than_the_limit(
    seat: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A closed tab's process counts against the limit until it has exited (beyond ENDING_SPARE of them), so tabs
    opened and closed as fast as they go cannot pile up processes: one beyond is told the server is full."""
    monkeypatch.setattr(web, "QUIT_GRACE", 1.0)  # each closed tab's stubborn process is killed 1 s later
    monkeypatch.setattr(web, "RELEASE_WAIT", 0.2)  # a tab with no place is refused soon
    limit = 1 if seat else 2
    face = WebFace(menu=None if seat else STUBBORN, seats={"tok": STUBBORN} if seat else None, limit=limit)
    most, refused = 0, 0
    async with face:
        await face.open()
        url = face.url.replace("http://", "ws://") + ("/seat/tok/ws" if seat else "/ws")
        for _ in range(10):
            try:
                async with connect(url):
                    await until(lambda: face.pids(), 10, "the tab's process started")
                    most = max(most, len(stubborn_processes()))
            except InvalidStatus as full:
                assert full.response.status_code == 503
                refused += 1
            most = max(most, len(stubborn_processes()))
    assert most <= limit + web.ENDING_SPARE and refused > 0, (most, refused)
    assert not stubborn_processes()


def running_children(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.parametrize(
    ("how", "number"),
    [("serve", signal.SIGTERM), ("serve", signal.SIGINT), ("serve", signal.SIGHUP), ("host", signal.SIGTERM)],
)
async def test_a_signal_stops_the_server_and_every_tab_process_it_started(
    how: str, number: signal.Signals, tmp_path: Path
) -> None:
    """A tab is open (a websocket client stands in for the page); the signal ends the server and its tab's process."""
    args = (
        ["serve", "--port", "0", "--tabs", "2"]
        if how == "serve"
        else ["host", "hearts", "--seats", "open,bot,bot,bot", "--save", str(tmp_path / "t.json"), "--web"]
    )
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "cardtui",
        *args,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "CARDTUI_HOME": str(tmp_path)},
    )
    assert server.stdout is not None
    children: list[psutil.Process] = []
    try:
        async with asyncio.timeout(30):
            while not (found := re.search(rb"http://127\.0\.0\.1:\d+(/seat/[\w-]+)?", await server.stdout.readline())):
                pass
        url = found.group().decode().replace("http://", "ws://") + "/ws"
        async with connect(url):
            await until(lambda: running_children(server.pid), 10, "the tab's process started")
            children = running_children(server.pid)
            server.send_signal(number)
            async with asyncio.timeout(QUIT_GRACE + 10):
                await server.wait()
        assert not [child for child in children if child.is_running() and child.status() != psutil.STATUS_ZOMBIE]
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
        for child in children:
            if child.is_running():
                child.kill()


def test_a_taken_web_port_is_named_as_the_web_port(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["host", "hearts", "--seats", "bot,open,bot,bot", "--save", str(tmp_path / "t.json")]
        result = runner.invoke(app, [*args, "--web", "--web-port", str(port)])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port} (--web-port) (" in result.output and "Traceback" not in result.output


async def test_at_60_columns_the_lobby_never_breaks_a_seats_line_or_link() -> None:
    """Copied from the terminal, each must be whole: on a line of its own, scrolled sideways if wider."""
    token = "Xy7-" * 6
    line = f"cardtui join ws://127.0.0.1:45123/#{token}"
    link = f"http://127.0.0.1:45124/seat/{token}"
    seats = [Seat("South", "human"), Seat("West", "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    app, _ = make_app()
    async with app.run_test(size=(60, 30)) as pilot:
        await settled_at(pilot, app, PassScreen)
        app.push_screen(LobbyScreen(seats, {1: line}, 0, [True, False, True, True], {1: link}))
        invitation = line.split(" join ")[1]
        # The join line is wider than the dialog here: once laid out, its invitation is whole on a row of its own.
        screen = await drawn_when(pilot, app, lambda s: "lobby" in s and invitation in s)
        rows = screen.splitlines()
        assert any(link in row for row in rows), screen
        assert any(invitation in row for row in rows), screen
        assert all("ws://" in row or "/seat/" in row for row in rows if "Xy7-" in row), screen


async def test_a_full_server_says_at_most_1_tab(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "QUIT_GRACE", 0.5)  # the tab's stubborn process is killed at the end: soon, here
    face = WebFace(menu=STUBBORN, limit=1)
    async with face:
        await face.open()
        async with connect(face.url.replace("http://", "ws://") + "/ws"):
            await until(lambda: face.pids(), 10, "the tab's process started")
            with pytest.raises(HTTPError) as full:
                await asyncio.to_thread(urlopen, f"{face.url}/?status", timeout=10)
    assert full.value.code == 503 and "at most 1 tab at once;" in full.value.read().decode()


async def test_in_a_browser_tab_the_words_say_what_a_browser_can_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page has a window to enlarge or zoom, and a reload, not a terminal and a `cardtui resume` command."""
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    app, _ = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, PassScreen)
        table = next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))
        (quit_help,) = [words for key, words in table.key_help() if key == "ctrl+q"]
        assert "reload the page and choose Continue the last game" in quit_help and "cardtui resume" not in quit_help
        await pilot.resize_terminal(77, 19)
        shown = await drawn_when(pilot, app, lambda s: "zoom out" in s)
        said = " ".join(shown.split())
        assert "The page has 19 rows, under 20: make the window bigger or zoom out" in said
        assert "77" not in said  # 77 columns are enough: only the short side is named
        assert "The terminal" not in said


def ask(url: str, path: str, host: str, upgrade: bool = False) -> int:
    """The status of a GET of `path` sent to `url`'s server under another name (`host`), as a rebound DNS name is."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=10)
    headers = {"Host": host}
    if upgrade:
        headers |= {
            "Origin": f"http://{host}",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        }
    try:
        connection.request("GET", path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.parametrize("seat", [False, True], ids=["serve", "seat link"])
async def test_on_loopback_a_request_under_another_sites_name_is_refused(seat: bool) -> None:
    """DNS rebinding: another site's name pointed at 127.0.0.1 gets no page and no socket; our own names do."""
    face = WebFace(menu=None if seat else STUBBORN, seats={"tok": STUBBORN} if seat else None, limit=2)
    async with face:
        await face.open()
        port = face.url.rsplit(":", 1)[1]
        page, socket_path = ("/seat/tok", "/seat/tok/ws") if seat else ("/", "/ws")
        evil = f"evil.example:{port}"
        assert await asyncio.to_thread(ask, face.url, page, evil) == 421
        assert await asyncio.to_thread(ask, face.url, socket_path, evil, True) == 421
        assert not face.tabs
        for name in ("127.0.0.1", "localhost"):
            assert await asyncio.to_thread(ask, face.url, page, f"{name}:{port}") == 200


def test_on_every_address_the_links_name_an_address_others_can_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bound to 0.0.0.0, links use this machine's outward address, not a host name that may mean 127.0.0.1."""
    from cardtui.net.server import reachable_name

    class Probe:
        def __init__(self, *args: object) -> None:
            self.to: object = None

        def __enter__(self) -> Probe:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def connect(self, address: object) -> None:
            self.to = address

        def getsockname(self) -> tuple[str, int]:
            return ("192.168.1.23", 40000)

    monkeypatch.setattr(socket, "gethostname", lambda: "myhost")
    monkeypatch.setattr(socket, "socket", Probe)
    assert reachable_name() == "192.168.1.23"

    class Offline(Probe):
        def connect(self, address: object) -> None:
            raise OSError("Network is unreachable")

    monkeypatch.setattr(socket, "socket", Offline)
    assert reachable_name() == "myhost"


async def test_at_60x20_the_lobby_shows_every_token_whole() -> None:
    """A real token at the smallest size: the join line goes on two lines at its one safe place, never cut."""
    token = "Xy7-AbCdEfGhIjKlMnOpQr"
    line = f"cardtui join ws://127.0.0.1:45123/#{token}"
    link = f"http://127.0.0.1:45124/seat/{token}"
    seats = [Seat("South", "human"), Seat("West", "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    app, _ = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settled_at(pilot, app, PassScreen)
        app.push_screen(LobbyScreen(seats, {1: line}, 0, [True, False, True, True], {1: link}))
        screen = await drawn_when(pilot, app, lambda s: "West " in s and "cardtui join \\" in s)
        rows = [row.strip("█▌▐ ") for row in screen.splitlines()]
        assert f"ws://127.0.0.1:45123/#{token}" in rows and link in rows, screen
        assert all(token in row for row in rows if "Xy7" in row), screen
        assert rows[rows.index(f"ws://127.0.0.1:45123/#{token}") - 1] == "cardtui join \\", screen


async def test_in_a_browser_tab_a_closed_table_says_to_close_the_tab(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    table = await open_table(tmp_path)
    remote = await RemoteSource.join(table.invitations()[0])
    app = CardtuiApp(Start(remote=remote), Settings(speed="instant"))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle_remote(pilot, app)
            assert isinstance(app.screen, PassScreen)
            await table.close()
            shown = await drawn_when(pilot, app, lambda s: "The table is gone" in s)
            assert "The table is gone: the host closed the table. ctrl+q: quit, or close this tab" in shown
    finally:
        await remote.close()


async def test_in_a_browser_tab_a_failed_save_is_retried_with_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser takes ctrl+r to reload the page: `@` tries the save again, and the prompt says so."""
    import errno

    from cardtui.tui.widgets.prompt_bar import PromptBar

    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    app, session = make_app(save_path=tmp_path / "g.json")
    monkeypatch.setattr(os, "fsync", full)  # the disk fills once the game has begun
    async with app.run_test(size=(100, 30)) as pilot:
        await drawn_when(pilot, app, lambda s: "Could not save" in s)
        assert "ctrl+r or @: try again" in app.screen.query_one(PromptBar).message
        monkeypatch.setattr(os, "fsync", real_fsync)
        await pilot.press("at")
        await settled_at(pilot, app, PassScreen)
        assert session.log
