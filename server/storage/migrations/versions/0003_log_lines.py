"""Stored games in the match log's own format: each ``games.log`` entry becomes the line a log file
holds, and each ``deals`` entry the fields of a result line.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04

Before, the games table kept a log of its own form: entries keyed ``"kind"``, a deal's result nested
under ``"result"``, no turn metadata on the action entries of games stored before the referee
recorded it, and deals without their running totals; ``mizerka match export`` converted each entry
as it wrote the file. Now the stored entries are the file's lines (server/codec/matchlog.py), so this
revision does that conversion once, exactly as the export did: ``"type"`` first, a result's fields
flattened where ``"result"`` was, null ``turn``/``ms``/``default`` on an action line without them;
each deal gets the game's totals after it. A game's export is byte for byte what it was. Entries
already in the new form are left as they are (the step may meet a row written by a newer program
before the stamp). The conversion is a frozen copy here, never the program's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ACTION_KINDS = frozenset({"contract", "major", "exchange", "play", "revoke"})
TURN_KEYS = ("turn", "ms", "default")

games = sa.table("games", sa.column("match_id"), sa.column("game_index"), sa.column("log", sa.JSON), sa.column("deals", sa.JSON))


def _line(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored entry of the old form as the line the export made of it."""
    if "kind" not in entry:
        return entry
    kind = entry["kind"]
    out: dict[str, Any] = {"type": kind}
    for key, value in entry.items():
        if key == "kind":
            continue
        if kind == "result" and key == "result":
            out.update(value)
        else:
            out[key] = value
    if kind in ACTION_KINDS:
        for key in TURN_KEYS:
            out.setdefault(key, None)
    return out


def _deals(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deals, each with the running totals after it (totals start at 0)."""
    out, running = [], None
    for d in deals:
        running = [t + p for t, p in zip(running or [0] * len(d["points"]), d["points"])]
        out.append(d if "totals" in d else {**d, "totals": running})
    return out


def _entry(line: dict[str, Any]) -> dict[str, Any]:
    """A line back in the old form (the downgrade): ``"kind"``, a result's fields nested."""
    if "type" not in line:
        return line
    kind = line["type"]
    if kind == "result":
        result = {k: v for k, v in line.items() if k not in ("type", "totals")}
        return {"kind": kind, "result": result, "totals": line["totals"]}
    return {"kind": kind, **{k: v for k, v in line.items() if k != "type"}}


def _rewrite(log: Callable[[dict[str, Any]], dict[str, Any]], deals: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    """Each game's log and deals through ``log`` (per entry) and ``deals``, one game read at a time
    (a league's database holds thousands, each log some tens of kilobytes)."""
    conn = op.get_bind()
    for match_id, index in conn.execute(sa.select(games.c.match_id, games.c.game_index)).all():
        which = (games.c.match_id == match_id) & (games.c.game_index == index)
        row = conn.execute(sa.select(games.c.log, games.c.deals).where(which)).one()
        new_log, new_deals = [log(e) for e in row.log], deals(row.deals)
        if new_log != row.log or new_deals != row.deals:
            conn.execute(games.update().where(which).values(log=new_log, deals=new_deals))


def upgrade() -> None:
    _rewrite(_line, _deals)


def downgrade() -> None:
    _rewrite(_entry, lambda deals: [{k: v for k, v in d.items() if k != "totals"} for d in deals])
