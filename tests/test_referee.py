"""The referee's per-match logic on in-memory ports and a fake loop clock (looptime): instant, exact.

Each bot here is a coroutine reading the referee's messages from a queue and answering after a
virtual delay, so clock arithmetic is checked to the millisecond without waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from mizerka_engine.game import Game, default_action
from mizerka_engine.rules import load_ruleset
from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server.referee.clock import SeatClock
from server.referee.match import DEFAULTS_IN_A_ROW, Deadline, GameRunner
from server.settings import ClockSettings

from harness import first_legal
from memory_port import MemoryPort


def fake_clock(test: Callable[..., Any]) -> Callable[..., Any]:
    """Run an async test on looptime's fake loop clock: sleeps and timeouts take no real time."""
    return pytest.mark.asyncio(pytest.mark.looptime(test))


Answer = Callable[[referee_pb2.DecisionRequest, int], tuple[float, list[game_pb2.Action]] | None]




def prompt(delay_s: float = 0.0) -> Answer:
    return lambda request, n: (delay_s, [first_legal(request)])


async def bot(port: MemoryPort, answer: Answer, received: list[referee_pb2.RefereeMessage]) -> None:
    """Reads until GameEnd; answers each DecisionRequest with ``answer``'s messages after its delay."""
    n = 0
    while True:
        message = await port.to_bot.get()
        received.append(message)
        kind = message.WhichOneof("message")
        if kind == "game_end" or port.closed:
            return
        if kind == "decision_request":
            n += 1
            plan = answer(message.decision_request, n)
            if plan is None:  # hang up
                port.close()
                return
            delay, actions = plan
            if delay:
                await asyncio.sleep(delay)
            for action in actions:
                port.to_referee.put_nowait(referee_pb2.BotMessage(action=action) if isinstance(action, game_pb2.Action) else action)


async def play(answers: list[Answer], clock: ClockSettings, preset: str = "mizerka-short", seed: str = "s",
               live: bool = False) -> tuple[Any, list[list[referee_pb2.RefereeMessage]], float]:
    rules = load_ruleset(preset)
    ports = [MemoryPort(live) for _ in range(rules.players)]
    inboxes: list[list[referee_pb2.RefereeMessage]] = [[] for _ in ports]
    runner = GameRunner("m-1", rules, seed, 0, ports, [f"bot{i}" for i in range(rules.players)], clock)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    bots = [asyncio.create_task(bot(p, a, box)) for p, a, box in zip(ports, answers, inboxes)]
    record = await runner.run()
    await asyncio.gather(*bots)  # each bot stops at its GameEnd (or when it hung up)
    return record, inboxes, loop.time() - t0


def events(inbox: list[referee_pb2.RefereeMessage], kind: str) -> list[Any]:
    batches = [m.event_batch.events if m.WhichOneof("message") == "event_batch" else m.decision_request.events
               for m in inbox if m.WhichOneof("message") in ("event_batch", "decision_request")]
    return [getattr(e, kind) for batch in batches for e in batch if e.WhichOneof("kind") == kind]


def engine_game_with_defaults(preset: str, seed: str) -> Game:
    game = Game(load_ruleset(preset), seed=seed)
    while not game.finished:
        game.apply(game.to_act, default_action(game.decision()))  # type: ignore[arg-type]
    return game


@fake_clock
async def test_prompt_bots_play_the_same_game_as_the_engine_alone() -> None:
    record, inboxes, _ = await play([prompt()] * 3, ClockSettings(decision_ms=1000))
    expected = engine_game_with_defaults("mizerka-short", "s")
    assert record.totals == expected.totals
    assert record.game.results == expected.results
    assert all(r.timeouts == r.refusals == r.defaults == r.strikes == 0 and not r.forfeited for r in record.seats)
    for seat, inbox in enumerate(inboxes):
        assert inbox[0].game_start.seat == seat and inbox[0].game_start.names == ["bot0", "bot1", "bot2"]
        assert inbox[-1].game_end.totals == record.totals
        turns = [m.decision_request.turn for m in inbox if m.WhichOneof("message") == "decision_request"]
        assert turns == sorted(set(turns))


