"""The ``mizerka`` command."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from server.conformance import CaseError, case_files, compare, load_case, run_case
from server.engine.game import Game
from server.engine.rules import PRESETS, RulesError, load_ruleset
from server.policies import random_action
from server.scoresheet import render_scoresheet

app = typer.Typer(help="Mizerka Arena: rules engine, referee and leagues for Mizerka bots.", no_args_is_help=True)
rules_app = typer.Typer(help="Rules conformance cases (shared/conformance/FORMAT.md).", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
league_app = typer.Typer(help="Leagues: round-robins and gauntlets of bot programs.", no_args_is_help=True)
app.add_typer(league_app, name="league")


def _fail(message: str, code: int = 2) -> typer.Exit:
    print(f"error: {message}", file=sys.stderr)
    return typer.Exit(code)


@rules_app.command("run")
def rules_run(case: Annotated[Path, typer.Argument(help="A case file (JSON).")]) -> None:
    """Run one case and print its result object as JSON."""
    try:
        result = run_case(load_case(case))
    except CaseError as e:
        raise _fail(str(e)) from None
    print(json.dumps(result))


@rules_app.command("check")
def rules_check(paths: Annotated[list[Path], typer.Argument(help="Case files or folders of *.json.")]) -> None:
    """Run cases, compare with their expectations, print ok/FAIL per case and a closing count."""
    passed = failed = 0
    for path in case_files(paths):
        name = path.stem
        try:
            case = load_case(path)
            name = case.get("name", name) if isinstance(case, dict) else name
            diffs = compare(case, run_case(case))
        except CaseError as e:
            diffs = [f"malformed: {e}"]
        if diffs:
            failed += 1
            print(f"FAIL {name}: {'; '.join(diffs)}")
        else:
            passed += 1
            print(f"ok {name}")
    print(f"{passed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


@app.command()
def demo(
    preset: Annotated[str, typer.Option(help=f"One of: {', '.join(PRESETS)}.")] = "mizerka",
    seed: Annotated[int, typer.Option(help="Game seed: the same seed deals the same cards.")] = 1,
) -> None:
    """Play one full game of built-in random players and print the score sheet."""
    try:
        rules = load_ruleset(preset)
    except RulesError as e:
        raise _fail(str(e)) from None
    game = Game(rules, seed=seed)
    rngs = [random.Random(f"{seed}:{s}") for s in range(rules.players)]
    while not game.finished:
        game.apply(game.to_act, random_action(game, rngs[game.to_act]))
    names = [f"random-{s}" for s in range(rules.players)]
    Console(width=max(Console().width, 120)).print(render_scoresheet(rules, game.results, names, title=f"{preset}, seed {seed}"))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 50051,
    db: Annotated[str, typer.Option(help="SQLite file, or a SQLAlchemy URL (postgresql+psycopg://...).")] = "data/arena.sqlite",
    admin_token: Annotated[str | None, typer.Option(help="Admin token for Arena calls (else $MIZERKA_ADMIN_TOKEN, else a file beside the db).")] = None,
    decision_ms: Annotated[int, typer.Option(help="Default free time per decision, ms.")] = 10_000,
    bank_ms: Annotated[int, typer.Option(help="Default time bank per game, ms.")] = 60_000,
    increment_ms: Annotated[int, typer.Option(help="Default bank increment per decision, ms.")] = 0,
    max_strikes: Annotated[int, typer.Option(help="Default strikes before a seat is forfeited (0: never).")] = 3,
    seat_timeout: Annotated[float, typer.Option(help="Seconds a match waits for its bots' streams before the default policy plays the missing seats.")] = 60.0,
    log_format: Annotated[str, typer.Option(help="auto, console or json.")] = "auto",
    ready_file: Annotated[Path | None, typer.Option(help="Write host:port here once listening (for scripts).")] = None,
) -> None:
    """Run the referee: bots connect to play, admins create matches, anyone may watch."""
    import asyncio

    from server.logs import configure_logging
    from server.referee.clock import ClockSettings
    from server.serve import admin_token_for
    from server.serve import serve as run_server

    if log_format not in ("auto", "console", "json"):
        raise _fail(f"--log-format must be auto, console or json, not {log_format!r}")
    configure_logging(log_format)  # type: ignore[arg-type]
    try:
        clock = ClockSettings(decision_ms, bank_ms, increment_ms, max_strikes)
    except ValueError as e:
        raise _fail(str(e)) from None
    token = admin_token_for(db, admin_token)
    try:
        asyncio.run(run_server(host, port, db, token, clock, seat_timeout, ready_file))
    except OSError as e:
        raise _fail(str(e)) from None


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []})
def bot(ctx: typer.Context) -> None:
    """Connect a built-in bot to a referee: mizerka bot NAME [--server HOST:PORT] [--token T] [--parallel N] (see --help)."""
    from mizerka.cli import main as bot_main

    raise typer.Exit(bot_main(list(ctx.args), prog="mizerka bot"))


def _leaves(error: BaseException):  # type: ignore[no-untyped-def]
    """The exceptions inside (possibly nested) exception groups."""
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def _league(path: Path):  # type: ignore[no-untyped-def]
    from tournaments.config import LeagueError, load_league

    try:
        return load_league(path)
    except LeagueError as e:
        raise _fail(str(e)) from None


@league_app.command("run")
def league_run(
    league_file: Annotated[Path, typer.Argument(help="The league file (TOML), see docs/leagues.md.")],
    server: Annotated[str | None, typer.Option(help="Use this running referee (HOST:PORT) instead of starting one.")] = None,
    admin_token: Annotated[str | None, typer.Option(envvar="MIZERKA_ADMIN_TOKEN", help="The referee's admin token (with --server).")] = None,
    fresh: Annotated[bool, typer.Option(help="Forget this league's stored results and play it from the start.")] = False,
) -> None:
    """Play a league (resuming it if it was interrupted) and print the standings."""
    import trio

    from server.logs import configure_logging
    from server.store import Store, StoreError
    from tournaments.live import Reporter, head_to_head_table, standings_table
    from tournaments.runner import load_results, run_league

    league = _league(league_file)
    configure_logging("json", "warning")
    console = Console(width=max(Console().width, 120) if not Console().is_terminal else None)
    readers: list[Store] = []  # opened at the first refresh, once the runner has set up the database

    def live_standings():  # type: ignore[no-untyped-def]
        if not readers:
            readers.append(Store(league.db_path))
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
            raise _fail("; ".join(str(x) for x in leaves)) from None
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
    from server.store import Store
    from tournaments.live import head_to_head_table, standings_table
    from tournaments.runner import load_results

    league = _league(league_file)
    if not league.db_path.exists():
        raise _fail(f"league {league.name!r} has no results yet ({league.db_path} does not exist): run it first")
    store = Store(league.db_path)
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
    from tournaments.report import ReportError, write_report

    league = _league(league_file)
    try:
        summary = write_report(league, out)
    except ReportError as e:
        raise _fail(str(e)) from None
    print(f"wrote {out / 'index.html'} and {summary.games} game pages; open it in a browser (see docs/report.md)")
    if summary.failed:
        raise _fail(f"{len(summary.failed)} games could not be shown: {'; '.join(summary.failed)}", 1)


from server.logcli import match_app, replay_command, rerun_command  # noqa: E402  (match logs: docs/match-log.md)

app.add_typer(match_app, name="match")
app.command("replay")(replay_command)
app.command("rerun")(rerun_command)


def main() -> None:
    app()
