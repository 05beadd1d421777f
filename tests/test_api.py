"""The scripting API: JSON in, JSON out, one error type, and the README example runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardtui.api import ApiError, new_game, open_game, summary_of
from cardtui.saves import load_save

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"
BOTS = [{"name": n, "kind": "bot", "level": "random"} for n in ("South", "West", "North", "East")]


def play_out(g: Any, limit: int = 5000) -> None:
    for _ in range(limit):
        if g.to_move is None:
            return
        g.apply(g.suggest("random", seed=len(g.log))["action"])


def test_new_game_plays_to_the_end_and_round_trips() -> None:
    g = new_game("eight-of-spades", seed=3, seats=BOTS)
    assert g.to_move == {"seat": 0, "phase": "deal"}
    play_out(g)
    assert g.to_move is None and g.legal_actions() == []
    summary = g.summary()
    assert summary["status"] == "finished" and summary["winner"] is not None
    again = open_game(json.loads(json.dumps(g.to_save())))
    assert again.summary() == summary


def test_legal_actions_at_a_deal_is_the_seeded_deal() -> None:
    a = new_game("hearts", seed=8)
    b = new_game("hearts", seed=8)
    (deal,) = a.legal_actions()
    assert deal["type"] == "deal" and deal == b.legal_actions()[0]
    a.apply(deal)
    b.deal()
    assert a.to_save()["log"] == b.to_save()["log"]
    with pytest.raises(ApiError, match="not time to deal"):
        a.deal()


def test_illegal_and_malformed_actions() -> None:
    g = new_game("spades", seed=1)
    g.deal()
    tm = g.to_move
    assert tm is not None and tm["phase"] == "bid"
    with pytest.raises(ApiError):
        g.apply({"type": "bid", "seat": (tm["seat"] + 1) % 4, "bid": 3})
    with pytest.raises(ApiError, match="unknown action type"):
        g.apply({"type": "dance", "seat": 0})
    with pytest.raises(ApiError):
        g.apply("play 10C")  # type: ignore[arg-type]
    assert len(g.log) == 1


def test_rulesets_by_preset_file_and_overrides(tmp_path: Path) -> None:
    assert new_game("spades", ruleset="spades-blind").summary()["ruleset"] == "spades-blind"
    g = new_game("spades", ruleset={"win_target": 300})
    assert g.engine.ruleset.win_target == 300  # type: ignore[attr-defined]
    path = tmp_path / "r.toml"
    from cardtui.rules import dump_toml, load_preset

    path.write_text(dump_toml(load_preset("cutthroat")))
    assert new_game("cutthroat", ruleset=str(path)).summary()["sides"] == [[0], [1], [2], [3]]
    with pytest.raises(ApiError, match="win_target"):
        new_game("spades", ruleset={"win_target": "500"})
    (tmp_path / "five.toml").write_text('game = "hearts"\nplayers = 5\nend_score = 50\n')
    from_file = new_game("hearts", ruleset=str(tmp_path / "five.toml")).engine.ruleset
    from_dict = new_game("hearts", ruleset={"players": 5, "end_score": 50}).engine.ruleset
    assert from_dict == from_file, "a dict of knobs takes the preset for its players, as a file does"
    assert from_dict.to_dict()["pass_cycle"] == ["left", "right"] and from_dict.seats == 5
    with pytest.raises(ApiError, match="unknown game"):
        new_game("chess")
    with pytest.raises(ApiError, match="no preset"):
        new_game("hearts", ruleset="nope")
    with pytest.raises(ApiError, match=r"the rules 'spades' are for spades, not hearts"):
        new_game("hearts", ruleset="spades")
    with pytest.raises(ApiError, match="seed"):
        new_game("hearts", seed=-1)


def test_open_game_from_path_and_errors(tmp_path: Path) -> None:
    g = open_game(SAMPLES / "hearts-mid-deal.json")
    assert g.to_move == {"seat": 0, "phase": "play"}
    assert g.legal_actions() and all(a["type"] == "play" and a["seat"] == 0 for a in g.legal_actions())
    view = g.view(0)
    assert isinstance(view, dict) and len(view["hand"]) > 0
    json.dumps(view)
    with pytest.raises(ApiError, match="seat must be"):
        g.view(7)
    with pytest.raises(ApiError, match="no such file"):
        open_game(tmp_path / "none.json")
    with pytest.raises(ApiError, match="save: format"):
        open_game({"format": "x"})
    with pytest.raises(ApiError):
        open_game(42)  # type: ignore[arg-type]


def test_suggest() -> None:
    g = open_game(SAMPLES / "hearts-mid-deal.json")
    s = g.suggest("random", seed=1)
    assert s["action"] in g.legal_actions() and isinstance(s["reason"], str)
    assert s == g.suggest("random", seed=1)
    with pytest.raises(ApiError):
        g.suggest("grandmaster")
    done = open_game(SAMPLES / "hearts.json")
    with pytest.raises(ApiError, match="over"):
        done.suggest("random")
    fresh = new_game("hearts", seed=2)
    assert fresh.suggest()["action"]["type"] == "deal"


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.json")))
def test_summary_shape(name: str) -> None:
    s = open_game(SAMPLES / name).summary()
    base = ["game", "ruleset", "status", "sides", "totals"]
    if s["game"] == "eight-of-spades":
        assert list(s) == [*base, "points", "eliminated", "winner", "to_move", "actions"]
    elif s["game"] == "hearts":
        assert list(s) == [*base, "deals", "winner", "to_move", "actions"]
    else:
        assert list(s) == [*base, "bags", "deals", "winner", "to_move", "actions"]
    for deal in s.get("deals", []):
        assert list(deal) == ["dealer", "bids", "blind", "tricks", "scores"]
    loaded = load_save(SAMPLES / name)
    assert s == summary_of(loaded.game, len(loaded.log))


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Scripting API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the Scripting API section of README.md has no python block"
    return str(blocks[0])


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    if not (ROOT / "README.md").exists() or "## Scripting API" not in (ROOT / "README.md").read_text():
        pytest.fail("README.md has no Scripting API section")
    exec(compile(readme_example(), "README.md", "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out.strip()


def test_a_minimum_bid_reaches_the_seventeen_tricks_of_a_three_player_deal() -> None:
    g = new_game("cutthroat", ruleset={"players": 3, "min_side_bid": 15}, seed=1)
    g.apply(g.legal_actions()[0])
    assert [a["bid"] for a in g.legal_actions()] == [15, 16, 17]
