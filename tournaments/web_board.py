"""Leagues for the referee's web page (server/web/page.py): their progress and live standings read from
the league tables of the database the referee serves, which the server itself never reads. The
``mizerka`` command hands this to ``mizerka serve`` (tournaments/cli.py), so the league runner's
referee and the workers' show their leagues.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.storage.database import is_postgres
from server.storage.store import FINISHED, RUNNING
from server.web.page import ReportSite
from tournaments.report import MANIFEST, REPORTS, Manifest, ReportError, league_group, report_folder, sealed_reason
from tournaments.standings.league import stored_standings
from tournaments.store import LeagueGame, LeagueStore, leagues


class DatabaseLeagues:
    """A :class:`server.web.page.LeagueBoard` on a league database. Standings are those of
    ``league standings`` without the separation verdicts (they need the league file)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.store = LeagueStore(db)

    def leagues(self) -> list[dict[str, Any]]:
        with self.store.engine.connect() as conn:
            names = list(conn.execute(sa.select(leagues.c.name).order_by(leagues.c.created_at.desc())).scalars())
        return [self._progress(name, self.store.league_games(name)) for name in names]

    @staticmethod
    def _progress(name: str, games: list[LeagueGame]) -> dict[str, Any]:
        count = Counter(g.status for g in games)
        return {"name": name, "games": len(games), "finished": count[FINISHED], "running": count[RUNNING]}

    def league(self, name: str) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(leagues.c.fingerprint).where(leagues.c.name == name)).first()
        if row is None:
            return None
        games = self.store.league_games(name)
        table, _, _ = stored_standings(self.store, name, row.fingerprint["bots"])
        live = [{"key": g.key, "match_id": g.match_id, "seats": list(g.seats)} for g in games if g.status == RUNNING]
        return {**self._progress(name, games), "preset": row.fingerprint.get("preset"), "standings": table.to_json(),
                "playing": live}

    def report(self, name: str) -> ReportSite | str:
        """``report/NAME/`` beside a SQLite database (:func:`report_folder`), only if its manifest is
        of this league (its name and identity in this database) and while every game of the league
        and of the report is public (the runner publishes them when the league is over): the report
        shows every hand. The reasons name no path (the visitor reads them)."""
        if is_postgres(self.db):
            return "reports are served only beside a SQLite league's database"
        group = league_group(self.store, name)
        if group is None:
            return "no such league"
        data = Path(self.db).parent
        folder = report_folder(data, name)
        try:
            manifest = Manifest.read(folder)
        except ReportError:
            return f"the manifest of its report ({REPORTS}/{folder.name}/{MANIFEST}) cannot be read: write the report again"
        if manifest is None:
            if (data / REPORTS / "index.html").is_file():
                return (f"a report is served only from its league's own folder, {REPORTS}/{folder.name}/ beside the "
                        f"database, not from {REPORTS}/ (older versions): write it again with `mizerka report`")
            return f"its report is not written ({REPORTS}/{folder.name}/ beside the database: `mizerka report`)"
        if manifest.league != name or manifest.group != group:
            return "the report in its folder is of another league, or of an earlier run of it: write it again"
        return sealed_reason(self.store, name, group, manifest.match_ids) or ReportSite(folder, frozenset(manifest.files))

    def close(self) -> None:
        self.store.close()
