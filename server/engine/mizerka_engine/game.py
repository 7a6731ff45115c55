"""The whole game as one state machine: contract choice, majors, exchange, trick play, scoring, rotation.

Hands are 52-bit masks; actions, legal-action tuples and the log events of plays are interned, so a
random playout allocates little (``tests/bench/bench_engine.py`` measures it). A refused action raises
:class:`IllegalAction` before any state is touched. Every accepted action appends typed events
(``events``) to :attr:`Game.log`; the projection in ``views`` decides who may see which.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import copy as shallow_copy
from enum import IntEnum, StrEnum
from typing import NamedTuple

from mizerka_engine.actions import PASS, PLAY_FIELD, Action, Choose, Exchange, Major, Play
from mizerka_engine.cards import CARD_TEXT, SUIT_MASKS, SUIT_NAMES, SUITS, card_mask, format_cards, mask_cards
from mizerka_engine.dealing import Deal, seeded_deal
from mizerka_engine.events import (
    PLAYED,
    TRICK_TAKEN,
    ContractAnnounced,
    DealResult,
    DealScored,
    Dealt,
    Event,
    Exchanged,
    GameOver,
    MajorAnnounced,
    Revoked,
    Settled,
)
from mizerka_engine.rules import MAJOR_QUOTA, PRESETS, Contract, RevokeMode, Ruleset, TiebreakMode


class Phase(IntEnum):
    CONTRACT = 0  # the declarer announces a contract (and a trump where it names one)
    MAJOR = 1  # manni-major: announcing and contesting "X major"
    EXCHANGE = 2  # blind (each player in turn) or pick (declarer only) exchange
    PLAY = 3  # trick play
    WAITING = 4  # between deals with no cards supplied yet (only with an external deal source)
    OVER = 5  # the game is finished


Kind = Phase  # a decision's kind is the phase it is taken in (CONTRACT, MAJOR, EXCHANGE or PLAY)
# Looking a member up on an Enum class costs ~70 ns; the hot path compares with these module globals.
_CONTRACT, _MAJOR, _EXCHANGE, _PLAY, _WAITING, _OVER = Phase


# Interned trick pairs (the log's events are interned in ``events``), so that playing a card allocates no tuple.
_SEAT_CARD = tuple(tuple((s, c) for c in range(52)) for s in range(max(r.players for r in PRESETS.values())))


def _beating(card: int, trump: int | None) -> int:
    """The cards (a mask) that beat ``card`` when it wins a trick so far: the higher cards of its suit
    and, unless it is a trump, every trump. The rule of docs/rules.md §4.5, the one place it is coded
    (the engine scores with it, views and decisions tell it to players); tabled in :data:`_BEATING`."""
    higher = SUIT_MASKS[card // 13] & -(2 << card)
    return higher if trump is None or card // 13 == trump else higher | SUIT_MASKS[trump]


_BEATING = {trump: tuple(_beating(c, trump) for c in range(52)) for trump in (None, 0, 1, 2, 3)}  # [trump][card]


ANY_CARD = (1 << 52) - 1  # the cards that take a trick no card of which is played yet: all of them


def _walk(trick: Sequence[tuple[int, int]], trump: int | None) -> tuple[int, int]:
    """(the seat winning ``trick`` so far, -1 if no card is played; the cards that would take it):
    the one walk over a trick by the table of :func:`_beating`. A :class:`Game` takes the same step
    as each card is played (:attr:`Game.winning`, :attr:`Game.beats`)."""
    beating = _BEATING[trump]
    beats, best = ANY_CARD, -1
    for s, c in trick:
        if beats >> c & 1:
            best, beats = s, beating[c]
    return best, beats


def trick_beats(trick: Sequence[tuple[int, int]], trump: int | None) -> int:
    """The cards (a mask) that would take ``trick`` ((seat, card) in play order) as it stands:
    every card when nothing is played yet."""
    return _walk(trick, trump)[1]


def trick_winner(trick: Sequence[tuple[int, int]], trump: int | None) -> int:
    """The seat winning ``trick`` ((seat, card) in play order, at least one) so far: the last whose
    card took it as it stood."""
    return _walk(trick, trump)[0]


def ranks(totals: Sequence[int]) -> list[int]:
    """Competition ranks per seat: 1 + the number of seats with a strictly higher total (ties share
    a place). The one definition the referee's results, a verified log and the standings use."""
    return [1 + sum(1 for u in totals if u > t) for t in totals]


