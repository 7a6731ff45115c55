"""The stdio bridge: play through a program that speaks JSON Lines on its stdin and stdout.

``mizerka-bot stdio [options] -- CMD ARGS...`` (also ``mizerka bot stdio -- CMD ...``) connects to
the referee like any bot (launch contract: MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL) and
opens one Play stream per parallel game, each with its own child process ``CMD ARGS...``. The
bridge translates the gRPC conversation into lines of JSON and back; the program needs no gRPC and
no protobuf, only a JSON parser. The line protocol is specified in docs/stdio-protocol.md:

bridge -> program (every line is one JSON object with a ``"type"``):

- ``hello``       first line, once per process: ``{"type": "hello", "protocol": 1, ...}``
- ``game_start``  a game starts: seat, names, ruleset, clock
- ``event``       something happened (optional to read): ``{"type": "event", "event": "card_played", ...}``
- ``decide``      your turn: turn, kind, legal answers, the seat's view
- ``error``       the last answer was refused (code, message, retry); answer again when retry
- ``game_end``    the game is over: rank, totals, results, seat records

program -> bridge: one answer line per ``decide`` line (and one more per ``error`` with retry):
``{"turn": 7, "play": "AS"}``, ``{"turn": 1, "contract": "trumps", "trump": "H"}``,
``{"turn": 3, "major": null}``, ``{"turn": 2, "discard": ["2C"], "take": ["AH"]}``.

Faults are handled like a faulty gRPC bot's: a line that is no answer (not JSON, an unknown field,
no action) while a decision is pending is forwarded to the referee as an empty Action, so the
referee's MALFORMED refusal, retry limit and clock apply, and the program gets an ``error`` line;
an answer for another turn gets a STALE_TURN ``error`` line and is not sent. A program that exits
(or closes its stdout) makes the bridge close that Play stream at once (the referee plays the rest
of the game by default, the seat is recorded disconnected); the bridge then starts the program
again and opens a new stream for the next game, and gives up after ``max_restarts`` exits in a
row without a finished game. A silent program is left to the referee's clock. The program's stderr
goes to the bridge's stderr.

This module does not import the server; it needs only the SDK (grpcio, protobuf).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

import grpc
import grpc.aio

from mizerka.runtime import (
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_SERVER,
    ENV_PARALLEL,
    ENV_SERVER,
    ENV_TOKEN,
    MizerkaError,
    _cancel_all,
    _channel,
    _drop_reason,
    _pause_before_reconnect,
    _wait_all,
    launch_settings,
    parallel_setting,
)
from mizerka_proto import events_pb2, game_pb2, referee_pb2, referee_pb2_grpc

__all__ = [
    "PROTOCOL",
    "LineError",
    "StdioStats",
    "action_from_line",
    "build_parser",
    "decide_line",
    "event_line",
    "game_end_line",
    "game_start_line",
    "main",
    "ruleset_json",
    "run_stdio",
    "run_stdio_async",
    "view_json",
]

log = logging.getLogger("mizerka.stdio")

#: The line protocol's version, sent in the hello line. Additions (new fields, event kinds, error
#: codes) keep the number; a change that breaks a conforming program raises it.
PROTOCOL = 1
#: The longest line read from a program (bytes); a longer one is refused as MALFORMED.
LINE_LIMIT = 1 << 20

_KINDS = {
    referee_pb2.DECISION_KIND_CONTRACT: "contract",
    referee_pb2.DECISION_KIND_MAJOR: "major",
    referee_pb2.DECISION_KIND_EXCHANGE: "exchange",
    referee_pb2.DECISION_KIND_PLAY: "play",
}
_PHASES = {v: k.removeprefix("PHASE_").lower() for k, v in game_pb2.Phase.items()}
_EXCHANGE_KINDS = {game_pb2.EXCHANGE_KIND_BLIND: "blind", game_pb2.EXCHANGE_KIND_PICK: "pick"}
_DECLARER_MODES = {
    game_pb2.DECLARER_MODE_ALTERNATE: "alternate",
    game_pb2.DECLARER_MODE_CONTINUOUS: "continuous",
    game_pb2.DECLARER_MODE_DEALER: "dealer",
    game_pb2.DECLARER_MODE_CONTINUOUS_DEALER: "continuous-dealer",
}
_REVOKE_MODES = {game_pb2.REVOKE_MODE_REJECT: "reject", game_pb2.REVOKE_MODE_PENALTY: "penalty"}
_TIEBREAK_MODES = {
    game_pb2.TIEBREAK_MODE_NONE: "none",
    game_pb2.TIEBREAK_MODE_RANDOM: "random",
    game_pb2.TIEBREAK_MODE_LOWEST: "lowest",
}
_MISERE = {game_pb2.MISERE_QUOTAS_REVERSED: "reversed", game_pb2.MISERE_QUOTAS_SAME: "same"}
_ANNOUNCEMENTS = {game_pb2.ANNOUNCEMENT_KIND_CONTRACT: "contract", game_pb2.ANNOUNCEMENT_KIND_MAJOR: "major"}
_REASONS = {v: k.removeprefix("DEFAULT_REASON_").lower() for k, v in events_pb2.DefaultReason.items()}


def _opt(msg: Any, field: str) -> Any:
    """An optional proto field's value, or None when absent."""
    return getattr(msg, field) if msg.HasField(field) else None


