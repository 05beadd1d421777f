"""Helpers that bring a session to a position without the app: a person to decide, a card to play."""

from __future__ import annotations

from cardtui.session import Session


def to_person(session: Session) -> None:
    """Deal and let the computer players move until a person is to decide (or the game is over)."""
    while not session.is_over:
        seat = session.seat_to_move()
        if seat is not None and not seat.is_bot:
            return
        session.play_bot_turn()


def to_play(session: Session) -> None:
    """On to the person's first card of the deal: passes and bids made by the first legal choice."""
    to_person(session)
    while session.game.to_move is not None and session.game.to_move.phase != "play":
        session.apply(session.game.legal_actions()[0])
        to_person(session)
