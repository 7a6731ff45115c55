"""Bot programs in the sandbox (tournaments/sandbox/bwrap.py, docs/security.md), tested the way a hostile bot
author would: real `mizerka league run`s of tiny leagues (mizerka-short, three bots, three games)
in which one bot, written here with the SDK, tries to read the league's database and the other
bots' files, to reach a listener on 127.0.0.1, to write outside its folder, to fork-bomb, to
allocate 8 GiB, to spin on every core and to take 600 MiB of shared memory past a 256 MiB limit.
It reports what it managed in its own scratch folder; every attempt fails or is contained, the
league completes, and the crashes say which limit.

Needs bubblewrap (`bwrap`; .ci/run installs it): without it the league tests are skipped, saying
why, and the test of a league that requires the sandbox checks the refusal instead. The shared
memory tests need a memory cgroup (tournaments/sandbox/cgroups.py): without one they are skipped, saying
why, except in CI as root, where there must be one."""

from __future__ import annotations

import ctypes
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tournaments.config import LeagueError, parse_league
from tournaments.sandbox.bwrap import Sandbox, check_folders, command_folders, exit_reason, kill_sandbox, scratch_folder, tools
from tournaments.sandbox.cgroups import RUNNER_PREFIX, Hierarchy, find_hierarchy, remove_stale_groups, runner_group
from tournaments.sandbox.settings import Limits, SandboxError, SandboxMode

from harness import need_sandbox, referee
from installs import ROOT, build_wheels, copy_installed, pip
from needs import missing

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
FRIEND_SECRET = "the-friend-bot's-opening-book-7f3a"

HOSTILE = """\
import hashlib, json, os, socket, sys, threading, time, traceback
from pathlib import Path

import mizerka

targets = json.loads(os.environ["TARGETS"])
home = Path(os.environ["HOME"])
report = json.loads((home / "report.json").read_text()) if (home / "report.json").exists() else {}  # of earlier starts
report.update(server=os.environ["MIZERKA_SERVER"], uid=os.getuid(), oom_score=Path("/proc/self/oom_score_adj").read_text().strip())


def attempt(name, action):
    try:
        report[name] = "done: " + repr(action())[:80]
    except BaseException as e:
        report[name] = f"failed: {type(e).__name__}: {e}"
    (home / "report.json").write_text(json.dumps(report))


if os.environ["MODE"] == "snoop":
    for name in ("database", "admin_token", "league_file", "referee_log", "friend_log", "friend_secret", "friend_scratch"):
        attempt("read " + name, lambda path=targets[name]: Path(path).read_bytes()[:16])
    attempt("list data", lambda: os.listdir(targets["data"]))
    attempt("tcp", lambda: socket.create_connection(("127.0.0.1", targets["port"]), timeout=5).close())
    for name in ("own_folder", "data", "logs", "outside"):
        attempt("write " + name, lambda path=targets[name]: (Path(path) / "planted.txt").write_text("x"))
    attempt("write home", lambda: (home / "mine.txt").write_text("mine"))
    attempt("processes", lambda: sorted(
        (p / "cmdline").read_bytes().decode(errors="replace") for p in Path("/proc").iterdir() if p.name.isdigit()))
    sys.exit(mizerka.main(["random"]))

start = home / "starts"
starts = int(start.read_text()) + 1 if start.exists() else 1
start.write_text(str(starts))

if os.environ["MODE"] == "shm" and starts <= 2:  # 600 MiB no rlimit counts: a memfd mapped shared, then mmap(-1)
    import mmap
    size = 600 * 2**20
    if starts == 1:
        fd = os.memfd_create("hog")
        os.ftruncate(fd, size)
        shared = mmap.mmap(fd, size)
    else:
        shared = mmap.mmap(-1, size)  # MAP_SHARED | MAP_ANONYMOUS
    for at in range(0, size, 2**20):
        shared[at:at + 2**20] = b"x" * 2**20
    report[f"shm {starts}"] = "touched 600 MiB"
    (home / "report.json").write_text(json.dumps(report))
if os.environ["MODE"] == "shm":
    sys.exit(mizerka.main(["random"]))


def fail(name, what):
    report[name] = f"failed: {what}"
    (home / "report.json").write_text(json.dumps(report))
    traceback.print_exc()
    os._exit(1)


if starts == 1:  # a fork bomb (before gRPC starts threads): every process forks, and holds its place when it cannot
    main, forked = os.getpid(), 0
    try:
        while True:
            if os.fork() == 0:
                forked = 0
            else:
                forked += 1
    except BlockingIOError as e:
        if os.getpid() != main:
            time.sleep(120)
        fail("fork", f"BlockingIOError after {forked} forks: {e}")
if starts == 2:
    try:
        report["alloc"] = len(bytearray(8 * 2**30))
    except MemoryError as e:
        fail("alloc", f"MemoryError {e}")


class Hostile(mizerka.Bot):
    def decide(self, turn):  # at its first decision, so that the game waits on it: spin on every core
        data = b"x" * 2**24  # hashing a big buffer lets go of the GIL: each thread spins on a core of its own
        for _ in range(os.cpu_count() or 2):
            threading.Thread(target=lambda: [hashlib.sha256(data).digest() for _ in iter(int, 1)], daemon=True).start()
        report["spin"] = f"{os.cpu_count()} threads spinning"
        (home / "report.json").write_text(json.dumps(report))
        time.sleep(600)


sys.exit(mizerka.run(Hostile))
"""

