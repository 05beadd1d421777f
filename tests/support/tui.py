"""Shared helpers of the TUI tests: start the app on a session and play it with typed keys."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import WorkerCancelled

from cardtui.games.base import Play
from cardtui.games.eight_of_spades import GRID_CELLS, Flip, position_name
from cardtui.games.trick import TrickGame
from cardtui.net import Table
from cardtui.net.client import Client
from cardtui.net.source import RemoteSource
from cardtui.rules import Ruleset, load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.claimed import ClaimedScreen
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.network_seat import NetworkSeat
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.rules_editor import RulesEditorScreen
from cardtui.tui.settings import Settings
from cardtui.variants import make_bot

MODALS = (PassScreen, BidScreen, ClaimedScreen, DealEndScreen, GameEndScreen, HotSeatScreen)
S = TypeVar("S", bound=Screen[Any])


def make_app(
    preset: str = "hearts",
    seed: int = 7,
    level: str = "easy",
    humans: tuple[int, ...] = (0,),
    ruleset: Ruleset | None = None,
    save_path: Any = None,
) -> tuple[CardtuiApp, Session]:
    rules = ruleset or load_preset(preset)
    count = getattr(rules, "players", 4)
    names = ["You", "West", "North", "East"] if count == 4 else [f"P{i}" for i in range(count)]
    seats = [Seat(names[i], "human") if i in humans else Seat(names[i], "bot", level) for i in range(count)]
    session = Session.new(rules, seats, seed, save_path=save_path)
    return CardtuiApp(Start(session=session), Settings(speed="instant")), session


async def open_rules_editor(pilot: Pilot[Any], app: CardtuiApp) -> RulesEditorScreen:
    """From the menu, the house-rules editor (the menu's fifth entry)."""
    await pilot.pause()
    await pilot.press("down", "down", "down", "down", "enter")
    await pilot.pause()
    editor = app.screen
    assert isinstance(editor, RulesEditorScreen)
    return editor


async def workers_done(app: CardtuiApp) -> None:
    """Wait for the app's workers. A computer player's worker whose answer was already posted may be
    cancelled by the next one (its group is exclusive); cancelled is done too."""
    with contextlib.suppress(WorkerCancelled):
        await app.workers.wait_for_complete()


async def reviewed(pilot: Pilot[Any], app: CardtuiApp) -> None:
    """In a replay: `r`, then wait for the review to be weighed and its result shown."""
    await pilot.press("r")
    await workers_done(app)
    await pilot.pause()


async def settle(pilot: Pilot[Any], app: CardtuiApp) -> None:
    """Wait (on the app, never on a clock) until a person has to act or the game is over."""
    for _ in range(500):
        await pilot.pause()
        await workers_done(app)
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, HotSeatScreen):
            await screen.accepting.wait()  # it ignores keys until it has asked for one
            return
        if isinstance(screen, MODALS):
            return
        if isinstance(screen, GameScreen) and (screen.human_turn() is not None or screen.session.is_over):
            return
    raise AssertionError(f"the app never settled: {app.screen}")


async def settled_at(pilot: Pilot[Any], app: CardtuiApp, kind: type[S]) -> S:
    """Settle, then the screen in front, which must be a `kind`."""
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, kind), screen
    return screen


def in_front(app: CardtuiApp, screen: Screen[Any]) -> bool:
    """Whether `screen` is the one in front (a call, so the type checker does not narrow `screen` to the front's
    type as it would for `app.screen is screen`)."""
    return app.screen is screen


def just_under_front(app: CardtuiApp, screen: Screen[Any]) -> bool:
    """Whether `screen` is the one right under the front one (a call, for the reason `in_front` gives)."""
    return app.screen_stack[-2] is screen


def dialog_message(dialog: PassScreen | BidScreen) -> str:
    """The line under the pass or bid dialog's input: what was wrong with it, or a hint."""
    return str(dialog.query_one("#pass-message" if isinstance(dialog, PassScreen) else "#bid-message", Static).content)


def keys_of(text: str) -> list[str]:
    return list(text)


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*keys_of(text), "enter")


