from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_CONTRACT: _ClassVar[Phase]
    PHASE_MAJOR: _ClassVar[Phase]
    PHASE_EXCHANGE: _ClassVar[Phase]
    PHASE_PLAY: _ClassVar[Phase]
    PHASE_WAITING: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class Audience(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AUDIENCE_UNSPECIFIED: _ClassVar[Audience]
    AUDIENCE_SEAT: _ClassVar[Audience]
    AUDIENCE_SPECTATOR: _ClassVar[Audience]
    AUDIENCE_FULL: _ClassVar[Audience]

class ExchangeKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EXCHANGE_KIND_UNSPECIFIED: _ClassVar[ExchangeKind]
    EXCHANGE_KIND_BLIND: _ClassVar[ExchangeKind]
    EXCHANGE_KIND_PICK: _ClassVar[ExchangeKind]

class DeclarerMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECLARER_MODE_UNSPECIFIED: _ClassVar[DeclarerMode]
    DECLARER_MODE_ALTERNATE: _ClassVar[DeclarerMode]
    DECLARER_MODE_CONTINUOUS: _ClassVar[DeclarerMode]
    DECLARER_MODE_DEALER: _ClassVar[DeclarerMode]
    DECLARER_MODE_CONTINUOUS_DEALER: _ClassVar[DeclarerMode]

class RevokeMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REVOKE_MODE_UNSPECIFIED: _ClassVar[RevokeMode]
    REVOKE_MODE_REJECT: _ClassVar[RevokeMode]
    REVOKE_MODE_PENALTY: _ClassVar[RevokeMode]

class TiebreakMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIEBREAK_MODE_UNSPECIFIED: _ClassVar[TiebreakMode]
    TIEBREAK_MODE_NONE: _ClassVar[TiebreakMode]
    TIEBREAK_MODE_RANDOM: _ClassVar[TiebreakMode]
    TIEBREAK_MODE_LOWEST: _ClassVar[TiebreakMode]

class MisereQuotas(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MISERE_QUOTAS_UNSPECIFIED: _ClassVar[MisereQuotas]
    MISERE_QUOTAS_REVERSED: _ClassVar[MisereQuotas]
    MISERE_QUOTAS_SAME: _ClassVar[MisereQuotas]

class AnnouncementKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ANNOUNCEMENT_KIND_UNSPECIFIED: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_CONTRACT: _ClassVar[AnnouncementKind]
    ANNOUNCEMENT_KIND_MAJOR: _ClassVar[AnnouncementKind]
PHASE_UNSPECIFIED: Phase
PHASE_CONTRACT: Phase
PHASE_MAJOR: Phase
PHASE_EXCHANGE: Phase
PHASE_PLAY: Phase
PHASE_WAITING: Phase
PHASE_OVER: Phase
AUDIENCE_UNSPECIFIED: Audience
AUDIENCE_SEAT: Audience
AUDIENCE_SPECTATOR: Audience
AUDIENCE_FULL: Audience
EXCHANGE_KIND_UNSPECIFIED: ExchangeKind
EXCHANGE_KIND_BLIND: ExchangeKind
EXCHANGE_KIND_PICK: ExchangeKind
DECLARER_MODE_UNSPECIFIED: DeclarerMode
DECLARER_MODE_ALTERNATE: DeclarerMode
DECLARER_MODE_CONTINUOUS: DeclarerMode
DECLARER_MODE_DEALER: DeclarerMode
DECLARER_MODE_CONTINUOUS_DEALER: DeclarerMode
REVOKE_MODE_UNSPECIFIED: RevokeMode
REVOKE_MODE_REJECT: RevokeMode
REVOKE_MODE_PENALTY: RevokeMode
TIEBREAK_MODE_UNSPECIFIED: TiebreakMode
TIEBREAK_MODE_NONE: TiebreakMode
TIEBREAK_MODE_RANDOM: TiebreakMode
TIEBREAK_MODE_LOWEST: TiebreakMode
MISERE_QUOTAS_UNSPECIFIED: MisereQuotas
MISERE_QUOTAS_REVERSED: MisereQuotas
MISERE_QUOTAS_SAME: MisereQuotas
ANNOUNCEMENT_KIND_UNSPECIFIED: AnnouncementKind
ANNOUNCEMENT_KIND_CONTRACT: AnnouncementKind
ANNOUNCEMENT_KIND_MAJOR: AnnouncementKind

class ContractInfo(_message.Message):
    __slots__ = ("name", "minus", "trump", "names_trump", "trump_choices", "major_rank")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MINUS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    NAMES_TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRUMP_CHOICES_FIELD_NUMBER: _ClassVar[int]
    MAJOR_RANK_FIELD_NUMBER: _ClassVar[int]
    name: str
    minus: bool
    trump: str
    names_trump: bool
    trump_choices: _containers.RepeatedScalarFieldContainer[str]
    major_rank: int
    def __init__(self, name: _Optional[str] = ..., minus: _Optional[bool] = ..., trump: _Optional[str] = ..., names_trump: _Optional[bool] = ..., trump_choices: _Optional[_Iterable[str]] = ..., major_rank: _Optional[int] = ...) -> None: ...

class Ruleset(_message.Message):
    __slots__ = ("preset", "players", "hand_size", "talon_size", "contracts", "exchange", "majors", "quotas_plus", "quotas_minus", "choose_after_all", "cards_seen_before_choice", "declarer", "deals", "revoke", "tiebreak", "tiebreak_max", "misere_quotas", "trumps_allow_spades", "tiebreak_contract")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    TALON_SIZE_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    MAJORS_FIELD_NUMBER: _ClassVar[int]
    QUOTAS_PLUS_FIELD_NUMBER: _ClassVar[int]
    QUOTAS_MINUS_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_AFTER_ALL_FIELD_NUMBER: _ClassVar[int]
    CARDS_SEEN_BEFORE_CHOICE_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    REVOKE_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_MAX_FIELD_NUMBER: _ClassVar[int]
    MISERE_QUOTAS_FIELD_NUMBER: _ClassVar[int]
    TRUMPS_ALLOW_SPADES_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    preset: str
    players: int
    hand_size: int
    talon_size: int
    contracts: _containers.RepeatedCompositeFieldContainer[ContractInfo]
    exchange: ExchangeKind
    majors: bool
    quotas_plus: _containers.RepeatedScalarFieldContainer[int]
    quotas_minus: _containers.RepeatedScalarFieldContainer[int]
    choose_after_all: bool
    cards_seen_before_choice: int
    declarer: DeclarerMode
    deals: int
    revoke: RevokeMode
    tiebreak: TiebreakMode
    tiebreak_max: int
    misere_quotas: MisereQuotas
    trumps_allow_spades: bool
    tiebreak_contract: str
    def __init__(self, preset: _Optional[str] = ..., players: _Optional[int] = ..., hand_size: _Optional[int] = ..., talon_size: _Optional[int] = ..., contracts: _Optional[_Iterable[_Union[ContractInfo, _Mapping]]] = ..., exchange: _Optional[_Union[ExchangeKind, str]] = ..., majors: _Optional[bool] = ..., quotas_plus: _Optional[_Iterable[int]] = ..., quotas_minus: _Optional[_Iterable[int]] = ..., choose_after_all: _Optional[bool] = ..., cards_seen_before_choice: _Optional[int] = ..., declarer: _Optional[_Union[DeclarerMode, str]] = ..., deals: _Optional[int] = ..., revoke: _Optional[_Union[RevokeMode, str]] = ..., tiebreak: _Optional[_Union[TiebreakMode, str]] = ..., tiebreak_max: _Optional[int] = ..., misere_quotas: _Optional[_Union[MisereQuotas, str]] = ..., trumps_allow_spades: _Optional[bool] = ..., tiebreak_contract: _Optional[str] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("decision_ms", "bank_ms", "increment_ms", "max_strikes", "max_retries")
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    MAX_RETRIES_FIELD_NUMBER: _ClassVar[int]
    decision_ms: int
    bank_ms: int
    increment_ms: int
    max_strikes: int
    max_retries: int
    def __init__(self, decision_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ..., max_strikes: _Optional[int] = ..., max_retries: _Optional[int] = ...) -> None: ...

class Announcement(_message.Message):
    __slots__ = ("seat", "kind", "contract")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: AnnouncementKind
    contract: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[AnnouncementKind, str]] = ..., contract: _Optional[str] = ...) -> None: ...

class TrickPlay(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("leader", "plays", "winner", "winning")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    WINNING_FIELD_NUMBER: _ClassVar[int]
    leader: int
    plays: _containers.RepeatedCompositeFieldContainer[TrickPlay]
    winner: int
    winning: int
    def __init__(self, leader: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[TrickPlay, _Mapping]]] = ..., winner: _Optional[int] = ..., winning: _Optional[int] = ...) -> None: ...

