"""`cardtui serve` and `host --web` at their edges, without a browser: IPv6 addresses, a failed start, malformed
requests, TLS keys it cannot use, a seat page's words, a used-up or taken-over seat link."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect

from cardtui.cli import app
from cardtui.net.protocol import url_of
from cardtui.net.server import Table
from cardtui.net.source import RemoteSource
from cardtui.rules import ruleset_from_dict
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui import web
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.settings import SettingsScreen
from cardtui.tui.settings import Settings
from cardtui.tui.web import QUIT_GRACE, TAKE_OVER, Launch, SeatPages, WebFace
from tests.support.tui import drawn_when, fast_forward, open_table

runner = CliRunner()

STUBBORN = Launch((sys.executable, "-c", "import time; time.sleep(60)"))
"""A tab's process that stands in for an app: it runs until it is ended."""
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


async def until(done: Callable[[], object], within: float, what: str) -> None:
    """Poll `done` until it holds, failing after `within` seconds."""
    deadline = time.monotonic() + within
    while not done():
        assert time.monotonic() < deadline, f"{what} within {within} s"
        await asyncio.sleep(0.02)


async def fetch(url: str) -> tuple[int, str]:
    """A page's status and text (an error status too)."""
    try:
        with await asyncio.to_thread(urlopen, url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except HTTPError as err:
        return err.code, err.read().decode()


# ---------------------------------------------------------------- 1. IPv6 addresses


def test_an_ipv6_address_is_bracketed_in_a_url() -> None:
    assert url_of("http", "::1", 8000) == "http://[::1]:8000"
    assert url_of("ws", "127.0.0.1", 8765) == "ws://127.0.0.1:8765"


async def test_serve_on_ipv6_prints_a_link_that_opens() -> None:
    server = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "cardtui", "serve", "--bind", "::1", "--port", "0"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert server.stdout is not None
    try:
        async with asyncio.timeout(30):
            line = (await server.stdout.readline()).decode()
        found = re.search(r"https?://\S+", line)
        assert found is not None and found.group().startswith("http://[::1]:"), line
        status, text = await fetch(found.group())
        assert status == 200 and "textual.js" in text
    finally:
        server.terminate()
        async with asyncio.timeout(QUIT_GRACE + 10):
            await server.wait()


@pytest.mark.slow  # a table and its seat page over the network
async def test_an_ipv6_tables_seat_page_joins_its_table(tmp_path: Path) -> None:
    """`host --bind ::1 --web`: the invitation and the link are valid URLs, and the seat's process joins."""
    rules = ruleset_from_dict({"game": "hearts"})
    seats = [Seat("South", "human"), Seat("West", "bot", "easy"), Seat("North", "bot", "easy"), Seat("East", "human")]
    table = Table(Session.new(rules, seats, 3, tmp_path / "table.json"))
    await table.open("::1", 0)
    pages = SeatPages("::1", 0)
    try:
        links = await pages.open(table, skip=0)
        assert table.invitations()[3].startswith("ws://[::1]:")
        assert links[3].startswith("http://[::1]:")
        status, _ = await fetch(links[3])
        assert status == 200
        async with connect(links[3].replace("http://", "ws://") + "/ws"):
            await until(lambda: 3 in table.connections, 60, "the browser seat's process joined the table")
    finally:
        await pages.close()
        await table.close()
        table.session.close()


# ---------------------------------------------------------------- 2. a failed start leaves nothing


def test_a_taken_web_port_leaves_no_save_and_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    save = tmp_path / "t.json"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["host", "hearts", "--seats", "bot,open,bot,bot", "--save", str(save), "--web", "--web-port", str(port)]
        result = runner.invoke(app, args)
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port} (--web-port)" in result.output
    assert not save.exists(), "a retry would be refused: the save already exists"
    assert list(temp.iterdir()) == []


async def test_seat_pages_that_cannot_listen_remove_their_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    table = await open_table(tmp_path)
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            pages = SeatPages("127.0.0.1", taken.getsockname()[1])
            with pytest.raises(OSError):
                await pages.open(table)
        assert list(temp.iterdir()) == []
    finally:
        await table.close()
        table.session.close()


# ---------------------------------------------------------------- 3. malformed requests