async def pass_first_cards(pilot: Pilot[Any], dialog: PassScreen) -> None:
    """Choose the pass dialog's first cards, as many as it asks for, by typing their codes; then pass them."""
    for card in dialog.cards[: dialog.count]:
        await type_text(pilot, card.code)
    await pilot.press("enter")


async def answer_simply(pilot: Pilot[Any], app: CardtuiApp) -> None:
    """Answer what is in front with the plainest input: a key at a hand-over, the first cards in the pass
    dialog, a bid of 3 (after looking at the hand), or at the table the first card that may be played."""
    screen = app.screen
    if isinstance(screen, HotSeatScreen):
        await pilot.press("space")
    elif isinstance(screen, PassScreen):
        await pass_first_cards(pilot, screen)
    elif isinstance(screen, BidScreen):
        if screen.blind_stage:
            await pilot.press("escape")
        await type_text(pilot, "3")
    else:
        assert isinstance(screen, GameScreen), screen
        legal = [a for a in screen.session.game.legal_actions() if isinstance(a, Play)]
        await type_text(pilot, legal[0].card.code)


def human_code(code: str, n: int) -> str:
    """Vary how a code is typed: 10C, tc, qs, QS."""
    variants = [code, code.lower(), code.replace("10", "T").lower(), code.replace("10", "t")]
    return variants[n % len(variants)]


async def play_turns(
    pilot: Pilot[Any], app: CardtuiApp, session: Session, until_deals: int = 99, max_turns: int = 10_000
) -> None:
    """Answer each person's turn with typed input until `until_deals` deals are scored, the game ends,
    or `max_turns` turns were answered."""
    n = 0
    for _ in range(400):
        await settle(pilot, app)
        if n >= max_turns:
            return
        screen = app.screen
        records = len(getattr(session.game, "deal_records", ()))
        if isinstance(screen, GameEndScreen):
            return
        if isinstance(screen, DealEndScreen):
            await pilot.press("enter")
            if records >= until_deals:
                await settle(pilot, app)
                return
            continue
        if isinstance(screen, HotSeatScreen):
            await pilot.press("x")
            continue
        if isinstance(screen, PassScreen):
            for i, card in enumerate(screen.cards[: screen.count]):
                await type_text(pilot, human_code(card.code, n + i))
            await pilot.press("enter")
            n += 1
            continue
        if isinstance(screen, BidScreen):
            if screen.blind_stage:
                await pilot.press("escape")
            await type_text(pilot, "3")
            n += 1
            continue
        assert isinstance(screen, GameScreen)
        if session.is_over:
            await settle(pilot, app)
            return
        tm = session.game.to_move
        assert tm is not None
        legal = list(session.game.legal_actions())
        action = legal[n % len(legal)]
        if isinstance(action, Play):
            await type_text(pilot, human_code(action.card.code, n))
        else:
            await type_flip(pilot, [a for a in legal if isinstance(a, Flip)], n)
        n += 1
    raise AssertionError("too many turns")


async def type_flip(pilot: Pilot[Any], legal: list[Flip], n: int) -> None:
    """Make the `n`th of the legal flips (grid positions first) at the grid by typed keys: the call, then the
    position, then Enter."""
    flips = [a for a in legal if a.pos < GRID_CELLS] or legal
    flip = flips[n % len(flips)]
    await pilot.press("8" if flip.call == "8S" else flip.call.lower())
    await pilot.press(*position_name(flip.pos).lower(), "enter")


_IDS = re.compile(r"terminal-\d+")
_CLIP = re.compile(r"clip-path=\"url\(#[^)]*\)\"")


async def drawn_when(pilot: Pilot[Any], app: App[Any], ready: Callable[[str], bool]) -> str:
    """The screen's text once `ready` holds for it: waits on the app's repaints (a busy machine may take a few),
    never on a clock. When it never does the test fails showing the last text drawn: a test that went on would
    have waited out every repaint, and an assertion that something is not shown would hold on any screen."""
    text = ""
    for _ in range(1000):
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        if ready(text):
            return text
    raise AssertionError(f"the screen never showed what the test waits for; it shows:\n{text}")


