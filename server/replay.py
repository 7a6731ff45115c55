"""Re-executing a logged game through the engine, checking that every logged outcome follows.

The log is the FULL projection of ``Game.log``: deals carry their cards, so the game is rebuilt
from the logged deals and actions alone, and every derived entry (settled contract, trick
winner, deal result, game end) must come out the same.

- :func:`replay_log`: rebuild a stored game (Watch uses it); raises :class:`ReplayError`.
- :func:`verify_game`: verify one game of a match log (server/matchlog.py, docs/match-log.md) line
  by line -- its deals against its seed, every action against the rules, every derived line, the end
  line's totals, ranks and fault counts -- raising :class:`Divergence` with the first line that does
  not follow. Callbacks see the game just before and after each recorded action.
- :class:`SeatFeed`: the messages the referee sent one seat (GameStart, events, DecisionRequests,
  GameEnd), rebuilt from a verified log with the referee's own functions: the projection
  (:func:`~server.engine.views.project`, :func:`~server.engine.views.project_events`),
  :func:`~server.protocol.decision_to_proto` and :class:`~server.protocol.EventEncoder`.
- :func:`refeed`: send a seat's recorded decisions to a bot and compare its answers with the log.
- :func:`rerun`: play the game's seed again with some seats taken by other bots.

A bot is driven through a :class:`Driver`: :class:`SdkDriver` for an in-process SDK bot (the built-in
``mizerka.bots.BOTS``), :class:`StdioDriver` for a program speaking the stdio JSON Lines protocol
of ``mizerka bot stdio`` (:mod:`mizerka.stdio`), exactly as that bridge would feed it.
"""

from __future__ import annotations

import copy
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine.cards import CARD_TEXT, SUITS
from server.engine.dealing import Deal
from server.engine.game import (
    Action,
    Choose,
    Exchange,
    Game,
    IllegalAction,
    Major,
    Phase,
    Play,
)
from server.engine.rules import Ruleset
from server.matchlog import ACTION_KINDS, GameLog, LogLine


class ReplayError(ValueError):
    """The log does not follow from its own deals and actions; names the first divergence."""


class Divergence(ReplayError):
    """The first line of a match log that does not follow from the rules; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def logged_action(rules: Ruleset, entry: tuple) -> Action:
    """The action a logged entry records (the talon cards a blind exchange took are derived).
    The report's replay pages (tournaments/report.py) step through games with it too."""
    kind = entry[0]
    if kind == "contract":
        contract = rules.contract(entry[2])
        return Choose(entry[2], entry[3] if contract is not None and contract.names_trump else None)
    if kind == "major":
        return Major(entry[2])
    if kind == "exchange":
        return Exchange(tuple(entry[2]), tuple(entry[3]) if rules.exchange == "pick" else None)
    return Play(entry[2])  # play or revoke


def replay_log(rules: Ruleset, seed: str, entries: Iterable[tuple]) -> Game:
    entries = list(entries)
    deals = iter([Deal(tuple(map(tuple, e[6])), tuple(e[7]), e[5]) for e in entries if e[0] == "deal"])
    first = next((e for e in entries if e[0] == "deal"), None)
    if first is None:
        raise ReplayError("the log has no deal")
    if len(first) < 8:
        raise ReplayError("the log holds no cards (it is not a full log)")
    first_dealer = first[4]
    game = Game(rules, seed=seed, first_dealer=first_dealer, deal_source=lambda d, r: next(deals, None))
    for i, entry in enumerate(entries):
        kind = entry[0]
        if kind in ("contract", "major", "exchange", "play", "revoke"):
            seat = entry[1]
            action = logged_action(rules, entry)
            try:
                game.apply(seat, action)
            except IllegalAction as e:
                raise ReplayError(f"entry {i} ({kind} by seat {seat}): the engine refuses it: {e.message}") from None
        got = game.log[i] if i < len(game.log) else None
        if got != entry:
            raise ReplayError(f"entry {i}: the log says {entry!r}, the rules give {got!r}")
    if len(game.log) != len(entries):
        raise ReplayError(f"the rules give {len(game.log) - len(entries)} more entries than the log holds")
    return game


# ------------------------------------------------------------------------------ describing
def cards_text(cards: Iterable[int]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards) or "nothing"


def signed(values: Iterable[int]) -> str:
    return " ".join(f"{v:+d}" for v in values)


def deal_name(deal: int, redeal: int = 0, tiebreak: bool = False) -> str:
    """``deal 3``, ``deal 3 (redeal 1)``, ``deal 18 (tie-break)``: deals count from 0 as in the log."""
    out = f"deal {deal}"
    extra = [f"redeal {redeal}"] if redeal else []
    if tiebreak:
        extra.append("tie-break")
    return out + (f" ({', '.join(extra)})" if extra else "")


