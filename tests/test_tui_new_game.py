"""The New game form: what is typed is what the game starts with, and a refusal names the field in its words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from cardtui.rules import HeartsRules, dump_toml, load_preset, load_ruleset, write_toml
from cardtui.saves import house_rules_dir
from cardtui.seats import MAX_NAME
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import HOUSE
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.screens.new_game import FILE, NewGameScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.rules_editor import ConfirmOverwrite, RulesEditorScreen
from cardtui.tui.settings import Settings
from tests.support.tui import in_front, open_rules_editor, settle, workers_done


async def open_new_game(pilot: Pilot[Any], app: CardtuiApp) -> NewGameScreen:
    await pilot.pause()
    assert isinstance(app.screen, MenuScreen)
    await pilot.press("home", "enter")  # New game, the first entry
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


async def test_a_second_person_at_the_keyboard_renames_you_by_its_place() -> None:
    """On the next person's screen "You" would be someone else: the seat still called You is called South."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        assert form.query_one("#name-0", Input).value == "You"
        form.query_one("#kind-2", Select).value = "human"
        await pilot.pause()
        assert [form.query_one(f"#name-{seat}", Input).value for seat in range(4)] == ["South", "West", "North", "East"]


async def test_two_seats_of_one_name_are_refused_before_a_game_is_saved(tmp_path: Path) -> None:
    """The form took them, and the save it wrote could then never be resumed (its seats share a name)."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        first = form.query_one("#name-0", Input).value
        form.query_one("#name-3", Input).value = first
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and app.session is None
        assert form_message(form) == "Seat 3's name: Seat 0 has that name; every seat needs a name of its own"


@pytest.mark.parametrize("seed", ["\u00b2", "\u0661\u0663", "-1"])
async def test_a_seed_is_written_in_ascii_digits(seed: str) -> None:
    """A superscript two passed `isdigit` and then raised Python's own "invalid literal" words."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        form.query_one("#seed", Input).value = seed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and form_message(form).startswith("seed: a whole number 0..")


def house_file(path: Path, name: str, end_score: int) -> Path:
    """A Hearts ruleset of our own, written where asked."""
    ruleset = load_preset("hearts").replace(name=name, title=f"Hearts to {end_score}", end_score=end_score)
    write_toml(path, dump_toml(ruleset), make_folders=True)
    return path


async def start(pilot: Pilot[Any], app: CardtuiApp) -> Session:
    await pilot.press("ctrl+s")
    await settle(pilot, app)
    assert isinstance(app.screen, PassScreen), app.screen
    assert app.session is not None
    return app.session


async def test_a_path_typed_in_toml_file_is_the_rules_played(tmp_path: Path) -> None:
    """Typing a path is choosing it: the Rules list follows to "TOML file…" and the game starts on that file."""
    path = house_file(tmp_path / "short.toml", "short", 50)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        await workers_done(app)
        form.query_one("#file", Input).focus()
        await pilot.press(*str(path))
        await pilot.pause()
        assert form.query_one("#rules", Select).value == FILE
        session = await start(pilot, app)
    assert session.ruleset.name == "short" and session.ruleset.end_score == 50  # type: ignore[attr-defined]


async def form_with_file(pilot: Pilot[Any], app: CardtuiApp, path: Path) -> NewGameScreen:
    """The New game form, its house rules read, with `path` in its TOML file field."""
    form = await open_new_game(pilot, app)
    await workers_done(app)
    form.query_one("#file", Input).value = str(path)
    await pilot.pause()
    return form


async def test_a_file_for_another_game_says_which_game_to_choose(tmp_path: Path) -> None:
    path = tmp_path / "sp.toml"
    write_toml(path, dump_toml(load_preset("spades").replace(name="my-spades", title="My Spades")))
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await form_with_file(pilot, app, path)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form
        assert (
            form_message(form)
            == "Rules: My Spades are for Spades, not Hearts — choose Spades as the game, or other rules"
        )


async def test_choosing_a_preset_over_a_typed_path_clears_the_path(tmp_path: Path) -> None:
    path = house_file(tmp_path / "short.toml", "short", 50)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await form_with_file(pilot, app, path)
        form.query_one("#rules", Select).value = "hearts"
        await pilot.pause()
        assert form.query_one("#file", Input).value == ""
        session = await start(pilot, app)
    assert session.ruleset.name == "hearts"


