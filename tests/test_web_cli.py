"""`cardtui serve` and `host --web`'s options: a wrong value is one sentence and exit status 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cardtui.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["serve", "--tabs", "0"], "--tabs: expected 1..64, found 0"),
        (["serve", "--port", "70000"], "--port: expected 0..65535, found 70000"),
        (["serve", "--tls-cert", "x.pem"], "--tls-cert and --tls-key go together"),
        (["host", "hearts", "--web-port", "8080"], "--web-port is for --web"),
        (["host", "hearts", "--web", "--web-port", "-1"], "--web-port: expected 0..65535, found -1"),
    ],
)
def test_a_wrong_web_option_is_one_sentence(args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output


def test_serve_says_its_limit_of_tabs_in_its_help() -> None:
    result = runner.invoke(app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "at most this many tabs" in result.output


def test_join_without_an_invitation_says_where_to_put_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDTUI_INVITATION", raising=False)
    result = runner.invoke(app, ["join"])
    assert result.exit_code == 2 and "CARDTUI_INVITATION" in result.output


def test_join_takes_its_invitation_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser seat's process gets its invitation there, off its command line; a bad one is refused the same."""
    monkeypatch.setenv("CARDTUI_INVITATION", "http://not-an-invitation")
    result = runner.invoke(app, ["join"])
    assert result.exit_code == 2 and "an invitation looks like ws://HOST:PORT/#TOKEN" in result.output
