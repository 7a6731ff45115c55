"""A game's state as the board draws it: one JSON shape (a *frame*) for the league report's replay
pages (tournaments/report.py) and the web page's finished public matches (server/replays.py), and
the board's renderer itself (``BOARD_ASSETS``: one JS and one CSS file), which the web page serves
and the report copies into its folder, so both draw a game with the same code from the same data.

A frame is the wire's view (a SeatView, made by the codec from the engine's projection) in the
board's shape, made here and nowhere else: the FULL view of a public game (every hand), or the
spectator's view of a live game (:func:`live_frame`: a hand it may not see is ``null`` with its card
count, the talon ``null`` until it is public), so the board can only draw what the view holds.

Every contract a frame shows comes with its ``label``, the text people read ("trumps (hearts)",
"hearts major"), made by the engine's :func:`~mizerka_engine.events.contract_text`: the board
displays it and composes no contract text of its own. Frames are made from the game's log whenever
a page is drawn, so a game stored before labels existed gets them too.

A frame's ``act`` (the action it shows) is the action's match log line and a deal's ``result`` the
log's result form (:mod:`server.codec.matchlog`), each with its ``label``: the pages read the log's names.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mizerka_engine.dealing import Deal
from mizerka_engine.events import (
    ACTION_EVENTS,
    ActionEvent,
    ContractAnnounced,
    DealScored,
    Dealt,
    MajorAnnounced,
    contract_text,
)
from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import FULL, project
from mizerka_proto import game_pb2
from server.codec import matchlog
from server.codec.protocol import result_to_proto, suit_from_text, view_to_proto
from server.codec.wire_events import event_to_proto
from server.logverify import logged_action

BOARD_ASSETS = Path(__file__).parent / "web" / "assets"
BOARD_FILES = ("board.js", "board.css")  # the renderer, in the web page's assets and copied into every report


_PHASES = {v: k.removeprefix("PHASE_").lower() for k, v in game_pb2.Phase.items()}
_ANNOUNCED = {game_pb2.ANNOUNCEMENT_KIND_CONTRACT: ContractAnnounced.kind, game_pb2.ANNOUNCEMENT_KIND_MAJOR: MajorAnnounced.kind}


class FramesError(RuntimeError):
    """A stored game that cannot be stepped through; the message says why."""


def _act_json(rules: Ruleset, entry: ActionEvent) -> dict[str, Any]:
    """An action for the page: its match log line (server/codec/matchlog.py) with the text the page shows
    for an announcement, ``label``."""
    msg = event_to_proto(entry)
    assert msg is not None  # every action has its wire Event
    act = matchlog.line_from_event(msg, rules)
    match entry:
        case ContractAnnounced(_, contract, trump):
            act["label"] = contract_text(contract, False, trump, rules)
        case MajorAnnounced(_, contract):
            act["label"] = _major_label(contract)
    return act


def _major_label(contract: str | None) -> str | None:
    """A major announcement's label ("hearts major"); None for a pass."""
    return None if contract is None else contract_text(contract, True, None)


def _result_json(rules: Ruleset, msg: game_pb2.DealResult) -> dict[str, Any]:
    """A deal result for the page (with the game's totals after it): its match log form
    (server/codec/matchlog.py) with the text the page shows, ``label``."""
    line = matchlog.result_line(msg, rules)
    return line | {"label": contract_text(line["contract"], msg.major, suit_from_text(msg.trump, "trump"), rules)}


def _cards(known: bool, cards: Sequence[str]) -> str | None:
    """Cards as one space-separated string (pages hold hundreds of views: this halves them)."""
    return " ".join(cards) if known else None


def _opt(msg: Any, name: str) -> int:
    """An optional seat or count of the view: -1 when absent, as the board reads it."""
    return getattr(msg, name) if msg.HasField(name) else -1


