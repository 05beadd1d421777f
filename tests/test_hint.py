"""`cardtui hint`: the action a level would take for the seat to move, with a reason."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui import api
from cardtui.cli import app
from cardtui.games import create_game
from cardtui.rules import load_preset
from cardtui.saves import write_save
from cardtui.seats import default_seats
from cardtui.session import Session
from cardtui.variants import find_game


def save_at_play(tmp_path: Path, game: str, moves: int) -> Path:
    g = api.new_game(game, seed=4)
    for _ in range(moves):
        g.apply(g.legal_actions()[0])
    path = tmp_path / f"{game}.json"
    write_save(path, g.to_save())
    return path


def test_hint_json_gives_a_legal_action_and_a_reason(tmp_path: Path) -> None:
    for game in ("hearts", "spades", "cutthroat"):
        path = save_at_play(tmp_path, game, 7)
        for level in ("easy", "normal", "hard"):
            result = CliRunner().invoke(app, ["hint", str(path), "--level", level, "--json"])
            assert result.exit_code == 0, result.output
            out = json.loads(result.stdout)
            assert out["level"] == level and out["reason"]
            g = api.open_game(path)
            g.apply(out["action"])


def test_hint_is_stable_and_readable(tmp_path: Path) -> None:
    path = save_at_play(tmp_path, "hearts", 6)
    runner = CliRunner()
    first = runner.invoke(app, ["hint", str(path)])
    again = runner.invoke(app, ["hint", str(path)])
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert "hard says" in first.stdout  # the hint level F2 asks unless Settings says otherwise


def test_hint_asks_the_hint_level_of_the_settings_as_f2_does(tmp_path: Path, home: Path) -> None:
    from cardtui.tui.settings import settings_path

    hearts, eight = save_at_play(tmp_path, "hearts", 6), save_at_play(tmp_path, "eight-of-spades", 3)
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text('hint_level = "normal"\n')
    runner = CliRunner()
    assert json.loads(runner.invoke(app, ["hint", str(hearts), "--json"]).stdout)["level"] == "normal"
    assert json.loads(runner.invoke(app, ["hint", str(eight), "--json"]).stdout)["level"] == "classic"
    assert json.loads(runner.invoke(app, ["hint", str(hearts), "--level", "easy", "--json"]).stdout)["level"] == "easy"
    settings_path().write_text('hint_level = "wizard"\n')  # a bad value: said, and the default used, as in the app
    told = runner.invoke(app, ["hint", str(hearts), "--json"])
    assert told.exit_code == 0 and json.loads(told.stdout)["level"] == "hard"
    assert told.stderr.strip().endswith(
        'hint_level: expected one of easy, normal, hard, found "wizard"; the default is used'
    )
    hidden = runner.invoke(app, ["hint", str(hearts), "--level", "wizard"])  # the menu's levels are offered
    assert hidden.exit_code == 2 and hidden.stderr.strip().endswith("choose one of easy, normal, hard")


def test_hint_errors_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    path = save_at_play(tmp_path, "hearts", 3)
    bad = runner.invoke(app, ["hint", str(path), "--level", "wizard"])
    assert bad.exit_code == 2 and "wizard" in bad.stderr
    missing = runner.invoke(app, ["hint", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2


@pytest.mark.slow  # the hard player searches every choice
def test_the_hint_command_the_api_and_the_table_give_one_answer(tmp_path: Path) -> None:
    """`cardtui hint`, `api.suggest` and the table's F2 (the session's bot decision) agree on a position."""
    from cardtui.saves import load_save
    from cardtui.session import Session

    for game, moves in (("hearts", 9), ("spades", 5), ("eight-of-spades", 4)):
        path = save_at_play(tmp_path, game, moves)
        level = "classic" if game == "eight-of-spades" else "hard"
        result = CliRunner().invoke(app, ["hint", str(path), "--level", level, "--json"])
        assert result.exit_code == 0, result.output
        told = json.loads(result.stdout)
        suggested = api.open_game(path).suggest(level)
        at_the_table = Session.of_save(load_save(path)).bot_decision(level)
        assert told["action"] == suggested["action"] == at_the_table.action.to_json()
        assert told["reason"] == suggested["reason"] == at_the_table.reason


def test_a_spades_hint_speaks_of_the_side_with_partners_and_of_the_seat_at_cutthroat() -> None:
    """Cutthroat has no sides: its hard player's reasons, bids and plays alike, say whose points they mean."""
    for preset, words in (("spades", "for the side"), ("cutthroat", "for the seat")):
        game = create_game(load_preset(preset))
        rng = random.Random(3)
        bot = find_game(preset).make_bot("hard", 5)
        reasons: list[str] = []
        while len(reasons) < 8:
            if game.is_chance:
                game.apply(game.chance_action(rng))
                continue
            tm = game.to_move
            assert tm is not None
            decision = bot.decide(game.view(tm.seat), rng)
            if "expects" in decision.reason:
                reasons.append(decision.reason)
            game.apply(decision.action)
        assert all(words in r for r in reasons), reasons
        assert any(r.startswith("bids") for r in reasons) and any(not r.startswith("bids") for r in reasons)


def test_no_hint_while_a_persons_hand_is_face_down_for_a_blind_bid_as_f2_refuses(tmp_path: Path) -> None:
    rules = load_preset("spades").replace(blind_nil_trailing_by=0)
    session = Session.new(rules, default_seats(4, "easy"), 3, autosave=False)
    session.advance_chance()
    while session.game.to_move is not None and session.game.to_move.seat != 0:
        session.apply(session.bot_decision().action)
    path = tmp_path / "blind.json"
    write_save(path, session.to_save())
    refused = CliRunner().invoke(app, ["hint", str(path)])
    assert refused.exit_code == 2 and refused.output.count("\n") == 1
    assert "still face down for a blind bid; look at it first (Esc at the bid)" in refused.output
    session.look(0)
    write_save(path, session.to_save())
    answered = CliRunner().invoke(app, ["hint", str(path), "--json"])
    assert answered.exit_code == 0 and not json.loads(answered.output)["action"].get("blind")


@pytest.mark.slow  # the hard player searches every choice
def test_a_runner_up_with_more_points_this_deal_is_said_to_be_worse_over_the_game(tmp_path: Path) -> None:
    """The hard player ranks bids by the whole game (bags, the set risk, the others, the game's end); a reason that
    names a runner-up with more points this deal says why it still comes second, instead of contradicting itself."""
    import re

    data = json.loads((Path(__file__).parent.parent / "saves" / "spades.json").read_text())
    data["seats"][0] = {"name": data["seats"][0]["name"], "kind": "human"}
    told = 0
    for cut in (343, 345, 523):
        path = tmp_path / f"cut{cut}.json"
        path.write_text(json.dumps({**data, "log": data["log"][:cut]}))
        reason = json.loads(CliRunner().invoke(app, ["hint", str(path), "--json"]).stdout)["reason"]
        found = re.search(
            r"expects ([+-]\d+) .*\(next best [^:]+: ([+-]\d+)(, more this deal but worse over the game)?\)", reason
        )
        assert found is not None, reason
        best, runner_up, said = int(found[1]), int(found[2]), found[3] is not None
        assert said == (runner_up > best), reason
        told += said
    assert told >= 1  # these positions have such a runner-up
