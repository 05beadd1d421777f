"""The saves catalog: a cache that follows the saves folder, never crashes on what it finds, and rebuilds itself."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from cardtui import catalog
from cardtui.catalog import Catalog, list_entries
from cardtui.saves import MAX_BYTES, SaveInfo
from tests.support.cli import ok

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "saves"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "saves").mkdir(parents=True)
    return tmp_path / "home"


def folder(home: Path) -> Path:
    return home / "saves"


def copy(home: Path, sample: str, name: str | None = None) -> Path:
    path = folder(home) / (name or sample)
    path.write_bytes((SAMPLES / sample).read_bytes())
    return path


def listing() -> dict[str, SaveInfo]:
    return {e.info.path.name: e.info for e in list_entries()}


def test_the_catalog_lives_in_the_data_folder_and_lists_like_the_saves(home: Path) -> None:
    for sample in ("hearts.json", "hearts-mid-deal.json", "spades.json"):
        copy(home, sample)
    os.utime(folder(home) / "spades.json", (1, 1))  # the oldest file lists last, whatever it says inside
    infos = list_entries()
    assert (home / "catalog.sqlite").is_file()
    assert [e.info.path.name for e in infos][-1] == "spades.json"
    by_name = {e.info.path.name: e for e in infos}
    assert by_name["hearts.json"].info.status == "finished"
    assert by_name["hearts.json"].info.totals == (75, 108, 60, 95)
    assert by_name["hearts-mid-deal.json"].info.status == "in_progress"
    summary = by_name["spades.json"].summary
    assert summary is not None and summary.game == "spades" and summary.winner == (1,)


def test_a_warm_listing_loads_nothing(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy(home, "hearts.json")
    first = list_entries()

    def refuse(path: Path) -> dict[str, object]:
        raise AssertionError(f"{path} was loaded again")

    monkeypatch.setattr(catalog, "summarise", refuse)
    assert list_entries() == first


def test_a_save_that_changed_is_read_again(home: Path) -> None:
    path = copy(home, "hearts-mid-deal.json", "game.json")
    assert listing()["game.json"].status == "in_progress"
    path.write_bytes((SAMPLES / "hearts.json").read_bytes())  # another size
    assert listing()["game.json"].status == "finished"
    # The same size, rewritten in place (the same inode): only the modification time tells.
    data = (SAMPLES / "hearts.json").read_bytes()
    changed = data.replace(b'"name": "South"', b'"name": "Shout"')
    assert len(changed) == len(data) and changed != data
    before = path.stat()
    with path.open("r+b") as f:
        f.write(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    text = next(e.text for e in list_entries())
    assert text is not None and json.loads(text)["seats"][0]["name"] == "Shout"


def test_a_vanished_save_drops_out_of_the_catalog(home: Path) -> None:
    copy(home, "hearts.json")
    gone = copy(home, "spades.json")
    assert set(listing()) == {"hearts.json", "spades.json"}
    gone.unlink()
    assert set(listing()) == {"hearts.json"}
    with sqlite3.connect(home / "catalog.sqlite") as db:
        assert [p for (p,) in db.execute("SELECT path FROM saves")] == [str(folder(home) / "hearts.json")]


def test_hostile_files_are_listed_with_their_reason(home: Path) -> None:
    saves = folder(home)
    copy(home, "hearts.json")
    (saves / "garbage.json").write_bytes(b"\x00\xff not json")
    (saves / "text.json").write_text("{")
    os.mkfifo(saves / "pipe.json")  # would block a plain open() for ever
    with (saves / "huge.json").open("wb") as f:
        f.truncate(MAX_BYTES + 1)
    (saves / "folder.json").mkdir()
    (saves / "zero.json").symlink_to("/dev/zero")
    (saves / "dangling.json").symlink_to(saves / "nowhere")
    infos = listing()
    assert infos["hearts.json"].status == "finished"
    reasons = {name: info.problem or "" for name, info in infos.items() if info.status == "broken"}
    assert "not a text file" in reasons["garbage.json"]
    assert "not valid JSON" in reasons["text.json"]
    assert "named pipe" in reasons["pipe.json"]
    assert "too big" in reasons["huge.json"]
    assert "a folder" in reasons["folder.json"]
    assert "a device" in reasons["zero.json"]
    assert "no such file" in reasons["dangling.json"]  # a link to nothing is a broken save, said as one
    assert len(reasons) == 7
    assert listing() == infos  # and the same from the catalog


def test_a_save_whose_name_is_not_utf8_is_listed_and_nothing_crashes(home: Path) -> None:
    """A file name's bytes need not be UTF-8 (Python keeps them as surrogates, which SQLite refuses): such a save
    is summarised at each listing instead of cached, in a folder of such a name too."""
    odd = os.fsdecode(b"bad\xff.json")
    copy(home, "hearts.json", odd)
    copy(home, "spades.json")
    infos = listing()
    assert infos[odd].status == "finished" and infos["spades.json"].status == "finished"
    assert listing() == infos
    assert "bad\\udcff.json" in ok("saves")  # its name shown inert


def test_a_saves_folder_whose_name_is_not_utf8_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / os.fsdecode(b"h\xff")
    monkeypatch.setenv("CARDTUI_HOME", str(home))
    (home / "saves").mkdir(parents=True)
    copy(home, "hearts.json")
    assert listing()["hearts.json"].status == "finished"


def test_a_save_that_becomes_readable_is_no_longer_broken(home: Path) -> None:
    path = folder(home) / "hearts-1.json"
    path.write_bytes(b"")  # a new game claims its name with an empty file first
    assert "empty" in (listing()["hearts-1.json"].problem or "")
    path.write_bytes((SAMPLES / "hearts.json").read_bytes())
    assert listing()["hearts-1.json"].status == "finished"


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda p: p.write_bytes(b"this is not a database" * 100), id="garbage"),
        pytest.param(lambda p: p.write_bytes(p.read_bytes()[:200]), id="cut-short"),
        pytest.param(lambda p: _foreign(p), id="another-program"),
        pytest.param(lambda p: _older(p), id="older-schema"),
        pytest.param(lambda p: p.unlink(), id="deleted"),
    ],
)
def test_a_spoilt_or_deleted_catalog_is_rebuilt_from_the_saves(home: Path, spoil: object) -> None:
    copy(home, "hearts.json")
    copy(home, "eight-of-spades.json")
    before = list_entries()
    db = home / "catalog.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    spoil(db)  # type: ignore[operator]
    assert list_entries() == before
    assert list_entries() == before


def _foreign(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (body TEXT)")


def _older(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {catalog.SCHEMA + 1}")


def test_a_catalog_that_cannot_be_written_still_lists(home: Path, tmp_path: Path) -> None:
    copy(home, "hearts.json")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with Catalog(blocker / "catalog.sqlite") as c:  # its folder cannot be made
        infos = c.entries()
    assert [e.info.status for e in infos] == ["finished"]


WRITER = """
import json, sys
from pathlib import Path
from cardtui.saves import write_save
folder = Path(sys.argv[1])
saves = [json.loads(Path(p).read_text()) for p in sys.argv[2:]]
for i in range(60):
    write_save(folder / f"game-{i % 7}.json", saves[i % len(saves)])
    if i == 0:
        print("first save written", flush=True)
