"""Hosts of their own on one machine, for the tests: network namespaces linked by veth pairs.

:class:`Network` makes a "db" namespace holding a bridge, and one namespace per host, each linked to
the bridge by a veth pair with an address of its own in a private /24 (10.213.N.0/24) that exists only
inside these namespaces. Every namespace has ``lo`` up (a worker's referee and bots talk on
127.0.0.1 inside its host). Nothing here touches the root namespace's interfaces or addresses, or
any real network: the veths are made inside the namespaces, and deleted with them.

:class:`NetnsPostgres` runs a PostgreSQL server of its own inside the db namespace, listening on
the bridge's address with trust authentication for that subnet only. The test process itself
reaches it through the server's Unix socket (a file: no network namespace needed), the hosts
through TCP on their links, so cutting a host's link cuts that host alone.

The names carry a random suffix (``mzk-<hex>-db``), so parallel runs never meet; ``close`` kills
what is left running inside them (processes the test started) and deletes them, failure or not.
Needs root and iproute2: without them the test fails, saying so (never a skip).
"""

from __future__ import annotations

import os
import random
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pg import _binaries

PG_PORT = 5432  # each server has a namespace of its own: the usual port is free there


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise RuntimeError(f"`ip {' '.join(args)}` failed ({done.returncode}): {done.stderr.strip()}")
    return done


def require_netns() -> None:
    """Fail (never skip) with what is missing when this machine cannot make network namespaces."""
    if os.geteuid() != 0:
        pytest.fail("this test makes network namespaces (`ip netns add`) and must run as root", pytrace=False)
    if shutil.which("ip") is None:
        pytest.fail("this test needs iproute2's `ip` (Debian package iproute2) to make network namespaces",
                    pytrace=False)
    probe = f"mzk-{secrets.token_hex(4)}-probe"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, timeout=30)
    subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=30)
    if made.returncode != 0:
        pytest.fail(f"`ip netns add` does not work here ({made.stderr.strip()}): this test needs network namespaces "
                    "(root, a kernel with CONFIG_NET_NS and veth)", pytrace=False)


class Host:
    """One network namespace: a host with ``address`` on its link ``dev`` (``lo`` up too)."""

    def __init__(self, name: str, address: str, dev: str) -> None:
        self.name = name
        self.address = address
        self.dev = dev

    def command(self, *args: str) -> list[str]:
        """``args`` run inside this host (``ip netns exec`` execs the command: same pid)."""
        return ["ip", "netns", "exec", self.name, *args]

    def run(self, *args: str, timeout: float = 120, **kw: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.command(*args), capture_output=True, text=True, timeout=timeout, **kw)

    def popen(self, *args: str, **kw: Any) -> subprocess.Popen[str]:
        return subprocess.Popen(self.command(*args), text=True, **kw)

    def link(self, up: bool) -> None:
        """Plug or unplug this host's cable: its side of its veth pair, up or down."""
        ip("-n", self.name, "link", "set", self.dev, "up" if up else "down")

    def pids(self) -> list[int]:
        done = ip("netns", "pids", self.name, check=False)
        return [int(p) for p in done.stdout.split()]


class Network:
    """A "db" namespace with a bridge, and ``hosts`` namespaces each linked to it by a veth pair."""

    def __init__(self, hosts: Sequence[str]) -> None:
        require_netns()
        tag = secrets.token_hex(3)
        self.subnet = f"10.213.{random.randint(1, 254)}"
        self.made: list[str] = []
        self.db = Host(f"mzk-{tag}-db", f"{self.subnet}.1", "br0")
        self.hosts: dict[str, Host] = {}
        try:
            self._namespace(self.db.name)
            ip("-n", self.db.name, "link", "add", "br0", "type", "bridge")
            ip("-n", self.db.name, "addr", "add", f"{self.db.address}/24", "dev", "br0")
            ip("-n", self.db.name, "link", "set", "br0", "up")
            for i, host in enumerate(hosts):
                peer = f"to-{host}"[:15]  # the bridge's port for this host, in the db namespace
                name = f"mzk-{tag}-{host}"
                self._namespace(name)
                ip("-n", name, "link", "add", "eth0", "type", "veth", "peer", "name", peer, "netns", self.db.name)
                ip("-n", self.db.name, "link", "set", peer, "master", "br0")
                ip("-n", self.db.name, "link", "set", peer, "up")
                self.hosts[host] = Host(name, f"{self.subnet}.{11 + i}", "eth0")
                ip("-n", name, "addr", "add", f"{self.hosts[host].address}/24", "dev", "eth0")
                ip("-n", name, "link", "set", "eth0", "up")
        except RuntimeError as e:
            self.close()
            pytest.fail(f"could not build the test's network namespaces: {e}", pytrace=False)

    def _namespace(self, name: str) -> None:
        ip("netns", "add", name)
        self.made.append(name)
        ip("-n", name, "link", "set", "lo", "up")

    def close(self) -> None:
        """Kill what still runs inside the namespaces (only what the test started: they are its
        own), then delete them; their veths and bridge go with them."""
        for name in self.made:
            for pid in Host(name, "", "").pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for name in self.made:
            for _ in range(50):
                if ip("netns", "del", name, check=False).returncode == 0 or name not in ip("netns", "list").stdout:
                    break
                time.sleep(0.1)
        self.made.clear()


class NetnsPostgres:
    """A PostgreSQL server inside ``host`` (the db namespace), on ``host.address`` with trust
    authentication for ``subnet``.0/24, and its Unix socket in a folder of its own."""

    def __init__(self, host: Host, subnet: str) -> None:
        self.host = host
        self.bin = _binaries()
        self.root = Path(tempfile.mkdtemp(prefix="mizerka-netns-pg-"))
        shutil.chown(self.root, "postgres", "postgres")
        self.data, self.log = self.root / "data", self.root / "server.log"
        self.started = False
        as_postgres = ["runuser", "-u", "postgres", "--"]
        made = subprocess.run([*as_postgres, str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                               "--no-sync", "-E", "UTF8"], capture_output=True, text=True, timeout=120)
        if made.returncode != 0:
            self.stop()
            pytest.fail(f"initdb failed: {made.stdout}{made.stderr}", pytrace=False)
        with open(self.data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {subnet}.0/24 trust\n")
        options = (f"-p {PG_PORT} -k {self.root} -c listen_addresses={host.address} -c fsync=off "
                   "-c max_connections=300")
        done = host.run(*as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
                        "-w", "-t", "60", "start")
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            self.stop()
            pytest.fail(f"PostgreSQL did not start in {host.name}: {done.stdout}{done.stderr}{log}", pytrace=False)
        self.started = True

    def url(self, database: str) -> str:
        """The URL the hosts use: TCP to the db namespace's address."""
        return f"postgresql://postgres@{self.host.address}:{PG_PORT}/{database}"

    def local_url(self, database: str) -> str:
        """The URL the test process uses: the server's Unix socket (no network namespace needed)."""
        return f"postgresql://postgres@/{database}?host={self.root}&port={PG_PORT}"

    def create(self, database: str) -> None:
        with psycopg.connect(self.local_url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {database}")

    def stop(self) -> None:
        if self.started:
            subprocess.run(["runuser", "-u", "postgres", "--", str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                            "immediate", "-w", "stop"], capture_output=True, timeout=60)
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)
