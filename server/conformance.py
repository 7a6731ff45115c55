"""Rules conformance cases (docs/conformance.md): run one case, or check many.

Cases drive the engine from explicit hands through the same public API the referee uses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from mizerka_engine.cards import SUITS, CardError, parse_card, parse_suit
from mizerka_engine.dealing import Deal
from mizerka_engine.events import contract_label
from mizerka_engine.game import Action, ActionErrorCode, Choose, Exchange, Game, IllegalAction, Major, Phase, Play
from mizerka_engine.rules import RulesError, load_ruleset


class CaseError(ValueError):
    """A malformed case: the runner exits 2 with this message."""


_KINDS = ("contract", "major", "discard", "play")


def _cards(texts: Any, what: str) -> list[int]:
    if not isinstance(texts, list):
        raise CaseError(f"{what} must be a list of cards")
    try:
        return [parse_card(t) for t in texts]
    except CardError as e:
        raise CaseError(f"{what}: {e}") from None


def _deal(entry: Any, i: int, players: int, hand_size: int) -> Deal:
    if not isinstance(entry, Mapping):
        raise CaseError(f"deals[{i}] must be an object")
    hands = entry.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise CaseError(f"deals[{i}].hands must list {players} hands")
    cards = [_cards(h, f"deals[{i}].hands[{s}]") for s, h in enumerate(hands)]
    for s, h in enumerate(cards):
        if len(h) != hand_size:
            raise CaseError(f"deals[{i}].hands[{s}] has {len(h)} cards, the preset deals {hand_size}")
    talon = _cards(entry.get("talon", []), f"deals[{i}].talon")
    if len(talon) != 52 - players * hand_size:
        raise CaseError(f"deals[{i}].talon has {len(talon)} cards, the preset needs {52 - players * hand_size}")
    every = [c for h in cards for c in h] + talon
    if len(set(every)) != 52:
        raise CaseError(f"deals[{i}]: hands and talon are not a 52-card deck (a card is repeated)")
    declarer = entry.get("declarer")
    if declarer is not None and (not isinstance(declarer, int) or not 0 <= declarer < players):
        raise CaseError(f"deals[{i}].declarer must be a seat 0..{players - 1}")
    return Deal(tuple(map(tuple, cards)), tuple(talon), declarer)


class _Refused(Exception):
    """An action whose fields cannot even name a legal move (an unknown card, suit...): refused."""


def _action(raw: Any, where: str) -> tuple[Any, Action]:
    """(seat, action) from a case action; CaseError if it is not an action at all."""
    if not isinstance(raw, Mapping):
        raise CaseError(f"{where} must be an object")
    kinds = [k for k in _KINDS if k in raw]
    if len(kinds) != 1 or ("take" in raw and kinds != ["discard"]) or ("trump" in raw and kinds != ["contract"]):
        raise CaseError(f"{where} is not an action: it needs exactly one of {', '.join(_KINDS)}")
    kind, value, seat = kinds[0], raw[kinds[0]], raw.get("seat")

    def cards(v: Any) -> tuple[int, ...]:
        if not isinstance(v, list):
            raise CaseError(f"{where}: {kind} must be a list of cards")
        try:
            return tuple(parse_card(t) for t in v)
        except CardError as e:
            raise _Refused(str(e)) from None

    if kind == "play":
        if not isinstance(value, str):
            raise CaseError(f"{where}: play must be a card")
        try:
            return seat, Play(parse_card(value))
        except CardError as e:
            raise _Refused(str(e)) from None
    if kind == "discard":
        take = raw.get("take")
        return seat, Exchange(cards(value), None if take is None else cards(take))
    if kind == "major":
        return seat, Major(value if isinstance(value, str) else None if value is None else str(value))
    trump = raw.get("trump")
    if trump is not None:
        try:
            trump = parse_suit(trump) if isinstance(trump, str) else None
        except CardError as e:
            raise _Refused(str(e)) from None
        if trump is None:
            raise _Refused("trump must be a suit letter")
    return seat, Choose(str(value), trump)


def run_case(case: Any) -> dict[str, Any]:
    """Play a parsed case and return the result object of docs/conformance.md §4."""
    if not isinstance(case, Mapping):
        raise CaseError("a case must be a JSON object")
    options = case.get("options") or {}
    if not isinstance(options, Mapping):
        raise CaseError("options must be an object of option: value")
    try:
        rules = load_ruleset(case.get("preset", ""), options)
    except RulesError as e:
        raise CaseError(str(e)) from None
    n = rules.players
    first = case.get("first_dealer", n - 1)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise CaseError(f"first_dealer must be a seat 0..{n - 1}")
    entries = case.get("deals")
    if not isinstance(entries, list) or not entries:
        raise CaseError("deals must be a non-empty list")
    deals = [_deal(e, i, n, rules.hand_size) for i, e in enumerate(entries)]
    supplied = iter(deals)

    def source(deal_no: int, redeal: int) -> Deal | None:
        return next(supplied, None)

    try:
        game = Game(rules, first_dealer=first, deal_source=source)
    except ValueError as e:
        raise CaseError(f"deals[0]: {e}") from None
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(entries):
        if game.finished:
            raise CaseError(f"deals[{i}] is given after the game is over")
        refused: list[int] = []
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            raise CaseError(f"deals[{i}].actions must be a list")
        for j, raw in enumerate(actions):
            where = f"deals[{i}].actions[{j}]"
            try:
                seat, action = _action(raw, where)
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise _Refused("no seat")
                if len(game.results) > i:
                    raise IllegalAction(ActionErrorCode.DEAL_OVER, "the deal is over")
                game.apply(seat, action)
            except (_Refused, IllegalAction):
                refused.append(j)
            except ValueError as e:  # e.g. a random tie-break deal without its declarer
                raise CaseError(f"{where}: {e}") from None
        done = len(game.results) > i
        if not done and i < len(entries) - 1:
            raise CaseError(f"deals[{i}] neither finishes nor ends void, but another deal follows")
        out.append(_deal_report(game, i, refused))
    return {"deals": out, "totals": list(game.totals), "finished": game.finished}


def _deal_report(game: Game, i: int, refused: list[int]) -> dict[str, Any]:
    if len(game.results) > i:
        r = game.results[i]
        return {
            "dealer": r.dealer,
            "declarer": r.declarer,
            "contract": r.label or None,
            "trump": None if r.trump is None else SUITS[r.trump],
            "tricks": list(r.tricks),
            "points": list(r.points),
            "void": r.void,
            "refused": refused,
        }
    settled = game.phase >= Phase.EXCHANGE and game.contract is not None
    contract = contract_label(game.contract.name, game.major) if settled else (game.announced.name if game.announced else None)  # type: ignore[union-attr]
    return {
        "dealer": game.dealer,
        "declarer": game.declarer,
        "contract": contract,
        "trump": None if game.trump is None else SUITS[game.trump],
        "tricks": list(game.tricks),
        "points": None,
        "void": False,
        "refused": refused,
    }


def load_case(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CaseError(f"{path}: cannot read case: {e}") from None


def compare(case: Mapping[str, Any], result: Mapping[str, Any]) -> list[str]:
    """What differs between a case's expectations and a result; empty when it passes."""
    diffs: list[str] = []
    expectations = [case.get("expect")] + [entry.get("expect") for entry in case["deals"]]
    if any(e is not None and not isinstance(e, Mapping) for e in expectations):
        raise CaseError("every expect must be an object of field: value")
    for i, (entry, got) in enumerate(zip(case["deals"], result["deals"])):
        want_refused = [j for j, a in enumerate(entry.get("actions", [])) if a.get("refused")]
        if got["refused"] != want_refused:
            diffs.append(f"deal {i}: refused actions {got['refused']}, expected {want_refused}")
        for key, want in (entry.get("expect") or {}).items():
            if key in got and got[key] != want:
                diffs.append(f"deal {i}: {key} is {got[key]!r}, expected {want!r}")
    for key, want in (case.get("expect") or {}).items():
        if key in result and result[key] != want:
            diffs.append(f"{key} is {result[key]!r}, expected {want!r}")
    return diffs


def case_files(paths: list[Path]) -> Iterator[Path]:
    for p in paths:
        if p.is_dir():
            yield from sorted(p.rglob("*.json"))
        else:
            yield p
