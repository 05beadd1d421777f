"""The network table's wire: message limits, invitations, and which events each seat may know.

Every message is one JSON object with a `type`; PROTOCOL.md lists them. This
module holds what both ends must agree on, so the server and the client
cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable
from operator import attrgetter
from typing import Any
from urllib.parse import urlsplit

from cardtui.cards import Card, CardSet, Suit
from cardtui.games import Action, Event, PlayerView
from cardtui.games.base import Choices, ToMove
from cardtui.games.codec import to_json
from cardtui.games.trick import CardsPassed
from cardtui.rules import Ruleset

VERSION = 2
"""The protocol version: `hello` and `welcome` carry it; a mismatch is refused.

2: a view travels without its ruleset (the `welcome` carries it once) and an
update's without unchanged deal records; the `away` and `back` messages;
`ruleset` and `stand_in` in the `welcome`.
"""

MAX_MESSAGE = 64 * 1024
"""The largest frame either end accepts, in bytes; a bigger one closes the connection."""

MAX_CHAT = 200
"""The longest line of table talk, in characters."""

FLOOD_LIMIT = 100
"""More messages than this from one connection within one second closes it."""

TOKEN_BYTES = 16
"""An invitation's token holds this many random bytes (128 bits)."""

CLOSE_POLICY = 1008
"""The WebSocket close code for a client that broke the rules (wrong token, flood)."""


class ProtocolError(ValueError):
    """A message or invitation that is not what the protocol allows; the message says why."""


def new_token() -> str:
    """A fresh invitation token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def invitation(url: str, token: str) -> str:
    """The text a host hands to one player: the table's address with the seat's token after `#`."""
    return f"{url}/#{token}"


def parse_invitation(text: str) -> tuple[str, str]:
    """The server address and token of an invitation (`ws://HOST:PORT/#TOKEN`), or ProtocolError."""
    text = text.strip()
    if text.startswith("cardtui join "):
        text = text[len("cardtui join ") :].strip()
    parts = urlsplit(text)
    if parts.scheme not in ("ws", "wss") or not parts.netloc or not parts.fragment:
        raise ProtocolError(f"an invitation looks like ws://HOST:PORT/#TOKEN, found {text[:80]!r}")
    return f"{parts.scheme}://{parts.netloc}/", parts.fragment


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


SENT_ONCE = frozenset({"ruleset"})
"""A view travels without these fields: the `welcome` carries the ruleset."""

UNCHANGED = SENT_ONCE | {"records"}
"""What an `update`'s view leaves out when the seat's last view had the same records (finished deals)."""


def view_json(view: PlayerView, leave_out: frozenset[str] = SENT_ONCE) -> dict[str, Any]:
    """A seat's view as it travels: the engine's JSON form without the fields named in `leave_out`.

    The same JSON as `codec.to_json`, made faster (the host encodes one view
    per seat after every action): each value's class is looked at once and
    its encoder kept.
    """
    encode_fields = _encoder(type(view), leave_out)
    data: dict[str, Any] = encode_fields(view)
    return data


Encoder = Callable[[Any], Any]
_ENCODERS: dict[tuple[type, frozenset[str]], Encoder] = {}
NOTHING: frozenset[str] = frozenset()


def _wire(value: Any) -> Any:
    return _encoder(type(value))(value)


def _same(value: Any) -> Any:
    return value


def _encoder(cls: type, skip: frozenset[str] = NOTHING) -> Encoder:
    """How `codec.to_json` encodes a value of exactly this class (less the `skip` fields), as one function; cached."""
    found = _ENCODERS.get((cls, skip))
    if found is not None:
        return found
    made: Encoder
    if cls in (str, bool, int, type(None)):
        made = _same
    elif issubclass(cls, Card):
        made = attrgetter("code")
    elif issubclass(cls, Choices | CardSet | Suit | Event | Action | ToMove | Ruleset):
        made = to_json  # the codec's own way for these (its order of checks is kept)
    elif issubclass(cls, list | tuple):

        def made(value: Any) -> Any:
            return [_wire(v) for v in value]

    elif dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls) if f.name not in skip)

        def made(value: Any) -> Any:
            return {name: _wire(getattr(value, name)) for name in names}

    else:
        made = to_json
    _ENCODERS[(cls, skip)] = made
    return made


def chat_text(value: Any) -> str:
    """A line of table talk, checked: printable text of 1..MAX_CHAT characters."""
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError("chat: expected a line of text")
    if len(value) > MAX_CHAT:
        raise ProtocolError(f"chat: a line holds at most {MAX_CHAT} characters, found {len(value)}")
    if not value.isprintable():
        raise ProtocolError("chat: one line of plain text (no newlines or control characters)")
    return value.strip()
