"""A game's state as the board draws it: one JSON shape (a *frame*) for the league report's replay
pages (tournaments/report.py) and the web page's finished public matches (server/replays.py), and
the board's renderer itself (``BOARD_ASSETS``: one JS and one CSS file), which the web page serves
and the report copies into its folder, so both draw a game with the same code from the same data.

A frame is an engine view in card notation, made here and nowhere else: the FULL view of a public
game (every hand), or the spectator's view of a live game (:func:`live_frame`: a hand it may not see
is ``null`` with its card count, the talon ``null`` until it is public), so the board can only draw
what the view holds.

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

from mizerka_engine.cards import SUITS, format_card, format_cards
from mizerka_engine.dealing import Deal
from mizerka_engine.events import (
    ACTION_EVENTS,
    ActionEvent,
    ContractAnnounced,
    DealResult,
    DealScored,
    Dealt,
    MajorAnnounced,
    contract_text,
)
from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import FULL, View, project
from server.codec import matchlog
from server.codec.protocol import result_to_proto
from server.codec.wire_events import event_to_proto
from server.logverify import logged_action

BOARD_ASSETS = Path(__file__).parent / "web" / "assets"
BOARD_FILES = ("board.js", "board.css")  # the renderer, in the web page's assets and copied into every report


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


def _result_json(rules: Ruleset, r: DealResult, totals: Sequence[int]) -> dict[str, Any]:
    """A deal result for the page (``totals``: the game's after it): its match log form
    (server/codec/matchlog.py) with the text the page shows, ``label``."""
    return matchlog.result_line(result_to_proto(r, totals), rules) | {"label": contract_text(r.contract, r.major, r.trump, rules)}


def _cards(cards: Any) -> str | None:
    """Cards as one space-separated string (pages hold hundreds of views: this halves them)."""
    return None if cards is None else " ".join(format_cards(cards))


def view_frame(rules: Ruleset, view: View, act: dict[str, Any], ended: DealScored | None = None) -> dict[str, Any]:
    """``view`` as the board draws it, after the action ``act``; ``ended``: the deal that the view
    was taken at the end of, with the totals after it."""
    name = view.contract_name
    frame = {
        "act": act,
        "phase": view.phase.name.lower(),
        "deal": view.deal_no, "redeal": view.redeal, "tiebreak": view.tiebreak,
        "dealer": view.dealer, "caller": view.caller, "declarer": view.declarer,
        "contract": view.contract, "trump": None if view.trump is None else SUITS[view.trump],
        "label": None if name is None else contract_text(name, view.major, view.trump, rules),
        "to_act": view.to_act,
        "hands": [_cards(h) for h in view.hands],
        "talon": _cards(view.talon),
        "exchanged": list(view.exchanged),
        "discards": [_cards(d) for d in view.discards],
        "taken": [_cards(t) for t in view.taken],
        "tricks": [{"leader": t.leader, "cards": [[s, format_card(c)] for s, c in t.cards], "winner": t.winner}
                   for t in view.tricks],
        "tricks_won": list(view.tricks_won),
        "quotas": None if view.quotas is None else list(view.quotas),
        "used": [list(u) for u in view.used],
        "totals": list(view.totals),
        "results": len(view.results),
        "finished": view.finished,
    }
    if None in view.hands:  # a hand not shown: how many cards it holds
        frame["hand_counts"] = list(view.hand_sizes)
    if ended is not None:
        # The view was taken as the deal ended, before the next one was dealt; the game has already
        # moved its counters (deal number, next caller) on, so the deal's own result says which it was.
        r = ended.result
        frame.update(deal=r.deal_no, redeal=r.redeal, tiebreak=r.tiebreak, dealer=r.dealer, caller=r.caller,
                     declarer=r.declarer, result=_result_json(rules, r, ended.totals))
        if not view.finished:
            frame.update(phase="end", to_act=-1)
    return frame


def live_frame(rules: Ruleset, view: View) -> dict[str, Any]:
    """The frame of a live game's view (the spectator's, server/watch.py), with the deal's
    announcements, which the live page lists. A finished game has moved its deal counter past its
    last deal: it is drawn as that deal ended ("Deal 18 of 18", not 19)."""
    ended = DealScored(view.results[-1], view.totals) if view.finished and view.results else None
    frame = view_frame(rules, view, {"type": "live"}, ended)
    # A contract's trump is the view's: the suit named with it (a major settled later could change
    # the trump, but no ruleset has both majors and a contract whose declarer names the suit).
    frame["announcements"] = [
        {"seat": seat, "kind": kind,
         "label": contract_text(name, False, view.trump, rules) if kind == ContractAnnounced.kind else _major_label(name)}
        for seat, kind, name in view.announcements]
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
    ended: list[View] = []
    box: list[Game] = []

    def source(deal_no: int, redeal: int) -> Deal | None:
        if box:  # asked for the next deal: the one before has just ended
            ended.append(project(box[0], FULL))
        return next(deals, None)

    fresh = Game(game.rules, seed=game.seed, first_dealer=first.dealer, deal_source=source)
    box.append(fresh)
    rules = game.rules
    frames = [view_frame(rules, project(fresh, FULL), {"type": "deal"})]
    for entry in log:
        if not isinstance(entry, ACTION_EVENTS):
            continue
        before = len(fresh.log)
        fresh.apply(entry.seat, logged_action(game.rules, entry))
        act = _act_json(rules, entry)
        result = next((e for e in fresh.log[before:] if isinstance(e, DealScored)), None)
        if ended:
            frames.append(view_frame(rules, ended.pop(), act, result))
            frames.append(view_frame(rules, project(fresh, FULL), {"type": "deal"}))
        else:
            frames.append(view_frame(rules, project(fresh, FULL), act, result))
    if fresh.log != log:
        raise FramesError("stepping through the log did not give the logged game back")
    return frames


def scoresheet(rules: Ruleset, results: Sequence[DealResult], totals: Sequence[int]) -> dict[str, Any]:
    """The score sheet: every deal with points and running totals, and the contracts used. Results
    are public as each deal ends: a live game's come from the spectator's view, a finished one's
    from the game."""
    running = [0] * len(totals)
    deals = []
    for r in results:
        running = [t + p for t, p in zip(running, r.points)]
        deals.append(_result_json(rules, r, running))
    return {"contracts": [c.name for c in rules.contracts], "deals": deals, "totals": list(totals)}


