"""Words and labels the screens share: card labels, seat names, events told in words.

Nothing here imports Textual, so it is cheap to import and easy to test.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence

from cardtui.cards import Card, Suit, cards_text, parse_card
from cardtui.games import Event
from cardtui.games.base import Action, Bid, Claim, GameOver, Pass, Play, Undone, bid_label
from cardtui.games.trick import BidMade, Broken, CardPlayed, CardsPassed, Claimed, DealScored, Dealt, TrickWon
from cardtui.seats import Seat
from cardtui.variants import GAMES
from cardtui.variants.base import name_and_verb
from cardtui.variants.trick import tricks_text

GAME_TITLES = {entry.name: entry.title for entry in GAMES}
"""Each game's title by its name, in the registry's order (the new-game form's, the statistics')."""
HOUSE = "house:"
"""Before a house-rules file's path in a list of rules (New game's, the editor's Start from), so that it is never
taken for a preset's name."""
RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)

ASCII_CELLS = {
    "·": "|",
    "•": "*",
    "—": "-",
    "–": "-",
    "…": ".",
    "▶": ">",
    "▸": ">",
    "★": "*",
    "×": "x",
    "←": "<",
    "→": ">",
    "↑": "^",
    "↓": "v",
    "⏎": "<",
    "▒": "#",
    "░": "#",
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
}
"""A likeness in ASCII of the same width for each glyph the screens draw (the last resort of `--ascii`)."""

ASCII_WORDS = {"…": "...", "←": "<-", "→": "->", "↑": "up", "↓": "down", "—": "-", "⏎": "Enter"}
"""Glyphs that read better as a few ASCII characters, where the width may change (words, not borders)."""


def in_browser_tab() -> bool:
    """This app runs in a browser tab (`cardtui serve`, `host --web`): textual-serve starts it with its web driver."""
    return os.environ.get("TEXTUAL_DRIVER", "").startswith("textual.drivers.web_driver")


def ascii_text(text: str, ascii_only: bool = True) -> str:
    """The text as it is drawn under `--ascii`: `is thinking...`, `<-/->`, `Deal 1 | fast`; unchanged otherwise."""
    if not ascii_only or text.isascii():
        return text
    for glyph, word in ASCII_WORDS.items():
        text = text.replace(glyph, word)
    return "".join(ASCII_CELLS.get(c, c) for c in text)


def fit_parts(parts: Sequence[str], width: int, sep: str = " · ") -> list[str]:
    """Parts joined by `sep` into as few lines as fit `width`; a part is never split (a too-long one stands alone)."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def name_column(rows: Sequence[tuple[str, str]], width: int, least: int) -> list[str]:
    """Lines of a name and its figures (`South + North`, `  0 bags 0`), the names in a column at least `least` wide
    and as wide as the longest that shares `width` with its figures; a name that does not has a line of its own,
    its figures on the next under the others' (a name is never cut short to make room)."""
    fits = [(name, figures) for name, figures in rows if len(name) + 1 + len(figures) <= width]
    column = max([least, *(len(name) for name, _ in fits)])
    lines: list[str] = []
    for name, figures in rows:
        if len(name) <= column and column + 1 + len(figures) <= width:
            lines.append(f"{name:<{column}} {figures}")
        else:
            lines.append(name)
            lines.append(f"{'':<{column}} {figures}" if column + 1 + len(figures) <= width else figures.rjust(width))
    return lines


def card_label(card: Card, ascii_only: bool) -> str:
    """`10♣`, or `10C` on terminals without suit glyphs."""
    return card.code if ascii_only else card.glyph


CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")
"""A card's code in the engine's words (`3C`, `10H`)."""


def card_codes_shown(text: str, ascii_only: bool) -> str:
    """The engine's words with each card code drawn as the table draws cards: `3♣ (K♣)`, or kept under ASCII."""
    return text if ascii_only else CARD_CODE.sub(lambda m: parse_card(m.group()).glyph, text)


def seat_name(seats: Sequence[Seat], seat: int) -> str:
    return seats[seat].name if 0 <= seat < len(seats) else f"seat {seat}"


def side_name(seats: Sequence[Seat], side: Sequence[int]) -> str:
    return " + ".join(seat_name(seats, s) for s in side)


def possessive(name: str) -> str:
    """`West's` but `Your`."""
    return "Your" if name == "You" else f"{name}'s"


def bid_examples(bids: Sequence[Bid]) -> str:
    """What may be typed for these legal bids, by example: `4, nil, blind nil, blind 5`, blind ones only if offered."""
    offered = {(b.bid > 0, b.blind) for b in bids}
    examples = {(True, False): "4", (False, False): "nil", (False, True): "blind nil", (True, True): "blind 5"}
    return ", ".join(word for key, word in examples.items() if key in offered)


