"""structlog setup: readable console lines in a terminal, JSON lines with ``--log-format json``; a
rate limit for lines that clients can provoke; private files for what holds secrets.

Logs, databases and token files hold tokens, seeds and hands, so they are created for their user
alone: files 0600, the folders the project makes 0700 (docs/leagues.md, Secrets).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import IO, Any, Literal

import structlog

LogFormat = Literal["auto", "console", "json"]


def configure_logging(fmt: LogFormat = "auto", level: str = "info") -> None:
    if fmt == "auto":
        fmt = "console" if sys.stderr.isatty() else "json"
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping()[level.upper()]),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


class RateLimitedLog:
    """Warnings that a hostile client can trigger at will (refused streams, failed logins): at most
    one line per key (e.g. what was refused and the peer's address) every ``every_s`` seconds; the
    next line that gets through says how many were ``suppressed`` since the last one. At most
    ``max_keys`` keys are remembered (the least recent are forgotten), so a crowd of peers cannot
    grow it without bound either. ``clock`` is injectable for tests."""

    def __init__(self, log: Any, every_s: float = 10.0, max_keys: int = 4096,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.every_s = every_s
        self.max_keys = max_keys
        self.clock = clock
        self._seen: OrderedDict[Hashable, tuple[float, int]] = OrderedDict()  # key -> (last line at, suppressed since)

    def warning(self, key: Hashable, event: str, **fields: Any) -> bool:
        """Log ``event`` unless a line for ``key`` went out less than ``every_s`` ago; True if logged."""
        now = self.clock()
        seen = self._seen.get(key)
        self._seen[key] = (seen[0], seen[1] + 1) if seen is not None and now - seen[0] < self.every_s else (now, 0)
        self._seen.move_to_end(key)  # the least recently seen keys are forgotten first
        if self._seen[key][1]:
            return False
        while len(self._seen) > self.max_keys:
            self._seen.popitem(last=False)
        self.log.warning(event, suppressed=seen[1] if seen is not None else 0, **fields)
        return True


def peer_host(peer: str) -> str:
    """A gRPC peer without its port ('ipv4:10.0.0.7:51234' -> 'ipv4:10.0.0.7'): one host's many
    connections share one rate limit."""
    if peer.startswith(("ipv4:", "ipv6:")) and peer.count(":") >= 2:
        return peer.rsplit(":", 1)[0]
    return peer


# ------------------------------------------------------------------------------- private files
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
