"""The one way an action reaches a game: a table source's `submit`, local (applied and saved) or remote (sent)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardtui.games import IllegalAction
from cardtui.games.base import Play
from cardtui.net.source import RemoteSource
from cardtui.rules import load_preset
from cardtui.saves import load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.source import LocalSource
from tests.support.tui import fast_forward, open_table


def local_at_play(tmp_path: Path) -> LocalSource:
    seats = [Seat("South", "human"), *(Seat(n, "bot", "easy") for n in ("West", "North", "East"))]
    session = Session.new(load_preset("hearts"), seats, 7, save_path=tmp_path / "game.json")
    fast_forward(session, lambda s: s.game.to_move is not None and s.game.to_move.phase == "play")
    return LocalSource(session)


def test_a_local_submit_applies_the_action_and_saves_it(tmp_path: Path) -> None:
    source = local_at_play(tmp_path)
    tm = source.to_move
    assert tm is not None
    before = source.actions
    action = source.view(tm.seat).legal[0]
    events = source.submit(action)
    assert events and source.actions == before + 1
    assert source.session.save_path is not None
    saved = load_save(source.session.save_path).log
    assert len(saved) == before + 1 and saved[-1].to_json() == action.to_json()


def test_a_local_submit_of_an_illegal_action_changes_nothing(tmp_path: Path) -> None:
    source = local_at_play(tmp_path)
    tm = source.to_move
    assert tm is not None
    before = source.actions
    view = source.view(tm.seat)
    legal = {a.card for a in view.legal if isinstance(a, Play)}
    other = (tm.seat + 1) % 4
    card = next(iter(source.session.game.view(other).hand))  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction):
        source.submit(Play(tm.seat, card))
    assert card not in legal and source.actions == before
    assert source.face_down is False


async def test_a_remote_submit_is_sent_to_the_host_once_delivered(tmp_path: Path) -> None:
    """Submitting queues the action and returns no events; the host applies it and its update says so."""
    table = await open_table(tmp_path, kinds="pbbb", seed=5)
    async with table:
        remote = await RemoteSource.join(table.invitations()[0])
        delivering = asyncio.create_task(remote.deliver())
        try:
            while not remote.view(remote.seat).legal:
                remote.take(await asyncio.wait_for(remote.receive(), 30))
            action = remote.view(remote.seat).legal[0]
            before = len(table.session.log)
            assert remote.submit(action) == []
            while action.to_json() not in [a.to_json() for a in table.session.log[before:]]:
                remote.take(await asyncio.wait_for(remote.receive(), 30))
            # A pass is chosen at once and logged in seat order with the computer players': somewhere after `before`.
            assert action.to_json() in [a.to_json() for a in table.session.log[before:]]
        finally:
            delivering.cancel()
            await remote.close()
