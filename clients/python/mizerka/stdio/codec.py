"""The stdio line protocol's codec: proto messages to JSON lines for the program, answer lines to
Actions. Pure functions, no I/O and no state: the conversation's state (which turn is pending) is
kept by :mod:`mizerka.stdio.translate`, and the match-log tools (tournaments/commands/replay.py) render logs
with these functions. Specified in docs/stdio-protocol.md.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format

from mizerka import told
from mizerka.rulesets import DECLARER_MODES, EXCHANGE_KINDS, MISERE_QUOTAS, REVOKE_MODES, TIEBREAK_MODES
from mizerka.version import __version__
from mizerka_proto import events_pb2, game_pb2, referee_pb2

__all__ = [
    "PROTOCOL",
    "LineError",
    "action_from_line",
    "answer_json",
    "bridge_error_line",
    "clock_json",
    "contract_json",
    "decide_line",
    "dump_line",
    "error_line",
    "event_line",
    "game_end_line",
    "game_start_line",
    "hello_line",
    "result_json",
    "ruleset_json",
    "view_json",
]

#: The line protocol's version, sent in the hello line. Additions (new fields, event kinds, error
#: codes) keep the number; a change that breaks a conforming program raises it.
PROTOCOL = 1

_KINDS = {
    referee_pb2.DECISION_KIND_CONTRACT: "contract",
    referee_pb2.DECISION_KIND_MAJOR: "major",
    referee_pb2.DECISION_KIND_EXCHANGE: "exchange",
    referee_pb2.DECISION_KIND_PLAY: "play",
}
_PHASES = {v: k.removeprefix("PHASE_").lower() for k, v in game_pb2.Phase.items()}
_ANNOUNCEMENTS = {game_pb2.ANNOUNCEMENT_KIND_CONTRACT: "contract", game_pb2.ANNOUNCEMENT_KIND_MAJOR: "major"}
_REASONS = {v: k.removeprefix("DEFAULT_REASON_").lower() for k, v in events_pb2.DefaultReason.items()}


def _opt(msg: Any, field: str) -> Any:
    """An optional proto field's value, or None when absent."""
    return getattr(msg, field) if msg.HasField(field) else None


# ------------------------------------------------------------------------------ proto -> JSON
def contract_json(c: game_pb2.ContractInfo) -> dict[str, Any]:
    """One contract of the ruleset, as in ``ruleset.contracts`` and a decide line's ``contracts``."""
    return {
        "name": c.name,
        "minus": c.minus,
        "trump": c.trump or None,
        "names_trump": c.names_trump,
        "trump_choices": list(c.trump_choices),
        "major_rank": c.major_rank,
    }


def ruleset_json(r: game_pb2.Ruleset) -> dict[str, Any]:
    """A Ruleset as plain JSON (option values spelled as in league files: "blind", "alternate", ...)."""
    return {
        "preset": r.preset,
        "players": r.players,
        "hand_size": r.hand_size,
        "talon_size": r.talon_size,
        "contracts": [contract_json(c) for c in r.contracts],
        "exchange": EXCHANGE_KINDS.get(r.exchange),
        "majors": r.majors,
        "quotas_plus": list(r.quotas_plus),
        "quotas_minus": list(r.quotas_minus),
        "choose_after_all": r.choose_after_all,
        "cards_seen_before_choice": r.cards_seen_before_choice,
        "declarer": DECLARER_MODES.get(r.declarer),
        "deals": r.deals,
        "revoke": REVOKE_MODES.get(r.revoke),
        "tiebreak": TIEBREAK_MODES.get(r.tiebreak),
        "tiebreak_max": r.tiebreak_max,
        "misere_quotas": MISERE_QUOTAS.get(r.misere_quotas),
        "trumps_allow_spades": r.trumps_allow_spades,
        "tiebreak_contract": r.tiebreak_contract or None,
    }


def clock_json(c: game_pb2.Clock) -> dict[str, Any]:
    return {
        "decision_ms": c.decision_ms,
        "bank_ms": c.bank_ms,
        "increment_ms": c.increment_ms,
        "max_strikes": c.max_strikes,
        "max_retries": c.max_retries if c.HasField("max_retries") else 5,
    }


def result_json(r: game_pb2.DealResult) -> dict[str, Any]:
    return {
        "deal": r.deal,
        "redeal": r.redeal,
        "tiebreak": r.tiebreak,
        "dealer": r.dealer,
        "declarer": r.declarer,
        "caller": r.caller,
        "contract": r.contract,
        "trump": r.trump or None,
        "tricks": list(r.tricks),
        "points": list(r.points),
        "void": r.void,
        "revoker": _opt(r, "revoker"),
        "totals": list(r.totals),
    }


