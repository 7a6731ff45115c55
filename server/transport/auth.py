"""Who a call is from: the admin, by the bearer token ``mizerka serve`` was given. The service asks
before every admin call and before giving a match's full record to a Watch caller.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

BEARER = "Bearer "


def is_admin(metadata: Iterable[tuple[str, Any]] | None, admin_token: str) -> bool:
    """True when the call carries exactly one ``authorization: Bearer <admin token>``. A bare token,
    another scheme or two authorization entries are refused; the comparison takes the same time
    whatever the guess (bytes: ``compare_digest`` refuses non-ASCII text)."""
    given = [v for k, v in metadata or () if k.lower() == "authorization"]
    if len(given) != 1 or not admin_token:
        return False
    value = given[0].decode("utf-8", "replace") if isinstance(given[0], bytes) else str(given[0])
    if not value.startswith(BEARER):
        return False
    return hmac.compare_digest(value[len(BEARER):].encode(), admin_token.encode())
