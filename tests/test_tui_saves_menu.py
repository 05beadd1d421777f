"""The menu's save lists: read through the catalog, broken files with their reason, delete and archive."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from cardtui import catalog, saves
from cardtui.rules import load_preset
from cardtui.saves import load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.menu import MENU, MenuScreen, SavePicker
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.settings import Settings
from tests.support.tui import drawn_when, workers_done

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
SEATS = [Seat("You", "human"), *(Seat(name, "bot", "easy") for name in ("West", "North", "East"))]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "saves").mkdir(parents=True)
    return tmp_path / "home"


def copies(folder: Path, count: int, source: str = "hearts-mid-deal.json") -> list[Path]:
    data = (SAMPLES / source).read_bytes()
    paths = [folder / f"hearts-2026010{i // 100}-{i % 100:06d}.json" for i in range(count)]
    for path in paths:
        path.write_bytes(data)
    return paths


def count_loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every save read in full (replayed), by the catalog or by the old way of listing."""
    loaded: list[Path] = []
    real = saves.load_save

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        loaded.append(Path(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(saves, "load_save", counting)
    monkeypatch.setattr(catalog, "load_save", counting)
    return loaded


async def open_picker(pilot: Pilot[Any], app: CardtuiApp, entry: str = "open") -> SavePicker:
    """From the menu, the saves picker of an entry (Open a save, or Replays), with the folder listed."""
    await pilot.pause()
    assert isinstance(app.screen, MenuScreen)
    app.screen.query_one("#menu-list", OptionList).highlighted = [key for key, _ in MENU].index(entry)
    await pilot.press("enter")
    await listed(pilot, app)
    assert isinstance(app.screen, SavePicker)
    return app.screen


async def listed(pilot: Pilot[Any], app: CardtuiApp) -> None:
    for _ in range(3):
        await pilot.pause()
        await workers_done(app)
    await pilot.pause()


def shown(picker: SavePicker) -> list[str]:
    listing = picker.query_one("#saves-list", OptionList)
    if not listing.display:
        return []
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def said(picker: SavePicker) -> str:
    return str(picker.query_one("#saves-message", Static).render())


def names(picker: SavePicker) -> list[str]:
    return [line.split()[0] for line in shown(picker)]


async def test_many_saves_are_read_once_then_listed_from_the_catalog(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = copies(home / "saves", 200)
    loaded = count_loads(monkeypatch)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app)
        assert sorted(names(picker)) == sorted(p.name for p in paths)
        assert len(loaded) == 200  # the first look reads each save once, for the catalog
        await pilot.press("escape")
        loaded.clear()
        picker = await open_picker(pilot, app)
        assert len(names(picker)) == 200
        assert loaded == []  # the second look reads none: the catalog knows them
        await pilot.press("escape")
        (home / catalog.FILE_NAME).unlink()  # deleting the catalog loses nothing
        picker = await open_picker(pilot, app)
        assert sorted(names(picker)) == sorted(p.name for p in paths)


async def test_a_broken_save_is_listed_with_its_reason(home: Path) -> None:
    copies(home / "saves", 1)
    (home / "saves" / "hearts-broken.json").write_text("{")
    (home / "saves" / "photos.json").mkdir()
    (home / "saves" / "photos.json" / "mine.jpg").write_text("kept")
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app)
        broken = next(line for line in shown(picker) if line.startswith("hearts-broken.json"))
        assert "broken" in broken and "not valid JSON" in broken
        # A folder named like a save is listed as broken, and d or a says at once that it is not removed, where
        # a question was asked and then the removal refused.
        picker.query_one("#saves-list", OptionList).highlighted = names(picker).index("photos.json")
        for key in ("d", "a"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is picker
            assert said(picker) == "photos.json is a folder, not a save file: only saves are deleted or archived here."
        assert (home / "saves" / "photos.json" / "mine.jpg").read_text() == "kept"


async def remove(pilot: Pilot[Any], app: CardtuiApp, key: str, answer: str) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    if key == "a":  # an archived game leaves the record too: the question says so
        assert app.screen.question.endswith("leave these lists and the statistics (restore it to count it again).")
    await pilot.press(answer)
    await listed(pilot, app)


async def test_delete_and_archive_from_the_list_ask_first_and_refresh_it(home: Path) -> None:
    folder = home / "saves"
    paths = copies(folder, 3)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app)
        first = names(picker)[0]
        await remove(pilot, app, "d", "n")  # no: nothing happens
        assert app.screen is picker and len(names(picker)) == 3 and (folder / first).exists()
        await remove(pilot, app, "d", "y")
        assert not (folder / first).exists()
        assert first not in names(picker) and len(names(picker)) == 2
        assert f"Deleted {first}." in said(picker)
        second = names(picker)[0]
        await remove(pilot, app, "a", "y")
        assert not (folder / second).exists() and (folder / "archive" / second).exists()
        assert names(picker) == [p.name for p in paths if p.name not in (first, second)]
        assert f"Archived {second} to archive/{second}." in said(picker)
        told = [str(n.message) for n in app._notifications]  # seen however long the list (its line may be below)
        assert f"Deleted {first}." in told and f"Archived {second} to archive/{second}." in told
        await remove(pilot, app, "d", "y")
        assert shown(picker) == []
        assert "No saved games yet." in str(picker.query_one("#saves-note", Static).render())
        await pilot.press("d")  # nothing left to choose: d is typed into the path field, not a question
        await pilot.pause()
        assert app.screen is picker and picker.query_one("#save-path", Input).value == "d"


@pytest.mark.parametrize("key", ["d", "a"])
async def test_a_save_open_in_another_cardtui_is_neither_deleted_nor_archived(home: Path, key: str) -> None:
    (path,) = copies(home / "saves", 1)
    before = path.read_bytes()
    elsewhere = Session.resume(path)
    try:
        app = CardtuiApp(Start(), Settings(speed="instant"))
        async with app.run_test(size=(100, 30)) as pilot:
            picker = await open_picker(pilot, app)
            await remove(pilot, app, key, "y")
            assert "the game is open in another cardtui" in said(picker)
            assert any("the game is open in another cardtui" in str(n.message) for n in app._notifications)
            assert names(picker) == [path.name] and path.read_bytes() == before
    finally:
        elsewhere.close()


async def test_replays_lists_finished_games_and_the_finished_deals_of_games_in_progress(home: Path) -> None:
    """Replays offers what can be watched, so picking never fails: finished games, and a game in progress one
    person plays that has a finished deal (its finished deals only); the rest are counted, not listed."""
    saves_folder = home / "saves"
    (saves_folder / "finished.json").write_bytes((SAMPLES / "hearts.json").read_bytes())
    (going,) = copies(saves_folder, 1)  # a game in progress with one finished deal, one person at the table
    (saves_folder / "broken.json").write_text("{")
    hot_seat = json.loads(going.read_text())
    hot_seat["seats"][2] = {"name": "Bea", "kind": "human"}
    (saves_folder / "hot-seat.json").write_text(json.dumps(hot_seat))
    fresh = Session.new(load_preset("hearts"), SEATS, 3, save_path=saves_folder / "fresh.json")
    fresh.advance_chance()  # dealt, nothing finished
    fresh.close()
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app, "replays")
        assert sorted(info.path.name for info in picker.infos) == sorted(["finished.json", going.name])
        line = next(line for line in shown(picker) if line.startswith(going.name))
        assert "in progress" in line and "(1 finished deal)" in line
        note = picker.query_one("#saves-note", Static)
        assert note.display
        assert str(note.content) == (
            "Not listed: 3 saves with nothing to watch yet (broken, no deal finished, or more than one person at"
            " the table while the game goes on)."
        )
        picker.query_one("#saves-list", OptionList).highlighted = names(picker).index(going.name)
        await pilot.press("enter")
        await workers_done(app)
        await pilot.pause()
        replay = app.screen
        assert type(replay).__name__ == "ReplayScreen"
        assert replay.replay.in_progress and len(replay.replay) < len(load_save(going).log)  # type: ignore[attr-defined]