class PlayerState(_message.Message):
    __slots__ = ("seat", "name", "hand_known", "hand", "hand_count", "exchanged", "exchange_known", "discarded", "taken", "tricks_won", "quota", "used_contracts", "total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    HAND_KNOWN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_KNOWN_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    QUOTA_FIELD_NUMBER: _ClassVar[int]
    USED_CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    hand_known: bool
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_count: int
    exchanged: int
    exchange_known: bool
    discarded: _containers.RepeatedScalarFieldContainer[str]
    taken: _containers.RepeatedScalarFieldContainer[str]
    tricks_won: int
    quota: int
    used_contracts: _containers.RepeatedScalarFieldContainer[str]
    total: int
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., hand_known: _Optional[bool] = ..., hand: _Optional[_Iterable[str]] = ..., hand_count: _Optional[int] = ..., exchanged: _Optional[int] = ..., exchange_known: _Optional[bool] = ..., discarded: _Optional[_Iterable[str]] = ..., taken: _Optional[_Iterable[str]] = ..., tricks_won: _Optional[int] = ..., quota: _Optional[int] = ..., used_contracts: _Optional[_Iterable[str]] = ..., total: _Optional[int] = ...) -> None: ...

class DealResult(_message.Message):
    __slots__ = ("deal", "redeal", "tiebreak", "dealer", "declarer", "caller", "contract", "trump", "tricks", "points", "void", "revoker", "totals", "major")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    VOID_FIELD_NUMBER: _ClassVar[int]
    REVOKER_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    MAJOR_FIELD_NUMBER: _ClassVar[int]
    deal: int
    redeal: int
    tiebreak: bool
    dealer: int
    declarer: int
    caller: int
    contract: str
    trump: str
    tricks: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    void: bool
    revoker: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    major: bool
    def __init__(self, deal: _Optional[int] = ..., redeal: _Optional[int] = ..., tiebreak: _Optional[bool] = ..., dealer: _Optional[int] = ..., declarer: _Optional[int] = ..., caller: _Optional[int] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ..., tricks: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., void: _Optional[bool] = ..., revoker: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ..., major: _Optional[bool] = ...) -> None: ...

