"""The referee's Prometheus metrics (docs/metrics.md), read the way Prometheus reads them: over HTTP
from a real `mizerka serve --metrics-port`, while a real league (`mizerka league run --server`)
plays on it with a bot too slow for its clock, and after; every count is checked against what the
referee stored in its SQLite database."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from server.metrics import LATENCY_BUCKETS, Fault, MetricsServerError, RefereeTally, referee_registry, start_metrics_server
from server.transport.collector import LAG_BUCKETS, Collector

from harness import ADMIN, ROOT, need_sandbox, referee

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
MAX_STRIKES = 2
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(address: str) -> Samples:
    """Every sample at http://ADDRESS/metrics, by name and labels."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


def league_file(tmp: Path) -> Path:
    """Six games of three bots; "slow" answers every decision 300 ms late on a 100 ms clock, so it
    times out, is struck and forfeited, and its late answers come stale."""
    slow = [sys.executable, str(ROOT / "tests" / "bots" / "protobot.py"), "slow:300"]
    lines = ['name = "metrics"', 'preset = "mizerka-short"', 'seed = "fixed"', f'data = "{tmp / "data"}"',
             "games_per_table = 2", "concurrency = 1", "startup_timeout_s = 120",
             "[clock]", "decision_ms = 100", "bank_ms = 0", f"max_strikes = {MAX_STRIKES}"]
    for name, command in (("heuristic", ["mizerka-bot", "heuristic"]), ("greedy", ["mizerka-bot", "greedy"]), ("slow", slow)):
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps(command)}"]
    path = tmp / "metrics.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def stored(db: Path) -> dict[str, Any]:
    """What the referee's database says the referee did: the figures each metric must equal."""
    con = sqlite3.connect(db)
    try:
        games = [(json.loads(seats), json.loads(log)) for seats, log in con.execute("select seats, log from games")]
        statuses = Counter(status for (status,) in con.execute("select status from matches"))
    finally:
        con.close()
    seats = [seat for seat_list, _ in games for seat in seat_list]
    turns = [entry for _, log in games for entry in log if "turn" in entry]  # the action entries: one per decided turn
    answered = [t for t in turns if t["default"] is None]
    return {
        "games": len(games),
        "statuses": statuses,
        "decisions": len(answered),
        "decision_ms": sum(t["ms"] for t in answered),  # each rounded to a whole ms when stored
        "faults": {Fault.TIMEOUT: sum(s["timeouts"] for s in seats), Fault.REFUSED: sum(s["refusals"] for s in seats),
                   Fault.MALFORMED: sum(s["malformed"] for s in seats), Fault.STALE: sum(s["stale"] for s in seats),
                   Fault.DISCONNECTED: sum(s["disconnected"] for s in seats)},
        "strikes": sum(s["strikes"] for s in seats),
        "forfeits": sum(s["strikes"] >= MAX_STRIKES for s in seats),
        "defaults": Counter(t["default"].lower() for t in turns if t["default"] is not None),
        "seat_defaults": sum(s["defaults"] for s in seats),
    }


COUNTERS = ("mizerka_decisions_total", "mizerka_decision_seconds_count", "mizerka_faults_total", "mizerka_strikes_total",
            "mizerka_forfeits_total", "mizerka_defaults_applied_total", "mizerka_games_finished_total",
            "mizerka_matches_finished_total")


