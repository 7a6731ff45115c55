"""``mizerka league run|standings``, ``mizerka worker`` and ``mizerka report``: leagues played on
this host or by workers, and what they leave behind."""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Annotated

import structlog
import trio
import typer
from click.core import ParameterSource
from prometheus_client import CollectorRegistry
from rich.console import Console

from mizerka.connection import Connection, ConnectionSettingsError, Tls
from server.commands import usage_error
from server.logs import configure_logging
from server.metrics import start_metrics_server
from server.private_files import private_umask
from server.storage.database import is_postgres
from server.storage.store import DatabaseError, StoreError
from server.text import counted
from tournaments import progress
from tournaments.bot_commands import BotCommandError, check_commands
from tournaments.config import League, LeagueError, load_league
from tournaments.live import Reporter, head_to_head_table, standings_table
from tournaments.local_referee import LOCAL_HOST
from tournaments.report import ReportError, write_report
from tournaments.runner import Stopped, run_league
from tournaments.standings.league import load_results
from tournaments.standings.stats import Standings
from tournaments.store import LeagueStore
from tournaments.workers.submitter import submit_league
from tournaments.workers.worker import WorkerSettings, run_worker

worker_log = structlog.get_logger("mizerka.worker")

league_app = typer.Typer(help="Leagues: round-robins and gauntlets of bot programs.", no_args_is_help=True, add_completion=False)
worker_app = typer.Typer(add_completion=False)
report_app = typer.Typer(add_completion=False)


def _leaves(error: BaseException) -> Iterator[BaseException]:
    """The exceptions inside (possibly nested) exception groups."""
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def _remote(server: str | None, tls: Tls) -> Connection | None:
    """How to reach ``--server`` (TLS from the flags, else the MIZERKA_TLS* variables); None: the
    runner starts its own referee (on loopback unless --host), in plain text, so TLS flags make no sense."""
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
    here: Annotated[bool, typer.Option("--here", help="On a PostgreSQL database: play the games on this host (its own referee and bots) instead of submitting them to the workers (mizerka worker).")] = False,
    tls: Annotated[bool, typer.Option("--tls", help="Reach --server over TLS (default: $MIZERKA_TLS, or any TLS setting, or an https:// address); its bots are told to as well.")] = False,
    tls_ca: Annotated[str | None, typer.Option(metavar="PEM", help="With --server: CA certificates to trust (default: $MIZERKA_TLS_CA; else the system's).")] = None,
    tls_cert: Annotated[str | None, typer.Option(metavar="PEM", help="With --server: client certificate for mutual TLS, for the runner and its bots (default: $MIZERKA_TLS_CERT).")] = None,
    tls_key: Annotated[str | None, typer.Option(metavar="PEM", help="With --server: the key of --tls-cert (default: $MIZERKA_TLS_KEY).")] = None,
    tls_server_name: Annotated[str | None, typer.Option(metavar="NAME", help="With --server: the name the referee's certificate carries, if not its host's (default: $MIZERKA_TLS_SERVER_NAME).")] = None,
    host: Annotated[str, typer.Option(help="Where the league's own referee listens: 0.0.0.0 (or an address of this machine) lets remote bots connect. Plain text: tokens cross the network unencrypted.")] = LOCAL_HOST,
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port of the league's own referee (0: any free port).")] = 0,
    http_port: Annotated[int | None, typer.Option(min=0, max=65535, metavar="PORT", help="The league's own referee serves its web page here: live matches, live standings (0: any free port; the runner prints the page's address). docs/web.md.")] = None,
    http_host: Annotated[str, typer.Option(help="Address of that web page; the default keeps it on this machine.")] = "127.0.0.1",
) -> None:
    """Play a league (resuming it if it was interrupted) and print the standings."""
    league = _league(league_file)
    remote = _remote(server, Tls(tls, tls_ca, tls_cert, tls_key, tls_server_name))
    if remote is not None and (host != LOCAL_HOST or port or http_port is not None):
        raise usage_error("--host, --port and --http-port are for the league's own referee: not with --server")
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
    to_workers = remote is None and not here and is_postgres(league.database)
    if to_workers and (host != LOCAL_HOST or port or http_port is not None):
        raise usage_error("--host, --port and --http-port are for the league's own referee: the workers run theirs (or use --here)")
    if not to_workers:  # this host starts the bots (a submitted league's workers check theirs: cannot-play)
        try:
            check_commands(league)
        except BotCommandError as e:
            raise usage_error(str(e)) from None
    try:
        if to_workers:
            result = trio.run(submit_league, league, reporter, fresh)
        else:
            http = None if http_port is None else (http_host, http_port)
            result = trio.run(partial(run_league, host=host, port=port, http=http), league, reporter, remote, admin_token, fresh)
    except BaseException as e:  # trio wraps what its nurseries raise in exception groups
        leaves = list(_leaves(e))
        reporter.close()
        stopped = next((x for x in leaves if isinstance(x, (Stopped, KeyboardInterrupt))), None)
        if stopped is not None and to_workers:  # only the view stops: the workers go on
            console.print("stopped following the league; the workers go on playing it: run the same command again "
                          "to follow it")
            raise typer.Exit(128 + signal.SIGINT) from None
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
    console.print(standings_table(result, f"{league.name}: standings after {counted(result.games, 'game')}"))
    console.print(head_to_head_table(result))
    if reporter.unsandboxed:
        console.print(f"[bold red]{reporter.unsandboxed}[/]", highlight=False)
    if failed := reporter.failure_summary():
        raise usage_error(f"league {league.name}: {failed}", 1)


