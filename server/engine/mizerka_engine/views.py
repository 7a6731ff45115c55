"""The one projection from a game to what an audience may know (docs/rules.md §10).

An audience is a seat number, :data:`SPECTATOR` (public information only) or :data:`FULL` (everything,
for logs and finished matches). The referee, the spectator stream, logs and replays all call
:func:`project` and :func:`project_events` (the referee keeps each seat's view up to date from
:func:`project_events` and :func:`glance`); nothing else decides what anyone may see. A view's
announcements and tricks are the audience's events of the deal folded by :mod:`mizerka_engine.fold`.
"""

from __future__ import annotations

from typing import NamedTuple

from mizerka_engine.cards import mask_cards
from mizerka_engine.events import DealResult, Dealt, Event, Exchanged, contract_label
from mizerka_engine.fold import NO_DEAL, Announcement, DealState, TrickView, fold_deal
from mizerka_engine.game import Decision, Game, Phase
from mizerka_engine.rules import MAJOR_QUOTA, Ruleset

SPECTATOR = -1
FULL = -2


class View(NamedTuple):
    """A snapshot for one audience. Card fields hold only cards that audience may know."""

    audience: int
    phase: Phase
    to_act: int
    deal_no: int
    redeal: int
    tiebreak: bool
    dealer: int
    caller: int  # who announced the contract first
    declarer: int  # effective declarer once settled (== caller until then)
    contract: str | None  # the label: "hearts", "hearts major"
    contract_name: str | None  # the ruleset's name of the contract (``major`` says whether it is played as one)
    major: bool  # a major contract is settled
    minus: bool  # the contract announced is a minus contract
    trump: int | None
    hands: tuple[tuple[int, ...] | None, ...]  # per seat; None where this audience may not see it
    hand_sizes: tuple[int, ...]
    talon: tuple[int, ...] | None  # the talon as this audience knows it, or None
    announcements: tuple[Announcement, ...]
    exchanged: tuple[int | None, ...]  # cards each seat exchanged; None = not yet
    discards: tuple[tuple[int, ...] | None, ...]
    taken: tuple[tuple[int, ...] | None, ...]
    tricks: tuple[TrickView, ...]  # completed tricks of this deal, then the one in progress
    tricks_won: tuple[int, ...]
    quotas: tuple[int, ...] | None
    used: tuple[tuple[str, ...], ...]  # contracts each seat has used up
    totals: tuple[int, ...]
    results: tuple[DealResult, ...]
    decision: Decision | None  # the audience's own pending decision, if any
    finished: bool


def _known(audience: int, seat: int) -> bool:
    return audience == FULL or audience == seat


def deal_state(game: Game, audience: int) -> DealState:
    """The current deal as ``audience``'s events tell it (:func:`~mizerka_engine.fold.fold_deal` of
    its projected events from the deal's :class:`Dealt` on); :data:`~mizerka_engine.fold.NO_DEAL`
    while the game waits for cards."""
    if game.phase == Phase.WAITING:
        return NO_DEAL
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if type(log[i]) is Dealt:
            return fold_deal(project_events(game, audience, i))
    return NO_DEAL


def _visible_hand(game: Game, audience: int, seat: int) -> tuple[int, ...] | None:
    if not _known(audience, seat) or game.phase == Phase.WAITING:
        return None
    cards = mask_cards(game.hands[seat])
    if game.phase == Phase.CONTRACT and audience != FULL:
        # Before the announcement only the declarer sees its first `choose_after` cards;
        # with choose_after = "all" the deal is complete and everyone holds its hand.
        if game.rules.choose_after_all:
            return tuple(cards)
        if seat != game.caller:
            return ()
        first = set(game.dealt[seat][: game.rules.seen_before_choice])
        return tuple(c for c in cards if c in first)
    return tuple(cards)


def _visible_talon(game: Game, audience: int) -> tuple[int, ...] | None:
    if game.phase == Phase.WAITING:
        return None
    if audience == FULL:
        return tuple(game.talon)
    saw = audience == game.declarer and game.rules.pick and game.phase >= Phase.EXCHANGE  # the seat first: the cheapest test
    return tuple(game.talon) if saw else None


def contract_quotas(rules: Ruleset, declarer: int, minus: bool, major: bool) -> tuple[int, ...]:
    """Each seat's quota for a settled contract (docs/rules.md §5.1 and §6.4): the one lookup, so that the
    views and the ContractSettled event agree and no client needs the tables."""
    n = rules.players
    if major:
        return tuple(MAJOR_QUOTA if s == declarer else 1 for s in range(n))
    table = rules.quotas_minus if minus else rules.quotas_plus
    return tuple(table[(s - declarer) % n] for s in range(n))


