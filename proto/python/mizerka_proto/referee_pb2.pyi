from . import events_pb2 as _events_pb2
from . import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_CONTRACT: _ClassVar[DecisionKind]
    DECISION_KIND_MAJOR: _ClassVar[DecisionKind]
    DECISION_KIND_EXCHANGE: _ClassVar[DecisionKind]
    DECISION_KIND_PLAY: _ClassVar[DecisionKind]

class ActionErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_ERROR_CODE_UNSPECIFIED: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_WRONG_PHASE: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_CARD_NOT_HELD: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_MUST_FOLLOW: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_CONTRACT_USED: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_UNKNOWN_CONTRACT: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_TRUMP_REQUIRED: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_TRUMP_NOT_ALLOWED: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_BAD_EXCHANGE: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_BAD_MAJOR: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_NOT_YOUR_TURN: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_STALE_TURN: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_MALFORMED: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_NOT_EXPECTED: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_DEAL_OVER: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_GAME_OVER: _ClassVar[ActionErrorCode]
    ACTION_ERROR_CODE_UNKNOWN_ACTION: _ClassVar[ActionErrorCode]
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_CONTRACT: DecisionKind
DECISION_KIND_MAJOR: DecisionKind
DECISION_KIND_EXCHANGE: DecisionKind
DECISION_KIND_PLAY: DecisionKind
ACTION_ERROR_CODE_UNSPECIFIED: ActionErrorCode
ACTION_ERROR_CODE_WRONG_PHASE: ActionErrorCode
ACTION_ERROR_CODE_CARD_NOT_HELD: ActionErrorCode
ACTION_ERROR_CODE_MUST_FOLLOW: ActionErrorCode
ACTION_ERROR_CODE_CONTRACT_USED: ActionErrorCode
ACTION_ERROR_CODE_UNKNOWN_CONTRACT: ActionErrorCode
ACTION_ERROR_CODE_TRUMP_REQUIRED: ActionErrorCode
ACTION_ERROR_CODE_TRUMP_NOT_ALLOWED: ActionErrorCode
ACTION_ERROR_CODE_BAD_EXCHANGE: ActionErrorCode
ACTION_ERROR_CODE_BAD_MAJOR: ActionErrorCode
ACTION_ERROR_CODE_NOT_YOUR_TURN: ActionErrorCode
ACTION_ERROR_CODE_STALE_TURN: ActionErrorCode
ACTION_ERROR_CODE_MALFORMED: ActionErrorCode
ACTION_ERROR_CODE_NOT_EXPECTED: ActionErrorCode
ACTION_ERROR_CODE_DEAL_OVER: ActionErrorCode
ACTION_ERROR_CODE_GAME_OVER: ActionErrorCode
ACTION_ERROR_CODE_UNKNOWN_ACTION: ActionErrorCode

class BotMessage(_message.Message):
    __slots__ = ("hello", "action")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    action: _game_pb2.Action
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "name", "version", "live_events")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LIVE_EVENTS_FIELD_NUMBER: _ClassVar[int]
    token: str
    name: str
    version: str
    live_events: bool
    def __init__(self, token: _Optional[str] = ..., name: _Optional[str] = ..., version: _Optional[str] = ..., live_events: _Optional[bool] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("welcome", "game_start", "event_batch", "decision_request", "action_error", "game_end")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    GAME_START_FIELD_NUMBER: _ClassVar[int]
    EVENT_BATCH_FIELD_NUMBER: _ClassVar[int]
    DECISION_REQUEST_FIELD_NUMBER: _ClassVar[int]
    ACTION_ERROR_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    game_start: GameStart
    event_batch: EventBatch
    decision_request: DecisionRequest
    action_error: ActionError
    game_end: GameEnd
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., game_start: _Optional[_Union[GameStart, _Mapping]] = ..., event_batch: _Optional[_Union[EventBatch, _Mapping]] = ..., decision_request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., action_error: _Optional[_Union[ActionError, _Mapping]] = ..., game_end: _Optional[_Union[GameEnd, _Mapping]] = ...) -> None: ...

