"""One conformance run over every game and preset: a game gets every check here by being listed in `cases()`.

Each check plays short seeded games (a deal limit keeps a trick game to a deal
or two; an Eight of Spades game is short anyway) and asks what every game must
do: offer moves until it ends and none after; show each seat only the cards it
may know; save, load and replay to the same position; read its events and
views back from JSON; let its computer players play only legal moves; and run
in the arena, the review and at the network table.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cardtui.arena import run_arena
from cardtui.games import Action, Event, Game, PlayerView, create_game, event_from_json, view_from_json
from cardtui.games.base import Choices, Claim, Deal, GameOver, IllegalAction, Undo, Undone
from cardtui.games.codec import to_json
from cardtui.games.hearts import HeartsDetail
from cardtui.games.history import History
from cardtui.games.summary import summary_of
from cardtui.games.trick import CardsPassed, TrickView, TrickWon
from cardtui.net import Client, play_remote
from cardtui.net.protocol import event_for
from cardtui.replay import Replay
from cardtui.review import review
from cardtui.rules import Ruleset, RulesetError, list_presets, load_preset
from cardtui.saves import build_save, load_save, write_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import GAMES, GameEntry, game_names
from tests.support.net import bounded, open_table
from tests.support.seat_knowledge import Knowledge, cards_in_json, cards_named


@dataclasses.dataclass(frozen=True)
class Case:
    """One registered game with one of its presets, as shipped or at another seat count."""

    entry: GameEntry
    preset: Ruleset
    reseated: bool = False

    @property
    def game(self) -> str:
        return self.entry.name

    @property
    def id(self) -> str:
        seats = f"/{self.seats}-seats" if self.reseated else ""
        return f"{self.game}/{self.preset.name}{seats}"

    @property
    def seats(self) -> int:
        return self.preset.seats

    def short(self, deals: int) -> Ruleset:
        """The preset's rules of play, over after at most `deals` deals where the game is made of deals."""
        return self.preset.replace(max_deals=deals) if self.entry.has_deals else self.preset

    def new_game(self, deals: int) -> Game:
        return self.entry.new_game(self.short(deals))


def cases() -> list[Case]:
    """Every registered game with each of its presets, and its default preset at each other seat count its rules
    allow: the one list every check in this file runs over."""
    found: list[Case] = []
    for entry in GAMES:
        found += [Case(entry, load_preset(name)) for name in entry.presets]
        found += [Case(entry, rules, reseated=True) for rules in other_seat_counts(entry)]
    return found


def other_seat_counts(entry: GameEntry) -> list[Ruleset]:
    """The default rules at each other seat count the entry's players knob allows (none for a fixed count)."""
    knob, rules = entry.players_knob, entry.default_rules()
    if knob is None:
        return []
    found = []
    for count in range(2, MAX_SEATS + 1):
        try:
            reseated = rules.replace(**{knob: count})
        except RulesetError:
            continue
        if reseated.seats != rules.seats:
            found.append(reseated)
    return found


MAX_SEATS = 8
"""The most seats any table has."""
CASES = cases()
each_case = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
LEVELS = [(case, level) for case in CASES for level in case.entry.levels]
each_level = pytest.mark.parametrize(("case", "level"), LEVELS, ids=[f"{c.id}/{lv}" for c, lv in LEVELS])

SEEDS = (1, 52)
"""Seed 52's partnership Spades game has a blind nil with its exchange (a test below keeps it so)."""
DEALS = 2
"""Deals in a random game of a trick game: the second deal passes the other way and starts from scores."""
MAX_STEPS = 2000
"""No game here takes more actions than this; one that does has stopped ending."""
HARD_BUDGET_MS = 2
PEOPLE = (0,)
"""The seats played in person in the random games: one, so that it may take back decisions where the rules allow."""
SORT_FIRST = 0.75
"""How often a random move is drawn by its sort first (see `choose`)."""
UNDO_RATE = 0.05
MAX_UNDOS = 4
CLAIM_RATE = 0.5


# ---------------------------------------------------------------- random games, played once and shared


@dataclasses.dataclass(frozen=True)
class Played:
    """A random game of a case, with a person at seat 0 who now and then takes a decision back: its rules and
    every action in order."""

    ruleset: Ruleset
    log: tuple[Action, ...]
    events: tuple[tuple[Event, ...], ...]

    def history(self) -> History:
        """A new game of these rules with the same person, to replay the log into."""
        return History(self.ruleset, PEOPLE)


