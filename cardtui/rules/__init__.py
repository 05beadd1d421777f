"""Rulesets: one typed dataclass per game, TOML presets, strict loading."""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import tomli_w

from cardtui.files import FileProblem, file_on_the_way, looped, read_regular, special, write_atomic
from cardtui.rules.base import META_KEYS, Ruleset, RulesetError, knob_help, not_a_table, show
from cardtui.rules.eight_of_spades import EightOfSpadesRules
from cardtui.rules.hearts import HeartsRules
from cardtui.rules.spades import SpadesRules

__all__ = [
    "GAMES",
    "RULESETS",
    "EightOfSpadesRules",
    "HeartsRules",
    "OtherGame",
    "Ruleset",
    "RulesetError",
    "SeatCountConflict",
    "SpadesRules",
    "default_preset",
    "dump_toml",
    "for_players",
    "house_rules",
    "knobs_over_preset",
    "list_presets",
    "load_preset",
    "load_ruleset",
    "names_a_file",
    "preset_name_problem",
    "read_house_rules",
    "resolve_ruleset",
    "ruleset_class",
    "ruleset_from_dict",
    "target_problem",
    "write_toml",
]

RULESETS: tuple[type[Ruleset], ...] = (HeartsRules, SpadesRules, EightOfSpadesRules)
"""Every game's ruleset class; each names the games it is for (`GAMES`)."""

GAMES: dict[str, type[Ruleset]] = {game: cls for cls in RULESETS for game in cls.GAMES}
"""Each game's ruleset class, by the game's name, in the order the games are listed everywhere."""


def ruleset_class(game: str) -> type[Ruleset]:
    """The ruleset type of a game, or a RulesetError naming the games."""
    try:
        return GAMES[game]
    except KeyError:
        raise RulesetError(f"unknown game {show(game)} — choose one of {', '.join(GAMES)}") from None


def ruleset_from_dict(data: Any, where: str = "") -> Ruleset:
    """Validate a ruleset table whose `game` key says which game it is for."""
    if not isinstance(data, dict):
        raise not_a_table(data, where)
    game = data.get("game")
    if game is None:
        raise RulesetError(f"{where}game is missing: a ruleset names its game, one of {', '.join(GAMES)}")
    if not isinstance(game, str) or game not in GAMES:
        raise RulesetError(f"{where}game: expected one of {', '.join(GAMES)}, found {show(game)}")
    return GAMES[game].from_dict(data, where)


def preset_dir() -> Path:
    """Where the shipped presets are: inside the package when installed, else the checkout's config/."""
    here = Path(__file__).resolve().parent.parent
    inside = here / "config"
    return inside if inside.is_dir() else here.parent / "config"


MAX_TOML_BYTES = 1024 * 1024
"""Bigger TOML files are refused unread: a ruleset is a few KB, and parsing 64 MB of TOML takes ~40 s."""
UTF8_MAYBE_BOM = "utf-8-sig"
"""TOML files are UTF-8; one that starts with a byte-order mark (as some Windows editors save them) is read too."""
MAX_NESTING = 16
"""Arrays and inline tables nested deeper than this are refused before parsing (no ruleset nests at all)."""
MAX_KEY_PARTS = 16
"""Dotted keys longer than this are refused before parsing: the parser's cost grows with their square."""
_STRING = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'  # multi-line basic string
    r"|'''.*?'''"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'  # basic string
    r"|'[^'\n]*'",  # literal string
    re.S,
)


def check_toml_shape(text: str) -> str | None:
    """Why a TOML text is too deep or its keys too long to parse safely, or None when it is fine.

    Strings and comments are skipped; what is left is scanned for bracket
    nesting and for the dots of one dotted key (a value's dots, as in 1.5,
    are few and end at the next `=`, `,` or line).
    """
    depth = dots = 0
    pos = 0
    for match in _STRING.finditer(text):
        problem = _scan(text[pos : match.start()], depth, dots)
        if isinstance(problem, str):
            return problem
        depth, dots = problem
        pos = match.end()
    found = _scan(text[pos:], depth, dots)
    return found if isinstance(found, str) else None


def _scan(chunk: str, depth: int, dots: int) -> tuple[int, int] | str:
    comment = False
    for ch in chunk:
        if comment:
            comment = ch != "\n"
            continue
        if ch == "#":
            comment = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return f"nested more than {MAX_NESTING} deep"
            dots = 0
        elif ch in "]}":
            depth = max(depth - 1, 0)
            dots = 0
        elif ch in "=,\n":
            dots = 0
        elif ch == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                return f"a dotted key of more than {MAX_KEY_PARTS} parts"
    return depth, dots


