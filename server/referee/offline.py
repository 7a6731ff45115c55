"""The turn loop driven without a network: bots in this process, and logged games re-enacted.

Every function here drives :class:`~server.referee.session.GameSession`, the referee's own turn loop,
so a bot gets the messages it would get on a Play stream -- the same GameStart, events riding on
DecisionRequests, ActionErrors (retry, stale turns), DefaultApplied, strikes and GameEnd:

- :func:`play`: one game with a :class:`SeatDriver` per seat (self-play, reruns);
- :func:`reenact`: a logged game played again through the session with the logged answers and
  faults, so the messages each seat received are rebuilt (:func:`seat_messages`);
- :func:`refeed`: the same, asking a bot every decision of one seat on a copy of the session and
  comparing its answers with the log.

No clock runs offline: an answer takes no time (the seat's bank only grows by its increment), a
driver that gives no answer has timed out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mizerka_engine.game import Action, Choose, Exchange
from mizerka_engine.rules import Ruleset
from mizerka_proto import referee_pb2
from server.codec import protocol
from server.codec.matchlog import GameLog
from server.describe import describe_action
from server.logverify import Divergence, Step, logged_action, verify_game
from server.policies import DefaultReason
from server.referee.session import Disconnected, GameRecord, GameSession, Outgoing, SeatInfo
from server.settings import ClockSettings

# Offline games report their faults in their records; their strikes are nobody's log lines.


class SeatDriver(Protocol):
    """A bot as the offline referee reaches it: messages in, answers out, synchronously.

    ``receive`` returns the bot's next message, or None when it gives none (a timeout); either
    raises :class:`Disconnected` once the bot is gone. ``label`` names it in reports.
    """

    label: str
    live_events: bool

    def send(self, message: referee_pb2.RefereeMessage) -> None: ...

    def receive(self) -> referee_pb2.BotMessage | None: ...

    def close(self) -> None: ...


def _deliver(session: GameSession, drivers: Sequence[SeatDriver | None]) -> None:
    while session.outbox:
        for out in session.take():
            driver = drivers[out.seat]
            if driver is None or not session.connected[out.seat]:
                continue
            try:
                driver.send(out.message)
            except Disconnected:
                session.disconnect(out.seat)


def _resolve(session: GameSession, driver: SeatDriver, deliver: Callable[[], None]) -> None:
    """Ask ``driver`` until the session has settled the pending turn; ``deliver`` sends what the
    session queued after each answer."""
    ask = session.pending
    while ask is not None and session.pending is ask:
        try:
            message = driver.receive()
        except Disconnected:
            session.disconnect(ask.seat)
        else:
            if message is None:
                session.time_out()
            else:
                session.answer(message, 0.0)
        deliver()


def play(
    rules: Ruleset,
    seed: str,
    drivers: Sequence[SeatDriver | None],
    names: Sequence[str],
    clock: ClockSettings | None = None,
    *,
    match_id: str = "offline",
    game_index: int = 0,
) -> GameRecord:
    """Play one game with a driver per seat (None: nobody, the referee's default plays the seat)."""
    seats = [SeatInfo(present=False) if d is None else SeatInfo(True, d.live_events) for d in drivers]
    session = GameSession(match_id, rules, seed, game_index, seats, names, clock or ClockSettings())
    session.start()
    _deliver(session, drivers)
    while (ask := session.next_ask()) is not None:
        _deliver(session, drivers)
        driver = drivers[ask.seat]
        assert driver is not None  # a seat without a driver is forfeited: the session plays it
        _resolve(session, driver, lambda: _deliver(session, drivers))
    _deliver(session, drivers)
    return session.record()


# ------------------------------------------------------------------------------ logged games
@dataclass(frozen=True, slots=True)
class SeatMessage:
    """A message the referee sent a seat; a DecisionRequest carries the logged :class:`Step` it asked."""

    message: referee_pb2.RefereeMessage
    step: Step | None = None


Observer = Callable[[Outgoing, Step | None], None]
Asker = Callable[[GameSession, Step], None]


def reenact(g: GameLog, observe: Observer, ask: Asker | None = None) -> GameRecord:
    """Play ``g`` again through the session with its logged answers and faults; ``observe`` sees each
    message the referee sent (with the step a DecisionRequest asked). ``ask(session, step)`` runs
    while a logged step is pending, before its logged outcome is applied. Raises
    :class:`~server.logverify.Divergence` where the log does not follow."""
    steps = verify_game(g).steps
    header = g.header
    session = GameSession(g.match, g.rules, g.seed, g.game, [SeatInfo() for _ in g.names], g.names,
                          g.clock, int(header.get("games") or 1))
    current: list[Step | None] = [None]
    # Refused and stale answers leave no line in the log, only their counts on the end line.
    for record, logged in zip(session.records, (g.end or {}).get("seats") or [], strict=False):
        record.refusals, record.malformed, record.stale = (int(logged.get(k) or 0) for k in ("refusals", "malformed", "stale"))

    def flush() -> None:
        for out in session.take():
            asked = current[0] if out.message.WhichOneof("message") == "decision_request" else None
            observe(out, asked)

    session.start()
    flush()
    i = 0
    while True:
        pending = session.next_ask()
        upto = pending.turn if pending is not None else 1 << 62
        while i < len(steps) and steps[i].turn < upto:  # turns the session played by default itself
            _check_default(session, steps[i])
            i += 1
        if pending is None:
            break
        if i >= len(steps) or (steps[i].turn, steps[i].seat) != (pending.turn, pending.seat):
            raise Divergence(g.last_line, f"the referee would ask seat {pending.seat} for turn {pending.turn} here, "
                                          "the log's faults say otherwise")
        step = steps[i]
        i += 1
        current[0] = step
        flush()
        current[0] = None
        if ask is not None:
            ask(session, step)
        _apply_logged(session, step)
        flush()
    flush()
    return session.record()


def _check_default(session: GameSession, step: Step) -> None:
    played = next((t for t in reversed(session.turns) if t.turn == step.turn), None)
    reason = played.default if played is not None else None
    if reason is None or reason != step.default:
        raise Divergence(step.line.lineno, f"the log says turn {step.turn} was {step.default or 'answered'}, the "
                                           f"referee's rules give {reason or 'a request'}")


def _apply_logged(session: GameSession, step: Step) -> None:
    reason = step.default
    ms = float(step.ms or 0.0)
    if reason is None:
        session.answer(referee_pb2.BotMessage(action=protocol.action_to_proto(step.action, step.turn)), ms)
    elif reason == DefaultReason.TIMEOUT:
        session.time_out()
    elif reason == DefaultReason.DISCONNECTED:
        session.disconnect(step.seat, ms)
    elif reason == DefaultReason.REFUSED:
        session.default(DefaultReason.REFUSED, ms)
    else:
        raise Divergence(step.line.lineno, f"the log says turn {step.turn} was {reason}, but the seat was not forfeited")
    if session.pending is not None:
        raise Divergence(step.line.lineno, f"the logged answer to turn {step.turn} does not settle it")


def seat_messages(g: GameLog, seat: int) -> list[SeatMessage]:
    """Every message the referee sent ``seat`` in ``g``, rebuilt by re-enacting the game."""
    if not 0 <= seat < g.rules.players:
        raise ValueError(f"{g.rules.preset} has seats 0..{g.rules.players - 1}, not {seat}")
    out: list[SeatMessage] = []
    reenact(g, lambda o, step: out.append(SeatMessage(o.message, step)) if o.seat == seat else None)
    return out


# ------------------------------------------------------------------------------ re-feeding
def same_action(a: Action | None, b: Action | None, rules: Ruleset) -> bool:
    """Equal as decisions: exchanges compare as card sets; a blind exchange's take is derived."""
    if a is None or b is None or type(a) is not type(b):
        return False
    if isinstance(a, Exchange):
        if set(a.discard) != set(b.discard) or len(a.discard) != len(b.discard):  # type: ignore[union-attr]
            return False
        if rules.pick:
            return set(a.take or ()) == set(b.take or ())  # type: ignore[union-attr]
        return True
    if isinstance(a, Choose):
        contract = rules.contract(a.contract)
        if contract is not None and not contract.names_trump:
            return a.contract == b.contract  # type: ignore[union-attr]
    return a == b


@dataclass
class Difference:
    """A decision where the bot's answer is not the logged one (``bot`` None: no legal answer)."""

    step: Step
    bot: Action | None
    default: DefaultReason | None  # how the referee would have settled the bot's answers

    def __str__(self) -> str:
        s = self.step
        text = f"turn {s.turn} ({s.where}): log {describe_action(s.action, past=True)}, bot {describe_action(self.bot)}"
        notes = []
        if self.default is not None:
            notes.append(f"the referee would have applied its default: {self.default}")
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


def refeed(g: GameLog, seat: int, driver: SeatDriver,
           on_difference: Callable[[Difference], None] | None = None) -> RefeedReport:
    """Send ``driver`` every message the referee sent ``seat`` in ``g`` and compare its answers to
    each of the seat's decisions with the log. Its answers are played on a copy of the session
    (so a refused answer gets the referee's ActionError and the bot may answer again); the game
    then goes on with the logged outcome whatever the bot answered."""
    report = RefeedReport(seat, driver.label)

    def observe(out: Outgoing, step: Step | None) -> None:
        if out.seat == seat:
            try:
                driver.send(out.message)
            except Disconnected:
                pass

    def ask(session: GameSession, step: Step) -> None:
        if step.seat != seat:
            return
        trial = copy.deepcopy(session)  # the bot's answers are played here; the log's on the session
        trial.take()

        def forward_errors() -> None:  # only the ActionErrors: what follows is the log's outcome
            for out in trial.take():
                if out.seat == seat and out.message.WhichOneof("message") == "action_error":
                    driver.send(out.message)

        _resolve(trial, driver, forward_errors)
        report.decisions += 1
        played = trial.turns[-1] if trial.turns and trial.turns[-1].turn == step.turn else None
        bot = None
        if played is not None and played.default is None:
            bot = logged_action(g.rules, trial.game.log[played.entry])
        if played is None or played.default is not None or not same_action(bot, step.action, g.rules):
            diff = Difference(step, bot, played.default if played is not None else None)
            report.differences.append(diff)
            if on_difference is not None:
                on_difference(diff)

    try:
        reenact(g, observe, ask)
    finally:
        driver.close()
    return report
