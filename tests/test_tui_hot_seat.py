"""Hot seat: every line a person at the keyboard can read is what their seat may know."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual import _time, events
from textual.pilot import Pilot
from textual.widgets import Static

from cardtui.games.base import Pass, Play, ToMove
from cardtui.rules import load_preset
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp
from cardtui.tui.common import card_label
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.text_line import TextLines
from tests.support.tui import (
    answer_simply,
    drawn_when,
    fast_forward,
    in_front,
    make_app,
    pass_first_cards,
    settle,
    settled_at,
    type_text,
)

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def known_cards(session: Session, viewer: int | None) -> set[str]:
    """What the viewer's seat may know: cards played, and its own hand and the cards it passed."""
    game: Any = session.game
    cards = {a.card for a in session.log if isinstance(a, Play)}
    if viewer is not None:
        cards |= set(game.hand(viewer))
        cards |= {c for a in session.log if isinstance(a, Pass) and a.seat == viewer for c in a.cards}
    return {card_label(c, False) for c in cards}


def leaks(table: GameScreen) -> list[str]:
    """The log's lines naming a card the seat at the keyboard may not know."""
    known = known_cards(table.session, table.viewer)
    return [f"{table.viewer}: {line}" for line in table.query_one(GameLog).lines() if set(CARD.findall(line)) - known]


async def play_deal(pilot: Pilot[Any], app: CardtuiApp, session: Session, blind_nil: bool = False) -> list[str]:
    """Answer every person's turn through the passes or bids and two tricks; note the lines that leak at hand-overs.

    Returns what each seat passed, as the passer's own log told it (so the check is not empty)."""
    own_passes: list[str] = []
    found: list[str] = []
    for _ in range(400):
        await settle(pilot, app)
        screen = app.screen
        if isinstance(screen, HotSeatScreen):
            table = app.screen_stack[-2]
            assert isinstance(table, GameScreen)
            found += leaks(table)
            await pilot.press("space")
            await settle(pilot, app)
            table = app.screen if isinstance(app.screen, GameScreen) else app.screen_stack[-2]
            assert isinstance(table, GameScreen)
            found += leaks(table)
            mine = table.who(table.viewer or 0) + " pass"
            own_passes += [line for line in table.query_one(GameLog).lines() if line.startswith(mine)]
            continue
        if isinstance(screen, PassScreen):
            await pass_first_cards(pilot, screen)
            continue
        if isinstance(screen, BidScreen):
            await type_text(pilot, "blind nil" if blind_nil and screen.blind_stage else "look")
            if isinstance(app.screen, BidScreen):
                await type_text(pilot, "3")
            continue
        if not isinstance(screen, GameScreen) or sum(isinstance(a, Play) for a in session.log) >= 8:
            break
        await answer_simply(pilot, app)  # the first card that may be played
    assert found == []
    return own_passes


@pytest.mark.parametrize("humans", [(0, 1), (0, 1, 2), (0, 1, 2, 3)])
async def test_hearts_hand_over_shows_no_other_persons_passed_cards(humans: tuple[int, ...]) -> None:
    app, session = make_app("hearts", seed=4, humans=humans)
    async with app.run_test(size=(100, 30)) as pilot:
        passes = await play_deal(pilot, app, session)
    assert len(passes) >= 1, "a passer reads the cards they passed"


@pytest.mark.parametrize("humans", [(0, 1), (0, 1, 2), (0, 1, 2, 3)])
async def test_spades_blind_nil_exchange_stays_between_the_partners(humans: tuple[int, ...]) -> None:
    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    app, session = make_app("spades", seed=4, humans=humans, ruleset=rules)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_deal(pilot, app, session, blind_nil=True)
    assert any(isinstance(a, Pass) for a in session.log), "the blind nil exchange was made"


async def test_cutthroat_hand_over_shows_no_hand() -> None:
    app, session = make_app("cutthroat", seed=4, humans=(0, 1, 2, 3))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_deal(pilot, app, session)


async def test_an_optional_exchange_may_pass_no_cards_on_both_sides() -> None:
    # Seed 002: "the bidder may exchange two cards with partner" — the pass dialog takes Enter with none chosen.
    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    app, session = make_app("spades", seed=4, humans=(0, 2), ruleset=rules)
    titles: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(60):
            await settle(pilot, app)
            screen = app.screen
            if isinstance(screen, HotSeatScreen):
                await pilot.press("space")
            elif isinstance(screen, BidScreen):
                you = session.game.to_move == ToMove(0, "bid")  # You (seat 0) bid blind nil, North looks
                await type_text(pilot, "blind nil" if screen.blind_stage and you else "look")
                if isinstance(app.screen, BidScreen):
                    await type_text(pilot, "3")
            elif isinstance(screen, PassScreen):
                titles.append(screen.title_text)
                await pilot.press("enter")
            elif sum(isinstance(a, Pass) for a in session.log) == 2:
                break
    passes = [a for a in session.log if isinstance(a, Pass)]
    assert passes == [Pass(0, ()), Pass(2, ())]
    assert titles == [
        "You: give 2 cards to your partner North, or none (Enter with none chosen) to keep your hand",
        "North: your partner You passed you no cards: Enter passes none back",
    ]