def describe_action(action: Action | None, rules: Ruleset | None = None, past: bool = False) -> str:
    """``plays 7H`` / ``played 7H``, ``chooses hearts``, ``discards 2C 3D``, ``passes``."""
    if action is None:
        return "gives no legal answer" if not past else "gave no legal answer"
    t = type(action)
    if t is Play:
        return ("played " if past else "plays ") + CARD_TEXT[action.card]  # type: ignore[union-attr]
    if t is Choose:
        trump = f" ({SUITS[action.trump]} trumps)" if action.trump is not None else ""  # type: ignore[union-attr]
        return ("chose " if past else "chooses ") + action.contract + trump  # type: ignore[union-attr]
    if t is Major:
        if action.contract is None:  # type: ignore[union-attr]
            return "passed" if past else "passes"
        return ("announced " if past else "announces ") + f"{action.contract} major"  # type: ignore[union-attr]
    if t is Exchange:
        discard, take = action.discard, action.take  # type: ignore[union-attr]
        if not discard:
            return "exchanged nothing" if past else "exchanges nothing"
        text = ("discarded " if past else "discards ") + cards_text(discard)
        if take:
            text += (", took " if past else ", takes ") + cards_text(take)
        return text
    return repr(action)


def describe(e: tuple) -> str:
    """A log entry in words (seats by number, deals and tricks from 0 as in the log)."""
    kind = e[0]
    if kind == "deal":
        return f"{deal_name(e[1], e[2], e[3])} starts with dealer seat {e[4]} and declarer seat {e[5]}"
    if kind == "contract":
        return f"seat {e[1]} announces {e[2]}" + (f" ({SUITS[e[3]]} trumps)" if e[3] is not None else "")
    if kind == "major":
        return f"seat {e[1]} announces {e[2]} major" if e[2] is not None else f"seat {e[1]} passes the major round"
    if kind == "settled":
        return f"the contract settles as {e[2]} with seat {e[1]} declarer"
    if kind == "exchange":
        if isinstance(e[2], int):
            return f"seat {e[1]} exchanges {e[2]} cards"
        if not e[2]:
            return f"seat {e[1]} exchanges nothing"
        return f"seat {e[1]} discards {cards_text(e[2])} and takes {cards_text(e[3])}"
    if kind == "play":
        return f"seat {e[1]} plays {CARD_TEXT[e[2]]}"
    if kind == "revoke":
        return f"seat {e[1]} revokes with {CARD_TEXT[e[2]]}"
    if kind == "trick":
        return f"trick won by seat {e[1]}"
    if kind == "result":
        r = e[1]
        return (f"{deal_name(r.deal_no, r.redeal, r.tiebreak)} ends with tricks {'/'.join(map(str, r.tricks))}, "
                f"points {signed(r.points)}, totals {signed(e[2])}")
    if kind == "over":
        return f"the game is over with totals {signed(e[1])}"
    return repr(e)


_VERBS = {Phase.CONTRACT: "announce a contract", Phase.MAJOR: "announce a major or pass", Phase.EXCHANGE: "exchange",
          Phase.PLAY: "play a card"}


def _pending(game: Game) -> str:
    if game.finished:
        return "the game is over"
    if game.to_act < 0:
        return "the game waits for a deal"
    where = deal_name(game.deal_no, game.redeal, game.tiebreak)
    if game.phase == Phase.PLAY:
        where += f", trick {game.trick_no}"
    return f"seat {game.to_act} is to {_VERBS[game.phase]} ({where})"


def _difference(logged: tuple, got: tuple) -> str:
    """Why a logged entry is not the one the rules give, in words."""
    kind = logged[0]
    if kind != got[0]:
        return f"the log says {describe(logged)}, the rules give {describe(got)}"
    if kind == "trick":
        return f"the log says trick won by seat {logged[1]}, the rules give seat {got[1]}"
    if kind == "settled":
        return (f"the log says the contract settles as {logged[2]} with seat {logged[1]} declarer, "
                f"the rules give {got[2]} with seat {got[1]} declarer")
    if kind == "deal":
        d = deal_name(got[1], got[2], got[3])
        if logged[1:6] != got[1:6]:
            return f"the log says {describe(logged)}, the rules give {describe(got)}"
        if len(logged[6]) != len(got[6]):
            return f"the log says {d} has {len(logged[6])} hands, the rules give {len(got[6])}"
        for s, (a, b) in enumerate(zip(logged[6], got[6])):
            if a != b:
                extra, missing = [c for c in a if c not in b], [c for c in b if c not in a]
                if extra or missing:
                    return (f"the log says seat {s} is dealt {cards_text(extra)} in {d}, "
                            f"the seed deals it {cards_text(missing)}")
                return (f"the log deals seat {s}'s cards of {d} in another order than the seed "
                        "(the order decides which cards the declarer sees before choosing)")
        if logged[7] != got[7]:
            extra, missing = [c for c in logged[7] if c not in got[7]], [c for c in got[7] if c not in logged[7]]
            if extra or missing:
                return f"the log says the talon of {d} holds {cards_text(extra)}, the seed gives {cards_text(missing)}"
            return f"the log orders the talon of {d} differently from the seed (the order decides what an exchange takes)"
    if kind == "exchange" and logged[1:3] == got[1:3]:
        return f"the log says seat {logged[1]} takes {cards_text(logged[3])} from the talon, the rules give {cards_text(got[3])}"
    if kind == "result":
        a, b = logged[1], got[1]
        d = deal_name(b.deal_no, b.redeal, b.tiebreak)
        for what, x, y, show in (
            ("is numbered", (a.deal_no, a.redeal, a.tiebreak), (b.deal_no, b.redeal, b.tiebreak), lambda t: deal_name(*t)),
            ("is played as", a.contract, b.contract, str),
            ("has trumps", a.trump, b.trump, lambda t: "none" if t is None else SUITS[t]),
            ("has dealer", a.dealer, b.dealer, lambda s: f"seat {s}"),
            ("has declarer", a.declarer, b.declarer, lambda s: f"seat {s}"),
            ("has first declarer", a.caller, b.caller, lambda s: f"seat {s}"),
            ("ends with tricks", a.tricks, b.tricks, lambda t: "/".join(map(str, t))),
            ("scores", a.points, b.points, signed),
            ("is", a.void, b.void, lambda v: "void" if v else "not void"),
            ("has revoker", a.revoker, b.revoker, lambda s: "nobody" if s is None else f"seat {s}"),
        ):
            if x != y:
                return f"the log says {d} {what} {show(x)}, the rules give {show(y)}"
        if logged[2] != got[2]:
            return f"the log says the totals after {d} are {signed(logged[2])}, the rules give {signed(got[2])}"
    if kind == "over":
        return f"the log says the game ends with totals {signed(logged[1])}, the rules give {signed(got[1])}"
    return f"the log says {describe(logged)}, the rules give {describe(got)}"


