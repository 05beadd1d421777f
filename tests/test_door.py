"""The one door for outside text: a hostile file name, seat name, ruleset title or settings value reaches the
terminal only through `cardtui.inert.inert`. Screens are drawn with Pilot and every character of every cell is
checked; commands run under a real pseudo-terminal and every byte they send is checked. Markup in such text is
shown as written, never read."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from textual._compositor import LayoutUpdate
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets._toast import Toast

from cardtui.inert import inert, shell_word
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.menu import SavePicker
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.log import GameLog
from tests.support.sources import package_files, parsed
from tests.support.terminal import on_pty
from tests.support.tui import settle, workers_done

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"

OSC52 = "\x1b]52;c;TUVOVQ==\x1b\\"
"""Sets the terminal's clipboard (to MENU) when a terminal reads it."""
CONTROLS = [OSC52, "\x1b[2J", "\x1b]0;pwned\x07", "\x07", "\u202e", "\u2066", "\u200f", "\x9b31m", "\x7f", "\x85"]
MARKUP = ["[/]", "[/bold]", "[@click=app.quit]x[/]", "[link=x:y]b", "[b]W"]
IN_FILE_NAMES = [*CONTROLS, "[@click=app.quit]x", "[b]", "[link=x:y]"]
"""What a file name may hold (no slash)."""

hostile_name = st.lists(st.sampled_from(IN_FILE_NAMES) | st.text("ab-", max_size=3), min_size=1, max_size=3).map(
    lambda parts: "st-" + "".join(parts) + ".json"
)
hostile_value = st.lists(st.sampled_from([*CONTROLS, *MARKUP]), min_size=1, max_size=2).map("".join)
seat_names = st.lists(st.sampled_from(MARKUP), min_size=4, max_size=4, unique=True)
"""Four seats, each with a name of its own (a save with two seats of one name is refused)."""

