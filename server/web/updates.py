"""WatchUpdates as the web page's feed sends them (server-sent events of proto JSON), apart from the
page itself: the finished-game renderer (server/replays.py) makes them in its worker process, which
must not import the web server, and the page makes a live match's on the referee's event loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from mizerka_proto import referee_pb2

HEADER = ("names", "ruleset")  # a game's header: the same in each of its updates, sent once per feed


def to_dict(message: Message) -> dict[str, Any]:
    """A message as the browser gets it: proto JSON with every field, names as in the .proto --
    what ``json_format.MessageToDict(message, always_print_fields_with_no_presence=True,
    preserving_proto_field_name=True)`` gives (tests/test_web.py checks), several times faster: the
    referee converts every update of every live match a spectator follows on its own event loop."""
    plan = _PLANS.get(message.DESCRIPTOR)
    if plan is None:
        plan = _PLANS[message.DESCRIPTOR] = _Plan(message.DESCRIPTOR)
    if plan.fallback:
        return json_format.MessageToDict(message, always_print_fields_with_no_presence=True, preserving_proto_field_name=True)
    out = dict(plan.defaults)
    for name in plan.repeated:
        out[name] = []
    fields = plan.fields
    for field, value in message.ListFields():
        name, kind, repeated, names = fields[field.number]
        if kind == _MESSAGE:
            out[name] = [to_dict(m) for m in value] if repeated else to_dict(value)
        elif kind == _ENUM:
            out[name] = [_enum(names, v) for v in value] if repeated else _enum(names, value)
        else:
            out[name] = list(value) if repeated else value
    return out


def _enum(names: Any, value: int) -> str | int:
    known = names.get(value)
    return value if known is None else known.name  # an unknown value as its number, as json_format does


# Field types whose proto JSON is the Python value itself (or an enum's name): no 64-bit integers
# (strings in JSON), floats (NaN, Infinity) or bytes (base64): a message with those, or with a map,
# goes through json_format.
_PLAIN = frozenset({FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_INT32,
                    FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_FIXED32,
                    FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_ENUM, FieldDescriptor.TYPE_MESSAGE})


class _Plan:
    """How to print one message type: its fields without presence, printed even when unset."""

    def __init__(self, descriptor: Descriptor) -> None:
        self.fallback = any(f.type not in _PLAIN or (f.message_type is not None and f.message_type.GetOptions().map_entry)
                            for f in descriptor.fields)
        self.repeated = [f.name for f in descriptor.fields if f.is_repeated]
        self.fields = {f.number: (f.name, f.type, f.is_repeated, f.enum_type.values_by_number if f.enum_type else None)
                       for f in descriptor.fields}
        self.defaults: dict[str, Any] = {}
        for f in descriptor.fields:
            if f.is_repeated or f.has_presence:
                continue
            if f.type == FieldDescriptor.TYPE_ENUM:
                self.defaults[f.name] = _enum(f.enum_type.values_by_number, 0)
            else:
                self.defaults[f.name] = f.default_value


_PLANS: dict[Descriptor, _Plan] = {}
_MESSAGE, _ENUM = FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_ENUM


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def sse(kind: str, data: bytes) -> bytes:
    """One server-sent event; ``data`` is JSON (one line)."""
    return b"event: " + kind.encode() + b"\ndata: " + data + b"\n\n"


@dataclass(frozen=True, slots=True)
class WebUpdate:
    """One WatchUpdate as JSON, made once and shared by every feed that sends it: the update without
    its game's header (``body``, an object) and the header's members (``header``: ``"names":...,
    "ruleset":...``), which a feed sends only in the first update of each game."""

    game_number: int
    body: bytes
    header: bytes
    live: bool = False  # of a game being played (server/watch.py), not an ended one's as rendered

    def frame(self, with_header: bool) -> bytes:
        """The ``update`` event, the header's members appended to the object when asked."""
        return sse("update", self.body[:-1] + b"," + self.header + b"}" if with_header else self.body)

    def __len__(self) -> int:  # what it holds, for caches bounded by bytes
        return len(self.body) + len(self.header)


def web_update(update: referee_pb2.WatchUpdate, extra: dict[str, Any] | None = None, live: bool = False) -> WebUpdate:
    """``update`` as the page sends it (the update is shared with the match's other watchers: never
    changed here), with ``extra`` members (the board's frames of the game, server/frames.py) added."""
    data = to_dict(update) | (extra or {})
    header = {name: data.pop(name, {}) for name in HEADER}  # a ruleset unset is left out of proto JSON
    return WebUpdate(update.game_number, _json(data), _json(header)[1:-1], live)