"""


def test_listing_while_another_process_writes_saves(home: Path) -> None:
    samples = [str(SAMPLES / n) for n in ("hearts-mid-deal.json", "cutthroat.json", "eight-of-spades.json")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder(home)), *samples], env=env, stdout=subprocess.PIPE, text=True
    )
    # The listing starts once there is a save to list, while the writer goes on writing.
    assert writer.stdout is not None and writer.stdout.readline() == "first save written\n"
    lister = subprocess.Popen(
        [sys.executable, "-c", "from cardtui.cli import main; main()", "saves"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    rounds = 0
    while writer.poll() is None or rounds == 0:
        for info in listing().values():
            assert info.status != "broken", info.problem
        rounds += 1
    out, err = lister.communicate(timeout=120)
    writer.communicate(timeout=120)
    assert writer.returncode == 0
    assert lister.returncode == 0 and err == "" and out.startswith("FILE")
    final = listing()
    assert set(final) == {f"game-{i}.json" for i in range(7)}
    expected = {
        "hearts-mid-deal.json": "hearts",
        "cutthroat.json": "cutthroat",
        "eight-of-spades.json": "eight-of-spades",
    }
    for k in range(7):
        last = max(i for i in range(60) if i % 7 == k)
        sample = Path(samples[last % 3]).name
        assert final[f"game-{k}.json"].game == expected[sample]


def test_figures_kept_per_seat() -> None:
    hearts = catalog.summarise(SAMPLES / "hearts.json")
    assert sum(hearts.figures["queens"]) == len(hearts.summary.parts["deals"])
    eight = catalog.summarise(SAMPLES / "eight-of-spades.json")
    log = json.loads((SAMPLES / "eight-of-spades.json").read_text())["log"]
    grid, illuminati = log[0]["grid"], log[0]["illuminati"]

    def card(flip: dict[str, Any]) -> str:
        return str(grid[flip["row"]][flip["col"]] if flip["at"] == "grid" else illuminati[flip["index"]])

    ace = [f["seat"] for f in log[1:] if card(f) == "AS"]
    assert ace and eight.figures == {"ace_hits": [ace.count(s) for s in range(4)]}
    spades = catalog.summarise(SAMPLES / "spades.json")
    figures = spades.figures
    assert [a + b for a, b in zip(figures["made"], figures["sets"], strict=True)] == figures["contracts"]
    assert json.loads(json.dumps(spades.to_json())) == spades.to_json()


def test_many_stale_saves_load_in_worker_processes_with_progress(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i, sample in enumerate(("hearts.json", "cutthroat.json", "eight-of-spades.json", "hearts-mid-deal.json")):
        copy(home, sample, f"game-{i}.json")
    (folder(home) / "broken.json").write_text("[]")
    serial = Catalog(home / "serial.sqlite").entries()
    monkeypatch.setattr(catalog, "PARALLEL_FROM", 2)
    seen: list[tuple[int, int]] = []
    with Catalog() as c:
        assert c.entries(progress=lambda done, total: seen.append((done, total)), jobs=2) == serial
    assert seen == [(n, 5) for n in range(1, 6)]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_first_read_stopped_by_a_signal_leaves_no_worker_behind(home: Path, signum: int) -> None:
    """`cardtui saves` over a big folder reads it in worker processes; stopped by SIGTERM it ends them and says
    nothing more (status 143), and killed outright its workers see it gone and end too."""
    data = (SAMPLES / "hearts.json").read_bytes()
    for i in range(1500):
        (folder(home) / f"g{i}.json").write_bytes(data)
    env = dict(os.environ, CARDTUI_HOME=str(home))
    command = [sys.executable, "-m", "cardtui", "saves"]
    lister = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    me = psutil.Process(lister.pid)
    workers: list[psutil.Process] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and lister.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(psutil.NoSuchProcess):
            workers = [p for p in me.children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
        with contextlib.suppress(subprocess.TimeoutExpired):
            lister.wait(timeout=0.02)  # on the process, a moment at a time
    assert len(workers) >= 2, "the read was over before its workers could be seen"
    lister.send_signal(signum)
    _, err = lister.communicate(timeout=60)
    assert lister.returncode == -signum if signum == signal.SIGKILL else lister.returncode == 128 + signum
    if signum == signal.SIGTERM:
        assert err == b"", err.decode()
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert alive == [], [p.cmdline() for p in alive]
