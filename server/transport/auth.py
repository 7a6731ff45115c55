"""Who a call is from: the admin, by the bearer token ``mizerka serve`` was given, or an author, by
its own token (server/transport/uploads.py). The service asks before every admin call and before
giving a match's full record to a Watch caller.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

BEARER = "Bearer "


def bearer(metadata: Iterable[tuple[str, Any]] | None) -> str | None:
    """The token of the call's one ``authorization: Bearer <token>`` entry; None for none, a bare
    token, another scheme or two authorization entries."""
    given = [v for k, v in metadata or () if k.lower() == "authorization"]
    if len(given) != 1:
        return None
    value = given[0].decode("utf-8", "replace") if isinstance(given[0], bytes) else str(given[0])
    return value[len(BEARER):] if value.startswith(BEARER) and len(value) > len(BEARER) else None


def is_admin(metadata: Iterable[tuple[str, Any]] | None, admin_token: str) -> bool:
    """True when the call carries exactly one ``authorization: Bearer <admin token>``; the
    comparison takes the same time whatever the guess (bytes: ``compare_digest`` refuses non-ASCII
    text)."""
    token = bearer(metadata)
    if token is None or not admin_token:
        return False
    return hmac.compare_digest(token.encode(), admin_token.encode())