@pytest.mark.parametrize("entry", ["replays", "open"])
async def test_esc_from_a_replay_goes_back_to_the_list_it_was_chosen_in(home: Path, entry: str) -> None:
    """Esc went to the menu: watching several games meant finding the list again each time."""
    saves_folder = home / "saves"
    for name in ("a-finished.json", "b-finished.json"):
        (saves_folder / name).write_bytes((SAMPLES / "hearts.json").read_bytes())
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app, entry)
        title = str(picker.query_one(".dialog-title", Static).content)
        picker.query_one("#saves-list", OptionList).highlighted = names(picker).index("b-finished.json")
        await pilot.press("enter")
        await workers_done(app)
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        await listed(pilot, app)
        again = app.screen
        assert isinstance(again, SavePicker), again
        assert str(again.query_one(".dialog-title", Static).content) == title
        listing = again.query_one("#saves-list", OptionList)
        assert listing.highlighted is not None and names(again)[listing.highlighted] == "b-finished.json"
        await pilot.press("escape")  # and from the list, the menu
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_replays_with_nothing_to_watch_says_so(home: Path) -> None:
    fresh = Session.new(load_preset("hearts"), SEATS, 3, save_path=home / "saves" / "fresh.json")
    fresh.close()
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app, "replays")
        assert picker.infos == []
        note = str(picker.query_one("#saves-note", Static).content)
        assert note == (
            "No game to watch yet (1 save with nothing to watch yet not listed: broken, no deal finished, or more"
            " than one person at the table while the game goes on). F2: the archived saves."
        )


