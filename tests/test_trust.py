"""What cardtui promises about files: one writer per save, hostile files refused at once, failed writes told.

Real files throughout: a FIFO, a symlink to /dev/zero, a folder the process
cannot write (or, for root, a disk that reports itself full), and two real
processes for the lock.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui import cli
from cardtui.api import ApiError, new_game, open_game
from cardtui.cli import app
from cardtui.rules import load_preset, load_ruleset
from cardtui.saves import SaveError, latest_unfinished, list_saves, load_save
from cardtui.seats import Seat
from cardtui.session import Session

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"
BOTS = [Seat(n, "bot", "easy") for n in ("You", "West", "North", "East")]
runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "saves").mkdir(parents=True)
    return tmp_path / "home"


def cardtui(*args: str, home: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real command in its own process, so a hang is a failed test rather than a stuck suite."""
    env = {**os.environ, "CARDTUI_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "cardtui", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


def one_line(result: subprocess.CompletedProcess[str] | object, match: str) -> str:
    """Exit 2, one line on stderr that says `match`, no traceback."""
    code = getattr(result, "returncode", getattr(result, "exit_code", None))
    stderr: str = getattr(result, "stderr", "")
    assert code == 2, (code, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert match in lines[0], lines[0]
    return lines[0]


def sample(home: Path, name: str = "hearts-mid-deal.json", as_name: str = "game.json") -> Path:
    path = home / "saves" / as_name
    path.write_bytes((SAMPLES / name).read_bytes())
    return path


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every fsync reports a full disk (ENOSPC), as a real full disk does on the first flush."""

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    yield


def unwritable_folder(path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new folder this process cannot write in."""
    path.mkdir()
    return make_unwritable(path, monkeypatch)


def make_unwritable(path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make a folder read-only by its mode, or for root (whom modes don't stop) one where creating any file
    fails as on a read-only file system."""
    if os.geteuid() != 0:
        path.chmod(0o500)
        return path
    real_open = os.open

    def refuse(file: str | os.PathLike[str], flags: int, *args: int, **kw: object) -> int:
        if flags & os.O_CREAT and Path(file).parent == path:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(file))
        return real_open(file, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    return path


# ---------------------------------------------------------------- 1. one writer per save


LOCK_HOLDER = """
import sys
from cardtui.session import Session
session = Session.resume(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()
"""


def test_a_second_opener_is_refused_and_a_killed_holder_leaves_no_lock(home: Path) -> None:
    path = sample(home)
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CARDTUI_HOME": str(home)},
        cwd=ROOT,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        line = one_line(cardtui("resume", str(path), home=home), "open in another cardtui")
        assert str(path) in line
        with pytest.raises(SaveError, match="open in another cardtui"):
            Session.resume(path)
        holder.kill()  # kill -9: no chance to let go of anything
        holder.wait(timeout=30)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    resumed = Session.resume(path)  # the kernel dropped the lock with the process
    assert len(resumed.log) == len(load_save(path).log)
    resumed.close()
    assert not (path.parent / f".{path.name}.lock").exists()


def test_a_save_changed_by_another_program_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    session = Session.new(load_preset("hearts"), BOTS, 3, save_path=path)
    session.play_bot_turn()
    other = load_save(SAMPLES / "hearts-mid-deal.json")
    path.write_bytes((SAMPLES / "hearts-mid-deal.json").read_bytes())  # another program writes the file
    with pytest.raises(SaveError, match="changed by another program"):
        session.play_bot_turn()
    assert len(session.log) == 1
    assert len(load_save(path).log) == len(other.log)
    session.close()


def test_the_menu_says_a_locked_save_is_open_elsewhere(home: Path) -> None:
    path = sample(home)
    holder = Session.resume(path)
    with pytest.raises(SaveError, match="open in another cardtui"):
        Session.resume(path)
    holder.close()
    Session.resume(path).close()


# ---------------------------------------------------------------- 2. only regular files, never blocking


@pytest.mark.slow  # every command, each with its wait for the FIFO
def test_a_fifo_is_refused_at_once_everywhere(home: Path) -> None:
    fifo = home / "saves" / "x.json"
    os.mkfifo(fifo)
    good = sample(home, as_name="hearts-1.json")
    listed = cardtui("saves", home=home)
    assert listed.returncode == 0
    assert "x.json" in listed.stdout and "named pipe (FIFO)" in listed.stdout
    one_line(cardtui("inspect", str(fifo), home=home), "is a named pipe (FIFO), not a save file")
    one_line(cardtui("resume", str(fifo), home=home), "is a named pipe (FIFO)")
    one_line(cardtui("rules", "validate", str(fifo), home=home), "is a named pipe (FIFO), not a TOML file")
    assert latest_unfinished() == good
    with pytest.raises(ApiError, match="FIFO"):
        open_game(fifo)
    with pytest.raises(ApiError, match="FIFO"):
        new_game("hearts", ruleset=fifo)


def test_a_device_and_a_folder_are_not_files(home: Path, tmp_path: Path) -> None:
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(SaveError, match="is a device"):
        load_save(tmp_path / "zero.json")
    with pytest.raises(SaveError, match="is a folder"):
        load_save(tmp_path)


# ---------------------------------------------------------------- 3. TOML limits


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("a" + ".a" * 20_000 + " = 1\n", "dotted key of more than 16 parts"),
        ('"a".' * 20 + '"b" = 1\n', "dotted key"),
        ("[" + "a." * 30 + "a]\n", "dotted key"),
        ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested more than 16 deep"),
        ("x = " + "{a = " * 40 + "1" + "}" * 40 + "\n", "nested more than 16 deep"),
        ("# " + "x" * (2 * 1024 * 1024) + "\n", "too big for a TOML file"),
    ],
)
def test_toml_too_deep_too_long_or_too_big_is_one_line(home: Path, tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(text)
    one_line(cardtui("rules", "validate", str(path), home=home), match)
    with pytest.raises(ApiError, match=match):
        new_game("hearts", ruleset=path)


def test_toml_linked_to_dev_zero_is_refused_unread(home: Path, tmp_path: Path) -> None:
    (tmp_path / "z.toml").symlink_to("/dev/zero")
    one_line(cardtui("rules", "validate", str(tmp_path / "z.toml"), home=home), "is a device, not a TOML file")


def test_strings_and_comments_do_not_count_as_keys_or_nesting(tmp_path: Path) -> None:
    dots = ".".join("x" * 30)
    text = (
        'game = "hearts"\n'
        f'description = "{dots} [[[[[[[[[[[[[[[[[[[[ {{{{{{{{{{{{{{{{{{{{{{{{{{{{"\n'
        f"# {dots} [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n"
        f"title = '{dots}'\n"
    )
    path = tmp_path / "ok.toml"
    path.write_text(text)
    assert load_ruleset(path).title == dots


# ---------------------------------------------------------------- 4. start-up write failures


def test_play_into_a_folder_that_cannot_be_written_is_one_line_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = unwritable_folder(tmp_path / "ro", monkeypatch)
    monkeypatch.setattr(cli, "_need_terminal", lambda: None)
    result = runner.invoke(app, ["play", "hearts", "--seed", "7", "--save", str(folder / "x.json")])
    one_line(result, "x.json")
    assert os.listdir(folder) == []


def test_play_on_a_full_disk_is_one_line_and_leaves_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch, disk_full: None
) -> None:
    monkeypatch.setattr(cli, "_need_terminal", lambda: None)
    result = runner.invoke(app, ["play", "hearts", "--seed", "7"])  # into the saves folder, name chosen
    one_line(result, "No space left on device")
    assert os.listdir(home / "saves") == []
    result = runner.invoke(app, ["play", "hearts", "--save", str(home / "mine.json")])
    one_line(result, "mine.json: cannot write (No space left on device)")
    assert not (home / "mine.json").exists()


# ---------------------------------------------------------------- 5. a failed autosave is not a save


def test_a_failed_autosave_takes_the_action_back_and_a_retry_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    session = Session.new(load_preset("hearts"), BOTS, 5, save_path=path)
    for _ in range(6):
        session.play_bot_turn()
    before_file = path.read_bytes()
    before_log = [a.to_json() for a in session.log]
    before_hands = [session.game.view(s) for s in range(4)]
    decision = session.bot_decision()

    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SaveError, match="No space left on device"):
        session.apply(decision.action)
    assert [a.to_json() for a in session.log] == before_log
    assert [session.game.view(s) for s in range(4)] == before_hands
    assert path.read_bytes() == before_file
    assert session.save_problem is not None and "No space" in session.save_problem
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []

    monkeypatch.setattr(os, "fsync", real_fsync)
    session.apply(decision.action)
    assert session.save_problem is None
    assert [a.to_json() for a in load_save(path).log] == [*before_log, decision.action.to_json()]
    session.close()


def test_a_failed_autosave_in_a_folder_turned_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    session = Session.new(load_preset("spades"), BOTS, 2, save_path=folder / "g.json")
    session.play_bot_turn()
    saved = (folder / "g.json").read_bytes()
    make_unwritable(folder, monkeypatch)
    try:
        with pytest.raises(SaveError, match="cannot write in"):
            session.play_bot_turn()
        assert len(session.log) == 1
        assert (folder / "g.json").read_bytes() == saved
    finally:
        folder.chmod(0o755)
    session.close()


# ---------------------------------------------------------------- 6. ruleset files written by cardtui


def test_rules_new_never_writes_inside_the_package(home: Path) -> None:
    from cardtui.rules import preset_dir

    target = preset_dir() / "hearts.toml"
    before = target.read_bytes()
    result = runner.invoke(app, ["rules", "new", "hearts", "--out", str(target), "--force"])
    one_line(result, "inside cardtui's own files")
    assert target.read_bytes() == before


def test_rules_new_is_atomic_on_a_full_disk(tmp_path: Path, disk_full: None) -> None:
    (tmp_path / "rules").mkdir()
    out = tmp_path / "rules" / "mine.toml"
    out.write_text("# my comments\n")
    result = runner.invoke(app, ["rules", "new", "hearts", "--out", str(out), "--force"])
    one_line(result, "No space left on device")
    assert out.read_text() == "# my comments\n"
    assert os.listdir(tmp_path / "rules") == ["mine.toml"]


# ---------------------------------------------------------------- 8. control codes from files


def test_control_codes_in_a_ruleset_are_refused(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('game = "hearts"\ntitle = "\\u001b]0;pwned\\u0007"\n')
    line = one_line(cardtui("rules", "validate", str(path), home=home), "title: expected one line")
    assert "\x1b" not in line and "\x07" not in line
    data = json.loads((SAMPLES / "hearts-mid-deal.json").read_text())
    data["ruleset"]["description"] = "\x1b[2J\x9b31m"
    save = home / "saves" / "esc.json"
    save.write_text(json.dumps(data))
    result = cardtui("inspect", str(save), home=home)
    line = one_line(result, "ruleset.description: expected one line")
    assert not any(c in line for c in "\x1b\x9b")


def test_error_lines_are_capped_and_escaped(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('game = "hearts"\n"' + "k\\u001b" * 100_000 + '" = 1\n')
    result = cardtui("rules", "validate", str(path), home=home)
    line = one_line(result, "unknown key")
    assert len(line) <= 320 and "\x1b" not in line


# ---------------------------------------------------------------- 9. one set of limits


@pytest.mark.parametrize(
    "seat",
    [
        {"name": "x", "kind": "bot", "level": "godlike"},
        {"name": "x" * 10_000, "kind": "human"},
        {"name": "a\x1bb", "kind": "human"},
        {"name": "", "kind": "human"},
        {"name": "x", "kind": "human", "colour": "red"},
    ],
)
def test_new_game_refuses_the_seats_a_save_refuses(seat: dict[str, object]) -> None:
    seats = [seat, *(s.to_json() for s in BOTS[1:])]
    with pytest.raises(ApiError) as made:
        new_game("hearts", seats=seats)
    data = new_game("hearts", seed=1).to_save()
    data["seats"] = seats
    with pytest.raises(ApiError) as opened:
        open_game(data)
    assert str(made.value).split(": ", 1)[1] == str(opened.value).split(": ", 2)[2]


def test_api_problems_are_api_errors() -> None:
    with pytest.raises(ApiError, match="seats"):
        new_game("hearts", seats=5)  # type: ignore[arg-type]
    with pytest.raises(ApiError, match="seed"):
        new_game("hearts").suggest(seed=[1])  # type: ignore[arg-type]
    with pytest.raises(ApiError, match="unknown game"):
        new_game(["hearts"])  # type: ignore[arg-type]


def test_the_writer_stops_where_the_reader_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardtui.saves as saves
    import cardtui.session as session_module

    monkeypatch.setattr(saves, "MAX_LOG", 3)
    monkeypatch.setattr(session_module, "MAX_LOG", 3)
    game = new_game("hearts", seed=1)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    with pytest.raises(ApiError, match="the most a save may hold"):
        game.apply(game.legal_actions()[0])
    open_game(game.to_save())  # what was kept still loads


# ---------------------------------------------------------------- 10. smaller ones


def test_stale_temp_files_of_a_killed_writer_are_removed(home: Path) -> None:
    path = sample(home)
    stale = path.parent / f".{path.name}.abc123.tmp"
    stale.write_text("half a save")
    other = path.parent / ".other.json.x.tmp"
    other.write_text("another save's")
    Session.resume(path).close()
    assert not stale.exists() and other.exists()


def test_resuming_through_a_symlink_writes_its_target(home: Path, tmp_path: Path) -> None:
    target = sample(home)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    session = Session.resume(link)
    session.apply(session.bot_decision("easy").action)  # the person to move plays what a bot would
    assert link.is_symlink() and link.resolve() == target
    assert len(load_save(target).log) == len(session.log)
    session.close()


def test_an_unknown_key_in_a_logged_action_is_refused() -> None:
    data = json.loads((SAMPLES / "hearts-mid-deal.json").read_text())
    data["log"][3]["note"] = "ignored?"
    with pytest.raises(ApiError, match=r"log\[3\]: unknown key \"note\""):
        open_game(data)
    game = new_game("hearts", seed=1)
    action = game.legal_actions()[0] | {"extra": 1}
    with pytest.raises(ApiError, match="unknown key"):
        game.apply(action)


def test_saves_says_why_and_sorts_by_the_files_own_time(home: Path) -> None:
    old = sample(home, as_name="old.json")
    data = json.loads(old.read_text())
    data["updated"] = "9999-12-31T23:59:59Z"
    old.write_text(json.dumps(data))
    os.utime(old, (1_000_000, 1_000_000))
    new = sample(home, as_name="new.json")
    (home / "saves" / "broken.json").write_text('{"format": "cardtui-save", "version": 7}')
    infos = list_saves()
    assert [i.path.name for i in infos if i.status == "in_progress"] == ["new.json", "old.json"]
    assert latest_unfinished() == new
    out = cardtui("saves", home=home).stdout
    assert "broken: version: the save is version 7, made by a newer cardtui" in out


def test_rules_show_never_reads_a_file_through_a_preset_name(home: Path, tmp_path: Path) -> None:
    """A preset's name is looked up among the presets only; a path is the player's own file, read from where
    they are (not from the presets' folder), like `--rules FILE`."""
    (tmp_path / "x.toml").write_text('game = "hearts"\n')
    rel = os.path.relpath(tmp_path / "x", ROOT / "config")
    one_line(cardtui("rules", "show", rel, home=home), "no such file")
    one_line(cardtui("rules", "show", "x", home=home), "no preset named")
