"""The one turn loop: a game between seats as the referee runs it, without any I/O.

A :class:`GameSession` owns the :class:`~mizerka_engine.game.Game` and everything the referee decides
around it -- which messages each seat receives, when events are flushed, how an answer is checked
and refused (with a code and whether to retry), stale answers, the default action, strikes, forfeits
and the seat clocks. It never waits, reads a clock or touches a transport: a driver feeds it what
happened (an answer, a timeout, a lost stream, with the time the seat used) and sends what it queued
in :attr:`GameSession.outbox`. The live referee (:class:`server.referee.match.GameRunner`, over gRPC
streams and the event loop's clock) and every offline driver (:mod:`server.referee.offline`:
self-play, re-feed, rerun) drive this same class, so a bot sees the same messages on all of them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from mizerka_engine.events import Event
from mizerka_engine.game import ActionErrorCode, Decision, Game, IllegalAction, default_action, ranks
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import project_events
from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server.codec import protocol, wire_events
from server.policies import DefaultReason
from server.referee.clock import SeatClock
from server.settings import ClockSettings


class Disconnected(Exception):
    """A seat's bot is gone (its stream closed, cancelled or broken; its program exited)."""


@dataclass(slots=True)
class SeatRecord:
    """What happened to one seat in one game; stored with every result."""

    timeouts: int = 0
    refusals: int = 0
    malformed: int = 0
    stale: int = 0
    defaults: int = 0
    strikes: int = 0
    forfeited: bool = False
    disconnected: bool = False
    time_used_ms: float = 0.0


@dataclass(slots=True)
class TurnRecord:
    """How one turn was decided: ``entry`` is the index in ``Game.log`` of the action entry it
    produced; ``time_ms`` the time charged to the seat; ``default`` why the referee's default action
    was applied, or None."""

    entry: int
    turn: int
    seat: int
    time_ms: float
    default: DefaultReason | None = None