FRIEND = """\
import sys
import mizerka
sys.exit(mizerka.main(["heuristic"]))
"""


def hostile_league(tmp: Path, mode: str, targets: dict[str, object], extra: str = "", hostile_limits: str = "",
                   seat_timeout_s: int = 2) -> Path:
    """A league of the hostile bot, a friend (a bot in a folder of its own with a secret) and `mizerka-bot random`."""
    for name, text in (("hostile", HOSTILE), ("friend", FRIEND)):
        (tmp / name).mkdir(exist_ok=True)
        (tmp / name / "bot.py").write_text(text)
    (tmp / "friend" / "secret.txt").write_text(FRIEND_SECRET)
    lines = ['name = "h"', 'preset = "mizerka-short"', 'seed = "hostile"', f'data = "{tmp / "data"}"', f"seat_timeout_s = {seat_timeout_s}",
             "startup_timeout_s = 30", extra, "[clock]", "decision_ms = 5000", "bank_ms = 30000",
             "[[bots]]", 'name = "hostile"', f"command = {json.dumps([sys.executable, str(tmp / 'hostile' / 'bot.py')])}",
             f"env = {{ MODE = {json.dumps(mode)}, TARGETS = {json.dumps(json.dumps(targets))} }}", hostile_limits,
             "[[bots]]", 'name = "friend"', f"command = {json.dumps([sys.executable, str(tmp / 'friend' / 'bot.py')])}",
             "[[bots]]", 'name = "random"', 'command = ["mizerka-bot", "random", "--seed", "3"]']
    path = tmp / "h.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@dataclass(frozen=True)
class LeagueRun:
    """A finished ``mizerka league run``: its output, and its process id (its cgroups carry it)."""

    returncode: int
    stdout: str
    stderr: str
    pid: int


def run_league(path: Path, env: dict[str, str] | None = None) -> LeagueRun:
    with subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env) as league:
        try:
            stdout, stderr = league.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            league.kill()
            raise
    return LeagueRun(league.returncode, stdout, stderr, league.pid)


def standings(path: Path) -> dict[str, dict[str, object]]:
    done = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True, check=True)
    table = json.loads(done.stdout)
    assert table["games"] == 3, table
    return {line["name"]: line for line in table["bots"]}


HOG = """\
import ctypes, mmap, os, sys
size = 600 * 2**20
if sys.argv[1] == "memfd":
    fd = os.memfd_create("hog")
    os.ftruncate(fd, size)
    shared = memoryview(mmap.mmap(fd, size))
elif sys.argv[1] == "anonymous":
    shared = memoryview(mmap.mmap(-1, size))  # MAP_SHARED | MAP_ANONYMOUS
else:  # SysV shared memory
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    shared = memoryview((ctypes.c_char * size).from_address(libc.shmat(libc.shmget(0, ctypes.c_size_t(size), 0o1600), None, 0))).cast("B")
for at in range(0, size, 2**20):
    shared[at:at + 2**20] = b"x" * 2**20
print("touched 600 MiB", flush=True)
"""


def need_memory_cgroup() -> None:
    """Skip, saying why, where the runner can make no memory cgroup (not root, nothing delegated);
    CI runs as root on hosts that have one, with MIZERKA_REQUIRE_ALL: there a missing cgroup fails."""
    need_sandbox()
    found = runner_group()
    if isinstance(found, str):
        missing(f"no memory cgroup for the sandbox here: {found}")