async def test_house_rules_saved_in_the_rules_folder_are_in_the_rules_list(home: Path) -> None:
    """The editor saves in the house-rules folder; New game offers what is there (and says what it can't read)."""
    path = house_file(house_rules_dir() / "my-short.toml", "short", 50)
    (house_rules_dir() / "broken.toml").write_text("game = 'hearts'\nend_score = -1\n")
    three = house_rules_dir() / "ct3.toml"
    three.write_text('game = "cutthroat"\nname = "ct3-house"\ntitle = "Three of us"\nplayers = 3\n')
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        await workers_done(app)
        await pilot.pause()
        rules = form.query_one("#rules", Select)
        offered = {value: str(label) for label, value in rules._options}
        assert offered[HOUSE + str(path)] == "Hearts to 50 (my-short.toml, house rules)"
        assert HOUSE + str(three) not in offered, "another game's house rules are offered under that game only"
        form.query_one("#game", Select).value = "cutthroat"
        await pilot.pause()
        offered = {value: str(label) for label, value in rules._options}
        assert offered[HOUSE + str(three)] == "Three of us (ct3.toml, house rules)"
        assert HOUSE + str(path) not in offered
        form.query_one("#game", Select).value = "hearts"
        await pilot.pause()
        assert rules.value == "hearts", "the preset stays the default"
        assert form_message(form) == (
            f"1 file in {house_rules_dir()} could not be read as rules (broken.toml): "
            "`cardtui rules validate FILE` says why."
        )
        rules.value = HOUSE + str(path)
        await pilot.pause()
        session = await start(pilot, app)
    assert session.ruleset.name == "short" and session.ruleset.end_score == 50  # type: ignore[attr-defined]


async def test_rules_saved_from_the_editor_appear_in_new_game(home: Path) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        saved_to = Path(editor.query_one("#rules-path", Input).value)
        assert saved_to.parent == house_rules_dir()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert saved_to.is_file()
        await pilot.press("escape")
        await pilot.pause()
        form = await open_new_game(pilot, app)
        await workers_done(app)
        await pilot.pause()
        game = load_ruleset(saved_to).game
        form.query_one("#game", Select).value = game
        await pilot.pause()
        values = [value for _, value in form.query_one("#rules", Select)._options]
    assert HOUSE + str(saved_to) in values


