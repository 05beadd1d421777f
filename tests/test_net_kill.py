"""Killing processes at a network table: `kill -9` a joined player, then the host, mid-game.

A real `cardtui host` process and real `cardtui join --level` processes on
loopback ports chosen by the system (the host prints its URL; the test reads
it). One seat is played from the test itself, so the test can hold the table
still at a known position (West to move) before each kill. Every wait is
bounded and every process is killed at the end whatever happens.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from cardtui.net import Client
from cardtui.saves import load_save
from cardtui.variants import make_bot

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60.0
Process = asyncio.subprocess.Process


class Host:
    """A `cardtui host` process whose output lines the test waits on."""

    def __init__(self, process: Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._new = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            async with self._new:
                self.lines.append(raw.decode().rstrip("\n"))
                self._new.notify_all()

    async def line(self, test: Callable[[str], bool], after: int = 0) -> str:
        """The first output line from number `after` on (printed already or to come) that passes `test`."""

        def found() -> str | None:
            return next((line for line in self.lines[after:] if test(line)), None)

        async with self._new:
            await asyncio.wait_for(self._new.wait_for(lambda: found() is not None or self._reader.done()), LIMIT)
        line = found()
        assert line is not None, f"the host ended without such a line: {self.lines}"
        return line

    async def invitations(self, seats: tuple[int, ...] = (0, 1)) -> dict[int, str]:
        """The invitation of each open seat, read from the host's opening lines."""
        await self.line(lambda line: " table at " in line)
        return {
            seat: (await self.line(lambda line, s=seat: line.startswith(f"seat {s} "))).split("cardtui join ", 1)[1]
            for seat in seats
        }

    async def ended(self) -> str:
        """All the host printed, once it has ended with status 0."""
        await asyncio.wait_for(self.process.wait(), LIMIT)
        await self._reader
        assert self.process.returncode == 0, self.lines
        return "\n".join(self.lines)


@asynccontextmanager
async def processes(env: dict[str, str]) -> AsyncIterator[Callable[..., Awaitable[Process]]]:
    """Start `python -m cardtui ARGS…` processes; every one still running at the end is killed."""
    started: list[Process] = []

    async def start(*args: str, out: int | None = asyncio.subprocess.PIPE) -> Process:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardtui", *args, stdout=out, stderr=asyncio.subprocess.PIPE, env=env
        )
        started.append(process)
        return process

    try:
        yield start
    finally:
        for process in started:
            if process.returncode is None:
                process.kill()
            await process.wait()


def short_rules(tmp_path: Path, game: str) -> str:
    """A rules file for a game of two deals, so the tests stay quick."""
    path = tmp_path / f"{game}.toml"
    path.write_text(f'game = "{game}"\nmax_deals = 2\n')
    return str(path)


def environment(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, CARDTUI_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))


async def play_until_held(client: Client, hold: Callable[[], bool]) -> None:
    """Play the seat with `easy` until, at its own turn, `hold()` says stop there (the table then waits)."""
    bot = make_bot(client.game, "easy")
    acted = -1
    while not client.is_over:
        if client.my_turn and client.actions != acted:
            if hold():
                return
            acted = client.actions
            await client.act(bot.decide(client.view, random.Random(acted)).action.to_json())
        await asyncio.wait_for(client.receive(), LIMIT)


async def finished(process: Process) -> str:
    """What a process printed, once it has ended with status 0."""
    out, err = await asyncio.wait_for(process.communicate(), LIMIT)
    assert process.returncode == 0, (out, err)
    return out.decode()


