"""Match logs: the JSON forms of the engine's log entries and deal results, and the versioned JSON
Lines file every finished game can be exported to (docs/match-log.md).

Two forms of one game's log:

- the **stored** form (the ``games.log`` column): one JSON object per ``Game.log`` event of the FULL
  projection, keyed ``"kind"`` (the event class's ``kind``); action entries carry the referee's
  per-turn metadata (``turn``, ``ms``, ``default``). Watch and replay turn it back into engine
  events (:func:`entry_from_json`).
- the **file** form (``mizerka match export``): a header line, one line per entry keyed ``"type"``
  (deal results flattened), and an end line. :func:`parse_match_log` reads it back, strictly: a line
  that is not what the format says raises :class:`MatchLogError` naming the line.

Both directions must stay exact inverses: replay re-executes the parsed entries through the engine
and compares what it gets with what the log says, event for event.

A contract is written as the ruleset's name with a ``"major"`` flag (``"contract": "hearts",
"major": true``) in settled and result entries. Logs written before the flag carry the label
instead (``"contract": "hearts major"``, no ``"major"`` key); they are read as the same events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from mizerka_engine.cards import CARD_TEXT, SUITS, parse_card
from mizerka_engine.events import (
    ACTION_EVENTS,
    EVENT_TYPES,
    ContractAnnounced,
    DealResult,
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
from mizerka_engine.rules import RulesError, Ruleset, load_ruleset
from server.policies import DefaultReason
from server.settings import ClockSettings

FORMAT = "mizerka-match-log"
VERSION = 1
#: Entries that record a seat's decision (one per turn); the others follow from them and the deal.
ACTION_KINDS = frozenset(t.kind for t in ACTION_EVENTS)
ENTRY_KINDS = tuple(t.kind for t in EVENT_TYPES)
#: How logs written before the ``"major"`` flag marked a major contract: a suffix on its label.
_OLD_MAJOR_SUFFIX = " major"
#: The per-turn metadata keys of an action entry.
TURN_KEYS = ("turn", "ms", "default")


class MatchLogError(ValueError):
    """A match log that cannot be read: bad JSON, a missing header, an unknown version, a line that
    lacks a field. ``line`` is the 1-based line number (0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


# --------------------------------------------------------------------------- entries <-> JSON
def _cards(cards: Any) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _parse(cards: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in cards)


def _suit(trump: int | None) -> str | None:
    return None if trump is None else SUITS[trump]


def _unsuit(trump: str | None) -> int | None:
    if trump is None:
        return None
    if not isinstance(trump, str) or len(trump) != 1 or trump.upper() not in SUITS:
        raise ValueError(f"{trump!r} is not a trump suit: write S, H, D, C or null")
    return SUITS.index(trump.upper())


def _contract_from_json(d: Mapping[str, Any]) -> tuple[str, bool]:
    """The contract name and major flag of a settled or result entry: ``"major"`` if written, else
    (a log from before the flag) the label's suffix -- the one place a label is taken apart."""
    contract = _str(d["contract"])
    if "major" in d:
        return contract, _bool(d["major"])
    name = contract.removesuffix(_OLD_MAJOR_SUFFIX)
    return name, name != contract


def result_to_json(r: DealResult) -> dict[str, Any]:
    return {
        "deal": r.deal_no, "redeal": r.redeal, "tiebreak": r.tiebreak, "dealer": r.dealer,
        "declarer": r.declarer, "caller": r.caller, "contract": r.contract, "major": r.major, "trump": _suit(r.trump),
        "tricks": list(r.tricks), "points": list(r.points), "void": r.void, "revoker": r.revoker,
    }


def result_from_json(d: Mapping[str, Any]) -> DealResult:
    contract, major = _contract_from_json(d)
    return DealResult(
        d["deal"], d["redeal"], d["tiebreak"], d["dealer"], d["declarer"], d["caller"], contract, major,
        _unsuit(d["trump"]), tuple(d["tricks"]), tuple(d["points"]), d["void"], d["revoker"],
    )


def entry_to_json(e: Event) -> dict[str, Any]:
    """A (projected) ``Game.log`` event in stored form, keyed ``"kind"``."""
    kind = e.kind
    match e:
        case Dealt():
            out: dict[str, Any] = {"kind": kind, "deal": e.deal_no, "redeal": e.redeal, "tiebreak": e.tiebreak,
                                   "dealer": e.dealer, "declarer": e.declarer}
            if e.hands is not None:  # the FULL projection keeps the cards
                out["hands"] = [_cards(h) for h in e.hands]
                out["talon"] = _cards(e.talon or ())
            return out
        case ContractAnnounced(seat, contract, trump):
            return {"kind": kind, "seat": seat, "contract": contract, "trump": _suit(trump)}
        case MajorAnnounced(seat, contract):
            return {"kind": kind, "seat": seat, "contract": contract}
        case Settled(declarer, contract, major, trump):
            return {"kind": kind, "declarer": declarer, "contract": contract, "major": major, "trump": _suit(trump)}
        case Exchanged(seat, count, discard, take):
            if discard is None:  # another seat's exchange: only the count is known
                return {"kind": kind, "seat": seat, "count": count}
            return {"kind": kind, "seat": seat, "discard": _cards(discard), "take": _cards(take or ())}
        case Played(seat, card) | Revoked(seat, card):
            return {"kind": kind, "seat": seat, "card": CARD_TEXT[card]}
        case TrickTaken(winner):
            return {"kind": kind, "winner": winner}
        case DealScored(result, totals):
            return {"kind": kind, "result": result_to_json(result), "totals": list(totals)}
        case GameOver(totals):
            return {"kind": kind, "totals": list(totals)}
    raise ValueError(f"{e!r} is not a log event")


def entry_from_json(d: Mapping[str, Any]) -> Event:
    """The engine event of a stored entry (``"kind"``) or a file line (``"type"``, results flat).

    Extra keys (the per-turn metadata) are ignored. Raises KeyError for a missing field, ValueError
    (CardError) for a value that is no card, suit or number where one is needed.
    """
    kind = d["kind"] if "kind" in d else d["type"]
    if kind == "deal":
        head = (_int(d["deal"]), _int(d["redeal"]), _bool(d["tiebreak"]), _int(d["dealer"]), _int(d["declarer"]))
        if "hands" in d:
            return Dealt(*head, tuple(_parse(h) for h in d["hands"]), _parse(d["talon"]))
        return Dealt(*head)
    if kind == "contract":
        return ContractAnnounced(_int(d["seat"]), _str(d["contract"]), _unsuit(d["trump"]))
    if kind == "major":
        name = d["contract"]
        return MajorAnnounced(_int(d["seat"]), None if name is None else _str(name))
    if kind == "settled":
        contract, major = _contract_from_json(d)
        return Settled(_int(d["declarer"]), contract, major, _unsuit(d["trump"]))
    if kind == "exchange":
        if "count" in d:
            return Exchanged(_int(d["seat"]), _int(d["count"]))
        discard = _parse(d["discard"])
        return Exchanged(_int(d["seat"]), len(discard), discard, _parse(d["take"]))
    if kind == "play":
        return Played(_int(d["seat"]), parse_card(_str(d["card"])))
    if kind == "revoke":
        return Revoked(_int(d["seat"]), parse_card(_str(d["card"])))
    if kind == "trick":
        return TrickTaken(_int(d["winner"]))
    if kind == "result":
        result = d.get("result", d)  # stored: nested; file: flat
        return DealScored(result_from_json(result), tuple(_int(t) for t in d["totals"]))
    if kind == "over":
        return GameOver(tuple(_int(t) for t in d["totals"]))
    raise ValueError(f"unknown log entry kind {kind!r}")


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"{v!r} is not a whole number")
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"{v!r} is not true or false")
    return v


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError(f"{v!r} is not a string")
    return v


