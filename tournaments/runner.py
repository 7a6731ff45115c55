"""Running a league with trio: a local referee (unless one is given), supervised bot processes, and
the schedule played through the referee's Arena API with every result stored as it comes.

Resume is by construction: the schedule is stored once, each result is written exactly once
(``finish_league_game`` only moves a game to FINISHED once), and a game whose match was lost (the
referee died) is played again from its stored seed. A result counts only if this run saw its match
finish while its bots ran: games an earlier run left RUNNING were in flight when it stopped, and
their bots died with it, so their matches are aborted (a referee that outlived the runner would
play their seats by default moves) and their results discarded, and they are played again. SIGINT
and SIGTERM stop a league in that order too: abort the matches in flight, then stop the bots and
the referee (docs/leagues.md, Interruptions).

Secrecy: seeds derive from the league's secret (tournaments/schedule.py); games dealing the same
cards are played one after another; every match is created in the league's match group, sealed
until the whole league has finished and the runner publishes the group. A bot process gets an
allowlisted environment with its own token only (:func:`bot_env`); the local referee gets the admin
token in its environment, never on its command line (which every user can read); the database and
logs are for the user alone (docs/leagues.md, Secrets).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import signal
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import grpc
import trio

from mizerka.connection import ENV_TLS_CERT, ENV_TLS_KEY, Connection
from mizerka.runtime import Backoff
from mizerka_proto import arena_pb2
from server.private_files import private_dir
from server.serve import admin_token_for
from server.storage.database import DB_ERRORS, db_error_text
from server.storage.store import FINISHED, StoreError
from server.text import counted
from tournaments import progress
from tournaments.arena_client import RETRYABLE, ArenaClient
from tournaments.config import BotSpec, League
from tournaments.local_referee import BIN, LOCAL_HOST, LocalReferee
from tournaments.processes import Child, last_lines
from tournaments.progress import Report
from tournaments.remote_bots import REMOTE_BOTS_FILE, RemoteBot, advertised, write_remote_bots
from tournaments.sandbox.bwrap import BotSandbox, HostError
from tournaments.schedule import batches, deal_groups, match_group, schedule
from tournaments.standings.league import load_results, settled
from tournaments.standings.stats import Standings
from tournaments.store import LeagueBot, LeagueStore, ScheduledGame

# The SDK's one backoff schedule: Arena calls while the referee is unreachable, and bot restarts.
CALL_RETRY = Backoff(initial=0.1, cap=2.0)
RESTART = Backoff(initial=0.4, cap=5.0)
# How long one WaitMatch may wait for its match to end. The referee answers as soon as the match
# ends, so a long wait costs nothing in latency and saves the referee a poll (two store reads) per
# second per game; it is bounded so that a referee lost behind a dead link is noticed (the call's
# deadline is this plus 30 s).
WAIT_POLL_MS = 10_000
# What a bot process inherits from the runner's environment: enough to run a program, no secrets.
# Everything else (MIZERKA_ADMIN_TOKEN, cloud keys, ...) stays with the runner.
BOT_ENV_ALLOWED = ("PATH", "HOME", "LANG", "TZ", "TMPDIR")
BOT_ENV_PREFIXES = ("LC_",)
# Why the runner aborts its league's unfinished matches (Match.abort_reason, the bots' GameEnd).
LEFT_OVER = "the league runner stopped while this match was in flight; the game is played again"
STOPPING = "the league runner is stopping; the game will be played again"
LEASE_LOST = "this worker's lease on the game expired; another worker plays it again"
LOG_TAIL_LINES = 12  # of a bot's log, shown when it is disabled without ever having connected


def name_variants(name: str) -> Iterator[str]:
    """The names a league bot may be registered under: ``name``, then ``name-2``, ``name-3``...
    (a league started over with ``--fresh`` forgot the tokens of the names it registered)."""
    yield name
    yield from (f"{name}-{n}" for n in range(2, 1000))


def bot_env(spec: BotSpec, server: str, token: str, parallel: int) -> dict[str, str]:
    """A bot process's whole environment: the allowlisted variables of ours (PATH with this
    installation's bin first, so ``mizerka-bot`` and ``python3`` are ours), the bot's own ``env``
    from the league file, then the launch contract. Never all of ``os.environ``: a bot holding the
    admin token could read its own match's seed and every hand."""
    env = {k: v for k, v in os.environ.items() if k in BOT_ENV_ALLOWED or k.startswith(BOT_ENV_PREFIXES)}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', os.defpath)}"
    env.update(spec.env)
    env.update(MIZERKA_SERVER=server, MIZERKA_TOKEN=token, MIZERKA_PARALLEL=str(parallel))
    return env