def kind(action: Action) -> tuple[tuple[str, object], ...]:
    """What sort of move an action is, whatever its cards and numbers: its type and flags, a call or a place,
    which numbers are zero and which lists empty (a nil, a blind bid, a flip in the illuminati, passing none)."""
    out: list[tuple[str, object]] = []
    for key, value in action.to_json().items():
        if isinstance(value, bool) or (isinstance(value, str) and not cards_in_json(value)):
            out.append((key, value))
        elif isinstance(value, int) and key != "seat":
            out.append((key, value == 0))
        elif isinstance(value, list):
            out.append((key, not value))
    return tuple(out)


def choose(legal: Sequence[Action], rng: random.Random) -> Action:
    """A seeded random move, most of the time drawn by its sort first (`SORT_FIRST`), so that rare sorts (a blind
    nil and its exchange, a stake on the illuminati) come up in short games too."""
    if isinstance(legal, Choices):
        if legal.or_none and rng.random() < 0.5:
            return legal[0]
        return legal[rng.randrange(len(legal))]
    if rng.random() < SORT_FIRST:
        sorts: dict[tuple[tuple[str, object], ...], list[Action]] = {}
        for action in legal:
            sorts.setdefault(kind(action), []).append(action)
        return rng.choice(rng.choice(list(sorts.values())))
    return rng.choice(legal)


def claimant(game: Game) -> int | None:
    """The seat to move if it may claim the rest of the deal now (a game without claims has no `claim_error`)."""
    claim_error, tm = getattr(game, "claim_error", None), game.to_move
    return tm.seat if tm is not None and claim_error is not None and claim_error(tm.seat) is None else None


@functools.cache
def _played(index: int, seed: int) -> Played:
    case = CASES[index]
    rules = case.short(DEALS)
    history = History(rules, PEOPLE)
    rng = random.Random(f"conformance/{case.id}/{seed}")
    undos = 0
    events: list[tuple[Event, ...]] = []
    while not history.game.is_over and len(history.log) < MAX_STEPS:
        game = history.game
        if undos < MAX_UNDOS and history.undo_error(PEOPLE[0]) is None and rng.random() < UNDO_RATE:
            action: Action = Undo(PEOPLE[0], history.undo_target(PEOPLE[0]))
            undos += 1
        elif (seat := claimant(game)) is not None and rng.random() < CLAIM_RATE:
            action = Claim(seat)
        else:
            action = game.chance_action(rng) if game.is_chance else choose(game.legal_actions(), rng)
        events.append(tuple(history.apply(action)))
    return Played(rules, tuple(history.log), tuple(events))


def played(case: Case, seed: int = SEEDS[0]) -> Played:
    return _played(CASES.index(case), seed)


def wire(value: Any) -> Any:
    """What the other end of a wire or a file reads back."""
    return json.loads(json.dumps(to_json(value)))


Position = tuple[dict[str, Any], tuple[PlayerView, ...]]


def position(game: Game, actions: int) -> Position:
    """Everything a position shows anyone: its summary (`inspect --json`'s, with detail) and every seat's view."""
    return summary_of(game, actions, detail=True), tuple(game.view(seat) for seat in range(game.seats))


def positions(play: Played) -> list[Position]:
    """The position before any action and after each."""
    history = play.history()
    out = [position(history.game, 0)]
    for i, action in enumerate(play.log):
        history.apply(action)
        out.append(position(history.game, i + 1))
    return out


def without_legal(view: PlayerView) -> PlayerView:
    """A view with no moves, to compare the rest (a lazy choice of passes and its list are the same moves)."""
    return typing.cast(PlayerView, dataclasses.replace(typing.cast(Any, view), legal=()))


def table(case: Case) -> list[Seat]:
    """The random games' seats: a person at seat 0 (`PEOPLE`), the easiest computer players at the others."""
    return [Seat("You", "human")] + [Seat(f"P{i}", "bot", case.entry.levels[0]) for i in range(1, case.seats)]


def legal_json(game: Game) -> list[Any]:
    return [a.to_json() for a in game.legal_actions()]


# ---------------------------------------------------------------- the checks