# ------------------------------------------------------------------------------ verifying
@dataclass
class Step:
    """One recorded decision (an action line), with where the game stood just before it."""

    line: LogLine
    turn: int
    seat: int
    action: Action
    phase: Phase
    deal: int
    redeal: int
    tiebreak: bool
    trick: int

    @property
    def default(self) -> str | None:
        return self.line.meta.get("default")

    @property
    def ms(self) -> float | None:
        return self.line.meta.get("ms")

    @property
    def where(self) -> str:
        """``deal 3, trick 5`` / ``deal 0, contract``: deals and tricks from 0 as in the log."""
        what = {Phase.CONTRACT: "contract", Phase.MAJOR: "major", Phase.EXCHANGE: "exchange"}.get(self.phase)
        return f"{deal_name(self.deal, self.redeal, self.tiebreak)}, {what or f'trick {self.trick}'}"


@dataclass
class Verified:
    """A game whose log follows from its seed and actions: the rebuilt game and its steps."""

    log: GameLog
    game: Game
    steps: list[Step]

    @property
    def deals(self) -> int:
        return len(self.game.results)

    @property
    def totals(self) -> list[int]:
        return list(self.game.totals)

    @property
    def ranks(self) -> list[int]:
        from server.protocol import ranks

        return ranks(self.game.totals)

    def summary(self) -> str:
        results = self.game.results
        void = sum(r.void for r in results)
        tiebreaks = sum(r.tiebreak and not r.void for r in results)
        extra = ", ".join(x for x in (f"{void} void" if void else "", f"{tiebreaks} tie-break" if tiebreaks else "") if x)
        return (f"{self.deals} deals{f' ({extra})' if extra else ''}, totals {signed(self.totals)}, "
                f"ranks {' '.join(map(str, self.ranks))}")


Hook = Callable[[Game, Step], None]


def _check_ruleset(g: GameLog) -> None:
    logged = g.header.get("ruleset")
    if not isinstance(logged, dict):
        return
    ours = g.rules.describe()
    for key in sorted(set(logged) | set(ours)):
        if logged.get(key) != ours.get(key):
            raise Divergence(g.header_line, f"the log's ruleset has {key} = {logged.get(key)!r}, the rules of "
                                            f"{g.rules.preset} with these options give {ours.get(key)!r}")