EVERY_FRAGMENT = "st-" + "".join(IN_FILE_NAMES) + ".json"
BOUNDED = settings(
    max_examples=1,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found, in bounded time
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TEXTUAL_CURSOR_BLINK", "0")
    (tmp_path / "home" / "saves").mkdir(parents=True)
    return tmp_path / "home"


def raw_controls(text: str) -> list[str]:
    """Every character in `text` a terminal would act on rather than show."""
    return [c for c in text if not c.isprintable() and c != "\n"]


def drawn(app: CardtuiApp) -> str:
    """Every cell the app's screen draws now (notifications included), exactly as the terminal gets it."""
    update = app.screen._compositor.render_update(full=True)
    assert isinstance(update, LayoutUpdate)
    return "\n".join("".join(segment.text for segment in strip) for strip in update.strips)


def assert_inert(app: CardtuiApp) -> str:
    text = drawn(app)
    assert raw_controls(text) == [], (app.screen, raw_controls(text))
    return text


def hostile_save(folder: Path, name: str, seats: list[str] | None = None, sample: str = "hearts-mid-deal.json") -> Path:
    data: dict[str, Any] = json.loads((SAMPLES / sample).read_text())
    for seat, seat_name in zip(data["seats"], seats or [], strict=False):
        seat["name"] = seat_name
    path = folder / name
    path.write_text(json.dumps(data))
    return path


def settings_file(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text(text)


def toml_string(value: str) -> str:
    """`value` as a TOML basic string, control characters and all (as \\uXXXX escapes)."""
    return json.dumps(value, ensure_ascii=True)


@contextlib.contextmanager
def fresh_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A new cardtui home for one hypothesis example (the test's own tmp_path is shared by every example)."""
    import tempfile

    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        home = Path(folder) / "home"
        (home / "saves").mkdir(parents=True)
        monkeypatch.setenv("CARDTUI_HOME", str(home))
        yield home


# ---------------------------------------------------------------- the door itself


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (OSC52, "\\x1b]52;c;TUVOVQ==\\x1b\\"),
        ("\x1b[2J\x07\x7f", "\\x1b[2J\\x07\\x7f"),
        ("\x9b31m\x85", "\\x9b31m\\x85"),
        ("a\u202eb\u2066c\u2069\u200e\u200f", "a\\u202eb\\u2066c\\u2069\\u200e\\u200f"),
        ("one\ntwo\tthree\r", "one\\ntwo\\tthree\\r"),
        ("\udcff.json", "\\udcff.json"),
        ("[@click=app.quit]x[/] ♠ Ünïcode", "[@click=app.quit]x[/] ♠ Ünïcode"),
    ],
)
def test_inert_writes_every_character_a_terminal_acts_on_as_its_escape(text: str, shown: str) -> None:
    assert inert(text) == shown
    assert raw_controls(inert(text)) == []
    assert inert(inert(text)) == inert(text)  # through the door twice is through it once


def test_inert_shows_spaces_and_joiners_as_they_are_and_nothing_else_new() -> None:
    """A no-break or ideographic space, the zero-width (non-)joiner and a variation selector are text a terminal
    only shows (a family's emoji is three joined by U+200D); controls, bidi marks and separators stay escaped."""
    text = "x\u00a0y\u3000\U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f a\u200cb"
    assert inert(text) == text
    hostile = "\u00a0\x1b[2J\u200d\u202e\u2066\u2028\u2029\x85\u200b"
    assert inert(hostile) == "\u00a0\\x1b[2J\u200d\\u202e\\u2066\\u2028\\u2029\\x85\\u200b"


def test_inert_keeps_line_breaks_only_when_asked() -> None:
    assert inert("Game saved in a\x1b.json\nResume it", lines=True) == "Game saved in a\\x1b.json\nResume it"
    assert inert("a\nb") == "a\\nb"


def plain_markup(call: ast.Call) -> bool:
    """The call says `markup=False`."""
    value = {k.arg: k.value for k in call.keywords}.get("markup")
    return isinstance(value, ast.Constant) and value.value is False


def test_every_notification_is_plain_text() -> None:
    """Textual reads a notification's message as markup unless told not to: every `notify` says markup=False."""
    wrong = [
        f"{path.name}:{node.lineno}"
        for path in package_files()
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "notify"
        if not plain_markup(node)
    ]
    assert wrong == []


# ---------------------------------------------------------------- screens (Pilot)


async def drain(pilot: Pilot[Any], app: CardtuiApp) -> None:
    for _ in range(3):
        await pilot.pause()
        await workers_done(app)
    await pilot.pause()


async def test_the_saves_list_shows_a_hostile_file_name_inert(home: Path) -> None:
    name = f"st-{OSC52}-\x1b[2J-\u202e-[@click=app.quit]x.json"
    hostile_save(home / "saves", name)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # Open a save
        await drain(pilot, app)
        assert isinstance(app.screen, SavePicker)
        text = assert_inert(app)
        assert inert(name) in text  # the name as written, escapes visible and markup not read
        await pilot.press("d")  # the delete question names it too
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert_inert(app)
        assert str(app.screen.query_one("#confirm-question", Static).content).startswith(inert(name))


async def test_a_resumed_hostile_save_is_logged_inert(home: Path) -> None:
    name = f"st-{OSC52}-\u202e-[@click=app.quit]x.json"
    path = hostile_save(home / "saves", name)
    session = Session.resume(path)
    app = CardtuiApp(Start(session=session, resumed=True), Settings(speed="instant"))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        log = app.screen.query_one(GameLog).lines()
        assert f"Resumed {inert(name)} after {len(session.log)} actions." in log
        assert_inert(app)
        await pilot.press("ctrl+q")
    # the exit line is said by the command line, through the same door (see the terminal tests below)
    assert app.return_value is not None and inert(name) in app.return_value  # escaped before it is printed


# ---------------------------------------------------------------- 2. settings values holding markup


WRONG_SETTINGS = {
    "speed": ('speed = "[/]"\n', '"[/]"'),
    "theme": ('theme = "[/bold]"\n', "[/bold]"),
    "key": ('"[/]" = 1\n', "[/]: unknown key"),
    "click": ('theme = "[@click=app.quit]x[/]"\n', "[@click=app.quit]x[/]"),
    "escape": ('theme = "\\u001b]52;c;TUVOVQ==\\u001b\\\\"\n', "\\u001b]52;c;TUVOVQ==\\u001b"),
}


@pytest.mark.parametrize("case", sorted(WRONG_SETTINGS))
async def test_a_wrong_setting_holding_markup_is_a_notice_shown_as_written(home: Path, case: str) -> None:
    text, shown = WRONG_SETTINGS[case]
    settings_file(home, text)
    app = CardtuiApp(Start(), Settings.load())
    async with app.run_test(size=(160, 30), notifications=True) as pilot:
        await pilot.pause()
        (notice,) = app._notifications
        assert shown in notice.message and not notice.markup
        assert_inert(app)
        assert shown in str(app.screen.query_one(Toast).render())  # drawn as written, not as its markup's effect
        await pilot.click("Toast")  # a click on the notice dismisses it; it never runs an action in it
        await pilot.pause()
        assert app.is_running
        await pilot.press("down", "enter")  # the menu still works: Continue the last game
        await pilot.pause()


@pytest.mark.parametrize("case", ["key", "speed", "theme"])
async def test_a_wrong_setting_never_stops_a_game(home: Path, case: str) -> None:
    from cardtui.rules import load_preset
    from cardtui.seats import default_seats

    settings_file(home, WRONG_SETTINGS[case][0])
    session = Session.new(load_preset("hearts"), default_seats(4, "easy"), 7)
    app = CardtuiApp(Start(session=session), Settings.load())
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await settle(pilot, app)
        assert any(isinstance(screen, TableScreen) for screen in app.screen_stack) and app.is_running
        assert_inert(app)
        await pilot.press("ctrl+q")
    assert app.return_value is not None and app.return_value.startswith("Game saved in")
    assert len(list((home / "saves").glob("*.json"))) == 1


# ---------------------------------------------------------------- every screen, hostile names and values


@BOUNDED
@example(name=EVERY_FRAGMENT, names=MARKUP[:4], theme="[@click=app.quit]x[/]", speed=OSC52 + "[/]")
@given(name=hostile_name, names=seat_names, theme=hostile_value, speed=hostile_value)
def test_every_screen_draws_hostile_names_and_values_inert(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, names: list[str], theme: str, speed: str
) -> None:
    import asyncio

    with fresh_home(monkeypatch, tmp_path) as home:
        hostile_save(home / "saves", name, names)
        hostile_save(home / "saves", "done-" + name, names, sample="hearts.json")
        settings_file(home, f"theme = {toml_string(theme)}\nspeed = {toml_string(speed)}\n")
        asyncio.run(walk_every_screen(name, names))


async def walk_every_screen(name: str, names: list[str]) -> None:
    """The menu with the settings notice, the saves list, the game, its help and score history, the settings,
    a replay and the statistics: each drawn inert, the names shown as written."""
    settings = Settings.load()
    settings.speed = "instant"
    app = CardtuiApp(Start(), settings)
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await pilot.pause()
        assert app._notifications and all(not n.markup for n in app._notifications)
        assert_inert(app)
        app.clear_notifications()
        for key in ("down", "down"):
            await pilot.press(key)
        await pilot.press("enter")  # Open a save
        await drain(pilot, app)
        listing = assert_inert(app)
        assert inert(name)[:40] in listing  # drawn as written (a long name is cut at the list's edge)
        prompts = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert any(p.startswith(inert(name)) for p in prompts)
        await pilot.press("down", "enter")  # the unfinished one (newest first or not, find it)
        await drain(pilot, app)
        if not isinstance(app.screen, TableScreen):  # the finished one opened as a replay: draw it, go back
            assert_inert(app)
            app.show_menu()
            await pilot.pause()
            await pilot.press("down", "down", "enter")
            await drain(pilot, app)
            await pilot.press("up", "enter")
            await drain(pilot, app)
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        table = assert_inert(app)
        assert f"Resumed {inert(name)}" in " ".join(app.screen.query_one(GameLog).lines())
        assert any(n in table for n in names)  # a seat name drawn as written, not read as markup
        for key in ("f1", "f6", "f9"):  # help, score history, settings
            await pilot.press(key)
            await drain(pilot, app)
            assert_inert(app)
            await pilot.press("escape")
            await drain(pilot, app)
        assert_inert(app)
        app.show_menu()
        await pilot.pause()
        await pilot.press("up", "up", "enter")  # Statistics (from Quit, up two)
        await drain(pilot, app)
        assert_inert(app)
        await pilot.press("ctrl+q")


# ---------------------------------------------------------------- commands under a real terminal


def in_terminal(
    args: list[str], home: Path, keys: bytes = b"", when: bytes = b"", seconds: float = 40
) -> tuple[int, bytes, bytes]:
    """Run `cardtui ARGS` on a pseudo-terminal 100x30, send `keys` once `when` has been drawn, and give back its
    exit status and every byte it sent to its stdout and to its stderr (a second terminal: the progress bars of
    the catalog and the review draw there). Bounded: a run past `seconds` fails the test."""
    err_master, err_slave = pty.openpty()
    process, master = on_pty(args, home, (100, 30), stderr=err_slave)
    os.close(err_slave)
    got = {master: b"", err_master: b""}
    open_ends = [master, err_master]
    sent = not keys
    deadline = time.monotonic() + seconds
    try:
        while open_ends:
            if time.monotonic() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                raise AssertionError(f"cardtui {args[0]} ran past {seconds}s; it sent:\n{got[master][-2000:]!r}")
            ready, _, _ = select.select(open_ends, [], [], 0.5)
            for fd in ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the other end closed: the command has ended
                    chunk = b""
                if chunk:
                    got[fd] += chunk
                else:
                    open_ends.remove(fd)
            if not sent and (when in got[master] or when in got[err_master]):  # the app draws on stderr
                os.write(master, keys)
                sent = True
            if not ready and process.poll() is not None:
                break
        return process.wait(10), got[master], got[err_master]
    finally:
        os.close(master)
        os.close(err_master)


PROGRESS_BAR = re.compile(rb"\x1b\[(\?25[lh]|2K|1A|[0-9;]*m)|\r(?!\n)")
"""What a progress bar on stderr sends besides its text: colours, cursor hidden and shown, a line rubbed out."""
TEXTUAL_OWN = re.compile(rb"\x1b\][0-9]+;[^\x07\x1b]*(\x07|\x1b\\)")
"""The operating-system commands the app itself sends (the pointer's shape): not a file's text."""
HOSTILE_BYTES = [b"\x1b]52", b"\x1b[2J", b"\x1b]0;", "\u202e".encode(), "\u2066".encode(), "\u200f".encode()]
HOSTILE_BYTES += [b"\xc2\x9b", b"\xc2\x85", b"\x7f"]


def plain_output(out: bytes, err: bytes) -> str:
    """A command's whole output, which must be text and line ends only (stderr: and its progress bar's own
    escapes), as one text."""
    text = out.decode("utf-8") + PROGRESS_BAR.sub(b"", err).decode("utf-8")
    assert raw_controls(text.replace("\r\n", "\n")) == [], text
    return text


def full_screen_output(out: bytes) -> bytes:
    """A full-screen run's bytes: the app's own escapes, and none that came from a file or a setting."""
    rest = TEXTUAL_OWN.sub(b"", out)
    for hostile in HOSTILE_BYTES:
        assert hostile not in rest, (hostile, out[-1500:])
    assert b"\x07" not in rest and b"Traceback" not in out
    return out


@BOUNDED
@example(name=EVERY_FRAGMENT, names=MARKUP[:4], title=MARKUP[2])
@given(name=hostile_name, names=seat_names, title=st.sampled_from(MARKUP))
def test_every_command_prints_hostile_names_inert_in_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, names: list[str], title: str
) -> None:
    with fresh_home(monkeypatch, tmp_path) as home:
        saves = home / "saves"
        save = hostile_save(saves, name, names)
        broken = saves / ("broken-" + name)
        broken.write_text("{not json")
        rules = saves.parent / name.replace(".json", ".toml")
        rules.write_text(f'game = "hearts"\ntitle = {toml_string(title)}\n')
        shown = inert(name)
        for args, expect in [
            (["saves"], shown),
            (["inspect", str(save)], shown),
            (["inspect", str(broken)], inert(broken.name)),
            (["review", str(save), "--budget-ms", "1"], f"Review of {shown}"),
            (["rules", "validate", str(rules)], inert(rules.name)),
            (["resume", str(saves / ("gone-" + name))], inert("gone-" + name)),
        ]:
            code, out, err = in_terminal(args, home)
            text = plain_output(out, err)
            assert expect in text.replace("\r\n", " "), (args, text)
            assert "Traceback" not in text and code in (0, 2), (args, code, text)
        code, out, err = in_terminal(["resume", str(save)], home, keys=b"\x11", when=b"Quit")
        assert code == 0
        full_screen_output(err)  # the app's screen
        end = plain_output(out, b"")  # the line said after it
        assert f"Game saved in {inert(str(save))}" in end and f"cardtui resume {shell_word(str(save))}" in end