class SeatCards(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class ExchangeRecord(_message.Message):
    __slots__ = ("seat", "discarded", "taken")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    discarded: _containers.RepeatedScalarFieldContainer[str]
    taken: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., discarded: _Optional[_Iterable[str]] = ..., taken: _Optional[_Iterable[str]] = ...) -> None: ...

class DealRecord(_message.Message):
    __slots__ = ("result", "hands", "talon", "announcements", "exchanges", "tricks", "revoke_card")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGES_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    REVOKE_CARD_FIELD_NUMBER: _ClassVar[int]
    result: DealResult
    hands: _containers.RepeatedCompositeFieldContainer[SeatCards]
    talon: _containers.RepeatedScalarFieldContainer[str]
    announcements: _containers.RepeatedCompositeFieldContainer[Announcement]
    exchanges: _containers.RepeatedCompositeFieldContainer[ExchangeRecord]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    revoke_card: str
    def __init__(self, result: _Optional[_Union[DealResult, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[SeatCards, _Mapping]]] = ..., talon: _Optional[_Iterable[str]] = ..., announcements: _Optional[_Iterable[_Union[Announcement, _Mapping]]] = ..., exchanges: _Optional[_Iterable[_Union[ExchangeRecord, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., revoke_card: _Optional[str] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("audience", "seat", "phase", "to_act", "deal", "redeal", "tiebreak", "dealer", "caller", "declarer", "contract", "trump", "players", "talon_known", "talon", "announcements", "tricks", "results", "finished", "contract_name", "contract_major", "contract_minus")
    AUDIENCE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TALON_KNOWN_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_NAME_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_MAJOR_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_MINUS_FIELD_NUMBER: _ClassVar[int]
    audience: Audience
    seat: int
    phase: Phase
    to_act: int
    deal: int
    redeal: int
    tiebreak: bool
    dealer: int
    caller: int
    declarer: int
    contract: str
    trump: str
    players: _containers.RepeatedCompositeFieldContainer[PlayerState]
    talon_known: bool
    talon: _containers.RepeatedScalarFieldContainer[str]
    announcements: _containers.RepeatedCompositeFieldContainer[Announcement]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    results: _containers.RepeatedCompositeFieldContainer[DealResult]
    finished: bool
    contract_name: str
    contract_major: bool
    contract_minus: bool
    def __init__(self, audience: _Optional[_Union[Audience, str]] = ..., seat: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., to_act: _Optional[int] = ..., deal: _Optional[int] = ..., redeal: _Optional[int] = ..., tiebreak: _Optional[bool] = ..., dealer: _Optional[int] = ..., caller: _Optional[int] = ..., declarer: _Optional[int] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ..., players: _Optional[_Iterable[_Union[PlayerState, _Mapping]]] = ..., talon_known: _Optional[bool] = ..., talon: _Optional[_Iterable[str]] = ..., announcements: _Optional[_Iterable[_Union[Announcement, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[DealResult, _Mapping]]] = ..., finished: _Optional[bool] = ..., contract_name: _Optional[str] = ..., contract_major: _Optional[bool] = ..., contract_minus: _Optional[bool] = ...) -> None: ...

class ChooseContract(_message.Message):
    __slots__ = ("contract", "trump")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    contract: str
    trump: str
    def __init__(self, contract: _Optional[str] = ..., trump: _Optional[str] = ...) -> None: ...

class AnnounceMajor(_message.Message):
    __slots__ = ("contract",)
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    contract: str
    def __init__(self, contract: _Optional[str] = ...) -> None: ...

class ExchangeCards(_message.Message):
    __slots__ = ("discard", "take")
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    discard: _containers.RepeatedScalarFieldContainer[str]
    take: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, discard: _Optional[_Iterable[str]] = ..., take: _Optional[_Iterable[str]] = ...) -> None: ...

class PlayCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("turn", "choose_contract", "announce_major", "exchange_cards", "play_card")
    TURN_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCE_MAJOR_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_CARDS_FIELD_NUMBER: _ClassVar[int]
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    turn: int
    choose_contract: ChooseContract
    announce_major: AnnounceMajor
    exchange_cards: ExchangeCards
    play_card: PlayCard
    def __init__(self, turn: _Optional[int] = ..., choose_contract: _Optional[_Union[ChooseContract, _Mapping]] = ..., announce_major: _Optional[_Union[AnnounceMajor, _Mapping]] = ..., exchange_cards: _Optional[_Union[ExchangeCards, _Mapping]] = ..., play_card: _Optional[_Union[PlayCard, _Mapping]] = ...) -> None: ...

class SeatRecord(_message.Message):
    __slots__ = ("seat", "name", "total", "rank", "timeouts", "refusals", "defaults_applied", "forfeited", "disconnected")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    REFUSALS_FIELD_NUMBER: _ClassVar[int]
    DEFAULTS_APPLIED_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    DISCONNECTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    total: int
    rank: int
    timeouts: int
    refusals: int
    defaults_applied: int
    forfeited: bool
    disconnected: bool
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., total: _Optional[int] = ..., rank: _Optional[int] = ..., timeouts: _Optional[int] = ..., refusals: _Optional[int] = ..., defaults_applied: _Optional[int] = ..., forfeited: _Optional[bool] = ..., disconnected: _Optional[bool] = ...) -> None: ...
