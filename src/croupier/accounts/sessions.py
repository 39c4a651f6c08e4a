"""Session tokens: 256 random bits from :mod:`secrets`; only their SHA-256 is stored.

A session ends when it is revoked (logout, or a new login rotating it), when it has been
idle for ``idle_seconds``, or ``absolute_seconds`` after it was created, whatever happens.

>>> token = new_token()
>>> len(token) >= 43, token_hash(token) == token_hash(token), len(token_hash(token))
(True, True, 64)
>>> SessionPolicy().idle_seconds, SessionPolicy().absolute_seconds
(7200.0, 604800.0)
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

__all__ = ["TOKEN_BYTES", "SessionPolicy", "new_token", "token_hash"]

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh URL-safe token of :data:`TOKEN_BYTES` random bytes."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    """Idle and absolute lifetimes, in seconds; activity is recorded at most every
    ``touch_every`` seconds (fewer writes)."""

    idle_seconds: float = 2 * 3600.0
    absolute_seconds: float = 7 * 24 * 3600.0
    touch_every: float = 60.0

    def __post_init__(self) -> None:
        if not 0 < self.idle_seconds <= self.absolute_seconds:
            raise ValueError("0 < idle_seconds <= absolute_seconds")
