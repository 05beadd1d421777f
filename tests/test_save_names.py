"""A save's name is text, never a pattern, and its lock and temp files fit beside it whatever its length."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui.catalog import list_entries
from cardtui.cli import app
from cardtui.files import MAX_PLAIN_NAME, FileLock, remove_stale_temps
from cardtui.rules import load_preset
from cardtui.saves import SaveError, archive_save, delete_save, load_save, saves_dir
from cardtui.session import Session

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
runner = CliRunner()


def sample(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())
    return path


# ---------------------------------------------------------------- stale temps match the name exactly


def test_a_star_in_a_name_does_not_remove_another_saves_temp(tmp_path: Path) -> None:
    path = sample(tmp_path, "a*.json")
    others = tmp_path / ".ab.json.12345678.tmp"  # another save's, maybe being written now
    others.write_text("half of ab.json")
    own = tmp_path / ".a*.json.abcd1234.tmp"
    own.write_text("half of a*.json")
    Session.resume(path).close()
    assert others.exists()
    assert not own.exists()


def test_brackets_in_a_name_get_their_own_stale_temps_removed(tmp_path: Path) -> None:
    path = sample(tmp_path, "game[1].json")
    own = tmp_path / ".game[1].json.x1y2z3w4.tmp"
    own.write_text("half a save")
    not_a_temp = tmp_path / ".game[1].json.notes.txt"
    not_a_temp.write_text("the user's")
    remove_stale_temps(path)
    assert not own.exists()
    assert not_a_temp.exists()


def test_what_a_write_leaves_on_a_kill_is_what_cleanup_removes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = sample(tmp_path, "q?.json")
    session = Session.resume(path)

    def killed(*_: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", killed)
    monkeypatch.setattr(os, "unlink", lambda *_: None)  # as if the process died before cleaning up
    with pytest.raises(SaveError):
        session.apply(session.bot_decision("easy").action)
    monkeypatch.undo()
    session.close()
    left = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and left[0].startswith(".q?.json.")
    Session.resume(path).close()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


# ---------------------------------------------------------------- long names


def long_name(size: int) -> str:
    return "h" * (size - len(".json")) + ".json"


def test_a_name_too_long_for_its_lock_and_temp_is_refused_when_the_game_is_created(tmp_path: Path) -> None:
    path = tmp_path / long_name(MAX_PLAIN_NAME + 1)
    with pytest.raises(SaveError, match=f"at most {MAX_PLAIN_NAME} bytes"):
        Session.new(load_preset("hearts"), None, 1, path)
    assert list(tmp_path.iterdir()) == []
    result = runner.invoke(app, ["play", "hearts", "--save", str(path)])
    assert result.exit_code == 2
    assert "to leave room for the lock and temporary files" in result.output
    ok = tmp_path / long_name(MAX_PLAIN_NAME)
    Session.new(load_preset("hearts"), None, 1, ok).close()
    assert load_save(ok).log == []


@pytest.mark.parametrize("command", [["play", "hearts", "--save"], ["host", "hearts", "--save"]])
def test_a_name_longer_than_the_file_system_allows_is_one_sentence(tmp_path: Path, command: list[str]) -> None:
    """Asking whether a 256-byte name exists raises in Python 3.11; the command says what is wrong instead."""
    path = tmp_path / long_name(256)
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert "at most" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("size", [246, 250, 251, 255])
def test_an_existing_long_named_save_can_be_played_deleted_and_archived(tmp_path: Path, size: int) -> None:
    path = sample(tmp_path / "saves", long_name(size))
    session = Session.resume(path)
    session.apply(session.bot_decision("easy").action)  # written: its temp name fits
    session.close()
    assert len(load_save(path).log) == len(session.log)
    moved = archive_save(path)
    assert moved.exists() and not path.exists()
    delete_save(moved)
    assert not moved.exists()
    assert [p.name for p in (tmp_path / "saves").rglob("*") if p.is_file()] == []


def test_two_long_names_alike_in_their_first_bytes_have_two_locks(tmp_path: Path) -> None:
    a = sample(tmp_path, "x" * 245 + "a.json")
    b = sample(tmp_path, "x" * 245 + "b.json")
    first, second = FileLock(a), FileLock(b)
    first.acquire()
    second.acquire()  # not refused as "open in another cardtui"
    assert first.path != second.path
    first.release()
    second.release()


def test_stale_lock_files_are_removed_when_the_saves_are_listed(tmp_path: Path) -> None:
    folder = saves_dir()
    path = sample(folder, "hearts-1.json")
    stale = folder / ".hearts-1.json.lock"
    stale.write_text("")  # a killed cardtui leaves its lock file behind
    orphan = folder / ".gone.json.lock"
    orphan.write_text("")
    held = sample(folder, "hearts-2.json")
    lock = FileLock(held)
    lock.acquire()
    list_entries()
    assert not stale.exists() and not orphan.exists()
    assert lock.path.exists()  # in use: left alone
    with pytest.raises(SaveError, match="open in another cardtui"):
        Session.resume(held)
    lock.release()
    assert path.exists()


def test_a_stale_lock_file_goes_when_its_game_is_next_opened(tmp_path: Path) -> None:
    path = sample(tmp_path, "hearts-1.json")
    stale = tmp_path / ".hearts-1.json.lock"
    stale.write_text("")
    Session.resume(path).close()
    assert not stale.exists()


def test_a_lock_file_held_by_another_process_is_not_removed(tmp_path: Path) -> None:
    folder = saves_dir()
    sample(folder, "hearts-1.json")
    lock_path = folder / ".hearts-1.json.lock"
    lock_path.write_text("")
    fd = os.open(lock_path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        list_entries()
        assert lock_path.exists()
    finally:
        os.close(fd)


@pytest.mark.parametrize("lock_kind", ["folder", "link", "named pipe (FIFO)"])
def test_a_damaged_lock_file_is_named_not_blamed_on_the_folder(tmp_path: Path, lock_kind: str) -> None:
    """A folder or a link where the lock file goes was said as "cannot write in FOLDER": the folder was fine."""
    path = sample(tmp_path, "game.json")
    lock = tmp_path / ".game.json.lock"
    if lock_kind == "folder":
        lock.mkdir()
    elif lock_kind == "link":
        lock.symlink_to(tmp_path / "elsewhere")
    else:  # it opens and locks as a file would, and was removed as the lock's own file on release
        os.mkfifo(lock)
    result = runner.invoke(app, ["resume", str(path)])
    assert result.exit_code == 2
    assert f"its lock file .game.json.lock is a {lock_kind}, not the plain file cardtui keeps there" in result.stderr
    assert os.path.lexists(lock) and "symbolic links" not in result.stderr
    assert "remove it if no cardtui has the game open" in result.stderr and "cannot write in" not in result.stderr
