"""``mizerka-bot NAME [--server HOST:PORT] [--token T] [--parallel N] [--games N]``: run a built-in bot.

``mizerka-bot stdio [options] -- CMD ARGS...`` runs the stdio bridge instead: a program in any
language that speaks JSON Lines on stdin/stdout plays through it (:mod:`mizerka.stdio`).

The launch contract of every bot program: the server address comes from ``MIZERKA_SERVER``, the
token from ``MIZERKA_TOKEN`` and the number of games to play at once from ``MIZERKA_PARALLEL``
(default 1); ``--server``, ``--token`` and ``--parallel`` override them.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from mizerka.bots import BOTS, make_factory
from mizerka.connection import add_tls_arguments, tls_from_arguments
from mizerka.runtime import (
    DEFAULT_SERVER,
    ENV_PARALLEL,
    ENV_SERVER,
    ENV_TOKEN,
    MizerkaError,
    connection_settings,
    parallel_setting,
    run,
)
from mizerka.stdio.cli import main as stdio_main

__all__ = ["main", "build_parser"]


def build_parser(prog: str = "mizerka-bot") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        usage=f"{prog} [options] NAME\n       {prog} stdio [options] -- CMD ARGS...",
        description="Connect a built-in Mizerka bot to a referee and play the games it is seated in; "
        "or, with stdio, play through a program of your own in any language (JSON Lines on stdin/stdout).",
        epilog=f"Environment: {ENV_SERVER} (default {DEFAULT_SERVER}), {ENV_TOKEN} and {ENV_PARALLEL} (default 1); "
        f"flags override them; TLS settings come from MIZERKA_TLS* (see the TLS flags). '{prog} stdio [options] -- CMD ARGS...' plays through a program that speaks JSON "
        f"Lines on stdin/stdout instead (see '{prog} stdio --help' and docs/stdio-protocol.md).",
    )
    p.add_argument("bot", metavar="NAME", choices=sorted(BOTS), help=f"the bot: {', '.join(sorted(BOTS))} (or stdio: see '{prog} stdio --help')")
    p.add_argument("--server", help=f"referee address HOST:PORT (default: ${ENV_SERVER} or {DEFAULT_SERVER})")
    p.add_argument("--token", help=f"the bot's token (default: ${ENV_TOKEN})")
    p.add_argument("--parallel", type=int, default=None, metavar="N",
                   help=f"games to play at once, one Play stream each (default: ${ENV_PARALLEL} or 1)")
    p.add_argument("--games", type=int, default=None, metavar="N", help="stop after N games (default: never)")
    p.add_argument("--name", help="name sent in Hello (default: the bot's)")
    p.add_argument("--seed", type=int, default=None, help="seed for bots that draw random numbers")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-v info, -vv debug)")
    add_tls_arguments(p)
    return p


def main(argv: Sequence[str] | None = None, prog: str = "mizerka-bot") -> int:
    """Run a built-in bot; returns the process exit code (0 done, 1 refused/error, 2 usage, 130 Ctrl-C)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["stdio"]:
        return stdio_main(argv[1:], prog=f"{prog} stdio")
    args = build_parser(prog).parse_args(argv)
    if args.parallel is not None and args.parallel < 1:
        print(f"{prog}: error: --parallel must be at least 1", file=sys.stderr)
        return 2
    tls = tls_from_arguments(args)
    try:
        parallel = parallel_setting(args.parallel)
        connection_settings(args.server, tls)  # an unusable TLS setting is bad usage, like a bad --parallel
    except MizerkaError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    if args.games is not None and args.games < 1:
        print(f"{prog}: error: --games must be at least 1", file=sys.stderr)
        return 2
    level = logging.WARNING if args.verbose == 0 else logging.INFO if args.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("mizerka").setLevel(min(level, logging.INFO))
    try:
        stats = run(make_factory(args.bot, seed=args.seed), args.server, args.token, parallel=parallel,
                    games=args.games, name=args.name, tls=tls)
    except MizerkaError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    print(f"{prog}: {stats.games} games, {stats.decisions} decisions, {stats.refusals} refused, "
          f"{stats.fallbacks} fallbacks, {stats.reconnects} reconnects", file=sys.stderr)
    return 130 if stats.interrupted else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
