"""``mizerka replay`` and ``mizerka rerun``: match logs on the command line (``mizerka match`` is
tournaments.match_cli).

The format is docs/match-log.md. Exit codes: 0 done (verified, no differences), 1 the log does not
verify or a bot differs from it, 2 a usage error or a file that is no match log.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from mizerka import stdio
from mizerka.bots import BOTS
from mizerka_engine.events import ACTION_EVENTS, GameOver, contract_label
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import FULL, project_events
from mizerka_proto import events_pb2, referee_pb2
from server import matchlog
from server.commands import usage_error
from server.describe import EventText, default_text, describe_action, signed, strike_text
from server.logverify import Divergence, Verified, verify_game
from server.matchlog import GameLog
from server.protocol import action_from_proto, ranks
from server.referee.offline import SeatMessage, play, refeed, seat_messages
from server.scoresheet import name_cell, render_scoresheet
from server.text import printable
from server.wire_events import event_from_proto
from tournaments.local_bots import BotSpecError, ProgramFault, SdkSeat, StdioSeat, builtin_style, make_seat
from tournaments.match_options import DEFAULT_DB, DbOption, LeagueOption

replay_app = typer.Typer(add_completion=False)
rerun_app = typer.Typer(add_completion=False)


def _source(file_or_id: str | None, league: tuple[Path, str] | None, db: str, what: str) -> tuple[str, str]:
    """(the file or match id, the database) a command reads: FILE_OR_ID in --db, or --league FILE KEY
    (the store is loaded for that alone)."""
    if league is None:
        if file_or_id is None:
            raise usage_error(f"give {what} or --league FILE KEY")
        return file_or_id, db
    from tournaments.match_cli import source
    return source(file_or_id, league, db, what)


# ------------------------------------------------------------------------------ loading a log
def _load(file_or_id: str, db: str, game: int | None) -> list[GameLog]:
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
        from tournaments.match_cli import stored_log_text
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


def _one(games: list[GameLog], file_or_id: str, what: str) -> GameLog:
    if len(games) != 1:
        numbers = ", ".join(str(g.game) for g in games)
        raise usage_error(f"{file_or_id} holds {len(games)} games ({numbers}): choose one with --game N for {what}")
    return games[0]


def _verify(g: GameLog, prefix: str = "") -> Verified:
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


def _answer_text(step: Any) -> str:
    ms = f" ({step.ms:g} ms)" if step.ms is not None else ""
    reason = step.default
    if reason is None:
        return f"  -> you {describe_action(step.action, past=True)}{ms}"
    if reason == "TIMEOUT":
        return f"  -> no answer in time{ms}"
    if reason == "REFUSED":
        return f"  -> every answer refused{ms}"
    if reason == "DISCONNECTED":
        return "  -> your stream is gone"
    return "  -> (forfeited)"


def _event_text(e: events_pb2.Event, rules: Ruleset, text: EventText) -> list[str]:
    """A wire event a seat was sent, in words: the engine event it carries (decoded by the protocol,
    told by server.describe), or the referee's own notice to the seat."""
    event = event_from_proto(e, rules)
    if event is not None:
        return text.lines(event)
    which = e.WhichOneof("kind")
    if which == "default_applied":
        x = e.default_applied
        reason = events_pb2.DefaultReason.Name(x.reason).removeprefix("DEFAULT_REASON_")
        return [f"  {default_text(x.turn, action_from_proto(x.action), reason)}"]
    if which == "strike_counted":
        x = e.strike_counted
        return [f"  {strike_text(x.strikes, x.max_strikes, x.forfeited)}"]
    return [f"  ({which})"]


