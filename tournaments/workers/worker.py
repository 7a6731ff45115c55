"""`mizerka worker`: plays the games of leagues submitted to a PostgreSQL database, on any number of
hosts (docs/scale-out.md).

A worker takes the oldest league open to workers that has a game to claim, starts a referee of its
own (`mizerka serve` on loopback, on the same database, under a referee id of its own) and the
league's bot processes, and plays up to ``slots`` games at once, each under a lease
(tournaments/workers/leases.py), through the same :class:`~tournaments.runner.LeagueRunner` as a league on
one host. When that league has nothing left to claim it stops its bots and its referee and looks
for the next. Heartbeats renew the leases; a game whose lease is lost is stopped at once (its result
would be refused anyway). SIGTERM or SIGINT hands the games in flight back: their matches are
aborted first, then the games are PENDING again for any worker, then the bots and the referee stop.
A worker killed outright (kill -9, a power cut) takes its referee and bots with it (they die with
their parent) and its games are retaken once their leases expire.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import secrets
import signal
import socket
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import trio
from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

from mizerka.runtime import Backoff
from server.private_files import private_dir
from server.storage.database import DB_ERRORS, db_error_text
from server.storage.store import StoreError
from tournaments import progress
from tournaments.arena_client import ArenaClient
from tournaments.bot_commands import check_commands
from tournaments.config import League, LeagueError, parse_league
from tournaments.local_referee import LocalReferee
from tournaments.progress import Report
from tournaments.runner import LeagueRunner, Stop
from tournaments.sandbox.bwrap import check_league
from tournaments.sandbox.settings import SandboxError
from tournaments.schedule import match_group
from tournaments.store import LeagueStore, ScheduledGame
from tournaments.workers.leases import Claim, Lease, Leases, Submitted, new_worker_id

SKIP_S = 60.0  # a league this host cannot play is looked at again after this long
HANDED_BACK = "the worker playing this game is stopping; another worker plays it again"
DB_RETRY = Backoff(initial=0.5, cap=5.0)



@dataclass(frozen=True, slots=True)
class WorkerSettings:
    db: str  # the PostgreSQL URL every worker and the submitter share
    slots: int = 1  # games at once
    data: Path = Path("data/worker")  # this worker's logs (referee, bots), one folder per league
    lease_s: float = 30.0  # a lease not renewed for this long expires, and the game is retaken
    poll_s: float = 2.0  # how often to look for games when there are none
    http: tuple[str, int] | None = None  # (host, port) of its referees' web page (docs/web.md)


class WorkerMetrics:
    """What `mizerka worker --metrics-port` exposes (docs/metrics.md)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.claimed = Counter("mizerka_worker_games_claimed", "Games this worker leased", registry=registry)
        self.retaken = Counter("mizerka_worker_games_retaken",
                               "Claimed games whose earlier lease (another worker's) had expired", registry=registry)
        self.finished = Counter("mizerka_worker_games_finished", "Results written under a lease", registry=registry)
        self.refused = Counter("mizerka_worker_results_refused",
                               "Results refused because the lease no longer held", registry=registry)
        self.given_up = Counter("mizerka_worker_results_given_up",
                                "Results not written: the database stayed out of reach for 5 lease lengths",
                                registry=registry)
        self.lost = Counter("mizerka_worker_leases_lost",
                            "Leases that expired or were retaken while this worker played the game", registry=registry)
        self.handed_back = Counter("mizerka_worker_games_handed_back", "Games handed back on SIGTERM/SIGINT",
                                   registry=registry)
        self.busy = Gauge("mizerka_worker_games_in_flight", "Games this worker is playing now", registry=registry)
        self.slots = Gauge("mizerka_worker_slots", "Games this worker plays at once (--slots)", registry=registry)


class RefereeMetrics(Collector):
    """The metrics of this worker's current referee (decisions, latency, faults: docs/metrics.md),
    read from its loopback endpoint at each scrape and served with the worker's own, so one
    endpoint per host shows both."""

    def __init__(self) -> None:
        self.url = ""

    def collect(self) -> Iterator[Metric]:
        if not self.url:
            return
        try:
            with urllib.request.urlopen(self.url, timeout=2) as answer:  # noqa: S310 (our own loopback URL)
                text = answer.read().decode()
        except OSError:  # between leagues, or the referee restarting: nothing to show this time
            return
        yield from text_string_to_metric_families(text)


