"""League workers: leases on league games, the workers table, leagues open to workers, and which
referee runs each match.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Every new column is nullable, so the rows of a league played before stay valid as they are: a game
with no lease was never taken by a worker, a league with no ``state`` is played by one runner, a
match with no ``referee`` belongs to the referee of the default id.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


COLUMNS = (
    ("matches", sa.Column("referee", sa.String(200), nullable=True)),
    ("leagues", sa.Column("state", sa.String(16), nullable=True)),
    ("leagues", sa.Column("spec", sa.JSON, nullable=True)),
    ("league_games", sa.Column("attempt", sa.Integer, nullable=True)),
    ("league_games", sa.Column("lease_owner", sa.String(64), nullable=True)),
    ("league_games", sa.Column("lease_expires", sa.Float, nullable=True)),
)


def upgrade() -> None:
    """Only what is missing, as 0001 does: a database whose tables were created by a program of this
    revision before it was stamped (the first revision then stamps it) already has them."""
    inspector = sa.inspect(op.get_bind())
    for table, column in COLUMNS:
        if column.name not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, column)
    if inspector.has_table("workers"):
        return
    op.create_table(
        "workers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("host", sa.String(200), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("slots", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("stopped_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("workers")
    for table, column in reversed(COLUMNS):
        with op.batch_alter_table(table) as batch:  # SQLite drops columns by copying the table
            batch.drop_column(column.name)
