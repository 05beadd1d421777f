"""The network table's wire: message limits, invitations, and which events each seat may know.

Every message is one JSON object with a `type`; PROTOCOL.md lists them. This
module holds what both ends must agree on, so the server and the client
cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import InvalidURI
from websockets.uri import parse_uri

from cardtui.games import Event, PlayerView
from cardtui.games.codec import to_json
from cardtui.games.trick import CardsPassed, DealRecord
from cardtui.inert import is_plain

VERSION = 4
"""The protocol version: `hello` and `welcome` carry it; a mismatch is refused.

4: seats that choose at once (a Hearts pass) are each sent a view with themselves to move and choose in any
order, kept by the host until all have chosen (`choosing` says who has still to); the turn timer (`timer`,
`timed_out`).
3: views travel without their deal records; the records come in `records`
messages, each finished deal once, in parts the frame limit takes, before the
view that counts them (so a welcome stays small however long the game).
2: a view travels without its ruleset (the `welcome` carries it once) and an
update's without unchanged deal records; the `away` and `back` messages;
`ruleset` and `stand_in` in the `welcome`.
"""

MAX_MESSAGE = 64 * 1024
"""The largest frame either end accepts, in bytes; a bigger one closes the connection."""

MAX_CHAT = 200
"""The longest line of table talk, in characters."""

FLOOD_LIMIT = 100
"""More frames than this from one connection within any one second (counted as they arrive, pings included) close it."""

READ_LIMIT = 5.0
"""Seconds a client may leave the host's messages unread (its buffers full) before the host drops it."""

MAX_UNREAD = 1024 * 1024
"""Bytes of messages the host holds for a client that does not read them; more drops the connection at once."""

TOKEN_BYTES = 16
"""An invitation's token holds this many random bytes (128 bits)."""

CLOSE_POLICY = 1008
"""The WebSocket close code for a client that broke the rules (wrong token, flood)."""


class ProtocolError(ValueError):
    """A message or invitation that is not what the protocol allows; the message says why."""


INVITATION_ENV = "CARDTUI_INVITATION"
"""Where `cardtui join` finds an invitation it was not given: a browser seat's process gets its own there, not on
its command line, which other users of the machine could read."""


def new_token() -> str:
    """A fresh invitation token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def url_of(scheme: str, host: str, port: int) -> str:
    """`scheme://host:port`, an IPv6 address in brackets (`ws://[::1]:8765`), as a URL must have it."""
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def invitation(url: str, token: str) -> str:
    """The text a host hands to one player: the table's address with the seat's token after `#`."""
    return f"{url}/#{token}"


def parse_invitation(text: str) -> tuple[str, str]:
    """The server address and token of an invitation (`ws://HOST:PORT/#TOKEN`), or ProtocolError."""
    text = text.strip()
    if text.startswith("cardtui join "):
        text = text[len("cardtui join ") :].strip()
    shape = f"an invitation looks like ws://HOST:PORT/#TOKEN (PORT 1 to 65535), found {text[:80]!r}"
    try:
        parts = urlsplit(text)
        port = parts.port  # ValueError: not a number, or out of 0..65535
    except ValueError:
        raise ProtocolError(shape) from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or not parts.fragment or port == 0:
        raise ProtocolError(shape)
    url = f"{parts.scheme}://{parts.netloc}/"
    try:
        parse_uri(url)  # what the connection will read: refused here, not as a traceback there
    except (ValueError, InvalidURI):
        raise ProtocolError(shape) from None
    return url, parts.fragment


def encode(message: dict[str, Any]) -> str:
    """One message as the text of a frame."""
    return json.dumps(message, separators=(",", ":"))


def decode(frame: str | bytes) -> dict[str, Any]:
    """A received frame as a message with a string `type`, or ProtocolError saying what is wrong."""
    if isinstance(frame, bytes):
        raise ProtocolError("messages are JSON text frames, not binary")
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("a message must be JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError('a message must be a JSON object with a "type"')
    return message


def event_for(event: Event, seat: int) -> dict[str, Any]:
    """An event as `seat` may know it: passed cards reach only their giver and receiver.

    Every other seat gets the same `cards_passed` event with an empty `cards`
    list: it learns that cards moved, not which.
    """
    if isinstance(event, CardsPassed) and seat not in (event.seat, event.to):
        event = dataclasses.replace(event, cards=())
    data: dict[str, Any] = to_json(event)
    return data


LEFT_OUT = frozenset({"ruleset", "records"})
"""A view travels without these fields: the `welcome` carries the ruleset, `records` messages the deal records."""

RECORDS_PART = MAX_MESSAGE // 2
"""The most bytes of deal records one `records` message holds (a single record always fits far below)."""


def view_json(view: PlayerView) -> dict[str, Any]:
    """A seat's view as it travels: the engine's JSON form without the fields in LEFT_OUT."""
    data: dict[str, Any] = to_json(view, LEFT_OUT)
    return data


def records_messages(records: Sequence[DealRecord]) -> Iterator[str]:
    """Deal records as the frames of `records` messages, in order, each under RECORDS_PART bytes."""
    part: list[str] = []
    size = 0
    for record in records:
        text = json.dumps(to_json(record), separators=(",", ":"))
        if part and size + len(text) > RECORDS_PART:
            yield '{"type":"records","records":[' + ",".join(part) + "]}"
            part, size = [], 0
        part.append(text)
        size += len(text) + 1
    if part:
        yield '{"type":"records","records":[' + ",".join(part) + "]}"


def chat_text(value: Any) -> str:
    """A line of table talk, checked: 1..MAX_CHAT characters a terminal shows as they are (`inert.is_plain`:
    spaces and joiners too, never a control, a bidi mark or a line break)."""
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("chat: expected a line of text")
    if len(value) > MAX_CHAT:
        raise ProtocolError(f"chat: a line holds at most {MAX_CHAT} characters, found {len(value)}")
    if not is_plain(value):
        raise ProtocolError("chat: one line of plain text (no line breaks, control characters or bidi marks)")
    if _most_marks(value) > MAX_MARKS:
        raise ProtocolError(f"chat: at most {MAX_MARKS} accents on a letter (more stack onto the lines around it)")
    return value.strip()


MAX_MARKS = 4
"""Combining marks (accents) on one character a chat line may hold: enough for any language's letters, too few
to stack over the log's other lines."""


def _most_marks(text: str) -> int:
    """The longest run of combining marks in `text`."""
    most = run = 0
    for c in text:
        run = run + 1 if unicodedata.combining(c) else 0
        most = max(most, run)
    return most
