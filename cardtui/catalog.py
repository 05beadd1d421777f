"""The catalog of saves: a SQLite cache of each save's summary, so listing and statistics need not replay.

The JSON saves stay the truth. A row is keyed by the file's path, size,
modification time and inode; a file whose key changed is loaded again (through
`cardtui.saves`, the safe way) and one that vanished drops out. A broken file
keeps its row with the loader's one-line reason. Every row is checked as it
is read, and one that does not hold what this module writes is rebuilt from
its file like a stale one (and counted). Deleting the catalog loses
nothing, and a corrupt, foreign or older catalog file is rebuilt. Another
cardtui writing the catalog or a save at the same time is waited for briefly
(WAL mode, a busy timeout); a catalog locked for writing is still read, and
if it cannot be opened at all, the listing is built in memory for this run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardtui.files import remove_stale_locks
from cardtui.games import Action, Event
from cardtui.games.base import Undone
from cardtui.games.summary import Summary, summarize
from cardtui.measure import bound_pool, interrupts_held
from cardtui.saves import LoadedSave, SaveError, SaveInfo, game_in_name, home_dir, load_save, saves_dir
from cardtui.seats import SeatKind
from cardtui.variants import GAMES, UnknownGame, find_game

SCHEMA = 3
"""`PRAGMA user_version` of the catalog; a file with another is rebuilt (3: each summary holds its `content`)."""
APPLICATION_ID = 0x63617264  # "card": tells our catalog from another program's SQLite file
FILE_NAME = "catalog.sqlite"
BUSY_MS = 5000
COMMIT_EVERY = 50
PARALLEL_FROM = 100
"""With `jobs` > 1, this many stale saves or more are loaded in worker processes."""

Progress = Callable[[int, int], None]
"""Told (done, total) while stale saves are loaded; total is how many needed loading."""

_TABLE = """
CREATE TABLE IF NOT EXISTS saves (
    path TEXT PRIMARY KEY,
    folder TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    inode INTEGER NOT NULL,
    game TEXT NOT NULL,
    updated TEXT NOT NULL,
    status TEXT NOT NULL,
    totals TEXT NOT NULL,
    problem TEXT,
    summary TEXT,
    digest TEXT NOT NULL
)
"""


class Row(NamedTuple):
    """A catalog row: the file's key, its listing columns and its summary as JSON text (None if broken)."""

    key: tuple[int, int, int]
    game: str
    updated: str
    status: str
    totals: str
    problem: str | None
    summary: str | None
    digest: str = ""
    """A hash of the row's columns as this module wrote them: a row changed since is rebuilt, not trusted."""


@dataclasses.dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat as the statistics read it: a person's (kind "human") or a computer player's of a level."""

    kind: SeatKind
    level: str | None

    @classmethod
    def from_json(cls, seat: Mapping[str, Any]) -> SeatSummary:
        return cls(seat["kind"], seat.get("level"))

    @property
    def person(self) -> bool:
        return self.kind == "human"

    @property
    def who(self) -> str:
        """The seat's level, or its kind where it has none ("human")."""
        return self.level or self.kind


@dataclasses.dataclass(frozen=True, slots=True)
class SavedSummary:
    """A save's summary as the statistics and the save picker read it, decoded from what `CatalogSummary` writes."""

    game: str
    finished: bool
    updated: str
    seats: tuple[SeatSummary, ...]
    sides: tuple[tuple[int, ...], ...]
    winner: tuple[int, ...] | None
    points: tuple[int, ...]
    """Each seat's points in a game of one deal (Eight of Spades); () in a game of deals."""
    deals: tuple[tuple[int, ...], ...]
    """Each finished deal's score per side in a game of deals; () in a game of one deal."""
    figures: Mapping[str, list[int]]
    content: str

    @classmethod
    def from_json(cls, s: Mapping[str, Any]) -> SavedSummary:
        """From a summary's JSON as `CatalogSummary.to_json` gives it."""
        one_deal = not find_game(s["game"]).has_deals
        return cls(
            s["game"],
            s["status"] == "finished",
            s["updated"],
            tuple(SeatSummary.from_json(seat) for seat in s["seats"]),
            tuple(tuple(side) for side in s["sides"]),
            tuple(s["winner"]) if s.get("winner") is not None else None,
            tuple(s["points"]) if one_deal else (),
            () if one_deal else tuple(tuple(d["scores"]) for d in s["deals"]),
            s["figures"],
            s["content"],
        )

    def side_of(self, seat: int) -> int:
        """The side a seat plays on."""
        return next(i for i, side in enumerate(self.sides) if seat in side)


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    """One save as the catalog knows it: the listing line, plus the summary for statistics (None if broken)."""

    info: SaveInfo
    text: str | None

    @property
    def summary(self) -> SavedSummary | None:
        """Decoded on demand (listing 2,000 saves must not parse 2,000 summaries) and checked as deep as the
        statistics read it: one that is not what the catalog writes counts as broken, never as a crash."""
        if self.text is None:
            return None
        info = self.info
        try:
            summary = json.loads(self.text)
        except (ValueError, RecursionError):
            return None
        if not _summary_ok(summary, info.game, info.status, info.totals, info.updated):
            return None
        return SavedSummary.from_json(summary)


