"""The app and a network seat in a real browser: headless chromium opens `cardtui serve` and `host --web` pages,
types card codes, clicks, resizes and reads the terminal back; a `join` seat in tmux plays at the same table.

Every wait polls the page, the save or the process table within a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.request import urlopen

import psutil
import pytest

from cardtui.cards import Card
from cardtui.games.base import Pass, Play
from cardtui.rules import load_preset
from cardtui.saves import LoadedSave, load_save
from cardtui.session import Session
from tests.support.browser import Browser, Page
from tests.support.net import seats_of
from tests.support.terminal import Tmux, app_pid, polls

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = ROOT / "tests" / "snapshots" / "browser_seat.png"
"""The README's picture of a browser seat; `--snapshot-update` writes the one this run takes."""


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    opened = await Browser.launch()
    try:
        yield opened
    finally:
        await opened.close()


def chosen(k: int) -> Callable[[str], bool]:
    """The pass dialog's count says `k` of 3 cards are chosen."""
    return lambda screen: f"Chosen ({k}/3)" in screen


class Served:
    """A cardtui server process (`serve` or a headless `host --web`) and the lines it printed first."""

    def __init__(self, process: asyncio.subprocess.Process, lines: list[str]) -> None:
        self.process = process
        self.lines = lines

    @classmethod
    async def start(cls, *args: str, wanted: int = 1) -> Served:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardtui", *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=None
        )
        assert process.stdout is not None
        lines: list[str] = []
        async with asyncio.timeout(30):
            while len([line for line in lines if re.search("https?://", line)]) < wanted:
                line = (await process.stdout.readline()).decode()
                assert line, f"the server ended before saying where it serves: {lines}"
                lines.append(line)
        return cls(process, lines)

    def links(self) -> list[str]:
        return [url for line in self.lines for url in re.findall(r"https?://127\.0\.0\.1:\d+[\w/-]*", line)]

    def tabs(self) -> list[psutil.Process]:
        """The app processes this server runs for its tabs (its children)."""
        return [p for p in psutil.Process(self.process.pid).children() if p.is_running()]

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.terminate()
            try:
                async with asyncio.timeout(10):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


@pytest.fixture
async def servers() -> AsyncIterator[list[Served]]:
    started: list[Served] = []
    try:
        yield started
    finally:
        for served in started:
            children: list[psutil.Process] = []
            if served.process.returncode is None:
                with contextlib.suppress(psutil.NoSuchProcess):
                    children = psutil.Process(served.process.pid).children(recursive=True)
            await served.stop()
            for child in children:
                if child.is_running():
                    child.kill()


def instant(home: Path) -> None:
    """The settings file the terminal app would write: computer players move at once."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text('speed = "instant"\n', encoding="utf-8")


def find(screen: str, text: str) -> tuple[int, int]:
    """The (column, row) where `text` starts on the screen."""
    for row, line in enumerate(screen.splitlines()):
        if (column := line.find(text)) >= 0:
            return column, row
    raise AssertionError(f"{text!r} is not on the screen:\n{screen}")


def position(save: Path, after: int, seats: set[int]) -> LoadedSave:
    """The save once it holds more than `after` actions and one of `seats` is to move (or the game ended)."""
    for _ in polls(30):
        loaded = load_save(save)
        tm = loaded.game.to_move
        # People pass at once, in any order; a save caught while the passes are being logged is passed over.
        choosers = loaded.game.choosers()
        between = 0 < len(choosers) < 4
        if len(loaded.log) > after and not between and (tm is None or tm.seat in seats or set(choosers) & seats):
            return loaded
    raise AssertionError(f"the table never moved past action {after}")


async def async_position(save: Path, after: int, seats: set[int]) -> LoadedSave:
    return await asyncio.to_thread(position, save, after, seats)


async def pass_in_page(page: Page, cards: list[Any], click_last: bool = False) -> None:
    """Choose the pass's cards by typed codes (the last by a click on it, if asked), then pass with Enter."""
    await page.wait(lambda s: "Chosen (0/3)" in s, "the pass")
    for k, card in enumerate(cards, 1):
        if click_last and k == len(cards):
            # The pass dialog's own row of cards, the first on the screen (the hand panel is behind the dialog).
            screen = await page.steady(chosen(k - 1), "the pass")
            glyph = re.compile(rf"(?<!\d){re.escape(card.glyph)}")
            row, line = next((r, line) for r, line in enumerate(screen.splitlines()) if glyph.search(line))
            match = glyph.search(line)
            assert match is not None
            await page.click_cell(match.start(), row)
        else:
            await page.type(card.code.lower())
            await page.key("Enter")
        await page.wait(chosen(k), f"card {k} chosen")
    await page.key("Enter")