def sandbox_processes(marker: str) -> list[str]:
    """Command lines of live processes that mention ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if marker in cmdline:
                found.append(cmdline)
    return found


def test_a_hostile_bot_sees_no_secret_no_network_and_writes_only_its_own_folder(tmp_path: Path) -> None:
    need_sandbox()
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o777)  # not the file mode: the sandbox is what keeps it out
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    data = tmp_path / "data"
    targets = {
        "database": str(data / "league.sqlite"), "admin_token": str(data / "league.sqlite.admin-token"),
        "league_file": str(tmp_path / "h.toml"), "referee_log": str(data / "logs" / "referee.log"),
        "friend_log": str(data / "logs" / "friend.log"), "friend_secret": str(tmp_path / "friend" / "secret.txt"),
        "friend_scratch": str(data / "sandbox" / "friend" / "x"), "data": str(data), "logs": str(data / "logs"),
        "own_folder": str(tmp_path / "hostile"), "outside": str(outside), "port": listener.getsockname()[1],
    }
    path = hostile_league(tmp_path, "snoop", targets)
    try:
        run = run_league(path)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked
    finally:
        listener.close()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "bots run in a sandbox (bubblewrap): no network but the referee" in run.stdout
    report = json.loads((data / "sandbox" / "hostile" / "report.json").read_text())
    for name in ("database", "admin_token", "league_file", "referee_log", "friend_log", "friend_secret", "friend_scratch"):
        assert report["read " + name].startswith("failed: FileNotFoundError"), (name, report)
    assert report["list data"] == "done: ['sandbox']", report  # only the way to its own scratch folder
    assert report["tcp"].startswith("failed: ConnectionRefusedError"), report  # a loopback of its own, empty
    for name in ("own_folder", "data", "logs", "outside"):
        assert report["write " + name].startswith("failed:"), (name, report)
    assert report["write home"].startswith("done") and (data / "sandbox" / "hostile" / "mine.txt").read_text() == "mine"
    assert not list(outside.iterdir()) and not (tmp_path / "hostile" / "planted.txt").exists()
    assert not (data / "planted.txt").exists() and not (data / "logs" / "planted.txt").exists()
    processes = report["processes"]
    assert "serve" not in processes and FRIEND_SECRET not in processes and "friend" not in processes, processes
    assert report["server"] == "unix:/run/mizerka/referee.sock" and report["uid"] != 0, report
    assert report["oom_score"] == "1000", report  # the out-of-memory killer's first choice, not the referee
    table = standings(path)
    assert all(line["crashes"] == 0 and line["games"] == 3 for line in table.values()), table


def test_fork_bomb_8_gib_and_spinning_on_every_core_are_contained_and_charged_to_the_bot(tmp_path: Path) -> None:
    need_sandbox()
    path = hostile_league(tmp_path, "bombs", {}, seat_timeout_s=30, extra="max_crashes = 3\n[sandbox]\ncpu_s = 600\nmemory_mb = 1024",
                          hostile_limits="sandbox = { processes = 32, memory_mb = 256, cpu_s = 3 }")
    run = run_league(path)
    assert run.returncode == 0, run.stdout + run.stderr
    log = (tmp_path / "data" / "logs" / "hostile.log").read_text()
    crashes = [line for line in log.splitlines() if line.startswith("[mizerka] the bot's process")]
    assert len(crashes) == 3, log[-3000:]
    assert "exited with code 1: process limit 32 (its log: BlockingIOError: [Errno 11]" in crashes[0], crashes
    assert "exited with code 1: memory limit 256 MiB (its log: MemoryError" in crashes[1], crashes
    assert crashes[2] == "[mizerka] the bot's process killed by SIGXCPU: CPU time limit 3 s", crashes
    disabled = sqlite3.connect(tmp_path / "data" / "league.sqlite").execute(
        "select disabled from league_bots where name = 'hostile'").fetchone()[0]
    assert disabled == "disabled after 3 crashes (last: killed by SIGXCPU: CPU time limit 3 s); its remaining games are forfeits"
    assert "bot hostile disabled after 3 crashes" in run.stdout
    report = json.loads((tmp_path / "data" / "sandbox" / "hostile" / "report.json").read_text())
    forks = int(report["fork"].split()[3])
    assert 0 < forks < 32, report
    assert report["alloc"].startswith("failed: MemoryError") and "threads spinning" in report["spin"], report
    assert not sandbox_processes(str(tmp_path / "hostile")), "a bomb outlived its sandbox"
    table = standings(path)
    assert table["hostile"]["crashes"] == 3 and table["hostile"]["disabled"], table
    for other in ("friend", "random"):  # the other seats played every game, untouched
        assert table[other]["crashes"] == 0 and table[other]["games"] == 3, table
        assert all(count == 0 for count in table[other]["faults"].values()), table


def test_shared_memory_past_the_limit_kills_the_bot_in_its_cgroup_and_spares_the_referee_and_the_others(tmp_path: Path) -> None:
    need_memory_cgroup()
    path = hostile_league(tmp_path, "shm", {}, seat_timeout_s=30, extra="max_crashes = 3",
                          hostile_limits="sandbox = { memory_mb = 256 }")
    run = run_league(path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "memory per bot in a cgroup of its own, shared memory included" in run.stdout
    assert "the referee exited" not in run.stdout
    log = (tmp_path / "data" / "logs" / "hostile.log").read_text()
    crashes = [line for line in log.splitlines() if line.startswith("[mizerka] the bot's process")]
    killed = "[mizerka] the bot's process killed by SIGKILL: memory limit 256 MiB (the out-of-memory killer, in its cgroup)"
    assert crashes == [killed, killed], log[-3000:]
    home = tmp_path / "data" / "sandbox" / "hostile"
    assert (home / "starts").read_text() == "3" and not (home / "report.json").exists()  # neither hog got its 600 MiB
    table = standings(path)
    assert table["hostile"]["crashes"] == 2 and not table["hostile"]["disabled"], table  # its third start played
    for other in ("friend", "random"):
        assert table[other]["crashes"] == 0 and table[other]["games"] == 3, table
        assert all(count == 0 for count in table[other]["faults"].values()), table
    parent = runner_group()
    assert not isinstance(parent, str)
    # this league's runner group only: the other tests running beside this one have groups of their own
    assert not list(parent.hierarchy.path.glob(f"{RUNNER_PREFIX}{run.pid}-*")), "the league's cgroups outlived it"


@pytest.mark.parametrize("way", ["memfd", "anonymous", "sysv"])
def test_mizerka_bot_sandbox_kills_a_shared_memory_hog_at_the_memory_limit(tmp_path: Path, way: str) -> None:
    need_memory_cgroup()
    (tmp_path / "hog").mkdir()
    (tmp_path / "hog" / "hog.py").write_text(HOG)
    done = subprocess.run([MIZERKA, "bot", "sandbox", "--memory-mb", "256", "--", sys.executable, str(tmp_path / "hog" / "hog.py"), way],
                          capture_output=True, text=True, timeout=120)
    assert "touched" not in done.stdout and done.returncode == 128 + 9, done.stdout + done.stderr
    assert "the bot's process killed by SIGKILL: memory limit 256 MiB (the out-of-memory killer, in its cgroup)" in done.stderr


def test_the_sandboxes_tmpfs_are_bounded_and_dev_read_only(tmp_path: Path) -> None:
    """Without a cgroup these bounds are all there is on files in memory (with one they count in it too)."""
    need_sandbox()
    probe = ("import os\n"
             "for where in ('/tmp', '/dev/shm', '/dev'):\n"
             "    try:\n"
             "        with open(where + '/fill', 'wb') as f:\n"
             "            [f.write(bytes(2**20)) for _ in range(100)]\n"
             "        print(where, 'took 100 MiB')\n"
             "    except OSError as e:\n"
             "        print(where, e.strerror)\n")
    done = subprocess.run([MIZERKA, "bot", "sandbox", "--", sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["/tmp No space left on device", "/dev/shm No space left on device",
                                        "/dev Read-only file system"], done.stdout


def test_without_a_memory_cgroup_the_sandbox_says_shared_memory_is_not_bounded(tmp_path: Path) -> None:
    """As in a container whose cgroup file system is read-only (Docker's default)."""
    need_memory_cgroup()
    if os.geteuid() != 0:
        missing("needs root: the test remounts the cgroup file system read-only in a mount namespace of its own")
    mine = runner_group()
    assert not isinstance(mine, str)
    probe = [MIZERKA, "bot", "sandbox", "--memory-mb", "256", "--", sys.executable, "-c", "print(open('/proc/self/oom_score_adj').read())"]
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"', str(mine.hierarchy.path), *probe],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (f"WARNING: no memory cgroup here (cannot make cgroups in {mine.hierarchy.path} (Read-only file system)): the "
            "memory limit is per process, and shared memory (memfd, shared mappings, SysV shm) is NOT bounded") in done.stderr
    assert done.stdout.strip() == "1000"  # the out-of-memory killer takes the bot first, not the referee


