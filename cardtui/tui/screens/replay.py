"""The replay viewer: every hand shown, step by action, trick or deal, jump to either end.

It fits the terminal like the table (screens/fit.py): below `ROOMY` rows the hands lose their side borders
and the trick moves beside them; the scores and who is to move fold away behind F7 on a narrow terminal
(and, for a trick game, a short one); below 60x20 a notice asks for a bigger terminal.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Input, Static
from textual.worker import get_current_worker

from cardtui.games import Event
from cardtui.games.base import bid_label
from cardtui.games.summary import counts_bags
from cardtui.games.trick import TrickGame
from cardtui.hand_order import HandOrder, arrange
from cardtui.inert import inert
from cardtui.replay import Replay
from cardtui.tui.common import (
    ascii_text,
    card_label,
    describe,
    seat_name,
    side_name,
    taken_back_text,
)
from cardtui.tui.messages import BackToMenu
from cardtui.tui.screens.fit import MIN_HEIGHT, MIN_WIDTH, TALL, WIDE, FitsTerminal
from cardtui.tui.screens.history import side_label
from cardtui.tui.seating import seating
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.review_line import ReviewLine, ask
from cardtui.tui.widgets.size_notice import SizeNotice
from cardtui.tui.widgets.trick import Trick
from cardtui.variants import entry_of
from cardtui.variants.trick import tricks_text

STEPS = (
    ("right", "forward", "Action →"),
    ("left", "back", "← Action"),
    ("down", "next_trick", "Trick →"),
    ("up", "prev_trick", "← Trick"),
    ("pagedown", "next_deal", "Deal →"),
    ("pageup", "prev_deal", "← Deal"),
    ("home", "start", "Start"),
    ("end", "end", "End"),
)
"""The timeline's keys: the key, the Replay method it calls and the footer's words."""
FOOTER_STEPS = ("forward", "next_trick", "next_deal")
"""The steps the footer names, so it fits 100 columns; the side panel and F1 name them all."""
GRID_HIDDEN_STEPS = ("next_trick", "prev_trick", "next_deal", "prev_deal")
"""Steps an Eight of Spades replay does not offer: it has no tricks and a single layout."""
ROOMY = 28
"""From this many rows the hands keep their borders and the trick sits under them (`-compact` below)."""
STEP_HELP = (
    ("→ / ←", "one action forward / back", ""),
    ("↓ / ↑", "to the end of this trick / back to the end of the one before", "trick"),
    ("PgDn / PgUp", "to the next deal / back to the deal before", "trick"),
    ("Home / End", "to the start / to the end of the game", ""),
)
"""The help's lines for the steps; the third part says the steps are only for trick games."""

NARROW_VALUES = 80
"""Below this many columns `v` and learn show the values' compact lines (`review.option_lines`)."""
LEARN_PROMPT = "a card (QS), a bid (4, nil) or a pass (QS AH KH)"
LEARN_PROMPTS = {"play": "your card (QS)", "bid": "your bid (4, nil)", "pass": "your pass (QS AH KH)"}
"""Learn's field says what the decision in view takes; another kind of decision gets the general words."""


CUT_ROOM = 20
"""On a narrow status line, the fewest columns the action's words keep before the action and the deal go."""
MARK_WORDS = {"?": "marked ?", "??": "marked ??"}
"""How the status line names a decision's mark (after a `·`, so it never reads as hidden cards)."""

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardtui.cards import Card
    from cardtui.review import Judgement, Review
    from cardtui.tui.screens.confirm import ConfirmScreen


def _code(card: Card) -> str:
    return card.code


def _glyph(card: Card) -> str:
    return card.glyph


@dataclasses.dataclass
class ReviewProgress(Message):
    """The review worker weighed `done` of `total` decisions."""

    done: int
    total: int


@dataclasses.dataclass
class ReviewDone(Message):
    """The review of the save is ready (or `problem` says why there is none)."""

    review: Review | None
    note: str = ""
    problem: str = ""
    kept: str = ""
    """What became of the accuracy kept for the statistics, when there is something to tell."""