async def laid_out(pilot: Pilot[Any], ready: Callable[[], bool], what: str) -> None:
    """Wait on the app's repaints until `ready()` holds: a resize or a panel folded away moves the widgets at the
    next layout, which a busy machine may reach a few repaints later."""
    for _ in range(1000):
        if ready():
            return
        await pilot.pause()
    raise AssertionError(f"the app never laid out {what}")


def normalise_svg(svg: str) -> str:
    """Textual's SVG ids change from run to run; make them stable so snapshots compare."""
    return _IDS.sub("terminal", svg)


def fast_forward(session: Session, stop: Any) -> None:
    """Play every seat with the easy computer player, without the app, until `stop(session)` is true."""
    for _ in range(5000):
        if session.is_over or stop(session):
            return
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(session.bot_decision("easy").action)


def tricks_left(count: int) -> Callable[[Session], bool]:
    """A stop for `fast_forward`: at most `count` tricks are left in this deal of a trick game, and it is
    the first seat's turn to play (so a test plays the deal's end through the app, not the whole deal)."""

    def stop(session: Session) -> bool:
        game, tm = session.game, session.game.to_move
        assert isinstance(game, TrickGame), "only a trick game is dealt in tricks"
        hands = sum(game.hands[i].bit_count() for i in range(game.seats))
        return tm is not None and tm.phase == "play" and tm.seat == 0 and hands <= count * game.seats

    return stop


