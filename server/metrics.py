"""The referee's Prometheus metrics (``mizerka serve --metrics-port``; docs/metrics.md).

A decision costs the referee about 200 µs (tests/bench/bench_referee.py), so the only work done
per decision is :meth:`RefereeTally.decision`: a bisect and two additions on plain numbers (a
prometheus_client Histogram takes a lock per update and costs several times more). What the referee
already counts -- each seat's timeouts, refusals and strikes in its game's records -- is added up
once per game, and nothing becomes a metric until a scrape asks (:class:`RefereeCollector`, in the
exporter's thread). Those reads need no lock: each counter has one writing thread, every read is of
one number, so a scrape may see a game's tally half added (the next sees it whole) but no counter
ever goes down.

Each referee gets a registry of its own, never prometheus_client's global one, so that tests (and
one process holding several referees) keep their numbers apart.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from enum import StrEnum
from itertools import accumulate
from typing import Protocol

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from server.policies import DefaultReason
from server.referee.session import GameSession
from server.storage.store import ABORTED, FINISHED
from server.transport.collector import LAG_BUCKETS

# Upper bounds (seconds) of the decision-latency buckets: a bot answering at once to one using a long bank.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Fault(StrEnum):
    """What a bot did wrong (label ``reason`` of ``mizerka_faults_total``): distinct events, each
    counted once, so their sum means something. Each is a field of the seat records stored with
    every game (:class:`server.referee.session.SeatRecord`)."""

    TIMEOUT = "timeout"  # no legal answer within its time (SeatRecord.timeouts)
    REFUSED = "refused"  # an illegal action, refused; the bot may try again (refusals)
    MALFORMED = "malformed"  # an answer that is no well-formed Action (malformed)
    STALE = "stale"  # an Action for a turn not pending: too late, or never its turn (stale)
    DISCONNECTED = "disconnected"  # a seat whose stream was lost in a game or never came (disconnected)


class MetricsServerError(OSError):
    """The metrics endpoint cannot listen: a port in use or out of range, an unknown host."""


class RefereeTally:
    """One referee's counters, as plain numbers. The event loop adds decisions and ended games; the
    store's writer thread adds stored games and ended matches, right after the store has them."""

    def __init__(self) -> None:
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)  # decisions per latency bucket (not cumulative), the last above 30 s
        self.latency_s = 0.0  # their latencies added up
        self.faults = dict.fromkeys(Fault, 0)  # fixed keys: a scrape iterates them while the loop adds
        self.defaults = dict.fromkeys(DefaultReason, 0)
        self.strikes = 0
        self.forfeits = 0  # seats forfeited for reaching Clock.max_strikes
        self.games = 0  # games stored
        self.matches = dict.fromkeys((FINISHED, ABORTED), 0)

    def decision(self, ms: float) -> None:
        """A bot's Action was accepted ``ms`` after its DecisionRequest went out (GameRunner's on_decision)."""
        seconds = ms / 1000.0
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1  # bucket i: LATENCY_BUCKETS[i-1] < s <= [i]
        self.latency_s += seconds

    def game_ended(self, session: GameSession) -> None:
        """Add the faults of a game that has ended, played out or cut short: its records are final."""
        limit = session.settings.max_strikes
        for r in session.records:
            self.faults[Fault.TIMEOUT] += r.timeouts
            self.faults[Fault.REFUSED] += r.refusals
            self.faults[Fault.MALFORMED] += r.malformed
            self.faults[Fault.STALE] += r.stale
            self.faults[Fault.DISCONNECTED] += r.disconnected
            self.strikes += r.strikes
            self.forfeits += bool(limit) and r.strikes >= limit
        for turn in session.turns:
            if turn.default is not None:
                self.defaults[turn.default] += 1


class Referee(Protocol):
    """What the collector reads of a referee (:class:`server.arena.Arena`)."""

    tally: RefereeTally

    def live_matches(self) -> int: ...

    def live_streams(self) -> int: ...


class EventLoop(Protocol):
    """What the collector reads of the referee's event loop (:class:`server.transport.collector.Collector`)."""

    lag_buckets: list[int]
    lag_s: float
    full_collections: int

    def paused(self) -> float: ...


