"""Hostile bots against the referee's Play streams: floods, idle streams, too many streams, out-of-turn
and stale actions, bursts of refused logins; plus the clock a refusal advertises and the memory kept
for finished games.

End-to-end tests use a real `mizerka serve` on 127.0.0.1 (tests/harness.py) or, where a fake clock
or the log lines must be reached, the same server started in this process. Hostile clients are
grpcio's synchronous client (one thread reads each stream), as a bot written from the proto would
be. Timing is never asserted: what is checked is statuses, counts and the order of messages.
"""

from __future__ import annotations

import asyncio
import collections
import json
import queue
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
import structlog

from mizerka_engine.game import Game
from mizerka_engine.rules import load_ruleset
from mizerka_proto import arena_pb2, game_pb2, referee_pb2, referee_pb2_grpc
from server.arena import Arena
from server.logs import RateLimitedLog
from server.referee.match import YIELD_EVERY, GameRunner
from server.referee.session import Disconnected, GameSession, SeatInfo
from server.replays import Replays
from server.settings import ClockSettings, StreamLimits
from server.storage.store import Bot, Store
from server.transport.service import WATCH_PACE_S, start_server
from server.transport.streams import StreamSeat
from server.watch import Changes

from harness import ADMIN, Referee, first_legal, referee
from memory_port import MemoryPort

FINISHED = arena_pb2.MATCH_STATUS_FINISHED
PATIENT = game_pb2.Clock(decision_ms=60_000, max_strikes=0)  # the test dawdles; nobody times out
CUT_OFF = "bot cut off: it sent too many messages without being asked"


# ---------------------------------------------------------------------------------- clients
class Stream:
    """A Play stream driven by the test: messages go out through a queue, a thread reads the replies."""

    def __init__(self, address: str, token: str | None = None) -> None:
        self.out: queue.Queue[referee_pb2.BotMessage | None] = queue.Queue()
        self.inbox: queue.Queue[referee_pb2.RefereeMessage | None] = queue.Queue()
        self.channel = grpc.insecure_channel(address)
        self.call = referee_pb2_grpc.RefereeStub(self.channel).Play(iter(self.out.get, None))
        self.status: tuple[grpc.StatusCode, str] | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        if token is not None:
            self.send(hello=referee_pb2.Hello(token=token, name="hostile"))

    def _read(self) -> None:
        try:
            for message in self.call:
                self.inbox.put(message)
            self.status = (grpc.StatusCode.OK, "")
        except grpc.RpcError as e:
            self.status = (e.code(), e.details() or "")
        self.inbox.put(None)

    def send(self, **message: Any) -> None:
        self.out.put(referee_pb2.BotMessage(**message))

    def next(self, timeout_s: float = 60) -> referee_pb2.RefereeMessage | None:
        return self.inbox.get(timeout=timeout_s)

    def until(self, kind: str) -> Any:
        """Read up to the next message of ``kind`` (a field of RefereeMessage.message) and return its content."""
        while (message := self.next()) is not None:
            if message.WhichOneof("message") == kind:
                return getattr(message, kind)
        raise AssertionError(f"the stream ended ({self.status}) before a {kind}")

    def ended(self, timeout_s: float = 60) -> tuple[grpc.StatusCode, str]:
        """Read to the end of the stream; its status and details."""
        self.thread.join(timeout_s)
        assert self.status is not None, "the stream did not end"
        return self.status

    def close(self) -> None:
        """Half-close: the bot leaves."""
        self.out.put(None)




