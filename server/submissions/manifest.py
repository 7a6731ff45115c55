"""A submitted bot's manifest, ``mizerka-bot.toml`` at the top of its folder: the bot's name, how it
is built and how it is run. The author reads its errors in ``mizerka submit``'s output, so each names
the key that is wrong and how it should be, before anything is stored."""

from __future__ import annotations

import difflib
import shlex
import tomllib
from dataclasses import dataclass
from typing import Any

from server.names import shown
from server.submissions.refs import RefError, check_bot_name

MANIFEST = "mizerka-bot.toml"
MAX_MANIFEST_BYTES = 64 * 1024
KEYS = ("name", "run", "build")
_TOML_TYPES = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array", dict: "a table"}


class ManifestError(ValueError):
    """A manifest the arena refuses; the message starts with the file's name and names the key."""


@dataclass(frozen=True, slots=True)
class Manifest:
    """What the arena needs to know of a bot besides its files."""

    name: str  # the bot's name: ^[a-z0-9][a-z0-9_-]{0,39}$
    run: tuple[str, ...]  # argv run in the bot's folder (/bot); TOML string (shlex-split) or list of strings
    build: str | None = None  # optional shell command (sh -c) run once in the build sandbox

    def to_json(self) -> dict[str, Any]:
        """The manifest as the store and the wire keep it."""
        return {"name": self.name, "run": list(self.run), "build": self.build}


def _toml_type(value: object) -> str:
    return _TOML_TYPES.get(type(value), "a date or time")


def _no_nul(key: str, text: str) -> str:
    """``text`` unless it holds a NUL, which no argv or shell command can carry."""
    if "\0" in text:
        raise ManifestError(f"{MANIFEST}: {key} must not contain NUL characters")
    return text


def _run(value: object) -> tuple[str, ...]:
    """The run key as argv: a string split as a shell would (no shell runs it), or the words as given."""
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError as error:
            raise ManifestError(f"{MANIFEST}: run cannot be split into words as a shell would: {error} in {shown(value)}") from None
    elif isinstance(value, list):
        odd = next((word for word in value if not isinstance(word, str)), None)
        if odd is not None:
            raise ManifestError(f"{MANIFEST}: run must be a string or an array of strings, got an array holding {_toml_type(odd)}")
        words = value
    else:
        raise ManifestError(f"{MANIFEST}: run must be a string or an array of strings, got {_toml_type(value)}")
    if not words or not words[0]:
        raise ManifestError(f'{MANIFEST}: run must name the program that starts the bot, e.g. run = "python3 bot.py", got {value!r}')
    return tuple(_no_nul("run", word) for word in words)


def _build(value: object) -> str:
    if not isinstance(value, str):
        raise ManifestError(f"{MANIFEST}: build must be a string (a shell command), got {_toml_type(value)}")
    if not value.strip():
        raise ManifestError(f"{MANIFEST}: build must not be empty: leave the key out when the bot needs no build")
    return _no_nul("build", value)


def parse_manifest(text: bytes | str) -> Manifest:
    """The manifest in ``text`` (the file's bytes, or its text), else ManifestError naming the key."""
    if isinstance(text, bytes):
        size = len(text)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ManifestError(f"{MANIFEST} is not UTF-8 text (byte {error.start} is {text[error.start]:#04x})") from None
    else:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{MANIFEST} is {size} bytes, over the {MAX_MANIFEST_BYTES // 1024} KiB a manifest may have")
    try:
        table = tomllib.loads(text.removeprefix("\ufeff"))  # a byte order mark, as some editors write
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{MANIFEST} is not valid TOML: {error}") from None
    for key in table:
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ManifestError(f"{MANIFEST}: unknown key {shown(key)}{hint}; the keys are {', '.join(KEYS)}")
    if "name" not in table:
        raise ManifestError(f'{MANIFEST}: name is missing: the bot\'s name, e.g. name = "gobot"')
    if "run" not in table:
        raise ManifestError(f'{MANIFEST}: run is missing: the command that starts the bot, e.g. run = "python3 bot.py"')
    try:
        name = check_bot_name(table["name"], f"{MANIFEST}: name")
    except RefError as error:
        raise ManifestError(str(error)) from None
    build = table.get("build")
    return Manifest(name=name, run=_run(table["run"]), build=None if build is None else _build(build))