def screen_lines(app: App[Any]) -> list[str]:
    """The screen as a person reads it: one string per row, exactly the characters drawn (filters applied)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, color_system=None, legacy_windows=False
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False).rstrip("\n").split("\n")


# ---------------------------------------------------------------- a network table (127.0.0.1, port 0)

SEAT_NAMES = ["South", "West", "North", "East"]


async def open_table(
    tmp_path: Path, kinds: str = "pbbb", seed: int = 5, hints: bool = True, ruleset: Ruleset | None = None
) -> Table:
    """A table dealt here (Hearts unless `ruleset` says otherwise): `p` an open seat, `b` an easy computer
    player."""
    rules = ruleset or load_preset("hearts")
    names = SEAT_NAMES if len(kinds) == 4 else [f"P{i}" for i in range(len(kinds))]
    seats = [Seat(n, "human") if k == "p" else Seat(n, "bot", "easy") for n, k in zip(names, kinds, strict=True)]
    session = Session.new(rules, seats, seed, save_path=tmp_path / "net.json")
    table = Table(session, hints=hints)
    await table.open()
    return table


def app_for(remote: RemoteSource) -> CardtuiApp:
    return CardtuiApp(Start(remote=remote), Settings(speed="instant"))


@asynccontextmanager
async def seated(
    tmp_path: Path,
    seed: int = 5,
    hints: bool = True,
    ruleset: Ruleset | None = None,
    kinds: str = "pbbb",
    host: bool = False,
) -> AsyncIterator[tuple[Table, RemoteSource, CardtuiApp, Pilot[Any]]]:
    """The app running at the first seat (joined by its invitation) of a table like `open_table`'s.

    With `host` it is the host's own seat, which holds the other open seats' invitations for its lobby.
    """
    table = await open_table(tmp_path, kinds=kinds, seed=seed, hints=hints, ruleset=ruleset)
    async with table:
        invitations = table.invitations()
        remote = await RemoteSource.join(invitations.pop(0))
        if host:
            remote.invitations = invitations
        app = app_for(remote)
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                yield table, remote, app, pilot
        finally:
            await remote.close()


@asynccontextmanager
async def seated_with_another(
    tmp_path: Path, kinds: str = "ppbb", seed: int = 5, ruleset: Ruleset | None = None
) -> AsyncIterator[tuple[Table, RemoteSource, Client, CardtuiApp, Pilot[Any]]]:
    """`seated`, and another person joined at the second seat by a bare client."""
    async with seated(tmp_path, seed=seed, ruleset=ruleset, kinds=kinds) as (table, remote, app, pilot):
        other = await Client.join(table.invitations()[1])
        try:
            yield table, remote, other, app, pilot
        finally:
            await other.close()


def game_screen(app: CardtuiApp) -> GameScreen:
    """The table or the grid, under whatever dialog is in front."""
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def settle_remote(pilot: Pilot[Any], app: CardtuiApp) -> None:
    """Wait on the app (and the host's messages) until this seat must act or a dialog is up."""
    for _ in range(5000):
        await pilot.pause()
        if isinstance(app.screen, MODALS):
            return
        screen = game_screen(app)
        if screen.human_turn() is not None or (
            screen.source.is_over and not (isinstance(screen, NetworkSeat) and screen.inbox)
        ):
            return
    raise AssertionError(f"the table never settled: {app.screen}")


async def take_turn(pilot: Pilot[Any], app: CardtuiApp, n: int) -> None:
    """Answer the dialog or the turn in front of this seat with typed input (card codes, a call and a
    position)."""
    screen = app.screen
    if isinstance(screen, PassScreen):
        for i, card in enumerate(screen.cards[: screen.count]):
            await type_text(pilot, human_code(card.code, n + i))
        await pilot.press("enter")
        return
    table = game_screen(app)
    assert isinstance(table, NetworkSeat)
    view = table.source.view(table.remote.seat)
    flips = [a for a in view.legal if isinstance(a, Flip)]
    if flips:
        await type_flip(pilot, flips, n)
        return
    card = next(a.card for a in view.legal if isinstance(a, Play))
    await type_text(pilot, human_code(card.code, n))


class Person:
    """Another person at a network table (a joined `Client`), who moves as the easy player would from its view."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.bot = make_bot(client.view.ruleset.game, "easy")
        self.acted = -1

    async def moves(self) -> None:
        """Wait for this person's next turn and take it."""
        client = self.client
        while not (client.my_turn and client.actions != self.acted):
            await asyncio.wait_for(client.receive(), 10)
        self.acted = client.actions
        await client.act(self.bot.decide(client.view, random.Random(self.acted)).action.to_json())


async def refused_until_the_turn(
    pilot: Pilot[Any],
    app: CardtuiApp,
    remote: RemoteSource,
    other: Person,
    phase: str,
    early: Callable[[], Awaitable[None]],
) -> GameScreen:
    """This seat's turns (typed) and the other person's, at seat 1, until they are to `phase` while this seat
    waits: `early` tries a move here then, once, and it is refused (`GameScreen.NOT_YET`); on until this seat's
    turn comes back. The screen at that turn."""
    tried = False
    for n in range(40):
        for _ in range(5000):  # until this seat is to move, or the other person (on the screen shown)
            await pilot.pause()
            screen = game_screen(app)
            tm = remote.to_move
            theirs = tm is not None and tm.seat == 1 and tm.phase == phase and not screen.expecting()
            if screen.human_turn() is not None or theirs:
                break
        if screen.human_turn() is None:
            if not tried:
                await early()
                await pilot.pause()
                assert screen.prompt_bar().message == screen.NOT_YET
                tried = True
            await other.moves()
            continue
        if tried:
            return screen
        await take_turn(pilot, app, n)
    raise AssertionError("the other person's turn, then this seat's, never came")


async def play_until(pilot: Pilot[Any], app: CardtuiApp, turns: int, ready: Callable[[], bool]) -> bool:
    """Take this seat's turns (at most `turns` of them) until, with the table settled, `ready()` holds;
    whether it ever did."""
    for n in range(turns):
        await settle_remote(pilot, app)
        if ready():
            return True
        await take_turn(pilot, app, n)
    return False


SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots"


async def shot(snapshot: Any, app: CardtuiApp, pilot: Pilot[Any], name: str) -> None:
    await pilot.pause()
    await workers_done(app)  # screens that read files do it in workers
    await pilot.pause()
    for widget in app.screen.query("Input"):
        widget.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause()
    snapshot.snapshot_dir = SNAPSHOTS
    snapshot.assert_match(normalise_svg(app.export_screenshot(title="cardtui")), name)


async def pass_three(pilot: Pilot[Any], app: CardtuiApp) -> None:
    await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
    await settle(pilot, app)


def late_grid() -> tuple[CardtuiApp, Session]:
    """An Eight of Spades game 30 flips in, at your turn."""
    app, session = make_app("eight-of-spades", seed=3)
    fast_forward(session, lambda s: len(s.log) >= 30 and s.seat_to_move() == s.seats[0])
    return app, session
