"""``cautious``: risk-averse.

- Contract: the minus contract early when the hand is low (lower than an average hand of its size);
  otherwise a plus contract, no-trump with a balanced hand, else trumps in its longest suit.
- Exchange: in the minus contract it discards its highest cards (J and above); in plus contracts
  its lowest off-suit cards (2 to 5 outside the trump suit; in no-trump outside its longest suit).
  A pick exchange swaps those same cards for talon cards that are better for the contract.
- Play, plus contracts: wins only with a certain winner, the highest outstanding card of its suit
  (played cards are tracked through ``Turn.played_cards``) that no later player is likely to ruff;
  the cheapest such card when following. Otherwise it plays low.
- Play, minus contracts: leads the card most sure to be beaten; follows with the highest card that
  still loses (forced to win: the highest); void, it throws its most dangerous card.
- Majors: never announces one.
"""

from __future__ import annotations

from collections.abc import Callable

from mizerka.bot import Bot
from mizerka.bots.common import (
    contract_trump,
    fit_z,
    is_master,
    minus_play,
    pick_swap,
    plus_contract_score,
    ruff_risk,
    suit_lengths,
    unseen_cards,
)
from mizerka.cards import rank
from mizerka.turn import Turn
from mizerka_proto import game_pb2

__all__ = ["CautiousBot"]

#: A hand is "low" when its minus-contract fit is at least this many standard deviations above
#: an average hand of the same size.
LOW_HAND_Z = 0.0
#: Minus contracts: cards from this rank up (J, Q, K, A) are discarded.
HIGH_FROM = rank("J")
#: Plus contracts: off-suit cards below this rank (2 to 5) are discarded.
LOW_BELOW = rank("6")


class CautiousBot(Bot):
    """Plays the minus contract early with a low hand; wins only sure tricks (see the module doc)."""

    name = "cautious"
    version = "1"

    # -------------------------------------------------------------------------- contract
    def choose_contract(self, turn: Turn) -> game_pb2.Action:
        options = turn.legal_contracts
        hand = turn.hand
        minus = [o for o in options if self._is_minus(turn, o[0])]
        plus = [o for o in options if not self._is_minus(turn, o[0])]
        if minus and (not plus or fit_z("minus", None, hand) >= LOW_HAND_Z):
            return turn.choose(*minus[0])
        return turn.choose(*max(plus, key=lambda o: plus_contract_score(hand, contract_trump(turn, *o))))

    @staticmethod
    def _is_minus(turn: Turn, name: str) -> bool:
        info = turn.contracts.get(name)
        return bool(info is not None and info.minus)

    # ----------------------------------------------------------------------------- majors
    def announce_major(self, turn: Turn) -> game_pb2.Action:
        return turn.pass_major()

    # ---------------------------------------------------------------------------- exchange
    def exchange(self, turn: Turn) -> game_pb2.Action:
        if turn.max_exchange == 0:
            return turn.exchange()
        hand = turn.hand
        value, candidate = _exchange_rule(hand, turn.minus, turn.trump)
        if turn.pick:
            discard, take = pick_swap(hand, turn.talon, value, turn.max_exchange, candidate)
            return turn.exchange(discard, take)
        return turn.exchange(sorted(filter(candidate, hand), key=value)[: turn.max_exchange])

    # -------------------------------------------------------------------------------- play
    def play(self, turn: Turn) -> game_pb2.Action:
        legal = turn.legal_cards
        if len(legal) == 1:
            return turn.play(legal[0])
        unseen = unseen_cards(turn)
        if turn.minus:
            return turn.play(minus_play(turn, legal, unseen))
        return turn.play(self._play_plus(turn, legal, unseen))

    def _play_plus(self, turn: Turn, legal: list[str], unseen: set[str]) -> str:
        trump = turn.trump

        def certain(c: str) -> bool:
            return is_master(c, unseen) and not ruff_risk(turn, c, unseen)

        def low(c: str) -> tuple[bool, int]:
            return c[1] == trump, rank(c)

        if turn.leading:
            sure = [c for c in legal if certain(c)]
            if sure:
                # Draw trumps first while the others may still hold some, then the side winners.
                trumps_out = bool(trump) and any(c[1] == trump for c in unseen)
                return max(sure, key=lambda c: (trumps_out and c[1] == trump, rank(c)))
            return min(legal, key=low)
        winners = [c for c in legal if turn.takes_trick(c)]
        if turn.to_play_after_me > 0:
            winners = [c for c in winners if certain(c)]
        if winners:
            return min(winners, key=low)
        return min(legal, key=low)


def _exchange_rule(
    hand: list[str], minus: bool, trump: str | None
) -> tuple[Callable[[str], float], Callable[[str], bool]]:
    """(what a card is worth to keep, which hand cards may go) for the exchange."""
    if minus:
        return (lambda c: -rank(c)), (lambda c: rank(c) >= HIGH_FROM)
    lengths = suit_lengths(hand)
    keep_suit = trump or max(lengths, key=lambda s: lengths[s])  # no-trump: the longest suit is "on-suit"
    return (lambda c: rank(c) + (13 if c[1] == trump else 0)), (lambda c: c[1] != keep_suit and rank(c) < LOW_BELOW)
