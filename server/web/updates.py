"""WatchUpdates as the web page's feed sends them (server-sent events of proto JSON), apart from the
page itself: the finished-game renderer (server/replays.py) makes them in its worker process, which
must not import the web server, and the page makes a live match's on the referee's event loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mizerka_proto import referee_pb2
from server.codec.proto_json import to_dict

HEADER = ("names", "ruleset")  # a game's header: the same in each of its updates, sent once per feed


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