async def test_a_served_tab_plays_hearts_by_typed_codes_a_click_and_a_resize(
    browser: Browser, servers: list[Served], home: Path
) -> None:
    instant(home)
    served = await Served.start("serve", "--port", "0")
    servers.append(served)
    (url,) = served.links()
    page = await browser.new_page(url)
    await page.wait(lambda s: "New game" in s and "Statistics" in s, "the menu")
    shown = await page.screen()
    assert shown is not None and (shown["cols"], shown["rows"]) > (80, 24)
    # A narrower window: the page refits its terminal and the app draws the menu again at the new width.
    await page.resize(700, 560)
    await page.wait(lambda s: "New game" in s and max(map(len, s.splitlines())) < shown["cols"], "the narrower menu")
    await page.resize(1000, 620)
    await page.steady(lambda s: "New game" in s and max(map(len, s.splitlines())) == shown["cols"], "the wide menu")
    await page.key("Enter")
    form = await page.steady(lambda s: "Start (ctrl+s)" in s, "the new game form")
    await page.click_cell(*find(form, "Start (ctrl+s)"))
    await page.wait(lambda s: "Chosen (0/3)" in s, "the pass of a new Hearts game")
    (save,) = (home / "saves").glob("*.json")
    loaded = load_save(save)
    cards = sorted(loaded.game.view(0).hand)[:3]  # type: ignore[attr-defined]
    await pass_in_page(page, cards, click_last=True)
    loaded = await async_position(save, len(loaded.log), {0})
    (passed,) = [a for a in loaded.log if isinstance(a, Pass) and a.seat == 0]
    assert sorted(passed.cards) == cards
    await page.wait(lambda s: "Your turn" in s, "the first play")
    card = next(a.card for a in loaded.game.legal_actions() if isinstance(a, Play))
    await page.type(card.code)
    await page.key("Enter")
    after = await async_position(save, len(loaded.log), {0})
    assert Play(0, card) in after.log
    await page.wait(lambda s: card.glyph in s and "Your turn" in s, "the card on the table and the next turn")
    # `!` claims where the browser keeps F5 for itself: this early, the claim is refused with its reason.
    await page.type("!")
    await page.wait(lambda s: "Claim refused" in s, "the claim's answer")