# ------------------------------------------------------------------------------ proto -> JSON
def ruleset_json(r: game_pb2.Ruleset) -> dict[str, Any]:
    """A Ruleset as plain JSON (option values spelled as in league files: "blind", "alternate", ...)."""
    return {
        "preset": r.preset,
        "players": r.players,
        "hand_size": r.hand_size,
        "talon_size": r.talon_size,
        "contracts": [
            {
                "name": c.name,
                "minus": c.minus,
                "trump": c.trump or None,
                "names_trump": c.names_trump,
                "trump_choices": list(c.trump_choices),
                "major_rank": c.major_rank,
            }
            for c in r.contracts
        ],
        "exchange": _EXCHANGE_KINDS.get(r.exchange),
        "majors": r.majors,
        "quotas_plus": list(r.quotas_plus),
        "quotas_minus": list(r.quotas_minus),
        "choose_after_all": r.choose_after_all,
        "cards_seen_before_choice": r.cards_seen_before_choice,
        "declarer": _DECLARER_MODES.get(r.declarer),
        "deals": r.deals,
        "revoke": _REVOKE_MODES.get(r.revoke),
        "tiebreak": _TIEBREAK_MODES.get(r.tiebreak),
        "tiebreak_max": r.tiebreak_max,
        "misere_quotas": _MISERE.get(r.misere_quotas),
        "trumps_allow_spades": r.trumps_allow_spades,
        "tiebreak_contract": r.tiebreak_contract or None,
    }


def clock_json(c: game_pb2.Clock) -> dict[str, Any]:
    return {
        "decision_ms": c.decision_ms,
        "bank_ms": c.bank_ms,
        "increment_ms": c.increment_ms,
        "max_strikes": c.max_strikes,
        "max_retries": c.max_retries if c.HasField("max_retries") else 5,
    }


def result_json(r: game_pb2.DealResult) -> dict[str, Any]:
    return {
        "deal": r.deal,
        "redeal": r.redeal,
        "tiebreak": r.tiebreak,
        "dealer": r.dealer,
        "declarer": r.declarer,
        "caller": r.caller,
        "contract": r.contract,
        "trump": r.trump or None,
        "tricks": list(r.tricks),
        "points": list(r.points),
        "void": r.void,
        "revoker": _opt(r, "revoker"),
        "totals": list(r.totals),
    }


def answer_json(a: game_pb2.Action) -> dict[str, Any]:
    """An Action's body in answer form, without its turn: {"play": "AS"}, {"contract": "trumps",
    "trump": "H"}, {"major": null}, {"discard": [...]} (plus "take" when it names any)."""
    which = a.WhichOneof("action")
    if which == "play_card":
        return {"play": a.play_card.card}
    if which == "choose_contract":
        out: dict[str, Any] = {"contract": a.choose_contract.contract}
        if a.choose_contract.trump:
            out["trump"] = a.choose_contract.trump
        return out
    if which == "announce_major":
        return {"major": a.announce_major.contract or None}
    if which == "exchange_cards":
        out = {"discard": list(a.exchange_cards.discard)}
        if a.exchange_cards.take:
            out["take"] = list(a.exchange_cards.take)
        return out
    return {}


def _plays(t: game_pb2.Trick) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "card": p.card} for p in t.plays]