@pytest.mark.timeout(600)
def test_metrics_scraped_during_and_after_a_league_agree_with_the_store(tmp_path: Path) -> None:
    need_sandbox()
    with referee(tmp_path, "--metrics-port", "0") as ref:
        [line] = [line for line in ref.log_lines() if line["event"] == "metrics listening"]
        metrics = line["address"]
        first = scrape(metrics)
        assert {name for name, _ in first} >= {"mizerka_live_matches", "mizerka_live_streams", *COUNTERS}
        played = [(name, v) for (name, _), v in first.items()  # what games add up; the loop's lag is time, not play
                  if not name.startswith(("mizerka_decision_seconds_bucket", "mizerka_event_loop_lag_seconds"))]
        assert all(v == 0 for _, v in played), played

        env = dict(os.environ, MIZERKA_ADMIN_TOKEN=ADMIN)
        league = subprocess.Popen([MIZERKA, "league", "run", str(league_file(tmp_path)), "--server", ref.address],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        during, before = [], first
        try:
            while league.poll() is None:
                now = scrape(metrics)
                during.append(now)
                for key, v in now.items():  # counters (and histogram buckets) never go down
                    if key[0] in COUNTERS or key[0].startswith(("mizerka_decision_seconds_bucket", "mizerka_decision_seconds_sum")):
                        assert v >= before[key], key
                before = now
                time.sleep(0.02)
            out, _ = league.communicate(timeout=60)
        finally:
            if league.poll() is None:
                league.kill()
                league.communicate()
        assert league.returncode == 0, out
        live = [s for s in during if value(s, "mizerka_live_matches") > 0]
        assert live, f"no scrape of {len(during)} saw a live match"
        seen = [(value(s, "mizerka_live_matches"), value(s, "mizerka_live_streams")) for s in during]
        assert any(m > 0 and n >= 3 for m, n in seen), seen  # a game playing on its three bots' streams

        after = scrape(metrics)
        store = stored(ref.db)
        assert store["games"] == 6 and store["statuses"] == {"FINISHED": 6}
        assert value(after, "mizerka_games_finished_total") == store["games"]
        assert value(after, "mizerka_matches_finished_total", status="finished") == 6
        assert value(after, "mizerka_matches_finished_total", status="aborted") == 0
        assert value(after, "mizerka_live_matches") == 0

        assert store["decisions"] > 0
        assert value(after, "mizerka_decisions_total") == store["decisions"]
        assert value(after, "mizerka_decision_seconds_count") == store["decisions"]
        assert value(after, "mizerka_decision_seconds_bucket", le="+Inf") == store["decisions"]
        buckets = [value(after, "mizerka_decision_seconds_bucket", le=str(b)) for b in LATENCY_BUCKETS]
        assert buckets == sorted(buckets) and buckets[-1] <= store["decisions"]
        assert value(after, "mizerka_decision_seconds_sum") == pytest.approx(store["decision_ms"] / 1000, abs=0.0005 * store["decisions"] + 1e-9)

        for fault in Fault:
            assert value(after, "mizerka_faults_total", reason=fault.value) == store["faults"][fault], fault
        assert store["faults"][Fault.TIMEOUT] > 0 and store["strikes"] > 0 and store["forfeits"] > 0  # the slow bot's
        assert value(after, "mizerka_strikes_total") == store["strikes"]
        assert value(after, "mizerka_forfeits_total") == store["forfeits"]
        for reason in ("timeout", "refused", "forfeited", "disconnected"):
            assert value(after, "mizerka_defaults_applied_total", reason=reason) == store["defaults"][reason], reason
        assert sum(store["defaults"].values()) == store["seat_defaults"]

        ticks = value(after, "mizerka_event_loop_lag_seconds_count")  # the collector's ticks sample the loop's lag
        assert ticks > value(first, "mizerka_event_loop_lag_seconds_count")
        lags = [value(after, "mizerka_event_loop_lag_seconds_bucket", le=str(b)) for b in LAG_BUCKETS]
        assert lags == sorted(lags) and lags[-1] <= ticks and value(after, "mizerka_gc_pause_seconds_total") >= 0

        deadline = time.monotonic() + 30  # the league stopped its bots: their streams close
        while value(scrape(metrics), "mizerka_live_streams") != 0:
            assert time.monotonic() < deadline, "bot streams still counted as open after the league stopped its bots"
            time.sleep(0.05)


def serve_with_metrics_port(tmp_path: Path, port: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MIZERKA_ADMIN_TOKEN=ADMIN)
    return subprocess.run([MIZERKA, "serve", "--port", "0", "--db", str(tmp_path / "arena.sqlite"), "--log-format", "json",
                           "--metrics-port", port], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("case", ["in use", "negative", "too high"])
def test_a_bad_metrics_port_is_one_line_naming_the_option(tmp_path: Path, case: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = {"in use": str(taken.getsockname()[1]), "negative": "-1", "too high": "65536"}[case]
        done = serve_with_metrics_port(tmp_path, port)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if not line.startswith("{")]  # the rest: JSON log lines
    assert len(errors) == 1 and errors[0].startswith(f"error: --metrics-port {port}" if case == "in use" else "error: --metrics-port"), done.stderr
    assert ("in use" in errors[0]) if case == "in use" else (f"0..65535 (0: any free port), not {port}" in errors[0])


class FakeReferee:
    """What the collector reads of a referee, set by hand."""

    def __init__(self, matches: int) -> None:
        self.tally = RefereeTally()
        self.matches = matches

    def live_matches(self) -> int:
        return self.matches

    def live_streams(self) -> int:
        return 2 * self.matches


def test_two_referees_in_one_process_keep_their_metrics_apart_and_latencies_fall_in_their_buckets() -> None:
    one, two = FakeReferee(1), FakeReferee(5)
    for ms in (1.0, 1.0001, 30_000.0, 45_000.0):  # on a bound counts in that bucket (le: "at most")
        one.tally.decision(ms)
    ports = [start_metrics_server(referee_registry(r), "127.0.0.1", 0) for r in (one, two)]
    assert ports[0] != ports[1] and 0 not in ports
    a, b = (scrape(f"127.0.0.1:{p}") for p in ports)
    assert (value(a, "mizerka_live_matches"), value(b, "mizerka_live_matches")) == (1, 5)
    assert (value(a, "mizerka_decisions_total"), value(b, "mizerka_decisions_total")) == (4, 0)
    assert value(a, "mizerka_decision_seconds_bucket", le="0.001") == 1
    assert value(a, "mizerka_decision_seconds_bucket", le="0.0025") == 2
    assert value(a, "mizerka_decision_seconds_bucket", le="30.0") == 3
    assert value(a, "mizerka_decision_seconds_bucket", le="+Inf") == value(a, "mizerka_decision_seconds_count") == 4
    assert value(a, "mizerka_decision_seconds_sum") == pytest.approx(75.0020001)
    with pytest.raises(MetricsServerError, match="in use"):
        start_metrics_server(referee_registry(one), "127.0.0.1", ports[0])
    with pytest.raises(MetricsServerError, match=r"0\.\.65535"):
        start_metrics_server(referee_registry(one), "127.0.0.1", -1)


@dataclass
class FakeTimer:
    due: float
    callback: Callable[[], None]
    cancelled: bool = False

    def when(self) -> float:
        return self.due

    def cancel(self) -> None:
        self.cancelled = True


class FakeLoop:
    """What the collector uses of an event loop (time, call_later), on a clock the test moves: a
    stall is time passing while no timer runs, exactly as long as the test says."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[FakeTimer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        timer = FakeTimer(self.now + delay, callback)
        self.timers.append(timer)
        return timer

    def run_until(self, when: float) -> None:
        """Run every timer due by ``when`` in order, each at its time or, after a stall, at once."""
        while due := sorted((t for t in self.timers if not t.cancelled and t.due <= when), key=FakeTimer.when):
            self.timers.remove(due[0])
            self.now = max(self.now, due[0].due)
            due[0].callback()
        self.now = when

    def stall(self, seconds: float) -> None:
        self.now += seconds


def test_the_event_loop_lag_shows_a_stall_of_the_referees_loop() -> None:
    """A loop kept busy for 0.15 s runs the collector's tick due meanwhile that much late: the lag
    histogram shows it (the ticks on time fall in its first bucket), so an operator can tell a
    referee that no longer keeps up from slow bots."""
    collector = Collector(young_every_s=0.01, idle_every_s=0.01, full_every_s=3600)  # a tick every 10 ms, quiet or not
    loop = FakeLoop()
    collector.start(loop)  # type: ignore[arg-type]  # the two methods it calls
    try:
        loop.run_until(0.105)  # ticks at 0.01 ... 0.10, on time
        loop.stall(0.15)  # the loop is busy till 0.255: the tick due at 0.11 runs 0.145 s late
        loop.run_until(0.3)  # ... then the ticks due at 0.265 ... 0.295, on time again
    finally:
        collector.stop()
    port = start_metrics_server(referee_registry(FakeReferee(0), collector), "127.0.0.1", 0)
    samples = scrape(f"127.0.0.1:{port}")
    ticks = value(samples, "mizerka_event_loop_lag_seconds_count")
    assert ticks == collector.young_collections == 10 + 1 + 4
    assert value(samples, "mizerka_event_loop_lag_seconds_bucket", le=str(LAG_BUCKETS[0])) == ticks - 1
    assert value(samples, "mizerka_event_loop_lag_seconds_bucket", le="0.1") == ticks - 1  # the stalled one is above
    assert value(samples, "mizerka_event_loop_lag_seconds_bucket", le="0.25") == ticks
    assert value(samples, "mizerka_event_loop_lag_seconds_sum") == pytest.approx(0.145)
    assert value(samples, "mizerka_gc_full_collections_total") == 0 and value(samples, "mizerka_gc_pause_seconds_total") == 0
