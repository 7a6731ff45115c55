"""Alembic's entry point: migrate on the connection :func:`server.storage.schema_upgrade.upgrade` hands over.

That connection already holds the lock (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE) and
the transaction, so the whole upgrade commits or rolls back as one; no alembic.ini, no URL here.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
