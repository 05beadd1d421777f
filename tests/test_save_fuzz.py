"""Fuzzing the loader: whatever the bytes, it raises SaveError or loads, and never touches the file."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtui.api import ApiError, open_game
from cardtui.saves import SaveError, load_save

pytestmark = pytest.mark.slow  # hundreds of generated saves

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
BASE = json.loads((SAMPLES / "hearts-mid-deal.json").read_text())
BASE_RAW = (SAMPLES / "hearts-mid-deal.json").read_bytes()
SMALL = json.loads((SAMPLES / "eight-of-spades.json").read_text())

FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
odd_values: st.SearchStrategy[Any] = json_values | st.sampled_from(
    [10**30, -(10**30), "", "1", 1.5, [], {}, None, True, "\ud800x"]
)


def check_file(raw: bytes) -> None:
    """Load `raw` from a file: only SaveError may come out, and the file is left exactly as it was."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_bytes(raw)
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
        before = path.stat().st_mtime_ns
        try:
            load_save(path)
        except SaveError as err:
            assert str(err).startswith(str(path)) or str(err).startswith("game.json: "), str(err)
            assert "\n" not in str(err)
        assert path.read_bytes() == raw
        assert path.stat().st_mtime_ns == before
        assert os.listdir(folder) == ["game.json"]


def check_dict(data: Any) -> None:
    try:
        text = json.dumps(data, ensure_ascii=False)
        raw = text.encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        raw = json.dumps(data).encode()
    check_file(raw)
    with contextlib.suppress(ApiError):
        open_game(data)


@FUZZ
@given(json_values)
def test_random_json(value: Any) -> None:
    check_dict(value)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(raw: bytes) -> None:
    check_file(raw)


@FUZZ
@given(st.integers(min_value=0, max_value=len(BASE_RAW)), st.binary(max_size=8))
def test_truncated_and_garbled(cut: int, tail: bytes) -> None:
    check_file(BASE_RAW[:cut] + tail)


@FUZZ
@given(
    st.sampled_from(["format", "version", "game", "ruleset", "seats", "seed", "log", "created", "updated"]),
    odd_values,
)
def test_top_level_field_of_any_type(key: str, value: Any) -> None:
    data = copy.deepcopy(SMALL)
    data[key] = value
    check_dict(data)


@FUZZ
@given(
    st.sampled_from(sorted(BASE["ruleset"])), odd_values, st.integers(0, 3), st.sampled_from(["name", "kind", "level"])
)
def test_ruleset_and_seat_fields(knob: str, value: Any, seat: int, key: str) -> None:
    data = copy.deepcopy(BASE)
    data["ruleset"][knob] = value
    check_dict(data)
    data = copy.deepcopy(BASE)
    data["seats"][seat][key] = value
    check_dict(data)


@FUZZ
@given(st.one_of(st.integers(), st.text(max_size=5), st.floats(allow_nan=True, allow_infinity=True)))
def test_versions(version: Any) -> None:
    data = copy.deepcopy(SMALL)
    data["version"] = version
    raw = json.dumps(data).encode()
    check_file(raw)


@FUZZ
@given(st.data())
def test_log_reordered_dropped_duplicated_or_changed(data: st.DataObject) -> None:
    save = copy.deepcopy(BASE)
    log = save["log"]
    n = len(log)
    how = data.draw(st.sampled_from(["swap", "drop", "dup", "field", "shuffle"]))
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1))
    if how == "swap":
        log[i], log[j] = log[j], log[i]
    elif how == "drop":
        del log[i]
    elif how == "dup":
        log.insert(j, copy.deepcopy(log[i]))
    elif how == "field":
        key = data.draw(st.sampled_from(sorted(log[i])))
        log[i][key] = data.draw(odd_values)
    else:
        data.draw(st.randoms()).shuffle(log)
    check_dict(save)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(1, 200_000), st.sampled_from(["[", '{"a":', '{"format": "cardtui-save", "log": [']))
def test_deep_nesting(depth: int, opener: str) -> None:
    check_file((opener * depth).encode())


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(20, 6000), st.sampled_from(["seed", "version", "log_seat", "float"]))
def test_huge_numbers(digits: int, where: str) -> None:
    big = "9" * digits
    text = BASE_RAW.decode()
    if where == "seed":
        text = text.replace(f'"seed": {BASE["seed"]}', f'"seed": {big}', 1)
    elif where == "version":
        text = text.replace('"version": 1', f'"version": {big}', 1)
    elif where == "log_seat":
        text = text.replace('"seat": 0', f'"seat": {big}', 1)
    else:
        text = text.replace('"version": 1', f'"version": 1{big}e{big[:4]}', 1)
    check_file(text.encode())


def test_examples_add_up_to_at_least_2000() -> None:
    plain = [test_random_json, test_random_bytes, test_truncated_and_garbled, test_top_level_field_of_any_type]
    plain += [test_ruleset_and_seat_fields, test_versions, test_log_reordered_dropped_duplicated_or_changed]
    total = 300 * len(plain) + 150 * 2
    assert total >= 2000
