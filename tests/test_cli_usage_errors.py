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
        (["play", "hearts", "--seed", "abc"], "--seed takes a whole number, found 'abc'"),
        (["host", "hearts", "--turn-timer", "abc"], "--turn-timer takes a number, found 'abc'"),
        (["bogus"], "No such command 'bogus'"),
        (["play", "hearts", "--bogus"], "No such option: --bogus"),
        (["review", "any.json", "--budget-ms", "1000000000000"], "--budget-ms takes a whole number of at most 60000"),
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


def usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`cardtui ARGS` through the console script's own entry point: its one line on stderr, status 2."""
    from cardtui.cli import main

    monkeypatch.setattr(sys, "argv", ["cardtui", *args])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.splitlines()
    return line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "hearts", "--seed", "1e5"], "--seed takes a whole number, found '1e5'"),
        (["play", "hearts", "--seed="], "--seed takes a whole number, found ''"),
        (["arena", "hearts", "--games", "2", "--games", "0"], "--games takes a whole number of at least 1, found '0'"),
        (
            ["review", "x.json", "--budget-ms=99999999"],
            "--budget-ms takes a whole number of at most 60000, found '99999999'",
        ),
    ],
)
def test_a_bad_number_is_said_in_plain_words_with_what_was_typed(
    args: list[str], said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser's own words were a data library's ("Input should be a valid integer, unable to parse string as
    an integer") and never said what was typed."""
    line = usage_error(monkeypatch, capsys, *args)
    assert line.startswith(f"cardtui: {said} (see ") and line.endswith(f" {args[0]} --help)"), line


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["play", "hearts", "--seed"], "cardtui play"),
        (["--ascii", "play", "hearts", "--seed"], "cardtui play"),
        (["rules", "new", "x", "--out"], "cardtui rules new"),
    ],
)
def test_an_option_left_without_its_value_points_at_its_commands_help(
    args: list[str], command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It pointed at `cardtui --help`, which does not list the option."""
    line = usage_error(monkeypatch, capsys, *args)
    assert line.endswith(f"requires an argument. (see {command} --help)"), line