def free_port() -> int:
    """A free loopback port for the referee's metrics (chosen here: the worker must know it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LeaseLedger:
    """The runner's ledger under leases: a game's match and result are written only while this
    worker's lease on it holds. The database may be out of reach (a cut link): each write is tried
    again until the database answers, yes or no, for up to ``give_up_s``; by then the lease has long
    expired, so the answer could only be no."""

    def __init__(self, leases: Leases, metrics: WorkerMetrics, report: Report) -> None:
        self.leases = leases
        self.metrics = metrics
        self.report = report
        self.give_up_s = 5 * leases.lease_s
        self.held: dict[str, Lease] = {}  # by game key
        self.match_ids: dict[str, str] = {}  # the match of each held game, once created

    def _answer(self, fn: Callable[..., bool], *args: Any) -> bool | None:
        """``fn(*args)``, tried again while the database cannot be reached (blocks: call it in a
        thread); None once given up."""
        failures, since = 0, time.monotonic()
        while True:
            try:
                return fn(*args)
            except DB_ERRORS as e:
                failures += 1
                if time.monotonic() - since > self.give_up_s:
                    self.report(progress.DatabaseLost(db_error_text(e), gave_up=fn.__name__))
                    return None
                if failures == 1:
                    self.report(progress.DatabaseUnreachable(db_error_text(e), retrying=fn.__name__))
                time.sleep(DB_RETRY.delay(failures))

    def forget(self, key: str) -> None:
        """The game is no longer this worker's (done, refused, or its lease lost)."""
        self.held.pop(key, None)
        self.match_ids.pop(key, None)

    def started(self, row: ScheduledGame, match_id: str) -> bool:
        lease = self.held.get(row.key)
        if lease is None:  # lost meanwhile (the heartbeat forgot it)
            return False
        self.match_ids[row.key] = match_id
        return bool(self._answer(self.leases.started, lease, match_id))

    def finished(self, row: ScheduledGame, match_id: str, totals: list[int], faults: list[dict[str, int]]) -> bool:
        lease = self.held.get(row.key)
        answer = lease is not None and self._answer(self.leases.finish, lease, match_id, totals, faults)
        (self.metrics.finished if answer else self.metrics.given_up if answer is None else self.metrics.refused).inc()
        return bool(answer)


