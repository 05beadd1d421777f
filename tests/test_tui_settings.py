"""Settings: remembered in settings.toml, flags over it for one run, F4 and the Settings screen write it back."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select, Switch
from textual.widgets._footer import FooterKey

from cardtui.games.trick import TrickView
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui import settings_for
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.settings import SettingsScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import BOT_DELAY, TRICK_DELAY, Settings, read_settings, settings_path
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.prompt_bar import PromptBar
from cardtui.tui.widgets.scoreboard import Scoreboard
from cardtui.tui.widgets.text_line import TextLines
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import (
    answer_simply,
    dialog_message,
    drawn_when,
    fast_forward,
    game_screen,
    in_front,
    make_app,
    pass_first_cards,
    settle,
    settled_at,
    tricks_left,
    workers_done,
)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test has its own cardtui home, so the settings file is its own."""
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CARDTUI_ASCII", raising=False)
    return tmp_path / "home"


def on_disk(home: Path) -> dict[str, Any]:
    return tomllib.loads((home / "settings.toml").read_text())


# ---------------------------------------------------------------- the file


def test_the_file_lives_in_cardtui_home(home: Path) -> None:
    assert settings_path() == home / "settings.toml"


def kept(s: Settings) -> dict[str, Any]:
    """Each setting a person can change, by its name in the settings file."""
    return {
        "speed": s.speed,
        "theme": s.theme,
        "ascii": s.ascii_only,
        "hint_level": s.hint_level,
        "click_to_collect": s.click_to_collect,
        "suit_order": s.suit_order,
        "rank_order": s.rank_order,
        "trumps": s.trumps,
        "confirm_costly": s.confirm_costly,
    }


def test_a_missing_file_gives_the_defaults_and_is_not_written_until_something_changes(home: Path) -> None:
    s = settings_for()
    assert kept(s) == {
        "speed": "normal",
        "theme": "textual-dark",
        "ascii": False,
        "hint_level": "hard",
        "click_to_collect": False,
        "suit_order": "CDSH",
        "rank_order": "ascending",
        "trumps": "in-order",
        "confirm_costly": False,
    }
    assert s.problem is None and not (home / "settings.toml").exists()


def test_round_trip_every_setting(home: Path) -> None:
    s = settings_for()
    changed = {"speed": "fast", "theme": "nord", "ascii": True, "hint_level": "easy", "click_to_collect": True}
    changed |= {"suit_order": "SHDC", "rank_order": "descending", "trumps": "left", "confirm_costly": True}
    for key, value in changed.items():
        assert s.remember(key, value) is None
    assert on_disk(home) == changed
    assert kept(settings_for()) == changed
    assert list(home.iterdir()) == [home / "settings.toml"], "written atomically: no temp file left"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('speed = "warp"\nhint_level = "easy"\n', ["speed: expected one of instant, fast, normal, slow", '"warp"']),
        ("ascii = 1\n", ["ascii: expected true or false, found 1"]),
        ('hint_level = "genius"\n', ["hint_level: expected one of easy, normal, hard", '"genius"']),
        ('colour = "red"\n', ["colour: unknown key; the keys allowed are speed, theme, ascii"]),
        ("speed = \n", ["not valid TOML"]),
    ],
)
def test_a_broken_file_is_one_sentence_keeps_the_good_values_and_is_never_overwritten(
    home: Path, text: str, words: list[str]
) -> None:
    home.mkdir()
    (home / "settings.toml").write_text(text)
    s = settings_for()
    assert s.problem is not None and str(home / "settings.toml") in s.problem
    assert all(w in s.problem for w in words), s.problem
    assert "\n" not in s.problem
    assert s.speed == "normal"  # the bad value falls back to its default
    if "easy" in text and "genius" not in text:
        assert s.hint_level == "easy"  # a good value next to a bad one is kept
    problem = s.remember("speed", "fast")
    assert problem is not None and "fix or delete it" in problem
    assert s.speed == "fast", "the change holds for the run"
    assert (home / "settings.toml").read_text() == text, "the player's file is left as it was"


def test_a_folder_in_place_of_the_file_is_a_problem_not_a_crash(home: Path) -> None:
    (home / "settings.toml").mkdir(parents=True)
    values, problem = read_settings(home / "settings.toml")
    assert values == {} and problem is not None and "is a folder, not a settings file" in problem