def _read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's table: a regular file of at most MAX_TOML_BYTES, of a sane shape, else a RulesetError."""
    try:
        text = read_regular(path, "a TOML file", MAX_TOML_BYTES).decode(UTF8_MAYBE_BOM)
    except FileProblem as err:
        raise RulesetError(str(err)) from None
    except UnicodeDecodeError as err:
        raise RulesetError(f"{path}: not a text file (byte {err.start} is not UTF-8)") from None
    problem = check_toml_shape(text)
    if problem:
        raise RulesetError(f"{path}: not a ruleset: {problem}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesetError(f"{path}: not valid TOML: {err}") from None
    except (RecursionError, MemoryError):
        raise RulesetError(f"{path}: not a ruleset: too deep or too big to read") from None


def load_ruleset(path: str | Path) -> Ruleset:
    """Load and validate a TOML ruleset file; the knobs it leaves out take its game's preset's values (the
    preset for its `players` when there is one, `hearts-3`, else the game's default preset)."""
    p = Path(path)
    return _from_table(_read_toml(p), p)


def _from_table(data: dict[str, Any], path: Path) -> Ruleset:
    ruleset = ruleset_from_dict(_with_preset_defaults(data), f"{path}: ")
    problem = preset_name_problem(ruleset)
    if problem:
        raise RulesetError(f"{path}: {problem}")
    return ruleset


@functools.cache
def _preset_seats(game: str) -> Mapping[str, int]:
    """The seat count of each of a game's shipped presets, by name, read from the files' `players` (4 when a
    preset leaves it out). Read once: every ruleset and save loaded asks, and the shipped files don't change."""
    seats: dict[str, int] = {}
    for path in preset_dir().glob(f"{game}*.toml"):
        if path.stem == game or path.stem.removeprefix(f"{game}-") != path.stem:
            players = _read_toml(path).get("players", 4)
            seats[path.stem] = players if isinstance(players, int) else 4
    return MappingProxyType(seats)


def preset_name_problem(ruleset: Ruleset, saved: bool = False) -> str | None:
    """Why rules bearing a shipped preset's name for another player count can't be used (a menu, `inspect` and
    the statistics would call a 3-seat game `hearts`, a 4-seat one `hearts-3`), or None. A `saved` ruleset may
    bear the game's own preset's name (`hearts`) at another count: games saved before the presets for other
    counts existed were named so."""
    seats = _preset_seats(ruleset.game).get(ruleset.name)
    if seats is None or seats == ruleset.seats or (saved and ruleset.name == ruleset.game):
        return None
    return (
        f"name: {show(ruleset.name)} is the name of the preset for {seats} players, but these rules have "
        f"players = {ruleset.seats}; give them a name of their own"
    )


def knobs_over_preset(game: str, knobs: Mapping[str, Any], where: str = "") -> Ruleset:
    """Knobs over the game's preset for their `players` (else its default preset), read as a TOML file's are:
    the API's dict of knobs and a file take the same base."""
    return ruleset_from_dict(_with_preset_defaults({"game": game, **knobs}), where)


def _with_preset_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A file's table over the knobs of its game's preset for its `players` (so `game = "hearts"` with
    `players = 3` passes as hearts-3 does), else its default preset, the one named after the game (so
    `game = "cutthroat"` alone is cutthroat)."""
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        return data
    players = data.get("players")
    counted = preset_dir() / f"{game}-{players}.toml"
    if type(players) is int and counted.is_file():
        preset = _read_toml(counted)
    else:
        preset = _read_toml(preset_dir() / f"{game}.toml")
    knobs = {f.name for f in GAMES[game].knobs()}
    return {k: v for k, v in preset.items() if k in knobs} | data


def list_presets() -> list[Ruleset]:
    """Every shipped preset, sorted by file name, a preset for another player count (`hearts-3`) after its game's."""

    def order(path: Path) -> tuple[str, int]:
        base, _, count = path.stem.rpartition("-")
        return (f"{base}.toml", int(count)) if count.isdigit() else (path.name, 0)

    return [load_ruleset(p) for p in sorted(preset_dir().glob("*.toml"), key=order)]


def read_house_rules(folder: Path) -> tuple[list[tuple[Path, Ruleset]], list[Path]]:
    """The rulesets among a folder's `*.toml` files, by file name, and the files that could not be read (a
    missing folder has none). Read like any ruleset file: regular files only, size-capped."""
    found: list[tuple[Path, Ruleset]] = []
    broken: list[Path] = []
    try:
        paths = sorted(folder.glob("*.toml"))
    except OSError:
        return [], []
    for path in paths:
        try:
            found.append((path, load_ruleset(path)))
        except (RulesetError, OSError):
            broken.append(path)
    return found, broken


def load_preset(name: str) -> Ruleset:
    """A shipped preset by name (the file name without .toml); only the presets' own folder is read."""
    names = sorted(p.stem for p in preset_dir().glob("*.toml"))
    if name not in names:
        raise RulesetError(f"no preset named {show(name)} — the presets are {', '.join(names)}")
    return load_ruleset(preset_dir() / f"{name}.toml")


def default_preset(game: str) -> Ruleset:
    """The preset a game uses when none is given: every game's default preset is named after the game."""
    ruleset_class(game)
    return load_preset(game)


class SeatCountConflict(RulesetError):
    """Rules that name their own player count (a preset for a count, a file that writes `players`) asked for at
    another count; `preset` is the game's preset for the count asked, if it has one; `path` the file, if one."""

    def __init__(self, ruleset: Ruleset, players: int, preset: str | None, path: Path | None = None) -> None:
        self.ruleset, self.players, self.preset, self.path = ruleset, players, preset, path
        other = f" (the preset for {players} is {preset})" if preset else ""
        super().__init__(f"the rules {show(ruleset.name)} are for {ruleset.seats} players, not {players}{other}")


class OtherGame(RulesetError):
    """Rules for another game than the one asked for; `ruleset` says which game they are for."""

    def __init__(self, ruleset: Ruleset, asked: str) -> None:
        self.ruleset = ruleset
        super().__init__(f"the rules {ruleset.name!r} are for {ruleset.game}, not {asked}")


def names_a_file(spec: str) -> bool:
    """Whether a player's `--rules` (or `rules show`) names a TOML file rather than a preset."""
    return spec.endswith(".toml") or "/" in spec or Path(spec).is_file() or Path(spec).is_symlink()


def resolve_ruleset(game: str, spec: str | Path | None, players: int | None = None) -> Ruleset:
    """The rules a player names for `game`: a preset's name or a TOML file's path (None: the game's default),
    for `players` seats when given.

    The one reading of `--rules` and the API's `ruleset`, so both accept the same things. Rules that say how
    many play keep their count: a preset for a count (`hearts-5`) or a file that writes `players`, asked for
    at another count, is a SeatCountConflict. Rules that don't are re-seated: the game's own preset (`hearts`)
    becomes the preset for that count (`hearts-3`) and a file without `players` takes that count, the knobs it
    leaves out coming from that preset.
    """
    fixed, path = True, None
    if spec is None:
        chosen, fixed = default_preset(game), False
    elif isinstance(spec, Path) or names_a_file(spec):
        path = Path(spec)
        data = _read_toml(path)
        knobs = {f.name for f in ruleset_class(game).knobs()}
        if players is not None and "players" not in data and data.get("game") == game and "players" in knobs:
            data = data | {"players": players}
        chosen = _from_table(data, path)
    else:
        chosen = load_preset(spec)
        fixed = spec != game
    if chosen.game != game:
        raise OtherGame(chosen, game)
    if players is None or chosen.seats == players:
        return chosen
    if fixed:
        names = sorted(_preset_seats(game).items(), key=lambda item: (item[0] != game, item[0]))
        preset = next((name for name, n in names if n == players), None)
        raise SeatCountConflict(chosen, players, preset, path)
    return for_players(chosen, players)


COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
"""How a preset's title says its count: "Hearts for six"."""


def for_players(ruleset: Ruleset, players: int) -> Ruleset:
    """The rules for a table of `players` seats: `ruleset` itself at its own count; the game's preset for that
    count when `ruleset` is one of the game's presets (hearts-5 for 3 is hearts-3, whose pass suits three), or
    the game's own preset retitled for the count where none is shipped ("Eight of Spades for three");
    else `ruleset` with its `players` knob changed, validated like a file, and (when it still bears a preset's
    name, which its title would contradict) renamed as house rules. RulesetError says what is allowed."""
    if "players" not in {f.name for f in type(ruleset).knobs()}:
        raise RulesetError(f"{ruleset.game} is played by 4 players, not {players}")
    if ruleset.seats == players:
        return ruleset
    presets = _presets_of(ruleset.game)
    if ruleset.name not in presets:
        return ruleset.replace(players=players)
    by_count = {preset.seats: preset for preset in presets.values()}
    if ruleset == presets[ruleset.name] and players in by_count:
        return by_count[players]
    if ruleset == presets[ruleset.name] and ruleset.name == ruleset.game:  # no preset for the count: the same rules
        count = COUNT_WORDS[players]
        return ruleset.replace(
            players=players,
            name=f"{ruleset.game}-{players}",
            title=f"{ruleset.title} for {count}",
            description=f"{count.capitalize()} players; otherwise the {ruleset.title} preset.",
        )
    base = by_count.get(players, presets[ruleset.game])
    named = ruleset.replace(name=base.name, title=base.title, description=base.description)
    return house_rules(base, named.replace(players=players))


def _presets_of(game: str) -> dict[str, Ruleset]:
    """A game's shipped presets by name: the one named after it and those for other counts (`hearts-3`)."""
    presets: dict[str, Ruleset] = {}
    for path in preset_dir().glob(f"{game}*.toml"):
        count = path.stem.removeprefix(f"{game}-")
        if path.stem == game or (count != path.stem and count.isdigit()):
            presets[path.stem] = load_preset(path.stem)
    return presets


def house_rules(base: Ruleset, changed: Ruleset | None = None) -> Ruleset:
    """`changed` (or `base` itself) as a player's own rules: named, titled and described for what they are.

    A name, title or description the player wrote is kept; one still equal to
    the preset's becomes `my-NAME`, `My TITLE` and a description listing the
    knobs that differ from the preset (the editor and `rules new` both use this).
    """
    rules = changed or base
    plain, before = rules.to_dict(), base.to_dict()
    diffs = [
        f"{f.name} {_said(plain[f.name])} (was {_said(before[f.name])})"
        for f in type(rules).knobs()
        if plain[f.name] != before[f.name]
    ]
    started = f"House rules started from the {base.name} preset, {base.title}."  # still true once edited by hand
    description = started if not diffs else f"{base.title} with " + "; ".join(diffs)
    if len(description) > 290:
        description = description[:280].rsplit(";", 1)[0] + "; and more."
    elif diffs:
        description += "."
    said = f"The {base.name} preset's notes; where a knob in this file says otherwise, the knob counts."
    notes = rules.notes if rules.notes != base.notes or not base.notes else f"{said}\n{base.notes}"
    return rules.replace(
        name=rules.name if rules.name != base.name else f"my-{base.name}",
        title=rules.title if rules.title != base.title else f"My {base.title}",
        description=rules.description if rules.description != base.description else description,
        notes=notes,
    )


def _said(value: Any) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value).lower()