@fake_clock
async def test_a_silent_bot_times_out_exactly_then_is_forfeited() -> None:
    clock = ClockSettings(decision_ms=2000, max_strikes=3)
    silent: Answer = lambda request, n: (0.0, [])  # noqa: E731
    record, inboxes, elapsed = await play([silent, prompt(), prompt()], clock)
    assert record.game.finished
    seat0 = record.seats[0]
    assert seat0.timeouts == 3 and seat0.strikes == 3 and seat0.forfeited and not seat0.disconnected
    assert elapsed == pytest.approx(3 * 2.0)  # only its three timed-out decisions cost time
    strikes = events(inboxes[0], "strike_counted")
    assert [s.strikes for s in strikes] == [1, 2, 3] and strikes[-1].forfeited
    defaults = events(inboxes[0], "default_applied")
    assert [d.reason for d in defaults[:3]] == [events_pb2.DEFAULT_REASON_TIMEOUT] * 3
    assert all(d.reason == events_pb2.DEFAULT_REASON_FORFEITED for d in defaults[3:])
    assert seat0.defaults == len(defaults)
    requests = [m for m in inboxes[0] if m.WhichOneof("message") == "decision_request"]
    assert len(requests) == 3  # a forfeited seat is not asked again
    # ... nor sent anything until the game ends (its bot may have stopped reading): then the rest at once.
    forfeiting = next(i for i, m in enumerate(inboxes[0]) if any(e.strike_counted.forfeited for e in m.event_batch.events))
    assert [m.WhichOneof("message") for m in inboxes[0][forfeiting + 1 :]] == ["event_batch", "game_end"]
    assert inboxes[0][-1].game_end.seats[0].forfeited


@fake_clock
async def test_time_beyond_the_free_decision_time_comes_out_of_the_bank() -> None:
    clock = ClockSettings(decision_ms=100, bank_ms=500, increment_ms=50, max_strikes=0)
    slow: Answer = lambda request, n: (0.250, [first_legal(request)])  # noqa: E731
    record, inboxes, _ = await play([slow, prompt(), prompt()], clock)
    banks = [m.decision_request.bank_ms for m in inboxes[0] if m.WhichOneof("message") == "decision_request"]
    # Each answer takes 150 ms beyond the free 100 and earns 50 back, until only 200 ms are allowed:
    # that decision times out (the rest of the bank is spent, no increment) and so do all after it.
    assert banks[:7] == [500, 400, 300, 200, 100, 0, 0]
    seat0 = record.seats[0]
    assert seat0.timeouts == len(banks) - 4 and not seat0.forfeited  # max_strikes 0: never forfeited
    assert seat0.time_used_ms == pytest.approx(4 * 250 + 200 + 100 * (seat0.timeouts - 1))


@fake_clock
async def test_garbage_gets_errors_with_stable_codes_and_the_bot_may_retry() -> None:
    def messy(request: referee_pb2.DecisionRequest, n: int) -> tuple[float, list[Any]]:
        if n > 1:
            return 0.0, [first_legal(request)]
        wrong_card = game_pb2.Action(turn=request.turn, play_card=game_pb2.PlayCard(card="1Z"))
        not_held = game_pb2.Action(turn=request.turn, choose_contract=game_pb2.ChooseContract(contract="grand slam"))
        stale = game_pb2.Action(turn=request.turn + 100, exchange_cards=game_pb2.ExchangeCards())
        hello = referee_pb2.BotMessage(hello=referee_pb2.Hello(token="x"))
        return 0.0, [game_pb2.Action(turn=request.turn), wrong_card, not_held, stale, hello, first_legal(request)]

    record, inboxes, _ = await play([messy, prompt(), prompt()], ClockSettings(decision_ms=1000))
    errors = [m.action_error for m in inboxes[0] if m.WhichOneof("message") == "action_error"]
    assert [e.code for e in errors] == ["MALFORMED", "MALFORMED", "UNKNOWN_CONTRACT", "STALE_TURN", "NOT_EXPECTED"]
    assert [referee_pb2.ActionErrorCode.Name(e.error_code) for e in errors] == ["ACTION_ERROR_CODE_" + e.code for e in errors]
    assert [e.retry for e in errors] == [True, True, True, False, True]
    assert "grand slam" in errors[2].message
    seat0 = record.seats[0]
    assert (seat0.malformed, seat0.refusals, seat0.stale, seat0.strikes, seat0.defaults) == (3, 1, 1, 0, 0)
    assert record.game.results == engine_game_with_defaults("mizerka-short", "s").results