async def test_a_preset_for_another_count_chosen_from_the_list_sets_the_players() -> None:
    """Menu → New game, Tab to Rules, "Hearts for three", ctrl+s: a three-player game, 17 cards each."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(60, 20)) as pilot:
        form = await open_new_game(pilot, app)
        await workers_done(app)
        await pilot.pause()
        await pilot.press("tab", "enter", "down", "enter")
        await pilot.pause()
        assert form.query_one("#rules", Select).value == "hearts-3"
        assert form.query_one("#players", Select).value == 3
        session = await start(pilot, app)
        assert session.ruleset.name == "hearts-3" and len(session.seats) == 3
        assert len(session.game.view(0).hand) == 17  # type: ignore[attr-defined]


async def test_changing_the_players_reseats_the_chosen_preset() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        await workers_done(app)
        rules, players = form.query_one("#rules", Select), form.query_one("#players", Select)
        rules.value = "hearts-3"
        await pilot.pause()
        players.value = 5
        await pilot.pause()
        assert rules.value == "hearts-5"
        players.value = 4
        await pilot.pause()
        assert rules.value == "hearts"
        players.value = 6
        await pilot.pause()
        assert rules.value == "hearts-6"
        session = await start(pilot, app)
    assert session.ruleset.name == "hearts-6" and len(session.seats) == 6


async def test_house_rules_for_five_seat_five_and_refuse_another_count(home: Path) -> None:
    five = load_preset("hearts-5").replace(name="five", title="Five fast", end_score=50)
    path = house_rules_dir() / "five.toml"
    write_toml(path, dump_toml(five), make_folders=True)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        await workers_done(app)
        await pilot.pause()
        rules, players = form.query_one("#rules", Select), form.query_one("#players", Select)
        rules.value = HOUSE + str(path)
        await pilot.pause()
        assert players.value == 5
        players.value = 4
        await pilot.pause()
        said = "Rules: Five fast are for 5 players, not 4 — choose 5 players, or other rules"
        assert form_message(form) == said
        await pilot.press("ctrl+s")
        await workers_done(app)
        await pilot.pause()
        assert app.screen is form and form_message(form) == said
        players.value = 5
        await pilot.pause()
        assert form_message(form) == ""
        session = await start(pilot, app)
    assert (session.ruleset.title, len(session.seats)) == ("Five fast", 5)


async def test_a_file_without_players_is_reseated_and_one_with_players_is_not(tmp_path: Path) -> None:
    plain, four = tmp_path / "plain.toml", tmp_path / "four.toml"
    plain.write_text('game = "hearts"\nname = "plain"\nend_score = 50\n')
    four.write_text('game = "hearts"\nname = "four"\ntitle = "Four only"\nplayers = 4\n')
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_new_game(pilot, app)
        await workers_done(app)
        form.query_one("#players", Select).value = 3
        await pilot.pause()
        form.query_one("#file", Input).value = str(four)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await workers_done(app)
        await pilot.pause()
        assert form_message(form) == "Rules: Four only are for 4 players, not 3 — choose 4 players, or other rules"
        form.query_one("#file", Input).value = str(plain)
        await pilot.pause()
        session = await start(pilot, app)
    assert (session.ruleset.name, session.ruleset.seats) == ("plain", 3)
    assert session.ruleset.pass_cycle == ("left", "right")  # type: ignore[attr-defined]


async def test_a_renamed_ruleset_is_saved_under_its_new_name_unless_a_path_was_typed(home: Path) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        path = editor.query_one("#rules-path", Input)
        assert path.value == str(house_rules_dir() / "my-cutthroat.toml")
        editor.query_one("#knob-name", Input).value = "table-cutthroat"
        await pilot.pause()
        assert path.value == str(house_rules_dir() / "table-cutthroat.toml")
        editor.query_one("#knob-name", Input).value = "../elsewhere"  # not a plain file name: the path stays
        await pilot.pause()
        assert path.value == str(house_rules_dir() / "table-cutthroat.toml")
        path.value = str(home / "mine.toml")
        editor.query_one("#knob-name", Input).value = "friday"
        await pilot.pause()
        assert path.value == str(home / "mine.toml")


async def test_esc_in_the_editor_asks_before_dropping_what_was_typed(home: Path) -> None:

    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        await pilot.press("escape")  # nothing typed: straight back
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        editor.query_one("#knob-title", Input).value = "Friday night"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # stay: what was typed is still there
        await pilot.pause()
        assert in_front(app, editor) and editor.query_one("#knob-title", Input).value == "Friday night"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and not isinstance(app.screen, RulesEditorScreen)


async def test_saved_house_rules_open_in_the_editor_and_save_back_to_their_file(home: Path) -> None:

    saved = house_rules_dir() / "friday.toml"
    friday = load_preset("hearts").replace(name="friday", title="Friday hearts", jack_of_diamonds=-10)
    write_toml(saved, dump_toml(friday), make_folders=True)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        await workers_done(app)
        await pilot.pause()
        start = editor.query_one("#preset", Select)
        start.value = HOUSE + str(saved)
        await pilot.pause()
        await workers_done(app)
        assert editor.base_path == saved and not editor.loading
        fields = {k: editor.query_one(f"#knob-{k}", Input).value for k in ("name", "title", "jack_of_diamonds")}
        assert fields == {"name": "friday", "title": "Friday hearts", "jack_of_diamonds": "-10"}
        await pilot.pause()
        assert editor.query_one("#rules-path", Input).value == str(saved)  # its own name: its own file
        editor.query_one("#knob-name", Input).value = "saturday"
        await pilot.pause()
        assert editor.query_one("#rules-path", Input).value == str(house_rules_dir() / "saturday.toml")
        editor.query_one("#knob-name", Input).value = "friday"
        await pilot.pause()
        assert editor.query_one("#rules-path", Input).value == str(saved)
        editor.query_one("#knob-end_score", Input).value = "50"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmOverwrite)
        await pilot.press("y")
        await pilot.pause()
        again = load_ruleset(saved)
        assert isinstance(again, HeartsRules)
        assert (again.name, again.title) == ("friday", "Friday hearts")
        assert (again.end_score, again.jack_of_diamonds) == (50, -10)


async def test_the_editor_quotes_a_refused_value_as_the_command_line_does(home: Path) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        editor.query_one("#knob-win_target", Input).value = "ten"
        await pilot.press("ctrl+s")
        await pilot.pause()
        said = str(editor.query_one("#form-message", Static).content)
        assert said.startswith("win_target: expected ") and said.endswith('found "ten"'), said
