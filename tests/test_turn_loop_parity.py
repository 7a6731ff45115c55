"""One turn loop, many drivers: the same scripted bot behaviour -- good answers, refusals, stale
answers, timeouts, a refusal streak past Clock.max_retries, a forfeit, a hang-up -- played through
the live referee (GameRunner on in-memory ports, looptime's fake clock), offline
(server.referee.offline.play) and re-fed from the live game's match log (refeed); every seat must
receive exactly the same messages on all three.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque

import pytest

from mizerka_engine.rules import load_ruleset
from mizerka_proto import game_pb2, referee_pb2
from server.arena import record_to_store
from server.codec import matchlog
from server.referee.match import GameRunner
from server.referee.offline import play, refeed, seat_messages
from server.referee.session import Disconnected
from server.settings import ClockSettings

from memory_port import MemoryPort

PRESET = "mizerka-short"
SEED = "parity"
CLOCK = ClockSettings(decision_ms=1000, bank_ms=500, increment_ms=20, max_strikes=3, max_retries=2)
HANG_UP = "hang up"

# What a seat does at its n-th DecisionRequest (from 1); anything not listed: a good answer.
#   "refuse": an illegal answer, then the good one after the ActionError
#   "stale": an answer for the previous turn, then the good one (the stale one is discarded)
#   "timeout": nothing; "streak": illegal answers until the referee gives up (REFUSED)
SCRIPTS: list[dict[int, str]] = [
    {2: "refuse", 3: "stale", 5: "timeout", 7: "streak", 9: "refuse"},
    {1: "timeout", 4: "timeout", 6: "timeout"},  # the third strike forfeits seat 1
    {2: "stale", 3: "refuse", 8: HANG_UP},
]


def good(request: referee_pb2.DecisionRequest) -> game_pb2.Action:
    if request.kind == referee_pb2.DECISION_KIND_EXCHANGE:
        return game_pb2.Action(turn=request.turn, exchange_cards=game_pb2.ExchangeCards())
    if request.kind == referee_pb2.DECISION_KIND_MAJOR:
        return game_pb2.Action(turn=request.turn, announce_major=game_pb2.AnnounceMajor())
    return request.legal_actions[-1]


def illegal(turn: int) -> game_pb2.Action:
    return game_pb2.Action(turn=turn, choose_contract=game_pb2.ChooseContract(contract="no-such-contract"))


class Script:
    """One seat's scripted behaviour: the answers it gives to each message, transport aside."""

    def __init__(self, plan: dict[int, str]) -> None:
        self.plan = plan
        self.requests = 0
        self.pending: referee_pb2.DecisionRequest | None = None
        self.mode = ""
        self.inbox: list[referee_pb2.RefereeMessage] = []

    def on_message(self, message: referee_pb2.RefereeMessage) -> list[game_pb2.Action] | str:
        """The answers to ``message`` (or HANG_UP)."""
        self.inbox.append(message)
        which = message.WhichOneof("message")
        if which == "decision_request":
            request = message.decision_request
            self.requests += 1
            self.pending, self.mode = request, self.plan.get(self.requests, "")
            if self.mode == HANG_UP:
                return HANG_UP
            if self.mode == "timeout":
                return []
            if self.mode in ("refuse", "streak"):
                return [illegal(request.turn)]
            if self.mode == "stale":
                return [game_pb2.Action(turn=request.turn - 1, play_card=game_pb2.PlayCard(card="AS")), good(request)]
            return [good(request)]
        if which == "action_error" and self.pending is not None and message.action_error.retry:
            if self.mode == "streak":
                return [illegal(self.pending.turn)]
            return [good(self.pending)]
        return []


async def _live_bot(port: MemoryPort, script: Script) -> None:
    while True:
        message = await port.to_bot.get()
        answers = script.on_message(message)
        if answers == HANG_UP:
            port.close()
            return
        for action in answers:
            port.to_referee.put_nowait(referee_pb2.BotMessage(action=action))
        if message.WhichOneof("message") == "game_end":
            return


async def _play_live() -> tuple[list[Script], object]:
    rules = load_ruleset(PRESET)
    ports = [MemoryPort() for _ in range(rules.players)]
    scripts = [Script(p) for p in SCRIPTS]
    runner = GameRunner("m-parity", rules, SEED, 0, ports, [f"bot{s}" for s in range(rules.players)], CLOCK)
    bots = [asyncio.create_task(_live_bot(p, s)) for p, s in zip(ports, scripts)]
    record = await runner.run()
    await asyncio.gather(*bots)
    return scripts, record


class ScriptedSeat:
    """The same script as an offline SeatDriver."""

    live_events = False

    def __init__(self, script: Script) -> None:
        self.script = script
        self.label = "scripted"
        self.replies: deque[game_pb2.Action] = deque()
        self.gone = False

    def send(self, message: referee_pb2.RefereeMessage) -> None:
        if self.gone:
            raise Disconnected()
        answers = self.script.on_message(message)
        if answers == HANG_UP:
            self.gone = True
        else:
            self.replies.extend(answers)

    def receive(self) -> referee_pb2.BotMessage | None:
        if self.gone:
            raise Disconnected()
        return referee_pb2.BotMessage(action=self.replies.popleft()) if self.replies else None

    def close(self) -> None:
        pass


def _log(record: object) -> matchlog.GameLog:
    stored = json.loads(json.dumps(record_to_store(record, [])))
    (g,) = matchlog.parse_match_log(matchlog.dumps(matchlog.game_lines(stored["header"], stored)))
    return g


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_every_driver_sends_a_bot_the_same_messages() -> None:
    live_scripts, record = await _play_live()
    seats = record.seats
    # The script really exercised every path of the loop.
    assert seats[0].refusals >= 4 and seats[0].stale == 1 and seats[0].timeouts == 1 and seats[0].strikes == 2
    assert seats[1].forfeited and not seats[1].disconnected and seats[1].timeouts == 3
    assert seats[2].disconnected and seats[2].stale == 1 and seats[2].refusals == 1
    reasons = {t.default for t in record.turns}
    assert {"TIMEOUT", "REFUSED", "FORFEITED", "DISCONNECTED"} <= reasons

    rules = load_ruleset(PRESET)
    names = [f"bot{s}" for s in range(rules.players)]
    offline_scripts = [Script(p) for p in SCRIPTS]
    offline = play(rules, SEED, [ScriptedSeat(s) for s in offline_scripts], names, CLOCK, match_id="m-parity")
    assert offline.totals == record.totals and [t.default for t in offline.turns] == [t.default for t in record.turns]

    g = _log(record)
    for seat in range(rules.players):
        live_inbox = live_scripts[seat].inbox
        assert offline_scripts[seat].inbox == live_inbox, f"offline play, seat {seat}"
        refed = Script(SCRIPTS[seat])
        report = refeed(g, seat, ScriptedSeat(refed))
        assert refed.inbox == live_inbox, f"re-feed, seat {seat}"
        assert report.decisions == live_scripts[seat].requests
        # The log holds no refused answers: the rebuilt feed is the live one without ActionErrors.
        rebuilt = [m.message for m in seat_messages(g, seat)]
        assert rebuilt == [m for m in live_inbox if m.WhichOneof("message") != "action_error"], f"log, seat {seat}"
