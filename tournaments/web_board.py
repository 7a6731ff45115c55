"""Leagues for the referee's web page (server/web.py): their progress and live standings read from
the league tables of the database the referee serves, which the server itself never reads. The
``mizerka`` command hands this to ``mizerka serve`` (tournaments/cli.py), so the league runner's
referee and the workers' show their leagues.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.database import is_postgres
from server.store import FINISHED, RUNNING
from tournaments.store import LeagueStore, leagues, stored_standings

REPORT_FOLDER = "report"  # beside a SQLite league's database: `mizerka report LEAGUE --out DATA/report`


class DatabaseLeagues:
    """A :class:`server.web.LeagueBoard` on a league database. Standings are those of
    ``league standings`` without the separation verdicts (they need the league file)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.store = LeagueStore(db)

    def leagues(self) -> list[dict[str, Any]]:
        with self.store.engine.connect() as conn:
            names = list(conn.execute(sa.select(leagues.c.name).order_by(leagues.c.created_at.desc())).scalars())
        return [self._progress(name, self.store.league_games(name)) for name in names]

    @staticmethod
    def _progress(name: str, games: list[dict[str, Any]]) -> dict[str, Any]:
        count = Counter(g["status"] for g in games)
        return {"name": name, "games": len(games), "finished": count[FINISHED], "running": count[RUNNING]}

    def league(self, name: str) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(leagues.c.fingerprint).where(leagues.c.name == name)).first()
        if row is None:
            return None
        games = self.store.league_games(name)
        table, _, _ = stored_standings(self.store, name, row.fingerprint["bots"])
        live = [{"key": g["key"], "match_id": g["match_id"], "seats": g["seats"]} for g in games if g["status"] == RUNNING]
        return {**self._progress(name, games), "preset": row.fingerprint.get("preset"), "standings": table.to_json(),
                "playing": live}

    def report(self, name: str) -> Path | None:
        """``report/`` beside a SQLite database, once every finished game of the league is public
        (the runner publishes them when the league is over): the report shows every hand."""
        if is_postgres(self.db):
            return None
        folder = Path(self.db).parent / REPORT_FOLDER
        if not (folder / "index.html").is_file():
            return None
        games = self.store.league_games(name)
        if not games or any(g["status"] == RUNNING for g in games):
            return None
        for g in games:
            if g["status"] == FINISHED:
                match = self.store.match(g["match_id"])
                if match is None or not match.public:
                    return None
        return folder

    def close(self) -> None:
        self.store.close()
