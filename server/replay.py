"""Re-executing a logged game through the engine, checking that every logged outcome follows.

The log is the FULL projection of ``Game.log``: deals carry their cards, so the game is rebuilt
from the logged deals and actions alone, and every derived entry (settled contract, trick
winner, deal result, game end) must come out the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from server.engine.dealing import Deal
from server.engine.game import Action, Choose, Exchange, Game, IllegalAction, Major, Play
from server.engine.rules import Ruleset


class ReplayError(ValueError):
    """The log does not follow from its own deals and actions; names the first divergence."""


def _action(rules: Ruleset, entry: tuple) -> Action:
    """The action a logged entry records (the talon cards a blind exchange took are derived)."""
    kind = entry[0]
    if kind == "contract":
        contract = rules.contract(entry[2])
        return Choose(entry[2], entry[3] if contract is not None and contract.names_trump else None)
    if kind == "major":
        return Major(entry[2])
    if kind == "exchange":
        return Exchange(tuple(entry[2]), tuple(entry[3]) if rules.exchange == "pick" else None)
    return Play(entry[2])  # play or revoke


def replay_log(rules: Ruleset, seed: str, entries: Iterable[tuple]) -> Game:
    entries = list(entries)
    deals = iter([Deal(tuple(map(tuple, e[6])), tuple(e[7]), e[5]) for e in entries if e[0] == "deal"])
    first = next((e for e in entries if e[0] == "deal"), None)
    if first is None:
        raise ReplayError("the log has no deal")
    if len(first) < 8:
        raise ReplayError("the log holds no cards (it is not a full log)")
    first_dealer = first[4]
    game = Game(rules, seed=seed, first_dealer=first_dealer, deal_source=lambda d, r: next(deals, None))
    for i, entry in enumerate(entries):
        kind = entry[0]
        if kind in ("contract", "major", "exchange", "play", "revoke"):
            seat = entry[1]
            action = _action(rules, entry)
            try:
                game.apply(seat, action)
            except IllegalAction as e:
                raise ReplayError(f"entry {i} ({kind} by seat {seat}): the engine refuses it: {e.message}") from None
        got = game.log[i] if i < len(game.log) else None
        if got != entry:
            raise ReplayError(f"entry {i}: the log says {entry!r}, the rules give {got!r}")
    if len(game.log) != len(entries):
        raise ReplayError(f"the rules give {len(game.log) - len(entries)} more entries than the log holds")
    return game