@fake_clock
async def test_too_many_refusals_for_one_decision_is_a_strike_and_the_default() -> None:
    def stubborn(request: referee_pb2.DecisionRequest, n: int) -> tuple[float, list[Any]]:
        bad = game_pb2.Action(turn=request.turn, choose_contract=game_pb2.ChooseContract(contract="nope"))
        return 0.0, [bad] * 3 if n == 1 else [first_legal(request)]

    record, inboxes, elapsed = await play([stubborn, prompt(), prompt()], ClockSettings(decision_ms=1000, max_retries=2))
    errors = [m.action_error for m in inboxes[0] if m.WhichOneof("message") == "action_error"]
    assert [e.retry for e in errors] == [True, True, False]
    assert record.seats[0].strikes == 1 and record.seats[0].defaults == 1
    assert events(inboxes[0], "default_applied")[0].reason == events_pb2.DEFAULT_REASON_REFUSED
    assert elapsed == 0  # nobody waited for a clock


@fake_clock
async def test_a_bot_that_hangs_up_mid_game_is_played_by_the_default_policy() -> None:
    quitter: Answer = lambda request, n: None if n == 4 else (0.0, [first_legal(request)])  # noqa: E731
    record, inboxes, _ = await play([quitter, prompt(), prompt()], ClockSettings(decision_ms=1000))
    assert record.game.finished
    assert record.seats[0].disconnected and record.seats[0].forfeited
    assert record.game.results == engine_game_with_defaults("mizerka-short", "s").results
    assert inboxes[0][-1].WhichOneof("message") == "decision_request"  # nothing more reached it
    assert inboxes[1][-1].game_end.seats[0].disconnected


@fake_clock
async def test_an_absent_seat_is_played_by_the_default_policy_from_the_start() -> None:
    rules = load_ruleset("mizerka-short")
    ports = [None, MemoryPort(), MemoryPort()]
    runner = GameRunner("m-2", rules, "s", 0, ports, ["a", "b", "c"], ClockSettings())
    boxes: list[list[referee_pb2.RefereeMessage]] = [[], []]
    tasks = [asyncio.create_task(bot(p, prompt(), box)) for p, box in zip(ports[1:], boxes)]  # type: ignore[arg-type]
    record = await runner.run()
    await asyncio.gather(*tasks)
    assert record.seats[0].disconnected and record.game.finished
    assert record.totals == engine_game_with_defaults("mizerka-short", "s").totals


class HookedPort(MemoryPort):
    """A port with every optional part of a SeatPort overridden, as a StreamSeat has them: a Hello,
    the hooks around each ask, Actions it refused by itself, and a referee that holds each answer."""

    HELD_S = 0.040

    def __init__(self) -> None:
        super().__init__(hello_name="hooked", version="2.0")
        self.out_of_turn = 2
        self.started: list[int] = []
        self.settled: list[int] = []

    def turn_started(self, turn: int) -> None:
        self.started.append(turn)

    def turn_settled(self, strikes: int) -> None:
        self.settled.append(strikes)

    async def receive(self) -> referee_pb2.BotMessage:
        message = await super().receive()
        self.held_s = self.HELD_S
        return message


@fake_clock
async def test_the_runner_reads_a_ports_optional_parts_and_their_defaults() -> None:
    """SeatPort's optional members, read without getattr: the overrides of one port, the Protocol's
    defaults (no Hello, nothing refused or held) for the others."""
    rules = load_ruleset("mizerka-short")
    ports = [HookedPort(), MemoryPort(), MemoryPort()]
    runner = GameRunner("m-4", rules, "s", 0, ports, ["a", "b", "c"], ClockSettings())
    boxes: list[list[referee_pb2.RefereeMessage]] = [[], [], []]
    tasks = [asyncio.create_task(bot(p, prompt(0.100), box)) for p, box in zip(ports, boxes)]
    record = await runner.run()
    await asyncio.gather(*tasks)
    assert (record.versions, record.hello_names) == (["2.0", None, None], ["hooked", None, None])
    assert [s.stale for s in record.seats] == [2, 0, 0]
    asked = [m.decision_request.turn for m in boxes[0] if m.WhichOneof("message") == "decision_request"]
    assert asked and ports[0].started == asked and ports[0].settled == [0] * len(asked)
    mine = [t.time_ms for t in record.turns if t.seat == 0]
    theirs = [t.time_ms for t in record.turns if t.seat == 1]
    assert mine == pytest.approx([100 - 1000 * HookedPort.HELD_S] * len(asked)) and theirs == pytest.approx([100] * len(theirs))


