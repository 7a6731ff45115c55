"""What the referee tells a bot beyond the rules, read from a DecisionRequest: its default action and,
for each legal card, whether that card takes the trick as it stands.

Both are the referee's (``DecisionRequest.default_action`` and ``takes_trick``, computed by the
rules engine); :class:`mizerka.Turn` and the stdio bridge's ``decide`` line read them from here.
Referees from before those fields (mizerka-proto 0.4) leave them out, and this module is the one
place in the SDK that then derives them from the rest of the request, by the documented rules: a
bot built with this SDK may meet such a referee (a host upgrades its server apart from the bots'
authors), and the SDK's own safety net -- the answer it sends for a bot that raises or answers
nothing usable -- must be legal there too. A current referee always sets ``default_action``, so
with one nothing here derives anything.
"""

from __future__ import annotations

from mizerka.cards import RANKS
from mizerka_proto import game_pb2, referee_pb2

__all__ = ["default_action", "takes_trick"]


def default_action(request: referee_pb2.DecisionRequest) -> game_pb2.Action:
    """The referee's default for ``request``, ready to send (a fresh Action, turn set): the first legal
    contract, a pass in the major round, no exchange, the lowest legal card."""
    out = game_pb2.Action()
    if request.HasField("default_action"):
        out.CopyFrom(request.default_action)
    elif request.kind == referee_pb2.DECISION_KIND_MAJOR:
        out.announce_major.SetInParent()
    elif request.kind == referee_pb2.DECISION_KIND_EXCHANGE or not request.legal_actions:
        out.exchange_cards.SetInParent()
    else:  # the referee lists contracts in the ruleset's order and cards lowest first
        out.CopyFrom(request.legal_actions[0])
    out.turn = request.turn
    return out


def takes_trick(request: referee_pb2.DecisionRequest) -> list[bool]:
    """For each of ``request.legal_actions`` (PLAY), whether that card would win the trick as it
    stands -- if nobody played after it; every card does when you lead. Empty for other kinds."""
    if request.kind != referee_pb2.DECISION_KIND_PLAY:
        return []
    if request.HasField("default_action"):
        return list(request.takes_trick)
    tricks = request.view.tricks
    current = tricks[-1] if tricks and not tricks[-1].HasField("winner") else None
    if current is None:
        return [True] * len(request.legal_actions)
    best = next(p.card for p in current.plays if p.seat == current.winning)
    trump = request.view.trump
    return [_beats(a.play_card.card, best, trump) for a in request.legal_actions]


def _beats(card: str, best: str, trump: str) -> bool:
    """docs/rules.md §4.5: a higher card of the suit of the card winning so far, or a trump over a non-trump."""
    if card[1] == best[1]:
        return RANKS.index(card[0]) > RANKS.index(best[0])
    return bool(trump) and card[1] == trump