def verify_game(g: GameLog, before: Hook | None = None, after: Hook | None = None) -> Verified:
    """Re-execute ``g`` from its seed; every line must be what the rules give at that point.

    ``before(game, step)`` runs just before a recorded action is applied, ``after(game, step)`` just
    after it (and after the entries it produced were checked). Raises :class:`Divergence`.
    """
    rules = g.rules
    _check_ruleset(g)
    game = Game(rules, seed=g.seed)  # the referee deals every game from its seed
    k = 0  # the next entry of game.log to match
    turn = 0
    steps: list[Step] = []
    pending_after: Step | None = None
    for ln in g.lines:
        e = ln.entry
        if pending_after is not None and after is not None:
            after(game, pending_after)
        pending_after = None
        if e[0] in ACTION_KINDS:
            if k < len(game.log):
                raise Divergence(ln.lineno, f"the log says {describe(e)}, but the rules give {describe(game.log[k])} first")
            if game.finished:
                raise Divergence(ln.lineno, f"the log says {describe(e)}, but the game is already over")
            seat = e[1]
            if seat != game.to_act:
                raise Divergence(ln.lineno, f"the log says {describe(e)}, but {_pending(game)}")
            turn += 1
            logged_turn = ln.meta.get("turn")
            if logged_turn is not None and logged_turn != turn:
                raise Divergence(ln.lineno, f"the log numbers this turn {logged_turn}, the referee's count gives {turn}")
            step = Step(ln, turn, seat, logged_action(rules, e), game.phase, game.deal_no, game.redeal, game.tiebreak, game.trick_no)
            if before is not None:
                before(game, step)
            try:
                game.apply(seat, step.action)
            except IllegalAction as x:
                raise Divergence(ln.lineno, f'the log says {describe(e)}, but the rules refuse it ({x.code}: "{x.message}")') from None
            steps.append(step)
            pending_after = step
        if k >= len(game.log):
            raise Divergence(ln.lineno, f"the log says {describe(e)}, but the rules give nothing more here: {_pending(game)}")
        got = game.log[k]
        if got != e:
            raise Divergence(ln.lineno, _difference(e, got))
        k += 1
    if pending_after is not None and after is not None:
        after(game, pending_after)
    where = g.end_line or g.last_line
    if k < len(game.log):
        raise Divergence(where, f"the log is missing a line: the rules give {describe(game.log[k])} next")
    if not game.finished:
        raise Divergence(where, f"the log stops before the game is over: {_pending(game)}")
    if g.end is None:
        raise Divergence(where, "the log has no end line (is the file cut short?)")
    verified = Verified(g, game, steps)
    _check_end(g, verified)
    return verified


def _check_end(g: GameLog, v: Verified) -> None:
    end, line = g.end, g.end_line
    assert end is not None
    if end["totals"] != v.totals:
        raise Divergence(line, f"the log says totals {signed(end['totals'])}, the rules give {signed(v.totals)}")
    if end["ranks"] != v.ranks:
        raise Divergence(line, f"the log says ranks {' '.join(map(str, end['ranks']))}, the totals give "
                               f"{' '.join(map(str, v.ranks))}")
    seats = end["seats"]
    n = g.rules.players
    if len(seats) != n or not all(isinstance(s, dict) for s in seats):
        raise Divergence(line, f"the log's end line has {len(seats)} seat records, the game has {n} seats")
    if not v.steps or any(s.line.meta.get("turn") is None for s in v.steps):
        return  # no per-turn metadata (a game stored before the referee recorded it)
    for s in range(n):
        mine = [x for x in v.steps if x.seat == s]
        for key, count, what in (
            ("defaults", sum(x.default is not None for x in mine), "defaults applied"),
            ("timeouts", sum(x.default == "TIMEOUT" for x in mine), "timeouts"),
        ):
            said = seats[s].get(key)
            if said is not None and said != count:
                raise Divergence(line, f"the log says seat {s} had {said} {what}, its action lines show {count}")


def verify_log(games: Sequence[GameLog]) -> list[Verified]:
    return [verify_game(g) for g in games]


# ------------------------------------------------------------------------------ one seat's feed
@dataclass
class Message:
    """One message the referee sent a seat: ``game_start``, ``events``, ``decision`` or ``game_end``.

    ``proto`` is the wire message (GameStart, a list of Events, DecisionRequest, GameEnd); a
    decision carries its :class:`Step` (the recorded answer).
    """

    kind: str
    proto: Any
    step: Step | None = None


def clock_settings(g: GameLog) -> Any:
    from server.referee.clock import ClockSettings

    clock = g.header.get("clock")
    if isinstance(clock, dict):
        try:
            return ClockSettings(**{k: v for k, v in clock.items() if k in ClockSettings.__dataclass_fields__})
        except (TypeError, ValueError):
            pass
    return ClockSettings()


