"""Conversions between the engine and the wire (``proto/mizerka/v1``, ``mizerka_proto``): views,
decisions, actions, rulesets, results, clocks and the referee's own messages. Events and full deal
records are :mod:`server.codec.wire_events`; the two modules are the only places that do this.

Everything a player, spectator or log reader receives is first projected by :mod:`mizerka_engine.views`
(:func:`~mizerka_engine.views.project`, :func:`~mizerka_engine.views.project_events`); this module only
re-encodes those projections, so it cannot disclose what the projection hides. It never reads a
:class:`~mizerka_engine.game.Game`.

Engine -> wire: :func:`view_to_proto`, :func:`decision_to_proto`, :func:`result_to_proto`,
:func:`results_to_proto`, :func:`ruleset_to_proto`, :func:`action_to_proto`, the announcements and
tricks of a view or a deal record (:func:`add_announcements`, :func:`add_tricks`), plus small builders for
the referee's own messages (:func:`default_applied_to_proto`, :func:`strike_counted_to_proto`,
:func:`error_to_proto`).
Wire -> engine: :func:`action_from_proto` (raises :class:`ProtocolError` ``MALFORMED``),
:func:`options_from_struct`, :func:`clock_from_proto`.

These run on every decision, so they build messages directly (no reflection, no dict round trips)
and cache what never changes (rulesets).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from google.protobuf import struct_pb2

from mizerka_engine.actions import PASS, PLAYS, Action, Choose, Exchange, Major, Play
from mizerka_engine.cards import CARD_TEXT, SUITS, parse_card
from mizerka_engine.events import (
    DealResult,
)
from mizerka_engine.fold import Announcement, TrickView
from mizerka_engine.game import ActionErrorCode, Decision, Phase, default_action
from mizerka_engine.rules import Ruleset
from mizerka_engine.views import SPECTATOR, View
from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server.policies import DefaultReason
from server.settings import ClockSettings

__all__ = [
    "ProtocolError",
    "action_from_proto",
    "action_to_proto",
    "add_announcements",
    "add_tricks",
    "decision_to_proto",
    "default_applied_to_proto",
    "default_reason_from_proto",
    "error_to_proto",
    "options_from_struct",
    "options_to_struct",
    "result_to_proto",
    "results_to_proto",
    "ruleset_request_bytes",
    "ruleset_to_proto",
    "strike_counted_to_proto",
    "view_to_proto",
]

class ProtocolError(Exception):
    """A wire message that cannot be turned into an engine action.

    ``code`` is always ``MALFORMED``; ``message`` is for people. It has the same two attributes as
    :class:`~mizerka_engine.game.IllegalAction`, so the referee reports both the same way
    (see :func:`error_to_proto`).
    """

    code = ActionErrorCode.MALFORMED

    def __init__(self, message: str) -> None:
        super().__init__(f"{self.code}: {message}")
        self.message = message


# ------------------------------------------------------------------------------- tables
_SeatView = game_pb2.SeatView
_Action = game_pb2.Action
_Event = events_pb2.Event
_DealResult = game_pb2.DealResult
_DecisionRequest = referee_pb2.DecisionRequest

# engine Phase (0..5) -> wire Phase; the wire adds PHASE_UNSPECIFIED = 0 in front.
PHASE = tuple(game_pb2.Phase.Value("PHASE_" + p.name) for p in sorted(Phase))
_KIND = {
    Phase.CONTRACT: referee_pb2.DECISION_KIND_CONTRACT,
    Phase.MAJOR: referee_pb2.DECISION_KIND_MAJOR,
    Phase.EXCHANGE: referee_pb2.DECISION_KIND_EXCHANGE,
    Phase.PLAY: referee_pb2.DECISION_KIND_PLAY,
}
_ANNOUNCEMENT = {"contract": game_pb2.ANNOUNCEMENT_KIND_CONTRACT, "major": game_pb2.ANNOUNCEMENT_KIND_MAJOR}
TRUMP_TEXT = {None: "", 0: "S", 1: "H", 2: "D", 3: "C"}
_TRUMP_PARSE = {letter: i for i, letter in enumerate(SUITS)} | {letter.lower(): i for i, letter in enumerate(SUITS)}
_CARD_PARSE = {text: c for c, text in enumerate(CARD_TEXT)}
_DEFAULT_REASONS = {r: events_pb2.DefaultReason.Value("DEFAULT_REASON_" + r.value) for r in DefaultReason}
_DEFAULT_REASON_OF = {v: r for r, v in _DEFAULT_REASONS.items()}
_ACTION_ERROR_CODES = {c: referee_pb2.ActionErrorCode.Value("ACTION_ERROR_CODE_" + c.value) for c in ActionErrorCode}


def _trump(suit: int | None) -> str:
    return TRUMP_TEXT[suit]


def cards_text(cards: Iterable[int]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _ms(value: float) -> int:
    """A millisecond count clamped to uint32 (negative: 0)."""
    return min(max(0, int(value)), 0xFFFFFFFF)


def _enum_name(prefix: str, text: str) -> str:
    """``"continuous-dealer"`` -> ``"PREFIX_CONTINUOUS_DEALER"`` (the constructor checks the name)."""
    return prefix + text.upper().replace("-", "_")


# ------------------------------------------------------------------------------ rulesets
@lru_cache(maxsize=64)
def _ruleset_cached(rules: Ruleset) -> game_pb2.Ruleset:
    contracts = []
    trump_choices = [SUITS[s] for s in rules.trump_suits()]
    for c in rules.contracts:
        contracts.append(
            game_pb2.ContractInfo(
                name=c.name,
                minus=c.minus,
                trump=_trump(c.trump),
                names_trump=c.names_trump,
                trump_choices=trump_choices if c.names_trump else (),
                major_rank=c.major_rank,
            )
        )
    return game_pb2.Ruleset(
        preset=rules.preset,
        players=rules.players,
        hand_size=rules.hand_size,
        talon_size=rules.talon_size,
        contracts=contracts,
        exchange=_enum_name("EXCHANGE_KIND_", rules.exchange),
        majors=rules.majors,
        quotas_plus=rules.quotas_plus,
        quotas_minus=rules.quotas_minus,
        choose_after_all=rules.choose_after_all,
        cards_seen_before_choice=rules.seen_before_choice,
        declarer=_enum_name("DECLARER_MODE_", rules.declarer),
        deals=rules.deals,
        revoke=_enum_name("REVOKE_MODE_", rules.revoke),
        tiebreak=_enum_name("TIEBREAK_MODE_", rules.tiebreak),
        tiebreak_max=rules.tiebreak_max,
        misere_quotas=_enum_name("MISERE_QUOTAS_", rules.misere_quotas),
        trumps_allow_spades=rules.trumps_allow_spades,
        tiebreak_contract=rules.notrump,
    )


def ruleset_to_proto(rules: Ruleset) -> game_pb2.Ruleset:
    """The ruleset with every option in force (a fresh message; the encoding is cached per ruleset)."""
    out = game_pb2.Ruleset()
    out.CopyFrom(_ruleset_cached(rules))
    return out


def options_from_struct(options: struct_pb2.Struct | None) -> dict[str, Any]:
    """CreateMatchRequest.options -> the plain dict :func:`~mizerka_engine.rules.load_ruleset` takes.

    A Struct carries every number as a double; whole numbers become ``int`` (so ``deals: 9`` is
    the int 9 the rules want), others stay ``float`` and the rules then refuse them by name.
    """
    if options is None:
        return {}
    return {k: _plain(v) for k, v in options.fields.items()}


def _plain(value: struct_pb2.Value) -> Any:
    which = value.WhichOneof("kind")
    if which == "number_value":
        n = value.number_value
        return int(n) if n.is_integer() else n
    if which == "string_value":
        return value.string_value
    if which == "bool_value":
        return value.bool_value
    if which == "list_value":
        return [_plain(v) for v in value.list_value.values]
    if which == "struct_value":
        return {k: _plain(v) for k, v in value.struct_value.fields.items()}
    return None


def options_to_struct(options: Mapping[str, Any]) -> struct_pb2.Struct:
    """Ruleset options (as given to load_ruleset) -> a Struct, e.g. for Match.options."""
    out = struct_pb2.Struct()
    out.update(dict(options))
    return out


# ------------------------------------------------------------------------------- results
def result_to_proto(result: DealResult, totals: Sequence[int]) -> game_pb2.DealResult:
    """One finished deal with the game totals after it."""
    msg = _DealResult(
        deal=result.deal_no,
        redeal=result.redeal,
        tiebreak=result.tiebreak,
        dealer=result.dealer,
        declarer=result.declarer,
        caller=result.caller,
        contract=result.label,
        trump=TRUMP_TEXT[result.trump],
        tricks=result.tricks,
        points=result.points,
        void=result.void,
        totals=totals,
        major=result.major,
    )
    if result.revoker is not None:
        msg.revoker = result.revoker
    return msg


def results_to_proto(results: Iterable[DealResult]) -> list[game_pb2.DealResult]:
    """A game's results in order, each with the running totals after it (totals start at 0)."""
    out: list[game_pb2.DealResult] = []
    running: list[int] | None = None
    for r in results:
        if running is None:
            running = [0] * len(r.points)
        running = [t + p for t, p in zip(running, r.points, strict=True)]
        out.append(result_to_proto(r, running))
    return out


