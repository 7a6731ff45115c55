"""Engine events to and from the wire: each audience's event stream (:func:`event_to_proto`,
:class:`EventEncoder`), a seat's SeatView kept up to date from its event stream
(:class:`SeatViewKeeper`), the reverse for the replay command's text (:func:`event_from_proto`,
:func:`result_from_proto`), and the full deal records of a finished match
(:func:`deal_records_from_events`).

Like :mod:`server.codec.protocol`, it only re-encodes what :func:`~mizerka_engine.views.project_events`
projected, so it cannot disclose what the projection hides.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from mizerka_engine.cards import CARD_TEXT
from mizerka_engine.events import (
    PLAYED,
    TRICK_TAKEN,
    ContractAnnounced,
    DealResult,
    DealScored,
    Dealt,
    Event,
    Exchanged,
    MajorAnnounced,
    Played,
    Revoked,
    Settled,
    TrickTaken,
    contract_label,
)
from mizerka_engine.fold import fold_deals
from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import contract_quotas, glance, project
from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server.codec.protocol import (
    PHASE,
    TRUMP_TEXT,
    ProtocolError,
    add_announcements,
    add_tricks,
    card_from_text,
    cards_text,
    result_to_proto,
    suit_from_text,
    view_to_proto,
)

__all__ = [
    "EventEncoder",
    "SeatViewKeeper",
    "contract_name",
    "deal_records_from_events",
    "event_from_proto",
    "event_to_proto",
    "result_from_proto",
]


def event_to_proto(event: Event, rules: Ruleset | None = None, *, trick: int = 0) -> events_pb2.Event | None:
    """One event of :func:`~mizerka_engine.views.project_events` as a wire Event; None for events with
    no wire event of their own (:class:`GameOver`: the referee sends GameEnd).

    ``rules`` fills ContractSettled's quotas and minus flag; ``trick`` is the number (from 0) that
    a :class:`TrickTaken` gets. :class:`EventEncoder` keeps both for a whole event stream.
    """
    t = type(event)  # type() identity, not match: plays and tricks are most events, sent to every seat
    if t is Played:
        return events_pb2.Event(card_played=events_pb2.CardPlayed(seat=event.seat, card=CARD_TEXT[event.card]))  # type: ignore[union-attr]
    if t is TrickTaken:
        return events_pb2.Event(trick_won=events_pb2.TrickWon(winner=event.winner, trick=trick))  # type: ignore[union-attr]
    match event:
        case Dealt():
            started = events_pb2.DealStarted(
                deal=event.deal_no, redeal=event.redeal, tiebreak=event.tiebreak, dealer=event.dealer, declarer=event.declarer
            )
            if event.hands is not None:  # full disclosure only: the projection cut hands and talon for everyone else
                started.hands.extend(game_pb2.SeatCards(seat=s, cards=cards_text(h)) for s, h in enumerate(event.hands))
                started.talon.extend(cards_text(event.talon or ()))
            return events_pb2.Event(deal_started=started)
        case Exchanged(seat, count, discard, take):
            if discard is None:  # another seat's exchange: the count only
                return events_pb2.Event(cards_exchanged=events_pb2.CardsExchanged(seat=seat, count=count))
            return events_pb2.Event(
                cards_exchanged=events_pb2.CardsExchanged(
                    seat=seat, count=count, cards_known=True, discarded=cards_text(discard), taken=cards_text(take or ())
                )
            )
        case ContractAnnounced(seat, contract, trump):
            return events_pb2.Event(contract_announced=events_pb2.ContractAnnounced(seat=seat, contract=contract, trump=TRUMP_TEXT[trump]))
        case MajorAnnounced(seat, contract):
            return events_pb2.Event(major_announced=events_pb2.MajorAnnounced(seat=seat, contract=contract or ""))
        case Settled(declarer, contract, major, trump):
            settled = events_pb2.ContractSettled(declarer=declarer, contract=event.label, trump=TRUMP_TEXT[trump], major=major)
            if rules is not None:
                info = rules.contract(contract)
                settled.minus = info is not None and info.minus
                settled.quotas.extend(contract_quotas(rules, declarer, settled.minus, major))
            return events_pb2.Event(contract_settled=settled)
        case Revoked(seat, card):
            return events_pb2.Event(revoked=events_pb2.Revoked(seat=seat, card=CARD_TEXT[card]))
        case DealScored(result, totals):
            return events_pb2.Event(deal_ended=events_pb2.DealEnded(result=result_to_proto(result, totals)))
    return None


class EventEncoder:
    """Encodes one audience's event stream in order, numbering tricks within each deal.

    Feed it the projected log from the game's first event on (``project_events(game, audience, i)``
    with successive ``i``), so that trick numbers are right.
    """

    __slots__ = ("rules", "trick")

    def __init__(self, rules: Ruleset | None = None) -> None:
        self.rules = rules
        self.trick = 0

    def encode(self, event: Event) -> events_pb2.Event | None:
        t = type(event)
        if t is Dealt:
            self.trick = 0
        out = event_to_proto(event, self.rules, trick=self.trick)
        if t is TrickTaken:
            self.trick += 1
        return out

    def encode_all(self, events: Iterable[Event]) -> list[events_pb2.Event]:
        out: list[events_pb2.Event] = []
        for e in events:
            msg = self.encode(e)
            if msg is not None:
                out.append(msg)
        return out

    def request_bytes(self, events: Iterable[Event]) -> bytes:
        """The events as DecisionRequest.events on the wire, to merge into a request: plays and
        tricks, most events, are encoded once per process (a DecisionRequest carries them all)."""
        parts: list[bytes] = []
        for e in events:
            t = type(e)
            if t is Played:
                parts.append(_PLAYED_BYTES[e.seat][e.card])  # type: ignore[union-attr]
            elif t is TrickTaken:
                parts.append(_trick_bytes(e.winner, self.trick))  # type: ignore[union-attr]
                self.trick += 1
            elif (msg := self.encode(e)) is not None:
                parts.append(referee_pb2.DecisionRequest(events=[msg]).SerializeToString())
        return b"".join(parts)


def _request_event_bytes(event: Event, trick: int = 0) -> bytes:
    """A play or a trick (numbered ``trick``) as one entry of DecisionRequest.events on the wire."""
    return referee_pb2.DecisionRequest(events=[event_to_proto(event, trick=trick)]).SerializeToString()


_PLAYED_BYTES = tuple(tuple(_request_event_bytes(e) for e in seat) for seat in PLAYED)  # [seat][card]


@lru_cache(maxsize=1024)
def _trick_bytes(winner: int, trick: int) -> bytes:
    return _request_event_bytes(TRICK_TAKEN[winner], trick)


class SeatViewKeeper:
    """One seat's SeatView, kept up to date from the seat's projected events rather than rebuilt.

    Every DecisionRequest carries the seat's whole view, and rebuilding it (:func:`project` and
    :func:`~server.codec.protocol.view_to_proto`) walks the deal's log and encodes every trick again. The
    keeper applies what :func:`~mizerka_engine.views.project_events` gave the seat (fed to
    :meth:`feed` in order, none left out, before each :meth:`view`) and takes what no event tells
    -- the phase, who acts, the seat's own hand and the talon as it may see them, the seat winning
    the trick in progress as the engine decided it -- from :func:`~mizerka_engine.views.glance`;
    at a deal's boundary it rebuilds from :func:`project`, the one fold of the deal's events.
    So the projection alone still decides what the seat sees (tests/test_seat_view.py: equal to the
    rebuilt view after every action).
    """

    __slots__ = ("current", "hand", "message", "names", "players", "rules", "seat", "talon")

    def __init__(self, rules: Ruleset, seat: int, names: Sequence[str]) -> None:
        self.rules = rules
        self.seat = seat
        self.names = list(names)
        self.message: game_pb2.SeatView | None = None  # None: rebuild at the next view()
        self.players: list[game_pb2.PlayerState] = []  # the message's, looked up once
        self.current: game_pb2.Trick | None = None  # the message's trick in progress
        self.hand: tuple[int, ...] | None = None
        self.talon: tuple[int, ...] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> SeatViewKeeper:
        """A keeper that rebuilds at its next view() (a copy of the message would leave ``players`` and
        ``current`` pointing into the original)."""
        return SeatViewKeeper(self.rules, self.seat, self.names)

    def view(self, game: Game) -> game_pb2.SeatView:
        """The seat's view of ``game`` now (the keeper's own message: copy it, do not keep it)."""
        msg = self.message
        if msg is None:
            return self._rebuild(game)
        phase, to_act, hand, talon, winning = glance(game, self.seat)
        msg.phase = PHASE[phase]
        if self.current is not None:  # once here rather than after every card
            self.current.winning = winning
        if to_act >= 0:
            msg.to_act = to_act
        else:
            msg.ClearField("to_act")
        if hand != self.hand:
            self.hand = hand
            player = self.players[self.seat]
            player.hand_known = hand is not None
            del player.hand[:]
            player.hand.extend(cards_text(hand or ()))
        if talon != self.talon:
            self.talon = talon
            msg.talon_known = talon is not None
            del msg.talon[:]
            msg.talon.extend(cards_text(talon or ()))
        return msg

    def forget(self) -> None:
        """Events were left out (the seat was not fed): rebuild at the next view()."""
        self.message = None

    def feed(self, events: Iterable[Event]) -> None:
        """The seat's next projected events, in order."""
        msg = self.message
        if msg is None:
            return
        players = self.players
        for e in events:
            t = type(e)  # type identity for plays and tricks: every seat's view takes each of them
            if t is Played:
                seat = e.seat  # type: ignore[union-attr]
                players[seat].hand_count -= 1
                current = self.current
                if current is None:
                    self.current = current = msg.tricks.add()
                    current.leader = seat
                play = current.plays.add()
                play.seat = seat
                play.card = CARD_TEXT[e.card]  # type: ignore[union-attr]
                continue
            if t is TrickTaken:
                current = self.current
                assert current is not None
                current.winner = current.winning = winner = e.winner  # type: ignore[union-attr]
                players[winner].tricks_won += 1
                self.current = None
                continue
            match e:
                case Exchanged(seat, count, discard, take):
                    player = players[seat]
                    player.exchanged = count
                    if discard is not None:  # the seat's own exchange: the projection kept the cards
                        player.exchange_known = True
                        player.discarded.extend(cards_text(discard))
                        player.taken.extend(cards_text(take or ()))
                case ContractAnnounced(seat, contract, trump):
                    msg.announcements.add(seat=seat, kind=game_pb2.ANNOUNCEMENT_KIND_CONTRACT, contract=contract)
                    self._show(msg, contract, False, trump)
                case MajorAnnounced(seat, contract):
                    msg.announcements.add(seat=seat, kind=game_pb2.ANNOUNCEMENT_KIND_MAJOR, contract=contract or "")
                case Settled(declarer, contract, major, trump):
                    msg.declarer = declarer
                    minus = self._show(msg, contract, major, trump)
                    for player, quota in zip(players, contract_quotas(self.rules, declarer, minus, major)):
                        player.quota = quota
                case _:  # Dealt, Revoked, DealScored, GameOver: a deal begins or ends
                    self.message = None
                    return

    def _show(self, msg: game_pb2.SeatView, name: str, major: bool, trump: int | None) -> bool:
        """The contract shown (announced, then settled); whether it is a minus contract."""
        info = self.rules.contract(name)
        minus = info is not None and info.minus
        msg.contract = contract_label(name, major)
        msg.contract_name = name
        msg.contract_major = major
        msg.contract_minus = minus
        msg.trump = TRUMP_TEXT[trump]
        return minus

    def _rebuild(self, game: Game) -> game_pb2.SeatView:
        view = project(game, self.seat)
        self.message = msg = view_to_proto(view, self.names)
        self.players = list(msg.players)
        self.current = msg.tricks[-1] if game.trick else None
        self.hand, self.talon = view.hands[self.seat], view.talon
        return msg


