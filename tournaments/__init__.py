"""Leagues: schedules with seat rotation and duplicate deals, bot processes, ratings, standings."""

import os

# The league runner forks bot processes and its referee while gRPC client threads run; they exec at
# once, so gRPC's fork handlers are not needed, and with them a child could abort between fork and
# exec ("epoll_wait error: Bad file descriptor"), which the runner would charge to the bot as a
# crash. gRPC reads this when it is first imported, so it is set here, before any module of this
# package imports grpc (the SDK's command line, imported by ``mizerka``, does).
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