def test_a_killed_runners_cgroups_are_removed_by_the_next_and_a_live_ones_kept(tmp_path: Path) -> None:
    need_memory_cgroup()
    mine = runner_group()
    assert not isinstance(mine, str)
    code = ("import sys, time; from tournaments.sandbox.cgroups import runner_group; group = runner_group(); "
            "group.bot(64); print(group.path, flush=True); time.sleep(300)")
    runner = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert runner.stdout is not None
        killed = Path(runner.stdout.readline().strip())
        assert (killed / "bot-0").is_dir()
        assert killed not in remove_stale_groups(mine.hierarchy.path)  # it runs: its group stays
        runner.kill()
        runner.wait()
    finally:
        runner.kill()
    assert killed.is_dir()  # kill -9 skipped every cleanup
    assert killed in remove_stale_groups(mine.hierarchy.path)
    assert not killed.exists() and mine.path.is_dir()


def test_the_runners_memory_cgroup_is_found_on_cgroup_v1_and_on_a_delegated_v2(tmp_path: Path) -> None:
    v1 = "12:pids:/\n4:memory:/process_api/abc\n0::/\n"
    mounts = ("30 25 0:26 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n"
              "31 25 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n")
    assert find_hierarchy(v1, mounts) == Hierarchy(1, Path("/sys/fs/cgroup/memory/process_api/abc"))
    slice_ = tmp_path / "user.slice" / "user-1000.slice" / "app.slice"
    slice_.mkdir(parents=True)
    v2, v2_mounts = "0::/user.slice/user-1000.slice/app.slice\n", f"40 25 0:30 / {tmp_path} rw - cgroup2 cgroup2 rw\n"
    (slice_ / "cgroup.controllers").write_text("cpu io pids\n")
    assert find_hierarchy(v2, v2_mounts) == f"the memory controller is not delegated to the runner's cgroup ({slice_})"
    (slice_ / "cgroup.controllers").write_text("cpu io memory pids\n")
    assert find_hierarchy(v2, v2_mounts) == Hierarchy(2, slice_)
    in_container = f"40 25 0:30 /user.slice {tmp_path} rw - cgroup2 cgroup2 rw\n"  # the mount's root is a cgroup below /
    inner = tmp_path / "user-1000.slice" / "app.slice"
    inner.mkdir(parents=True)
    (inner / "cgroup.controllers").write_text("memory\n")
    assert find_hierarchy(v2, in_container) == Hierarchy(2, inner)
    assert find_hierarchy(v2, "") == "no memory cgroup is mounted"


