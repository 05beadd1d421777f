"""The app with hostile files and an unlucky disk: markup in names, a FIFO among the saves, a save
open elsewhere, a full disk mid-game, and a house-rules file that is already there."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from cardtui.replay import Replay
from cardtui.rules import load_preset, load_ruleset, preset_dir
from cardtui.saves import load_save, parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.menu import MenuScreen, SavePicker
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.prompt_bar import PromptBar
from tests.support.tui import (
    open_rules_editor,
    pass_first_cards,
    play_turns,
    settle,
    settled_at,
    workers_done,
)

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
HOSTILE = ["[/]", "[link=x:y]b", "[bold]W", "[red]N[/"]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "saves").mkdir(parents=True)
    return tmp_path / "home"


def hostile_save(sample: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / sample).read_text())
    for seat, name in zip(data["seats"], HOSTILE, strict=False):
        seat["name"] = name
    data["ruleset"]["title"] = "[b]House[/i] rules"
    return data


def message(app: CardtuiApp) -> str:
    return str(app.screen.query_one("#form-message", Static).content)


async def drain(pilot: Pilot[Any], app: CardtuiApp) -> None:
    """Wait on the app: its workers done and the messages they posted handled."""
    for _ in range(3):
        await pilot.pause()
        await workers_done(app)
    await pilot.pause()


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)


# ---------------------------------------------------------------- names shown as plain text


async def test_hostile_names_through_every_screen(home: Path) -> None:
    saves = home / "saves"
    (saves / "[link=x:y]a.json").write_text(json.dumps(hostile_save("hearts-mid-deal.json")))
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # Open a save
        await drain(pilot, app)
        assert isinstance(app.screen, SavePicker)
        assert "[link=x:y]a.json" in str(app.screen.query_one("#saves-list", OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")
        await drain(pilot, app)
        session = app.session
        assert session is not None and [s.name for s in session.seats] == HOSTILE
        assert isinstance(app.screen, TableScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await play_turns(pilot, app, session, until_deals=1, max_turns=40)  # through the end of the deal
        assert len(session.game.deal_records) >= 1  # type: ignore[attr-defined]
        hot = HotSeatScreen("[/]")
        app.push_screen(hot)
        await hot.accepting.wait()  # it takes keys once it has asked for one
        await pilot.press("x")
        finished = finished_session(hostile_save("hearts.json"))
        app.push_screen(DealEndScreen(finished, finished.game.deal_records[-1]))  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("enter")
        app.push_screen(GameEndScreen(finished))
        await pilot.pause()
        await pilot.press("m")
        app.push_screen(ReplayScreen(Replay.from_save(finished.to_save())))  # every hand and name on screen
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end", "home", "pagedown")
        await pilot.pause()


def finished_session(data: dict[str, Any]) -> Session:
    loaded = parse_save(data, "hostile.json")
    return Session.of_save(loaded)


async def test_a_hostile_seat_name_from_the_new_game_form(home: Path) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # New game
        await pilot.pause()
        app.screen.query_one("#name-0").value = "[/]"  # type: ignore[attr-defined]
        app.screen.query_one("#name-1").value = "[link=x:y]W"  # type: ignore[attr-defined]
        app.screen.query_one("#seed").value = "7"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        session = app.session
        assert session is not None and session.seats[0].name == "[/]"
        await play_turns(pilot, app, session, until_deals=1)
        assert len(session.game.deal_records) >= 1  # type: ignore[attr-defined]
        await pilot.press("ctrl+q")
    assert app.return_value is not None
    again = Session.resume(session.save_path)  # type: ignore[arg-type]
    resumed = CardtuiApp(Start(session=again, resumed=True), Settings(speed="instant"))
    async with resumed.run_test(size=(100, 30)) as pilot:
        await settle(pilot, resumed)
        assert resumed.session is not None and resumed.session.seats[0].name == "[/]"
        await pilot.press("ctrl+q")


# ---------------------------------------------------------------- files read off the event loop


async def test_a_fifo_among_the_saves_never_blocks_the_app(home: Path, tmp_path: Path) -> None:
    fifo = home / "saves" / "x.json"
    os.mkfifo(fifo)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Continue the last game
        await drain(pilot, app)
        assert "No unfinished game" in message(app)
        await pilot.press("down", "enter")  # Open a save
        await drain(pilot, app)
        assert isinstance(app.screen, SavePicker)
        assert "x.json" in str(app.screen.query_one("#saves-list", OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")
        await drain(pilot, app)
        assert isinstance(app.screen, MenuScreen)
        assert "is a named pipe (FIFO), not a save file" in message(app)
        await pilot.press("ctrl+q")
    assert app.return_value is None


async def test_a_save_open_in_another_cardtui_is_a_message_in_the_menu(home: Path) -> None:
    path = home / "saves" / "hearts-1.json"
    path.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    elsewhere = Session.resume(path)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Continue the last game
        await drain(pilot, app)
        assert isinstance(app.screen, MenuScreen)
        assert "open in another cardtui" in message(app) and "hearts-1.json" in message(app)
        elsewhere.close()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session is not None and app.session.save_path == path


# ---------------------------------------------------------------- a failed autosave


async def test_a_failed_autosave_is_not_a_save_and_can_be_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    seats = [Seat("You", "human"), *(Seat(n, "bot", "easy") for n in ("West", "North", "East"))]
    session = Session.new(load_preset("hearts"), seats, 7, save_path=path)
    real_fsync = os.fsync
    full_disk(monkeypatch)
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await drain(pilot, app)
        said = app.screen.query_one(PromptBar).message
        assert "Could not save, so the move was not made" in said and "No space left on device" in said
        assert session.log == [] and load_save(path).log == []
        assert app.screen.check_action("retry_save", ())  # offered in the footer while a move waits
        await pilot.press("ctrl+r")  # the disk is still full
        await drain(pilot, app)
        assert session.log == [] and "Could not save" in app.screen.query_one(PromptBar).message
        monkeypatch.setattr(os, "fsync", real_fsync)
        await pilot.press("ctrl+r")
        dialog = await settled_at(pilot, app, PassScreen)
        saved = len(session.log)
        assert saved >= 1 and len(load_save(path).log) == saved
        full_disk(monkeypatch)
        await pass_first_cards(pilot, dialog)
        await drain(pilot, app)
        assert len(session.log) == saved and len(load_save(path).log) == saved
        await pilot.press("ctrl+q")
    assert app.return_value is not None
    assert app.return_value.startswith("The last move was not saved: ")
    assert f"cardtui resume {path}" in app.return_value
    assert app.return_code == 1, "a move not on disk is a failure the shell hears of"


# ---------------------------------------------------------------- the house-rules editor


async def test_the_rules_editor_asks_before_replacing_and_never_writes_the_presets(home: Path) -> None:
    from cardtui.tui.screens.rules_editor import ConfirmOverwrite

    mine = home / "rules" / "my-hearts.toml"
    mine.parent.mkdir()
    mine.write_text('# my table\ngame = "hearts"\n')
    preset = preset_dir() / "hearts.toml"
    shipped = preset.read_bytes()
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await open_rules_editor(pilot, app)
        editor.query_one("#rules-path").value = str(mine)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmOverwrite)
        await pilot.press("n")
        await pilot.pause()
        assert mine.read_text() == '# my table\ngame = "hearts"\n'
        assert "kept as it was" in message(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert load_ruleset(mine).game == "cutthroat" and "Saved" in message(app)
        editor.query_one("#rules-path").value = str(preset)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert "inside cardtui's own files" in message(app)
    assert preset.read_bytes() == shipped
    assert sorted(p.name for p in mine.parent.iterdir()) == ["my-hearts.toml"]


async def test_hostile_names_at_one_keyboard(tmp_path: Path) -> None:
    seats = [
        Seat("[/]", "human"),
        Seat("[bold]W", "bot", "easy"),
        Seat("[link=x:y]N", "human"),
        Seat("E", "bot", "easy"),
    ]
    session = Session.new(load_preset("spades"), seats, 3, save_path=tmp_path / "g.json")
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=6)  # hands change between the two people
        assert len(session.log) > 6
        await pilot.press("ctrl+q")
    assert app.return_value is not None and "cardtui resume" in app.return_value
