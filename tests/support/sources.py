"""The package's own source files, each read and parsed once a test process: the layer, one-home and door checks
all walk every module, and parsing them all is most of what each of those tests costs."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent.parent / "cardtui"


@cache
def package_files() -> tuple[Path, ...]:
    """Every Python file of the package, sorted."""
    return tuple(sorted(PACKAGE.rglob("*.py")))


@cache
def parsed(path: Path) -> ast.Module:
    """A file's syntax tree, shared by every check that reads it: read it, never change it."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))