class EventBatch(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.Event]
    def __init__(self, events: _Optional[_Iterable[_Union[_events_pb2.Event, _Mapping]]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("bot_id", "name", "max_message_bytes", "server_version")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    max_message_bytes: int
    server_version: str
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., max_message_bytes: _Optional[int] = ..., server_version: _Optional[str] = ...) -> None: ...

class GameStart(_message.Message):
    __slots__ = ("match_id", "game_number", "games", "seat", "names", "ruleset", "clock")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game_number: int
    games: int
    seat: int
    names: _containers.RepeatedScalarFieldContainer[str]
    ruleset: _game_pb2.Ruleset
    clock: _game_pb2.Clock
    def __init__(self, match_id: _Optional[str] = ..., game_number: _Optional[int] = ..., games: _Optional[int] = ..., seat: _Optional[int] = ..., names: _Optional[_Iterable[str]] = ..., ruleset: _Optional[_Union[_game_pb2.Ruleset, _Mapping]] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ...) -> None: ...

class ExchangeOptions(_message.Message):
    __slots__ = ("max_cards", "pick", "talon")
    MAX_CARDS_FIELD_NUMBER: _ClassVar[int]
    PICK_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    max_cards: int
    pick: bool
    talon: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, max_cards: _Optional[int] = ..., pick: _Optional[bool] = ..., talon: _Optional[_Iterable[str]] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("turn", "kind", "view", "legal_actions", "exchange", "time_left_ms", "bank_ms", "ruleset", "events", "default_action", "takes_trick")
    TURN_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ACTION_FIELD_NUMBER: _ClassVar[int]
    TAKES_TRICK_FIELD_NUMBER: _ClassVar[int]
    turn: int
    kind: DecisionKind
    view: _game_pb2.SeatView
    legal_actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.Action]
    exchange: ExchangeOptions
    time_left_ms: int
    bank_ms: int
    ruleset: _game_pb2.Ruleset
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.Event]
    default_action: _game_pb2.Action
    takes_trick: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, turn: _Optional[int] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., view: _Optional[_Union[_game_pb2.SeatView, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[_game_pb2.Action, _Mapping]]] = ..., exchange: _Optional[_Union[ExchangeOptions, _Mapping]] = ..., time_left_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., ruleset: _Optional[_Union[_game_pb2.Ruleset, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_events_pb2.Event, _Mapping]]] = ..., default_action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., takes_trick: _Optional[_Iterable[bool]] = ...) -> None: ...

class ActionError(_message.Message):
    __slots__ = ("turn", "code", "message", "retry", "strikes", "time_left_ms", "bank_ms", "error_code")
    TURN_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RETRY_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    ERROR_CODE_FIELD_NUMBER: _ClassVar[int]
    turn: int
    code: str
    message: str
    retry: bool
    strikes: int
    time_left_ms: int
    bank_ms: int
    error_code: ActionErrorCode
    def __init__(self, turn: _Optional[int] = ..., code: _Optional[str] = ..., message: _Optional[str] = ..., retry: _Optional[bool] = ..., strikes: _Optional[int] = ..., time_left_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., error_code: _Optional[_Union[ActionErrorCode, str]] = ...) -> None: ...

class GameEnd(_message.Message):
    __slots__ = ("match_id", "game_number", "seat", "rank", "totals", "results", "seats", "aborted", "abort_reason")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ABORTED_FIELD_NUMBER: _ClassVar[int]
    ABORT_REASON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game_number: int
    seat: int
    rank: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    results: _containers.RepeatedCompositeFieldContainer[_game_pb2.DealResult]
    seats: _containers.RepeatedCompositeFieldContainer[_game_pb2.SeatRecord]
    aborted: bool
    abort_reason: str
    def __init__(self, match_id: _Optional[str] = ..., game_number: _Optional[int] = ..., seat: _Optional[int] = ..., rank: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ..., results: _Optional[_Iterable[_Union[_game_pb2.DealResult, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[_game_pb2.SeatRecord, _Mapping]]] = ..., aborted: _Optional[bool] = ..., abort_reason: _Optional[str] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class WatchUpdate(_message.Message):
    __slots__ = ("match_id", "game_number", "full", "names", "ruleset", "view", "events", "deals", "game_over", "match_over")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    FULL_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game_number: int
    full: bool
    names: _containers.RepeatedScalarFieldContainer[str]
    ruleset: _game_pb2.Ruleset
    view: _game_pb2.SeatView
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.Event]
    deals: _containers.RepeatedCompositeFieldContainer[_game_pb2.DealRecord]
    game_over: bool
    match_over: bool
    def __init__(self, match_id: _Optional[str] = ..., game_number: _Optional[int] = ..., full: _Optional[bool] = ..., names: _Optional[_Iterable[str]] = ..., ruleset: _Optional[_Union[_game_pb2.Ruleset, _Mapping]] = ..., view: _Optional[_Union[_game_pb2.SeatView, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_events_pb2.Event, _Mapping]]] = ..., deals: _Optional[_Iterable[_Union[_game_pb2.DealRecord, _Mapping]]] = ..., game_over: _Optional[bool] = ..., match_over: _Optional[bool] = ...) -> None: ...