class Worker:
    def __init__(self, settings: WorkerSettings, report: Report, registry: CollectorRegistry | None = None) -> None:
        self.settings = settings
        self.report = report
        self.id = new_worker_id()
        self.metrics = WorkerMetrics(registry if registry is not None else CollectorRegistry())
        self.metrics.slots.set(settings.slots)
        self.referee_metrics: RefereeMetrics | None = None
        if registry is not None:  # its referees' metrics, through this worker's endpoint
            self.referee_metrics = RefereeMetrics()
            registry.register(self.referee_metrics)
        self.skip: dict[str, float] = {}  # leagues this host cannot play now -> until when (trio time)

    async def run(self, stop: Stop) -> None:
        """Play games until stopped (SIGTERM/SIGINT through ``stop``)."""
        store = await trio.to_thread.run_sync(LeagueStore, self.settings.db)
        try:
            leases = Leases(store, self.id, self.settings.lease_s)
            await trio.to_thread.run_sync(leases.join, self.settings.slots)
            self.report(progress.WorkerStart(self.id, self.settings.slots))
            try:
                with trio.CancelScope() as idle, stop.guarding(idle):
                    while True:
                        now = trio.current_time()
                        self.skip = {name: until for name, until in self.skip.items() if until > now}
                        submitted = await self._ask(leases.open_league, set(self.skip))
                        if submitted is None:
                            await self._ask(leases.renew, [])  # seen_at: still here
                            await trio.sleep(self.settings.poll_s)
                            continue
                        await self._play_league(store, leases, submitted, stop)
                        if stop.signum:
                            return
            finally:
                with trio.CancelScope(shield=True), trio.move_on_after(10):
                    await self._ask(leases.leave)
        finally:
            store.close()

    async def _ask(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a thread; None if the database cannot be reached (said once, tried
        again at the caller's next round)."""
        try:
            return await trio.to_thread.run_sync(fn, *args)
        except DB_ERRORS as e:
            self.report(progress.DatabaseUnreachable(db_error_text(e), retrying=fn.__name__))
            await trio.sleep(self.settings.poll_s)
            return None

    def _league(self, submitted: Submitted) -> League:
        """The submitted league as this host runs it: this worker's database URL (the submitter's
        may name the server differently) and a log folder of this worker's own. LeagueError if this
        host cannot play it (a league file this version cannot read, a bot command missing here)."""
        league = parse_league(submitted.text, submitted.path)
        check_commands(league)  # BotCommandError: a program of a bot's command is missing or not executable here
        league = dataclasses.replace(league, db=self.settings.db, data=self.settings.data / league.name / self.id)
        check_league(league)  # SandboxError: bubblewrap is missing here, or a bot's folder would show it secrets
        return league

    async def _play_league(self, store: LeagueStore, leases: Leases, submitted: Submitted, stop: Stop) -> None:
        try:
            league = self._league(submitted)
        except (LeagueError, SandboxError) as e:  # the organiser's setup, not the bots': charge no bot, leave the games to other hosts
            self.report(progress.CannotPlay(submitted.name, str(e), SKIP_S))
            self.skip[submitted.name] = trio.current_time() + SKIP_S
            return
        claimed = 0
        try:
            claimed = await self._play_here(store, leases, submitted, league, stop)
        except* (RuntimeError, trio.TooSlowError) as group:  # its referee would not start (e.g. its database locked)
            self.report(progress.LeagueError(league.name, "; ".join(str(e) or type(e).__name__ for e in group.exceptions)))
        if not claimed:  # the games it saw were held after all (locked rows): do not restart at once
            self.skip[submitted.name] = trio.current_time() + 5 * self.settings.poll_s

    async def _play_here(self, store: LeagueStore, leases: Leases, submitted: Submitted, league: League,
                         stop: Stop) -> int:
        """Play the league's games with a referee and bots of this host; returns how many it claimed."""
        private_dir(league.data / "logs")
        self.report(progress.League(league.name))
        token = secrets.token_urlsafe(24)  # this worker's own referee: a token nobody else needs
        ledger = LeaseLedger(leases, self.metrics, self.report)
        async with trio.open_nursery() as nursery:
            with stop.guarding(nursery.cancel_scope):  # nothing in flight yet: a signal stops everything
                options: tuple[str, ...] = ()
                if self.referee_metrics is not None:
                    port = free_port()
                    options = ("--metrics-port", str(port), "--metrics-host", "127.0.0.1")
                    self.referee_metrics.url = f"http://127.0.0.1:{port}/metrics"
                referee = LocalReferee(league, token, self.report, referee_id=f"worker-{self.id}", options=options,
                                       http=self.settings.http)
                address = await nursery.start(referee.run)
                client = ArenaClient(address, token)
            try:
                runner = LeagueRunner(league, store, client, self.report, referee, match_group(league, submitted.secret),
                                      ledger, self.settings.slots)
                await runner.register_bots()
                for spec in league.bots:
                    nursery.start_soon(runner.supervise, spec)
                claimed = 0
                with trio.CancelScope() as playing, stop.guarding(playing):
                    claimed = await self._play_games(leases, ledger, runner, league.name)
                if playing.cancelled_caught:
                    await self._hand_back(leases, ledger, runner)
            finally:
                client.close()
            nursery.cancel_scope.cancel()  # stop the bots and the referee
        return claimed

    async def _play_games(self, leases: Leases, ledger: LeaseLedger, runner: LeagueRunner, league: str) -> int:
        """Claim and play games of ``league`` until none is left to claim and none is in flight;
        returns how many it claimed."""
        claimed = 0
        scopes: dict[str, trio.CancelScope] = {}
        changed = trio.Event()

        async def play(claim: Claim, scope: trio.CancelScope) -> None:
            key = claim.lease.key
            try:
                with scope:
                    await runner.play(claim.row)
                if not scope.cancelled_caught:  # recorded, refused, or lost at the start: no longer ours
                    ledger.forget(key)
            except grpc.RpcError as e:  # the referee refused the match: leave the game to its lease's expiry
                self.report(progress.GameError(key, f"{e.code().name}: {e.details()}"))
                ledger.forget(key)
            finally:  # cancelled from outside (stopping): the lease stays in the ledger, to be handed back
                del scopes[key]
                self.metrics.busy.dec()
                changed.set()

        async with trio.open_nursery() as games:
            games.start_soon(self._heartbeat, leases, ledger, scopes, runner)
            while True:
                free = self.settings.slots - len(scopes)
                claims = (await self._ask(leases.claim, league, free) or []) if free else []
                claimed += len(claims)
                for claim in claims:
                    ledger.held[claim.lease.key] = claim.lease
                    self.metrics.claimed.inc()
                    self.metrics.busy.inc()
                    if claim.retaken_from is not None:
                        self.metrics.retaken.inc()
                        self.report(progress.Retaken(claim.lease.key, claim.retaken_from))
                    scopes[claim.lease.key] = trio.CancelScope()
                    games.start_soon(play, claim, scopes[claim.lease.key])
                if not scopes:
                    games.cancel_scope.cancel()  # nothing in flight, nothing to claim: this league is done here
                    return claimed
                changed = trio.Event()
                with trio.move_on_after(self.settings.poll_s):
                    await changed.wait()

    async def _heartbeat(self, leases: Leases, ledger: LeaseLedger, scopes: dict[str, trio.CancelScope],
                         runner: LeagueRunner) -> None:
        """Renew the leases every third of their length. A lease that no longer holds stops its
        game; when the database cannot be reached for a whole lease, every game stops (their
        leases have expired by then: other workers may be playing them)."""
        every = self.settings.lease_s / 3
        last = trio.current_time()  # of the last renewal that succeeded
        unreachable = False  # since then, said so
        while True:
            await trio.sleep(every)
            try:
                with trio.fail_after(max(every, 1.0)):
                    lost = await trio.to_thread.run_sync(leases.renew, list(ledger.held.values()), abandon_on_cancel=True)
            except Exception as e:  # noqa: BLE001 (a timeout, or any failure of the database or its driver)
                if not unreachable:  # at once, not only once the leases are given up
                    unreachable = True
                    self.report(progress.DatabaseUnreachable(db_error_text(e), retrying="renew"))
                if trio.current_time() - last <= self.settings.lease_s or not ledger.held:
                    continue
                lost = list(ledger.held.values())
                self.report(progress.DatabaseLost(db_error_text(e)))
            else:
                last, unreachable = trio.current_time(), False
            for lease in lost:
                if ledger.held.get(lease.key) != lease:  # its game ended while the renewal ran: not lost
                    continue
                self.metrics.lost.inc()
                match_id = ledger.match_ids.get(lease.key)
                self.report(progress.LeaseLost(lease.key, match_id))
                scope = scopes.get(lease.key)
                if scope is not None:
                    scope.cancel()
                ledger.forget(lease.key)
                if match_id is not None:
                    with trio.move_on_after(10), contextlib.suppress(grpc.RpcError):  # it ends with the referee anyway
                        await trio.to_thread.run_sync(runner.client.abort, "", "lease lost", [match_id])

    async def _hand_back(self, leases: Leases, ledger: LeaseLedger, runner: LeagueRunner) -> None:
        """Stopping: abort this worker's matches (before its bots go), then make their games
        PENDING for the other workers."""
        with trio.CancelScope(shield=True), trio.move_on_after(30):
            await runner.abort_matches(HANDED_BACK)
            held = list(ledger.held.values())
            count = await self._ask(leases.release, held, dict(ledger.match_ids))
            if count is None:  # the database is out of reach: the leases expire instead
                return
            self.metrics.handed_back.inc(count)
            self.report(progress.HandedBack(count))


async def run_worker(settings: WorkerSettings, report: Report, registry: CollectorRegistry | None = None) -> int:
    """Run a worker until SIGTERM/SIGINT; returns the signal's number."""
    if settings.slots < 1 or not math.isfinite(settings.lease_s) or settings.lease_s < 3:
        raise StoreError("a worker needs --slots of at least 1 and --lease-s of at least 3 seconds")
    stop = Stop()
    worker = Worker(settings, report, registry)
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(stop.watch, signals)
            await worker.run(stop)
            nursery.cancel_scope.cancel()
    return stop.signum

