"""What bots and organisers may call themselves and set, tried the way an attacker would: Hellos with
60 KB versions and terminal escapes against a real `mizerka serve`, a crafted match log through
`mizerka replay --text`, look-alike names and absurd clocks over gRPC and in league files, and
sandboxed bots sharing the referee's Unix sockets (issue 30, items 6, 8 and 11).

What is measured is bytes, statuses and counts, never time."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
import trio
from rich.console import Console

from mizerka_proto import arena_pb2, game_pb2, referee_pb2, referee_pb2_grpc
from server.private_files import private_dir
from server.text import printable, skeleton
from tournaments import progress
from tournaments.config import parse_league
from tournaments.live import Reporter, head_to_head_table, standings_table
from tournaments.local_referee import LocalReferee
from tournaments.sandbox.bwrap import BotSandbox, Tools
from tournaments.standings.stats import standings

from harness import BIN, ROOT, need_sandbox, referee

MIZERKA = str(BIN / "mizerka")
ESC = "\x1b"
CLEAR = "\x1b[2J\x1b[H"  # clear the screen, cursor home
FAKE_LINE = "ok\nverified: 9 deals, every total agrees"  # a line the organiser would trust


def play_stream(address: str, hello: referee_pb2.Hello) -> tuple[grpc.StatusCode, str]:
    """One Play stream that sends ``hello`` and reads to the end: its status and details."""
    with grpc.insecure_channel(address) as channel:
        call = referee_pb2_grpc.RefereeStub(channel).Play(iter([referee_pb2.BotMessage(hello=hello)]), timeout=30)
        try:
            for _ in call:
                pass
        except grpc.RpcError as e:
            return e.code(), e.details() or ""
    return grpc.StatusCode.OK, ""


# ------------------------------------------------------------------------------ Hello (item 6)
def test_hellos_with_60_kb_versions_are_refused_and_the_referees_log_stays_small(tmp_path: Path) -> None:
    """The audit's flood: stream after stream with a 60 KB Hello.version (or name) and a valid
    token. Each is refused with INVALID_ARGUMENT naming the field and the limit, and the log grows
    by a few rate-limited lines of bounded length, not by 60 KB a stream."""
    streams = 40
    with referee(tmp_path) as ref:
        _, token = ref.arena().register("flooder")
        before = ref.log_path.stat().st_size
        for i in range(streams):
            hello = (referee_pb2.Hello(token=token, name="flooder", version="v" * 60_000) if i % 2 == 0 else
                     referee_pb2.Hello(token=token, name="n" * 60_000, version="1"))
            code, details = play_stream(ref.address, hello)
            assert code == grpc.StatusCode.INVALID_ARGUMENT, (code, details)
            field, most = ("version", 200) if i % 2 == 0 else ("name", 100)
            assert details.startswith(f"Hello.{field} is 60000 characters long; at most {most} are allowed"), details
        grown = ref.log_path.stat().st_size - before
        lines = ref.log_lines()
    assert grown < 4_000, f"the log grew by {grown} bytes for {streams} refused streams"  # unbounded: 40 x 60 KB
    refused = [line for line in lines if line["event"] == "stream refused: a bad Hello"]
    assert refused and refused[0]["length"] == 60_000 and refused[0]["start"] == "v" * 40 + "... (60000 characters)", refused
    assert not [line for line in lines if line["event"] == "bot connected"]


@pytest.mark.parametrize(("field", "value"), [
    ("name", CLEAR + "alice"), ("name", FAKE_LINE), ("version", "1\u202e0.2"), ("name", "zero\u200bwidth"),
])
def test_a_hello_with_terminal_escapes_or_invisible_characters_is_refused_and_not_logged_raw(
        tmp_path: Path, field: str, value: str) -> None:
    with referee(tmp_path, "--log-format", "console") as ref:  # what an organiser watching the terminal reads
        _, token = ref.arena().register("sneaky")
        hello = referee_pb2.Hello(token=token, name="sneaky", version="1")
        setattr(hello, field, value)
        code, details = play_stream(ref.address, hello)
        assert code == grpc.StatusCode.INVALID_ARGUMENT, (code, details)
        assert details.startswith(f"Hello.{field} holds the control or invisible character U+"), details
        log = ref.log_path.read_bytes()
    assert b"stream refused: a bad Hello" in log
    assert value.encode() not in log and ESC.encode() not in log and "\u202e".encode() not in log, log[-2000:]


def test_a_hello_within_the_limits_plays(tmp_path: Path) -> None:
    """The limits leave every honest Hello alone: 100 and 200 printable characters, non-ASCII ones too."""
    with referee(tmp_path) as ref:
        _, token = ref.arena().register("honest")
        hello = referee_pb2.Hello(token=token, name="Łódź bot " + "n" * 91, version="ü" * 200)
        with grpc.insecure_channel(ref.address) as channel:
            call = referee_pb2_grpc.RefereeStub(channel).Play(iter([referee_pb2.BotMessage(hello=hello)]), timeout=30)
            assert next(call).WhichOneof("message") == "welcome"
            call.cancel()


# ------------------------------------------------------------------------------ printing names (item 8)
@pytest.fixture(scope="module")
def real_log(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One game of mizerka-short on a real referee between three `mizerka-bot` programs, exported."""
    tmp = tmp_path_factory.mktemp("names")
    with referee(tmp) as ref:
        admin = ref.arena()
        seats = []
        for name, style in (("alice", "heuristic"), ("bob", "cautious"), ("carol", "random")):
            bot_id, token = admin.register(name)
            ref.bot(token, str(BIN / "mizerka-bot"), style, games=1)
            seats.append(bot_id)
        match_id = admin.create("mizerka-short", seats, seed="names")
        assert admin.wait(match_id).status == arena_pb2.MATCH_STATUS_FINISHED
    exported = subprocess.run([MIZERKA, "match", "export", match_id, "--db", str(ref.db)], capture_output=True, check=True)
    return {"lines": [json.loads(line) for line in exported.stdout.splitlines()], "db": ref.db, "tmp": tmp}