class SeatFeed:
    """What the referee sent ``seat`` in the game of ``g``, message by message.

    Built like :class:`server.referee.match.GameRunner` builds it for a stream without live events:
    events ride on the next DecisionRequest (the same events, in the same order, as a live stream
    gets); a decision the referee took for the seat (TIMEOUT, REFUSED, FORFEITED) is followed by an
    EventBatch with the events so far, the StrikeCounted and the DefaultApplied; after a DISCONNECTED
    default nothing more reaches the seat. The bank in each request is recomputed from the clock
    and the recorded times.

    Use :meth:`before` / :meth:`after` as :func:`verify_game` hooks, then :meth:`finish`; or call
    :meth:`messages`.
    """

    def __init__(self, g: GameLog, seat: int, emit: Callable[[Message], None] | None = None) -> None:
        from server import protocol
        from server.referee.clock import SeatClock

        if not 0 <= seat < g.rules.players:
            raise ValueError(f"{g.rules.preset} has seats 0..{g.rules.players - 1}, not {seat}")
        self.log = g
        self.seat = seat
        self.rules = g.rules
        self.names = g.names
        self.clock = clock_settings(g)
        self.seat_clock = SeatClock(self.clock)
        self.encoder = protocol.EventEncoder(g.rules)
        self.cursor = 0
        self.strikes = 0
        self.gone = False
        self.out: list[Message] = []
        self.emit = emit or self.out.append
        self.start = protocol_game_start(g, seat, self.clock)

    def _pending(self, game: Game) -> list[Any]:
        from server.engine.views import project_events

        start, self.cursor = self.cursor, len(game.log)
        return self.encoder.encode_all(project_events(game, self.seat, start))

    def begin(self) -> None:
        self.emit(Message("game_start", self.start))

    def before(self, game: Game, step: Step) -> None:
        from server import protocol
        from server.engine.views import project

        if step.seat != self.seat or self.gone or step.default in ("FORFEITED", "DISCONNECTED"):
            return  # the referee sent no request for a seat it already plays by default
        decision = game.decision()
        assert decision is not None
        request = protocol.decision_to_proto(
            step.turn, decision, project(game, self.seat), self.clock.decision_ms, self.seat_clock.bank_ms,
            self.names, self.rules,
        )
        request.events.extend(self._pending(game))
        self.emit(Message("decision", request, step))

    def after(self, game: Game, step: Step) -> None:
        from server import protocol

        if step.seat != self.seat or self.gone:
            return
        reason, ms = step.default, float(step.ms or 0)
        if reason is None:
            self.seat_clock.charge(ms)
            return
        if reason == "DISCONNECTED":
            self.gone = True  # the stream is gone: nothing more reaches this seat
            return
        extra = []
        if reason in ("TIMEOUT", "REFUSED"):
            self.seat_clock.charge(ms, in_time=False)
            self.strikes += 1
            limit = self.clock.max_strikes
            extra.append(protocol.strike_counted_to_proto(step.turn, self.strikes, limit, bool(limit) and self.strikes >= limit))
        applied = protocol.default_applied_to_proto(step.turn, step.action, reason)
        self.emit(Message("events", [*self._pending(game), *extra, applied], step))

    def finish(self, verified: Verified) -> None:
        if self.gone:
            return
        events = self._pending(verified.game)
        if events:
            self.emit(Message("events", events))
        self.emit(Message("game_end", protocol_game_end(verified, self.seat)))

    def messages(self) -> list[Message]:
        """Every message, in order (verifies the log on the way)."""
        self.begin()
        verified = verify_game(self.log, self.before, self.after)
        self.finish(verified)
        return self.out


def protocol_game_start(g: GameLog, seat: int, clock: Any = None) -> Any:
    from mizerka_proto import referee_pb2

    from server import protocol

    return referee_pb2.GameStart(
        match_id=g.match, game_number=g.game, games=int(g.header.get("games") or 1), seat=seat, names=g.names,
        ruleset=protocol.ruleset_to_proto(g.rules), clock=protocol.clock_to_proto(clock or clock_settings(g)),
    )


def protocol_game_end(v: Verified, seat: int) -> Any:
    from mizerka_proto import game_pb2, referee_pb2

    from server import protocol

    g, totals, ranks = v.log, v.totals, v.ranks
    records = (g.end or {}).get("seats") or [{} for _ in totals]
    seats = [
        game_pb2.SeatRecord(
            seat=s, name=g.names[s], total=totals[s], rank=ranks[s], timeouts=int(r.get("timeouts") or 0),
            refusals=int(r.get("refusals") or 0) + int(r.get("malformed") or 0),
            defaults_applied=int(r.get("defaults") or 0), forfeited=bool(r.get("forfeited")),
            disconnected=bool(r.get("disconnected")),
        )
        for s, r in enumerate(records)
    ]
    return referee_pb2.GameEnd(
        match_id=g.match, game_number=g.game, seat=seat, rank=ranks[seat], totals=totals,
        results=protocol.results_to_proto(v.game.results), seats=seats,
    )


# ------------------------------------------------------------------------------ bots
@dataclass
class Reply:
    """A bot's answer: the wire Action, or None (garbage, no answer in time) with a note why."""

    action: Any
    note: str | None = None
    timed_out: bool = False


class Driver:
    """A bot as the referee sees it: messages in, Actions out. Subclasses: SdkDriver, StdioDriver."""

    label = "bot"

    def start(self, game_start: Any) -> None: ...

    def events(self, events: Sequence[Any]) -> None: ...

    def decide(self, request: Any) -> Reply:
        raise NotImplementedError

    def refused(self, error: Any) -> Reply | None:
        """The last answer was refused (``error`` is the ActionError); the next answer, or None."""
        return None

    def end(self, game_end: Any) -> None: ...

    def close(self) -> None: ...