def _decision_text(request: Any, step: Any) -> list[str]:
    view = request.view
    me = view.players[view.seat]
    out = [f"  turn {request.turn} ({step.where}): your hand: {' '.join(me.hand) or 'no cards seen yet'}"]
    kind = request.kind
    if kind == referee_pb2.DECISION_KIND_CONTRACT:
        options = [a.choose_contract.contract + (f" {a.choose_contract.trump}" if a.choose_contract.trump else "")
                   for a in request.legal_actions]
        out.append(f"    you may announce: {', '.join(options)}")
    elif kind == referee_pb2.DECISION_KIND_MAJOR:
        options = [contract_label(a.announce_major.contract, True) for a in request.legal_actions if a.announce_major.contract]
        out.append(f"    you may announce {' or '.join(options + ['pass'])}")
    elif kind == referee_pb2.DECISION_KIND_EXCHANGE:
        talon = f"; the talon: {' '.join(request.exchange.talon)}" if request.exchange.pick else ""
        out.append(f"    you may exchange up to {request.exchange.max_cards} cards{talon}")
    else:
        current = [t for t in view.tricks if not t.HasField("winner")]
        if current and current[-1].plays:
            out.append("    on the table: " + ", ".join(f"seat {p.seat} {p.card}" for p in current[-1].plays))
        out.append(f"    you may play: {' '.join(a.play_card.card for a in request.legal_actions)}")
    out.append(_answer_text(step))
    return out


def seat_text(g: GameLog, seat: int, messages: Sequence[SeatMessage]) -> Iterator[str]:
    """What ``seat`` was sent, message by message, in words."""
    text = EventText(g.rules)
    for m in messages:
        which = m.message.WhichOneof("message")
        if which == "game_start":
            x = m.message.game_start
            match = f" of match {printable(x.match_id)}" if x.match_id else ""
            yield f"game {x.game_number}{match}: {x.ruleset.preset}; you are seat {x.seat} ({printable(x.names[x.seat])})"
            yield "seats: " + ", ".join(f"{s} {printable(name)}" for s, name in enumerate(x.names))
        elif which == "event_batch":
            for e in m.message.event_batch.events:
                yield from _event_text(e, g.rules, text)
        elif which == "decision_request":
            for e in m.message.decision_request.events:
                yield from _event_text(e, g.rules, text)
            yield from _decision_text(m.message.decision_request, m.step)
        elif which == "game_end":
            x = m.message.game_end
            yield ""
            yield f"game over: totals {signed(x.totals)}, your rank {x.rank}"
    last = messages[-1] if messages else None
    if last is None or last.message.WhichOneof("message") != "game_end":
        yield "(the stream was gone: the referee sent this seat nothing more)"


def seat_json(messages: Sequence[SeatMessage]) -> Iterator[dict[str, Any]]:
    """What ``seat`` was sent, as the stdio bridge writes it to a program (docs/stdio-protocol.md):
    through the bridge's own translator."""
    translator = stdio.Translator()
    for m in messages:
        yield from translator.to_program(m.message)


def _print_scoresheet(v: Verified, title: str = "") -> None:
    g = v.log
    Console(width=max(Console().width, 120)).print(
        render_scoresheet(g.rules, v.game.results, g.names, title=title or f"game {g.game}, seed {g.seed!r}"))


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
    file_or_id, db = _source(file_or_id, league, db, "a match log or match id")
    games = _load(file_or_id, db, game)
    if seat is None:
        for g in games:
            prefix = f"game {g.game}: " if len(games) > 1 else ""
            v = _verify(g, prefix)
            if text:
                for line in game_text(v):
                    print(line)
                print()
                _print_scoresheet(v)
            print(f"{prefix}verified: {v.summary()}")
        return
    g = _one(games, file_or_id, "--seat")
    if not 0 <= seat < g.rules.players:
        raise usage_error(f"--seat must be a seat 0..{g.rules.players - 1} of {g.rules.preset}")
    _verify(g)
    if bot is None:
        messages = seat_messages(g, seat)
        if as_json:
            for line in seat_json(messages):
                sys.stdout.write(stdio.dump_line(line))
        else:
            for line in seat_text(g, seat, messages):
                print(line)
        return
    try:
        driver = make_seat(bot, answer_timeout)
    except BotSpecError as e:
        raise usage_error(str(e)) from None
    try:
        report = refeed(g, seat, driver, on_difference=lambda d: print(d, flush=True))
    except (OSError, ProgramFault) as e:  # no such program, or one that broke the protocol's limits
        raise usage_error(str(e)) from None
    except Divergence as e:  # verified above; a second run cannot differ
        print(f"not verified: {e}")
        raise typer.Exit(1) from None
    n = len(report.differences)
    print(f"seat {seat} ({printable(g.names[seat])}), bot {report.label}: {report.decisions} decisions, "
          f"{n} differ{'s' if n == 1 else ''} from the log" + ("" if n else "; every decision agrees"))
    if n:
        raise typer.Exit(1)


