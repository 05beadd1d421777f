"""Reading and writing the files a user hands cardtui, safely: regular files only, bounded, atomic, locked.

A save or a TOML file may be a FIFO, a device, a symlink to `/dev/zero` or a
file another cardtui is writing. Reading never blocks and never reads past a
cap; writing goes through a temp file, fsync and a rename, to the symlink's
target; a save in play is held with an OS lock, which the kernel drops when
the process dies, so a killed cardtui never leaves a lock that blocks.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

MAX_BYTES = 64 * 1024 * 1024
"""Bigger saves are refused before reading: no real game comes near this (rulesets have a smaller cap)."""
LOCK_SUFFIX = ".lock"
TEMP_SUFFIX = ".tmp"
NAME_MAX = 255
"""The longest file name, in bytes, that common file systems allow."""
_TEMP_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_TEMP_RANDOM = 8
_TEMP_ROOM = 1 + _TEMP_RANDOM + len(TEMP_SUFFIX)
"""What a temp file's name adds after its stem: `.`, the random part, `.tmp`."""
MAX_PLAIN_NAME = NAME_MAX - 1 - _TEMP_ROOM
"""The longest name (bytes) whose temp and lock files are `.NAME.XXXXXXXX.tmp` and `.NAME.lock` as they are."""


class FileProblem(Exception):
    """A file that cannot be read, written or locked; the message names the file and says why."""


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def special(path: Path) -> str | None:
    """What is at `path` if it is neither a regular file, a folder nor nothing ("a device", "a named pipe (FIFO)"):
    a name a new file can't be written to and that holds nothing to open."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else _kind(mode)


def file_on_the_way(path: Path) -> Path | None:
    """The file that stands where a folder above `path` should be (`notes.txt` in `notes.txt/game.json`), or None."""
    for above in path.parents:
        try:
            if os.path.exists(above):
                return None if os.path.isdir(above) else above
        except (OSError, ValueError):
            return None
    return None


def hidden_stem(name: str, room: int) -> str:
    """`.NAME`, the start of a lock or temp file's name, leaving `room` bytes for what follows it.

    A name too long for that is cut and given a hash of the whole name, so a
    save with a long name can still be locked, written, moved and removed, and
    two long names never share a lock.
    """
    plain = f".{name}"
    if len(os.fsencode(plain)) + room <= NAME_MAX:
        return plain
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
    keep = NAME_MAX - room - len(digest) - 2
    cut = os.fsencode(name)[:keep].decode("utf-8", "ignore")
    return f".{cut}~{digest}"


def _temp_stem(path: Path) -> str:
    return hidden_stem(path.name, _TEMP_ROOM)


def _status(path: Path, verb: str, *, follow: bool) -> os.stat_result:
    """The file's `stat` (of a symlink itself unless `follow`), or a FileProblem saying why there is none."""
    try:
        return os.stat(path, follow_symlinks=follow)
    except FileNotFoundError:
        raise FileProblem(f"{path}: no such file") from None
    except OSError as err:
        raise FileProblem(f"{path}: cannot be {verb} ({_reason(err)})") from None
    except ValueError:
        raise FileProblem("not a file name: it holds a NUL character") from None


def occupied(path: Path) -> bool:
    """Whether anything (a file, a folder, a link, even a broken one) is at `path`.

    `Path.exists` raises on a name longer than the file system allows; such a
    name holds nothing, and the write that follows says why it can't be made.
    """
    return os.path.lexists(path)


