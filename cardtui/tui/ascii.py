"""`--ascii`: a line filter that keeps every drawn character within ASCII, cell for cell.

The screens already write ASCII words when `ascii_only` is set (`common.ascii_text`) and the
stylesheet swaps box borders for ASCII ones under the app's `-ascii` class; this filter is the
last step before the terminal, so a glyph drawn by a stock widget (a scrollbar's eighth block, a
select's arrow) still reaches the screen as a plain character of the same width.
"""

from __future__ import annotations

import functools
import unicodedata

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from cardtui.tui.common import ASCII_CELLS


@functools.lru_cache(maxsize=512)
def ascii_char(char: str) -> str:
    """One character as ASCII of the same width on screen (`?` for what has no likeness)."""
    if char.isascii():
        return char
    if char in ASCII_CELLS:
        return ASCII_CELLS[char]
    width = cell_len(char)
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            out = "-"
        elif "VERTICAL" in name and "HORIZONTAL" not in name:
            out = "|"
        else:
            out = "+"
    elif name.endswith("BLOCK") and name.startswith(("LEFT", "RIGHT")):
        out = "|"
    elif name in ("LOWER ONE EIGHTH BLOCK", "LOWER ONE QUARTER BLOCK"):
        out = "_"
    elif name == "UPPER ONE EIGHTH BLOCK":
        out = "-"
    elif "BLOCK" in name or "SHADE" in name:
        out = "#"
    elif "ARROW" in name or "TRIANGLE" in name:
        out = ">" if "RIGHT" in name else "<" if "LEFT" in name else "^" if "UP" in name else "v"
    elif "DOT" in name or "BULLET" in name:
        out = "."
    else:
        out = "?"
    return out * width if width > 0 else ""


@functools.lru_cache(maxsize=4096)
def ascii_cells(text: str) -> str:
    """A segment's text with each character made ASCII, keeping its width."""
    return text if text.isascii() else "".join(ascii_char(c) for c in text)


class AsciiFilter(LineFilter):
    """Turns every character of a drawn line into ASCII of the same width."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            seg if seg.control or seg.text.isascii() else Segment(ascii_cells(seg.text), seg.style, seg.control)
            for seg in segments
        ]
