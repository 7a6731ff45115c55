"""Text that others chose (a bot's Hello, bot and league names, a crafted match log), made safe to
print and to tell apart.

- :func:`printable`: the one rendering of untrusted text for a terminal or a log line. A bot name
  with an ESC sequence could otherwise clear the organiser's screen, a newline or a bidi override
  could print a fake line; each such character is shown as a visible escape instead.
- :func:`counted`: "1 set", "2 sets": a count with its noun in agreement, wherever counts are printed.
- :func:`skeleton`: what a name looks like (Unicode TR39's confusable skeleton, casefolded), so that
  "аlice" with a Cyrillic а is refused beside "alice" (server/storage/store.py, tournaments/config.py).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, the noun in the plural (``noun`` + "s" unless given) for any count but 1."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


ESCAPED = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(c: str) -> str:
    if c in ESCAPED:
        return ESCAPED[c]
    if c == " " or c.isprintable():
        return c
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with every character a terminal would act on or hide shown as a visible escape
    (control and format characters, bidi overrides, zero-width and unassigned ones, line and odd
    space separators: all that ``str.isprintable`` refuses but the plain space; ``\\x1b``,
    ``\\u202e``), and a backslash doubled so that no escape can be faked; with ``limit``, cut to that
    many characters of ``text`` with the full length said."""
    cut = limit is not None and len(text) > limit
    shown = text[:limit] if cut else text
    out = shown if shown.isprintable() and "\\" not in shown else "".join(map(_escape, shown))
    return f"{out}... ({len(text)} characters)" if cut else out


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that :func:`printable` would escape (a backslash is fine), else None."""
    return next((c for c in text if c != " " and c != "\\" and not c.isprintable()), None)


@functools.lru_cache(maxsize=1)  # one file, read once
def _confusables() -> dict[str, list[dict[str, str]]]:
    """Unicode's confusables.txt as the confusable-homoglyphs package ships it (both directions:
    a character's prototype, and a prototype's look-alikes). Read at the first name checked, not
    at import: the package's own module takes 90 ms to import, on every command of the CLI."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    return json.loads(data)  # type: ignore[no-any-return]


def _prototype(c: str) -> str:
    """The character (or characters) ``c`` is drawn like: of ``c`` and its look-alikes, the one
    most others are mapped to (a TR39 prototype, which the symmetric data file does not mark),
    ties broken by code point, so every member of a class gets the same."""
    data = _confusables()
    alike = data.get(c)
    if alike is None:
        return c
    return min([c, *(a["c"] for a in alike)], key=lambda x: (-len(data.get(x, ())), x))


@functools.lru_cache(maxsize=2**16)  # a registration compares with every registered name
def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, casefolded, each character replaced by its confusable
    prototype, casefolded again. Two names with one skeleton are told apart by nobody reading a
    standings table ("alice", "Alice", "аlice" with a Cyrillic а, "ａｌｉｃｅ")."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", "".join(map(_prototype, folded))).casefold()
