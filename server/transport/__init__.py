"""How bots and organisers reach the referee: the gRPC service (``service.py``: Referee's Play and
Watch, the Arena's admin calls) on grpc.aio, Play streams as seats in the lobby (``streams.py``),
and what keeps one referee process fair and responsive to everyone on it: bounded connections
(``connections.py``), what a stranger may cost (``limits.py``), TLS (``tls.py``), Unix sockets as
hosts of their own (``unix_peers.py``), the standard health check (``health.py``), the admin's token (``auth.py``), short event-loop
iterations (``pacing.py``, ``grpc_events.py``, ``collector.py``). The rules and the turn loop are
below it (the engine, server/referee); nothing here decides a game.
"""