@pytest.mark.parametrize(("case", "notice"), [("speed", b"speed:"), ("theme", b"theme:"), ("key", b"unknown")])
def test_play_with_a_wrong_setting_holding_markup_runs_and_quits_in_a_terminal(
    home: Path, case: str, notice: bytes
) -> None:
    settings_file(home, WRONG_SETTINGS[case][0])
    # ctrl+q once the settings notice is drawn: the notice itself must not stop the game
    code, out, err = in_terminal(["play", "hearts", "--seed", "7"], home, keys=b"\x11", when=notice)
    assert code == 0
    full_screen_output(err)
    assert "Game saved in" in plain_output(out, b"")
    assert len(list((home / "saves").glob("*.json"))) == 1


# ---------------------------------------------------------------- 6. a long path loses its middle, never the reason


def test_an_error_line_cuts_the_middle_of_a_long_path_never_the_reason(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 200)
    folder.mkdir()
    out = folder / ("n" * 252 + ".toml")  # longer than the 255 bytes a file system allows a name
    done = subprocess.run(
        [sys.executable, "-m", "cardtui", "rules", "new", "hearts", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CARDTUI_HOME": str(home)},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.endswith("(File name too long)"), line
    assert len(line) <= len("cardtui: ") + 300 and "..." in line
    assert line.startswith(f"cardtui: {str(tmp_path)[:10]}")  # the path's start is kept, its middle cut


def test_shortened_cuts_long_words_first_and_the_end_only_when_it_must() -> None:
    from cardtui.cli import shortened

    line = "/a/" + "x" * 400 + ".json: cannot write in /b/" + "y" * 300 + " (No space left on device)"
    short = shortened(line, 300)
    assert len(short) <= 300 and short.endswith("(No space left on device)") and short.startswith("/a/xx")
    assert shortened("fits", 300) == "fits"
    many = " ".join(["w" * 20] * 40)  # no long word to cut: the end goes
    assert len(shortened(many, 300)) == 300 and shortened(many, 300).endswith("...")


# ---------------------------------------------------------------- what a network table's host sends


async def test_what_a_host_sends_is_shown_inert(tmp_path: Path) -> None:
    """Chat, away notes and refusals come from another process: a hostile host's text is shown, never obeyed."""
    from cardtui.tui.screens.game_base import HostSaid
    from tests.support.tui import game_screen, seated, settle_remote

    chat, note, reason = f"hi {OSC52}[/]", "\x1b[2JWest is away[@click=app.quit]x[/]", "no\x07\u202e[/bold]"
    async with seated(tmp_path) as (_, _, app, pilot):
        await settle_remote(pilot, app)
        screen = game_screen(app)
        screen.post_message(HostSaid({"type": "chat", "seat": 1, "text": chat}))
        screen.post_message(HostSaid({"type": "away", "text": note}))
        screen.post_message(HostSaid({"type": "error", "reason": reason}))
        await pilot.pause()
        await pilot.pause()
        lines = screen.query_one(GameLog).lines()
        assert f"West: {inert(chat)}" in lines and f"{inert(note)}." in lines  # the seat ends the host's line
        assert screen.prompt_bar().message == inert(f"The host: {reason}")
        assert_inert(app)
