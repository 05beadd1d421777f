"""The host's end of one connection, held to the wire's limits as frames arrive, before any handler sees them.

A client could otherwise grow the host without bound: pings are answered by
the WebSocket layer itself (no handler ever counts them), and answers a
client never reads pile up in the host's write buffer. So every frame is
counted when it arrives (pings, pongs and closes included), over a sliding
second, whether or not the table is busy; and a connection whose unread
output stays above the write buffer's limit for READ_LIMIT seconds, or
passes MAX_UNREAD bytes, is dropped. Both hold from the first frame, before
`hello` too.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame
from websockets.protocol import State

from cardtui.net.protocol import CLOSE_POLICY, FLOOD_LIMIT, MAX_UNREAD, READ_LIMIT


class GuardedConnection(ServerConnection):
    """A server connection that closes a flood on arrival and drops a client that stops reading."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: deque[float] = deque(maxlen=FLOOD_LIMIT)
        """When the last FLOOD_LIMIT frames arrived (time.monotonic)."""
        self.broken: str | None = None
        """Why the host ended this connection (a flood, unread output), in words; None while it keeps the rules."""
        self._stalled: asyncio.TimerHandle | None = None

    def data_received(self, data: bytes) -> None:
        if self.broken is not None:
            return  # whatever a closed client still sends is dropped unread
        super().data_received(data)

    def process_event(self, event: Any) -> None:
        super().process_event(event)
        if isinstance(event, Frame) and self.broken is None:
            self._arrived(time.monotonic())

    def _arrived(self, now: float) -> None:
        """Count one frame; the one that makes more than FLOOD_LIMIT within a second closes the connection."""
        arrivals = self.arrivals
        if len(arrivals) == FLOOD_LIMIT and now - arrivals[0] < 1.0:
            self.end(f"more than {FLOOD_LIMIT} messages a second", CLOSE_POLICY)
            return
        arrivals.append(now)

    def send_data(self) -> None:
        super().send_data()
        transport = getattr(self, "transport", None)
        if transport is not None and self.broken is None and transport.get_write_buffer_size() > MAX_UNREAD:
            self.end(f"left more than {MAX_UNREAD // 1024} KB of messages unread")

    def end(self, reason: str, code: int | None = None) -> None:
        """End the connection now: with `code`, a close frame saying why goes first (if the client reads it)."""
        if self.broken is not None:
            return
        self.broken = reason
        if code is not None and self.protocol.state is State.OPEN:
            self.protocol.fail(code, reason)
            super().send_data()
            # A client that does not read its close frame gets READ_LIMIT seconds, like any unread message.
            self.loop.call_later(READ_LIMIT, self.transport.abort)
            self.transport.close()
        else:
            self.transport.abort()

    # ------------------------------------------------------------ flow control

    def pause_writing(self) -> None:
        """The client stopped keeping up: it has READ_LIMIT seconds to read again before it is dropped."""
        super().pause_writing()
        self._stalled = self.loop.call_later(READ_LIMIT, self.end, f"did not read its messages for {READ_LIMIT:g} s")

    def resume_writing(self) -> None:
        super().resume_writing()
        self._unstall()

    def connection_lost(self, exc: Exception | None) -> None:
        self._unstall()
        super().connection_lost(exc)

    def _unstall(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
