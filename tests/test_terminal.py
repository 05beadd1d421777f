"""A real terminal: `cardtui play hearts --seed 7` in tmux, cards typed with send-keys, ctrl+q, then
`cardtui resume` on the save shows the same position. Every wait polls capture-pane within a deadline."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from cardtui.games.base import Play, ToMove
from cardtui.hand_order import arrange
from cardtui.saves import LoadedSave, load_save
from tests.support.terminal import Tmux, polls, saved_past, shows

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def hand_line(screen: str) -> str:
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if "Your hand" in line:
            return lines[i + 1].strip()
    raise AssertionError(f"no hand on screen:\n{screen}")


def my_turn(tmux: Tmux, save: Path) -> LoadedSave:
    """Poll the save until seat 0 is to play: the app wrote it and is waiting for our keys."""
    for _ in polls(20):
        loaded = load_save(save)
        if loaded.game.to_move == ToMove(0, "play"):
            return loaded
    raise AssertionError(f"seat 0 never got the turn; the screen shows:\n{tmux.screen('play')}")


def test_play_quit_and_resume_in_tmux(tmp_path: Path) -> None:
    tmux = Tmux(tmp_path / "home")
    try:
        tmux.start("play", "play hearts --seed 7 --speed instant")
        tmux.wait("play", lambda s: "Chosen (0/3)" in s, "the pass")
        (save,) = (tmp_path / "home" / "saves").glob("*.json")
        loaded = load_save(save)
        for k, card in enumerate(list(loaded.game.hand(0))[:3], 1):  # type: ignore[attr-defined]
            tmux.keys("play", card.code.lower(), "Enter")
            tmux.wait("play", shows(f"Chosen ({k}/3)"), f"card {k} chosen")
        tmux.keys("play", "Enter")
        for _ in range(3):
            loaded = my_turn(tmux, save)
            legal = [a for a in loaded.game.legal_actions() if isinstance(a, Play) and a.seat == 0]
            before = len(loaded.log)
            tmux.keys("play", legal[0].card.code, "Enter")
            tmux.wait("play", saved_past(save, before), "the play")
        loaded = my_turn(tmux, save)
        expected = "   ".join(c.glyph for c in arrange(loaded.game.hand(0)))  # type: ignore[attr-defined]
        shown = tmux.wait("play", lambda s: expected in " ".join(hand_line(s).split()).replace(" ", "   "), "the hand")
        position = hand_line(shown)
        tmux.keys("play", "C-q")
        done = tmux.wait("play", lambda s: "Resume it with: cardtui resume" in s, "the exit message")
        match = re.search(r"cardtui resume (\S+)", done.replace("\n", ""))
        assert match is not None and Path(match.group(1)) == save
        tmux.start("resume", f"resume {shlex.quote(str(save))}")
        again = tmux.wait("resume", lambda s: "Your turn" in s and hand_line(s) == position, "the same hand")
        assert "You to play" in again
        tmux.keys("resume", "C-q")
        tmux.wait("resume", lambda s: "Game saved in" in s, "the second exit")
    finally:
        tmux.close()
