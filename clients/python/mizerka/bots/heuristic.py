"""``heuristic``: simple card sense, no search.

- Contract: every contract must be declared once, so the bot declares the one this hand suits
  best *compared with an average hand*: each contract's fit (trumps: length and honours in the suit
  plus side aces; no-trump: high cards; minus: low cards) is standardised against random hands of
  the same size, and the highest standardised fit among the open contracts wins. A strong long
  suit so names that suit trumps, balanced high cards no-trump, a low hand the minus contract.
- Exchange: a card is swapped when it is worth less than a random unseen card would be. Plus
  contracts value trumps and long suits (short-suit low cards go, making voids); minus contracts
  value low cards (high cards go). A pick exchange keeps the best cards of hand + talon.
- Play, plus contracts: lead a card no one can beat (trumps first while opponents may hold some),
  else low from the longest side suit; follow with the cheapest card that wins (one that cannot be
  overtaken if there is one), else the lowest; void: ruff as low as wins, else throw the lowest
  side card of the shortest suit.
- Play, minus contracts: lead the card most sure to be beaten; follow with the highest card that
  still loses, else (forced to win) the highest; void: throw the most dangerous high card.
- Majors (manni-major): announce only with at least 14 sure-looking tricks; else pass.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from mizerka.bot import Bot
from mizerka.bots.common import (
    contract_kind,
    contract_trump,
    count_in_suit,
    fit_z,
    is_master,
    minus_play,
    ruff_risk,
    suit_lengths,
    unseen_cards,
)
from mizerka.cards import DECK, RANKS, SUITS, rank
from mizerka.turn import Turn
from mizerka_proto import game_pb2

__all__ = ["HeuristicBot"]


class HeuristicBot(Bot):
    """Sensible contract choice, exchange and card play from simple rules (see the module doc)."""

    name = "heuristic"
    version = "1"

    # -------------------------------------------------------------------------- contract
    def choose_contract(self, turn: Turn) -> game_pb2.Action:
        options = turn.legal_contracts
        if len(options) == 1:
            return turn.choose(*options[0])
        hand = turn.hand
        best, best_z = options[0], float("-inf")
        for name, named_trump in options:
            trump = contract_trump(turn, name, named_trump)
            z = fit_z(contract_kind(turn.contracts.get(name), trump), trump, hand)
            if z > best_z:
                best, best_z = (name, named_trump), z
        return turn.choose(*best)

    # ----------------------------------------------------------------------------- majors
    def announce_major(self, turn: Turn) -> game_pb2.Action:
        hand = turn.hand
        best, best_tricks = None, 0.0
        for name in turn.legal_majors:
            info = turn.contracts.get(name)
            trump = (info.trump if info is not None else "") or turn.trump
            tricks = _sure_tricks(hand, trump)
            if tricks > best_tricks:
                best, best_tricks = name, tricks
        if best is not None and best_tricks >= turn.ruleset.hand_size - 2:
            return turn.major(best)
        return turn.pass_major()

    # ---------------------------------------------------------------------------- exchange
    def exchange(self, turn: Turn) -> game_pb2.Action:
        hand = turn.hand
        minus, trump = turn.minus, turn.trump
        if turn.pick:
            pool = hand + turn.talon
            lengths = suit_lengths(pool)
            ranked = sorted(pool, key=lambda c: _value(c, minus, trump, lengths), reverse=True)
            keep = set(ranked[: len(hand)])
            discard = [c for c in hand if c not in keep]
            take = [c for c in turn.talon if c in keep]
            return turn.exchange(discard[: turn.max_exchange], take[: turn.max_exchange])
        lengths = suit_lengths(hand)
        unknown = [c for c in DECK if c not in set(hand)]
        expected = statistics.fmean(_value(c, minus, trump, lengths) for c in unknown)
        margin = 1.0
        worst = sorted(hand, key=lambda c: _value(c, minus, trump, lengths))
        discard = [c for c in worst if _value(c, minus, trump, lengths) < expected - margin]
        return turn.exchange(discard[: turn.max_exchange])

    # -------------------------------------------------------------------------------- play
    def play(self, turn: Turn) -> game_pb2.Action:
        legal = turn.legal_cards
        if len(legal) == 1:
            return turn.play(legal[0])
        unseen = unseen_cards(turn)
        if turn.minus:
            card = minus_play(turn, legal, unseen)
        else:
            card = self._play_plus(turn, legal, unseen)
        return turn.play(card)

    def _play_plus(self, turn: Turn, legal: list[str], unseen: set[str]) -> str:
        trump = turn.trump
        hand = turn.hand
        lengths = suit_lengths(hand)
        if turn.leading:
            unseen_trumps = sum(1 for c in unseen if c[1] == trump) if trump else 0
            masters = [c for c in legal if is_master(c, unseen)]
            if trump and unseen_trumps:
                trump_masters = [c for c in masters if c[1] == trump]
                if trump_masters:
                    return max(trump_masters, key=rank)
            side_masters = [c for c in masters if c[1] != trump]
            if side_masters:
                # Prefer a suit the others still hold (so it is followed, not ruffed), then the highest.
                return max(side_masters, key=lambda c: (count_in_suit(unseen, c[1]), rank(c)))
            if masters:
                return max(masters, key=rank)
            side = [c for c in legal if c[1] != trump] or legal
            longest = max(side, key=lambda c: (lengths[c[1]], -rank(c)))
            return min((c for c in side if c[1] == longest[1]), key=rank)
        winners = [c for c in legal if turn.takes_trick(c)]
        last = turn.to_play_after_me == 0
        if winners:
            if last:
                return min(winners, key=lambda c: (c[1] == trump, rank(c)))
            safe = [c for c in winners if is_master(c, unseen) and (c[1] == trump or not ruff_risk(turn, c, unseen))]
            pool = safe or winners
            return min(pool, key=lambda c: (c[1] == trump, rank(c)))
        # Cannot win: throw the cheapest card, preferably a side card of a short suit.
        return min(legal, key=lambda c: (c[1] == trump, rank(c), lengths[c[1]]))


def _value(card: str, minus: bool, trump: str | None, lengths: dict[str, int]) -> float:
    """What a card is worth to keep in this contract (higher is better)."""
    r = rank(card)
    if minus:
        return 12.0 - r - (0.4 if lengths[card[1]] <= 1 and r >= 8 else 0.0)
    if trump and card[1] == trump:
        return 10.0 + r
    if trump:
        return r + 0.3 * lengths[card[1]]
    return r + 0.6 * lengths[card[1]]


def _sure_tricks(hand: Sequence[str], trump: str | None) -> float:
    """A rough count of tricks a hand takes in a plus contract with ``trump``."""
    tricks = 0.0
    for s in SUITS:
        cards = sorted((c for c in hand if c[1] == s), key=rank, reverse=True)
        top = 0
        for i, c in enumerate(cards):
            if rank(c) == len(RANKS) - 1 - i:
                top += 1
            else:
                break
        if s == trump:
            # Long trumps win by length once the top is drawn.
            tricks += max(top, len(cards) - max(0, 5 - top)) if len(cards) >= 6 else top
        else:
            tricks += top
    return tricks
