"""The New game form: what is typed is what the game starts with, and a refusal names the field in its words."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from cardtui.seats import MAX_NAME
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.screens.new_game import NewGameScreen
from cardtui.tui.settings import Settings


async def open_new_game(pilot: Pilot[Any], app: CardtuiApp) -> NewGameScreen:
    await pilot.pause()
    assert isinstance(app.screen, MenuScreen)
    await pilot.press("enter")  # New game
    await pilot.pause()
    form = app.screen
    assert isinstance(form, NewGameScreen)
    return form


def form_message(form: NewGameScreen) -> str:
    return str(form.query_one("#form-message", Static).content)


async def test_a_name_field_takes_no_more_than_a_name_may_hold() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        field = form.query_one("#name-1", Input)
        field.focus()
        field.value = ""
        await pilot.press(*("x" * 70))
        assert field.value == "x" * MAX_NAME


async def test_a_refused_name_is_told_in_the_forms_words() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        form.query_one("#name-2", Input).value = "Nor\x07th"
        await pilot.press("ctrl+s")
        await pilot.pause()
        said = form_message(form)
        assert app.screen is form
        assert said == f"Seat 2's name: a name is 1 to {MAX_NAME} printable characters (no tabs or control keys)"
