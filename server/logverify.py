"""Re-executing a logged game through the engine, checking that every logged outcome follows.

The log is the FULL projection of ``Game.log``: deals carry their cards, so the game is rebuilt
from the logged deals and actions alone, and every derived event (settled contract, trick
winner, deal result, game end) must come out the same.

- :func:`replay_log`: rebuild a stored game (Watch uses it); raises :class:`ReplayError`.
- :func:`verify_game`: verify one game of a match log (server/codec/matchlog.py, docs/match-log.md) line
  by line -- its deals against its seed, every action against the rules, every derived line, the end
  line's totals, ranks and fault counts -- raising :class:`Divergence` with the first line that does
  not follow. Callbacks see the game just before and after each recorded action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from mizerka_engine.actions import Action, Choose, Exchange, Major, Play
from mizerka_engine.cards import SUITS
from mizerka_engine.dealing import Deal
from mizerka_engine.events import (
    ACTION_EVENTS,
    ActionEvent,
    ContractAnnounced,
    DealScored,
    Dealt,
    Event,
    Exchanged,
    GameOver,
    MajorAnnounced,
    Played,
    Revoked,
    Settled,
    TrickTaken,
)
from mizerka_engine.game import Game, IllegalAction, Phase, ranks
from mizerka_engine.rules import Ruleset
from server.codec.matchlog import GameLog, LogLine
from server.describe import cards_text, deal_name, describe, pending_text, signed
from server.policies import DefaultReason
from server.text import counted


class ReplayError(ValueError):
    """The log does not follow from its own deals and actions; names the first divergence."""


class Divergence(ReplayError):
    """The first line of a match log that does not follow from the rules; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def logged_action(rules: Ruleset, entry: ActionEvent) -> Action:
    """The action a logged event records (the talon cards a blind exchange took are derived).
    The report's replay pages (tournaments/report.py) step through games with it too."""
    match entry:
        case ContractAnnounced(_, name, trump):
            contract = rules.contract(name)
            return Choose(name, trump if contract is not None and contract.names_trump else None)
        case MajorAnnounced(_, name):
            return Major(name)
        case Exchanged(_, _, discard, take):
            if discard is None:
                raise ReplayError("an exchange whose cards are hidden records no action (it is not a full log)")
            return Exchange(discard, tuple(take or ()) if rules.pick else None)
        case Played(_, card) | Revoked(_, card):
            return Play(card)
    raise TypeError(f"{entry!r} records no action")


def _deals(entries: Iterable[Event]) -> list[Deal]:
    """The logged deals, to feed a fresh Game; a deal without cards stops the list."""
    out = []
    for e in entries:
        if isinstance(e, Dealt):
            if e.hands is None or e.talon is None:
                break
            out.append(Deal(e.hands, e.talon, e.declarer))
    return out


def replay_log(rules: Ruleset, seed: str, entries: Iterable[Event]) -> Game:
    entries = list(entries)
    first = next((e for e in entries if isinstance(e, Dealt)), None)
    if first is None:
        raise ReplayError("the log has no deal")
    if first.hands is None:
        raise ReplayError("the log holds no cards (it is not a full log)")
    deals = iter(_deals(entries))
    game = Game(rules, seed=seed, first_dealer=first.dealer, deal_source=lambda d, r: next(deals, None))
    for i, entry in enumerate(entries):
        if isinstance(entry, ACTION_EVENTS):
            seat = entry.seat
            action = logged_action(rules, entry)
            try:
                game.apply(seat, action)
            except IllegalAction as e:
                raise ReplayError(f"entry {i} ({entry.kind} by seat {seat}): the engine refuses it: {e.message}") from None
        got = game.log[i] if i < len(game.log) else None
        if got != entry:
            raise ReplayError(f"entry {i}: the log says {entry!r}, the rules give {got!r}")
    if len(game.log) != len(entries):
        raise ReplayError(f"the rules give {len(game.log) - len(entries)} more entries than the log holds")
    return game


