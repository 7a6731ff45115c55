"""``Turn``: one DecisionRequest with typed accessors and action builders.

Everything a :class:`~mizerka.Bot` needs to decide is here: ``turn.kind``, ``turn.hand``,
``turn.legal_cards``, ``turn.trick``, ``turn.trump``, ``turn.quotas``..., what the referee tells
besides -- ``turn.takes_trick(card)`` and ``turn.default_action`` -- and the answer is built
with ``turn.play("AS")``, ``turn.choose("trumps", trump="H")``, ``turn.major("hearts")`` /
``turn.pass_major()`` or ``turn.exchange(discard=[...], take=[...])``, which fill in the turn number.
The raw messages stay available as ``turn.request``, ``turn.view`` and ``turn.ruleset``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any, NamedTuple

import mizerka.cards as _cards
import mizerka.told as _told
from mizerka_proto import game_pb2, referee_pb2

__all__ = ["Turn", "TrickState", "CONTRACT", "MAJOR", "EXCHANGE", "PLAY", "BadAction"]

CONTRACT = "contract"
MAJOR = "major"
EXCHANGE = "exchange"
PLAY = "play"

_KINDS = {
    referee_pb2.DECISION_KIND_CONTRACT: CONTRACT,
    referee_pb2.DECISION_KIND_MAJOR: MAJOR,
    referee_pb2.DECISION_KIND_EXCHANGE: EXCHANGE,
    referee_pb2.DECISION_KIND_PLAY: PLAY,
}
# Which Action oneof answers which kind.
_ONEOF = {CONTRACT: "choose_contract", MAJOR: "announce_major", EXCHANGE: "exchange_cards", PLAY: "play_card"}


class BadAction(ValueError):
    """A bot's answer that cannot be sent for this turn (not an action, or of another kind)."""


class TrickState(NamedTuple):
    """One trick of the current deal: its leader, the (seat, card) plays in order, the winner (None
    while the trick is in progress) and the seat winning it so far, as the referee tells it."""

    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None
    winning: int

    @property
    def cards(self) -> list[str]:
        return [c for _, c in self.plays]

    @property
    def winning_card(self) -> str:
        """The card of the seat winning so far."""
        return next(c for s, c in self.plays if s == self.winning)


