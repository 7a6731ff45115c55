"""Memory cgroups for sandboxed bots (docs/security.md, The sandbox).

RLIMIT_DATA does not count shared memory: a memfd or an anonymous mapping made shared, /dev/shm,
SysV shm and tmpfs files cost the machine as much as a heap but pass any rlimit, and then the
kernel's out-of-memory killer chooses among all processes, the referee's too. The kernel charges
such pages to the memory cgroup of the process that touches them, so each sandboxed bot gets a
cgroup of its own whose limit is its ``memory_mb``: every process of the bot and every page it
touches count, and the out-of-memory killer, when the bot passes the limit, kills in that cgroup
alone.

Where: the runner's own memory cgroup (/proc/self/cgroup), on cgroup v1's memory hierarchy or on
cgroup v2 where the memory controller is delegated to it; without one (a non-root runner without
a delegated cgroup) shared memory is not bounded, and the runner says so. In its cgroup each
runner makes a group of its own, ``mizerka-runner-...``, locked (flock) for as long as it lives,
with a cgroup per bot process in it. A runner killed with kill -9 leaves its group behind (its bots
die with it): the next runner removes the groups nobody holds the lock on, as
tournaments/sandbox/socket_folders.py does for socket folders. On cgroup v2 a cgroup that holds processes
cannot pass its controllers on: the runner first moves its cgroup's processes (itself, the referee
it started) into a leaf, ``mizerka-leaf``.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import itertools
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

RUNNER_PREFIX = "mizerka-runner-"  # a runner's group, locked while it lives
LEAF = "mizerka-leaf"  # cgroup v2: where the runner moves itself so that its cgroup may pass the memory controller on
MEMORY = "memory"


@dataclass(frozen=True, slots=True)
class Hierarchy:
    """The runner's memory cgroup on this host."""

    version: int  # 1 or 2
    path: Path


def find_hierarchy(cgroups: str, mountinfo: str) -> Hierarchy | str:
    """The memory cgroup of the process whose /proc/PID/cgroup and /proc/PID/mountinfo these are
    (cgroup v1's memory hierarchy if there is one, else v2's), or why there is none."""
    v1 = next((p for _, names, p in _lines(cgroups) if MEMORY in names.split(",")), None)
    v2 = next((p for hid, names, p in _lines(cgroups) if hid == "0" and not names), None)
    for fields in (line.split() for line in mountinfo.splitlines()):
        if "-" not in fields:
            continue
        rest = fields[fields.index("-") + 1:]
        fstype, options = rest[0], rest[2].split(",") if len(rest) > 2 else []
        if fstype == "cgroup" and MEMORY in options and v1 is not None:
            return Hierarchy(1, _inside(Path(fields[4]), fields[3], v1))
        if fstype == "cgroup2" and v2 is not None and v1 is None:
            path = _inside(Path(fields[4]), fields[3], v2)
            with contextlib.suppress(OSError):
                if MEMORY in (path / "cgroup.controllers").read_text().split():
                    return Hierarchy(2, path)
            return f"the memory controller is not delegated to the runner's cgroup ({path})"
    return "no memory cgroup is mounted"


def _lines(cgroups: str) -> list[tuple[str, str, str]]:
    """/proc/PID/cgroup's lines: hierarchy id, controllers, path."""
    return [(hid, names, path) for hid, names, path in (line.split(":", 2) for line in cgroups.splitlines() if line.count(":") >= 2)]


def _inside(mount: Path, root: str, path: str) -> Path:
    """Where ``path`` (a cgroup, as /proc/PID/cgroup names it) is, given its hierarchy mounted at
    ``mount`` from ``root``."""
    relative = Path(path).relative_to(root) if Path(root) in (Path(path), *Path(path).parents) else Path(path.lstrip("/"))
    return mount / relative


