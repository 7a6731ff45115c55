"""Cards as small integers and hands as 52-bit masks, with the text notation of docs/rules.md §1.2.

A card is ``suit * 13 + rank`` with suits S, H, D, C = 0..3 and ranks 2..A = 0..12, so a suit is a
contiguous 13-bit field of a hand mask and "highest card of a suit" is one ``bit_length`` away.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))

CARD_TEXT = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(DECK_SIZE))
_PARSE = {text: c for c, text in enumerate(CARD_TEXT)}
_PARSE.update({"10" + SUITS[c // 13]: c for c in range(DECK_SIZE) if c % 13 == 8})


def subsets_table(items: Sequence[T]) -> tuple[tuple[T, ...], ...]:
    """``table[f]``: the items at the set bits of ``f``, in order. Built by doubling (the subsets
    with item k are those without it plus item k, which comes last), a tuple concatenation per
    entry: the engine's import, and so every command's start-up, pays a few milliseconds for it."""
    table: list[tuple[T, ...]] = [()]
    for item in items:
        table += [subset + (item,) for subset in table]
    return tuple(table)


# FIELD_CARDS[s][f]: the cards (ascending) of suit s whose rank bits are f, so a hand's cards are four lookups.
FIELD_CARDS = tuple(subsets_table(range(13 * s, 13 * s + 13)) for s in range(4))


class CardError(ValueError):
    """A text that is not a card in the notation of docs/rules.md §1.2."""


def suit_of(card: int) -> int:
    return card // 13


def parse_card(text: str) -> int:
    """``"AS"`` -> 12; accepts ``10D`` for ``TD`` and lower case."""
    try:
        return _PARSE[text.strip().upper()]
    except (KeyError, AttributeError):
        raise CardError(f"{text!r} is not a card: write rank 2-9/T/J/Q/K/A then suit S/H/D/C, e.g. 'TD'") from None


def parse_cards(texts: Iterable[str]) -> list[int]:
    return [parse_card(t) for t in texts]


def format_card(card: int) -> str:
    return CARD_TEXT[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def card_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def mask_cards(mask: int) -> list[int]:
    """The cards of a mask in ascending order (suit by suit, low to high)."""
    spades, hearts, diamonds, clubs = FIELD_CARDS
    return [
        *spades[mask & 0x1FFF],
        *hearts[mask >> 13 & 0x1FFF],
        *diamonds[mask >> 26 & 0x1FFF],
        *clubs[mask >> 39 & 0x1FFF],
    ]


def parse_suit(text: str) -> int:
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    for i, name in enumerate(SUIT_NAMES):
        if t == name.upper():
            return i
    raise CardError(f"{text!r} is not a suit: write S, H, D or C")