def fingerprint(league: League) -> dict[str, Any]:
    """What the schedule and the meaning of its results depend on."""
    return {
        "preset": league.preset, "options": league.options, "bots": [b.name for b in league.bots],
        "format": league.format, "candidate": league.candidate, "seatings": league.seatings,
        "games_per_table": league.games_per_table, "seed": league.seed, "duplicate": league.duplicate,
        "clock": dataclasses.asdict(league.clock),
    }


class Ledger(Protocol):
    """Where a game's match and result are written: the league's rows directly (one runner), or
    under a worker's lease (tournaments/workers/worker.py), which may refuse. Both block on the database."""

    def started(self, row: ScheduledGame, match_id: str) -> bool:
        """Note the game's match; False: the game is no longer ours (abort the match)."""
        ...

    def finished(self, row: ScheduledGame, match_id: str, totals: list[int], faults: list[dict[str, int]]) -> bool:
        """Write the result exactly once; False if it was refused (or the game had one)."""
        ...


class LeagueLedger:
    """One runner's ledger: it owns every game of its league."""

    def __init__(self, store: LeagueStore, league: str) -> None:
        self.store = store
        self.league = league

    def started(self, row: ScheduledGame, match_id: str) -> bool:
        self.store.start_league_game(self.league, row.key, match_id)
        return True

    def finished(self, row: ScheduledGame, match_id: str, totals: list[int], faults: list[dict[str, int]]) -> bool:
        return self.store.finish_league_game(self.league, row.key, match_id, totals, faults)


