"""The SDK's base error, apart from the runtime so that raising it needs no gRPC (the stdio
program runner raises it offline too)."""

from __future__ import annotations


class MizerkaError(Exception):
    """An error of the SDK runtime (bad launch settings, a referee that refuses to play)."""
