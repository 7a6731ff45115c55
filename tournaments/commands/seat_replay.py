"""``mizerka replay --seat N``: what one seat of a logged game was sent, from the referee's own
projection (server.referee.offline), in words or as the stdio protocol's lines, and ``--bot``: how
a bot answers those decisions. Apart from tournaments.commands.replay because these need the wire (the
protocol buffers) and the bot SDK, which verifying a log does not: ``replay_command`` imports this
module only for --seat."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import Any

import typer

from mizerka import stdio
from mizerka_engine.events import contract_text
from mizerka_engine.rules import Ruleset
from mizerka_proto import events_pb2, referee_pb2
from server.codec.matchlog import GameLog
from server.codec.protocol import action_from_proto, default_reason_from_proto, suit_from_text
from server.codec.wire_events import event_from_proto
from server.commands import usage_error
from server.describe import EventText, default_text, describe_action, signed, strike_text
from server.logverify import Divergence
from server.policies import DefaultReason
from server.referee.offline import SeatMessage, refeed, seat_messages
from server.text import printable
from tournaments.local_bots import BotSpecError, ProgramFault, make_seat


def _answer_text(step: Any) -> str:
    ms = f" ({step.ms:g} ms)" if step.ms is not None else ""
    reason = step.default
    if reason is None:
        return f"  -> you {describe_action(step.action, past=True)}{ms}"
    if reason is DefaultReason.TIMEOUT:
        return f"  -> no answer in time{ms}"
    if reason is DefaultReason.REFUSED:
        return f"  -> every answer refused{ms}"
    if reason is DefaultReason.DISCONNECTED:
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
        return [f"  {default_text(x.turn, action_from_proto(x.action), default_reason_from_proto(x.reason))}"]
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
        options = [contract_text(c.contract, False, suit_from_text(c.trump, "choose_contract.trump"))
                   for c in (a.choose_contract for a in request.legal_actions)]
        out.append(f"    you may announce: {', '.join(options)}")
    elif kind == referee_pb2.DECISION_KIND_MAJOR:
        options = [contract_text(a.announce_major.contract, True, None) for a in request.legal_actions if a.announce_major.contract]
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


def print_seat(g: GameLog, seat: int, as_json: bool) -> None:
    """Print what ``seat`` was sent: in words, or (``as_json``) the lines a stdio program reads."""
    messages = seat_messages(g, seat)
    if as_json:
        for line in seat_json(messages):
            sys.stdout.write(stdio.dump_line(line))
    else:
        for line in seat_text(g, seat, messages):
            print(line)


def refeed_seat(g: GameLog, seat: int, bot: str, answer_timeout: float) -> None:
    """Send ``seat``'s decisions to ``bot`` and print where it differs from the log (exit 1 if it does)."""
    try:
        driver = make_seat(bot, answer_timeout)
    except BotSpecError as e:
        raise usage_error(str(e)) from None
    try:
        report = refeed(g, seat, driver, on_difference=lambda d: print(d, flush=True))
    except ProgramFault as e:  # no such program, or one that broke the protocol's limits
        raise usage_error(str(e)) from None
    except Divergence as e:  # verified before; a second run cannot differ
        print(f"not verified: {e}")
        raise typer.Exit(1) from None
    n = len(report.differences)
    print(f"seat {seat} ({printable(g.names[seat])}), bot {report.label}: {report.decisions} decisions, "
          f"{n} differ{'s' if n == 1 else ''} from the log" + ("" if n else "; every decision agrees"))
    if n:
        raise typer.Exit(1)