def read_regular(path: Path, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; anything else is a FileProblem, at once.

    The file is checked with `stat`, opened with O_NONBLOCK (a FIFO swapped in
    meanwhile cannot block the open) and checked again on the open descriptor.
    """
    st = _status(path, "read", follow=True)
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem(f"{path}: is {_kind(st.st_mode)}, not {what}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise FileProblem(f"{path}: cannot be read ({_reason(err)})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(f"{path}: is {_kind(st.st_mode)}, not {what}")
        if st.st_size > limit:
            raise FileProblem(f"{path}: too big for {what} ({st.st_size} bytes, at most {limit})")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as err:
        raise FileProblem(f"{path}: cannot be read ({_reason(err)})") from None
    finally:
        os.close(fd)
    if got > limit:
        raise FileProblem(f"{path}: too big for {what} (over {limit} bytes)")
    return b"".join(chunks)


def resolved(path: Path) -> Path:
    """`path` made absolute with its links followed; a link round in a loop stays as it is named (absolute)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # Python 3.11 says a loop with RuntimeError, later ones with OSError
        return Path(os.path.abspath(path))


def looped(path: Path) -> bool:
    """Whether `path` is a link that leads round in a loop (one to nothing, or through others to nothing, is not)."""
    try:
        target_of(path)
    except FileProblem:
        return True
    except OSError:  # a name longer than the file system allows: no link at all
        return False
    return False


def target_of(path: Path) -> Path:
    """Where writing `path` really goes: a symlink's target (so the link stays a link), else the path; a link
    that leads round in a loop is a FileProblem."""
    path = Path(path)
    if not path.is_symlink():
        return path
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # Python 3.11 says a loop with RuntimeError, later ones with OSError
        raise FileProblem(f"{path}: a link that leads round in a loop, to no file") from None


def write_atomic(path: Path, data: bytes) -> os.stat_result:
    """Replace `path` with `data` so that a crash leaves either the old file or the new one, never a mix.

    Temp file in the same folder, write + fsync, `os.replace` onto the
    symlink's target, then fsync the folder so the rename survives a power
    cut. Returns the new file's status (for `same_file` checks later).
    """
    path = target_of(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG  # nothing there yet: the write makes it
    except OSError as err:
        raise FileProblem(f"{path}: cannot write ({_reason(err)})") from None
    if not stat.S_ISREG(mode):  # a device, a FIFO, a folder: never replaced by a file, whatever --force says
        raise FileProblem(f"{path}: is {_kind(mode)}, not a file to write")
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = _new_temp(path, folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
            os.fchmod(fd, 0o644)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        written = os.stat(path)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise FileProblem(f"{path}: cannot write ({_reason(err)})") from None
    _fsync_folder(folder)
    return written


def _new_temp(path: Path, folder: Path) -> tuple[int, Path]:
    """A new, empty temp file beside `path` named `STEM.XXXXXXXX.tmp`: exactly what `remove_stale_temps` matches."""
    stem = _temp_stem(path)
    for _ in range(100):
        random_part = "".join(secrets.choice(_TEMP_CHARS) for _ in range(_TEMP_RANDOM))
        tmp = folder / f"{stem}.{random_part}{TEMP_SUFFIX}"
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            continue
        except OSError as err:
            raise FileProblem(f"{path}: cannot write in {folder} ({_reason(err)})") from None
        return fd, tmp
    raise FileProblem(f"{path}: cannot write in {folder} (no free temporary file name)")


def _fsync_folder(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is still atomic
    finally:
        os.close(dfd)


def same_file(before: os.stat_result, path: Path) -> bool:
    """Is `path` still the very file whose status was `before` (not replaced or rewritten since)?"""
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) == (
        before.st_dev,
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )


def remove_stale_temps(path: Path) -> None:
    """Delete temp files a killed writer of `path` left behind; call only while holding its lock."""
    path = Path(path)
    stem = _temp_stem(path) + "."
    folder = path.parent if str(path.parent) else Path(".")
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it]
    except OSError:
        return
    for name in names:
        if _is_temp_of(name, stem):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)


def _is_temp_of(name: str, stem: str) -> bool:
    """Is `name` exactly STEM, a random part (letters, digits, `_`), `.tmp`? The name is text, not a pattern."""
    if not (name.startswith(stem) and name.endswith(TEMP_SUFFIX)):
        return False
    middle = name[len(stem) : len(name) - len(TEMP_SUFFIX)]
    return bool(middle) and all(c in _TEMP_CHARS for c in middle)


def remove_stale_locks(folder: Path) -> None:
    """Delete the lock files in `folder` that no cardtui holds (a killed one leaves its lock file behind).

    Only empty regular `.*.lock` files are touched, each only while this
    process holds its lock, so a lock in use is never removed, and an opener
    that raced with the removal locks a fresh file (`FileLock.acquire` checks).
    """
    import fcntl

    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it if e.name.startswith(".") and e.name.endswith(LOCK_SUFFIX)]
    except OSError:
        return
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    for name in names:
        lock_path = folder / name
        try:
            fd = os.open(lock_path, flags)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and st.st_size == 0:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if _same_inode(fd, lock_path):
                    os.unlink(lock_path)
        except OSError:
            pass  # held by a running cardtui: left alone
        finally:
            os.close(fd)


@contextlib.contextmanager
def _held(path: Path, verb: str) -> Iterator[Path | None]:
    """A file (or symlink, never a folder) under its lock, so no cardtui writes it while it is removed or moved;
    yields the file the link leads to, whose stale temps go with it. A link round in a loop leads to no file any
    cardtui could have open, so it is taken as it is (None)."""
    if looped(path):
        yield None
        return
    lock = FileLock(path)
    lock.acquire()
    try:
        st = _status(path, verb, follow=False)
        if stat.S_ISDIR(st.st_mode):
            raise FileProblem(f"{path}: is a folder, not a file")
        yield lock.target
    finally:
        lock.release()


