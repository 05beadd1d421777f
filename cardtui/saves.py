"""JSON save files (version 2, reading version 1 too): build, write atomically, load and validate by replaying.

A save is the action log plus the ruleset, the seats and the seed, so loading
it replays every action through the engine: a file edited by hand, cut short
by a crash or made by another program is either a game we can trust or a
`SaveError` that names the file and the place of the first defect. Loading
only ever reads the file.

Version 2 added the `undo` and `claim` actions to the log and the `undo`
knob to every ruleset; saves are written as version 2, and a version 1 save
loads and replays as it always did (its ruleset takes `undo = true`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, overload

from cardtui import files
from cardtui.games import Action, Event, IllegalAction, create_game
from cardtui.games.history import Checkpoint, History, OnHistory
from cardtui.rules import Ruleset, RulesetError, preset_name_problem, ruleset_from_dict
from cardtui.rules.base import show
from cardtui.seats import Seat, SeatError, parse_seats, people

FORMAT = "cardtui-save"
VERSION = 2
"""The newest version this cardtui reads and writes."""
V2_ACTIONS = frozenset({"undo", "claim"})
"""The action types version 2 added; a version 1 save holding one is refused."""
MAX_BYTES = files.MAX_BYTES
"""Bigger files are refused before reading, and never written: no real game comes near this."""
MAX_LOG = 1_000_000
MAX_SEED = 2**64 - 1
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
TOP_KEYS = ("format", "version", "game", "ruleset", "seats", "seed", "log", "created", "updated")
OPTIONAL_KEYS = ("looked",)
"""Keys a save holds only when they say something: `looked`, the people's seats that have seen their hand in
the deal in progress (a blind bid is made before looking, so it stays refused after a resume)."""
_INT_DIGITS = 24
OnAction = Callable[[int, Action, Sequence[Event]], None]
"""Told of each replayed action: its index in the log, the action and the events it made."""


class SaveError(Exception):
    """A save that cannot be read, written or trusted; the message says which file and where."""


@dataclasses.dataclass(slots=True)
class LoadedSave(OnHistory):
    """A save read and checked: the replayed game, plus what is needed to continue or step through it."""

    path: Path | None
    ruleset: Ruleset
    seats: tuple[Seat, ...]
    seed: int
    history: History
    created: str
    updated: str
    checkpoints: dict[int, Checkpoint]
    version: int = VERSION
    looked: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        return self.path.name if self.path is not None else "save"


# ---------------------------------------------------------------- folders and names


def home_dir(kind: Literal["data", "config"] = "data") -> Path:
    """cardtui's data (saves, catalog) or config (settings) folder: `$CARDTUI_HOME` for both when it is set
    (tests and portable installs), else the platform's user folder of that kind."""
    env = os.environ.get("CARDTUI_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    where = platformdirs.user_data_dir if kind == "data" else platformdirs.user_config_dir
    return Path(where("cardtui", appauthor=False))


def house_rules_dir() -> Path:
    """Where the app's house-rules editor saves rulesets, and where New game looks for them."""
    return home_dir() / "rules"


def saves_dir() -> Path:
    """Where games are saved unless `--save FILE` says otherwise."""
    return home_dir() / "saves"


def now_stamp() -> str:
    """The current UTC time in the save file's form."""
    return dt.datetime.now(dt.UTC).strftime(TIME_FORMAT)


def new_save_path(game: str, folder: Path | None = None, when: dt.datetime | None = None) -> Path:
    """A fresh `GAME-YYYYMMDD-HHMMSS.json` in the folder, reserved so two games never share it.

    The file is created empty (O_EXCL) to claim the name; the caller writes the
    real save at once. A second game in the same second gets `-2`, `-3`, ...
    """
    folder = saves_dir() if folder is None else folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SaveError(f"{folder}: cannot create the saves folder ({err.strerror})") from None
    stamp = (when or dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    for n in range(1, 10_000):
        suffix = "" if n == 1 else f"-{n}"
        path = folder / f"{game}-{stamp}{suffix}.json"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        except OSError as err:
            raise SaveError(f"{path}: cannot create ({err.strerror})") from None
        os.close(fd)
        return path
    raise SaveError(f"{folder}: too many saves named {game}-{stamp}")


def check_save_name(path: Path) -> None:
    """Refuse, before a game starts, a file name too long for the lock and temp files that go beside it."""
    size = len(os.fsencode(Path(path).name))
    if size > files.MAX_PLAIN_NAME:
        raise SaveError(
            f"a save's file name may be at most {files.MAX_PLAIN_NAME} bytes, to leave room for the lock and"
            f" temporary files beside it; this one has {size}: {path}"
        )


ARCHIVE_FOLDER = "archive"
"""Archived saves go to this folder inside the saves folder: out of the lists, never deleted."""


def delete_save(path: Path) -> None:
    """Delete a save file (broken or not) and its lock file; refused while another cardtui has the game open."""
    try:
        files.remove_file(Path(path))
    except files.FileProblem as err:
        raise SaveError(str(err)) from None


def archive_save(path: Path) -> Path:
    """Move a save into the `archive` folder beside it (a clashing name gets `-2`, ...); returns where it went.

    Refused, like deleting, while another cardtui has the game open.
    """
    path = Path(path)
    try:
        return files.move_into(path, path.parent / ARCHIVE_FOLDER)
    except files.FileProblem as err:
        raise SaveError(str(err)) from None


def archive_dir(folder: Path | None = None) -> Path:
    """The archive folder inside the saves folder (`saves/archive`), where `archive_save` moves a save."""
    return (saves_dir() if folder is None else folder) / ARCHIVE_FOLDER


def restore_save(path: Path) -> Path:
    """Move an archived save back to the saves folder it was archived from (a clashing name gets `-2`, ...);
    returns where it went. Refused for a file outside an archive folder, and while another cardtui has it open."""
    path = Path(path)
    if path.parent.name != ARCHIVE_FOLDER:
        raise SaveError(f"{path}: not in an {ARCHIVE_FOLDER} folder, so there is nothing to restore it from")
    try:
        return files.move_into(path, path.parent.parent)
    except files.FileProblem as err:
        raise SaveError(str(err)) from None


# ---------------------------------------------------------------- building and writing


def build_save(
    ruleset: Ruleset,
    seats: Sequence[Seat],
    seed: int,
    log: Iterable[Action | dict[str, Any]],
    created: str | None = None,
    updated: str | None = None,
    looked: Iterable[int] = (),
) -> dict[str, Any]:
    """A save dict in the current version's shape, keys in the documented order (`looked` only when a seat has)."""
    stamp = now_stamp()
    seen = sorted(looked)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": ruleset.game,
        "ruleset": ruleset.to_dict(),
        "seats": [s.to_json() for s in seats],
        "seed": seed,
        "log": [a if isinstance(a, dict) else a.to_json() for a in log],
        **({"looked": seen} if seen else {}),
        "created": created or stamp,
        "updated": updated or stamp,
    }


def encode_action(action: Action | dict[str, Any]) -> str:
    """One log entry as the single line it takes in a save file."""
    data = action if isinstance(action, dict) else action.to_json()
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def dumps_save(data: dict[str, Any], log_lines: Sequence[str] | None = None) -> str:
    """The text of a save: readable, one log entry per line so files diff well.

    `log_lines` (from `encode_action`) lets a session reuse entries it has
    already encoded instead of re-encoding the whole log on every autosave.
    """
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if key == "log":
            entries = list(log_lines) if log_lines is not None else [encode_action(a) for a in data["log"]]
            if not entries:
                lines.append(f'  "log": []{comma}')
                continue
            lines.append('  "log": [')
            lines.extend(f"    {e}," for e in entries[:-1])
            lines.append(f"    {entries[-1]}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(data[key], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_atomic(path: Path, text: str) -> os.stat_result:
    """Replace `path` (a symlink's target) with `text` atomically; returns the new file's status."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise SaveError(f"{path}: the save holds text that is not valid Unicode") from None
    if len(data) > MAX_BYTES:
        raise SaveError(f"{path}: the save would be {len(data)} bytes, more than a save may hold ({MAX_BYTES})")
    try:
        return files.write_atomic(Path(path), data)
    except files.FileProblem as err:
        raise SaveError(str(err)) from None


def write_save(path: Path, data: dict[str, Any], log_lines: Sequence[str] | None = None) -> os.stat_result:
    """Write a save dict atomically, within the limits a load checks; returns the new file's status."""
    count = len(log_lines) if log_lines is not None else len(data["log"])
    if count > MAX_LOG:
        raise SaveError(f"{path}: log: too long ({count} actions, at most {MAX_LOG})")
    return write_atomic(path, dumps_save(data, log_lines))


# ---------------------------------------------------------------- reading


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a save")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > _INT_DIGITS:
        raise ValueError(
            f"a number of {len(text.lstrip('-'))} digits is too big (a save's numbers have at most {_INT_DIGITS})"
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:30]} is too big")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {show(key)} appears twice in one object")
        out[key] = value
    return out


