"""Seeded dealing: a deal's cards depend only on (game seed, deal number, redeal number).

Nothing a player does can change the cards of a later deal, so the same seed gives the same deals
whoever sits where -- duplicate play depends on it. String seeding of ``random.Random`` hashes with
SHA-512, so the deals are the same on every machine and Python run.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from server.engine.cards import DECK_SIZE


class Deal(NamedTuple):
    """The cards of one deal: each hand in the order dealt, the talon top card first.

    ``declarer`` is a seat drawn from the seed, used only where the rules draw one (tie-break
    ``random``); a conformance case may give it explicitly.
    """

    hands: tuple[tuple[int, ...], ...]
    talon: tuple[int, ...]
    declarer: int | None = None


def seeded_deal(seed: int | str, deal_no: int, redeal: int, players: int, hand_size: int) -> Deal:
    rng = random.Random(f"mizerka:{seed}:{deal_no}:{redeal}")
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hands = tuple(tuple(deck[s * hand_size : (s + 1) * hand_size]) for s in range(players))
    return Deal(hands, tuple(deck[players * hand_size :]), rng.randrange(players))
