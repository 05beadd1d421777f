"""The host's turn timer: each seat sees the countdown; when it runs out a computer player moves once.

Real WebSocket clients on a loopback port; the only waiting is the table's own
short timer (TIMER), everything else waits on messages, bounded.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtui.cli import TableOptions, app
from cardtui.games.base import Pass
from cardtui.net import Client, Table
from cardtui.net.server import AwayPolicy
from cardtui.rules import load_preset
from cardtui.session import Session
from cardtui.variants import make_bot
from tests.support.net import bounded, seats_of

TIMER = 0.2
"""The turn timer in these tests, in seconds."""

runner = CliRunner()


async def timed_table(tmp_path: Path, spec: str, away: AwayPolicy, seed: int = 3) -> Table:
    session = Session.new(load_preset("hearts").replace(max_deals=1), seats_of(spec), seed, tmp_path / "t.json")
    table = Table(session, away=away)
    await table.open("127.0.0.1", 0)
    return table


async def until(client: Client, kind: str) -> dict[str, Any]:
    while True:
        message = await bounded(client.receive())
        if message["type"] == kind:
            return message


async def test_a_person_who_does_not_pass_in_time_has_a_pass_made_for_them_and_keeps_the_seat(
    tmp_path: Path,
) -> None:
    table = await timed_table(tmp_path, "p,easy,easy,easy", AwayPolicy(turn_timer=TIMER))
    async with table:
        south = await Client.join(table.invitations()[0])
        assert south.turn_timer == TIMER
        timer = await until(south, "timer")
        assert timer["seats"] == [0] and 0 < timer["seconds"] <= TIMER
        assert south.timer is not None and south.timer[0] == [0]
        # South does nothing: the timer runs out and a computer player (the game's default level) passes once.
        out = await until(south, "timed_out")
        assert out["seats"] == [0] and out["level"] == "normal"
        assert out["text"] == "time is up for S0: a computer player (normal) moved for them"
        while south.view.phase == "pass":  # type: ignore[attr-defined]
            await until(south, "update")
        assert [a.seat for a in table.session.log if isinstance(a, Pass)].count(0) == 1
        # The person keeps the seat: no computer player stands in, and the next turn is timed afresh.
        assert table.stand_ins == {} and south.stand_in[0] is None
        while not south.my_turn:
            await until(south, "update")
        again = await until(south, "timer")
        assert again["seats"] == [0] and again["actions"] == south.actions
        # South does not play either: the card is played for them, once, and the game goes on.
        before = len(table.session.log)
        assert (await until(south, "timed_out"))["seats"] == [0]
        await until(south, "update")
        assert table.session.log[before].to_json()["type"] == "play" and table.session.log[before].seat == 0  # type: ignore[attr-defined]
        await south.close()


async def test_a_hostile_seat_that_never_chooses_cannot_stall_the_pass(tmp_path: Path) -> None:
    table = await timed_table(tmp_path, "p,p,easy,easy", AwayPolicy("easy", 3600.0, turn_timer=TIMER), seed=6)
    async with table:
        invites = table.invitations()
        honest = await Client.join(invites[0])
        hostile = await Client.join(invites[1])
        order = table.session.game.choosers()
        # Both are timed once both have joined; the honest seat chooses, and only the hostile one is timed after.
        while (await until(honest, "timer"))["seats"] != [0, 1]:
            pass
        bot = make_bot("hearts", "easy")
        await honest.act(bot.decide(honest.view, random.Random(0)).action.to_json())
        while (await until(honest, "timer"))["seats"] != [1]:
            pass
        # The hostile seat sends refused passes and comes back on a new connection: neither resets the clock.
        await hostile.act({"type": "pass", "seat": 1, "cards": []})
        await until(hostile, "refused")
        await hostile.close()
        hostile = await Client.join(invites[1])
        out = await until(honest, "timed_out")
        assert out["seats"] == [1] and out["level"] == "easy"
        while honest.view.phase == "pass":  # type: ignore[attr-defined]
            await until(honest, "update")
        assert [a.seat for a in table.session.log if isinstance(a, Pass)] == list(order)
        await honest.close()
        await hostile.close()


async def test_nobody_is_timed_until_every_persons_seat_has_been_taken(tmp_path: Path) -> None:
    table = await timed_table(tmp_path, "p,p,easy,easy", AwayPolicy(turn_timer=TIMER), seed=9)
    async with table:
        south = await Client.join(table.invitations()[0])
        await until(south, "presence")  # after the welcome: who chooses, the timer if it ran, who is here
        assert south.choosing and south.timer is None
        # West joins: the clock starts now for both.
        west = await Client.join(table.invitations()[1])
        assert sorted((await until(south, "timer"))["seats"]) == [0, 1]
        bot = make_bot("hearts", "easy")
        await west.act(bot.decide(west.view, random.Random(0)).action.to_json())
        out = await until(south, "timed_out")
        assert out["seats"] == [0]
        while south.view.phase == "pass":  # type: ignore[attr-defined]
            await until(south, "update")
        assert len([a for a in table.session.log if isinstance(a, Pass)]) == 4
        await south.close()
        await west.close()


@pytest.mark.parametrize("value", ["0", "0.5", "-3", "nan", "inf", "86401"])
def test_a_turn_timer_out_of_bounds_is_one_line_and_exit_2(value: str) -> None:
    result = runner.invoke(app, ["host", "hearts", "--turn-timer", value])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"--turn-timer: expected seconds from 1 to 86400, found {float(value):g}" in lines[0]


def test_the_line_that_reopens_a_table_keeps_its_turn_timer() -> None:
    options = TableOptions("127.0.0.1", 0, True, AwayPolicy(turn_timer=45.0), None, None)
    assert options.words() == ["--turn-timer", "45"]
    assert json.dumps(TableOptions("127.0.0.1", 0, True, AwayPolicy(), None, None).words()) == "[]"