STREAM_FROM = 4 * 1024 * 1024
"""Saves of this many characters or more are decoded one log entry at a time, so memory stays near the file's size."""
_WINDOWS = (512, 8192, 65536)
"""How much text an action may span, tried in turn (a log entry is decoded from a copy of at most this much)."""
_VALUE_WINDOWS = (8192, 131072, 1024 * 1024)
"""The same for the other top-level values (the ruleset, the seats...), which are small in any real save."""
_SPACE = re.compile(r"[ \t\n\r]*")
_NEXT = re.compile(r"[ \t\n\r]*([,\]])[ \t\n\r]*")
"""What follows a log entry: a comma and the next one, or the end of the log."""
_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float, object_pairs_hook=_no_duplicates
)


def parse_json(raw: bytes, name: str) -> Any:
    """Decode a save's bytes, strictly: UTF-8, no NaN/Infinity, no huge numbers, no repeated keys.

    A big save's log comes back as `LogText`, decoded entry by entry when it is replayed: a file of
    millions of tiny values (`{}`) is refused on its length without ever holding them all.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SaveError(f"{name}: not a text file (byte {err.start} is not UTF-8)") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text or text.isspace():
        raise SaveError(f"{name}: the file is empty")
    try:
        if len(text) >= STREAM_FROM:
            return _parse_big(text, name)
        return _DECODER.decode(text)
    except json.JSONDecodeError as err:
        end = err.doc.rstrip()
        where = f"(line {err.lineno}, column {err.colno})"
        if err.msg == "Extra data":
            raise SaveError(f"{name}: not valid JSON: more text after the end of the save {where}") from None
        if end.lstrip().startswith("{") and (err.pos >= len(end) or not end.endswith("}")):  # cut short mid-value
            raise SaveError(f"{name}: not valid JSON: the file ends early, at line {err.lineno} (cut short?)") from None
        raise SaveError(f"{name}: not valid JSON: {err.msg} {where}") from None
    except RecursionError:
        raise SaveError(f"{name}: not a save: the JSON is nested too deeply") from None
    except (ValueError, MemoryError, OverflowError) as err:  # JSON, but not what a save holds
        raise SaveError(f"{name}: not a save: {str(err)[:200]}") from None


class LogText(Sequence[Any]):
    """A big save's log, still as text: its length is known (it was checked entry by entry); iterating decodes
    one entry at a time, so only the actions made from it stay in memory."""

    def __init__(self, text: str, start: int, count: int) -> None:
        self._text, self._start, self._count = text, start, count

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:
        text = self._text
        i = _skip(text, self._start + 1)
        for index in range(self._count):
            value, i = _entry(text, i, index)
            yield value
            following = _NEXT.match(text, i)
            assert following is not None, "the log was checked when it was read"
            i = following.end()

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return list(self)[index]  # not used when loading; here so that it is a whole Sequence


def _skip(text: str, i: int) -> int:
    match = _SPACE.match(text, i)
    return match.end() if match is not None else i


def _not_json(text: str, pos: int, message: str) -> json.JSONDecodeError:
    return json.JSONDecodeError(message, text, pos)


def _scan(text: str, i: int, windows: Sequence[int], where: str) -> tuple[Any, int]:
    """One JSON value starting at `i`, decoded from a copy of at most the last window's size of text."""
    for size in windows:
        whole = len(text) - i <= size
        window, offset = (text, 0) if whole else (text[i : i + size], i)
        try:
            value, end = _DECODER.raw_decode(window, i - offset)
        except json.JSONDecodeError as err:
            if whole:
                raise _not_json(text, err.pos, err.msg) from None
            if size == windows[-1]:
                raise ValueError(f"{where} is longer than {size} characters or holds an error ({err.msg})") from None
            continue
        if whole or end < len(window):  # a value that ends at the window's edge may go on past it
            return value, offset + end
    raise ValueError(f"{where} is longer than {windows[-1]} characters")


