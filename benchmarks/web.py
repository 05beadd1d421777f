"""The browser face's speed and size, printed as JSON, in a real headless chromium on loopback.

page_open_to_menu_s: a new tab at `cardtui serve`'s address until the menu is on its terminal (the
page, its scripts, the app process starting, the first frame); median of 5 tabs, one at a time.
key_to_screen_ms: measured inside the page, from the key's keydown to the first terminal output
xterm.js has parsed after it (what the browser then draws): the menu (Down/Up alternately) and a
`host --web` seat's pass dialog (Right along the cards); median and 90th percentile of 40 presses.
Target: median <= 50 ms. tab_memory_mb: the resident memory (RSS and USS) of one served tab's app
process with the menu shown, and of a seat's `cardtui join` process at its pass.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.browser import Browser, Page  # noqa: E402

WATCH = """
(() => {
  const t = window.cardtuiTerminal;
  window.cardtuiKeyAt = null; window.cardtuiLatency = [];
  t.textarea.addEventListener("keydown", () => { window.cardtuiKeyAt = performance.now(); }, true);
  t.onWriteParsed(() => {
    if (window.cardtuiKeyAt !== null) {
      window.cardtuiLatency.push(performance.now() - window.cardtuiKeyAt); window.cardtuiKeyAt = null;
    }
  });
  return true;
})()
"""


async def start(*args: str) -> tuple[asyncio.subprocess.Process, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardtui", *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    text = ""
    async with asyncio.timeout(30):
        while not (found := re.search(r"http://127\.0\.0\.1:\d+[\w/-]*", text)):
            text += (await process.stdout.readline()).decode()
    return process, found.group(0)


async def stop(process: asyncio.subprocess.Process) -> None:
    process.terminate()
    await process.wait()


async def presses(page: Page, keys: list[str], count: int = 40) -> list[float]:
    """Latencies of `count` presses cycling through `keys`, each waited for before the next."""
    await page.evaluate(WATCH)
    for n in range(count):
        await page.key(keys[n % len(keys)])
        deadline = time.monotonic() + 10
        while len(await page.evaluate("window.cardtuiLatency")) <= n:
            if time.monotonic() > deadline:
                raise RuntimeError("a key changed nothing on the screen")
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)  # let the repaint settle before the next key
    return [float(x) for x in await page.evaluate("window.cardtuiLatency")]


def memory(pid: int) -> dict[str, float]:
    info = psutil.Process(pid).memory_full_info()
    return {"rss_mb": round(info.rss / 2**20, 1), "uss_mb": round(info.uss / 2**20, 1)}


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 1),
        "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
        "max": round(ordered[-1], 1),
    }


async def main() -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="cardtui-web-bench-"))
    os.environ["CARDTUI_HOME"] = str(home)
    (home / "settings.toml").write_text('speed = "instant"\n', encoding="utf-8")
    browser = await Browser.launch()
    result: dict[str, object] = {}
    try:
        server, url = await start("serve", "--port", "0")
        try:
            opens = []
            for _ in range(5):
                began = time.monotonic()
                page = await browser.new_page(url)
                await page.wait(lambda s: "New game" in s and "Statistics" in s, "the menu")
                opens.append(time.monotonic() - began)
                await browser.close_page(page)
                while psutil.Process(server.pid).children():
                    await asyncio.sleep(0.02)
            page = await browser.new_page(url)
            await page.wait(lambda s: "New game" in s and "Statistics" in s, "the menu")
            (tab,) = psutil.Process(server.pid).children()
            result["page_open_to_menu_s"] = {"median": round(statistics.median(opens), 2), "runs": len(opens)}
            result["key_to_screen_ms"] = {"menu": summary(await presses(page, ["ArrowDown", "ArrowUp"]))}
            result["tab_memory_mb"] = {"menu": memory(tab.pid)}
        finally:
            await stop(server)
        save = home / "bench.json"
        host, link = await start(
            "host", "hearts", "--seats", "open,bot:easy,bot:easy,bot:easy", "--seed", "1", "--save", str(save), "--web"
        )
        try:
            page = await browser.new_page(link)
            await page.wait(lambda s: "Chosen (0/3)" in s, "the seat's pass")
            (seat,) = psutil.Process(host.pid).children()
            latency = result["key_to_screen_ms"]
            assert isinstance(latency, dict)
            latency["seat_pass_dialog"] = summary(await presses(page, ["ArrowRight"]))
            tab_memory = result["tab_memory_mb"]
            assert isinstance(tab_memory, dict)
            tab_memory["seat"] = memory(seat.pid)
        finally:
            await stop(host)
    finally:
        await browser.close()
    result["target_key_median_ms"] = 50
    return result


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=2))
