"""One JSON form for events and views: every event and every seat's view of whole games comes back equal."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from cardtui.games import FormError, create_game, event_from_json, view_from_json
from cardtui.games.base import Choices, Event, GameOver
from cardtui.games.codec import to_json
from cardtui.games.eight_of_spades import EightOfSpadesView
from cardtui.games.hearts import HeartsView
from cardtui.games.spades import SpadesView
from cardtui.games.trick import TrickView
from cardtui.rules import load_preset

PRESETS = ("hearts", "spades", "spades-blind", "cutthroat", "eight-of-spades")


def wire(value: Any) -> Any:
    """What the other end of a wire receives."""
    return json.loads(json.dumps(to_json(value)))


@pytest.mark.parametrize("preset", PRESETS)
def test_every_event_and_view_of_a_game_round_trips(preset: str) -> None:
    rng = random.Random(11)
    rules = load_preset(preset)
    game = create_game(rules)
    kinds: set[str] = set()
    views = 0
    for step in range(600):
        if game.is_over:
            break
        action = game.chance_action(rng) if game.is_chance else rng.choice(list(game.legal_actions()))
        for event in game.apply(action):
            kinds.add(event.kind)
            assert event_from_json(wire(event), rules.game) == event
        if step % 5 == 0:
            for seat in range(game.seats):
                view = game.view(seat)
                back = view_from_json(wire(view))
                assert type(back) is type(view)
                assert dataclasses.is_dataclass(back) and not isinstance(back, type)
                assert dataclasses.is_dataclass(view) and not isinstance(view, type)
                assert list(back.legal) == list(view.legal)  # a list or a lazy sequence either way
                assert dataclasses.replace(back, legal=()) == dataclasses.replace(view, legal=())
                views += 1
    assert views > 40
    assert kinds >= ({"laid_out", "flipped"} if preset == "eight-of-spades" else {"dealt", "card_played", "trick_won"})


def test_views_are_typed_per_game() -> None:
    expected = {
        "hearts": HeartsView,
        "spades": SpadesView,
        "cutthroat": SpadesView,
        "eight-of-spades": EightOfSpadesView,
    }
    for preset, view_class in expected.items():
        game = create_game(load_preset(preset))
        game.apply(game.chance_action(random.Random(1)))
        assert type(view_from_json(wire(game.view(0)))) is view_class


def test_a_pass_is_sent_as_k_cards_from_the_hand_not_each_choice() -> None:
    game = create_game(load_preset("hearts"))
    game.apply(game.chance_action(random.Random(2)))
    assert game.to_move is not None
    seat = game.to_move.seat
    view = game.view(seat)
    assert isinstance(view.legal, Choices) and len(view.legal) == 286
    sent = wire(view)["legal"]
    assert sent["choose"] == 3 and len(sent["from"]) == 13 and sent["action"] == {"type": "pass", "seat": seat}
    back = view_from_json(wire(view))
    assert list(back.legal) == list(view.legal)


def test_one_spelling_and_one_game_over() -> None:
    for module in ("trick", "eight_of_spades"):
        __import__(f"cardtui.games.{module}")
    kinds = Event.by_kind
    assert all(kind == kind.lower() and "-" not in kind for kind in kinds)
    assert kinds["game_over"] is GameOver
    assert [cls for cls in kinds.values() if cls.__name__ == "GameOver"] == [GameOver]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"kind": "meteor"}, "unknown event kind 'meteor'"),
        ([1, 2], "an event must be an object"),
        ({"kind": "card_played", "seat": 1}, "missing field 'card'"),
        ({"kind": "card_played", "seat": "1", "card": "QS"}, "card_played.seat: expected int, found str"),
        ({"kind": "card_played", "seat": 1, "card": "ZZ"}, "card_played.card:"),
        ({"kind": "card_played", "seat": 1, "card": "QS", "extra": 1}, "unknown field 'extra'"),
    ],
)
def test_a_malformed_event_is_refused_with_where_and_why(data: Any, says: str) -> None:
    with pytest.raises(FormError, match=says.replace("(", r"\(")):
        event_from_json(data, "hearts")


def test_a_malformed_view_is_refused_with_where_and_why() -> None:
    game = create_game(load_preset("spades"))
    game.apply(game.chance_action(random.Random(3)))
    good = wire(game.view(1))
    with pytest.raises(FormError, match="a view must be an object"):
        view_from_json("hello")
    broken = good | {"hand": ["AS", 7]}
    with pytest.raises(FormError, match=r"view.hand\[1\]: expected a card code"):
        view_from_json(broken)
    broken = good | {"ruleset": good["ruleset"] | {"bag_limit": "ten"}}
    with pytest.raises(FormError, match="bag_limit"):
        view_from_json(broken)
    broken = good | {"detail": good["detail"] | {"bids": [{"type": "play", "seat": 0, "card": "QS"}, None, None, None]}}
    with pytest.raises(FormError, match="expected a bid action"):
        view_from_json(broken)


def test_a_view_naming_no_phase_of_the_game_is_refused() -> None:
    """A phase is one of the game's own words: a view (from a save or the network) with another is refused."""
    game = create_game(load_preset("hearts"))
    game.apply(game.chance_action(random.Random(3)))
    good = wire(game.view(0))
    back = view_from_json(good)
    assert isinstance(back, TrickView) and back.phase == "pass"
    with pytest.raises(FormError, match=r"view\.phase: expected one of deal, pass, bid, exchange, play, over"):
        view_from_json(good | {"phase": "plya"})
    with pytest.raises(FormError, match=r"view\.to_move\.phase: expected one of deal, pass, bid, exchange, play, flip"):
        view_from_json(good | {"to_move": {"seat": 0, "phase": "over"}})


def test_event_tags_are_the_saved_and_wire_spellings() -> None:
    """Tags come from class names; renaming an event class must not silently change what saves and the wire say."""
    import cardtui.games.eight_of_spades
    import cardtui.games.history
    import cardtui.games.trick  # noqa: F401

    assert sorted(Event.by_kind) == [
        "bid_made", "broken", "card_played", "cards_passed", "claimed", "deal_scored", "dealt", "eliminated",
        "flipped", "game_over", "laid_out", "pass_chosen", "points_lost", "skipped", "stake_lost", "taken",
        "trick_won", "undone",
    ]  # fmt: skip
    assert all(cls.kind == kind for kind, cls in Event.by_kind.items())
    assert to_json(GameOver((0,), (26, 3, 5, 100), "score"))["kind"] == "game_over"