def _entry(text: str, i: int, index: int) -> tuple[Any, int]:
    """Log entry `index`, at `i`: an action object is decoded from exactly its own text when it holds no `}`
    inside (every action cardtui writes); anything else through `_scan`'s windows."""
    if text.startswith("{", i):
        close = text.find("}", i, i + _WINDOWS[-1])
        if close > 0:
            piece = text[i : close + 1]
            try:
                value, end = _DECODER.raw_decode(piece)
            except ValueError:
                pass  # a "}" inside a string, or an error: `_scan` finds the real end or says what is wrong
            else:
                if end == len(piece):
                    return value, close + 1
    return _scan(text, i, _WINDOWS, f"log[{index}]")


def _parse_big(text: str, name: str) -> Any:
    """The save's top-level object, its log left as `LogText` after checking it entry by entry."""
    i = _skip(text, 0)
    if text[i : i + 1] != "{":
        raise _fail(name, "", f"not a cardtui save: expected a JSON object, found {_short(text[i : i + 40])}...")
    out: dict[str, Any] = {}
    i = _skip(text, i + 1)
    if text[i : i + 1] == "}":
        i += 1
    else:
        while True:
            if text[i : i + 1] != '"':
                raise _not_json(text, i, "Expecting property name enclosed in double quotes")
            key, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i)
            if text[i : i + 1] != ":":
                raise _not_json(text, i, "Expecting ':' delimiter")
            i = _skip(text, i + 1)
            if key in out:
                raise ValueError(f"the key {show(key)} appears twice in one object")
            if key == "log" and text[i : i + 1] == "[":
                out[key], i = _skim_log(text, i, name)
            else:
                out[key], i = _scan(text, i, _VALUE_WINDOWS, key)
            i = _skip(text, i)
            mark = text[i : i + 1]
            if mark == "}":
                i += 1
                break
            if mark != ",":
                raise _not_json(text, i, "Expecting ',' delimiter")
            i = _skip(text, i + 1)
    if _skip(text, i) != len(text):
        raise _not_json(text, _skip(text, i), "Extra data")
    return out


