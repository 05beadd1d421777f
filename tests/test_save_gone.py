"""A saves folder (or a save) removed while its game is open: said as such, and the exit line tells the truth."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from cardtui.rules import load_preset
from cardtui.saves import SaveError, load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.prompt_bar import PromptBar
from tests.support.tui import pass_first_cards, settled_at, workers_done

SEATS = [Seat("You", "human"), *(Seat(n, "bot", "easy") for n in ("West", "North", "East"))]


def started(folder: Path) -> Session:
    folder.mkdir(parents=True)
    session = Session.new(load_preset("hearts"), SEATS, 7, save_path=folder / "g.json")
    session.advance_chance()
    return session


def test_a_removed_folder_is_said_as_such_not_as_a_change(tmp_path: Path) -> None:
    session = started(tmp_path / "saves")
    shutil.rmtree(tmp_path / "saves")
    with pytest.raises(SaveError) as refused:
        session.apply(session.bot_decision("easy").action)
    assert "folder of this game's save was removed while the game was open" in str(refused.value)
    assert "changed by another program" not in str(refused.value)
    assert session.save_gone
    session.close()


def test_a_removed_save_is_said_as_such(tmp_path: Path) -> None:
    session = started(tmp_path / "saves")
    (tmp_path / "saves" / "g.json").unlink()
    with pytest.raises(SaveError, match="the save was removed while the game was open"):
        session.apply(session.bot_decision("easy").action)
    session.close()


async def drain(pilot: Pilot[Any], app: CardtuiApp) -> None:
    for _ in range(3):
        await pilot.pause()
        await workers_done(app)
    await pilot.pause()


async def play_after_removal(
    tmp_path: Path, before_quit: Callable[[], None] = lambda: None
) -> tuple[CardtuiApp, Session, int]:
    """Start a game, remove its folder, try the pass, call `before_quit`, quit: the app (with its exit line),
    the session and how many actions were saved are returned."""
    folder = tmp_path / "saves"
    folder.mkdir()
    session = Session.new(load_preset("hearts"), SEATS, 7, save_path=folder / "g.json")
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        saved = len(session.log)
        shutil.rmtree(folder)
        await pass_first_cards(pilot, dialog)
        await drain(pilot, app)
        table = next(screen for screen in app.screen_stack if screen.query(PromptBar))
        said = table.query_one(PromptBar).message
        assert "was removed while the game was open" in said and "changed by another program" not in said
        assert "ctrl+r" not in said  # trying again can't bring the folder back; quitting writes the game back
        assert len(session.log) == saved  # the move whose save failed was not made
        before_quit()
        await pilot.press("ctrl+q")
    return app, session, saved


async def test_the_exit_line_writes_the_game_back_and_says_so(tmp_path: Path) -> None:
    app, session, saved = await play_after_removal(tmp_path)
    path = tmp_path / "saves" / "g.json"
    message = app.return_value
    assert message is not None
    assert "the folder of this game's save was removed while the game was open" in message
    assert f"written back to {path}" in message
    assert message.endswith(f"Resume it with: cardtui resume {path}")
    assert len(load_save(path).log) == saved  # the file named there exists and holds the game as last saved
    session.close()
    assert not (tmp_path / "saves" / ".g.json.lock").exists()


async def test_the_exit_line_says_the_game_is_lost_when_it_cannot_be_written_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(self: Path, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied")

    folder = tmp_path / "saves"
    app, session, _ = await play_after_removal(tmp_path, lambda: monkeypatch.setattr(Path, "mkdir", refused))
    message = app.return_value
    assert message is not None
    assert message.startswith("The game is lost from disk: ")
    assert "cannot create the folder again (Permission denied)" in message
    assert "cardtui resume" not in message
    assert not folder.exists()
    session.close()


async def quit_at_the_pass(path: Path) -> str:
    """What the app prints on leaving a new game saved at `path` with ctrl+q."""
    session = Session.new(load_preset("hearts"), SEATS, 7, save_path=path)
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, PassScreen)
        await pilot.press("ctrl+q")
    message = app.return_value
    assert message is not None
    return message


async def test_the_exit_line_pastes_into_a_shell_whatever_the_name(tmp_path: Path) -> None:
    path = tmp_path / "my game [1] *.json"
    message = await quit_at_the_pass(path)
    command = message.splitlines()[-1].removeprefix("Resume it with: ")
    assert shlex.split(command) == ["cardtui", "resume", str(path)]


async def test_the_exit_line_shows_a_line_break_escaped_and_its_command_opens_the_file(tmp_path: Path) -> None:
    """A name with a line break and ESC: two lines, the name shown inert in both, and the resume command a
    shell word (`$'...'`) that bash turns back into the real name."""
    path = tmp_path / "two\nlines\x1b[2J.json"
    saved, resume = (await quit_at_the_pass(path)).split("\n")
    assert saved == f"Game saved in {tmp_path}/two\\nlines\\x1b[2J.json"
    command = resume.removeprefix("Resume it with: ")
    assert command.isprintable() and command.startswith("cardtui resume $'")
    echoed = subprocess.run(["bash", "-c", "printf %s " + command.removeprefix("cardtui resume ")], capture_output=True)
    assert echoed.stdout == os.fsencode(path)