async def test_archived_saves_are_listed_and_restored_from_the_app(home: Path) -> None:
    folder = home / "saves"
    kept, gone = copies(folder, 2)
    saves.archive_save(gone)
    (folder / "archive" / kept.name).write_bytes(kept.read_bytes())  # an archived copy whose name is taken
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app)
        assert names(picker) == [kept.name]
        await pilot.press("v")
        await listed(pilot, app)
        assert sorted(names(picker)) == sorted([kept.name, gone.name])
        assert "Archived saves" in str(picker.query_one(".dialog-title", Static).content)
        picker.query_one("#saves-list", OptionList).highlighted = names(picker).index(gone.name)
        await pilot.press("enter")  # Enter restores here
        await listed(pilot, app)
        assert (folder / gone.name).exists() and not (folder / "archive" / gone.name).exists()
        assert f"Restored {gone.name} to the saves as {gone.name}." in said(picker)
        assert names(picker) == [kept.name]
        await pilot.press("u")  # a restored name already taken gets -2: nothing is overwritten
        await listed(pilot, app)
        twin = f"{kept.stem}-2.json"
        assert (folder / twin).read_bytes() == kept.read_bytes() and kept.exists()
        assert shown(picker) == [] and "No archived saves." in str(picker.query_one("#saves-note", Static).content)
        await pilot.press("v")  # back to the saves, the restored ones among them
        await listed(pilot, app)
        assert sorted(names(picker)) == sorted([kept.name, gone.name, twin])
        picker.query_one("#saves-list", OptionList).highlighted = names(picker).index(gone.name)
        await pilot.press("enter")  # and it opens as any save does
        await workers_done(app)
        await pilot.pause()
        assert app.session is not None and app.session.save_path == folder / gone.name


async def test_the_archive_is_reached_when_every_save_is_archived(home: Path) -> None:
    """With no save listed the path input has the focus and takes `v` as a letter: F2 opens the archive from there,
    and the note and the footer say so."""
    folder = home / "saves"
    (only,) = copies(folder, 1)
    saves.archive_save(only)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await open_picker(pilot, app)
        path_input = picker.query_one("#save-path", Input)
        assert shown(picker) == [] and app.focused is path_input
        assert "F2: the archived saves." in str(picker.query_one("#saves-note", Static).content)
        assert "f2 Archived saves" in await drawn_when(pilot, app, lambda text: "f2 Archived saves" in text)
        await pilot.press("v")
        await listed(pilot, app)
        assert path_input.value == "v" and shown(picker) == []  # a letter of a path, as typed
        await pilot.press("backspace", "f2")
        await listed(pilot, app)
        assert "Archived saves" in str(picker.query_one(".dialog-title", Static).content)
        assert names(picker) == [only.name]
        await pilot.press("enter")  # restored, and listed again once back among the saves
        await listed(pilot, app)
        await pilot.press("f2")
        await listed(pilot, app)
        assert names(picker) == [only.name] and (folder / only.name).exists()


def test_restoring_a_file_outside_an_archive_is_refused(home: Path) -> None:
    (path,) = copies(home / "saves", 1)
    with pytest.raises(saves.SaveError, match="not in an archive folder"):
        saves.restore_save(path)
