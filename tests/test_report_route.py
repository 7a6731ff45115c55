"""A league's report on the web page (``/league/NAME/report/``, docs/web.md, docs/report.md), tried
the way a stranger would read a running league's hands through it.

Two leagues of real bot processes share one data folder, as two league files with the same ``data``
do. Both are played to the end; then ``beta`` is made unfinished the way its database looks while it
plays (its finished games sealed, one of them playing). Its report is refused without --unfinished,
written with it, and also left in ``DATA/report/`` (where older versions put the one report of a data
folder, which is how the audit read beta's hands under alpha's URL) and among alpha's pages. A real
``mizerka serve --http-port`` on that database, with the leagues' board, is then asked for every path
that could hold one of beta's games, under both leagues' names: none may answer with one of beta's
match ids or seeds, while alpha's own report is served. Once beta is over and published, its report
is served too: the refusal is the seal's, not an accident.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_web import web_port

from tournaments.report import MANIFEST, Manifest, ReportError, report_folder

from harness import BIN, referee

MIZERKA = str(BIN / "mizerka")
PAGES = [f"matches/t0-g0-s{s}.html" for s in range(3)]  # three bots, one table, three seatings


def _league_file(tmp: Path, name: str) -> Path:
    """Three random bots, no seed in the file: each league deals from a secret of its own."""
    lines = [f'name = "{name}"', 'preset = "mizerka-short"', f'data = "{tmp / "data"}"', 'sandbox = "off"',
             "[clock]", "decision_ms = 5000", "bank_ms = 30000"]
    for bot in ("r1", "r2", "r3"):
        lines += ["[[bots]]", f'name = "{bot}"', 'command = ["mizerka-bot", "random"]']
    path = tmp / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _mizerka(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MIZERKA, *args], capture_output=True, text=True, timeout=180, check=False)


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.fixture
def arena(tmp_path: Path) -> dict[str, Any]:
    """Two leagues played to the end in one data folder."""
    files = {name: _league_file(tmp_path, name) for name in ("alpha", "beta")}
    for path in files.values():
        run = _mizerka("league", "run", str(path))
        assert run.returncode == 0, run.stdout + run.stderr
    return {"tmp": tmp_path, "data": tmp_path / "data", "db": tmp_path / "data" / "league.sqlite", "files": files}


@contextmanager
def _web(arena: dict[str, Any]) -> Iterator[str]:
    """A referee serving the leagues' database, with their board: its web page's address. Each is
    started after the test changed the database behind the runners' backs, so that what it serves
    does not depend on when it read what (tests/test_sqlite_locks.py)."""
    with referee(arena["tmp"], "--http-port", "0", "--db", str(arena["db"])) as ref:
        yield f"http://127.0.0.1:{web_port(ref)}"


def _sql(db: Path, *statements: str) -> list[Any]:
    """Run ``statements`` on the league database in one transaction, behind the runners' backs; the
    last one's rows."""
    with closing(sqlite3.connect(db)) as conn, conn:
        rows = [conn.execute(statement).fetchall() for statement in statements]
    return rows[-1]


def _matches(db: Path, league: str) -> dict[str, str]:
    """The league's match ids with their seeds (the replay pages carry both)."""
    return dict(_sql(db, f"SELECT id, seed FROM matches WHERE match_group LIKE '{league}#%'"))


def _make_unfinished(db: Path) -> None:
    """Beta as its database is while it plays: its finished games sealed, one of them playing."""
    _sql(db, "UPDATE matches SET sealed = 1 WHERE match_group LIKE 'beta#%'",
         "UPDATE league_games SET status = 'RUNNING' WHERE league = 'beta' AND key = 't0/g0/s2'")


def _publish(db: Path) -> None:
    """Beta over, and published as its runner does."""
    _sql(db, "UPDATE league_games SET status = 'FINISHED' WHERE league = 'beta'",
         "UPDATE matches SET sealed = 0 WHERE match_group LIKE 'beta#%'")


def _seal_one_more(db: Path, site: Path) -> None:
    """A sealed match of beta's group, listed as a page of beta's report: the page must not show it,
    whatever the league's own games say."""
    columns = [row[1] for row in _sql(db, "PRAGMA table_info(matches)")]
    values = ", ".join({"id": "'m-sealed'", "sealed": "1"}.get(c, c) for c in columns)
    _sql(db, f"INSERT INTO matches ({', '.join(columns)}) SELECT {values} FROM matches WHERE match_group LIKE 'beta#%' LIMIT 1")
    manifest = json.loads((site / MANIFEST).read_text())
    manifest["files"]["matches/more.html"] = "m-sealed"
    (site / MANIFEST).write_text(json.dumps(manifest))