@dataclass(slots=True)
class BotCgroup:
    """One bot process's cgroup: its memory limit covers every process of the bot and every page it touches."""

    path: Path
    version: int

    def enter(self) -> None:
        """In the forked child, before it runs anything: move it in (its children follow)."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def oom_kills(self) -> int:
        """How many of its processes the out-of-memory killer killed (0 if its cgroup is gone)."""
        events = "memory.oom_control" if self.version == 1 else "memory.events"
        with contextlib.suppress(OSError, ValueError):
            for line in (self.path / events).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return 0

    def remove(self) -> None:
        """Remove the cgroup (once its processes are gone; what is left, its runner's group removes at exit)."""
        with contextlib.suppress(OSError):
            self.path.rmdir()


@dataclass(slots=True)
class RunnerGroup:
    """This runner's group, where its bots' cgroups are made, locked while it lives."""

    hierarchy: Hierarchy
    path: Path
    lock: int
    numbers: itertools.count[int] = field(default_factory=itertools.count)

    def bot(self, memory_mb: int) -> BotCgroup:
        """A new cgroup of ``memory_mb`` MiB, swap included (OSError if it cannot be made)."""
        cgroup = BotCgroup(self.path / f"bot-{next(self.numbers)}", self.hierarchy.version)
        cgroup.path.mkdir()
        limit = str(memory_mb * 2**20)
        if cgroup.version == 1:  # memory first: memory + swap may never be below it
            settings = {"memory.limit_in_bytes": limit, "memory.memsw.limit_in_bytes": limit}
        else:  # no swap at all, and the whole bot killed at once when it passes the limit
            settings = {"memory.max": limit, "memory.swap.max": "0", "memory.oom.group": "1"}
        try:
            for name, value in settings.items():
                if name in ("memory.limit_in_bytes", "memory.max") or (cgroup.path / name).exists():
                    (cgroup.path / name).write_text(value)
        except OSError:
            cgroup.remove()
            raise
        return cgroup

    def close(self) -> None:
        """Remove the group and what its bots left (at exit)."""
        _remove_group(self.path)
        os.close(self.lock)


def _remove_group(group: Path) -> None:
    """Remove a runner's group and its bots' cgroups, those that no longer hold processes."""
    with contextlib.suppress(OSError):
        for child in group.iterdir():
            if child.is_dir():
                with contextlib.suppress(OSError):
                    child.rmdir()
        group.rmdir()


def remove_stale_groups(parent: Path) -> list[Path]:
    """Remove the runners' groups in ``parent`` that no process holds the lock on (their runners
    were killed); returns them."""
    removed = []
    for group in parent.glob(RUNNER_PREFIX + "*"):
        try:
            lock = os.open(group, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:  # gone
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # its runner runs
            continue
        else:
            _remove_group(group)
            removed.append(group)
        finally:
            os.close(lock)
    return removed


def _delegate(path: Path) -> None:
    """cgroup v2: let ``path``, the runner's cgroup, pass the memory controller on to its children.
    It may hold no processes to do so: its processes (the runner's: it was delegated to the runner,
    and the referee it started) move into a leaf first."""
    if MEMORY in (path / "cgroup.subtree_control").read_text().split():
        return
    leaf = path / LEAF
    leaf.mkdir(exist_ok=True)
    for pid in (path / "cgroup.procs").read_text().split():
        with contextlib.suppress(ProcessLookupError):  # ended meanwhile
            (leaf / "cgroup.procs").write_text(pid)
    (path / "cgroup.subtree_control").write_text(f"+{MEMORY}")


def make_runner_group(hierarchy: Hierarchy) -> RunnerGroup:
    """This runner's group in ``hierarchy`` (stale ones removed first); OSError if it cannot be made."""
    if hierarchy.version == 2:
        _delegate(hierarchy.path)
    remove_stale_groups(hierarchy.path)
    while True:
        path = hierarchy.path / f"{RUNNER_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        path.mkdir()
        lock = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        fcntl.flock(lock, fcntl.LOCK_EX)
        with contextlib.suppress(OSError):  # still ours, not removed by another runner's sweep before we locked it
            if os.stat(path).st_ino == os.fstat(lock).st_ino:
                break
        os.close(lock)
    if hierarchy.version == 2:
        (path / "cgroup.subtree_control").write_text(f"+{MEMORY}")
    return RunnerGroup(hierarchy, path, lock)


@functools.cache
def runner_group() -> RunnerGroup | str:
    """This process's group for its bots' memory cgroups (made once, removed at exit), or why
    there is none here."""
    try:
        found = find_hierarchy(Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text())
    except OSError as e:
        return f"cannot read this process's cgroups ({e})"
    if isinstance(found, str):
        return found
    try:
        group = make_runner_group(found)
    except OSError as e:
        return f"cannot make cgroups in {found.path} ({e.strerror or e})"
    atexit.register(group.close)
    return group
