"""A league with a remote bot: `mizerka league run` prints the command line that starts the bot
(address, token, TLS settings) and writes it to DATA/remote-bots.txt (0600); a real bot process
started with that line, as its owner would paste it, plays the league's games. On the league's own
referee (--host/--port) and on a running mutual-TLS referee (--server)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

from tournaments.config import load_league
from tournaments.store import LeagueStore

from foreign_bots import wait_for
from harness import ADMIN, BIN, need_sandbox, referee
from tls_pki import make_pki


def league_with_a_remote_bot(tmp: Path) -> Path:
    path = tmp / "remote.toml"
    path.write_text(f'name = "remote"\npreset = "mizerka-short"\nseed = "fixed"\ndata = "{tmp / "data"}"\n'
                    '[[bots]]\nname = "far"\nremote = true\n'
                    '[[bots]]\nname = "a"\ncommand = ["mizerka-bot", "random"]\n'
                    '[[bots]]\nname = "b"\ncommand = ["mizerka-bot", "greedy"]\n')
    return path


def play_with_the_printed_line(league_path: Path, args: list[str], env: dict[str, str],
                               own: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """Run the league with ``args``; start the remote bot with the line it wrote (plus ``own``
    variables); return the runner's output and the line's variables once every game is played."""
    runner = subprocess.Popen([str(BIN / "mizerka"), "league", "run", str(league_path), *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    listing = league_path.parent / "data" / "remote-bots.txt"
    bot = None
    try:
        assert "far\t" in wait_for(listing, "far\t", 60), runner.poll()
        assert listing.stat().st_mode & 0o777 == 0o600  # it holds the bot's token
        (line,) = [ln for ln in listing.read_text().splitlines() if not ln.startswith("#")]
        name, command = line.split("\t")
        words = shlex.split(command)
        assert name == "far" and words[0] == "env"
        own_words = [f"{k}={v}" for k, v in (own or {}).items()]
        bot = subprocess.Popen([*words, *own_words, str(BIN / "mizerka-bot"), "heuristic"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out, err = runner.communicate(timeout=240)
    finally:
        for process in (runner, bot):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
    assert runner.returncode == 0, out + err
    assert f"  {command}\n" in out  # printed whole, on one line, to be pasted
    league = load_league(league_path)
    store = LeagueStore(league.database)
    try:
        games = store.league_games(league.name)
    finally:
        store.close()
    assert games and all(g.status == "FINISHED" and g.faults is not None for g in games)
    for g in games:  # the remote bot played its seat itself: no defaults
        assert g.faults is not None and g.faults[g.seats.index("far")]["defaults"] == 0, g
    return out, dict(word.split("=", 1) for word in words[1:])


def clean_env() -> dict[str, str]:
    """The test's environment without MIZERKA_*: the printed line must say all the bot needs."""
    return {k: v for k, v in os.environ.items() if not k.startswith("MIZERKA_")}


def test_a_remote_bot_plays_on_the_leagues_own_referee_from_the_printed_line(tmp_path: Path) -> None:
    need_sandbox()
    out, given = play_with_the_printed_line(league_with_a_remote_bot(tmp_path),
                                            ["--host", "127.0.0.1", "--port", "0"], clean_env())
    (port,) = re.findall(r"the referee is at 127\.0\.0\.1:(\d+)", out)  # port 0: the one it got
    assert int(port) > 0
    assert given["MIZERKA_SERVER"] == f"127.0.0.1:{port}" and set(given) == {"MIZERKA_SERVER", "MIZERKA_TOKEN"}


def test_a_remote_bot_gets_the_tls_settings_but_not_the_runners_client_certificate(tmp_path: Path) -> None:
    need_sandbox()
    pki = make_pki(tmp_path / "pki")
    with referee(tmp_path, *pki.serve_args(mutual=True)) as ref:
        env = dict(clean_env(), MIZERKA_ADMIN_TOKEN=ADMIN)
        args = ["--server", ref.address, "--tls-ca", str(pki.ca), "--tls-cert", str(pki.client_cert),
                "--tls-key", str(pki.client_key), "--tls-server-name", "localhost"]
        own = {"MIZERKA_TLS_CERT": str(pki.client_cert), "MIZERKA_TLS_KEY": str(pki.client_key)}  # the bot's own
        _, given = play_with_the_printed_line(league_with_a_remote_bot(tmp_path), args, env, own)
    assert given["MIZERKA_SERVER"] == ref.address and given["MIZERKA_TLS"] == "1"
    assert given["MIZERKA_TLS_CA"] == str(pki.ca.resolve()) and given["MIZERKA_TLS_SERVER_NAME"] == "localhost"
    assert "MIZERKA_TLS_CERT" not in given and "MIZERKA_TLS_KEY" not in given


def test_host_and_port_are_refused_with_a_running_referee(tmp_path: Path) -> None:
    done = subprocess.run([str(BIN / "mizerka"), "league", "run", str(league_with_a_remote_bot(tmp_path)),
                           "--server", "127.0.0.1:1", "--port", "5000"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--host, --port and --http-port are for the league's own referee" in done.stderr, done.stderr
