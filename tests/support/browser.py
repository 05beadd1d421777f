"""A small DevTools-protocol client for a headless chromium: open a page, type, click, resize, read the terminal.

The page's terminal is xterm.js inside textual-serve's bundle; a script run
before the page's own catches the terminal object as the page creates it, so
the screen is read from xterm's own buffer (what the player sees, as text).
Every wait has a deadline; `Browser.close` ends chromium and its temp profile.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)
START_TIMEOUT = 30.0
CALL_TIMEOUT = 20.0

CATCH_TERMINAL = """
(() => {
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    set(value) {
      if (value && value.buffer && typeof value.onData === "function") { window.cardtuiTerminal = value; }
      Object.defineProperty(this, "terminal", { value, writable: true, configurable: true, enumerable: true });
    },
  });
})();
"""
"""Run before the page's scripts: the first object that gets a `terminal` xterm keeps it on `window` too."""

SCREEN = """
(() => {
  const t = window.cardtuiTerminal;
  if (!t) { return null; }
  const b = t.buffer.active, lines = [];
  for (let y = 0; y < t.rows; y++) {
    const l = b.getLine(b.viewportY + y);
    lines.push(l ? l.translateToString(true, 0, t.cols) : "");
  }
  return {cols: t.cols, rows: t.rows, text: lines.join("\\n"), ended: document.body.classList.contains("-closed")};
})()
"""

KEYS: dict[str, tuple[str, int, str]] = {
    "Enter": ("Enter", 13, "\r"),
    "Escape": ("Escape", 27, ""),
    "Backspace": ("Backspace", 8, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    "Tab": ("Tab", 9, ""),
    **{f"F{n}": (f"F{n}", 111 + n, "") for n in range(1, 13)},
}
"""Named keys: (DOM code, Windows virtual key code, the text the key types)."""


def chromium() -> str:
    """The chromium to drive, or the test fails saying how to get one (the browser tests never skip)."""
    for name in (os.environ.get("CARDTUI_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and (found := shutil.which(name)):
            return found
    pytest.fail(
        "the browser tests need Debian's chromium and found none: install it with `apt-get install chromium` "
        "(or set CARDTUI_CHROMIUM to a chromium binary)",
        pytrace=False,
    )


class Page:
    """One tab, driven over its own DevTools socket."""

    def __init__(self, socket: ClientConnection, target: str) -> None:
        self.socket = socket
        self.target = target
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.socket:
                message = json.loads(frame)
                future = self._waiting.pop(message.get("id", -1), None)
                if future is not None and not future.done():
                    future.set_result(message)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("the DevTools socket closed"))

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command and its result (an error answer raises)."""
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        await self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, CALL_TIMEOUT)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def goto(self, url: str) -> None:
        await self.call("Page.navigate", url=url)

    async def body_text(self) -> str:
        """The page's text (a plain page's sentence)."""
        deadline = time.monotonic() + CALL_TIMEOUT
        while time.monotonic() < deadline:
            text = await self.evaluate("document.readyState === 'complete' ? document.body.innerText : null")
            if text is not None:
                return str(text)
            await asyncio.sleep(0.05)
        raise AssertionError("the page never finished loading")

    async def screen(self) -> dict[str, Any] | None:
        """The terminal's rows as text, its size, and whether its session ended; None before it exists."""
        found = await self.evaluate(SCREEN)
        return found if isinstance(found, dict) else None

    async def wait(self, ok: Callable[[str], bool], what: str, seconds: float = 30.0) -> str:
        """Poll the terminal's text until `ok` holds; an AssertionError with the last screen after `seconds`."""
        deadline = time.monotonic() + seconds
        text = ""
        while time.monotonic() < deadline:
            shown = await self.screen()
            if shown is not None:
                text = str(shown["text"])
                if ok(text):
                    return text
            await asyncio.sleep(0.02)
        raise AssertionError(f"waited {seconds:g}s for {what}; the page shows:\n{text}")

    async def steady(self, ok: Callable[[str], bool], what: str, seconds: float = 30.0) -> str:
        """Wait until `ok` holds on a screen that no longer changes, so a click lands where the text was read."""
        deadline = time.monotonic() + seconds
        last = ""
        while time.monotonic() < deadline:
            text = await self.wait(ok, what, max(deadline - time.monotonic(), 0.1))
            if text == last:
                return text
            last = text
            await asyncio.sleep(0.2)
        raise AssertionError(f"waited {seconds:g}s for {what} to stop changing; the page shows:\n{last}")

    async def key(self, name: str, modifiers: int = 0) -> None:
        """Press and release a named key (Enter, F5, ArrowLeft...)."""
        code, number, text = KEYS[name]
        down: dict[str, Any] = {"key": code, "code": code, "windowsVirtualKeyCode": number, "modifiers": modifiers}
        await self.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **down)

    async def ctrl(self, letter: str) -> None:
        """ctrl and a letter (ctrl+q...), as the terminal gets it."""
        base = {"key": letter, "code": f"Key{letter.upper()}", "windowsVirtualKeyCode": ord(letter.upper())}
        await self.call("Input.dispatchKeyEvent", type="rawKeyDown", modifiers=2, **base)
        await self.call("Input.dispatchKeyEvent", type="keyUp", modifiers=2, **base)

    async def shown_text(self, ok: Callable[[str], bool], what: str, seconds: float = 30.0) -> str:
        """Poll the page's visible text (a plain page, or a terminal page's notice) until `ok` holds."""
        deadline = time.monotonic() + seconds
        text = ""
        while time.monotonic() < deadline:
            found = await self.evaluate("document.body ? document.body.innerText : null")
            text = str(found or "")
            if ok(text):
                return text
            await asyncio.sleep(0.05)
        raise AssertionError(f"waited {seconds:g}s for {what}; the page says:\n{text}")

    async def type(self, text: str) -> None:
        """Type characters one key at a time, as a person does."""
        for char in text:
            upper = char.upper()
            number = ord(upper) if upper.isalnum() and upper.isascii() else 0
            base = {"key": char, "windowsVirtualKeyCode": number}
            await self.call("Input.dispatchKeyEvent", type="keyDown", text=char, **base)
            await self.call("Input.dispatchKeyEvent", type="keyUp", **base)

    async def click_cell(self, column: int, row: int) -> None:
        """A left click in the middle of one terminal cell."""
        box = await self.evaluate(
            "(() => { const t = window.cardtuiTerminal, r = t.element.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width / t.cols, h: r.height / t.rows}; })()"
        )
        x = box["x"] + (column + 0.5) * box["w"]
        y = box["y"] + (row + 0.5) * box["h"]
        await self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    async def reload(self) -> None:
        """F5 as the browser takes it: the same page again, in the same tab (returns once the new one loaded)."""
        await self.evaluate("window.cardtuiBefore = true")
        await self.call("Page.reload", ignoreCache=False)
        deadline = time.monotonic() + CALL_TIMEOUT
        while not await self.evaluate("window.cardtuiBefore === undefined && document.readyState === 'complete'"):
            assert time.monotonic() < deadline, "the reloaded page never loaded"
            await asyncio.sleep(0.05)

    async def resize(self, width: int, height: int) -> None:
        """Make the window this many CSS pixels (the page refits its terminal and tells the app)."""
        await self.call(
            "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False
        )

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"])
        path.write_bytes(data)
        return data