def _probe(base: str, secrets: dict[str, str]) -> dict[str, int]:
    """Every path that could hold one of beta's games, under both names; none may answer with one."""
    paths = ["", "index.html", MANIFEST, *PAGES, "matches/beta-t0-g0-s0.html", "../beta/index.html",
             "..%2Fbeta%2Findex.html", "..%2F..%2Freport%2Fbeta%2Fmatches%2Ft0-g0-s0.html"]
    statuses = {}
    for league in ("alpha", "beta"):
        for path in paths:
            url = f"{base}/league/{league}/report/{path}"
            status, body = _get(url)
            leaked = [x for pair in secrets.items() for x in pair if x in body]
            assert not leaked, f"{url} answered {status} with beta's {leaked}"
            statuses[f"{league}/{path}"] = status
    return statuses


def test_a_running_leagues_report_is_served_under_no_league(arena: dict[str, Any]) -> None:
    data, db, files = arena["data"], arena["db"], arena["files"]
    _make_unfinished(db)
    beta = _matches(db, "beta")
    assert len(beta) == 3

    refused = _mizerka("report", str(files["beta"]))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "league 'beta' has not finished (1 of its 3 games playing, 2 finished ones sealed" in refused.stderr
    assert "--unfinished" in refused.stderr
    assert not (report_folder(data, "beta") / MANIFEST).exists()

    written = _mizerka("report", str(files["beta"]), "--unfinished")
    assert written.returncode == 0, written.stdout + written.stderr
    assert "warning: league 'beta' has not finished" in written.stderr and "keep it to yourself" in written.stderr
    beta_site = report_folder(data, "beta")
    assert beta_site == data / "report" / "beta" and any(s in (beta_site / PAGES[0]).read_text() for s in beta.values())
    for name in ("index.html", *PAGES[:2], "assets/report.js"):  # also where older versions put a data folder's report
        (data / "report" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(beta_site / name, data / "report" / name)
    assert _mizerka("report", str(files["beta"]), "--out", str(data / "report")).returncode == 2  # not there any more

    with _web(arena) as base:
        statuses = _probe(base, beta)
        assert set(statuses.values()) == {404}, statuses
        status, body = _get(f"{base}/league/alpha/report/")
        assert status == 404 and "not from report/ (older versions)" in json.loads(body)["error"], body
        status, body = _get(f"{base}/league/beta/report/{PAGES[0]}")
        assert "league 'beta' has not finished" in json.loads(body)["error"], body

        made = _mizerka("report", str(files["alpha"]))
        assert made.returncode == 0 and not made.stderr, made.stdout + made.stderr
        alpha_site = report_folder(data, "alpha")
        shutil.copyfile(beta_site / PAGES[0], alpha_site / "matches" / "beta-t0-g0-s0.html")  # no page of alpha's report
        statuses = _probe(base, beta)
        served = sorted(k for k, v in statuses.items() if v == 200)
        assert served == ["alpha/", "alpha/index.html", *(f"alpha/{p}" for p in PAGES)], statuses
        alpha = _matches(db, "alpha")
        for page in PAGES:
            body = _get(f"{base}/league/alpha/report/{page}")[1]
            assert sum(match_id in body for match_id in alpha) == 1, f"{page} is no page of alpha's"
        assert _get(f"{base}/api/league/alpha")[1].count('"report": true') == 1
        assert _get(f"{base}/api/league/beta")[1].count('"report": false') == 1

    _publish(db)  # over and published: now anyone may see its games, its report with them
    with _web(arena) as base:
        assert _get(f"{base}/league/beta/report/{PAGES[0]}")[0] == 200
        assert _get(f"{base}/league/beta/report/{PAGES[2]}")[0] == 404  # not finished when the report was written
        assert _get(f"{base}/league/alpha/report/matches/beta-t0-g0-s0.html")[0] == 404

    shutil.copytree(beta_site, alpha_site, dirs_exist_ok=True)  # beta's report, public now, in alpha's folder
    _seal_one_more(db, beta_site)  # and a page of beta's report whose game is still sealed
    with _web(arena) as base:
        status, body = _get(f"{base}/league/alpha/report/{PAGES[0]}")
        assert status == 404 and "of another league" in json.loads(body)["error"], body
        status, body = _get(f"{base}/league/beta/report/{PAGES[0]}")
        assert status == 404 and "1 games of the report are sealed" in json.loads(body)["error"], body


def test_report_folders_and_manifests_name_only_files_inside(tmp_path: Path) -> None:
    data = Path("data")
    assert report_folder(data, "spring-2026.v2") == data / "report" / "spring-2026.v2"
    odd = [report_folder(data, name) for name in ("a/b", "a b", "..", ".hidden", "a-b")]
    assert all(f.parent == data / "report" and not f.name.startswith(".") and "/" not in f.name for f in odd), odd
    assert len(set(odd)) == len(odd)
    for files in ({"../x.html": None}, {"/etc/passwd": None}, {"matches/../../x": "m-1"}, {"a": 7}):
        (tmp_path / MANIFEST).write_text(json.dumps({"league": "x", "group": "x#1", "unfinished": False, "files": files}))
        with pytest.raises(ReportError, match="is not one `mizerka report` wrote"):
            Manifest.read(tmp_path)
    (tmp_path / MANIFEST).write_text("[1]")
    with pytest.raises(ReportError, match="is not one `mizerka report` wrote"):
        Manifest.read(tmp_path)