def _difference(logged: Event, got: Event) -> str:
    """Why a logged event is not the one the rules give, in words."""
    plain = f"the log says {describe(logged)}, the rules give {describe(got)}"
    match logged, got:
        case TrickTaken(), TrickTaken():
            return f"the log says trick won by seat {logged.winner}, the rules give seat {got.winner}"
        case Settled(), Settled():
            return (f"the log says the contract settles as {logged.label} with seat {logged.declarer} declarer, "
                    f"the rules give {got.label} with seat {got.declarer} declarer")
        case Dealt(), Dealt():
            return _deal_difference(logged, got) or plain
        case Exchanged(), Exchanged() if (logged.seat, logged.discard) == (got.seat, got.discard):
            return (f"the log says seat {logged.seat} takes {cards_text(logged.take or ())} from the talon, "
                    f"the rules give {cards_text(got.take or ())}")
        case DealScored(), DealScored():
            return _result_difference(logged, got) or plain
        case GameOver(), GameOver():
            return f"the log says the game ends with totals {signed(logged.totals)}, the rules give {signed(got.totals)}"
    return plain


def _deal_difference(logged: Dealt, got: Dealt) -> str | None:
    d = deal_name(got.deal_no, got.redeal, got.tiebreak)
    head = (logged.deal_no, logged.redeal, logged.tiebreak, logged.dealer, logged.declarer)
    if head != (got.deal_no, got.redeal, got.tiebreak, got.dealer, got.declarer):
        return None
    hands, want = logged.hands or (), got.hands or ()
    if len(hands) != len(want):
        return f"the log says {d} has {len(hands)} hands, the rules give {len(want)}"
    for s, (a, b) in enumerate(zip(hands, want)):
        if a != b:
            extra, missing = [c for c in a if c not in b], [c for c in b if c not in a]
            if extra or missing:
                return (f"the log says seat {s} is dealt {cards_text(extra)} in {d}, "
                        f"the seed deals it {cards_text(missing)}")
            return (f"the log deals seat {s}'s cards of {d} in another order than the seed "
                    "(the order decides which cards the declarer sees before choosing)")
    talon, want_talon = logged.talon or (), got.talon or ()
    if talon != want_talon:
        extra, missing = [c for c in talon if c not in want_talon], [c for c in want_talon if c not in talon]
        if extra or missing:
            return f"the log says the talon of {d} holds {cards_text(extra)}, the seed gives {cards_text(missing)}"
        return f"the log orders the talon of {d} differently from the seed (the order decides what an exchange takes)"
    return None


def _result_difference(logged: DealScored, got: DealScored) -> str | None:
    a, b = logged.result, got.result
    d = deal_name(b.deal_no, b.redeal, b.tiebreak)
    for what, x, y, show in (
        ("is numbered", (a.deal_no, a.redeal, a.tiebreak), (b.deal_no, b.redeal, b.tiebreak), lambda t: deal_name(*t)),
        ("is played as", a.label, b.label, str),
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
    if logged.totals != got.totals:
        return f"the log says the totals after {d} are {signed(logged.totals)}, the rules give {signed(got.totals)}"
    return None


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
    def default(self) -> DefaultReason | None:
        """Why the referee played this turn's action for the seat (the log's ``"default"``), or None."""
        reason = self.line.meta.get("default")
        return None if reason is None else DefaultReason(reason)

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
        return ranks(self.game.totals)

    def summary(self) -> str:
        results = self.game.results
        void = sum(r.void for r in results)
        tiebreaks = sum(r.tiebreak and not r.void for r in results)
        extra = ", ".join(x for x in (f"{void} void" if void else "", f"{tiebreaks} tie-break" if tiebreaks else "") if x)
        return (f"{counted(self.deals, 'deal')}{f' ({extra})' if extra else ''}, totals {signed(self.totals)}, "
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
        if isinstance(e, ACTION_EVENTS):
            if k < len(game.log):
                raise Divergence(ln.lineno, f"the log says {describe(e)}, but the rules give {describe(game.log[k])} first")
            if game.finished:
                raise Divergence(ln.lineno, f"the log says {describe(e)}, but the game is already over")
            seat = e.seat
            if seat != game.to_act:
                raise Divergence(ln.lineno, f"the log says {describe(e)}, but {pending_text(game)}")
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
            raise Divergence(ln.lineno, f"the log says {describe(e)}, but the rules give nothing more here: {pending_text(game)}")
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
        raise Divergence(where, f"the log stops before the game is over: {pending_text(game)}")
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
            ("timeouts", sum(x.default is DefaultReason.TIMEOUT for x in mine), "timeouts"),
        ):
            said = seats[s].get(key)
            if said is not None and said != count:
                raise Divergence(line, f"the log says seat {s} had {said} {what}, its action lines show {count}")


def verify_log(games: Sequence[GameLog]) -> list[Verified]:
    return [verify_game(g) for g in games]
