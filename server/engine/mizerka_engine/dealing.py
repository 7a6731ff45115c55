"""Seeded dealing: a deal's cards depend only on (game seed, deal number, redeal number).

Nothing a player does can change the cards of a later deal, so the same seed gives the same deals
whoever sits where -- duplicate play depends on it. The shuffle is drawn from SHAKE-256 of those
three values, so the deals are the same on every machine and Python run.
"""

from __future__ import annotations

import hashlib
import struct
from typing import NamedTuple

from mizerka_engine.cards import DECK_SIZE

_KEYS = struct.Struct(f"<{DECK_SIZE}Q")  # one 64-bit sort key per card


class Deal(NamedTuple):
    """The cards of one deal: each hand in the order dealt, the talon top card first.

    ``declarer`` is a seat drawn from the seed, used only where the rules draw one (tie-break
    ``random``); a conformance case may give it explicitly.
    """

    hands: tuple[tuple[int, ...], ...]
    talon: tuple[int, ...]
    declarer: int | None = None


def seeded_deal(seed: int | str, deal_no: int, redeal: int, players: int, hand_size: int) -> Deal:
    """Shuffle by sorting the deck on random 64-bit keys, then draw the declarer from the next 8 bytes.

    One hash and one C-level sort cost half as much as seeding a Mersenne Twister from a string and
    shuffling with it (this runs once per deal). Two equal keys among 52 (odds below 1e-16) would
    keep card order.
    """
    stream = hashlib.shake_256(f"mizerka:{seed}:{deal_no}:{redeal}".encode()).digest(_KEYS.size + 8)
    deck = sorted(range(DECK_SIZE), key=_KEYS.unpack_from(stream).__getitem__)
    hands = tuple(tuple(deck[s * hand_size : (s + 1) * hand_size]) for s in range(players))
    declarer = int.from_bytes(stream[_KEYS.size :], "little") % players
    return Deal(hands, tuple(deck[players * hand_size :]), declarer)
