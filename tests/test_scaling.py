"""The parts that let one referee hold a thousand matches, each on its own: the lobby's
bookkeeping, the pacing of the bots' messages, the garbage-collector policy, grpc.aio's completions
handed over in bulk, and the store's memory of bots. tests/test_capacity.py checks them together.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from pathlib import Path

import grpc
import pytest

from mizerka_engine.rules import load_ruleset
from mizerka_proto import referee_pb2, referee_pb2_grpc
from server.arena import Arena
from server.referee.match import GameRunner
from server.referee.session import GameRecord
from server.settings import ClockSettings
from server.storage.store import Bot, Store
from server.transport.collector import Collector
from server.transport.grpc_events import drain_notifications
from server.transport.pacing import Pacer
from server.transport.service import start_server
from server.transport.streams import Lobby, StreamSeat

from harness import ADMIN, first_legal


class Seat:
    """What the Lobby needs of a stream."""

    def __init__(self, bot_id: str) -> None:
        self.bot = Bot(bot_id, bot_id)
        self.closed = asyncio.Event()
        self.games = 0

    def start_game(self) -> None:
        self.games += 1

    def end_game(self) -> None:
        pass


def lobby_with(*bot_ids: str) -> tuple[Lobby, list[Seat]]:
    lobby = Lobby()
    seats = [Seat(b) for b in bot_ids]
    for seat in seats:
        assert lobby.open(seat.bot.id)
        lobby.add(seat)  # type: ignore[arg-type]
    return lobby, seats


# ------------------------------------------------------------------------------------ lobby
@pytest.mark.asyncio
async def test_a_match_takes_all_its_seats_at_once_or_waits_for_the_bot_it_lacks() -> None:
    lobby, (a1, b1) = lobby_with("A", "B")
    waiting = asyncio.create_task(lobby.acquire(["A", "A", "B"], 60))  # the same bot in two seats
    await asyncio.sleep(0)
    assert not waiting.done() and len(lobby.idle["A"]) == 1  # nothing taken while one is missing
    a2 = Seat("A")
    lobby.open("A")
    lobby.add(a2)  # type: ignore[arg-type]
    assert await waiting == [a1, a2, b1] and a1.games == a2.games == b1.games == 1
    assert not lobby._lacking and not any(lobby.idle.values())
    lobby.release([a1, a2, b1])  # type: ignore[list-item]
    assert [list(lobby.idle[b]) for b in "AB"] == [[a1, a2], [b1]]


@pytest.mark.asyncio
async def test_ended_streams_are_never_handed_out_and_seats_nobody_came_for_are_left_empty() -> None:
    lobby, (a1, a2, b1) = lobby_with("A", "A", "B")
    a1.closed.set()  # ended, not yet removed by its Play handler
    assert await lobby.acquire(["A", None, "B"], 60) == [a2, None, b1]
    assert await lobby.acquire(["A", "C"], 0.01) == [None, None]  # timed out: whatever is idle, None for the rest
    assert not lobby._lacking


@pytest.mark.asyncio
async def test_a_cancelled_match_gives_back_the_seats_it_was_just_handed() -> None:
    lobby, _ = lobby_with()
    waiting = asyncio.create_task(lobby.acquire(["A"], 60))
    await asyncio.sleep(0)
    seat = Seat("A")
    lobby.open("A")
    lobby.add(seat)  # type: ignore[arg-type]  # fills the match: its task has not run yet
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert list(lobby.idle["A"]) == [seat] and not lobby._lacking


@pytest.mark.asyncio
async def test_a_new_stream_looks_only_at_the_matches_waiting_for_its_bot() -> None:
    """A thousand matches wait, each for its own three bots: one new stream tries one match."""
    lobby = Lobby()
    waits = [asyncio.create_task(lobby.acquire([f"x{m}", f"y{m}", f"z{m}"], 60)) for m in range(1000)]
    await asyncio.sleep(0)
    tried = []
    take = lobby._take
    lobby._take = lambda bot_ids, partial: tried.append(bot_ids) or take(bot_ids, partial)  # type: ignore[method-assign]
    for bot_id in ("x500", "y500", "z500"):
        lobby.open(bot_id)
        lobby.add(Seat(bot_id))  # type: ignore[arg-type]
    assert tried == [["x500", "y500", "z500"]]  # looked at once, when it lacked nothing any more
    assert len(await waits[500]) == 3
    assert [w.done() for w in waits].count(True) == 1
    for w in waits:
        w.cancel()
    await asyncio.gather(*waits, return_exceptions=True)
    assert not lobby._lacking


# ----------------------------------------------------------------------------------- pacing
@pytest.mark.asyncio
async def test_the_pacer_starts_at_most_its_allowance_per_iteration_in_arrival_order() -> None:
    pacer = Pacer(most=3)
    started: list[tuple[int, int]] = []
    iteration = [0]

    def count() -> None:  # one call per loop iteration
        iteration[0] += 1
        asyncio.get_running_loop().call_soon(count)

    async def work(i: int) -> None:
        await pacer.turn()
        started.append((iteration[0], i))

    asyncio.get_running_loop().call_soon(count)
    await asyncio.gather(*(work(i) for i in range(10)))
    assert [i for _, i in started] == list(range(10))
    per_iteration = [sum(1 for it, _ in started if it == n) for n in {it for it, _ in started}]
    assert max(per_iteration) <= 3 and len(per_iteration) >= 4


class IterationClock:
    """The running loop's clock, moved on by ``step_s`` at every iteration (a callback that puts
    itself back each time): iterations of a known length, however fast the machine is."""

    def __init__(self, step_s: float) -> None:
        self.loop = asyncio.get_running_loop()
        self.now = self.loop.time()
        self.step_s = step_s
        self.iterations = 0
        self.running = True
        self.loop.time = self.time  # type: ignore[method-assign]
        self.loop.call_soon(self._iterate)

    def time(self) -> float:
        return self.now

    def _iterate(self) -> None:
        if self.running:
            self.now += self.step_s
            self.iterations += 1
            self.loop.call_soon(self._iterate)

    def stop(self) -> None:
        self.running = False
        del self.loop.time  # the loop's own method again


@pytest.mark.asyncio
async def test_the_allowance_shrinks_while_iterations_run_long_and_cancelled_turns_are_skipped() -> None:
    clock = IterationClock(step_s=0.005)  # every iteration takes 5 ms
    pacer = Pacer(iteration_s=0.001, most=64)
    started: list[int] = []

    async def work() -> None:
        await pacer.turn()
        started.append(clock.iterations)

    try:
        await asyncio.gather(*(work() for _ in range(1000)))  # a storm: far more at once than the allowance
        per_iteration = [started.count(i) for i in sorted(set(started))]
        assert per_iteration[0] == 64
        assert max(per_iteration[-10:]) < 4
    finally:
        clock.stop()
    turns = [asyncio.create_task(pacer.turn()) for _ in range(200)]
    turns[0].cancel()
    await asyncio.gather(*turns[1:])
    assert turns[0].cancelled() and not pacer.waiting


@pytest.mark.asyncio
async def test_once_iterations_are_short_again_a_backlog_drains_at_once() -> None:
    """A few long iterations (a young collection, a burst of writes) cut the allowance. At a steady
    load below saturation an iteration lasts about the target whatever the allowance, so following
    the length alone would leave the allowance at the arrivals per iteration and the backlog as it
    is (measured: 40 to 60 messages waiting 20 to 40 ms at 1,000 matches of thinking bots, the
    referee at 0.7 of a core). Unless a backlog has stood for ``standing_s``, the allowance grows
    back at once."""
    clock = IterationClock(step_s=0.005)
    pacer = Pacer(iteration_s=0.001, most=64)
    waits: list[int] = []

    async def work() -> None:
        asked = clock.iterations
        await pacer.turn()
        waits.append(clock.iterations - asked)

    try:
        for _ in range(20):  # a message now and then, in iterations of 5 ms
            await work()
            await asyncio.sleep(0)
        assert pacer.allowance < 2
        clock.step_s = 0.001  # iterations as long as the pacer aims at
        tasks: list[asyncio.Task[None]] = []

        def arrive(left: int) -> None:  # 3 messages in every iteration, for 60 iterations
            tasks.extend(asyncio.create_task(work()) for _ in range(3))
            if left > 1:
                asyncio.get_running_loop().call_soon(arrive, left - 1)

        arrive(60)
        while len(tasks) < 180:
            await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        assert max(waits) <= 2 and waits[-150:] == [0] * 150, waits  # drained within two iterations
    finally:
        clock.stop()


# -------------------------------------------------------------------------------- held answers
class SlowPacer(Pacer):
    """A referee far behind: every message from a bot waits 0.8 s for its turn."""

    async def turn(self) -> None:
        await asyncio.sleep(0.8)


class AnsweringContext:
    """A bot behind a stream (what StreamSeat uses of a grpc.aio context): it answers every
    DecisionRequest with a legal action, ``delay_s`` after it came."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.to_referee: asyncio.Queue[referee_pb2.BotMessage] = asyncio.Queue()
        self.delay_s = delay_s

    async def write(self, message: referee_pb2.RefereeMessage) -> None:
        if message.WhichOneof("message") == "decision_request":
            action = first_legal(message.decision_request)
            answer = referee_pb2.BotMessage(action=action)
            asyncio.get_running_loop().call_later(self.delay_s, self.to_referee.put_nowait, answer)

    async def read(self) -> referee_pb2.BotMessage:
        return await self.to_referee.get()


