"""The ``mizerka`` command: the server's commands (``server.cli``) with leagues, reports, match logs
and built-in bots, which need the layers above the server (tournaments, the bot SDK)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import trio
import typer
from rich.console import Console

from mizerka.cli import main as bot_main
from server.cli import app, usage_error
from server.logs import configure_logging
from server.store import StoreError
from tournaments.config import League, LeagueError, load_league
from tournaments.live import Reporter, head_to_head_table, standings_table
from tournaments.logcli import match_app, replay_command, rerun_command
from tournaments.report import ReportError, write_report
from tournaments.runner import run_league
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


def _league(path: Path) -> League:

    try:
        return load_league(path)
    except LeagueError as e:
        raise usage_error(str(e)) from None


@league_app.command("run")
def league_run(
    league_file: Annotated[Path, typer.Argument(help="The league file (TOML), see docs/leagues.md.")],
    server: Annotated[str | None, typer.Option(help="Use this running referee (HOST:PORT) instead of starting one.")] = None,
    admin_token: Annotated[str | None, typer.Option(envvar="MIZERKA_ADMIN_TOKEN", help="The referee's admin token (with --server).")] = None,
    fresh: Annotated[bool, typer.Option(help="Forget this league's stored results and play it from the start.")] = False,
) -> None:
    """Play a league (resuming it if it was interrupted) and print the standings."""
    league = _league(league_file)
    configure_logging("json", "warning")
    console = Console(width=max(Console().width, 120) if not Console().is_terminal else None)
    readers: list[LeagueStore] = []  # opened at the first refresh, once the runner has set up the database

    def live_standings() -> Standings:
        if not readers:
            readers.append(LeagueStore(league.db_path))
        return load_results(readers[0], league)

    reporter = Reporter(console, league.name, live_standings)
    try:
        result = trio.run(run_league, league, reporter, server, admin_token, fresh)
    except BaseException as e:  # trio wraps what its nurseries raise in exception groups
        leaves = list(_leaves(e))
        reporter.close()
        if any(isinstance(x, KeyboardInterrupt) for x in leaves):
            console.print("stopped: every finished game is stored; run the same command again to resume")
            raise typer.Exit(130) from None
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
    if not league.db_path.exists():
        raise usage_error(f"league {league.name!r} has no results yet ({league.db_path} does not exist): run it first")
    store = LeagueStore(league.db_path)
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
    except ReportError as e:
        raise usage_error(str(e)) from None
    print(f"wrote {out / 'index.html'} and {summary.games} game pages; open it in a browser (see docs/report.md)")
    if summary.failed:
        raise usage_error(f"{len(summary.failed)} games could not be shown: {'; '.join(summary.failed)}", 1)


def main() -> None:
    app()
