"""JSON forms of the engine's log entries and deal results, in RULES.md card notation.

The store keeps each game's FULL-projected log in this form; replay turns it back into tuples and
re-executes it through the engine, so these two directions must stay exact inverses.
"""

from __future__ import annotations

from typing import Any

from server.engine.cards import CARD_TEXT, SUITS, parse_card
from server.engine.game import DealResult


def _cards(cards: Any) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _parse(cards: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in cards)


def _suit(trump: int | None) -> str | None:
    return None if trump is None else SUITS[trump]


def _unsuit(trump: str | None) -> int | None:
    return None if trump is None else SUITS.index(trump)


def result_to_json(r: DealResult) -> dict[str, Any]:
    return {
        "deal": r.deal_no, "redeal": r.redeal, "tiebreak": r.tiebreak, "dealer": r.dealer,
        "declarer": r.declarer, "caller": r.caller, "contract": r.contract, "trump": _suit(r.trump),
        "tricks": list(r.tricks), "points": list(r.points), "void": r.void, "revoker": r.revoker,
    }


def result_from_json(d: dict[str, Any]) -> DealResult:
    return DealResult(
        d["deal"], d["redeal"], d["tiebreak"], d["dealer"], d["declarer"], d["caller"], d["contract"],
        _unsuit(d["trump"]), tuple(d["tricks"]), tuple(d["points"]), d["void"], d["revoker"],
    )


def entry_to_json(e: tuple) -> dict[str, Any]:
    kind = e[0]
    if kind == "deal":
        out: dict[str, Any] = {"kind": kind, "deal": e[1], "redeal": e[2], "tiebreak": e[3], "dealer": e[4], "declarer": e[5]}
        if len(e) > 6:  # the FULL projection keeps the cards
            out["hands"] = [_cards(h) for h in e[6]]
            out["talon"] = _cards(e[7])
        return out
    if kind == "contract":
        return {"kind": kind, "seat": e[1], "contract": e[2], "trump": _suit(e[3])}
    if kind == "major":
        return {"kind": kind, "seat": e[1], "contract": e[2]}
    if kind == "settled":
        return {"kind": kind, "declarer": e[1], "contract": e[2], "trump": _suit(e[3])}
    if kind == "exchange":
        if isinstance(e[2], int):  # another seat's exchange: only the count is known
            return {"kind": kind, "seat": e[1], "count": e[2]}
        return {"kind": kind, "seat": e[1], "discard": _cards(e[2]), "take": _cards(e[3])}
    if kind in ("play", "revoke"):
        return {"kind": kind, "seat": e[1], "card": CARD_TEXT[e[2]]}
    if kind == "trick":
        return {"kind": kind, "winner": e[1]}
    if kind == "result":
        return {"kind": kind, "result": result_to_json(e[1]), "totals": list(e[2])}
    if kind == "over":
        return {"kind": kind, "totals": list(e[1])}
    raise ValueError(f"unknown log entry kind {kind!r}")


def entry_from_json(d: dict[str, Any]) -> tuple:
    kind = d["kind"]
    if kind == "deal":
        head = ("deal", d["deal"], d["redeal"], d["tiebreak"], d["dealer"], d["declarer"])
        if "hands" in d:
            return head + (tuple(_parse(h) for h in d["hands"]), _parse(d["talon"]))
        return head
    if kind == "contract":
        return (kind, d["seat"], d["contract"], _unsuit(d["trump"]))
    if kind == "major":
        return (kind, d["seat"], d["contract"])
    if kind == "settled":
        return (kind, d["declarer"], d["contract"], _unsuit(d["trump"]))
    if kind == "exchange":
        if "count" in d:
            return (kind, d["seat"], d["count"])
        return (kind, d["seat"], _parse(d["discard"]), _parse(d["take"]))
    if kind in ("play", "revoke"):
        return (kind, d["seat"], parse_card(d["card"]))
    if kind == "trick":
        return (kind, d["winner"])
    if kind == "result":
        return (kind, result_from_json(d["result"]), tuple(d["totals"]))
    if kind == "over":
        return (kind, tuple(d["totals"]))
    raise ValueError(f"unknown log entry kind {kind!r}")