# ------------------------------------------------------------------------------- stored form
def stored_log(entries: Iterable[Event], turns: Iterable[Any] = ()) -> list[dict[str, Any]]:
    """The stored form of a FULL-projected log, each action entry with its turn's metadata.

    ``turns`` are the referee's per-turn records (``entry``, ``turn``, ``time_ms``, ``default``;
    :class:`server.referee.match.TurnRecord`), aligned with the log by ``entry``.
    """
    out = [entry_to_json(e) for e in entries]
    for t in turns:
        out[t.entry].update(turn=t.turn, ms=round(t.time_ms), default=t.default)
    return out


def seat_records(records: Iterable[Any]) -> list[dict[str, Any]]:
    return [asdict(r) if not isinstance(r, Mapping) else dict(r) for r in records]


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


# --------------------------------------------------------------------------------- file form
def entry_line(stored: Mapping[str, Any]) -> dict[str, Any]:
    """A stored entry as a file line: ``"type"`` first, a result's fields flattened."""
    kind = stored["kind"]
    out: dict[str, Any] = {"type": kind}
    for key, value in stored.items():
        if key == "kind":
            continue
        if kind == "result" and key == "result":
            out.update(value)
        else:
            out[key] = value
    if kind in ACTION_KINDS:
        for key in TURN_KEYS:
            out.setdefault(key, None)  # unknown for games stored before the referee recorded them
    return out


def end_line(totals: Sequence[int], ranks: Sequence[int], seats: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "type": "end",
        "totals": list(totals),
        "ranks": list(ranks),
        "seats": [{"seat": s, **dict(r)} for s, r in enumerate(seats)],
    }


def game_lines(header: Mapping[str, Any], stored: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One game's file lines from its header and its stored record (``log``, ``totals``, ``ranks``,
    ``seats`` as in the games table)."""
    return [dict(header), *(entry_line(e) for e in stored["log"]), end_line(stored["totals"], stored["ranks"], stored["seats"])]


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
#: Counts, turns and milliseconds fit the wire's 32-bit fields; points and totals JSON's exact integers.
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
                    "points": PER_SEAT_POINTS, "void": FLAG, "revoker": Maybe(SEAT), "totals": PER_SEAT_POINTS},
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
    data: dict[str, Any] = field(default_factory=dict, repr=False)

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
            entry = entry_from_json(obj)
        except KeyError as e:
            raise MatchLogError(lineno, f"{_a(kind)} line needs the field {e.args[0]!r}") from None
        except (ValueError, TypeError) as e:  # CardError among them
            raise MatchLogError(lineno, f"{_a(kind)} line: {e}") from None
        if isinstance(entry, Dealt) and entry.hands is None:
            raise MatchLogError(lineno, "a deal line needs 'hands' and 'talon' (a match log is a full log)")
        if isinstance(entry, Exchanged) and entry.discard is None:
            raise MatchLogError(lineno, "an exchange line needs 'discard' and 'take' (a match log is a full log)")
        meta = {k: obj.get(k) for k in TURN_KEYS} if kind in ACTION_KINDS else {}
        current.lines.append(LogLine(lineno, entry, meta, obj))
    if not games:
        raise MatchLogError(1, f'the log is empty: it must start with a header line ({{"type": "header", "format": "{FORMAT}", ...}})')
    return games
