"""What a league's runner, its workers and their referees report as they go: one frozen record per
kind of event, so that every place that reports one and every place that shows it (the organiser's
terminal, tournaments/live.py; a worker's JSON log, ``mizerka worker``) agree on its name and
fields, and a type checker holds them to it.

Each record's :attr:`~Progress.name` and :meth:`~Progress.fields` are its wire form, as a worker
logs it (one JSON line per event, ``{"event": NAME, FIELD: VALUE, ...}``): scripts read those lines,
so the names and keys stay as they are (docs/scale-out.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self

if TYPE_CHECKING:
    from tournaments.standings.sequential import Separation

WIRE_KEY = "wire_key"  # field metadata: the key of the field in the wire form, where it is no Python name
UNSET_LEFT_OUT = "unset_left_out"  # field metadata: a None value is left out of the wire form


def wire_key(key: str) -> Any:
    """A field that the wire form calls ``key`` (``from``: no Python name)."""
    return field(metadata={WIRE_KEY: key})


def left_out_unset() -> Any:
    """An optional field whose key the wire form has only when it is set (as events of older
    versions had it: some places reported the key, some did not)."""
    return field(default=None, metadata={UNSET_LEFT_OUT: True})


@dataclass(frozen=True, slots=True)
class Progress:
    """The base of every event: its wire name and fields."""

    name: ClassVar[str]

    def fields(self) -> dict[str, Any]:
        """The wire form's fields: JSON arrays for the tuples."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get(UNSET_LEFT_OUT):
                continue
            out[f.metadata.get(WIRE_KEY, f.name)] = list(value) if isinstance(value, tuple) else value
        return out


# --------------------------------------------------------------------------------- the league
@dataclass(frozen=True, slots=True)
class Start(Progress):
    """The league's games: all of them, those already played, those to play now."""

    name = "start"
    total: int
    done: int
    todo: int


@dataclass(frozen=True, slots=True)
class Game(Progress):
    """A game's result is stored."""

    name = "game"
    game: str  # its key
    seats: tuple[str, ...]  # bot names in seat order
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Settled(Progress):
    """stop = "settled": every adjacent pair of the standings is separated; the league plays no more."""

    name = "settled"
    games: int
    rounds: int
    scheduled: int
    confidence: float

    @classmethod
    def of(cls, evidence: Separation) -> Self:
        return cls(evidence.games, evidence.rounds, evidence.scheduled, evidence.confidence)


@dataclass(frozen=True, slots=True)
class Interrupted(Progress):
    """Games an earlier run left in flight: their results are discarded and they are played again."""

    name = "interrupted"
    games: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Published(Progress):
    """Every game is stored: the league's matches (their cards) are public."""

    name = "published"
    group: str


@dataclass(frozen=True, slots=True)
class End(Progress):
    name = "end"
    games: int


# ---------------------------------------------------------------------------------- its games
@dataclass(frozen=True, slots=True)
class Replay(Progress):
    """A game's match was lost (aborted, or unknown to a referee on a new database): its seed is played again."""

    name = "replay"
    game: str
    match: str


@dataclass(frozen=True, slots=True)
class Refused(Progress):
    """A game's result was not written (it had one, or the worker's lease no longer held)."""

    name = "refused"
    game: str
    match: str


@dataclass(frozen=True, slots=True)
class LeaseLost(Progress):
    """A worker's lease on a game no longer holds: the game is stopped, another worker plays it."""

    name = "lease-lost"
    game: str
    match: str | None  # None: its match was not created yet


@dataclass(frozen=True, slots=True)
class Aborted(Progress):
    """Unfinished matches of the league stopped on the referee (an earlier run's, or this one's when stopping)."""

    name = "aborted"
    matches: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class AbortUnsupported(Progress):
    """The referee has no Arena.AbortMatches (an older version)."""

    name = "abort-unsupported"


# ------------------------------------------------------------------------------------ its bots
@dataclass(frozen=True, slots=True)
class Sandbox(Progress):
    """How the league's bots run: in a sandbox (and with which limits), or without one, and why."""

    name = "sandbox"
    on: bool
    why: str  # without one: why ("" with one)
    limits: str
    network: bool  # the sandbox lets the bots reach the network (the referee is remote)


@dataclass(frozen=True, slots=True)
class RemoteBot(Progress):
    """A bot that connects by itself: the command line that starts it (also written to ``file``)."""

    name = "remote-bot"
    bot: str
    server: str
    command: str
    file: str


