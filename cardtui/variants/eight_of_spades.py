"""Eight of Spades' entry in the registry, with the game's whole rule text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardtui.bots import Bot
from cardtui.bots.judge import Weigher
from cardtui.cards import Card, cards_text
from cardtui.games.base import Action, Event, Game, PlayerView
from cardtui.games.eight_of_spades import (
    CALLS,
    GRID_CELLS,
    POSITIONS,
    EightOfSpadesGame,
    EightOfSpadesView,
    Eliminated,
    Flip,
    Flipped,
    LaidOut,
    PointsLost,
    Skipped,
    StakeLost,
    Taken,
    parse_position,
    position_name,
)
from cardtui.games.eight_of_spades import EIGHT_OF_SPADES as EIGHT_CARD
from cardtui.variants.base import CardText, GameEntry, Grid, ReviewWords, Said

RULES_TEXT = """\
Eight of Spades (2-8 players)

The 52 cards are laid face down: 49 in a 7x7 grid (columns A-G, rows 1-7)
and 3 in the illuminati (I1-I3).

On your turn call clubs (C), diamonds (D), hearts (H), spades (S) or the
eight of spades (8S), then flip one face-down card.

Match - the flipped card is of the suit you called, or you called 8S and it
is the 8S: you collect it and every face-up grid card, except locked groups
of another suit. Calling S and flipping the 8S is not a match.
No match: the card stays face up where it is.

Points: 1 per card; the 8S is worth 52 / players rounded up (a house rule
may fix it). Illuminati cards are worth 10 each (the 8S there: the higher of
the two values).

Illuminati: you may flip there only if you hold at least 5 points (the
stake). A miss loses the stake and the card stays face up in the illuminati.
A match collects the flipped card, every face-up illuminati card, and the
grid cards a grid match of that card would collect. Call 8S and flip the 8S
in the illuminati and you win the game at once.

Ace of spades: it matches no call and is a spade for locking. Flipped in the
grid, your points drop to 0 and it stays face up. Flipped in the illuminati
it is a miss (the stake is lost) and you leave the game: you cannot win, and
play goes on without you. When only one player is left, that player wins.

Locking: face-up grid cards that touch side by side or above and below and
share a suit are locked, a whole connected group at once. A locked group is
collected only by a match whose flipped card is of the group's suit.

Turns go clockwise from seat 0. A player who cannot flip (no grid cards left
and fewer points than the stake) is skipped. The game ends when nobody can
flip (every card flipped, or only illuminati cards left and nobody holds the
stake). Then the most points wins; equal points share the win.

House rule (off by default): calling 8S and flipping it in the grid on your
first turn also wins at once.
"""
"""How Eight of Spades is played, with the choices this project made where seed 003 is silent."""

LEVELS = ("easy", "classic", "hard")
"""Its computer players' levels (`bots/eight_of_spades.py`, loaded only when one is asked for)."""


def _bot(level: str, budget_ms: int) -> Bot:
    from cardtui.bots.eight_of_spades import make_bot

    return make_bot(level, budget_ms)


def _judge(budget_ms: int) -> Weigher:
    from cardtui.bots.eight_of_spades_judge import EightOfSpadesJudge

    return EightOfSpadesJudge()


def _ace_hit(event: Event) -> int | None:
    """The seat that flipped the ace of spades (in the grid or the illuminati)."""
    return event.seat if isinstance(event, PointsLost | Eliminated) else None


def _figures(game: Game, counts: Sequence[int]) -> dict[str, list[int]]:
    """Per seat: times the ace of spades was flipped."""
    return {"ace_hits": list(counts[: game.seats])}


def _stat_counts(figures: Mapping[str, list[int]], you: int, side: int) -> dict[str, int]:
    return {"ace_hits": figures["ace_hits"][you]}


def _amount(view: PlayerView, points: float) -> str:
    return f"{points:.1f} points expected"


def _say(action: Action, text: CardText) -> str | None:
    """A flip in a player's words: `calling hearts at D4`."""
    if not isinstance(action, Flip):
        return None
    from cardtui.bots.eight_of_spades import CALL_WORDS

    return f"calling {CALL_WORDS[CALLS.index(action.call)]} at {position_name(action.pos)}"


def _facts(view: PlayerView, best: Action, mine: Action, names: Sequence[str], text: CardText) -> list[str]:
    """The 8♠ face up (so a call of it cannot match), what is still face down, and the illuminati's stake when
    only one of the two flips is there."""
    from cardtui.bots.eight_of_spades import Reckoning

    assert isinstance(view, EightOfSpadesView)
    t = Reckoning(view)
    kinds = ("clubs", "diamonds", "hearts", "other spades")
    down = [f"{n} {kinds[k] if n != 1 else kinds[k][:-1]}" for k, n in enumerate(t.counts[:4]) if n]
    facts = []
    up = next((pos for pos, card in enumerate(view.faces) if card == EIGHT_CARD), None)
    if up is not None:
        called = any(isinstance(a, Flip) and a.call == "8S" for a in (best, mine))
        but = ", so a call of it could not match" if called else f", worth {t.eight} to a match that takes it"
        facts.append(f"the {text(EIGHT_CARD)} was face up at {position_name(up)}{but}")
    if down:
        facts.append(f"face down: {', '.join(down)}")
    if t.counts[4]:
        facts.append("the eight of spades is still face down")
    if t.counts[5]:
        facts.append("so is the ace of spades" if t.counts[4] else "the ace of spades is still face down")
    if isinstance(best, Flip) and isinstance(mine, Flip) and (best.pos >= GRID_CELLS) != (mine.pos >= GRID_CELLS):
        facts.append(f"the illuminati costs a stake of {view.ruleset.illuminati_stake}")
    return facts


