"""How authors, submitted bots and their versions are named: ``alice``, ``alice/gobot``,
``alice/gobot@3``. One spelling everywhere (the wire, the command line, league files, logs), so
the rules are here once, apart from the store: checking a league file does not import SQLAlchemy."""

from __future__ import annotations

import re
from dataclasses import dataclass

from server.names import shown

# Lower-case letters, digits, "-" and "_", starting with a letter or digit: safe in a path, a URL, a
# log line and a league's bot name, and one spelling per name (no case or look-alike twins).
NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
NAME_RULE = "1 to 40 lower-case letters, digits, '-' or '_', starting with a letter or digit"


class RefError(ValueError):
    """A name or reference that is not spelt as one; the message says which and how it should be."""


def check_bot_name(name: object, what: str) -> str:
    """``name`` if it is a valid author or bot name, else RefError naming ``what``."""
    if not isinstance(name, str) or NAME.fullmatch(name) is None:
        given = shown(name) if isinstance(name, str) else repr(name)
        raise RefError(f"{what} must be {NAME_RULE}, got {given}")
    return name


@dataclass(frozen=True, slots=True)
class Ref:
    """A submitted bot, and one of its versions or (number None) its latest ready one."""

    author: str
    bot: str
    number: int | None = None

    def __str__(self) -> str:
        return f"{self.author}/{self.bot}" + ("" if self.number is None else f"@{self.number}")


def parse_ref(text: str, author: str | None = None) -> Ref:
    """``AUTHOR/BOT`` or ``AUTHOR/BOT@N``; with ``author`` given (an author naming its own bots),
    ``BOT`` and ``BOT@N`` too. RefError saying what is wrong."""
    if not isinstance(text, str) or not text:
        raise RefError(f"a submitted bot is named AUTHOR/BOT or AUTHOR/BOT@N, got {text!r}")
    head, at, number = text.partition("@")
    if at and not (number.isascii() and number.isdigit() and 0 < len(number) <= 9 and int(number) > 0):
        raise RefError(f"{shown(text)}: the version after '@' must be a number from 1, got {shown(number)}")
    owner, slash, bot = head.rpartition("/")
    if not slash:
        if author is None:
            raise RefError(f"{shown(text)}: name a submitted bot as AUTHOR/BOT or AUTHOR/BOT@N (e.g. alice/gobot@3)")
        owner = author
    check_bot_name(owner, f"{shown(text)}: the author")
    check_bot_name(bot, f"{shown(text)}: the bot's name")
    return Ref(owner, bot, int(number) if at else None)