def _skim_log(text: str, start: int, name: str) -> tuple[LogText, int]:
    """Check the log array entry by entry, keeping none of them; refused as soon as it is too long."""
    i = _skip(text, start + 1)
    count = 0
    if text[i : i + 1] == "]":
        return LogText(text, start, 0), i + 1
    while True:
        if count == MAX_LOG:
            raise _fail(name, "log", f"too long (more than {MAX_LOG} actions)")
        _, i = _entry(text, i, count)
        count += 1
        following = _NEXT.match(text, i)
        if following is None:
            raise _not_json(text, _skip(text, i), "Expecting ',' delimiter")
        if following.group(1) == "]":
            return LogText(text, start, count), _skip(text, i) + 1
        i = following.end()


def read_bytes(path: Path) -> bytes:
    """A save file's bytes, or a SaveError saying why it cannot be read; only regular files, never huge."""
    try:
        return files.read_regular(Path(path), "a save file", MAX_BYTES)
    except files.FileProblem as err:
        raise SaveError(str(err)) from None


def load_save(path: str | Path, checkpoint_every: int = 0, on_action: OnAction | None = None) -> LoadedSave:
    """Read, check and replay a save file; any defect is a SaveError naming the file and the place.

    `checkpoint_every` > 0 keeps a checkpoint of the position every that many actions
    (for the replay timeline) while the log is replayed anyway; `on_action`
    sees each action and its events as they are replayed (the catalog counts from them).
    """
    p = Path(path)
    data = parse_json(read_bytes(p), p.name)
    loaded = parse_save(data, p.name, checkpoint_every, on_action)
    loaded.path = p
    return loaded