@each_case
@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_game_offers_moves_until_it_ends_and_none_after(case: Case, seed: int) -> None:
    game = case.new_game(DEALS)
    rng = random.Random(f"conformance/{case.id}/{seed}")
    last: list[Event] = []
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        tm = game.to_move
        assert tm is not None, "a game that is not over has a seat to move"
        if game.is_chance:
            last = game.apply(game.chance_action(rng))
            continue
        legal = game.legal_actions()
        assert len(legal) > 0, f"no legal move for seat {tm.seat} in phase {tm.phase}"
        for seat in range(game.seats):
            offered = game.view(seat).legal
            assert list(offered) == (list(legal) if seat == tm.seat else []), f"seat {seat} is offered wrong moves"
        last = game.apply(choose(legal, rng))
    assert game.is_over, f"the game did not end within {MAX_STEPS} actions"
    assert game.to_move is None and len(game.legal_actions()) == 0
    assert all(len(game.view(seat).legal) == 0 for seat in range(game.seats))
    assert game.winners and set(game.winners) <= set(range(len(game.sides)))
    over = [e for e in last if isinstance(e, GameOver)]
    assert over and over[-1].winners == game.winners and over[-1].totals == tuple(game.scores)


@each_case
@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_is_shown_a_card_it_cannot_know(case: Case, seed: int) -> None:
    play = played(case, seed)
    history = play.history()
    game = history.game
    knowledge = Knowledge(game.seats)
    for i, (action, events) in enumerate(zip(play.log, play.events, strict=True)):
        assert list(history.apply(action)) == list(events)
        game = history.game
        knowledge.saw(action, events)
        for seat in range(game.seats):
            view = game.view(seat)
            where = f"after action {i} ({action.type}), seat {seat}'s"
            shown = {"view": cards_named(view), "view's JSON": cards_in_json(to_json(view))}
            shown |= {
                f"{e.kind} event as sent": cards_in_json(event_for(e, seat))
                for e in events
                if seat in knowledge.shown(e)
            }
            for what, named in shown.items():
                leak = knowledge.leaks(seat, named)
                assert leak is None, f"{where} {what} names {leak}, cards it cannot know"


def test_the_privacy_check_meets_cards_passed_between_partners() -> None:
    """A blind nil's exchange comes up in the random games, so the check above sees cards only two seats know."""
    private = []
    for case in CASES:
        sides = case.preset.sides
        for seed in SEEDS:
            events = (e for made in played(case, seed).events for e in made if isinstance(e, CardsPassed))
            private += [e for e in events if any({e.seat, e.to} <= set(side) for side in sides)]
    assert private and all(e.cards for e in private)


def test_the_privacy_check_catches_a_view_that_shows_more() -> None:
    game = create_game(load_preset("hearts"))
    knowledge = Knowledge(game.seats)
    rng = random.Random(5)
    while game.to_move is None or game.to_move.phase != "play":
        action = game.chance_action(rng) if game.is_chance else choose(game.legal_actions(), rng)
        knowledge.saw(action, game.apply(action))
    views = [game.view(seat) for seat in range(game.seats)]
    assert all(isinstance(v, TrickView) and isinstance(v.detail, HeartsDetail) for v in views)
    mine, left, across = typing.cast(list[TrickView], views)[:3]
    assert knowledge.leaks(0, cards_named(mine)) is None
    shows_a_hand = dataclasses.replace(mine, hand=left.hand)
    assert knowledge.leaks(0, cards_named(shows_a_hand)) is not None
    assert knowledge.leaks(0, cards_in_json(to_json(shows_a_hand))) is not None
    shows_a_pass = dataclasses.replace(mine, detail=across.detail)
    assert knowledge.leaks(0, cards_named(shows_a_pass)) is not None


def test_an_undo_names_only_cards_its_person_knows() -> None:
    history = History(load_preset("hearts"), PEOPLE)
    knowledge = Knowledge(4)
    dealt = history.game.chance_action(random.Random(1))
    assert isinstance(dealt, Deal)
    deal = Deal(3, dealt.hands)  # seat 0 passes first when seat 3 deals, then seat 1
    knowledge.saw(deal, history.apply(deal))
    for seat in (0, 1):
        passed = history.game.legal_actions()[0]
        assert getattr(passed, "seat", None) == seat
        knowledge.saw(passed, history.apply(passed))
    undo = Undo(0, history.undo_target(0))
    (undone,) = history.apply(undo)
    knowledge.saw(undo, [undone])
    assert knowledge.leaks(0, cards_named(undone)) is None


