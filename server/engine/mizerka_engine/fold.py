"""The one fold of the event log: a deal's announcements, exchanges, tricks with their winners (and
the seat winning the trick in progress so far), the tricks each seat won, its revoke and its result.

:func:`deal_step` is a pure reducer (state + event -> state). The views
(:func:`mizerka_engine.views.project`, from which the referee's kept seat views start each deal)
and the deal records of finished matches (server/codec/wire_events.py) fold events with it, so that
no second walk over the log rebuilds tricks or decides who won them (between rebuilds a kept view
takes the winner of the trick in progress from the game, :func:`mizerka_engine.views.glance`). It records what the events it is given hold: folded
from a seat's projected events a deal holds what that seat may know (no cards in its ``Dealt``,
none in another seat's ``Exchanged``), folded from the full log everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import NamedTuple

from mizerka_engine import events as ev
from mizerka_engine.events import Event
from mizerka_engine.game import trick_winner


class TrickView(NamedTuple):
    leader: int
    cards: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int | None  # None while the trick is in progress
    winning: int  # the seat winning so far (== winner once complete), so that no player recomputes it


class Announcement(NamedTuple):
    seat: int
    kind: str  # the event's kind: "contract" or "major"
    contract: str | None  # the ruleset's contract name; None: a pass in the major round


class DealState(NamedTuple):
    """One deal as the events folded so far tell it; :data:`NO_DEAL` before its :class:`~mizerka_engine.events.Dealt`."""

    dealt: ev.Dealt | None
    trump: int | None  # the settled contract's trump suit, which decides the tricks (None: none)
    announcements: tuple[Announcement, ...]
    exchanges: tuple[ev.Exchanged, ...]
    tricks: tuple[TrickView, ...]  # the completed tricks, in order
    plays: tuple[tuple[int, int], ...]  # the trick in progress: (seat, card) in play order (see current)
    revoked: ev.Revoked | None  # the revoke that made the deal void
    scored: ev.DealScored | None  # None while the deal goes on (or in a game cut short)

    @property
    def winning(self) -> int | None:
        """The seat winning the trick in progress so far; None between tricks. Worked out when
        asked rather than at every card (a fold of a whole log asks once at its end)."""
        plays = self.plays
        return trick_winner(plays, self.trump) if plays else None

    @property
    def current(self) -> TrickView | None:
        """The trick in progress with the seat winning it so far; None between tricks."""
        winning = self.winning
        return None if winning is None else TrickView(self.plays[0][0], self.plays, None, winning)

    @property
    def all_tricks(self) -> tuple[TrickView, ...]:
        """The completed tricks, then the one in progress: as a view and a deal record show them."""
        current = self.current
        return self.tricks if current is None else (*self.tricks, current)

    def tricks_won(self, players: int) -> tuple[int, ...]:
        """How many tricks each seat has won in the deal so far."""
        won = [0] * players
        for t in self.tricks:
            won[t.winner] += 1  # type: ignore[index]  # a completed trick has its winner
        return tuple(won)


NO_DEAL = DealState(None, None, (), (), (), (), None, None)
_new = tuple.__new__  # a NamedTuple's own __new__ is a Python call: the two hot cases below skip it


def deal_step(state: DealState, event: Event) -> DealState:
    """``state`` after ``event``: fold a deal's events from its :class:`~mizerka_engine.events.Dealt` on (a Dealt starts a
    new deal; :class:`~mizerka_engine.events.GameOver` changes nothing)."""
    t = type(event)  # type identity, not match: plays and tricks are most events, and the referee folds each for every seat
    if t is ev.Played:
        dealt, trump, announcements, exchanges, tricks, plays, revoked, scored = state
        plays = (*plays, (event.seat, event.card))  # type: ignore[union-attr]
        return _new(DealState, (dealt, trump, announcements, exchanges, tricks, plays, revoked, scored))
    if t is ev.TrickTaken:
        dealt, trump, announcements, exchanges, tricks, plays, revoked, scored = state
        assert plays, "a trick is taken before any card of it is played"
        winner = event.winner  # type: ignore[union-attr]
        tricks = (*tricks, _new(TrickView, (plays[0][0], plays, winner, winner)))
        return _new(DealState, (dealt, trump, announcements, exchanges, tricks, (), revoked, scored))
    if t is ev.Dealt:
        return NO_DEAL._replace(dealt=event)
    if t is ev.ContractAnnounced or t is ev.MajorAnnounced:
        said = Announcement(event.seat, event.kind, event.contract)  # type: ignore[union-attr]
        return state._replace(announcements=(*state.announcements, said))
    if t is ev.Settled:
        return state._replace(trump=event.trump)  # type: ignore[union-attr]
    if t is ev.Exchanged:
        return state._replace(exchanges=(*state.exchanges, event))
    if t is ev.Revoked:
        return state._replace(revoked=event)
    if t is ev.DealScored:
        return state._replace(scored=event)
    return state


def fold_deal(events: Iterable[Event]) -> DealState:
    """The last deal of ``events`` (from its :class:`~mizerka_engine.events.Dealt` on) as they tell it; :data:`NO_DEAL` if none begins."""
    return reduce(deal_step, events, NO_DEAL)


def fold_deals(events: Iterable[Event]) -> list[DealState]:
    """Every deal of ``events`` as they tell it, in order; the last may be cut short (a game aborted)."""
    deals: list[DealState] = []
    for e in events:
        if type(e) is ev.Dealt:
            deals.append(NO_DEAL)
        if deals:
            deals[-1] = deal_step(deals[-1], e)
    return deals