# ---------------------------------------------------------------------------------- views
def view_to_proto(view: View, names: Sequence[str] = ()) -> game_pb2.SeatView:
    """A projected :class:`View` (seat, SPECTATOR or FULL) as a SeatView; ``names`` by seat."""
    msg = _SeatView()
    _fill_view(msg, view, names)
    return msg


def _fill_view(msg: game_pb2.SeatView, view: View, names: Sequence[str]) -> None:
    # Field-by-field assignment: measurably faster with upb than keyword constructors or add(**kw).
    audience = view.audience
    if audience >= 0:
        msg.audience = game_pb2.AUDIENCE_SEAT
        msg.seat = audience
    else:
        msg.audience = game_pb2.AUDIENCE_SPECTATOR if audience == SPECTATOR else game_pb2.AUDIENCE_FULL
    msg.phase = PHASE[view.phase]
    msg.deal = view.deal_no
    msg.redeal = view.redeal
    msg.tiebreak = view.tiebreak
    if view.to_act >= 0:
        msg.to_act = view.to_act
    if view.dealer >= 0:
        msg.dealer = view.dealer
    if view.caller >= 0:
        msg.caller = view.caller
    if view.declarer >= 0:
        msg.declarer = view.declarer
    if view.contract:
        msg.contract = view.contract
    if view.contract_name:
        msg.contract_name = view.contract_name
        msg.contract_major = view.major
        msg.contract_minus = view.minus
    if view.trump is not None:
        msg.trump = SUITS[view.trump]
    msg.finished = view.finished

    text = CARD_TEXT
    quotas = view.quotas
    n_names = len(names)
    add_player = msg.players.add
    for s, size in enumerate(view.hand_sizes):
        p = add_player()
        p.seat = s
        if s < n_names:
            p.name = names[s]
        p.hand_count = size
        hand = view.hands[s]
        if hand is not None:
            p.hand_known = True
            p.hand.extend([text[c] for c in hand])
        exchanged = view.exchanged[s]
        if exchanged is not None:
            p.exchanged = exchanged
        discards = view.discards[s]
        if discards is not None:
            p.exchange_known = True
            if discards:
                p.discarded.extend([text[c] for c in discards])
            taken = view.taken[s]
            if taken:
                p.taken.extend([text[c] for c in taken])
        p.tricks_won = view.tricks_won[s]
        if quotas is not None:
            p.quota = quotas[s]
        used = view.used[s]
        if used:
            p.used_contracts.extend(used)
        p.total = view.totals[s]

    if view.talon is not None:
        msg.talon_known = True
        msg.talon.extend([text[c] for c in view.talon])
    if view.announcements:
        add_announcements(msg.announcements, view.announcements)
    if view.tricks:
        add_tricks(msg.tricks, view.tricks)
    if view.results:
        # Results only grow, and every decision of a game repeats them: merge a cached encoding.
        msg.MergeFromString(_results_bytes(view.results))