class Browser:
    """A headless chromium with a fresh profile, listening for DevTools on a free loopback port."""

    def __init__(self, process: asyncio.subprocess.Process, endpoint: str, profile: str) -> None:
        self.process = process
        self.endpoint = endpoint
        self.profile = profile
        self.port = int(re.findall(r":(\d+)/", endpoint)[0])
        self.pages: list[Page] = []
        self.drain: asyncio.Task[None] | None = None

    @classmethod
    async def launch(cls, width: int = 1000, height: int = 620) -> Browser:
        binary = chromium()
        profile = tempfile.mkdtemp(prefix="cardtui-chromium-")
        process = await asyncio.create_subprocess_exec(
            binary,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "about:blank",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert process.stderr is not None
        said: list[str] = []
        try:
            async with asyncio.timeout(START_TIMEOUT):
                while line := (await process.stderr.readline()).decode(errors="replace"):
                    said.append(line)
                    if found := re.search(r"DevTools listening on (ws://\S+)", line):
                        browser = cls(process, found.group(1), profile)
                        browser.drain = asyncio.create_task(cls._drain(process.stderr))
                        return browser
        except TimeoutError:
            pass
        process.kill()
        await process.wait()
        shutil.rmtree(profile, ignore_errors=True)
        raise AssertionError("chromium did not start its DevTools server:\n" + "".join(said[-20:]))

    @staticmethod
    async def _drain(stream: asyncio.StreamReader) -> None:
        """Keep reading chromium's stderr so it never blocks on a full pipe."""
        with contextlib.suppress(Exception):
            while await stream.read(65536):
                pass

    async def _browser_call(self, method: str, **params: Any) -> dict[str, Any]:
        async with connect(self.endpoint, max_size=None, open_timeout=CALL_TIMEOUT) as socket:
            await socket.send(json.dumps({"id": 1, "method": method, "params": params}))
            while True:
                answer = json.loads(await asyncio.wait_for(socket.recv(), CALL_TIMEOUT))
                if answer.get("id") == 1:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    result: dict[str, Any] = answer["result"]
                    return result

    async def new_page(self, url: str, width: int = 1000, height: int = 620) -> Page:
        """A new tab of `width` x `height` CSS pixels that catches its terminal, opened at `url`."""
        target = (await self._browser_call("Target.createTarget", url="about:blank"))["targetId"]
        socket = await connect(
            f"ws://127.0.0.1:{self.port}/devtools/page/{target}", max_size=None, open_timeout=CALL_TIMEOUT
        )
        page = Page(socket, target)
        self.pages.append(page)
        await page.call("Page.enable")
        await page.call("Emulation.setFocusEmulationEnabled", enabled=True)
        await page.call("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
        await page.resize(width, height)
        await page.goto(url)
        return page

    async def close_page(self, page: Page) -> None:
        """Close a tab as a person does (its sockets go with it)."""
        await self._browser_call("Target.closeTarget", targetId=page.target)
        await page.socket.close()
        page._reader.cancel()
        self.pages.remove(page)

    async def close(self) -> None:
        for page in list(self.pages):
            with contextlib.suppress(Exception):
                await page.socket.close()
            page._reader.cancel()
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()
        if self.drain is not None:
            self.drain.cancel()
        shutil.rmtree(self.profile, ignore_errors=True)
