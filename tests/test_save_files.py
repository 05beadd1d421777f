"""Deleting and archiving saves (the menu's d and a), without the app."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtui.catalog import Catalog
from cardtui.saves import ARCHIVE_FOLDER, SaveError, archive_save, delete_save, list_saves
from cardtui.session import Session

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
OPEN_ELSEWHERE = "the game is open in another cardtui"


def sample(folder: Path, name: str, source: str = "hearts-mid-deal.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes((SAMPLES / source).read_bytes())
    return path


def test_delete_removes_the_save_its_unheld_lock_file_and_left_temps(tmp_path: Path) -> None:
    path = sample(tmp_path, "hearts-1.json")
    (tmp_path / ".hearts-1.json.lock").write_text("")  # left by a cardtui that was killed: not held
    (tmp_path / ".hearts-1.json.abc.tmp").write_text("half")
    keep = sample(tmp_path, "hearts-2.json")
    delete_save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [keep.name]


def test_a_broken_save_can_be_deleted(tmp_path: Path) -> None:
    path = tmp_path / "hearts-broken.json"
    path.write_text("{ not json")
    delete_save(path)
    assert not path.exists()


def test_delete_and_archive_refuse_a_game_open_in_another_cardtui(tmp_path: Path) -> None:
    path = sample(tmp_path, "hearts-1.json")
    before = path.read_bytes()
    elsewhere = Session.resume(path)
    try:
        with pytest.raises(SaveError, match=OPEN_ELSEWHERE):
            delete_save(path)
        with pytest.raises(SaveError, match=OPEN_ELSEWHERE):
            archive_save(path)
        assert path.read_bytes() == before
        assert not (tmp_path / ARCHIVE_FOLDER).exists() or not any((tmp_path / ARCHIVE_FOLDER).iterdir())
    finally:
        elsewhere.close()
    delete_save(path)  # once the other cardtui lets go
    assert not path.exists()


def test_a_missing_save_or_a_folder_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match=r"gone\.json: no such file"):
        delete_save(tmp_path / "gone.json")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(SaveError, match=r"dir\.json: is a folder, not a file"):
        archive_save(tmp_path / "dir.json")


def test_archive_moves_beside_the_saves_and_never_overwrites(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    first = sample(saves, "hearts-1.json")
    moved = archive_save(first)
    assert moved == saves / ARCHIVE_FOLDER / "hearts-1.json" and not first.exists()
    assert moved.read_bytes() == (SAMPLES / "hearts-mid-deal.json").read_bytes()
    again = sample(saves, "hearts-1.json", "hearts.json")  # the same name, another game
    moved_again = archive_save(again)
    assert moved_again == saves / ARCHIVE_FOLDER / "hearts-1-2.json"
    assert moved.read_bytes() == (SAMPLES / "hearts-mid-deal.json").read_bytes()  # the first is untouched
    assert moved_again.read_bytes() == (SAMPLES / "hearts.json").read_bytes()
    assert list_saves(saves) == []
    assert not list(saves.glob(".*.lock"))


def test_the_catalog_forgets_deleted_and_archived_saves(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    a, b, c = (sample(saves, f"hearts-{i}.json") for i in range(3))
    with Catalog(tmp_path / "catalog.sqlite") as catalog:
        assert len(catalog.entries(saves)) == 3
        delete_save(a)
        archive_save(b)
        assert [e.info.path.name for e in catalog.entries(saves)] == [c.name]


def test_deleting_a_symlinked_save_removes_the_link_not_its_target(tmp_path: Path) -> None:
    target = sample(tmp_path / "elsewhere", "kept.json")
    link = tmp_path / "saves" / "hearts-link.json"
    link.parent.mkdir()
    link.symlink_to(target)
    delete_save(link)
    assert not link.is_symlink() and target.exists()


def test_a_link_round_in_a_loop_can_be_deleted_and_archived(tmp_path: Path) -> None:
    """The saves list offered both keys for it (it is listed as broken) and each was then refused."""
    for name, other in (("a.json", "b.json"), ("c.json", "d.json")):
        (tmp_path / name).symlink_to(other)
        (tmp_path / other).symlink_to(name)
    delete_save(tmp_path / "a.json")
    assert not (tmp_path / "a.json").is_symlink()
    moved = archive_save(tmp_path / "c.json")
    assert moved == tmp_path / "archive" / "c.json" and moved.is_symlink() and not (tmp_path / "c.json").is_symlink()
