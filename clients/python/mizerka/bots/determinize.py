"""What the expert's seat knows, and deals drawn consistent with it: the determinisation half of
:mod:`mizerka.bots.expert` (the search is the other).

:func:`knowledge` reads everything the seat has seen from its DecisionRequest (its hand, its
exchange, the talon of its pick exchange, every card played, the suits a seat showed it lacks by
not following); :func:`sample_deal` draws the unseen cards consistent with it; :func:`rebuild`
replays the deal so far on such a sample with the rules engine.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from mizerka.turn import Turn
from mizerka_engine import Action, Choose, Deal, Exchange, Game, Major, Phase, Play, Ruleset, load_ruleset
from mizerka_engine.cards import FULL_DECK, SUIT_MASKS, card_mask, mask_cards, parse_card
from mizerka_proto import game_pb2

__all__ = ["Knowledge", "Sample", "engine_rules", "knowledge", "rebuild", "sample_deal"]


# ------------------------------------------------------------------------------ what the seat knows
class Knowledge(NamedTuple):
    """Everything one seat knows about the current deal, as engine values (cards as ints, masks)."""

    rules: Ruleset
    seat: int
    caller: int
    declarer: int
    used: tuple[int, ...]  # per seat: bit i = contract i used
    totals: tuple[int, ...]
    tiebreak: bool
    hand: int  # the seat's visible cards (mask)
    unseen_own: int  # own cards not shown yet (choose_after = 6, before the contract)
    hand_counts: tuple[int, ...]
    announcements: tuple[Action, ...]  # Choose / Major actions in order, with their seats
    announcers: tuple[int, ...]
    exchanged: tuple[int | None, ...]
    discards: tuple[int, ...]  # the seat's own discards, in order
    taken: tuple[int, ...]  # the seat's own taken cards, in talon order
    talon: tuple[int, ...] | None  # the talon, when the seat has seen it
    plays: tuple[tuple[int, int], ...]  # (seat, card) of the deal in order
    voids: tuple[int, ...]  # per seat: bit s = known void in suit s


def _enum_text(enum: object, prefix: str, value: int) -> str:
    """``DECLARER_MODE_CONTINUOUS_DEALER`` -> ``"continuous-dealer"`` (the engine's option text)."""
    return enum.Name(value).removeprefix(prefix).lower().replace("_", "-")  # type: ignore[attr-defined]


@lru_cache(maxsize=32)
def _rules_from_bytes(data: bytes) -> Ruleset:
    wire = game_pb2.Ruleset.FromString(data)
    options = {
        "declarer": _enum_text(game_pb2.DeclarerMode, "DECLARER_MODE_", wire.declarer),
        "deals": wire.deals,
        "revoke": _enum_text(game_pb2.RevokeMode, "REVOKE_MODE_", wire.revoke),
        "tiebreak": _enum_text(game_pb2.TiebreakMode, "TIEBREAK_MODE_", wire.tiebreak),
        "tiebreak_max": wire.tiebreak_max,
        "quotas_plus": list(wire.quotas_plus),
        "quotas_minus": list(wire.quotas_minus),
        "choose_after": "all" if wire.choose_after_all else 6,
        "trumps_allow_spades": wire.trumps_allow_spades,
    }
    return load_ruleset(wire.preset, options)


def engine_rules(wire: game_pb2.Ruleset) -> Ruleset:
    """The engine's Ruleset for a wire Ruleset (every option in force travels on the wire)."""
    return _rules_from_bytes(wire.SerializeToString(deterministic=True))


def knowledge(turn: Turn) -> Knowledge:
    """What ``turn``'s seat knows, read off its SeatView."""
    rules = engine_rules(turn.ruleset)
    view = turn.view
    names = [c.name for c in rules.contracts]
    players = view.players
    me = players[turn.seat]
    plays: list[tuple[int, int]] = []
    voids = [0] * rules.players
    for trick in view.tricks:
        led = -1
        for p in trick.plays:
            card = parse_card(p.card)
            if led < 0:
                led = card // 13
            elif card // 13 != led:
                voids[p.seat] |= 1 << led
            plays.append((p.seat, card))
    announcements: list[Action] = []
    trump = "SHDC".find(view.trump) if view.trump else None
    for a in view.announcements:
        if a.kind == game_pb2.ANNOUNCEMENT_KIND_CONTRACT:
            contract = rules.contract(a.contract)
            announcements.append(Choose(a.contract, trump if contract is not None and contract.names_trump else None))
        else:
            announcements.append(Major(a.contract or None))
    hand = card_mask(parse_card(c) for c in me.hand)
    return Knowledge(
        rules=rules,
        seat=turn.seat,
        caller=view.caller,
        declarer=view.declarer,
        used=tuple(sum(1 << names.index(n) for n in p.used_contracts) for p in players),
        totals=tuple(p.total for p in players),
        tiebreak=view.tiebreak,
        hand=hand,
        unseen_own=me.hand_count - hand.bit_count(),
        hand_counts=tuple(p.hand_count for p in players),
        announcements=tuple(announcements),
        announcers=tuple(a.seat for a in view.announcements),
        exchanged=tuple(p.exchanged if p.HasField("exchanged") else None for p in players),
        discards=tuple(parse_card(c) for c in me.discarded),
        taken=tuple(parse_card(c) for c in me.taken),
        talon=tuple(parse_card(c) for c in turn.talon) or None,
        plays=tuple(plays),
        voids=tuple(voids),
    )


# ------------------------------------------------------------------------------------ sampling
class Sample(NamedTuple):
    """One deal consistent with a seat's knowledge, and the exchanges to replay on it."""

    deal: Deal
    discards: tuple[tuple[int, ...], ...]  # per seat, as exchanged (empty where not yet)
    taken: tuple[tuple[int, ...], ...]  # per seat, in talon order


def _draw(mask: int, count: int, rng: random.Random) -> int:
    """``count`` cards of ``mask`` drawn at random, as a mask."""
    return card_mask(rng.sample(mask_cards(mask), count)) if count else 0


def _fill_hidden_hands(pool: int, need: dict[int, int], allowed: dict[int, int], rng: random.Random) -> dict[int, int]:
    """Each seat's hidden hand: ``need[j]`` cards of ``pool`` within ``allowed[j]`` (its non-void suits).

    Card by card, each draw keeps Hall's condition for the hands still to fill: every group of them
    must find at least as many allowed cards in the pool as it still needs, so a draw never strands a
    later hand (the other slots of a sample take any card)."""
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
            else:  # pragma: no cover -- the real deal satisfies every constraint, so a draw always exists
                raise ValueError("the seat's knowledge admits no deal")
            pool &= ~(1 << card)
            hands[j] |= 1 << card
    return hands


def sample_deal(k: Knowledge, rng: random.Random) -> Sample:
    """A deal (hands as dealt, talon in order) on which the deal so far replays exactly as ``k`` saw it.

    The hidden cards (others' hands now, others' discards, the rest of the talon, own cards not shown
    yet) are drawn from the cards the seat has not seen; a seat known void in a suit gets none of it.
    The cards another seat took in a blind exchange are drawn from what it held after it."""
    me, n = k.seat, k.rules.players
    played = [0] * n
    for s, c in k.plays:
        played[s] |= 1 << c
    seen = k.hand | card_mask(k.discards) | card_mask(k.taken) | card_mask(k.talon or ()) | sum(played)
    pool = FULL_DECK & ~seen
    others = [j for j in range(n) if j != me]
    allowed = {j: FULL_DECK & ~sum(SUIT_MASKS[s] for s in range(4) if k.voids[j] >> s & 1) for j in others}
    hidden = _fill_hidden_hands(pool, {j: k.hand_counts[j] for j in others}, allowed, rng)
    for j in others:
        pool &= ~hidden[j]
    hidden[me] = k.hand | _draw(pool, k.unseen_own, rng)
    pool &= ~hidden[me]
    discards: list[tuple[int, ...]] = [()] * n
    taken: list[tuple[int, ...]] = [()] * n
    discards[me], taken[me] = k.discards, k.taken
    for j in others:
        count = k.exchanged[j] or 0
        drawn = _draw(pool, count, rng)
        pool &= ~drawn
        discards[j] = tuple(mask_cards(drawn))
        taken[j] = tuple(rng.sample(mask_cards(hidden[j] | played[j]), count))
    if k.talon is not None:
        talon = k.talon
    else:
        order = [(k.declarer + i) % n for i in range(n)]  # the blind exchange's order; pick: one seat takes
        rest = mask_cards(pool)
        rng.shuffle(rest)
        talon = tuple(c for j in order for c in taken[j]) + tuple(rest)
    hands = tuple(
        tuple(mask_cards((hidden[j] | played[j]) & ~card_mask(taken[j]) | card_mask(discards[j]))) for j in range(n)
    )
    return Sample(Deal(hands, talon, k.caller), tuple(discards), tuple(taken))


def rebuild(k: Knowledge, sample: Sample) -> Game:
    """The game at the seat's decision on ``sample``: the deal started with :meth:`Game.at_deal`, then
    the announcements, exchanges and plays the seat saw, replayed by the engine."""
    game = Game.at_deal(k.rules, sample.deal, k.caller, k.used, k.totals, k.tiebreak)
    for seat, action in zip(k.announcers, k.announcements):
        game.apply(seat, action)
    pick = k.rules.pick
    while game.phase == Phase.EXCHANGE and k.exchanged[game.to_act] is not None:
        seat = game.to_act
        game.apply(seat, Exchange(sample.discards[seat], sample.taken[seat] if pick else None))
    for seat, card in k.plays:
        game.apply(seat, Play(card))
    return game
