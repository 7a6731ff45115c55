"""Secrets stay secret (docs/leagues.md, Secrets), checked the way a hostile bot would: what its
environment holds, what any process's command line shows, who may read the files a league leaves.

The league tests run a real `mizerka league run` whose bots are a spying script: it writes its
environment and every command line in /proc to a file, waits for the test's go, then becomes a
normal bot (`mizerka-bot random`)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.private_files import private_secret
from server.storage.store import Store
from tournaments.config import LeagueError, parse_league
from tournaments.runner import bot_env

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
ADMIN = "admin-token-that-no-bot-may-see-4f1c2a"
OTHER_SECRET = "cloud-key-of-the-organiser-9d3e"
CONTRACT = {"MIZERKA_SERVER", "MIZERKA_TOKEN", "MIZERKA_PARALLEL"}
ALLOWED = {"PATH", "HOME", "LANG", "TZ", "TMPDIR"}

SPY = """\
import json, os, sys, time
from pathlib import Path

out, name = Path(sys.argv[1]), sys.argv[2]
cmdlines = {}
for proc in Path("/proc").iterdir():
    if proc.name.isdigit():
        try:
            cmdlines[proc.name] = (proc / "cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            pass
facts = {"env": dict(os.environ), "cmdlines": cmdlines}
(out / f"{name}.tmp").write_text(json.dumps(facts))
(out / f"{name}.tmp").rename(out / f"{name}.json")
while not (out / "go").exists():
    time.sleep(0.05)
os.execvp("mizerka-bot", ["mizerka-bot", "random"])
"""


def spy_league(tmp: Path) -> tuple[Path, Path]:
    """A 3-game league of spies; returns the league file and the spies' folder."""
    spies = tmp / "spies"
    spies.mkdir()
    script = tmp / "spy.py"
    script.write_text(SPY)
    # Unsandboxed: this is the contract of a bot run as it is (the spies write to their folder and see every
    # process); what a sandboxed bot sees is tests/test_sandbox.py's.
    lines = ['name = "s"', 'preset = "mizerka-short"', f'data = "{tmp / "data"}"', "startup_timeout_s = 120", 'sandbox = "off"',
             "[clock]", "decision_ms = 5000", "bank_ms = 30000"]
    for name in ("a", "b", "c"):
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps([sys.executable, str(script), str(spies), name])}"]
        if name == "a":
            lines.append('env = {GREETING = "hello"}')
    path = tmp / "s.toml"
    path.write_text("\n".join(lines) + "\n")
    return path, spies


def descendants(pid: int) -> dict[int, bytes]:
    """The command lines of every process below ``pid`` (read from /proc: no psutil)."""
    parents: dict[int, int] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                parents[int(proc.name)] = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found: dict[int, bytes] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                try:
                    found[child] = Path(f"/proc/{child}/cmdline").read_bytes()
                except OSError:
                    continue  # gone meanwhile
                todo.append(child)
    return found


def assert_private(data: Path) -> list[str]:
    """Every file under the league's folder is 0600 (at most), every folder 0700; returns the names."""
    assert stat.S_IMODE(data.stat().st_mode) == 0o700, oct(data.stat().st_mode)
    names = []
    for path in data.rglob("*"):
        mode = stat.S_IMODE(path.stat().st_mode)
        if path.is_dir():
            assert mode == 0o700, (path, oct(mode))
        else:
            assert mode & 0o077 == 0, (path, oct(mode))
        names.append(str(path.relative_to(data)))
    return names