def test_a_hand_edit_made_while_the_app_runs_is_kept_or_never_written_over(home: Path) -> None:
    """The file may be edited by hand: an edit made while the app runs is kept when the app remembers a change,
    and an edit that breaks the file stops the app writing over it, as a broken file at start does."""
    path = home / "settings.toml"
    home.mkdir(parents=True)
    settings = Settings.load(path)
    assert settings.remember("speed", "fast") is None
    edited = path.read_text().replace('hint_level = "hard"', 'hint_level = "easy"')
    path.write_text(edited.replace('rank_order = "ascending"', 'rank_order = "descending"'))
    assert settings.remember("ascii", True) is None
    values, problem = read_settings(path)
    assert problem is None
    assert [values[k] for k in ("hint_level", "rank_order", "ascii", "speed")] == ["easy", "descending", True, "fast"]
    broken = path.read_text() + 'speed = "warp"\n'  # a key written twice: not TOML
    path.write_text(broken)
    said = settings.remember("theme", "nord")
    assert said is not None and said.startswith("not remembered:") and path.read_text() == broken


def test_a_settings_file_saved_with_a_byte_order_mark_is_read(home: Path) -> None:
    home.mkdir(parents=True)
    (home / "settings.toml").write_bytes(b'\xef\xbb\xbfspeed = "fast"\n')
    assert read_settings(home / "settings.toml") == ({"speed": "fast"}, None)