class ActionErrorCode(StrEnum):
    """Why an action is refused: the one list of the codes bots may switch on. On the wire it is
    ActionError.code (this text) and ActionError.error_code (proto ActionErrorCode, ``ACTION_ERROR_CODE_``
    + the name). The engine refuses with the rules' codes (:class:`IllegalAction`); the referee
    refuses with the transport's (NOT_YOUR_TURN, STALE_TURN, MALFORMED, NOT_EXPECTED) before the
    engine sees an action."""

    # the rules (docs/rules.md §11)
    WRONG_PHASE = "WRONG_PHASE"
    CARD_NOT_HELD = "CARD_NOT_HELD"
    MUST_FOLLOW = "MUST_FOLLOW"
    CONTRACT_USED = "CONTRACT_USED"
    UNKNOWN_CONTRACT = "UNKNOWN_CONTRACT"
    TRUMP_REQUIRED = "TRUMP_REQUIRED"
    TRUMP_NOT_ALLOWED = "TRUMP_NOT_ALLOWED"
    BAD_EXCHANGE = "BAD_EXCHANGE"
    BAD_MAJOR = "BAD_MAJOR"
    # the engine's too (another seat is to act), and the referee's for a turn never asked of the seat
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    # the referee's only
    STALE_TURN = "STALE_TURN"  # an Action for a turn that is not pending
    MALFORMED = "MALFORMED"  # not an action at all (server.codec.protocol.ProtocolError)
    NOT_EXPECTED = "NOT_EXPECTED"  # nothing of the seat's is pending, or a second Hello
    # the engine's only: the referee asks only while a deal is on, and decodes only actions
    DEAL_OVER = "DEAL_OVER"
    GAME_OVER = "GAME_OVER"
    UNKNOWN_ACTION = "UNKNOWN_ACTION"


