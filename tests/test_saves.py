"""Save files: the version 1 shape, atomic writing, and a loader that trusts nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cardtui.rules import load_preset
from cardtui.saves import (
    FORMAT,
    VERSION,
    SaveError,
    build_save,
    dumps_save,
    latest_unfinished,
    list_saves,
    load_save,
    new_save_path,
    parse_save,
    saves_dir,
    write_atomic,
    write_save,
)
from cardtui.seats import Seat, default_seats
from cardtui.session import Session

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def played(preset: str = "hearts", actions: int = 80, seed: int = 5) -> Session:
    ruleset = load_preset(preset)
    session = Session.new(ruleset, None, seed, autosave=False)
    session.seats = tuple(default_seats(len(session.seats), "random", human=False))
    for _ in range(actions):
        if session.is_over:
            break
        session.play_bot_turn()
    return session


def save_dict(preset: str = "hearts", actions: int = 80) -> dict[str, Any]:
    return played(preset, actions).to_save()


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_shape_matches_design() -> None:
    data = save_dict()
    assert list(data) == ["format", "version", "game", "ruleset", "seats", "seed", "log", "created", "updated"]
    assert data["format"] == FORMAT and data["version"] == VERSION == 2
    assert data["game"] == "hearts" and data["ruleset"]["name"] == "hearts"
    assert data["seats"][1] == {"name": "West", "kind": "bot", "level": "random"}
    assert data["log"][0]["type"] == "deal" and len(data["log"][0]["hands"]) == 4
    assert {e["type"] for e in data["log"]} <= {"deal", "pass", "play"}
    assert data["created"].endswith("Z") and len(data["created"]) == 20


def test_round_trip(tmp_path: Path) -> None:
    session = played("spades", 120)
    path = tmp_path / "game.json"
    write_save(path, session.to_save())
    loaded = load_save(path)
    assert [a.to_json() for a in loaded.log] == [a.to_json() for a in session.log]
    assert loaded.game.to_move == session.game.to_move
    assert loaded.game.scores == session.game.scores
    assert json.loads(path.read_text()) == session.to_save()


def test_text_has_one_action_per_line() -> None:
    text = dumps_save(save_dict(actions=10))
    assert '    {"type": "pass", "seat": 0' in text or '    {"type": "deal"' in text
    assert json.loads(text)["log"]


def test_write_is_atomic_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    write_atomic(path, "one")
    write_atomic(path, "two")
    assert path.read_text() == "two"
    assert os.listdir(tmp_path) == ["a.json"]


def test_write_into_missing_folder_is_save_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot write"):
        write_atomic(tmp_path / "no" / "a.json", "x")


def test_new_save_path_is_unique_in_one_second(tmp_path: Path) -> None:
    import datetime as dt

    when = dt.datetime(2026, 11, 22, 10, 0, 0)
    a = new_save_path("hearts", tmp_path, when)
    b = new_save_path("hearts", tmp_path, when)
    assert a.name == "hearts-20261122-100000.json"
    assert b.name == "hearts-20261122-100000-2.json"


def test_home_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    assert saves_dir() == tmp_path / "saves"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), 'game.json: format: not a cardtui save: expected "cardtui-save"'),
        (lambda d: d.update(version=3), "made by a newer cardtui"),
        (lambda d: d.update(version="1"), "game.json: version: expected an integer"),
        (lambda d: d.update(version=0), "game.json: version: expected 1..2, found 0"),
        (
            lambda d: d["ruleset"].update(end_score="500"),
            'game.json: ruleset.end_score: expected an integer 10..1000, found "500"',
        ),
        (lambda d: d["ruleset"].update(bogus=1), "game.json: ruleset.bogus: unknown key"),
        (lambda d: d.update(ruleset="hearts"), 'game.json: ruleset: expected a table of knobs, found "hearts"'),
        (lambda d: d.update(game="spades"), 'game.json: game: expected "hearts"'),
        (lambda d: d.update(seed=-1), "game.json: seed: expected an integer"),
        (lambda d: d.update(seed=True), "game.json: seed: expected an integer"),
        (lambda d: d.update(created="yesterday"), "game.json: created: expected a UTC time"),
        (lambda d: d.update(updated=5), "game.json: updated: expected a UTC time"),
        (lambda d: d.update(seats=d["seats"][:3]), "game.json: seats: this game has 4 seats, found 3"),
        (lambda d: d["seats"][1].update(kind="robot"), "game.json: seats[1].kind: expected"),
        (lambda d: d["seats"][1].update(level=3), "game.json: seats[1].level"),
        (lambda d: d["seats"][2].update(name=""), "game.json: seats[2].name"),
        (lambda d: d["seats"][2].update(extra=1), "game.json: seats[2].extra: unknown key"),
        (
            lambda d: d["seats"][3].update(name=d["seats"][1]["name"]),
            "game.json: seats[3].name: seats[1] has the same name, ",
        ),
        (
            lambda d: d["ruleset"].update(name="hearts-5"),
            'game.json: ruleset.name: "hearts-5" is the name of the preset for 5 players, but these rules have '
            "players = 4; give them a name of their own",
        ),
        (lambda d: d.update(log={}), "game.json: log: expected a list"),
        (lambda d: d.update(extra=1), "game.json: extra: unknown key"),
        (lambda d: d.pop("seed"), "game.json: seed: missing"),
        (lambda d: d["log"].insert(1, d["log"][0]), "game.json: log[1]: "),
        (lambda d: d["log"].__setitem__(3, 7), "game.json: log[3]: an action must be an object"),
        (lambda d: d["log"][2].update(type="jump"), "game.json: log[2]: unknown action type"),
        (lambda d: d["log"].reverse(), "game.json: log[0]: "),
    ],
)
def test_defects_name_file_and_place(tmp_path: Path, change: Any, message: str) -> None:
    data = save_dict()
    change(data)
    path = write(tmp_path, data)
    before = path.read_bytes()
    with pytest.raises(SaveError) as err:
        load_save(path)
    assert message in str(err.value)
    assert path.read_bytes() == before


def test_card_not_held_names_the_action(tmp_path: Path) -> None:
    data = save_dict(actions=30)
    # the first play of the first deal: swap it for a card that seat does not hold
    i = next(i for i, e in enumerate(data["log"]) if e["type"] == "play")
    seat = data["log"][i]["seat"]
    hands = data["log"][0]["hands"]
    other = next(c for h in hands[:seat] + hands[seat + 1 :] for c in h if c != "2C")
    data["log"][i]["card"] = other
    with pytest.raises(SaveError, match=rf"game.json: log\[{i}\]: "):
        load_save(write(tmp_path, data))


def test_actions_after_the_end_are_refused(tmp_path: Path) -> None:
    data = json.loads((SAMPLES / "eight-of-spades.json").read_text())
    data["log"].append(data["log"][-1])
    with pytest.raises(SaveError, match=r"log\[\d+\]: the game is already over"):
        load_save(write(tmp_path, data))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "the file is empty"),
        (b"{", "not valid JSON: the file ends early, at line 1"),
        ((SAMPLES / "spades.json").read_bytes()[:5000], r"the file ends early, at line 77 \(cut short\?\)"),
        (b'{"a": 1,, }', r"Expecting property name enclosed in double quotes \(line 1, column 9\)"),
        (b"hello", r"not valid JSON: Expecting value \(line 1, column 1\)"),  # it was "cut short?"
        (b'{"format": "cardtui-save"} xx', r"more text after the end of the save \(line 1, column 28\)"),
        (b'  \n{"a": [1, 2', "the file ends early, at line 2"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"a": NaN}', "NaN is not allowed"),
        (b'{"a": 1e999}', "too big"),
        (b'{"a": ' + b"9" * 5000 + b"}", "too big"),
        (
            b'{"seed": -' + b"1" * 31 + b"}",
            r"not a save: a number of 31 digits is too big \(a save's numbers have at most 24\)",
        ),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": 1, "a": 2}', "appears twice"),
        (b"[1, 2]", "not a cardtui save"),
    ],
)
def test_bad_bytes(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(raw)
    with pytest.raises(SaveError, match=message):
        load_save(path)


def test_a_game_saved_before_the_presets_for_other_counts_still_loads(tmp_path: Path) -> None:
    """Games for three were saved named after the game's own preset before `hearts-3` existed."""
    data = save_dict("hearts-3", actions=20)
    data["ruleset"]["name"] = "hearts"
    loaded = load_save(write(tmp_path, data))
    assert (loaded.ruleset.name, loaded.ruleset.seats) == ("hearts", 3)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="no such file"):
        load_save(tmp_path / "nope.json")
    with pytest.raises(SaveError, match="is a folder"):
        load_save(tmp_path)


