"""A wire message as the proto's own JSON mapping (every field printed, names as in the .proto), for
the web page's feed and anything else that sends a message as JSON rather than define a form of its
own: one function for every message, so the JSON can never say more or less than the message.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message


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