def answer_json(a: game_pb2.Action) -> dict[str, Any]:
    """An Action's body in answer form, without its turn: {"play": "AS"}, {"contract": "trumps",
    "trump": "H"}, {"major": null}, {"discard": [...]} (plus "take" when it names any)."""
    which = a.WhichOneof("action")
    if which == "play_card":
        return {"play": a.play_card.card}
    if which == "choose_contract":
        out: dict[str, Any] = {"contract": a.choose_contract.contract}
        if a.choose_contract.trump:
            out["trump"] = a.choose_contract.trump
        return out
    if which == "announce_major":
        return {"major": a.announce_major.contract or None}
    if which == "exchange_cards":
        out = {"discard": list(a.exchange_cards.discard)}
        if a.exchange_cards.take:
            out["take"] = list(a.exchange_cards.take)
        return out
    return {}


def _plays(t: game_pb2.Trick) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "card": p.card} for p in t.plays]


def _winning(t: game_pb2.Trick) -> dict[str, Any]:
    """The play of the trick winning it so far (Trick.winning)."""
    return next({"seat": p.seat, "card": p.card} for p in t.plays if p.seat == t.winning)


def view_json(view: game_pb2.SeatView) -> dict[str, Any]:
    """A seat's view in card notation, with per-seat lists (entry i for seat i) and your own cards.

    ``trick`` is the trick in progress (``[]`` when you lead) and ``winning`` its play winning so
    far, ``tricks`` the completed tricks of the deal; ``contract_name``, ``minus`` and ``major``
    describe the contract, as the referee says. The finished deals (SeatView.results) are left out
    to keep lines short: ``totals`` has the score, and ``deal_ended`` events and ``game_end`` have
    every result.
    """
    players = list(view.players)
    n = len(players)
    me = players[view.seat] if view.seat < n else game_pb2.PlayerState()
    declarer = _opt(view, "declarer")
    tricks = list(view.tricks)
    current = tricks[-1] if tricks and not tricks[-1].HasField("winner") else None
    settled = n > 0 and all(p.HasField("quota") for p in players)
    return {
        "seat": view.seat,
        "phase": _PHASES.get(view.phase, "unspecified"),
        "to_act": _opt(view, "to_act"),
        "deal": view.deal,
        "redeal": view.redeal,
        "tiebreak": view.tiebreak,
        "dealer": _opt(view, "dealer"),
        "caller": _opt(view, "caller"),
        "declarer": declarer,
        "position": None if declarer is None or not n else (view.seat - declarer) % n,
        "contract": view.contract or None,
        "contract_name": view.contract_name or None,
        "trump": view.trump or None,
        "minus": view.contract_minus,
        "major": view.contract_major,
        "hand": list(me.hand),
        "hand_sizes": [p.hand_count for p in players],
        "talon": list(view.talon) if view.talon_known else None,
        "discarded": list(me.discarded),
        "taken": list(me.taken),
        "exchanged": [_opt(p, "exchanged") for p in players],
        "announcements": [
            {"seat": a.seat, "kind": _ANNOUNCEMENTS.get(a.kind), "contract": a.contract or None}
            for a in view.announcements
        ],
        "trick": _plays(current) if current is not None else [],
        "winning": _winning(current) if current is not None else None,
        "tricks": [{"leader": t.leader, "plays": _plays(t), "winner": t.winner} for t in tricks if t.HasField("winner")],
        "tricks_won": [p.tricks_won for p in players],
        "quotas": [p.quota for p in players] if settled else None,
        "used": [list(p.used_contracts) for p in players],
        "totals": [p.total for p in players],
        "finished": view.finished,
    }


def dump_line(obj: dict[str, Any]) -> str:
    """A line as written to the program: compact JSON, then a newline (the protocol's framing)."""
    return json.dumps(obj, separators=(",", ":")) + "\n"


def hello_line(stream: int, streams: int) -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL, "bridge": f"mizerka-stdio {__version__}", "stream": stream,
            "streams": streams}


def game_start_line(g: referee_pb2.GameStart) -> dict[str, Any]:
    return {
        "type": "game_start",
        "match_id": g.match_id,
        "game_number": g.game_number,
        "games": g.games,
        "seat": g.seat,
        "names": list(g.names),
        "ruleset": ruleset_json(g.ruleset),
        "clock": clock_json(g.clock),
    }