@pytest.mark.parametrize("admin_from", ["environment", "file"])
def test_a_league_gives_its_bots_no_admin_token_no_other_secret_and_keeps_its_files_private(tmp_path: Path, admin_from: str) -> None:
    path, spies = spy_league(tmp_path)
    data = tmp_path / "data"
    env = dict(os.environ, AWS_SECRET_ACCESS_KEY=OTHER_SECRET, MIZERKA_GAMES="7", MIZERKA_VERBOSE="1", LC_ALL="C.UTF-8")
    env.pop("MIZERKA_ADMIN_TOKEN", None)
    if admin_from == "environment":
        env["MIZERKA_ADMIN_TOKEN"] = ADMIN
    runner = subprocess.Popen([MIZERKA, "league", "run", str(path)], env=env, umask=0o022, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(list(spies.glob("*.json"))) < 3:
            assert runner.poll() is None and time.monotonic() < deadline, runner.stdout.read() if runner.stdout else ""
            time.sleep(0.05)
        # The league is paused with its referee and all three bots alive: look at them from outside.
        token = ADMIN if admin_from == "environment" else (data / "league.sqlite.admin-token").read_text().strip()
        assert len(token) >= 20
        children = descendants(runner.pid)
        serving = [c for c in children.values() if b"\0serve\0" in c]
        assert len(serving) == 1 and b"--admin-token" not in serving[0], children
        assert sum(b"spy.py" in c for c in children.values()) == 3, children
        assert not [c for c in children.values() if token.encode() in c]
        names = assert_private(data)
        assert {"league.sqlite", "league.sqlite-wal", "league.sqlite-shm", "logs/referee.log", "logs/a.log"} <= set(names)
        assert ("league.sqlite.admin-token" in names) == (admin_from == "file")
        (spies / "go").touch()
        out, _ = runner.communicate(timeout=240)
        assert runner.returncode == 0, out
        assert "standings after 3 games" in out
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()

    con = sqlite3.connect(data / "league.sqlite")
    tokens = dict(con.execute("select name, token from league_bots"))
    assert con.execute("select admin_token from leagues").fetchall() == [("",)]  # the league keeps no admin token
    address = (data / "logs" / "referee.ready").read_text().strip()
    for name in ("a", "b", "c"):
        facts = json.loads((spies / f"{name}.json").read_text())
        bot = facts["env"]
        # Only the allowlist, the bot's own env from the league file and the launch contract.
        extra = {k for k in bot if k not in ALLOWED | CONTRACT and not k.startswith("LC_")}
        assert extra == ({"GREETING"} if name == "a" else set()), extra
        assert not [k for k, v in bot.items() if token in v or ADMIN in v or OTHER_SECRET in v], bot
        assert bot["MIZERKA_TOKEN"] == tokens[name]  # its own token, nobody else's
        assert bot["MIZERKA_SERVER"] == address and bot["MIZERKA_PARALLEL"] == "1"
        assert bot["PATH"].split(os.pathsep)[0] == str(BIN) and bot["LC_ALL"] == "C.UTF-8"
        # Every command line on the machine, as the bot saw it: no admin token anywhere.
        assert not [c for c in facts["cmdlines"].values() if token in c]
    assert len(set(tokens.values())) == 3
    assert_private(data)  # after the run too (the referee's -wal/-shm are gone, the rest stays private)


def test_bot_env_is_built_from_an_allowlist(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in {"MIZERKA_ADMIN_TOKEN": ADMIN, "MIZERKA_TOKEN": "the runner's own", "SECRET": OTHER_SECRET,
                       "HOME": "/home/x", "LC_TIME": "C", "PATH": "/usr/bin"}.items():
        monkeypatch.setenv(key, value)
    league = parse_league('name = "x"\nbots = [{name = "a", command = "a", env = {PYTHONPATH = "/opt/bot"}}, '
                          '{name = "b", command = "b"}, {name = "c", command = "c"}]', Path("x.toml"))
    env = bot_env(league.bots[0], "127.0.0.1:1", "tok-a", 2)
    assert env["MIZERKA_TOKEN"] == "tok-a" and env["MIZERKA_SERVER"] == "127.0.0.1:1" and env["MIZERKA_PARALLEL"] == "2"
    assert env["HOME"] == "/home/x" and env["LC_TIME"] == "C" and env["PYTHONPATH"] == "/opt/bot"
    assert env["PATH"] == f"{BIN}{os.pathsep}/usr/bin"
    assert "SECRET" not in env and "MIZERKA_ADMIN_TOKEN" not in env and ADMIN not in env.values()


@pytest.mark.parametrize(("env", "message"), [
    ('{MIZERKA_TOKEN = "stolen"}', "MIZERKA_TOKEN is set by the runner"),
    ('{MIZERKA_ADMIN_TOKEN = "x"}', "MIZERKA_ADMIN_TOKEN is set by the runner (or never given to bots)"),
    ("{N = 1}", "env: N must be a string, got 1"),
    ('{"A B" = "x"}', "env: 'A B' is not a variable name"),
    ("5", "env must be a table, got 5"),
])
def test_a_bad_bot_env_is_refused(env: str, message: str) -> None:
    text = f'name = "x"\nbots = [{{name = "a", command = "a", env = {env}}}, {{name = "b", command = "b"}}, {{name = "c", command = "c"}}]'
    with pytest.raises(LeagueError, match="x.toml") as err:
        parse_league(text, Path("x.toml"))
    assert message in str(err.value)


def test_serve_warns_that_an_admin_token_on_the_command_line_is_public(tmp_path: Path) -> None:
    done = subprocess.run([MIZERKA, "serve", "--db", str(tmp_path / "a.sqlite"), "--admin-token", "x",
                           "--decision-ms", "0", "--bank-ms", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "warning: --admin-token is visible to every user" in done.stderr


def test_the_referee_database_is_private_and_keeps_no_bot_token(tmp_path: Path) -> None:
    old = os.umask(0)  # the worst umask: everything created world-writable unless the code says otherwise
    try:
        store = Store(tmp_path / "new" / "arena.sqlite")
        _, token = store.add_bot("spy")
        assert store.bot_by_token(token) is not None
        for suffix in ("", "-wal", "-shm"):
            assert stat.S_IMODE(os.stat(tmp_path / "new" / f"arena.sqlite{suffix}").st_mode) == 0o600, suffix
        assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
        raw = b"".join((tmp_path / "new" / f"arena.sqlite{s}").read_bytes() for s in ("", "-wal"))
        assert token.encode() not in raw  # only its hash is kept
        store.close()
    finally:
        os.umask(old)
    legacy = tmp_path / "old.sqlite"  # a database an older version left world-readable is tightened
    sqlite3.connect(legacy).close()
    legacy.chmod(0o644)
    Store(legacy).close()
    assert stat.S_IMODE(legacy.stat().st_mode) == 0o600


def test_a_secret_file_is_never_readable_by_others(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        token, created = private_secret(tmp_path / "d" / "x.admin-token", "s3cret")
    finally:
        os.umask(old)
    assert (token, created) == ("s3cret", True)
    assert stat.S_IMODE((tmp_path / "d" / "x.admin-token").stat().st_mode) == 0o600
    assert private_secret(tmp_path / "d" / "x.admin-token", "other") == ("s3cret", False)
