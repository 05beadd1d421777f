"""A game has one home: no module outside a game's own modules asks which game it is.

A *game-specific branch* is, in any module of `cardtui/`:

- an `isinstance` or `issubclass` test, a `case` class pattern, or a
  comparison (`is`, `==`, `in` and their negations, on either side) naming a
  class defined in a game's own modules (its ruleset, engine, view, detail,
  actions...);
- a string literal equal to a game's name or one of its presets' names
  (`hearts`, `spades`, `spades-blind`, `cutthroat`, `eight-of-spades`), written
  with underscores too (`eight_of_spades`), or compared with as the name of
  one of those classes (`type(view).__name__ == "HeartsView"`);
- a `getattr` or `hasattr` of an attribute only some games' engines, views or
  rules have (`getattr(game, "pass_direction", "")`): a probe for a game.
  Docstrings are text, not branches, and so is a tuple or list of the four
  suits' words (`("clubs", "diamonds", "hearts", "spades")`).

A game's *own modules* are those named after the module of its ruleset class
(`rules/hearts.py` for Hearts, `rules/spades.py` for Spades and cutthroat):
that module in `rules/`, `games/`, `bots/` and `variants/` (its registry
module), and any `bots/` module whose name starts with it and an underscore
(`bots/eight_of_spades_endgame.py`). A branch naming a game is allowed only in
that game's own modules; everywhere else the program looks the game up in the
registry (`cardtui.variants.find_game`) or asks the common interface.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import random

from cardtui.variants import GAMES, GameEntry
from tests.support.sources import PACKAGE, package_files, parsed
from tests.test_layers import imports

FAMILY_FOLDERS = ("rules", "games", "bots", "variants")
SUIT_WORDS = {"clubs", "diamonds", "hearts", "spades"}


def family(entry: GameEntry) -> str:
    """The stem of the module that defines the game's ruleset class: `hearts`, `spades`, `eight_of_spades`."""
    return entry.rules.__module__.rsplit(".", 1)[-1]


def own_modules(entry: GameEntry) -> set[str]:
    """A game's own modules, as paths relative to `cardtui/`."""
    stem = family(entry)
    own = {f"{folder}/{stem}.py" for folder in FAMILY_FOLDERS}
    own |= {f"bots/{p.name}" for p in (PACKAGE / "bots").glob(f"{stem}_*.py")}
    return own


def game_words() -> dict[str, set[str]]:
    """Each string that names a game (its name and its presets' names, also with underscores) -> the games it names."""
    words: dict[str, set[str]] = {}
    for entry in GAMES:
        for word in (entry.name, *entry.presets):
            for written in (word, word.replace("-", "_")):
                words.setdefault(written, set()).add(entry.name)
    return words


@functools.cache
def game_classes() -> dict[str, set[str]]:
    """Each class defined in a game's own modules, by name -> the games those modules are home to."""
    classes: dict[str, set[str]] = {}
    for entry in GAMES:
        for module in own_modules(entry):
            dotted = "cardtui." + module.removesuffix(".py").replace("/", ".")
            for name, value in vars(importlib.import_module(dotted)).items():
                if inspect.isclass(value) and value.__module__ == dotted:
                    classes.setdefault(name, set()).add(entry.name)
    return classes


@functools.cache
def game_attributes() -> dict[str, set[str]]:
    """Each attribute some games' engines, views or rules have and others lack -> the games that have it: asking
    for one by name (`getattr`, `hasattr`) asks which game it is."""
    have: dict[str, set[str]] = {}
    for entry in GAMES:
        game = entry.new_game(entry.default_rules())
        game.apply(game.chance_action(random.Random(0)))
        view = game.view(0)
        for thing in (game, view, entry.default_rules()):
            for name in {*dir(thing), *getattr(thing, "__dict__", {})}:
                if not name.startswith("__"):
                    have.setdefault(name, set()).add(entry.name)
    every = {entry.name for entry in GAMES}
    return {name: games for name, games in have.items() if games != every}


def _constant_text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _names_in(node: ast.AST) -> set[str]:
    return {
        n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node) if isinstance(n, ast.Name | ast.Attribute)
    }


def branches(source: str) -> list[tuple[int, str, set[str]]]:
    """Every game-specific branch in a module's source: (line, what, the games it names)."""
    return branches_in(ast.parse(source))