class Turn:
    """A decision to take. Built from a ``referee_pb2.DecisionRequest`` (and the game's GameStart).

    Accessors return plain Python values (card strings, ints, lists); ``None`` where the protocol
    sends "absent" or ``""``. They are computed on first use and cached.
    """

    def __init__(
        self,
        request: referee_pb2.DecisionRequest,
        game_start: referee_pb2.GameStart | None = None,
    ) -> None:
        self.request = request
        self.game_start = game_start
        #: Refusals of earlier answers to this same turn (ActionError messages), oldest first.
        self.errors: list[referee_pb2.ActionError] = []
        self._time_left_ms = request.time_left_ms
        self._bank_ms = request.bank_ms

    def __repr__(self) -> str:
        return f"<Turn {self.number} {self.kind} seat={self.seat} hand={' '.join(self.hand)}>"

    # ------------------------------------------------------------------ the request itself
    @property
    def number(self) -> int:
        """The turn number to copy into the Action (the builders do it for you)."""
        return self.request.turn

    @property
    def kind(self) -> str:
        """``"contract"``, ``"major"``, ``"exchange"`` or ``"play"``."""
        return _KINDS.get(self.request.kind, "unknown")

    @property
    def view(self) -> game_pb2.SeatView:
        return self.request.view

    @property
    def ruleset(self) -> game_pb2.Ruleset:
        if self.request.HasField("ruleset"):
            return self.request.ruleset
        if self.game_start is not None:
            return self.game_start.ruleset
        return self.request.ruleset

    @property
    def preset(self) -> str:
        return self.ruleset.preset

    @property
    def legal_actions(self) -> Sequence[game_pb2.Action]:
        """Ready-made legal Actions (CONTRACT, MAJOR, PLAY); empty for EXCHANGE."""
        return self.request.legal_actions

    @property
    def default_action(self) -> game_pb2.Action:
        """What the referee plays for you if you time out (DecisionRequest.default_action), ready to
        send (a fresh copy, turn set): the first legal contract, a pass in the major round, no
        exchange, the lowest legal card."""
        return _told.default_action(self.request)

    @property
    def attempt(self) -> int:
        """0 for the first answer to this turn, 1 after one refusal, and so on."""
        return len(self.errors)

    @property
    def time_left_ms(self) -> int:
        """Milliseconds for this decision before the bank is drawn on (updated by ActionErrors)."""
        return self._time_left_ms

    @property
    def bank_ms(self) -> int:
        return self._bank_ms

    def note_error(self, error: referee_pb2.ActionError) -> None:
        """Record a refusal of an answer to this turn (the runtime calls this)."""
        self.errors.append(error)
        if error.retry:
            self._time_left_ms = error.time_left_ms
            self._bank_ms = error.bank_ms

    # ------------------------------------------------------------------------ seats
    @property
    def seat(self) -> int:
        """Your seat."""
        return self.view.seat

    @property
    def players(self) -> int:
        return self.ruleset.players or len(self.view.players)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.view.players]

    @property
    def dealer(self) -> int | None:
        return self.view.dealer if self.view.HasField("dealer") else None

    @property
    def caller(self) -> int | None:
        """The declarer who announced the contract first."""
        return self.view.caller if self.view.HasField("caller") else None

    @property
    def declarer(self) -> int | None:
        """The effective declarer (who plays the contract and leads)."""
        return self.view.declarer if self.view.HasField("declarer") else None

    @property
    def is_declarer(self) -> bool:
        return self.declarer == self.seat

    @property
    def position(self) -> int | None:
        """Your position in this deal: 0 the declarer, 1 the next seat clockwise, ..."""
        d = self.declarer
        return None if d is None else (self.seat - d) % self.players

    # ------------------------------------------------------------------------ cards
    @cached_property
    def hand(self) -> list[str]:
        """Your cards, sorted by suit (S, H, D, C) then rank low to high. Before the contract is
        announced (choose_after = 6) only the declarer's first 6 cards, or nothing."""
        return list(self.view.players[self.seat].hand)

    def hand_of(self, suit: str) -> list[str]:
        """Your cards of one suit, low to high."""
        return [c for c in self.hand if c[1] == suit]

    @property
    def hand_size(self) -> int:
        """How many cards you hold (even those you do not see yet)."""
        return self.view.players[self.seat].hand_count

    @cached_property
    def legal_cards(self) -> list[str]:
        """PLAY: the cards you may play."""
        return [a.play_card.card for a in self.request.legal_actions if a.WhichOneof("action") == "play_card"]

    @cached_property
    def _takes(self) -> dict[str, bool]:
        return dict(zip(self.legal_cards, _told.takes_trick(self.request), strict=True))

    def takes_trick(self, card: str) -> bool:
        """PLAY: whether ``card``, one of :attr:`legal_cards`, would take the trick as it stands (win
        it if nobody played after you), as the referee tells it (DecisionRequest.takes_trick). True
        for every card when you lead; it says nothing of the cards still to come."""
        c = _norm(card)
        if c not in self._takes:
            raise ValueError(f"{card!r} is not one of your legal cards: {' '.join(self.legal_cards) or 'none'}")
        return self._takes[c]

    @cached_property
    def legal_contracts(self) -> list[tuple[str, str | None]]:
        """CONTRACT: (contract, trump or None) pairs you may announce, e.g. ``("trumps", "H")``."""
        out = []
        for a in self.request.legal_actions:
            if a.WhichOneof("action") == "choose_contract":
                out.append((a.choose_contract.contract, a.choose_contract.trump or None))
        return out

    @cached_property
    def legal_majors(self) -> list[str]:
        """MAJOR: the contracts you may announce major now (passing is always legal)."""
        return [
            a.announce_major.contract
            for a in self.request.legal_actions
            if a.WhichOneof("action") == "announce_major" and a.announce_major.contract
        ]

    # -------------------------------------------------------------------- contracts
    @cached_property
    def contracts(self) -> dict[str, game_pb2.ContractInfo]:
        """The ruleset's contracts by name, in the ruleset's order."""
        return {c.name: c for c in self.ruleset.contracts}

    @property
    def used_contracts(self) -> list[str]:
        """Contracts you have used up as declarer in this game."""
        return list(self.view.players[self.seat].used_contracts)

    @property
    def unused_contracts(self) -> list[str]:
        """Contracts you still have to declare, in the ruleset's order."""
        used = set(self.used_contracts)
        return [name for name in self.contracts if name not in used]

    @property
    def contract(self) -> str | None:
        """The contract label once announced (``"hearts"``, ``"hearts major"``), else None."""
        return self.view.contract or None

    @property
    def contract_name(self) -> str | None:
        """The current contract's ruleset name, without " major" (``"hearts"``), else None."""
        return self.view.contract_name or None

    @property
    def contract_info(self) -> game_pb2.ContractInfo | None:
        """The ruleset's ContractInfo of the current contract."""
        return self.contracts.get(self.view.contract_name)

    @property
    def is_major(self) -> bool:
        """True once a major contract is settled (quotas 14 and 1)."""
        return self.view.contract_major

    @property
    def minus(self) -> bool:
        """True in a minus (misère) contract: tricks are bad."""
        return self.view.contract_minus

    @property
    def trump(self) -> str | None:
        """The trump suit letter, or None (no trumps, or not announced yet)."""
        return self.view.trump or None

    # ---------------------------------------------------------------------- scores
    @property
    def quotas(self) -> list[int | None]:
        """Each seat's quota in this deal (None until the contract is settled)."""
        return [p.quota if p.HasField("quota") else None for p in self.view.players]

    @property
    def my_quota(self) -> int | None:
        return self.quotas[self.seat]

    @property
    def tricks_won(self) -> list[int]:
        """Tricks each seat has won in this deal."""
        return [p.tricks_won for p in self.view.players]

    @property
    def my_tricks(self) -> int:
        return self.view.players[self.seat].tricks_won

    @property
    def totals(self) -> list[int]:
        """Each seat's game total so far."""
        return [p.total for p in self.view.players]

    @property
    def deal(self) -> int:
        return self.view.deal

    # ----------------------------------------------------------------------- tricks
    @cached_property
    def tricks(self) -> list[TrickState]:
        """The deal's completed tricks, then the trick in progress (if any)."""
        return [
            TrickState(
                t.leader,
                tuple((p.seat, p.card) for p in t.plays),
                t.winner if t.HasField("winner") else None,
                t.winning,
            )
            for t in self.view.tricks
        ]

    @property
    def completed_tricks(self) -> list[TrickState]:
        return [t for t in self.tricks if t.winner is not None]

    @property
    def current_trick(self) -> TrickState | None:
        """The trick in progress, or None when you lead."""
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1]
        return None

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress as (seat, card) in play order; [] when you lead."""
        current = self.current_trick
        return list(current.plays) if current is not None else []

    @property
    def trick_cards(self) -> list[str]:
        return [c for _, c in self.trick]

    @property
    def leading(self) -> bool:
        """True when you play the first card of a trick."""
        return not self.trick

    @property
    def led_suit(self) -> str | None:
        """The suit led to the trick in progress, or None when you lead."""
        t = self.trick
        return t[0][1][1] if t else None

    @property
    def winning(self) -> tuple[int, str] | None:
        """(seat, card) winning the trick in progress so far (the referee's Trick.winning), or None
        when you lead. Whether a card of yours would beat it: :meth:`takes_trick`."""
        current = self.current_trick
        return None if current is None else (current.winning, current.winning_card)

    @property
    def to_play_after_me(self) -> int:
        """How many players still play to this trick after you."""
        return self.players - len(self.trick) - 1

    @cached_property
    def played_cards(self) -> set[str]:
        """Every card played in this deal so far (the trick in progress included)."""
        return {c for t in self.tricks for _, c in t.plays}

    # --------------------------------------------------------------------- exchange
    @property
    def max_exchange(self) -> int:
        """EXCHANGE: the most cards you may exchange (0 for other kinds)."""
        return self.request.exchange.max_cards

    @property
    def pick(self) -> bool:
        """EXCHANGE: True for a pick exchange (you name the talon cards you take)."""
        return self.request.exchange.pick

    @property
    def talon(self) -> list[str]:
        """Pick exchange (declarer): the talon cards you see; [] otherwise."""
        if self.request.exchange.talon:
            return list(self.request.exchange.talon)
        return list(self.view.talon) if self.view.talon_known else []

    # ---------------------------------------------------------------------- builders
    def play(self, card: str) -> game_pb2.Action:
        """Play ``card`` (``"AS"``; ``"10d"`` is accepted and written ``"TD"``)."""
        return game_pb2.Action(turn=self.number, play_card=game_pb2.PlayCard(card=_norm(card)))

    def choose(self, contract: str, trump: str | None = None) -> game_pb2.Action:
        """Announce ``contract``; ``trump`` ("H", "D", ...) only for a contract that names its trump."""
        return game_pb2.Action(
            turn=self.number,
            choose_contract=game_pb2.ChooseContract(contract=contract, trump=(trump or "").strip().upper()),
        )

    def major(self, contract: str) -> game_pb2.Action:
        """Announce ``contract`` major."""
        return game_pb2.Action(turn=self.number, announce_major=game_pb2.AnnounceMajor(contract=contract))

    def pass_major(self) -> game_pb2.Action:
        """Pass in the major round."""
        return game_pb2.Action(turn=self.number, announce_major=game_pb2.AnnounceMajor(contract=""))

    def exchange(self, discard: Iterable[str] = (), take: Iterable[str] = ()) -> game_pb2.Action:
        """Discard cards (and, in a pick exchange, take as many talon cards). No cards = a pass."""
        return game_pb2.Action(
            turn=self.number,
            exchange_cards=game_pb2.ExchangeCards(discard=[_norm(c) for c in discard], take=[_norm(c) for c in take]),
        )

    def pass_exchange(self) -> game_pb2.Action:
        return self.exchange()

    def fallback(self) -> game_pb2.Action:
        """The safe answer, the referee's own default: :attr:`default_action`."""
        return self.default_action

    def to_action(self, answer: Any) -> game_pb2.Action:
        """Turn a bot's answer into an Action for this turn, or raise :class:`BadAction`.

        Accepted: an Action (its turn is set to this turn); for PLAY a card string; for CONTRACT a
        contract name or a (contract, trump) pair; for MAJOR a contract name, or ``""``/None to
        pass; for EXCHANGE a list of discards, a (discard, take) pair, or None to pass.
        """
        kind = self.kind
        if isinstance(answer, game_pb2.Action):
            which = answer.WhichOneof("action")
            if which is None:
                raise BadAction("the Action sets no action")
            if which != _ONEOF.get(kind):
                raise BadAction(f"a {which} Action answers no {kind} decision")
            if answer.turn == self.number:
                return answer
            out = game_pb2.Action()
            out.CopyFrom(answer)
            out.turn = self.number
            return out
        try:
            if kind == PLAY and isinstance(answer, str):
                return self.play(answer)
            if kind == CONTRACT:
                if isinstance(answer, str):
                    return self.choose(answer)
                if isinstance(answer, tuple) and len(answer) == 2:
                    return self.choose(answer[0], answer[1])
            if kind == MAJOR and (answer is None or isinstance(answer, str)):
                return self.major(answer) if answer else self.pass_major()
            if kind == EXCHANGE:
                if answer is None:
                    return self.exchange()
                if isinstance(answer, tuple) and len(answer) == 2 and not isinstance(answer[0], str):
                    return self.exchange(answer[0], answer[1])
                if isinstance(answer, (list, tuple, set, frozenset)):
                    return self.exchange(answer)
        except ValueError as e:
            raise BadAction(str(e)) from None
        raise BadAction(f"{answer!r} is not an answer to a {kind} decision")


def _norm(card: str) -> str:
    try:
        return _cards.normalize(card)
    except ValueError:
        return str(card)  # let the referee refuse it (MALFORMED) and the bot hear why
