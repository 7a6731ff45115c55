"""League files (TOML): parsed into a frozen League, with errors that name the offending key.

See docs/leagues.md for the format and an example.
"""

from __future__ import annotations

import difflib
import math
import re
import shlex
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from mizerka_engine.rules import RulesError, Ruleset, load_ruleset
from server.names import StoreError, check_name, look_alike
from server.settings import ClockSettings
from server.text import skeleton
from tournaments.sandbox.settings import Limits, SandboxSettings, bot_limits, parse_sandbox

MAX_REGISTERED = 60  # characters of "BOT@LEAGUE", the name a bot is registered under (64, less a "-NN" suffix)
# A league's numbers: (default, least, most). The most are far beyond any real league and keep a
# typo from scheduling a billion games or waiting for days: as many games per table as one match may
# have (server/transport/service.py), an hour for a bot to start or a seat to be taken.
NUMBERS: dict[str, tuple[int | float, int, int]] = {
    "games_per_table": (1, 1, 10_000), "concurrency": (1, 1, 1_000), "max_crashes": (3, 0, 1_000),
    "startup_timeout_s": (20.0, 1, 3_600), "seat_timeout_s": (30.0, 1, 3_600),
}
MAX_GAMES = 1_000_000  # max_games of stop = "settled"
# What the runner itself gives every bot (docs/leagues.md, Bot programs); a bot's env may not set them.
LAUNCH_CONTRACT = ("MIZERKA_SERVER", "MIZERKA_TOKEN", "MIZERKA_PARALLEL")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class LeagueError(ValueError):
    """A league file that cannot be used; the message names the file and the key."""


class Format(StrEnum):
    """Which tables a league plays (tournaments/schedule.py): every set of as many bots as the game
    seats, or the candidate with every set of the others."""

    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"


class Seatings(StrEnum):
    """The orders a table plays in, so that every bot sits in every seat equally often: every order
    of its bots, or their rotations only."""

    ALL = "all"
    ROTATE = "rotate"


class StopRule(StrEnum):
    """When a league stops: after its whole schedule, or once its standings are settled (stop =
    "settled", tournaments/standings/sequential.py), playing round by round up to ``max_games``."""

    SCHEDULE = "schedule"
    SETTLED = "settled"


@dataclass(frozen=True, slots=True)
class BotSpec:
    name: str
    command: tuple[str, ...] = ()  # empty for a remote bot
    remote: bool = False
    env: tuple[tuple[str, str], ...] = ()  # extra environment variables for its process, from the league file
    limits: Limits = Limits()  # in the sandbox: the league's [sandbox] limits with the bot's own sandbox = {...} over them


@dataclass(frozen=True, slots=True)
class League:
    name: str
    path: Path  # the league file; relative paths in it are relative to its folder
    preset: str
    options: dict[str, Any]
    rules: Ruleset
    clock: ClockSettings
    bots: tuple[BotSpec, ...]
    format: Format
    candidate: str | None  # the bot a gauntlet is of
    seatings: Seatings
    games_per_table: int
    concurrency: int
    seed: str | None  # None: deals derive from a secret kept in the league's database (schedule.py)
    duplicate: bool  # every seating of a table plays the same deals (played one after another)
    data: Path  # folder for the SQLite file and the bots' logs
    startup_timeout_s: float
    max_crashes: int
    seat_timeout_s: float
    db: str | None = None  # a PostgreSQL URL from the league file (key ``db``); None: SQLite in ``data``
    stop: StopRule = StopRule.SCHEDULE  # with SETTLED, games_per_table is the rounds that max_games allows
    confidence: float = 0.95  # the standings call an adjacent pair settled at this family-wise confidence
    sandbox: SandboxSettings = SandboxSettings()  # whether bots run in the sandbox (tournaments/sandbox/settings.py)

    @property
    def db_path(self) -> Path:
        """The SQLite file, when the league has no ``db``; its admin-token file is kept beside it either way."""
        return self.data / "league.sqlite"

    @property
    def database(self) -> str:
        """What the stores and the local referee open (``--db``): the ``db`` URL, else the SQLite file."""
        return self.db if self.db is not None else str(self.db_path)

    @property
    def has_database(self) -> bool:
        """False if a SQLite league never ran (no file); a server's database is assumed to be there."""
        return self.db is not None or self.db_path.exists()

    def bot(self, name: str) -> BotSpec:
        return next(b for b in self.bots if b.name == name)

    @property
    def round_games(self) -> int:
        """Games in one round (every seating of every table once, as tournaments/schedule.py lays
        them out): the unit a league with stop = "settled" plays before it looks at its standings."""
        return _round_games(self.format, len(self.bots), self.rules.players, self.seatings)


def _round_games(fmt: Format, bots: int, players: int, seatings: Seatings) -> int:
    tables = math.comb(bots - 1, players - 1) if fmt is Format.GAUNTLET else math.comb(bots, players)
    return tables * (math.factorial(players) if seatings is Seatings.ALL else players)


Choice = TypeVar("Choice", bound=StrEnum)


