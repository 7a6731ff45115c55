import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from . import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_PENDING: _ClassVar[MatchStatus]
    MATCH_STATUS_RUNNING: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
    MATCH_STATUS_ABORTED: _ClassVar[MatchStatus]
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_PENDING: MatchStatus
MATCH_STATUS_RUNNING: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_ABORTED: MatchStatus

class RegisterBotRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ("bot_id", "token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    token: str
    def __init__(self, bot_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class MatchSeat(_message.Message):
    __slots__ = ("seat", "bot_id", "name", "forfeited")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_id: str
    name: str
    forfeited: bool
    def __init__(self, seat: _Optional[int] = ..., bot_id: _Optional[str] = ..., name: _Optional[str] = ..., forfeited: _Optional[bool] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("preset", "options", "seed_text", "seed_number", "games", "clock", "seats", "forfeit_seats", "group")
    PRESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_TEXT_FIELD_NUMBER: _ClassVar[int]
    SEED_NUMBER_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_SEATS_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    preset: str
    options: _struct_pb2.Struct
    seed_text: str
    seed_number: int
    games: int
    clock: _game_pb2.Clock
    seats: _containers.RepeatedScalarFieldContainer[str]
    forfeit_seats: _containers.RepeatedScalarFieldContainer[int]
    group: str
    def __init__(self, preset: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., seed_text: _Optional[str] = ..., seed_number: _Optional[int] = ..., games: _Optional[int] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ..., seats: _Optional[_Iterable[str]] = ..., forfeit_seats: _Optional[_Iterable[int]] = ..., group: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match_id", "match")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    match: Match
    def __init__(self, match_id: _Optional[str] = ..., match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_number", "finished", "totals", "seats", "results")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    finished: bool
    totals: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[_game_pb2.SeatRecord]
    results: _containers.RepeatedCompositeFieldContainer[_game_pb2.DealResult]
    def __init__(self, game_number: _Optional[int] = ..., finished: _Optional[bool] = ..., totals: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[_game_pb2.SeatRecord, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[_game_pb2.DealResult, _Mapping]]] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("match_id", "status", "ruleset", "options", "seed", "games", "clock", "seats", "results", "abort_reason", "create_time", "end_time", "group", "sealed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    ABORT_REASON_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    SEALED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    status: MatchStatus
    ruleset: _game_pb2.Ruleset
    options: _struct_pb2.Struct
    seed: str
    games: int
    clock: _game_pb2.Clock
    seats: _containers.RepeatedCompositeFieldContainer[MatchSeat]
    results: _containers.RepeatedCompositeFieldContainer[GameSummary]
    abort_reason: str
    create_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    group: str
    sealed: bool
    def __init__(self, match_id: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., ruleset: _Optional[_Union[_game_pb2.Ruleset, _Mapping]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., seed: _Optional[str] = ..., games: _Optional[int] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[MatchSeat, _Mapping]]] = ..., results: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., abort_reason: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., group: _Optional[str] = ..., sealed: _Optional[bool] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: MatchStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[MatchStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[Match]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[Match, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WaitMatchRequest(_message.Message):
    __slots__ = ("match_id", "timeout_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    timeout_ms: int
    def __init__(self, match_id: _Optional[str] = ..., timeout_ms: _Optional[int] = ...) -> None: ...

class WaitMatchResponse(_message.Message):
    __slots__ = ("match", "timed_out")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    match: Match
    timed_out: bool
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., timed_out: _Optional[bool] = ...) -> None: ...

class GetBotRequest(_message.Message):
    __slots__ = ("bot_id",)
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    def __init__(self, bot_id: _Optional[str] = ...) -> None: ...

class GetBotResponse(_message.Message):
    __slots__ = ("bot_id", "name", "streams", "idle_streams")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STREAMS_FIELD_NUMBER: _ClassVar[int]
    IDLE_STREAMS_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    streams: int
    idle_streams: int
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., streams: _Optional[int] = ..., idle_streams: _Optional[int] = ...) -> None: ...

class PublishMatchesRequest(_message.Message):
    __slots__ = ("group", "match_ids")
    GROUP_FIELD_NUMBER: _ClassVar[int]
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    group: str
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, group: _Optional[str] = ..., match_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class PublishMatchesResponse(_message.Message):
    __slots__ = ("published",)
    PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    published: int
    def __init__(self, published: _Optional[int] = ...) -> None: ...

class AbortMatchesRequest(_message.Message):
    __slots__ = ("group", "match_ids", "reason")
    GROUP_FIELD_NUMBER: _ClassVar[int]
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    group: str
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    def __init__(self, group: _Optional[str] = ..., match_ids: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ...) -> None: ...

class AbortMatchesResponse(_message.Message):
    __slots__ = ("match_ids",)
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_ids: _Optional[_Iterable[str]] = ...) -> None: ...