def contract_name(rules: Ruleset, label: str, major: bool) -> str:
    """The ruleset's contract a wire label stands for: the one whose label (contract_label) it is
    (the match log writes the name, server/codec/matchlog.py)."""
    for c in rules.contracts:
        if contract_label(c.name, major) == label:
            return c.name
    raise ProtocolError(f"{label!r} is not a contract of {rules.preset}")


def result_from_proto(msg: game_pb2.DealResult, rules: Ruleset) -> DealResult:
    """A wire DealResult as the engine's (its running totals are not part of it)."""
    return DealResult(
        msg.deal, msg.redeal, msg.tiebreak, msg.dealer, msg.declarer, msg.caller,
        contract_name(rules, msg.contract, msg.major), msg.major, suit_from_text(msg.trump, "result.trump"),
        tuple(msg.tricks), tuple(msg.points), msg.void, msg.revoker if msg.HasField("revoker") else None,
    )


def event_from_proto(msg: events_pb2.Event, rules: Ruleset) -> Event | None:
    """The engine event a wire Event carries: the inverse of :func:`event_to_proto` (a trick's
    number and a settled contract's quotas and minus flag follow from the stream and the rules).
    None for the referee's own events (DefaultApplied, StrikeCounted), which no engine event makes."""
    which = msg.WhichOneof("kind")
    if which == "card_played":
        return Played(msg.card_played.seat, card_from_text(msg.card_played.card, "card_played.card"))
    if which == "trick_won":
        return TrickTaken(msg.trick_won.winner)
    if which == "deal_started":
        x = msg.deal_started
        if not x.hands:
            return Dealt(x.deal, x.redeal, x.tiebreak, x.dealer, x.declarer)
        hands = tuple(tuple(card_from_text(c, "deal_started.hands") for c in h.cards) for h in x.hands)
        return Dealt(x.deal, x.redeal, x.tiebreak, x.dealer, x.declarer, hands,
                     tuple(card_from_text(c, "deal_started.talon") for c in x.talon))
    if which == "cards_exchanged":
        x = msg.cards_exchanged
        if not x.cards_known:
            return Exchanged(x.seat, x.count)
        return Exchanged(x.seat, x.count, tuple(card_from_text(c, "cards_exchanged.discarded") for c in x.discarded),
                         tuple(card_from_text(c, "cards_exchanged.taken") for c in x.taken))
    if which == "contract_announced":
        x = msg.contract_announced
        return ContractAnnounced(x.seat, x.contract, suit_from_text(x.trump, "contract_announced.trump"))
    if which == "major_announced":
        return MajorAnnounced(msg.major_announced.seat, msg.major_announced.contract or None)
    if which == "contract_settled":
        x = msg.contract_settled
        return Settled(x.declarer, contract_name(rules, x.contract, x.major), x.major, suit_from_text(x.trump, "contract_settled.trump"))
    if which == "revoked":
        return Revoked(msg.revoked.seat, card_from_text(msg.revoked.card, "revoked.card"))
    if which == "deal_ended":
        return DealScored(result_from_proto(msg.deal_ended.result, rules), tuple(msg.deal_ended.result.totals))
    return None


