"""The first versioned schema: the referee's tables (bots, matches, games) and the leagues'.

Revision ID: 0001
Revises:
Create Date: 2026-01-01

Idempotent on purpose: a database written before schemas were versioned (tables, perhaps without the
columns added since, and no alembic_version) gets only what it lacks, so the same step brings an empty
database and an old one to this shape. The tables are frozen copies here, never the program's own
(server/storage/store.py, tournaments/store.py): a later change there needs a revision of its own.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def schema() -> sa.MetaData:
    """The tables as of this revision."""
    md = sa.MetaData()
    sa.Table(
        "bots", md,
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    sa.Table(
        "matches", md,
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(200), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("forfeits", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
        sa.Column("error", sa.Text),
        sa.Column("match_group", sa.String(200)),
        sa.Column("sealed", sa.Boolean),
    )
    sa.Table(
        "games", md,
        sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("game_index", sa.Integer, primary_key=True),
        sa.Column("seed", sa.String(200), nullable=False),
        sa.Column("totals", sa.JSON, nullable=False),
        sa.Column("ranks", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("deals", sa.JSON, nullable=False),
        sa.Column("log", sa.JSON, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("header", sa.JSON),
    )
    sa.Table(
        "leagues", md,
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("fingerprint", sa.JSON, nullable=False),
        sa.Column("admin_token", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("secret", sa.String(200)),
    )
    sa.Table(
        "league_bots", md,
        sa.Column("league", sa.String(200), sa.ForeignKey("leagues.name"), primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("bot_id", sa.String(64), nullable=False),
        sa.Column("token", sa.String(200), nullable=False),
        sa.Column("crashes", sa.Integer, nullable=False),
        sa.Column("disabled", sa.Text),
    )
    sa.Table(
        "league_games", md,
        sa.Column("league", sa.String(200), sa.ForeignKey("leagues.name"), primary_key=True),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("unit", sa.String(100), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("match_id", sa.String(64)),
        sa.Column("totals", sa.JSON),
        sa.Column("faults", sa.JSON),
        sa.Column("finished_at", sa.Float),
        sa.Column("discarded", sa.JSON),
    )
    return md


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    for table in schema().sorted_tables:
        if not inspector.has_table(table.name):
            table.create(bind)  # with its indexes
            continue
        have = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:  # added after the table: always nullable, so old rows need no value
                op.add_column(table.name, sa.Column(column.name, column.type, nullable=True))
        indexes = {i["name"] for i in inspector.get_indexes(table.name)}
        for index in table.indexes:
            if index.name not in indexes:
                index.create(bind)


def downgrade() -> None:
    bind = op.get_bind()
    for table in reversed(schema().sorted_tables):
        table.drop(bind, checkfirst=True)
