"""The bot sandbox: how a league runs a bot program it does not trust. A program runs under
bubblewrap (``bwrap.py``) with no network but the referee's Unix socket (``socket_folders.py``),
none of the league's files, only the folders its Python is imported from (``distributions.py``),
and limits on memory (``cgroups.py``), processes and CPU; ``settings.py`` reads the league file's
``[sandbox]`` table and ``cli.py`` is ``mizerka bot sandbox``, the same sandbox for one program by
hand. docs/security.md, "The sandbox", says what it keeps out and why.
"""
