"""A game one seat cannot tell from the real one: what OpenSpiel calls ``resample_from_infostate``.

A seat's :class:`~mizerka_engine.views.View` is everything it knows of the game: its hand, its own
exchange, the talon when it saw it, the announcements, every card played, each seat's exchange
count, the scores. :func:`resample` draws the cards the seat cannot see at random among those the
rules leave possible, and replays the deal on them with the engine, so that a searching bot plays
on a game whose view for the seat is exactly its own. The rules it keeps: a seat that failed to
follow a suit holds none of it; the cards another seat took in a blind exchange are among those it
held after, at the talon positions the exchange order (the declarer first, then to the left) gives
them; a pick exchange takes its cards from the talon; before the contract, the declarer's first
``choose_after`` cards are the ones it sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mizerka_engine.actions import Choose, Exchange, Major, Play
from mizerka_engine.cards import FULL_DECK, SUIT_MASKS, card_mask, mask_cards
from mizerka_engine.dealing import Deal
from mizerka_engine.events import ContractAnnounced
from mizerka_engine.game import Game, Phase
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import View

if TYPE_CHECKING:
    from random import Random

__all__ = ["resample"]


def resample(view: View, rules: Ruleset, rng: Random) -> Game:
    """A game at the moment of ``view`` (a seat's :func:`~mizerka_engine.views.project` during a deal)
    on cards drawn with ``rng`` among those consistent with it: ``project(game, view.audience) ==
    view``. The game is the engine's, so play goes on from it; after this deal it waits for cards
    (:meth:`Game.at_deal`: nobody knows the next deals). Raises ValueError for any other view."""
    if view.audience < 0 or view.phase >= Phase.WAITING:
        raise ValueError("resample takes a seat's view of a deal in progress")
    deal, discards, taken = _draw_deal(view, rules, rng)
    used = [sum(1 << rules.contract_index(name) for name in names) for names in view.used]
    game = Game.at_deal(rules, deal, view.caller, used, view.totals, view.tiebreak, view.results)
    for seat, kind, name in view.announcements:
        contract = rules.contract(name) if kind == ContractAnnounced.kind and name else None
        if contract is None:
            game.apply(seat, Major(name))
        else:  # the trump it named is the deal's (no preset lets a contract naming trumps be played major)
            game.apply(seat, Choose(contract.name, view.trump if contract.names_trump else None))
    pick = rules.pick
    while game.phase == Phase.EXCHANGE and view.exchanged[game.to_act] is not None:
        seat = game.to_act
        game.apply(seat, Exchange(discards[seat], taken[seat] if pick else None))
    for trick in view.tricks:
        for seat, card in trick.cards:
            game.apply(seat, Play(card))
    return game


def _draw_deal(view: View, rules: Ruleset, rng: Random) -> tuple[Deal, list[tuple[int, ...]], list[tuple[int, ...]]]:
    """A deal (hands as dealt, the talon in order) on which the deal so far replays as ``view`` saw
    it, with every seat's discards and taken cards (in talon order) to replay its exchange with.

    The hidden cards (others' hands now, their discards, the rest of the talon, own cards not shown
    yet) are drawn from those the seat has not seen; a seat known void in a suit gets none of it;
    another seat's taken cards are drawn from what it held after its exchange."""
    me, n = view.audience, rules.players
    played = [0] * n
    voids = [0] * n  # per seat, the cards of the suits it showed it lacks
    for trick in view.tricks:
        led = SUIT_MASKS[trick.cards[0][1] // 13]
        for seat, card in trick.cards:
            played[seat] |= 1 << card
            if not led >> card & 1:
                voids[seat] |= led
    shown = view.hands[me] or ()
    own_discards, own_taken = view.discards[me] or (), view.taken[me] or ()
    seen = card_mask(shown) | card_mask(own_discards) | card_mask(own_taken) | card_mask(view.talon or ()) | sum(played)
    pool = FULL_DECK & ~seen
    others = [j for j in range(n) if j != me]
    hidden = _fill_hidden_hands(pool, {j: view.hand_sizes[j] for j in others}, {j: FULL_DECK & ~voids[j] for j in others}, rng)
    for j in others:
        pool &= ~hidden[j]
    unseen_own = _draw(pool, view.hand_sizes[me] - len(shown), rng)
    pool &= ~unseen_own
    hidden[me] = card_mask(shown)
    discards: list[tuple[int, ...]] = [()] * n
    taken: list[tuple[int, ...]] = [()] * n
    discards[me], taken[me] = own_discards, own_taken
    for j in others:
        count = view.exchanged[j] or 0
        drawn = _draw(pool, count, rng)
        pool &= ~drawn
        discards[j] = tuple(mask_cards(drawn))
        taken[j] = tuple(rng.sample(mask_cards(hidden[j] | played[j]), count))
    if view.talon is not None:
        talon = view.talon
    else:
        order = [(view.declarer + i) % n for i in range(n)]  # the blind exchange's order; pick: one seat takes
        rest = mask_cards(pool)
        rng.shuffle(rest)
        talon = tuple(c for j in order for c in taken[j]) + tuple(rest)
    # As dealt: the cards the seat knows, then those drawn (a declarer choosing after 6 sees its first 6).
    hands = tuple(
        tuple(mask_cards((hidden[j] | played[j]) & ~card_mask(taken[j]) | card_mask(discards[j])))
        + (tuple(mask_cards(unseen_own)) if j == me else ())
        for j in range(n)
    )
    return Deal(hands, talon, view.caller), discards, taken


def _draw(mask: int, count: int, rng: Random) -> int:
    """``count`` cards of ``mask`` drawn at random, as a mask."""
    return card_mask(rng.sample(mask_cards(mask), count)) if count else 0


def _fill_hidden_hands(pool: int, need: dict[int, int], allowed: dict[int, int], rng: Random) -> dict[int, int]:
    """Each seat's hidden hand: ``need[j]`` cards of ``pool`` within ``allowed[j]`` (its non-void suits).

    Card by card, each draw keeps Hall's condition for the hands still to fill: every group of them
    must find at least as many allowed cards in the pool as it still needs, so a draw never strands a
    later hand (the other slots of a deal take any card)."""
    seats = sorted(need, key=lambda j: (allowed[j] & pool).bit_count() - need[j])
    left = dict(need)
    hands = dict.fromkeys(need, 0)
    groups = [[s for i, s in enumerate(seats) if k >> i & 1] for k in range(1, 1 << len(seats))]

    def feasible(pool_now: int) -> bool:
        for group in groups:
            union = 0
            for s in group:
                union |= allowed[s]
            if (union & pool_now).bit_count() < sum(left[s] for s in group):
                return False
        return True

    for j in seats:
        while left[j]:
            options = mask_cards(pool & allowed[j])
            rng.shuffle(options)
            left[j] -= 1
            for card in options:
                if feasible(pool & ~(1 << card)):
                    break
            else:
                raise ValueError("no deal is consistent with this view")
            pool &= ~(1 << card)
            hands[j] |= 1 << card
    return hands
