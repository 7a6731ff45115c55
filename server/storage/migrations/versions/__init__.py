"""Schema revisions, oldest first (Alembic loads them by file; this file only makes the folder a package)."""
