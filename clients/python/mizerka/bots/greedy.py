"""``greedy``: a trick-taker.

- Contract: plus contracts first: no-trump when the hand is balanced, else trumps in its longest
  suit (the next longest once that one is used); the minus contract is left for last.
- Exchange: in plus contracts it swaps its low side cards (below 8, never trumps) for talon cards;
  in a pick exchange it takes every talon card better than its worst cards. In the minus contract
  it keeps its hand.
- Play, plus contracts: wins every trick it can, with its highest winning card; leads its highest
  master (a card nobody can beat), else its highest card. When it cannot win it throws its lowest
  card, a side card if it can.
- Play, minus contracts: still ducks with its lowest card (leads low, follows low); void in the
  led suit, it throws its highest card.
- Majors (manni-major): announces one when holding 5 or more high cards (aces and kings).
"""

from __future__ import annotations

from mizerka.bot import Bot
from mizerka.bots.common import contract_trump, is_master, pick_swap, plus_contract_score, unseen_cards
from mizerka.cards import rank
from mizerka.turn import Turn
from mizerka_proto import game_pb2

__all__ = ["GreedyBot"]

#: Side cards ranked below this (2 to 7) are swapped in the exchange of a plus contract.
LOW_BELOW = rank("8")
#: Aces and kings needed to announce a major.
MAJOR_HIGH_CARDS = 5


class GreedyBot(Bot):
    """Takes every trick it can in plus contracts; ducks low in the minus contract (see the module doc)."""

    name = "greedy"
    version = "1"

    # -------------------------------------------------------------------------- contract
    def choose_contract(self, turn: Turn) -> game_pb2.Action:
        options = turn.legal_contracts
        hand = turn.hand

        def preference(option: tuple[str, str | None]) -> float:
            name, named_trump = option
            info = turn.contracts.get(name)
            if info is not None and info.minus:
                return float("-inf")  # the minus contract comes last
            return plus_contract_score(hand, contract_trump(turn, name, named_trump))

        return turn.choose(*max(options, key=preference))  # max keeps the first of equals

    # ----------------------------------------------------------------------------- majors
    def announce_major(self, turn: Turn) -> game_pb2.Action:
        hand = turn.hand
        options = turn.legal_majors
        if not options or sum(1 for c in hand if c[0] in "AK") < MAJOR_HIGH_CARDS:
            return turn.pass_major()
        return turn.major(max(options, key=lambda name: plus_contract_score(hand, contract_trump(turn, name))))

    # ---------------------------------------------------------------------------- exchange
    def exchange(self, turn: Turn) -> game_pb2.Action:
        if turn.minus or turn.max_exchange == 0:
            return turn.exchange()
        trump = turn.trump

        def value(c: str) -> float:
            return rank(c) + (13 if c[1] == trump else 0)

        if turn.pick:
            discard, take = pick_swap(turn.hand, turn.talon, value, turn.max_exchange)
            return turn.exchange(discard, take)
        low = sorted((c for c in turn.hand if c[1] != trump and rank(c) < LOW_BELOW), key=rank)
        return turn.exchange(low[: turn.max_exchange])

    # -------------------------------------------------------------------------------- play
    def play(self, turn: Turn) -> game_pb2.Action:
        legal = turn.legal_cards
        if len(legal) == 1:
            return turn.play(legal[0])
        if turn.minus:
            return turn.play(self._play_minus(turn, legal))
        return turn.play(self._play_plus(turn, legal))

    def _play_plus(self, turn: Turn, legal: list[str]) -> str:
        trump = turn.trump

        def strength(c: str) -> tuple[int, bool]:
            return rank(c), c[1] == trump

        if turn.leading:
            unseen = unseen_cards(turn)
            masters = [c for c in legal if is_master(c, unseen)]
            return max(masters or legal, key=strength)
        winners = [c for c in legal if turn.takes_trick(c)]
        if winners:
            return max(winners, key=rank)  # all of one suit: the led suit, or trumps when void
        return min(legal, key=lambda c: (c[1] == trump, rank(c)))

    def _play_minus(self, turn: Turn, legal: list[str]) -> str:
        if not turn.leading and legal[0][1] != turn.led_suit:
            return max(legal, key=rank)  # void: any card ducks, so drop the most dangerous one
        return min(legal, key=rank)