def event_line(e: events_pb2.Event) -> dict[str, Any]:
    """One Event as an ``event`` line: ``{"type": "event", "event": KIND, ...its fields}``."""
    which = e.WhichOneof("kind")
    head: dict[str, Any] = {"type": "event", "event": which}
    if which == "deal_started":
        x = e.deal_started
        return head | {"deal": x.deal, "redeal": x.redeal, "tiebreak": x.tiebreak, "dealer": x.dealer,
                       "declarer": x.declarer}
    if which == "contract_announced":
        x = e.contract_announced
        return head | {"seat": x.seat, "contract": x.contract, "trump": x.trump or None}
    if which == "major_announced":
        x = e.major_announced
        return head | {"seat": x.seat, "contract": x.contract or None}
    if which == "contract_settled":
        x = e.contract_settled
        return head | {"declarer": x.declarer, "contract": x.contract, "trump": x.trump or None,
                       "quotas": list(x.quotas), "major": x.major, "minus": x.minus}
    if which == "cards_exchanged":
        x = e.cards_exchanged
        known = x.cards_known
        return head | {"seat": x.seat, "count": x.count, "discarded": list(x.discarded) if known else None,
                       "taken": list(x.taken) if known else None}
    if which == "card_played":
        return head | {"seat": e.card_played.seat, "card": e.card_played.card}
    if which == "trick_won":
        return head | {"winner": e.trick_won.winner, "trick": e.trick_won.trick}
    if which == "revoked":
        return head | {"seat": e.revoked.seat, "card": e.revoked.card}
    if which == "deal_ended":
        return head | result_json(e.deal_ended.result)
    if which == "default_applied":
        x = e.default_applied
        return head | {"turn": x.turn, "action": answer_json(x.action), "reason": _REASONS.get(x.reason, "unspecified")}
    if which == "strike_counted":
        x = e.strike_counted
        return head | {"turn": x.turn, "strikes": x.strikes, "max_strikes": x.max_strikes, "forfeited": x.forfeited}
    if which is None:
        return head | {"event": "unknown"}
    # An event kind newer than this bridge: pass it on as it is.
    return head | json_format.MessageToDict(getattr(e, which), preserving_proto_field_name=True)


def decide_line(d: referee_pb2.DecisionRequest) -> dict[str, Any]:
    """A ``decide`` line, complete in itself so that a stateless program needs no earlier line: the
    legal answers of a contract or major decision come with their contracts' facts (trump, minus,
    ...) from the ruleset the request repeats, and the view has the rest. ``default`` is the
    referee's default answer and, for a card play, ``takes_trick`` says for each entry of ``legal``
    whether that card takes the trick as it stands (:mod:`mizerka.told`)."""
    kind = _KINDS.get(d.kind, "unspecified")
    legal = [answer_json(a) for a in d.legal_actions]
    out: dict[str, Any] = {
        "type": "decide",
        "turn": d.turn,
        "kind": kind,
        "time_left_ms": d.time_left_ms,
        "bank_ms": d.bank_ms,
        "legal": legal,
        "default": answer_json(told.default_action(d)),
    }
    if kind == "play":
        out["takes_trick"] = told.takes_trick(d)
    if kind in ("contract", "major"):
        named = {a.get("contract") or a.get("major") for a in legal}
        out["contracts"] = {c.name: contract_json(c) for c in d.ruleset.contracts if c.name in named}
    if kind == "exchange":
        out["exchange"] = {"max": d.exchange.max_cards, "pick": d.exchange.pick, "talon": list(d.exchange.talon)}
    out["view"] = view_json(d.view)
    return out


def _code_text(code: referee_pb2.ActionErrorCode.ValueType) -> str:
    """An error line's ``code``: the ActionErrorCode's name without its prefix ("MUST_FOLLOW"), the
    text ActionError.code carries too."""
    return referee_pb2.ActionErrorCode.Name(code).removeprefix("ACTION_ERROR_CODE_")


def error_line(e: referee_pb2.ActionError, message: str | None = None,
               code: referee_pb2.ActionErrorCode.ValueType | None = None, source: str = "referee") -> dict[str, Any]:
    """An ActionError as an ``error`` line; ``code``, ``message``: the bridge's own instead of the
    referee's. A referee older than ActionError.error_code is read by its text code."""
    if code is None:
        code = e.error_code
    return {
        "type": "error",
        "turn": e.turn,
        "code": _code_text(code) if code else e.code,
        "message": message if message is not None else e.message,
        "retry": e.retry,
        "strikes": e.strikes,
        "time_left_ms": e.time_left_ms if e.retry else None,
        "bank_ms": e.bank_ms if e.retry else None,
        "source": source,
    }


def bridge_error_line(turn: int | None, code: referee_pb2.ActionErrorCode.ValueType, message: str,
                      strikes: int) -> dict[str, Any]:
    """An error the bridge found itself and did not send to the referee (retry is always false)."""
    return {"type": "error", "turn": turn, "code": _code_text(code), "message": message, "retry": False, "strikes": strikes,
            "time_left_ms": None, "bank_ms": None, "source": "bridge"}


