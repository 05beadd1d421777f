"""`cardtui host`: its mistakes are one line and exit 2; a real host process deals a game to a remote player."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui.cli import app
from cardtui.net import Client, Table, play_remote
from cardtui.rules import load_preset
from cardtui.saves import load_save
from cardtui.seats import Seat, named_by_place, seats_from_words
from cardtui.session import Session
from tests.support.net import ROOT, bounded, cardtui_process, host_and_join

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ([], "say which game to host"),
        (["poker"], "unknown game 'poker'"),
        (["hearts", "--seats", "you,you,bot,bot"], "`you` may be given once"),
        (["hearts", "--seats", "you,bot,bot,bot"], "at least one open seat"),
        (["hearts", "--play", "1"], "--play is for --resume"),
        (["hearts", "--speed", "warp"], "--speed: expected one of"),
        (["hearts", "--seats", "open,bot:godlike,bot,bot"], "unknown level 'godlike'"),
        (["hearts", "--seats", "open,chair,bot,bot"], "expected you, open, bot or bot:LEVEL"),
        (["spades", "--seats", "open,bot,bot"], "--seats: Spades has 4 seats, found 3"),
        (["hearts", "--seats", "open,bot"], "--seats: Hearts takes 3 to 6 players, not 2"),
        (
            ["hearts", "--rules", "hearts-5", "--seats", "open,bot,bot"],
            "--seats: the rules hearts-5 are for 5 players, but --seats lists 3",
        ),
        (["hearts", "--seats", "bot,bot,bot,bot"], "at least one open seat"),
        (["eight-of-spades", "--seats", ",".join(["open"] * 9)], "2 to 8 players"),
        (["hearts", "--port", "70000"], "--port: expected 0..65535"),
        (["hearts", "--resume", "x.json"], "--resume takes the game"),
        (["--resume", "missing.json"], "missing.json"),
        (["hearts", "--away", "sleep"], "--away: expected wait or bot:LEVEL, found 'sleep'"),
        (["hearts", "--away", "wait:5"], "--away: expected wait or bot:LEVEL"),
        (["hearts", "--away", "bot:godlike"], "--away: unknown level 'godlike'"),
        (["hearts", "--away", "bot:easy", "--away-after", "-1"], "--away-after: expected seconds from 0 to 86400"),
        (["hearts", "--away-after", "nan"], "--away-after: expected seconds"),
    ],
)
def test_host_mistakes_are_one_line_and_exit_2(args: list[str], match: str) -> None:
    result = runner.invoke(app, ["host", *args])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and match in lines[0] and "Traceback" not in result.stderr, result.stderr


def test_a_table_that_cannot_listen_leaves_no_save_behind(tmp_path: Path) -> None:
    """The save was written first: a retry with the same --save was then refused as a game that exists."""
    save = tmp_path / "t.json"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(
            app, ["host", "hearts", "--seats", "open,bot,bot,bot", "--save", str(save), "--port", str(port)]
        )
        served = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port} (Address already in use)" in result.stderr
    assert not save.exists() and not list(tmp_path.iterdir())
    assert served.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in served.stderr


@pytest.mark.parametrize("command", [["host", "hearts", "--seats", "open,bot,bot,bot"], ["serve"]])
def test_an_empty_bind_is_refused_not_every_interface(command: list[str], tmp_path: Path) -> None:
    """`--bind ''` listened on every interface (and said `on , anyone who can reach this port...`). Another process,
    bounded in time: a command that took it would serve until stopped."""
    env = {**os.environ, "CARDTUI_HOME": str(tmp_path)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cardtui", *command, "--bind", ""],
            capture_output=True,
            text=True,
            timeout=30,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("the command took the empty address and served") from None
    assert done.returncode == 2
    said = "cardtui: --bind: the address is empty; give one like 127.0.0.1 (this machine only) or 0.0.0.0"
    assert done.stderr.startswith(said) and not list(tmp_path.glob("saves/*.json"))


async def test_a_host_process_deals_a_whole_game_to_a_remote_player(tmp_path: Path) -> None:
    save, rules = tmp_path / "net.json", tmp_path / "short.toml"
    rules.write_text('game = "hearts"\nmax_deals = 2\n')
    seats = "bot:easy,open,bot:easy,bot:easy"
    host = await cardtui_process(
        tmp_path, "host", "hearts", "--rules", str(rules), "--seats", seats, "--seed", "4", "--save", str(save)
    )
    assert host.stdout is not None
    try:
        first = (await asyncio.wait_for(host.stdout.readline(), 30)).decode()
        line = (await asyncio.wait_for(host.stdout.readline(), 30)).decode()
        assert first.startswith("hearts table at ws://127.0.0.1:") and str(save) in first
        assert line.startswith("seat 1 (West): cardtui join ws://127.0.0.1:")
        client = await Client.join(line.split("cardtui join ", 1)[1])
        final = await asyncio.wait_for(play_remote(client, "easy"), 60)
        out, err = await asyncio.wait_for(host.communicate(), 30)
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()
    assert host.returncode == 0 and err == b""
    assert final.to_move is None and "game over (score)" in out.decode()
    loaded = load_save(save)
    assert loaded.game.is_over and list(loaded.game.scores) == list(final.totals)  # type: ignore[attr-defined]


async def test_cardtui_join_seats_a_computer_player_with_the_hosts_invitation(tmp_path: Path) -> None:
    """Two real processes: `cardtui host` deals, `cardtui join INVITATION --level easy` plays the open seat."""
    save, rules = tmp_path / "joined.json", tmp_path / "short.toml"
    rules.write_text('game = "hearts"\nmax_deals = 1\n')
    lines, err, code = await host_and_join(
        tmp_path,
        [
            "hearts",
            "--rules",
            str(rules),
            "--seats",
            "bot:easy,bot:easy,open,bot:easy",
            "--seed",
            "2",
            "--save",
            str(save),
        ],
        60,
    )
    assert code == 0 and err == b"", err
    assert lines[0] == "seated at a hearts table as North (seat 2); easy plays"
    totals = " / ".join(str(t) for t in load_save(save).game.scores)
    assert lines[-1].startswith(f"game over: totals {totals}; won: ")


def test_join_without_a_terminal_or_with_a_bad_invitation_is_one_line() -> None:
    for args, match in (
        (["ws://127.0.0.1:9/#abc"], "the full-screen app needs a terminal"),
        (["nonsense"], "an invitation looks like ws://HOST:PORT/#TOKEN"),
        (["ws://127.0.0.1:9/#abc", "--speed", "warp"], "--speed: expected one of"),
        (["nonsense", "--level", "easy"], "an invitation looks like ws://HOST:PORT/#TOKEN"),
    ):
        result = runner.invoke(app, ["join", *args])
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
        assert match in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "invitation",
    [
        "ws://127.0.0.1:99999/#abc",
        "ws://[::1:99/#abc",
        "ws://127.0.0.1:abc/#abc",
        "ws://127.0.0.1:0/#abc",
        "ws://127.0.0.1:-1/#abc",
        "ws://:8765/#abc",
    ],
)
def test_an_invitation_with_a_bad_host_or_port_is_one_line(invitation: str) -> None:
    """A port out of range, not a number or 0, a broken IPv6 address or no host: refused before connecting."""
    for extra in ([], ["--level", "easy"]):
        result = runner.invoke(app, ["join", invitation, *extra])
        assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
        assert lines[0].startswith("cardtui: an invitation looks like ws://HOST:PORT/#TOKEN (PORT 1 to 65535)")


def test_host_names_its_own_seat_by_its_place_as_the_readme_says() -> None:
    """Every seat at a network table reads the same names: the host's `you` seat is South or Player 1, never
    You (which each joined seat would read as itself), and the README says so."""
    from cardtui.cli import _host_seats

    four, you = _host_seats("open,you,bot,bot", "hearts")
    assert [s.name for s in four] == ["South", "West", "North", "East"] and you == 1
    five, you = _host_seats("you,open,bot,bot,bot", "hearts")
    assert [s.name for s in five] == [f"Player {i}" for i in range(1, 6)] and you == 0
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "`host` names each seat, the host's `you` seat too, by its place" in readme


async def test_a_reopened_table_names_a_seat_called_you_by_its_place(tmp_path: Path) -> None:
    """A save made by `play` calls its player You; `host --resume` names that seat by its place, as a fresh `host`
    does, so no joined seat reads another seat as You."""
    from cardtui.cli import _reopened_table

    save = tmp_path / "hs6.json"
    words = "you,person:Ann,person:Bo,person:Cy,bot,person:Dee"
    played = [seat for _, seat in seats_from_words(words, "hearts", ("you", "person", "bot"))]
    played[0] = Seat("You", "human")  # a save of `play` alone with computer players calls its person You
    Session.new(load_preset("hearts-6"), played, 21, save).close()
    session, you = _reopened_table(save, None)
    try:
        assert you is None
        async with Table(session) as table:
            await table.open("127.0.0.1", 0)
            client = await bounded(Client.join(table.invitations()[1]))
            names = [seat["name"] for seat in client.seats]
            await client.close()
    finally:
        session.close()
    assert names == ["Player 1", "Ann", "Bo", "Cy", "Player 5", "Dee"]
    # A place name another seat holds already is not given twice.
    taken = named_by_place([Seat("You", "human"), Seat("South", "human"), Seat("N", "bot", "easy"), Seat("E", "human")])
    assert [s.name for s in taken] == ["South 2", "South", "N", "E"]
