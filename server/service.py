"""The gRPC service: Referee (Play, Watch) and Arena (admin), on grpc.aio.

Each Play stream becomes a :class:`StreamSeat` (a SeatPort) waiting in the :class:`Lobby` until a
match takes it. One reader task per stream feeds a queue; the referee times out on the queue, never
on ``context.read()`` (a timeout there breaks the stream).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict
from typing import Any

import grpc
import structlog
from google.protobuf import timestamp_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection

from mizerka_proto import (
    arena_pb2,
    arena_pb2_grpc,
    game_pb2,
    referee_pb2,
    referee_pb2_grpc,
)
from server import matchlog, protocol
from server.engine.game import Game
from server.engine.rules import RulesError, load_ruleset
from server.engine.views import FULL, SPECTATOR, project, project_events
from server.logverify import replay_log
from server.referee.match import Disconnected, GameRecord, GameRunner, game_seed
from server.settings import ClockSettings
from server.store import (
    ABORTED,
    FINISHED,
    PENDING,
    RUNNING,
    Bot,
    MatchRow,
    Store,
    StoreError,
)

log = structlog.get_logger("service")

VERSION = "0.1.0"
MAX_MESSAGE_BYTES = 64 * 1024
_CLOSED = object()
_STATUS = {
    PENDING: arena_pb2.MATCH_STATUS_PENDING,
    RUNNING: arena_pb2.MATCH_STATUS_RUNNING,
    FINISHED: arena_pb2.MATCH_STATUS_FINISHED,
    ABORTED: arena_pb2.MATCH_STATUS_ABORTED,
}


# ------------------------------------------------------------------------------------ seats
class StreamSeat:
    """A Play stream as a SeatPort. Messages arriving while no game is running are answered
    NOT_EXPECTED; messages during a game are queued for the referee. Outgoing messages go through
    a writer task, so the match never waits on a bot's reading; a bot that lets more than
    ``MAX_BACKLOG`` messages pile up unread is disconnected."""

    MAX_BACKLOG = 256

    def __init__(self, context: grpc.aio.ServicerContext, bot: Bot, version: str) -> None:
        self.context = context
        self.bot = bot
        self.version = version
        self.hello_name = ""  # Hello.name, for match logs
        self.live_events = False
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.outbox: asyncio.Queue[referee_pb2.RefereeMessage] = asyncio.Queue()
        self.closed = asyncio.Event()
        self.in_game = False

    async def write_loop(self) -> None:
        try:
            while True:
                await self.context.write(await self.outbox.get())
        except (grpc.RpcError, RuntimeError, asyncio.InvalidStateError, asyncio.CancelledError):
            pass
        finally:
            self.closed.set()
            self.queue.put_nowait(_CLOSED)

    async def read_loop(self) -> None:
        try:
            while True:
                message = await self.context.read()
                if message == grpc.aio.EOF:
                    break
                if self.in_game:
                    self.queue.put_nowait(message)
                else:
                    error = referee_pb2.ActionError(
                        turn=message.action.turn, code="NOT_EXPECTED",
                        message="nothing is pending for you: no game is running on this stream",
                    )
                    await self.send(referee_pb2.RefereeMessage(action_error=error))
        except (grpc.RpcError, Disconnected, asyncio.CancelledError):
            pass
        finally:
            self.closed.set()
            self.queue.put_nowait(_CLOSED)

    async def send(self, message: referee_pb2.RefereeMessage) -> None:
        if self.closed.is_set():
            raise Disconnected()
        if self.outbox.qsize() >= self.MAX_BACKLOG:
            log.warning("bot does not read its stream; disconnecting it", bot=self.bot.name, backlog=self.outbox.qsize())
            self.closed.set()
            self.queue.put_nowait(_CLOSED)
            raise Disconnected()
        self.outbox.put_nowait(message)

    async def receive(self) -> referee_pb2.BotMessage:
        message = await self.queue.get()
        if message is _CLOSED:
            self.queue.put_nowait(_CLOSED)  # every later receive sees the end too
            raise Disconnected()
        return message

    def start_game(self) -> None:
        while not self.queue.empty():  # drop anything left from before this game
            if self.queue.get_nowait() is _CLOSED:
                self.queue.put_nowait(_CLOSED)
                break
        self.in_game = True


class Lobby:
    """Idle seats per bot; a match takes all its seats at once, so two matches never deadlock."""

    def __init__(self) -> None:
        self.idle: dict[str, list[StreamSeat]] = {}
        self.streams: Counter[str] = Counter()  # open streams per bot, idle or not
        self.changed = asyncio.Condition()

    async def add(self, seat: StreamSeat) -> None:
        async with self.changed:
            self.streams[seat.bot.id] += 1
            self.idle.setdefault(seat.bot.id, []).append(seat)
            self.changed.notify_all()

    async def remove(self, seat: StreamSeat) -> None:
        async with self.changed:
            self.streams[seat.bot.id] -= 1
            with contextlib.suppress(ValueError):
                self.idle.get(seat.bot.id, []).remove(seat)

    def _take(self, bot_ids: Sequence[str | None], partial: bool) -> list[StreamSeat | None] | None:
        for seats in self.idle.values():
            seats[:] = [s for s in seats if not s.closed.is_set()]
        need = Counter(b for b in bot_ids if b is not None)
        if not partial and any(len(self.idle.get(b, [])) < k for b, k in need.items()):
            return None
        out: list[StreamSeat | None] = []
        for b in bot_ids:
            pool = self.idle.get(b, []) if b is not None else []
            out.append(pool.pop(0) if pool else None)
        for s in out:
            if s is not None:
                s.start_game()
        return out

    async def acquire(self, bot_ids: Sequence[str | None], timeout_s: float) -> list[StreamSeat | None]:
        """A stream for every seat (None: a seat not to fill); after ``timeout_s``, None for the
        seats nobody came for."""
        async with self.changed:
            try:
                async with asyncio.timeout(timeout_s):
                    while (taken := self._take(bot_ids, partial=False)) is None:
                        await self.changed.wait()
                    return taken
            except TimeoutError:
                return self._take(bot_ids, partial=True)  # type: ignore[return-value]

    async def release(self, seats: Sequence[StreamSeat | None]) -> None:
        async with self.changed:
            for s in seats:
                if s is not None:
                    s.in_game = False
                    if not s.closed.is_set():
                        self.idle.setdefault(s.bot.id, []).append(s)
            self.changed.notify_all()


# ---------------------------------------------------------------------------------- matches
class LiveMatch:
    """A running match: its task, current game and spectators."""

    def __init__(self, row: MatchRow) -> None:
        self.row = row
        self.task: asyncio.Task[None] | None = None
        self.runner: GameRunner | None = None
        self.done = asyncio.Event()
        self.watchers: set[asyncio.Queue[Any]] = set()
        self.games: dict[int, Game] = {}  # finished games kept for Watch while the server runs


class Arena:
    """Creates and runs matches, keeps their results in the store."""

    def __init__(self, store: Store, clock: ClockSettings, seat_timeout_s: float = 60.0) -> None:
        self.store = store
        self.default_clock = clock
        self.seat_timeout_s = seat_timeout_s
        self.lobby = Lobby()
        self.live: dict[str, LiveMatch] = {}
        self.finished_games: dict[tuple[str, int], Game] = {}

    def abort_stale(self) -> list[str]:
        """Matches left PENDING/RUNNING by an earlier server process can't continue: mark them."""
        ids = [m.id for m in self.store.unfinished_matches()]
        for match_id in ids:
            self.store.set_status(match_id, ABORTED, "the server restarted while the match was running")
        return ids

    def create(self, preset: str, options: dict[str, Any], seed: str, games: int, clock: ClockSettings,
               seats: Sequence[str], forfeits: Sequence[int] = ()) -> MatchRow:
        rules = load_ruleset(preset, options)  # RulesError names the bad option
        if len(seats) != rules.players:
            raise StoreError(f"{preset} needs {rules.players} seats, got {len(seats)}")
        if not 1 <= games <= 10_000:
            raise StoreError(f"games must be 1..10000, got {games}")
        if any(not 0 <= f < len(seats) for f in forfeits):
            raise StoreError(f"forfeit_seats must be seats 0..{len(seats) - 1}, got {list(forfeits)}")
        match_id = self.store.create_match(preset, options, seed, games, asdict(clock), seats, forfeits)
        row = self.store.match(match_id)
        assert row is not None
        live = LiveMatch(row)
        self.live[match_id] = live
        live.task = asyncio.create_task(self._run(live), name=f"match {match_id}")
        return row

    async def _run(self, live: LiveMatch) -> None:
        row = live.row
        bound = log.bind(match_id=row.id)
        rules = load_ruleset(row.preset, row.options)
        clock = ClockSettings(**row.clock)
        names = [(self.store.bot(b) or Bot(b, b)).name for b in row.seats]
        status, reason = FINISHED, None
        try:
            self.store.set_status(row.id, RUNNING)
            for index in range(row.games):
                wanted = [None if s in row.forfeits else b for s, b in enumerate(row.seats)]
                ports = await self.lobby.acquire(wanted, self.seat_timeout_s)
                absent = [s for s, p in enumerate(ports) if p is None and s not in row.forfeits]
                if absent:
                    bound.warning("seats without a bot stream; the default policy plays them", seats=absent)
                runner = GameRunner(
                    row.id, rules, game_seed(row.seed, index), index, ports, names, clock, row.games,
                    on_update=lambda game, i=index: self._publish(live, i, game),
                )
                live.runner = runner
                try:
                    record = await runner.run()
                except asyncio.CancelledError:
                    with contextlib.suppress(Exception):
                        async with asyncio.timeout(1.0):
                            await runner.abort("the server is shutting down")
                    raise
                finally:
                    await self.lobby.release(ports)
                self.store.record_game(row.id, index, record_to_store(record, bot_ids=row.seats))
                self.finished_games[(row.id, index)] = record.game
                self._publish(live, index, record.game, game_over=True)
        except asyncio.CancelledError:
            status, reason = ABORTED, "the server shut down while the match was running"
            raise
        except Exception as e:  # a bug, not a bot's fault: the match stops, the server goes on
            bound.exception("match failed")
            status, reason = ABORTED, f"internal error: {e}"
        finally:
            self.store.set_status(row.id, status, reason)
            bound.info("match ended", status=status, reason=reason)
            live.done.set()
            for q in live.watchers:
                q.put_nowait(None)
            self.live.pop(row.id, None)

    def _publish(self, live: LiveMatch, index: int, game: Game, game_over: bool = False) -> None:
        for q in live.watchers:
            q.put_nowait((index, game, game_over))

    async def shutdown(self) -> list[str]:
        """Abort running matches (each tells its bots and is stored ABORTED), then end every bot
        stream with status OK; returns the aborted matches' ids."""
        running = [m for m in self.live.values() if m.task is not None]
        for m in running:
            m.task.cancel()  # type: ignore[union-attr]
        for m in running:
            with contextlib.suppress(asyncio.CancelledError):
                await m.task  # type: ignore[misc]
        for seats in self.lobby.idle.values():
            for seat in seats:
                seat.closed.set()  # the Play handler returns: the stream ends cleanly
        return [m.row.id for m in running]