async def play_held_back(delays_s: list[float]) -> GameRecord:
    """One game of bots answering after ``delays_s`` on a referee that holds every answer 0.8 s,
    with 0.5 s a decision, no bank and one strike."""
    seats = [StreamSeat(AnsweringContext(delay), Bot(f"b{i}", f"bot{i}"), "", pacer=SlowPacer())  # type: ignore[arg-type]
             for i, delay in enumerate(delays_s)]
    tasks = [asyncio.create_task(work()) for seat in seats for work in (seat.read_loop, seat.write_loop)]
    for seat in seats:
        seat.start_game()
    runner = GameRunner("m", load_ruleset("mizerka-short"), "s", 0, seats, ["a", "b", "c"],
                        ClockSettings(decision_ms=500, bank_ms=0, increment_ms=0, max_strikes=1))
    record = await runner.run()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert runner.game.finished and len(record.turns) > 30
    return record


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_an_answer_held_back_by_a_busy_referee_is_neither_late_nor_charged() -> None:
    """Each answer comes in time but waits 0.8 s in the referee's pacing, past the 0.5 s the seat
    has: the wait is the referee's (a crowd of other matches), not the bot's. Without this, a flood
    of fast bots in some matches struck and forfeited the bots of every other match."""
    record = await play_held_back([0.0, 0.2, 0.45])
    assert all(r.timeouts == 0 and r.strikes == 0 and r.defaults == 0 and not r.forfeited for r in record.seats)
    used = [r.time_used_ms / sum(1 for t in record.turns if t.seat == seat) for seat, r in enumerate(record.seats)]
    assert used == pytest.approx([0.0, 200.0, 450.0], abs=1e-6)  # what each bot took, the referee's hold left out


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_a_late_answer_gains_nothing_from_a_busy_referee() -> None:
    """The hold is forgiven only to an answer that came before the deadline."""
    record = await play_held_back([0.6, 0.0, 0.0])
    late, *others = record.seats
    assert late.timeouts == 1 and late.forfeited and late.stale == 1  # its answer, later, was refused as stale
    assert all(r.timeouts == 0 and r.defaults == 0 and not r.forfeited for r in others)


