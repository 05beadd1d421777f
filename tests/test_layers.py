"""The domain is pure: nothing below the UI imports Textual or Typer."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cardtui"
UI = ("tui", "cli.py", "__main__.py")


def domain_modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in UI:
            continue
        parts = ["cardtui", *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def test_no_domain_file_imports_the_ui_libraries() -> None:
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] in UI:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not roots & {"textual", "typer", "click", "cardtui.tui"}, f"{path} imports {roots}"
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith(("cardtui.tui", "cardtui.cli")), path


def test_the_whole_domain_runs_without_the_ui() -> None:
    modules = domain_modules()
    assert {"cardtui.cards", "cardtui.rules", "cardtui.games.hearts", "cardtui.saves"} <= set(modules)
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'typer', 'click'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
