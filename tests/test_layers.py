"""The layers of ARCHITECTURE.md hold: every import points down, no module circle, the domain runs without the UI."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.support.sources import PACKAGE, package_files, parsed

# ARCHITECTURE.md's layers, bottom first. A module may import only from layers strictly below its own
# (and from its own top-level package or module). `cardtui` itself is the package's version string.
LAYERS: dict[str, float] = {
    "cardtui": 0,
    "cards": 1,
    "files": 1,
    "inert": 1,
    "measure": 1,
    "hand_order": 1.5,
    "rules": 2,
    "games": 3,
    "bots": 4,
    "variants": 4.2,
    "seats": 4.5,
    "saves": 5,
    "session": 6,
    "source": 6.5,
    "replay": 6,
    "arena": 6,
    "cluster": 7,
    "review": 7,
    "catalog": 7,
    "api": 8,
    "stats": 8,
    "net": 9,
    "tui": 10,
    "cli": 11,
    "__main__": 12,
}
UI_LAYERS = {"tui", "cli", "__main__"}
UI_LIBRARIES: dict[str, set[str]] = {
    "textual": {"tui"},
    "textual_serve": {"tui"},
    "textual_plotext": {"tui"},
    "typer": {"cli"},
    "click": {"cli"},
    "rich": {"tui", "cli"},
}
"""Each UI library and the layers that may import it: Textual and its packages only the app's (`tui`, the browser's
face included), the command line's only `cli`."""


def module_name(path: Path) -> str:
    parts = ["cardtui", *path.relative_to(PACKAGE).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    """The top-level part of a `cardtui...` module name: `cardtui.games.trick` is in `games`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cardtui"


def imports(path: Path) -> Iterator[str]:
    """Every module a file imports (see `imports_in`)."""
    return imports_in_tree(parsed(path), module_name(path), path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool) -> Iterator[str]:
    """Every module `module`'s source imports, at the top or inside a function, relative imports resolved; also a
    module named by a literal string to `importlib.import_module`, which would otherwise slip past every check."""
    return imports_in_tree(ast.parse(source), module, is_package)


def imports_in_tree(tree: ast.Module, module: str, is_package: bool) -> Iterator[str]:
    """Every module the syntax tree of `module` imports (see `imports_in`)."""
    me = module.split(".")
    package = me if is_package else me[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _calls_import_module(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            yield module
            for alias in node.names:
                yield f"{module}.{alias.name}"


def _calls_import_module(func: ast.expr) -> bool:
    """`importlib.import_module(...)` or a bare `import_module(...)`."""
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id == "import_module"


def internal_graph() -> dict[str, set[str]]:
    """Module -> the cardtui modules (files or packages) it imports (a copy the caller may change)."""
    return {me: set(targets) for me, targets in _graph().items()}


@functools.cache
def _graph() -> dict[str, set[str]]:
    files = package_files()
    known = {module_name(path) for path in files}
    graph: dict[str, set[str]] = {}
    for path in files:
        me = module_name(path)
        graph[me] = {m for m in imports(path) if m in known and m != me}
    return graph


def test_every_module_is_in_a_layer() -> None:
    assert {layer_of(m) for m in internal_graph()} <= set(LAYERS)


def test_every_import_points_down_the_layers() -> None:
    wrong = [
        f"{me} imports {target}"
        for me, targets in internal_graph().items()
        for target in targets
        if layer_of(target) != layer_of(me) and LAYERS[layer_of(target)] >= LAYERS[layer_of(me)]
    ]
    assert wrong == []


def test_the_layer_check_sees_imports_inside_functions() -> None:
    """The checker itself: the imports the CLI makes inside its commands are seen."""
    graph = internal_graph()
    assert "cardtui.cluster" in graph["cardtui.cli"]
    assert "cardtui.tui" in graph["cardtui.cli"]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_anywhere() -> None:
    """The whole package, UI included, a package and its own modules too: screens ask the app by message, they
    never import it, and a package's `__init__` never imports a module of its own that imports the package."""
    assert cycles(internal_graph()) == []


def test_the_circle_check_sees_a_package_and_its_own_module() -> None:
    """The checker itself: `games/history.py` imports the `games` package, so the package importing it back is a
    circle (one the check once left out)."""
    graph = internal_graph()
    assert "cardtui.games" in graph["cardtui.games.history"]
    graph["cardtui.games"].add("cardtui.games.history")
    assert ["cardtui.games", "cardtui.games.history"] in cycles(graph)


def test_the_layer_check_sees_import_module_with_a_literal_name() -> None:
    """The checker itself: a module loaded by `importlib.import_module("cardtui...")` is an import like any other."""
    source = 'import importlib\n\ndef load():\n    return importlib.import_module("cardtui.tui.app")\n'
    assert "cardtui.tui.app" in set(imports_in(source, "cardtui.variants.example", False))


def test_the_circle_check_finds_a_circle() -> None:
    """The checker itself: a circle through three modules is reported as one group."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_each_class_name_means_one_thing() -> None:
    """No two top-level classes share a name (nested ones, like a widget's own `Problem` message, are its own)."""
    where: dict[str, list[str]] = {}
    for path in package_files():
        for node in parsed(path).body:
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(module_name(path))
    assert {name: modules for name, modules in where.items() if len(modules) > 1} == {}


def test_no_screen_imports_the_app() -> None:
    graph = internal_graph()
    wrong = [m for m, targets in graph.items() if m.startswith("cardtui.tui.screens") and "cardtui.tui.app" in targets]
    assert wrong == []


def ui_imports_out_of_place(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """`module imports target` for every import of a UI library outside the layers it belongs to, and of a UI
    layer's module from outside the UI layers, given each module's (source, is_package)."""
    return [
        f"{me} imports {target}"
        for me, (source, is_package) in sources.items()
        for target in imports_in(source, me, is_package)
        if layer_of(me) not in UI_LIBRARIES.get(target.split(".")[0], {layer_of(me)})
        or (target.startswith("cardtui.") and layer_of(target) in UI_LAYERS and layer_of(me) not in UI_LAYERS)
    ]


def test_no_module_imports_a_ui_library_outside_its_layer() -> None:
    sources = {module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py") for p in package_files()}
    assert ui_imports_out_of_place(sources) == []


def test_the_ui_check_sees_textual_below_the_app() -> None:
    """The checker itself: textual-serve in the network layer, Textual in the command line, the app from the API."""
    sources = {
        "cardtui.net.page": ("from textual_serve.app_service import AppService\n", False),
        "cardtui.cli": ("def f():\n    import textual.app\n", False),
        "cardtui.api": ("from cardtui.tui import run_play\n", False),
        "cardtui.tui.web": ("from textual_serve.app_service import AppService\nimport rich\n", False),
    }
    assert ui_imports_out_of_place(sources) == [
        "cardtui.net.page imports textual_serve.app_service",
        "cardtui.net.page imports textual_serve.app_service.AppService",
        "cardtui.cli imports textual.app",
        "cardtui.api imports cardtui.tui",
        "cardtui.api imports cardtui.tui.run_play",
    ]


def test_the_whole_domain_runs_without_the_ui() -> None:
    modules = sorted(m for m in internal_graph() if layer_of(m) not in UI_LAYERS)
    assert {"cardtui.cards", "cardtui.rules", "cardtui.games.hearts", "cardtui.saves", "cardtui.api"} <= set(modules)
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(UI_LIBRARIES)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
