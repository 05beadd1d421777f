"""Mark each test by what it starts, read from its code, so a new test lands in the right lane unasked.

A test (or a fixture it uses, or a helper either calls, in the tests or in `tests.support`) that starts the
app under Textual's Pilot is `tui`; one that starts it in a real terminal (tmux or a pseudo-terminal) is
`tmux`; one that builds and installs the package is `wheel`; one that starts another Python process is
`slow`. Other slow tests (fuzzing, long searches, a review's judge, whole games of computer players: half a
CPU-second or more) and `browser` carry their marker by hand.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

TRIGGERS = {
    "tui": {"run_test"},
    "tmux": {"Tmux", "openpty"},
    "wheel": {"bdist_wheel", "build_wheel"},
    "slow": {"executable"},
}
"""Names in a test's code that put it in a lane: the attribute or function it calls (`sys.executable`: it
starts another Python process, a second or more before it does anything)."""


def own_markers(words: set[str], strings: set[str]) -> set[str]:
    """The markers named by a function's own code: the names it uses, and `pip wheel` among its strings."""
    found = {m for m, names in TRIGGERS.items() if names & words}
    if {"pip", "wheel"} <= strings:
        found.add("wheel")
    return found


@cache
def reached(func: Callable[..., Any]) -> frozenset[str]:
    """The markers a test function reaches through its own code and the test helpers it calls."""
    if func in _VISITING:
        return frozenset()
    _VISITING.add(func)
    try:
        return _reached(func)
    finally:
        _VISITING.discard(func)


_VISITING: set[Callable[..., Any]] = set()


@cache
def _definitions(filename: str) -> dict[int, ast.AST]:
    """Every function of a source file by the line its code starts on (its first decorator's, if any): each
    file is read and parsed once, not once per test."""
    try:
        with open(filename, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename)
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[int, ast.AST] = {}
    nodes = list(tree.body)  # module-level functions and classes' methods: the tests and the helpers they call
    for node in nodes:
        if isinstance(node, ast.ClassDef):
            nodes.extend(node.body)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[min([node.lineno, *(d.lineno for d in node.decorator_list)])] = node
    return found


def _tree(func: Callable[..., Any]) -> ast.AST | None:
    """The syntax tree of a function's own code."""
    code = getattr(func, "__code__", None)
    if code is not None and (node := _definitions(code.co_filename).get(code.co_firstlineno)) is not None:
        return node
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return None


def _reached(func: Callable[..., Any]) -> frozenset[str]:
    func = inspect.unwrap(getattr(getattr(func, "hypothesis", None), "inner_test", func))  # @given wraps the test
    tree = _tree(func)
    if tree is None:
        return frozenset()
    words: set[str] = set()
    strings: set[str] = set()
    space = dict(getattr(func, "__globals__", {}))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests"):
            module = importlib.import_module(node.module or "")  # a helper imported inside the test
            space.update({a.asname or a.name: getattr(module, a.name) for a in node.names})
    found = own_markers(words, strings)
    for word in words:
        helper = space.get(word)
        if (
            callable(helper)
            and helper is not func
            and str(getattr(helper, "__module__", "")).startswith("tests")
            and (inspect.isfunction(helper) or inspect.isclass(helper))
        ):
            found |= reached(helper) if inspect.isfunction(helper) else class_markers(helper)
    return frozenset(found)


def class_markers(cls: type) -> frozenset[str]:
    """A helper class reaches what its name or its methods reach."""
    found = own_markers({cls.__name__}, set())
    for value in vars(cls).values():
        if inspect.isfunction(value):
            found |= reached(value)
    return frozenset(found)


def mark(item: pytest.Item) -> None:
    """Add the markers the test's code, and the code of the fixtures it uses, reach."""
    func = getattr(item, "obj", None)
    found: set[str] = set(reached(func)) if inspect.isfunction(func) else set()
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for fixture in defs:
            if str(getattr(fixture.func, "__module__", "")).startswith("tests"):
                found |= reached(fixture.func)
    for name in sorted(found - {m.name for m in item.iter_markers()}):
        item.add_marker(getattr(pytest.mark, name))


LONG_LANES = ("wheel", "browser", "tmux", "slow")
"""The lanes whose tests take longest, longest first: a wheel build, a real browser, a real terminal, another
Python process."""


def lane_rank(item: pytest.Item) -> int:
    """Where a test's lane comes in `LONG_LANES` (after them all for a test in none)."""
    names = {m.name for m in item.iter_markers()}
    return next((i for i, lane in enumerate(LONG_LANES) if lane in names), len(LONG_LANES))


def long_first(items: list[pytest.Item], took: dict[str, float]) -> None:
    """Order the tests so the long ones start first: the long lanes, then within each the tests that took longest
    last time (`took`, seconds by test id; the others in their own order). The workers then share the short tests
    at the end, rather than one waiting while the other runs a wheel build or a long review last."""
    items.sort(key=lambda item: (lane_rank(item), -took.get(item.nodeid, 0.0)))