@each_case
def test_a_saved_game_loads_at_the_same_position(case: Case, tmp_path: Path) -> None:
    play = played(case, SEEDS[1])
    path = tmp_path / "game.json"
    session = Session.new(play.ruleset, table(case), 7, autosave=False)
    rng = random.Random(case.id)
    points = set(rng.sample(range(1, len(play.log)), 4)) | {len(play.log)}
    for i, action in enumerate(play.log, start=1):
        session.apply(action)
        if i not in points:
            continue
        write_save(path, session.to_save())
        loaded = load_save(path)
        assert len(loaded.log) == i
        assert summary_of(loaded.game, i, detail=True) == summary_of(session.game, i, detail=True)
        assert loaded.game.to_move == session.game.to_move
        assert legal_json(loaded.game) == legal_json(session.game)
        assert position(loaded.game, i) == position(session.game, i)
    resumed = Session.resume(path)
    try:
        assert position(resumed.game, len(resumed.log)) == position(session.game, len(play.log))
        assert resumed.is_over
    finally:
        resumed.close()


@each_case
def test_the_same_log_replays_to_the_same_positions(case: Case, tmp_path: Path) -> None:
    play = played(case)
    expected = positions(play)
    end = len(play.log)
    again = History.replay(play.ruleset, PEOPLE, play.log)
    assert position(again.game, end) == expected[-1]
    path = tmp_path / "game.json"
    write_save(path, build_save(play.ruleset, table(case), 3, list(play.log)))
    replay = Replay.open(path, checkpoint_every=16)
    assert replay.position == end and position(replay.game, end) == expected[-1]
    replay.start()
    for i in range(end):
        assert position(replay.game, i) == expected[i], f"the replay's step {i} differs"
        replay.forward()
    assert replay.at_end and position(replay.game, end) == expected[-1]
    rng = random.Random(case.id)
    for target in rng.sample(range(len(expected)), 6):
        assert replay.seek(target) == target
        assert position(replay.game, target) == expected[target]
        assert position(replay.state_at(target), target) == expected[target]
        if target:
            assert replay.back() == target - 1
            assert position(replay.game, target - 1) == expected[target - 1]
    deals = [i + 1 for i, action in enumerate(play.log) if action.type == "deal"]
    tricks = [i + 1 for i, made in enumerate(play.events) if any(isinstance(e, TrickWon) for e in made)]
    for step, stops in ((replay.next_deal, deals), (replay.next_trick, tricks)):
        replay.start()
        landed = [step() for _ in range(len(stops) + 1)]
        assert landed == [*stops, end], f"{step.__name__} stops at {landed}, not after each of {stops} and at the end"
        assert all(position(replay.state_at(p), p) == expected[p] for p in landed)


@each_case
def test_a_resumed_game_goes_on_as_if_it_never_stopped(case: Case, tmp_path: Path) -> None:
    rules = case.short(1)
    seats = [Seat(f"P{i}", "bot", case.entry.levels[0]) for i in range(case.seats)]
    straight = Session.new(rules, seats, 11, autosave=False)
    while not straight.is_over:
        straight.play_bot_turn()
    stop = random.Random(case.id).randrange(1, len(straight.log))
    first = Session.new(rules, seats, 11, autosave=False)
    while len(first.log) < stop:
        first.play_bot_turn()
    path = tmp_path / "game.json"
    write_save(path, first.to_save())
    resumed = Session.of_save(load_save(path))
    assert resumed.seat_to_move() == first.seat_to_move() and resumed.deal_number == first.deal_number
    while not resumed.is_over:
        resumed.play_bot_turn()
    assert [a.to_json() for a in resumed.log] == [a.to_json() for a in straight.log]
    assert summary_of(resumed.game, stop) == summary_of(straight.game, stop)


@each_case
def test_every_event_and_view_reads_back_from_json(case: Case) -> None:
    play = played(case)
    history = play.history()
    for step, action in enumerate(play.log):
        for event in history.apply(action):
            if not isinstance(event, Undone):  # checked on its own below
                assert event_from_json(wire(event), case.game) == event, f"the {event.kind} event"
        game = history.game
        tm = game.to_move
        # The seat to move (its moves too) and, in turn, each other seat: every seat's view, in every phase.
        for seat in {step % game.seats, tm.seat if tm is not None else 0}:
            view = game.view(seat)
            back = view_from_json(wire(view))
            assert type(back) is type(view), f"step {step}: seat {seat}'s view comes back as another type"
            assert list(back.legal) == list(view.legal)
            same = without_legal(back) == without_legal(view)
            assert same, f"step {step}: seat {seat}'s view comes back changed"


@each_case
def test_an_undo_event_reads_back_from_json(case: Case) -> None:
    play = played(case)
    undone = [e for made in play.events for e in made if isinstance(e, Undone)]
    assert undone, "the random game takes a decision back"
    for event in undone:
        assert event_from_json(wire(event), case.game) == event


