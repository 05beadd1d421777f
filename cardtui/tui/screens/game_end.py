"""The end of the game: who won, the standings by rank with the score chart, and what next (play again, replay,
review, menu, quit)."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardtui.inert import inert
from cardtui.session import Session
from cardtui.source import TableSource, source_of
from cardtui.tui.common import side_name, winners_text
from cardtui.tui.screens.deal_end import side_word
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.variants import entry_of

CHOICES = (
    ("p", "again", "Play again"),
    ("r", "replay", "Replay"),
    ("v", "review", "Review"),
    ("m", "menu", "Menu"),
    ("q", "quit", "Quit"),
)
"""What comes next: the key, the choice given back (the button's id) and its words, in the buttons' order."""
HOST_ONLY = ("again", "replay", "review")
"""The choices a network table leaves to its host (the whole log and the seats are there)."""


def standings(source: TableSource) -> list[int]:
    """The sides by rank: the winners first, then by score (the lowest first where points hurt, as in Hearts)."""
    low = entry_of(source.ruleset).review.points_hurt
    scores = source.scores
    return sorted(range(len(source.sides)), key=lambda i: (i not in source.winners, scores[i] if low else -scores[i]))


def ranks(source: TableSource, order: list[int]) -> list[int]:
    """Each side's rank in `order` (1 first); sides level on the win and the score share a rank."""

    def place(i: int) -> tuple[bool, int]:
        return i not in source.winners, source.scores[i]

    return [1 + sum(place(j) != place(i) for j in order[:n]) for n, i in enumerate(order)]


ROOMY = 100
"""From this many columns the buttons fit at their usual width (`-wide`); below it they take less."""
CHART_ROWS = 28
"""From this many rows the running totals' chart shows under the standings (`-tall`); below, `h` shows it."""


class GameEndScreen(ModalScreen[str]):
    """Gives back "again" (the same rules and seats, a new deal), "replay", "review" (the replay, reviewing the
    people's decisions), "menu" or "quit"."""

    AUTO_FOCUS = ""
    """No button takes Enter or Space at first: a key still coming from the last deal's dialog (a second Enter, a
    stray Space) must not start a new game past the standings; `p` or a click does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"choose('{choice}')", label, id=f"game-end.{choice}") for key, choice, label in CHOICES),
        Binding("h,f6", "history", "Score history", id="game-end.history"),
        Binding("f1,question_mark", "help", "Help", id="game-end.help"),
    ]

    def __init__(self, table: Session | TableSource, ascii_only: bool = False) -> None:
        super().__init__()
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (ROOMY, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (CHART_ROWS, "-tall")]
        self.source = source_of(table)
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        source = self.source
        seats = source.seats
        table = Table(box=None, pad_edge=False)
        table.add_column(side_word(source.sides))
        table.add_column("score", justify="right")
        order = standings(source)
        for rank, i in zip(ranks(source, order), order, strict=True):
            side = source.sides[i]
            mark = " ★" if i in source.winners else ""
            table.add_row(Text(f"{rank}. " + inert(side_name(seats, side)) + mark), str(source.scores[i]))
        with Vertical(id="game-end-dialog", classes="dialog"):
            yield Static("Game over", classes="dialog-title", markup=False)
            yield Static(inert(winners_text(seats, source.sides, source.winners)), markup=False)
            yield Static(table, id="game-end-standings")
            if self.source.records:
                from cardtui.tui.widgets.chart import Chart

                yield Chart(self.ascii_only, id="game-end-chart")
                yield Static("h or F6: the score history, deal by deal", id="game-end-history", markup=False)
            yield Static(self.keys_line(), id="game-end-keys", markup=False)
            with Horizontal(id="game-end-buttons"):
                for _key, choice, label in CHOICES:
                    if self.offers(choice):
                        primary = choice == "again"
                        yield Button(label, id=choice, compact=True, variant="primary" if primary else "default")
        yield KeyFooter(compact=True)

    def keys_line(self) -> str:
        """The choices' keys in one line (the buttons keep to their words, so they fit 60 columns)."""
        offered = [(key, choice) for key, choice, _ in CHOICES if self.offers(choice)]
        return "  ".join([*(f"{key} {choice}" for key, choice in offered), "F1 help"])

    def offers(self, choice: str) -> bool:
        """Play again and replay are the host's at a network table; the menu is only where the app has one (a
        browser seat's, `join --no-menu`, has none)."""
        if choice == "menu" and not getattr(getattr(self.app, "start", None), "menu", True):
            return False
        return self.source.can_replay or choice not in HOST_ONLY

    def on_mount(self) -> None:
        if self.source.records:
            from cardtui.games.summary import score_history
            from cardtui.tui.screens.history import running_totals
            from cardtui.tui.widgets.chart import Chart

            source = self.source
            self.set_class(True, "-charted")
            xs, totals = running_totals(score_history(source.ruleset, source.sides, source.records))
            names = [side_name(source.seats, side) for side in source.sides]
            series = list(zip(names, totals, strict=True))
            self.query_one(Chart).lines("Running totals", xs, series, xlabel="deal", ylabel="points")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "menu")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play again and replay are the host's at a network table (the whole log and the seats are there); the
        score history is for a game of deals."""
        if action == "history":
            return bool(self.source.records)
        return action != "choose" or self.offers(str(parameters[0]))

    def action_help(self) -> None:
        """F1: this screen's keys and the game's rules."""
        from cardtui.tui.screens.help import HelpScreen

        words = {
            "again": "play again: the same rules and seats, a new seed and a new save file",
            "replay": "replay the game, every hand shown",
            "review": "review: the replay, judging the people's decisions at once (the hard computer player)",
            "menu": "back to the menu",
            "quit": "quit (the game is saved)",
        }
        keys = [(key, words[choice]) for key, choice, _ in CHOICES if self.check_action("choose", (choice,))]
        if self.source.records:
            keys.append(("h or F6", "the score history, deal by deal, and the chart of the running totals"))
        keys.append(("F1 or ?", "this help"))
        self.app.push_screen(HelpScreen(self.source.ruleset, keys))

    def action_history(self) -> None:
        from cardtui.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen.of(self.source, self.ascii_only))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