def _quotas(game: Game) -> tuple[int, ...] | None:
    if game.contract is None or game.phase == Phase.WAITING:
        return None
    return contract_quotas(game.rules, game.declarer, game.contract.minus, game.major)


def project(game: Game, audience: int, deal: DealState | None = None) -> View:
    """The view of ``game`` for a seat, SPECTATOR or FULL; ``deal``: the audience's
    :func:`deal_state` of the game, where the caller has it already, or SPECTATOR's (the view takes
    only what every audience sees of the deal from it: its announcements and tricks)."""
    n = game.n
    waiting = game.phase == Phase.WAITING
    if deal is None:
        deal = deal_state(game, audience)
    decision = game.decision() if audience >= 0 and game.to_act == audience else None
    names = [c.name for c in game.rules.contracts]
    # The settled contract, else the one announced before the major round, else none yet.
    shown = None if waiting else game.contract or game.announced
    return View(
        audience=audience,
        phase=game.phase,
        to_act=game.to_act,
        deal_no=game.deal_no,
        redeal=game.redeal,
        tiebreak=game.tiebreak,
        dealer=-1 if waiting else game.dealer,
        caller=-1 if waiting else game.caller,
        declarer=-1 if waiting else game.declarer,
        contract=None if shown is None else contract_label(shown.name, game.major),
        contract_name=None if shown is None else shown.name,
        major=not waiting and game.major,
        minus=shown is not None and shown.minus,
        trump=None if shown is None else game.trump,
        hands=tuple(None if waiting else _visible_hand(game, audience, s) for s in range(n)),
        hand_sizes=tuple(0 if waiting else game.hands[s].bit_count() for s in range(n)),
        talon=None if waiting else _visible_talon(game, audience),
        announcements=deal.announcements,
        exchanged=tuple([None] * n if waiting else game.exchanged),
        discards=tuple(game.discards[s] if not waiting and _known(audience, s) else None for s in range(n)),
        taken=tuple(game.taken[s] if not waiting and _known(audience, s) else None for s in range(n)),
        tricks=deal.all_tricks,
        tricks_won=deal.tricks_won(n),
        quotas=None if waiting else _quotas(game),
        used=tuple(tuple(names[i] for i in range(len(names)) if game.used[s] >> i & 1) for s in range(n)),
        totals=tuple(game.totals),
        results=tuple(game.results),
        decision=decision,
        finished=game.finished,
    )


class Glance(NamedTuple):
    """What changes in a seat's view without an event of its own: the phase, who acts, the cards
    the seat holds and knows of the talon, and the seat winning the trick in progress (-1: none;
    the engine's :attr:`~mizerka_engine.game.Game.winning`), as :func:`project` shows them."""

    phase: Phase
    to_act: int
    hand: tuple[int, ...] | None
    talon: tuple[int, ...] | None
    winning: int


def glance(game: Game, seat: int) -> Glance:
    """The part of ``seat``'s view that its projected events do not tell (see :class:`Glance`): with
    :func:`project_events` it keeps a view up to date without walking the deal's log again."""
    return Glance(game.phase, game.to_act, _visible_hand(game, seat, seat), _visible_talon(game, seat), game.winning)


def project_events(game: Game, audience: int, start: int = 0) -> list[Event]:
    """Log events from index ``start`` as ``audience`` may see them: the one place that cuts events.

    Hidden parts are cut, never replaced by anything: a :class:`Dealt` loses hands and talon (None;
    the seat's own cards come with its view), another seat's :class:`Exchanged` keeps only its count.
    """
    events = game.log[start:]
    if audience == FULL:
        return events
    out: list[Event] = []
    for e in events:
        t = type(e)  # type identity, not match: every seat's stream passes here on every action
        if t is Dealt:
            e = Dealt(e.deal_no, e.redeal, e.tiebreak, e.dealer, e.declarer)  # type: ignore[union-attr]
        elif t is Exchanged and e.seat != audience:  # type: ignore[union-attr]
            e = Exchanged(e.seat, e.count)  # type: ignore[union-attr]
        out.append(e)
    return out


def cards_in(view: View) -> set[int]:
    """Every card a view discloses (for checks that nothing hidden leaks)."""
    seen: set[int] = set()
    for hand in view.hands:
        seen.update(hand or ())
    seen.update(view.talon or ())
    for group in (view.discards, view.taken):
        for cards in group:
            seen.update(cards or ())
    for trick in view.tricks:
        seen.update(c for _, c in trick.cards)
    if view.decision is not None:
        seen.update(view.decision.talon)
        seen.update(a.card for a in view.decision.actions if hasattr(a, "card"))
    return seen
