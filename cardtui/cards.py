"""Cards, suits, ranks, card codes and compact card sets.

A card's index is ``suit * 13 + (rank - 2)``, so a set of cards is a 52-bit
integer and each suit is a 13-bit slice of it; the engines and the computer
players' play-outs work on these integers directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum


class CardError(ValueError):
    """A card code that cannot be read."""


class Suit(IntEnum):
    """The four suits, in the order of their bits (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def glyph(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        return ("clubs", "diamonds", "hearts", "spades")[self]


class Rank(IntEnum):
    """Ranks 2..14, ace high."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return _RANK_CODES[self - 2]


_RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_BY_TEXT = {code: Rank(i + 2) for i, code in enumerate(_RANK_CODES)} | {"T": Rank.TEN}
_SUIT_BY_TEXT = {s.letter: s for s in Suit} | {s.glyph: s for s in Suit}
_ALLOWED = "use a rank 2-10, J, Q, K, A then a suit C, D, H, S, like 10C"


class Card:
    """One playing card; the 52 instances are shared, so `is` and `==` agree."""

    __slots__ = ("bit", "index", "rank", "suit")

    index: int
    rank: Rank
    suit: Suit
    bit: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        return DECK[int(suit) * 13 + int(rank) - 2]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", Rank(index % 13 + 2))
        object.__setattr__(card, "suit", Suit(index // 13))
        object.__setattr__(card, "bit", 1 << index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    @staticmethod
    def from_index(index: int) -> Card:
        return DECK[index]

    @property
    def code(self) -> str:
        """The canonical code, like ``10C``."""
        return self.rank.code + self.suit.letter

    @property
    def glyph(self) -> str:
        """The code with a suit glyph, like ``10♣``."""
        return self.rank.code + self.suit.glyph

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))


DECK: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
FULL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
QUEEN_OF_SPADES = Suit.SPADES * 13 + Rank.QUEEN - 2
"""The queen of spades' card index (its `Card` is `DECK[QUEEN_OF_SPADES]`, its bit `QS_BIT`)."""
QS_BIT = 1 << QUEEN_OF_SPADES


def parse_card(text: str) -> Card:
    """Read a card code: ``10C``, ``10c``, ``TC``, ``tc``, ``10♣``, ``qs``."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r} — {_ALLOWED}")
    key = text.strip().upper()
    if len(key) >= 2:
        rank = _RANK_BY_TEXT.get(key[:-1])
        suit = _SUIT_BY_TEXT.get(key[-1])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise CardError(f"not a card: {text!r} — {_ALLOWED}")


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Read several card codes; the first bad one raises."""
    return [parse_card(t) for t in texts]


def card(text: str) -> Card:
    """Shorthand for `parse_card`, handy in tests and scripts."""
    return parse_card(text)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    m = 0
    for c in cards:
        m |= c.bit
    return m


def bit_indices(mask: int) -> list[int]:
    """The positions of the set bits of a mask, lowest first (card indices of a card mask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, lowest index first."""
    return [DECK[i] for i in bit_indices(mask)]


class CardSet:
    """An immutable set of cards stored as one 52-bit integer."""

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        value = cards if isinstance(cards, int) else mask_of(cards)
        if value < 0 or value > FULL_MASK:
            raise ValueError(f"card mask out of range: {value}")
        object.__setattr__(self, "mask", value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("card sets are immutable")

    @classmethod
    def parse(cls, codes: Iterable[str]) -> CardSet:
        return cls(parse_cards(codes))

    @classmethod
    def full(cls) -> CardSet:
        return cls(FULL_MASK)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Card) and bool(self.mask & item.bit)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def add(self, c: Card) -> CardSet:
        return CardSet(self.mask | c.bit)

    def remove(self, c: Card) -> CardSet:
        return CardSet(self.mask & ~c.bit)

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def has_suit(self, suit: Suit) -> bool:
        return bool(self.mask & SUIT_MASKS[suit])

    def codes(self) -> list[str]:
        return [c.code for c in self]

    def __repr__(self) -> str:
        return f"CardSet({' '.join(self.codes())})"


def cards_text(count: int) -> str:
    """`1 card`, `3 cards`."""
    return f"{count} card" if count == 1 else f"{count} cards"