class IllegalAction(Exception):
    """An action the rules refuse. ``code`` is stable (bots may switch on it); ``message`` is for people."""

    def __init__(self, code: ActionErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Decision(NamedTuple):
    """What the player to act must decide, with everything needed to decide legally.

    ``actions`` enumerates the legal actions except for EXCHANGE, where any set of at most
    ``max_exchange`` held cards is legal (with ``take`` from ``talon`` in a pick exchange).
    ``beats`` (PLAY only) is the mask of the cards that would take the trick as it stands
    (:func:`trick_beats`), for :meth:`takes_trick`.
    """

    seat: int
    kind: Phase
    actions: tuple[Action, ...]
    max_exchange: int = 0
    pick: bool = False
    talon: tuple[int, ...] = ()
    beats: int = ANY_CARD

    def takes_trick(self) -> tuple[bool, ...]:
        """For each of ``actions`` (PLAY), whether that card would take the trick as it stands
        (every card of a lead does: it is the only card; only the table and the trump decide it, both
        public once played, so telling a seat reveals no hidden card); empty for the other kinds. The referee
        tells a bot these, so that no bot codes the rule of §4.5 itself."""
        if self.kind != _PLAY:
            return ()
        beats = self.beats
        return tuple([beats >> a.card & 1 == 1 for a in self.actions])  # type: ignore[union-attr]


def default_action(decision: Decision) -> Action:
    """The action the referee plays for a seat that runs out of time or is forfeited (documented to
    bots, and sent to them in every DecisionRequest): the first contract still open (by the
    ruleset's order, trumps in the first allowed suit), a pass in major rounds, no exchange (discard
    nothing, take nothing), and the lowest legal card (by suit S, H, D, C, then rank). It looks at
    nothing but the decision, so it depends on the seat's own cards only."""
    kind = decision.kind
    if kind == _EXCHANGE:
        return Exchange((), () if decision.pick else None)
    if kind == _MAJOR:
        return PASS
    return decision.actions[0]


_new = tuple.__new__
DealSource = Callable[[int, int], Deal | None]


def _hold_text(mask: int) -> str:
    return ", ".join(format_cards(mask_cards(mask))) or "nothing"


class Game:
    """One game from first deal to final totals. Drive it with :meth:`decision` and :meth:`apply`."""

    def __init__(
        self,
        rules: Ruleset,
        seed: int | str = 0,
        first_dealer: int | None = None,
        deal_source: DealSource | None = None,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.n = n
        self.seed = seed
        self._source: DealSource = deal_source or (lambda d, r: seeded_deal(seed, d, r, n, rules.hand_size))
        self.first_dealer = (n - 1 if not rules.dealer_declares else 0) if first_dealer is None else first_dealer
        if not 0 <= self.first_dealer < n:
            raise ValueError(f"first_dealer must be a seat 0..{n - 1}")
        self._budget = len(rules.contracts) if rules.majors else rules.deals // n
        # Per contract (by index): its bit in ``used`` and its Choose actions, built once per game.
        self._contract_no = {c.name: i for i, c in enumerate(rules.contracts)}
        self._choices = tuple(
            tuple(Choose(c.name, s) for s in rules.trump_suits()) if c.names_trump else (Choose(c.name),)
            for c in rules.contracts
        )
        self.totals = [0] * n
        self.used = [0] * n  # bit i set: contract i used by that seat
        self.results: list[DealResult] = []
        self.log: list[Event] = []
        self.regular_done = 0
        self.tiebreaks_done = 0
        self.deal_no = 0
        self.redeal = 0
        self.tiebreak = False
        self.caller = self.first_dealer if rules.dealer_declares else (self.first_dealer + 1) % n
        self.phase = Phase.WAITING
        self.to_act = -1
        self._reset_deal(self.caller)
        self._start_deal()

    @classmethod
    def at_deal(
        cls, rules: Ruleset, deal: Deal, caller: int, used: Sequence[int] = (), totals: Sequence[int] = (),
        tiebreak: bool = False, results: Sequence[DealResult] = (),
    ) -> Game:
        """A game whose next deal is ``deal``, ``caller`` to announce with the contracts ``used`` (bit i:
        contract i, per seat) already spent, after the deals ``results`` (which number this deal and
        its redeal, and count the deals played towards the game's end): the start of a deal as a
        searching bot rebuilds it, then replays the deal's actions with :meth:`apply`. After this deal
        the game waits for cards (:attr:`Phase.WAITING`), so a playout ends with the deal's result in
        :attr:`results` (or is over, after the game's last deal)."""
        pending = [deal]
        game = cls(rules, deal_source=lambda d, r: None)
        game._source = lambda d, r: pending.pop() if pending else None
        game.used = list(used) or [0] * game.n
        game.totals = list(totals) or [0] * game.n
        game.caller = caller
        game.tiebreak = tiebreak
        game.results = list(results)
        counted = [r for r in results if not r.void]
        game.deal_no = len(counted)
        game.redeal = len(results) - 1 - max((i for i, r in enumerate(results) if not r.void), default=-1)
        game.tiebreaks_done = sum(r.tiebreak for r in counted)
        game.regular_done = len(counted) - game.tiebreaks_done
        game._start_deal()
        return game

    def copy(self) -> Game:
        """An independent copy to play on: a search tries each action on its own copy of one position."""
        other = shallow_copy(self)
        for name in ("totals", "used", "results", "log", "hands", "exchanged", "discards", "taken", "tricks",
                     "trick", "_major_queue"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def _reset_deal(self, caller: int) -> None:
        """Empty per-deal state, so that every field exists even before cards arrive."""
        n = self.n
        self.dealer = caller if self.rules.dealer_declares else (caller - 1) % n
        self.declarer = caller
        self.dealt: tuple[tuple[int, ...], ...] = ((),) * n
        self.hands = [0] * n
        self.talon: tuple[int, ...] = ()
        self.talon_pos = 0
        self.contract: Contract | None = None
        self.trump: int | None = None
        self.major = False
        self.announced: Contract | None = None  # the caller's contract while majors are settled
        self.major_by = -1  # P: who announced "C major"
        self._major_queue: list[int] = []
        self.exchanged: list[int | None] = [None] * n
        self.discards: list[tuple[int, ...]] = [()] * n
        self.taken: list[tuple[int, ...]] = [()] * n
        self.tricks = [0] * n
        self.trick: list[tuple[int, int]] = []  # (seat, card) in play order
        self.beats = ANY_CARD  # the cards that would take the trick as it stands (trick_beats)
        self.winning = -1  # the seat winning it so far (trick_winner); -1 before its first card
        self.trick_no = 0
        self.led_mask = 0

    # ----------------------------------------------------------------------------------- deals
    def _start_deal(self) -> None:
        deal = self._source(self.deal_no, self.redeal)
        if deal is None:
            self.phase, self.to_act = Phase.WAITING, -1
            return
        rules = self.rules
        if self.tiebreak and self.redeal == 0:
            if rules.tiebreak is TiebreakMode.RANDOM:
                if deal.declarer is None:
                    raise ValueError("a random tie-break deal needs a drawn declarer")
                self.caller = deal.declarer
            else:
                low = min(self.totals)
                self.caller = self.totals.index(low)
        D = self.caller
        self._reset_deal(D)
        self.dealt = deal.hands
        self.hands = [card_mask(cards) for cards in deal.hands]
        self.talon = deal.talon
        self.log.append(Dealt(self.deal_no, self.redeal, self.tiebreak, self.dealer, D, deal.hands, deal.talon))
        if self.tiebreak:
            c = rules.contract(rules.notrump)
            assert c is not None
            self._settle(D, c, major=False)
        else:
            self.phase, self.to_act = Phase.CONTRACT, D

    def _left(self, seat: int) -> int:
        return self._budget - self.used[seat].bit_count()

    def _next_caller(self) -> int:
        D = self.caller
        if self.rules.continuous and self._left(D) > 0:
            return D
        for i in range(1, self.n + 1):
            p = (D + i) % self.n
            if self._left(p) > 0:
                return p
        return D

    def _end_deal(self, points: list[int], void: bool = False, revoker: int | None = None) -> None:
        result = DealResult(
            self.deal_no,
            self.redeal,
            self.tiebreak,
            self.dealer,
            self.declarer,
            self.caller,
            self.contract.name,  # type: ignore[union-attr]
            self.major,
            self.trump,
            tuple(self.tricks),
            tuple(points),
            void,
            revoker,
        )
        for s in range(self.n):
            self.totals[s] += points[s]
        self.results.append(result)
        self.log.append(DealScored(result, tuple(self.totals)))
        if void:
            self.redeal += 1  # same dealer and declarer; a void deal consumes no contract
        else:
            self.deal_no += 1
            self.redeal = 0
            if self.tiebreak:
                self.tiebreaks_done += 1
            else:
                self.used[self.declarer] |= 1 << self._contract_no[self.contract.name]  # type: ignore[union-attr]
                self.regular_done += 1
                self.caller = self._next_caller()
            if self.regular_done >= self.rules.deals:
                top = max(self.totals)
                shared = self.totals.count(top) > 1
                if not (shared and self.rules.tiebreak is not TiebreakMode.NONE and self.tiebreaks_done < self.rules.tiebreak_max):
                    self.phase, self.to_act = Phase.OVER, -1
                    self.log.append(GameOver(tuple(self.totals)))
                    return
                self.tiebreak = True
        self._start_deal()

    @property
    def finished(self) -> bool:
        return self.phase == _OVER

    # ------------------------------------------------------------------------------- queries
    def legal_plays(self) -> int:
        """The mask of cards the player to act may play (PLAY phase only)."""
        hand = self.hands[self.to_act]
        if self.trick:
            follow = hand & self.led_mask
            if follow:
                return follow
        return hand

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, enumerated; empty for EXCHANGE (see :meth:`decision`) and between deals."""
        phase = self.phase
        if phase == _PLAY:
            hand = self.hands[self.to_act]
            trick = self.trick
            if trick:
                s = trick[0][1] // 13
                follow = PLAY_FIELD[s][hand >> (13 * s) & 0x1FFF]
                if follow:
                    return follow
            spades, hearts, diamonds, clubs = PLAY_FIELD
            return (spades[hand & 0x1FFF] + hearts[hand >> 13 & 0x1FFF]
                    + diamonds[hand >> 26 & 0x1FFF] + clubs[hand >> 39 & 0x1FFF])
        if phase == _CONTRACT:
            return self._contract_options()
        if phase == _MAJOR:
            return tuple(Major(c.name) for c in self._major_options(self.to_act)) + (PASS,)
        return ()

    def decision(self) -> Decision | None:
        """The pending decision, or None between deals and after the game."""
        if self.phase >= _WAITING:
            return None
        if self.phase == _EXCHANGE:
            pick = self.rules.pick
            if pick:
                return Decision(self.to_act, self.phase, (), len(self.talon), True, self.talon)
            left = len(self.talon) - self.talon_pos
            return Decision(self.to_act, self.phase, (), min(left, self.hands[self.to_act].bit_count()))
        if self.phase == _PLAY:
            # Built as a plain tuple: a NamedTuple's own __new__ is a Python call, and most decisions are plays.
            return _new(Decision, (self.to_act, _PLAY, self.legal_actions(), 0, False, (), self.beats))
        return Decision(self.to_act, self.phase, self.legal_actions())

    def _contract_options(self) -> tuple[Choose, ...]:
        used = self.used[self.to_act]
        return tuple(a for i, choices in enumerate(self._choices) if not used >> i & 1 for a in choices)

    def _major_options(self, seat: int) -> list[Contract]:
        """Contracts ``seat`` may announce as major now (docs/rules.md §6)."""
        C = self.announced
        assert C is not None
        used = self.used[seat]
        free = [c for i, c in enumerate(self.rules.contracts) if not used >> i & 1]
        if self.major_by < 0:  # the announcing round: only "C major"
            return [C] if C in free else []
        if seat == self.declarer:  # the declarer's contest: any suit or grand it has not used
            return [c for c in free if c.major_rank]
        return [c for c in free if c.major_rank > C.major_rank]  # the third player: only higher

    # -------------------------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action, or raise IllegalAction and change nothing."""
        phase = self.phase
        if phase >= _WAITING:
            raise IllegalAction(ActionErrorCode.GAME_OVER if phase == _OVER else ActionErrorCode.DEAL_OVER,
                                "the game is over" if phase == _OVER else "the deal is over; no cards are dealt yet")
        if seat != self.to_act:
            raise IllegalAction(ActionErrorCode.NOT_YOUR_TURN, f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        t = type(action)
        if t is Play:
            if phase != _PLAY:
                raise self._wrong_kind("play a card")
            self._play(seat, action.card)
        elif t is Choose:
            if phase != _CONTRACT:
                raise self._wrong_kind("announce a contract")
            self._choose(seat, action)
        elif t is Major:
            if phase != _MAJOR:
                msg = "announce a major" if self.rules.majors else f"announce a major: {self.rules.preset} has no major contracts"
                raise self._wrong_kind(msg)
            self._major(seat, action.contract)
        elif t is Exchange:
            if phase != _EXCHANGE:
                raise self._wrong_kind("exchange")
            self._exchange(seat, action)
        else:
            raise IllegalAction(ActionErrorCode.UNKNOWN_ACTION, f"{action!r} is not an action")

    def _wrong_kind(self, what: str) -> IllegalAction:
        expected = {Phase.CONTRACT: "announce a contract", Phase.MAJOR: "announce a major or pass",
                    Phase.EXCHANGE: "exchange", Phase.PLAY: "play a card"}[self.phase]
        return IllegalAction(ActionErrorCode.WRONG_PHASE, f"cannot {what} now: you must {expected}")

    def _choose(self, seat: int, action: Choose) -> None:
        rules = self.rules
        c = rules.contract(action.contract)
        if c is None:
            names = ", ".join(x.name for x in rules.contracts)
            raise IllegalAction(ActionErrorCode.UNKNOWN_CONTRACT, f"{action.contract!r} is not a contract of {rules.preset}: {names}")
        if self.used[seat] >> self._contract_no[c.name] & 1:
            raise IllegalAction(ActionErrorCode.CONTRACT_USED, f"you have already played {c.name}")
        trump = action.trump
        if c.names_trump:
            allowed = rules.trump_suits()
            if trump is None:
                raise IllegalAction(ActionErrorCode.TRUMP_REQUIRED, f"{c.name} needs a trump suit: one of {''.join(SUITS[s] for s in allowed)}")
            if trump not in allowed:
                named = SUIT_NAMES[trump] if trump in range(4) else repr(trump)
                raise IllegalAction(ActionErrorCode.TRUMP_NOT_ALLOWED, f"{named} may not be named as trumps here: choose one of {''.join(SUITS[s] for s in allowed)}")
        elif trump is not None:
            raise IllegalAction(ActionErrorCode.TRUMP_NOT_ALLOWED, f"{c.name} has its own trump (or none): name no trump suit")
        else:
            trump = c.trump
        self.log.append(ContractAnnounced(seat, c.name, trump))
        if rules.majors and not c.minus:
            self.announced = c
            self.trump = trump
            self._major_queue = [(seat + i) % self.n for i in range(1, self.n)]
            self.phase, self.to_act = Phase.MAJOR, self._major_queue.pop(0)
        else:
            self._settle(seat, c, major=False, trump=trump)

    def _major(self, seat: int, name: str | None) -> None:
        options = self._major_options(seat)
        if name is not None:
            chosen = next((c for c in options if c.name == name), None)
            if chosen is None:
                raise IllegalAction(ActionErrorCode.BAD_MAJOR, self._major_refusal(seat, name, options))
        self.log.append(MajorAnnounced(seat, name))
        if self.major_by < 0:  # announcing round
            if name is not None:
                self.major_by = seat
                self.phase, self.to_act = Phase.MAJOR, self.declarer
            elif self._major_queue:
                self.to_act = self._major_queue.pop(0)
            else:
                self._settle(self.declarer, self.announced, major=False, trump=self.trump)  # type: ignore[arg-type]
        elif name is not None:  # a contest is final
            self._settle(seat, chosen, major=True)
        elif seat == self.declarer:  # the declarer passed: the third player may contest
            self.to_act = next(s for s in range(self.n) if s not in (self.declarer, self.major_by))
        else:
            self._settle(self.major_by, self.announced, major=True)  # type: ignore[arg-type]

    def _major_refusal(self, seat: int, name: str, options: list[Contract]) -> str:
        allowed = ", ".join(c.name for c in options) or "nothing: you can only pass"
        return f"you cannot announce {name!r} major now; you may announce {allowed}"

    def _settle(self, seat: int, contract: Contract, major: bool, trump: int | None = None) -> None:
        """Fix the effective declarer and contract, then open the exchange."""
        self.declarer = seat
        self.contract = contract
        self.major = major
        self.trump = contract.trump if trump is None else trump
        self.log.append(Settled(seat, contract.name, major, self.trump))
        self.phase = Phase.EXCHANGE
        self.to_act = seat

    def _exchange(self, seat: int, action: Exchange) -> None:
        discard, take = tuple(action.discard), action.take
        pick = self.rules.pick
        hand = self.hands[seat]
        if len(set(discard)) != len(discard):
            raise IllegalAction(ActionErrorCode.BAD_EXCHANGE, "a card is discarded twice")
        d_mask = 0
        for c in discard:
            d_mask |= 1 << c
        if d_mask & ~hand:
            raise IllegalAction(ActionErrorCode.BAD_EXCHANGE, f"you do not hold {_hold_text(d_mask & ~hand)}")
        if pick:
            take = tuple(take or ())
            if len(set(take)) != len(take) or not set(take) <= set(self.talon):
                raise IllegalAction(ActionErrorCode.BAD_EXCHANGE, f"take must name distinct talon cards: {', '.join(format_cards(self.talon))}")
            if len(take) != len(discard):
                raise IllegalAction(ActionErrorCode.BAD_EXCHANGE, f"discard and take must have the same number of cards, not {len(discard)} and {len(take)}")
        else:
            if take is not None:
                raise IllegalAction(ActionErrorCode.BAD_EXCHANGE, "this is a blind exchange: name only the discards, the talon top is taken for you")
            left = len(self.talon) - self.talon_pos
            if len(discard) > left:
                raise IllegalAction(ActionErrorCode.BAD_EXCHANGE, f"you may exchange at most {left} cards: the talon has {left} left")
            take = self.talon[self.talon_pos : self.talon_pos + len(discard)]
            self.talon_pos += len(discard)
        t_mask = 0
        for c in take:
            t_mask |= 1 << c
        self.hands[seat] = hand & ~d_mask | t_mask
        self.exchanged[seat] = len(discard)
        self.discards[seat] = discard
        self.taken[seat] = take
        self.log.append(Exchanged(seat, len(discard), discard, take))
        nxt = (seat + 1) % self.n
        if pick or nxt == self.declarer:
            self.phase, self.to_act = Phase.PLAY, self.declarer
        else:
            self.to_act = nxt

    def _play(self, seat: int, card: int) -> None:
        hands = self.hands
        hand = hands[seat]
        if not 0 <= card < 52:
            raise IllegalAction(ActionErrorCode.CARD_NOT_HELD, f"{card!r} is not a card (0..51); you hold {_hold_text(hand)}")
        bit = 1 << card
        if not hand & bit:
            raise IllegalAction(ActionErrorCode.CARD_NOT_HELD, f"you do not hold {CARD_TEXT[card]}; you hold {_hold_text(hand)}")
        trick = self.trick
        if not trick:
            self.led_mask = SUIT_MASKS[card // 13]
        elif not bit & self.led_mask and hand & self.led_mask:
            self._revoke(seat, card)
            return
        hands[seat] = hand ^ bit
        self.log.append(PLAYED[seat][card])
        trick.append(_SEAT_CARD[seat][card])
        if self.beats >> card & 1:  # trick_winner's step, taken as the card is played
            self.beats, self.winning = _BEATING[self.trump][card], seat
        if len(trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return
        winner = self.winning
        self.tricks[winner] += 1
        self.trick_no += 1
        self.log.append(TRICK_TAKEN[winner])
        self.trick, self.beats, self.winning = [], ANY_CARD, -1
        if self.trick_no < self.rules.tricks:
            self.to_act = winner
        else:
            self._end_deal(self._score())

    def _revoke(self, seat: int, card: int) -> None:
        """A card that fails to follow suit: refused, or (``revoke = "penalty"``) the deal is void."""
        if self.rules.revoke is RevokeMode.REJECT:
            led = self.trick[0][1] // 13
            held = self.hands[seat] & self.led_mask
            raise IllegalAction(ActionErrorCode.MUST_FOLLOW, f"must follow {SUIT_NAMES[led]}: you hold {_hold_text(held)}")
        self.log.append(Revoked(seat, card))
        points = [0] * self.n
        points[seat] = -10
        self._end_deal(points, void=True, revoker=seat)

    def _score(self) -> list[int]:
        n, E, t = self.n, self.declarer, self.tricks
        if self.major:
            won = t[E]
            if won >= self.rules.tricks - 1:
                bonus = 8 if won == self.rules.tricks else 4
                return [bonus if s == E else -bonus // (n - 1) for s in range(n)]
            return [t[s] - (MAJOR_QUOTA if s == E else 1) for s in range(n)]
        assert self.contract is not None
        if self.contract.minus:
            q = self.rules.quotas_minus
            return [q[(s - E) % n] - t[s] for s in range(n)]
        q = self.rules.quotas_plus
        return [t[s] - q[(s - E) % n] for s in range(n)]
