"""Leagues: the schedule (pure), league files, standings against a hand computation, and whole
leagues run by `mizerka league run` with real bot processes, a real referee and a real SQLite file,
including kill -9 of the runner and of the referee."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from server.storage.store import Store
from tournaments.config import Format, LeagueError, Seatings, load_league, parse_league
from tournaments.runner import fingerprint
from tournaments.schedule import schedule
from tournaments.store import LeagueStore

from harness import need_sandbox

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
BOTS = ("heuristic", "greedy", "cautious", "heuristic2")  # deterministic players: reruns must agree
THREE = 'bots = [{name = "a", command = "a"}, {name = "b", command = "b"}, {name = "c", command = "c"}]'


def league_file(tmp: Path, name: str = "t", preset: str = "mizerka-short", bots: tuple[str, ...] = BOTS,
                extra: str = "", commands: dict[str, str] | None = None, clock: str = "decision_ms = 5000\nbank_ms = 30000") -> Path:
    """A league of built-in bots; a trailing digit names a second copy of a style."""
    lines = [f'name = "{name}"', f'preset = "{preset}"', 'seed = "fixed"', f'data = "{tmp / "data"}"', extra,
             "[clock]", clock]
    for bot in bots:
        command = (commands or {}).get(bot) or json.dumps(["mizerka-bot", bot.rstrip("0123456789")])
        lines += ["[[bots]]", f'name = "{bot}"', f"command = {command}"]
    path = tmp / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


# ------------------------------------------------------------------------------------ schedule
def test_a_round_robin_schedule_balances_seats_and_deals_fresh_cards_unless_duplicate(tmp_path: Path) -> None:
    league = load_league(league_file(tmp_path, extra='seatings = "all"\ngames_per_table = 2'))
    slots = schedule(league, "secret")
    assert len(slots) == 4 * 6 * 2  # C(4,3) tables x 3! seatings x 2 games
    seat_counts = Counter((bot, seat) for s in slots for seat, bot in enumerate(s.seats))
    assert len(seat_counts) == 12 and set(seat_counts.values()) == {len(slots) * 3 // 12}  # each bot, each seat, equally
    for s in slots:
        assert sorted(s.seats) == sorted(next(x.seats for x in slots if x.table == s.table))
    assert len({s.seed for s in slots}) == len(slots)  # by default every game has its own cards
    assert schedule(league, "secret") == slots  # a pure function of the file and the secret
    assert not {s.seed for s in schedule(league, "other")} & {s.seed for s in slots}

    duplicate = load_league(league_file(tmp_path, name="d", extra='seatings = "all"\ngames_per_table = 2\nduplicate = true'))
    by_unit: dict[str, set[str]] = {}
    for s in schedule(duplicate, "secret"):
        by_unit.setdefault(s.unit, set()).add(s.seed)
    assert all(len(seeds) == 1 for seeds in by_unit.values())  # a set's seatings share their cards
    assert len({seed for seeds in by_unit.values() for seed in seeds}) == 4 * 2


def test_rotate_and_gauntlet_schedules(tmp_path: Path) -> None:
    rotate = load_league(league_file(tmp_path, name="r"))
    assert rotate.format is Format.ROUND_ROBIN and rotate.seatings is Seatings.ROTATE  # the defaults
    assert len(schedule(rotate, "s")) == 4 * 3
    gauntlet = load_league(league_file(tmp_path, name="g", bots=("heuristic", "greedy", "cautious", "random", "random2"),
                                       extra='format = "gauntlet"\ncandidate = "heuristic"'))
    assert gauntlet.format is Format.GAUNTLET
    stored = json.loads(json.dumps(fingerprint(gauntlet)))  # as the database keeps it, and older versions kept it
    assert (stored["format"], stored["seatings"]) == ("gauntlet", "rotate") and stored == fingerprint(gauntlet)
    slots = schedule(gauntlet, "s")
    assert len(slots) == 6 * 3 and all("heuristic" in s.seats for s in slots)  # C(4,2) tables x 3 rotations
    assert Counter(s.seats.index("heuristic") for s in slots) == {0: 6, 1: 6, 2: 6}


@pytest.mark.parametrize(("text", "message"), [
    ("name = ", "not valid TOML"),
    ('name = "x"', "missing required key 'bots'"),
    ('name = "x"\ncolour = 1\nbots = []', "unknown key 'colour'"),
    # A typo in a bot's table: which bot, and the key it was probably meant to be.
    ('name = "x"\nbots = [{name = "a", command = "a"}, {name = "alice", comand = "b"}]',
     "bots[1] ('alice'): unknown key 'comand' (did you mean 'command'?); expected one of name, command"),
    ('name = "x"\nbots = [{name = "a", command = "a"}, {name = "a", command = "b"}, {name = "c", command = "c"}]',
     "bot name 'a' is used twice"),
    ('name = "x"\nbots = [{name = "a", command = "a"}, {name = "b", command = "b"}]', "needs at least 3 bots"),
    ('name = "x"\nbots = [{name = "a"}]', "bots[0] (a): command must be a non-empty list"),
    ('name = "x"\nbots = [{name = "a", command = "x", remote = true}]', "a remote bot connects by itself"),
    ('name = "x"\nformat = "swiss"\nbots = []', "format must be one of round-robin, gauntlet, got 'swiss'"),
    (f'name = "x"\nseatings = "each"\n{THREE}', "seatings must be one of all, rotate, got 'each'"),
    ('name = "x"\nformat = "gauntlet"\nbots = []', "a gauntlet needs candidate"),
    ('name = "x"\nbots = []\n[options]\ndeals = 7', "option 'deals' must be a multiple of the 3 players"),
    ('name = "x"\nbots = []\n[clock]\ndecision_ms = 0', "[clock]: a clock needs decision_ms or bank_ms"),
    ('name = "x"\nbots = []\n[clock]\ndecision = 5000', "[clock]: unknown clock setting 'decision'; expected one of decision_ms"),
    ('name = "x"\nbots = []\n[clock]\nbank_ms = true', "[clock]: clock setting bank_ms must be a whole number from 0 to 3,600,000 (an hour), got True"),
    # Valid but absurd: a typo of 2^32-1 ms (50 days a decision), a million tie-break deals, a billion games.
    ('name = "x"\nbots = []\n[clock]\ndecision_ms = 4294967295',
     "[clock]: clock setting decision_ms must be a whole number from 0 to 3,600,000 (an hour), got 4294967295"),
    ('name = "x"\nbots = []\n[clock]\nincrement_ms = 3600001', "clock setting increment_ms must be a whole number from 0 to 3,600,000"),
    ('name = "x"\nbots = []\n[clock]\nmax_strikes = 1000000', "clock setting max_strikes must be a whole number from 0 to 100, got 1000000"),
    ('name = "x"\nbots = []\n[options]\ntiebreak = "lowest"\ntiebreak_max = 1000000000',
     "option 'tiebreak_max' must be from 1 to 100, got 1000000000"),
    (f'name = "x"\ngames_per_table = 1000000000\n{THREE}', "games_per_table must be from 1 to 10,000, got 1000000000"),
    (f'name = "x"\nseat_timeout_s = inf\n{THREE}', "seat_timeout_s must be from 1 to 3,600, got inf"),
    (f'name = "x"\nstartup_timeout_s = nan\n{THREE}', "startup_timeout_s must be from 1 to 3,600, got nan"),
    (f'name = "x"\nstop = "settled"\nmax_games = 1000000001\n{THREE}', "max_games must be at most 1,000,000, got 1,000,000,001"),
    # Names that are not what they look like: a Cyrillic а beside a Latin one, full-width letters.
    ('name = "x"\nbots = [{name = "alice", command = "a"}, {name = "\u0430lice", command = "b"}, {name = "c", command = "c"}]',
     "bot names 'alice' and 'аlice' read alike (one confusable skeleton, 'alice')"),
    ('name = "x"\nbots = [{name = "bob", command = "a"}, {name = "B0B", command = "b"}, {name = "c", command = "c"}]',
     "bot names 'bob' and 'B0B' read alike"),
    ('name = "x"\nbots = [{name = "\uff41lice", command = "a"}]', "must be in Unicode normal form NFKC, as it is shown: 'ａlice@x' is 'alice@x'"),
    ('name = "x"\nbots = []\nclock = 5', "clock must be a table, got 5"),
    (f'name = "x"\nconcurrency = 0\n{THREE}', "concurrency must be from 1 to 1,000, got 0"),
    ('name = "x"\nconcurrency = true\nbots = []', "concurrency must be a whole number, got True"),
    ('name = "x"\nseed = 1.5\nbots = []', "seed must be a string or a whole number"),
    ('name = "x"\nduplicate = 1\nbots = []', "duplicate must be true or false, got 1"),
    ('name = "x\\u0007"\nbots = []', "name must not contain control or invisible characters, got U+0007"),
    (f'name = "{"x" * 31}"\nbots = []', "name must be at most 30 characters, got 31"),
    ('name = "x"\nbots = [{name = "a\\u202e", command = "a"}]', "@x, the name it is registered under, must not contain control"),
    (f'name = "x"\nbots = [{{name = "{"a" * 59}", command = "a"}}]', "must be at most 60 characters, got 61"),
    (f'name = "x"\nstop = "early"\n{THREE}', "stop must be one of schedule, settled, got 'early'"),
    (f'name = "x"\nstop = "settled"\n{THREE}', 'stop = "settled" needs max_games'),
    (f'name = "x"\nmax_games = 30\n{THREE}', 'max_games is for stop = "settled"'),
    (f'name = "x"\nstop = "settled"\nmax_games = 30\ngames_per_table = 2\n{THREE}', "leave out games_per_table"),
    (f'name = "x"\nstop = "settled"\nmax_games = 2\n{THREE}', "max_games must be at least 3 (one round: every seating"),
    ('name = "x"\nmax_games = 1.5\nbots = []', "max_games must be a whole number, got 1.5"),
    (f'name = "x"\nconfidence = 1\n{THREE}', "confidence must be at least 0.5 and below 1 (e.g. 0.95), got 1"),
    ('name = "x"\nconfidence = "high"\nbots = []', "confidence must be a whole number or a number, got 'high'"),
])
def test_bad_league_files_are_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(LeagueError, match="x.toml") as err:
        parse_league(text, Path("x.toml"))
    assert message in str(err.value)


# ----------------------------------------------------------------------------------- standings
def test_standings_json_agrees_with_a_hand_computation(tmp_path: Path) -> None:
    """Fixed results stored for a 4-bot rotate league, then `league standings --json` checked by hand."""
    path = league_file(tmp_path)
    league = load_league(path)
    league.data.mkdir(parents=True)
    store = LeagueStore(league.db_path)
    store.open_league(league.name, fingerprint(league), "secret")
    slots = schedule(league, "secret")
    store.add_schedule(league.name, slots)
    totals = [(3, 0, -3), (5, -5, 0), (1, 1, -2), (-4, 2, 2), (0, 0, 0), (6, -3, -3),
              (2, -1, -1), (-2, 4, -2), (1, -2, 1), (7, -7, 0), (-1, 2, -1), (3, -2, -1)]
    no_faults = {"timeouts": 0, "refusals": 0, "defaults": 0, "forfeits": 0, "disconnects": 0}
    for s, t in zip(slots, totals):
        faults = [dict(no_faults, timeouts=1) if bot == "heuristic2" else no_faults for bot in s.seats]
        assert store.finish_league_game(league.name, s.key, "m", t, faults)
        assert not store.finish_league_game(league.name, s.key, "m", t, faults)  # exactly once
    store.close()
    out = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True, check=True)
    got = {b["name"]: b for b in json.loads(out.stdout)["bots"]}
    assert json.loads(out.stdout)["games"] == 12

    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in BOTS}
    points: dict[str, list[int]] = {b: [] for b in BOTS}
    units: dict[str, dict[str, list[int]]] = {b: {} for b in BOTS}
    wins = Counter()
    for s, t in zip(slots, totals):
        places = [1 + sum(x > mine for x in t) for mine in t]
        new = model.rate([[ratings[b]] for b in s.seats], ranks=places)
        for seat, bot in enumerate(s.seats):
            ratings[bot] = new[seat][0]
            points[bot].append(t[seat])
            units[bot].setdefault(s.unit, []).append(t[seat])
            wins[bot] += (places[seat] == 1) / places.count(1)
    for bot in BOTS:
        line = got[bot]
        assert line["games"] == 9 and line["mean"] == pytest.approx(sum(points[bot]) / 9)
        means = [sum(v) / len(v) for v in units[bot].values()]
        assert line["sets"] == 3 == len(means)
        assert line["ci95"] == pytest.approx(4.3027 * statistics.stdev(means) / math.sqrt(3), rel=1e-4)  # t(0.975, df=2)
        assert line["mu"] == pytest.approx(ratings[bot].mu) and line["sigma"] == pytest.approx(ratings[bot].sigma)
        assert line["wins"] == pytest.approx(wins[bot])
        assert line["faults"]["timeouts"] == (9 if bot == "heuristic2" else 0)
    ordinals = [b["ordinal"] for b in json.loads(out.stdout)["bots"]]
    assert ordinals == sorted(ordinals, reverse=True)
    h2h = json.loads(out.stdout)["head_to_head"]
    assert all(sum(h2h[a][b].values()) == 6 for a in BOTS for b in BOTS if a != b)


def test_league_tables_keep_their_names_and_columns_so_older_league_files_open(tmp_path: Path) -> None:
    """The referee's store may create the file first; the league's tables are added beside its own."""
    db = tmp_path / "league.sqlite"
    Store(db).close()
    LeagueStore(db).close()
    con = sqlite3.connect(db)
    columns = {t: [r[1] for r in con.execute(f"pragma table_info({t})")] for t in ("leagues", "league_bots", "league_games")}
    assert columns == {
        "leagues": ["name", "fingerprint", "admin_token", "created_at", "secret", "state", "spec"],
        "league_bots": ["league", "name", "bot_id", "token", "crashes", "disabled"],
        "league_games": ["league", "key", "position", "unit", "seats", "seed", "status", "match_id", "totals", "faults",
                         "finished_at", "discarded", "attempt", "lease_owner", "lease_expires"],
    }
    tables = {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
    assert tables >= {"bots", "matches", "games", "workers"}


# ------------------------------------------------------------------------------- whole leagues
def finished(league_path: Path) -> dict[str, list[int]]:
    league = load_league(league_path)
    con = sqlite3.connect(league.db_path, timeout=30)
    try:
        rows = con.execute("select key, totals from league_games where league = ? and status = 'FINISHED'", (league.name,))
    except sqlite3.OperationalError as e:  # polled while the runner is still creating its tables
        assert "no such table" in str(e)
        return {}
    return {key: json.loads(t) for key, t in rows}


def run(path: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MIZERKA, "league", "run", str(path), *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[int]]:
    """An uninterrupted run of the 12-game league the interruption tests replay."""
    need_sandbox()
    path = league_file(tmp_path_factory.mktemp("reference"))
    done = run(path)
    assert done.returncode == 0, done.stderr
    assert "standings after 12 games" in done.stdout
    return finished(path)


def test_a_league_finishes_every_game_and_a_second_run_has_nothing_to_do(tmp_path: Path, reference: dict[str, list[int]]) -> None:
    assert len(reference) == 12
    path = league_file(tmp_path)
    assert run(path).returncode == 0
    assert finished(path) == reference  # deterministic bots, duplicate seeds: the same league twice
    again = run(path)
    assert again.returncode == 0 and "resuming: 12 already played" in again.stdout
    assert finished(path) == reference


def _kill_when(path: Path, games: int, victim: str) -> None:
    """Start the runner; once ``games`` results are stored, kill -9 the runner or its referee."""
    league = load_league(path)
    proc = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 180
    while not (league.db_path.exists() and len(finished(path)) >= games):
        assert proc.poll() is None and time.monotonic() < deadline, "the league ended or stalled before the kill"
        time.sleep(0.1)
    if victim == "runner":
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return
    if victim == "ctrl-c":
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 130 and "stopped: every finished game is stored" in out, out
        return
    referee = subprocess.run(["pgrep", "-f", f"serve .*--db {league.db_path}"], capture_output=True, text=True).stdout.split()
    assert len(referee) == 1
    os.kill(int(referee[0]), signal.SIGKILL)
    out, _ = proc.communicate(timeout=240)
    assert proc.returncode == 0, out
    assert "the referee exited" in out


def test_resume_after_the_runner_is_killed_mid_league(tmp_path: Path, reference: dict[str, list[int]]) -> None:
    path = league_file(tmp_path)
    _kill_when(path, 3, "runner")
    partial = finished(path)
    assert 3 <= len(partial) < 12
    resumed = run(path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: {len(partial)} already played" in resumed.stdout
    assert finished(path) == reference  # nothing lost, nothing doubled, the same results


def test_ctrl_c_stops_cleanly_and_the_league_resumes(tmp_path: Path, reference: dict[str, list[int]]) -> None:
    path = league_file(tmp_path)
    _kill_when(path, 2, "ctrl-c")
    leftovers = subprocess.run(["pgrep", "-f", str(load_league(path).db_path)], capture_output=True, text=True).stdout
    assert not leftovers.split(), "the referee outlived the runner"
    assert run(path).returncode == 0
    assert finished(path) == reference


def test_kill_9_of_the_referee_loses_and_doubles_nothing(tmp_path: Path, reference: dict[str, list[int]]) -> None:
    path = league_file(tmp_path)
    _kill_when(path, 3, "referee")
    assert finished(path) == reference


def test_a_league_with_stop_settled_stops_early_and_says_so(tmp_path: Path) -> None:
    """heuristic, greedy and random differ by many points per game on mizerka-short: the league
    stops after a few rounds of its 90 games, in that order, and a second run plays nothing more."""
    need_sandbox()
    path = league_file(tmp_path, bots=("heuristic", "greedy", "random"),
                       extra='stop = "settled"\nmax_games = 90\nconcurrency = 3')
    done = run(path)
    assert done.returncode == 0, done.stderr
    played = finished(path)
    assert 3 <= len(played) < 60 and len(played) % 3 == 0  # whole rounds of 3 games
    said = " ".join(done.stdout.split())
    assert f"settled after {len(played)} games ({len(played) // 3} rounds)" in said
    assert f"the league stopped: {90 - len(played)} scheduled games were not needed" in said
    out = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert [b["name"] for b in result["bots"]] == ["heuristic", "greedy", "random"]
    evidence = result["separation"]
    assert evidence["settled"] and (evidence["games"], evidence["scheduled"], evidence["confidence"]) == (len(played), 90, 0.95)
    assert all(p["verdict"] == "settled" and p["lo"] > 0 for p in evidence["pairs"])
    con = sqlite3.connect(load_league(path).db_path)
    assert dict(con.execute("select status, count(*) from league_games group by status").fetchall()) == {
        "FINISHED": len(played), "PENDING": 90 - len(played)}
    again = run(path)
    assert again.returncode == 0 and finished(path) == played
    assert "settled after" in " ".join(again.stdout.split())


def test_a_crashing_bot_is_restarted_then_disabled_and_its_games_are_forfeits(tmp_path: Path) -> None:
    need_sandbox()
    crash = json.dumps([sys.executable, "-c", "import sys; sys.exit(3)"])
    path = league_file(tmp_path, commands={"heuristic2": crash}, extra="max_crashes = 2\nstartup_timeout_s = 5\nseat_timeout_s = 2")
    done = run(path)
    assert done.returncode == 1, done.stdout + done.stderr  # a bot that never connected: the league did not go as meant
    assert "bot heuristic2 exited with code 3 before connecting; restarting (crash 1 of 2)" in done.stdout
    assert "bot heuristic2 disabled after 2 crashes" in done.stdout
    log = tmp_path / "data" / "logs" / "heuristic2.log"
    said = done.stdout.split("bot heuristic2 never connected; the last lines of its log, ")[1]
    assert said.startswith(f"{log}:\n  | "), said  # its last words, then the standings
    assert "  | [mizerka] the bot's process exited with code 3" in said.split("standings after")[0]
    assert done.stderr.strip().endswith(
        f"error: league t: 1 bot never connected and was disabled, its games played as forfeits: "
        f"heuristic2 (last: exited with code 3 before connecting; its log: {log})"), done.stderr
    assert len(finished(path)) == 12
    out = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True, check=True)
    line = next(b for b in json.loads(out.stdout)["bots"] if b["name"] == "heuristic2")
    assert line["disabled"] and line["crashes"] == 2 and line["faults"]["forfeits"] == 9 and line["games"] == 9


def test_a_bot_whose_program_cannot_start_is_refused_before_the_league_starts(tmp_path: Path) -> None:
    """A mistyped program, a script without its execute bit, and the program a bridge would run
    (`mizerka-bot stdio -- PROG`, `mizerka bot sandbox -- mizerka-bot stdio -- PROG`): each named
    with its bot, its path and why, exit 2, before anything is started."""
    script = tmp_path / "bots" / "mine.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o644)
    missing = tmp_path / "bots" / "gone"
    commands = {
        "heuristic": json.dumps(["mizerka-bot", "heurisitc-typo"]),  # a bad argument is the bot's own business
        "greedy": json.dumps(["pyhton3", "bot.py"]),
        "cautious": json.dumps([str(script)]),
        "heuristic2": json.dumps(["mizerka", "bot", "sandbox", "--memory-mb", "512", "--", "mizerka-bot", "stdio",
                                  "--parallel", "1", "--", str(missing)]),
    }
    path = league_file(tmp_path, commands=commands)
    done = run(path, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    errors = done.stderr.removeprefix("error: ").strip().split("; ")
    assert errors[0] == (f"bot greedy: its command, 'pyhton3', cannot start: not found on the bots' PATH "
                         f"(PATH={BIN}{os.pathsep}{os.environ['PATH']})"), errors
    assert errors[1].startswith(f"bot cautious: its command, {str(script)!r}, cannot start: not executable (mode 644"), errors
    assert errors[1].endswith(f"({script})"), errors
    assert errors[2] == (f"bot heuristic2: the program its mizerka-bot stdio runs, {str(missing)!r}, cannot start: "
                         f"no such file ({missing})"), errors
    assert len(errors) == 3, errors
    assert not (tmp_path / "data" / "league.sqlite").exists()  # refused before anything ran


def test_a_changed_league_file_is_refused_and_fresh_starts_over_only_that_league(tmp_path: Path) -> None:
    """Two leagues whose files name one data folder share its league.sqlite: a league file changed
    after its league started is refused, naming what changed, and `--fresh` then starts that league
    over without touching the other league's results."""
    need_sandbox()
    three = ("heuristic", "greedy", "cautious")
    first, second = (league_file(tmp_path, name, bots=three) for name in ("first", "second"))
    assert load_league(first).db_path == load_league(second).db_path  # one file for both
    for path in (first, second):
        done = run(path)
        assert done.returncode == 0, done.stdout + done.stderr
    kept, played = finished(second), finished(first)
    assert kept and played

    first.write_text(first.read_text().replace('seed = "fixed"', 'seed = "other"'))
    changed = run(first)
    assert changed.returncode == 2, changed.stdout + changed.stderr
    said = " ".join(changed.stderr.split())
    assert "league 'first' was started with a different seed" in said and "--fresh" in said, said
    assert finished(first) == played  # nothing of the old results was touched

    again = run(first, "--fresh")
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"standings after {len(played)} games" in again.stdout
    assert finished(second) == kept, "--fresh of one league wiped another league of the same data folder"
    assert len(finished(first)) == len(played)
    resumed = run(first)  # the new seed is now the league's own
    assert resumed.returncode == 0 and f"resuming: {len(played)} already played" in resumed.stdout, resumed.stdout
    assert run(second).returncode == 0 and finished(second) == kept
