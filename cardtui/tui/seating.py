"""Where each seat sits around the felt, for any table from 3 to 6 seats (no Textual: the table and the trick share it).

The felt is a 3 by 3 grid with the trick in the middle cell; the seat at the
keyboard sits at the bottom and the others follow clockwise (left, then over
the top, then right), as people sit at a real table.
"""

from __future__ import annotations

TRICK_CELL = 4
"""The felt's middle cell, where the trick is drawn."""
CELLS = 9

SEATINGS: dict[int, tuple[int, ...]] = {
    3: (7, 3, 5),
    4: (7, 3, 1, 5),
    5: (7, 3, 0, 2, 5),
    6: (7, 3, 0, 1, 2, 5),
}
"""For each table size, the felt cell (0 top left … 8 bottom right) of each place clockwise from the bottom."""


def seating(count: int) -> tuple[int, ...]:
    """The felt cell of each place, the bottom first (ValueError for a table this screen cannot draw)."""
    try:
        return SEATINGS[count]
    except KeyError:
        sizes = ", ".join(str(n) for n in SEATINGS)
        raise ValueError(f"a table of {count} seats cannot be drawn — the table has {sizes} seats") from None


def place_of(seat: int, bottom: int, count: int) -> int:
    """Where a seat is drawn: its place clockwise from the seat at the bottom (0)."""
    return (seat - bottom) % count
