"""The network table: a dealer that owns the session, and clients that each see one seat (PROTOCOL.md)."""

from __future__ import annotations

from cardtui.net.client import Client, JoinRefused, play_remote
from cardtui.net.protocol import VERSION, ProtocolError, parse_invitation
from cardtui.net.server import Table

__all__ = ["VERSION", "Client", "JoinRefused", "ProtocolError", "Table", "parse_invitation", "play_remote"]
