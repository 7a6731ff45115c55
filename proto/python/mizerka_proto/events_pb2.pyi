from . import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DefaultReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEFAULT_REASON_UNSPECIFIED: _ClassVar[DefaultReason]
    DEFAULT_REASON_TIMEOUT: _ClassVar[DefaultReason]
    DEFAULT_REASON_FORFEITED: _ClassVar[DefaultReason]
    DEFAULT_REASON_DISCONNECTED: _ClassVar[DefaultReason]
    DEFAULT_REASON_REFUSED: _ClassVar[DefaultReason]
DEFAULT_REASON_UNSPECIFIED: DefaultReason
DEFAULT_REASON_TIMEOUT: DefaultReason
DEFAULT_REASON_FORFEITED: DefaultReason
DEFAULT_REASON_DISCONNECTED: DefaultReason
DEFAULT_REASON_REFUSED: DefaultReason

class Event(_message.Message):
    __slots__ = ("deal_started", "contract_announced", "major_announced", "contract_settled", "cards_exchanged", "card_played", "trick_won", "revoked", "deal_ended", "default_applied", "strike_counted")
    DEAL_STARTED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_ANNOUNCED_FIELD_NUMBER: _ClassVar[int]
    MAJOR_ANNOUNCED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_SETTLED_FIELD_NUMBER: _ClassVar[int]
    CARDS_EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TRICK_WON_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    DEAL_ENDED_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_APPLIED_FIELD_NUMBER: _ClassVar[int]
    STRIKE_COUNTED_FIELD_NUMBER: _ClassVar[int]
    deal_started: DealStarted
    contract_announced: ContractAnnounced
    major_announced: MajorAnnounced
    contract_settled: ContractSettled
    cards_exchanged: CardsExchanged
    card_played: CardPlayed
    trick_won: TrickWon
    revoked: Revoked
    deal_ended: DealEnded
    default_applied: DefaultApplied
    strike_counted: StrikeCounted
    def __init__(self, deal_started: _Optional[_Union[DealStarted, _Mapping]] = ..., contract_announced: _Optional[_Union[ContractAnnounced, _Mapping]] = ..., major_announced: _Optional[_Union[MajorAnnounced, _Mapping]] = ..., contract_settled: _Optional[_Union[ContractSettled, _Mapping]] = ..., cards_exchanged: _Optional[_Union[CardsExchanged, _Mapping]] = ..., card_played: _Optional[_Union[CardPlayed, _Mapping]] = ..., trick_won: _Optional[_Union[TrickWon, _Mapping]] = ..., revoked: _Optional[_Union[Revoked, _Mapping]] = ..., deal_ended: _Optional[_Union[DealEnded, _Mapping]] = ..., default_applied: _Optional[_Union[DefaultApplied, _Mapping]] = ..., strike_counted: _Optional[_Union[StrikeCounted, _Mapping]] = ...) -> None: ...

class DealStarted(_message.Message):
    __slots__ = ("deal", "redeal", "tiebreak", "dealer", "declarer", "hands", "talon")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    deal: int
    redeal: int
    tiebreak: bool
    dealer: int
    declarer: int
    hands: _containers.RepeatedCompositeFieldContainer[_game_pb2.SeatCards]
    talon: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, deal: _Optional[int] = ..., redeal: _Optional[int] = ..., tiebreak: _Optional[bool] = ..., dealer: _Optional[int] = ..., declarer: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[_game_pb2.SeatCards, _Mapping]]] = ..., talon: _Optional[_Iterable[str]] = ...) -> None: ...

class ContractAnnounced(_message.Message):
    __slots__ = ("seat", "contract", "trump")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    trump: str
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ...) -> None: ...

class MajorAnnounced(_message.Message):
    __slots__ = ("seat", "contract")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ...) -> None: ...

class ContractSettled(_message.Message):
    __slots__ = ("declarer", "contract", "trump", "quotas", "major", "minus")
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    QUOTAS_FIELD_NUMBER: _ClassVar[int]
    MAJOR_FIELD_NUMBER: _ClassVar[int]
    MINUS_FIELD_NUMBER: _ClassVar[int]
    declarer: int
    contract: str
    trump: str
    quotas: _containers.RepeatedScalarFieldContainer[int]
    major: bool
    minus: bool
    def __init__(self, declarer: _Optional[int] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ..., quotas: _Optional[_Iterable[int]] = ..., major: _Optional[bool] = ..., minus: _Optional[bool] = ...) -> None: ...

class CardsExchanged(_message.Message):
    __slots__ = ("seat", "count", "cards_known", "discarded", "taken")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_KNOWN_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    cards_known: bool
    discarded: _containers.RepeatedScalarFieldContainer[str]
    taken: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., cards_known: _Optional[bool] = ..., discarded: _Optional[_Iterable[str]] = ..., taken: _Optional[_Iterable[str]] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class TrickWon(_message.Message):
    __slots__ = ("winner", "trick")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    winner: int
    trick: int
    def __init__(self, winner: _Optional[int] = ..., trick: _Optional[int] = ...) -> None: ...

class Revoked(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class DealEnded(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _game_pb2.DealResult
    def __init__(self, result: _Optional[_Union[_game_pb2.DealResult, _Mapping]] = ...) -> None: ...

class DefaultApplied(_message.Message):
    __slots__ = ("turn", "action", "reason")
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    turn: int
    action: _game_pb2.Action
    reason: DefaultReason
    def __init__(self, turn: _Optional[int] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., reason: _Optional[_Union[DefaultReason, str]] = ...) -> None: ...

class StrikeCounted(_message.Message):
    __slots__ = ("turn", "strikes", "max_strikes", "forfeited")
    TURN_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    turn: int
    strikes: int
    max_strikes: int
    forfeited: bool
    def __init__(self, turn: _Optional[int] = ..., strikes: _Optional[int] = ..., max_strikes: _Optional[int] = ..., forfeited: _Optional[bool] = ...) -> None: ...
