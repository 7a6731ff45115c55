"""The store on both backends (a SQLite file, a real PostgreSQL server started by tests/pg.py): the
same behaviour, one schema kept by Alembic, upgrades of older databases, refusals with one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command as alembic_command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext

from server.storage import store as server_store
from server.storage import submissions as server_submissions
from server.storage.database import SCHEMA_HEAD, DatabaseError, database_url, describe
from server.storage.schema_upgrade import MIGRATIONS, head_revision
from server.storage.store import FINISHED, Store, StoreError
from tournaments import store as league_store
from tournaments.schedule import Slot
from tournaments.store import LeagueBot, LeagueStore

from harness import need_sandbox, refused_port
from pg import pg_server, pg_url  # noqa: F401 (fixtures)

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
RECORD = {"seed": "s", "totals": [1, -1, 0], "ranks": [1, 3, 2], "seats": [{}, {}, {}], "deals": [], "log": [], "header": {"v": 1}}


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test's database is: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "data" / "arena.sqlite")
    else:
        yield request.getfixturevalue("pg_url")


def test_urls_pick_psycopg_3_and_messages_hide_the_password(tmp_path: Path) -> None:
    assert database_url("postgresql://u@h:5433/d") == "postgresql+psycopg://u@h:5433/d"
    assert database_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url(tmp_path / "a.sqlite") == f"sqlite:///{tmp_path / 'a.sqlite'}"
    text = describe(sa.make_url("postgresql+psycopg://u:secretpw@db.example:5433/arena"))
    assert "db.example:5433" in text and "secretpw" not in text


def test_the_store_behaves_the_same_on_both_backends(db: str) -> None:
    store = LeagueStore(db)
    try:
        a, token = store.add_bot("alice")
        b, _ = store.add_bot("bob")
        c, _ = store.add_bot("carol")
        with pytest.raises(StoreError, match="already registered"):
            store.add_bot("alice")
        assert store.bot_by_token(token) == a and store.bot_by_token("nope") is None
        row = store.create_match("mizerka-short", {"x": 1}, "seed", 2, {"decision_ms": 10}, [a.id, b.id, c.id], [2], group="g")
        with pytest.raises(StoreError, match="unknown bot"):
            store.create_match("mizerka-short", {}, "seed", 1, {}, [a.id, "bot-nope", c.id])
        assert store.record_game(row.id, 0, RECORD) and not store.record_game(row.id, 0, RECORD)
        store.set_status(row.id, FINISHED)
        stored = store.match(row.id)
        assert stored is not None and stored.options == {"x": 1} and stored.forfeits == [2] and stored.sealed
        assert [r["totals"] for r in stored.results] == [[1, -1, 0]]
        assert store.game_row(row.id, 0)["header"] == {"v": 1} and store.game_log(row.id, 0) == []
        assert [m.id for m in store.list_matches(FINISHED)] == [row.id] and store.unfinished_matches() == []
        assert store.publish("g") == 1 and store.match(row.id).public
        with pytest.raises(StoreError, match="unknown match"):
            store.publish(match_ids=["m-nope"])
        # the league's side
        assert store.open_league("L", {"preset": "p"}, "secret1") == "secret1"
        assert store.open_league("L", {"preset": "p"}, "other") == "secret1"
        with pytest.raises(StoreError, match="different preset"):
            store.open_league("L", {"preset": "q"}, "x")
        store.add_schedule("L", [Slot("k0", 0, 0, 0, ("a", "b", "c"), "s0"), Slot("k1", 0, 0, 1, ("b", "c", "a"), "s1")])
        store.start_league_game("L", "k0", row.id)
        store.start_league_game("L", "k1", "m-lost")
        assert store.finish_league_game("L", "k0", row.id, [1, -1, 0], [{}, {}, {}])
        assert not store.finish_league_game("L", "k0", row.id, [1, -1, 0], [{}, {}, {}])
        assert store.discard_in_flight("L") == ["k1"]
        games = store.league_games("L")
        assert [(g.key, g.position, g.unit, g.seats, g.seed) for g in games] == [
            ("k0", 0, "t0/g0", ("a", "b", "c"), "s0"), ("k1", 1, "t0/g0", ("b", "c", "a"), "s1")]
        assert [(g.status, g.totals, g.discarded) for g in games] == [("FINISHED", (1, -1, 0), None), ("PENDING", None, ("m-lost",))]
        store.add_league_bot("L", "a", a.id, token)
        assert store.count_crash("L", "a") == 1
        store.disable_league_bot("L", "a", "crashed")
        assert store.league_bot("L", "a") == LeagueBot("L", "a", a.id, token, crashes=1, disabled="crashed")
        store.drop_league("L")
        assert store.league_games("L") == [] and store.league_bots("L") == []
    finally:
        store.close()
    again = Store(db)  # a second open finds everything and migrates nothing
    try:
        assert again.bot_by_token(token) == a
    finally:
        again.close()


def _tables_and_versions(url: str) -> tuple[list[object], list[str]]:
    engine = sa.create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            together = sa.MetaData()
            for table in [*server_store.metadata.tables.values(), *server_submissions.metadata.tables.values(),
                          *league_store.metadata.tables.values()]:
                table.to_metadata(together)
            diffs = compare_metadata(MigrationContext.configure(conn), together)
            versions = [r[0] for r in conn.execute(sa.text("select version_num from alembic_version"))]
    finally:
        engine.dispose()
    return diffs, versions


def test_the_migrated_schema_is_the_one_the_code_uses(db: str) -> None:
    LeagueStore(db).close()
    diffs, versions = _tables_and_versions(db)
    assert diffs == [] and versions == [head_revision()]
    assert SCHEMA_HEAD == head_revision()  # a database at it is opened without Alembic: it must be the head


# A game's log and deals as stored before revision 0003 (entries keyed "kind", a result nested, an action
# entry without turn metadata, deals without totals), and as that revision makes them: the file's lines.
_RESULT = {"deal": 0, "redeal": 0, "tiebreak": False, "dealer": 2, "declarer": 0, "caller": 0, "contract": "hearts",
           "major": False, "trump": "H", "tricks": [13, 0, 0], "points": [1, -1, 0], "void": False, "revoker": None}
OLD_LOG = [{"kind": "play", "seat": 0, "card": "AS", "turn": 5, "ms": 3, "default": None}, {"kind": "play", "seat": 1, "card": "KS"},
           {"kind": "trick", "winner": 0}, {"kind": "result", "result": _RESULT, "totals": [1, -1, 0]}]
NEW_LOG = [{"type": "play", "seat": 0, "card": "AS", "turn": 5, "ms": 3, "default": None},
           {"type": "play", "seat": 1, "card": "KS", "turn": None, "ms": None, "default": None},
           {"type": "trick", "winner": 0}, {"type": "result", **_RESULT, "totals": [1, -1, 0]}]


def test_a_database_one_revision_behind_is_upgraded_when_opened(db: str) -> None:
    """The fast path (at the head: no Alembic) must not keep an older database from its upgrade;
    revision 0003 rewrites the stored games of the old form into the match log's lines."""
    store = LeagueStore(db)
    ids = [store.add_bot(name)[0].id for name in ("a", "b", "c")]
    match_id = store.create_match("mizerka-short", {}, "s", 1, {}, ids).id
    store.record_game(match_id, 0, {**RECORD, "log": OLD_LOG, "deals": [_RESULT]})
    store.close()
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("update alembic_version set version_num = '0001'"))
        conn.execute(sa.text("drop table workers"))  # what revision 0002 adds, taken away again
    engine.dispose()
    store = LeagueStore(db)
    try:
        row = store.game_row(match_id, 0)
        assert row is not None and row["log"] == NEW_LOG and row["deals"] == [{**_RESULT, "totals": [1, -1, 0]}]
        assert [list(line) for line in row["log"]] == [list(line) for line in NEW_LOG]  # in the file's order of keys
    finally:
        store.close()
    assert _tables_and_versions(db) == ([], [head_revision()])


