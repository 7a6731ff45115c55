"""Leagues played by workers on many hosts through one PostgreSQL database: ``submitter.py`` puts a
league in the database and follows it (``mizerka league run`` on PostgreSQL), ``worker.py`` is
``mizerka worker``, which takes games under leases and plays them with the league runner, and
``leases.py`` the leases themselves, which fence each result so that a game is counted once however
many workers die, stall or come back (docs/scale-out.md).
"""
