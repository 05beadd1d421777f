"""The table of a trick game: seats, the trick, your hand, scores, the log and the prompt."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Static

from cardtui.cards import Card, parse_card
from cardtui.games import Action, Event
from cardtui.games.base import Bid, Claim, Pass, Phase, Play
from cardtui.games.trick import CardsPassed, Claimed, DealRecord, DealScored, TrickGame, TrickView, TrickWon
from cardtui.inert import inert
from cardtui.rules.trick import TrickRules
from cardtui.session import Session
from cardtui.source import TableSource
from cardtui.tui.common import (
    card_codes_shown,
    card_label,
    name_column,
    possessive,
)
from cardtui.tui.screens.dialog import Keys, TableHelp
from cardtui.tui.screens.fit import FitsTerminal
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.seating import CELLS, TRICK_CELL, place_of, seating
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.prompt_bar import PromptBar
from cardtui.tui.widgets.scoreboard import Scoreboard
from cardtui.tui.widgets.seat_panel import SeatPanel
from cardtui.tui.widgets.text_line import TextLines
from cardtui.tui.widgets.tracker import DealSoFar, PlayedTrick, Tracker
from cardtui.tui.widgets.trick import MOVE_SECONDS, Trick
from cardtui.variants import entry_of
from cardtui.variants.base import TableWords, name_and_verb
from cardtui.variants.trick import tricks_text

SIDE_TEXT = 25
"""The side panel's text width at its narrowest (wider from `ROOMY`): the scores' lines fit it."""
ROOMY = (120, 36)
"""From this size (columns, rows) the tracker stands beside the table as a panel, leaving the log room (below,
F10 shows it)."""
BIG_SIZE = (120, 40)
"""From this size (columns, rows) the trick and the hand are drawn as wide cards."""
PLAY_PROMPT = "Your turn: type a card (10C, qs) and Enter, or ←/→ and Enter, or click"


class TableScreen(FitsTerminal, GameScreen):
    """A trick game (every game its registry entry draws on the table), drawn from the seat at the keyboard.

    The seat of the person at the keyboard sits at the bottom and the others
    clockwise from it (left, over the top, right: `seating.py` places 3 to 6
    seats), so in a hot-seat game the table turns to each person as they take
    the keyboard. The panel `#seat-N` is the Nth place clockwise from the
    bottom. What a seat's panel, the scores, a pass and a bid say are the
    entry's `table_words`: points taken (Hearts) or bids and bags (Spades).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f3", "last_trick", "Last trick", id="table.last"),
        Binding("enter,space", "collect", "Collect the trick", id="table.collect", priority=True),
        # `!` too: a browser tab (`cardtui serve`, `host --web`) may take F5 to reload the page.
        Binding("f5,exclamation_mark", "claim", "Claim", id="table.claim", show=False),
        # Not in the footer: at 80 columns it would push ctrl+q off; F1's help and the deal end name it.
        Binding("f6", "history", "Score history", id="table.history", show=False),
        # Not in the footer either (it would push ctrl+q off at 100 columns): F1's help names it, and from 120
        # columns the tracker stands beside the table anyway.
        Binding("f10", "tracker", "Played", id="table.tracker", show=False),
        # Only while F7's panel stands in place of the table, whose scoreboard may be taller than it (F1 names them).
        Binding("pagedown", "scroll_scores(1)", "Scores ↓", id="table.scores-down", show=False),
        Binding("pageup", "scroll_scores(-1)", "Scores ↑", id="table.scores-up", show=False),
    ]
    MOVE_KEYS: ClassVar[Keys] = (
        ("10C, tc, QS, qs + Enter", "play the card typed"),
        ("← →, Enter or Space", "move along your hand and play the card"),
        ("click", "play a card"),
        ("Backspace / Esc", "erase / clear what you typed"),
    )
    MORE_KEYS: ClassVar[Keys] = (
        ("F3", "show the last trick"),
        ("F4 / shift+F4", "computer players faster / slower: slow, normal, fast, instant (remembered)"),
        ("F5 or !", "claim the remaining tricks when they are surely yours (asks first, then shows them)"),
        ("F6", "score history: every deal so far and a chart of the running totals"),
        (
            "F10",
            "what has been played: cards by suit and this deal's tricks, who led and took each (beside the table "
            f"from {ROOMY[0]}x{ROOMY[1]})",
        ),
        ("Enter, Space or click", "collect a finished trick (when Settings has click to collect the trick on)"),
        ("F9", "settings: speed, theme, suits as letters, hint level, click to collect, hand order, confirm bids"),
        (
            "F7",
            "on a narrow terminal: the scores and the log in place of the table (F7 again: back); PgDn / PgUp scroll"
            " the scores when they are longer than the screen",
        ),
    )
    NOT_YET = "Not your turn to play yet."

    def __init__(self, session: Session | TableSource, settings: Settings, resumed: bool = False) -> None:
        super().__init__(session, settings, resumed)
        self.entry = entry_of(self.source.ruleset)
        assert self.entry.table_words is not None  # every game the table draws has its words
        self.words: TableWords = self.entry.table_words
        self.count = len(self.source.seats)
        """How many sit at the table."""
        self.held: tuple[tuple[tuple[int, Card], ...], str] | None = None
        self.pending_record: DealRecord | None = None
        self.show_last = False
        self.face_down = False
        self.bottom = self.viewer if self.viewer is not None else 0
        """The seat drawn at the bottom: the person's at the keyboard, kept while the hand is hidden."""
        self.collecting = False
        """A finished trick waits for Enter, Space or a click (the click-to-collect setting)."""
        self.showing_received = False
        """The pass just ended: the table waits a moment so the person sees the cards they received."""
        self.claim: tuple[str, list[str]] | None = None
        """A claim's title and its played-out tricks, one a line, shown before the deal's end."""

    def compose(self) -> ComposeResult:
        yield TextLines("", id="status")
        with Horizontal(id="main"):
            with Grid(id="felt"):
                places = {cell: place for place, cell in enumerate(seating(self.count))}
                for cell in range(CELLS):
                    if cell == TRICK_CELL:
                        yield Trick(self.ascii_only, id="trick")
                    elif cell in places:
                        yield SeatPanel(places[cell], id=f"seat-{places[cell]}")
                    else:
                        yield Static("", classes="corner")
            with Vertical(id="side"):
                yield Scoreboard(id="scores")
                yield Tracker(self.ascii_only, id="tracker-panel")
                yield GameLog(self.tell, self.viewer, id="log")
        hand = Hand(ascii_only=self.ascii_only, id="hand")
        hand.on_press = self.settle_trick
        hand.border_title = "Your hand"
        yield hand
        yield PromptBar(id="promptbar")
        yield self.size_notice()
        yield KeyFooter()

    # ------------------------------------------------------------ drawing

    def place(self, seat: int) -> int:
        """Where a seat is drawn: its place clockwise from the bottom (at four: 0 bottom, 1 left, 2 top, 3 right)."""
        return place_of(seat, self.bottom, self.count)

    def view(self) -> TrickView:
        seat = self.viewer if self.viewer is not None else (self.humans[0] if self.humans else 0)
        view = self.source.view(seat)
        assert isinstance(view, TrickView)
        return view

    def paused(self) -> bool:
        return self.held is not None or self.showing_received

    @staticmethod
    def received_cards(v: TrickView) -> set[Card]:
        """The cards a pass (or an exchange) brought this seat, while it has not yet played to the deal's first trick.

        Read from the seat's view, so the marks come back when a game is resumed.
        """
        if v.phase != "play" or v.tricks or any(seat == v.seat for seat, _ in v.trick):
            return set()
        return set(v.received) & set(v.hand)

    @staticmethod
    def passing_cards(v: TrickView) -> set[Card]:
        """The cards this seat chose to pass, while they stay in its hand until every seat has chosen (a network
        table waits for people); they are marked like cards chosen in the pass dialog."""
        return set(v.detail.passed) & set(v.hand)

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        v = self.view()
        seats = self.source.seats
        tm = v.to_move
        if self.viewer is not None:
            self.bottom = self.viewer
        for seat in range(self.count):
            detail = self.words.seat_line(v, seat)
            to_move = tm is not None and tm.seat == seat and tm.phase != "deal" and self.held is None
            panel = self.query_one(f"#seat-{self.place(seat)}", SeatPanel)
            panel.seat = seat
            panel.show(seats[seat].name, detail, to_move, v.dealer == seat)
        # the trick
        trick = self.query_one(Trick)
        trick.bottom = self.bottom
        trick.count = self.count
        trick.motion = MOVE_SECONDS[self.settings.speed] if self.settings.trick_delay > 0 else 0.0
        if self.held is not None:
            trick.show(*self.held)
        elif self.show_last and v.tricks:
            _, winner, cards = v.tricks[-1]
            trick.show(cards, f"{self.who(winner)} took the last trick")  # who first: a narrow trick cuts the end
        elif v.trick:
            trick.show(v.trick, f"{self.who(v.trick[0][0])} led")
        elif tm is not None and tm.phase == "play":
            trick.show((), f"{self.who(tm.seat)} to lead")
        else:
            trick.show((), "")
        # scores
        lines = self.scores(v)
        lines.append(f"Deal {max(v.deal_number, 1)} · speed {self.settings.speed}")
        if self.entry.progress is not None and not v.is_over:
            lines += self.entry.progress(v, [self.who(seat) for seat in range(self.count)])
        self.query_one(Scoreboard).show(lines)
        self.query_one("#tracker-panel", Tracker).show(self.played(v))
        # status
        title = self.entry.title
        whose = self.whose_turn(v)
        # the rules' title alone when it names the game ("Spades (partnership)"), never "Spades · Spades (…)"
        named = v.ruleset.title if v.ruleset.title.startswith(title) else f"{title} · {v.ruleset.title}"
        self.set_status(f" {named} · {whose}")
        # the hand
        hand = self.query_one(Hand)
        if self.viewer is None:
            hand.border_title = "Hand hidden"
            hand.show([], None, face_down=True)
            return
        if self.source.face_down:
            hand.border_title = "Your hand: face down until you look or bid"
            hand.show([], None, face_down=True)
            return
        hand.border_title = Text(
            inert("Your hand" if len(self.humans) < 2 else f"{possessive(self.who(self.viewer))} hand")
        )
        held = self.in_order(v.hand)
        legal: set[Card] | None = None
        if tm is not None and tm.seat == self.viewer and tm.phase == "play" and self.held is None:
            legal = {a.card for a in v.legal if isinstance(a, Play)}
        hand.show(held, legal, self.passing_cards(v), self.face_down, self.received_cards(v))

    def played(self, v: TrickView) -> DealSoFar:
        """What has been played this deal as everyone saw it: the cards, the taken tricks then the one being played,
        who sits where, and the cards the ruleset takes out of the pack at this many players (none at four)."""
        tricks = [
            PlayedTrick(self.who(leader), tuple(card for _, card in cards), self.who(winner))
            for leader, winner, cards in v.tricks
        ]
        if v.trick:
            tricks.append(PlayedTrick(self.who(v.trick[0][0]), tuple(card for _, card in v.trick)))
        rules = v.ruleset
        removed = [parse_card(code) for code in rules.removed] if isinstance(rules, TrickRules) else []
        names = tuple(self.who(seat) for seat in range(self.count))
        return DealSoFar(frozenset(v.played), tuple(tricks), names, tuple(removed))

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.page_scores()
        self.set_class(event.size.width >= ROOMY[0] and event.size.height >= ROOMY[1], "-roomy")
        big = event.size.width >= BIG_SIZE[0] and event.size.height >= BIG_SIZE[1]
        self.set_class(big, "-big")
        self.query_one(Trick).set_big(big)
        self.query_one(Hand).set_big(big)

    def on_key(self, event: events.Key) -> None:
        self.settle_trick()

    def settle_trick(self) -> None:
        """Any key puts a card on its way to the trick in its place at once."""
        if self.is_mounted:
            self.query_one(Trick).settle()

    def action_toggle_side(self) -> None:
        super().action_toggle_side()
        self.page_scores()

    def page_scores(self) -> None:
        """The scoreboard goes a page at a time while F7's panel stands in place of the table (PgDn, PgUp)."""
        self.query_one(Scoreboard).set_paged(self.has_class("-narrow") and self.has_class("-side-open"))

    def action_scroll_scores(self, way: int) -> None:
        """A page of the scoreboard down or up: F7's panel is as tall as the screen leaves it, a cutthroat
        contract per seat and the notes may be taller."""
        self.query_one(Scoreboard).page(way)

    def action_tracker(self) -> None:
        from cardtui.tui.screens.tracker import TrackerScreen

        self.app.push_screen(TrackerScreen(self.played(self.view()), self.ascii_only))

    def scores(self, v: TrickView) -> list[str]:
        """The scoreboard in the entry's words: each side's total (its names in a column as wide as fits), then
        the lines under them (hearts or spades broken, the pass)."""
        standing = self.words.scores(v, [seat.name for seat in self.source.seats])
        return [standing.heading, *name_column(standing.rows, SIDE_TEXT, standing.least), *standing.notes]

    # ------------------------------------------------------------ events

    def handle(self, events: list[Event]) -> None:
        super().handle(events)
        self.show_last = False
        for event in events:
            match event:
                case Claimed(seat=seat, tricks=tricks):
                    title = name_and_verb(self.who(seat), "claims", "claim") + f" the last {tricks_text(tricks)}"
                    self.claim = (title, [])
                case TrickWon(seat=seat, leader=leader, cards=cards) if self.claim is not None:
                    played = ", ".join(
                        f"{self.who((leader + i) % self.count)} {card_label(card, self.ascii_only)}"
                        for i, card in enumerate(cards)
                    )
                    self.claim[1].append(f"{played}: {name_and_verb(self.who(seat), 'takes', 'take')} it.")
                case TrickWon(seat=seat, leader=leader, cards=cards) if (
                    self.settings.trick_delay > 0 or self.settings.click_to_collect
                ):
                    seats = [(leader + i) % self.count for i in range(len(cards))]
                    self.held = (
                        tuple(zip(seats, cards, strict=True)),
                        name_and_verb(self.who(seat), "takes it", "take it"),
                    )
                case DealScored(record=record):
                    self.pending_record = record
                case CardsPassed(seat=giver, to=to, cards=cards) if (
                    to == self.viewer and cards and self.settings.trick_delay > 0
                ):
                    shown = " ".join(card_label(c, self.ascii_only) for c in self.in_order(cards))
                    self.showing_received = True
                    self.show_prompt(
                        f"{name_and_verb(self.who(to), 'receives', 'receive')} {shown} from {self.who(giver)}."
                    )
        if self.showing_received:
            self.set_timer(self.settings.trick_delay, self.received_seen)
        if self.held is not None:
            if self.settings.click_to_collect:
                self.collecting = True
                self.refresh_bindings()
                self.show_prompt(f"{self.held[1]}. Enter, Space or a click collects the trick.")
            else:
                self.show_prompt(f"{self.held[1]}.")
                self.set_timer(self.settings.trick_delay, self.gather)

    def received_seen(self) -> None:
        """The pause after a pass is over; the marks stay on the cards until the person plays."""
        self.showing_received = False
        self.redraw()
        self.advance()

    def gather(self) -> None:
        """The finished trick leaves the table."""
        if self.held is None:
            return
        self.held = None
        if self.collecting:
            self.collecting = False
            self.refresh_bindings()
        self.redraw()
        self.advance()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Collect the trick is a key only while a finished trick waits for it (else Enter plays a card); the scores
        scroll only while F7's panel stands in place of the table (a narrow terminal)."""
        if action == "collect":
            return self.collecting and self.app.screen is self and not self.hidden_action(action)
        if action == "scroll_scores":
            return self.has_class("-narrow") and self.has_class("-side-open") and not self.hidden_action(action)
        return super().check_action(action, parameters)

    def action_collect(self) -> None:
        self.gather()

    def on_click(self) -> None:
        self.query_one(Trick).settle()
        if self.collecting and not self.hidden_action("collect"):  # a click on the size notice collects nothing
            self.gather()

    def settings_closed(self, result: None) -> None:
        super().settings_closed(result)
        if self.collecting and not self.settings.click_to_collect:
            self.gather()  # the setting was turned off while a trick waited for a click

    def before_turn(self) -> bool:
        if self.pending_record is None:
            return False
        from cardtui.tui.screens.claimed import ClaimedScreen
        from cardtui.tui.screens.deal_end import DealEndScreen

        record, self.pending_record = self.pending_record, None
        claim, self.claim = self.claim, None
        self.waiting = True
        self.show_prompt("The deal is over.")

        def done(_: None) -> None:
            self.waiting = False
            self.redraw()
            self.advance()

        def deal_end(_: None = None) -> None:
            self.open_dialog(DealEndScreen(self.source, record, self.ascii_only, self.action_settings), done)

        if claim is None:
            deal_end()
        else:
            self.open_dialog(ClaimedScreen(f"{claim[0]}:", claim[1]), deal_end)
        return True

    # ------------------------------------------------------------ people

    def ask_person(self, seat: int, phase: Phase) -> None:
        if phase == "play":
            self.turn_came()
            self.show_prompt(PLAY_PROMPT if len(self.humans) < 2 else f"{self.who(seat)}: " + PLAY_PROMPT[11:])
            self.query_one(Hand).focus()
        elif self.lobby_in_front():
            doing = "bid" if phase == "bid" else "pass cards"
            self.show_prompt(f"{self.who(seat)} to {doing}: close the lobby (Enter) to choose")
        elif phase == "bid":
            self.ask_bid(seat)
        elif phase in ("pass", "exchange"):
            self.ask_pass(seat, phase)

    def ask_bid(self, seat: int) -> None:
        from cardtui.tui.screens.bid import BidScreen

        v = self.view()
        bids = [a for a in v.legal if isinstance(a, Bid)]
        if self.source.has_looked(seat):
            bids = [b for b in bids if not b.blind]  # the hand was seen this deal (before leaving, or a crash)
        blind = any(b.blind for b in bids)
        self.face_down = blind
        self.waiting = True
        self.redraw()
        self.show_prompt(f"{self.who(seat)} to bid")

        def look() -> None:
            self.face_down = False
            self.source.look()  # a network table's host sends the cards only now; a local game saves the look
            self.redraw()

        def chosen(bid: Bid | None) -> None:
            self.waiting = False
            self.face_down = False
            if bid is None or not self.apply_action(bid):
                self.redraw()
                self.advance()

        earlier = self.bids_so_far(v, seat)

        def refusal(number: int, blind: bool) -> str | None:
            return v.bid_error(Bid(seat, number, blind))

        help_ = self.table_help()
        dialog = BidScreen(self.who(seat), bids, self.in_order(v.hand), self.ascii_only, look, earlier, help_, refusal)
        dialog.confirm = self.settings.confirm_costly
        self.open_dialog(dialog, chosen)

    def hand_arrived(self) -> None:
        """The host sent the hand it held back: the table and an open bid dialog show it."""
        from cardtui.tui.screens.bid import BidScreen

        super().hand_arrived()
        dialog = self.app.screen
        if isinstance(dialog, BidScreen):
            dialog.show_hand(self.in_order(self.view().hand))

    def bids_so_far(self, v: TrickView, seat: int) -> str:
        """The others' bids in the entry's words (`Bids so far: West 3, North (your partner) nil`)."""
        assert self.words.bids_so_far is not None  # only a game of bids asks for one
        names = [self.who(other) for other in range(self.count)]
        if names[0] == "You":  # another person bids (seat 0 is never among the others when it bids itself)
            names[0] = "South" if self.count == 4 else "Player 1"  # "You" would read as them
        return self.words.bids_so_far(v, seat, names)

    def ask_pass(self, seat: int, phase: Phase) -> None:
        from cardtui.tui.screens.pass_cards import PassScreen

        v = self.view()
        counts, words = self.words.passing(v, seat, [self.who(other) for other in range(self.count)])
        title = f"{self.who(seat)}: {words}"
        self.waiting = True
        self.show_prompt(title)

        def chosen(cards: tuple[Card, ...] | None) -> None:
            self.waiting = False
            if cards is None or not self.apply_action(Pass(seat, cards)):
                self.advance()

        dialog = PassScreen(title, self.in_order(v.hand), counts, self.ascii_only, self.table_help())
        self.open_dialog(dialog, chosen)

    def on_hand_picked(self, message: Hand.Picked) -> None:
        if self.collecting:
            self.gather()
            return
        seat = self.human_turn()
        tm = self.source.to_move
        if seat is None or tm is None or tm.phase != "play":
            self.say(self.NOT_YET, error=True)
            return
        self.apply_action(Play(seat, message.card))

    def forget_typed(self) -> None:
        super().forget_typed()
        hand = self.query_one(Hand)
        if hand.buffer:
            hand.set_buffer("")

    def on_hand_problem(self, message: Hand.Problem) -> None:
        self.say(message.text, error=True)

    def on_hand_buffer_changed(self, message: Hand.BufferChanged) -> None:
        self.prompt_bar().set_typed(message.text)

    def action_last_trick(self) -> None:
        v = self.view()
        if not v.tricks:
            self.say("No trick has been taken yet this deal.")
            return
        self.show_last = not self.show_last
        self.redraw()

    def action_history(self) -> None:
        from cardtui.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen.of(self.source, self.ascii_only))

    def table_help(self) -> TableHelp:
        """F1, F2 and F6 (the score history) for a dialog over the table: a bid may hang on the scores."""
        return dataclasses.replace(super().table_help(), history=self.action_history, scores=self.show_scores)

    def show_scores(self) -> None:
        """F7 from a dialog: the side panel opened or folded, where the terminal is narrow enough to fold it."""
        if self.check_action("toggle_side", ()):
            self.action_toggle_side()

    def action_claim(self) -> None:
        """Claim every remaining trick; the engine refuses a claim that is not certain and says why."""
        seat = self.human_turn()
        if seat is None:
            self.say("Claim on your own turn, when you are on lead.", error=True)
            return
        why = self.claim_refusal(seat)
        if why is not None:
            self.say(f"Claim refused: {card_codes_shown(why, self.ascii_only)}.", error=True)
            return
        from cardtui.tui.screens.confirm import ConfirmScreen

        left = tricks_text(len(self.view().hand))
        question = f"Claim the last {left}? They are played out for everyone and the deal is scored."

        def answered(yes: bool | None) -> None:
            if yes and self.human_turn() == seat:
                self.apply_action(Claim(seat))
            elif not yes:
                self.say("No claim: play on.")

        self.app.push_screen(ConfirmScreen("Claim the rest?", question, "claim them", "play on"), answered)

    def claim_refusal(self, seat: int) -> str | None:
        """Why the engine would refuse `seat`'s claim now (None: it would accept it)."""
        game = self.session.game
        assert isinstance(game, TrickGame)
        return game.claim_error(seat)

    def action_label(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"play {card_label(action.card, self.ascii_only)}"
        if isinstance(action, Bid):
            return f"bid {action.label()}"
        if isinstance(action, Pass):
            return "pass " + (" ".join(card_label(c, self.ascii_only) for c in action.cards) or "no cards")
        return super().action_label(action)
