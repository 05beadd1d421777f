"""`cardtui play GAME --seats ...`: hot seat from the command line, with the seat words `host` reads."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from cardtui import cli
from cardtui.saves import load_save
from cardtui.seats import Seat, place_names
from cardtui.session import Session
from cardtui.variants import GAMES, find_game
from tests.support.cli import bad, ok
from tests.support.terminal import Tmux, shows


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """What `play` hands to the full-screen app, instead of starting it."""
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(cli, "launch_play", lambda *args: calls.append(args))
    return calls


def test_the_issues_example_seats_two_people_and_two_computer_players(launched: list[tuple[object, ...]]) -> None:
    ok("play", "hearts", "--seats", "you,person:Ann Lee,bot:hard,bot:normal", "--seed", "5")
    ruleset, seats, seed = launched[-1][:3]
    assert seats == [  # two people here: "You" on Ann's screen would be someone else, so `you` is South
        Seat("South", "human"),
        Seat("Ann Lee", "human"),
        Seat("North", "bot", "hard"),
        Seat("East", "bot", "normal"),
    ]
    assert seed == 5 and ruleset.seats == 4  # type: ignore[attr-defined]
    # a person may sit anywhere; `bot` alone plays at --bots' level; words are read in any case
    ok("play", "spades", "--seats", "BOT:easy, Person:Bo ,you,bot", "--bots", "hard")
    assert launched[-1][1] == [
        Seat("South", "bot", "easy"),
        Seat("Bo", "human"),
        Seat("North", "human"),
        Seat("East", "bot", "hard"),
    ]
    ok("play", "cutthroat", "--seats", "bot,you,person:Cy")
    assert [s.name for s in launched[-1][1]] == ["Player 1", "Player 2", "Cy"]  # type: ignore[attr-defined]
    ok("play", "hearts", "--seats", "bot,you,bot,bot")  # alone with computer players, `you` is You
    assert [s.name for s in launched[-1][1]] == ["South", "You", "North", "East"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_every_game_and_player_count_takes_a_seat_list(entry: object, launched: list[tuple[object, ...]]) -> None:
    from cardtui.variants import GameEntry

    assert isinstance(entry, GameEntry)
    level = entry.levels[0]
    for count in entry.seat_counts:
        words = ["you", "person:Ann"] + [f"bot:{level}"] * (count - 2)
        ok("play", entry.name, "--seats", ",".join(words))
        ruleset, seats = launched[-1][:2]
        assert ruleset.seats == count and find_game(ruleset.game) is entry  # type: ignore[attr-defined]
        assert isinstance(seats, list) and [s.kind for s in seats] == ["human", "human"] + ["bot"] * (count - 2)
        assert [s.name for s in seats[:2]] == [place_names(count)[0], "Ann"] and {s.level for s in seats[2:]} <= {level}
        Session.new(ruleset, seats, 1).close()  # type: ignore[arg-type]  # the seats a new game takes


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["cutthroat", "--seats", "you,person:Ann"], "--seats: Cutthroat Spades takes 3 to 4 players, not 2"),
        (["hearts", "--seats", "you,bot"], "--seats: Hearts takes 3 to 6 players, not 2"),
        (["spades", "--seats", "you,bot,bot"], "--seats: Spades has 4 seats, found 3"),
        (["eight-of-spades", "--seats", ",".join(["you"] + ["bot"] * 8)], "2 to 8 players"),
        (["hearts", "--seats", "you,bot:godlike,bot,bot"], "--seats: unknown level 'godlike' — choose one of easy"),
        (["eight-of-spades", "--seats", "you,bot:normal"], "unknown level 'normal' — choose one of easy, classic"),
        (["hearts", "--seats", "bot,bot:hard,bot,bot"], "--seats: no person's seat; put you or person:NAME"),
        (["hearts", "--seats", "you,you,bot,bot"], "`you` may be given once"),
        (["hearts", "--seats", "you,open,bot,bot"], "expected you, person or person:NAME, bot or bot:LEVEL"),
        (["hearts", "--seats", "you,chair:3,bot,bot"], "found 'chair:3'"),
        (["hearts", "--seats", "you,person:,bot,bot"], "seat 1: a name is 1..40 printable characters"),
        (["hearts", "--seats", "you,person:" + "x" * 70 + ",bot,bot"], "a name is 1..40 printable characters"),
        (["hearts", "--seats", "you,bot,person:west,bot"], 'seats 1 and 2 are both named "west"'),
        (["hearts", "--seats", "you,bot,bot,bot", "--players", "3"], "--players says 3 and --seats lists 4"),
        (["chess", "--seats", "you,bot"], "unknown game 'chess'"),
        (["hearts", "--seats", ""], "expected you, person or person:NAME, bot or bot:LEVEL for each seat, found ''"),
        (["hearts", "--seats", "you,person:Ann,bot:,bot"], "seat 2: `bot:` needs a level after the colon"),
    ],
)
def test_a_bad_seat_list_is_one_line_and_exit_2(
    args: list[str], match: str, launched: list[tuple[object, ...]]
) -> None:
    bad("play", *args, match=match)
    assert not launched


def test_host_reads_seats_with_the_same_reading() -> None:
    bad("host", "hearts", "--seats", "you,person:Ann,open,bot", match="expected you, open, bot or bot:LEVEL")
    bad("host", "hearts", "--seats", "open,bot,person:south,bot", match="expected you, open, bot or bot:LEVEL")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_with_seats_hands_the_keyboard_over_in_a_real_terminal(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    tmux = Tmux(tmp_path / "home")
    try:
        seats = "you,person:Ann,bot:easy,bot:easy"
        tmux.start("hot", f"play hearts --seats {seats} --seed 3 --speed instant --save {shlex.quote(str(save))}")
        # two people share the keyboard: even the first turn waits for its person to take it
        tmux.wait("hot", shows("ress any key when"), "the hand-over to you asking for a key", 30)
        tmux.keys("hot", "Space")
        tmux.wait("hot", shows("Chosen (0/3)"), "your pass dialog", 30)
        loaded = load_save(save)
        assert [s.name for s in loaded.seats] == ["South", "Ann", "North", "East"]
        assert [s.kind for s in loaded.seats] == ["human", "human", "bot", "bot"]
        for k, card in enumerate(list(loaded.game.hand(0))[:3], 1):  # type: ignore[attr-defined]
            tmux.keys("hot", card.code.lower(), "Enter")
            tmux.wait("hot", shows(f"Chosen ({k}/3)"), f"card {k} chosen", 30)
        tmux.keys("hot", "Enter")
        tmux.wait("hot", shows("Pass the keyboard to Ann"), "the hand-over to Ann", 30)
        tmux.wait("hot", shows("press any key"), "the hand-over to ask for a key", 30)
        tmux.keys("hot", "Space")
        screen = tmux.wait("hot", shows("Ann's hand"), "Ann's pass", 30)
        assert not any(c.glyph in screen for c in load_save(save).game.hand(0)), screen  # type: ignore[attr-defined]
    finally:
        tmux.close()