def test_replay_text_of_a_log_with_escapes_in_its_names_prints_no_escape(real_log: dict[str, object]) -> None:
    """A log handed to the organiser (or written by an older referee) whose names and Hello names
    carry ESC sequences, a newline with a fake verdict and a bidi override: `mizerka replay --text`
    still verifies it and shows each such character as a visible escape."""
    lines = [dict(line) for line in real_log["lines"]]  # type: ignore[attr-defined]
    header = lines[0]
    assert header["type"] == "header"
    header["seats"] = [dict(s) for s in header["seats"]]
    header["seats"][0].update(name=CLEAR + "alice", hello_name=FAKE_LINE)
    header["seats"][1].update(name="bob\u202etxt.exe", version="\x1b]0;owned\x07")
    path = Path(real_log["tmp"]) / "crafted.jsonl"  # type: ignore[arg-type]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = subprocess.run([MIZERKA, "replay", str(path), "--text"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    out = done.stdout
    assert ESC.encode() not in out and b"\x07" not in out and "\u202e".encode() not in out
    assert b"\\x1b[2J\\x1b[Halice" in out and b"ok\\nverified" in out and b"bob\\u202etxt.exe" in out
    assert [line for line in out.decode().splitlines() if line.startswith("verified")][-1].startswith("verified: 9 deals")