def view_frame(rules: Ruleset, msg: game_pb2.SeatView, act: dict[str, Any], ended: game_pb2.DealResult | None = None) -> dict[str, Any]:
    """The wire view ``msg`` (a FULL or spectator SeatView, :func:`server.codec.protocol.view_to_proto`)
    as the board draws it, after the action ``act``; ``ended``: the deal that the view was taken at
    the end of, with the totals after it."""
    players = msg.players
    trump = suit_from_text(msg.trump, "trump")
    frame = {
        "act": act,
        "phase": _PHASES[msg.phase],
        "deal": msg.deal, "redeal": msg.redeal, "tiebreak": msg.tiebreak,
        "dealer": _opt(msg, "dealer"), "caller": _opt(msg, "caller"), "declarer": _opt(msg, "declarer"),
        "contract": msg.contract or None, "trump": msg.trump or None,
        "label": contract_text(msg.contract_name, msg.contract_major, trump, rules) if msg.contract_name else None,
        "to_act": _opt(msg, "to_act"),
        "hands": [_cards(p.hand_known, p.hand) for p in players],
        "talon": _cards(msg.talon_known, msg.talon),
        "exchanged": [p.exchanged if p.HasField("exchanged") else None for p in players],
        "discards": [_cards(p.exchange_known, p.discarded) for p in players],
        "taken": [_cards(p.exchange_known, p.taken) for p in players],
        "tricks": [{"leader": t.leader, "cards": [[p.seat, p.card] for p in t.plays], "winner": t.winner if t.HasField("winner") else None}
                   for t in msg.tricks],
        "tricks_won": [p.tricks_won for p in players],
        "quotas": [p.quota for p in players] if players and players[0].HasField("quota") else None,
        "used": [list(p.used_contracts) for p in players],
        "totals": [p.total for p in players],
        "results": len(msg.results),
        "finished": msg.finished,
    }
    if not all(p.hand_known for p in players):  # a hand not shown: how many cards it holds
        frame["hand_counts"] = [p.hand_count for p in players]
    if ended is not None:
        # The view was taken as the deal ended, before the next one was dealt; the game has already
        # moved its counters (deal number, next caller) on, so the deal's own result says which it was.
        frame.update(deal=ended.deal, redeal=ended.redeal, tiebreak=ended.tiebreak, dealer=ended.dealer, caller=ended.caller,
                     declarer=ended.declarer, result=_result_json(rules, ended))
        if not msg.finished:
            frame.update(phase="end", to_act=-1)
    return frame


def live_frame(rules: Ruleset, msg: game_pb2.SeatView) -> dict[str, Any]:
    """The frame of a live game's view (the spectator's SeatView, server/watch.py), with the deal's
    announcements, which the live page lists. A finished game has moved its deal counter past its
    last deal: it is drawn as that deal ended ("Deal 18 of 18", not 19)."""
    ended = msg.results[-1] if msg.finished and msg.results else None
    frame = view_frame(rules, msg, {"type": "live"}, ended)
    # A contract's trump is the view's: the suit named with it (a major settled later could change
    # the trump, but no ruleset has both majors and a contract whose declarer names the suit).
    trump = suit_from_text(msg.trump, "trump")
    frame["announcements"] = [
        {"seat": a.seat, "kind": _ANNOUNCED[a.kind],
         "label": contract_text(a.contract, False, trump, rules) if a.kind == game_pb2.ANNOUNCEMENT_KIND_CONTRACT
         else _major_label(a.contract or None)}
        for a in msg.announcements]
    return frame


def game_frames(game: Game) -> list[dict[str, Any]]:
    """Replay ``game`` step by step on a fresh Game fed with its logged deals, projecting FULL after
    each action. A deal that ends is shown as it ended (last trick and its winner), then the next
    deal as dealt, as a step of its own."""
    log = game.log
    first = log[0] if log else None
    if not isinstance(first, Dealt) or first.hands is None:
        raise FramesError("the game's log does not start with a full deal")
    deals = iter([Deal(e.hands, e.talon or (), e.declarer) for e in log if isinstance(e, Dealt) and e.hands is not None])
    ended: list[game_pb2.SeatView] = []
    box: list[Game] = []

    def source(deal_no: int, redeal: int) -> Deal | None:
        if box:  # asked for the next deal: the one before has just ended
            ended.append(view_to_proto(project(box[0], FULL)))
        return next(deals, None)

    fresh = Game(game.rules, seed=game.seed, first_dealer=first.dealer, deal_source=source)
    box.append(fresh)
    rules = game.rules
    frames = [view_frame(rules, view_to_proto(project(fresh, FULL)), {"type": "deal"})]
    for entry in log:
        if not isinstance(entry, ACTION_EVENTS):
            continue
        before = len(fresh.log)
        fresh.apply(entry.seat, logged_action(game.rules, entry))
        act = _act_json(rules, entry)
        scored = next((e for e in fresh.log[before:] if isinstance(e, DealScored)), None)
        result = None if scored is None else result_to_proto(scored.result, scored.totals)
        if ended:
            frames.append(view_frame(rules, ended.pop(), act, result))
            frames.append(view_frame(rules, view_to_proto(project(fresh, FULL)), {"type": "deal"}))
        else:
            frames.append(view_frame(rules, view_to_proto(project(fresh, FULL)), act, result))
    if fresh.log != log:
        raise FramesError("stepping through the log did not give the logged game back")
    return frames


def scoresheet(rules: Ruleset, results: Sequence[game_pb2.DealResult], totals: Sequence[int]) -> dict[str, Any]:
    """The score sheet: every deal with points and running totals (the wire's results: a view's,
    or :func:`server.codec.protocol.results_to_proto` of a game's), and the contracts used. Results
    are public as each deal ends: a live game's come from the spectator's view, a finished one's
    from the game."""
    return {"contracts": [c.name for c in rules.contracts], "deals": [_result_json(rules, r) for r in results],
            "totals": list(totals)}