@dataclass(slots=True)
class GameRecord:
    game_index: int
    seed: str
    totals: list[int]
    ranks: list[int]
    seats: list[SeatRecord]
    game: Game = field(repr=False)
    aborted: bool = False
    match_id: str = ""
    games: int = 1
    names: list[str] = field(default_factory=list)
    versions: list[str | None] = field(default_factory=list)  # each seat's Hello.version (None: no stream)
    hello_names: list[str | None] = field(default_factory=list)  # each seat's Hello.name (None: no stream)
    clock: ClockSettings | None = None
    turns: list[TurnRecord] = field(default_factory=list, repr=False)  # one per turn, in log order


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as its driver found it: whether a bot is there, and what its Hello said."""

    present: bool = True
    live_events: bool = False  # Hello.live_events: events as they happen, not only with decisions
    version: str | None = None
    hello_name: str | None = None


class Ask(NamedTuple):  # NamedTuples: one of each per decision, built faster than frozen dataclasses
    """The seat must answer ``turn``; the driver allows it ``allowed_ms`` from handing over the request."""

    turn: int
    seat: int
    allowed_ms: float


class Refusal(NamedTuple):
    """An answer the turn loop refuses: the ActionError it gets, less what the loop adds (retry, times)."""

    turn: int
    code: ActionErrorCode
    message: str


class Outgoing(NamedTuple):
    seat: int
    message: referee_pb2.RefereeMessage


class SessionLog(Protocol):
    """What a session logs through: structlog's bound loggers are one (the live referee's). Not
    structlog itself, so that the offline drivers (``mizerka replay``) start without importing it."""

    def bind(self, **values: Any) -> SessionLog: ...

    def info(self, event: str, **values: Any) -> Any: ...

    def warning(self, event: str, **values: Any) -> Any: ...


class QuietLog:
    """A :class:`SessionLog` that drops everything."""

    def bind(self, **values: Any) -> QuietLog:
        return self

    def info(self, event: str, **values: Any) -> None:
        """Dropped."""

    def warning(self, event: str, **values: Any) -> None:
        """Dropped."""


QUIET = QuietLog()


class GameSession:
    """One game: call :meth:`start`, then :meth:`next_ask` until it returns None; resolve each ask with
    :meth:`answer`, :meth:`time_out`, :meth:`default` or :meth:`disconnect`. After every call, send
    :meth:`take`'s messages to their seats. Never raises for a bot's fault."""

    def __init__(
        self,
        match_id: str,
        rules: Ruleset,
        seed: str,
        game_index: int,
        seats: Sequence[SeatInfo],
        names: Sequence[str],
        clock: ClockSettings,
        games: int = 1,
        on_update: Callable[[Game], None] | None = None,
        log: SessionLog | None = None,
    ) -> None:
        """``log``: where strikes and forfeits are logged (the live referee's structlog logger;
        offline drivers and tests keep the default, which drops them: their results say it all)."""
        n = rules.players
        if len(seats) != n or len(names) != n:
            raise ValueError(f"{rules.preset} needs {n} seats, got {len(seats)}")
        self.match_id = match_id
        self.rules = rules
        self.seed = seed
        self.game_index = game_index
        self.games = games
        self.names = list(names)
        self.settings = clock
        self.on_update = on_update
        self.game = Game(rules, seed=seed)
        self.live_events = [s.live_events for s in seats]
        self.connected = [s.present for s in seats]
        self.versions = [s.version if s.present else None for s in seats]
        self.hello_names = [s.hello_name if s.present else None for s in seats]
        self.records = [SeatRecord() for _ in range(n)]
        self.clocks = [SeatClock(clock) for _ in range(n)]
        self.cursors = [0] * n
        self.encoders = [wire_events.EventEncoder(rules) for _ in range(n)]
        self.views = [wire_events.SeatViewKeeper(rules, seat, names) for seat in range(n)]
        self._ruleset = protocol.ruleset_request_bytes(rules)  # in every DecisionRequest
        self.held: list[list[events_pb2.Event]] = [[] for _ in range(n)]  # a forfeited seat's, until the game's end
        self.turn = 0
        self.turns: list[TurnRecord] = []
        self.outbox: list[Outgoing] = []
        self.pending: Ask | None = None
        self._decision: Decision | None = None
        self._entry = 0
        self._errors = 0
        self.log = (log or QUIET).bind(match_id=match_id, game=game_index)
        for seat, info in enumerate(seats):
            if not info.present:  # nobody came for this seat: the default policy plays it
                self._forfeit(seat, disconnected=True)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSession:
        """A copy to try answers on (re-feeding) that shares the logger and the update callback."""
        clone = GameSession.__new__(GameSession)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            setattr(clone, key, value if key in ("log", "on_update") else copy.deepcopy(value, memo))
        return clone

    # ------------------------------------------------------------------------------ messages
    def take(self) -> list[Outgoing]:
        """The messages queued since the last call, in order; the driver sends each to its seat."""
        out, self.outbox = self.outbox, []
        return out

    def _send(self, seat: int, message: referee_pb2.RefereeMessage) -> None:
        if self.connected[seat]:
            self.outbox.append(Outgoing(seat, message))

    def _send_events(self, seat: int, events: Sequence[events_pb2.Event]) -> None:
        """One message for several events: a write costs far more than its size."""
        if events:
            self._send(seat, referee_pb2.RefereeMessage(event_batch=referee_pb2.EventBatch(events=events)))

    def _pending_events(self, seat: int) -> list[Event]:
        """The log events ``seat`` has not been sent yet, as its projection allows; its kept view
        takes them too."""
        start, end = self.cursors[seat], len(self.game.log)
        self.cursors[seat] = end
        if start == end:
            return []
        if not self.connected[seat]:
            self.views[seat].forget()
            return []
        events = project_events(self.game, seat, start)
        self.views[seat].feed(events)
        return events

    def _encoded_events(self, seat: int) -> list[events_pb2.Event]:
        return self.encoders[seat].encode_all(self._pending_events(seat))

    def _flush_events(self, but: int = -1, everyone: bool = False) -> None:
        """Queue what they have not seen for the seats that want live events, or (at the game's end)
        for all, with what was held back for forfeited seats; ``but``'s events ride on its
        DecisionRequest instead. A forfeited seat gets nothing until the end: it is not asked any
        more, and a bot that stopped reading must not pile up messages (it would be cut off)."""
        for seat in range(self.rules.players):
            if seat == but or not self.connected[seat]:
                continue
            if everyone:
                held, self.held[seat] = self.held[seat], []
                self._send_events(seat, [*held, *self._encoded_events(seat)])
            elif self.live_events[seat] and not self.records[seat].forfeited:
                self._send_events(seat, self._encoded_events(seat))
        if self.on_update is not None:
            self.on_update(self.game)

    # ------------------------------------------------------------------------------ the game
    def start(self) -> None:
        """Queue every seat's GameStart."""
        ruleset = protocol.ruleset_to_proto(self.rules)
        clock = protocol.clock_to_proto(self.settings)
        for seat in range(self.rules.players):
            start = referee_pb2.GameStart(
                match_id=self.match_id, game_number=self.game_index, games=self.games, seat=seat,
                names=self.names, ruleset=ruleset, clock=clock,
            )
            self._send(seat, referee_pb2.RefereeMessage(game_start=start))

    def next_ask(self, most: int | None = None) -> Ask | None:
        """Play the turns no bot answers (forfeited seats) until a seat must be asked: queue its
        DecisionRequest and return the ask. At the end of the game queue the last events and
        GameEnd and return None. ``most``: after that many such turns in a row, return None with
        the game not over (call again): a live driver lets its other matches run between them, so
        a game nobody plays any more never holds them up."""
        assert self.pending is None, "the pending turn is not resolved yet"
        game = self.game
        played = 0
        while not game.finished:
            seat = game.to_act
            record = self.records[seat]
            unanswered = record.forfeited or not self.connected[seat]
            if unanswered and played == most:
                return None
            self.turn += 1
            self._entry = len(game.log)  # this turn's action will be the log's next entry
            self._decision = game.decision()
            assert self._decision is not None, "the game waits for cards: the referee deals from the seed"
            self._flush_events(but=seat)
            if unanswered:
                self._apply_default(seat, DefaultReason.DISCONNECTED if record.disconnected else DefaultReason.FORFEITED)
                played += 1
                continue
            clock = self.clocks[seat]
            events = self.encoders[seat].request_bytes(self._pending_events(seat))  # feeds the seat's view first
            message = referee_pb2.RefereeMessage()
            protocol.decision_to_proto(
                self.turn, self._decision, self.views[seat].view(game), self.settings.decision_ms, clock.bank_ms,
                out=message.decision_request, extra=self._ruleset + events,
            )
            self._send(seat, message)
            self._errors = 0
            self.pending = Ask(self.turn, seat, clock.allowed_ms())
            return self.pending
        self._flush_events(everyone=True)
        self._send_game_end()
        self.log.info("game finished", totals=list(game.totals))
        return None

    def answer(self, message: referee_pb2.BotMessage, elapsed_ms: float) -> bool:
        """The asked seat sent ``message`` ``elapsed_ms`` after its request: apply it (True), or queue
        the ActionError (and, past Clock.max_retries refusals, strike and apply the default)."""
        ask = self._ask()
        seat, record = ask.seat, self.records[ask.seat]
        refusal = self._try(ask, message)
        if refusal is None:
            record.time_used_ms += elapsed_ms
            self.clocks[seat].charge(elapsed_ms)
            self.turns.append(TurnRecord(self._entry, ask.turn, seat, elapsed_ms))
            self.pending = None
            return True
        stale = refusal.code is ActionErrorCode.STALE_TURN  # a late answer to an earlier turn: discarded, not counted
        self._errors += not stale
        limit = self.settings.max_retries
        left_ms = max(0.0, ask.allowed_ms - elapsed_ms)  # in all, decision time and bank
        decision_left_ms = min(left_ms, max(0.0, self.settings.decision_ms - elapsed_ms))
        error = protocol.error_to_proto(
            *refusal, retry=not stale and self._errors <= limit, strikes=record.strikes,
            time_left_ms=round(decision_left_ms, 3),  # whole ms, down (rounded to the µs first: float noise)
            bank_ms=round(left_ms - decision_left_ms, 3),  # the bank as it will be once the free time is used up
        )
        self._send(seat, referee_pb2.RefereeMessage(action_error=error))
        if self._errors > limit:
            self.default(DefaultReason.REFUSED, elapsed_ms)
        return False

    def time_out(self, overshoot_ms: float | None = None) -> None:
        """The asked seat gave no legal answer within its allowed time (``overshoot_ms``: how late
        the driver noticed, for the log)."""
        ask = self._ask()
        self.records[ask.seat].timeouts += 1
        self.default(DefaultReason.TIMEOUT, ask.allowed_ms, overshoot_ms)

    def default(self, reason: DefaultReason, elapsed_ms: float, overshoot_ms: float | None = None) -> None:
        """Resolve the asked turn with the referee's default action for ``reason`` (a strike for
        TIMEOUT and REFUSED). Replays use it to re-enact a logged default."""
        ask = self._ask()
        seat, record = ask.seat, self.records[ask.seat]
        if reason == DefaultReason.DISCONNECTED:
            self._forfeit(seat, disconnected=True)
        if not reason.strike:
            self._apply_default(seat, reason, time_ms=elapsed_ms)
            return
        record.time_used_ms += elapsed_ms
        self.clocks[seat].charge(elapsed_ms, in_time=False)
        record.strikes += 1
        limit = self.settings.max_strikes
        if limit and record.strikes >= limit:
            self._forfeit(seat)
        self.log.info("strike", seat=seat, turn=ask.turn, strikes=record.strikes, reason=reason.value,
                      overshoot_ms=None if overshoot_ms is None else round(overshoot_ms, 3))
        strike = protocol.strike_counted_to_proto(ask.turn, record.strikes, limit, record.forfeited)
        self._apply_default(seat, reason, strike, time_ms=elapsed_ms)

    def disconnect(self, seat: int, elapsed_ms: float = 0.0) -> None:
        """``seat``'s stream is gone: nothing more is sent to it, the default plays its turns; if it
        was being asked, its turn is resolved now."""
        if self.pending is not None and self.pending.seat == seat:
            self.default(DefaultReason.DISCONNECTED, elapsed_ms)
        else:
            self._forfeit(seat, disconnected=True)

    def abort(self, reason: str) -> GameRecord:
        """Tell every seat the game stops here (server shutdown); returns the record so far."""
        self.pending = None
        self._send_game_end(reason)
        return self.record(aborted=True)

    def record(self, aborted: bool = False) -> GameRecord:
        totals = list(self.game.totals)
        return GameRecord(
            self.game_index, self.seed, totals, ranks(totals), self.records, self.game, aborted,
            match_id=self.match_id, games=self.games, names=list(self.names), versions=list(self.versions),
            hello_names=list(self.hello_names), clock=self.settings, turns=list(self.turns),
        )

    # ------------------------------------------------------------------------------ helpers
    def _ask(self) -> Ask:
        if self.pending is None:
            raise RuntimeError("no turn is pending: call next_ask first")
        return self.pending

    def _forfeit(self, seat: int, disconnected: bool = False) -> None:
        record = self.records[seat]
        if not record.forfeited or disconnected and not record.disconnected:
            self.log.warning("seat forfeited", seat=seat, disconnected=disconnected, strikes=record.strikes)
        record.forfeited = True
        if disconnected:
            record.disconnected = True
            self.connected[seat] = False

    def _try(self, ask: Ask, message: referee_pb2.BotMessage) -> Refusal | None:
        """Apply the message's action if it is this turn's and legal; otherwise why it is refused."""
        record = self.records[ask.seat]
        if message.WhichOneof("message") != "action":
            record.malformed += 1
            return Refusal(ask.turn, ActionErrorCode.NOT_EXPECTED,
                           "expected an Action for the pending DecisionRequest, not another Hello")
        action_msg = message.action
        if action_msg.turn != ask.turn:
            record.stale += 1
            return Refusal(action_msg.turn, ActionErrorCode.STALE_TURN,
                           f"turn {action_msg.turn} is not pending; the pending turn is {ask.turn}")
        try:
            self.game.apply(ask.seat, protocol.action_from_proto(action_msg))
        except protocol.ProtocolError as e:
            record.malformed += 1
            return Refusal(ask.turn, e.code, e.message)
        except IllegalAction as e:
            record.refusals += 1
            return Refusal(ask.turn, e.code, e.message)
        return None

    def _apply_default(self, seat: int, reason: DefaultReason, strike: events_pb2.Event | None = None,
                       time_ms: float = 0.0) -> None:
        assert self._decision is not None
        action = default_action(self._decision)
        entry = len(self.game.log)
        self.game.apply(seat, action)
        self.records[seat].defaults += 1
        self.turns.append(TurnRecord(entry, self.turn, seat, time_ms, reason))
        applied = protocol.default_applied_to_proto(self.turn, action, reason)
        events = [*self._encoded_events(seat), *([strike] if strike is not None else []), applied]
        if reason == DefaultReason.FORFEITED:
            self.held[seat].extend(events)  # see _flush_events
        else:
            self._send_events(seat, events)
        self.pending = None

    def _send_game_end(self, abort_reason: str = "") -> None:
        game = self.game
        totals = list(game.totals)
        places = ranks(totals)
        results = protocol.results_to_proto(game.results)
        seats = [
            game_pb2.SeatRecord(
                seat=s, name=self.names[s], total=totals[s], rank=places[s], timeouts=r.timeouts,
                refusals=r.refusals + r.malformed, defaults_applied=r.defaults, forfeited=r.forfeited,
                disconnected=r.disconnected,
            )
            for s, r in enumerate(self.records)
        ]
        for seat in range(self.rules.players):
            end = referee_pb2.GameEnd(
                match_id=self.match_id, game_number=self.game_index, seat=seat, rank=places[seat], totals=totals,
                results=results, seats=seats, aborted=bool(abort_reason), abort_reason=abort_reason,
            )
            self._send(seat, referee_pb2.RefereeMessage(game_end=end))
