"""A null referee: the referee's wire protocol and shape, none of its work.

The control of ``make bench-load --null`` (BENCHMARKS.md, "Load"). It serves what the load generator uses
(Arena.RegisterBot, Arena.CreateMatch, Referee.Play) over grpc.aio with the referee's server
options, its collector (server/transport/collector.py), its drain of grpc.aio's completions
(server/transport/grpc_events.py) and its pacer (server/transport/pacing.py, without which a storm of 3,000 new
streams loses a third of them), and it moves messages the way the referee does: per stream a
handler, a reader task feeding the match's inbox and a writer task emptying the stream's outbox;
per match a task that asks the seats in turn. It has no rules, views, clocks or store: each
DecisionRequest is a fresh copy of a real one (the median size of a ``mizerka`` game's), and each
Action, whatever it holds, passes the turn to the next seat. So what it costs per decision at 16
and at 1,000 matches is what gRPC and asyncio alone cost there, with the same messages on the same
connections.

Run as ``python null_referee.py READY_FILE``: it listens on 127.0.0.1, writes host:port to
READY_FILE and serves until SIGTERM.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import signal
import sys
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from bench_referee import sample_request

from mizerka_proto import arena_pb2, arena_pb2_grpc, referee_pb2, referee_pb2_grpc
from server.transport.collector import Collector
from server.transport.grpc_events import drain_notifications
from server.transport.pacing import Pacer
from server.transport.service import SERVER_OPTIONS

SEATS = 3


@dataclass
class Stream:
    """One Play stream, seated in a match."""

    context: grpc.aio.ServicerContext
    outbox: asyncio.Queue[referee_pb2.RefereeMessage] = field(default_factory=asyncio.Queue)
    closed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Match:
    match_id: str
    bots: list[str]  # bot id per seat
    seats: list[Stream | None] = field(default_factory=lambda: [None] * SEATS)
    inbox: asyncio.Queue[tuple[int, referee_pb2.BotMessage]] = field(default_factory=asyncio.Queue)


class Null(referee_pb2_grpc.RefereeServicer, arena_pb2_grpc.ArenaServicer):
    def __init__(self, sample: referee_pb2.RefereeMessage) -> None:
        self.sample = sample
        self.ids = itertools.count()
        self.tokens: dict[str, str] = {}  # token -> bot id
        self.wanted: dict[str, collections.deque[tuple[Match, int]]] = collections.defaultdict(collections.deque)
        self.idle: dict[str, collections.deque[Stream]] = collections.defaultdict(collections.deque)
        self.tasks: set[asyncio.Task[None]] = set()
        self.pacer = Pacer()

    async def RegisterBot(self, request: arena_pb2.RegisterBotRequest, context: grpc.aio.ServicerContext  # noqa: N802
                          ) -> arena_pb2.RegisterBotResponse:
        n = next(self.ids)
        self.tokens[f"token-{n}"] = f"bot-{n}"
        return arena_pb2.RegisterBotResponse(bot_id=f"bot-{n}", token=f"token-{n}")

    async def CreateMatch(self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext  # noqa: N802
                          ) -> arena_pb2.CreateMatchResponse:
        match = Match(f"match-{next(self.ids)}", list(request.seats))
        if not request.forfeit_seats:  # the load generator's probes: nobody plays them
            for seat, bot in enumerate(match.bots):
                self.wanted[bot].append((match, seat))
                self._pair(bot)
        return arena_pb2.CreateMatchResponse(match_id=match.match_id)

    def _pair(self, bot: str) -> None:
        """Seat the bot's waiting streams in the matches waiting for it, oldest first."""
        while self.wanted[bot] and self.idle[bot]:
            (match, seat), stream = self.wanted[bot].popleft(), self.idle[bot].popleft()
            match.seats[seat] = stream
            self._spawn(self._read(match, seat, stream))
            if all(match.seats):
                self._spawn(self._play(match))

    def _spawn(self, coroutine: Coroutine[None, None, None]) -> None:
        task = asyncio.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def Play(self, request_iterator, context: grpc.aio.ServicerContext) -> None:  # noqa: N802
        first = await context.read()
        bot = self.tokens.get(first.hello.token) if first != grpc.aio.EOF else None
        if bot is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown bot token")
        assert bot is not None
        stream = Stream(context)
        stream.outbox.put_nowait(referee_pb2.RefereeMessage(welcome=referee_pb2.Welcome(bot_id=bot)))
        writer = asyncio.create_task(self._write(stream))
        self.idle[bot].append(stream)
        self._pair(bot)
        try:
            await stream.closed.wait()
        finally:
            writer.cancel()

    @staticmethod
    async def _write(stream: Stream) -> None:
        while True:
            await stream.context.write(await stream.outbox.get())

    async def _read(self, match: Match, seat: int, stream: Stream) -> None:
        try:
            while (message := await stream.context.read()) != grpc.aio.EOF:
                await self.pacer.turn()
                match.inbox.put_nowait((seat, message))
        finally:
            stream.closed.set()

    async def _play(self, match: Match) -> None:
        """One endless game: the seats asked in turn, each answer passing the turn on."""
        streams = [s for s in match.seats if s is not None]
        for seat, stream in enumerate(streams):
            stream.outbox.put_nowait(referee_pb2.RefereeMessage(
                game_start=referee_pb2.GameStart(match_id=match.match_id, game_number=0, seat=seat)))
        for turn in itertools.count(1):
            seat = turn % SEATS
            request = referee_pb2.RefereeMessage()
            request.CopyFrom(self.sample)
            request.decision_request.turn = turn
            streams[seat].outbox.put_nowait(request)
            while (await match.inbox.get())[0] != seat:
                pass  # not its turn: dropped, as the referee drops an answer out of turn


async def serve(ready: Path) -> None:
    null = Null(await sample_request())
    server = grpc.aio.server(options=SERVER_OPTIONS)
    referee_pb2_grpc.add_RefereeServicer_to_server(null, server)
    arena_pb2_grpc.add_ArenaServicer_to_server(null, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    loop = asyncio.get_running_loop()
    drain_notifications(loop)
    collector = Collector()
    collector.start(loop)
    ready.write_text(f"127.0.0.1:{port}\n")
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(grace=1.0)
    collector.stop()


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1])))