class SdkDriver(Driver):
    """An in-process SDK bot, driven as ``mizerka.runtime`` drives it on a Play stream."""

    def __init__(self, bot: Any, label: str = "") -> None:
        self.bot = bot
        self.label = label or getattr(bot, "name", "") or type(bot).__name__
        self.game_start: Any = None
        self.turn: Any = None
        self.sent: list[Any] = []

    def start(self, game_start: Any) -> None:
        from mizerka.bot import call_hook

        self.game_start = game_start
        call_hook(self.bot, "on_game_start", game_start)

    def events(self, events: Sequence[Any]) -> None:
        from mizerka.bot import call_hook

        for e in events:
            call_hook(self.bot, "on_event", e)

    def decide(self, request: Any) -> Reply:
        from mizerka.bot import answer
        from mizerka.turn import Turn

        self.turn = Turn(request, self.game_start)
        ans = answer(self.bot, self.turn)
        self.sent = [ans.action]
        return Reply(ans.action, f"the SDK sent its fallback: {ans.reason}" if ans.fallback else None)

    def refused(self, error: Any) -> Reply | None:
        from mizerka.bot import retry_answer

        nxt = retry_answer(self.bot, self.turn, error, self.sent)
        if nxt is None:
            return None
        return Reply(nxt.action, f"the SDK sent its fallback: {nxt.reason}" if nxt.fallback else None)

    def end(self, game_end: Any) -> None:
        from mizerka.bot import call_hook

        call_hook(self.bot, "on_game_end", game_end)


class StdioDriver(Driver):
    """A program speaking the stdio JSON Lines protocol (docs/stdio-protocol.md), fed line by line as
    ``mizerka bot stdio -- CMD`` feeds it: a hello line, game_start, event lines, decide, error and
    game_end lines; one answer line per decide (and per error with retry).

    An answer line for another turn is answered with a STALE_TURN error line and not counted; an
    answer that does not come within ``timeout_s`` counts as no answer (the referee's TIMEOUT).
    """

    def __init__(self, command: Sequence[str], label: str = "", timeout_s: float = 10.0, events: bool = True) -> None:
        if not command:
            raise ValueError("no program given")
        self.command = list(command)
        self.label = label or " ".join(command)
        self.timeout_s = timeout_s
        self.send_events = events
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.ruleset: Any = None
        self.turn = 0
        self.strikes = 0

    def _spawn(self) -> None:
        from mizerka import stdio

        env = dict(os.environ, MIZERKA_STDIO_PROTOCOL=str(stdio.PROTOCOL))
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        except OSError as e:
            raise OSError(f"cannot start the program {self.command[0]!r}: {e}") from None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        self._send(stdio.hello_line(0, 1))

    def _read(self, stdout: Any) -> None:
        try:
            for line in iter(stdout.readline, b""):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def _send(self, obj: dict[str, Any]) -> None:
        import json

        if self.proc is None or self.proc.stdin is None or self.proc.stdin.closed:
            return
        try:
            self.proc.stdin.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def start(self, game_start: Any) -> None:
        from mizerka import stdio

        if self.proc is None:
            self._spawn()
        self.ruleset = game_start.ruleset
        self.strikes = 0
        self._send(stdio.game_start_line(game_start))

    def events(self, events: Sequence[Any]) -> None:
        from mizerka import stdio

        for e in events:
            if e.WhichOneof("kind") == "strike_counted":
                self.strikes = e.strike_counted.strikes
            if self.send_events:
                self._send(stdio.event_line(e))

    def _answer(self) -> Reply:
        from mizerka import stdio

        deadline = time.monotonic() + self.timeout_s
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                return Reply(None, f"no answer within {self.timeout_s:g} s", timed_out=True)
            if line is None:
                return Reply(None, "the program exited", timed_out=True)
            if not line.strip():
                continue
            try:
                action = stdio.action_from_line(line)
            except stdio.LineError as e:
                if e.turn is not None and e.turn != self.turn:
                    self._send(stdio.bridge_error_line(e.turn, "STALE_TURN", f"turn {e.turn} is not pending; the "
                                                       f"pending turn is {self.turn}: not sent", self.strikes))
                    continue
                return Reply(None, f"an answer line that is no answer: {e}")
            if action.turn != self.turn:
                self._send(stdio.bridge_error_line(action.turn, "STALE_TURN", f"turn {action.turn} is not pending; "
                                                   f"the pending turn is {self.turn}: not sent", self.strikes))
                continue
            return Reply(action)

    def decide(self, request: Any) -> Reply:
        from mizerka import stdio

        self.turn = request.turn
        self._send(stdio.decide_line(request, self.ruleset))
        return self._answer()

    def refused(self, error: Any) -> Reply | None:
        from mizerka import stdio

        self._send(stdio.error_line(error))
        return self._answer() if error.retry else None

    def end(self, game_end: Any) -> None:
        from mizerka import stdio

        self._send(stdio.game_end_line(game_end))

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.proc = None


class BotSpecError(ValueError):
    """A ``--bot`` value that names no bot."""