def view_json(view: game_pb2.SeatView, ruleset: game_pb2.Ruleset | None = None) -> dict[str, Any]:
    """A seat's view in card notation, with per-seat lists (entry i for seat i) and your own cards.

    ``trick`` is the trick in progress (``[]`` when you lead), ``tricks`` the completed tricks of
    the deal; ``minus`` and ``major`` describe the settled contract (using ``ruleset``). The
    finished deals (SeatView.results) are left out to keep lines short: ``totals`` has the score,
    and ``deal_ended`` events and ``game_end`` have every result.
    """
    players = list(view.players)
    n = len(players)
    me = players[view.seat] if view.seat < n else game_pb2.PlayerState()
    label = view.contract or None
    major = bool(label and label.endswith(" major"))
    info = None
    if label and ruleset is not None:
        info = next((c for c in ruleset.contracts if c.name == label.removesuffix(" major")), None)
    declarer = _opt(view, "declarer")
    tricks = list(view.tricks)
    current = tricks[-1] if tricks and not tricks[-1].HasField("winner") else None
    settled = n > 0 and all(p.HasField("quota") for p in players)
    return {
        "seat": view.seat,
        "phase": _PHASES.get(view.phase, "unspecified"),
        "to_act": _opt(view, "to_act"),
        "deal": view.deal,
        "redeal": view.redeal,
        "tiebreak": view.tiebreak,
        "dealer": _opt(view, "dealer"),
        "caller": _opt(view, "caller"),
        "declarer": declarer,
        "position": None if declarer is None or not n else (view.seat - declarer) % n,
        "contract": label,
        "trump": view.trump or None,
        "minus": bool(info and info.minus and not major),
        "major": major,
        "hand": list(me.hand),
        "hand_sizes": [p.hand_count for p in players],
        "talon": list(view.talon) if view.talon_known else None,
        "discarded": list(me.discarded),
        "taken": list(me.taken),
        "exchanged": [_opt(p, "exchanged") for p in players],
        "announcements": [
            {"seat": a.seat, "kind": _ANNOUNCEMENTS.get(a.kind), "contract": a.contract or None}
            for a in view.announcements
        ],
        "trick": _plays(current) if current is not None else [],
        "tricks": [{"leader": t.leader, "plays": _plays(t), "winner": t.winner} for t in tricks if t.HasField("winner")],
        "tricks_won": [p.tricks_won for p in players],
        "quotas": [p.quota for p in players] if settled else None,
        "used": [list(p.used_contracts) for p in players],
        "totals": [p.total for p in players],
        "finished": view.finished,
    }


def hello_line(stream: int, streams: int) -> dict[str, Any]:
    from mizerka import __version__

    return {"type": "hello", "protocol": PROTOCOL, "bridge": f"mizerka-stdio {__version__}", "stream": stream,
            "streams": streams}


def game_start_line(g: referee_pb2.GameStart) -> dict[str, Any]:
    return {
        "type": "game_start",
        "match_id": g.match_id,
        "game_number": g.game_number,
        "games": g.games,
        "seat": g.seat,
        "names": list(g.names),
        "ruleset": ruleset_json(g.ruleset),
        "clock": clock_json(g.clock),
    }


def event_line(e: events_pb2.Event) -> dict[str, Any]:
    """One Event as an ``event`` line: ``{"type": "event", "event": KIND, ...its fields}``."""
    which = e.WhichOneof("kind")
    head: dict[str, Any] = {"type": "event", "event": which}
    if which == "deal_started":
        x = e.deal_started
        return head | {"deal": x.deal, "redeal": x.redeal, "tiebreak": x.tiebreak, "dealer": x.dealer,
                       "declarer": x.declarer}
    if which == "contract_announced":
        x = e.contract_announced
        return head | {"seat": x.seat, "contract": x.contract, "trump": x.trump or None}
    if which == "major_announced":
        x = e.major_announced
        return head | {"seat": x.seat, "contract": x.contract or None}
    if which == "contract_settled":
        x = e.contract_settled
        return head | {"declarer": x.declarer, "contract": x.contract, "trump": x.trump or None,
                       "quotas": list(x.quotas), "major": x.major, "minus": x.minus}
    if which == "cards_exchanged":
        x = e.cards_exchanged
        known = x.cards_known
        return head | {"seat": x.seat, "count": x.count, "discarded": list(x.discarded) if known else None,
                       "taken": list(x.taken) if known else None}
    if which == "card_played":
        return head | {"seat": e.card_played.seat, "card": e.card_played.card}
    if which == "trick_won":
        return head | {"winner": e.trick_won.winner, "trick": e.trick_won.trick}
    if which == "revoked":
        return head | {"seat": e.revoked.seat, "card": e.revoked.card}
    if which == "deal_ended":
        return head | result_json(e.deal_ended.result)
    if which == "default_applied":
        x = e.default_applied
        return head | {"turn": x.turn, "action": answer_json(x.action), "reason": _REASONS.get(x.reason, "unspecified")}
    if which == "strike_counted":
        x = e.strike_counted
        return head | {"turn": x.turn, "strikes": x.strikes, "max_strikes": x.max_strikes, "forfeited": x.forfeited}
    if which is None:
        return head | {"event": "unknown"}
    from google.protobuf import json_format  # an event kind newer than this bridge: pass it on as it is

    return head | json_format.MessageToDict(getattr(e, which), preserving_proto_field_name=True)