@pytest.mark.parametrize(
    "head",
    [b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", b"GET / HTTP/1.1\r\nHost: a\x00b\r\n\r\n"],
    ids=["two Host headers", "a NUL in a header"],
)
async def test_a_malformed_request_is_one_line_never_a_traceback(head: bytes) -> None:
    """What `cardtui serve` prints on its console for such a request (and so `host --web`, the same server)."""
    server = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "cardtui", "serve", "--port", "0"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert server.stdout is not None and server.stderr is not None
    try:
        async with asyncio.timeout(30):
            line = (await server.stdout.readline()).decode()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert found is not None, line
        reader, writer = await asyncio.open_connection("127.0.0.1", int(found.group(1)))
        writer.write(head)
        async with asyncio.timeout(10):
            answer = await reader.read()
        writer.close()
        assert re.match(rb"HTTP/1\.[01] 400 ", answer), answer
    finally:
        server.terminate()
        async with asyncio.timeout(QUIT_GRACE + 10):
            _, errors = await server.communicate()
    said = errors.decode()
    lines = [line for line in said.splitlines() if line.strip()]
    assert "Traceback" not in said and "Error handling request" not in said, said
    assert len(lines) == 1 and lines[0].startswith("cardtui: refused a malformed request (400"), said


# ---------------------------------------------------------------- 4. TLS keys cardtui cannot use


@pytest.fixture
def encrypted_key(certificate: tuple[Path, Path], tmp_path: Path) -> Path:
    key = tmp_path / "locked.key"
    subprocess.run(
        ["openssl", "pkey", "-in", str(certificate[1]), "-aes256", "-passout", "pass:secret", "-out", str(key)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return key


@pytest.mark.parametrize("command", ["serve", "host"])
def test_a_passphrase_protected_key_is_refused_without_a_prompt(
    command: str, certificate: tuple[Path, Path], encrypted_key: Path, tmp_path: Path
) -> None:
    """No "Enter PEM pass phrase:" on the terminal (stdin is closed here: a prompt would fail or wait)."""
    args = [command] if command == "serve" else ["host", "hearts", "--save", str(tmp_path / "t.json")]
    done = subprocess.run(
        [sys.executable, "-m", "cardtui", *args, "--tls-cert", str(certificate[0]), "--tls-key", str(encrypted_key)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,  # no terminal of its own to prompt on
        env={**os.environ},
    )
    assert done.returncode == 2
    said = " ".join(done.stderr.split())
    assert f"--tls-key: {encrypted_key} is protected by a passphrase; cardtui needs an unencrypted key" in said
    assert "pass phrase" not in done.stdout + done.stderr and "Traceback" not in said


@pytest.mark.parametrize(
    ("cert", "key", "said"),
    [
        ("folder", "key", "--tls-cert: {folder} is a folder; give the PEM file itself"),
        ("cert", "", "--tls-key: the option is empty; give the path of a PEM file"),
        ("", "key", "--tls-cert: the option is empty; give the path of a PEM file"),
    ],
)
def test_a_tls_option_that_names_no_file_says_why(
    cert: str, key: str, said: str, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    given = {"folder": str(tmp_path), "cert": str(certificate[0]), "key": str(certificate[1]), "": ""}
    result = runner.invoke(app, ["serve", "--tls-cert", given[cert], "--tls-key", given[key]])
    assert result.exit_code == 2
    assert said.format(folder=tmp_path) in " ".join(result.output.split()) and "no such file" not in result.output


# ---------------------------------------------------------------- 6. a browser seat's words


async def test_a_browser_seats_game_over_leave_and_settings_say_whats_true(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXTUAL_DRIVER", WEB_DRIVER)
    table = await open_table(tmp_path)
    async with table:
        remote = await RemoteSource.join(table.invitations()[0])
        seat = CardtuiApp(Start(remote=remote, menu=False), Settings(speed="instant", path=tmp_path / "s.toml"))
        try:
            async with seat.run_test(size=(100, 40)) as pilot:  # tall enough for the settings' last line
                _, question, _ = seat.leave_words()
                assert "open the same link again" in question and "invitation" not in question
                await seat.push_screen(SettingsScreen(seat.settings))
                shown = await drawn_when(pilot, seat, lambda s: "host's table is open" in s)
                assert "host's table is open" in shown
                assert "Remembered in" not in shown and str(tmp_path) not in shown
                seat.pop_screen()
                end = GameEndScreen(finished())
                await seat.push_screen(end)
                shown = await drawn_when(pilot, seat, lambda s: "F1 help" in s)
                assert "q quit  F1 help" in shown and "m menu" not in shown
                assert "menu" not in [button.id for button in end.query("Button")]
                assert not end.check_action("choose", ("menu",))
        finally:
            await remote.close()


def finished() -> Session:
    rules = ruleset_from_dict({"game": "hearts", "end_score": 40, "pass_cycle": ["none"]})
    seats = [Seat("South", "human"), Seat("West", "bot", "easy"), Seat("North", "bot", "easy"), Seat("East", "human")]
    session = Session.new(rules, seats, 5, autosave=False)
    fast_forward(session, lambda s: False)
    assert session.is_over
    return session


async def test_a_seat_page_says_the_seat_was_left_and_its_link_opens_it_again() -> None:
    face = WebFace(seats={"tok": STUBBORN})
    async with face:
        await face.open()
        status, text = await fetch(face.link("tok"))
    assert status == 200 and "This tab's game has ended" not in text
    assert "You have left this seat" in text and "Open the same link again" in text


# ---------------------------------------------------------------- 7. links that open nothing


async def test_serve_has_no_seat_links() -> None:
    face = WebFace(menu=STUBBORN)
    async with face:
        await face.open()
        status, text = await fetch(f"{face.url}/seat/anything")
    assert status == 404 and "This server has no seat links" in text and "ask the host" not in text


async def test_a_seat_link_of_an_ended_game_says_it_has_ended(tmp_path: Path) -> None:
    table = Table(finished())
    await table.open("127.0.0.1", 0)
    pages = SeatPages("127.0.0.1", 0)
    try:
        links = await pages.open(table)
        assert pages.face is not None
        status, text = await fetch(links[3])
        assert status == 410 and "This game has ended" in text
        with pytest.raises(Exception, match="410"):
            async with connect(links[3].replace("http://", "ws://") + "/ws"):
                pass
        assert not pages.face.pids()
    finally:
        await pages.close()
        await table.close()


# ---------------------------------------------------------------- 8. the newest connection takes a seat


async def test_a_newer_tab_takes_a_seat_from_an_older_one_as_joining_again_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web, "QUIT_GRACE", 0.5)  # the tabs' stubborn processes are killed once closed: soon, here
    face = WebFace(seats={"tok": STUBBORN}, limit=1)
    async with face:
        await face.open()
        socket_url = face.link("tok").replace("http://", "ws://") + "/ws"
        _, first_page = await fetch(face.link("tok"))
        assert TAKE_OVER not in first_page
        async with connect(socket_url) as older:
            await until(lambda: face.pids(), 30, "the first tab's process started")
            (first,) = face.pids()
            status, text = await fetch(face.link("tok"))
            assert status == 200 and TAKE_OVER in text
            async with connect(socket_url):
                async with asyncio.timeout(10):
                    await older.wait_closed()
                await until(lambda: face.pids() and first not in face.pids(), 30, "the newer tab holds the seat")
                assert len(face.tabs) == 1


async def test_a_seat_page_says_it_takes_over_a_seat_joined_from_a_terminal(tmp_path: Path) -> None:
    table = await open_table(tmp_path, "pbbp")
    pages = SeatPages("127.0.0.1", 0)
    try:
        links = await pages.open(table)
        _, free = await fetch(links[3])
        assert TAKE_OVER not in free
        remote = await RemoteSource.join(table.invitations()[3])
        try:
            _, taken = await fetch(links[3])
            assert TAKE_OVER in taken
        finally:
            await remote.close()
    finally:
        await pages.close()
        await table.close()
        table.session.close()


# ---------------------------------------------------------------- 9. a malformed message on a tab's socket


async def test_a_lone_surrogate_typed_into_a_tab_is_ignored_and_the_tab_stays_open(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`["stdin", "\\ud800"]` is valid JSON but no text: dropped like any malformed message, not the tab."""
    monkeypatch.setattr(web, "QUIT_GRACE", 0.5)  # the tab's stubborn process is killed at the end: soon, here
    face = WebFace(menu=STUBBORN, limit=1)
    async with face:
        await face.open()
        async with connect(face.url.replace("http://", "ws://") + "/ws") as tab:
            await until(lambda: face.pids(), 30, "the tab's process started")
            await tab.send('["stdin", "\\ud800"]')
            await tab.send('["ping", "still here"]')
            async with asyncio.timeout(10):
                while (answer := await tab.recv()) != '["pong", "still here"]':
                    assert isinstance(answer, bytes), answer  # the process's output, if any, until the pong
            assert len(face.tabs) == 1
    assert "could not answer" not in capsys.readouterr().err