def test_a_bot_in_the_leagues_own_folder_is_refused_before_anything_runs(tmp_path: Path) -> None:
    need_sandbox()
    (tmp_path / "bot.py").write_text(FRIEND)
    lines = ['name = "f"', 'preset = "mizerka-short"', f'data = "{tmp_path / "data"}"']
    for name in ("a", "b", "c"):
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps([sys.executable, str(tmp_path / 'bot.py')])}"]
    (tmp_path / "f.toml").write_text("\n".join(lines) + "\n")
    run = run_league(tmp_path / "f.toml")
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"bot a: its command names the folder {tmp_path}, which holds the league's data folder" in run.stderr


def test_a_bots_pythonpath_is_shown_and_checked_like_its_arguments(tmp_path: Path) -> None:
    """A PYTHONPATH in a bot's env names folders its Python imports from: shown, and refused
    if one holds the league's data, as a folder in its command would be."""
    (tmp_path / "lib").mkdir()
    env = {"PATH": os.defpath, "PYTHONPATH": f"lib{os.pathsep}absent{os.pathsep}"}
    folders = command_folders([sys.executable, "-m", "mybot"], env, tmp_path)
    assert tmp_path / "lib" in folders and tmp_path / "absent" not in folders, folders
    with pytest.raises(SandboxError, match="which holds the league's data folder"):
        check_folders("a", folders, {"the league's data folder": tmp_path / "lib" / "data"})


def test_without_bubblewrap_a_league_is_refused_unless_its_file_allows_running_unsandboxed(tmp_path: Path) -> None:
    lines = ['name = "n"', 'preset = "mizerka-short"', 'seed = "n"', f'data = "{tmp_path / "data"}"',
             "[clock]", "decision_ms = 5000", "bank_ms = 30000"]
    for name in ("random", "heuristic", "greedy"):
        lines += ["[[bots]]", f'name = "{name}"', f'command = ["mizerka-bot", "{name}"]']
    path = tmp_path / "n.toml"
    path.write_text("\n".join(lines) + "\n")
    bare = dict(os.environ, PATH=str(BIN))  # no bwrap on this PATH: a bare machine
    refused = run_league(path, bare)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "the bots must run in a sandbox, but bubblewrap (bwrap) is not installed" in refused.stderr
    assert 'sandbox = "if-available" or "off"' in refused.stderr

    path.write_text(path.read_text().replace('seed = "n"', 'seed = "n"\nsandbox = "if-available"'))
    allowed = run_league(path, bare)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    warning = "WARNING: the bots run WITHOUT A SANDBOX (bubblewrap (bwrap) is not installed)"
    assert warning in allowed.stdout.split("standings after")[0]  # at start
    assert "WARNING: the bots ran WITHOUT A SANDBOX" in allowed.stdout.split("Head to head")[1]  # under the standings