def _histogram(name: str, documentation: str, bounds: tuple[float, ...], counts: list[int], total: float) -> HistogramMetricFamily:
    """A histogram from counts per bucket (not cumulative, the last above ``bounds[-1]``)."""
    cumulative = accumulate(list(counts))  # a copy first: the loop may add meanwhile
    return HistogramMetricFamily(name, documentation, sum_value=total,
                                 buckets=[(floatToGoString(b), n) for b, n in zip((*bounds, float("inf")), cumulative)])


class RefereeCollector(Collector):
    """Turns a referee's own numbers into metrics when scraped: nothing is kept twice."""

    def __init__(self, referee: Referee, loop: EventLoop | None = None) -> None:
        self.referee = referee
        self.loop = loop

    def collect(self) -> Iterator[Metric]:
        referee, tally = self.referee, self.referee.tally
        yield GaugeMetricFamily("mizerka_live_matches", "Matches running now, those waiting for their bots' streams included.",
                                value=referee.live_matches())
        yield GaugeMetricFamily("mizerka_live_streams", "Bot Play streams open now (past their Hello), in a game or idle.",
                                value=referee.live_streams())
        decisions = _histogram("mizerka_decision_seconds", "Seconds from a DecisionRequest sent to its accepted Action received.",
                               LATENCY_BUCKETS, tally.buckets, tally.latency_s)
        yield CounterMetricFamily("mizerka_decisions", "Decisions answered: Actions accepted from bots.",
                                  value=decisions.samples[len(LATENCY_BUCKETS)].value)  # the +Inf bucket: all of them
        yield decisions
        if self.loop is not None:
            yield _histogram("mizerka_event_loop_lag_seconds", "How late a timer due on the referee's event loop ran: how "
                             "long the loop was busy or paused before it (sampled by each garbage collector tick).",
                             LAG_BUCKETS, self.loop.lag_buckets, self.loop.lag_s)
            yield CounterMetricFamily("mizerka_gc_full_collections", "Full garbage collections (each stops the event loop).",
                                      value=self.loop.full_collections)
            yield CounterMetricFamily("mizerka_gc_pause_seconds", "Seconds the event loop stood still in full garbage "
                                      "collections (on no bot's clock).", value=self.loop.paused())
        faults = CounterMetricFamily("mizerka_faults", "Bot faults by reason, counted when their game ends.", labels=["reason"])
        for fault, n in tally.faults.items():
            faults.add_metric([fault.value], n)
        yield faults
        yield CounterMetricFamily("mizerka_strikes", "Strikes: a timeout, or too many refused answers in one turn.", value=tally.strikes)
        yield CounterMetricFamily("mizerka_forfeits", "Seats forfeited for reaching the clock's max_strikes.", value=tally.forfeits)
        defaults = CounterMetricFamily("mizerka_defaults_applied", "Turns the referee played by default for a seat, by reason.",
                                       labels=["reason"])
        for reason, n in tally.defaults.items():
            defaults.add_metric([reason.value.lower()], n)
        yield defaults
        yield CounterMetricFamily("mizerka_games_finished", "Games played to their end and stored.", value=tally.games)
        matches = CounterMetricFamily("mizerka_matches_finished", "Matches ended, by status.", labels=["status"])
        for status, n in tally.matches.items():
            matches.add_metric([status.lower()], n)
        yield matches


def referee_registry(referee: Referee, loop: EventLoop | None = None) -> CollectorRegistry:
    """A registry of its own holding ``referee``'s metrics (and its event loop's, if given)."""
    registry = CollectorRegistry()
    registry.register(RefereeCollector(referee, loop))
    return registry


def start_metrics_server(registry: CollectorRegistry, host: str, port: int) -> int:
    """Serve ``registry`` at ``http://HOST:PORT/metrics`` from a daemon thread (prometheus_client's
    exporter); returns the port bound (``port`` 0: any free one). MetricsServerError if it cannot."""
    if not 0 <= port <= 65535:
        raise MetricsServerError(f"a port is 0..65535 (0: any free port), not {port}")
    try:
        server, _thread = start_http_server(port, addr=host, registry=registry)
    except OSError as e:  # a port in use, an address not of this machine, an unknown host name
        raise MetricsServerError(f"cannot serve metrics on {host}:{port}: {e.strerror or e}") from None
    return int(server.server_port)
