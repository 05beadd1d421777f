"""The host's lobby: the invitation of each open seat and who has joined; the game goes on behind it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalScroll, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.inert import inert
from cardtui.seats import Seat


class LobbyScreen(ModalScreen[None]):
    """One row per seat: its player, whether they are here, and the line to send them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,f8", "close", "Close", id="lobby.close"),
    ]

    def __init__(
        self,
        seats: Sequence[Seat],
        invitations: dict[int, str],
        you: int,
        present: list[bool],
        links: dict[int, str] | None = None,
        note: str = "",
    ) -> None:
        """`note`: a line on how the table plays (its turn timer), or ""."""
        super().__init__()
        self.note = note
        self.seats = tuple(seats)
        self.invitations = invitations
        self.links = links or {}
        """Each open seat's page in a browser (`host --web`), shown under its invitation."""
        self.you = you
        self.present = list(present)

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-dialog", classes="dialog"):
            yield Static("The table's lobby", classes="dialog-title", markup=False)
            yield Static(
                "Send each player their line; they run it in a terminal"
                + (", or open its link in a browser" if self.links else "")
                + ". The game waits on a seat nobody has taken.",
                markup=False,
            )
            if self.note:
                yield Static(self.note, id="lobby-note", markup=False)
            with HorizontalScroll(id="lobby-scroll"):
                yield Static(self.rows(), id="lobby-seats")
            yield Static("Enter or Esc: close the lobby · F8: this lobby again", markup=False)

    def rows(self, width: int | None = None) -> Text:
        """A line per seat, then the invitation line and link of each open seat under it, each on a line of its own.

        They are copied from the terminal, so never cut: a join line wider than `width` goes on two lines at its
        one safe place, `cardtui join \\` then the invitation (a shell reads the two as one command); whatever is
        still wider than the dialog scrolls sideways.
        """
        names = max(len(s.name) for s in self.seats) + 2
        text = Text(no_wrap=True, overflow="ellipsis")
        for seat, s in enumerate(self.seats):
            if seat == self.you:
                who = "you"
            elif s.is_bot:
                who = f"computer player ({s.level})"
            else:
                who = "joined" if self.present[seat] else "invited, not joined yet"
            text.append(inert(f"{s.name:<{names}}{who}") + "\n")
            line = self.invitations.get(seat)
            if line is not None:
                command, _, address = line.partition(" join ")
                if width is not None and len(line) + 2 > width and address:
                    text.append(inert(f"  {command} join \\") + "\n")
                    text.append(inert(f"    {address}") + "\n")
                else:
                    text.append(inert(f"  {line}") + "\n")
            link = self.links.get(seat)
            if link is not None:
                text.append(inert(f"  {link}") + "\n")
        text.rstrip()
        return text

    def fitted(self) -> Text:
        """The rows for the dialog's width as drawn now."""
        width = self.query_one("#lobby-scroll", HorizontalScroll).scrollable_content_region.width
        return self.rows(width or None)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_rows)

    def fit_rows(self) -> None:
        if self.is_mounted:
            self.query_one("#lobby-seats", Static).update(self.fitted())

    def show_present(self, present: list[bool]) -> None:
        self.present = list(present)
        if self.is_mounted:
            self.query_one("#lobby-seats", Static).update(self.fitted())

    def action_close(self) -> None:
        self.dismiss(None)