def add_announcements(out: Any, announcements: Iterable[Announcement]) -> None:
    """Append ``announcements`` to a repeated Announcement field (a view's, a deal record's)."""
    add = out.add
    for seat, kind, name in announcements:
        a = add()
        a.seat = seat
        a.kind = _ANNOUNCEMENT[kind]
        if name:
            a.contract = name


def add_tricks(out: Any, tricks: Iterable[TrickView]) -> None:
    """Append ``tricks`` to a repeated Trick field (a view's, a deal record's)."""
    text = CARD_TEXT
    add_trick = out.add
    for t in tricks:
        trick = add_trick()
        trick.leader = t.leader
        add_play = trick.plays.add
        for s, c in t.cards:
            play = add_play()
            play.seat = s
            play.card = text[c]
        if t.winner is not None:
            trick.winner = t.winner
        trick.winning = t.winning


@lru_cache(maxsize=4096)
def _results_bytes(results: tuple[DealResult, ...]) -> bytes:
    """The wire encoding of SeatView.results (running totals included) for a results tuple."""
    return _SeatView(results=results_to_proto(results)).SerializeToString()


# ------------------------------------------------------------------------------ actions
def action_to_proto(action: Action, turn: int = 0) -> game_pb2.Action:
    """An engine action as a wire Action for ``turn`` (legal actions, DefaultApplied, tests)."""
    t = type(action)
    if t is Play:
        return _Action(turn=turn, play_card=game_pb2.PlayCard(card=CARD_TEXT[action.card]))  # type: ignore[union-attr]
    if t is Choose:
        return _Action(
            turn=turn,
            choose_contract=game_pb2.ChooseContract(contract=action.contract, trump=TRUMP_TEXT[action.trump]),  # type: ignore[union-attr]
        )
    if t is Major:
        return _Action(turn=turn, announce_major=game_pb2.AnnounceMajor(contract=action.contract or ""))  # type: ignore[union-attr]
    if t is Exchange:
        return _Action(
            turn=turn,
            exchange_cards=game_pb2.ExchangeCards(
                discard=cards_text(action.discard), take=cards_text(action.take or ())  # type: ignore[union-attr]
            ),
        )
    raise TypeError(f"{action!r} is not an engine action")


