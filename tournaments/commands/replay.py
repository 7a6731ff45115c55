"""``mizerka replay``: a match log verified through the engine, shown trick by trick (--text), as a
seat saw it (--seat, tournaments.commands.seat_replay) or answered by another bot (--bot); and how
``mizerka rerun`` (tournaments.commands.rerun) reads and verifies a log.

The format is docs/match-log.md. Exit codes: 0 done (verified, no differences), 1 the log does not
verify or a bot differs from it, 2 a usage error or a file that is no match log. Replaying a log
file loads the engine and the log's format alone: the store, the wire, the bot SDK and rich load
only for the options that need them (a match id, --league, --seat, --text).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from mizerka_engine.events import ACTION_EVENTS, GameOver
from mizerka_engine.views import FULL, project_events
from server.codec import matchlog
from server.codec.matchlog import GameLog
from server.commands import usage_error
from server.describe import EventText
from server.logverify import Divergence, Verified, verify_game
from server.text import printable
from tournaments.commands.match_options import DEFAULT_DB, DbOption, LeagueOption, source

replay_app = typer.Typer(add_completion=False)


# ------------------------------------------------------------------------------ loading a log
def load_games(file_or_id: str, db: str, game: int | None) -> list[GameLog]:
    """The games of a match log file ('-': standard input) or of a stored match."""

    path = Path(file_or_id)
    if file_or_id == "-":
        text = sys.stdin.read()
    elif path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise usage_error(f"cannot read {file_or_id}: {e}") from None
    else:  # a match id: the store (SQLAlchemy) is loaded for it alone, not for a log file
        from tournaments.commands.stored_matches import stored_log_text
        text = stored_log_text(file_or_id, db, game)
    try:
        games = matchlog.parse_match_log(text)
    except matchlog.MatchLogError as e:
        raise usage_error(f"{file_or_id}: {e}") from None
    if game is not None:
        games = [g for g in games if g.game == game]
        if not games:
            raise usage_error(f"{file_or_id} holds no game {game}")
    return games


def one_game(games: list[GameLog], file_or_id: str, what: str) -> GameLog:
    """The one game a command (``what``) works on, or a usage error naming the games to choose from."""
    if len(games) != 1:
        numbers = ", ".join(str(g.game) for g in games)
        raise usage_error(f"{file_or_id} holds {len(games)} games ({numbers}): choose one with --game N for {what}")
    return games[0]


def verified(g: GameLog, prefix: str = "") -> Verified:
    """The game verified, or exit 1 printing where the log stops following from the rules."""
    try:
        return verify_game(g)
    except Divergence as e:
        print(f"{prefix}not verified: {e}")
        raise typer.Exit(1) from None


# ------------------------------------------------------------------------------ text renderings
def _header_text(g: GameLog) -> list[str]:
    seats = []
    for s, info in enumerate(g.header["seats"]):
        hello = printable(" ".join(str(x) for x in (info.get("hello_name"), info.get("version")) if x))
        seats.append(f"{s} {printable(g.names[s])}" + (f" [{hello}]" if hello else ""))
    match = f" of match {printable(g.match)}" if g.match else ""
    return [f"game {g.game}{match}: {g.rules.preset}, seed {g.seed!r}", f"seats: {', '.join(seats)}"]


def game_text(v: Verified) -> Iterator[str]:
    """The game deal by deal and trick by trick (the FULL projection), each action with any default."""

    g = v.log
    steps = iter(v.steps)
    yield from _header_text(g)
    text = EventText(g.rules, tricks=True)
    for e in project_events(v.game, FULL):
        note = ""
        if isinstance(e, ACTION_EVENTS):
            step = next(steps)
            if step.default is not None:
                note = f" (default: {step.default})"
        elif isinstance(e, GameOver):
            note = f", ranks {' '.join(map(str, v.ranks))}"
        yield from text.lines(e, note)


def _print_scoresheet(v: Verified) -> None:
    """The game's score sheet (rich, loaded for --text alone)."""
    from rich.console import Console

    from server.scoresheet import render_scoresheet
    g = v.log
    Console(width=max(Console().width, 120)).print(
        render_scoresheet(g.rules, v.game.results, g.names, title=f"game {g.game}, seed {g.seed!r}"))


# ------------------------------------------------------------------------------ replay
@replay_app.command("replay")
def replay_command(
    file_or_id: Annotated[str | None, typer.Argument(metavar="[FILE_OR_ID]", help="A match log (JSON Lines; '-' for standard input) or a match id in --db.")] = None,
    db: DbOption = DEFAULT_DB,
    league: LeagueOption = None,
    game: Annotated[int | None, typer.Option(help="Only this game of the file or match (from 0).")] = None,
    text: Annotated[bool, typer.Option("--text", help="Print the game trick by trick and its score sheet.")] = False,
    seat: Annotated[int | None, typer.Option(help="Print what this seat was sent, from the referee's projection.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="With --seat: the stdio protocol's lines instead of words.")] = False,
    bot: Annotated[str | None, typer.Option(help="With --seat: send the seat's decisions to this bot and report where it differs "
                                                 "from the log: builtin:NAME or the command line of a stdio program.")] = None,
    answer_timeout: Annotated[float, typer.Option(help="Seconds a stdio program may take to answer one decision.")] = 10.0,
) -> None:
    """Re-execute a match log through the engine and verify every recorded outcome.

    Exit 0 with "verified: ..." when every line follows from the rules, 1 naming the first line that does not, 2 for a file that is no match log.
    """

    if bot is not None and seat is None:
        raise usage_error("--bot needs --seat N: the seat whose decisions are sent to the bot")
    if as_json and seat is None:
        raise usage_error("--json goes with --seat N")
    file_or_id, db = source(file_or_id, league, db, "a match log or match id")
    games = load_games(file_or_id, db, game)
    if seat is None:
        for g in games:
            prefix = f"game {g.game}: " if len(games) > 1 else ""
            v = verified(g, prefix)
            if text:
                for line in game_text(v):
                    print(line)
                print()
                _print_scoresheet(v)
            print(f"{prefix}verified: {v.summary()}")
        return
    g = one_game(games, file_or_id, "--seat")
    if not 0 <= seat < g.rules.players:
        raise usage_error(f"--seat must be a seat 0..{g.rules.players - 1} of {g.rules.preset}")
    verified(g)
    from tournaments.commands.seat_replay import print_seat, refeed_seat  # the wire and the bot SDK, for --seat alone
    if bot is None:
        print_seat(g, seat, as_json)
    else:
        refeed_seat(g, seat, bot, answer_timeout)
