"""Blind bids are blind over the wire: a seat that may still bid blind is sent none of its cards, in any frame,
until it looks at its hand or bids; once it has looked, a blind bid is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardtui.games.base import Bid
from cardtui.net import Client
from cardtui.rules import load_preset
from tests.support.net import bounded, cards_in, join_recording, open_table


async def until(client: Client, kind: str) -> dict[str, Any]:
    while (message := await bounded(client.receive()))["type"] != kind:
        pass
    return message


@pytest.mark.parametrize("choice", ["look", "blind nil", "plain bid"])
async def test_no_card_reaches_a_seat_that_may_bid_blind_until_it_looks_or_bids(tmp_path: Path, choice: str) -> None:
    # South bids last (West deals first at seed 4), so every other bid is made while its hand is held back.
    table = await open_table(tmp_path, load_preset("spades-blind").replace(max_deals=1), "p,easy,easy,easy", seed=4)
    async with table:
        (invite,) = table.invitations().values()
        client, frames = await join_recording(invite)
        while not client.my_turn:
            await bounded(client.receive())
        game = table.session.game
        hand = {c.code for c in game.view(0).hand}  # type: ignore[attr-defined]
        assert len(hand) == 13 and client.face_down and not client.view.hand  # type: ignore[attr-defined]
        assert any(b is not None for b in game.bids)  # type: ignore[attr-defined]
        assert all(not (cards_in(json.loads(frame)) & hand) for frame in frames), "a card before looking"
        if choice == "look":
            await client.look()
            shown = await until(client, "hand")
            assert cards_in(shown["view"]["hand"]) == hand and not client.face_down
            # Having looked, the seat may no longer bid blind.
            await client.act(Bid(0, 3, True).to_json())
            refused = await until(client, "refused")
            assert refused["reason"] == "you have looked at your hand: a blind bid is made before looking"
            assert game.bids[0] is None  # type: ignore[attr-defined]
        else:
            bid = Bid(0, 0, True) if choice == "blind nil" else Bid(0, 4)
            await client.act(bid.to_json())
            update = await until(client, "update")
            assert game.bids[0] == bid  # type: ignore[attr-defined]
            # The bid made, the hand comes (less what the blind nil exchange, when there is one, moved).
            assert not client.face_down and cards_in(update["view"]["hand"])
        await client.close()
