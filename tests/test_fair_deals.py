"""Fair play: nobody but the admin learns a deal before it is public. Written as a hostile bot author
or spectator would probe it: a real `mizerka serve` on 127.0.0.1, real leagues (`mizerka league run`)
and real SQLite files."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from google.protobuf import text_format
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mizerka_proto import arena_pb2, arena_pb2_grpc, referee_pb2, referee_pb2_grpc
from tournaments.config import load_league

from harness import ADMIN, HELD_CLOCK, Admin, Gates, Referee, need_sandbox, referee

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')
BIN = Path(sys.executable).parent
FINISHED = arena_pb2.MATCH_STATUS_FINISHED
BEARER = (("authorization", f"Bearer {ADMIN}"),)


@pytest.fixture
def ref(tmp_path: Path):  # type: ignore[no-untyped-def]
    with referee(tmp_path) as r:
        yield r


def robots(admin: Admin, prefix: str) -> list[str]:
    """Three registered bots that never connect: every seat forfeited, the referee plays them all."""
    return [admin.register(f"{prefix}{i}")[0] for i in range(3)]


def create(admin: Admin, seats: list[str], **fields: object) -> arena_pb2.Match:
    request = arena_pb2.CreateMatchRequest(preset="mizerka-short", seats=seats, forfeit_seats=[0, 1, 2], **fields)
    return admin.stub.CreateMatch(request, metadata=admin.metadata).match


def watch(address: str, match_id: str, metadata: tuple[tuple[str, str], ...] = ()) -> list[referee_pb2.WatchUpdate]:
    stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(address))
    return list(stub.Watch(referee_pb2.WatchRequest(match_id=match_id), metadata=metadata, timeout=60))


def assert_spectator_only(updates: list[referee_pb2.WatchUpdate], *secrets: str) -> None:
    """No hand, talon, discard, deal record or seed: only cards that were played on the table."""
    assert updates, "nothing was sent"
    played: set[str] = set()
    shown: set[str] = set()
    for update in updates:
        assert not update.full and not update.deals
        assert not any(p.hand for p in update.view.players)
        for event in update.events:
            kind = event.WhichOneof("kind")
            if kind in ("card_played", "revoked"):
                played.add(getattr(event, kind).card)
            assert kind != "deal_started" or not (event.deal_started.hands or event.deal_started.talon)
        text = text_format.MessageToString(update)
        shown |= set(CARD.findall(text))
        assert not any(s and s in text for s in secrets), "a seed was sent"
    assert shown == played


def first_hands(db: Path, match_id: str) -> list[list[str]]:
    (log,) = sqlite3.connect(db).execute("select log from games where match_id = ?", (match_id,)).fetchone()
    return next(e["hands"] for e in json.loads(log) if e["type"] == "deal")


# ------------------------------------------------------------------------------- secret seeds
def test_unseeded_matches_get_secret_seeds_and_different_cards(ref: Referee) -> None:
    admin = ref.arena()
    seats = robots(admin, "r")
    matches = [create(admin, seats), create(admin, seats), create(admin, seats, seed_text="")]
    seeds = [m.seed for m in matches]
    assert len(set(seeds)) == 3 and "0" not in seeds
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in seeds)  # 128 random bits, not a counter or a clock
    assert all(admin.wait(m.match_id).status == FINISHED for m in matches)
    hands = [first_hands(ref.db, m.match_id) for m in matches]
    assert hands[0] != hands[1] != hands[2] != hands[0]


# ------------------------------------------------------------------------------- publication
def test_a_finished_match_of_a_group_shows_a_spectator_nothing_hidden_until_it_is_published(ref: Referee) -> None:
    admin = ref.arena()
    seats = robots(admin, "p")
    sealed = create(admin, seats, seed_text="same cards", group="cup 2026")
    open_ = create(admin, seats)
    assert sealed.sealed and sealed.group == "cup 2026" and not open_.sealed
    assert admin.wait(sealed.match_id).status == FINISHED and admin.wait(open_.match_id).status == FINISHED

    spectator = watch(ref.address, sealed.match_id)
    assert_spectator_only(spectator, "same cards", "same cards/0")
    assert spectator[-1].match_over and spectator[-1].game_over

    # The ungrouped match is public once finished; the admin sees the sealed one in full.
    for updates in (watch(ref.address, open_.match_id), watch(ref.address, sealed.match_id, BEARER)):
        assert all(u.full for u in updates) and updates[-1].match_over
        assert updates[0].deals and all(d.talon and len(d.hands) == 3 for d in updates[0].deals)
    # Arena calls, seeds included, are the admin's only.
    nosy = Admin(ref.address, token="")
    for call in (lambda: nosy.get(sealed.match_id), lambda: nosy.stub.ListMatches(arena_pb2.ListMatchesRequest())):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED

    publish = admin.stub.PublishMatches
    with pytest.raises(grpc.RpcError) as err:
        publish(arena_pb2.PublishMatchesRequest(), metadata=admin.metadata)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as err:
        publish(arena_pb2.PublishMatchesRequest(group="cup 2026", match_ids=["m-nope"]), metadata=admin.metadata)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND and "m-nope" in err.value.details()
    assert admin.get(sealed.match_id).sealed  # a refused publish publishes nothing
    assert publish(arena_pb2.PublishMatchesRequest(group="cup 2026"), metadata=admin.metadata).published == 1
    assert publish(arena_pb2.PublishMatchesRequest(group="cup 2026"), metadata=admin.metadata).published == 0
    assert not admin.get(sealed.match_id).sealed
    public = watch(ref.address, sealed.match_id)
    assert all(u.full for u in public) and public[0].deals


# -------------------------------------------------------------------------- smaller defects
def test_the_admin_token_must_come_exactly_as_bearer(ref: Referee) -> None:
    stub = arena_pb2_grpc.ArenaStub(grpc.insecure_channel(ref.address))
    request = arena_pb2.GetBotRequest(bot_id="bot-nope")
    refused = [
        (("authorization", ADMIN),),  # no scheme
        (("authorization", f"bearer {ADMIN}"),),
        (("authorization", f"Bearer  {ADMIN}"),),
        (("authorization", f"Basic {ADMIN}"),),
        (("authorization", "Bearer "),),
        (("authorization", f"Bearer {ADMIN}x"),),
        (("authorization", f"Bearer {ADMIN[:-1]}"),),
        (("authorization", f"Bearer {ADMIN}"), ("authorization", "Bearer wrong")),
        (("authorization", "Bearer wrong"), ("authorization", f"Bearer {ADMIN}")),
    ]
    for metadata in refused:
        with pytest.raises(grpc.RpcError) as err:
            stub.GetBot(request, metadata=metadata, timeout=10)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED, metadata
        assert "Bearer <admin token>" in err.value.details()
    with pytest.raises(grpc.RpcError) as err:
        stub.GetBot(request, metadata=BEARER, timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND  # admitted


@pytest.mark.parametrize("name", ["x" * 65, "line\nbreak", "tab\there", "\x1b[31mred", "evil\u202etxt.exe", "zero\u200bwidth",
                                  "para\u2029graph", "   "])
def test_bad_names_are_refused(ref: Referee, name: str) -> None:
    admin = ref.arena()
    with pytest.raises(grpc.RpcError) as err:
        admin.register(name)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(err.value.details()) < 200
    with pytest.raises(grpc.RpcError) as err:
        create(admin, robots(admin, "n"), group=name)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "group" in err.value.details()


def test_a_name_of_64_characters_is_fine(ref: Referee) -> None:
    bot_id, _ = ref.arena().register("ż" * 64)
    bot = ref.arena().stub.GetBot(arena_pb2.GetBotRequest(bot_id=bot_id), metadata=BEARER)
    assert bot.name == "ż" * 64


def test_page_tokens_other_than_ours_are_invalid_arguments(ref: Referee) -> None:
    admin = ref.arena()
    seats = robots(admin, "pg")
    ids = {create(admin, seats, seed_text=f"s{i}").match_id for i in range(3)}
    for token in ("9" * 40, "-1", "abc", "1e3", "١٢", " 1", "1" * 11):
        with pytest.raises(grpc.RpcError) as err:
            admin.stub.ListMatches(arena_pb2.ListMatchesRequest(page_token=token), metadata=BEARER)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, token
        assert "page_token" in err.value.details() and "next_page_token" in err.value.details()
    with pytest.raises(grpc.RpcError) as err:
        admin.stub.ListMatches(arena_pb2.ListMatchesRequest(status=99), metadata=BEARER)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    seen, token = set(), ""
    while True:  # the tokens we hand out still page through every match
        page = admin.stub.ListMatches(arena_pb2.ListMatchesRequest(page_size=2, page_token=token), metadata=BEARER)
        seen |= {m.match_id for m in page.matches}
        if not (token := page.next_page_token):
            break
    assert seen == ids


def test_huge_ids_and_names_are_echoed_cut_short(ref: Referee) -> None:
    admin = ref.arena()
    huge = "x" * 60_000
    referee_stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(ref.address))
    calls = [
        (lambda: admin.get(huge), grpc.StatusCode.NOT_FOUND),
        (lambda: admin.wait(huge), grpc.StatusCode.NOT_FOUND),
        (lambda: admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=huge), metadata=BEARER), grpc.StatusCode.NOT_FOUND),
        (lambda: list(referee_stub.Watch(referee_pb2.WatchRequest(match_id=huge), timeout=10)), grpc.StatusCode.NOT_FOUND),
        (lambda: admin.create("mizerka-short", [huge, "b", "c"]), grpc.StatusCode.INVALID_ARGUMENT),
        (lambda: admin.create(huge, ["a", "b", "c"]), grpc.StatusCode.INVALID_ARGUMENT),
        (lambda: admin.create("mizerka-short", ["a", "b", "c"], options={huge: 1}), grpc.StatusCode.INVALID_ARGUMENT),
        (lambda: admin.create("mizerka-short", robots(admin, "h"), seed=huge), grpc.StatusCode.INVALID_ARGUMENT),
        (lambda: admin.stub.PublishMatches(arena_pb2.PublishMatchesRequest(match_ids=[huge]), metadata=BEARER),
         grpc.StatusCode.NOT_FOUND),
        (lambda: admin.register(huge), grpc.StatusCode.INVALID_ARGUMENT),
    ]
    for i, (call, code) in enumerate(calls):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == code, (i, err.value.code(), err.value.details()[:200])
        assert 10 < len(err.value.details()) <= 1100, i


def test_a_locked_database_does_not_stall_the_server(ref: Referee) -> None:
    """Another process holds SQLite's write lock: a RegisterBot waits for it in a worker thread,
    while the event loop keeps answering (health checks, reads, live games' clocks). No timing: the
    lock is held until the checks are answered, so a server that waited for it on its event loop
    would answer none of them (their deadline fails the test)."""
    admin = ref.arena()
    bot_id, _ = admin.register("before")
    lock = sqlite3.connect(ref.db, timeout=30, isolation_level=None)
    lock.execute("begin immediate")
    try:
        # Sent before the checks, on the same channel (one HTTP/2 connection): the server reads it first.
        waiting = admin.stub.RegisterBot.future(arena_pb2.RegisterBotRequest(name="during"), metadata=BEARER)
        health = health_pb2_grpc.HealthStub(admin.channel)
        for _ in range(5):
            health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
            admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=bot_id), metadata=BEARER, timeout=10)
        assert not waiting.done()  # it really was waiting for the lock: it cannot have got it
        lock.execute("rollback")
        assert waiting.result(timeout=30).bot_id.startswith("bot-")
    finally:
        lock.close()


# -------------------------------------------------------------------------------- leagues
def league_file(tmp: Path, name: str, extra: str, gates: Gates | None = None) -> Path:
    """Three built-in bots, or three gated ones (tests/bots/gatebot.py) under a clock that never runs out."""
    clock = HELD_CLOCK if gates else "decision_ms = 5000\nbank_ms = 30000"
    lines = [f'name = "{name}"', 'preset = "mizerka-short"', f'data = "{tmp / name}"', extra, "[clock]", clock]
    for bot in ("heuristic", "greedy", "cautious"):
        command = gates.command() if gates else json.dumps(["mizerka-bot", bot])
        lines += ["[[bots]]", f'name = "{bot}"', f"command = {command}"]
    path = tmp / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def old_seeds(name: str) -> set[str]:
    """The seeds leagues used to deal from: derived from the league's name, computable by anyone."""
    return {f"{name}/t0/g{g}{tail}" for g in range(2) for tail in ("", "/0")}


def league_rows(db: Path) -> list[dict]:
    con = sqlite3.connect(db, timeout=30)
    con.row_factory = sqlite3.Row
    query = ("select g.key, g.unit, g.seed, g.status, g.match_id, m.created_at, m.finished_at, m.sealed, m.match_group "
             "from league_games g left join matches m on m.id = g.match_id order by g.position")
    return [dict(r) for r in con.execute(query)]


@contextmanager
def league_running(path: Path) -> Iterator[subprocess.Popen[str]]:
    """`mizerka league run FILE` in the background, killed at the end of the block if still running."""
    runner = subprocess.Popen([str(BIN / "mizerka"), "league", "run", str(path)], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        yield runner
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()


def finish(runner: subprocess.Popen[str]) -> None:
    out, _ = runner.communicate(timeout=300)
    assert runner.returncode == 0, out


def test_duplicate_deals_are_never_played_at_the_same_time(tmp_path: Path) -> None:
    """Two duplicate sets (three seatings of one deal each) in a league of six games at once: the
    runner plays the two sets at the same time, never two games of one deal. The bots hold their
    first game at a gate until the store shows two games of different deals in play together, so
    the overlap is seen by construction, not by the bots being slower than the runner."""
    need_sandbox()
    gates = Gates.under(tmp_path)
    path = league_file(tmp_path, "dup", "duplicate = true\ngames_per_table = 2\nconcurrency = 6", gates)
    league = load_league(path)
    with league_running(path) as runner:
        deadline = time.monotonic() + 180
        while len(playing := [r for r in _rows_or_none(league.db_path) if r["match_id"] and r["finished_at"] is None]) < 2:
            assert runner.poll() is None and time.monotonic() < deadline, "the two deal groups never ran at once"
            time.sleep(0.05)
        assert len({r["seed"] for r in playing}) == len(playing) == 2, playing  # one game of each deal, none twice
        gates.open(*range(6))  # every stream's games, however the runner spreads them over streams
        finish(runner)
    con = sqlite3.connect(league.db_path)
    (secret,) = con.execute("select secret from leagues").fetchone()
    rows = league_rows(league.db_path)
    assert len(rows) == 6 and all(r["status"] == "FINISHED" for r in rows)
    for r in rows:  # duplicate: the set's seed, from the secret kept in the database
        assert r["seed"] == hmac.new(secret.encode(), r["unit"].encode(), hashlib.sha256).hexdigest()
    assert len({r["seed"] for r in rows}) == 2 and not {r["seed"] for r in rows} & old_seeds("dup")
    # Every match ever created for a deal (replays too) ran alone: created after the previous one ended.
    matches = con.execute("select seed, created_at, finished_at from matches order by created_at").fetchall()
    by_seed: dict[str, list[tuple[float, float]]] = {}
    for seed, start, end in matches:
        by_seed.setdefault(seed, []).append((start, end))
    assert set(by_seed) == {r["seed"] for r in rows}
    for spans in by_seed.values():
        assert all(later[0] >= earlier[1] for earlier, later in zip(spans, spans[1:])), spans
    first, second = by_seed.values()
    assert any(a[0] < b[1] and b[0] < a[1] for a in first for b in second), "the stored times lost the overlap seen"
    assert all(r["sealed"] == 0 and r["match_group"].startswith("dup#") for r in rows)  # published at the end


def test_a_spectator_of_a_running_league_learns_no_deal(tmp_path: Path) -> None:
    """A finished game of a league still running: its spectators see only what was played, and it
    stays sealed. The bots hold game 1 at its gate until the test has looked, so the league is
    still running then by construction."""
    need_sandbox()
    gates = Gates.under(tmp_path)
    path = league_file(tmp_path, "fresh", "games_per_table = 2", gates)
    league = load_league(path)
    with league_running(path) as runner:
        gates.open(0)
        deadline = time.monotonic() + 180
        while not (league.db_path.exists() and any(r["status"] == "FINISHED" for r in _rows_or_none(league.db_path))):
            assert runner.poll() is None and time.monotonic() < deadline, "the league ended or stalled"
            time.sleep(0.05)
        done = next(r for r in league_rows(league.db_path) if r["status"] == "FINISHED")
        address = (league.data / "logs" / "referee.ready").read_text().strip()
        updates = watch(address, done["match_id"])
        assert any(r["status"] != "FINISHED" for r in league_rows(league.db_path)), "the league ended first"
        assert_spectator_only(updates, done["seed"], f"{done['seed']}/0")
        nosy = Admin(address, token="guess")
        with pytest.raises(grpc.RpcError) as err:
            nosy.get(done["match_id"])
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
        token = Path(f"{league.db_path}.admin-token").read_text().strip()  # the local referee's, 0600
        match = Admin(address, token=token).get(done["match_id"])
        assert match.sealed and match.group.startswith("fresh#")
        gates.open(*range(1, 6))
        finish(runner)
    rows = league_rows(league.db_path)
    (secret,) = sqlite3.connect(league.db_path).execute("select secret from leagues").fetchone()
    assert re.fullmatch(r"[0-9a-f]{64}", secret)
    seeds = [r["seed"] for r in rows]
    assert len(set(seeds)) == len(rows) == 6  # fresh cards in every game, seat rotation kept
    assert seeds == [hmac.new(secret.encode(), r["key"].encode(), hashlib.sha256).hexdigest() for r in rows]
    game_seeds = {s for (s,) in sqlite3.connect(league.db_path).execute("select seed from games")}
    assert game_seeds == {f"{s}/0" for s in seeds} and not (game_seeds | set(seeds)) & old_seeds("fresh")
    assert all(r["sealed"] == 0 for r in rows)  # published once the league finished


def _rows_or_none(db: Path) -> list[dict]:
    try:
        return league_rows(db)
    except sqlite3.OperationalError:  # the runner is still creating its tables
        return []