# -------------------------------------------------------------------------------- collector
class Node:
    """An object that can sit in a reference cycle and be watched through a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """Two nodes holding each other: only the collector can free them once nobody else does."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_the_collector_frees_young_cycles_each_tick_and_freezes_what_survives() -> None:
    collector = Collector(young_every_s=0.01, full_every_s=3600)
    try:
        collector.start(asyncio.get_running_loop())
        assert not gc.isenabled() and gc.get_freeze_count() > 0
        garbage = cycle()
        alive = [Node() for _ in range(1_000)]
        frozen = gc.get_freeze_count()
        await asyncio.sleep(0.05)  # the ticks due before this timer run first
        assert collector.young_collections >= 1 and collector.full_collections == 0
        assert collector.paused() == 0.0  # young ticks are no pause for the bots' clocks
        assert garbage() is None  # a young cycle is freed by the next tick
        assert gc.get_freeze_count() >= frozen + len(alive)  # survivors are frozen: never walked again
        assert gc.get_count()[0] < len(alive)
    finally:
        collector.stop()
    assert gc.isenabled() and gc.get_freeze_count() == 0


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_quiet_ticks_come_less_often_and_busy_ones_at_the_young_interval() -> None:
    """An idle referee need not wake fifty times a second. Whether a tick was quiet is set here
    by ``quiet_s`` (every tick is under 1 s, none under 0 s), so the intervals are exact."""
    loop = asyncio.get_running_loop()
    quiet = Collector(young_every_s=0.005, full_every_s=3600, idle_every_s=0.04, quiet_s=1.0)
    intervals: list[float] = []  # the interval each tick set for the next
    tick = quiet._collect_young

    def recorded() -> None:
        tick()
        intervals.append(quiet.every_s)

    quiet._collect_young = recorded  # type: ignore[method-assign]  # each tick schedules the next through it
    try:
        quiet.start(loop)
        assert quiet.every_s == 0.005
        while len(intervals) < 6:
            await asyncio.sleep(0.01)
        assert intervals[:6] == [0.01, 0.02, 0.04, 0.04, 0.04, 0.04]  # doubled after each quiet tick, up to idle_every_s
        quiet.quiet_s = 0.0  # the next tick is busy: back to the young interval
        ticks = len(intervals)
        while len(intervals) == ticks:
            await asyncio.sleep(0.01)
        assert intervals[ticks] == 0.005
    finally:
        quiet.stop()


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_cycles_among_frozen_objects_are_freed_when_memory_grows_and_on_schedule() -> None:
    loop = asyncio.get_running_loop()
    collector = Collector(young_every_s=0.01, full_every_s=3600, full_share=0.05, check_every_s=0.01)
    try:
        collector.start(loop)
        first = cycle()
        holder = [first()]
        await asyncio.sleep(0.03)
        assert first() is not None and collector.full_collections == 0  # alive, so frozen
        holder.clear()  # now garbage among the frozen: no young collection walks it
        await asyncio.sleep(0.03)
        assert first() is not None
        grown = [Node() for _ in range(sys.getallocatedblocks() // 10)]  # 10% more memory: a full collection
        await asyncio.sleep(0.03)
        assert collector.full_collections == 1 and first() is None and grown
    finally:
        collector.stop()
    collector = Collector(young_every_s=0.01, full_every_s=0.05)
    try:
        collector.start(loop)
        second = cycle()
        holder = [second()]
        await asyncio.sleep(0.02)
        holder.clear()
        await asyncio.sleep(0.04)  # past the full collection due at 0.05 s (the loop's clock is looptime's)
        assert collector.full_collections == 1 and second() is None
    finally:
        collector.stop()


@pytest.mark.asyncio
async def test_the_loops_time_in_full_collections_is_counted_as_paused() -> None:
    """On the real loop clock (looptime's stands still while a callback runs): a full collection
    takes time, which paused() adds up for the bots' clocks to leave out; young ticks add nothing."""
    loop = asyncio.get_running_loop()
    collector = Collector(young_every_s=0.01, full_every_s=3600)
    try:
        collector.start(loop)
        cycle()
        before = loop.time()
        collector._collect_all()  # what the full_every_s timer runs
        assert collector.full_collections == 1 and 0.0 < collector.paused() <= loop.time() - before
    finally:
        collector.stop()


# ------------------------------------------------------------------------------ gRPC events
@pytest.mark.asyncio
async def test_grpc_completions_reach_the_loop_in_bulk(tmp_path: Path) -> None:
    """With this grpcio (constraints.txt) the work-around applies, and under a burst of streams
    grpc.aio's notification socket never fills (it holds one byte per waiting completion)."""
    arena = Arena(Store(tmp_path / "arena.sqlite"), ClockSettings())
    server, port = await start_server(arena, "127.0.0.1", 0, ADMIN)
    try:
        assert drain_notifications(asyncio.get_running_loop())
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = referee_pb2_grpc.RefereeStub(channel)

            async def refused() -> grpc.StatusCode:
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    async for _ in stub.Play(iter([referee_pb2.BotMessage(hello=referee_pb2.Hello(token="nobody"))])):
                        pass
                return err.value.code()

            codes = await asyncio.gather(*(refused() for _ in range(500)))
        assert set(codes) == {grpc.StatusCode.UNAUTHENTICATED}
    finally:
        await server.stop(None)


# ------------------------------------------------------------------------------------ store
def test_the_store_reads_a_bot_once_and_never_remembers_an_unknown_token(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.sqlite")
    bot, token = store.add_bot("cached")
    assert store.known_bot_by_token(token) == bot == store.bot(bot.id)
    again = Store(tmp_path / "arena.sqlite")  # another process's view: nothing known yet
    assert again.known_bot_by_token(token) is None
    assert again.bot_by_token(token) == bot and again.known_bot_by_token(token) == bot
    assert again.bot_by_token("guess") is None and again.known_bot_by_token("guess") is None
    row = store.create_match("mizerka", {}, "s", 1, {"decision_ms": 1000}, [bot.id] * 3)
    assert store.match(row.id) == row