def card_from_text(text: str, where: str) -> int:
    c = _CARD_PARSE.get(text)
    if c is not None:
        return c
    try:
        return parse_card(text)  # "10D", lower case, stray spaces
    except ValueError:
        raise ProtocolError(
            f"{where}: {text!r} is not a card; write rank 2-9/T/J/Q/K/A then suit S/H/D/C, e.g. 'TD'"
        ) from None


def suit_from_text(letter: str, where: str) -> int | None:
    """A suit letter (any case, stray spaces) -> 0..3; "" -> None (no suit)."""
    if not letter:
        return None
    trump = _TRUMP_PARSE.get(letter.strip())
    if trump is None:
        raise ProtocolError(f"{where}: {letter!r} is not a suit; write one letter S, H, D or C (or nothing)")
    return trump


def action_from_proto(msg: game_pb2.Action) -> Action:
    """A wire Action -> the engine action it names (its ``turn`` is the referee's business).

    Raises :class:`ProtocolError` ``MALFORMED`` for what cannot be an action at all: no action set,
    a card that is not a card, a trump that is not one suit letter. Everything else -- an unknown or
    used contract, a card not held, a bad exchange -- is passed through for the engine to refuse
    with its own code.
    """
    which = msg.WhichOneof("action")
    if which == "play_card":
        return PLAYS[card_from_text(msg.play_card.card, "play_card.card")]
    if which == "choose_contract":
        choose = msg.choose_contract
        return Choose(choose.contract, suit_from_text(choose.trump, "choose_contract.trump"))
    if which == "announce_major":
        name = msg.announce_major.contract
        return Major(name) if name else PASS
    if which == "exchange_cards":
        ex = msg.exchange_cards
        discard = tuple(card_from_text(t, "exchange_cards.discard") for t in ex.discard)
        take = tuple(card_from_text(t, "exchange_cards.take") for t in ex.take) if ex.take else None
        return Exchange(discard, take)
    raise ProtocolError("the Action sets no action: set one of choose_contract, announce_major, exchange_cards, play_card")


# ----------------------------------------------------------------------------- decisions
def decision_to_proto(
    turn: int,
    decision: Decision,
    view: View | game_pb2.SeatView,
    time_left_ms: int,
    bank_ms: int,
    names: Sequence[str] = (),
    rules: Ruleset | None = None,
    out: referee_pb2.DecisionRequest | None = None,
    extra: bytes = b"",
) -> referee_pb2.DecisionRequest:
    """The DecisionRequest for ``decision`` (the seat's pending decision) with the seat's ``view``.

    ``view`` is the seat's projected View (converted here with ``names``) or an already converted
    SeatView. ``rules``, when given, fills DecisionRequest.ruleset. ``out``: an empty request to
    fill, e.g. a RefereeMessage's own (wrapping a finished request would copy it). ``extra``: more
    of the request as wire bytes, merged in (:func:`ruleset_request_bytes`, the events of
    :meth:`server.codec.wire_events.EventEncoder.request_bytes`).
    """
    kind = decision.kind
    req = _DecisionRequest() if out is None else out
    req.turn = turn
    req.kind = _KIND[kind]
    req.time_left_ms = _ms(time_left_ms)
    req.bank_ms = _ms(bank_ms)
    if isinstance(view, _SeatView):
        req.view.CopyFrom(view)
    else:
        _fill_view(req.view, view, names)
    if kind == Phase.EXCHANGE:
        ex = req.exchange
        ex.max_cards = decision.max_exchange
        ex.pick = decision.pick
        if decision.pick:
            ex.talon.extend(cards_text(decision.talon))
    # Concatenated encodings merge into one message: the legal actions, the default action, a play's
    # takes_trick and the ruleset are encoded once per process, then merged in one parse (several
    # times cheaper than building them).
    default = default_action(decision)
    if kind == Phase.PLAY:
        play = _PLAY_BYTES
        parts = [play[a.card] for a in decision.actions]  # type: ignore[union-attr]
        parts.append(_DEFAULT_PLAY_BYTES[default.card])  # type: ignore[union-attr]
        parts.append(_takes_trick_bytes(decision.takes_trick()))
    else:
        parts = [_legal_action_bytes(a) for a in decision.actions]
        parts.append(_default_action_bytes(default))
    if rules is not None:
        parts.append(ruleset_request_bytes(rules))
    if extra:
        parts.append(extra)
    req.MergeFromString(b"".join(parts))
    for action in req.legal_actions:
        action.turn = turn
    req.default_action.turn = turn
    return req


