import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class VersionState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERSION_STATE_UNSPECIFIED: _ClassVar[VersionState]
    VERSION_STATE_RECEIVED: _ClassVar[VersionState]
    VERSION_STATE_BUILDING: _ClassVar[VersionState]
    VERSION_STATE_BUILD_FAILED: _ClassVar[VersionState]
    VERSION_STATE_VALIDATING: _ClassVar[VersionState]
    VERSION_STATE_REJECTED: _ClassVar[VersionState]
    VERSION_STATE_READY: _ClassVar[VersionState]
    VERSION_STATE_RETIRED: _ClassVar[VersionState]
VERSION_STATE_UNSPECIFIED: VersionState
VERSION_STATE_RECEIVED: VersionState
VERSION_STATE_BUILDING: VersionState
VERSION_STATE_BUILD_FAILED: VersionState
VERSION_STATE_VALIDATING: VersionState
VERSION_STATE_REJECTED: VersionState
VERSION_STATE_READY: VersionState
VERSION_STATE_RETIRED: VersionState

class AddAuthorRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RegisterAuthorRequest(_message.Message):
    __slots__ = ("name", "invite_code")
    NAME_FIELD_NUMBER: _ClassVar[int]
    INVITE_CODE_FIELD_NUMBER: _ClassVar[int]
    name: str
    invite_code: str
    def __init__(self, name: _Optional[str] = ..., invite_code: _Optional[str] = ...) -> None: ...

class AuthorCredentials(_message.Message):
    __slots__ = ("author_id", "name", "token")
    AUTHOR_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    author_id: str
    name: str
    token: str
    def __init__(self, author_id: _Optional[str] = ..., name: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class SubmitRequest(_message.Message):
    __slots__ = ("data",)
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    def __init__(self, data: _Optional[bytes] = ...) -> None: ...

class BotVersion(_message.Message):
    __slots__ = ("author", "bot", "number", "ref", "digest", "state", "reason", "created", "built_digest", "run", "build")
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    BUILT_DIGEST_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    BUILD_FIELD_NUMBER: _ClassVar[int]
    author: str
    bot: str
    number: int
    ref: str
    digest: str
    state: VersionState
    reason: str
    created: _timestamp_pb2.Timestamp
    built_digest: str
    run: _containers.RepeatedScalarFieldContainer[str]
    build: str
    def __init__(self, author: _Optional[str] = ..., bot: _Optional[str] = ..., number: _Optional[int] = ..., ref: _Optional[str] = ..., digest: _Optional[str] = ..., state: _Optional[_Union[VersionState, str]] = ..., reason: _Optional[str] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., built_digest: _Optional[str] = ..., run: _Optional[_Iterable[str]] = ..., build: _Optional[str] = ...) -> None: ...

class SubmitResponse(_message.Message):
    __slots__ = ("version", "existing")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EXISTING_FIELD_NUMBER: _ClassVar[int]
    version: BotVersion
    existing: bool
    def __init__(self, version: _Optional[_Union[BotVersion, _Mapping]] = ..., existing: _Optional[bool] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    def __init__(self, bot: _Optional[str] = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("versions",)
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    versions: _containers.RepeatedCompositeFieldContainer[BotVersion]
    def __init__(self, versions: _Optional[_Iterable[_Union[BotVersion, _Mapping]]] = ...) -> None: ...

class GetVersionRequest(_message.Message):
    __slots__ = ("ref",)
    REF_FIELD_NUMBER: _ClassVar[int]
    ref: str
    def __init__(self, ref: _Optional[str] = ...) -> None: ...

class GetVersionResponse(_message.Message):
    __slots__ = ("version", "build_log", "validation_log")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    BUILD_LOG_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_LOG_FIELD_NUMBER: _ClassVar[int]
    version: BotVersion
    build_log: str
    validation_log: str
    def __init__(self, version: _Optional[_Union[BotVersion, _Mapping]] = ..., build_log: _Optional[str] = ..., validation_log: _Optional[str] = ...) -> None: ...

class RetireBotRequest(_message.Message):
    __slots__ = ("ref",)
    REF_FIELD_NUMBER: _ClassVar[int]
    ref: str
    def __init__(self, ref: _Optional[str] = ...) -> None: ...

class RetireBotResponse(_message.Message):
    __slots__ = ("retired",)
    RETIRED_FIELD_NUMBER: _ClassVar[int]
    retired: _containers.RepeatedCompositeFieldContainer[BotVersion]
    def __init__(self, retired: _Optional[_Iterable[_Union[BotVersion, _Mapping]]] = ...) -> None: ...
