"""A wire Ruleset's options in the words of league files and the rules (docs/rules.md §9):
``"alternate"``, ``"penalty"``, ``"lowest"``... The one table from the protocol's enums to those
words in the SDK: the stdio bridge's ruleset JSON and the expert's engine ruleset both read it.
"""

from __future__ import annotations

from typing import Any

from mizerka_proto import game_pb2

__all__ = ["DECLARER_MODES", "EXCHANGE_KINDS", "MISERE_QUOTAS", "REVOKE_MODES", "TIEBREAK_MODES", "ruleset_options"]

EXCHANGE_KINDS = {game_pb2.EXCHANGE_KIND_BLIND: "blind", game_pb2.EXCHANGE_KIND_PICK: "pick"}
DECLARER_MODES = {
    game_pb2.DECLARER_MODE_ALTERNATE: "alternate",
    game_pb2.DECLARER_MODE_CONTINUOUS: "continuous",
    game_pb2.DECLARER_MODE_DEALER: "dealer",
    game_pb2.DECLARER_MODE_CONTINUOUS_DEALER: "continuous-dealer",
}
REVOKE_MODES = {game_pb2.REVOKE_MODE_REJECT: "reject", game_pb2.REVOKE_MODE_PENALTY: "penalty"}
TIEBREAK_MODES = {
    game_pb2.TIEBREAK_MODE_NONE: "none",
    game_pb2.TIEBREAK_MODE_RANDOM: "random",
    game_pb2.TIEBREAK_MODE_LOWEST: "lowest",
}
MISERE_QUOTAS = {game_pb2.MISERE_QUOTAS_REVERSED: "reversed", game_pb2.MISERE_QUOTAS_SAME: "same"}


def ruleset_options(r: game_pb2.Ruleset) -> dict[str, Any]:
    """Every option in force, as a league file's ``[options]`` table gives them: with ``r.preset``, the
    ruleset again (the rules engine's ``load_ruleset(r.preset, ruleset_options(r))``)."""
    return {
        "declarer": DECLARER_MODES[r.declarer],
        "deals": r.deals,
        "revoke": REVOKE_MODES[r.revoke],
        "tiebreak": TIEBREAK_MODES[r.tiebreak],
        "tiebreak_max": r.tiebreak_max,
        "misere_quotas": MISERE_QUOTAS[r.misere_quotas],
        "quotas_plus": list(r.quotas_plus),
        "quotas_minus": list(r.quotas_minus),
        "choose_after": "all" if r.choose_after_all else 6,
        "trumps_allow_spades": r.trumps_allow_spades,
    }