# ------------------------------------------------------------------------------ rerun
def _short(label: str) -> str:
    """A score sheet column name: the built-in bot's name, or the program's file name."""

    if label.startswith("builtin:"):
        return label.removeprefix("builtin:")
    try:
        words = shlex.split(label)
    except ValueError:
        words = label.split()
    return os.path.basename(words[-1]) if words else label


@rerun_app.command("rerun")
def rerun_command(
    file_or_id: Annotated[str | None, typer.Argument(metavar="[FILE_OR_ID]", help="A match log (JSON Lines) or a match id in --db.")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", metavar="SEAT=BOT",
                                                  help="Seat SEAT is played by BOT: builtin:NAME or the command line of "
                                                       "a stdio program. Repeat for several seats.")] = None,
    db: DbOption = DEFAULT_DB,
    league: LeagueOption = None,
    game: Annotated[int | None, typer.Option(help="The game of the file or match (from 0).")] = None,
    answer_timeout: Annotated[float, typer.Option(help="Seconds a stdio program may take to answer one decision.")] = 10.0,
) -> None:
    """Play a logged game's seed again with other bots in some seats; print the new score sheet and both totals.

    Seats not given keep their bot when the log shows a built-in one (its Hello named a bot of `mizerka bot NAME` with that bot's version); any other seat is played by the referee's default policy.
    """

    file_or_id, db = _source(file_or_id, league, db, "a match log or match id")
    games = _load(file_or_id, db, game)
    g = _one(games, file_or_id, "rerun")
    n = g.rules.players
    given: dict[int, str] = {}
    for spec in bot or []:
        head, sep, rest = spec.partition("=")
        if not sep or not head.strip().isdigit() or not rest.strip():
            raise usage_error(f"--bot {spec!r}: write SEAT=BOT, e.g. --bot 1=builtin:cautious or --bot '2=python3 mybot.py'")
        s = int(head)
        if not 0 <= s < n:
            raise usage_error(f"--bot {spec!r}: {g.rules.preset} has seats 0..{n - 1}")
        if s in given:
            raise usage_error(f"--bot: seat {s} is given twice")
        given[s] = rest.strip()
    logged = _verify(g)
    drivers: list[SdkSeat | StdioSeat | None] = []
    labels: list[str] = []
    try:
        for s in range(n):
            if s in given:
                drivers.append(make_seat(given[s], answer_timeout))
                labels.append(given[s])
                continue
            style = builtin_style(g.header["seats"][s])
            if style is not None:
                drivers.append(SdkSeat(BOTS[style](), f"builtin:{style}"))
                labels.append(f"builtin:{style}")
            else:
                drivers.append(None)
                labels.append("default policy")
    except BotSpecError as e:
        raise usage_error(str(e)) from None
    names = [f"{s}:{_short(label)}" for s, label in enumerate(labels)]
    try:
        result = play(g.rules, g.seed, drivers, names, g.clock, match_id=f"rerun:{g.match}", game_index=g.game)
    except (OSError, ProgramFault) as e:  # no such program, or one that broke the protocol's limits
        raise usage_error(str(e)) from None
    finally:
        for driver in drivers:
            if driver is not None:
                driver.close()
    defaults = [r.defaults for r in result.seats]


    console = Console(width=max(Console().width, 120))
    console.print(render_scoresheet(g.rules, result.game.results, names, title=f"rerun of game {g.game}, seed {g.seed!r}"))
    table = Table(title="Totals: the log and the rerun")
    for col in ("seat", "in the log", "log total", "rerun by", "rerun total", "change"):
        table.add_column(col, justify="right" if "total" in col or col in ("seat", "change") else "left")
    new_totals = list(result.game.totals)
    for s in range(n):
        table.add_row(str(s), name_cell(g.names[s]), f"{logged.totals[s]:+d}", labels[s], f"{new_totals[s]:+d}",
                      f"{new_totals[s] - logged.totals[s]:+d}")
    console.print(table)
    print(f"log:   totals {signed(logged.totals)}, ranks {' '.join(map(str, logged.ranks))}")
    print(f"rerun: totals {signed(new_totals)}, ranks {' '.join(map(str, ranks(new_totals)))}"
          + (f"; defaults applied {' '.join(map(str, defaults))}" if any(defaults) else ""))