def deal_records_from_events(events: Iterable[Event]) -> list[game_pb2.DealRecord]:
    """Every deal of a game, disclosed completely, from ``project_events(game, FULL)``
    (:func:`~mizerka_engine.fold.fold_deals`).

    Only for finished matches (Watch): the records hold every hand, the talon and all exchanges. A
    deal cut short (an aborted game) is included without a result.
    """
    records: list[game_pb2.DealRecord] = []
    for deal in fold_deals(events):
        dealt = deal.dealt
        assert dealt is not None  # fold_deals starts every deal at its Dealt
        if dealt.hands is None or dealt.talon is None or any(x.discard is None for x in deal.exchanges):
            raise ValueError("deal records need the FULL projection (project_events(game, FULL))")
        record = game_pb2.DealRecord(
            hands=[game_pb2.SeatCards(seat=s, cards=cards_text(h)) for s, h in enumerate(dealt.hands)],
            talon=cards_text(dealt.talon),
            exchanges=[game_pb2.ExchangeRecord(seat=x.seat, discarded=cards_text(x.discard or ()), taken=cards_text(x.take or ()))
                       for x in deal.exchanges],
        )
        add_announcements(record.announcements, deal.announcements)
        add_tricks(record.tricks, deal.all_tricks)
        if deal.revoked is not None:
            record.revoke_card = CARD_TEXT[deal.revoked.card]
        if deal.scored is not None:
            record.result.CopyFrom(result_to_proto(deal.scored.result, deal.scored.totals))
        records.append(record)
    return records
