"""The catalog checks every row it reads: a damaged row is rebuilt from its save and counted, never trusted,
and a catalog another process is writing is still read rather than bypassed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static
from typer.testing import CliRunner

from cardtui import catalog, saves
from cardtui.catalog import list_entries
from cardtui.cli import app as cli_app
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.menu import MENU, SavePicker
from cardtui.tui.screens.stats import StatsScreen
from cardtui.tui.settings import Settings
from tests.support.tui import settle, workers_done

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
runner = CliRunner()
FILES = {
    "hearts-20260101-000001.json": "hearts.json",
    "spades-20260101-000002.json": "spades.json",
    "hearts-20260101-000003.json": "hearts-mid-deal.json",
}
DAMAGED = "hearts-20260101-000001.json"

DAMAGE = [
    ("totals", "'x y'"),
    ("totals", "'1  2'"),
    ("totals", "3.5"),
    ("summary", "'{not json'"),
    ("summary", "'[1,2]'"),
    ("summary", "'{}'"),
    ("summary", "json_set(summary, '$.sides', json('[[9]]'))"),
    ("summary", "json_set(summary, '$.figures.moons', json('[]'))"),
    ("summary", "json_set(summary, '$.deals', json('[{\"scores\": \"x\"}]'))"),
    ("summary", "json_set(summary, '$.updated', 'soon')"),
    ("summary", "NULL"),
    ("status", "'won'"),
    ("status", "7"),
    ("game", "5"),
    ("problem", "'a reason'"),
    ("updated", "x'00ff'"),
]


@pytest.fixture
def folder(home: Path) -> Path:
    path = home / "saves"
    path.mkdir(parents=True)
    for name, sample in FILES.items():
        (path / name).write_bytes((SAMPLES / sample).read_bytes())
    list_entries()  # the catalog now knows every save
    return path


def damage(home: Path, column: str, value: str, wait: float = 5.0) -> None:
    """Write `value` into the damaged save's row, waiting at most `wait` seconds for another writer's lock."""
    db = sqlite3.connect(home / catalog.FILE_NAME, timeout=wait)
    with db:
        changed = db.execute(f"UPDATE saves SET {column} = {value} WHERE path LIKE ?", (f"%{DAMAGED}",)).rowcount
    db.close()
    assert changed == 1


def totals_by_name() -> dict[str, tuple[int, ...]]:
    return {e.info.path.name: e.info.totals for e in list_entries()}


@pytest.mark.parametrize(("column", "value"), DAMAGE)
def test_a_damaged_row_is_rebuilt_from_its_save_and_counted(home: Path, folder: Path, column: str, value: str) -> None:
    good = totals_by_name()
    damage(home, column, value)
    listing = list_entries()
    assert listing.rebuilt == 1
    assert listing.note == "rebuilt 1 damaged catalog entry"
    assert {e.info.path.name: e.info.totals for e in listing} == good
    entry = next(e for e in listing if e.info.path.name == DAMAGED)
    assert entry.info.status == "finished" and entry.summary is not None and entry.summary.game == "hearts"
    again = list_entries()  # the row was written back whole
    assert again.rebuilt == 0 and again.note is None


@pytest.mark.parametrize(("column", "value"), DAMAGE)
def test_saves_and_stats_commands_survive_a_damaged_row(home: Path, folder: Path, column: str, value: str) -> None:
    before = runner.invoke(cli_app, ["stats", "--json"]).stdout
    damage(home, column, value)
    listed = runner.invoke(cli_app, ["saves"])
    assert listed.exit_code == 0, listed.output
    assert DAMAGED in listed.output and "75 / 108 / 60 / 95" in listed.output
    assert listed.output.rstrip().endswith("rebuilt 1 damaged catalog entry")
    damage(home, column, value)
    figures = runner.invoke(cli_app, ["stats", "--json"])
    assert figures.exit_code == 0, figures.output
    assert "rebuilt 1 damaged catalog entry" in figures.stderr
    assert json.loads(figures.stdout) == json.loads(before)


def test_a_catalog_another_process_is_writing_is_read_not_bypassed(
    home: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = totals_by_name()
    loaded: list[Path] = []
    real = saves.load_save

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        loaded.append(Path(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(catalog, "load_save", counting)
    monkeypatch.setattr(catalog, "BUSY_MS", 100)
    writer = sqlite3.connect(home / catalog.FILE_NAME, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another cardtui holds the write lock for as long as it likes
    try:
        assert totals_by_name() == good
        assert loaded == []  # read from the catalog, not every save again
        damage_value = "'x y'"
        with pytest.raises(sqlite3.OperationalError):
            damage(home, "totals", damage_value, wait=0)  # (it really is locked: no waiting for it to end)
    finally:
        writer.execute("ROLLBACK")
        writer.close()


async def open_from_menu(pilot: Any, app: CardtuiApp, key: str) -> None:
    await pilot.pause()
    app.screen.query_one("#menu-list", OptionList).highlighted = [k for k, _ in MENU].index(key)
    await pilot.press("enter")
    for _ in range(3):
        await pilot.pause()
        await workers_done(app)
    await pilot.pause()


@pytest.mark.parametrize(("column", "value"), [("totals", "'x y'"), ("summary", "'{not json'"), ("summary", "'[1,2]'")])
async def test_the_menu_lists_continues_and_counts_with_a_damaged_row(
    home: Path, folder: Path, column: str, value: str
) -> None:
    damage(home, column, value)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_from_menu(pilot, app, "open")
        picker = app.screen
        assert isinstance(picker, SavePicker)
        assert len(picker.infos) == 3
        assert str(picker.query_one("#saves-message", Static).render()) == "rebuilt 1 damaged catalog entry"
        await pilot.press("escape")
        damage(home, column, value)
        await open_from_menu(pilot, app, "stats")
        stats = app.screen
        assert isinstance(stats, StatsScreen) and stats.stats is not None
        assert "rebuilt 1 damaged catalog entry" in str(stats.query_one("#stats-note", Static).render())
        await pilot.press("escape")
        damage(home, column, value)
        await open_from_menu(pilot, app, "continue")
        await settle(pilot, app)
        assert app.session is not None and app.session.save_path == folder / "hearts-20260101-000003.json"


def test_a_row_damaged_with_its_digest_redone_still_cannot_crash_the_statistics(home: Path, folder: Path) -> None:
    """Past the digest (someone recomputed it), a summary is still checked as deep as the statistics read it."""
    db = sqlite3.connect(home / catalog.FILE_NAME)
    query = "SELECT path, size, mtime_ns, inode, game, updated, status, totals, problem, summary FROM saves"
    path, *columns = db.execute(query + " WHERE path LIKE ?", (f"%{DAMAGED}",)).fetchone()
    summary = json.loads(columns[-1])
    summary["sides"] = [[9]]
    size, mtime_ns, inode, game, updated, status, totals, problem, _summary = columns
    row = catalog.Row((size, mtime_ns, inode), game, updated, status, totals, problem, json.dumps(summary))
    with db:
        db.execute("UPDATE saves SET summary = ?, digest = ? WHERE path = ?", (row.summary, catalog._digest(row), path))
    db.close()
    figures = runner.invoke(cli_app, ["stats", "--json"])
    assert figures.exit_code == 0, figures.output
    assert json.loads(figures.stdout)["broken"] == 1