def _comment(text: str) -> str:
    words, lines, line = text.split(), [], "#"
    for w in words:
        if len(line) + len(w) + 1 > 78:
            lines.append(line)
            line = "#"
        line += " " + w
    lines.append(line)
    return "\n".join(lines) + "\n"


def dump_toml(ruleset: Ruleset) -> str:
    """A complete TOML file for a ruleset, every knob with a comment saying what it does and allows."""
    cls = type(ruleset)
    plain = ruleset.to_dict()
    out = [_comment(f"{ruleset.title}: {ruleset.description}" if ruleset.description else ruleset.title)]
    out.append("\n")
    for key in META_KEYS:
        out.append(tomli_w.dumps({key: plain[key]}, multiline_strings=True))
    for field in cls.knobs():
        out.append("\n")
        out.append(_comment(knob_help(field)))
        out.append(tomli_w.dumps({field.name: plain[field.name]}))
    return "".join(out)


def write_toml(path: Path, text: str, make_folders: bool = False) -> None:
    """Write a ruleset file atomically; never inside the installed package (its presets are everyone's defaults)."""
    package = Path(__file__).resolve().parent.parent
    where = Path(os.path.realpath(Path(path).expanduser()))  # never raises, on a link loop either
    for inside in (package, preset_dir().resolve()):
        if where == inside or inside in where.parents:
            raise RulesetError(f"{path}: inside cardtui's own files ({inside}); save house rules elsewhere")
    if make_folders:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise RulesetError(f"{path}: cannot create the folder {where.parent} ({err.strerror})") from None
    try:
        write_atomic(where, text.encode("utf-8"))
    except OSError as err:
        raise RulesetError(f"{path}: cannot write it ({err.strerror})") from None
    except FileProblem as err:
        raise RulesetError(str(err)) from None


def target_problem(path: Path) -> str | None:
    """Why `path` can't be where a ruleset is written (no name given, a folder, a device, a file where a folder
    should be), or None."""
    if str(path).strip() in ("", "."):
        return "no file name given: write the path of a .toml file"
    path = path.expanduser()
    try:
        folder = path.is_dir()
    except OSError:  # a name longer than the file system allows: the write says so
        return None
    if folder:
        return f"{path}: is a folder; write the path of a .toml file in it"
    if looped(path):
        return f"{path}: a link that leads round in a loop, to no file; write the path of a .toml file"
    if (kind := special(path)) is not None:
        return f"{path}: is {kind}, not a file to write; write the path of a .toml file"
    if (blocker := file_on_the_way(path)) is not None:
        return f"{path}: {blocker} is a file, not a folder; write the path of a .toml file"
    return None
