"""Re-make the sample saves in saves/: one finished game per four-seat preset and one stopped mid-deal.

Run from the checkout after an engine or bot change: `python benchmarks/make_samples.py`.
The games are played by the computer players (each game's default level)
with fixed seeds, so the files
only change when the engines or the players do. While the computer players
are the random stand-ins, Spades bids come from a simple count of sure
tricks here instead (random bids never let a Spades game end).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtui.games.base import Action, Bid  # noqa: E402
from cardtui.rules import load_preset  # noqa: E402
from cardtui.saves import build_save, write_save  # noqa: E402
from cardtui.seats import Seat, default_level  # noqa: E402
from cardtui.session import Session, bot_rng  # noqa: E402

STAMP = "2026-01-01T12:00:00Z"
MAX_ACTIONS = 20_000
SAMPLES = {"hearts": 11, "spades": 22, "spades-blind": 33, "cutthroat": 44, "eight-of-spades": 55}


def _count_bid(session: Session, seat: int) -> Action | None:
    """A plain estimate (aces, kings with company, spades past three) for stand-in bots only."""
    view = session.game.view(seat)
    hand = list(getattr(view, "hand", []))
    est = sum(1 for c in hand if c.rank.code == "A")
    est += sum(1 for c in hand if c.rank.code == "K" and sum(1 for d in hand if d.suit == c.suit) >= 2)
    est += max(0, sum(1 for c in hand if c.suit.letter == "S") - 3)
    legal = [a for a in view.legal if isinstance(a, Bid) and not a.blind]
    if not legal:
        return None
    return min(legal, key=lambda a: (abs(a.bid - max(1, est)), a.bid))


def play(session: Session, stop: int | None = None) -> None:
    """Let the computer players move until the game ends (or, with `stop`, seat 0 must play in deal `stop`)."""
    for _ in range(MAX_ACTIONS):
        game = session.game
        if game.is_over:
            return
        if game.is_chance:
            session.advance_chance()
            continue
        tm = game.to_move
        assert tm is not None
        mid_deal = sum(1 for a in session.log[-12:] if a.type == "play") >= 3
        if stop is not None and session.deal_number >= stop and tm.seat == 0 and tm.phase == "play" and mid_deal:
            return
        bot = session.bot_for(default_level(session.ruleset.game))
        action: Action | None = None
        if getattr(bot, "level", "") == "random" and tm.phase == "bid":
            action = _count_bid(session, tm.seat)
        if action is None:
            action = bot.decide(game.view(tm.seat), bot_rng(session.seed, len(session.log))).action
        session.apply(action)
    raise SystemExit(f"{session.ruleset.name}: not finished after {MAX_ACTIONS} actions")


def make(preset: str, seed: int, name: str, stop: int | None = None) -> Path:
    ruleset = load_preset(preset)
    from cardtui.games import create_game

    count = create_game(ruleset).seats
    level = default_level(ruleset.game)
    seats = [Seat(n, "bot", level) for n in ("South", "West", "North", "East")[:count]]
    if stop is not None:
        seats[0] = Seat("You", "human")
    session = Session.new(ruleset, seats, seed, autosave=False)
    play(session, stop)
    path = ROOT / "saves" / name
    write_save(path, build_save(ruleset, session.seats, seed, session.log, STAMP, STAMP))
    status = "finished" if session.is_over else "in progress"
    print(f"{path.relative_to(ROOT)}: {len(session.log)} actions, {status}, totals {session.game.scores}")
    return path


def main() -> None:
    (ROOT / "saves").mkdir(exist_ok=True)
    for preset, seed in SAMPLES.items():
        make(preset, seed, f"{preset}.json")
    make("hearts", 66, "hearts-mid-deal.json", stop=2)


if __name__ == "__main__":
    main()