def remove_file(path: Path) -> None:
    """Delete a file nobody has open for writing: its lock is taken first (refused if another cardtui holds it).

    A symlink is removed itself (its target stays); the lock file and any temp
    files a killed writer left go with it.
    """
    path = Path(path)
    with _held(path, "removed") as target:
        try:
            os.unlink(path)
        except OSError as err:
            raise FileProblem(f"{path}: cannot be removed ({_reason(err)})") from None
        if target is not None:
            remove_stale_temps(target)
        _fsync_folder(path.parent)


def move_into(path: Path, folder: Path) -> Path:
    """Move a file nobody has open for writing into `folder` (made if missing) and return its new path.

    The move is a rename, so it is atomic and never copies; a name already
    taken there gets `-2`, `-3`, ... before its extension: nothing is overwritten.
    """
    path = Path(path)
    with _held(path, "moved") as target:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise FileProblem(f"{folder}: cannot create the folder ({_reason(err)})") from None
        moved = _rename_new(path, folder)
        if target is not None:
            remove_stale_temps(target)
        _fsync_folder(folder)
        _fsync_folder(path.parent)
        return moved


def _rename_new(path: Path, folder: Path, tries: int = 10_000) -> Path:
    """Rename `path` into `folder` under its own name or the first free `NAME-N.EXT`, never replacing a file.

    A hard link claims the new name atomically (it fails if the name exists);
    where links are not allowed, a checked rename is used instead.
    """
    stem, suffix = path.stem, path.suffix
    for n in range(1, tries):
        target = folder / (path.name if n == 1 else f"{stem}-{n}{suffix}")
        try:
            os.link(path, target, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError as err:
            if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV):
                raise FileProblem(f"{path}: cannot be moved to {folder} ({_reason(err)})") from None
            if os.path.lexists(target):
                continue
            try:
                os.rename(path, target)
            except OSError as err2:
                raise FileProblem(f"{path}: cannot be moved to {folder} ({_reason(err2)})") from None
            return target
        try:
            os.unlink(path)
        except OSError as err:
            with contextlib.suppress(OSError):
                os.unlink(target)
            raise FileProblem(f"{path}: cannot be moved ({_reason(err)})") from None
        return target
    raise FileProblem(f"{folder}: too many files named {path.name}")


class FileLock:
    """One writer per file: an exclusive OS lock (`flock`) on a hidden `.NAME.lock` beside it (a long NAME hashed).

    The lock is taken without waiting (a second opener is refused at once) and
    the kernel drops it when the holder's process ends, even by `kill -9`, so
    a lock is never stale. The lock file is removed on release; `acquire`
    checks it locked the file still in place, not one just removed.
    """

    def __init__(self, path: Path) -> None:
        path = target_of(path)
        self.path = path.parent / f"{hidden_stem(path.name, len(LOCK_SUFFIX))}{LOCK_SUFFIX}"
        self.target = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise FileProblem saying the file is open elsewhere."""
        import fcntl

        if self._fd is not None:
            return
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except OSError as err:
                raise self._cannot_open(err) from None
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):  # a FIFO opens for reading and writing: locked, it would be removed on release
                os.close(fd)
                raise self._not_a_lock_file(_kind(mode))
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as err:
                os.close(fd)
                if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise FileProblem(
                        f"{self.target}: the game is open in another cardtui; close it there first"
                    ) from None
                raise FileProblem(f"{self.target}: cannot lock ({_reason(err)})") from None
            if _same_inode(fd, self.path):
                self._fd = fd
                return
            os.close(fd)  # the holder removed the lock file as we opened it: lock the new one

    def _cannot_open(self, err: OSError) -> FileProblem:
        """Why the lock file can't be opened: the folder refuses a new file, or something not a lock file (a
        folder, a link, a file of another user) already has its name, left there by hand or by a damaged disk."""
        try:
            mode = os.lstat(self.path).st_mode
        except OSError:
            return FileProblem(f"{self.target}: cannot write in {self.path.parent} ({_reason(err)})")
        if stat.S_ISREG(mode):
            return FileProblem(
                f"{self.target}: its lock file {self.path.name} cannot be opened ({_reason(err)}); "
                "remove it if no cardtui has the game open"
            )
        return self._not_a_lock_file("a link" if stat.S_ISLNK(mode) else _kind(mode))

    def _not_a_lock_file(self, kind: str) -> FileProblem:
        return FileProblem(
            f"{self.target}: its lock file {self.path.name} is {kind}, not the plain file cardtui keeps there; "
            "remove it if no cardtui has the game open"
        )

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # a lock dropped with its session; the kernel does it anyway
            self.release()

    def release(self) -> None:
        """Remove the lock file and drop the lock (in that order, so nobody locks a removed file)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(fd)


def _same_inode(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    opened = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (opened.st_dev, opened.st_ino)
