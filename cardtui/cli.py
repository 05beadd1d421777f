"""The cardtui command line (Typer); the TUI is imported only inside commands."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="cardtui",
    help="Hearts, Spades, cutthroat Spades and Eight of Spades in the terminal.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command("version")
def version() -> None:
    """Print the cardtui version."""
    from cardtui import __version__

    typer.echo(__version__)


def main() -> None:
    app()
