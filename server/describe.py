"""Games in words: actions, log entries and where a game stands, as people read them.

The one text rendering of the game log: match-log verification, the replay command's text, the
re-feed reports and the league report all describe entries and actions with these functions.
"""

from __future__ import annotations

from collections.abc import Iterable

from server.engine.cards import CARD_TEXT, SUITS
from server.engine.game import Action, Choose, Exchange, Game, Major, Phase, Play
from server.engine.rules import Ruleset


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards) or "nothing"


def signed(values: Iterable[int]) -> str:
    return " ".join(f"{v:+d}" for v in values)


def deal_name(deal: int, redeal: int = 0, tiebreak: bool = False) -> str:
    """``deal 3``, ``deal 3 (redeal 1)``, ``deal 18 (tie-break)``: deals count from 0 as in the log."""
    out = f"deal {deal}"
    extra = [f"redeal {redeal}"] if redeal else []
    if tiebreak:
        extra.append("tie-break")
    return out + (f" ({', '.join(extra)})" if extra else "")


def describe_action(action: Action | None, rules: Ruleset | None = None, past: bool = False) -> str:
    """``plays 7H`` / ``played 7H``, ``chooses hearts``, ``discards 2C 3D``, ``passes``."""
    if action is None:
        return "gives no legal answer" if not past else "gave no legal answer"
    t = type(action)
    if t is Play:
        return ("played " if past else "plays ") + CARD_TEXT[action.card]  # type: ignore[union-attr]
    if t is Choose:
        trump = f" ({SUITS[action.trump]} trumps)" if action.trump is not None else ""  # type: ignore[union-attr]
        return ("chose " if past else "chooses ") + action.contract + trump  # type: ignore[union-attr]
    if t is Major:
        if action.contract is None:  # type: ignore[union-attr]
            return "passed" if past else "passes"
        return ("announced " if past else "announces ") + f"{action.contract} major"  # type: ignore[union-attr]
    if t is Exchange:
        discard, take = action.discard, action.take  # type: ignore[union-attr]
        if not discard:
            return "exchanged nothing" if past else "exchanges nothing"
        text = ("discarded " if past else "discards ") + cards_text(discard)
        if take:
            text += (", took " if past else ", takes ") + cards_text(take)
        return text
    return repr(action)


def describe(e: tuple) -> str:
    """A log entry in words (seats by number, deals and tricks from 0 as in the log)."""
    kind = e[0]
    if kind == "deal":
        return f"{deal_name(e[1], e[2], e[3])} starts with dealer seat {e[4]} and declarer seat {e[5]}"
    if kind == "contract":
        return f"seat {e[1]} announces {e[2]}" + (f" ({SUITS[e[3]]} trumps)" if e[3] is not None else "")
    if kind == "major":
        return f"seat {e[1]} announces {e[2]} major" if e[2] is not None else f"seat {e[1]} passes the major round"
    if kind == "settled":
        return f"the contract settles as {e[2]} with seat {e[1]} declarer"
    if kind == "exchange":
        if isinstance(e[2], int):
            return f"seat {e[1]} exchanges {e[2]} cards"
        if not e[2]:
            return f"seat {e[1]} exchanges nothing"
        return f"seat {e[1]} discards {cards_text(e[2])} and takes {cards_text(e[3])}"
    if kind == "play":
        return f"seat {e[1]} plays {CARD_TEXT[e[2]]}"
    if kind == "revoke":
        return f"seat {e[1]} revokes with {CARD_TEXT[e[2]]}"
    if kind == "trick":
        return f"trick won by seat {e[1]}"
    if kind == "result":
        r = e[1]
        return (f"{deal_name(r.deal_no, r.redeal, r.tiebreak)} ends with tricks {'/'.join(map(str, r.tricks))}, "
                f"points {signed(r.points)}, totals {signed(e[2])}")
    if kind == "over":
        return f"the game is over with totals {signed(e[1])}"
    return repr(e)


_VERBS = {Phase.CONTRACT: "announce a contract", Phase.MAJOR: "announce a major or pass", Phase.EXCHANGE: "exchange",
          Phase.PLAY: "play a card"}


def pending_text(game: Game) -> str:
    """Who is to do what, and where (``seat 1 is to play a card (deal 3, trick 5)``)."""
    if game.finished:
        return "the game is over"
    if game.to_act < 0:
        return "the game waits for a deal"
    where = deal_name(game.deal_no, game.redeal, game.tiebreak)
    if game.phase == Phase.PLAY:
        where += f", trick {game.trick_no}"
    return f"seat {game.to_act} is to {_VERBS[game.phase]} ({where})"