def decide_line(d: referee_pb2.DecisionRequest, ruleset: game_pb2.Ruleset | None = None) -> dict[str, Any]:
    kind = _KINDS.get(d.kind, "unspecified")
    out: dict[str, Any] = {
        "type": "decide",
        "turn": d.turn,
        "kind": kind,
        "time_left_ms": d.time_left_ms,
        "bank_ms": d.bank_ms,
        "legal": [answer_json(a) for a in d.legal_actions],
    }
    if kind == "exchange":
        out["exchange"] = {"max": d.exchange.max_cards, "pick": d.exchange.pick, "talon": list(d.exchange.talon)}
    out["view"] = view_json(d.view, d.ruleset if d.HasField("ruleset") else ruleset)
    return out


def error_line(e: referee_pb2.ActionError, message: str | None = None, code: str | None = None,
               source: str = "referee") -> dict[str, Any]:
    return {
        "type": "error",
        "turn": e.turn,
        "code": code or e.code,
        "message": message if message is not None else e.message,
        "retry": e.retry,
        "strikes": e.strikes,
        "time_left_ms": e.time_left_ms if e.retry else None,
        "bank_ms": e.bank_ms if e.retry else None,
        "source": source,
    }


def bridge_error_line(turn: int | None, code: str, message: str, strikes: int) -> dict[str, Any]:
    """An error the bridge found itself and did not send to the referee (retry is always false)."""
    return {"type": "error", "turn": turn, "code": code, "message": message, "retry": False, "strikes": strikes,
            "time_left_ms": None, "bank_ms": None, "source": "bridge"}


def game_end_line(g: referee_pb2.GameEnd) -> dict[str, Any]:
    return {
        "type": "game_end",
        "match_id": g.match_id,
        "game_number": g.game_number,
        "seat": g.seat,
        "rank": g.rank,
        "totals": list(g.totals),
        "results": [result_json(r) for r in g.results],
        "seats": [
            {"seat": s.seat, "name": s.name, "total": s.total, "rank": s.rank, "timeouts": s.timeouts,
             "refusals": s.refusals, "defaults_applied": s.defaults_applied, "forfeited": s.forfeited,
             "disconnected": s.disconnected}
            for s in g.seats
        ],
        "aborted": g.aborted,
        "abort_reason": g.abort_reason or None,
    }


# ------------------------------------------------------------------------------ JSON -> proto
class LineError(ValueError):
    """A program's line that is no answer; ``turn`` is the turn it named (None if it named none)."""

    def __init__(self, message: str, turn: int | None = None) -> None:
        super().__init__(message)
        self.turn = turn


_ANSWER_KEYS = ("play", "contract", "major", "discard")
_ALLOWED = {"type", "turn", "play", "contract", "trump", "major", "discard", "take"}


def _cards(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f'"{key}" must be a list of card strings like ["2C", "TD"]')
    return value


