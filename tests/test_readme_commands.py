"""The README's command summary: every option it shows under a command is one that command takes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

from cardtui.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def summary_lines() -> list[str]:
    """The command summary's lines (the code block under "## Command line"), an indented line (more options)
    joined to the line before it."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## Command line", 1)[1].split("```", 2)[1]
    lines: list[str] = []
    for line in block.splitlines():
        if line.startswith(" "):
            lines[-1] += " " + line.strip()
        elif line.startswith("cardtui"):
            lines.append(line)
    return lines


def options_of(command: Any) -> set[str]:
    return {o for p in command.params for o in [*p.opts, *p.secondary_opts] if o.startswith("--")}


def test_every_option_in_the_command_summary_is_one_its_command_takes() -> None:
    root: Any = typer.main.get_command(app)
    wrong: list[str] = []
    lines = summary_lines()
    assert len(lines) > 10
    for line in lines:
        words = line.split()
        command = root
        if len(words) > 1 and words[1] in root.commands:
            command = root.commands[words[1]]
            if len(words) > 2 and words[2] in getattr(command, "commands", {}):
                command = command.commands[words[2]]
        wrong += [f"{' '.join(words[:2])} {o}" for o in OPTION.findall(line) if o not in options_of(command)]
    assert wrong == []