def game_end_line(g: referee_pb2.GameEnd) -> dict[str, Any]:
    return {
        "type": "game_end",
        "match_id": g.match_id,
        "game_number": g.game_number,
        "seat": g.seat,
        "rank": g.rank,
        "totals": list(g.totals),
        "results": [result_json(r) for r in g.results],
        "seats": [
            {"seat": s.seat, "name": s.name, "total": s.total, "rank": s.rank, "timeouts": s.timeouts,
             "refusals": s.refusals, "defaults_applied": s.defaults_applied, "forfeited": s.forfeited,
             "disconnected": s.disconnected}
            for s in g.seats
        ],
        "aborted": g.aborted,
        "abort_reason": g.abort_reason or None,
    }


# ------------------------------------------------------------------------------ JSON -> proto
class LineError(ValueError):
    """A program's line that is no answer; ``turn`` is the turn it named (None if it named none)."""

    def __init__(self, message: str, turn: int | None = None) -> None:
        super().__init__(message)
        self.turn = turn


_ANSWER_KEYS = ("play", "contract", "major", "discard")
_ALLOWED = {"type", "turn", "play", "contract", "trump", "major", "discard", "take"}


def _cards(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f'"{key}" must be a list of card strings like ["2C", "TD"]')
    return value


def _brief(value: Any) -> str:
    """A value the program sent, for a message: containers by their type (a repr could be as long as the
    line, or nested deeper than repr can go)."""
    if isinstance(value, dict | list):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_turn(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def action_from_line(line: str | bytes) -> game_pb2.Action:
    """Parse one answer line into an Action, or raise :class:`LineError` saying what is wrong."""
    turn: int | None = None
    try:
        obj = json.loads(line)
    except RecursionError:  # json's parser recurses per level: [[[[... is refused, not a traceback
        raise LineError("not an answer: nested too deeply (an answer is one flat JSON object)") from None
    except (ValueError, UnicodeDecodeError) as e:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        shown = text.strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise LineError(f"not a JSON line ({e.__class__.__name__}: {e}): {shown!r}") from None
    if not isinstance(obj, dict):
        raise LineError(f"an answer must be a JSON object, not {type(obj).__name__}")
    if _is_turn(obj.get("turn")):
        turn = obj["turn"]
    try:
        if "type" in obj and obj["type"] != "action":
            raise ValueError(f'"type" of an answer line must be "action" (or left out), not {_brief(obj["type"])}')
        unknown = sorted(set(obj) - _ALLOWED)
        if unknown:
            raise ValueError(f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(_brief, unknown[:3]))}{', ...' if len(unknown) > 3 else ''}; an "
                             "answer has turn and one of play, contract (+ trump), major, discard (+ take)")
        if "turn" not in obj:
            raise ValueError('no "turn": copy the turn of the decide line you answer')
        if turn is None:
            raise ValueError(f'"turn" must be a whole number, not {_brief(obj["turn"])}')
        present = [k for k in _ANSWER_KEYS if k in obj]
        if len(present) != 1:
            raise ValueError("an answer needs exactly one of play, contract, major, discard"
                             + (f" (found {', '.join(present)})" if present else ""))
        (key,) = present
        if "trump" in obj and key != "contract":
            raise ValueError('"trump" goes only with "contract"')
        if "take" in obj and key != "discard":
            raise ValueError('"take" goes only with "discard"')
        action = game_pb2.Action(turn=turn)
        if key == "play":
            if not isinstance(obj["play"], str):
                raise ValueError('"play" must be a card string like "AS"')
            action.play_card.card = obj["play"]
        elif key == "contract":
            trump = obj.get("trump")
            if not isinstance(obj["contract"], str) or not (trump is None or isinstance(trump, str)):
                raise ValueError('"contract" must be a contract name and "trump" a suit letter or null')
            action.choose_contract.contract = obj["contract"]
            action.choose_contract.trump = trump or ""
        elif key == "major":
            if not (obj["major"] is None or isinstance(obj["major"], str)):
                raise ValueError('"major" must be a contract name, or null to pass')
            action.announce_major.contract = obj["major"] or ""
        else:
            action.exchange_cards.discard.extend(_cards(obj["discard"], "discard"))
            if obj.get("take") is not None:
                action.exchange_cards.take.extend(_cards(obj["take"], "take"))
            else:
                action.exchange_cards.SetInParent()
        return action
    except ValueError as e:
        raise LineError(str(e), turn) from None
