"""Words and labels the screens share: speeds, card labels, seat names, events told in words.

Nothing here imports Textual, so it is cheap to import and easy to test.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtui.cards import Card, Suit
from cardtui.games import Event
from cardtui.saves import Seat

SPEEDS = ("instant", "fast", "normal", "slow")
# Seconds a computer player waits before moving, and a finished trick stays on screen.
BOT_DELAY = {"instant": 0.0, "fast": 0.15, "normal": 0.5, "slow": 1.0}
TRICK_DELAY = {"instant": 0.0, "fast": 0.4, "normal": 1.0, "slow": 2.0}
COMPASS = ("South", "West", "North", "East")
GAME_TITLES = {
    "hearts": "Hearts",
    "spades": "Spades",
    "cutthroat": "Cutthroat Spades",
    "eight-of-spades": "Eight of Spades",
}
RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)


def card_label(card: Card, ascii_only: bool) -> str:
    """`10♣`, or `10C` on terminals without suit glyphs."""
    return card.code if ascii_only else card.glyph


def suit_label(suit: Suit, ascii_only: bool) -> str:
    return suit.letter if ascii_only else suit.glyph


def seat_name(seats: Sequence[Seat], seat: int) -> str:
    return seats[seat].name if 0 <= seat < len(seats) else f"seat {seat}"


def side_name(seats: Sequence[Seat], side: Sequence[int]) -> str:
    return " + ".join(seat_name(seats, s) for s in side)


def tricks_text(count: int) -> str:
    """`1 trick`, `3 tricks`."""
    return f"{count} trick" if count == 1 else f"{count} tricks"


def bid_label(bid: int, blind: bool) -> str:
    word = "nil" if bid == 0 else str(bid)
    return f"blind {word}" if blind else word


def parse_bid_text(text: str) -> tuple[int, bool]:
    """Read a typed bid: `4`, `nil`, `0`, `blind`, `blind nil`, `blind 5`, `b5`; ValueError says why."""
    words = text.strip().lower().replace("-", " ").split()
    if not words:
        raise ValueError("type a bid: 0-13, nil, or blind ...")
    blind = False
    if words[0] in ("blind", "b"):
        blind, words = True, words[1:]
    elif words[0].startswith("b") and words[0][1:].isdigit():
        blind, words = True, [words[0][1:]]
    if not words:
        return 0, True
    if len(words) != 1:
        raise ValueError(f"not a bid: {text.strip()!r} — type 0-13, nil, blind nil or blind 5")
    word = words[0]
    if word == "nil":
        return 0, blind
    if word.isdigit() and 0 <= int(word) <= 13:
        return int(word), blind
    raise ValueError(f"not a bid: {text.strip()!r} — a bid is 0 to 13 tricks, nil, or blind ...")


def describe(event: Event, seats: Sequence[Seat], viewer: int | None, ascii_only: bool) -> str | None:
    """One log line for an engine event, in the words of the table; None for events not worth a line.

    Cards passed between two other seats stay hidden from the viewer.
    """
    kind = event.kind

    def name(seat: int) -> str:
        return seat_name(seats, seat)

    def does(seat: int, verb: str, plain: str) -> str:
        """`West plays` but `You play`."""
        who = name(seat)
        return f"{who} {plain if who == 'You' else verb}"

    def lab(card: Card) -> str:
        return card_label(card, ascii_only)

    data = {f: getattr(event, f) for f in getattr(event, "__dataclass_fields__", {})}
    if kind == "dealt":
        return f"Deal {data['deal_number']}: {does(data['dealer'], 'deals', 'deal')}."
    if kind == "cards_passed":
        seat, to, cards = data["seat"], data["to"], data["cards"]
        if viewer in (seat, to):
            shown = " ".join(lab(c) for c in cards)
            return f"{does(seat, 'passes', 'pass')} {shown} to {name(to)}."
        return f"{does(seat, 'passes', 'pass')} {len(cards)} cards to {name(to)}."
    if kind == "pass_chosen":
        return None
    if kind == "bid_made":
        return f"{does(data['seat'], 'bids', 'bid')} {bid_label(data['bid'], data['blind'])}."
    if kind == "card_played":
        return f"{does(data['seat'], 'plays', 'play')} {lab(data['card'])}."
    if kind == "broken":
        return f"{data['suit'].plural.capitalize()} are broken."
    if kind == "trick_won":
        return f"{does(data['seat'], 'takes', 'take')} the trick ({name(data['leader'])} led)."
    if kind == "deal_scored":
        record = data["record"]
        return "Deal scored; totals " + " / ".join(str(t) for t in record.totals) + "."
    if kind in ("game_over", "game-over"):
        return "Game over." if data["winners"] else "Game over: nobody wins."
    if kind == "laid-out":
        return "The cards are laid out face down."
    if kind == "flipped":
        verdict = "a match!" if data["matched"] else "no match."
        flipped = lab(data["card"])
        return f"{does(data['seat'], 'calls', 'call')} {data['call']} at {data['position']}: {flipped} — {verdict}"
    if kind == "taken":
        return f"{does(data['seat'], 'collects', 'collect')} {len(data['cards'])} cards, +{data['points']}."
    if kind == "points-lost":
        return f"{does(data['seat'], 'flips', 'flip')} the ace of spades: {data['lost']} points lost."
    if kind == "stake-lost":
        return f"{does(data['seat'], 'loses', 'lose')} the stake of {data['stake']}."
    if kind == "eliminated":
        return f"{does(data['seat'], 'is', 'are')} out of the game."
    if kind == "skipped":
        return f"{name(data['seat'])} cannot flip and is skipped."
    return None


def winners_text(seats: Sequence[Seat], sides: Sequence[Sequence[int]], winners: Sequence[int]) -> str:
    """`You + North win` / `West wins` / `West and East share the win`."""
    if not winners:
        return "Nobody wins."
    names = [side_name(seats, sides[w]) for w in winners]
    if len(names) > 1:
        return " and ".join(names) + " share the win."
    plural = len(sides[winners[0]]) > 1
    return f"{names[0]} {'win' if plural else 'wins'}."