class LeagueRunner:
    def __init__(self, league: League, store: LeagueStore, client: ArenaClient, report: Report,
                 referee: LocalReferee | None = None, group: str = "", ledger: Ledger | None = None,
                 slots: int | None = None) -> None:
        self.league = league
        self.group = group  # the Arena match group of this league's matches
        self.store = store
        self.ledger = ledger if ledger is not None else LeagueLedger(store, league.name)
        self.client = client
        self.report = report
        self.referee = referee
        self.bots: dict[str, LeagueBot] = {}  # as the database had them, with this run's crashes
        self.connected: set[str] = set()  # bots a process of which has connected in this run
        # Set while a bot can take its seats: it has connected once in this run (or is remote, or
        # disabled: its seats are forfeits). Unset while the host cannot make its sandbox (HostError):
        # a game waits for it here, not at the referee, which would forfeit the seat after
        # seat_timeout_s for the host's failure.
        self.seatable: dict[str, trio.Event] = {spec.name: trio.Event() for spec in league.bots}
        for spec in league.bots:
            if spec.remote:
                self.seatable[spec.name].set()
        self.parallel = slots or league.concurrency  # games at once: each bot process holds a stream per game
        self.limiter = trio.CapacityLimiter(self.parallel)
        # each game waits for its match in a thread of its own, never taking one of trio's default
        # threads (the ledger's writes) for as long as a match lasts
        self.waiters = trio.CapacityLimiter(self.parallel)
        self.sandbox = BotSandbox(league, report, None if referee is None else referee.sockets)  # tournaments/sandbox/bwrap.py

    async def _call(self, fn: Callable[..., Any], *args: Any, abandon: bool = True,
                    limiter: trio.CapacityLimiter | None = None) -> Any:
        """A blocking Arena call in a thread (of ``limiter``'s, else trio's default); retried while
        the referee is unreachable. With ``abandon=False`` a cancelled caller still waits for the
        call's answer (a match being created then exists before the runner aborts the league's
        matches)."""
        failures = 0
        while True:
            try:
                return await trio.to_thread.run_sync(fn, *args, abandon_on_cancel=abandon, limiter=limiter)
            except grpc.RpcError as e:
                # UNKNOWN: the referee failed on its side, e.g. its database out of reach for a moment
                if e.code() not in (*RETRYABLE, grpc.StatusCode.UNKNOWN):
                    raise
                if e.code() == grpc.StatusCode.UNKNOWN:
                    self.report(progress.RefereeError((e.details() or "").splitlines()[0][:200]))
                if self.referee is not None:
                    await self.referee.up.wait()
                failures += 1
                await trio.sleep(CALL_RETRY.delay(failures))

    # ---------------------------------------------------------------------------------- bots
    async def register_bots(self) -> None:
        for spec in self.league.bots:
            row = self.store.league_bot(self.league.name, spec.name)
            if row is None:
                bot_id, token = await self._register(f"{spec.name}@{self.league.name}")
                self.store.add_league_bot(self.league.name, spec.name, bot_id, token)
                row = self.store.league_bot(self.league.name, spec.name)
            assert row is not None
            self.bots[spec.name] = row
        remote = [RemoteBot(s.name, {**self._reach(), "MIZERKA_TOKEN": self.bots[s.name].token})
                  for s in self.league.bots if s.remote]
        if remote:
            path, server = self.league.data / REMOTE_BOTS_FILE, remote[0].env["MIZERKA_SERVER"]
            write_remote_bots(path, self.league.name, server, remote)
            for bot in remote:
                self.report(progress.RemoteBot(bot.name, server, bot.command, str(path)))

    def _reach(self) -> dict[str, str]:
        """How a bot elsewhere reaches the referee: the local one's address as seen from another
        machine, or the runner's own connection to a running one (its TLS settings but not its
        client certificate, which is the runner's own)."""
        if self.referee is None:
            env = self.client.connection.env()
            return {k: v for k, v in env.items() if k not in (ENV_TLS_CERT, ENV_TLS_KEY)}
        return {"MIZERKA_SERVER": advertised(self.referee.address)}

    async def _register(self, name: str) -> tuple[str, str]:
        """Register under ``name``, or ``name-2``... when a league run with ``--fresh`` (whose tokens
        are forgotten) registered it before."""
        for variant in name_variants(name):
            try:
                return await self._call(self.client.register, variant)
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.ALREADY_EXISTS:
                    raise
        raise StoreError(f"cannot register bot {name!r}: every variant of the name is taken")

    async def supervise(self, spec: BotSpec) -> None:
        """Keep one bot process running; disable the bot after ``max_crashes`` crashes."""
        try:
            await self._supervise(spec, self.bots[spec.name], self.league.data / "logs" / f"{spec.name}.log")
        finally:  # disabled (its seats are forfeits) or the run is ending: no game waits for it
            self.seatable[spec.name].set()

    async def _supervise(self, spec: BotSpec, row: LeagueBot, log: Path) -> None:
        league = self.league
        host_failures = 0  # in a row: the host could not set the bot's sandbox up
        uncharged = 0  # exits while the database was out of reach
        while not row.disabled:
            if self.referee is not None:
                await self.referee.up.wait()
            address = self.referee.address if self.referee is not None else self.client.address
            env = bot_env(spec, address, row.token, self.parallel)
            if self.referee is None:  # a remote referee: reach it as the runner does (TLS); a bot's own env wins
                env = {**self.client.connection.env(), **env}
            try:
                process: Child | None = self.sandbox.start(spec, env, log)
            except HostError as e:  # the host's failure, not the bot's: tried again, never counted as its crash
                if self.seatable[spec.name].is_set():  # games not yet made wait until it connects again
                    self.seatable[spec.name] = trio.Event()
                host_failures += 1
                self.report(progress.SandboxRetry(spec.name, str(e), host_failures))
                await trio.sleep(RESTART.delay(host_failures))
                continue
            except OSError as e:
                process, why = None, f"could not be started: {e}"
            host_failures = 0
            if process is not None:
                try:
                    why = await self._watch(spec, row, process)
                finally:
                    await process.stop()
            try:
                crashes, disabled = await trio.to_thread.run_sync(self._charge_crash, spec.name, why)
            except DB_ERRORS as e:
                # the organiser's side is failing (the referee cannot check a connecting bot's token
                # either, and ends its stream): the exit is not charged to the bot
                uncharged += 1
                self.report(progress.BotExit(spec.name, why, charged=False, error=db_error_text(e)))
                await trio.sleep(RESTART.delay(uncharged))
                continue
            self.bots[spec.name] = row = dataclasses.replace(row, crashes=crashes, disabled=disabled)
            if disabled is not None:
                never = spec.name not in self.connected  # (nearly always) a setup mistake: its log says which
                self.report(progress.BotDisabled(spec.name, disabled, why, never, str(log),
                                                 tuple(last_lines(log, LOG_TAIL_LINES)) if never else ()))
                return
            self.report(progress.BotCrash(spec.name, why, crashes, league.max_crashes))
            await trio.sleep(RESTART.delay(crashes))

    def _charge_crash(self, name: str, why: str) -> tuple[int, str | None]:
        """Count a crash of bot ``name`` (the database's count: every runner and worker of the league
        together) and disable the bot at ``max_crashes``; returns the count and, once disabled, why.
        Blocks on the database: call it in a thread."""
        crashes = self.store.count_crash(self.league.name, name)
        if crashes < self.league.max_crashes:
            return crashes, None
        reason = f"disabled after {counted(crashes, 'crash', 'crashes')} (last: {why}); its remaining games are forfeits"
        self.store.disable_league_bot(self.league.name, name, reason)
        return crashes, reason

    async def _watch(self, spec: BotSpec, row: LeagueBot, process: Child) -> str:
        """Wait for the process to connect (startup deadline), then for it to exit; returns why it ended."""
        timeout = self.league.startup_timeout_s
        with trio.move_on_after(timeout) as startup:
            while (await self._call(self.client.streams, row.bot_id)) < 1:
                if process.poll() is not None:
                    return f"{self.sandbox.exit_reason(spec, process)} before connecting"
                await trio.sleep(0.05)
        if startup.cancelled_caught:
            return f"did not connect within {timeout:g} s"
        self.connected.add(spec.name)
        self.seatable[spec.name].set()
        await process.wait()
        return self.sandbox.exit_reason(spec, process)

    # ---------------------------------------------------------------------------------- games
    async def play_group(self, rows: Sequence[ScheduledGame]) -> None:
        """Games dealing the same cards, one after another: never two of them at once."""
        for row in rows:
            await self.play(row)

    async def play(self, row: ScheduledGame) -> None:
        """Play one stored game from its stored seed, in a match of this run (never one an earlier
        run left: see :meth:`LeagueStore.discard_in_flight`)."""
        async with self.limiter:
            while True:
                for name in row.seats:
                    await self.seatable[name].wait()
                forfeits = [s for s, name in enumerate(row.seats) if self.bots[name].disabled]
                seats = [self.bots[name].bot_id for name in row.seats]
                match_id = await self._call(
                    self.client.create, self.league.preset, self.league.options, row.seed, self.league.clock,
                    seats, forfeits, self.group, abandon=False,
                )
                if not await trio.to_thread.run_sync(self.ledger.started, row, match_id):
                    await self._call(self.client.abort, "", LEASE_LOST, [match_id])
                    self.report(progress.LeaseLost(row.key, match_id))
                    return
                match = await self._finished(match_id)
                if match is not None and match.status == arena_pb2.MATCH_STATUS_FINISHED and match.results:
                    await self._record(row, match)
                    return
                # lost (aborted, or unknown to a referee on a new database): replay the seed
                self.report(progress.Replay(row.key, match_id))

    async def abort_matches(self, reason: str) -> None:
        """Stop every unfinished match of the league on the referee (Arena.AbortMatches on its
        group): at the start of a run, before any bot connects, what an earlier run left in flight
        (it would take seats of this run's bots, or have its seats played by default moves); when
        stopping, what this run has in flight, before its bots are stopped."""
        try:
            aborted = await self._call(self.client.abort, self.group, reason)
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNIMPLEMENTED:
                raise
            self.report(progress.AbortUnsupported())
            return
        if aborted:
            self.report(progress.Aborted(tuple(aborted), reason))

    async def publish(self) -> None:
        """Every game is stored: only now may anyone see the league's cards (Watch's full records)."""
        await self._call(self.client.publish, self.group)

    async def _finished(self, match_id: str) -> arena_pb2.Match | None:
        while True:
            try:
                match = await self._call(self.client.wait, match_id, WAIT_POLL_MS, limiter=self.waiters)
            except grpc.RpcError as e:
                if e.code() == grpc.StatusCode.NOT_FOUND:
                    return None
                raise
            if match.status in (arena_pb2.MATCH_STATUS_FINISHED, arena_pb2.MATCH_STATUS_ABORTED):
                return match

    async def _record(self, row: ScheduledGame, match: arena_pb2.Match) -> None:
        game = match.results[0]
        faults = [
            {"timeouts": s.timeouts, "refusals": s.refusals, "defaults": s.defaults_applied,
             "forfeits": int(s.forfeited), "disconnects": int(s.disconnected)}
            for s in game.seats
        ]
        if await trio.to_thread.run_sync(self.ledger.finished, row, match.match_id, list(game.totals), faults):
            self.report(progress.Game(row.key, row.seats, tuple(game.totals)))
        else:
            self.report(progress.Refused(row.key, match.match_id))


