"""Helpers that bring a session to a position without the app: a person to decide, a card to play."""

from __future__ import annotations

from pathlib import Path

from cardtui.rules import HeartsRules, default_preset
from cardtui.seats import Seat
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


def easy_one_deal_game(path: Path, seed: int) -> Path:
    """A finished one-deal Hearts game (ends at 10 points) saved at `path`: the person at seat 0 played like the
    easy level against three normal players."""
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    seats = [Seat("You", "human"), *(Seat(name, "bot", "normal") for name in ("West", "North", "East"))]
    session = Session.new(base.replace(end_score=10), seats, seed=seed, save_path=path)
    try:
        while not session.is_over:
            if session.game.is_chance:
                session.advance_chance()
            else:
                seat = session.seat_to_move()
                session.apply(session.bot_decision(None if seat is not None and seat.is_bot else "easy").action)
    finally:
        session.close()
    return path
