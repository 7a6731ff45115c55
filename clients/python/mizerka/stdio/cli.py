"""``mizerka-bot stdio [options] -- CMD ARGS...``: the bridge's command line."""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import sys
import time
from collections.abc import Sequence

from mizerka.connection import add_tls_arguments, tls_from_arguments
from mizerka.runtime import (
    DEFAULT_SERVER,
    ENV_PARALLEL,
    ENV_SERVER,
    ENV_TOKEN,
    MizerkaError,
    connection_settings,
    parallel_setting,
)
from mizerka.stdio.bridge import run_stdio

__all__ = ["build_parser", "main", "program_command"]


def build_parser(prog: str = "mizerka-bot stdio") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        usage=f"{prog} [options] -- CMD [ARGS...]",
        description="Play through a program that speaks the JSON Lines protocol of docs/stdio-protocol.md on "
        "its stdin and stdout: one process per Play stream, started as CMD ARGS...",
        epilog=f"Environment: {ENV_SERVER} (default {DEFAULT_SERVER}), {ENV_TOKEN} and {ENV_PARALLEL} (default 1); "
        "flags override them; TLS settings come from MIZERKA_TLS* (see the TLS flags). The program's stderr goes "
        "to this command's stderr.",
    )
    p.add_argument("--server", help=f"referee address HOST:PORT (default: ${ENV_SERVER} or {DEFAULT_SERVER})")
    p.add_argument("--token", help=f"the bot's token (default: ${ENV_TOKEN})")
    p.add_argument("--parallel", type=int, default=None, metavar="N",
                   help=f"games to play at once: N streams, N program processes (default: ${ENV_PARALLEL} or 1)")
    p.add_argument("--games", type=int, default=None, metavar="N", help="stop after N games (default: never)")
    p.add_argument("--name", help="name sent in Hello (default: stdio:CMD)")
    p.add_argument("--no-events", dest="events", action="store_false",
                   help="do not send event lines (game_start, decide, error and game_end only)")
    p.add_argument("--live-events", action="store_true",
                   help="send event lines as soon as things happen (Hello.live_events), not just before your next "
                   "decide line: for programs that think on the others' time")
    p.add_argument("--max-restarts", type=int, default=5, metavar="N",
                   help="give up when the program exits more than N times in a row without finishing a game "
                   "(default 5)")
    p.add_argument("--transcript", metavar="PATH",
                   help="append every line to PATH: 'N<' bridge to program, 'N>' program to bridge (N = stream)")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-v info, -vv debug)")
    add_tls_arguments(p)
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="CMD", help="the program and its arguments")
    return p


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Options, then the command: after ``--``, or from the first word that is not an option (a
    shell's ``--`` may already be gone when `mizerka bot stdio` forwards its arguments)."""
    if "--" in argv:
        i = argv.index("--")
        try:
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                args = parser.parse_args(argv[:i])
        except SystemExit:
            args = None
        if args is not None and not args.command:
            return args, argv[i + 1:]
    args = parser.parse_args(argv)
    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    return args, command


def program_command(argv: Sequence[str]) -> list[str] | None:
    """The program (CMD ARGS...) the bridge would run with these arguments, as :func:`main` reads
    them: what a league runner checks before it starts the bridge; None if they are not the
    bridge's command line (the bridge itself then says why)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            return _parse(build_parser(), list(argv))[1] or None
    except SystemExit:
        return None


def main(argv: Sequence[str] | None = None, prog: str = "mizerka-bot stdio") -> int:
    """Run the bridge; returns the exit code (0 done, 1 refused/error, 2 usage, 130 Ctrl-C)."""
    parser = build_parser(prog)
    args, command = _parse(parser, list(sys.argv[1:] if argv is None else argv))
    if not command:
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: no program given: {prog} [options] -- CMD [ARGS...]", file=sys.stderr)
        return 2
    for flag, value in (("--parallel", args.parallel), ("--games", args.games)):
        if value is not None and value < 1:
            print(f"{prog}: error: {flag} must be at least 1", file=sys.stderr)
            return 2
    if args.max_restarts < 0:
        print(f"{prog}: error: --max-restarts must be at least 0", file=sys.stderr)
        return 2
    tls = tls_from_arguments(args)
    try:
        parallel = parallel_setting(args.parallel)
        connection_settings(args.server, tls)  # an unusable TLS setting is bad usage, like a bad --parallel
    except MizerkaError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    level = logging.WARNING if args.verbose == 0 else logging.INFO if args.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("mizerka").setLevel(min(level, logging.INFO) if args.verbose else level)
    transcript = open(args.transcript, "a", encoding="utf-8") if args.transcript else None  # noqa: SIM115
    started = time.monotonic()
    try:
        stats = run_stdio(command, args.server, args.token, parallel=parallel, games=args.games, name=args.name,
                          events=args.events, max_restarts=args.max_restarts, transcript=transcript,
                          live_events=args.live_events, tls=tls)
    except MizerkaError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    finally:
        if transcript is not None:
            transcript.close()
    print(f"{prog}: {stats.games} games, {stats.decisions} decisions, {stats.refusals} refused, {stats.garbage} "
          f"unreadable lines, {stats.stale} stale answers, {stats.restarts} restarts, {stats.reconnects} reconnects "
          f"in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 130 if stats.interrupted else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