def _choice(raw: dict[str, Any], key: str, kind: type[Choice], default: Choice, where: str) -> Choice:
    """The league file's ``key`` as one of ``kind`` (spelt as its values), ``default`` if not given."""
    try:
        return kind(raw.get(key, default))
    except ValueError:
        raise LeagueError(f"{where}: {key} must be one of {', '.join(kind)}, got {raw[key]!r}") from None


_WORDS = {str: "a string", int: "a whole number", float: "a number", bool: "true or false", list: "a list", dict: "a table"}
_TOP = {
    "name": str, "preset": str, "options": dict, "clock": dict, "bots": list, "format": str, "candidate": str,
    "seatings": str, "games_per_table": int, "concurrency": int, "seed": (str, int), "duplicate": bool, "data": str, "db": str,
    "startup_timeout_s": (int, float), "max_crashes": int, "seat_timeout_s": (int, float),
    "stop": str, "max_games": int, "confidence": (int, float), "sandbox": (str, dict),
}
_BOT = {"name": str, "command": (str, list), "remote": bool, "env": dict, "sandbox": dict}


def _check(table: dict[str, Any], schema: dict[str, Any], where: str) -> None:
    for key, value in table.items():
        if key not in schema:
            # A typo is the likely cause: name the key it was probably meant to be.
            close = difflib.get_close_matches(key, schema, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise LeagueError(f"{where}: unknown key {key!r}{hint}; expected one of {', '.join(schema)}")
        wants = schema[key] if isinstance(schema[key], tuple) else (schema[key],)
        # TOML true/false are Python bools, which are ints too: refuse them where a number is wanted.
        if not isinstance(value, wants) or isinstance(value, bool) and bool not in wants:
            names = " or ".join(dict.fromkeys(_WORDS[t] for t in wants))
            raise LeagueError(f"{where}: {key} must be {names}, got {value!r}")


def _bot(raw: Any, i: int, where: str, league: str, sandbox: SandboxSettings) -> BotSpec:
    at = f"{where}: bots[{i}]"
    if not isinstance(raw, dict):
        raise LeagueError(f"{at} must be a table with name and command (or remote = true)")
    given = raw.get("name")
    _check(raw, _BOT, f"{at} ({given!r})" if isinstance(given, str) and given.strip() else at)
    name = raw.get("name", "").strip()
    if not name or any(c in name for c in "/\\ "):
        raise LeagueError(f"{at}: name must be a non-empty word without spaces or slashes, got {raw.get('name')!r}")
    try:
        check_name(f"{name}@{league}", f"{name}@{league}, the name it is registered under,", MAX_REGISTERED)
    except StoreError as e:
        raise LeagueError(f"{at}: {e}") from None
    remote = raw.get("remote", False)
    command = raw.get("command", [])
    if isinstance(command, str):
        command = shlex.split(command)
    if remote and command:
        raise LeagueError(f"{at} ({name}): a remote bot connects by itself; give no command")
    if not remote and not (command and all(isinstance(c, str) and c for c in command)):
        raise LeagueError(f"{at} ({name}): command must be a non-empty list of strings (or set remote = true)")
    return BotSpec(name, tuple(command), remote, _env(raw.get("env", {}), f"{at} ({name})", remote),
                   _limits(raw, f"{at} ({name})", remote, sandbox, where))


def _limits(raw: dict[str, Any], at: str, remote: bool, sandbox: SandboxSettings, where: str) -> Limits:
    """A bot's sandbox limits: the league's, with its own ``sandbox = {...}`` over them."""
    if "sandbox" in raw and remote:
        raise LeagueError(f"{at}: sandbox is for bots the runner starts; a remote bot has no process here")
    try:
        return bot_limits(raw.get("sandbox", {}), sandbox.limits, f"{at}: sandbox", Path(where).parent)
    except ValueError as e:
        raise LeagueError(str(e)) from None


def _env(env: dict[str, Any], at: str, remote: bool) -> tuple[tuple[str, str], ...]:
    """A bot's ``env`` table: names and string values, none of the launch contract nor an admin
    token (a bot gets nothing from the runner's own environment beyond a short allowlist)."""
    if env and remote:
        raise LeagueError(f"{at}: env is for bots the runner starts; a remote bot has no process here")
    for key, value in env.items():
        if not _ENV_NAME.fullmatch(key):
            raise LeagueError(f"{at}: env: {key!r} is not a variable name")
        if key in LAUNCH_CONTRACT or key == "MIZERKA_ADMIN_TOKEN":
            raise LeagueError(f"{at}: env: {key} is set by the runner (or never given to bots); leave it out")
        if not isinstance(value, str):
            raise LeagueError(f"{at}: env: {key} must be a string, got {value!r}")
    return tuple(env.items())


def parse_league(text: str, path: Path) -> League:
    where = str(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LeagueError(f"{where}: not valid TOML: {e}") from None
    _check(raw, _TOP, where)
    for key in ("name", "bots"):
        if key not in raw:
            raise LeagueError(f"{where}: missing required key {key!r}")
    preset = raw.get("preset", "mizerka")
    options = raw.get("options", {})
    try:
        rules = load_ruleset(preset, options)
    except RulesError as e:
        raise LeagueError(f"{where}: {e}") from None
    try:
        clock = ClockSettings.from_table(raw.get("clock", {}))
    except ValueError as e:
        raise LeagueError(f"{where}: [clock]: {e}") from None
    name = raw["name"].strip()
    try:
        check_name(name, "name", MAX_REGISTERED // 2)
    except StoreError as e:
        raise LeagueError(f"{where}: {e}") from None
    try:
        sandbox = parse_sandbox(raw.get("sandbox"), where, path.parent)
    except ValueError as e:
        raise LeagueError(str(e)) from None
    bots = tuple(_bot(b, i, where, name, sandbox) for i, b in enumerate(raw["bots"]))
    names = [b.name for b in bots]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise LeagueError(f"{where}: bot name {dupes[0]!r} is used twice")
    twins = next(((n, twin) for i, n in enumerate(names) if (twin := look_alike(n, names[:i])) is not None), None)
    if twins is not None:
        raise LeagueError(f"{where}: bot names {twins[1]!r} and {twins[0]!r} read alike (one confusable skeleton, "
                          f"{skeleton(twins[0])!r}): give them names that read differently")
    fmt = _choice(raw, "format", Format, Format.ROUND_ROBIN, where)
    k = rules.players
    candidate = raw.get("candidate")
    if fmt is Format.GAUNTLET:
        if candidate not in names:
            raise LeagueError(f"{where}: a gauntlet needs candidate = the name of one of its bots, got {candidate!r}")
        if len(bots) - 1 < k - 1:
            raise LeagueError(f"{where}: a gauntlet on {preset} needs at least {k - 1} bots besides the candidate")
    elif candidate is not None:
        raise LeagueError(f"{where}: candidate is only for format = \"gauntlet\"")
    elif len(bots) < k:
        raise LeagueError(f"{where}: {preset} seats {k} players; a round-robin needs at least {k} bots, got {len(bots)}")
    seatings = _choice(raw, "seatings", Seatings, Seatings.ROTATE, where)
    values: dict[str, Any] = {}
    for key, (default, least, most) in NUMBERS.items():
        values[key] = raw.get(key, default)
        if not least <= values[key] <= most:  # also refuses nan
            raise LeagueError(f"{where}: {key} must be from {least} to {most:,}, got {values[key]}")
    stop, games_per_table = _stopping(raw, where, _round_games(fmt, len(bots), k, seatings), values["games_per_table"])
    confidence = raw.get("confidence", 0.95)
    if not 0.5 <= confidence < 1:
        raise LeagueError(f"{where}: confidence must be at least 0.5 and below 1 (e.g. 0.95), got {confidence!r}")
    seed = raw.get("seed")
    if seed is not None and not str(seed):
        raise LeagueError(f"{where}: seed must not be empty (leave it out for secret deals)")
    data = Path(raw.get("data", f"data/{name}"))  # relative to where the runner is started
    return League(
        name=name, path=path, preset=preset, options=dict(options), rules=rules, clock=clock, bots=bots, format=fmt,
        candidate=candidate, seatings=seatings, games_per_table=games_per_table,
        concurrency=values["concurrency"], seed=None if seed is None else str(seed),
        duplicate=raw.get("duplicate", False), data=data,
        startup_timeout_s=float(values["startup_timeout_s"]), max_crashes=values["max_crashes"],
        seat_timeout_s=float(values["seat_timeout_s"]), db=raw.get("db"), stop=stop, confidence=float(confidence),
        sandbox=sandbox,
    )


def _stopping(raw: dict[str, Any], where: str, round_games: int, games_per_table: int) -> tuple[StopRule, int]:
    """The stop rule and the schedule's length: with stop = "settled" the schedule is as many whole
    rounds as ``max_games`` allows (games_per_table would say the same thing twice)."""
    stop = _choice(raw, "stop", StopRule, StopRule.SCHEDULE, where)
    if stop is StopRule.SCHEDULE:
        if "max_games" in raw:
            raise LeagueError(f'{where}: max_games is for stop = "settled"; the whole schedule is played otherwise')
        return stop, games_per_table
    if "max_games" not in raw:
        raise LeagueError(f'{where}: stop = "settled" needs max_games, the most games the league may play')
    if "games_per_table" in raw:
        raise LeagueError(f'{where}: with stop = "settled", max_games sets the schedule\'s length; leave out games_per_table')
    if raw["max_games"] > MAX_GAMES:
        raise LeagueError(f"{where}: max_games must be at most {MAX_GAMES:,}, got {raw['max_games']:,}")
    if raw["max_games"] < round_games:
        raise LeagueError(f"{where}: max_games must be at least {round_games} (one round: every seating of every table "
                          f"once), got {raw['max_games']}")
    return stop, raw["max_games"] // round_games


def load_league(path: Path | str) -> League:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise LeagueError(f"cannot read league file {path}: {e}") from None
    return parse_league(text, path)
