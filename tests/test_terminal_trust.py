"""In a real terminal (tmux): a save open in one terminal is refused in a second, and SIGTERM or SIGHUP
end the app with the terminal restored. Every wait polls within a deadline."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import sys
from pathlib import Path

import pytest

from cardtui.saves import load_save
from tests.support.terminal import Tmux, app_pid

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
        text = tmux.wait("two", lambda s: "exit=" in s, "the second terminal's answer").replace("\n", "")
        assert "dup.json: the game is open in another cardtui; close it there first" in text
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
