"""Helpers of the command-line tests: run `cardtui` in-process and check its output or its one-line error."""

from __future__ import annotations

from typer.testing import CliRunner

from cardtui.cli import app

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def bad(*args: str, match: str) -> None:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and match in lines[0], lines[0]
