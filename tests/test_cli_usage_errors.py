"""A wrong option value, an unknown option or command: one line on stderr and status 2, as every user error ends
(the installed command, not the test runner, is what prints it)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "hearts", "--seed", "abc"], "Invalid value for '--seed'"),
        (["host", "hearts", "--turn-timer", "abc"], "Invalid value for '--turn-timer'"),
        (["bogus"], "No such command 'bogus'"),
        (["play", "hearts", "--bogus"], "No such option: --bogus"),
        (["review", "any.json", "--budget-ms", "1000000000000"], "less than or equal to 60000"),
    ],
)
def test_a_usage_error_is_one_line_with_status_2(args: list[str], said: str, tmp_path: object) -> None:
    env = {**os.environ, "CARDTUI_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "cardtui", *args], capture_output=True, text=True, timeout=60, env=env, check=False
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtui: ") and said in lines[0], done.stderr
    assert "--help" in lines[0]


def test_a_group_without_its_command_shows_its_help_and_names_the_commands(tmp_path: object) -> None:
    """`cardtui rules` alone printed its help and then an empty error line: `cardtui:  (see ...)`."""
    env = {**os.environ, "CARDTUI_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "cardtui", "rules"], capture_output=True, text=True, timeout=60, env=env, check=False
    )
    assert done.returncode == 2 and "cardtui rules [OPTIONS] COMMAND" in done.stdout
    (line,) = done.stderr.splitlines()
    assert line.startswith("cardtui: say which command: list, show, validate, new (see ")
    assert line.endswith("cardtui rules --help)")