class Listing(list[Entry]):
    """The entries of a folder, newest first, and how many damaged catalog rows were rebuilt from their files."""

    def __init__(self, entries: list[Entry], rebuilt: int = 0, problem: str | None = None) -> None:
        super().__init__(entries)
        self.rebuilt = rebuilt
        self.problem = problem
        """Why the folder itself could not be read (a file in its place, no permission), or None: a folder not
        made yet holds no saves, which is no problem."""

    @property
    def note(self) -> str | None:
        """The one line that says the folder could not be read, or that rows were rebuilt (None: nothing to say)."""
        if self.problem is not None:
            return self.problem
        if not self.rebuilt:
            return None
        return f"rebuilt {self.rebuilt} damaged catalog {'entry' if self.rebuilt == 1 else 'entries'}"


def catalog_path() -> Path:
    """The catalog file, in cardtui's data folder beside the saves folder."""
    return home_dir() / FILE_NAME


@dataclasses.dataclass(frozen=True, slots=True)
class CatalogSummary:
    """What the catalog keeps of a save: `inspect --json`'s summary plus seats, times and the game's own figures
    (per seat or per side, by name); `to_json` is what a row holds."""

    summary: Summary
    seats: tuple[dict[str, Any], ...]
    created: str
    updated: str
    figures: dict[str, list[int]]
    content: str = ""
    """Which game this is, whatever the file's name or place (`content_of`): copies of a save share it."""

    def to_json(self) -> dict[str, Any]:
        out = self.summary.to_json()
        out["seats"] = list(self.seats)
        out["created"] = self.created
        out["updated"] = self.updated
        out["figures"] = self.figures
        out["content"] = self.content
        return out

    def saved(self) -> SavedSummary:
        """The summary as the statistics read it from a catalog row."""
        return SavedSummary.from_json(self.to_json())


def content_of(loaded: LoadedSave) -> str:
    """A game's identity from what it is, never where its file is: a hash of the ruleset, the seed and the action
    log, so a copy of a save (another name, another folder, an archived one) is the same game."""
    text = json.dumps(
        [loaded.ruleset.to_dict(), loaded.seed, [a.to_json() for a in loaded.log]], sort_keys=True, ensure_ascii=True
    )
    return hashlib.sha256(text.encode()).hexdigest()


def summarise(path: Path) -> CatalogSummary:
    """What the catalog keeps of a save; SaveError for a file that cannot be trusted, as loading it would."""
    counter = _Counter()
    loaded = load_save(path, on_action=counter)
    game = loaded.game
    figures = find_game(game.game).figures(game, counter.per_seat(game.game))
    seats = tuple(s.to_json() for s in loaded.seats)
    summary = summarize(game, len(loaded.log))
    return CatalogSummary(summary, seats, loaded.created, loaded.updated, figures, content_of(loaded))


class _Counter:
    """Counts, from the replayed events, what a game's state no longer shows and its figures count (each game's
    registry entry says which events: `GameEntry.count`), for every game, since the save's game is known only
    once it is loaded.

    What an undo took back does not count: each count remembers the log index that made it.
    """

    def __init__(self) -> None:
        self._counts = [(entry.name, entry.count) for entry in GAMES if entry.count is not None]
        self._counted: dict[str, list[tuple[int, int]]] = {name: [] for name, _ in self._counts}

    def __call__(self, index: int, action: Action, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, Undone):
                self._counted = {name: [(i, s) for i, s in c if i < event.to] for name, c in self._counted.items()}
                continue
            for name, count in self._counts:
                seat = count(event)
                if seat is not None:
                    self._counted[name].append((index, seat))

    def per_seat(self, game: str) -> list[int]:
        """How many counted events each seat had in `game` (eight places, as many seats as a game may have)."""
        return _per_seat(self._counted.get(game, []))


