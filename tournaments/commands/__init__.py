"""The ``mizerka`` command line's commands beyond the referee's, each loaded only when it runs
(tournaments/cli.py): ``league`` (run, standings, worker, report), ``match`` (list, export),
``replay`` (a log verified and shown; ``seat_replay.py``: what one seat was sent), ``rerun`` (a logged
game's seed with other bots), ``bot`` (a built-in bot; ``sandbox.py``: any program in a league's
sandbox), and the options and store access the commands that read stored matches share
(``match_options.py``, ``match_store.py``, ``stored_matches.py``). A command parses and reports;
what it runs lives in the layers below.
"""
