"""The review under the replay: the tally of the reviewed seats and the words for the decision in view."""

from __future__ import annotations

import textwrap
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
        self.shorter: tuple[str, ...] = ()
        self.rows = 4
        """The most rows the second line takes (its end cut, naming `w`), so the hands above keep theirs."""

    def set(self, first: str, second: str = "", shorter: tuple[str, ...] = ()) -> None:
        """The two lines; `shorter` are the first line in fewer words, shortest last, for a narrow screen (the
        numbers stay: words go first)."""
        first, second = inert(first), inert(second)
        self.shorter = tuple(inert(s) for s in shorter)
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
        scores = ", ".join(f"{t.accuracy:.0f}%" for t in tally if t.accuracy is not None)
        chance = round(sum(t.win_chance_loss for t in tally) * 100)
        win = find_game(review.game).reviews_win_chance
        count, many = len(review.judgements), len(marked)
        head = f"Review ({review.level}) · {', '.join(names)}{note} · {count} decisions · "
        head += f"{many} marked · loss {loss:.1f} points"
        head += f" and {chance} points of win chance" if win else ""
        head += f" · accuracy {scores}" if scores else ""
        keys = (" · n p: marks" if marked else "") + (" · v w: values, line" if judged is not None else "")
        head += keys + " · c: chart" + (" · l: learn" if marked else "")
        short = f"{count} decisions · {many} marked · loss {loss:.1f} pts" + (f" · acc. {scores}" if scores else "")
        short += f", {chance} pts win chance" if win else ""
        tight = f"{count} dec. · {many} marked · loss {loss:.1f}" + (f" · {scores}" if scores else "")
        tight += f", {chance}% win" if win else ""
        letters = " ".join(
            [*(["n p"] if marked else []), *(["v w"] if judged is not None else []), "c", *(["l"] if marked else [])]
        )
        named = f"Review ({review.level}) · {', '.join(names)}{note} · {short} · {letters}"
        shorter = (named, f"{short} · {letters}", f"{tight} · {letters}", short, tight)
        if judged is None:
            self.set(head, "This action is not one of the reviewed decisions.", shorter)
            return
        who = review.names[judged.seat]
        mark = f" {judged.mark}" if judged.mark else (" ~" if judged.close else "")
        words = judged.why if self.ascii_only else judged.line
        self.set(head, f"{who}{mark}: {words}", shorter)

    def render(self) -> Text:
        """The first line in the most words that fit the width (cut only when even the shortest does not); the
        second wraps, the widget as tall as it needs."""
        first, second = self.lines
        width = max(1, self.content_size.width)
        first = next((line for line in (first, *self.shorter) if len(line) <= width), first)
        if len(first) > width:
            first = first[: width - 1] + "…"
        if second:
            rows = textwrap.wrap(second, width) or [""]
            if len(rows) > self.rows:  # the rest is a key away: `w` shows the line whole
                more = "… w: whole"
                rows = [*rows[: self.rows - 1], rows[self.rows - 1][: max(0, width - len(more))].rstrip() + more]
            second = "\n".join(rows)
        return Text(f"{first}\n{second}" if second else first, overflow="ellipsis")