@pytest.mark.parametrize("hang_up_at", [None, 3], ids=["absent-from-the-start", "all-crash-mid-game"])
@fake_clock
async def test_a_game_nobody_plays_any_more_lets_the_other_matches_run_between_its_turns(hang_up_at: int | None) -> None:
    """The default policy plays all of a game whose bots are gone (never came, or all three hung
    up at their ``hang_up_at``-th request); played in one go, the rest of a game (several
    milliseconds) would hold up every other match of the referee. Another task must get the loop
    after at most DEFAULTS_IN_A_ROW of its turns."""
    rules = load_ruleset("mizerka-short")
    ports = [None] * 3 if hang_up_at is None else [MemoryPort() for _ in range(3)]
    crasher: Answer = lambda request, n: None if n == hang_up_at else (0.0, [first_legal(request)])  # noqa: E731
    bots = [asyncio.create_task(bot(p, crasher, [])) for p in ports if p is not None]
    runner = GameRunner("m-3", rules, "s", 0, ports, ["a", "b", "c"], ClockSettings())
    game = asyncio.create_task(runner.run())
    seen = [0]
    while not game.done():
        await asyncio.sleep(0)
        seen.append(runner.session.turn)
    record = await game
    assert record.game.finished and record.totals == engine_game_with_defaults("mizerka-short", "s").totals
    assert runner.session.turn > 4 * DEFAULTS_IN_A_ROW, "the game is too short to tell"
    assert max(b - a for a, b in zip(seen, seen[1:])) <= DEFAULTS_IN_A_ROW
    assert all(r.forfeited and r.disconnected for r in record.seats)
    await asyncio.gather(*bots)


def test_seat_clock_arithmetic() -> None:
    c = SeatClock(ClockSettings(decision_ms=100, bank_ms=1000, increment_ms=10))
    assert c.allowed_ms() == 1100
    c.charge(50)
    assert c.bank_ms == 1010  # within the free time: the bank only gains the increment
    c.charge(600)
    assert c.bank_ms == 520
    c.charge(2000, in_time=False)
    assert c.bank_ms == 0 and c.allowed_ms() == 100


@pytest.mark.parametrize("bad", [{"decision_ms": -1}, {"decision_ms": 0, "bank_ms": 0}, {"max_strikes": 1.5}])
def test_clock_settings_are_checked(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="decision_ms|max_strikes"):
        ClockSettings(**bad)


@fake_clock
async def test_live_events_change_when_events_arrive_never_what_or_in_which_order() -> None:
    def flatten(inbox: list[referee_pb2.RefereeMessage]) -> list[str]:
        out = []
        for m in inbox:
            kind = m.WhichOneof("message")
            events = m.event_batch.events if kind == "event_batch" else m.decision_request.events if kind == "decision_request" else []
            out += [str(e) for e in events] + ([kind] if kind != "event_batch" else [])
        return out

    clock = ClockSettings(decision_ms=1000)
    _, deferred, _ = await play([prompt()] * 3, clock, preset="manni-major")
    _, live, _ = await play([prompt()] * 3, clock, preset="manni-major", live=True)
    for seat in range(3):
        assert flatten(deferred[seat]) == flatten(live[seat])
        assert len(deferred[seat]) < len(live[seat]) / 2  # far fewer messages
        assert deferred[seat][-2].WhichOneof("message") == "event_batch"  # the rest, just before GameEnd


@fake_clock
async def test_a_deadline_ends_only_the_receive_it_covers_at_its_own_time() -> None:
    loop = asyncio.get_running_loop()
    deadline, port = Deadline(loop), MemoryPort()
    answer = referee_pb2.BotMessage(action=game_pb2.Action(turn=1))
    start = loop.time()
    port.to_referee.put_nowait(answer)
    assert await deadline.receive(port, start + 60) is answer  # in time; its timer is left armed for 60 s
    with pytest.raises(TimeoutError):
        await deadline.receive(port, start + 1)  # an earlier deadline arms its own timer
    assert loop.time() == pytest.approx(start + 1)
    port.to_referee.put_nowait(answer)
    assert await deadline.receive(port, start + 2) is answer  # leaves a timer armed for 2 s ...
    with pytest.raises(TimeoutError):  # ... which fires first and re-arms itself for 5 s
        await deadline.receive(port, start + 5)
    assert loop.time() == pytest.approx(start + 5)

    waiting = asyncio.create_task(deadline.receive(port, start + 10))
    await asyncio.sleep(1)
    waiting.cancel()  # from outside (a server shutting down): a cancel, not a timeout
    with pytest.raises(asyncio.CancelledError):
        await waiting
    port.to_referee.put_nowait(answer)
    assert await deadline.receive(port, start + 10) is answer
    deadline.close()
    assert deadline.timer is None
