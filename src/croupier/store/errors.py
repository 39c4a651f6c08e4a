"""Store errors: every refusal is a :class:`ValueError` with a stable ``code``; nothing changed.

>>> err = InsufficientFundsError("insufficient_funds", "user:1:chips holds 5, needs 10")
>>> err.code, isinstance(err, StoreError), isinstance(err, ValueError)
('insufficient_funds', True, True)
"""

from __future__ import annotations

from croupier.engine.errors import CodedError

__all__ = [
    "IdempotencyConflictError",
    "InsufficientFundsError",
    "InvalidTransferError",
    "NotFoundError",
    "StoreError",
    "UnsupportedDatabaseError",
]


class StoreError(CodedError):
    """Base of store errors. ``code`` is stable and meant for clients; the message reads well."""

    code = "store_error"


class UnsupportedDatabaseError(StoreError):
    """A database URL that is neither ``sqlite://`` nor ``postgresql://``."""

    code = "unsupported_database"


class InvalidTransferError(StoreError):
    """A transfer that is malformed: amounts not integers, not balanced per currency, …"""

    code = "invalid_transfer"


class InsufficientFundsError(StoreError):
    """A transfer would make a balance negative; nothing moved."""

    code = "insufficient_funds"


class IdempotencyConflictError(StoreError):
    """An idempotency key reused for a different request; nothing moved."""

    code = "idempotency_conflict"


class NotFoundError(StoreError):
    """No such record (hand, transfer, user)."""

    code = "not_found"