def record_to_store(record: GameRecord, bot_ids: Sequence[str | None] = ()) -> dict[str, Any]:
    """A finished game as a games-table row: the FULL log with each turn's metadata and the match
    log's header (server/matchlog.py, docs/match-log.md)."""
    game = record.game
    return {
        "seed": record.seed,
        "totals": record.totals,
        "ranks": record.ranks,
        "seats": [asdict(s) for s in record.seats],
        "deals": [matchlog.result_to_json(r) for r in game.results],
        "log": matchlog.stored_log(project_events(game, FULL), record.turns),
        "header": matchlog.header_from_record(record, game.rules, bot_ids),
    }


# ---------------------------------------------------------------------------------- servicers
class RefereeService(referee_pb2_grpc.RefereeServicer):
    def __init__(self, arena: Arena) -> None:
        self.arena = arena

    async def Play(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:  # noqa: N802
        first = await context.read()
        if first == grpc.aio.EOF:
            return
        if first.WhichOneof("message") != "hello":
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the first message of a Play stream must be Hello")
        bot = self.arena.store.bot_by_token(first.hello.token) if first.hello.token else None
        if bot is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown bot token: register the bot with Arena.RegisterBot and send its token in Hello")
        assert bot is not None
        bound = log.bind(bot=bot.name, bot_id=bot.id)
        seat = StreamSeat(context, bot, first.hello.version)
        seat.live_events = first.hello.live_events
        seat.hello_name = first.hello.name  # kept for match logs (GameRunner reads it)
        await seat.send(referee_pb2.RefereeMessage(welcome=referee_pb2.Welcome(
            bot_id=bot.id, name=bot.name, max_message_bytes=MAX_MESSAGE_BYTES, server_version=VERSION,
        )))
        bound.info("bot connected", version=first.hello.version)
        reader = asyncio.create_task(seat.read_loop())
        writer = asyncio.create_task(seat.write_loop())
        await self.arena.lobby.add(seat)
        try:
            await seat.closed.wait()
            with contextlib.suppress(TimeoutError):  # let queued messages (a GameEnd) go out
                async with asyncio.timeout(1.0):
                    while not seat.outbox.empty() and not writer.done():
                        await asyncio.sleep(0.01)
        finally:
            reader.cancel()
            writer.cancel()
            await self.arena.lobby.remove(seat)
            bound.info("bot stream closed")

    async def Watch(self, request: referee_pb2.WatchRequest, context: grpc.aio.ServicerContext) -> AsyncIterator[referee_pb2.WatchUpdate]:  # noqa: N802
        arena = self.arena
        row = arena.store.match(request.match_id)
        if row is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        assert row is not None
        live = arena.live.get(row.id)
        names = [(arena.store.bot(b) or Bot(b, b)).name for b in row.seats]
        rules = load_ruleset(row.preset, row.options)
        ruleset = protocol.ruleset_to_proto(rules)
        if live is not None:
            queue: asyncio.Queue[Any] = asyncio.Queue()
            live.watchers.add(queue)
            try:
                cursor: dict[int, tuple[int, protocol.EventEncoder]] = {}
                if live.runner is not None:
                    queue.put_nowait((live.runner.game_index, live.runner.game, False))
                while (item := await queue.get()) is not None:
                    index, game, over = item
                    start, encoder = cursor.get(index, (0, protocol.EventEncoder(rules)))
                    events = encoder.encode_all(project_events(game, SPECTATOR, start))
                    cursor[index] = (len(game.log), encoder)
                    yield referee_pb2.WatchUpdate(
                        match_id=row.id, game_number=index, names=names, ruleset=ruleset,
                        view=protocol.view_to_proto(project(game, SPECTATOR), names), events=events, game_over=over,
                    )
            finally:
                live.watchers.discard(queue)
            row = arena.store.match(row.id) or row
        # A finished match (or one that just ended): its full record, game by game.
        for i in range(len(row.results)):
            game = arena.finished_games.get((row.id, i)) or replay_stored(arena.store, row, i)
            yield referee_pb2.WatchUpdate(
                match_id=row.id, game_number=i, full=True, names=names, ruleset=ruleset,
                view=protocol.view_to_proto(project(game, FULL), names),
                events=protocol.EventEncoder(rules).encode_all(project_events(game, FULL)),
                deals=protocol.deal_records_from_events(project_events(game, FULL)),
                game_over=True, match_over=i == len(row.results) - 1,
            )


def replay_stored(store: Store, row: MatchRow, index: int) -> Game:
    """Rebuild a stored game by re-executing its log through the engine (the log is the truth)."""

    entries = [matchlog.entry_from_json(d) for d in store.game_log(row.id, index) or []]
    return replay_log(load_ruleset(row.preset, row.options), game_seed(row.seed, index), entries)


def _timestamp(t: float | None) -> timestamp_pb2.Timestamp | None:
    if t is None:
        return None
    ts = timestamp_pb2.Timestamp()
    ts.FromNanoseconds(int(t * 1e9))
    return ts


def match_to_proto(store: Store, row: MatchRow) -> arena_pb2.Match:
    rules = load_ruleset(row.preset, row.options)
    names = {b: (store.bot(b) or Bot(b, b)).name for b in row.seats}
    results = []
    for r in row.results:
        seats = [
            game_pb2.SeatRecord(
                seat=s, name=names[row.seats[s]], total=r["totals"][s], rank=r["ranks"][s], timeouts=rec["timeouts"],
                refusals=rec["refusals"] + rec["malformed"], defaults_applied=rec["defaults"],
                forfeited=rec["forfeited"], disconnected=rec["disconnected"],
            )
            for s, rec in enumerate(r["seats"])
        ]
        deals = protocol.results_to_proto(matchlog.result_from_json(d) for d in r["deals"])
        results.append(arena_pb2.GameSummary(game_number=r["game_index"], finished=True, totals=r["totals"], seats=seats, results=deals))
    return arena_pb2.Match(
        match_id=row.id, status=_STATUS[row.status], ruleset=protocol.ruleset_to_proto(rules),
        options=protocol.options_to_struct(row.options), seed=row.seed, games=row.games,
        clock=protocol.clock_to_proto(ClockSettings(**row.clock)),
        seats=[arena_pb2.MatchSeat(seat=s, bot_id=b, name=names[b], forfeited=s in row.forfeits) for s, b in enumerate(row.seats)],
        results=results, abort_reason=row.error or "", create_time=_timestamp(row.created_at),
        end_time=_timestamp(row.finished_at),
    )


class ArenaService(arena_pb2_grpc.ArenaServicer):
    """Admin calls; each needs metadata ``authorization: Bearer <admin token>``."""
    def __init__(self, arena: Arena, admin_token: str) -> None:
        self.arena = arena
        self.admin_token = admin_token

    async def _admin(self, context: grpc.aio.ServicerContext) -> None:
        metadata = dict(context.invocation_metadata() or ())
        given = str(metadata.get("authorization", "")).removeprefix("Bearer ").strip()
        if not given or not hmac.compare_digest(given, self.admin_token):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "Arena calls need metadata 'authorization: Bearer <admin token>'")

    async def _row(self, match_id: str, context: grpc.aio.ServicerContext) -> MatchRow:
        row = self.arena.store.match(match_id)
        if row is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {match_id!r}")
        assert row is not None
        return row

    async def RegisterBot(self, request: arena_pb2.RegisterBotRequest, context: grpc.aio.ServicerContext) -> arena_pb2.RegisterBotResponse:  # noqa: N802
        await self._admin(context)
        try:
            bot, token = self.arena.store.add_bot(request.name)
        except StoreError as e:
            code = grpc.StatusCode.ALREADY_EXISTS if "already" in str(e) else grpc.StatusCode.INVALID_ARGUMENT
            await context.abort(code, str(e))
        log.info("bot registered", bot=bot.name, bot_id=bot.id)
        return arena_pb2.RegisterBotResponse(bot_id=bot.id, token=token)

    async def CreateMatch(self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext) -> arena_pb2.CreateMatchResponse:  # noqa: N802
        await self._admin(context)
        which = request.WhichOneof("seed")
        seed = request.seed_text if which == "seed_text" else str(request.seed_number) if which else "0"
        try:
            clock = protocol.clock_from_proto(request.clock if request.HasField("clock") else None, self.arena.default_clock)
            row = self.arena.create(
                request.preset, protocol.options_from_struct(request.options), seed, request.games or 1, clock,
                list(request.seats), list(request.forfeit_seats),
            )
        except (RulesError, StoreError, ValueError) as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        log.info("match created", match_id=row.id, preset=row.preset, seats=row.seats, games=row.games)
        return arena_pb2.CreateMatchResponse(match_id=row.id, match=match_to_proto(self.arena.store, row))

    async def GetMatch(self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext) -> arena_pb2.GetMatchResponse:  # noqa: N802
        await self._admin(context)
        row = await self._row(request.match_id, context)
        return arena_pb2.GetMatchResponse(match=match_to_proto(self.arena.store, row))

    async def ListMatches(self, request: arena_pb2.ListMatchesRequest, context: grpc.aio.ServicerContext) -> arena_pb2.ListMatchesResponse:  # noqa: N802
        await self._admin(context)
        size = min(request.page_size or 50, 500)
        try:
            offset = int(request.page_token or 0)
        except ValueError:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"bad page_token {request.page_token!r}")
        status = {v: k for k, v in _STATUS.items()}.get(request.status)
        rows = self.arena.store.list_matches(status, size + 1, offset)
        store = self.arena.store
        return arena_pb2.ListMatchesResponse(
            matches=[match_to_proto(store, store.match(r.id) or r) for r in rows[:size]],
            next_page_token=str(offset + size) if len(rows) > size else "",
        )

    async def WaitMatch(self, request: arena_pb2.WaitMatchRequest, context: grpc.aio.ServicerContext) -> arena_pb2.WaitMatchResponse:  # noqa: N802
        await self._admin(context)
        row = await self._row(request.match_id, context)
        live = self.arena.live.get(row.id)
        timed_out = False
        if live is not None:
            try:
                async with asyncio.timeout(request.timeout_ms / 1000 if request.timeout_ms else None):
                    await live.done.wait()
            except TimeoutError:
                timed_out = True
        row = await self._row(request.match_id, context)
        return arena_pb2.WaitMatchResponse(match=match_to_proto(self.arena.store, row), timed_out=timed_out)


    async def GetBot(self, request: arena_pb2.GetBotRequest, context: grpc.aio.ServicerContext) -> arena_pb2.GetBotResponse:  # noqa: N802
        await self._admin(context)
        bot = self.arena.store.bot(request.bot_id)
        if bot is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no bot {request.bot_id!r}")
        assert bot is not None
        lobby = self.arena.lobby
        idle = [s for s in lobby.idle.get(bot.id, []) if not s.closed.is_set()]
        return arena_pb2.GetBotResponse(bot_id=bot.id, name=bot.name, streams=lobby.streams[bot.id], idle_streams=len(idle))


# ------------------------------------------------------------------------------------ server
async def start_server(arena: Arena, host: str, port: int, admin_token: str) -> tuple[grpc.aio.Server, int]:
    """Start the gRPC server (Referee, Arena, health, reflection); returns it and the bound port."""
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", 4 * 1024 * 1024),
            ("grpc.so_reuseport", 0),
        ]
    )
    referee_pb2_grpc.add_RefereeServicer_to_server(RefereeService(arena), server)
    arena_pb2_grpc.add_ArenaServicer_to_server(ArenaService(arena, admin_token), server)
    health = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    names = (
        referee_pb2.DESCRIPTOR.services_by_name["Referee"].full_name,
        arena_pb2.DESCRIPTOR.services_by_name["Arena"].full_name,
        health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        reflection.SERVICE_NAME,
    )
    reflection.enable_server_reflection(names, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"cannot listen on {host}:{port}")
    await server.start()
    for name in ("", *names[:2]):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, bound