def your_turn_before_west() -> tuple[CardtuiApp, Session]:
    """A Hearts game of two people (You and West) brought, without the app, to You playing a card with West next in
    the trick: the app opens there on the hand-over to You, not on the passes and tricks before it."""
    app, session = make_app("hearts", seed=4, humans=(0, 1))

    def there(s: Session) -> bool:
        game: Any = s.game
        return bool(game.to_move == ToMove(0, "play") and len(game.view(0).trick) < 3)

    fast_forward(session, there)
    return app, session


async def seat_turn_before_the_other_person(pilot: Pilot[Any], app: CardtuiApp, session: Session) -> TableScreen:
    """Play on until seat 0 (You) is to play a card with West, the other person, next in the trick."""
    for _ in range(200):
        await settle(pilot, app)
        screen = app.screen
        game: Any = session.game
        if isinstance(screen, TableScreen) and screen.human_turn() == 0 and len(game.view(0).trick) < 3:
            return screen
        await answer_simply(pilot, app)
    raise AssertionError("seat 0 never had the turn before West")


@pytest.mark.real_grace
async def test_keys_typed_on_after_a_play_neither_end_the_hand_over_nor_reach_the_next_person() -> None:
    """You play a card and type on at once (9, k, 5): the hand-over screen stays up, West's hand stays hidden,
    and none of those keys is in West's card input when West takes the keyboard."""
    app, session = your_turn_before_west()
    async with app.run_test(size=(100, 30)) as pilot:
        table = await seat_turn_before_the_other_person(pilot, app, session)
        legal = [a for a in session.game.legal_actions() if isinstance(a, Play)]
        before = len(session.log)
        await pilot.press(*legal[0].card.code.lower())
        played_at = _time.get_time()
        await pilot.press("enter")
        for n, key in enumerate(("9", "k", "5", "space", "enter")):
            typed = events.Key(key, " " if key == "space" else "\r" if key == "enter" else key)
            typed.time = played_at + 0.05 * (n + 1)  # typed on 0.05 to 0.25 s after the play, however slow the test
            app.post_message(typed)
        await pilot.pause()
        assert session.log[before:] == [legal[0]], "a key typed on after the play was taken as West's"
        hot = app.screen
        assert isinstance(hot, HotSeatScreen), "a key typed on after the play ended the hand-over"
        assert table.viewer is None and table.query_one(Hand).cards == []
        # It asks exactly when it takes a key (its grace may be over already on a slow machine).
        assert ("press any key" in hot_seat_text(hot)) == hot.accepting.is_set()
        late = events.Key("x", "x")  # a key pressed before the screen appeared, handled only now
        late.time = hot.shown_at - 0.01
        await hot.accepting.wait()
        assert "West, press any key" in hot_seat_text(hot)
        hot.post_message(late)
        await pilot.pause()
        assert in_front(app, hot), "a key pressed before the screen appeared ended it"
        await pilot.press("space")
        await settle(pilot, app)
        assert in_front(app, table) and table.viewer == 1
        assert table.query_one(Hand).buffer == ""
        assert "▸" not in table.prompt_bar().query_one("#prompt-line", TextLines).text
        await pilot.press("5", "d", "enter")  # West's own first key starts West's code
        assert "x5d" not in table.prompt_bar().message and "95d" not in table.prompt_bar().message


@pytest.mark.real_grace
async def test_keys_typed_before_the_hand_over_do_not_reach_the_next_persons_input() -> None:
    """A key You typed that reached the table just before the hand-over screen went up is not West's."""
    app, session = your_turn_before_west()
    async with app.run_test(size=(100, 30)) as pilot:
        table = await seat_turn_before_the_other_person(pilot, app, session)
        hand = table.query_one(Hand)
        legal = [a for a in session.game.legal_actions() if isinstance(a, Play)]
        hand.cursor = hand.cards.index(legal[0].card)
        await pilot.press("9")  # typed, then the card clicked: the click plays it with "9" still typed
        assert hand.buffer == "9"
        hand.post_message(Hand.Picked(hand, legal[0].card))
        await settle(pilot, app)
        assert isinstance(app.screen, HotSeatScreen)
        await pilot.press("space")
        await settle(pilot, app)
        assert in_front(app, table) and table.viewer == 1
        assert hand.buffer == "", "what You typed is in West's card input"


