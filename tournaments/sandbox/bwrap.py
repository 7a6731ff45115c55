"""Bot programs in a sandbox: bubblewrap (``bwrap``), prlimit and, for a runner running as root,
setpriv (docs/security.md, The sandbox).

A sandboxed bot gets:

- namespaces of its own (user, PID, mount, IPC, UTS, cgroup, network): no network at all, the
  referee reached through its Unix socket, bound in at /run/mizerka (``MIZERKA_SERVER=unix:...``);
  a remote referee (``league run --server``) is the one case where the network stays;
- a read-only view of the system (/usr, the /lib* and /bin links, a few files of /etc), of this
  installation's Python with the bot SDK and what it needs wherever they are imported from (an
  editable install's project folders too: tournaments/sandbox/distributions.py), and of its command's own
  folders (its program's, those of the arguments that name files or folders, its env's PYTHONPATH,
  and for a program a Python runs, this installation's or a venv of the bot's own, that Python and
  where the SDK and a console script's distribution are imported from), never the league's data,
  database, logs or file;
- a writable scratch folder of its own, ``DATA/sandbox/NAME``, as HOME and TMPDIR, and a small
  /tmp and /dev/shm of its own (64 MiB each, in memory; the rest of /dev read-only);
- a memory cgroup of its own where the runner can make one (tournaments/sandbox/cgroups.py), limited to
  its ``memory_mb``: shared memory (memfd, shared mappings, shm, tmpfs) counts there, which no
  rlimit counts, and the out-of-memory killer kills in it, never the referee; the bot is moved
  into it between fork and exec, before it runs anything (:func:`enter_sandbox`);
- the first place in line for the kernel's out-of-memory killer when the whole machine runs out
  (oom_score_adj 1000): a bot, not the referee, is killed (a hostile bot may set its own back to
  0, the referee's: the cgroup is the bound, this a fallback);
- limits set by prlimit inside the sandbox (:class:`~tournaments.sandbox.settings.Limits`): RLIMIT_DATA,
  RLIMIT_NPROC (the kernel counts it per user namespace, so per sandbox, and only once set inside
  one: set on bwrap it would count every process of the user), RLIMIT_CPU (SIGXCPU, SIGKILL a
  second later);
- a session of its own, so the scheduler's autogroups share the CPU between bots (one spinning on
  every core gets a bot's share, not the machine), and death with the runner (--die-with-parent).

Stopping a sandbox kills it (:class:`SandboxedChild`): bwrap passes no SIGTERM on, and a sandbox
whose bwrap is killed while it sets the sandbox up would outlive it.

The kernel never enforces RLIMIT_NPROC on root. A runner running as root (containers, CI) therefore
runs its bots as nobody: it makes a user namespace where root is root (bwrap sets the sandbox up
as root) and nobody is nobody, joins bwrap to it, and setpriv turns the bot into nobody, without
capabilities, before it starts.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from server.private_files import private_dir
from tournaments import progress
from tournaments.config import BotSpec, League
from tournaments.processes import Child
from tournaments.progress import Report
from tournaments.sandbox.cgroups import BotCgroup, RunnerGroup, runner_group
from tournaments.sandbox.distributions import SDK, python_of, this_python
from tournaments.sandbox.settings import Limits, SandboxError, SandboxMode

NOBODY = 65534  # the user (and group) a root runner's bots run as
INSIDE_SOCKETS = Path("/run/mizerka")  # where a sandbox finds the referee's Unix socket
SYSTEM = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32")
# The few files of /etc that programs need to start (the loader's cache, users for getpwuid, time
# zone, certificates for TLS to a remote referee); the rest of /etc stays out.
ETC = ("alternatives", "ca-certificates", "ca-certificates.conf", "group", "host.conf", "hosts", "ld.so.cache",
       "ld.so.conf", "ld.so.conf.d", "localtime", "nsswitch.conf", "passwd", "resolv.conf", "ssl")
# What a crashed bot's last words say when a limit made it fail (an allocation, a fork or a thread).
MEMORY_SIGNS = ("MemoryError", "bad_alloc", "out of memory", "Cannot allocate memory", "ENOMEM", "allocation failed")
PROCESS_SIGNS = ("Resource temporarily unavailable", "BlockingIOError", "EAGAIN", "can't start new thread",
                 "Cannot fork", "fork: retry", "pthread_create")
TAIL_BYTES = 4096
TMP_BYTES = 64 * 2**20  # the sandbox's own /tmp and /dev/shm, each, in memory (HOME and TMPDIR, the scratch folder, are on disk)
OOM_FIRST = "1000"  # a sandboxed bot's oom_score_adj: the out-of-memory killer's first choice

@dataclass(frozen=True, slots=True)
class Tools:
    """The programs a sandbox needs, as found on this host."""

    bwrap: str
    prlimit: str
    setpriv: str | None  # a root runner's: drops the bot to nobody
    sleep: str | None  # a root runner's: holds a new user namespace while its maps are written
    unshare: str | None = None  # a root runner's: makes that namespace, in a process of one thread


@dataclass(frozen=True, slots=True)
class Sandbox:
    """One bot program's sandbox: what it may read and write, how it reaches the referee, its limits."""

    tools: Tools
    limits: Limits
    scratch: Path  # writable: HOME and TMPDIR
    read: tuple[Path, ...] = ()  # the command's folders and the limits' ``read``, read-only
    socket: Path | None = None  # the referee's Unix socket on this host
    socket_folder: bool = True  # bind its folder (a restarted referee's new socket is seen), else the socket alone
    network: bool = False  # keep the network (a remote referee): the one exception

    @property
    def server(self) -> str | None:
        """MIZERKA_SERVER inside the sandbox, if the referee is reached through its socket."""
        return None if self.socket is None else f"unix:{INSIDE_SOCKETS / self.socket.name}"

    def env(self, env: Mapping[str, str]) -> dict[str, str]:
        """``env`` as the sandboxed program gets it: its scratch as HOME and TMPDIR, the referee's socket."""
        inside = {**env, "HOME": str(self.scratch), "TMPDIR": str(self.scratch)}
        if self.server is not None:
            inside["MIZERKA_SERVER"] = self.server
        return inside

    def command(self, command: Sequence[str], userns: int | None) -> list[str]:
        """The bwrap command line that runs ``command`` in this sandbox; ``userns``: a root
        runner's user namespace (:func:`user_namespace`), passed to bwrap as that fd."""
        args = [self.tools.bwrap, "--die-with-parent", "--new-session", "--unshare-ipc", "--unshare-pid", "--unshare-uts",
                "--unshare-cgroup-try"]
        args += ["--userns", str(userns)] if userns is not None else ["--unshare-user", "--disable-userns"]
        if not self.network:
            args.append("--unshare-net")
        args += _mounts(self)
        args += ["--chdir", str(Path.cwd()), "--"]
        if userns is not None:
            args += [self.tools.setpriv or "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                     "--inh-caps=-all", "--bounding-set=-all", "--"]
        return [*args, self.tools.prlimit, *_rlimits(self.limits), "--", *command]

    def start(self, command: Sequence[str], env: Mapping[str, str], spawn: Callable[[list[str], dict[str, str], tuple[int, ...]], Any]) -> Any:
        """``spawn(argv, env, pass_fds)`` of ``command`` in this sandbox (a root runner's user
        namespace is made for it, and its fd closed once spawned)."""
        userns = user_namespace(self.tools) if self.tools.setpriv is not None else None
        try:
            return spawn(self.command(command, userns), self.env(env), () if userns is None else (userns,))
        finally:
            if userns is not None:
                os.close(userns)


def enter_sandbox(cgroup: BotCgroup | None) -> None:
    """In the forked child, before it runs bwrap: the out-of-memory killer's first choice, and in
    the bot's memory cgroup if it has one."""
    Path("/proc/self/oom_score_adj").write_text(OOM_FIRST)
    if cgroup is not None:
        cgroup.enter()


def _rlimits(limits: Limits) -> list[str]:
    """prlimit's options for ``limits`` (soft = hard; CPU: SIGXCPU at the limit, SIGKILL a second later)."""
    options = ["--core=0"]  # no core files of a bot killed by SIGXCPU
    if limits.memory_mb:
        options.append(f"--data={limits.memory_mb * 2**20}")
    if limits.processes:
        options.append(f"--nproc={limits.processes}")
    if limits.cpu_s:
        options.append(f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}")
    return options


def _mounts(box: Sandbox) -> list[str]:
    """bwrap's file system options: the system and the read-only paths at their own places, a
    /tmp of its own, the scratch folder writable, the referee's socket folder; every folder bwrap
    has to make on the way is made 0755 (bwrap would copy the host's mode: nobody could not cross
    /root)."""
    args: list[str] = []
    bound: list[Path] = []
    made: set[Path] = set()

    def inside(path: Path) -> bool:
        return any(path == b or b in path.parents for b in bound)

    def make_parents(path: Path) -> None:
        for parent in reversed(path.parents[:-1]):  # from the top, / itself left out
            if parent not in made and not inside(parent):
                args.extend(["--perms", "0755", "--dir", str(parent)])
                made.add(parent)

    for name in SYSTEM:
        path = Path("/", name)
        if path.is_symlink():
            args.extend(["--symlink", os.readlink(path), str(path)])
        elif path.is_dir():
            args.extend(["--ro-bind", str(path), str(path)])
            bound.append(path)
    args.extend(["--perms", "0755", "--dir", "/etc", "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"])
    made.update((Path("/etc"), Path("/tmp")))
    for name in ETC:
        args.extend(["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"])
    for path in sorted({*python_paths(), *box.read}, key=lambda p: p.parts):
        if not inside(path) and path.exists():
            make_parents(path)
            args.extend(["--ro-bind", str(path), str(path)])
            bound.append(path)
    make_parents(box.scratch)
    args.extend(["--bind", str(box.scratch), str(box.scratch)])
    if box.socket is not None:
        make_parents(INSIDE_SOCKETS / box.socket.name)
        source, target = (box.socket.parent, INSIDE_SOCKETS) if box.socket_folder else (box.socket, INSIDE_SOCKETS / box.socket.name)
        args.extend(["--ro-bind", str(source), str(target)])
    cwd = Path.cwd()
    if not inside(cwd) and cwd != box.scratch:
        make_parents(cwd / "x")  # the runner's folder, empty: relative paths in a command resolve as outside
    return [*args, "--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev"]


@functools.cache
def python_paths() -> tuple[Path, ...]:
    """This installation's Python, read-only in every sandbox: the venv, the interpreter it was
    made from, and wherever the bot SDK and what it needs are imported from (an editable install
    keeps them outside the venv: tournaments/sandbox/distributions.py)."""
    return tuple(sorted({*this_python().folders((SDK,)), Path(sys.executable).resolve().parent}))


def command_folders(command: Sequence[str], env: Mapping[str, str], cwd: Path) -> tuple[Path, ...]:
    """The folders a bot's command needs to read: its program's (found on PATH as exec finds it,
    and where a link leads), those of its arguments that name existing files or folders, and, for
    a program run by a Python (an interpreter, or a script whose #! line names one: this
    installation's, or a venv of the bot's own), that Python's (its venv, its base installation)
    and where the bot SDK, and for a console script its distribution, and what they require are
    imported from; and the folders of its environment's PYTHONPATH."""
    search = env.get("PATH", os.defpath)
    program = command[0] if "/" in command[0] else shutil.which(command[0], path=search)
    folders = set()
    for arg in (program, *command[1:]):
        try:
            path = cwd / arg if arg else None
            if path is None or not path.exists():
                continue
        except (OSError, ValueError):  # not a path at all
            continue
        for found in (path.absolute(), path.resolve()):
            folders.add(found if found.is_dir() else found.parent)
    python = None if program is None else python_of(cwd / program, search)
    if python is not None:
        script = python.script_distribution(cwd / program)
        folders.update(python.folders((SDK, *([] if script is None else [script]))))
    pythonpath = (cwd / entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry)
    folders.update(entry.absolute() for entry in pythonpath if entry.is_dir())  # folders its env names
    return tuple(sorted(folders))


def check_folders(bot: str, folders: Sequence[Path], secrets: Mapping[str, Path]) -> None:
    """SandboxError if a folder the bot may read holds one of ``secrets`` (what: where)."""
    for folder in folders:
        for what, secret in secrets.items():
            if folder.resolve() == secret.resolve() or folder.resolve() in secret.resolve().parents:
                raise SandboxError(
                    f"bot {bot}: its command names the folder {folder}, which holds {what} ({secret}); a sandboxed bot "
                    "reads its command's folders, so this one would see the league's secrets: move the bot's files into "
                    "a folder of their own")


class HostError(OSError):
    """The host could not set a sandbox up (a user namespace it could not make): not the bot's
    doing, so never counted as the bot's crash (:meth:`tournaments.runner.Runner.supervise`)."""


# Why unshare(CLONE_NEWUSER) fails for a while on a busy host: the per-user count of namespaces
# (max_user_namespaces; a namespace is freed some time after its last process ends), or memory.
PASSING = {errno.ENOSPC, errno.ENOMEM, errno.EAGAIN, errno.EUSERS}


def user_namespace(tools: Tools) -> int:
    """(As root) a new user namespace in which root is root and nobody is nobody; an fd of it for
    ``bwrap --userns``. A helper makes it and holds it while its maps are written. HostError, with
    the kernel's errno, if the host cannot make one.

    The helper is ``unshare --user sleep``: the namespace is made by the exec'd program, never in a
    preexec_fn, since unshare(CLONE_NEWUSER) refuses (EINVAL) a process with more than one thread,
    and a child forked from a threaded runner or test process need not be single-threaded then."""
    ours = os.readlink("/proc/self/ns/user")
    helper = subprocess.Popen([tools.unshare or "unshare", "--user", "--", tools.sleep or "sleep", "60"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:  # until the helper is in a namespace of its own (or has failed to make one)
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{helper.pid}/ns/user") != ours:
                    break
            if helper.poll() is not None:
                said = helper.stderr.read().decode(errors="replace") if helper.stderr is not None else ""
                code = next((c for c in sorted(errno.errorcode) if os.strerror(c) in said), errno.EPERM)
                raise HostError(code, f"cannot make a user namespace for the sandbox: {os.strerror(code)}")
            time.sleep(0.001)
        for name in ("uid_map", "gid_map"):
            Path(f"/proc/{helper.pid}/{name}").write_text(f"0 0 1\n{NOBODY} {NOBODY} 1\n")
        return os.open(f"/proc/{helper.pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        helper.kill()
        helper.wait()
        if helper.stderr is not None:
            helper.stderr.close()


PROBE_PAUSES_S = (0.25, 0.5, 1.0, 2.0)  # between tries of the empty sandbox while the host's failure is a passing one


class NoSandbox(Exception):
    """Why there is no sandbox here."""


def tools() -> Tools | str:
    """The sandbox's tools on this host, or why there is no sandbox here. Checked by running an
    empty sandbox: once where it runs; where it does not, again at the next call, since a busy
    host fails to make a namespace for a while."""
    try:
        return _tools()
    except NoSandbox as e:
        return str(e)


@functools.cache  # a NoSandbox raised is not cached
def _tools() -> Tools:
    bwrap, prlimit, setpriv, sleep, unshare = (shutil.which(name) for name in ("bwrap", "prlimit", "setpriv", "sleep", "unshare"))
    root = os.geteuid() == 0
    if bwrap is None:
        raise NoSandbox("bubblewrap (bwrap) is not installed")
    if prlimit is None or root and (setpriv is None or sleep is None or unshare is None):
        raise NoSandbox("prlimit, setpriv or unshare (util-linux) is missing")
    found = Tools(bwrap, prlimit, setpriv if root else None, sleep if root else None, unshare if root else None)
    pauses = iter(PROBE_PAUSES_S)
    while (failed := _probe(found)) is not None:
        why, passing = failed
        pause = next(pauses, None) if passing else None
        if pause is None:
            raise NoSandbox(f"bwrap cannot start a sandbox here ({why})")
        time.sleep(pause)
    return found


def _probe(found: Tools) -> tuple[str, bool] | None:
    """None if an empty sandbox runs, else why not and whether that may pass (:data:`PASSING`)."""
    with tempfile.TemporaryDirectory(prefix="mizerka-probe-") as scratch:
        box = Sandbox(found, Limits(), scratch_folder(Path(scratch), found))
        try:
            done = box.start(["true"], {"PATH": os.defpath}, lambda argv, env, fds: subprocess.run(
                argv, env=env, pass_fds=fds, capture_output=True, text=True, timeout=60))
        except (OSError, subprocess.SubprocessError) as e:
            return str(e), isinstance(e, OSError) and e.errno in PASSING
    if done.returncode == 0:
        return None
    why = done.stderr.strip() or f"exit code {done.returncode}"
    return why, any(os.strerror(code) in why for code in PASSING)  # as bwrap words its own namespaces' failure


def exit_reason(code: int, limits: Limits, tail: str, sandboxed: bool, oom_killed: bool = False) -> str:
    """Why a bot process ended, for its crash record: its exit code, and the limit that stopped it
    when one did (the out-of-memory killer in its cgroup; a signal of the CPU limit; a failed
    allocation, fork or thread in its last words)."""
    signum = code - 128 if sandboxed and 128 < code < 192 else -code if code < 0 else 0
    what = f"exited with code {code}"
    with contextlib.suppress(ValueError):
        what = f"killed by {signal.Signals(signum).name}" if signum else what
    if not sandboxed or code == 0:
        return what
    if oom_killed and limits.memory_mb:
        return f"{what}: memory limit {limits.memory_mb} MiB (the out-of-memory killer, in its cgroup)"
    if limits.cpu_s and signum == signal.SIGXCPU:
        return f"{what}: CPU time limit {limits.cpu_s} s"
    if limits.cpu_s and signum == signal.SIGKILL:
        return f"{what}: CPU time limit {limits.cpu_s} s (or the kernel's out-of-memory killer)"
    for signs, limit in ((MEMORY_SIGNS, f"memory limit {limits.memory_mb} MiB" if limits.memory_mb else ""),
                         (PROCESS_SIGNS, f"process limit {limits.processes}" if limits.processes else "")):
        line = next((x for x in reversed(tail.splitlines()) if any(s in x for s in signs)), None)
        if limit and line is not None:
            return f"{what}: {limit} (its log: {line.strip()[:160]})"
    return what


def check_league(league: League) -> Tools | str:
    """The tools that sandbox the league's bots here, or why they run without one (the league file
    allows it); SandboxError if they cannot run as the file asks, or a bot's folder holds the
    league's secrets."""
    mode = league.sandbox.mode
    found = tools() if mode is not SandboxMode.OFF else 'sandbox = "off" in the league file'
    if isinstance(found, str) and mode is SandboxMode.ON:
        raise SandboxError(
            f"{league.path}: the bots must run in a sandbox, but {found}: install bubblewrap (Debian: apt-get install "
            'bubblewrap), or let this league\'s bots run without one with sandbox = "if-available" or "off" '
            "(docs/security.md, The sandbox)")
    secrets = {"the league's data folder": league.data.absolute(), "the league file": league.path.absolute()}
    for spec in league.bots:
        if not isinstance(found, str) and not spec.remote:
            env = {"PATH": os.environ.get("PATH", os.defpath), **dict(spec.env)}
            check_folders(spec.name, (*command_folders(spec.command, env, Path.cwd()), *spec.limits.read), secrets)
    return found


def memory_note(group: RunnerGroup | str) -> str:
    """What the memory limit covers here, as the runner announces it at start."""
    if isinstance(group, str):
        return (f"WARNING: no memory cgroup here ({group}): the memory limit is per process, and shared memory "
                "(memfd, shared mappings, SysV shm) is NOT bounded (docs/security.md, The sandbox)")
    return f"memory per bot in a cgroup of its own, shared memory included ({group.path})"


def scratch_folder(path: Path, tools: Tools) -> Path:
    """A sandbox's writable folder, made if missing (0700), owned by whom the bot runs as."""
    private_dir(path)
    if tools.setpriv is not None:
        os.chown(path, NOBODY, NOBODY)
    return path


class BotSandbox:
    """How a league's bots are started: each in a sandbox of its own, or, where the league allows
    it, as they are (said loudly once, by the ``sandbox`` report)."""

    def __init__(self, league: League, report: Report, sockets: Mapping[str, Path] | None) -> None:
        self.league = league
        # the local referee's Unix sockets, one per bot by name (tournaments/local_referee.py); None: a remote
        # referee, reached over the network
        self.sockets = sockets
        found = check_league(league)
        self.tools = None if isinstance(found, str) else found
        group = runner_group() if self.tools is not None else None
        self.cgroups = group if isinstance(group, RunnerGroup) else None  # where its bots' memory cgroups are made
        limits = league.sandbox.limits.describe() + ("" if group is None else f"; {memory_note(group)}")
        report(progress.Sandbox(on=self.tools is not None, why=found if isinstance(found, str) else "", limits=limits,
                                network=sockets is None))

    def box(self, spec: BotSpec, env: Mapping[str, str]) -> Sandbox | None:
        """The bot's sandbox (its scratch folder made), or None without one."""
        if self.tools is None:
            return None
        league = self.league
        read = (*command_folders(spec.command, env, Path.cwd()), *spec.limits.read)
        tls = [Path(env[k]).absolute() for k in ("MIZERKA_TLS_CA", "MIZERKA_TLS_CERT", "MIZERKA_TLS_KEY") if env.get(k)]
        scratch = scratch_folder(league.data.absolute() / "sandbox" / spec.name, self.tools)
        socket = None if self.sockets is None else self.sockets[spec.name]
        return Sandbox(self.tools, spec.limits, scratch, (*read, *tls), socket, network=socket is None)

    def start(self, spec: BotSpec, env: dict[str, str], log: Path) -> Child:
        """The bot's process, in its sandbox if it has one."""
        box = self.box(spec, env)
        if box is None:
            return Child(list(spec.command), log, env)
        cgroup = self.cgroups.bot(spec.limits.memory_mb) if self.cgroups is not None and spec.limits.memory_mb else None
        try:
            return box.start(spec.command, env, lambda argv, inside, fds: SandboxedChild(argv, log, inside, fds, cgroup))
        except BaseException:
            if cgroup is not None:
                cgroup.remove()
            raise

    def exit_reason(self, spec: BotSpec, process: Child) -> str:
        """Why the bot's process ended (:func:`exit_reason`), also written at the end of its log."""
        code = process.poll()
        assert code is not None
        oom = isinstance(process, SandboxedChild) and process.oom_killed()
        why = exit_reason(code, spec.limits, process.log_tail(TAIL_BYTES), self.tools is not None, oom)
        with contextlib.suppress(OSError), process.log.open("a") as log:
            log.write(f"[mizerka] the bot's process {why}\n")
        return why


class SandboxedChild(Child):
    """A bot's bwrap, in the bot's memory cgroup if it has one: stopping it kills its whole sandbox
    (:func:`kill_sandbox`) and removes the cgroup."""

    def __init__(self, command: list[str], log: Path, env: dict[str, str], pass_fds: tuple[int, ...],
                 cgroup: BotCgroup | None) -> None:
        self.cgroup = cgroup
        try:
            super().__init__(command, log, env, pass_fds, functools.partial(enter_sandbox, cgroup))
        except subprocess.SubprocessError as e:  # only enter_sandbox can fail before exec
            raise OSError(f"cannot set its out-of-memory score or move it into its memory cgroup: {e}") from None

    def oom_killed(self) -> bool:
        """Whether the out-of-memory killer killed a process of the bot (in its cgroup)."""
        return self.cgroup is not None and self.cgroup.oom_kills() > 0

    async def stop(self, grace_s: float = 10.0) -> None:
        with trio.CancelScope(shield=True):
            if self.popen.poll() is None:
                await trio.to_thread.run_sync(kill_sandbox, self.popen.pid)
                await self.wait()
            if self.cgroup is not None:
                self.cgroup.remove()


def kill_sandbox(bwrap: int) -> None:
    """Kill a sandbox and its bwrap. bwrap is frozen first (SIGSTOP: it can start nothing more),
    then its children, the sandbox's first process, are killed, which kills every process of its
    PID namespace; only then bwrap. Killing bwrap alone leaves a sandbox it was still setting up
    (whose --die-with-parent is not armed yet) running on its own."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(bwrap, signal.SIGSTOP)
        deadline = time.monotonic() + 5
        while _state(bwrap) not in ("T", "Z", "") and time.monotonic() < deadline:
            time.sleep(0.001)
        for child in _children(bwrap):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
        os.kill(bwrap, signal.SIGKILL)


def _state(pid: int) -> str:
    """A process's state letter (/proc/PID/stat), "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc/*/stat: no CONFIG_PROC_CHILDREN needed)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(proc.name))
    return found