def test_huge_file_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardtui.saves as saves

    monkeypatch.setattr(saves, "MAX_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 200)
    with pytest.raises(SaveError, match="too big"):
        load_save(path)


def test_parse_save_accepts_dict_and_rejects_non_dicts() -> None:
    loaded = parse_save(save_dict(), "x")
    assert len(loaded.log) == 80
    with pytest.raises(SaveError, match="x: not a cardtui save"):
        parse_save([1], "x")


def test_mid_deal_save_resumes_there() -> None:
    loaded = load_save(SAMPLES / "hearts-mid-deal.json")
    assert not loaded.game.is_over
    tm = loaded.game.to_move
    assert tm is not None and tm.phase == "play" and tm.seat == 0
    assert loaded.seats[0] == Seat("You", "human")


def test_list_saves_and_latest_unfinished(tmp_path: Path) -> None:
    for name in ("hearts.json", "hearts-mid-deal.json", "spades.json"):
        (tmp_path / name).write_bytes((SAMPLES / name).read_bytes())
    (tmp_path / "broken.json").write_text("{")
    infos = {i.path.name: i for i in list_saves(tmp_path)}
    assert infos["hearts.json"].status == "finished"
    assert infos["hearts-mid-deal.json"].status == "in_progress"
    assert infos["broken.json"].status == "broken" and "not valid JSON" in (infos["broken.json"].problem or "")
    assert latest_unfinished(tmp_path) == tmp_path / "hearts-mid-deal.json"
    assert list_saves(tmp_path / "none") == []


def test_build_save_accepts_dict_actions() -> None:
    ruleset = load_preset("cutthroat")
    data = build_save(ruleset, default_seats(4), 1, [], "2026-01-01T00:00:00Z")
    assert data["log"] == [] and data["updated"].endswith("Z")
    assert parse_save(data).game.to_move is not None