class Stopped(Exception):
    """The runner was told to stop (SIGINT, SIGTERM): finished games are stored, the matches in
    flight were aborted and their games will be played again."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


class Stop:
    """SIGINT and SIGTERM stop a league in order: only the scope in charge is cancelled (the games,
    once they run), so the runner can abort its matches before it stops the bots and the referee."""

    def __init__(self) -> None:
        self.signum = 0
        self.scope: trio.CancelScope | None = None

    async def watch(self, signals: AsyncIterator[int]) -> None:
        async for signum in signals:
            self.signum = self.signum or signum
            if self.scope is not None:
                self.scope.cancel()

    @contextlib.contextmanager
    def guarding(self, scope: trio.CancelScope) -> Iterator[trio.CancelScope]:
        """``scope`` is the one a signal cancels while inside (at once if one came before)."""
        outer, self.scope = self.scope, scope
        if self.signum:
            scope.cancel()
        try:
            yield scope
        finally:
            self.scope = outer


async def run_league(league: League, report: Report, server: str | Connection | None = None, admin_token: str | None = None,
                     fresh: bool = False, host: str = LOCAL_HOST, port: int = 0, http: tuple[str, int] | None = None) -> Standings:
    """Play every unfinished game of the league; returns the standings, or raises :class:`Stopped`
    on SIGINT/SIGTERM. With no ``server`` the local referee's admin token is ``admin_token``, else
    $MIZERKA_ADMIN_TOKEN, else the one kept in DB.admin-token (0600, made if missing); the league's
    database does not keep it. The local referee listens on ``host``:``port`` (0: a free port), and
    serves its web page at ``http`` (host, port) if given."""
    stop = Stop()
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(stop.watch, signals)
            result = await _run_league(league, report, server, admin_token, fresh, stop, host, port, http)
            nursery.cancel_scope.cancel()
    if result is None:
        raise Stopped(stop.signum)
    return result


def start_over(store: LeagueStore, league: League, own_referee: bool) -> LeagueStore:
    """``--fresh``: forget this league and nothing else. The file of the league's data folder, used by
    its own referee and holding no other league, is deleted (the referee's old matches and bots go
    with it); where other leagues share it (their files name the same data folder), only this
    league's schedule, results and bots are: theirs stay as they were."""
    if not own_referee or league.db is not None or store.league_names() not in ([], [league.name]):
        store.drop_league(league.name)
        return store
    store.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{league.db_path}{suffix}").unlink(missing_ok=True)
    return LeagueStore(league.database)


