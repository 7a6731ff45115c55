"""Games in words: actions, log events and where a game stands, as people read them.

The one text rendering of the game log: match-log verification, the replay command's texts (the
whole game, and what one seat was told) and the re-feed reports all describe events and actions with
these functions; nothing else turns an event into text.
"""

from __future__ import annotations

from collections.abc import Iterable

from mizerka_engine.actions import Action, Choose, Exchange, Major, Play
from mizerka_engine.cards import CARD_TEXT
from mizerka_engine.events import (
    ContractAnnounced,
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
    contract_text,
)
from mizerka_engine.game import Game, Phase
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import contract_quotas
from server.policies import DefaultReason


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
    if t is Choose:  # the trump as the seat named it, allowed or not
        return ("chose " if past else "chooses ") + contract_text(action.contract, False, action.trump)  # type: ignore[union-attr]
    if t is Major:
        if action.contract is None:  # type: ignore[union-attr]
            return "passed" if past else "passes"
        return ("announced " if past else "announces ") + contract_text(action.contract, True, None)  # type: ignore[union-attr, arg-type]
    if t is Exchange:
        discard, take = action.discard, action.take  # type: ignore[union-attr]
        if not discard:
            return "exchanged nothing" if past else "exchanges nothing"
        text = ("discarded " if past else "discards ") + cards_text(discard)
        if take:
            text += (", took " if past else ", takes ") + cards_text(take)
        return text
    return repr(action)


def describe(e: Event, rules: Ruleset | None = None) -> str:
    """A log event in words (seats by number, deals and tricks from 0 as in the log). A contract is
    shown by :func:`~mizerka_engine.events.contract_text`: with ``rules`` its trump only where the
    declarer names it, and a settled contract with its quotas; without, any trump the event holds."""
    match e:
        case Dealt(deal_no, redeal, tiebreak, dealer, declarer):
            return f"{deal_name(deal_no, redeal, tiebreak)} starts with dealer seat {dealer} and declarer seat {declarer}"
        case ContractAnnounced(seat, contract, trump):
            return f"seat {seat} announces {contract_text(contract, False, trump, rules)}"
        case MajorAnnounced(seat, contract):
            if contract is None:
                return f"seat {seat} passes the major round"
            return f"seat {seat} announces {contract_text(contract, True, None)}"
        case Settled(declarer, contract, major, trump):
            text = f"the contract settles as {contract_text(contract, major, trump, rules)} with seat {declarer} declarer"
            info = rules.contract(contract) if rules is not None else None
            if rules is not None and info is not None:
                text += f", quotas {' '.join(map(str, contract_quotas(rules, declarer, info.minus, major)))}"
            return text
        case Exchanged(seat, count, discard, take):
            if not count:
                return f"seat {seat} exchanges nothing"
            if discard is None:
                return f"seat {seat} exchanges {count} card{'' if count == 1 else 's'}"
            return f"seat {seat} discards {cards_text(discard)} and takes {cards_text(take or ())}"
        case Played(seat, card):
            return f"seat {seat} plays {CARD_TEXT[card]}"
        case Revoked(seat, card):
            return f"seat {seat} revokes with {CARD_TEXT[card]}"
        case TrickTaken(winner):
            return f"trick won by seat {winner}"
        case DealScored(r, totals):
            return (f"{deal_name(r.deal_no, r.redeal, r.tiebreak)} ends with tricks {'/'.join(map(str, r.tricks))}, "
                    f"points {signed(r.points)}, totals {signed(totals)}")
        case GameOver(totals):
            return f"the game is over with totals {signed(totals)}"
    return repr(e)


class EventText:
    """An event stream as lines for people. Deals start at the left margin after an empty line (with
    every hand and the talon where the audience knows them), everything else is indented; tricks are
    numbered from 0 within their deal. With ``tricks=True`` a trick's plays share one line
    (``trick 3: seat 0 7H, seat 1 8H, seat 2 9H -> won by seat 1``), otherwise each event has its own.
    """

    def __init__(self, rules: Ruleset | None = None, tricks: bool = False) -> None:
        self.rules = rules
        self.group = tricks
        self.trick_no = 0
        self.plays: list[str] = []  # the current trick's plays, while grouping

    def lines(self, e: Event, note: str = "") -> list[str]:
        """The lines for ``e`` (none for a play whose trick is not complete yet, when grouping);
        ``note`` ends its line, e.g. `` (default: TIMEOUT)``."""
        match e:
            case Dealt(hands=hands, talon=talon):
                self.trick_no, self.plays = 0, []
                out = ["", describe(e, self.rules) + note]
                if hands is not None:
                    out += [f"  hand of seat {s}: {cards_text(sorted(h))}" for s, h in enumerate(hands)]
                    out.append(f"  talon (top first): {cards_text(talon or ())}")
                return out
            case Played(seat, card) if self.group:
                self.plays.append(f"seat {seat} {CARD_TEXT[card]}{note}")
                return []
            case Revoked(seat, card):
                if not self.group:
                    return [f"  {describe(e)}: the deal is void{note}"]
                plays, self.plays = [*self.plays, f"seat {seat} {CARD_TEXT[card]} REVOKE{note}"], []
                return [f"  trick {self.trick_no}: {', '.join(plays)}: the deal is void, seat {seat} loses 10"]
            case TrickTaken(winner):
                number, self.trick_no = self.trick_no, self.trick_no + 1
                if not self.group:
                    return [f"  trick {number} won by seat {winner}{note}"]
                plays, self.plays = self.plays, []
                return [f"  trick {number}: {', '.join(plays)} -> won by seat {winner}{note}"]
            case GameOver():
                return ["", describe(e) + note]
        return [f"  {describe(e, self.rules)}{note}"]


def default_text(turn: int, action: Action, reason: DefaultReason) -> str:
    """The referee's default answer for a seat (DefaultApplied), as that seat's story tells it."""
    return f"the referee answers turn {turn} for you ({reason}): {describe_action(action)}"


def strike_text(strikes: int, max_strikes: int, forfeited: bool) -> str:
    """A strike counted against a seat (StrikeCounted)."""
    limit = f" of {max_strikes}" if max_strikes else ""
    return f"strike {strikes}{limit}" + (": you are forfeited" if forfeited else "")


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
