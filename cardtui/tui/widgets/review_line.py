"""The review under the replay: the tally of the reviewed seats and the words for the decision in view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widget import Widget

from cardtui.inert import inert
from cardtui.variants import find_game

if TYPE_CHECKING:
    from cardtui.review import Judgement, Review


def ask(names: list[str]) -> str:
    """The line before a review: what `r` does, naming whose decisions it weighs."""
    whose = " and ".join("your" if name == "You" else f"{name}'s" for name in names)
    return f"r: review {whose} decisions (the hard computer player judges each from that seat's view alone)"


class ReviewLine(Widget):
    """Two lines: what the review found over the game, and the judgement of the action just shown."""

    def __init__(self, first: str, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_only = ascii_only
        self.lines = (inert(first), "")

    def set(self, first: str, second: str = "") -> None:
        first, second = inert(first), inert(second)
        if (first, second) != self.lines:
            self.lines = (first, second)
            self.refresh(layout=True)  # the second line may wrap to more rows or fewer

    def working(self, done: int, total: int) -> None:
        self.set(f"Reviewing… {done}/{total} decisions weighed" if total else "Reviewing…")

    def show(self, review: Review, judged: Judgement | None, note: str = "") -> None:
        """The game's tally, and `judged` (the action in view) in words, or why there is none."""
        names = [review.names[s] for s in review.seats]
        marked = review.marked()
        tally = [review.tally(s) for s in review.seats]
        loss = sum(t.loss for t in tally)
        head = f"Review ({review.level}) · {', '.join(names)}{note} · {len(review.judgements)} decisions · "
        head += f"{len(marked)} marked · loss {loss:.1f} points"
        scores = [t.accuracy for t in tally if t.accuracy is not None]
        if scores:
            head += " · accuracy " + ", ".join(f"{a:.0f}%" for a in scores)
        if find_game(review.game).reviews_win_chance:
            head += f", {round(sum(t.win_chance_loss for t in tally) * 100)} points of win chance"
        head += " · n p: marks" if marked else ""
        head += " · v: values" if judged is not None else ""
        head += " · c: chart"
        if judged is None:
            self.set(head, "This action is not one of the reviewed decisions.")
            return
        who = review.names[judged.seat]
        mark = f" {judged.mark}" if judged.mark else ""
        words = judged.why if self.ascii_only else judged.line
        self.set(head, f"{who}{mark}: {words}")

    def render(self) -> Text:
        """The first line cut to the width; the second wraps, the widget as tall as it needs."""
        first, second = self.lines
        width = max(1, self.content_size.width)
        if len(first) > width:
            first = first[: width - 1] + "…"
        return Text(f"{first}\n{second}" if second else first, overflow="ellipsis")