def test_revision_0003_is_undone_by_its_downgrade(db: str) -> None:
    """Going back to 0002 gives the stored games their old form again (the turn metadata the upgrade
    filled in stays, as nulls: the old readers ignored extra keys), so an older program reads them."""
    store = LeagueStore(db)
    ids = [store.add_bot(name)[0].id for name in ("a", "b", "c")]
    match_id = store.create_match("mizerka-short", {}, "s", 1, {}, ids).id
    store.record_game(match_id, 0, {**RECORD, "log": NEW_LOG, "deals": [{**_RESULT, "totals": [1, -1, 0]}]})
    store.close()
    engine = sa.create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        alembic_command.downgrade(config, "0002")
    with engine.connect() as conn:
        log, deals = conn.execute(sa.text("select log, deals from games")).one()
    engine.dispose()
    log, deals = (json.loads(v) if isinstance(v, str) else v for v in (log, deals))
    assert log == [{**e, "turn": e.get("turn"), "ms": e.get("ms"), "default": e.get("default")} if e["kind"] == "play" else e
                   for e in OLD_LOG]
    assert deals == [_RESULT]


# What the code before versioned schemas created: no header, match_group, sealed, secret, discarded.
OLD_SCHEMA = """
CREATE TABLE bots (id VARCHAR(64) NOT NULL PRIMARY KEY, name VARCHAR(200) NOT NULL, token_hash VARCHAR(64) NOT NULL,
    created_at FLOAT NOT NULL, UNIQUE (name), UNIQUE (token_hash));
CREATE TABLE matches (id VARCHAR(64) NOT NULL PRIMARY KEY, status VARCHAR(16) NOT NULL, preset VARCHAR(64) NOT NULL, options JSON NOT NULL,
    seed VARCHAR(200) NOT NULL, games INTEGER NOT NULL, clock JSON NOT NULL, seats JSON NOT NULL, forfeits JSON NOT NULL,
    created_at FLOAT NOT NULL, finished_at FLOAT, error TEXT);
CREATE INDEX ix_matches_status ON matches (status);
CREATE TABLE games (match_id VARCHAR(64) NOT NULL REFERENCES matches (id), game_index INTEGER NOT NULL, seed VARCHAR(200) NOT NULL,
    totals JSON NOT NULL, ranks JSON NOT NULL, seats JSON NOT NULL, deals JSON NOT NULL, log JSON NOT NULL, finished_at FLOAT NOT NULL,
    PRIMARY KEY (match_id, game_index));
CREATE TABLE leagues (name VARCHAR(200) NOT NULL PRIMARY KEY, fingerprint JSON NOT NULL, admin_token VARCHAR(200) NOT NULL,
    created_at FLOAT NOT NULL);
INSERT INTO bots VALUES ('bot-old', 'oldie', 'h', 1.0);
INSERT INTO matches VALUES ('m-old', 'FINISHED', 'mizerka-short', '{}', 's', 1, '{}', '["bot-old"]', '[]', 1.0, 2.0, NULL);
INSERT INTO leagues VALUES ('L', '{"preset": "p"}', 'old-admin-token', 1.0);
"""


