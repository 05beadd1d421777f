"""Pilot tests: a network seat passing at once with the others, and the turn timer's countdown."""

from __future__ import annotations

import random
from pathlib import Path

from cardtui.net import Client
from cardtui.tui.app import CardtuiApp
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.widgets.text_line import TextLines
from cardtui.variants import make_bot
from tests.support.net import bounded
from tests.support.tui import game_screen, pass_first_cards, seated, settle_remote


def prompt(app: CardtuiApp) -> str:
    return game_screen(app).query_one("#prompt-line", TextLines).text


async def test_a_seat_chooses_while_another_has_chosen_and_is_told_who_it_waits_for(tmp_path: Path) -> None:
    async with seated(tmp_path, kinds="ppbb", seed=15) as (table, remote, app, pilot):
        await settle_remote(pilot, app)
        assert isinstance(app.screen, PassScreen)  # South may pass at once
        west = await Client.join(table.invitations()[1])
        assert west.my_turn  # and so may West, though the log has South's pass first
        await pass_first_cards(pilot, app.screen)
        for _ in range(500):
            await pilot.pause()
            if "waiting for" in prompt(app):
                break
        assert prompt(app) == "You have chosen; waiting for 1 to choose (West)…"
        # West chooses: the cards move, and South plays on.
        bot = make_bot("hearts", "easy")
        await west.act(bot.decide(west.view, random.Random(1)).action.to_json())
        while west.view.phase == "pass":  # type: ignore[attr-defined]
            await bounded(west.receive())
        for _ in range(2000):
            await pilot.pause()
            if remote.view(0).phase != "pass":  # type: ignore[attr-defined]
                break
        assert remote.view(0).phase == "play"  # type: ignore[attr-defined]
        assert "waiting for" not in prompt(app)
        await west.close()