@worker_app.command()
def worker(
    db: Annotated[str, typer.Option(help="The PostgreSQL database leagues are submitted to (postgresql://USER@HOST:PORT/DB; the password from $PGPASSWORD or ~/.pgpass).")],
    slots: Annotated[int, typer.Option(help="Games this worker plays at once.")] = 1,
    data: Annotated[Path, typer.Option(help="Folder for this worker's logs (its referee's and bots'), one folder per league.")] = Path("data/worker"),
    lease_s: Annotated[float, typer.Option(help="Seconds a lease lasts without a heartbeat (renewed every third of it); a dead worker's games are retaken after this.")] = 30.0,
    metrics_port: Annotated[int | None, typer.Option(help="Expose Prometheus metrics on this port (0: any free port; default: off).")] = None,
    metrics_host: Annotated[str, typer.Option(help="Address of the metrics endpoint.")] = "127.0.0.1",
    http_port: Annotated[int | None, typer.Option(min=0, max=65535, metavar="PORT", help="Its referee serves the web page here while it plays a league: live matches, standings (0: any free port; logged as a web-page event with its url). docs/web.md.")] = None,
    http_host: Annotated[str, typer.Option(help="Address of that web page.")] = "127.0.0.1",
    log_format: Annotated[str, typer.Option(help="auto, console or json.")] = "auto",
) -> None:
    """Play the games of leagues submitted to a PostgreSQL database, with this host's referee and bot processes (docs/scale-out.md)."""
    if log_format not in ("auto", "console", "json"):
        raise usage_error(f"--log-format must be auto, console or json, not {log_format!r}")
    if not is_postgres(db):
        raise usage_error("--db must be a PostgreSQL URL (postgresql://...): workers share leagues through PostgreSQL; "
                          "a league on a SQLite file is played on its own host with `mizerka league run`")
    if slots < 1:
        raise usage_error(f"--slots must be at least 1, got {slots}")
    if not lease_s >= 3:
        raise usage_error(f"--lease-s must be at least 3 seconds, got {lease_s:g}")
    configure_logging(log_format)  # type: ignore[arg-type]
    private_umask()  # its logs hold tokens' owners and hands: the user's alone
    registry = CollectorRegistry()
    if metrics_port is not None:
        try:
            bound = start_metrics_server(registry, metrics_host, metrics_port)
        except (OSError, ValueError) as e:
            raise usage_error(f"--metrics-port {metrics_port}: {e}") from None
        worker_log.info("metrics listening", address=f"{metrics_host}:{bound}")

    def report(event: progress.Event) -> None:
        worker_log.info(event.name, **event.fields())

    settings = WorkerSettings(db, slots, data, lease_s, http=None if http_port is None else (http_host, http_port))
    try:
        signum = trio.run(run_worker, settings, report, registry)
    except BaseException as e:  # trio wraps what its nurseries raise in exception groups
        leaves = list(_leaves(e))
        if all(isinstance(x, (StoreError, DatabaseError, RuntimeError, OSError)) for x in leaves):
            raise usage_error("; ".join(str(x) for x in leaves)) from None
        raise
    raise typer.Exit(128 + signum if signum else 0)


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
    console.print(standings_table(result, f"{league.name}: standings after {counted(result.games, 'game')}"))
    console.print(head_to_head_table(result))


@report_app.command("report")
def report(
    league_file: Annotated[Path, typer.Argument(help="The league file (TOML).")],
    out: Annotated[Path | None, typer.Option(help="Folder for the site (index.html, matches/, assets/, manifest.json); default: DATA/report/NAME beside the league's database, where its referee's web page serves it from.")] = None,
    unfinished: Annotated[bool, typer.Option("--unfinished", help="Write it also for a league not over yet (games playing, or its finished games sealed): it shows their hands, so keep it to yourself; the web page does not serve it while the league is sealed.")] = False,
) -> None:
    """Write a league's static web report: standings, rating chart, head to head, failures and a replay page per game."""
    league = _league(league_file)
    try:
        summary = write_report(league, out, unfinished=unfinished)
    except (ReportError, DatabaseError, OSError) as e:  # OSError: the folder cannot be written
        raise usage_error(str(e)) from None
    print(f"wrote {summary.out / 'index.html'} and {counted(summary.games, 'game page')}; open it in a browser (see docs/report.md)")
    if summary.unfinished:
        print(f"warning: {summary.unfinished}: this report shows every hand of them, keep it to yourself "
              "(the web page does not serve it while the league is sealed)", file=sys.stderr)
    if summary.failed:
        raise usage_error(f"{counted(len(summary.failed), 'game')} could not be shown: {'; '.join(summary.failed)}", 1)
