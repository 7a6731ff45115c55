"""The authoritative rules engine: pure Python, no I/O, no event loop.

Public API: cards (notation and bitmasks), rules (rulesets as data), game (the state machine),
dealing (seeded deals) and views (the one projection of a game to what someone may see).
"""

from server.engine.cards import card_mask, format_card, format_cards, mask_cards, parse_card, parse_cards
from server.engine.dealing import Deal, seeded_deal
from server.engine.game import (
    Choose,
    DealResult,
    Decision,
    Exchange,
    Game,
    IllegalAction,
    Kind,
    Major,
    Phase,
    Play,
)
from server.engine.rules import PRESETS, Contract, RulesError, Ruleset, load_ruleset

__all__ = [
    "PRESETS",
    "Choose",
    "Contract",
    "Deal",
    "DealResult",
    "Decision",
    "Exchange",
    "Game",
    "IllegalAction",
    "Kind",
    "Major",
    "Phase",
    "Play",
    "RulesError",
    "Ruleset",
    "card_mask",
    "format_card",
    "format_cards",
    "load_ruleset",
    "mask_cards",
    "parse_card",
    "parse_cards",
    "seeded_deal",
]