def _is_turn(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def action_from_line(line: str | bytes) -> game_pb2.Action:
    """Parse one answer line into an Action, or raise :class:`LineError` saying what is wrong."""
    turn: int | None = None
    try:
        obj = json.loads(line)
    except (ValueError, UnicodeDecodeError) as e:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        shown = text.strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise LineError(f"not a JSON line ({e.__class__.__name__}: {e}): {shown!r}") from None
    if not isinstance(obj, dict):
        raise LineError(f"an answer must be a JSON object, not {type(obj).__name__}")
    if _is_turn(obj.get("turn")):
        turn = obj["turn"]
    try:
        if "type" in obj and obj["type"] != "action":
            raise ValueError(f'"type" of an answer line must be "action" (or left out), not {obj["type"]!r}')
        unknown = sorted(set(obj) - _ALLOWED)
        if unknown:
            raise ValueError(f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; an "
                             "answer has turn and one of play, contract (+ trump), major, discard (+ take)")
        if "turn" not in obj:
            raise ValueError('no "turn": copy the turn of the decide line you answer')
        if turn is None:
            raise ValueError(f'"turn" must be a whole number, not {obj["turn"]!r}')
        present = [k for k in _ANSWER_KEYS if k in obj]
        if len(present) != 1:
            raise ValueError("an answer needs exactly one of play, contract, major, discard"
                             + (f" (found {', '.join(present)})" if present else ""))
        (key,) = present
        if "trump" in obj and key != "contract":
            raise ValueError('"trump" goes only with "contract"')
        if "take" in obj and key != "discard":
            raise ValueError('"take" goes only with "discard"')
        action = game_pb2.Action(turn=turn)
        if key == "play":
            if not isinstance(obj["play"], str):
                raise ValueError('"play" must be a card string like "AS"')
            action.play_card.card = obj["play"]
        elif key == "contract":
            trump = obj.get("trump")
            if not isinstance(obj["contract"], str) or not (trump is None or isinstance(trump, str)):
                raise ValueError('"contract" must be a contract name and "trump" a suit letter or null')
            action.choose_contract.contract = obj["contract"]
            action.choose_contract.trump = trump or ""
        elif key == "major":
            if not (obj["major"] is None or isinstance(obj["major"], str)):
                raise ValueError('"major" must be a contract name, or null to pass')
            action.announce_major.contract = obj["major"] or ""
        else:
            action.exchange_cards.discard.extend(_cards(obj["discard"], "discard"))
            if obj.get("take") is not None:
                action.exchange_cards.take.extend(_cards(obj["take"], "take"))
            else:
                action.exchange_cards.SetInParent()
        return action
    except ValueError as e:
        raise LineError(str(e), turn) from None


# ------------------------------------------------------------------------------ the bridge
@dataclass
class StdioStats:
    """What a bridge run did (filled in as it goes)."""

    games: int = 0  #: GameEnd messages received, over all streams
    decisions: int = 0  #: decide lines written
    answers: int = 0  #: answer lines forwarded to the referee as Actions
    refusals: int = 0  #: refusals by the referee (error lines with source "referee")
    garbage: int = 0  #: program lines the bridge could not read as an answer
    stale: int = 0  #: answers for a turn that was not pending (not sent)
    restarts: int = 0  #: program processes started again after one exited
    connects: int = 0  #: Welcomes received
    reconnects: int = 0  #: reconnect attempts after a dropped stream
    interrupted: bool = False  #: stopped by Ctrl-C


class ProgramExited(Exception):
    """The program behind a stream exited or closed its stdout."""


class _Dropped(Exception):
    """The Play stream ended or broke in a way a reconnect may fix."""


class _Transcript:
    """Every line in both directions, for people: ``N< `` bridge to program, ``N> `` program to bridge."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def write(self, stream: int, arrow: str, line: str) -> None:
        self.out.write(f"{stream}{arrow} {line.rstrip(chr(10))}\n")
        self.out.flush()


class _Program:
    """One child process speaking the line protocol."""

    def __init__(self, command: Sequence[str], index: int, env: dict[str, str], transcript: _Transcript | None) -> None:
        self.command = list(command)
        self.index = index
        self.env = env
        self.transcript = transcript
        self.proc: asyncio.subprocess.Process | None = None
        self.lines: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.gone = asyncio.Event()

    async def start(self, streams: int) -> None:
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
                env=self.env, limit=LINE_LIMIT,
            )
        except OSError as e:
            raise MizerkaError(f"cannot start the program {self.command[0]!r}: {e}") from None
        self.tasks = [asyncio.create_task(self._read(), name=f"stdio-read-{self.index}"),
                      asyncio.create_task(self._write(), name=f"stdio-write-{self.index}")]
        self.send(hello_line(self.index, streams))

    @property
    def alive(self) -> bool:
        return self.proc is not None and not self.gone.is_set()

    def send(self, obj: dict[str, Any]) -> None:
        if not self.gone.is_set():
            self.outbox.put_nowait(json.dumps(obj, separators=(",", ":")) + "\n")

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        try:
            while True:
                try:
                    line = await stdout.readline()
                except ValueError:  # longer than LINE_LIMIT: readline dropped it
                    line = b"(a line longer than %d bytes, left out)\n" % LINE_LIMIT
                if not line:
                    break
                if self.transcript is not None:
                    self.transcript.write(self.index, ">", line.decode("utf-8", "replace"))
                self.lines.put_nowait(line)
        except (ConnectionError, OSError):
            pass
        finally:
            self.gone.set()
            self.lines.put_nowait(None)

    async def _write(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        stdin = self.proc.stdin
        try:
            while (text := await self.outbox.get()) is not None:
                if self.transcript is not None:
                    self.transcript.write(self.index, "<", text)
                stdin.write(text.encode())
                await stdin.drain()
            stdin.close()
        except (ConnectionError, OSError):
            self.gone.set()
            self.lines.put_nowait(None)

    async def returncode(self, wait_s: float = 1.0) -> int | None:
        if self.proc is None:
            return None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_s):
                return await self.proc.wait()
        return None

    async def stop(self, grace_s: float = 2.0) -> None:
        """Close its stdin (the signal to exit), then terminate and kill it if it lingers."""
        proc = self.proc
        if proc is None:
            return
        self.outbox.put_nowait(None)
        if proc.returncode is None:
            for step in (lambda: None, proc.terminate, proc.kill):
                with contextlib.suppress(ProcessLookupError):
                    step()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(grace_s):
                        await proc.wait()
                        break
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class _Runner:
    def __init__(self, command: Sequence[str], server: str, token: str, parallel: int, games: int | None,
                 name: str | None, events: bool, max_restarts: int, transcript: _Transcript | None,
                 stats: StdioStats, backoff_initial: float = 0.2, backoff_max: float = 10.0,
                 max_reconnects: int | None = None, live_events: bool = False) -> None:
        self.command = list(command)
        self.server = server
        self.token = token
        self.parallel = parallel
        self.games = games
        self.name = name or f"stdio:{os.path.basename(command[0])}"
        self.events = events
        self.live_events = live_events and events
        self.max_restarts = max_restarts
        self.transcript = transcript
        self.stats = stats
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.max_reconnects = max_reconnects
        self.done = False
        self.streams: list[_Stream] = []
        env = dict(os.environ)
        env["MIZERKA_STDIO_PROTOCOL"] = str(PROTOCOL)
        self.env = env

    def game_finished(self, stream: _Stream) -> None:
        self.stats.games += 1
        if self.games is not None and self.stats.games >= self.games and not self.done:
            log.info("%d game(s) played: closing the streams", self.stats.games)
            self.done = True
            for s in self.streams:
                if s is not stream and not s.in_game:
                    s.stop_idle()

    async def run(self) -> None:
        channel = _channel(self.server, DEFAULT_MAX_MESSAGE_BYTES, self.backoff_initial, self.backoff_max)
        stub = referee_pb2_grpc.RefereeStub(channel)
        self.streams = [_Stream(self, i, stub) for i in range(self.parallel)]
        tasks = [asyncio.create_task(s.run(), name=f"stdio-stream-{s.index}") for s in self.streams]
        for s, t in zip(self.streams, tasks, strict=True):
            s.task = t
        try:
            await _wait_all(tasks)
        finally:
            self.done = True
            await _cancel_all(tasks)
            await asyncio.gather(*(s.stop_program() for s in self.streams), return_exceptions=True)
            await channel.close(grace=None)


class _Stream:
    """One Play stream and the program process behind it, across reconnects and restarts."""

    def __init__(self, runner: _Runner, index: int, stub: referee_pb2_grpc.RefereeStub) -> None:
        self.runner = runner
        self.index = index
        self.stub = stub
        self.task: asyncio.Task[None] | None = None
        self.program: _Program | None = None
        self.in_game = False
        self.stopping_idle = False
        self.failures = 0  # reconnects in a row
        self.exits = 0  # program exits in a row without a finished game
        self.match = ""
        self.game_number = 0
        self.seat = 0
        self.ruleset: game_pb2.Ruleset | None = None
        self.strikes = 0
        self.pending: int | None = None  # the turn awaiting an answer line
        self.inflight: tuple[int, str | None] | None = None  # (turn, the bridge's note) sent, not judged yet

    def stop_idle(self) -> None:
        self.stopping_idle = True
        if self.task is not None:
            self.task.cancel()

    async def stop_program(self) -> None:
        if self.program is not None:
            await self.program.stop()

    async def _ensure_program(self) -> _Program:
        """The running program; starts it, or starts it again after it exited (with a growing pause,
        giving up after ``max_restarts`` exits in a row without a finished game)."""
        r = self.runner
        if self.program is not None and self.program.alive:
            return self.program
        if self.program is not None:
            code = await self.program.returncode()
            await self.program.stop()
            self.program = None
            self.exits += 1
            if self.exits > r.max_restarts:
                raise MizerkaError(f"the program {r.command[0]!r} exited {self.exits} times in a row without "
                                   f"finishing a game (last exit code {code}); giving up")
            delay = min(5.0, 0.2 * 2 ** (self.exits - 1))
            log.warning("stream %d: starting the program again in %.1f s (exit code %s)", self.index, delay, code)
            await asyncio.sleep(delay)
            r.stats.restarts += 1
        program = _Program(r.command, self.index, r.env, r.transcript)
        await program.start(r.parallel)
        self.program = program
        return program

    async def run(self) -> None:
        r = self.runner
        while not (r.done and not self.in_game):
            program = await self._ensure_program()
            try:
                await self._session(program)
                return
            except asyncio.CancelledError:
                if self.stopping_idle:
                    return
                raise
            except ProgramExited:
                code = await program.returncode()
                if self.in_game:
                    log.warning("stream %d: the program exited (code %s) during game %d of match %s: the stream is "
                                "closed and the referee plays the rest of that game for this seat", self.index, code,
                                self.game_number, self.match)
                else:
                    log.warning("stream %d: the program exited (code %s) between games", self.index, code)
                self.in_game = False
                self._reset_turns()
                if r.done:
                    return
                continue
            except grpc.aio.AioRpcError as e:
                reason = _drop_reason(e, r.server)
            except _Dropped as e:
                reason = str(e)
            if r.done:
                return
            if self.in_game:
                log.warning("stream %d lost during a game: the referee plays the rest of it by default", self.index)
                self._tell_aborted("the connection to the referee was lost")
                self.in_game = False
            self._reset_turns()
            self.failures += 1
            await _pause_before_reconnect(r, self.index, self.failures, reason)

    def _reset_turns(self) -> None:
        self.pending = None
        self.inflight = None

    def _tell_aborted(self, reason: str) -> None:
        if self.program is not None:
            end = referee_pb2.GameEnd(match_id=self.match, game_number=self.game_number, seat=self.seat, aborted=True,
                                      abort_reason=reason)
            self.program.send(game_end_line(end))

    async def _session(self, program: _Program) -> None:
        r = self.runner
        call = self.stub.Play()
        try:
            hello = referee_pb2.Hello(token=r.token, name=r.name, version=f"stdio/{PROTOCOL}")
            if r.live_events:
                hello.live_events = True
            await call.write(referee_pb2.BotMessage(hello=hello))
            first = await call.read()
            if first is grpc.aio.EOF:
                raise _Dropped("the referee closed the stream before Welcome")
            if first.WhichOneof("message") != "welcome":
                raise MizerkaError(f"{r.server}: expected Welcome after Hello, got {first.WhichOneof('message')}")
            self.failures = 0
            r.stats.connects += 1
            log.info("stream %d: connected to %s as %s (%s)", self.index, r.server, first.welcome.name,
                     first.welcome.bot_id)
            from_referee = asyncio.create_task(self._referee_loop(call, program))
            from_program = asyncio.create_task(self._program_loop(call, program))
            try:
                done, _ = await asyncio.wait({from_referee, from_program}, return_when=asyncio.FIRST_COMPLETED)
                for t in done:
                    t.result()  # raises ProgramExited, _Dropped, AioRpcError...
            finally:
                for t in (from_referee, from_program):
                    t.cancel()
                await asyncio.gather(from_referee, from_program, return_exceptions=True)
        finally:
            call.cancel()

    # -------------------------------------------------------------------- referee -> program
    async def _referee_loop(self, call: Any, program: _Program) -> None:
        r = self.runner
        while True:
            if r.done and not self.in_game:
                await call.done_writing()
                return
            msg = await call.read()
            if msg is grpc.aio.EOF:
                if r.done and not self.in_game:
                    return
                raise _Dropped("the referee ended the stream")
            self._handle(msg, program)

    def _handle(self, msg: referee_pb2.RefereeMessage, program: _Program) -> None:
        which = msg.WhichOneof("message")
        stats = self.runner.stats
        if self.inflight is not None and not (which == "action_error" and msg.action_error.turn == self.inflight[0]):
            # Anything but a refusal after an answer means the referee accepted it.
            if self.pending == self.inflight[0]:
                self.pending = None
            self.inflight = None
        if which == "event_batch":
            self._events(msg.event_batch.events, program)
        elif which == "decision_request":
            d = msg.decision_request
            self._events(d.events, program)
            self.pending = d.turn
            self.inflight = None
            stats.decisions += 1
            program.send(decide_line(d, self.ruleset))
        elif which == "action_error":
            e = msg.action_error
            self.strikes = e.strikes
            note = None
            if self.inflight is not None and e.turn == self.inflight[0]:
                note = self.inflight[1]
                self.inflight = None
                if not e.retry and self.pending == e.turn:
                    self.pending = None
            if note is None:
                stats.refusals += 1
                program.send(error_line(e))
            else:  # a line the bridge could not read, refused by the referee as an empty Action
                program.send(error_line(e, message=note, code="MALFORMED", source="bridge"))
        elif which == "game_start":
            g = msg.game_start
            self.in_game = True
            self.match, self.game_number, self.seat = g.match_id, g.game_number, g.seat
            self.ruleset = g.ruleset
            self.strikes = 0
            self._reset_turns()
            program.send(game_start_line(g))
        elif which == "game_end":
            self.in_game = False
            self._reset_turns()
            self.exits = 0
            program.send(game_end_line(msg.game_end))
            self.runner.game_finished(self)
        elif which == "welcome":
            log.info("stream %d: a second Welcome (ignored)", self.index)

    def _events(self, events: Sequence[events_pb2.Event], program: _Program) -> None:
        for e in events:
            which = e.WhichOneof("kind")
            if which == "default_applied" and e.default_applied.turn == self.pending:
                self.pending = None  # decided for the program: a later answer is stale
            elif which == "strike_counted":
                self.strikes = e.strike_counted.strikes
            if self.runner.events:
                program.send(event_line(e))

    # -------------------------------------------------------------------- program -> referee
    async def _program_loop(self, call: Any, program: _Program) -> None:
        stats = self.runner.stats
        while True:
            line = await program.lines.get()
            if line is None:
                raise ProgramExited()
            if not line.strip():
                continue  # blank lines are harmless
            try:
                action = action_from_line(line)
                problem = None
            except LineError as e:
                action, problem = None, e
            turn = action.turn if action is not None else problem.turn  # type: ignore[union-attr]
            if self.pending is None or self.inflight is not None:
                if action is None:
                    stats.garbage += 1
                    why = "nothing is pending" if self.pending is None else \
                        f"an answer to turn {self.pending} was already sent"
                    program.send(bridge_error_line(turn, "MALFORMED", f"{problem}; not sent ({why})", self.strikes))
                elif self.pending is None:
                    stats.stale += 1
                    program.send(bridge_error_line(
                        turn, "STALE_TURN", f"turn {turn} is not pending (nothing is): not sent", self.strikes))
                else:
                    stats.stale += 1
                    program.send(bridge_error_line(
                        turn, "NOT_EXPECTED", f"an answer to turn {self.pending} was already sent; answer again only "
                        "after an error line with retry true: not sent", self.strikes))
                continue
            pending = self.pending
            if turn is not None and turn != pending:
                stats.stale += 1
                program.send(bridge_error_line(
                    turn, "STALE_TURN", f"turn {turn} is not pending; the pending turn is {pending}: not sent",
                    self.strikes))
                continue
            if action is None:
                stats.garbage += 1
                self.inflight = (pending, f"{problem}")
                action = game_pb2.Action(turn=pending)  # no action set: the referee refuses it as MALFORMED
            else:
                stats.answers += 1
                self.inflight = (pending, None)
            await call.write(referee_pb2.BotMessage(action=action))


# ------------------------------------------------------------------------------ running
async def run_stdio_async(
    command: Sequence[str],
    server: str | None = None,
    token: str | None = None,
    *,
    parallel: int | None = None,
    games: int | None = None,
    name: str | None = None,
    events: bool = True,
    max_restarts: int = 5,
    transcript: IO[str] | None = None,
    max_reconnects: int | None = None,
    live_events: bool = False,
    stats: StdioStats | None = None,
) -> StdioStats:
    """Bridge ``command`` (one process per stream) to the referee until ``games`` games are over
    (None: until cancelled). Raises :class:`RefereeRefused` or :class:`MizerkaError`."""
    if not command:
        raise MizerkaError("no program to run: give its command after --")
    if games is not None and games < 1:
        raise ValueError("games must be at least 1 (or None for no limit)")
    parallel = parallel_setting(parallel)
    server, token = launch_settings(server, token)
    stats = stats if stats is not None else StdioStats()
    runner = _Runner(command, server, token, parallel, games, name, events, max_restarts,
                     _Transcript(transcript) if transcript is not None else None, stats,
                     max_reconnects=max_reconnects, live_events=live_events)
    await runner.run()
    return stats


def run_stdio(command: Sequence[str], server: str | None = None, token: str | None = None, **options: Any) -> StdioStats:
    """The blocking form of :func:`run_stdio_async`. Ctrl-C or SIGTERM closes the streams, stops the
    programs (stdin closed, then SIGTERM, then SIGKILL) and returns with ``interrupted = True``."""
    stats = options.pop("stats", None) or StdioStats()

    async def bridge() -> None:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not on every platform
            loop.add_signal_handler(signal.SIGTERM, task.cancel)  # type: ignore[union-attr]
        try:
            await run_stdio_async(command, server, token, stats=stats, **options)
        except asyncio.CancelledError:
            stats.interrupted = True

    try:
        asyncio.run(bridge())
    except KeyboardInterrupt:
        stats.interrupted = True
    return stats


def build_parser(prog: str = "mizerka-bot stdio") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        usage=f"{prog} [options] -- CMD [ARGS...]",
        description="Play through a program that speaks the JSON Lines protocol of docs/stdio-protocol.md on "
        "its stdin and stdout: one process per Play stream, started as CMD ARGS...",
        epilog=f"Environment: {ENV_SERVER} (default {DEFAULT_SERVER}), {ENV_TOKEN} and {ENV_PARALLEL} (default 1); "
        "flags override them. The program's stderr goes to this command's stderr.",
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
    try:
        parallel = parallel_setting(args.parallel)
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
                          live_events=args.live_events)
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
