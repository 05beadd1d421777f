"""Three real terminals at one network table: the host plays South (`--seats you,...`), two friends join
with the lobby's lines, and the three of them pass and play a whole deal of Hearts by typed card codes
(one of them leaving after two tricks and joining again); every wait polls a screen or the host's save
within a deadline."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from cardtui.games.base import Pass, Play
from cardtui.saves import LoadedSave, load_save
from tests.support.terminal import Tmux, polls, shows

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

TERMINAL = {0: "host", 1: "west", 3: "east"}
"""Who types for each person's seat; North (seat 2) is the host's computer player."""


def position(save: Path, after: int, seconds: float = 20) -> LoadedSave:
    """The host's save once it holds more than `after` actions and a person is to move (or the game ended)."""
    for _ in polls(seconds):
        loaded = load_save(save)
        tm = loaded.game.to_move
        # People pass at once, in any order; a save caught while the passes are being logged is passed over.
        choosers = loaded.game.choosers()
        between = 0 < len(choosers) < 4
        person = tm is None or tm.seat in TERMINAL or bool(set(choosers) & TERMINAL.keys())
        if len(loaded.log) > after and not between and person:
            return loaded
    raise AssertionError(f"the table never moved past action {after}")


def take_turn(tmux: Tmux, loaded: LoadedSave) -> None:
    """The person to move types their action in their own terminal, once it asks for it."""
    tm = loaded.game.to_move
    assert tm is not None
    for seat in loaded.game.choosers():  # every person passes at once; the cards move when all have chosen
        if seat in TERMINAL:
            pass_in(tmux, loaded, seat)
    if loaded.game.choosers():
        return
    name = TERMINAL[tm.seat]
    tmux.wait(name, lambda s: "Your turn" in s, f"{name}'s turn")
    card = next(a.card for a in loaded.game.legal_actions() if isinstance(a, Play))
    tmux.keys(name, "C-u", *card.code, "Enter")  # ctrl+u clears what a lost try left in the field


def pass_in(tmux: Tmux, loaded: LoadedSave, seat: int) -> None:
    """The seat's person types its pass (its three lowest cards) in its own terminal."""
    name = TERMINAL[seat]
    tmux.wait(name, lambda s: "Chosen (0/3)" in s, f"{name}'s pass dialog")
    cards = sorted(loaded.game.view(seat).hand)[:3]  # type: ignore[attr-defined]
    loaded.game.with_turn(seat).apply(Pass(seat, tuple(cards)))  # a pass the engine takes
    for k, card in enumerate(cards, 1):
        # The first keys can reach the terminal before the dialog takes them: type again until it shows the card.
        for _ in range(5):
            tmux.keys(name, *card.code.lower(), "Enter")
            try:
                tmux.wait(name, shows(f"Chosen ({k}/3)"), f"{name} choosing card {k}", seconds=2)
                break
            except AssertionError:
                continue
    tmux.keys(name, "Enter")


def play_until(tmux: Tmux, save: Path, done: Callable[[LoadedSave], bool]) -> LoadedSave:
    """Pass and play until `done` says so; every person's action is typed in their terminal."""
    loaded = position(save, 0)
    while True:
        if loaded.game.is_over or done(loaded):
            return loaded
        loaded = turn_taken(tmux, save, loaded)


def turn_taken(tmux: Tmux, save: Path, loaded: LoadedSave) -> LoadedSave:
    """The position after the person to move has acted. Keys sent while a terminal that has just joined again
    is still settling can be lost; the person then types the card again, as anyone would."""
    before = len(loaded.log)
    take_turn(tmux, loaded)
    if not loaded.game.choosers():
        for _ in range(2):
            try:
                return position(save, before, seconds=6)
            except AssertionError:
                take_turn(tmux, loaded)
    return position(save, before)


def test_a_host_and_two_friends_play_by_typed_codes_in_three_terminals(tmp_path: Path) -> None:
    save = tmp_path / "friends.json"
    tmux = Tmux(tmp_path / "home")
    try:
        tmux.start(
            "host",
            f"host hearts --seats you,open,bot:easy,open --seed 3 --save {save} --speed instant",
        )
        lobby = tmux.wait("host", lambda s: s.count("cardtui join ws://127.0.0.1:") == 2, "the lobby")
        west, east = re.findall(r"cardtui join (ws://127\.0\.0\.1:\d+/#[\w-]+)", lobby)
        tmux.keys("host", "Enter")
        for name, line in (("west", west), ("east", east)):
            tmux.start(name, f"join '{line}' --speed instant")
        tmux.wait("host", lambda s: "Your hand" in s and "lobby" not in s, "the host's table")
        loaded = play_until(tmux, save, lambda at: len(at.game.view(0).tricks) >= 2)  # type: ignore[attr-defined]
        for name in TERMINAL.values():
            tmux.wait(name, lambda s: "takes the trick" in s, f"{name}'s log of the tricks")
        tmux.keys("east", "C-q")
        gone = tmux.wait("east", lambda s: "your seat waits" in s, "east leaving")
        assert f"Join again with: cardtui join {east}" in gone.replace("\n", "")
        tmux.wait("host", lambda s: "East left the table;" in s, "the host told East left")
        # East comes back with the same line to the same position, and the three finish the deal.
        tmux.run("kill-session", "-t", "east")
        tmux.start("east", f"join '{east}' --speed instant")
        tmux.wait("east", lambda s: "Your hand" in s, "east back at the table")
        loaded = play_until(tmux, save, lambda at: bool(at.game.deal_records))  # type: ignore[attr-defined]
        (record,) = loaded.game.deal_records  # type: ignore[attr-defined]
        assert sum(1 for a in loaded.log if isinstance(a, Play) and a.seat in TERMINAL) == 39
        for name in TERMINAL.values():
            end = tmux.wait(name, lambda s: "End of deal 1" in s, f"{name}'s end of the deal")
            assert all(str(total) in end for total in record.totals)
        tmux.keys("host", "C-q")
        closed = tmux.wait("host", lambda s: "The table is closed" in s, "the host closing the table")
        # The line re-opens the table as it was: the host's own seat and its options.
        assert f"Open it again with: cardtui host --resume {save} --play 0 --speed instant" in closed.replace("\n", "")
        kept = load_save(save)
        assert kept.log[: len(loaded.log)] == loaded.log and not kept.game.is_over
    finally:
        tmux.close()
