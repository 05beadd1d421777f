"""A real terminal (tmux): two people play a whole hot-seat Hearts deal by typed codes, typing on a moment after
each of their moves as a hurried person does, and no screen shows a card of another person's hand: not the
hand-over, not the next person's first screen, not any frame between. Every wait polls within a deadline; the
only timed pause is the stray key's own delay after a move, which is the input under test."""

from __future__ import annotations

import json
import random
import re
import shlex
import shutil
import time
from pathlib import Path

import pytest

from cardtui.api import new_game
from cardtui.cards import Card
from cardtui.games.base import Pass, Play
from cardtui.games.hearts import HeartsGame
from cardtui.saves import LoadedSave, load_save
from tests.support.terminal import Tmux, app_pid, polls, saved_past, shows

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

PEOPLE = ("Ann", "Bob")
HAND_OVER = re.compile(r"Pass the keyboard to (\w+)")
ASKS = "press any key"
STRAY_KEYS = ("9", "k", "x", "5")


def hot_seat_save(path: Path) -> Path:
    """A Hearts game with two people at the keyboard (seats 0 and 1) and two computer players."""
    seats = [{"name": name, "kind": "human"} for name in PEOPLE]
    seats += [{"name": name, "kind": "bot", "level": "easy"} for name in ("North", "East")]
    path.write_text(json.dumps(new_game("hearts", seed=7, seats=seats).to_save()))
    return path


def game_of(loaded: LoadedSave) -> HeartsGame:
    game = loaded.game
    assert isinstance(game, HeartsGame)
    return game


def secrets_from(loaded: LoadedSave, viewer: int | None) -> set[Card]:
    """The cards `viewer` may not see: the other person's hand, less what the viewer passed to them.

    With no viewer (the hand-over notice itself) every person's hand is secret.
    """
    game = game_of(loaded)
    out: set[Card] = set()
    for seat in range(len(PEOPLE)):
        if seat == viewer:
            continue
        hand = set(game.hand(seat))
        if viewer is not None:
            hand -= set(game.view(viewer).detail.passed)
        out |= hand
    return out


def assert_private(screen: str, secrets: set[Card], where: str) -> None:
    shown = sorted(c.glyph for c in secrets if c.glyph in screen)
    assert not shown, f"{where} shows {', '.join(shown)} of another person's hand:\n{screen}"


def ended_within(pid: int, seconds: float) -> bool:
    """Whether process `pid` ends (or is only a zombie left to reap) within `seconds`."""
    for _ in polls(seconds):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
    return False


def settled(tmux: Tmux, first: str) -> str:
    """The screen once two captures in a row agree: a capture taken while the terminal is being redrawn holds
    the top of the new frame over the bottom of the old one, which no person sees."""
    last = first
    for _ in range(200):
        now = tmux.screen("hot")
        if now == last:
            return now
        last = now
    raise AssertionError(f"the screen never settled; it shows:\n{last}")


def type_on(tmux: Tmux, rng: random.Random) -> None:
    """A hurried person's stray key, 0.05 to 0.3 s after their move (the hand-over may be up by then or not)."""
    time.sleep(rng.uniform(0.05, 0.3))
    tmux.keys("hot", rng.choice(STRAY_KEYS))


def played(tmux: Tmux, save: Path, before: int, card: Card, rng: random.Random) -> None:
    """Type a card, and a stray key after it, until the save holds one more action: a key typed while the table
    is still settling after a hand-over is refused ("not your turn yet"), and typing it again is harmless once it
    has been played."""
    for _ in range(6):
        tmux.keys("hot", "BSpace", "BSpace", "BSpace", card.code, "Enter")
        type_on(tmux, rng)
        try:
            tmux.wait("hot", lambda s: len(load_save(save).log) > before, f"{card.code} to be saved", seconds=10)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{card.code} was never played; the screen shows:\n{tmux.screen('hot')}")