@dataclass(frozen=True, slots=True)
class SandboxRetry(Progress):
    """The host could not set a bot's sandbox up: tried again, not charged to the bot."""

    name = "sandbox-retry"
    bot: str
    error: str
    failures: int  # in a row


@dataclass(frozen=True, slots=True)
class BotCrash(Progress):
    """A bot's process ended (a crash, charged to it); it is restarted."""

    name = "bot-crash"
    bot: str
    reason: str
    crashes: int
    max: int  # the league's max_crashes


@dataclass(frozen=True, slots=True)
class BotExit(Progress):
    """A bot's process ended while the database could not be reached: restarted, not charged."""

    name = "bot-exit"
    bot: str
    reason: str
    charged: bool
    error: str


@dataclass(frozen=True, slots=True)
class BotDisabled(Progress):
    """A bot reached max_crashes: disabled, its remaining games are forfeits."""

    name = "bot-disabled"
    bot: str
    reason: str
    last: str  # why its last process ended
    never_connected: bool  # (nearly always) a setup mistake: its log says which
    log: str
    log_tail: tuple[str, ...]  # its log's last lines, if it never connected


# ------------------------------------------------------------------------------- the referee
@dataclass(frozen=True, slots=True)
class RefereeError(Progress):
    """The referee failed on its side (e.g. its database out of reach for a moment): the call is tried again."""

    name = "referee-error"
    error: str


@dataclass(frozen=True, slots=True)
class RefereeRestart(Progress):
    name = "referee-restart"
    code: int  # its exit code
    restarts: int


@dataclass(frozen=True, slots=True)
class WebPage(Progress):
    """The referee's web page is served here (scripts read the "web page: URL" line)."""

    name = "web-page"
    url: str


# -------------------------------------------------------------------- workers and the database
@dataclass(frozen=True, slots=True)
class Submitted(Progress):
    """The league is open to the workers."""

    name = "submitted"
    league: str


@dataclass(frozen=True, slots=True)
class Workers(Progress):
    """The games each worker (host/pid) is playing and has finished."""

    name = "workers"
    workers: Mapping[str, Mapping[str, int]]  # worker -> {"running": N, "finished": N}
    running: int


@dataclass(frozen=True, slots=True)
class WorkerStart(Progress):
    name = "worker-start"
    worker: str
    slots: int


@dataclass(frozen=True, slots=True)
class League(Progress):
    """A worker plays games of this league."""

    name = "league"
    league: str


@dataclass(frozen=True, slots=True)
class CannotPlay(Progress):
    """This host cannot play a submitted league (its file, a bot's command, the sandbox): left to other hosts."""

    name = "cannot-play"
    league: str
    error: str
    retry_in_s: float


@dataclass(frozen=True, slots=True)
class LeagueError(Progress):
    """A worker's referee for the league would not start."""

    name = "league-error"
    league: str
    error: str


@dataclass(frozen=True, slots=True)
class GameError(Progress):
    """The referee refused a game's match: the game is left to its lease's expiry."""

    name = "game-error"
    game: str
    error: str


@dataclass(frozen=True, slots=True)
class Retaken(Progress):
    """A claimed game whose earlier lease (another worker's) had expired."""

    name = "retaken"
    game: str
    retaken_from: str = wire_key("from")  # that worker


@dataclass(frozen=True, slots=True)
class HandedBack(Progress):
    """A worker stopping handed its games in flight back to the others."""

    name = "handed-back"
    games: int


@dataclass(frozen=True, slots=True)
class DatabaseUnreachable(Progress):
    """The database cannot be reached: tried again."""

    name = "database-unreachable"
    error: str
    retrying: str | None = left_out_unset()  # what a worker tries again


@dataclass(frozen=True, slots=True)
class DatabaseLost(Progress):
    """The database stayed out of reach past the leases: a worker gave a write up, or its games."""

    name = "database-lost"
    error: str
    gave_up: str | None = left_out_unset()  # the write given up; unset: the leases were


Event = (Start | Game | Settled | Interrupted | Published | End | Replay | Refused | LeaseLost | Aborted | AbortUnsupported
         | Sandbox | RemoteBot | SandboxRetry | BotCrash | BotExit | BotDisabled | RefereeError | RefereeRestart | WebPage
         | Submitted | Workers | WorkerStart | League | CannotPlay | LeagueError | GameError | Retaken | HandedBack
         | DatabaseUnreachable | DatabaseLost)
Report = Callable[[Event], None]  # where events go: the organiser's terminal (tournaments/live.py) or a worker's log
