"""Re-executing a logged game through the engine, checking that every logged outcome follows.

The log is the FULL projection of ``Game.log``: deals carry their cards, so the game is rebuilt
from the logged deals and actions alone, and every derived entry (settled contract, trick
winner, deal result, game end) must come out the same.

- :func:`replay_log`: rebuild a stored game (Watch uses it); raises :class:`ReplayError`.
- :func:`verify_game`: verify one game of a match log (server/matchlog.py, docs/match-log.md) line
  by line -- its deals against its seed, every action against the rules, every derived line, the end
  line's totals, ranks and fault counts -- raising :class:`Divergence` with the first line that does
  not follow. Callbacks see the game just before and after each recorded action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from server import protocol
from server.describe import cards_text, deal_name, describe, pending_text, signed
from server.engine.cards import SUITS
from server.engine.dealing import Deal
from server.engine.game import Action, Choose, Exchange, Game, IllegalAction, Major, Phase, Play
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
        return protocol.ranks(self.game.totals)

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
            ("timeouts", sum(x.default == "TIMEOUT" for x in mine), "timeouts"),
        ):
            said = seats[s].get(key)
            if said is not None and said != count:
                raise Divergence(line, f"the log says seat {s} had {said} {what}, its action lines show {count}")


def verify_log(games: Sequence[GameLog]) -> list[Verified]:
    return [verify_game(g) for g in games]
