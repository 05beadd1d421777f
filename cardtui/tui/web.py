"""The app in a browser tab: a terminal page (textual-serve's) and one app process per tab, run by a fixed command.

Two uses. `cardtui serve` gives every tab the whole app, as `cardtui` alone
would on this machine (same saves and settings). `cardtui host --web` gives
each person's seat a page of its own (`/seat/TOKEN`) whose process is
`cardtui join` with that seat's invitation in its environment: it holds only
that seat's view, as any joined player does. Nothing a browser sends chooses
what runs; a token only picks one of the invitations this process made. The
browser's end: keys, mouse and resizes travel as textual-serve's messages, the
screen comes back as terminal output drawn by xterm.js.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import secrets
import shutil
import signal
import ssl
import sys
import tempfile
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from cardtui.inert import inert
from cardtui.net.protocol import INVITATION_ENV, url_of
from cardtui.net.server import reachable_name

if TYPE_CHECKING:
    from asyncio.subprocess import Process

    from cardtui.net.server import Table

MAX_TABS = 8
"""`cardtui serve`'s default limit of tabs open at once (each one app process)."""
QUIT_GRACE = 5.0
"""Seconds a tab's process has to quit after its tab closes before it is killed."""
ENDING_SPARE = 1
"""Processes of closed tabs, still ending, that may run beyond the limit of tabs.

A closed tab no longer counts against the limit (a reload gets its slot at
once), but its process does until it has exited, beyond this many: so at most
the limit's processes run, plus ENDING_SPARE, however fast tabs open and close.
"""
RELEASE_WAIT = 3.0
"""Seconds a tab's socket waits for its seat (or a slot) held by a tab that is going away.

A reload asks for the new page while the old one still holds the seat: the old
page's socket closes only as the new page replaces it.
"""
END_WAIT = 300.0
"""Seconds a host whose table has closed keeps its seats' pages for the tabs still open, so each shows the end."""
SIZE_LIMIT = (500, 200)
"""The largest terminal (columns, rows) a page may ask for; beyond it the size is clamped."""
STATIC = Path(str(files("textual_serve"))) / "static"


