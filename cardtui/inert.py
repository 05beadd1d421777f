"""The one door for text from outside the program: file and folder names, a save's or a ruleset's text,
settings values, anything from the network. Whatever a person reads (the terminal, a screen, a notification,
a log line) that holds such text passes through `inert` first, so a name can never move the cursor, set
the clipboard, ring the bell or turn the text around. Markup is never read from what comes out: the command
line prints it as it is, and the screens draw it as plain text (never as Textual or Rich markup).
"""

from __future__ import annotations

import shlex
import unicodedata

JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that only join letters or emoji (a family's emoji is
three joined by U+200D), nothing a terminal acts on."""


def plain(c: str) -> bool:
    """Whether a terminal shows the character `c` as it is: what Python calls printable, a space of any width
    (Unicode's Zs, such as the no-break space) or a joiner; never a control, a bidi mark or a line break."""
    return c.isprintable() or c in JOINERS or unicodedata.category(c) == "Zs"


def is_plain(text: str) -> bool:
    """Whether `text` is one line that `inert` shows as it is (every character `plain`)."""
    return text.isprintable() or all(plain(c) for c in text)


def inert(text: object, lines: bool = False) -> str:
    """`text` with every character a terminal could act on written as its escape (`\\x1b`, `\\x07`, `\\u202e`).

    That is every character that is not `plain`: C0 and C1 controls (ESC, BEL, CSI, DEL), bidi and other
    format characters (U+200E/F, U+202A-202E, U+2066-2069), line and paragraph separators, and the lone
    surrogates an undecodable file name becomes. With `lines`, line breaks are kept (a text of several lines);
    otherwise they are escaped too, so one line stays one line.
    """
    shown = str(text)
    if shown.isprintable():
        return shown
    return "".join(c if plain(c) or (lines and c == "\n") else repr(c)[1:-1] for c in shown)


def shell_word(text: str) -> str:
    """`text` as one shell word: `shlex.quote`'s when it is printable, else ANSI-C quoting, each unprintable
    character escaped (a lone surrogate, an undecodable byte of a file name, as that byte: `\\xff`)."""
    if text.isprintable():
        return shlex.quote(text)
    out = []
    for c in text:
        code = ord(c)
        if c in "\\'":
            out.append("\\" + c)
        elif c.isprintable():
            out.append(c)
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "$'" + "".join(out) + "'"