async def test_a_seat_link_is_one_tab_and_its_process_ends_with_the_tab(
    browser: Browser, servers: list[Served], tmp_path: Path
) -> None:
    save = tmp_path / "web.json"
    served = await Served.start(
        "host", "hearts", "--seats", "open,bot:easy,bot:easy,bot:easy", "--seed", "5", "--save", str(save), "--web"
    )
    servers.append(served)
    (link,) = served.links()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/seat/[\w-]{22,}", link)
    base = link.split("/seat/")[0]
    # An unknown token, and the bare address: a plain page each, naming no seat and no save.
    for address, said in ((f"{base}/seat/nottheseat", "No seat at this table has that link"), (base, "your seat")):
        with pytest.raises(HTTPError) as refused:
            await asyncio.to_thread(urlopen, address, timeout=10)
        assert refused.value.code == 404 and said in refused.value.read().decode()
    wrong = await browser.new_page(f"{base}/seat/{'A' * 22}")
    assert "No seat at this table has that link" in await wrong.body_text()

    page = await browser.new_page(link)
    await page.wait(lambda s: "Chosen (0/3)" in s, "the seat's pass")
    # `/` talks where the browser keeps ctrl+t for a new tab; Esc sends nothing and the pass comes back.
    await page.type("/")
    await page.wait(lambda s: "Say to the table" in s, "the talk line")
    await page.key("Escape")
    await page.wait(lambda s: "Chosen (0/3)" in s and "Say to the table" not in s, "the pass again")
    (tab,) = served.tabs()
    token = link.split("/seat/")[1]
    assert tab.cmdline()[-2:] == ["join", "--no-menu"] and not any(token in part for part in tab.cmdline())
    # The newest tab takes the seat, as joining again does: it says so, and the older one says the seat was left.
    again = await browser.new_page(link)
    assert "this page takes it over" in await again.body_text()
    await again.wait(lambda s: "Chosen (0/3)" in s, "the seat's pass in the newer tab")
    deadline = time.monotonic() + 15
    while not (await page.screen() or {}).get("ended"):
        assert time.monotonic() < deadline, "the older tab never closed"
        await asyncio.sleep(0.05)
    assert "opened in another tab" in await page.body_text()
    await browser.close_page(page)
    await browser.close_page(again)
    deadline = time.monotonic() + 15
    while tab.is_running() and tab.status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the tab's process outlived its tab"
        await asyncio.sleep(0.05)
    # The seat waits: the link opens it again in a new tab.
    back = await browser.new_page(link)
    await back.wait(lambda s: "Chosen (0/3)" in s, "the seat's pass again")
    # Stopped with ctrl+c, the host says how to open the table again as it was, its seats' pages included.
    served.process.send_signal(signal.SIGINT)
    assert served.process.stdout is not None
    async with asyncio.timeout(20):
        said = (await served.process.stdout.read()).decode()
    assert f"cardtui host --resume {save} --web`" in said


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
async def test_a_browser_seat_and_a_terminal_seat_play_a_trick(
    browser: Browser, servers: list[Served], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    save = tmp_path / "friends.json"
    served = await Served.start(
        "host",
        "hearts",
        "--seats",
        "open,open,bot:easy,bot:easy",
        "--seed",
        "3",
        "--save",
        str(save),
        "--web",
        wanted=2,
    )
    servers.append(served)
    lines = "".join(served.lines)
    (west,) = re.findall(r"seat 1 \(.*?\): cardtui join (ws://127\.0\.0\.1:\d+/#[\w-]+)", lines)
    south_link = re.findall(r"seat 0 \(.*? or open (http://\S+)", lines)[0]
    tmux = Tmux(tmp_path / "home")
    try:
        tmux.start("west", f"join '{west}' --speed instant")
        page = await browser.new_page(south_link)
        loaded = await async_position(save, 0, {0, 1})
        while not loaded.game.is_over and not loaded.game.view(0).tricks:  # type: ignore[attr-defined]
            tm = loaded.game.to_move
            assert tm is not None
            before = len(loaded.log)
            if tm.phase == "pass":
                # Both people pass at once; the cards move (and the save grows) when both have chosen.
                for seat in set(loaded.game.choosers()) & {0, 1}:
                    cards = sorted(loaded.game.view(seat).hand)[:3]  # type: ignore[attr-defined]
                    if seat == 0:
                        await pass_in_page(page, cards)
                    else:
                        await asyncio.to_thread(tmux.wait, "west", lambda s: "Chosen (0/3)" in s, "west's pass")
                        for k, card in enumerate(cards, 1):
                            tmux.keys("west", *card.code.lower(), "Enter")
                            await asyncio.to_thread(tmux.wait, "west", chosen(k), f"west's card {k}")
                        tmux.keys("west", "Enter")
            else:
                card = next(a.card for a in loaded.game.legal_actions() if isinstance(a, Play))
                if tm.seat == 0:
                    await page.wait(lambda s: "Your turn" in s, "south's turn")
                    await page.type(card.code)
                    await page.key("Enter")
                else:
                    await asyncio.to_thread(tmux.wait, "west", lambda s: "Your turn" in s, "west's turn")
                    tmux.keys("west", *card.code, "Enter")
            loaded = await async_position(save, before, {0, 1})
        assert loaded.game.view(0).tricks  # type: ignore[attr-defined]
        await page.wait(lambda s: "takes the trick" in s, "the trick in the browser's log")
        await asyncio.to_thread(tmux.wait, "west", lambda s: "takes the trick" in s, "the trick in west's log")
        picture = await page.screenshot(tmp_path / "seat.png")
        assert picture.startswith(b"\x89PNG") and len(picture) > 10_000
        if request.config.getoption("--snapshot-update", default=False):
            SCREENSHOT.write_bytes(picture)
    finally:
        tmux.close()


async def test_a_full_server_says_so_and_a_socket_from_another_site_is_refused(
    browser: Browser, servers: list[Served]
) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    served = await Served.start("serve", "--port", "0", "--tabs", "1")
    servers.append(served)
    (url,) = served.links()
    page = await browser.new_page(url)
    await page.wait(lambda s: "New game" in s, "the menu")
    with pytest.raises(HTTPError) as full:
        await asyncio.to_thread(urlopen, f"{url}/?status", timeout=10)
    assert full.value.code == 503 and "at most 1 tab at once" in full.value.read().decode()
    second = await browser.new_page(url)
    await second.shown_text(lambda t: "All tabs are taken" in t and "at most 1 tab at once" in t, "the full server")
    # Another site's page may not drive the app through the visitor's browser.
    socket_url = url.replace("http://", "ws://") + "/ws"
    with pytest.raises(InvalidStatus) as refused:
        async with connect(socket_url, origin="http://elsewhere.example"):  # type: ignore[arg-type]
            pass
    assert refused.value.response.status_code == 403
    assert len(served.tabs()) == 1


def test_without_chromium_the_browser_tests_fail_saying_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support.browser import chromium

    monkeypatch.setenv("PATH", "")
    monkeypatch.delenv("CARDTUI_CHROMIUM", raising=False)
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install chromium"):
        chromium()


async def test_with_tls_the_seat_page_is_https_and_its_process_joins_over_wss(
    browser: Browser,
    servers: list[Served],
    tmp_path: Path,
    certificate: tuple[Path, Path],
) -> None:
    cert, key = certificate
    served = await Served.start(
        "host",
        "hearts",
        "--seats",
        "open,bot:easy,bot:easy,bot:easy",
        "--seed",
        "5",
        "--save",
        str(tmp_path / "tls.json"),
        "--web",
        "--tls-cert",
        str(cert),
        "--tls-key",
        str(key),
    )
    servers.append(served)
    assert "cardtui join wss://127.0.0.1:" in "".join(served.lines)
    (link,) = served.links()
    assert link.startswith("https://127.0.0.1:")
    with pytest.raises((URLError, ConnectionError)):  # plain http on the TLS port is no page
        await asyncio.to_thread(urlopen, link.replace("https://", "http://"), timeout=10)
    page = await browser.new_page("about:blank")
    await page.call("Security.setIgnoreCertificateErrors", ignore=True)  # the browser trusts the test's certificate
    await page.goto(link)
    await page.wait(lambda s: "Chosen (0/3)" in s, "the seat's pass over https and wss")


async def test_a_tabs_process_ends_when_its_server_is_killed(servers: list[Served]) -> None:
    """kill -9 leaves the server no chance to end its tabs: each tab's app ends itself when its server is gone."""
    from websockets.asyncio.client import connect

    served = await Served.start("serve", "--port", "0", "--tabs", "1")
    servers.append(served)
    (url,) = served.links()
    origin = url.rstrip("/")
    async with connect(origin.replace("http://", "ws://") + "/ws", origin=origin) as tab:  # type: ignore[arg-type]
        await tab.send(json.dumps(["resize", {"width": 80, "height": 24}]))
        async with asyncio.timeout(30):
            while not served.tabs():
                await tab.recv()
        (app,) = served.tabs()
        served.process.kill()
        await served.process.wait()
        await asyncio.to_thread(app.wait, 15)  # psutil.TimeoutExpired if it outlives its server


async def test_a_tab_whose_app_is_killed_is_closed_and_its_place_is_free(servers: list[Served]) -> None:
    """The tab's app dies (kill -9): its page's socket closes, so the page says so, and a new tab may open."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    served = await Served.start("serve", "--port", "0", "--tabs", "1")
    servers.append(served)
    (url,) = served.links()
    origin = url.rstrip("/")
    socket_url = origin.replace("http://", "ws://") + "/ws"
    async with connect(socket_url, origin=origin) as tab:  # type: ignore[arg-type]
        await tab.send(json.dumps(["resize", {"width": 80, "height": 24}]))
        async with asyncio.timeout(30):
            while not served.tabs():
                await tab.recv()
        (app,) = served.tabs()
        app.kill()
        with pytest.raises(ConnectionClosed):
            async with asyncio.timeout(15):
                while True:
                    await tab.recv()
    async with connect(socket_url, origin=origin) as again:  # type: ignore[arg-type]
        await again.send(json.dumps(["resize", {"width": 80, "height": 24}]))
        async with asyncio.timeout(30):
            while not served.tabs():
                await again.recv()


def last_trick_to_play(save: Path) -> Card:
    """A one-deal Hearts game saved where South (an open seat) plays the deal's last card; that card."""
    session = Session.new(load_preset("hearts").replace(max_deals=1), seats_of("p,easy,easy,easy"), 5, save)
    while True:
        game = session.game
        if game.is_chance:
            session.apply(session.chance_action())
            continue
        tm = game.to_move
        assert tm is not None
        hand = sorted(game.view(0).hand)  # type: ignore[attr-defined]
        if tm.seat == 0 and tm.phase == "play" and len(hand) == 1:
            session.save()
            session.close()
            last: Card = hand[0]
            return last
        session.apply(game.legal_actions()[0])


async def test_a_browser_seat_sees_its_game_end_and_then_that_the_table_closed(
    browser: Browser, servers: list[Served], tmp_path: Path
) -> None:
    """The seat plays the deal's last card: its page shows the end, not the trick before it, and on leaving the
    page says the game has ended (its server is gone), not to reload."""
    save = tmp_path / "end.json"
    card = last_trick_to_play(save)
    served = await Served.start("host", "--resume", str(save), "--web")
    servers.append(served)
    (link,) = served.links()
    page = await browser.new_page(link)
    await page.wait(lambda s: "Your turn" in s, "the last turn")
    await page.type(card.code)
    await page.key("Enter")
    await page.wait(lambda s: "End of deal" in s, "the end of the deal")
    assert served.process.stdout is not None
    async with asyncio.timeout(30):
        while "stay open until their tabs close" not in "".join(served.lines):
            line = (await served.process.stdout.readline()).decode()
            assert line, f"the host ended while its seat's tab was open: {served.lines}"
            served.lines.append(line)
    shown = await page.screen()
    assert shown is not None and not shown["ended"] and "End of deal" in shown["text"]
    assert served.process.returncode is None
    await page.ctrl("q")
    said = await page.shown_text(lambda t: "ended" in t, "the page's last word")
    assert "Reload" not in said and "closed" in said
    async with asyncio.timeout(20):
        assert await served.process.wait() == 0


async def test_three_reloads_in_a_row_each_open_the_seat_and_the_one_tab_server(
    browser: Browser, servers: list[Served], home: Path
) -> None:
    instant(home)
    served = await Served.start("serve", "--port", "0", "--tabs", "1")
    host = await Served.start("host", "hearts", "--seats", "open,bot:easy,bot:easy,bot:easy", "--seed", "5", "--web")
    servers.extend([served, host])
    (url,) = served.links()
    (link,) = host.links()
    for address, ready in ((url, "New game"), (link, "Chosen (0/3)")):
        await reloads_open(browser, address, ready)


async def reloads_open(browser: Browser, address: str, ready: str) -> None:
    """Open `address`, then reload it three times: each time the terminal shows `ready` again."""
    page = await browser.new_page(address)
    await page.wait(lambda s: ready in s, "the first opening")
    for n in range(3):
        await page.reload()
        await page.wait(lambda s: ready in s, f"reload {n + 1}")
        shown = await page.screen()
        assert shown is not None and not shown["ended"], f"reload {n + 1} was refused"


async def test_the_first_resize_fits_the_table_in_the_window(
    browser: Browser, servers: list[Served], home: Path
) -> None:
    instant(home)
    served = await Served.start("serve", "--port", "0")
    servers.append(served)
    (url,) = served.links()
    page = await browser.new_page(url, 1280, 800)
    await page.wait(lambda s: "New game" in s, "the menu")
    await page.resize(700, 560)
    fits = (
        "(() => { const t = window.cardtuiTerminal, r = t.element.querySelector('.xterm-screen')"
        ".getBoundingClientRect(); return r.bottom <= window.innerHeight && r.right <= window.innerWidth; })()"
    )
    deadline = time.monotonic() + 10
    while not await page.evaluate(fits):
        assert time.monotonic() < deadline, f"the terminal is larger than the window: {await page.screen()}"
        await asyncio.sleep(0.05)
    await page.steady(lambda s: "New game" in s, "the menu at the new size")
    assert await page.evaluate(fits)


async def test_the_first_enter_at_the_menu_opens_a_new_game(
    browser: Browser, servers: list[Served], home: Path
) -> None:
    instant(home)
    served = await Served.start("serve", "--port", "0")
    servers.append(served)
    (url,) = served.links()
    page = await browser.new_page(url)
    await page.steady(lambda s: "New game" in s and "Statistics" in s, "the menu")
    await page.key("Enter")
    await page.wait(lambda s: "Start (ctrl+s)" in s, "the new game form", 10)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
async def test_when_the_host_quits_its_browser_seat_shows_the_table_gone(browser: Browser, tmp_path: Path) -> None:
    """A host playing a seat presses ctrl+q: the browser seat says the table is gone (no cut-off page), and the
    host keeps the page until its tab closes."""
    save = tmp_path / "quit.json"
    tmux = Tmux(tmp_path / "home")
    try:
        tmux.start("host", f"host hearts --seats you,open,bot:easy,bot:easy --seed 5 --save {save} --web")
        lobby = await asyncio.to_thread(tmux.wait, "host", lambda s: "/seat/" in s, "the lobby's link")
        (link,) = re.findall(r"http://127\.0\.0\.1:\d+/seat/[\w-]+", lobby)
        host = psutil.Process(app_pid(tmux, "host"))
        page = await browser.new_page(link)
        await page.wait(lambda s: "Chosen (0/3)" in s, "the seat's pass")
        tmux.keys("host", "Escape")
        await asyncio.to_thread(tmux.wait, "host", lambda s: "lobby" not in s, "the host's table")
        tmux.keys("host", "C-q")
        await page.wait(lambda s: "The table is gone: the host closed the table" in s, "the table gone")
        await asyncio.to_thread(tmux.wait, "host", lambda s: "until their tabs close" in s, "the host waiting")
        shown = await page.screen()
        assert shown is not None and not shown["ended"] and host.is_running()
        await browser.close_page(page)
        await asyncio.to_thread(host.wait, 20)  # psutil.TimeoutExpired if the host outlives the seat's tab
    finally:
        tmux.close()