async def test_the_app_shows_the_problem_as_a_notice(home: Path) -> None:
    home.mkdir()
    (home / "settings.toml").write_text('speed = "warp"\ntheme = "no-such-theme"\n')
    app = CardtuiApp(Start(), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = [str(n.message) for n in app._notifications]
        assert isinstance(app.screen, MenuScreen)
        assert app.theme == "textual-dark"
    assert any("speed: expected one of instant" in m for m in shown), shown
    assert any("theme: expected one of" in m and "no-such-theme" in m for m in shown), shown


# ---------------------------------------------------------------- flags are for one run


def test_flags_win_for_the_run_and_are_not_written_back(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home.mkdir()
    (home / "settings.toml").write_text('speed = "slow"\nascii = false\n')
    s = settings_for("fast", ascii_only=True)
    assert (s.speed, s.ascii_only) == ("fast", True)
    assert s.overridden("speed") and s.overridden("ascii")
    assert s.remember("hint_level", "normal") is None
    assert on_disk(home)["speed"] == "slow" and on_disk(home)["ascii"] is False
    assert on_disk(home)["hint_level"] == "normal"
    monkeypatch.setenv("CARDTUI_ASCII", "1")
    assert settings_for().ascii_only and on_disk(home)["ascii"] is False
    monkeypatch.setenv("CARDTUI_ASCII", "0")
    assert not settings_for().ascii_only
    assert settings_for().speed == "slow"


def test_overrides_hold_until_the_speed_changes() -> None:
    s = Settings(speed="slow", bot_delay_override=0.0, trick_delay_override=0.0)
    assert (s.bot_delay, s.trick_delay) == (0.0, 0.0)
    assert s.step_speed(faster=True) == "normal"
    assert s.step_speed(faster=True) == "fast"
    assert (s.bot_delay, s.trick_delay) == (BOT_DELAY["fast"], TRICK_DELAY["fast"])


def test_a_speed_step_goes_the_way_asked_and_stops_at_either_end() -> None:
    s = Settings(speed="normal")
    assert [s.step_speed(faster=True) for _ in range(3)] == ["fast", "instant", None]
    assert s.speed == "instant"
    assert [s.step_speed(faster=False) for _ in range(4)] == ["fast", "normal", "slow", None]
    assert s.speed == "slow"


def test_an_unknown_speed_or_hint_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown speed 'warp'"):
        Settings(speed="warp")
    with pytest.raises(ValueError, match="unknown hint level 'genius'"):
        Settings(hint_level="genius")


# ---------------------------------------------------------------- the app


def hearts(seed: int = 7, humans: tuple[int, ...] = (0,), save_path: Path | None = None) -> Session:
    names = ["You", "West", "North", "East"]
    seats = [Seat(names[i], "human") if i in humans else Seat(names[i], "bot", "easy") for i in range(4)]
    return Session.new(load_preset("hearts"), seats, seed, save_path=save_path)


async def pass_cards(pilot: Pilot[Any], app: CardtuiApp) -> TableScreen:
    """Hearts opens with the pass dialog: pass the first cards, and be at the table."""
    await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
    await settle(pilot, app)
    table = app.screen
    assert isinstance(table, TableScreen)
    return table


async def test_speed_is_remembered_across_a_resume(home: Path, tmp_path: Path) -> None:
    """Defect 13: F4 changes the remembered speed, and a resumed game (no --speed) uses it."""
    path = tmp_path / "game.json"
    home.mkdir()
    (home / "settings.toml").write_text('speed = "instant"\n')
    app = CardtuiApp(Start(session=hearts(save_path=path)), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_cards(pilot, app)
        await pilot.press("shift+f4")  # instant -> fast (slower)
        assert app.settings.speed == "fast"
        assert "Speed: fast" in app.screen.query_one(PromptBar).message
        if app.session is not None:
            app.session.close()
    assert on_disk(home)["speed"] == "fast"
    resumed = CardtuiApp(Start(session=Session.resume(path), resumed=True), settings_for())
    async with resumed.run_test(size=(100, 30)) as pilot:
        await settle(pilot, resumed)
        table = resumed.screen_stack[1]
        assert isinstance(table, TableScreen) and table.settings.speed == "fast"
        assert "speed fast" in table.query_one(Scoreboard).text
        if resumed.session:
            resumed.session.close()
    with_flag = settings_for("slow")
    assert with_flag.speed == "slow" and on_disk(home)["speed"] == "fast"


async def test_the_settings_screen_changes_and_remembers_each_setting(home: Path) -> None:
    app = CardtuiApp(Start(), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * 5, "enter")  # the sixth entry: Settings
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert screen.focused is screen.query_one("#speed", Select)
        await pilot.press("enter", "down", "enter")  # normal -> slow
        await pilot.pause()
        assert app.settings.speed == "slow" and on_disk(home)["speed"] == "slow"
        await pilot.press("tab", "tab", "space")  # past the theme, the ASCII switch on
        await pilot.pause()
        assert screen.query_one("#ascii", Switch).value
        assert on_disk(home)["ascii"] is True
        await pilot.press("tab", "enter", "up", "enter")  # hint level hard -> normal
        await pilot.pause()
        assert on_disk(home)["hint_level"] == "normal"
        await pilot.press("tab", "space")
        await pilot.pause()
        assert on_disk(home)["click_to_collect"] is True
        screen.query_one("#theme", Select).value = "nord"
        await pilot.pause()
        assert app.theme == "nord" and on_disk(home)["theme"] == "nord"
        assert "Theme: nord and remembered." in str(screen.query_one("#settings-note").render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_ascii_turned_off_at_the_table_draws_the_whole_screen_with_glyphs_again(home: Path) -> None:
    """F9 at a table begun under ASCII: the switch turned off gives the borders and the words their glyphs back
    at once (only the cards followed it), and on again makes them ASCII."""
    _app, session = make_app(ruleset=load_preset("hearts").replace(pass_cycle=("none",)), seed=3)
    app = CardtuiApp(Start(session=session), Settings(speed="instant", ascii_only=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert app.has_class("-ascii")
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        switch = app.screen.query_one("#ascii", Switch)
        switch.value = False
        await pilot.pause()
        assert not app.has_class("-ascii")
        await pilot.press("escape")
        drawn = await drawn_when(pilot, app, lambda text: "♣" in text or "♥" in text)
        assert "╭─ Your hand" in drawn and "+- Your hand" not in drawn
        assert "Hearts · You to play" in drawn, "the status line's words follow too"
        await pilot.press("f9")
        await pilot.pause()
        app.screen.query_one("#ascii", Switch).value = True
        await pilot.pause()
        assert app.has_class("-ascii")
        await pilot.press("escape")
        drawn = await drawn_when(pilot, app, lambda text: "+- Your hand" in text)
        assert "Hearts | You to play" in drawn and "♣" not in drawn


async def test_a_theme_chosen_in_the_command_palette_is_remembered_and_used_at_start(home: Path) -> None:
    app = CardtuiApp(Start(), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.theme = "gruvbox"  # what the palette's "Change theme" does
        await pilot.pause()
    assert on_disk(home)["theme"] == "gruvbox"
    again = CardtuiApp(Start(), settings_for())
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert again.theme == "gruvbox"


async def test_f9_opens_the_settings_from_the_table_and_ascii_shows_at_once(home: Path) -> None:
    home.mkdir()
    (home / "settings.toml").write_text('speed = "instant"\n')
    app = CardtuiApp(Start(session=hearts()), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        table = await pass_cards(pilot, app)
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#ascii", Switch).value = True
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        hand = table.query_one(Hand)
        assert hand.ascii_only and table.query_one(Trick).ascii_only
        assert "♠" not in str(hand.render()) and "♥" not in str(hand.render())
        assert on_disk(home)["ascii"] is True


# ---------------------------------------------------------------- playing with the settings


def tricks_seen(session: Session) -> int:
    """How many tricks of the deal seat 0's view holds."""
    view = session.game.view(0)
    assert isinstance(view, TrickView)
    return len(view.tricks)


async def play_a_trick(pilot: Pilot[Any], app: CardtuiApp, session: Session) -> TableScreen:
    """Pass, then play the person's cards until the first trick is won (seat 0 a person, the rest computers)."""
    for _ in range(100):
        await pilot.pause()
        await workers_done(app)
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, TableScreen) and (screen.held is not None or tricks_seen(session) > 0):
            return screen
        if isinstance(screen, PassScreen) or (isinstance(screen, TableScreen) and screen.human_turn() is not None):
            await answer_simply(pilot, app)  # the pass, or the first card that may be played
    raise AssertionError("no trick was finished")


@pytest.mark.parametrize("how", ["enter", "click"])
async def test_click_to_collect_leaves_the_trick_until_a_key_or_a_click(how: str) -> None:
    session = hearts()
    app = CardtuiApp(Start(session=session), Settings(speed="instant", click_to_collect=True))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await play_a_trick(pilot, app, session)
        assert table.held is not None and len(table.query_one(Trick).cards) == 4
        moves = len(session.log)
        for _ in range(5):  # nothing moves on while the trick waits, however long
            await pilot.pause()
            await workers_done(app)
        assert len(session.log) == moves and table.held is not None
        assert "collects the trick" in table.query_one("#prompt-line", TextLines).text
        assert table.human_turn() is None
        if how == "enter":
            await pilot.press("enter")
        else:
            await pilot.click("#trick")
        await settle(pilot, app)
        assert table.held is None and len(table.query_one(Trick).cards) < 4, "the trick was collected"
        assert tricks_seen(session) == 1


async def test_the_end_of_deal_offers_its_own_keys_and_f9_opens_the_settings_there() -> None:
    session = hearts()
    fast_forward(session, tricks_left(2))
    app = CardtuiApp(Start(session=session), Settings(speed="instant", click_to_collect=True))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(300):  # the deal's last tricks, each collected with Enter
            await pilot.pause()
            await workers_done(app)
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, DealEndScreen):
                break
            if isinstance(screen, TableScreen) and screen.collecting:
                await pilot.press("enter")
            elif not isinstance(screen, TableScreen) or screen.human_turn() is not None:
                await answer_simply(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, DealEndScreen)
        offered = {key.description for key in dialog.query(FooterKey)}
        assert {"Next deal", "Score history", "Settings"} <= offered
        assert not offered & {"Collect the trick", "Play / pick", "Last trick"}, "the table's keys do nothing here"
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert in_front(app, dialog)


async def test_without_click_to_collect_an_instant_game_never_holds_the_trick() -> None:
    session = hearts()
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await play_a_trick(pilot, app, session)
        assert table.held is None and tricks_seen(session) == 1


@pytest.mark.parametrize(
    ("game", "level", "shown"), [("hearts", "easy", "easy"), ("eight-of-spades", "normal", "classic")]
)
async def test_f2_asks_the_computer_player_of_the_hint_level(game: str, level: str, shown: str) -> None:
    rules = load_preset(game)
    count = getattr(rules, "players", 4)
    seats = [Seat("You", "human")] + [Seat(f"P{i}", "bot", "easy") for i in range(1, count)]
    session = Session.new(rules, seats, 7)
    app = CardtuiApp(Start(session=session), Settings(speed="instant", hint_level=level))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = app.screen if isinstance(app.screen, GameScreen) else app.screen_stack[1]
        assert isinstance(screen, GameScreen)
        await pilot.press("f2")
        await workers_done(app)
        await pilot.pause()
        # the pass dialog's F2 asks the table's hint and shows it in the dialog
        dialog = app.screen
        text = dialog_message(dialog) if isinstance(dialog, PassScreen) else screen.query_one(PromptBar).message
        expected = screen.action_label(session.bot_decision(shown).action)
        assert f"Hint ({shown}): {expected}" in text, text


@pytest.mark.parametrize("switch", ["ascii", "click-to-collect"])
async def test_each_switch_turns_on_and_off_again_for_the_file_the_screen_and_the_play(home: Path, switch: str) -> None:
    """Space turns a switch on, Space again turns it off: the note, the file, the screen reopened and the play all
    follow it back off (a switch turned off was once taken for an empty choice and ignored)."""
    home.mkdir()
    (home / "settings.toml").write_text('speed = "instant"\n')
    key = switch.replace("-", "_")
    session = hearts()
    app = CardtuiApp(Start(session=session), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        table = await pass_cards(pilot, app)
        await pilot.press("f9")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one(f"#{switch}", Switch).focus()
        note = screen.query_one("#settings-note")
        for value, word in ((True, "on"), (False, "off")):
            await pilot.press("space")
            await pilot.pause()
            assert on_disk(home)[key] is value
            assert f": {word} and remembered." in str(note.render())
            assert kept(app.settings)[key] is value
        await pilot.press("escape")
        await pilot.press("f9")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, SettingsScreen)
        assert again.query_one(f"#{switch}", Switch).value is False
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table
        if key == "ascii":
            hand = str(table.query_one(Hand).render())
            assert any(glyph in hand for glyph in "♣♦♥♠"), hand
        else:
            played = await play_a_trick(pilot, app, session)
            assert played.held is None and tricks_seen(session) == 1, "the trick waited for a click"


async def test_f4_from_normal_goes_faster_and_shift_f4_slower(home: Path) -> None:
    """F4 once from the default speed is faster, never slower; shift+F4 goes the other way; neither wraps."""
    app = CardtuiApp(Start(session=hearts()), settings_for())
    # The speed is normal, but the computer players' moves up to your first card need not take its time: an
    # override, as a flag would give, holds only until F4 changes the speed.
    app.settings.bot_delay_override = app.settings.trick_delay_override = 0.0
    async with app.run_test(size=(100, 30)) as pilot:
        table = await pass_cards(pilot, app)
        assert app.settings.speed == "normal"
        await pilot.press("f4")
        assert app.settings.speed == "fast" and on_disk(home)["speed"] == "fast"
        await pilot.press("shift+f4", "shift+f4", "shift+f4")
        assert app.settings.speed == "slow" and on_disk(home)["speed"] == "slow"
        assert table.query_one(PromptBar).message == "Speed: slow already, the slowest; F4 speeds up."


async def test_every_wrong_key_is_named_in_the_notice_and_the_good_values_are_kept(home: Path) -> None:
    home.mkdir()
    (home / "settings.toml").write_text(
        'speed = "warp\\u001b[31mRED"\nascii = 1\nclick_to_collect = "yes"\nsuit_order = "CCDH"\n'
        'trumps = "[b]up[/b]"\nextra_key = 2\nhint_level = "easy"\nrank_order = "descending"\n'
    )
    s = settings_for()
    assert (s.hint_level, s.rank_order) == ("easy", "descending")
    assert (s.speed, s.ascii_only, s.click_to_collect, s.suit_order, s.trumps) == (
        "normal",
        False,
        False,
        "CDSH",
        "in-order",
    )
    app = CardtuiApp(Start(), s)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = [str(n.message) for n in app._notifications]
    notice = next(m for m in shown if "speed: expected" in m)
    for key in ("speed", "ascii", "click_to_collect", "suit_order", "trumps", "extra_key"):
        assert f"{key}: " in notice, (key, notice)
    assert "\x1b" not in notice and "\n" not in notice


async def test_a_dialog_the_table_opens_waits_until_the_settings_close() -> None:
    app, session = make_app("spades", seed=8)  # North and East bid before you
    app.settings.bot_delay_override = 0.3
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f9")  # while a computer player is thinking
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen) and not any(isinstance(s, BidScreen) for s in app.screen_stack)
        for _ in range(200):
            await workers_done(app)
            await pilot.pause()
            tm = session.game.to_move
            if tm is not None and tm.seat == 0 and tm.phase == "bid":
                break
        for _ in range(20):
            await pilot.pause()
        assert isinstance(app.screen, SettingsScreen), app.screen_stack  # the bid dialog did not cover it
        await pilot.press("escape")
        dialog = await settled_at(pilot, app, BidScreen)
        assert not any(isinstance(s, SettingsScreen) for s in app.screen_stack)
        assert app.screen_stack[-2] is game_screen(app) and in_front(app, dialog)