async def _run_league(league: League, report: Report, server: str | Connection | None, admin_token: str | None,
                      fresh: bool, stop: Stop, host: str, port: int, http: tuple[str, int] | None) -> Standings | None:
    private_dir(league.data / "logs")
    store = LeagueStore(league.database)
    try:
        if fresh:
            store = start_over(store, league, own_referee=server is None)
        if server is None:
            token = admin_token_for(str(league.db_path), admin_token)
        elif admin_token:
            token = admin_token
        else:
            raise StoreError("--server needs the referee's admin token (MIZERKA_ADMIN_TOKEN or --admin-token)")
        secret = store.open_league(league.name, fingerprint(league),
                                   league.seed if league.seed is not None else secrets.token_hex(32))
        if store.league_state(league.name) is not None:
            raise StoreError(f"league {league.name!r} was submitted to the workers: follow it with `league run` without "
                             "--here (or start it over on this host with --fresh)")
        store.add_schedule(league.name, schedule(league, secret))
        interrupted = store.discard_in_flight(league.name)
        rows = store.league_games(league.name)
        done = [r for r in rows if r.status == FINISHED]
        evidence = settled(store, league)  # stop = "settled": a league that settled earlier plays no more
        todo = [] if evidence is not None else [r for r in rows if r.status != FINISHED]
        report(progress.Start(total=len(rows), done=len(done), todo=len(todo)))
        if evidence is not None:
            report(progress.Settled.of(evidence))
        if interrupted:
            report(progress.Interrupted(tuple(interrupted)))
        group = match_group(league, secret)
        if todo:
            await _play(league, store, report, server, token, todo, group, stop, host, port, http)
            if stop.signum:
                return None
        elif server is None:  # nothing to play: publish in the database the local referee would use
            store.publish(group)
        else:
            await trio.to_thread.run_sync(_publish, server, token, group)
        report(progress.Published(group))
        result = load_results(store, league)
        report(progress.End(result.games))
        return result
    finally:
        store.close()


