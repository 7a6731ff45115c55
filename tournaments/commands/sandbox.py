"""``mizerka bot sandbox [OPTIONS] -- COMMAND...``: run a bot program the way a league runs it, in
the sandbox with a league's limits (tournaments/sandbox/bwrap.py), to see on one's own machine what it may
and may not do (docs/security.md, The sandbox)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tournaments.local_referee import BIN
from tournaments.runner import BOT_ENV_ALLOWED, BOT_ENV_PREFIXES
from tournaments.sandbox.bwrap import Sandbox, command_folders, enter_sandbox, exit_reason, memory_note, scratch_folder, tools
from tournaments.sandbox.cgroups import runner_group
from tournaments.sandbox.settings import Limits


def _parser(prog: str) -> argparse.ArgumentParser:
    defaults = Limits()
    parser = argparse.ArgumentParser(
        prog=prog, description="Run a bot program in the sandbox a league runs it in: no network (but the referee's Unix "
        "socket), a read-only system, its own folders, a scratch folder as HOME, and the limits below.")
    parser.add_argument("--memory-mb", type=int, default=defaults.memory_mb, help="memory limit, MiB (0: none)")
    parser.add_argument("--processes", type=int, default=defaults.processes, help="processes and threads (0: no limit)")
    parser.add_argument("--cpu-s", type=int, default=defaults.cpu_s, help="CPU seconds per process (0: no limit)")
    parser.add_argument("--read", action="append", default=[], metavar="PATH", help="another file or folder it may read")
    parser.add_argument("--home", type=Path, help="its scratch folder, kept (default: a new temporary one, removed after)")
    parser.add_argument("--server", default=os.environ.get("MIZERKA_SERVER"),
                        help="the referee as unix:PATH, its socket (`mizerka serve --unix-socket PATH`; default: "
                        "$MIZERKA_SERVER): the sandbox has no network")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the bot's command, after --")
    return parser


def _command(options: argparse.Namespace) -> list[str]:
    """The bot's command: what follows the options (and the ``--``)."""
    return options.command[1:] if options.command[:1] == ["--"] else list(options.command)


def sandboxed_command(args: Sequence[str]) -> list[str] | None:
    """The program (and its arguments) ``mizerka bot sandbox ARGS`` would run, as :func:`sandbox_main`
    reads them: what a league runner checks before it starts one; None if these are not its
    command line (it then says why itself)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            return _command(_parser("mizerka bot sandbox").parse_args(list(args))) or None
    except SystemExit:
        return None


def sandbox_main(args: list[str], prog: str = "mizerka bot sandbox") -> int:
    """Run the command in a sandbox; its exit status (bwrap's: 128 + N when a signal N killed it)."""
    parser = _parser(prog)
    options = parser.parse_args(args)
    command = _command(options)
    if not command:
        parser.error("give the bot's command after --, e.g. -- python3 bot.py")
    if options.server and not options.server.startswith("unix:"):
        parser.error(f"--server {options.server}: the sandbox has no network; give the referee's Unix socket as unix:PATH "
                     "(mizerka serve --unix-socket PATH)")
    for flag, value in (("--memory-mb", options.memory_mb), ("--processes", options.processes), ("--cpu-s", options.cpu_s)):
        if value < 0:
            parser.error(f"{flag} must be at least 0 (0: no limit), got {value}")
    limits = Limits(options.memory_mb, options.processes, options.cpu_s, tuple(Path(p).absolute() for p in options.read))
    found = tools()
    if isinstance(found, str):
        print(f"{prog}: no sandbox on this machine: {found} (Debian: apt-get install bubblewrap)", file=sys.stderr)
        return 2
    env = {k: v for k, v in os.environ.items()
           if k in BOT_ENV_ALLOWED or k.startswith((*BOT_ENV_PREFIXES, "MIZERKA_")) and k != "MIZERKA_ADMIN_TOKEN"}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', os.defpath)}"
    socket = Path(options.server.removeprefix("unix:")).absolute() if options.server else None
    with tempfile.TemporaryDirectory(prefix="mizerka-sandbox-") as temporary:
        home = scratch_folder((options.home or Path(temporary) / "home").absolute(), found)
        read = (*command_folders(command, env, Path.cwd()), *limits.read)
        box = Sandbox(found, limits, home, read, socket, socket_folder=False)  # the socket alone: its folder is anyone's
        group = runner_group()
        print(f"{prog}: HOME={home}; {limits.describe()}; {memory_note(group)}", file=sys.stderr)
        cgroup = None
        if not isinstance(group, str) and limits.memory_mb:
            try:
                cgroup = group.bot(limits.memory_mb)
            except OSError as e:
                print(f"{prog}: cannot make the bot's memory cgroup in {group.path}: {e}", file=sys.stderr)
                return 2
        try:
            done = box.start(command, env, lambda argv, inside, fds: subprocess.run(
                argv, env=inside, pass_fds=fds, preexec_fn=functools.partial(enter_sandbox, cgroup)))
            oom = cgroup is not None and cgroup.oom_kills() > 0
        finally:
            if cgroup is not None:
                cgroup.remove()
    if done.returncode:
        print(f"{prog}: the bot's process {exit_reason(done.returncode, limits, '', True, oom)}", file=sys.stderr)
    return done.returncode