def branches_in(tree: ast.Module) -> list[tuple[int, str, set[str]]]:
    """Every game-specific branch in a module's syntax tree (see `branches`)."""
    words, classes = game_words(), game_classes()
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # an attribute's docstring
        if isinstance(node, ast.Tuple | ast.List):
            texts = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if {"clubs", "diamonds"} <= texts:
                skipped.update(id(e) for e in node.elts)
    attributes = game_attributes()
    found: list[tuple[int, str, set[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in skipped:
            if (text := _constant_text(node)) in words:
                found.append((node.lineno, repr(text), words[text]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2:
            if node.func.id in ("isinstance", "issubclass"):
                named = {g for name in _names_in(node.args[1]) for g in classes.get(name, ())}
                if named:
                    found.append((node.lineno, node.func.id, named))
            elif node.func.id in ("getattr", "hasattr") and (text := _constant_text(node.args[1])) in attributes:
                found.append((node.lineno, f"{node.func.id} {text}", attributes[text]))
        elif isinstance(node, ast.MatchClass):
            named = {g for name in _names_in(node.cls) for g in classes.get(name, ())}
            if named:
                found.append((node.lineno, "case", named))
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops
        ):
            sides = (node.left, *node.comparators)
            names = {*(name for side in sides for name in _names_in(side)), *map(_constant_text, sides)}
            named = {g for name in names if name is not None for g in classes.get(name, ())}
            if named:
                found.append((node.lineno, "comparison", named))
    return sorted(found, key=lambda branch: branch[0])


def branches_outside_homes() -> dict[str, list[str]]:
    """File (relative to `cardtui/`) -> its game-specific branches outside the named games' own modules."""
    homes = {entry.name: own_modules(entry) for entry in GAMES}
    out: dict[str, list[str]] = {}
    for path in package_files():
        relative = path.relative_to(PACKAGE).as_posix()
        wrong = [
            f"{relative}:{line} {what}"
            for line, what, games in branches_in(parsed(path))
            if any(relative not in homes[g] for g in games)
        ]
        if wrong:
            out[relative] = wrong
    return out


GAME_MODULE_READERS = {
    "variants/__init__.py": "the registry itself lists every game's entry",
    "rules/__init__.py": "the rules layer's list of ruleset classes, below the registry",
    "games/__init__.py": "the engine layer's list of engines (`create_game`), below the registry",
}
"""The modules outside every game's own that import one of them, and why; no other may."""


def imports_of_game_modules() -> dict[str, set[str]]:
    """File (relative to `cardtui/`) -> the games whose own modules it imports, outside those games' own modules."""
    homes = {entry.name: own_modules(entry) for entry in GAMES}
    dotted = {name: {"cardtui." + m.removesuffix(".py").replace("/", ".") for m in own} for name, own in homes.items()}
    out: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        targets = set(imports(path))
        games = {
            name
            for name, modules in dotted.items()
            if relative not in homes[name] and any(t == m or t.startswith(m + ".") for t in targets for m in modules)
        }
        if games:
            out[relative] = games
    return out


def test_only_the_listed_modules_import_a_games_own_modules() -> None:
    """The catalog, the summary, the API and the rest ask the registry: importing a game's module is a branch on
    it waiting to happen. The list only shrinks: a module that stops importing one leaves it too."""
    assert sorted(imports_of_game_modules()) == sorted(GAME_MODULE_READERS)


def test_the_import_check_sees_a_game_module_imported() -> None:
    """The checker itself: the registry's imports of every game's entry module are found; the screens', which
    ask the entry, are not."""
    found = imports_of_game_modules()
    assert found["variants/__init__.py"] == {entry.name for entry in GAMES}
    assert "catalog.py" not in found and "games/summary.py" not in found
    assert "tui/screens/table.py" not in found and "tui/screens/deal_end.py" not in found
    assert not {"tui/screens/grid.py", "tui/screens/replay.py", "tui/widgets/grid_board.py"} & set(found)


def test_no_game_specific_branch_outside_a_games_own_modules() -> None:
    found = branches_outside_homes()
    assert found == {}, "\n".join(line for lines in found.values() for line in lines)


def test_the_count_sees_each_kind_of_branch() -> None:
    """The checker itself: class tests, class patterns, comparisons either way round, a game's name however it is
    written, a class's name compared with and a probe for one game's attribute are found; docstrings, suits, the
    common interface's attributes and a word that is also a class's name (a key's description) are not."""
    source = '''
"""A module about hearts and spades."""
def f(rules, view, name, action):
    """Says "hearts"."""
    suits = ("clubs", "diamonds", "hearts", "spades")
    if isinstance(rules, HeartsRules | SpadesRules):
        return name == "cutthroat"
    if type(view) is EightOfSpadesView:
        return "spades-blind"
    if HeartsView is type(view) or type(view) in (HeartsView, SpadesView):
        return "eight_of_spades"
    match action:
        case Flip():
            return type(view).__name__ == "HeartsDetail"
    way = getattr(view, "pass_direction", "")
    return getattr(view, "totals", ()), hasattr(rules, "undo"), Binding("enter", "flip", "Flip")
'''
    found = branches(source)
    assert [(line, what) for line, what, _ in found] == [
        (6, "isinstance"),
        (7, "'cutthroat'"),
        (8, "comparison"),
        (9, "'spades-blind'"),
        (10, "comparison"),
        (10, "comparison"),
        (11, "'eight_of_spades'"),
        (13, "case"),
        (14, "comparison"),
        (15, "getattr pass_direction"),
    ]
    assert found[0][2] == {"hearts", "spades", "cutthroat"}
    assert found[7][2] == {"eight-of-spades"} and found[9][2] == {"hearts"}


def test_own_modules_are_the_game_familys_files() -> None:
    """Spades and cutthroat share `spades.py`, its search and its judge; Eight of Spades' endgame module is its own."""
    spades = next(e for e in GAMES if e.name == "spades")
    eight = next(e for e in GAMES if e.name == "eight-of-spades")
    assert own_modules(spades) == {
        "rules/spades.py",
        "games/spades.py",
        "bots/spades.py",
        "bots/spades_search.py",
        "bots/spades_judge.py",
        "variants/spades.py",
    }
    assert "bots/eight_of_spades_endgame.py" in own_modules(eight)
    assert all((PACKAGE / m).exists() for e in GAMES for m in own_modules(e) if not m.startswith("bots/"))