@pytest.mark.real_grace
async def test_the_grace_counts_from_the_first_drawing_and_judges_inputs_by_when_they_were_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a busy machine the hand-over is drawn well after it is mounted, and keys are handled well after they were
    typed: a key typed within 0.6 s of the screen being drawn, or a click pressed then, never ends it, however late
    it is handled."""
    app, session = your_turn_before_west()
    drawn: list[float] = []
    display = CardtuiApp._display

    def noting(self: CardtuiApp, screen: Any, renderable: Any) -> None:
        if isinstance(screen, HotSeatScreen) and renderable is not None and not drawn:
            drawn.append(_time.get_time())
        display(self, screen, renderable)

    monkeypatch.setattr(CardtuiApp, "_display", noting)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await seat_turn_before_the_other_person(pilot, app, session)
        drawn.clear()
        legal = [a for a in session.game.legal_actions() if isinstance(a, Play)]
        await pilot.press(*legal[0].card.code.lower(), "enter")
        hot = app.screen
        assert isinstance(hot, HotSeatScreen)
        await hot.accepting.wait()
        assert drawn and hot.shown_at >= drawn[0], "the grace started before the screen was drawn"
        early = drawn[0] + HotSeatScreen.GRACE - 0.01  # typed while the grace was on, handled only now
        for key in ("k", "space", "enter"):
            typed = events.Key(key, " " if key == "space" else "\r" if key == "enter" else key)
            typed.time = early
            hot.post_message(typed)
        pressed = events.MouseDown(hot, 1, 1, 0, 0, 1, False, False, False, 1, 1)
        pressed.time = early  # a click pressed in the grace, released (and handled) late
        hot.post_message(pressed)
        hot.post_message(events.Click(hot, 1, 1, 0, 0, 1, False, False, False, 1, 1))
        await pilot.pause()
        await pilot.pause()
        assert in_front(app, hot), "an input made in the grace ended the hand-over"
        assert table.viewer is None and table.query_one(Hand).cards == []
        await pilot.press("space")
        await settle(pilot, app)
        assert in_front(app, table) and table.viewer == 1


async def test_a_second_enter_on_its_way_after_the_pass_leaves_the_table_and_the_hand_over_up() -> None:
    """Two Enters reach the pass dialog's hand before the first is handled (a fast double press, a busy machine):
    the first passes, the second does nothing; it used to pop the screen after the dialog (the hand-over, or the
    table, leaving a blank screen that only ctrl+q left)."""
    app, session = make_app("hearts", seed=4, humans=(0, 1))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = None
        for _ in range(10):
            await settle(pilot, app)
            if isinstance(app.screen, PassScreen):
                dialog = app.screen
                break
            await answer_simply(pilot, app)
        assert isinstance(dialog, PassScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        for card in dialog.cards[: dialog.count]:
            await type_text(pilot, card.code)
        passer = table.viewer
        hand = dialog.query_one(Hand)
        hand.post_message(events.Key("enter", "\r"))
        hand.post_message(events.Key("enter", "\r"))
        await settle(pilot, app)
        assert [a.seat for a in session.log if isinstance(a, Pass) and a.seat in (0, 1)] == [passer]
        assert table in app.screen_stack, "the second Enter popped the table"
        assert isinstance(app.screen, HotSeatScreen), "the second Enter popped the hand-over"
        await pilot.press("space")
        await settle(pilot, app)
        assert isinstance(app.screen, PassScreen) and table.viewer == 1 - (passer or 0)


def hot_seat_text(screen: HotSeatScreen) -> str:
    return " ".join(str(s.content) for s in screen.query(Static))


@pytest.mark.parametrize("game", ["hearts", "spades"])
async def test_a_hot_seat_game_opens_on_the_hand_over_even_for_the_first_seat(game: str) -> None:
    """A new game, Play again, Continue or a resume with seat 0 to move: whoever sits at the keyboard now may not be
    seat 0's person, so its hand waits for a deliberate key like every other hand-over."""
    app, session = make_app(game, seed=5, humans=(0, 1))
    fast_forward(session, lambda s: s.seat_to_move() == s.seats[0])
    engine: Any = session.game
    hand = engine.hand(0)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await drawn_when(pilot, app, lambda _: isinstance(app.screen, HotSeatScreen))
        assert isinstance(app.screen, HotSeatScreen), text
        assert not any(card_label(c, False) in text for c in hand), text


async def test_a_terminal_made_big_under_a_hand_over_shows_the_next_hand_whole() -> None:
    """Resized from 60x20 to 160x45 while the hand-over was up, the table's cards turned big (three lines high)
    but the hand kept its one-line height: the next person saw a row of card tops until another resize."""
    app, _session = make_app("hearts", seed=3, humans=(0, 1, 2, 3, 4, 5), ruleset=load_preset("hearts-6"))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        await pilot.press("x")
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        await settled_at(pilot, app, HotSeatScreen)
        await pilot.resize_terminal(160, 45)
        await pilot.pause()
        await pilot.press("x")
        await settled_at(pilot, app, PassScreen)
        await pilot.pause()
        hand = app.screen_stack[-2].query_one(Hand)
        assert hand.big and hand.cards
        assert hand.size.height == 3 * hand.rows(hand.size.width)