class LearnInput(Input):
    """Learn's field: ctrl+u clears it at once, in turn with the keys typed after it (as a binding it would
    clear them too when they come in one burst, and Enter would hand in an empty answer)."""

    def key_ctrl_u(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.value = ""


class _Stopped(Exception):
    """The screen went away while its review was running."""


class ReplayScreen(FitsTerminal):
    """Read-only: the timeline moves, the game in it never changes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="replay.help"),
        # Before the steps, so that a footer too narrow for every key (60 columns) still says how to leave.
        Binding("escape", "close", "Back", id="replay.close"),
        *(
            Binding(key, f"step('{step}')", label, id=f"replay.{step.replace('_', '-')}", show=step in FOOTER_STEPS)
            for key, step, label in STEPS
        ),
        Binding("r", "review", "Review", id="replay.review"),
        Binding("n", "mark('next')", "Next mark", id="replay.next-mark"),
        Binding("p", "mark('previous')", "← Mark", id="replay.prev-mark", show=False),
        Binding("v", "values", "Values", id="replay.values", show=False),
        Binding("w", "why", "Whole line", id="replay.why", show=False),
        Binding("c", "chart", "Loss chart", id="replay.chart", show=False),
        Binding("l", "learn", "Learn", id="replay.learn", show=False),
    ]
    NOTICE_ACTIONS: ClassVar[frozenset[str]] = frozenset({"close"})
    """Esc goes back from behind the size notice (it says so): leaving a replay decides nothing."""

    def __init__(
        self, replay: Replay, ascii_only: bool = False, order: HandOrder | None = None, review: bool = False
    ) -> None:
        """`review`: start reviewing the people's decisions at once (the game's end offers it)."""
        super().__init__()
        self.review_at_once = review
        self.replay = replay
        self.ascii_only = ascii_only
        self.order = order
        self.seats = replay.loaded.seats
        self.game_name = replay.loaded.ruleset.game
        self.entry = entry_of(replay.loaded.ruleset)
        self.review: Review | None = None
        self.review_note = ""
        self.toured: int | None = None
        """Where the last `n` or `p` jumped to: going on past the last mark from there is going round again."""
        self.reviewing = False
        self.stop_dialog: ConfirmScreen | None = None
        """While the review runs, the dialog Esc opened to ask before dropping it (it goes when the review ends)."""
        self.learning: list[Judgement] | None = None
        """In learn mode, the marked decisions to practise (the first is the one in view); None otherwise."""
        self.learned: list[bool] = []
        """Per decision practised, whether the choice typed was as good as the best."""
        self.tricks = self.entry.board == "table"

    def compose(self) -> ComposeResult:
        yield Static("", id="status", markup=False)
        with Horizontal(id="main"):
            if not self.tricks:
                assert self.entry.grid is not None  # a game not drawn on the table is drawn on the grid
                yield GridBoard(self.entry.grid, self.ascii_only, interactive=False, id="board")
            else:
                with Vertical(id="replay-table"):
                    with Vertical(id="replay-hands"):
                        cells = seating(len(self.seats))
                        for seat in sorted(range(len(self.seats)), key=lambda s: cells[s]):  # as seated, top first
                            hand = Hand(ascii_only=self.ascii_only, interactive=False, id=f"replay-hand-{seat}")
                            hand.add_class("replay-hand")
                            yield hand
                    yield Trick(self.ascii_only, id="trick")
            with Vertical(id="side"):
                yield Static("", id="scores", markup=False)
                yield Static("", id="replay-info", markup=False)
                yield GameLog(self.tell, id="replay-log")
        people = [seat.name for seat in self.seats if not seat.is_bot] or [seat_name(self.seats, 0)]
        yield ReviewLine(ask(people), self.ascii_only, id="review-line")
        yield LearnInput(placeholder=LEARN_PROMPT, id="learn-input", disabled=True)
        yield self.size_notice()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.redraw()
        if self.review_at_once:
            self.action_review()

    def size_notice(self) -> SizeNotice:
        return SizeNotice(MIN_WIDTH, MIN_HEIGHT, "to see the replay (Esc goes back, ctrl+q quits).", id="size-notice")

    def on_resize(self, event: events.Resize) -> None:
        """`-compact` below ROOMY rows; `-fold` where the side panel folds away (F7 shows it): a narrow terminal,
        or for a trick game a short one, whose hands need every row. FitsTerminal's handler runs after."""
        width, height = event.size
        self.set_class(height < ROOMY, "-compact")
        self.set_class(width < WIDE or (self.tricks and MIN_HEIGHT <= height < TALL), "-fold")
        self.query_one(ReviewLine).rows = 2 if height < ROOMY else 4  # the hands keep their rows
        self.query_one(Footer).compact = width < WIDE
        self.redraw()  # the status line's words fit the width

    def action_help(self) -> None:
        from cardtui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.replay.loaded.ruleset, self.key_help()))

    def key_help(self) -> list[tuple[str, str]]:
        """Every key of the replay, for F1: the steps that apply to this game, the review, the side panel."""
        keys = [(key, what) for key, what, only in STEP_HELP if self.tricks or not only]
        keys += [
            ("r", "review the people's decisions (the hard computer player judges each from that seat's view)"),
            ("n / p", "once reviewed: to the next / previous marked decision"),
            ("v", "once reviewed: every choice of the decision in view, with its value and how sure it is"),
            ("w", "once reviewed: the review's whole line for the decision in view, however small the screen"),
            ("c", "once reviewed: the running loss over the game and each reviewed seat's accuracy"),
            ("l", "once reviewed: learn from the marked decisions (each shown without its answer: type yours)"),
            ("F7", "on a small terminal: the scores and who is to move, in place of the table (F7 again: back)"),
            ("F1 or ?", "this help"),
            ("Esc", "back (to the list of saves the replay was chosen in, if it was)"),
            ("ctrl+q", "quit"),
        ]
        return keys

    def action_step(self, how: str) -> None:
        getattr(self.replay, how)()
        self.redraw()

    # ------------------------------------------------------------ the review

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The mark keys work once a review is ready (shown dimmed before); Eight of Spades has no tricks and
        one layout, so only the steps that apply are offered. Behind the size notice only Esc, which it names."""
        if self.hidden_action(action):
            return False
        if action == "step" and not self.tricks:
            return parameters[0] not in GRID_HIDDEN_STEPS
        if action == "mark":  # once reviewed, with no mark it says so rather than do nothing
            return True if self.review is not None else None
        if action in ("values", "why", "chart", "learn") and self.reviewing:
            return True  # they say they wait for the review
        if action in ("values", "why"):
            return True if self._judged() is not None else None
        if action == "chart":
            return True if self.review is not None else None
        if action == "learn":
            return True if self.review is not None and self.learning is None else None
        if action == "review":
            return None if self.reviewing or self.review is not None else True
        if action == "toggle_side":
            return self.has_class("-fold")
        return super().check_action(action, parameters)

    def _waits(self, key: str) -> bool:
        """While the review runs, `key` says it waits for it (and does nothing else)."""
        if self.reviewing:
            self.app.notify(f"{key}: waits for the review to finish.", markup=False)
        return self.reviewing

    def action_review(self) -> None:
        if self.reviewing or self.review is not None:
            return
        self.reviewing = True
        self.query_one(ReviewLine).working(0, 0)
        self.refresh_bindings()
        self.review_worker()

    @work(thread=True, exclusive=True, group="review")
    def review_worker(self) -> None:
        """Weigh the people's decisions (seat 0's when every seat is a computer player), off the event loop."""
        from cardtui.files import FileProblem
        from cardtui.review import ReviewError, record, review

        worker = get_current_worker()
        loaded = self.replay.loaded
        people = [i for i, seat in enumerate(loaded.seats) if not seat.is_bot]
        note = "" if people else " (every seat is a computer player: seat 0 is reviewed)"
        if self.replay.in_progress:  # as `cardtui review` says: the game goes on, its finished deals are weighed
            note += " · finished deals"

        def tick(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Stopped
            self.post_message(ReviewProgress(done, total))

        try:
            result = review(loaded, people or [0], progress=tick)
        except _Stopped:
            return
        except ReviewError as err:
            self.post_message(ReviewDone(None, problem=str(err)))
            return
        kept = ""
        if people:  # a person's accuracy, for the statistics' trend (one that cannot be written is told)
            try:
                kept = record(result, loaded) or ""
            except (FileProblem, OSError) as err:
                kept = f"the review's accuracy was not kept for the statistics: {err}"
        self.post_message(ReviewDone(result, note, kept=kept))

    def on_review_progress(self, message: ReviewProgress) -> None:
        if self.reviewing:
            self.query_one(ReviewLine).working(message.done, message.total)

    def on_review_done(self, message: ReviewDone) -> None:
        self.reviewing = False
        dialog, self.stop_dialog = self.stop_dialog, None
        if dialog is not None and self.app.screen is dialog:  # its question is moot: leaving loses nothing now
            dialog.dismiss(False)
            ended = "finished" if message.review is not None else "ended"
            self.app.notify(f"The review {ended}: Esc now leaves the replay.", markup=False)
        if message.review is None:
            self.query_one(ReviewLine).set(f"No review: {message.problem}")
        else:
            self.review, self.review_note = message.review, message.note
            self.redraw()
            if message.kept:
                kept = inert(message.kept)
                self.app.notify(kept[:1].upper() + kept[1:] + ("" if kept.endswith(".") else "."), markup=False)
        self.refresh_bindings()

    def action_mark(self, direction: str) -> None:
        """Jump to just after the next (or previous) marked decision, so it is the action in view (round again
        from the other end)."""
        if self.review is None or self._none_marked():
            return
        stops = [j.index + 1 for j in self.review.marked()]
        here = self.replay.position
        ahead = [s for s in stops if s > here] if direction == "next" else [s for s in stops if s < here][::-1]
        if not ahead:  # from the other end: "round again" only when going on round the marks
            ahead = stops if direction == "next" else stops[::-1]
            again = (
                "Round again" if here == self.toured else "From the start" if direction == "next" else "From the end"
            )
            self.app.notify(  # a dialog opened at once clears it (see _dialog)
                f"{again}: the {'first' if direction == 'next' else 'last'} marked decision.", markup=False
            )
        self.replay.seek(ahead[0])
        self.toured = ahead[0]
        self.redraw()

    def _none_marked(self) -> bool:
        """Whether the review marks no decision; if so, one line says that `n`, `p` and `l` have none to show."""
        if self.review is None or self.review.marked():
            return False
        close = sum(1 for j in self.review.judgements if j.close)
        said = f" ({close} too close to call, shown ~)" if close else ""
        self.app.notify(f"No decision is marked{said}: n, p and l have none to show.", markup=False)
        return True

    def _judged(self) -> Judgement | None:
        """The review's judgement of the action in view, if there is a review and the action was weighed."""
        position = self.replay.position
        return self.review.at(position - 1) if self.review is not None and position > 0 else None

    def _judged_named(self, key: str) -> tuple[Judgement, Callable[[Card], str], str, str] | None:
        """For `key`'s dialog, the judgement in view with how this screen writes a card, who decided and the
        decision's title (who, the phase, the action); None if nothing was weighed, or while the review runs (the
        key says it waits)."""
        from cardtui.review import say_action

        judged = None if self._waits(key) else self._judged()
        if judged is None:
            return None
        text = _code if self.ascii_only else _glyph
        who = seat_name(self.seats, judged.seat)
        return judged, text, who, f"{who}, {judged.phase}: {say_action(judged.action, text)}"

    def action_values(self) -> None:
        """Every choice of the decision in view, valued."""
        from cardtui.review import option_lines
        from cardtui.tui.screens.review_values import ValuesScreen

        named = self._judged_named("v")
        if named is None:
            return
        judged, text, _who, title = named
        compact = self.narrow()
        note = "± two standard errors; choices that play the same share a line's numbers. Esc or v: close"
        if compact:
            note = "±: two standard errors; <: chosen. Esc: close"
        title = f"{title} ({self._direction(judged)})"
        self.app.clear_notifications()  # no note over the dialog
        self.app.push_screen(ValuesScreen(title, option_lines(judged, text, compact=compact), note))

    def action_why(self) -> None:
        """The review's words for the decision in view, whole (the line under the replay may be cut short)."""
        from cardtui.tui.screens.review_values import WhyScreen

        named = self._judged_named("w")
        if named is None:
            return
        judged, _text, who, title = named
        mark = f" {judged.mark}" if judged.mark else (" ~" if judged.close else "")
        words = judged.why if self.ascii_only else judged.line
        self.app.clear_notifications()
        self.app.push_screen(WhyScreen(title, [f"{who}{mark}: {words}"], "Esc or w: close"))

    def _direction(self, judged: Judgement) -> str:
        """Which way each column of `v` is better: where points hurt (Hearts) the points are points taken."""
        if judged.unit != "points":
            return f"{judged.unit}, higher is better"
        if self.entry.review.points_hurt:
            return "value: higher is better; points taken: lower is better"
        return "value and points: higher is better"

    def narrow(self) -> bool:
        """Whether the screen is too narrow for the values' full lines (`v`, and learn's answer)."""
        return self.app.size.width < NARROW_VALUES

    def action_chart(self) -> None:
        """The running loss over the game, per reviewed seat."""
        from cardtui.review import running_loss
        from cardtui.tui.screens.review_chart import LossChartScreen

        if self._waits("c"):
            return
        review = self.review
        if review is None:
            return
        series = [(seat_name(self.seats, s), running_loss(review, s)) for s in review.seats]
        scores = []
        for s in review.seats:
            tally = review.tally(s)
            shown = "no choices" if tally.accuracy is None else f"accuracy {tally.accuracy:.0f}%"
            deals = [review.tally(s, d).accuracy for d in review.deals()]
            by_deal = " ".join("-" if a is None else f"{a:.0f}" for a in deals)
            scores.append(f"{seat_name(self.seats, s)}: {shown} (by deal: {by_deal})")
        title = "Expected loss in points, summed decision by decision"
        self.app.clear_notifications()
        self.app.push_screen(LossChartScreen(title, series, "; ".join(scores) + ". Esc or c: close", self.ascii_only))

    def action_learn(self) -> None:
        """Step to each marked decision in turn with its answer hidden; the person types a choice, then sees the
        values of every choice."""
        if self._waits("l"):
            return
        if self.review is None or self.learning is not None or self._none_marked():
            return
        self.learning, self.learned = list(self.review.marked()), []
        self._learn_next()

    def _learn_next(self) -> None:
        """Show the next decision to practise (the position before it), or the tally when none is left."""
        assert self.learning is not None
        field = self.query_one("#learn-input", Input)
        if not self.learning:
            good = sum(self.learned)
            self.learning = None
            field.display, field.disabled = False, True
            self.remove_class("-learning")
            self.redraw()
            self.query_one(ReviewLine).set(
                f"Learn: done · {good} of {len(self.learned)} choices as good as the best · l: again"
            )
            self.refresh_bindings()
            return
        judged = self.learning[0]
        self.replay.seek(judged.index)
        self.redraw()
        self.query_one(ReviewLine).set(self._learn_prompt(judged))
        field.value = ""
        field.placeholder = LEARN_PROMPTS.get(judged.phase, LEARN_PROMPT).replace("pass ", f"pass{self._way(judged)} ")
        field.display, field.disabled = True, False
        self.add_class("-learning")
        field.focus()
        self.refresh_bindings()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from cardtui.review import learn_answer, option_lines, say_action, typed_choice
        from cardtui.tui.screens.review_values import ValuesScreen

        if event.input.id != "learn-input" or not self.learning:
            return
        event.stop()
        judged = self.learning[0]
        field = self.query_one("#learn-input", Input)
        typed = field.value or event.value  # what the field holds now, all of a fast typist's keys in it
        answer = learn_answer(judged, self.replay.state_at(judged.index).legal_actions(), typed)
        if isinstance(answer, str):
            field.value = ""
            shorter = (answer.partition(" — ")[0],) if " — " in answer else ()  # what is wrong, on a narrow screen
            self.query_one(ReviewLine).set(answer, self._learn_prompt(judged), shorter)
            return
        yours = answer
        prompt = self._learn_prompt(judged)
        valued = typed_choice(judged, say_action(yours, _code))
        best = judged.options[0]
        text = _code if self.ascii_only else _glyph
        compact = self.narrow()
        if valued is None:  # legal, but not among the passes worth weighing
            self.learned.append(False)
            title = f"Yours: {say_action(yours, text)} is not among the valued passes; these are"
            lines = option_lines(judged, text, compact=compact)
        else:
            value = next(o.value for o in judged.options if valued in (o.action, *o.alike))
            self.learned.append(value >= best.value - 1e-9)
            title = (
                f"Yours: {say_action(yours, text)} · played: {say_action(judged.action, text)} · "
                f"best: {say_action(best.action, text)}"
            )
            lines = option_lines(judged, text, valued, compact=compact)
        note = "± two standard errors. Enter or Esc: the next marked decision"
        if compact:
            note = "±: two standard errors; <: played. Enter: next"
        self.query_one(ReviewLine).set(prompt)  # no stale refusal under the answer
        self.learning.pop(0)
        field.display, field.disabled = False, True
        self.app.clear_notifications()
        self.app.push_screen(ValuesScreen(title, lines, note), self._learned_one)

    def _way(self, judged: Judgement) -> str:
        """` left` (the pass's direction, in the game's words) for a pass; empty otherwise."""
        if judged.phase != "pass":
            return ""
        way = self.entry.review.way(self.replay.state_at(judged.index).view(judged.seat))
        return f" {way}" if way else ""

    def _learn_prompt(self, judged: Judgement) -> str:
        """`Learn 1/3 · You to pass left: what would you do? Esc: stop`."""
        assert self.learning is not None
        done = len(self.learned) + 1
        total = done + len(self.learning) - 1
        who = seat_name(self.seats, judged.seat)
        return f"Learn {done}/{total} · {who} to {judged.phase}{self._way(judged)}: what would you do? Esc: stop"

    def _learned_one(self, _: None) -> None:
        if self.learning is not None:
            self._learn_next()

    def _stop_learning(self) -> None:
        if self.learning:  # stay at the decision in view, just after it, where its verdict is told
            self.replay.seek(self.learning[0].index + 1)
        self.learning = None
        self.remove_class("-learning")
        field = self.query_one("#learn-input", Input)
        field.display, field.disabled = False, True
        self.redraw()
        self.refresh_bindings()

    def _mark_of(self, position: int) -> str:
        """` · marked ??` after the action in view, when the review marked it."""
        judged = self.review.at(position - 1) if self.review is not None and position > 0 else None
        return f" · {MARK_WORDS[judged.mark]}" if judged is not None and judged.mark else ""

    def _show_review(self) -> None:
        if self.review is not None and self.learning is None:
            position = self.replay.position
            judged = self.review.at(position - 1) if position > 0 else None
            self.query_one(ReviewLine).show(self.review, judged, self.review_note)
            self.refresh_bindings()  # `v` is offered only on a weighed decision

    def action_close(self) -> None:
        if self.learning is not None:  # Esc in learn mode stops it; the replay stays
            self._stop_learning()
            return
        if self.reviewing:
            from cardtui.tui.screens.confirm import ConfirmScreen

            self.app.clear_notifications()
            question = "The review is still running; leaving the replay stops it and its work is lost."
            self.stop_dialog = ConfirmScreen("Stop the review?", question, "leave", "stay")
            self.app.push_screen(self.stop_dialog, self._leave)
            return
        self._leave(True)

    def _leave(self, yes: bool | None) -> None:
        self.stop_dialog = None
        if not yes:
            return
        self.workers.cancel_group(self, "review")
        self.reviewing = False
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.post_message(BackToMenu())

    def redraw(self) -> None:
        r = self.replay
        game = r.game
        pos = f"action {r.position}/{len(r)}"
        last = r.last_action()
        undone = r.taken_back()
        if undone is not None:
            said = taken_back_text(undone, self.seats, self.ascii_only, past=True)
        else:
            said = "the start" if last is None else self._say(last.to_json())
        mark = "" if undone is not None or last is None else self._mark_of(r.position)
        deal = r.deal_index() + 1
        # named as the table names it: the rules' title ("Hearts for six"), after the game's where it doesn't say it
        rules = self.replay.loaded.ruleset.title
        named = rules if rules.startswith(self.entry.title) else f"{self.entry.title} · {rules}"
        finished = " · finished deals" if r.in_progress else ""
        title = named + finished
        where = f" · deal {deal}" if self.entry.has_deals and deal > 0 else ""  # none before the first deal
        at = "at" if last is None and undone is None else "after"
        status = f" Replay · {title} · {pos}{where} · {at} {said}{mark}"
        width = self.app.size.width
        if width < WIDE or (self.tricks and len(status) > width):  # a second line would cost the hands a row
            status = self._narrow_status(title, finished, where, said, mark)
        self.query_one("#status", Static).update(self._plain(status))
        self._show_review()
        lines = ["Scores as of this step"]
        for i, side in enumerate(game.sides):
            lines.append(f"{side_name(self.seats, side)[:16]:<16} {game.scores[i]:>5}")
        if isinstance(game, TrickGame) and counts_bags(game.ruleset) and any(game.bags):
            lines.append(
                "Bags: "
                + " · ".join(
                    f"{side_label(self.seats, side)} {bags}" for side, bags in zip(game.sides, game.bags, strict=True)
                )
            )
        self.query_one("#scores", Static).update(self._plain("\n".join(lines)))
        tm = game.to_move
        if tm is None:
            next_up = "to move: nobody (over)"
        elif game.is_chance:  # the cards are dealt next, by whoever deals, not by the seat the state names
            next_up = "next: the deal"
        else:
            next_up = f"to move: {seat_name(self.seats, tm.seat)}, {tm.phase}"
        info = ["", next_up]
        if self.tricks:
            info.append("→ ← action · ↓ ↑ trick · PgDn PgUp deal · Home End")
        else:
            info.append("→ ← action · Home End")
        info.append("r review · n p marks")
        self.query_one("#replay-info", Static).update(self._plain("\n".join(info)))
        self.show_log()
        if not self.tricks:
            grid = self.entry.grid
            assert grid is not None  # every game drawn on the grid has its places and words
            v = grid.view(game.view(0))
            shown = r.position and self._learner() is None  # learning, the seat sees no face-down card
            hidden = grid.faces_down(game) if shown else None
            self.query_one(GridBoard).show(v.faces, v.down, v.locked, hidden)
            return
        assert isinstance(game, TrickGame)
        view = game.view(0)
        for seat in range(len(self.seats)):
            hand = self.query_one(f"#replay-hand-{seat}", Hand)
            bid = view.bids[seat]
            extra = f" · bid {bid.label()}" if bid is not None else ""
            hand.border_title = Text(
                self._plain(f"{seat_name(self.seats, seat)}{extra} · {tricks_text(view.tricks_won[seat])}")
            )
            received = game.view(seat).received  # a pass's cards, marked `*` all deal
            held = arrange(game.hand(seat), self.order, self.replay.loaded.ruleset.trumps)
            unseen = self._learner() not in (None, seat)  # learning, only the asked seat's hand is face up
            hand.show(held, None, face_down=unseen, received=None if unseen else set(received))
        trick = self.query_one(Trick)
        trick.count = len(self.seats)
        if view.trick:
            trick.show(view.trick, f"{seat_name(self.seats, view.trick[0][0])} led")
        elif view.tricks and last is not None and last.type in ("play", "claim"):
            _, winner, cards = view.tricks[-1]
            trick.show(cards, f"{seat_name(self.seats, winner)} took it")
        else:
            trick.show((), "")

    def _narrow_status(self, title: str, finished: str, where: str, said: str, mark: str) -> str:
        """The status line in one line of a narrow screen (or of a trick game's, where the whole line would wrap and
        cost the hands a row), the mark (` · marked ??`) always in it: the words that matter least go first (the
        rules' title for the game's short name, then `action`, `finished deals`, the deal); when the action's words
        are too long even so, a line without a mark wraps, and a marked one has the end of the action's words cut
        with `…` after the game's short name, the action and the deal, or only the
        action's count when that would leave them fewer than `CUT_ROOM`."""
        r = self.replay
        width = self.app.size.width
        short = self.entry.title
        count = f"{r.position}/{len(r)}"
        tries = (
            f" {title} · action {count}{where} · ",
            f" {short}{finished} · action {count}{where} · ",
            f" {short}{finished} · {count}{where} · ",
            f" {short} · {count}{where} · ",
            f" {short} · {count} · ",
        )
        for head in tries:
            if len(head) + len(said) + len(mark) <= width:
                return f"{head}{said}{mark}"
        if not mark:  # nothing to keep on the line: it wraps where the screen has the room (the grid's has)
            return f"{tries[1]}{said}"
        head = tries[1]  # cut, the action's words keep their room (the fewest words only if they must)
        room = width - len(head) - len(mark) - 1  # what is left of the action's words, less the `…`
        if room < CUT_ROOM:
            head = tries[-1]
            room = width - len(head) - len(mark) - 1
        return f"{head}{said[: max(0, room)].rstrip()}…{mark}"

    def tell(self, event: Event, viewer: int | None) -> str | None:
        """A log line as the seat that acted knows it: a replay shows every hand, so a pass names its cards.
        Learning, every line is told as the asked seat knew it."""
        seat = getattr(event, "seat", None)
        learner = self._learner()
        if learner is not None:
            return describe(event, self.seats, learner, self.ascii_only)
        return describe(event, self.seats, seat if isinstance(seat, int) else viewer, self.ascii_only)

    def _learner(self) -> int | None:
        """In learn mode, the seat whose decision is asked: the table then shows only what that seat knew."""
        return self.learning[0].seat if self.learning else None

    def show_log(self) -> None:
        """The log beside the table: this deal's actions up to the position, the newest at the bottom."""
        log = self.query_one(GameLog)
        log.entries.clear()
        log.entries.extend(self.replay.deal_events())
        log.refresh()

    def _plain(self, text: str) -> str:
        return ascii_text(inert(text, lines=True), self.ascii_only)

    def _say(self, data: dict[str, object]) -> str:
        kind = data.get("type")
        seat = data.get("seat")
        who = seat_name(self.seats, seat) if isinstance(seat, int) else ""
        if kind == "deal":
            return "the deal"
        if kind == "play":
            from cardtui.cards import parse_card

            return f"{who} played {card_label(parse_card(str(data['card'])), self.ascii_only)}"
        if kind == "bid":
            return f"{who} bid {bid_label(int(str(data['bid'])), bool(data.get('blind')))}"
        if kind == "pass":
            return f"{who} passed" if data.get("cards") else f"{who} passed no cards"
        if kind == "flip":
            return self._say_flip(who)
        if kind == "claim":
            return f"{who} claimed the remaining tricks"
        return str(kind)

    def _say_flip(self, who: str) -> str:
        """`South called H, flipped D4: 9H, a match: collected 5 cards` — the last flip and what came of it."""
        r = self.replay
        last = r.last_action()
        assert last is not None
        grid = self.entry.grid
        came = r.state_at(r.position - 1).apply(last)  # the flip's events: what came of it
        said = "" if grid is None else grid.said(came, who, lambda card: card_label(card, self.ascii_only))
        return said or f"{who} flipped"