def make_driver(spec: str, timeout_s: float = 10.0) -> Driver:
    """``builtin:NAME`` (an SDK bot of ``mizerka.bots.BOTS``) or a command line of a stdio program."""
    import shlex

    spec = spec.strip()
    if spec.startswith("builtin:"):
        from mizerka.bots import BOTS

        name = spec.removeprefix("builtin:")
        if name not in BOTS:
            raise BotSpecError(f"no built-in bot {name!r}; built-in bots are {', '.join(sorted(BOTS))}")
        return SdkDriver(BOTS[name](), spec)
    try:
        command = shlex.split(spec)
    except ValueError as e:
        raise BotSpecError(f"{spec!r} is not a command line: {e}") from None
    if not command:
        raise BotSpecError("an empty bot: give builtin:NAME or the command of a stdio program")
    return StdioDriver(command, spec, timeout_s)


def builtin_style(seat: dict[str, Any]) -> str | None:
    """The built-in bot a logged seat was, if any: its Hello named a bot of ``mizerka.bots.BOTS`` with
    that bot's version (what ``mizerka bot NAME`` sends)."""
    from mizerka.bots import BOTS

    name, version = seat.get("hello_name"), seat.get("version")
    cls = BOTS.get(name) if isinstance(name, str) else None
    if cls is None:
        return None
    return name if str(getattr(cls, "version", "")) == str(version) else None


# ------------------------------------------------------------------------------ asking a bot
def same_action(a: Action | None, b: Action | None, rules: Ruleset) -> bool:
    """Equal as decisions: exchanges compare as card sets; a blind exchange's take is derived."""
    if a is None or b is None or type(a) is not type(b):
        return False
    if isinstance(a, Exchange):
        if set(a.discard) != set(b.discard) or len(a.discard) != len(b.discard):  # type: ignore[union-attr]
            return False
        if rules.exchange == "pick":
            return set(a.take or ()) == set(b.take or ())  # type: ignore[union-attr]
        return True
    if isinstance(a, Choose):
        contract = rules.contract(a.contract)
        if contract is not None and not contract.names_trump:
            return a.contract == b.contract  # type: ignore[union-attr]
    return a == b


@dataclass
class Asked:
    """What a bot finally answered to one decision (None: no legal answer) and what went wrong."""

    action: Action | None
    notes: list[str] = field(default_factory=list)
    refusals: int = 0
    timed_out: bool = False


def ask(driver: Driver, request: Any, legal: Callable[[Action], Any], max_retries: int) -> Asked:
    """Ask ``driver`` for ``request`` the way the referee does: refused answers get an ActionError
    (retry while at most ``max_retries`` were refused) and the bot may answer again.

    ``legal(action)`` returns None if the rules take the action, else the IllegalAction.
    """
    from mizerka_proto import referee_pb2

    from server import protocol

    driver.events(list(request.events))
    reply = driver.decide(request)
    asked = Asked(None)
    errors = 0
    while True:
        if reply.note:
            asked.notes.append(reply.note)
        if reply.timed_out:
            asked.timed_out = True
            return asked
        if reply.action is None:
            code, message = "MALFORMED", reply.note or "no action"
        else:
            try:
                action = protocol.action_from_proto(reply.action)
            except protocol.ProtocolError as e:
                code, message = e.code, e.message
            else:
                problem = legal(action)
                if problem is None:
                    asked.action = action
                    return asked
                code, message = problem.code, problem.message
        errors += 1
        asked.refusals += 1
        asked.notes.append(f"refused {code}: {message}")
        error = referee_pb2.ActionError(turn=request.turn, code=code, message=message, retry=errors <= max_retries)
        nxt = driver.refused(error)
        if not error.retry or nxt is None:
            return asked
        reply = nxt


def _legal_on_copy(game: Game, seat: int, logged: Action | None, rules: Ruleset) -> Callable[[Action], Any]:
    def check(action: Action) -> Any:
        if logged is not None and same_action(action, logged, rules):
            return None
        trial = copy.deepcopy(game)
        try:
            trial.apply(seat, action)
        except IllegalAction as e:
            return e
        return None

    return check


# ------------------------------------------------------------------------------ re-feeding
@dataclass
class Difference:
    step: Step
    bot: Action | None
    asked: Asked
    rules: Ruleset

    def __str__(self) -> str:
        s = self.step
        text = f"turn {s.turn} ({s.where}): log {describe_action(s.action, past=True)}, bot {describe_action(self.bot)}"
        notes = list(self.asked.notes)
        if s.default is not None:
            notes.append(f"the log's action was the referee's default: {s.default}")
        return text + (f" [{'; '.join(notes)}]" if notes else "")


@dataclass
class RefeedReport:
    seat: int
    label: str
    decisions: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.differences