@dataclass(frozen=True)
class Launch:
    """What one tab runs: a fixed argument list (no shell) and what it adds to the environment."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)


def app_command(*args: str) -> tuple[str, ...]:
    """This Python running cardtui with `args`: the same program and install as the one serving."""
    return (sys.executable, "-m", "cardtui", *args)


class TabProcess(AppService):
    """One tab's app process: started from a Launch, ended for sure when its tab goes."""

    def __init__(self, launch: Launch, websocket: web.WebSocketResponse, downloads: DownloadManager) -> None:
        super().__init__(
            " ".join(launch.argv),
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=self._close_page,
            download_manager=downloads,
        )
        self.launch = launch
        self.websocket = websocket

    async def _close_page(self) -> None:
        """The app has quit: close the tab's socket (its page then says the game has ended)."""
        await self.websocket.close()

    async def run(self) -> None:
        """Relay the app's output to its tab; when the output ends, however the app ended (a crash, kill -9),
        close the tab's socket too, so the page says so and the seat is free again."""
        try:
            await super().run()
        finally:
            await self._close_page()

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        """Start the fixed argument list directly (textual-serve would hand a command line to a shell)."""
        env = self._build_environment(width=width, height=height)
        env.update(self.launch.env)
        process = await asyncio.create_subprocess_exec(
            *self.launch.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        self._process = process
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def end(self) -> None:
        """Ask the app to quit; if it has not within QUIT_GRACE seconds, kill it. Either way it is gone after."""
        process = self._process
        if process is None:
            return
        # Not AppService.stop(): its reader swallows the cancellation that the time limit relies on.
        try:
            async with asyncio.timeout(QUIT_GRACE):
                with contextlib.suppress(ConnectionError, OSError):
                    await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
                    await self.send_meta({"type": "quit"})
                await process.wait()
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        if (reader := self._task) is not None:
            await reader  # its output ends with the process
            self._task = None


def tabs_text(count: int) -> str:
    """`1 tab`, `8 tabs`."""
    return f"{count} tab" if count == 1 else f"{count} tabs"


TAB_ENDED = "This tab's game has ended. Reload the page to open it again."
"""What a `cardtui serve` tab says once its app has quit."""
SEAT_LEFT = (
    "You have left this seat, or it was opened in another tab or terminal; the game goes on at the host. "
    "Open the same link again (reload this page) to sit down again."
)
"""What a seat's page says once its process has ended: the seat waits, and its link opens it again."""
TAKE_OVER = (
    "This seat is connected elsewhere (a terminal or another tab): this page takes it over, and that one is told so."
)
"""The line a seat's page shows over its terminal when it takes over a seat that is open elsewhere."""


def page(title: str, websocket_path: str, ended: str = TAB_ENDED, note: str = "") -> str:
    """The terminal page: xterm.js from textual-serve's own files (no internet needed), then the tab's socket.

    When the socket closes, the page asks its own address (`?status`) what became of it: still served (it says
    `ended`: a reload opens it again), refused with a reason (shown), or no answer (the server is gone: the game
    has ended). `note`, if any, shows over the top of the terminal at first.
    """
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<style>
@font-face {{ font-family: "Roboto Mono"; src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf"); }}
html, body {{ height: 100%; overflow: hidden; }}
body {{ background: #0c181f; margin: 0; }}
#terminal {{ position: fixed; inset: 0; }}
.ended {{ display: none; position: absolute; left: 0; right: 0; top: 0; justify-content: center;
  color: #eee; font: 16px "Roboto Mono", monospace; background: rgba(12, 24, 31, 0.95); z-index: 10; }}
body.-told .ended {{ display: flex; }}
.note {{ position: absolute; top: 0; left: 0; right: 0; padding: 4px 8px; color: #111; background: #f0c674;
  font: 14px "Roboto Mono", monospace; z-index: 5; animation: fade 1s 8s forwards; }}
@keyframes fade {{ to {{ opacity: 0; visibility: hidden; }} }}
</style>
<script src="/static/js/textual.js"></script>
</head>
<body>
<div class="ended"><p id="ended"></p></div>
{f'<div class="note" role="status">{html.escape(note)}</div>' if note else ""}
<div id="terminal" class="textual-terminal" data-font-size="16"></div>
<script>
document.getElementById("terminal").dataset.sessionWebsocketUrl =
  (location.protocol === "https:" ? "wss://" : "ws://") + location.host + {websocket_path!r};
let told = false;
new MutationObserver(async () => {{
  const classes = document.body.classList, keys = document.querySelector(".xterm-helper-textarea");
  if (classes.contains("-loaded") && keys && !told) {{
    // The socket is open now: focus the terminal again so the app hears it has the focus from the first key.
    told = true;
    keys.blur();
    keys.focus();
    // The terminal measures its cells again as it resizes: fit once more with the fresh measure, so the first
    // resize (and the first size) fits the window instead of counting rows by the cells of a font not yet loaded.
    const fit = window.onresize;
    if (fit) {{
      window.onresize = (e) => {{ fit(e); requestAnimationFrame(() => fit(e)); }};
      requestAnimationFrame(() => fit());
    }}
  }}
  if (!classes.contains("-closed") || classes.contains("-said")) {{ return; }}
  classes.add("-said");
  let text = "The game has ended and the table is closed; you may close this tab.";
  try {{
    const answer = await fetch(location.pathname + "?status", {{cache: "no-store"}});
    if (answer.ok) {{
      text = {ended!r};
    }} else {{
      const said = new DOMParser().parseFromString(await answer.text(), "text/html");
      text = [...said.querySelectorAll("h1, p")].map((e) => e.textContent).join(" — ");
    }}
  }} catch (err) {{}}
  document.getElementById("ended").textContent = text;
  classes.add("-told");
}}).observe(document.body, {{attributes: true, attributeFilter: ["class"]}});
// Keys go to the game from the start, without a first click on the terminal.
window.addEventListener("load", () => {{ document.querySelector(".xterm-helper-textarea")?.focus(); }});
</script>
</body>
</html>
"""


def notice(title: str, text: str) -> str:
    """A plain page with one sentence: an unknown link, a busy seat, a full server."""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
        f"<body><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>\n"
    )


HEADERS = {
    # A seat link's token is in the address: no page of ours tells another site where it came from.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; img-src 'self' data:; frame-ancestors 'none'",
}


def html_response(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8", headers=HEADERS)


def same_origin(request: web.Request) -> bool:
    """A socket opened by a page of this server (or by a client that sends no Origin), not by another site's page."""
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


class OneLine(logging.Handler):
    """The web server's report of a request it could not answer (a malformed one, say): one short line on
    stderr, never a traceback, its outside text made inert."""

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        code = getattr(error, "code", None)
        if isinstance(code, int) and 400 <= code < 500:
            said = f"refused a malformed request ({code}: {getattr(error, 'message', '') or 'bad request'})"
        else:
            said = f"could not answer a request ({type(error).__name__ if error else record.getMessage()})"
        print(f"cardtui: {inert(said[:200])}", file=sys.stderr)


REQUESTS = logging.getLogger("cardtui.tui.web.requests")
"""Where the web server reports a request it could not answer (see OneLine)."""
REQUESTS.propagate = False
REQUESTS.setLevel(logging.WARNING)
REQUESTS.addHandler(OneLine())


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def host_name(request: web.Request) -> str:
    """The name a request was sent to (its Host header without the port), lower case."""
    return (urlsplit(f"//{request.host}").hostname or "").lower()


def clamp(value: str | None, default: int, top: int) -> int:
    """A terminal dimension from the page's query: a number from 1 to `top`, else the default."""
    try:
        number = int(value or "")
    except ValueError:
        return default
    return min(max(number, 1), top)


class WebFace:
    """An HTTP server of terminal pages: the whole app at `/` (serve), or a page per seat (`host --web`).

    `seats` maps a seat link's token to the Launch of that seat's process;
    without seats, `/` is the app. At most `limit` tabs are open at once and a
    seat's page is open in one tab at a time (a newer tab takes it from an older one, closing it, as joining
    again does at the table); a tab's slot is free as soon as
    its socket closes, while its process is ended in the background.
    """

    def __init__(
        self, *, menu: Launch | None = None, seats: Mapping[str, Launch] | None = None, limit: int = MAX_TABS
    ) -> None:
        self.menu = menu
        self.seats = dict(seats or {})
        self.limit = limit
        self.tabs: set[TabProcess] = set()
        """The tabs whose sockets are open: what the limit counts."""
        self.ending: set[asyncio.Task[None]] = set()
        """The ending of the processes of closed tabs (each asked to quit, killed after QUIT_GRACE)."""
        self.holders: dict[str, TabProcess] = {}
        """The tab that holds each open seat: a newer tab of the same link takes the seat from it."""
        self.over: Callable[[], bool] = lambda: False
        """Whether the seats' game has ended (a seat link then opens a page saying so)."""
        self.elsewhere: Callable[[str], bool] = lambda token: False
        """Whether a seat is connected to its table from somewhere (a terminal, a tab)."""
        self.released = asyncio.Event()
        """Set (then cleared) whenever a tab's socket closes: a reload waiting for its seat looks again."""
        self.closed = False
        """The table these pages serve has closed: no seat opens any more."""
        self.names: set[str] = set()
        """The names this server answers to when it listens on loopback only (empty: any)."""
        self.url = ""
        self.downloads = DownloadManager()
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------ opening and closing

    async def open(
        self, host: str = "127.0.0.1", port: int = 0, url_host: str | None = None, tls: ssl.SSLContext | None = None
    ) -> None:
        """Listen on host:port (0 = a free port); with TLS the pages are https:// and their sockets wss://."""
        app = web.Application(middlewares=[self.named])
        app.add_routes(
            [
                web.get("/", self.front),
                web.get("/ws", self.menu_socket),
                web.get("/seat/{token}", self.seat_page),
                web.get("/seat/{token}/ws", self.seat_socket),
                web.static("/static", STATIC, show_index=False),
            ]
        )
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=QUIT_GRACE, logger=REQUESTS
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, ssl_context=tls)
        await site.start()
        bound = self._runner.addresses[0][1]
        self.url = url_of("https" if tls is not None else "http", url_host or host, bound)
        if host in LOOPBACK:
            self.names = {*LOOPBACK, host.lower(), (url_host or host).lower()}

    @web.middleware
    async def named(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """On loopback, only requests sent to this machine's own names: another site's name that a DNS trick
        points here (DNS rebinding) gets neither a page nor a socket."""
        if self.names and host_name(request) not in self.names:
            return html_response(notice("Wrong address", "This server answers only at its own address."), 421)
        return await handler(request)

    async def finish(self, seconds: float = END_WAIT) -> None:
        """The table has closed: refuse new tabs, and wait (at most `seconds`) for the open ones to close, so each
        seat's page shows its process's last screen (the end, the standings, the table gone) instead of a cut."""
        self.closed = True
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                while self.tabs:
                    await self.released.wait()

    def _release(self) -> None:
        self.released.set()
        self.released.clear()

    def _busy(self, token: str | None = None) -> bool:
        """Whether a new tab (of the seat `token`) must wait: the limit's tabs are open (not counting the seat's
        older tab, which the new one replaces), or the processes running, the ending ones too, would pass the limit
        and ENDING_SPARE."""
        older = token is not None and token in self.holders
        return len(self.tabs) - older >= self.limit or len(self.tabs) + len(self.ending) >= self.limit + ENDING_SPARE

    def _ended(self, ending: asyncio.Task[None]) -> None:
        """A closed tab's process has exited: it no longer counts, and a tab waiting for a place looks again."""
        self.ending.discard(ending)
        self._release()

    async def _free(self, taken: Callable[[], bool]) -> None:
        """Wait, at most RELEASE_WAIT seconds, until `taken()` is false: a reload's old tab is going away."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(RELEASE_WAIT):
                while taken():
                    await self.released.wait()

    async def close(self) -> None:
        """Stop listening and end every tab's process (asked to quit, killed after QUIT_GRACE), then close the tabs."""
        open_tabs = list(self.tabs)
        await asyncio.gather(*(tab.end() for tab in open_tabs), *self.ending, return_exceptions=True)
        for tab in open_tabs:
            await tab.websocket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await asyncio.gather(*self.ending, return_exceptions=True)

    async def __aenter__(self) -> WebFace:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def link(self, token: str) -> str:
        """The address of a seat's page."""
        return f"{self.url}/seat/{token}"

    def pids(self) -> list[int]:
        """The process ids of the open tabs (for tests and the benchmark)."""
        return [pid for tab in self.tabs if (pid := tab.pid) is not None]

    # ------------------------------------------------------------ pages

    def _full(self) -> web.Response:
        return html_response(
            notice(
                "All tabs are taken",
                f"This server runs at most {tabs_text(self.limit)} at once; close one and reload.",
            ),
            503,
        )

    async def front(self, request: web.Request) -> web.Response:
        """The app's page. A full server still gives it (a reload asks while its old tab holds the slot); its
        socket then waits for the slot, and `?status` (asked by a page whose socket closed) says why not."""
        if self.menu is None:
            return html_response(
                notice("cardtui", "Open the link of your seat that the host sent you; this address alone has no page."),
                404,
            )
        if "status" in request.query and self._busy():
            return self._full()
        return html_response(page("cardtui", "/ws"))

    def _seat_of(self, token: str) -> str | None:
        """The seat token that `token` is, compared in constant time, or None."""
        found = None
        for mine in self.seats:
            if secrets.compare_digest(mine.encode(), token.encode("utf-8", "replace")):
                found = mine
        return found

    def _seat_refusal(self, token: str | None, busy: bool = True) -> web.Response | None:
        """Why a seat link cannot open now, as its plain page; None when it can (taking over from an older tab;
        `busy`: a full server is a reason)."""
        if not self.seats:
            return html_response(
                notice("No seat links here", "This server has no seat links; its address alone opens cardtui."), 404
            )
        if token is None:
            return html_response(
                notice("Unknown seat link", "No seat at this table has that link; ask the host for your seat's link."),
                404,
            )
        if self.closed:
            return html_response(
                notice("The game has ended", "This table is closed; its seats' links open nothing any more."), 410
            )
        if self.over():
            return html_response(
                notice("This game has ended", "The game at this table has ended; its seat links open nothing now."),
                410,
            )
        if busy and self._busy(token):
            return self._full()
        return None

    async def seat_page(self, request: web.Request) -> web.Response:
        """The seat's page, even while the seat is open: a reload asks while its old tab still holds the seat (the
        socket waits for it); `?status`, asked by a page whose socket closed, says why it is not open."""
        token = self._seat_of(request.match_info["token"])
        # A page whose seat another tab has taken was not refused for want of a place (the processes of tabs
        # closed meanwhile may still be ending): it says the seat was left or opened elsewhere.
        refused = self._seat_refusal(token, busy="status" in request.query and token not in self.holders)
        if refused is not None:
            return refused
        assert token is not None
        note = TAKE_OVER if token in self.holders or self.elsewhere(token) else ""
        return html_response(page("cardtui: your seat", f"/seat/{token}/ws", SEAT_LEFT, note))

    # ------------------------------------------------------------ sockets

    async def menu_socket(self, request: web.Request) -> web.StreamResponse:
        if self.menu is None or not same_origin(request):
            raise web.HTTPForbidden(text="not a page of this server")
        await self._free(self._busy)
        if self._busy():
            return self._full()
        return await self._run_tab(request, self.menu)

    async def seat_socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            raise web.HTTPForbidden(text="not a page of this server")
        token = self._seat_of(request.match_info["token"])
        if token is not None:
            await self._free(lambda: self._busy(token))
        refused = self._seat_refusal(token)
        if refused is not None:
            return refused
        assert token is not None
        older = self.holders.get(token)
        if older is not None:  # the newest connection takes a seat, as joining again does
            await older.websocket.close(message=b"this seat was opened in another tab")
        return await self._run_tab(request, self.seats[token], token)

    async def _run_tab(self, request: web.Request, launch: Launch, seat: str | None = None) -> web.StreamResponse:
        """Run one tab (of `seat`, if a seat's): start its process, pass the page's keys, mouse and size to it.

        When the tab goes, its slot (and its seat) is free at once; its process is ended in the background.
        """
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 16)
        await websocket.prepare(request)
        width = clamp(request.query.get("width"), 80, SIZE_LIMIT[0])
        height = clamp(request.query.get("height"), 24, SIZE_LIMIT[1])
        tab = TabProcess(launch, websocket, self.downloads)
        self.tabs.add(tab)
        if seat is not None:
            self.holders[seat] = tab
        try:
            await tab.start(width, height)
            await self._relay(websocket, tab)
        finally:
            self.tabs.discard(tab)
            if seat is not None and self.holders.get(seat) is tab:
                del self.holders[seat]
            self._release()
            ending = asyncio.create_task(tab.end())
            self.ending.add(ending)
            ending.add_done_callback(self._ended)
            await websocket.close()
        return websocket

    async def _relay(self, websocket: web.WebSocketResponse, tab: TabProcess) -> None:
        """The page's messages to the process, until the page goes; anything malformed is ignored."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind = envelope[0]
            data = envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                try:
                    keys = data.encode("utf-8")
                except UnicodeEncodeError:
                    continue  # a lone surrogate (valid JSON, not text): no key a terminal could send
                await tab.send_bytes(keys)
            elif kind == "resize" and isinstance(data, dict):
                size = {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)}
                width = min(max(size.get("width", 80), 1), SIZE_LIMIT[0])
                height = min(max(size.get("height", 24), 1), SIZE_LIMIT[1])
                await tab.set_terminal_size(width, height)
            elif kind == "ping" and isinstance(data, str):
                await websocket.send_json(["pong", data[:32]])
            elif kind == "blur":
                await tab.blur()
            elif kind == "focus":
                await tab.focus()


# ---------------------------------------------------------------- the two uses

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def run_until_signal(main: Coroutine[Any, Any, None]) -> bool:
    """Run a server until it ends or SIGINT, SIGTERM or SIGHUP comes; True if a signal stopped it.

    A signal cancels `main`, so its own closing runs and ends the tabs' processes
    it started, instead of the server dying with them left running.
    """

    async def guarded() -> bool:
        loop = asyncio.get_running_loop()
        task = asyncio.ensure_future(main)
        signalled: list[int] = []

        def stop(number: int) -> None:
            if not signalled:
                signalled.append(number)
                task.cancel()

        for number in STOP_SIGNALS:
            loop.add_signal_handler(number, stop, number)
        try:
            await task
        except asyncio.CancelledError:
            if not signalled:
                raise
        finally:
            for number in STOP_SIGNALS:
                loop.remove_signal_handler(number)
        return bool(signalled)

    return asyncio.run(guarded())


async def serve_app(
    host: str, port: int, limit: int, tls: ssl.SSLContext | None, say_url: Callable[[str], None]
) -> None:
    """`cardtui serve`: the whole app in each tab until interrupted; `say_url(url)` is told where."""
    face = WebFace(menu=Launch(app_command()), limit=limit)
    wildcard = host in ("0.0.0.0", "::", "")
    async with face:
        await face.open(host, port, reachable_name() if wildcard else None, tls)
        say_url(face.url)
        await asyncio.Event().wait()


class WebPortError(OSError):
    """The seats' pages could not listen: the fault is --web-port's, not the table's port."""


@dataclass(eq=False)
class SeatPages:
    """`host --web`: a page per person's seat beside a table, its process `cardtui join` with that seat's invitation.

    The host's own seat (if it plays here) has no page. The link's token is
    the seat's own invitation token (128 random bits).
    """

    host: str
    port: int
    url_host: str | None = None
    tls: ssl.SSLContext | None = None
    cert: Path | None = None
    """The table's certificate (with TLS): the one a seat's process trusts, so a self-signed table works."""
    face: WebFace | None = field(default=None, init=False)
    home: str | None = field(default=None, init=False)

    async def open(self, table: Table, skip: int | None = None) -> dict[int, str]:
        """Serve the seats' pages; the link of every person's seat but `skip`, by seat number."""
        trust = {"SSL_CERT_FILE": str(self.cert)} if self.cert is not None else {}
        # The seats' own home: nothing of the host's saves or settings is reachable from a seat's page.
        self.home = tempfile.mkdtemp(prefix="cardtui-web-seats-")
        own = {INVITATION_ENV: "", "CARDTUI_HOME": self.home, **trust}
        lines = table.invitations()
        launches = {
            token: Launch(app_command("join", "--no-menu"), {**own, INVITATION_ENV: lines[seat]})
            for seat, token in table.tokens.items()
            if seat != skip
        }
        self.face = WebFace(seats=launches, limit=len(launches))
        self.face.over = lambda: table.session.is_over
        seats = {token: seat for seat, token in table.tokens.items()}
        self.face.elsewhere = lambda token: seats[token] in table.connections
        try:
            await self.face.open(self.host, self.port, self.url_host, self.tls)
        except OSError as err:
            await self.close()  # a failed start leaves nothing behind: no seats' home, no server
            raise WebPortError(err.errno, err.strerror) from err
        face = self.face
        return {seat: face.link(token) for seat, token in table.tokens.items() if seat != skip}

    def open_tabs(self) -> int:
        return len(self.face.tabs) if self.face is not None else 0

    async def finish(self) -> None:
        """The table has closed: keep the pages while their tabs show the end (at most END_WAIT seconds)."""
        if self.face is not None:
            await self.face.finish()

    async def close(self) -> None:
        if self.face is not None:
            await self.face.close()
            self.face = None
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None
