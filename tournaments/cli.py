"""The ``mizerka`` command: the server's commands (``server.cli``) with leagues, reports, match logs
and built-in bots, which need the layers above the server (tournaments, the bot SDK)."""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import trio
import typer
from click.core import ParameterSource
from rich.console import Console

from mizerka.cli import main as bot_main
from mizerka.connection import Connection, ConnectionSettingsError, Tls
from server.cli import app, usage_error
from server.logs import configure_logging, private_umask
from server.store import DatabaseError, StoreError
from tournaments.config import League, LeagueError, load_league
from tournaments.live import Reporter, head_to_head_table, standings_table
from tournaments.logcli import match_app, replay_command, rerun_command
from tournaments.report import ReportError, write_report
from tournaments.runner import Stopped, run_league
from tournaments.stats import Standings
from tournaments.store import LeagueStore, load_results

league_app = typer.Typer(help="Leagues: round-robins and gauntlets of bot programs.", no_args_is_help=True)
app.add_typer(league_app, name="league")
app.add_typer(match_app, name="match")
app.command("replay")(replay_command)
app.command("rerun")(rerun_command)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []})
def bot(ctx: typer.Context) -> None:
    """Connect a built-in bot to a referee: mizerka bot NAME [--server HOST:PORT] [--token T] [--parallel N] (see --help)."""
    raise typer.Exit(bot_main(list(ctx.args), prog="mizerka bot"))


def _leaves(error: BaseException) -> Iterator[BaseException]:
    """The exceptions inside (possibly nested) exception groups."""
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def _remote(server: str | None, tls: Tls) -> Connection | None:
    """How to reach ``--server`` (TLS from the flags, else the MIZERKA_TLS* variables); None: the
    runner starts its own referee on loopback, in plain text, so TLS flags make no sense."""
    if server is None:
        if tls.requested:
            raise usage_error("the --tls options are for a running referee: give --server HOST:PORT too")
        return None
    try:
        return Connection.resolve(server, tls)
    except ConnectionSettingsError as e:
        raise usage_error(str(e)) from None


def _league(path: Path) -> League:

    try:
        return load_league(path)
    except LeagueError as e:
        raise usage_error(str(e)) from None


@league_app.command("run")
def league_run(
    ctx: typer.Context,
    league_file: Annotated[Path, typer.Argument(help="The league file (TOML), see docs/leagues.md.")],
    server: Annotated[str | None, typer.Option(help="Use this running referee (HOST:PORT) instead of starting one.")] = None,
    admin_token: Annotated[str | None, typer.Option(envvar="MIZERKA_ADMIN_TOKEN", help="The referee's admin token (needed with --server; else the local referee's, by default kept in DATA/league.sqlite.admin-token). Prefer $MIZERKA_ADMIN_TOKEN: a command line is visible to every user.")] = None,
    fresh: Annotated[bool, typer.Option(help="Forget this league's stored results and play it from the start.")] = False,
    tls: Annotated[bool, typer.Option("--tls", help="Reach --server over TLS (default: $MIZERKA_TLS, or any TLS setting, or an https:// address); its bots are told to as well.")] = False,
    tls_ca: Annotated[str | None, typer.Option(metavar="PEM", help="With --server: CA certificates to trust (default: $MIZERKA_TLS_CA; else the system's).")] = None,
    tls_cert: Annotated[str | None, typer.Option(metavar="PEM", help="With --server: client certificate for mutual TLS, for the runner and its bots (default: $MIZERKA_TLS_CERT).")] = None,
    tls_key: Annotated[str | None, typer.Option(metavar="PEM", help="With --server: the key of --tls-cert (default: $MIZERKA_TLS_KEY).")] = None,
    tls_server_name: Annotated[str | None, typer.Option(metavar="NAME", help="With --server: the name the referee's certificate carries, if not its host's (default: $MIZERKA_TLS_SERVER_NAME).")] = None,
) -> None:
    """Play a league (resuming it if it was interrupted) and print the standings."""
    league = _league(league_file)
    remote = _remote(server, Tls(tls, tls_ca, tls_cert, tls_key, tls_server_name))
    private_umask()  # the database (its -wal/-shm), logs and token file are the user's alone
    if admin_token and ctx.get_parameter_source("admin_token") == ParameterSource.COMMANDLINE:
        print("warning: --admin-token is visible to every user of this machine (ps, /proc); prefer "
              "$MIZERKA_ADMIN_TOKEN", file=sys.stderr)
    configure_logging("json", "warning")
    console = Console(width=max(Console().width, 120) if not Console().is_terminal else None)
    readers: list[LeagueStore] = []  # opened at the first refresh, once the runner has set up the database

    def live_standings() -> Standings:
        if not readers:
            readers.append(LeagueStore(league.database))
        return load_results(readers[0], league)

    reporter = Reporter(console, league.name, live_standings)
    try:
        result = trio.run(run_league, league, reporter, remote, admin_token, fresh)
    except BaseException as e:  # trio wraps what its nurseries raise in exception groups
        leaves = list(_leaves(e))
        reporter.close()
        stopped = next((x for x in leaves if isinstance(x, (Stopped, KeyboardInterrupt))), None)
        if stopped is not None:  # SIGINT (Ctrl-C) or SIGTERM: the games in flight were aborted
            console.print("stopped: every finished game is stored, the games in flight will be played again; "
                          "run the same command again to resume")
            raise typer.Exit(128 + (stopped.signum if isinstance(stopped, Stopped) else signal.SIGINT)) from None
        if all(isinstance(x, (StoreError, RuntimeError, OSError)) for x in leaves):
            raise usage_error("; ".join(str(x) for x in leaves)) from None
        raise
    finally:
        reporter.close()
        for reader in readers:
            reader.close()
    console.print(standings_table(result, f"{league.name}: standings after {result.games} games"))
    console.print(head_to_head_table(result))


@league_app.command("standings")
def league_standings(
    league_file: Annotated[Path, typer.Argument(help="The league file (TOML).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Print a league's standings: ratings, points per game with 95% intervals, head to head, faults."""
    league = _league(league_file)
    if not league.has_database:
        raise usage_error(f"league {league.name!r} has no results yet ({league.db_path} does not exist): run it first")
    try:
        store = LeagueStore(league.database)
    except DatabaseError as e:
        raise usage_error(str(e)) from None
    try:
        result = load_results(store, league)
    finally:
        store.close()
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
        return
    console = Console(width=max(Console().width, 120))
    console.print(standings_table(result, f"{league.name}: standings after {result.games} games"))
    console.print(head_to_head_table(result))


@app.command("report")
def report(
    league_file: Annotated[Path, typer.Argument(help="The league file (TOML).")],
    out: Annotated[Path, typer.Option(help="Folder for the site (index.html, matches/, assets/).")] = Path("report"),
) -> None:
    """Write a league's static web report: standings, rating chart, head to head, failures and a replay page per game."""
    league = _league(league_file)
    try:
        summary = write_report(league, out)
    except (ReportError, DatabaseError) as e:
        raise usage_error(str(e)) from None
    print(f"wrote {out / 'index.html'} and {summary.games} game pages; open it in a browser (see docs/report.md)")
    if summary.failed:
        raise usage_error(f"{len(summary.failed)} games could not be shown: {'; '.join(summary.failed)}", 1)


def main() -> None:
    app()
