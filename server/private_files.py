"""Private files for what holds secrets. Logs, databases and token files hold tokens, seeds and
hands, so they are created for their user alone: files 0600, the folders the project makes 0700
(docs/leagues.md, Secrets). Apart from the logging setup, so that opening a database needs no
structlog."""

from __future__ import annotations

import contextlib
import os
import stat
import time
from pathlib import Path
from typing import IO, Any

PRIVATE = 0o077  # the permission bits no one but the file's user gets


def private_umask() -> int:
    """From now on this process and its children create files for their user alone (group and
    others masked off), whatever else creates them (SQLite's -wal/-shm, a log, a ready file);
    returns the previous umask."""
    old = os.umask(PRIVATE)
    os.umask(old | PRIVATE)
    return old


def private_dir(path: Path) -> Path:
    """``mkdir -p`` with every folder it creates 0700; folders that exist are left as they are (a
    shared ``data/`` is the user's choice)."""
    missing = []
    at = path
    while not at.exists():
        missing.append(at)
        if at.parent == at:
            break
        at = at.parent
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
        with contextlib.suppress(PermissionError):
            folder.chmod(0o700)  # mkdir's mode passes through the umask; this does not
    return path


def _tighten(file: int | Path) -> None:
    """Take group and other permissions off a file, open or by name (one of someone else's is left alone)."""
    mode = stat.S_IMODE(os.stat(file).st_mode)
    if mode & PRIVATE:
        with contextlib.suppress(PermissionError):
            os.chmod(file, mode & ~PRIVATE)


def _private_opener(path: str, flags: int) -> int:
    fd = os.open(path, flags, 0o600)
    _tighten(fd)
    return fd


def open_private(path: Path, mode: str = "ab") -> IO[Any]:
    """``open(path, mode)``, a new file created 0600 and an older one tightened to its user alone."""
    return open(path, mode, opener=_private_opener)


def private_file(path: Path) -> None:
    """Make sure ``path`` exists for its user alone: created 0600 if missing, else tightened. SQLite
    gives a database's -wal and -shm files the database's own mode, so tightening the database
    before SQLite opens it covers them too (those of an older run are tightened here as well).
    A file that exists is tightened by name, never opened: closing a descriptor of a file drops
    every lock this process holds on it (POSIX), and SQLite's connections of this process to it (a
    second Store of one file: a referee and its web page's board) would lose theirs: another process
    could write at the same time as they, and they would read an old state."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for file in (path, *(Path(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(FileNotFoundError):
            _tighten(file)


def private_secret(path: Path, new: str) -> tuple[str, bool]:
    """The secret kept in ``path`` (its first line), else ``new`` written there 0600 from the start
    (never world-readable, not even for a moment); returns it and whether it was created."""
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another process may be writing it this instant
            with open_private(path, "r") as f:
                text = f.read().strip()
            if text:
                return text, False
            time.sleep(0.02)
        raise ValueError(f"{path} is empty: delete it, or put the token in it") from None
    with os.fdopen(fd, "w") as f:
        f.write(new + "\n")
    return new, True
