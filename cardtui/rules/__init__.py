"""Rulesets: one typed dataclass per game, TOML presets, strict loading."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from cardtui.rules.base import META_KEYS, Check, Ruleset, RulesetError, show
from cardtui.rules.eight_of_spades import EightOfSpadesRules
from cardtui.rules.hearts import HeartsRules
from cardtui.rules.spades import SpadesRules

__all__ = [
    "GAMES",
    "EightOfSpadesRules",
    "HeartsRules",
    "Ruleset",
    "RulesetError",
    "SpadesRules",
    "default_preset",
    "dump_toml",
    "list_presets",
    "load_preset",
    "load_ruleset",
    "ruleset_class",
    "ruleset_from_dict",
]

GAMES: dict[str, type[Ruleset]] = {
    "hearts": HeartsRules,
    "spades": SpadesRules,
    "cutthroat": SpadesRules,
    "eight-of-spades": EightOfSpadesRules,
}

_DEFAULT_PRESET = {
    "hearts": "hearts",
    "spades": "spades",
    "cutthroat": "cutthroat",
    "eight-of-spades": "eight-of-spades",
}


def ruleset_class(game: str) -> type[Ruleset]:
    """The ruleset type of a game, or a RulesetError naming the games."""
    try:
        return GAMES[game]
    except KeyError:
        raise RulesetError(f"unknown game {show(game)} — choose one of {', '.join(GAMES)}") from None


def ruleset_from_dict(data: Any, where: str = "") -> Ruleset:
    """Validate a ruleset table whose `game` key says which game it is for."""
    if not isinstance(data, dict):
        raise RulesetError(f"{where}expected a table of knobs, found {show(data)}")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RulesetError(f"{where}game: expected one of {', '.join(GAMES)}, found {show(game)}")
    return GAMES[game].from_dict(data, where)


def preset_dir() -> Path:
    """Where the shipped presets are: inside the package when installed, else the checkout's config/."""
    here = Path(__file__).resolve().parent.parent
    inside = here / "config"
    return inside if inside.is_dir() else here.parent / "config"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise RulesetError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RulesetError(f"{path}: is a folder, not a TOML file") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{path}: not a text file (it is not UTF-8)") from None
    except OSError as err:
        raise RulesetError(f"{path}: cannot be read ({err.strerror})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesetError(f"{path}: not valid TOML: {err}") from None


def load_ruleset(path: str | Path) -> Ruleset:
    """Load and validate a TOML ruleset file; the knobs it leaves out take its game's default preset's values."""
    p = Path(path)
    return ruleset_from_dict(_with_preset_defaults(_read_toml(p)), f"{p}: ")


def _with_preset_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A file's table over its game's default preset knobs (so `game = "cutthroat"` alone is cutthroat)."""
    game = data.get("game")
    if not isinstance(game, str) or game not in _DEFAULT_PRESET:
        return data
    preset = _read_toml(preset_dir() / f"{_DEFAULT_PRESET[game]}.toml")
    knobs = {f.name for f in GAMES[game].knobs()}
    return {k: v for k, v in preset.items() if k in knobs} | data


def list_presets() -> list[Ruleset]:
    """Every shipped preset, sorted by name."""
    return [load_ruleset(p) for p in sorted(preset_dir().glob("*.toml"))]


def load_preset(name: str) -> Ruleset:
    """A shipped preset by name (the file name without .toml)."""
    path = preset_dir() / f"{name}.toml"
    if not path.is_file():
        names = ", ".join(p.stem for p in sorted(preset_dir().glob("*.toml")))
        raise RulesetError(f"no preset named {show(name)} — the presets are {names}")
    return load_ruleset(path)


def default_preset(game: str) -> Ruleset:
    """The preset a game uses when none is given."""
    ruleset_class(game)
    return load_preset(_DEFAULT_PRESET[game])


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
        check: Check = field.metadata["check"]
        out.append("\n")
        doc = field.metadata["doc"]
        out.append(_comment(f"{doc[0].upper()}{doc[1:]}. Allowed: {check.allowed()}."))
        out.append(tomli_w.dumps({field.name: plain[field.name]}))
    return "".join(out)