def _per_seat(counted: list[tuple[int, int]]) -> list[int]:
    out = [0] * 8
    for _, seat in counted:
        out[seat] += 1
    return out


def _key(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


class Catalog:
    """The catalog file, opened; `entries(folder)` brings it up to date with the folder and returns its rows."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = catalog_path() if path is None else path
        self.db = self._open()

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- opening

    def _open(self) -> sqlite3.Connection:
        """Our catalog at `path`, rebuilt if corrupt, foreign or another schema; in memory if it can't be written."""
        for _ in range(2):
            try:
                return self._connect(self.path)
            except (sqlite3.OperationalError, OSError):
                break  # cannot open or busy for long: another cardtui's catalog is not ours to remove
            except sqlite3.DatabaseError:
                self._remove()
        return self._connect(None)

    def _connect(self, path: Path | None) -> sqlite3.Connection:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(":memory:" if path is None else str(path), timeout=BUSY_MS / 1000, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            if path is not None:
                if _ours(db):
                    return db  # no write lock needed to read: a catalog another cardtui is writing is still read
                db.execute("PRAGMA journal_mode = WAL")
            # One writer checks and creates the schema at a time: a second cardtui starting at the same
            # moment must not see a half-made catalog and take it for a foreign one.
            with _transaction(db):
                version = db.execute("PRAGMA user_version").fetchone()[0]
                app = db.execute("PRAGMA application_id").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if tables and (version, app) != (SCHEMA, APPLICATION_ID):
                    raise sqlite3.DatabaseError(f"not a cardtui catalog of schema {SCHEMA}")
                db.execute(_TABLE)
                db.execute("CREATE INDEX IF NOT EXISTS saves_folder ON saves (folder)")
                db.execute(f"PRAGMA user_version = {SCHEMA}")
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            db.close()
            raise
        return db

    def _remove(self) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(OSError):
                os.unlink(f"{self.path}{suffix}")

    # ---------------------------------------------------------------- reading

    def entries(self, folder: Path | None = None, progress: Progress | None = None, jobs: int = 1) -> Listing:
        """Every `*.json` in the folder, most recently written first; stale rows reloaded, vanished ones dropped.

        A row is checked as it is read (every column's type, the totals, the summary's shape): one that does
        not hold what this cardtui writes is rebuilt from its file like a stale one, and counted.

        `jobs` > 1 loads many stale saves in that many worker processes (spawned: the program's main
        module must be importable and guarded, as a command's is; a library caller keeps the default).
        """
        folder = (saves_dir() if folder is None else folder).absolute()
        remove_stale_locks(folder)
        on_disk, problem = _scan(folder)
        try:
            rows = self._rows(folder)
        except sqlite3.OperationalError:
            rows = {}
        except sqlite3.DatabaseError:  # damage found past the header: start again
            self.db.close()
            self._remove()
            self.db = self._open()
            rows = {}
        checked = {p: _checked(r) for p, r in rows.items()}
        damaged = {p for p, r in checked.items() if r is None}
        stale = [p for p, st in on_disk.items() if p in damaged or p not in rows or rows[p].key != _key(st)]
        fresh: dict[str, Row] = {}
        for done, (path, row) in enumerate(_load_all([(p, on_disk[p]) for p in stale], jobs), 1):
            fresh[path] = row
            if progress is not None:
                progress(done, len(stale))
        self._store(folder, fresh, [p for p in rows if p not in on_disk])
        out = []
        for path, st in on_disk.items():
            good = checked.get(path) if path not in fresh else _checked(fresh[path])
            if good is None:  # only a bug in summarising could get here: list the file as broken, not crash
                good = Checked(game_in_name(Path(path)), "", "broken", (), "cannot be summarised", None)
            info = SaveInfo(Path(path), good.game, good.updated, good.status, good.totals, good.problem, st.st_mtime)
            out.append(Entry(info, good.summary))
        # The file's own time, not the one written inside it: a save claiming year 9999 must not win.
        out.sort(key=lambda e: (e.info.modified, e.info.path.name), reverse=True)
        return Listing(out, len(damaged & on_disk.keys()), problem)

    def _rows(self, folder: Path) -> dict[str, Row]:
        if not _storable(str(folder)):
            return {}
        query = "SELECT path, size, mtime_ns, inode, game, updated, status, totals, problem, summary, digest FROM saves"
        return {
            str(path): Row((size, mtime, inode), *rest)
            for path, size, mtime, inode, *rest in self.db.execute(query + " WHERE folder = ?", (str(folder),))
        }

    def _store(self, folder: Path, fresh: dict[str, Row], gone: list[str]) -> None:
        """Write the reloaded rows and drop the vanished ones; a catalog that can't be written is only a cache."""
        if not _storable(str(folder)):
            return
        items = [(path, row) for path, row in fresh.items() if _storable(path)]
        try:
            for start in range(0, len(items), COMMIT_EVERY):
                with _transaction(self.db):
                    self.db.executemany(
                        "INSERT OR REPLACE INTO saves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [(path, str(folder), *row.key, *row[1:]) for path, row in items[start : start + COMMIT_EVERY]],
                    )
            if gone:
                with _transaction(self.db):
                    self.db.executemany("DELETE FROM saves WHERE path = ?", [(p,) for p in gone])
        except sqlite3.Error:
            pass  # busy beyond the timeout or read-only: the listing is right, the cache catches up next time


def _storable(text: str) -> bool:
    """Whether SQLite can hold `text`: a file name whose bytes are not UTF-8 (kept in Python as surrogates) can't,
    so such a save is summarised afresh at each listing instead of cached."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _ours(db: sqlite3.Connection) -> bool:
    """Is this already our catalog, of this schema, in WAL mode (readable while another process writes)?"""
    mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    app = db.execute("PRAGMA application_id").fetchone()[0]
    table = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'saves'").fetchone()[0]
    return bool(str(mode).lower() == "wal" and (version, app) == (SCHEMA, APPLICATION_ID) and table == 1)


class Checked(NamedTuple):
    """A row that holds what this cardtui writes, decoded: the listing's columns and the summary."""

    game: str
    updated: str
    status: str
    totals: tuple[int, ...]
    problem: str | None
    summary: str | None


def _checked(row: Row) -> Checked | None:
    """The row decoded, or None when any column is not what `_load` wrote (damage, a hand edit, another program):
    every column's type, the totals, and the row's digest. The summary stays text until `Entry.summary`.
    """
    if not all(isinstance(k, int) and not isinstance(k, bool) for k in row.key):
        return None
    texts = (row.game, row.updated, row.totals, row.digest)
    if not all(isinstance(t, str) for t in texts) or not isinstance(row.problem, str | None):
        return None
    if not isinstance(row.summary, str | None) or row.digest != _digest(row):
        return None
    words = row.totals.split()
    if " ".join(words) != row.totals or not all(_is_number(w) for w in words):
        return None
    totals = tuple(int(w) for w in words)
    if row.status == "broken":
        if isinstance(row.problem, str) and row.summary is None and not totals:
            return Checked(row.game, row.updated, row.status, totals, row.problem, None)
        return None
    if row.status not in ("in_progress", "finished") or row.problem is not None or row.summary is None:
        return None
    return Checked(row.game, row.updated, row.status, totals, None, row.summary)


def _is_number(word: str) -> bool:
    digits = word.removeprefix("-")
    return 0 < len(digits) <= 24 and digits.isascii() and digits.isdigit()


def _ints(value: Any, size: int | None = None, below: int | None = None) -> bool:
    """A list of ints (not bools), of `size` items when given, each in 0..below-1 when given."""
    if not isinstance(value, list) or (size is not None and len(value) != size):
        return False
    return all(isinstance(v, int) and not isinstance(v, bool) and (below is None or 0 <= v < below) for v in value)


def _summary_ok(s: Any, game: str, status: str, totals: tuple[int, ...], updated: str) -> bool:
    """Does `s` have the shape `summarise` gives, consistent with the row's own columns?"""
    if not isinstance(s, dict) or s.get("game") != game or s.get("status") != status or s.get("updated") != updated:
        return False
    if not _ints(s.get("totals")) or tuple(s["totals"]) != totals or not _timestamp(updated):
        return False
    seats = s.get("seats")
    if not isinstance(seats, list) or not seats:
        return False
    for seat in seats:
        if not isinstance(seat, dict) or not isinstance(seat.get("kind"), str):
            return False
        if not isinstance(seat.get("level"), str | None):
            return False
    n = len(seats)
    sides = s.get("sides")
    if not isinstance(sides, list) or not sides or not all(_ints(side, below=n) and side for side in sides):
        return False
    if {seat for side in sides for seat in side} != set(range(n)) or len(totals) != len(sides):
        return False
    winner = s.get("winner")
    if winner is not None and not _ints(winner, below=len(sides)):
        return False
    figures = s.get("figures")
    if not isinstance(figures, dict) or not _is_hash(s.get("content")):
        return False
    try:
        entry = find_game(game)
    except UnknownGame:
        return False
    if not entry.has_deals:
        if not _ints(s.get("points"), n):
            return False
    else:
        deals = s.get("deals")
        if not isinstance(deals, list):
            return False
        if not all(isinstance(d, dict) and _ints(d.get("scores"), len(sides)) for d in deals):
            return False
    per_seat, per_side = entry.seat_figures, entry.side_figures
    return all(_ints(figures.get(k)) and len(figures[k]) >= n for k in per_seat) and all(
        _ints(figures.get(k)) and len(figures[k]) >= len(sides) for k in per_side
    )


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _timestamp(text: str) -> bool:
    try:
        dt.date.fromisoformat(text[:10])
    except ValueError:
        return False
    return True


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE (take the write lock now, waiting up to the busy timeout) ... COMMIT, or ROLLBACK."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _scan(folder: Path) -> tuple[dict[str, os.stat_result], str | None]:
    """The folder's `*.json` paths with their status (following symlinks, as loading does; a link to nothing or
    round in a loop with its own, so it is listed as broken), and why the folder could not be read, if it could
    not (none when it is not made yet: nothing is saved)."""
    found = {}
    try:
        with os.scandir(folder) as it:
            for item in it:
                if item.name.endswith(".json"):
                    with contextlib.suppress(OSError):
                        try:
                            found[item.path] = item.stat()
                        except OSError:
                            found[item.path] = item.stat(follow_symlinks=False)
    except FileNotFoundError:
        return {}, None
    except NotADirectoryError:
        return {}, f"{folder}: is not a folder, so it holds no saves; move it away and cardtui makes the folder"
    except OSError as err:
        return {}, f"{folder}: cannot be read ({err.strerror or type(err).__name__})"
    return found, None


def _load_all(work: list[tuple[str, os.stat_result]], jobs: int) -> Iterator[tuple[str, Row]]:
    """Load stale saves, in worker processes when there are many (a first run over a big folder)."""
    if len(work) < PARALLEL_FROM or jobs < 2:
        for path, st in work:
            yield path, _load(Path(path), st)
        return
    # workers that end with this process, however it ends (a signal, SIGKILL): none is left behind reading
    with bound_pool(jobs) as pool:
        with interrupts_held():  # futures, not `map`: its cancelling on the way out races with the pool's end
            futures = [pool.submit(_load_some, work[i : i + CHUNK]) for i in range(0, len(work), CHUNK)]
        for future in futures:
            yield from future.result()


CHUNK = 16
"""Saves a worker loads at a time."""


def _load_some(work: list[tuple[str, os.stat_result]]) -> list[tuple[str, Row]]:
    return [(path, _load(Path(path), st)) for path, st in work]


def _load(path: Path, st: os.stat_result) -> Row:
    """One save's row: its summary, or the loader's reason it cannot be read."""
    try:
        summary = summarise(path).to_json()
    except SaveError as err:
        return _sealed(Row(_key(st), game_in_name(path), "", "broken", "", str(err), None))
    totals = " ".join(map(str, summary["totals"]))
    return _sealed(
        Row(_key(st), summary["game"], summary["updated"], summary["status"], totals, None, json.dumps(summary))
    )


def _digest(row: Row) -> str:
    """The hash of what a row says (its columns with their types), checked each time the row is read."""
    text = json.dumps([row.game, row.updated, row.status, row.totals, row.problem, row.summary])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _sealed(row: Row) -> Row:
    return row._replace(digest=_digest(row))


def list_entries(folder: Path | None = None, progress: Progress | None = None, jobs: int = 1) -> Listing:
    """The folder's saves through the catalog (opened and closed for this one call)."""
    with Catalog() as catalog:
        return catalog.entries(folder, progress, jobs)
