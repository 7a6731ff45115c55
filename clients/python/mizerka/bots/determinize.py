"""The expert's seat as the rules engine sees it: the determinisation half of :mod:`mizerka.bots.expert`
(the search is the other).

:func:`engine_rules` and :func:`engine_view` read a turn's Ruleset and SeatView back into the
engine's values, exactly as the referee projected them (``mizerka_engine.views.project``); the
engine's :func:`~mizerka_engine.resample.resample` then draws games consistent with that view.
What a seat may infer (the suits a seat showed it lacks, the talon positions of a blind exchange,
the cards a declarer saw before choosing) is the engine's to know, not this module's.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from google.protobuf.message import Message

from mizerka.rulesets import ruleset_options
from mizerka.turn import Turn
from mizerka_engine import Action, Choose, DealResult, Decision, Major, Phase, Play, Ruleset, load_ruleset
from mizerka_engine.cards import SUITS, parse_card
from mizerka_engine.events import ContractAnnounced, MajorAnnounced
from mizerka_engine.game import trick_beats
from mizerka_engine.views import TrickView, View
from mizerka_proto import game_pb2, referee_pb2

__all__ = ["engine_rules", "engine_view"]

_PHASES = {
    game_pb2.PHASE_CONTRACT: Phase.CONTRACT,
    game_pb2.PHASE_MAJOR: Phase.MAJOR,
    game_pb2.PHASE_EXCHANGE: Phase.EXCHANGE,
    game_pb2.PHASE_PLAY: Phase.PLAY,
    game_pb2.PHASE_WAITING: Phase.WAITING,
    game_pb2.PHASE_OVER: Phase.OVER,
}
_ANNOUNCEMENTS = {game_pb2.ANNOUNCEMENT_KIND_CONTRACT: ContractAnnounced.kind, game_pb2.ANNOUNCEMENT_KIND_MAJOR: MajorAnnounced.kind}


@lru_cache(maxsize=32)
def _rules_from_bytes(data: bytes) -> Ruleset:
    wire = game_pb2.Ruleset.FromString(data)
    return load_ruleset(wire.preset, ruleset_options(wire))


def engine_rules(wire: game_pb2.Ruleset) -> Ruleset:
    """The engine's Ruleset for a wire Ruleset (every option in force travels on the wire)."""
    return _rules_from_bytes(wire.SerializeToString(deterministic=True))


def _cards(texts: Iterable[str]) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in texts)


def _suit(letter: str) -> int | None:
    return SUITS.index(letter) if letter else None


def _absent(msg: Message, field: str) -> int:
    """An optional seat field, or -1 (the engine's "none") when absent."""
    return getattr(msg, field) if msg.HasField(field) else -1


def _action(a: game_pb2.Action) -> Action:
    which = a.WhichOneof("action")
    if which == "play_card":
        return Play(parse_card(a.play_card.card))
    if which == "choose_contract":
        return Choose(a.choose_contract.contract, _suit(a.choose_contract.trump))
    return Major(a.announce_major.contract or None)


def _result(r: game_pb2.DealResult) -> DealResult:
    name = r.contract.removesuffix(" major") if r.major else r.contract  # a major's label: "<name> major"
    return DealResult(r.deal, r.redeal, r.tiebreak, r.dealer, r.declarer, r.caller, name, r.major, _suit(r.trump),
                      tuple(r.tricks), tuple(r.points), r.void, r.revoker if r.HasField("revoker") else None)


def _decision(request: referee_pb2.DecisionRequest, seat: int, phase: Phase, tricks: tuple[TrickView, ...],
              trump: int | None) -> Decision:
    if phase == Phase.EXCHANGE:
        ex = request.exchange
        return Decision(seat, phase, (), ex.max_cards, ex.pick, _cards(ex.talon))
    actions = tuple(_action(a) for a in request.legal_actions)
    if phase != Phase.PLAY:
        return Decision(seat, phase, actions)
    in_progress = tricks[-1].cards if tricks and tricks[-1].winner is None else ()
    return Decision(seat, phase, actions, beats=trick_beats(in_progress, trump))


def engine_view(turn: Turn) -> View:
    """``turn``'s SeatView as the engine's View of the seat: ``project(game, turn.seat)`` of the game
    the referee runs, read back from the wire (what :func:`~mizerka_engine.resample.resample` takes)."""
    v = turn.view
    phase = _PHASES[v.phase]
    players = v.players
    quotas = tuple(p.quota for p in players) if players and players[0].HasField("quota") else None
    tricks = tuple(
        TrickView(t.leader, tuple((p.seat, parse_card(p.card)) for p in t.plays), t.winner if t.HasField("winner") else None,
                  t.winning)
        for t in v.tricks
    )
    return View(
        audience=turn.seat,
        phase=phase,
        to_act=_absent(v, "to_act"),
        deal_no=v.deal,
        redeal=v.redeal,
        tiebreak=v.tiebreak,
        dealer=_absent(v, "dealer"),
        caller=_absent(v, "caller"),
        declarer=_absent(v, "declarer"),
        contract=v.contract or None,
        contract_name=v.contract_name or None,
        major=v.contract_major,
        minus=v.contract_minus,
        trump=_suit(v.trump),
        hands=tuple(_cards(p.hand) if p.hand_known else None for p in players),
        hand_sizes=tuple(p.hand_count for p in players),
        talon=_cards(v.talon) if v.talon_known else None,
        announcements=tuple((a.seat, _ANNOUNCEMENTS[a.kind], a.contract or None) for a in v.announcements),
        exchanged=tuple(p.exchanged if p.HasField("exchanged") else None for p in players),
        discards=tuple(_cards(p.discarded) if p.exchange_known else None for p in players),
        taken=tuple(_cards(p.taken) if p.exchange_known else None for p in players),
        tricks=tricks,
        tricks_won=tuple(p.tricks_won for p in players),
        quotas=quotas,
        used=tuple(tuple(p.used_contracts) for p in players),
        totals=tuple(p.total for p in players),
        results=tuple(_result(r) for r in v.results),
        decision=_decision(turn.request, turn.seat, phase, tricks, _suit(v.trump)),
        finished=v.finished,
    )
