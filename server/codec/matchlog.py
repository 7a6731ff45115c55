"""Match logs: the versioned JSON Lines file every finished game can be exported to
(docs/match-log.md), and the one codec between its lines and the wire's events.

A game's log is a header line, one line per ``Game.log`` event of the FULL projection (keyed
``"type"``; action lines carry the referee's per-turn metadata ``turn``, ``ms``, ``default``), and
an end line. The referee stores the entry lines as they are (the ``games.log`` column), so an export
is the stored header, the stored lines and an end line, with no conversion.

The proto is the schema: a line is the JSON form of a wire Event (:func:`line_from_event`, and back
with :func:`event_from_line`), and engine events reach and leave the wire only through
:mod:`server.codec.wire_events` (:func:`log_lines` and :func:`entry_from_line` compose the two). The
mapping from the proto's field names to the log's keys lives in that one pair of functions.
:func:`parse_match_log` reads a file back, strictly: a line that is not what the format says raises
:class:`MatchLogError` naming the line.

A contract is written as the ruleset's name with a ``"major"`` flag (``"contract": "hearts",
"major": true``) in settled and result lines; the wire says the label (``"hearts major"``) and the
flag, and the ruleset maps a label back to its name. Logs written before the flag carry the label
instead (``"contract": "hearts major"``, no ``"major"`` key): the label the wire carries, read as
the same events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from mizerka_engine.events import ACTION_EVENTS, EVENT_TYPES, Dealt, Event, Exchanged, GameOver, contract_label
from mizerka_engine.rules import RulesError, Ruleset, load_ruleset
from mizerka_proto import events_pb2, game_pb2
from server.codec.protocol import ProtocolError
from server.codec.wire_events import contract_name, event_from_proto, event_to_proto
from server.policies import DefaultReason
from server.settings import ClockSettings

FORMAT = "mizerka-match-log"
VERSION = 1
#: Entries that record a seat's decision (one per turn); the others follow from them and the deal.
ACTION_KINDS = frozenset(t.kind for t in ACTION_EVENTS)
ENTRY_KINDS = tuple(t.kind for t in EVENT_TYPES)
#: How logs written before the ``"major"`` flag marked a major contract: a suffix on its label.
_OLD_MAJOR_SUFFIX = " major"
#: The per-turn metadata keys of an action line.
TURN_KEYS = ("turn", "ms", "default")
#: The metadata of an action line whose turn the referee recorded nothing of (games stored before it did).
NO_TURN: Mapping[str, Any] = dict.fromkeys(TURN_KEYS)


class MatchLogError(ValueError):
    """A match log that cannot be read: bad JSON, a missing header, an unknown version, a line that
    lacks a field. ``line`` is the 1-based line number (0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


# ------------------------------------------------------------------------ lines <-> wire events
def _suit(trump: str) -> str | None:
    """The wire's trump ("" for none) as the log writes it (null for none)."""
    return trump or None


def _wire_text(value: str | None, what: str) -> str:
    """A log's string-or-null (a trump, a major's contract) as the wire's string, "" for null; a
    written "" is refused, as it is no suit or contract and the log says none with null."""
    if value == "":
        raise ValueError(f"'' is not {what}: write null for none")
    return value or ""


def _label(line: Mapping[str, Any]) -> tuple[str, bool]:
    """The wire's contract label and major flag of a settled or result line: the name and
    ``"major"`` if written, else (a log from before the flag) the label itself, its suffix the flag."""
    if "major" in line:
        return contract_label(line["contract"], line["major"]), line["major"]
    label = line["contract"]
    return label, label.endswith(_OLD_MAJOR_SUFFIX)


def result_line(msg: game_pb2.DealResult, rules: Ruleset) -> dict[str, Any]:
    """A deal's result as the log writes it (a result line's fields but ``type``, and each entry of
    the games table's ``deals``): the contract by ``rules``' name with the major flag."""
    return {
        "deal": msg.deal, "redeal": msg.redeal, "tiebreak": msg.tiebreak, "dealer": msg.dealer, "declarer": msg.declarer,
        "caller": msg.caller, "contract": contract_name(rules, msg.contract, msg.major), "major": msg.major,
        "trump": _suit(msg.trump), "tricks": list(msg.tricks), "points": list(msg.points), "void": msg.void,
        "revoker": msg.revoker if msg.HasField("revoker") else None, "totals": list(msg.totals),
    }


def result_from_line(line: Mapping[str, Any]) -> game_pb2.DealResult:
    """The inverse of :func:`result_line` (a result line, a stored deal, or one written before the
    major flag)."""
    label, major = _label(line)
    msg = game_pb2.DealResult(
        deal=line["deal"], redeal=line["redeal"], tiebreak=line["tiebreak"], dealer=line["dealer"], declarer=line["declarer"],
        caller=line["caller"], contract=label, major=major, trump=_wire_text(line["trump"], "a trump suit"),
        tricks=line["tricks"], points=line["points"], void=line["void"], totals=line["totals"],
    )
    if line["revoker"] is not None:
        msg.revoker = line["revoker"]
    return msg


def line_from_event(msg: events_pb2.Event, rules: Ruleset, turn: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The log line of a wire Event of the FULL projection, ``turn`` (:data:`TURN_KEYS`) added to an
    action line; ``rules`` names a settled or scored contract. ValueError for the referee's own
    events (DefaultApplied, StrikeCounted), which the log tells in the action lines' ``default``."""
    which = msg.WhichOneof("kind")
    line: dict[str, Any]
    if which == "card_played":
        line = {"type": "play", "seat": msg.card_played.seat, "card": msg.card_played.card}
    elif which == "trick_won":
        line = {"type": "trick", "winner": msg.trick_won.winner}
    elif which == "deal_started":
        x = msg.deal_started
        line = {"type": "deal", "deal": x.deal, "redeal": x.redeal, "tiebreak": x.tiebreak, "dealer": x.dealer, "declarer": x.declarer}
        if x.hands:  # the FULL projection keeps the cards
            line.update(hands=[list(h.cards) for h in x.hands], talon=list(x.talon))
    elif which == "cards_exchanged":
        x = msg.cards_exchanged
        line = ({"type": "exchange", "seat": x.seat, "discard": list(x.discarded), "take": list(x.taken)} if x.cards_known
                else {"type": "exchange", "seat": x.seat, "count": x.count})  # another seat's: only the count is known
    elif which == "contract_announced":
        x = msg.contract_announced
        line = {"type": "contract", "seat": x.seat, "contract": x.contract, "trump": _suit(x.trump)}
    elif which == "major_announced":
        line = {"type": "major", "seat": msg.major_announced.seat, "contract": msg.major_announced.contract or None}
    elif which == "contract_settled":
        x = msg.contract_settled
        line = {"type": "settled", "declarer": x.declarer, "contract": contract_name(rules, x.contract, x.major), "major": x.major,
                "trump": _suit(x.trump)}
    elif which == "revoked":
        line = {"type": "revoke", "seat": msg.revoked.seat, "card": msg.revoked.card}
    elif which == "deal_ended":
        line = {"type": "result", **result_line(msg.deal_ended.result, rules)}
    else:
        raise ValueError(f"a {which} event has no log line")
    if turn is not None:
        line.update(turn)
    return line


def event_from_line(line: Mapping[str, Any]) -> events_pb2.Event:
    """The wire Event of a log line: the inverse of :func:`line_from_event` (what the log does not
    say, a trick's number and a settled contract's quotas, follows from the stream and the rules).
    KeyError for a missing field, ValueError or TypeError for a value the wire cannot hold."""
    kind = line["type"]
    if kind == "play":
        return events_pb2.Event(card_played=events_pb2.CardPlayed(seat=line["seat"], card=line["card"]))
    if kind == "trick":
        return events_pb2.Event(trick_won=events_pb2.TrickWon(winner=line["winner"]))
    if kind == "deal":
        started = events_pb2.DealStarted(deal=line["deal"], redeal=line["redeal"], tiebreak=line["tiebreak"], dealer=line["dealer"],
                                          declarer=line["declarer"])
        if "hands" in line:
            started.hands.extend(game_pb2.SeatCards(seat=s, cards=h) for s, h in enumerate(line["hands"]))
            started.talon.extend(line["talon"])
        return events_pb2.Event(deal_started=started)
    if kind == "exchange":
        if "count" in line:
            return events_pb2.Event(cards_exchanged=events_pb2.CardsExchanged(seat=line["seat"], count=line["count"]))
        discard = line["discard"]
        return events_pb2.Event(cards_exchanged=events_pb2.CardsExchanged(
            seat=line["seat"], count=len(discard), cards_known=True, discarded=discard, taken=line["take"]))
    if kind == "contract":
        return events_pb2.Event(contract_announced=events_pb2.ContractAnnounced(
            seat=line["seat"], contract=line["contract"], trump=_wire_text(line["trump"], "a trump suit")))
    if kind == "major":
        return events_pb2.Event(major_announced=events_pb2.MajorAnnounced(
            seat=line["seat"], contract=_wire_text(line["contract"], "a contract")))
    if kind == "settled":
        label, major = _label(line)
        return events_pb2.Event(contract_settled=events_pb2.ContractSettled(
            declarer=line["declarer"], contract=label, major=major, trump=_wire_text(line["trump"], "a trump suit")))
    if kind == "revoke":
        return events_pb2.Event(revoked=events_pb2.Revoked(seat=line["seat"], card=line["card"]))
    if kind == "result":
        return events_pb2.Event(deal_ended=events_pb2.DealEnded(result=result_from_line(line)))
    raise ValueError(f"a {kind!r} line is no wire event")


# ------------------------------------------------------------------------ lines <-> the engine's log
def over_line(totals: Sequence[int]) -> dict[str, Any]:
    """The log's last entry line, the engine's GameOver. It has no wire Event to be the form of: a
    seat learns the game's end from GameEnd, a message of its own with more than the totals, so the
    line is written (and read back, :func:`entry_from_line`) here, beside the codec."""
    return {"type": "over", "totals": list(totals)}


def log_lines(events: Iterable[Event], rules: Ruleset, turns: Iterable[Any] = ()) -> list[dict[str, Any]]:
    """The entry lines of a FULL-projected log (what the games table stores and a file holds), each
    action line with its turn's metadata.

    ``turns`` are the referee's per-turn records (``entry``, ``turn``, ``time_ms``, ``default``;
    :class:`server.referee.session.TurnRecord`), aligned with the log by ``entry``; an action the
    referee recorded no turn of gets null metadata.
    """
    meta = {t.entry: {"turn": t.turn, "ms": round(t.time_ms), "default": t.default} for t in turns}
    out = []
    for i, e in enumerate(events):
        if isinstance(e, GameOver):
            out.append(over_line(e.totals))
            continue
        msg = event_to_proto(e)
        assert msg is not None  # every event but GameOver has its wire Event
        out.append(line_from_event(msg, rules, meta.get(i, NO_TURN) if isinstance(e, ACTION_EVENTS) else None))
    return out


def entry_from_line(line: Mapping[str, Any], rules: Ruleset) -> Event:
    """The engine event of an entry line (of a file or the games table): :func:`event_from_line`,
    then :func:`~server.codec.wire_events.event_from_proto`; an ``over`` line (:func:`over_line`) directly.
    Raises as those do, and ProtocolError for what is no card, suit or contract of ``rules``."""
    if line["type"] == "over":
        return GameOver(tuple(line["totals"]))
    entry = event_from_proto(event_from_line(line), rules)
    assert entry is not None  # a line is never one of the referee's own events
    return entry


# ------------------------------------------------------------------------------- the header
def make_header(
    *,
    match_id: str,
    game: int,
    games: int,
    rules: Ruleset,
    seed: str,
    names: Sequence[str],
    versions: Sequence[str | None] = (),
    hello_names: Sequence[str | None] = (),
    bot_ids: Sequence[str | None] = (),
    clock: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The header line of one game's log."""
    seats = []
    for s, name in enumerate(names):
        seat: dict[str, Any] = {"seat": s, "name": name}
        if bot_ids:
            seat["bot_id"] = bot_ids[s]
        seat["hello_name"] = hello_names[s] if hello_names else None
        seat["version"] = versions[s] if versions else None
        seats.append(seat)
    return {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "match": match_id,
        "game": game,
        "games": games,
        "preset": rules.preset,
        "options": dict(rules.options),
        "ruleset": rules.describe(),
        "seed": seed,
        "seats": seats,
        "clock": dict(clock) if clock is not None else None,
    }


def header_from_record(record: Any, rules: Ruleset, bot_ids: Sequence[str | None] = ()) -> dict[str, Any]:
    """The header of a finished game from the referee's GameRecord."""
    return make_header(
        match_id=record.match_id, game=record.game_index, games=record.games, rules=rules, seed=record.seed,
        names=record.names, versions=record.versions, hello_names=record.hello_names, bot_ids=bot_ids,
        clock=asdict(record.clock) if record.clock is not None else None,
    )


# --------------------------------------------------------------------------------- the file
def end_line(totals: Sequence[int], ranks: Sequence[int], seats: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "type": "end",
        "totals": list(totals),
        "ranks": list(ranks),
        "seats": [{"seat": s, **dict(r)} for s, r in enumerate(seats)],
    }


def game_lines(header: Mapping[str, Any], stored: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One game's file lines from its header and its stored record (``log``, ``totals``, ``ranks``,
    ``seats`` as in the games table): the stored lines are the file's."""
    return [dict(header), *stored["log"], end_line(stored["totals"], stored["ranks"], stored["seats"])]


def dumps(lines: Iterable[Mapping[str, Any]]) -> str:
    """JSON Lines: one compact object per line, each ending with a newline."""
    return "".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n" for line in lines)


# ------------------------------------------------------------------------------- the store
def legacy_header(row: Any, index: int, seed: str, names: Sequence[str]) -> dict[str, Any]:
    """A header for a game stored before headers were (no Hello names or versions known)."""
    return make_header(
        match_id=row.id, game=index, games=row.games, rules=load_ruleset(row.preset, row.options), seed=seed,
        names=names, bot_ids=list(row.seats), clock=row.clock,
    )


def stored_game_lines(store: Any, match_id: str, index: int) -> list[dict[str, Any]] | None:
    """The file lines of game ``index`` of a stored match, or None if that game is not stored."""
    stored = store.game_row(match_id, index)
    if stored is None:
        return None
    header = stored.get("header")
    if not header:
        row = store.match(match_id)
        names = store.seat_names(row.seats)
        header = legacy_header(row, index, stored["seed"], names)
    return game_lines(header, stored)


# ------------------------------------------------------------------------------- line shapes
#: The deepest nesting a line of this format needs (a deal line's hands: object, list, hand) with room
#: to spare. A deeper line is refused as it is read, before anything walks it recursively.
MAX_DEPTH = 16
#: Counts, turns and milliseconds fit the wire's 32-bit fields; points and totals JSON's exact integers,
#: but a result line's, which are the wire's DealResult (sint32).
MAX_COUNT = 2**31 - 1
MAX_POINTS = 2**53


class _Wrong(Exception):
    """A value of a line not of its shape: where (``seats[1].name``) and what it must be."""

    def __init__(self, where: str, want: str, value: Any = None, missing: bool = False) -> None:
        super().__init__(where)
        self.where, self.want, self.value, self.missing = where, want, value, missing


def shown(value: Any) -> str:
    """A value for an error message, short whatever the log holds (a container is named, not printed)."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    text = repr(value[:40] if isinstance(value, str) else value)
    return text if len(text) <= 42 else text[:40] + "..."


class Shape:
    """What a value in a log line must be. :meth:`check` raises :class:`_Wrong` naming where it is
    not; ``players`` is the header's seat count, for seats and per-seat lists."""

    want = "a value"

    def check(self, value: Any, where: str, players: int) -> None:
        if not self.fits(value, players):
            raise _Wrong(where, self.describe(players), value)

    def fits(self, value: Any, players: int) -> bool:
        return True

    def describe(self, players: int) -> str:
        return self.want


@dataclass(frozen=True)
class Whole(Shape):
    lo: int = 0
    hi: int = MAX_COUNT

    def fits(self, value: Any, players: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi

    def describe(self, players: int) -> str:
        return f"a whole number from {self.lo} to {self.hi}"


class Millis(Whole):
    """Milliseconds: whole or decimal (NaN and the infinities are no JSON: refused as the line is read)."""

    def fits(self, value: Any, players: int) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool) and self.lo <= value <= self.hi

    def describe(self, players: int) -> str:
        return f"a number of milliseconds from {self.lo} to {self.hi}"


class Seat(Shape):
    def fits(self, value: Any, players: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players

    def describe(self, players: int) -> str:
        return f"a seat from 0 to {players - 1}"


@dataclass(frozen=True)
class Kind(Shape):
    """A value of one JSON type: ``bool``, or ``str`` of at most ``most`` characters."""

    type: type
    want: str
    most: int = MAX_COUNT

    def fits(self, value: Any, players: int) -> bool:
        return isinstance(value, self.type) and (not isinstance(value, str) or len(value) <= self.most)


@dataclass(frozen=True)
class OneOf(Shape):
    values: tuple[Any, ...]

    def fits(self, value: Any, players: int) -> bool:
        return any(type(value) is type(v) and value == v for v in self.values)

    def describe(self, players: int) -> str:
        return "one of " + ", ".join("null" if v is None else repr(v) for v in self.values)


@dataclass(frozen=True)
class Maybe(Shape):
    """A value of a shape, or null."""

    shape: Shape

    def check(self, value: Any, where: str, players: int) -> None:
        if value is None:
            return
        try:
            self.shape.check(value, where, players)
        except _Wrong as e:
            if e.where != where:  # something inside it is wrong: say what
                raise
            raise _Wrong(where, self.describe(players), value) from None

    def describe(self, players: int) -> str:
        return f"{self.shape.describe(players)} or null"


@dataclass(frozen=True)
class Many(Shape):
    """A list of items; ``per_seat``: exactly one per seat."""

    item: Shape
    per_seat: bool = False

    def check(self, value: Any, where: str, players: int) -> None:
        if not isinstance(value, list) or (self.per_seat and len(value) != players):
            raise _Wrong(where, self.describe(players), value)
        for i, v in enumerate(value):
            self.item.check(v, f"{where}[{i}]", players)

    def describe(self, players: int) -> str:
        return f"a list of {f'{players} ' if self.per_seat else ''}({self.item.describe(players)})"


@dataclass(frozen=True)
class Obj(Shape):
    """An object whose named fields are of their shapes, the ``required`` ones present. Other fields
    are ignored: a later writer may add some (docs/match-log.md)."""

    fields: Mapping[str, Shape]
    required: frozenset[str] = frozenset()
    want: str = "an object"

    def check(self, value: Any, where: str, players: int) -> None:
        if not isinstance(value, dict):
            raise _Wrong(where, self.want, value)
        for key, shape in self.fields.items():
            path = f"{where}.{key}" if where else key
            if key in value:
                shape.check(value[key], path, players)
            elif key in self.required:
                raise _Wrong(path, shape.describe(players), missing=True)


def _obj(required: Mapping[str, Shape], optional: Mapping[str, Shape] | None = None) -> Obj:
    return Obj({**required, **(optional or {})}, frozenset(required))


COUNT, SEAT, POINTS = Whole(), Seat(), Whole(-MAX_POINTS, MAX_POINTS)
FLAG, TEXT = Kind(bool, "true or false"), Kind(str, "a string")
CARD = Kind(str, "a card like 'TD'", most=3)
CARDS, PER_SEAT_POINTS = Many(CARD), Many(POINTS, per_seat=True)
PER_SEAT_WIRE_POINTS = Many(Whole(-MAX_COUNT - 1, MAX_COUNT), per_seat=True)
TRUMP = Maybe(Kind(str, "a suit letter S, H, D or C", most=1))
#: The per-turn metadata of an action line (null in games stored before the referee recorded it).
TURN_META = {"turn": Maybe(Whole(1)), "ms": Maybe(Millis()), "default": OneOf((None, *(r.value for r in DefaultReason)))}
_DEAL = {"deal": COUNT, "redeal": COUNT, "tiebreak": FLAG, "dealer": SEAT, "declarer": SEAT}
#: What each kind of line holds (the fields this reader uses; docs/schemas/match-log-line.schema.json
#: is what the writer writes). ``major`` is optional: logs from before the flag have none.
LINE_SHAPES: dict[str, Obj] = {
    "header": _obj({"preset": TEXT, "seed": TEXT, "seats": Many(_obj({}, {
        "seat": COUNT, "name": Maybe(TEXT), "bot_id": Maybe(TEXT), "hello_name": Maybe(TEXT), "version": Maybe(TEXT)}))},
        {"match": Maybe(TEXT), "game": COUNT, "games": COUNT, "options": Maybe(Obj({})), "ruleset": Maybe(Obj({})),
         "clock": Maybe(Obj({name: COUNT for name in ("decision_ms", "bank_ms", "increment_ms", "max_strikes", "max_retries")}))}),
    "deal": _obj({**_DEAL, "hands": Many(CARDS, per_seat=True), "talon": CARDS}),
    "contract": _obj({"seat": SEAT, "contract": TEXT, "trump": TRUMP}, TURN_META),
    "major": _obj({"seat": SEAT, "contract": Maybe(TEXT)}, TURN_META),
    "settled": _obj({"declarer": SEAT, "contract": TEXT, "trump": TRUMP}, {"major": FLAG}),
    "exchange": _obj({"seat": SEAT}, {"discard": CARDS, "take": CARDS, "count": COUNT, **TURN_META}),
    "play": _obj({"seat": SEAT, "card": CARD}, TURN_META),
    "revoke": _obj({"seat": SEAT, "card": CARD}, TURN_META),
    "trick": _obj({"winner": SEAT}),
    "result": _obj({**_DEAL, "caller": SEAT, "contract": TEXT, "trump": TRUMP, "tricks": Many(COUNT, per_seat=True),
                    "points": PER_SEAT_WIRE_POINTS, "void": FLAG, "revoker": Maybe(SEAT), "totals": PER_SEAT_WIRE_POINTS},
                   {"major": FLAG}),
    "over": _obj({"totals": PER_SEAT_POINTS}),
    "end": _obj({"totals": PER_SEAT_POINTS, "ranks": Many(Whole(1), per_seat=True), "seats": Many(_obj({}, {
        "seat": SEAT, "timeouts": COUNT, "refusals": COUNT, "malformed": COUNT, "stale": COUNT, "defaults": COUNT,
        "strikes": COUNT, "forfeited": FLAG, "disconnected": FLAG, "time_used_ms": Millis(0, MAX_POINTS)}), per_seat=True)}),
}


# ------------------------------------------------------------------------------- reading
@dataclass
class LogLine:
    """One entry line of a parsed log: its line number, the engine event, the per-turn metadata."""

    lineno: int
    entry: Event
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.entry.kind


@dataclass
class GameLog:
    """One game of a match log: header, entry lines, end line (None if the file stops before it)."""

    header: dict[str, Any]
    header_line: int
    rules: Ruleset
    clock: ClockSettings  # the header's "clock"; the defaults for a log written without one
    lines: list[LogLine] = field(default_factory=list)
    end: dict[str, Any] | None = None
    end_line: int = 0

    @property
    def seed(self) -> str:
        return self.header["seed"]

    @property
    def game(self) -> int:
        return self.header.get("game", 0)

    @property
    def match(self) -> str:
        return self.header.get("match") or ""

    @property
    def names(self) -> list[str]:
        return [s.get("name") or f"seat {i}" for i, s in enumerate(self.header["seats"])]

    @property
    def last_line(self) -> int:
        return self.end_line or (self.lines[-1].lineno if self.lines else self.header_line)


def _load_line(raw: str, lineno: int) -> Any:
    """One line's JSON; MatchLogError for what is no JSON (NaN and the infinities included) or is
    nested deeper than any line of the format (json's own recursion would overflow first)."""
    try:
        obj = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise MatchLogError(lineno, f"nested deeper than {MAX_DEPTH} levels: no line of a match log is") from None
    except ValueError as e:
        raise MatchLogError(lineno, f"not JSON ({e})") from None
    pending = [(obj, 1)]
    while pending:  # iteratively: a recursive walk is what must not happen to such a line
        value, depth = pending.pop()
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        if inner and depth >= MAX_DEPTH:
            raise MatchLogError(lineno, f"nested deeper than {MAX_DEPTH} levels: no line of a match log is")
        pending.extend((v, depth + 1) for v in inner)
    return obj


def _a(kind: str) -> str:
    """``a 'deal'``, ``an 'end'``: a line type in a message."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {shown(kind)}"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_shape(obj: dict[str, Any], kind: str, lineno: int, players: int) -> None:
    """The line's fields against :data:`LINE_SHAPES`, so that what reads them gets what it expects."""
    try:
        LINE_SHAPES[kind].check(obj, "", players)
    except _Wrong as e:
        if e.missing:
            raise MatchLogError(lineno, f"{_a(kind)} line needs the field {e.where!r} ({e.want})") from None
        raise MatchLogError(lineno, f"{_a(kind)} line: {e.where} must be {e.want}, not {shown(e.value)}") from None


def _check_header(obj: dict[str, Any], lineno: int) -> tuple[Ruleset, ClockSettings]:
    if obj.get("format") != FORMAT:
        raise MatchLogError(lineno, f"the header's format must be {FORMAT!r}, not {shown(obj.get('format'))}")
    version = obj.get("version")
    if version != VERSION or isinstance(version, bool):
        raise MatchLogError(lineno, f"match log version {shown(version)} is not supported: this program reads version {VERSION}")
    _check_shape(obj, "header", lineno, 0)
    try:
        rules = load_ruleset(obj["preset"], obj.get("options") or {})
    except RulesError as e:
        raise MatchLogError(lineno, f"the header's ruleset cannot be used: {e}") from None
    if len(obj["seats"]) != rules.players:
        raise MatchLogError(lineno, f"{rules.preset} has {rules.players} seats; the header lists {len(obj['seats'])}")
    clock = obj.get("clock")
    if clock is None:
        return rules, ClockSettings()
    try:
        return rules, ClockSettings.from_table(clock)
    except (TypeError, ValueError) as e:
        raise MatchLogError(lineno, f"the header's clock cannot be used: {e}") from None


def parse_match_log(text: str) -> list[GameLog]:
    """Every game of a match log (one or more header ... end sequences), or MatchLogError."""
    games: list[GameLog] = []
    current: GameLog | None = None
    seen = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        obj = _load_line(raw, lineno)
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise MatchLogError(lineno, 'every line must be a JSON object with a "type"')
        kind = obj["type"]
        if kind not in LINE_SHAPES:
            raise MatchLogError(lineno, f"unknown line type {shown(kind)}; types are header, {', '.join(ENTRY_KINDS)}, end")
        if not seen and kind != "header":
            raise MatchLogError(lineno, f'the log must start with a header line ({{"type": "header", "format": "{FORMAT}", ...}}), '
                                        f"not a {kind!r} line")
        seen = True
        if kind == "header":
            if current is not None and current.end is None:
                raise MatchLogError(lineno, f"a new header before the end line of game {current.game} (header at line {current.header_line})")
            current = GameLog(obj, lineno, *_check_header(obj, lineno))
            games.append(current)
            continue
        assert current is not None
        if current.end is not None:
            raise MatchLogError(lineno, f"{_a(kind)} line after the end line of game {current.game}; a new game starts with a header")
        _check_shape(obj, kind, lineno, current.rules.players)
        if kind == "end":
            current.end, current.end_line = obj, lineno
            continue
        try:
            entry = entry_from_line(obj, current.rules)
        except KeyError as e:
            raise MatchLogError(lineno, f"{_a(kind)} line needs the field {e.args[0]!r}") from None
        except (ValueError, TypeError) as e:  # a value the wire cannot hold
            raise MatchLogError(lineno, f"{_a(kind)} line: {e}") from None
        except ProtocolError as e:  # no card, suit or contract of the header's ruleset
            raise MatchLogError(lineno, f"{_a(kind)} line: {e.message}") from None
        if isinstance(entry, Dealt) and entry.hands is None:
            raise MatchLogError(lineno, "a deal line needs 'hands' and 'talon' (a match log is a full log)")
        if isinstance(entry, Exchanged) and entry.discard is None:
            raise MatchLogError(lineno, "an exchange line needs 'discard' and 'take' (a match log is a full log)")
        meta = {k: obj.get(k) for k in TURN_KEYS} if kind in ACTION_KINDS else {}
        current.lines.append(LogLine(lineno, entry, meta))
    if not games:
        raise MatchLogError(1, f'the log is empty: it must start with a header line ({{"type": "header", "format": "{FORMAT}", ...}})')
    return games