def test_mizerka_bot_sandbox_runs_a_command_the_way_a_league_does(tmp_path: Path) -> None:
    need_sandbox()
    secret = tmp_path / "organiser" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text("private")
    probe = ("import os, socket; from pathlib import Path; "
             f"print('secret', Path({str(secret)!r}).exists()); "
             "print('home', os.environ['HOME'] == os.getcwd() or os.environ['HOME']); "
             "socket.create_connection(('127.0.0.1', 1), timeout=2)")
    done = subprocess.run([MIZERKA, "bot", "sandbox", "--home", str(tmp_path / "home"), "--", sys.executable, "-c", probe],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "secret False" in done.stdout
    assert "ConnectionRefusedError" in done.stderr and "the bot's process exited with code 1" in done.stderr
    spin = subprocess.run([MIZERKA, "bot", "sandbox", "--cpu-s", "1", "--", sys.executable, "-c", "while True: pass"],
                          capture_output=True, text=True, timeout=60)
    assert spin.returncode == 128 + 24  # SIGXCPU
    assert "killed by SIGXCPU: CPU time limit 1 s" in spin.stderr
    bad = subprocess.run([MIZERKA, "bot", "sandbox", "--server", "127.0.0.1:50051", "--", "true"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "the sandbox has no network" in bad.stderr


def test_mizerka_bot_sandbox_reads_a_folder_only_with_read_and_bounds_threads_with_processes(tmp_path: Path) -> None:
    """`--read PATH`: a folder outside the bot's own it may read (an opening book), and nothing else
    of it without; `--processes N`: the processes and threads it may have."""
    need_sandbox()
    book = tmp_path / "books" / "opening.txt"
    book.parent.mkdir()
    book.write_text("lead low\n")
    for path, mode in ((tmp_path, 0o755), (book.parent, 0o755), (book, 0o644)):  # readable for nobody too (a root runner)
        path.chmod(mode)
    reader = [sys.executable, "-c", f"print(open({str(book)!r}).read().strip())"]  # no path argument: not one of its folders
    hidden = subprocess.run([MIZERKA, "bot", "sandbox", "--", *reader], capture_output=True, text=True, timeout=60)
    assert hidden.returncode == 1 and "lead low" not in hidden.stdout, hidden.stdout + hidden.stderr
    assert "FileNotFoundError" in hidden.stderr, hidden.stderr
    given = subprocess.run([MIZERKA, "bot", "sandbox", "--read", str(book.parent), "--", *reader],
                           capture_output=True, text=True, timeout=60)
    assert given.returncode == 0 and given.stdout == "lead low\n", given.stdout + given.stderr

    threads = [sys.executable, "-c", "import threading, time\n"
               "started = 0\n"
               "try:\n"
               "    for _ in range(40):\n"
               "        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n"
               "        started += 1\n"
               "finally:\n"
               "    print('started', started, flush=True)\n"]
    bounded = subprocess.run([MIZERKA, "bot", "sandbox", "--processes", "8", "--", *threads],
                             capture_output=True, text=True, timeout=60)
    assert "can't start new thread" in bounded.stderr and bounded.returncode == 1, bounded.stdout + bounded.stderr
    assert bounded.stdout.startswith("started ") and int(bounded.stdout.split()[1]) < 8, bounded.stdout
    roomy = subprocess.run([MIZERKA, "bot", "sandbox", "--processes", "100", "--", *threads],
                           capture_output=True, text=True, timeout=60)
    assert roomy.returncode == 0 and roomy.stdout == "started 40\n", roomy.stdout + roomy.stderr


def test_a_bot_in_mizerka_bot_sandbox_plays_through_the_referees_unix_socket(tmp_path: Path) -> None:
    need_sandbox()
    sock = tmp_path / "r.sock"
    with referee(tmp_path, "--unix-socket", str(sock)) as ref:
        admin = ref.arena()
        seats = [admin.register(name) for name in ("boxed", "b", "c")]
        env = dict(os.environ, MIZERKA_SERVER=f"unix:{sock}", MIZERKA_TOKEN=seats[0][1])
        with open(tmp_path / "boxed.log", "w") as log:
            boxed = subprocess.Popen([MIZERKA, "bot", "sandbox", "--", "mizerka-bot", "random", "--games", "1"], env=env, stdout=log,
                                     stderr=subprocess.STDOUT)
        for _, token in seats[1:]:
            ref.bot(token, str(BIN / "mizerka-bot"), "heuristic", games=1)
        match = admin.wait(admin.create("mizerka-short", [bot_id for bot_id, _ in seats]))
        assert boxed.wait(timeout=60) == 0, (tmp_path / "boxed.log").read_text()
    seat = match.results[0].seats[0]
    assert not seat.disconnected and seat.defaults_applied == 0 and seat.timeouts == 0, match


def test_a_sandbox_stopped_at_any_moment_of_its_start_leaves_no_process_behind(tmp_path: Path) -> None:
    """bwrap killed while it sets a sandbox up would leave the sandbox running: stopping kills the sandbox too."""
    need_sandbox()
    found = tools()
    assert not isinstance(found, str)
    box = Sandbox(found, Limits(), scratch_folder(tmp_path / "scratch", found))
    for delay in (0.0, 0.002, 0.005, 0.01, 0.02, 0.05):
        for _ in range(5):
            bwrap = box.start(["sleep", "300"], {"PATH": os.defpath},
                              lambda argv, env, fds: subprocess.Popen(argv, env=env, pass_fds=fds))
            time.sleep(delay)
            kill_sandbox(bwrap.pid)
            assert bwrap.wait(timeout=10) == -9
    assert not sandbox_processes(str(tmp_path / "scratch")), "a sandbox outlived its bwrap"


# ------------------------------------------------------------------------------- the league file
@pytest.mark.parametrize(("text", "message"), [
    ('sandbox = "maybe"', 'sandbox must be one of "on", "if-available", "off", got \'maybe\''),
    ("sandbox = 3", "sandbox must be a string or a table, got 3"),
    ("[sandbox]\nmemory_mb = -1", "[sandbox]: memory_mb must be a whole number of MiB of memory (0: no limit), got -1"),
    ('[sandbox]\ncpu_s = "10"', "[sandbox]: cpu_s must be a whole number of seconds of CPU time (0: no limit), got '10'"),
    ("[sandbox]\nswap_mb = 1", "[sandbox]: unknown key 'swap_mb'; expected one of memory_mb, processes, cpu_s, read"),
    ('[sandbox]\nmode = "of"', "[sandbox]: mode must be one of"),
    ("[sandbox]\nread = 5", "[sandbox]: read must be a list of paths"),
])
def test_bad_sandbox_settings_are_refused_naming_the_key(text: str, message: str) -> None:
    league = f'name = "x"\nbots = [{{name = "a", command = "a"}}, {{name = "b", command = "b"}}, {{name = "c", command = "c"}}]\n{text}\n'
    with pytest.raises(LeagueError, match="x.toml") as err:
        parse_league(league, Path("x.toml"))
    assert message in str(err.value)


def test_a_bots_own_limits_override_the_leagues_and_a_remote_bot_has_none(tmp_path: Path) -> None:
    text = ('name = "x"\nbots = [{name = "a", command = "a", sandbox = {cpu_s = 5, read = ["models"]}}, '
            '{name = "b", command = "b"}, {name = "c", command = "c"}]\n[sandbox]\nmode = "if-available"\nmemory_mb = 512\n')
    league = parse_league(text, tmp_path / "x.toml")
    assert league.sandbox.mode is SandboxMode.IF_AVAILABLE and league.sandbox.limits == Limits(memory_mb=512)
    assert league.bot("a").limits == Limits(memory_mb=512, cpu_s=5, read=(tmp_path / "models",))
    assert league.bot("b").limits == Limits(memory_mb=512)
    assert parse_league(text.replace('mode = "if-available"\n', ""), tmp_path / "x.toml").sandbox.mode is SandboxMode.ON
    remote = text.replace('{name = "c", command = "c"}', '{name = "c", remote = true, sandbox = {cpu_s = 1}}')
    with pytest.raises(LeagueError, match="bots\\[2\\] \\(c\\): sandbox is for bots the runner starts"):
        parse_league(remote, tmp_path / "x.toml")
    with pytest.raises(LeagueError, match="mode is set for the whole league"):
        parse_league(text.replace("cpu_s = 5", 'mode = "off"'), tmp_path / "x.toml")


def test_exit_reasons_name_the_limit() -> None:
    limits = Limits(memory_mb=256, processes=32, cpu_s=3)
    assert exit_reason(152, limits, "", True) == "killed by SIGXCPU: CPU time limit 3 s"
    assert exit_reason(1, limits, "Traceback ...\nMemoryError\n", True) == "exited with code 1: memory limit 256 MiB (its log: MemoryError)"
    assert exit_reason(1, limits, "BlockingIOError: [Errno 11] Resource temporarily unavailable\n", True).startswith(
        "exited with code 1: process limit 32 (its log: BlockingIOError")
    assert exit_reason(137, limits, "", True, oom_killed=True) == (
        "killed by SIGKILL: memory limit 256 MiB (the out-of-memory killer, in its cgroup)")
    assert exit_reason(137, limits, "", True) == "killed by SIGKILL: CPU time limit 3 s (or the kernel's out-of-memory killer)"
    assert exit_reason(1, limits, "ValueError: mine\n", True) == "exited with code 1"
    assert exit_reason(1, limits, "MemoryError\n", False) == "exited with code 1"  # no sandbox, no limit to blame
    assert exit_reason(3, Limits(memory_mb=0, processes=0), "MemoryError", True) == "exited with code 3"


@pytest.fixture(scope="session")
def installed_sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv of its own, as a bot author makes one outside this tree: the SDK with its `expert`
    extra installed by pip (not editable) from wheels of this tree's projects, with the constraints;
    its third-party libraries (grpcio and what it needs, protobuf), copied from this env as pip would have downloaded
    them, sit in a folder of their own that a .pth path line adds (what a sandbox must follow)."""
    folder = tmp_path_factory.mktemp("installed-sdk")
    wheels = build_wheels([ROOT / "proto" / "python", ROOT / "server" / "engine", ROOT / "clients" / "python"], folder)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    [site] = venv.glob("lib/python*/site-packages")
    (site / "third_party.pth").write_text(f"{copy_installed(['grpcio', 'protobuf', 'typing-extensions'], folder / 'third-party')}\n")
    done = pip("--python", venv / "bin" / "python", "install", "-q", "--find-links", wheels, "-c", ROOT / "constraints.txt",
               "mizerka-client[expert]", cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv


@pytest.mark.parametrize("install", ["editable", "pip"])
def test_the_expert_bot_plays_a_sandboxed_league_without_a_fault_and_beats_random(
        tmp_path: Path, install: str, request: pytest.FixtureRequest) -> None:
    """The expert searches with the rules engine (mizerka_engine), which its Python imports from
    wherever it is installed: `make venv`'s editable install keeps it in the project's folder,
    outside the venv; a plain `pip install 'mizerka-client[expert]'` into a venv of its own keeps
    it in that venv, its libraries maybe behind a .pth line. The sandbox shows each, as it shows
    the SDK, because the SDK's distribution requires it (its `expert` extra)."""
    need_sandbox()
    program = "mizerka-bot" if install == "editable" else str(request.getfixturevalue("installed_sdk") / "bin" / "mizerka-bot")
    lines = ['name = "x"', 'preset = "mizerka-short"', 'seed = "expert-sandboxed"', "duplicate = true", "games_per_table = 1",
             f'data = "{tmp_path / "data"}"', "max_crashes = 1", "startup_timeout_s = 60", "[options]", "deals = 3",
             "[clock]", "decision_ms = 5000", "bank_ms = 60000",
             "[[bots]]", 'name = "expert"', f'command = ["{program}", "expert", "--seed", "1"]']
    for name, seed in (("random", 2), ("random2", 3)):
        lines += ["[[bots]]", f'name = "{name}"', f'command = ["mizerka-bot", "random", "--seed", "{seed}"]']
    path = tmp_path / "x.toml"
    path.write_text("\n".join(lines) + "\n")
    run = run_league(path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "bots run in a sandbox (bubblewrap)" in run.stdout
    log = (tmp_path / "data" / "logs" / "expert.log").read_text()
    assert "invalid choice" not in log and "[mizerka] the bot's process" not in log, log[-2000:]
    table = standings(path)
    expert = table["expert"]
    assert expert["crashes"] == 0 and not expert["disabled"] and expert["games"] == 3, expert
    assert all(count == 0 for count in expert["faults"].values()), expert  # no default, timeout, refusal, forfeit
    assert all(expert["mean"] > table[other]["mean"] for other in ("random", "random2")), table


@dataclass(frozen=True)
class UserNamespace:
    """A user namespace of the test's own, held by a sleeping process: ``enter`` runs a command in it."""

    holder: int

    @property
    def enter(self) -> list[str]:
        return ["nsenter", "-U", "-t", str(self.holder), "--"]

    def allow(self, count: int) -> None:
        """At most ``count`` user namespaces made in it at once (its own max_user_namespaces: past
        it, unshare fails with ENOSPC, as on a host whose count is used up)."""
        subprocess.run([*self.enter, "sh", "-c", f"echo {count} > /proc/sys/user/max_user_namespaces"], check=True)


@contextmanager
def user_namespace_of_our_own() -> Iterator[UserNamespace]:
    """(As root) a user namespace in which the ids 0 to 65535 are themselves, so that a league run
    in it sandboxes its bots as it does outside."""
    libc = ctypes.CDLL(None, use_errno=True)

    def unshare() -> None:
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            raise OSError(ctypes.get_errno(), "unshare")

    with subprocess.Popen(["sleep", "600"], preexec_fn=unshare) as holder:
        try:
            for name in ("uid_map", "gid_map"):
                Path(f"/proc/{holder.pid}/{name}").write_text("0 0 65536\n")
            yield UserNamespace(holder.pid)
        finally:
            holder.kill()


def test_a_host_that_cannot_make_a_user_namespace_for_a_while_costs_the_bots_nothing(tmp_path: Path) -> None:
    """A busy host runs out of user namespaces (the per-user count; a namespace is freed some time
    after its sandbox ends): a bot whose sandbox cannot be made is started again once it can, the
    kernel's reason said, and no crash or fault is charged to it. The host stays short for longer than
    seat_timeout_s: the games wait for the bot at the runner, not at the referee, which would forfeit
    its seats."""
    need_sandbox()
    if os.geteuid() != 0:
        missing("a user namespace with the ids 0 to 65535 of its own needs root (CI runs as root)")
    lines = ['name = "ns"', 'preset = "mizerka-short"', 'seed = "busy-host"', f'data = "{tmp_path / "data"}"',
             "games_per_table = 1", "max_crashes = 1", "seat_timeout_s = 2", "[options]", "deals = 3"]
    for name, seed in (("a", 1), ("b", 2), ("c", 3)):
        lines += ["[[bots]]", f'name = "{name}"', f'command = ["mizerka-bot", "random", "--seed", "{seed}"]']
    path = tmp_path / "ns.toml"
    path.write_text("\n".join(lines) + "\n")
    output = tmp_path / "output.txt"
    with user_namespace_of_our_own() as namespace, output.open("w") as out:
        namespace.allow(2)  # three bots, each in a user namespace of its own: one cannot start
        with subprocess.Popen([*namespace.enter, MIZERKA, "league", "run", str(path)], stdout=out, stderr=subprocess.STDOUT,
                              text=True) as league:
            deadline = time.monotonic() + 120  # a bound only a hang reaches
            # five failures in a row: at least 0.2 + 0.4 + 0.8 + 1.6 s of backoff, past seat_timeout_s
            while "trying again, 5 in a row" not in " ".join(output.read_text().split()):  # as rich wraps it
                assert league.poll() is None and time.monotonic() < deadline, output.read_text()
                time.sleep(0.05)
            namespace.allow(1000)
            assert league.wait(timeout=240) == 0, output.read_text()
    said = " ".join(output.read_text().split())
    assert "cannot make a user namespace for the sandbox: No space left on device" in said, said
    assert "crash" not in said and "disabled" not in said, said
    for name, line in standings(path).items():
        assert line["crashes"] == 0 and not line["disabled"] and line["games"] == 3, (name, line)
        assert all(count == 0 for count in line["faults"].values()), (name, line)  # no default, timeout or forfeit
