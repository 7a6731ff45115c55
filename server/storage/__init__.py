"""Where results are kept: ``store.py`` the referee's tables (bots, matches, games) on SQLAlchemy
Core, ``database.py`` how a URL becomes an engine (SQLite by default, nothing to install;
PostgreSQL when a league spans machines) and which errors mean the database is away, and
``schema_upgrade.py`` with ``migrations/`` the versioned schema (Alembic), upgraded as a command
opens a database. The leagues' tables are added in tournaments/store.py.
"""
