"""One game between seats: the referee's per-decision loop, clocks, strikes, forfeits and faults.

Transport-agnostic: each seat is a :class:`SeatPort` that moves protocol messages. Time is the
event loop's monotonic clock (``loop.time()``), so tests run it on a fake loop clock, instantly and
exactly. A deadline is one ``asyncio.timeout_at`` around one ``await port.receive()``; the port's
queue is fed by its own reader task, so a timeout never touches the underlying stream.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import structlog

from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server import protocol
from server.engine.game import Decision, Game, IllegalAction
from server.engine.rules import Ruleset
from server.engine.views import project, project_events
from server.policies import default_action
from server.referee.clock import ClockSettings, SeatClock

TIMEOUT = events_pb2.DEFAULT_REASON_TIMEOUT
FORFEITED = events_pb2.DEFAULT_REASON_FORFEITED
DISCONNECTED = events_pb2.DEFAULT_REASON_DISCONNECTED
REFUSED = events_pb2.DEFAULT_REASON_REFUSED

class Disconnected(Exception):
    """The seat's stream is gone (closed, cancelled or broken)."""


class SeatPort(Protocol):
    """A seat's two directions. ``receive`` raises Disconnected once the bot's side has ended.

    ``send`` must not wait on the bot (queue the message and return): a bot that stops reading
    must never stall the match for the others; the port declares it disconnected instead.
    """

    live_events: bool  # Hello.live_events: send events as they happen, not only with decisions

    async def send(self, message: referee_pb2.RefereeMessage) -> None: ...

    async def receive(self) -> referee_pb2.BotMessage: ...


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
    produced; ``time_ms`` the time charged to the seat; ``default`` the reason the referee's
    default action was applied (TIMEOUT, REFUSED, FORFEITED, DISCONNECTED), or None."""

    entry: int
    turn: int
    seat: int
    time_ms: float
    default: str | None = None


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


def game_seed(match_seed: str, game_index: int) -> str:
    """Game i of a match deals from its own seed, the same for every match with this seed (duplicates)."""
    return f"{match_seed}/{game_index}"


class GameRunner:
    """Plays one game on the given ports and returns its record; never raises for a bot's fault."""

    def __init__(
        self,
        match_id: str,
        rules: Ruleset,
        seed: str,
        game_index: int,
        ports: Sequence[SeatPort | None],
        names: Sequence[str],
        clock: ClockSettings,
        games: int = 1,
        on_update: Callable[[Game], None] | None = None,
    ) -> None:
        n = rules.players
        if len(ports) != n or len(names) != n:
            raise ValueError(f"{rules.preset} needs {n} seats, got {len(ports)}")
        self.match_id = match_id
        self.rules = rules
        self.seed = seed
        self.game_index = game_index
        self.games = games
        self.ports = list(ports)
        self.names = list(names)
        self.settings = clock
        self.on_update = on_update
        self.game = Game(rules, seed=seed)
        self.records = [SeatRecord() for _ in range(n)]
        self.clocks = [SeatClock(clock) for _ in range(n)]
        self.cursors = [0] * n
        self.encoders = [protocol.EventEncoder(rules) for _ in range(n)]
        self.turn = 0
        self.turns: list[TurnRecord] = []  # per-turn metadata, aligned with the log entries it produced
        # What each seat's stream said in Hello, kept for the match log (a port may go away mid-game).
        self.versions: list[str | None] = [getattr(p, "version", None) if p is not None else None for p in self.ports]
        self.hello_names: list[str | None] = [getattr(p, "hello_name", None) if p is not None else None for p in self.ports]
        self.log = structlog.get_logger("referee").bind(match_id=match_id, game=game_index)
        for seat, port in enumerate(self.ports):
            if port is None:  # nobody came for this seat: the default policy plays it
                self._forfeit(seat, disconnected=True)

    # ------------------------------------------------------------------------------ sending
    async def _send(self, seat: int, message: referee_pb2.RefereeMessage) -> None:
        port = self.ports[seat]
        if port is None:
            return
        try:
            await port.send(message)
        except Disconnected:
            self._forfeit(seat, disconnected=True)

    async def _send_events(self, seat: int, *events: events_pb2.Event) -> None:
        """One message for several events: a write costs far more than its size."""
        if events:
            await self._send(seat, referee_pb2.RefereeMessage(event_batch=referee_pb2.EventBatch(events=events)))

    def _pending_events(self, seat: int) -> list[events_pb2.Event]:
        """The log entries ``seat`` has not been sent yet, as its projection allows."""
        start, end = self.cursors[seat], len(self.game.log)
        self.cursors[seat] = end
        if start == end or self.ports[seat] is None:
            return []
        return self.encoders[seat].encode_all(project_events(self.game, seat, start))

    async def _flush_events(self, but: int = -1, everyone: bool = False) -> None:
        """Send what they have not seen to the seats that want live events (or to all); ``but``'s
        events ride on its DecisionRequest instead."""
        for seat, port in enumerate(self.ports):
            if seat != but and port is not None and (everyone or port.live_events):
                await self._send_events(seat, *self._pending_events(seat))
        if self.on_update is not None:
            self.on_update(self.game)

    def _forfeit(self, seat: int, disconnected: bool = False) -> None:
        record = self.records[seat]
        if not record.forfeited or disconnected and not record.disconnected:
            self.log.warning("seat forfeited", seat=seat, disconnected=disconnected, strikes=record.strikes)
        record.forfeited = True
        if disconnected:
            record.disconnected = True
            self.ports[seat] = None

    # ------------------------------------------------------------------------------ playing
    async def run(self) -> GameRecord:
        ruleset = protocol.ruleset_to_proto(self.rules)
        clock = protocol.clock_to_proto(self.settings)
        for seat in range(self.rules.players):
            start = referee_pb2.GameStart(
                match_id=self.match_id, game_number=self.game_index, games=self.games, seat=seat,
                names=self.names, ruleset=ruleset, clock=clock,
            )
            await self._send(seat, referee_pb2.RefereeMessage(game_start=start))
        game = self.game
        while not game.finished:
            await self._turn(game.to_act)
        await self._flush_events(everyone=True)
        await self._send_game_end()
        self.log.info("game finished", totals=list(game.totals))
        return self.record()

    def record(self, aborted: bool = False) -> GameRecord:
        totals = list(self.game.totals)
        return GameRecord(
            self.game_index, self.seed, totals, protocol.ranks(totals), self.records, self.game, aborted,
            match_id=self.match_id, games=self.games, names=list(self.names), versions=list(self.versions),
            hello_names=list(self.hello_names), clock=self.settings, turns=list(self.turns),
        )

    async def _send_game_end(self, abort_reason: str = "") -> None:
        game = self.game
        totals = list(game.totals)
        ranks = protocol.ranks(totals)
        results = protocol.results_to_proto(game.results)
        seats = [
            game_pb2.SeatRecord(
                seat=s, name=self.names[s], total=totals[s], rank=ranks[s], timeouts=r.timeouts,
                refusals=r.refusals + r.malformed, defaults_applied=r.defaults, forfeited=r.forfeited,
                disconnected=r.disconnected,
            )
            for s, r in enumerate(self.records)
        ]
        for seat in range(self.rules.players):
            end = referee_pb2.GameEnd(
                match_id=self.match_id, game_number=self.game_index, seat=seat, rank=ranks[seat], totals=totals,
                results=results, seats=seats, aborted=bool(abort_reason), abort_reason=abort_reason,
            )
            await self._send(seat, referee_pb2.RefereeMessage(game_end=end))

    async def abort(self, reason: str) -> GameRecord:
        """Tell every seat the game stops here (server shutdown); returns the record so far."""
        await self._send_game_end(reason)
        return self.record(aborted=True)

    async def _turn(self, seat: int) -> None:
        """Get the seat's action for the pending decision and apply it; the default on any fault."""
        self.turn += 1
        turn = self.turn
        entry = len(self.game.log)  # this turn's action will be the log's next entry
        decision = self.game.decision()
        assert decision is not None
        record = self.records[seat]
        await self._flush_events(but=seat)
        if record.forfeited or self.ports[seat] is None:
            await self._apply_default(seat, turn, decision, DISCONNECTED if record.disconnected else FORFEITED)
            return
        clock = self.clocks[seat]
        allowed_ms = clock.allowed_ms()
        request = protocol.decision_to_proto(
            turn, decision, project(self.game, seat), self.settings.decision_ms, clock.bank_ms, self.names, self.rules
        )
        request.events.extend(self._pending_events(seat))
        await self._send(seat, referee_pb2.RefereeMessage(decision_request=request))
        port = self.ports[seat]
        if port is None:  # the send found the stream gone
            await self._apply_default(seat, turn, decision, DISCONNECTED)
            return
        loop = asyncio.get_running_loop()
        started = loop.time()  # the clock runs from the moment the request is handed to the transport
        deadline = started + allowed_ms / 1000.0
        errors = 0
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await port.receive()
            except TimeoutError:
                overshoot_ms = (loop.time() - deadline) * 1000.0  # how late the timeout fired (logged)
                record.timeouts += 1
                record.time_used_ms += allowed_ms
                clock.charge(allowed_ms, in_time=False)
                await self._strike(seat, turn, decision, TIMEOUT, overshoot_ms, time_ms=allowed_ms)
                return
            except Disconnected:
                self._forfeit(seat, disconnected=True)
                await self._apply_default(seat, turn, decision, DISCONNECTED, time_ms=(loop.time() - started) * 1000.0)
                return
            error = self._try(seat, turn, message)
            if error is None:
                used_ms = (loop.time() - started) * 1000.0
                record.time_used_ms += used_ms
                clock.charge(used_ms)
                self.turns.append(TurnRecord(entry, turn, seat, used_ms))
                return
            stale = error.code == "STALE_TURN"  # a late answer to an earlier turn: discarded, no count
            errors += not stale
            error.retry = not stale and errors <= self.settings.max_retries
            error.strikes = record.strikes
            left_ms = max(0.0, deadline - loop.time()) * 1000.0
            error.time_left_ms = int(min(left_ms, self.settings.decision_ms))
            error.bank_ms = int(min(clock.bank_ms, left_ms))
            await self._send(seat, referee_pb2.RefereeMessage(action_error=error))
            if errors > self.settings.max_retries:
                spent_ms = (loop.time() - started) * 1000.0
                record.time_used_ms += spent_ms
                clock.charge(spent_ms, in_time=False)
                await self._strike(seat, turn, decision, REFUSED, time_ms=spent_ms)
                return

    def _try(self, seat: int, turn: int, message: referee_pb2.BotMessage) -> referee_pb2.ActionError | None:
        """Apply the message's action if it is this turn's and legal; otherwise the error to send."""
        record = self.records[seat]
        if message.WhichOneof("message") != "action":
            record.malformed += 1
            return referee_pb2.ActionError(turn=turn, code="NOT_EXPECTED", message="expected an Action for the pending DecisionRequest, not another Hello")
        action_msg = message.action
        if action_msg.turn != turn:
            record.stale += 1
            return referee_pb2.ActionError(
                turn=action_msg.turn, code="STALE_TURN",
                message=f"turn {action_msg.turn} is not pending; the pending turn is {turn}",
            )
        try:
            self.game.apply(seat, protocol.action_from_proto(action_msg))
        except protocol.ProtocolError as e:
            record.malformed += 1
            return referee_pb2.ActionError(turn=turn, code=e.code, message=e.message)
        except IllegalAction as e:
            record.refusals += 1
            return referee_pb2.ActionError(turn=turn, code=e.code, message=e.message)
        return None

    async def _strike(self, seat: int, turn: int, decision: Decision, reason: int, overshoot_ms: float | None = None,
                      time_ms: float = 0.0) -> None:
        record = self.records[seat]
        record.strikes += 1
        limit = self.settings.max_strikes
        if limit and record.strikes >= limit:
            self._forfeit(seat)
        self.log.info("strike", seat=seat, turn=turn, strikes=record.strikes, reason=events_pb2.DefaultReason.Name(reason),
                      overshoot_ms=None if overshoot_ms is None else round(overshoot_ms, 3))
        strike = protocol.strike_counted_to_proto(turn, record.strikes, limit, record.forfeited)
        await self._apply_default(seat, turn, decision, reason, strike, time_ms=time_ms)

    async def _apply_default(self, seat: int, turn: int, decision: Decision, reason: int,
                             strike: events_pb2.Event | None = None, time_ms: float = 0.0) -> None:
        action = default_action(decision)
        entry = len(self.game.log)
        self.game.apply(seat, action)
        self.records[seat].defaults += 1
        name = events_pb2.DefaultReason.Name(reason).removeprefix("DEFAULT_REASON_")
        self.turns.append(TurnRecord(entry, turn, seat, time_ms, name))
        applied = protocol.default_applied_to_proto(turn, action, name)
        await self._send_events(seat, *self._pending_events(seat), *([strike] if strike is not None else []), applied)