@pytest.mark.parametrize("entry", GAMES, ids=game_names())
def test_every_seat_count_the_registry_offers_is_played_here(entry: GameEntry) -> None:
    """Each count a player may ask for (`--players N`) gives rules for that many seats, and a case above plays at
    it (a preset's, or the default rules at that count): a count without one fails here, not at someone's table."""
    for count in entry.seat_counts:
        assert entry.with_seats(entry.default_rules(), count).seats == count
    assert {case.seats for case in CASES if case.entry is entry} == set(entry.seat_counts)


@dataclasses.dataclass(frozen=True)
class Shout(Action):
    """A kind of action no game takes."""

    type: typing.ClassVar[str] = "shout"


@pytest.mark.parametrize("entry", GAMES, ids=game_names())
def test_an_action_the_game_does_not_take_is_refused_by_name(entry: GameEntry) -> None:
    """Every game names the action it refuses and the ones it takes, and is left as it was."""
    game = entry.new_game(entry.default_rules())
    kinds = sorted(kind.type for kind in game.APPLIES)
    assert "deal" in kinds
    before = summary_of(game, 0, detail=True)
    with pytest.raises(IllegalAction) as refused:
        game.apply(Shout())
    assert str(refused.value).startswith("this game has no 'shout' action, only ")
    assert all(kind in str(refused.value) for kind in kinds)
    assert summary_of(game, 0, detail=True) == before


@each_level
def test_each_computer_player_plays_only_legal_moves(case: Case, level: str) -> None:
    game = case.new_game(1)
    bot = case.entry.make_bot(level, HARD_BUDGET_MS)
    rng = random.Random(f"conformance/{case.id}/{level}")
    decisions = 0
    while not game.is_over and decisions < 80:
        if game.is_chance:
            game.apply(game.chance_action(rng))
            continue
        tm = game.to_move
        assert tm is not None
        view = game.view(tm.seat)
        # Every other decision from the view as a seat at a network table reads it, back from its JSON.
        action = bot.decide(view_from_json(wire(view)) if decisions % 2 else view, rng).action
        assert action in game.legal_actions(), f"{level} chose {action.to_json()}, not a legal move"
        game.apply(action)
        decisions += 1
    assert decisions > 0


@each_case
def test_the_arena_plays_a_game(case: Case) -> None:
    level = case.entry.levels[0]
    summary = run_arena(case.game, [level] * case.seats, games=1, seed=4, ruleset=case.short(1)).to_json()
    assert summary["games"] == 1 and summary["units"] == 1
    assert summary["levels"][level]["seats"] == case.seats


@pytest.mark.slow  # a review: the judge searches every decision
@each_case
def test_a_finished_game_is_reviewed(case: Case, tmp_path: Path) -> None:
    play = played(case)
    path = tmp_path / "game.json"
    write_save(path, build_save(play.ruleset, table(case), 5, list(play.log)))
    loaded = load_save(path)
    result = review(loaded, level="hard", budget_ms=HARD_BUDGET_MS)
    taken_back = loaded.history.taken_back()
    choices = [i for i, a in enumerate(play.log) if getattr(a, "seat", None) == 0 and i not in taken_back]
    # The person's choices of play that stand: not an undo or a claim (which plays itself out).
    mine = [i for i in choices if play.log[i].type not in ("undo", "claim")]
    assert result.status == "finished" and result.seats == PEOPLE
    assert [j.index for j in result.judgements] == mine
    assert json.loads(json.dumps(result.to_json()))["decisions"]


@pytest.mark.slow  # whole games with computer players over the network
@each_case
async def test_the_network_table_plays_to_the_end(case: Case, tmp_path: Path) -> None:
    level = case.entry.levels[0]
    spec = ",".join(["p"] + [level] * (case.seats - 1))
    table = await open_table(tmp_path, case.short(1), spec)
    async with table:
        (invite,) = table.invitations().values()
        client = await bounded(Client.join(invite))
        final = await bounded(play_remote(client, level, seed=3))
        await bounded(table.finished.wait())
        assert table.session.is_over and final.to_move is None
        assert to_json(final) == to_json(table.session.game.view(0))
        assert client.refusals == [] and client.errors == []
        await client.close()


def test_every_shipped_preset_is_checked() -> None:
    """A preset no registered game lists would escape every check here."""
    shipped = [case.preset.name for case in CASES if not case.reseated]
    assert sorted(shipped) == sorted(preset.name for preset in list_presets())
    assert {case.game for case in CASES} == set(game_names())
