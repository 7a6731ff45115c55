"""The authoritative rules engine: pure Python, no I/O, no event loop.

Public API: cards (notation and bitmasks), rules (rulesets as data), actions (what players do), events
(the game log, typed), game (the state machine), dealing (seeded deals), fold (the one fold of the log
into deals, tricks and their winners), views (the one projection of a game to what someone may see)
and resample (a game consistent with what one seat sees, for a searching bot; imported as
``mizerka_engine.resample``, like views).
"""

from mizerka_engine.actions import Action, Choose, Exchange, Major, Play
from mizerka_engine.cards import card_mask, format_card, format_cards, mask_cards, parse_card, parse_cards
from mizerka_engine.dealing import Deal, seeded_deal
from mizerka_engine.events import (
    ContractAnnounced,
    DealResult,
    DealScored,
    Dealt,
    Event,
    Exchanged,
    GameOver,
    MajorAnnounced,
    Played,
    Revoked,
    Settled,
    TrickTaken,
    contract_label,
    contract_text,
)
from mizerka_engine.game import ActionErrorCode, Decision, Game, IllegalAction, Kind, Phase, default_action, ranks
from mizerka_engine.rules import PRESETS, Contract, RulesError, Ruleset, load_ruleset

__all__ = [
    "PRESETS",
    "Action",
    "ActionErrorCode",
    "Choose",
    "Contract",
    "ContractAnnounced",
    "Deal",
    "DealResult",
    "DealScored",
    "Dealt",
    "Decision",
    "Event",
    "Exchange",
    "Exchanged",
    "Game",
    "GameOver",
    "IllegalAction",
    "Kind",
    "Major",
    "MajorAnnounced",
    "Phase",
    "Play",
    "Played",
    "Revoked",
    "Settled",
    "TrickTaken",
    "RulesError",
    "Ruleset",
    "card_mask",
    "contract_label",
    "contract_text",
    "default_action",
    "format_card",
    "format_cards",
    "load_ruleset",
    "mask_cards",
    "parse_card",
    "parse_cards",
    "ranks",
    "seeded_deal",
]