def _tell(event: Event, said: Said, text: CardText) -> str | None:
    """The log's line for a flip, a match's take, the ace of spades' cost, a lost stake, a seat out or skipped."""
    match event:
        case LaidOut():
            return "The cards are laid out face down."
        case Flipped(seat=seat, call=call, position=position, card=card, matched=matched):
            verdict = "a match!" if matched else "no match."
            return f"{said(seat, 'calls', 'call')} {call} at {position}: {text(card)} — {verdict}"
        case Taken(seat=seat, cards=cards, points=points):
            return f"{said(seat, 'collects', 'collect')} {cards_text(len(cards))}, +{points}."
        case PointsLost(seat=seat, lost=lost):
            return f"{said(seat, 'flips', 'flip')} the ace of spades: {lost} points lost."
        case StakeLost(seat=seat, stake=stake):
            return f"{said(seat, 'loses', 'lose')} the stake of {stake}."
        case Eliminated(seat=seat):
            return f"{said(seat, 'is', 'are')} out of the game."
        case Skipped(seat=seat):
            return f"{said(seat, 'cannot flip and is skipped', 'cannot flip and are skipped')}."
    return None


GRID_CALLS = tuple(zip(CALLS, ("clubs", "diamonds", "hearts", "spades", "eight of spades"), strict=True))
"""Each call and its words on the grid's call line."""


class EightOfSpadesGrid(Grid):
    """The 7x7 grid and the illuminati under it, the five calls, and a seat's view and a game read for them."""

    cells = GRID_CELLS
    positions = POSITIONS
    calls = GRID_CALLS

    def position_name(self, pos: int) -> str:
        return position_name(pos)

    def parse_position(self, text: str) -> int:
        return parse_position(text)

    def view(self, view: PlayerView) -> EightOfSpadesView:
        """The registry gives the grid to this game alone: its view is this game's."""
        assert isinstance(view, EightOfSpadesView)
        return view

    def terms(self, view: PlayerView) -> tuple[str, ...]:
        """The stake and the eight of spades' worth."""
        rules = self.view(view).ruleset
        return (f"stake {rules.illuminati_stake}", f"8S {rules.eight_points}")

    def flip(self, view: PlayerView, seat: int, call: str, pos: int) -> Action | str:
        flip = Flip(seat, call, pos)
        problem = self.view(view).refuse_flip(flip)
        return flip if problem is None else problem

    def faces_down(self, game: Game) -> tuple[Card | None, ...]:
        assert isinstance(game, EightOfSpadesGame)
        down = game.down
        return tuple(game.card_at(p) if down >> p & 1 else None for p in range(POSITIONS))

    def said(self, events: Sequence[Event], who: str, text: CardText) -> str:
        """`South called H, flipped D4: 9H, a match: collected 5 cards, +5`."""
        said = ""
        for event in events:
            match event:
                case Flipped(call=call, position=position, card=card, matched=matched):
                    verdict = "a match" if matched else "no match"
                    said = f"{who} called {call}, flipped {position}: {text(card)}, {verdict}"
                case Taken(cards=cards, points=points):
                    said += f": collected {len(cards)} cards, +{points}"
                case PointsLost(lost=lost):
                    said += f": the ace of spades, {lost} points lost"
                case StakeLost(stake=stake):
                    said += f": lost the stake of {stake}"
                case Skipped():
                    said = f"{who} could not flip and was skipped"
        return said


EIGHT_OF_SPADES = GameEntry(
    name="eight-of-spades",
    title="Eight of Spades",
    presets=("eight-of-spades",),
    engine=EightOfSpadesGame,
    levels=LEVELS,
    bot=_bot,
    judge=_judge,
    rules_text=RULES_TEXT,
    board="grid",
    deal_table=None,
    thresholds={"points": (1.0, 3.0), "win chance": (0.05, 0.15)},
    review=ReviewWords(amount=_amount, points_hurt=False, own_score="your own", facts=_facts, say=_say),
    seat_counts=tuple(range(2, 9)),
    players_knob="players",
    figures=_figures,
    count=_ace_hit,
    tell=_tell,
    grid=EightOfSpadesGrid(),
    seat_figures=("ace_hits",),
    side_figures=(),
    stat_counts=_stat_counts,
    stat_keys=("ace_hits",),
    per_deal_keys=(),
    stat_columns=(("ace_hits", "AS hits"),),
    reference_levels=("hard-v1",),
)
