"""In a real terminal (tmux): a save open in one terminal is refused in a second, and SIGTERM or SIGHUP
end the app with the terminal restored. Every wait polls within a deadline."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from cardtui.saves import load_save
from cardtui.tui.app import SIGNAL_GRACE
from tests.support.terminal import Tmux, app_pid, on_pty, polls

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def pane_flags(tmux: Tmux, name: str) -> str:
    return tmux.run("display-message", "-p", "-t", name, "#{alternate_on} #{mouse_any_flag}").strip()


def test_a_save_open_in_one_terminal_is_refused_in_another(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "saves").mkdir(parents=True)
    save = home / "saves" / "dup.json"
    save.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    tmux = Tmux(home)
    try:
        tmux.start("one", f"resume {shlex.quote(str(save))}")
        tmux.wait("one", lambda s: "Your turn" in s, "the first terminal's game")
        tmux.start("two", f"resume {shlex.quote(str(save))}; echo exit=$?")
        text = "".join(tmux.wait("two", lambda s: "exit=" in s, "the second terminal's answer").split())
        refused = "dup.json: the game is open in another cardtui; close it there first"
        assert "".join(refused.split()) in text  # spaces dropped: where the line wraps depends on the path
        assert "exit=2" in text and "Traceback" not in text
        tmux.keys("one", "C-q")
        tmux.wait("one", lambda s: "Game saved in" in s, "the first terminal's exit")
        tmux.start("three", f"resume {shlex.quote(str(save))}")
        tmux.wait("three", lambda s: "Your turn" in s, "the game, free again")
        tmux.keys("three", "C-q")
    finally:
        tmux.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_ends_the_app_with_the_terminal_restored(tmp_path: Path, sig: signal.Signals) -> None:
    tmux = Tmux(tmp_path / "home")
    try:
        tmux.start("play", "play hearts --seed 7 --speed instant; echo exit=$?")
        tmux.wait("play", lambda s: "Chosen (0/3)" in s, "the pass")
        assert pane_flags(tmux, "play").startswith("1 ")  # the app is in the alternate screen
        (save,) = (tmp_path / "home" / "saves").glob("*.json")
        actions = len(load_save(save).log)
        os.kill(app_pid(tmux, "play"), sig)
        text = tmux.wait("play", lambda s: "exit=" in s, "the app to end")
        assert "Game saved in" in text and "Traceback" not in text
        assert f"exit={128 + sig}" in text, "the shell hears that a signal ended it"
        assert pane_flags(tmux, "play") == "0 0"  # normal screen, mouse reporting off
        assert len(load_save(save).log) == actions
        assert not list(save.parent.glob(".*.lock"))
    finally:
        tmux.close()


def test_sighup_ends_an_app_whose_terminal_stopped_reading(tmp_path: Path) -> None:
    """A terminal that vanished mid-quit left the app waiting on its output for ever: the event loop blocked
    behind Textual's full output queue, so a handler run by the loop never ran. Here nobody reads the app's
    terminal while keys make it redraw, until its main thread waits on that queue; SIGHUP must still end it."""
    process, master = on_pty(["play", "hearts", "--seed", "7", "--speed", "instant"], tmp_path, (200, 60))
    os.set_blocking(master, False)
    try:
        drawn = b""
        for _ in polls(30):
            with contextlib.suppress(BlockingIOError):
                drawn += os.read(master, 65536)
            if b"Chosen" in drawn:
                break
        assert b"Chosen" in drawn, "the pass was never drawn"
        waits = 0
        for _ in polls(30):
            with contextlib.suppress(BlockingIOError):
                os.write(master, b"\x1b[C\x1b[D")
            main = Path(f"/proc/{process.pid}/wchan").read_text()
            waits = waits + 1 if "futex" in main else 0
            if waits == 3:
                break
        assert waits == 3, "the app's main thread never came to wait on its output"
        os.kill(process.pid, signal.SIGHUP)
        sent = time.monotonic()
        status = process.wait(SIGNAL_GRACE + 10)
        assert status == 128 + signal.SIGHUP
        assert time.monotonic() - sent < SIGNAL_GRACE + 5
        (save,) = (tmp_path / "saves").glob("*.json")
        assert load_save(save).log, "the save is whole"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(master)


def test_an_app_that_fails_exits_with_a_failing_status(tmp_path: Path) -> None:
    """Textual shows the error; the shell hears of it too (it used to get status 0)."""
    tmux = Tmux(tmp_path / "home")
    fail = "import cardtui.tui.app as a, cardtui.cli as c; a.CardtuiApp.on_mount = lambda self: 1 / 0; c.main()"
    line = f"env CARDTUI_HOME={shlex.quote(str(tmux.home))} {shlex.quote(sys.executable)} -c {shlex.quote(fail)}"
    try:
        tmux.run("new-session", "-d", "-s", "fail", "-x", "100", "-y", "30", f"{line}; echo exit=$?; read x")
        text = tmux.wait("fail", lambda s: "exit=" in s, "the app to end")
        assert "ZeroDivisionError" in text and "exit=1" in text
    finally:
        tmux.close()