def test_match_list_prints_a_stored_name_with_escapes_as_visible_escapes(real_log: dict[str, object], tmp_path: Path) -> None:
    """A database of an older version, whose bot names were not checked: `mizerka match list` shows them escaped."""
    db = tmp_path / "old.sqlite"
    db.write_bytes(Path(real_log["db"]).read_bytes())  # type: ignore[arg-type]
    with sqlite3.connect(db) as conn:
        conn.execute("update bots set name = ? where name = 'alice'", (CLEAR + "alice\r",))
    done = subprocess.run([MIZERKA, "match", "list", "--db", str(db)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert ESC.encode() not in done.stdout and b"\r" not in done.stdout
    assert re.search(rb"\\x1b\[2J\\x1b\[Halice\\r [+-]\d+, bob [+-]\d+, carol [+-]\d+$", done.stdout, re.M), done.stdout


def test_printable_shows_every_character_a_terminal_acts_on_and_keeps_the_rest() -> None:
    assert printable("Łódź 札幌 a b") == "Łódź 札幌 a b"
    assert printable("a\x1b[2Jb\u202ec\u200bd\u2028e\tf\\x1b") == "a\\x1b[2Jb\\u202ec\\u200bd\\u2028e\\tf\\\\x1b"
    assert printable("x" * 50, 10) == "xxxxxxxxxx... (50 characters)"


# ------------------------------------------------------------------------------ names (item 11)
def test_a_look_alike_of_a_registered_name_is_refused_over_grpc_naming_both(tmp_path: Path) -> None:
    with referee(tmp_path) as ref:
        admin = ref.arena()
        admin.register("alice")
        for name, twin in (("\u0430lice", "alice"), ("ALICE", "alice"), ("a1ice", "alice")):
            with pytest.raises(grpc.RpcError) as err:
                admin.register(name)
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value
            assert err.value.details().startswith(f"bot name {name!r} reads like the registered bot {twin!r}"), err.value.details()
        with pytest.raises(grpc.RpcError) as err:
            admin.register("\uff41lice")  # full-width a: NFKC makes it "alice"
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "must be in Unicode normal form NFKC" in err.value.details() and "'alice'" in err.value.details()
        with pytest.raises(grpc.RpcError) as err:
            admin.register("alice")
        assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS  # the same name is a duplicate, as before
        admin.register("alicia")  # a name that reads differently is fine
        admin.register("Łódź")


def test_skeletons_tell_look_alikes_from_different_names() -> None:
    assert skeleton("\u0430lice") == skeleton("alice") == skeleton("Alice") == skeleton("\uff41lice")
    assert skeleton("\u0440\u0430\u0443\u0440\u0430l") == skeleton("paypal")  # whole-script Cyrillic
    assert len({skeleton(n) for n in ("alice", "alicia", "bob", "Łódź", "lodz")}) == 5


# ------------------------------------------------------------------------------ admin values (item 11)
@pytest.mark.parametrize(("clock", "options", "games", "message"), [
    (game_pb2.Clock(decision_ms=2**32 - 1), {}, 1,
     "clock setting decision_ms must be a whole number from 0 to 3,600,000 (an hour), got 4294967295"),
    (game_pb2.Clock(decision_ms=1000, bank_ms=2**32 - 1), {}, 1, "clock setting bank_ms must be a whole number from 0 to 3,600,000"),
    (game_pb2.Clock(decision_ms=1000, increment_ms=3_600_001), {}, 1, "clock setting increment_ms must be a whole number from 0"),
    (game_pb2.Clock(decision_ms=1000, max_strikes=2**31 - 1), {}, 1, "clock setting max_strikes must be a whole number from 0 to 100"),
    (None, {"tiebreak": "lowest", "tiebreak_max": 10**9}, 1, "option 'tiebreak_max' must be from 1 to 100, got 1000000000"),
    (None, {}, 10**6, "games must be 1..10000, got 1000000"),
])
def test_absurd_admin_values_are_refused_over_grpc_naming_the_field(
        tmp_path: Path, clock: game_pb2.Clock | None, options: dict[str, object], games: int, message: str) -> None:
    with referee(tmp_path) as ref:
        admin = ref.arena()
        seats = [admin.register(name)[0] for name in ("a", "b", "c")]
        with pytest.raises(grpc.RpcError) as err:
            admin.create("mizerka-short", seats, options=options, clock=clock, games=games)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in err.value.details(), err.value.details()


def test_a_league_file_with_an_absurd_clock_or_look_alike_bots_is_refused_by_league_run(tmp_path: Path) -> None:
    """The organiser's side: `mizerka league run` says what is wrong, in the league file's error
    format, without a traceback and before anything starts."""
    for i, (extra, bots, message) in enumerate([
        ("[clock]\ndecision_ms = 4294967295", ("alice", "bob", "carol"), "[clock]: clock setting decision_ms must be a whole number "
         "from 0 to 3,600,000 (an hour), got 4294967295"),
        ("[options]\ntiebreak = \"random\"\ntiebreak_max = 1000000000", ("alice", "bob", "carol"),
         "option 'tiebreak_max' must be from 1 to 100, got 1000000000"),
        ("", ("alice", "\u0430lice", "carol"), "bot names 'alice' and 'аlice' read alike"),
    ]):
        path = tmp_path / f"l{i}.toml"
        text = [f'name = "l{i}"', 'preset = "mizerka-short"', f'data = "{tmp_path / "data"}"', extra]
        for name in bots:
            text += ["[[bots]]", f'name = "{name}"', 'command = ["mizerka-bot", "random"]']
        path.write_text("\n".join(text) + "\n")
        done = subprocess.run([MIZERKA, "league", "run", str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"{path}: " in done.stderr and message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert not (tmp_path / "data").exists()


# ------------------------------------------------------------------------------ Unix peers (item 11)
def _watch(address: str, match_id: str) -> tuple[grpc.Channel, object, grpc.StatusCode]:
    """A Watch stream of ``match_id``, held open: its channel, call and whether its first update came."""
    channel = grpc.insecure_channel(address)
    call = referee_pb2_grpc.RefereeStub(channel).Watch(referee_pb2.WatchRequest(match_id=match_id), timeout=60)
    try:
        next(call)
    except grpc.RpcError as e:
        return channel, call, e.code()
    return channel, call, grpc.StatusCode.OK


def test_two_unix_socket_peers_are_two_hosts_for_the_watch_cap_and_the_logs_rate_limit(tmp_path: Path) -> None:
    """gRPC names every Unix peer "unix:"; each socket of `mizerka serve --unix-socket` is a host
    of its own: a peer of one socket that holds the per-host cap leaves the other's slots alone, and
    refusals from both are logged, each naming its socket."""
    a, b = tmp_path / "a.sock", tmp_path / "b.sock"
    with referee(tmp_path, "--max-watchers-per-host", "1", "--unix-socket", str(a), "--unix-socket", str(b)) as ref:
        admin = ref.arena()
        seats = []
        for name in ("x", "y", "z"):
            bot_id, token = admin.register(name)
            ref.protobot(token, "play")
            seats.append(bot_id)
        match_id = admin.create("mizerka-short", seats, seed="peers", games=10_000)
        held = [_watch(f"unix:{a}", match_id)]
        assert held[0][2] == grpc.StatusCode.OK
        held.append(_watch(f"unix:{a}", match_id))
        assert held[-1][2] == grpc.StatusCode.RESOURCE_EXHAUSTED  # the cap holds for one socket
        held.append(_watch(f"unix:{b}", match_id))
        assert held[-1][2] == grpc.StatusCode.OK  # the other socket is another host
        for sock in (a, b):
            code, _ = play_stream(f"unix:{sock}", referee_pb2.Hello(token="stolen", name="x"))
            assert code == grpc.StatusCode.UNAUTHENTICATED
        for channel, call, _ in held:
            call.cancel()  # type: ignore[attr-defined]
            channel.close()
        admin.stub.AbortMatches(arena_pb2.AbortMatchesRequest(match_ids=[match_id]), metadata=admin.metadata)
        refused = [line["peer"] for line in ref.log_lines() if line["event"] == "authentication failed: unknown bot token"]
    assert sorted(refused) == [f"unix:{a}", f"unix:{b}"], refused


WATCHER = """\
import json, os, sys
import grpc
from mizerka_proto import game_pb2, referee_pb2, referee_pb2_grpc

def legal(request):
    if request.kind == referee_pb2.DECISION_KIND_EXCHANGE:
        return game_pb2.Action(turn=request.turn, exchange_cards=game_pb2.ExchangeCards())
    if request.kind == referee_pb2.DECISION_KIND_MAJOR:
        return game_pb2.Action(turn=request.turn, announce_major=game_pb2.AnnounceMajor())
    return request.legal_actions[0]

import queue
outbox = queue.Queue()
outbox.put(referee_pb2.BotMessage(hello=referee_pb2.Hello(token=os.environ["MIZERKA_TOKEN"], name="watcher", version="1")))
channel = grpc.insecure_channel(os.environ["MIZERKA_SERVER"])
stub = referee_pb2_grpc.RefereeStub(channel)
watches, report = [], None
for message in stub.Play(iter(outbox.get, None)):
    kind = message.WhichOneof("message")
    if kind == "game_start" and report is None:
        # Every Watch slot one host may hold, all open before this bot's first answer: the game cannot
        # end before every bot of the league holds its own.
        report = {"server": os.environ["MIZERKA_SERVER"], "accepted": 0, "refused": []}
        for _ in range(4):
            call = stub.Watch(referee_pb2.WatchRequest(match_id=message.game_start.match_id))
            try:
                next(call)
                report["accepted"] += 1
                watches.append(call)
            except grpc.RpcError as e:
                report["refused"].append(e.code().name)
    elif kind == "game_end" and watches:
        with open(os.path.join(os.environ["HOME"], "watch.json"), "w") as out:
            json.dump(report, out)
        for call in watches:
            call.cancel()
        watches = []
    elif kind == "decision_request":
        outbox.put(referee_pb2.BotMessage(action=legal(message.decision_request)))
"""


def test_each_sandboxed_bot_of_a_league_is_a_host_of_its_own(tmp_path: Path) -> None:
    """Three sandboxed bots of a real `mizerka league run`, each holding the 4 Watch streams one host
    may hold (`mizerka serve --max-watchers-per-host`'s default) during a game: each gets all 4,
    through a socket of its own that no other bot's sandbox sees."""
    need_sandbox()
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "watcher.py").write_text(WATCHER)
    data = tmp_path / "data"
    lines = ['name = "w"', 'preset = "mizerka-short"', 'seed = "w"', f'data = "{data}"', "[clock]", "decision_ms = 30000"]
    for name in ("x", "y", "z"):
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps([sys.executable, str(tmp_path / 'bot' / 'watcher.py')])}"]
    path = tmp_path / "w.toml"
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run([MIZERKA, "league", "run", str(path)], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bots run in a sandbox (bubblewrap): no network but the referee" in done.stdout
    reports = {name: json.loads((data / "sandbox" / name / "watch.json").read_text()) for name in ("x", "y", "z")}
    assert all(r["accepted"] == 4 and r["refused"] == [] for r in reports.values()), reports
    assert {r["server"] for r in reports.values()} == {"unix:/run/mizerka/referee.sock"}  # one path inside, three sockets outside


def test_the_league_runners_referee_gives_each_bot_a_socket_of_its_own_and_its_sandbox_binds_only_that(tmp_path: Path) -> None:
    """The league's own referee (a real `mizerka serve` started by the runner's LocalReferee) listens
    on a socket per bot it starts, each a host of its own in its log; each bot's sandbox binds its
    own socket's folder alone at /run/mizerka (checked on bwrap's command line, which runs where
    bubblewrap can: test_each_sandboxed_bot_of_a_league_is_a_host_of_its_own)."""
    # sandbox = "off": no bwrap is run here, whether or not this host can (tools are set below)
    lines = ['name = "s"', 'preset = "mizerka-short"', f'data = "{tmp_path / "data"}"', 'sandbox = "off"']
    for name in ("x", "y", "z"):
        lines += ["[[bots]]", f'name = "{name}"', 'command = ["mizerka-bot", "random"]']
    lines += ["[[bots]]", 'name = "far"', "remote = true"]
    league = parse_league("\n".join(lines) + "\n", tmp_path / "s.toml")
    private_dir(league.data / "logs")
    referee = LocalReferee(league, "admin", lambda event: None)
    peers: list[str] = []

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(referee.run)
            for sock in referee.sockets.values():
                code, _ = await trio.to_thread.run_sync(play_stream, f"unix:{sock}", referee_pb2.Hello(token="stolen"))
                assert code == grpc.StatusCode.UNAUTHENTICATED
            sandbox = BotSandbox(league, lambda event: None, referee.sockets)
            sandbox.tools = Tools("bwrap", "prlimit", None, None)  # the command line only: nothing is run
            for spec in league.bots[:3]:
                box = sandbox.box(spec, {})
                assert box is not None and box.server == "unix:/run/mizerka/referee.sock"
                argv = box.command(["true"], None)
                binds = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--ro-bind" and argv[i + 2] == "/run/mizerka"]
                assert binds == [str(referee.sockets[spec.name].parent)], argv
            with (league.data / "logs" / "referee.log").open() as log:
                peers.extend(json.loads(line)["peer"] for line in log if "authentication failed" in line)
            nursery.cancel_scope.cancel()

    trio.run(main)
    assert sorted(referee.sockets) == ["x", "y", "z"]  # the remote bot connects over the network
    assert len({path.parent for path in referee.sockets.values()}) == 3
    assert sorted(peers) == sorted(f"unix:{path}" for path in referee.sockets.values()), peers


def test_console_log_lines_show_names_escaped() -> None:
    """What reaches the organiser's terminal from the referee's log (`--log-format console`): a
    name logged with an ESC sequence or a newline comes out as visible escapes, as structlog's
    console renderer shows every value with repr (JSON lines escape them themselves). A guard on
    the logging setup: it held before issue 30 already."""
    script = ("import structlog\nfrom server.logs import configure_logging\nconfigure_logging('console')\n"
              f"structlog.get_logger('t').warning('bot registered', bot={CLEAR + FAKE_LINE!r})\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60, check=True, cwd=ROOT)
    assert ESC.encode() not in done.stderr and b"\nverified" not in done.stderr, done.stderr
    assert b"bot='\\x1b[2J\\x1b[Hok\\nverified" in done.stderr, done.stderr


def test_standings_and_a_league_runs_progress_lines_show_names_as_written() -> None:
    """Bot names in the organiser's terminal while a league runs and in its standings: a name of an
    older database with an ESC sequence is escaped, and a name with brackets is shown as written,
    not read as Rich markup (``[/]`` stopped the table with an error, ``[bold]`` styled it)."""
    names = ["[/]x", "[bold]bob", "old\x1b[2J"]
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200)
    table = standings(names, [])
    console.print(standings_table(table, "[/]league: standings"))
    console.print(head_to_head_table(table))
    reporter = Reporter(console, "[red]league", lambda: table)
    reporter(progress.Game("g0", tuple(names), (1, -1, 0)))
    reporter(progress.BotCrash(names[0], "exited [/]", crashes=1, max=3))
    text = out.getvalue()
    assert "\x1b[2J" not in text and "old\\x1b[2J" in text
    assert "[/]league: standings" in text and text.count("[/]x") >= 4 and text.count("[bold]bob") >= 3 and "exited [/]" in text, text