async def held_in_deal_two(
    start: Callable[..., Awaitable[Process]],
    tmp_path: Path,
    save: Path,
    game: str,
    seed: int,
    *more: str,
    south_out: int | None,
) -> tuple[Host, dict[int, str], Client, Process]:
    """A `cardtui host` of two deals saving to `save`, South and West open, two easy computer players
    (`more`: further host options). West is joined here, South by a `cardtui join --level easy` process (its
    output to `south_out`); West plays into the second deal and holds the table at its own turn."""
    host = Host(
        await start(
            *["host", game, "--rules", short_rules(tmp_path, game), "--seats", "open,open,bot:easy,bot:easy"],
            *["--seed", str(seed), "--save", str(save), *more],
        )
    )
    invites = await host.invitations()
    west = await asyncio.wait_for(Client.join(invites[1]), LIMIT)
    south = await start("join", invites[0], "--level", "easy", out=south_out)
    await host.line(lambda line: line == "South (seat 0) joined")
    await play_until_held(west, lambda: west.view.deal_number >= 2)  # type: ignore[attr-defined]
    return host, invites, west, south


async def test_kill_9_a_player_then_a_computer_stands_in_and_a_new_join_resumes_the_seat(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    async with processes(environment(tmp_path)) as start:
        # Held in the game's second deal at West's turn: the table is still, South is mid-game.
        host, invites, west, south = await held_in_deal_two(
            start, tmp_path, save, "hearts", 8, "--away", "bot:easy", "--away-after", "0.1", south_out=None
        )
        at_kill, mark, heard = west.actions, len(host.lines), len(west.notices)
        south.send_signal(signal.SIGKILL)
        await south.wait()
        await host.line(lambda line: line.startswith("South (seat 0) left; after 0.1 s away"), mark)
        # West plays on; at South's turn the computer player takes over after the timeout.
        await play_until_held(west, lambda: len(west.notices) > heard)
        assert west.notices[heard:] == ["South is away; a computer player (easy) plays for them"]
        await play_until_held(west, lambda: west.actions > at_kill + 8)
        stood_in = [a for a in load_save(save).log[at_kill:] if getattr(a, "seat", None) == 0]
        assert stood_in, "the computer player made no move for South"
        mark = len(host.lines)
        again = await start("join", invites[0], "--level", "easy")
        await host.line(lambda line: line == "South is back", mark)
        await play_until_held(west, lambda: False)
        assert west.notices[-1] == "South is back"
        assert "game over: totals" in await finished(again)
        assert "game over (" in await host.ended()
        loaded = load_save(save)
        assert loaded.game.is_over and len(loaded.log) == west.actions
        await west.close()


async def test_kill_9_the_host_then_resume_reopens_the_same_game_with_fresh_invitations(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    async with processes(environment(tmp_path)) as start:
        host, invites, west, south = await held_in_deal_two(
            start, tmp_path, save, "spades", 3, south_out=asyncio.subprocess.PIPE
        )
        before = [a.to_json() for a in load_save(save).log]
        assert len(before) == west.actions and not load_save(save).game.is_over
        host.process.send_signal(signal.SIGKILL)
        await host.process.wait()
        # The joined player's process says the connection was lost (the host said nothing), in one line.
        _, err = await asyncio.wait_for(south.communicate(), LIMIT)
        assert south.returncode == 1 and err.decode() == (
            "cardtui: the connection to the host was lost (its process stopped, or the network failed)\n"
        )
        await west.close()

        resumed = Host(await start("host", "--resume", str(save)))
        fresh = await resumed.invitations()
        assert set(fresh) == {0, 1} and set(fresh.values()).isdisjoint(invites.values())
        assert (await resumed.line(lambda line: " table at " in line)).endswith(f"the game saves to {save}")
        west = await asyncio.wait_for(Client.join(fresh[1]), LIMIT)
        assert west.actions == len(before) and west.my_turn
        south = await start("join", fresh[0], "--level", "easy")
        await play_until_held(west, lambda: False)
        assert "game over: totals" in await finished(south)
        await resumed.ended()
        loaded = load_save(save)
        assert loaded.game.is_over and [a.to_json() for a in loaded.log[: len(before)]] == before
        await west.close()