@lru_cache(maxsize=1024, typed=True)  # typed: actions are tuples, and Play(5) == (5,) == any 1-tuple of 5
def _legal_action_bytes(action: Action) -> bytes:
    """``action`` (with no turn) as one entry of DecisionRequest.legal_actions on the wire."""
    return _DecisionRequest(legal_actions=[action_to_proto(action)]).SerializeToString()


_PLAY_BYTES = tuple(_legal_action_bytes(play) for play in PLAYS)  # by card: most decisions are plays


@lru_cache(maxsize=1024, typed=True)
def _default_action_bytes(action: Action) -> bytes:
    """``action`` (with no turn) as DecisionRequest.default_action on the wire."""
    return _DecisionRequest(default_action=action_to_proto(action)).SerializeToString()


_DEFAULT_PLAY_BYTES = tuple(_default_action_bytes(play) for play in PLAYS)  # by card


@lru_cache(maxsize=1024)
def _takes_trick_bytes(takes: tuple[bool, ...]) -> bytes:
    """``takes`` as DecisionRequest.takes_trick on the wire (a play's few patterns recur)."""
    return _DecisionRequest(takes_trick=takes).SerializeToString()


@lru_cache(maxsize=64)
def ruleset_request_bytes(rules: Ruleset) -> bytes:
    """DecisionRequest.ruleset on the wire, for ``extra`` (get it once: hashing a Ruleset is not cheap)."""
    return _DecisionRequest(ruleset=_ruleset_cached(rules)).SerializeToString()


def default_applied_to_proto(turn: int, action: Action, reason: DefaultReason) -> events_pb2.Event:
    """DefaultApplied for the seat concerned."""
    return _Event(default_applied=events_pb2.DefaultApplied(
        turn=turn, action=action_to_proto(action, turn), reason=_DEFAULT_REASONS[reason]))


def default_reason_from_proto(value: int) -> DefaultReason:
    """DefaultApplied.reason of an event the referee sent (never DEFAULT_REASON_UNSPECIFIED)."""
    return _DEFAULT_REASON_OF[value]


def strike_counted_to_proto(turn: int, strikes: int, max_strikes: int, forfeited: bool) -> events_pb2.Event:
    """StrikeCounted for the seat concerned."""
    return _Event(
        strike_counted=events_pb2.StrikeCounted(turn=turn, strikes=strikes, max_strikes=max_strikes, forfeited=forfeited)
    )


def error_to_proto(
    turn: int,
    code: ActionErrorCode,
    message: str,
    *,
    retry: bool = False,
    strikes: int = 0,
    time_left_ms: float = 0,
    bank_ms: float = 0,
) -> referee_pb2.ActionError:
    """The ActionError for a refusal, its code in both fields: the text ``code`` that older bots read
    and the enum ``error_code``."""
    return referee_pb2.ActionError(
        turn=turn,
        code=code.value,
        error_code=_ACTION_ERROR_CODES[code],
        message=message,
        retry=retry,
        strikes=strikes,
        time_left_ms=_ms(time_left_ms),
        bank_ms=_ms(bank_ms),
    )


def clock_to_proto(clock: ClockSettings) -> game_pb2.Clock:
    return game_pb2.Clock(
        decision_ms=clock.decision_ms, bank_ms=clock.bank_ms, increment_ms=clock.increment_ms,
        max_strikes=clock.max_strikes, max_retries=clock.max_retries,
    )


def clock_from_proto(msg: game_pb2.Clock | None, default: ClockSettings) -> ClockSettings:
    """CreateMatchRequest.clock -> ClockSettings; an unset message or all-zero fields mean ``default``."""
    if msg is None or msg.ByteSize() == 0:
        return default
    return ClockSettings(
        decision_ms=msg.decision_ms, bank_ms=msg.bank_ms, increment_ms=msg.increment_ms,
        max_strikes=msg.max_strikes, max_retries=msg.max_retries if msg.HasField("max_retries") else default.max_retries,
    )
