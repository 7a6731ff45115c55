"""A league as a static web site: standings, ratings over the league, head to head, failures, and a
replay page per game with every hand, every trick and the score sheet, stepped action by action.

``write_report(league, out)`` writes ``index.html``, ``matches/<game>.html`` and ``assets/`` (the report's
JS and CSS and the board's, server/frames.py; no CDN, no build step), and last ``manifest.json``: which league the report is of
and its files, which the referee's web page checks before it serves any of them (tournaments/web_board.py).
The pages show every hand: a league not over yet (its games sealed) gets a report only when asked. Every page carries its data as JSON inside the page, so
the site works from ``file://`` as well as from any static web server. All text is put into the
page by the script through ``textContent``, never as markup, so bot names (user input) cannot
inject HTML; the JSON itself is escaped so that it cannot end its ``<script>`` element.

Games are read only through :func:`load_game`, the one adapter to the stored log format.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce

from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset, load_ruleset
from server.codec.protocol import results_to_proto
from server.frames import BOARD_ASSETS, BOARD_FILES, game_frames, scoresheet
from server.records import replay_game
from server.storage.store import ABORTED, FINISHED, RUNNING, Store, matches
from tournaments.config import League
from tournaments.schedule import group_of
from tournaments.standings.league import load_results
from tournaments.standings.stats import FAULTS, Standings
from tournaments.store import LeagueGame, LeagueStore, leagues

ASSETS = Path(__file__).with_name("report_assets")
ASSET_FILES = ("report.js", "report.css")  # the report's own; the board's (server/frames.py) are copied beside them
REPORTS = "report"  # beside a league's database: one folder per league, DATA/report/NAME
MANIFEST = "manifest.json"
PLAIN_FOLDER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")


class ReportError(RuntimeError):
    """A report that cannot be written, or a game that cannot be shown; the message names it."""


# ----------------------------------------------------------------------- which league, and when
def report_folder(data: Path, name: str) -> Path:
    """Where league ``name``'s report goes by default, and the only place the web page serves it
    from: ``DATA/report/NAME``. A name that is no plain folder name (a slash, a blank, a leading dot)
    becomes one: its other characters a "-", and a digest of the name, so two names never share a folder."""
    if PLAIN_FOLDER.fullmatch(name):
        return data / REPORTS / name
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
    return data / REPORTS / "-".join(filter(None, (stem, hashlib.sha256(name.encode()).hexdigest()[:8])))


def league_group(store: LeagueStore, name: str) -> str | None:
    """League ``name``'s identity in its database: the match group of its matches, derived from its
    deal secret (so a league of the same name in another folder, or started again with --fresh, has
    another, unless its file gives the seed), which tells nothing of the secret; None if the
    database has no such league."""
    with store.engine.connect() as conn:
        secret = conn.execute(sa.select(leagues.c.secret).where(leagues.c.name == name)).scalar_one_or_none()
    return None if secret is None else group_of(name, secret)


def sealed_reason(store: LeagueStore, name: str, group: str, report_matches: Iterable[str] = ()) -> str | None:
    """Why league ``name``'s games may not be shown to everyone yet -- a game still playing, finished
    games still sealed (its runner publishes them once the league is over), no game finished, or one
    of ``report_matches`` (a report's pages) sealed or not the league's -- or None once they may."""
    with store.engine.connect() as conn:
        public = set(conn.execute(sa.select(matches.c.id).where(
            matches.c.match_group == group, matches.c.sealed.is_not(True), matches.c.status.in_((FINISHED, ABORTED)))).scalars())
    games = store.league_games(name)
    finished = [g for g in games if g.status == FINISHED]
    running = sum(g.status == RUNNING for g in games)
    sealed = sum(g.match_id not in public for g in finished)
    if running or sealed:
        return (f"league {name!r} has not finished ({running} of its {len(games)} games playing, {sealed} finished ones "
                "sealed: their hands stay secret until the league is over)")
    if not finished:
        return f"no game of league {name!r} has finished yet"
    hidden = sum(m not in public for m in report_matches)
    if hidden:
        return f"{hidden} games of the report are sealed or not of league {name!r} (as it is in the database now)"
    return None


@dataclass(frozen=True)
class Manifest:
    """What a report is of, kept in its folder (``manifest.json``, written last): the league's name and
    identity (:func:`league_group`), whether it was written before the league was over, and its
    files, each with the match its page shows (None: the index and the assets). The web page serves
    only these files, only under the league's name, only while every one of their games is public."""

    league: str
    group: str
    unfinished: bool
    files: dict[str, str | None]

    @classmethod
    def read(cls, folder: Path) -> Manifest | None:
        """The folder's manifest; None if it has none; ReportError if it cannot be read."""
        try:
            data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except (FileNotFoundError, NotADirectoryError):
            return None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ReportError(f"{folder / MANIFEST} cannot be read: {e}") from None
        if not (isinstance(data, dict) and set(data) == {f.name for f in fields(cls)} and isinstance(data["league"], str)
                and isinstance(data["group"], str) and isinstance(data["unfinished"], bool) and isinstance(data["files"], dict)
                and all(_plain_path(f) and (m is None or isinstance(m, str)) for f, m in data["files"].items())):
            raise ReportError(f"{folder / MANIFEST} is not one `mizerka report` wrote")
        return cls(**data)

    def write(self, folder: Path) -> None:
        """Written whole or not at all: a reader never sees half of it."""
        partial = folder / f".{MANIFEST}.tmp"
        partial.write_text(json.dumps(asdict(self), indent=1), encoding="utf-8")
        partial.replace(folder / MANIFEST)

    @property
    def match_ids(self) -> list[str]:
        return [m for m in self.files.values() if m is not None]


def _plain_path(path: str) -> bool:
    """A file inside the report's folder, as the report names its own (``matches/t0-g0-s0.html``)."""
    return all(PLAIN_FOLDER.fullmatch(part) for part in path.split("/"))


# ----------------------------------------------------------------------------- reading games
def load_game(store: Store, match_id: str, game_index: int) -> tuple[Ruleset, list[str], Game]:
    """The one adapter to stored games: the ruleset, the seat names (as registered with the
    referee) and the engine ``Game`` rebuilt by replaying the stored log."""

    match = store.match(match_id)
    if match is None:
        raise ReportError(f"match {match_id} is not in the database")
    rules = load_ruleset(match.preset, match.options)
    game = replay_game(store, match_id, game_index, rules)  # from the game's own stored seed
    if game is None:
        raise ReportError(f"match {match_id} has no stored game {game_index}")
    return rules, store.seat_names(match.seats), game


# --------------------------------------------------------------------------------- the site
def embed_json(data: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{prefix}assets/board.css">
<link rel="stylesheet" href="{prefix}assets/report.css">
</head>
<body data-page="{kind}">
<noscript><p class="noscript">This report draws its tables with JavaScript: please enable it.</p></noscript>
<main id="app"></main>
<script type="application/json" id="report-data">{data}</script>
<script src="{prefix}assets/board.js"></script>
<script src="{prefix}assets/report.js"></script>
</body>
</html>
"""


def render_page(kind: str, title: str, data: Any, prefix: str = "") -> str:
    return PAGE.format(kind=kind, title=html.escape(title), prefix=prefix, data=embed_json(data))


def page_name(key: str, taken: set[str]) -> str:
    """A file name for a game page from its league key (``t0/g1/s2`` -> ``t0-g1-s2.html``)."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", key).strip("-") or "game"
    name, n = f"{stem}.html", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.html"
    taken.add(name)
    return name


@dataclass
class ReportSummary:
    out: Path
    games: int = 0  # match pages written
    failed: list[str] = field(default_factory=list)  # "key: why" for games that could not be shown
    unfinished: str | None = None  # why the league's games are not public yet (written with unfinished=True)


def _standings_json(result: Standings, disabled: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for rank, b in enumerate(result.bots, 1):
        line = asdict(b)
        line["rank"] = rank
        line["disabled_reason"] = disabled.get(b.name) or None
        rows.append(line)
    return rows


def write_report(league: League, out: Path | str | None = None, warn: Callable[[str], None] | None = None,
                 unfinished: bool = False) -> ReportSummary:
    """Write the league's site into ``out`` (default: :func:`report_folder`; created if needed; the
    files of an earlier report of the league there are replaced). A league whose games are not all
    public yet is refused (ReportError) unless ``unfinished``."""
    out = report_folder(league.data, league.name) if out is None else Path(out)
    warn = warn or (lambda message: print(message, file=sys.stderr))
    if not league.has_database:
        raise ReportError(f"league {league.name!r} has no results yet ({league.db_path} does not exist): run it first")
    if out.resolve() == (league.data / REPORTS).resolve():
        raise ReportError(f"{out} holds one folder per league: write the report into {report_folder(league.data, league.name)} "
                          "(the default), where the web page serves it from")
    store = LeagueStore(league.database)
    try:
        group = league_group(store, league.name)
        if group is None:
            raise ReportError(f"league {league.name!r} has no results yet (its database has no such league): run it first")
        reason = sealed_reason(store, league.name, group)
        if reason is not None and not unfinished:
            raise ReportError(f"{reason}; its report would show every hand of them. Write it anyway with --unfinished "
                              "(keep it to yourself: the web page does not serve it while the league is sealed)")
        earlier = Manifest.read(out)
        if earlier is not None and earlier.league != league.name:
            raise ReportError(f"{out} holds the report of league {earlier.league!r}: choose another --out "
                              f"(the default is {report_folder(league.data, league.name)})")
        return _write_site(store, league, out, group, reason, warn, earlier)
    finally:
        store.close()


def _write_site(store: LeagueStore, league: League, out: Path, group: str, reason: str | None,
                warn: Callable[[str], None], earlier: Manifest | None) -> ReportSummary:
    """The pages, then the manifest: none of the folder is served while it is being rewritten."""
    (out / MANIFEST).unlink(missing_ok=True)
    (out / "matches").mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    files: dict[str, str | None] = {"index.html": None, **{f"assets/{name}": None for name in ASSET_FILES + BOARD_FILES}}
    summary = ReportSummary(out, unfinished=reason)
    result = load_results(store, league)
    rows = store.league_games(league.name)
    disabled = {b.name: b.disabled for b in store.league_bots(league.name) if b.disabled}
    taken: set[str] = set()
    entries = []
    for row in rows:
        entry: dict[str, Any] = {
            "key": row.key, "position": row.position, "unit": row.unit, "seats": row.seats,
            "status": row.status, "match_id": row.match_id, "totals": row.totals,
            "faults": row.faults, "page": None, "error": None,
        }
        entries.append(entry)
        if row.status != FINISHED or not row.match_id:
            continue
        try:
            data = _match_page(store, league, row)
        except Exception as e:  # noqa: BLE001 -- one unreadable game must not cost the whole report
            entry["error"] = f"{type(e).__name__}: {e}"
            summary.failed.append(f"{row.key}: {entry['error']}")
            warn(f"report: game {row.key} (match {row.match_id}) cannot be shown: {entry['error']}")
            continue
        name = page_name(row.key, taken)
        title = f"{league.name}: game {row.key}"
        data["index"] = "../index.html"
        (out / "matches" / name).write_text(render_page("match", title, data, "../"), encoding="utf-8")
        entry["page"] = f"matches/{name}"
        files[entry["page"]] = row.match_id
        summary.games += 1
    index = {
        "league": league.name, "preset": league.preset, "options": league.options, "format": league.format,
        "candidate": league.candidate, "seatings": league.seatings, "duplicate": league.duplicate, "generated": time.strftime("%Y-%m-%d %H:%M:%S"),
        "games": result.games, "scheduled": len(rows), "faults": list(FAULTS),
        "standings": _standings_json(result, disabled),
        "separation": None if result.separation is None else result.separation.to_json(),
        "head_to_head": result.head_to_head,
        "rating_history": {k: [list(p) for p in v] for k, v in result.rating_history.items()},
        "initial_ordinal": _initial_ordinal(),
        "matches": entries,
    }
    (out / "index.html").write_text(render_page("index", f"{league.name}: league report", index), encoding="utf-8")
    for stale in set(earlier.files if earlier is not None else ()) - set(files):
        (out / stale).unlink(missing_ok=True)  # a page of the earlier report (a game since played again)
    Manifest(league.name, group, reason is not None, files).write(out)
    return summary


def copy_assets(out: Path) -> None:
    """The report's scripts and styles and the board's into ``out/assets``, where its pages load them."""
    (out / "assets").mkdir(parents=True, exist_ok=True)
    for folder, names in ((ASSETS, ASSET_FILES), (BOARD_ASSETS, BOARD_FILES)):
        for name in names:
            shutil.copyfile(folder / name, out / "assets" / name)


def _initial_ordinal() -> float:

    return float(PlackettLuce().rating().ordinal())


def _match_page(store: Store, league: League, row: LeagueGame) -> dict[str, Any]:
    assert row.match_id is not None and row.totals is not None  # a finished game's
    rules, registered, game = load_game(store, row.match_id, 0)
    names = list(row.seats) if len(row.seats) == rules.players else registered
    if list(game.totals) != list(row.totals):
        raise ReportError(f"the replayed totals {list(game.totals)} differ from the stored result {list(row.totals)}")
    return {"league": league.name, "key": row.key, "unit": row.unit, "match_id": row.match_id,
            "registered": registered, "faults": row.faults} | game_page_data(game, names)


def game_page_data(game: Game, names: list[str]) -> dict[str, Any]:
    """What a game's replay page draws of the game itself: its every step (server/frames.py) and
    its score sheet, between seats ``names``."""
    return {"seed": str(game.seed), "preset": game.rules.preset, "rules": game.rules.describe(), "names": names,
            "totals": list(game.totals), "scoresheet": scoresheet(game.rules, results_to_proto(game.results), game.totals),
            "frames": game_frames(game)}