def parse_bid_text(text: str, blind_ok: bool = True, most: int = 13) -> tuple[int, bool]:
    """Read a typed bid: `4`, `nil`, `0`, `blind`, `blind nil`, `blind 5`, `b5`; ValueError says why.

    `blind_ok` says whether the rules offer blind bids now, so the error names only what may be typed; `most` is
    the highest bid (the hand's size: 17 in cutthroat for three).
    """
    allowed = f"a number of tricks 0 to {most}, or nil" + (", each may be blind (blind 5)" if blind_ok else "")
    words = text.strip().lower().replace("-", " ").split()
    if not words:
        raise ValueError(f"type a bid: {allowed}")
    blind = False
    if words[0] in ("blind", "b"):
        blind, words = True, words[1:]
    elif words[0].startswith("b") and words[0][1:].isascii() and words[0][1:].isdigit():
        blind, words = True, [words[0][1:]]
    if not words:
        return 0, True
    if len(words) != 1:
        raise ValueError(f"not a bid: {text.strip()!r} — type {allowed}")
    word = words[0]
    if word == "nil":
        return 0, blind
    if word.isascii() and word.isdigit() and 0 <= int(word) <= most:
        return int(word), blind
    raise ValueError(f"not a bid: {text.strip()!r} — type {allowed}")


def describe(event: Event, seats: Sequence[Seat], viewer: int | None, ascii_only: bool) -> str | None:
    """One log line for an engine event, in the words of the table; None for events not worth a line.

    Cards passed between two other seats stay hidden from the viewer.
    """

    def name(seat: int) -> str:
        return seat_name(seats, seat)

    def said(seat: int, verb: str, plain: str) -> str:
        return name_and_verb(name(seat), verb, plain)

    def lab(card: Card) -> str:
        return card_label(card, ascii_only)

    match event:
        case Dealt(dealer=dealer, deal_number=number):
            return f"Deal {number}: {said(dealer, 'deals', 'deal')}."
        case CardsPassed(seat=seat, to=to, cards=cards):
            if viewer in (seat, to):
                shown = " ".join(lab(c) for c in cards) or "no cards"
                return f"{said(seat, 'passes', 'pass')} {shown} to {name(to)}."
            # a network seat is not told the cards passed between two others, nor how many
            return f"{said(seat, 'passes', 'pass')} {cards_text(len(cards)) if cards else 'cards'} to {name(to)}."
        case BidMade(seat=seat, bid=bid, blind=blind):
            return f"{said(seat, 'bids', 'bid')} {bid_label(bid, blind)}."
        case CardPlayed(seat=seat, card=card):
            return f"{said(seat, 'plays', 'play')} {lab(card)}."
        case Broken(suit=suit):
            return f"{suit.plural.capitalize()} are broken."
        case TrickWon(seat=seat, leader=leader):
            return f"{said(seat, 'takes', 'take')} the trick ({name(leader)} led)."
        case DealScored(record=record):
            return "Deal scored; totals " + " / ".join(str(t) for t in record.totals) + "."
        case GameOver(winners=winners):
            return "Game over." if winners else "Game over: nobody wins."
        case Claimed(seat=seat, tricks=tricks):
            return f"{said(seat, 'claims', 'claim')} the last {tricks_text(tricks)}: the claim is certain."
        case Undone():
            return taken_back_text(event, seats, ascii_only, past=False) + "."
    for entry in GAMES:
        told = entry.tell(event, said, lab) if entry.tell is not None else None
        if told is not None:
            return told
    return None


def decision_text(action: Action, ascii_only: bool) -> str:
    """A logged decision in a few words: ``7C``, ``the bid 4``, ``the pass``, ``H at D4``, ``the claim``."""
    if isinstance(action, Play):
        return card_label(action.card, ascii_only)
    if isinstance(action, Bid):
        return f"the bid {action.label()}"
    if isinstance(action, Pass):
        return "the pass"
    if isinstance(action, Claim):
        return "the claim"
    return action.label()


def taken_back_text(event: Undone, seats: Sequence[Seat], ascii_only: bool, past: bool) -> str:
    """``You take back 7C (and West 9C, North KC with it)``; `past` says ``took``."""
    first, *rest = event.taken_back
    verb = ("took", "took") if past else ("takes", "take")
    said = name_and_verb(seat_name(seats, event.seat), verb[0] + " back", verb[1] + " back")
    text = f"{said} {decision_text(first, ascii_only)}"
    if rest:
        moves = ", ".join(f"{seat_name(seats, getattr(a, 'seat', 0))} {decision_text(a, ascii_only)}" for a in rest)
        text += f" (and {moves} with it)"
    return text


def winners_text(seats: Sequence[Seat], sides: Sequence[Sequence[int]], winners: Sequence[int]) -> str:
    """`You + North win` / `West wins` / `West and East share the win` / `You, West and East share the win`."""
    if not winners:
        return "Nobody wins."
    names = [side_name(seats, sides[w]) for w in winners]
    if len(names) > 1:
        return ", ".join(names[:-1]) + f" and {names[-1]} share the win."
    if len(sides[winners[0]]) > 1:
        return f"{names[0]} win."
    return name_and_verb(names[0], "wins", "win") + "."


class Stopped(Exception):
    """The screen a worker reads for has closed (or the app is quitting): what it read is dropped."""


def until_cancelled(progress: Callable[[int, int], None]) -> Callable[[int, int], None]:
    """A progress callback for a thread worker's long read (the saves catalog) that ends the read with `Stopped`
    once the worker is cancelled: a thread cannot be stopped from outside, and the app waited for it to finish
    reading every save before it could quit."""
    from textual.worker import get_current_worker

    worker = get_current_worker()

    def checked(done: int, total: int) -> None:
        if worker.is_cancelled:
            raise Stopped
        progress(done, total)

    return checked
