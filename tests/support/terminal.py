"""Helpers of the real-terminal tests: the app in a private tmux server, read as a person reads it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from cardtui.saves import load_save

ROOT = Path(__file__).resolve().parents[2]
POLL_GAP = 0.02
"""Seconds between two looks at a terminal, a save or a process: a look spawns a process or replays a save, and
looking without a gap takes the CPU the app under test needs to get there."""


def polls(seconds: float) -> Iterator[None]:
    """Yield once a look until `seconds` have passed, with `POLL_GAP` between looks; the caller's loop ends
    with its AssertionError when this runs out."""
    deadline = time.monotonic() + seconds
    while True:
        yield
        if time.monotonic() >= deadline:
            return
        time.sleep(POLL_GAP)


class Tmux:
    def __init__(self, home: Path) -> None:
        self.socket = f"cardtui-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.home = home

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False).stdout

    def start(self, name: str, command: str) -> None:
        env = f"CARDTUI_HOME={shlex.quote(str(self.home))} TEXTUAL_CURSOR_BLINK=0"
        line = f"cd {shlex.quote(str(ROOT))} && env {env} {shlex.quote(sys.executable)} -m cardtui {command}; read x"
        self.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", line)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def wait(self, name: str, ok: Callable[[str], bool], what: str, seconds: float = 20) -> str:
        text = ""
        for _ in polls(seconds):
            text = self.screen(name)
            if ok(text):
                return text
        raise AssertionError(f"waited {seconds}s for {what}; the screen shows:\n{text}")

    def close(self) -> None:
        self.run("kill-server")


def on_pty(
    args: list[str], home: Path, size: tuple[int, int], stderr: int | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """`cardtui ARGS` on a new pseudo-terminal of (columns, rows), in a session of its own: the process and the
    terminal's master end (the caller reads it, and closes it). Its stderr goes to `stderr` (a second terminal's
    end) or to the same terminal."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    for end in (slave, stderr) if stderr is not None else (slave,):
        fcntl.ioctl(end, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    env = {**os.environ, "CARDTUI_HOME": str(home), "TERM": "xterm-256color", "TEXTUAL_CURSOR_BLINK": "0"}
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtui", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave if stderr is None else stderr,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(slave)
    return process, master


def app_pid(tmux: Tmux, name: str) -> int:
    """The cardtui process in a pane: the pane's shell's child (polled until it has started)."""
    shell = int(tmux.run("display-message", "-p", "-t", name, "#{pane_pid}").strip())
    for _ in polls(20):
        for task in Path(f"/proc/{shell}/task").iterdir():
            children = (task / "children").read_text().split()
            if children:
                return int(children[0])
    raise AssertionError("cardtui never started in the pane")


def shows(text: str) -> Callable[[str], bool]:
    """A test for `Tmux.wait`: the screen shows `text`."""
    return lambda screen: text in screen


def saved_past(save: Path, n: int) -> Callable[[str], bool]:
    """A test for `Tmux.wait`: the save's log holds more than `n` actions (the app wrote the move)."""
    return lambda _screen: len(load_save(save).log) > n
