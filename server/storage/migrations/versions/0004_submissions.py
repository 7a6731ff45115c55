"""Bot authors and what they submit: authors, their bots, each bot's versions, and the stored
archives (a version's source and built tree) by their SHA-256.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05

New tables only: nothing stored before changes. Only those missing are made, as 0001 and 0002 do: a
database whose tables were made by a program of this revision before it was stamped has them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if inspector.has_table("authors"):
        return
    op.create_table(
        "authors",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "submitted_bots",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("author_id", sa.String(64), sa.ForeignKey("authors.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("author_id", "name"),
    )
    op.create_table(
        "blobs",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bot_versions",
        sa.Column("bot_id", sa.String(64), sa.ForeignKey("submitted_bots.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("digest", sa.String(64), sa.ForeignKey("blobs.digest"), nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("manifest", sa.JSON, nullable=False),
        sa.Column("build_log", sa.Text, nullable=False),
        sa.Column("validation_log", sa.Text, nullable=False),
        sa.Column("built_digest", sa.String(64), sa.ForeignKey("blobs.digest")),
        sa.Column("claimed_by", sa.String(200)),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.UniqueConstraint("bot_id", "digest"),
    )


def downgrade() -> None:
    for table in ("bot_versions", "blobs", "submitted_bots", "authors"):
        op.drop_table(table)
