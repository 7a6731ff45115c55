"""Names fit to be shown to people (bots, match groups), and :class:`StoreError`, the refusal
the store and everything that checks a name raise. Apart from the store, so that checking a league
file's names does not import SQLAlchemy."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from server.text import skeleton

MAX_NAME = 64  # characters of a bot name or a match group


class StoreError(ValueError):
    """A request the store refuses (duplicate name, unknown id), with a message naming it."""


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters: an id or name a client
    sent is echoed back, and a huge one must not push the reply over gRPC's metadata limit."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def check_name(name: str, what: str = "a bot name", limit: int = MAX_NAME) -> str:
    """``name`` without surrounding blanks if it is fit to be shown to people: 1 to ``limit``
    characters, no control, format (bidi override, zero-width) or unassigned characters, which
    could forge log lines or disguise one name as another; else StoreError saying why."""
    name = name.strip()
    if not name:
        raise StoreError(f"{what} must not be empty")
    if len(name) > limit:
        raise StoreError(f"{what} must be at most {limit} characters, got {len(name)}")
    bad = next((c for c in name if unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp")), None)
    if bad is not None:
        raise StoreError(f"{what} must not contain control or invisible characters, got U+{ord(bad):04X} in {shown(name)}")
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:  # refused, not changed: the name the organiser wrote is the one results and tokens are kept under
        raise StoreError(f"{what} must be in Unicode normal form NFKC, as it is shown: {shown(name)} is {shown(normal)} "
                         "there (full-width letters, ligatures, combining marks written apart); write it so")
    return name


def look_alike(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` other than ``name`` that reads the same (one confusable skeleton,
    server/text.py), else None."""
    mark = skeleton(name)
    return next((other for other in names if other != name and skeleton(other) == mark), None)