def test_a_hot_seat_deal_in_tmux_never_shows_the_other_persons_cards(tmp_path: Path) -> None:
    save = hot_seat_save(tmp_path / "hot.json")
    tmux = Tmux(tmp_path / "home")
    rng = random.Random(25)
    hand_overs = 0
    viewer = 0  # the person who has the keyboard: Ann until she hands it over
    try:
        tmux.start("hot", f"resume {shlex.quote(str(save))} --speed instant")
        for _ in polls(420):
            screen = tmux.screen("hot")
            loaded = load_save(save)
            if game_of(loaded).deal_records:
                break
            match = HAND_OVER.search(screen)
            if match:
                hand_overs += 1
                # The notice stays up through the last person's stray keys and asks for a key only after them;
                # every frame until then hides both hands.
                while ASKS not in screen:
                    screen = settled(tmux, screen)  # a capture mid-redraw holds the frame before the notice
                    if ASKS in screen:
                        break
                    assert HAND_OVER.search(screen), f"the hand-over ended before it asked for a key:\n{screen}"
                    assert_private(screen, secrets_from(load_save(save), None), "the hand-over notice")
                    screen = tmux.screen("hot")
                screen = settled(tmux, screen)
                assert_private(screen, secrets_from(loaded, None), "the hand-over notice")
                viewer = PEOPLE.index(match.group(1))
                tmux.keys("hot", "Space")
                gone = tmux.wait("hot", lambda s: HAND_OVER.search(s) is None, "the hand-over to end", 60)
                after = settled(tmux, gone)
                assert_private(after, secrets_from(load_save(save), viewer), f"{PEOPLE[viewer]}'s first screen")
                assert "▸" not in after, f"{PEOPLE[viewer]}'s card input holds keys typed before it was theirs"
                # the key that ended the hand-over was for it, not a move: it chose or played nothing
                assert "Chosen (0/3)" in after or "Chosen (" not in after, f"a key chose a card:\n{after}"
                assert len(load_save(save).log) == len(loaded.log), "the key that ended the hand-over made a move"
                continue
            # any frame between hand-overs: the person who has the keyboard sees only what they may
            assert_private(screen, secrets_from(loaded, viewer), f"a screen while {PEOPLE[viewer]} has the keyboard")
            to_move = loaded.game.to_move
            if to_move is None or to_move.seat >= len(PEOPLE) or f"{PEOPLE[to_move.seat]}'s hand" not in screen:
                continue
            legal = loaded.game.legal_actions()
            before = len(loaded.log)
            if to_move.phase == "pass":
                tmux.wait("hot", lambda s: "Chosen (0/3)" in s, "the pass dialog", seconds=60)
                first = next(a for a in legal if isinstance(a, Pass))
                for k, card in enumerate(first.cards, 1):
                    tmux.keys("hot", card.code.lower(), "Enter")
                    tmux.wait("hot", shows(f"Chosen ({k}/3)"), f"card {k} chosen", seconds=60)
                tmux.keys("hot", "Enter")
                type_on(tmux, rng)
                tmux.wait("hot", saved_past(save, before), "the pass to be saved", seconds=60)
            else:
                play = next(a for a in legal if isinstance(a, Play))
                played(tmux, save, before, play.card, rng)
        else:
            raise AssertionError(f"the deal did not end in time; the screen shows:\n{tmux.screen('hot')}")
        # Two passes and 26 plays by two people, with computer players between them: hand-overs both ways.
        assert hand_overs >= 10
        assert sum(1 for a in load_save(save).log if isinstance(a, Play) and a.seat < len(PEOPLE)) == 26
        # The terminal goes away (SIGHUP) at the end of the deal: cardtui ends by itself and the save stays whole.
        pid = app_pid(tmux, "hot")
        tmux.close()
        assert ended_within(pid, 20), f"cardtui (pid {pid}) was still running 20 s after its terminal went away"
        assert game_of(load_save(save)).deal_records
    finally:
        tmux.close()