def parse_save(
    data: Any, name: str = "save", checkpoint_every: int = 0, on_action: OnAction | None = None
) -> LoadedSave:
    """Check a save dict already decoded from JSON; `name` starts every error message."""
    try:
        return _parse_save(data, name, checkpoint_every, on_action)
    except SaveError:
        raise
    except RecursionError:
        raise SaveError(f"{name}: not a save: the data is nested too deeply") from None
    except MemoryError:
        raise SaveError(f"{name}: too big to load") from None
    except Exception as err:  # a bug below must still not crash a caller that only asked to load a file
        raise SaveError(f"{name}: cannot be loaded ({type(err).__name__}: {str(err)[:200]})") from None


def _fail(name: str, where: str, message: str) -> SaveError:
    return SaveError(": ".join(part for part in (name, where, message) if part))


def _short(value: Any) -> str:
    text = show(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_save(data: Any, name: str, checkpoint_every: int, on_action: OnAction | None) -> LoadedSave:
    if not isinstance(data, dict):
        raise _fail(name, "", f"not a cardtui save: expected a JSON object, found {_short(data)}")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise _fail(name, "format", f"not a cardtui save: expected {show(FORMAT)}, found {_short(fmt)}")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise _fail(name, "version", f"expected an integer, found {_short(version)}")
    if version > VERSION:
        raise _fail(
            name,
            "version",
            f"the save is version {version}, made by a newer cardtui; this one reads version {VERSION}",
        )
    if version < 1:
        raise _fail(name, "version", f"expected 1..{VERSION}, found {version}")
    for key in data:
        if key not in TOP_KEYS and key not in OPTIONAL_KEYS:
            raise _fail(name, key, f"unknown key; a save holds {', '.join(TOP_KEYS + OPTIONAL_KEYS)}")
    for key in TOP_KEYS:
        if key not in data:
            raise _fail(name, key, "missing")

    game_name = data["game"]
    try:
        ruleset = ruleset_from_dict(data["ruleset"], "ruleset.")
    except RulesetError as err:
        raise SaveError(f"{name}: {err}") from None
    problem = preset_name_problem(ruleset, saved=True)
    if problem:
        raise SaveError(f"{name}: ruleset.{problem}")
    if not isinstance(game_name, str) or game_name != ruleset.game:
        raise _fail(name, "game", f"expected {show(ruleset.game)} (the ruleset's game), found {_short(game_name)}")

    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise _fail(name, "seed", f"expected an integer 0..{MAX_SEED}, found {_short(seed)}")

    created = _timestamp(data["created"], name, "created")
    updated = _timestamp(data["updated"], name, "updated")

    try:
        game = create_game(ruleset)
    except (RulesetError, IllegalAction, ValueError) as err:
        raise _fail(name, "ruleset", str(err)) from None
    try:
        seats = parse_seats(data["seats"], game.seats, ruleset.game)
    except SeatError as err:
        raise _fail(name, err.where, err.message) from None

    log_json = data["log"]
    if not isinstance(log_json, list | LogText):
        raise _fail(name, "log", f"expected a list of actions, found {_short(log_json)}")
    if len(log_json) > MAX_LOG:
        raise _fail(name, "log", f"too long ({len(log_json)} actions, at most {MAX_LOG})")
    history = History(ruleset, people(seats))
    checkpoints = replay_log(history, log_json, name, checkpoint_every, on_action, version)
    looked = _looked(data.get("looked", []), name, len(seats))
    return LoadedSave(None, ruleset, seats, seed, history, created, updated, checkpoints, version, looked)


def _looked(value: Any, name: str, seats: int) -> tuple[int, ...]:
    """The seats that have looked at their hand this deal: distinct seat numbers."""
    ok = isinstance(value, list) and all(type(v) is int and 0 <= v < seats for v in value)
    if not ok or len(set(value)) != len(value):
        raise _fail(name, "looked", f"expected a list of distinct seat numbers 0..{seats - 1}, found {_short(value)}")
    return tuple(sorted(value))


def replay_log(
    history: History,
    log_json: Sequence[Any],
    name: str,
    checkpoint_every: int = 0,
    on_action: OnAction | None = None,
    version: int = VERSION,
) -> dict[int, Checkpoint]:
    """Apply every logged action to `history`; the first malformed or illegal one is a SaveError with its index.

    Returns the checkpoints: the position every `checkpoint_every` actions (none for 0), sharing the one log.
    """
    checkpoints: dict[int, Checkpoint] = {}
    if checkpoint_every > 0:
        checkpoints[0] = history.checkpoint()
    for i, entry in enumerate(log_json):
        where = f"log[{i}]"
        if not isinstance(entry, dict):
            raise _fail(name, where, f"an action must be an object, found {_short(entry)}")
        if history.game.to_move is None:
            raise _fail(name, where, "the game is already over")
        if version < 2 and entry.get("type") in V2_ACTIONS:
            kind = entry.get("type")
            raise _fail(name, where, f"a version {version} save holds no {kind} actions (version 2 added them)")
        try:
            action = history.game.action_from_json(entry)
            events = history.apply(action)
        except IllegalAction as err:
            raise _fail(name, where, str(err)) from None
        except (RecursionError, MemoryError):
            raise
        except Exception as err:
            raise _fail(name, where, f"cannot be applied ({type(err).__name__}: {str(err)[:200]})") from None
        if on_action is not None:
            on_action(i, action, events)
        if checkpoint_every > 0 and (i + 1) % checkpoint_every == 0:
            checkpoints[i + 1] = history.checkpoint()
    return checkpoints


def _timestamp(value: Any, name: str, where: str) -> str:
    if isinstance(value, str) and len(value) == 20:
        try:
            dt.datetime.strptime(value, TIME_FORMAT)
            return value
        except ValueError:
            pass
    raise _fail(name, where, f"expected a UTC time like 2026-11-22T10:00:00Z, found {_short(value)}")


# ---------------------------------------------------------------- listing


@dataclasses.dataclass(frozen=True, slots=True)
class SaveInfo:
    """One line of `cardtui saves`: a file and what it holds, or why it cannot be read."""

    path: Path
    game: str
    updated: str
    status: str  # "in_progress", "finished" or "broken"
    totals: tuple[int, ...]
    problem: str | None = None
    modified: float = 0.0


def game_in_name(path: Path) -> str:
    """The game a broken save's name suggests (`hearts-20261122-101500.json`), else "?"."""
    return path.name.split("-", 1)[0] if "-" in path.name else "?"


def list_saves(folder: Path | None = None) -> list[SaveInfo]:
    """Every `*.json` in the saves folder, most recently written first; broken files with their problem."""
    folder = saves_dir() if folder is None else folder
    if not folder.is_dir():
        return []
    files.remove_stale_locks(folder)
    out: list[SaveInfo] = []
    for path in folder.glob("*.json"):
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        try:
            loaded = load_save(path)
        except SaveError as err:
            out.append(SaveInfo(path, game_in_name(path), "", "broken", (), str(err), mtime))
            continue
        status = "finished" if loaded.game.is_over else "in_progress"
        out.append(SaveInfo(path, loaded.ruleset.game, loaded.updated, status, loaded.game.scores, None, mtime))
    # The file's own time, not the one written inside it: a save claiming year 9999 must not win.
    out.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return out


LAST_GAME_FILE = "last-game.txt"
"""In the data folder: the path of the save last played, wherever it is (`--save` may put it anywhere)."""


def remember_last_game(path: Path) -> None:
    """Note `path` as the last game played, atomically; a note that cannot be written is not worth stopping for."""
    note = home_dir() / LAST_GAME_FILE
    try:
        note.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomic(note, os.fsencode(str(Path(path).absolute())))
    except (OSError, files.FileProblem):
        return


def last_game() -> Path | None:
    """The last game played, while its save is still there and the game unfinished; else None."""
    try:
        path = Path(os.fsdecode(files.read_regular(home_dir() / LAST_GAME_FILE, "a note of the last game", 8192)))
    except (OSError, ValueError, files.FileProblem):
        return None
    if not path.is_absolute() or not files.occupied(path):
        return None
    try:
        loaded = load_save(path)
    except SaveError:
        return None
    return None if loaded.game.is_over else path


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently written game that is still in progress, for `cardtui resume` without a file."""
    for info in list_saves(folder):
        if info.status == "in_progress":
            return info.path
    return None