def _publish(server: str | Connection, token: str, group: str) -> None:
    client = ArenaClient(server, token)
    try:
        client.publish(group)
    finally:
        client.close()


async def _play(league: League, store: LeagueStore, report: Report, server: str | Connection | None, token: str,
                todo: Sequence[ScheduledGame], group: str, stop: Stop, host: str, port: int, http: tuple[str, int] | None) -> None:
    """Start the referee (unless given) and the bots, play ``todo``, publish. On a signal: abort the
    matches in flight first, then stop the bots and the referee."""
    client: ArenaClient | None = None
    try:
        async with trio.open_nursery() as nursery:
            with stop.guarding(nursery.cancel_scope):  # nothing in flight yet: a signal stops everything
                referee = None
                if server is None:
                    referee = LocalReferee(league, token, report, host=host, port=port, http=http)
                    server = await nursery.start(referee.run)
                client = ArenaClient(server, token)
                runner = LeagueRunner(league, store, client, report, referee, group)
                await runner.register_bots()
                await runner.abort_matches(LEFT_OVER)  # before any bot of this run connects
                for spec in league.bots:
                    if not spec.remote:
                        nursery.start_soon(runner.supervise, spec)
            with trio.CancelScope() as playing, stop.guarding(playing):
                for batch in batches(league, todo):  # stop = "settled": a round at a time, then a look
                    async with trio.open_nursery() as games:
                        for rows in deal_groups(batch):
                            games.start_soon(runner.play_group, rows)
                    evidence = await trio.to_thread.run_sync(settled, store, league)
                    if evidence is not None:
                        report(progress.Settled.of(evidence))
                        break
                await runner.publish()
            if playing.cancelled_caught:
                with trio.move_on_after(15):
                    await runner.abort_matches(STOPPING)
            nursery.cancel_scope.cancel()  # stop the bots and the referee
    finally:
        if client is not None:
            client.close()