def refeed(g: GameLog, seat: int, driver: Driver, on_difference: Callable[[Difference], None] | None = None) -> RefeedReport:
    """Send every recorded decision of ``seat`` to ``driver`` as the referee sent it (the same turn
    numbers, views and events) and compare the answers with the log. The game goes on with the
    logged actions whatever the bot answers. Decisions the referee took by default for the seat are
    asked too (their difference is marked with the default's reason)."""
    report = RefeedReport(seat, driver.label)
    max_retries = clock_settings(g).max_retries
    feed = SeatFeed(g, seat)

    def deliver(message: Message) -> None:
        if message.kind == "game_start":
            driver.start(message.proto)
        elif message.kind == "events":
            driver.events(message.proto)
        elif message.kind == "game_end":
            driver.end(message.proto)

    def before(game: Game, step: Step) -> None:
        if step.seat != seat:
            return
        if not feed.gone and step.default not in ("FORFEITED", "DISCONNECTED"):
            feed.before(game, step)
            message = feed.out.pop()
            request = message.proto
        else:  # the referee sent nothing here; the bot is asked all the same
            from server import protocol
            from server.engine.views import project

            decision = game.decision()
            assert decision is not None
            request = protocol.decision_to_proto(step.turn, decision, project(game, seat), feed.clock.decision_ms,
                                                 feed.seat_clock.bank_ms, feed.names, g.rules)
            if not feed.gone:
                request.events.extend(feed._pending(game))
        asked = ask(driver, request, _legal_on_copy(game, seat, step.action, g.rules), max_retries)
        report.decisions += 1
        if asked.action is None or not same_action(asked.action, step.action, g.rules):
            diff = Difference(step, asked.action, asked, g.rules)
            report.differences.append(diff)
            if on_difference is not None:
                on_difference(diff)

    def after(game: Game, step: Step) -> None:
        feed.after(game, step)
        while feed.out:
            deliver(feed.out.pop(0))

    try:
        feed.begin()
        deliver(feed.out.pop(0))
        verified = verify_game(g, before, after)
        feed.finish(verified)
        for message in feed.out:
            deliver(message)
        feed.out.clear()
    finally:
        driver.close()
    return report


# ------------------------------------------------------------------------------ re-running
@dataclass
class Rerun:
    game: Game
    names: list[str]
    defaults: list[int]
    refusals: list[int]


def rerun(g: GameLog, drivers: Sequence[Driver | None], names: Sequence[str]) -> Rerun:
    """Play the seed of ``g`` again in this process; ``drivers[s]`` plays seat s (None: the referee's
    default policy). Each bot gets the referee's messages (GameStart, events riding on its
    DecisionRequests, ActionErrors for refused answers, GameEnd); a bot that gives no legal answer
    gets the default (REFUSED, or TIMEOUT when it did not answer). No clock runs: every request
    offers the header clock's decision time and bank."""
    from mizerka_proto import game_pb2, referee_pb2

    from server import protocol
    from server.engine.views import project, project_events
    from server.policies import default_action

    rules = g.rules
    n = rules.players
    clock = clock_settings(g)
    game = Game(rules, seed=g.seed)
    names = list(names)
    encoders = [protocol.EventEncoder(rules) for _ in range(n)]
    cursors = [0] * n
    defaults, refusals = [0] * n, [0] * n

    def pending(seat: int) -> list[Any]:
        start, cursors[seat] = cursors[seat], len(game.log)
        return encoders[seat].encode_all(project_events(game, seat, start))

    ruleset = protocol.ruleset_to_proto(rules)
    clock_proto = protocol.clock_to_proto(clock)
    try:
        for s, d in enumerate(drivers):
            if d is not None:
                d.start(referee_pb2.GameStart(match_id=f"rerun:{g.match}", game_number=g.game, games=1, seat=s,
                                              names=names, ruleset=ruleset, clock=clock_proto))
        turn = 0
        while not game.finished:
            decision = game.decision()
            assert decision is not None
            seat = decision.seat
            turn += 1
            driver = drivers[seat]
            if driver is None:
                game.apply(seat, default_action(decision))
                continue
            request = protocol.decision_to_proto(turn, decision, project(game, seat), clock.decision_ms, clock.bank_ms,
                                                 names, rules)
            request.events.extend(pending(seat))

            def apply_now(action: Action, seat: int = seat) -> IllegalAction | None:
                try:
                    game.apply(seat, action)  # a refused action changes nothing
                except IllegalAction as e:
                    return e
                return None

            asked = ask(driver, request, apply_now, clock.max_retries)
            refusals[seat] += asked.refusals
            if asked.action is not None:  # applied already
                continue
            action = default_action(decision)
            game.apply(seat, action)
            defaults[seat] += 1
            reason = "TIMEOUT" if asked.timed_out else "REFUSED"
            driver.events([*pending(seat), protocol.default_applied_to_proto(turn, action, reason)])
        totals = list(game.totals)
        ranks = protocol.ranks(totals)
        results = protocol.results_to_proto(game.results)
        seats = [game_pb2.SeatRecord(seat=s, name=names[s], total=totals[s], rank=ranks[s], refusals=refusals[s],
                                     defaults_applied=defaults[s]) for s in range(n)]
        for s, d in enumerate(drivers):
            if d is not None:
                d.events(pending(s))
                d.end(referee_pb2.GameEnd(match_id=f"rerun:{g.match}", game_number=g.game, seat=s, rank=ranks[s],
                                          totals=totals, results=results, seats=seats))
    finally:
        for d in drivers:
            if d is not None:
                d.close()
    return Rerun(game, names, defaults, refusals)