def test_a_database_from_before_versioned_schemas_is_completed_and_stamped(db: str) -> None:
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        for statement in OLD_SCHEMA.split(";"):
            if statement.strip():
                conn.execute(sa.text(statement))
    engine.dispose()
    store = LeagueStore(db)
    try:
        old = store.match("m-old")
        assert old is not None and old.public and old.match_group is None and store.bot("bot-old").name == "oldie"
        assert store.open_league("L", {"preset": "p"}, "new-secret") == "new-secret"  # kept from now on
    finally:
        store.close()
    diffs, versions = _tables_and_versions(db)
    assert diffs == [] and versions == [head_revision()]


def test_a_database_of_a_newer_version_is_refused_in_one_line(db: str) -> None:
    Store(db).close()
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("update alembic_version set version_num = '9999_future'"))
    engine.dispose()
    message = "written by a newer version of Mizerka Arena (schema revision 9999_future); upgrade this program"
    with pytest.raises(DatabaseError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Store(db)
    done = subprocess.run([MIZERKA, "match", "list", "--db", db], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [f"error: this database was {message}"]


def test_an_unreachable_server_is_named_without_its_password(tmp_path: Path) -> None:
    with refused_port() as port:
        check_an_unreachable_server_is_named_without_its_password(tmp_path, port)


def check_an_unreachable_server_is_named_without_its_password(tmp_path: Path, port: int) -> None:
    url = f"postgresql://arena:secretpw@127.0.0.1:{port}/arena"
    with pytest.raises(DatabaseError, match=f"127.0.0.1:{port}") as err:
        Store(url)
    assert "secretpw" not in str(err.value)
    for command in (["match", "list", "--db", url], ["serve", "--port", "0", "--db", url]):
        done = subprocess.run([MIZERKA, *command], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                              env=dict(os.environ, MIZERKA_ADMIN_TOKEN="x"))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and f"127.0.0.1:{port}" in lines[-1], done.stderr
        assert "secretpw" not in done.stderr and "Traceback" not in done.stderr


def test_processes_opening_a_new_database_at_once_migrate_it_once(db: str) -> None:
    """Six at once, on a new database. On SQLite the race is in switching the new file to WAL
    (one in twenty rounds failed with "database is locked" before that switch was retried), so
    it is run on twenty-five new files."""
    files = [db] if "://" in db else [str(Path(db).with_name(f"arena-{i}.sqlite")) for i in range(25)]
    for path in files:
        errors: list[BaseException] = []

        def open_close(path: str = path, errors: list[BaseException] = errors) -> None:
            try:
                LeagueStore(path).close()
            except BaseException as e:  # collected: the test fails below with it
                errors.append(e)

        threads = [threading.Thread(target=open_close) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [], path
        assert _tables_and_versions(path) == ([], [head_revision()])


def test_a_league_on_postgresql_end_to_end(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """`mizerka league run` with `db` in the league file: its own referee (`mizerka serve --db
    postgresql://...`) and the league's tables on one server; then `league standings` from it."""
    need_sandbox()
    lines = ['name = "pg"', 'preset = "mizerka-short"', 'seed = "fixed"', f'data = "{tmp_path / "data"}"', f'db = "{pg_url}"',
             'format = "round-robin"', "games_per_table = 1", "[clock]", "decision_ms = 5000", "bank_ms = 30000"]
    for bot in ("heuristic", "greedy", "cautious"):
        lines += ["[[bots]]", f'name = "{bot}"', f'command = ["mizerka-bot", "{bot}"]']
    path = tmp_path / "pg.toml"
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run([MIZERKA, "league", "run", str(path), "--here"], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (tmp_path / "data" / "league.sqlite").exists()  # everything went to PostgreSQL
    standings = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert standings.returncode == 0, standings.stderr
    result = json.loads(standings.stdout)
    engine = sa.create_engine(database_url(pg_url))
    with engine.connect() as conn:
        finished = conn.execute(sa.text("select count(*) from league_games where status = 'FINISHED'")).scalar_one()
        matches = conn.execute(sa.text("select count(*) from matches where status = 'FINISHED'")).scalar_one()
    engine.dispose()
    assert finished > 0 and matches >= finished and result["games"] == finished
