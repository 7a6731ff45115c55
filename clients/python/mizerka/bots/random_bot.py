"""``random``: a uniformly random legal action; a random exchange of 0..max cards."""

from __future__ import annotations

import random

from mizerka.bot import Bot
from mizerka.turn import EXCHANGE, Turn
from mizerka_proto import game_pb2

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Plays uniformly at random among the legal actions (a baseline, and a fuzzer for servers)."""

    name = "random"
    version = "1"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, turn: Turn) -> game_pb2.Action:
        if turn.kind == EXCHANGE:
            hand = turn.hand
            k = self.rng.randint(0, min(turn.max_exchange, len(hand)))
            discard = self.rng.sample(hand, k)
            take = self.rng.sample(turn.talon, k) if turn.pick else []
            return turn.exchange(discard, take)
        return turn.to_action(self.rng.choice(turn.legal_actions))
