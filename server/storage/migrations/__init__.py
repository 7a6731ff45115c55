"""The Alembic migration environment of the referee's and the leagues' tables (run by
:mod:`server.storage.database`, never imported by the program; ``versions/`` holds the revisions)."""