def first_request(streams: list[Stream]) -> tuple[int, referee_pb2.DecisionRequest]:
    """The next DecisionRequest on any of ``streams`` (the others must receive nothing meanwhile)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for i, s in enumerate(streams):
            try:
                message = s.inbox.get(timeout=0.02)
            except queue.Empty:
                continue
            assert message is not None and message.WhichOneof("message") == "decision_request", message
            return i, message.decision_request
    raise AssertionError("nobody was asked")


def seat_bots(ref: Referee, modes: list[str], prefix: str) -> list[str]:
    admin, ids = ref.arena(), []
    for i, mode in enumerate(modes):
        bot_id, token = admin.register(f"{prefix}{i}")
        ref.protobot(token, mode)
        ids.append(bot_id)
    return ids


def wait_for(check: Any, what: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


def stored_seats(db: Path, match_id: str) -> list[dict[str, Any]]:
    (seats,) = sqlite3.connect(db).execute("select seats from games where match_id = ? and game_index = 0", (match_id,)).fetchone()
    return json.loads(seats)


# ---------------------------------------------------------------------------------- floods
FLOOD = 20_000  # Actions per flooding stream: the bound (64 here) many times over


def test_a_flood_of_actions_is_cut_off_and_no_seat_of_another_match_is_struck(tmp_path: Path) -> None:
    with referee(tmp_path, "--max-unasked-messages", "64") as ref:
        admin = ref.arena()
        clock = game_pb2.Clock(decision_ms=1000, max_strikes=0)  # what the prompt bots meet with a wide margin
        innocent = admin.create("mizerka-short", seat_bots(ref, ["play"] * 3, "innocent"), seed="innocent", games=10_000, clock=clock)
        wait_for(lambda: len(admin.get(innocent).results) >= 1, "the innocent match finished a game")

        flooder_id, token = admin.register("flooder")
        flooder = Stream(ref.address, token)
        flooder.until("welcome")
        lurker_id, lurker_token = admin.register("lurker")  # floods while no game is running on its stream
        lurker = Stream(ref.address, lurker_token)
        lurker.until("welcome")
        match_id = admin.create("mizerka-short", [flooder_id, *seat_bots(ref, ["play"] * 2, "victim")], clock=clock)
        request = flooder.until("decision_request")
        flooder.send(action=first_legal(request))  # answered: another seat holds the turn now
        for _ in range(FLOOD):
            flooder.send(action=game_pb2.Action(turn=1_000_000, play_card=game_pb2.PlayCard(card="AS")))
            lurker.send(action=game_pb2.Action(turn=1, play_card=game_pb2.PlayCard(card="AS")))
        for stream in (flooder, lurker):
            code, details = stream.ended()
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
            assert "without being asked" in details and "64" in details
        replies = [m for m in iter(flooder.inbox.get_nowait, None)]
        errors = [m.action_error for m in replies if m.WhichOneof("message") == "action_error"]
        # At most 64 per request: only a DecisionRequest of its own (if its turn came round mid-flood) resets the count.
        assert errors and len(errors) <= 4 * 64 and {e.code for e in errors} <= {"NOT_YOUR_TURN", "STALE_TURN"}
        assert all(not e.retry for e in errors)

        match = admin.wait(match_id)
        assert match.status == FINISHED
        flooded, *victims = match.results[0].seats
        assert flooded.disconnected and flooded.forfeited
        assert all(s.timeouts == 0 and s.defaults_applied == 0 for s in victims)
        done = len(admin.get(innocent).results)
        wait_for(lambda: len(admin.get(innocent).results) > done, "the innocent match finished a game after the flood")
        for game in admin.get(innocent).results:
            assert all(s.timeouts == 0 and s.defaults_applied == 0 for s in game.seats)
        bot = admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=lurker_id), metadata=admin.metadata)
        assert bot.streams == 0
    lines = ref.log_lines()
    strikes = [(line["match_id"], line["seat"]) for line in lines if line["event"] == "strike"]
    assert not [(m, seat) for m, seat in strikes if m == innocent or (m == match_id and seat != 0)]
    cut = [line for line in lines if line["event"] == CUT_OFF]
    assert cut and all(line["peer"].startswith("ipv4:127.0.0.1:") and line["code"] == "RESOURCE_EXHAUSTED" for line in cut)
    assert not [line for line in lines if "does not read" in line["event"]]


def test_a_flood_while_the_bot_is_asked_is_bounded_too() -> None:
    """The queue the referee reads: a bot asked for turn 5 that sends stale turns without end."""

    class Context:
        def __init__(self, messages: list[referee_pb2.BotMessage]) -> None:
            self.messages = messages
            self.reads = 0

        async def read(self) -> Any:
            await asyncio.sleep(0)
            self.reads += 1
            return self.messages.pop(0) if self.messages else grpc.aio.EOF

        async def write(self, message: referee_pb2.RefereeMessage) -> None:
            await asyncio.sleep(0)

    async def run() -> None:
        lines: list[dict[str, Any]] = []
        context = Context([referee_pb2.BotMessage(action=game_pb2.Action(turn=4)) for _ in range(1000)])
        seat = StreamSeat(context, Bot("bot-x", "x"), "", StreamLimits(max_unasked_messages=8),  # type: ignore[arg-type]
                          RateLimitedLog(capturing(lines)), peer="ipv4:10.0.0.9:4000")
        seat.start_game()
        seat.turn_started(5)
        await seat.read_loop()  # nobody takes from the queue: the referee is busy elsewhere
        assert context.reads == 9  # it stopped reading at the ninth message without a request
        assert seat.ended is not None and seat.ended[0] == grpc.StatusCode.RESOURCE_EXHAUSTED
        with pytest.raises(Disconnected):  # what the referee sees: a disconnect, at once
            await seat.receive()
        assert [line["event"] for line in lines] == [CUT_OFF] and lines[0]["peer"] == "ipv4:10.0.0.9:4000"

    asyncio.run(run())


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_the_referee_lets_other_tasks_run_while_it_works_through_one_bots_messages() -> None:
    ticks = [0]  # how often another task got to run
    wake = asyncio.Event()

    class Port(MemoryPort):
        def __init__(self) -> None:
            super().__init__()
            self.stale_sent_at: list[int] = []

        async def send(self, message: referee_pb2.RefereeMessage) -> None:
            if message.WhichOneof("message") == "action_error" and message.action_error.code == "STALE_TURN":
                self.stale_sent_at.append(ticks[0])
                wake.set()
            await super().send(message)

    async def ticker() -> None:  # another match: runs whenever the referee lets it
        while True:
            await wake.wait()
            wake.clear()
            ticks[0] += 1

    ports = [Port() for _ in range(3)]
    for port in ports:  # a bot's pile of answers to a turn that is not its own
        for _ in range(10 * YIELD_EVERY):
            port.to_referee.put_nowait(referee_pb2.BotMessage(action=game_pb2.Action(turn=999)))
    task = asyncio.create_task(ticker())
    runner = GameRunner("m", load_ruleset("mizerka-short"), "s", 0, ports, ["a", "b", "c"],
                        ClockSettings(decision_ms=1000, max_strikes=1))
    await runner.run()
    task.cancel()
    worked = [p for p in ports if p.stale_sent_at]
    assert worked and all(len(p.stale_sent_at) == 10 * YIELD_EVERY for p in worked)
    assert all(len(set(p.stale_sent_at)) >= 10 for p in worked)  # other tasks ran in between


# ---------------------------------------------------------------------------------- turns
def test_out_of_turn_actions_get_not_your_turn_at_once_and_late_answers_stale_turn(tmp_path: Path) -> None:
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bots = [admin.register(f"hand{i}") for i in range(3)]
        streams = [Stream(ref.address, token) for _, token in bots]
        for s in streams:
            s.until("welcome")
        match_id = admin.create("mizerka-short", [b for b, _ in bots], clock=PATIENT)
        for s in streams:
            s.until("game_start")
        holder, request = first_request(streams)
        other = streams[(holder + 1) % 3]
        # The holder has not answered, so the referee cannot have moved on: the answer comes at once.
        for turn in (request.turn, request.turn + 1, 0):
            other.send(action=game_pb2.Action(turn=turn, play_card=game_pb2.PlayCard(card="AS")))
            error = other.until("action_error")
            assert (error.code, error.turn, error.retry) == ("NOT_YOUR_TURN", turn, False), error
            assert error.error_code == referee_pb2.ACTION_ERROR_CODE_NOT_YOUR_TURN
        assert streams[holder].inbox.empty()

        answer = first_legal(request)
        streams[holder].send(action=answer)
        streams[holder].send(action=answer)  # the same answer again: that turn is over
        error = streams[holder].until("action_error")
        assert (error.code, error.turn, error.retry) == ("STALE_TURN", request.turn, False)
        assert error.error_code == referee_pb2.ACTION_ERROR_CODE_STALE_TURN
        for s in streams:
            s.close()
        assert admin.wait(match_id).status == FINISHED
        seats = stored_seats(ref.db, match_id)
        assert seats[(holder + 1) % 3]["stale"] == 3 and seats[holder]["stale"] == 1
        assert all(s["refusals"] == s["malformed"] == 0 for s in seats)


# ---------------------------------------------------------------------------------- stream limits
def test_a_stream_that_sends_no_hello_is_closed_and_a_burst_is_logged_once(tmp_path: Path) -> None:
    with referee(tmp_path, "--hello-timeout-s", "0.5") as ref:
        admin = ref.arena()
        bot_id, token = admin.register("patient")
        welcomed = Stream(ref.address, token)
        welcomed.until("welcome")
        silent = [Stream(ref.address) for _ in range(5)]
        for s in silent:
            code, details = s.ended()
            assert code == grpc.StatusCode.DEADLINE_EXCEEDED and "no Hello within 0.5 s" in details
        assert welcomed.status is None  # a stream that said Hello may stay idle as long as it likes
        bot = admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=bot_id), metadata=admin.metadata)
        assert (bot.streams, bot.idle_streams) == (1, 1)
    refused = [line for line in ref.log_lines() if line["event"] == "stream refused: no Hello in time"]
    assert 1 <= len(refused) < 5 and refused[0]["peer"].startswith("ipv4:127.0.0.1:")


def test_a_bot_holds_at_most_max_streams_per_bot_streams(tmp_path: Path) -> None:
    with referee(tmp_path, "--max-streams-per-bot", "3") as ref:
        _, token = ref.arena().register("greedy")
        streams = [Stream(ref.address, token) for _ in range(3)]
        for s in streams:
            s.until("welcome")
        extra = Stream(ref.address, token)
        code, details = extra.ended()
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "already has 3 open Play streams" in details and "max_streams_per_bot = 3" in details
        streams[0].close()
        assert streams[0].ended()[0] == grpc.StatusCode.OK  # the handler is done: its slot is free
        again = Stream(ref.address, token)
        again.until("welcome")
    assert [line["bot"] for line in ref.log_lines() if line["event"] == "stream refused: too many streams for one bot"] == ["greedy"]


# ---------------------------------------------------------------------------------- watchers
def test_watch_streams_are_capped_and_paced_whatever_the_caller_does(tmp_path: Path) -> None:
    """Anyone may Watch, and every live update costs the referee a projection and a write. A
    client opening Watch streams by the dozen is refused past --max-watchers (the admin is not),
    and a watcher of a
    match whose bots answer at once gets at most one update per WATCH_PACE_S (two games' worth),
    the changes in between together: no watcher can slow the matches down."""
    with referee(tmp_path, "--max-watchers", "2") as ref:
        admin = ref.arena()
        match_id = admin.create("mizerka-short", seat_bots(ref, ["play"] * 3, "fast"), seed="watched", games=3)
        channel = grpc.insecure_channel(ref.address)
        stub = referee_pb2_grpc.RefereeStub(channel)
        held = stub.Watch(referee_pb2.WatchRequest(match_id=match_id))  # a second watcher, reading no more after this
        assert next(held).match_id == match_id  # its stream is served (and counted) now
        started = time.monotonic()
        watched = stub.Watch(referee_pb2.WatchRequest(match_id=match_id))
        live: list[referee_pb2.WatchUpdate] = []
        played: collections.Counter[int] = collections.Counter()  # cards seen played, by game
        over = set()
        for update in watched:
            if update.full:
                continue
            live.append(update)
            played[update.game_number] += sum(e.WhichOneof("kind") == "card_played" for e in update.events)
            over |= {update.game_number} if update.game_over else set()
            if len(live) == 1:  # both watchers are open now: a third is refused, naming the limit
                with pytest.raises(grpc.RpcError) as err:
                    next(iter(stub.Watch(referee_pb2.WatchRequest(match_id=match_id), timeout=10)))
                assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "already serves 2 Watch streams" in err.value.details() and "--max-watchers 2" in err.value.details()
                organiser = stub.Watch(referee_pb2.WatchRequest(match_id=match_id), timeout=10,
                                       metadata=(("authorization", f"Bearer {ADMIN}"),))
                assert next(iter(organiser)).match_id == match_id  # the admin is never locked out
                organiser.cancel()
        elapsed = time.monotonic() - started
        # the first pause ends at the match's next tick of the pace, sooner than a whole one: + 2
        assert len(live) <= Changes.KEEP_GAMES * (elapsed / WATCH_PACE_S + 2), (len(live), elapsed)
        # every card of a game seen to its end reached the watcher, folded or not (9 deals of 39 cards)
        assert 2 in over and all(played[g] == 9 * 39 for g in over), (over, played)
        held.cancel()

        def accepted() -> bool:
            try:  # the ended match: one full update per game
                return next(iter(stub.Watch(referee_pb2.WatchRequest(match_id=match_id), timeout=10))).full
            except grpc.RpcError as e:  # the closed stream's slot not free yet
                assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, e
                return False

        wait_for(accepted, "a Watch stream accepted again once one closed")
        channel.close()


def test_one_host_cannot_take_every_watch_slot(tmp_path: Path) -> None:
    """A crowd of Watch streams from one address is refused past --max-watchers-per-host, naming
    the limit, while another host (here the referee's Unix socket) and the admin still get in, and
    the host gets a slot again once it closes one."""
    sock = tmp_path / "referee.sock"
    with referee(tmp_path, "--max-watchers", "8", "--max-watchers-per-host", "2", "--unix-socket", str(sock)) as ref:
        match_id = ref.arena().create("mizerka-short", seat_bots(ref, ["play"] * 3, "crowd"), seed="crowd", games=10_000)
        request = referee_pb2.WatchRequest(match_id=match_id)
        with grpc.insecure_channel(ref.address) as tcp, grpc.insecure_channel(f"unix:{sock}") as local:
            stub = referee_pb2_grpc.RefereeStub(tcp)
            held = [stub.Watch(request) for _ in range(2)]
            assert all(next(h).match_id == match_id for h in held)  # both served, so both counted
            with pytest.raises(grpc.RpcError) as err:
                next(iter(stub.Watch(request, timeout=10)))
            assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            details = err.value.details()
            assert "your host already holds 2 Watch streams" in details and "--max-watchers-per-host 2" in details, details
            other = referee_pb2_grpc.RefereeStub(local).Watch(request, timeout=10)
            assert next(other).match_id == match_id  # another host is not held back by this one
            organiser = stub.Watch(request, timeout=10, metadata=(("authorization", f"Bearer {ADMIN}"),))
            assert next(organiser).match_id == match_id  # nor is the admin, from the crowded host
            for call in (other, organiser, held[0]):
                call.cancel()

            def accepted() -> bool:
                call = stub.Watch(request, timeout=10)
                try:
                    return next(call).match_id == match_id
                except grpc.RpcError as e:  # the closed stream's slot not free yet
                    assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, e
                    return False
                finally:
                    call.cancel()

            wait_for(accepted, "the host's Watch stream accepted again once it closed one")
            held[1].cancel()


def test_a_watcher_that_stops_reading_is_owed_two_games_not_every_change() -> None:
    changes = Changes()
    seen = changes.count  # the watcher took nothing after this
    games = [Game(load_ruleset("mizerka-short"), seed=f"g{i}") for i in range(5)]
    for index, game in enumerate(games):
        for _ in range(10_000):
            changes.put(index, game)
    changes.put(3, games[3], over=True)
    changes.put(4, games[4])
    assert changes.since(seen) == {3: (games[3], True), 4: (games[4], False)}  # the game over stays known
    assert len(changes.latest) == Changes.KEEP_GAMES  # what the match keeps for all its watchers together
    assert changes.since(changes.count) == {}


def capturing(lines: list[dict[str, Any]]) -> Any:
    """A structlog logger that appends each event dict to ``lines``."""

    def keep(logger: Any, method: str, event: dict[str, Any]) -> Any:
        lines.append(dict(event, level=method))
        raise structlog.DropEvent

    return structlog.wrap_logger(None, processors=[keep])


@pytest.mark.asyncio
async def test_refused_hellos_are_logged_with_the_peer_at_most_once_a_window(tmp_path: Path) -> None:
    now = [1000.0]
    lines: list[dict[str, Any]] = []
    store = Store(tmp_path / "arena.sqlite")
    arena = Arena(store, ClockSettings())
    arena.lobby.refusals = RateLimitedLog(capturing(lines), every_s=10.0, clock=lambda: now[0])
    server, port = await start_server(arena, "127.0.0.1", 0, ADMIN)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = referee_pb2_grpc.RefereeStub(channel)

            async def refused(message: referee_pb2.BotMessage) -> grpc.StatusCode:
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    async for _ in stub.Play(iter([message])):
                        pass
                return err.value.code()

            bad = referee_pb2.BotMessage(hello=referee_pb2.Hello(token="guess", name="intruder"))
            for _ in range(20):
                assert await refused(bad) == grpc.StatusCode.UNAUTHENTICATED
            assert await refused(referee_pb2.BotMessage(action=game_pb2.Action(turn=1))) == grpc.StatusCode.FAILED_PRECONDITION
            events = [(line["event"], line["suppressed"]) for line in lines]
            assert events == [("authentication failed: unknown bot token", 0),
                              ("stream refused: the first message is not Hello", 0)]
            assert lines[0]["peer"].startswith("ipv4:127.0.0.1:") and lines[0]["hello_name"] == "intruder"
            assert lines[0]["level"] == "warning" and lines[0]["code"] == "UNAUTHENTICATED"
            now[0] += 10.5
            assert await refused(bad) == grpc.StatusCode.UNAUTHENTICATED
            assert [(line["event"], line["suppressed"]) for line in lines[2:]] == [("authentication failed: unknown bot token", 19)]
    finally:
        await server.stop(0)
        store.close()


def test_the_rate_limit_forgets_the_oldest_keys_first() -> None:
    lines: list[dict[str, Any]] = []
    limited = RateLimitedLog(capturing(lines), every_s=10.0, max_keys=2, clock=lambda: 0.0)
    assert [limited.warning(k, "refused", peer=k) for k in ("a", "b", "a", "c", "a")] == [True, True, False, True, False]
    assert limited.warning("b", "refused") is True  # "b" was forgotten (max_keys=2), "a" was kept
    assert len(lines) == 4


# ---------------------------------------------------------------------------------- the clock
def _session(clock: ClockSettings) -> GameSession:
    rules = load_ruleset("mizerka-short")
    return GameSession("m", rules, "clock", 0, [SeatInfo() for _ in range(rules.players)], ["a", "b", "c"], clock)


def _refusals(session: GameSession) -> list[referee_pb2.ActionError]:
    return [o.message.action_error for o in session.take() if o.message.WhichOneof("message") == "action_error"]


def test_an_action_error_advertises_the_time_really_left() -> None:
    session = _session(ClockSettings(decision_ms=1000, bank_ms=1000, max_retries=5))
    session.start()
    ask = session.next_ask()
    assert ask is not None and ask.allowed_ms == 2000
    session.take()
    wrong = referee_pb2.BotMessage(action=game_pb2.Action(turn=ask.turn, choose_contract=game_pb2.ChooseContract(contract="nope")))
    for elapsed, (left, bank) in [(0, (1000, 1000)), (600, (400, 1000)), (1000, (0, 1000)), (1500, (0, 500)), (1999, (0, 1))]:
        session.answer(wrong, elapsed)
        (error,) = _refusals(session)
        assert error.retry and (error.time_left_ms, error.bank_ms) == (left, bank), elapsed
        assert error.time_left_ms + error.bank_ms <= 2000 - elapsed


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_a_bot_refused_after_600_ms_of_1000_plus_1000_is_told_1400_ms_are_left() -> None:
    ports = [MemoryPort() for _ in range(3)]
    runner = GameRunner("m", load_ruleset("mizerka-short"), "clock", 0, ports, ["a", "b", "c"],
                        ClockSettings(decision_ms=1000, bank_ms=1000, max_strikes=0))
    game = asyncio.create_task(runner.run())
    seat, request = await _first_request(ports)
    await asyncio.sleep(0.6)  # fake clock: no real time passes
    ports[seat].to_referee.put_nowait(referee_pb2.BotMessage(action=game_pb2.Action(
        turn=request.turn, choose_contract=game_pb2.ChooseContract(contract="nope"))))
    while (message := await ports[seat].to_bot.get()).WhichOneof("message") != "action_error":
        pass
    error = message.action_error
    assert error.retry and (error.time_left_ms, error.bank_ms) == (400, 1000)
    for port in ports:
        port.close()
    await game


@pytest.mark.asyncio
@pytest.mark.looptime
@pytest.mark.parametrize(("answer_at", "timed_out"), [(1.2, False), (1.35, True)])
async def test_a_pause_of_the_referee_is_on_no_bots_clock(answer_at: float, timed_out: bool) -> None:
    """A full garbage collection stops the referee's loop for a few hundred ms. A bot that answered
    before its deadline finds its answer read only after the pause, past the deadline on the loop's
    clock: the pause is the organiser's, so no timeout, and the bot is charged its own time only.
    An answer past the deadline once the pause is left out is still a timeout."""
    paused = [0.0]
    ports = [MemoryPort() for _ in range(3)]
    runner = GameRunner("m", load_ruleset("mizerka-short"), "clock", 0, ports, ["a", "b", "c"],
                        ClockSettings(decision_ms=1000, bank_ms=0, max_strikes=0), pauses=lambda: paused[0])
    game = asyncio.create_task(runner.run())
    seat, request = await _first_request(ports)
    await asyncio.sleep(0.9)
    paused[0] = 0.3  # the loop stood still for 0.3 s (fake clock: as the collector records a full collection)
    await asyncio.sleep(answer_at - 0.9)
    ports[seat].to_referee.put_nowait(referee_pb2.BotMessage(action=request.legal_actions[0]))
    while not (record := runner.session.records[seat]).timeouts and not record.time_used_ms:
        await asyncio.sleep(0.001)
    for port in ports:
        port.close()
    await game
    if timed_out:
        assert (record.timeouts, record.time_used_ms) == (1, 1000)
    else:
        assert record.timeouts == 0 and record.time_used_ms == pytest.approx((answer_at - 0.3) * 1000)


async def _first_request(ports: list[MemoryPort]) -> tuple[int, referee_pb2.DecisionRequest]:
    """The first DecisionRequest to any seat, taken the moment it is sent (no fake time passes)."""

    async def request(port: MemoryPort) -> referee_pb2.DecisionRequest:
        while (message := await port.to_bot.get()).WhichOneof("message") != "decision_request":
            pass
        return message.decision_request

    tasks = [asyncio.create_task(request(p)) for p in ports]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    (first,) = done
    return tasks.index(first), first.result()


# ---------------------------------------------------------------------------------- memory
@pytest.mark.asyncio
async def test_finished_games_kept_in_memory_are_bounded_and_watch_rebuilds_the_rest(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.sqlite")
    limit = 200_000  # bytes of rendered games the referee keeps: a few of these games
    arena = Arena(store, ClockSettings(), replays=Replays(str(store.engine.url), StreamLimits(), cache_bytes=limit))
    seats = [store.add_bot(f"absent{i}")[0].id for i in range(3)]
    server, port = await start_server(arena, "127.0.0.1", 0, ADMIN)
    try:
        short, long = [arena.create("mizerka-short", {}, "mem", games, ClockSettings(), seats, forfeits=[0, 1, 2]) for games in (2, 20)]
        for live in [arena.live[r.id] for r in (short, long)]:  # both live until the first await
            await live.done.wait()
        assert len(arena.replays.cache) == 0  # nothing is kept of a game nobody watched
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            watch = referee_pb2_grpc.RefereeStub(channel).Watch
            updates = [u async for u in watch(referee_pb2.WatchRequest(match_id=short.id))]
            assert [u.game_number for u in updates] == [0, 1] and len(arena.replays.cache) == 2  # kept for the next watcher
            kept = arena.replays.cache.bytes
            updates = [u async for u in watch(referee_pb2.WatchRequest(match_id=long.id))]
        assert [u.game_number for u in updates] == list(range(20)) and updates[-1].match_over
        assert sum(u.ByteSize() for u in updates) > limit / 4  # a match this long would push the others out ...
        assert len(arena.replays.cache) == 2 and arena.replays.cache.bytes == kept <= limit  # ... so none of it is kept
    finally:
        await server.stop(0)
        arena.replays.close()
        store.close()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
