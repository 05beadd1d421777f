"""Fuzzing the TOML loader: whatever the bytes, a ruleset loads or one RulesetError line says why.

Three kinds of input, 2,100 cases in all: bytes of a shipped preset mutated,
text from TOML's own punctuation (deep brackets, long dotted keys, broken
strings), and well-formed TOML of random keys and values.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtui.api import ApiError, new_game
from cardtui.rules import RulesetError, load_ruleset, preset_dir

pytestmark = pytest.mark.slow  # hundreds of generated rulesets

PRESET = (preset_dir() / "spades.toml").read_bytes()

FUZZ = settings(
    max_examples=700,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check(raw: bytes) -> None:
    """Only RulesetError may come out, as one line naming the file; the file is never changed."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rules.toml"
        path.write_bytes(raw)
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
        try:
            load_ruleset(path)
        except RulesetError as err:
            message = str(err)
            assert message.startswith(f"{path}: "), message
            assert "\n" not in message and len(message) < 2000, message[:300]
            assert all(c.isprintable() for c in message.removeprefix(f"{path}: ")), message[:300]
        with contextlib.suppress(ApiError):  # the API may only ever raise its one error type
            new_game("spades", ruleset=path)
        assert path.read_bytes() == raw
        assert path.stat().st_mtime_ns == 1_000_000_000
        assert os.listdir(folder) == ["rules.toml"]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    raw = bytearray(PRESET)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(raw)))
        kind = draw(st.sampled_from(["flip", "insert", "delete", "repeat"]))
        if kind == "flip" and at < len(raw):
            raw[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            raw[at:at] = draw(st.sampled_from([b"[", b"{", b".a", b'"', b"'''", b"\x1b", b"\n", b"=", b"#", b"\xff"]))
        elif kind == "delete":
            del raw[at : at + draw(st.integers(1, 20))]
        else:
            piece = draw(st.sampled_from([b"[", b"a.", b"{a=", b'"x".']))
            raw[at:at] = piece * draw(st.integers(1, 300))
    return bytes(raw)


punctuation = st.text(alphabet=st.sampled_from(list("[]{}.=,\"'#\n ab1\\\x00\x1bé")), max_size=400)

chars = st.sampled_from(list("abz_-. 1é♠\x1b\x7f[]{}\"'\\\n"))
keys = st.text(alphabet=chars, min_size=1, max_size=12)
scalars = st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(alphabet=chars, max_size=30) | st.floats()
values: st.SearchStrategy[Any] = (
    scalars | st.lists(scalars, max_size=3) | st.dictionaries(keys, scalars | st.lists(scalars, max_size=2), max_size=2)
)
tables = st.dictionaries(
    st.sampled_from(["game", "name", "title", "description", "win_target", "bag_limit", "nil", "x"]) | keys,
    values,
    max_size=8,
)


@FUZZ
@given(mutated())
def test_mutated_presets(raw: bytes) -> None:
    check(raw)


@FUZZ
@given(punctuation)
def test_toml_punctuation(text: str) -> None:
    check(text.encode("utf-8"))


@FUZZ
@given(tables, st.sampled_from(["hearts", "spades", "cutthroat", "eight-of-spades", None]))
def test_well_formed_toml_of_random_knobs(table: dict[str, Any], game: str | None) -> None:
    if game is not None:
        table = {**table, "game": game}
    check(tomli_w.dumps(table).encode("utf-8"))
