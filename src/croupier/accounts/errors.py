"""Account errors: a :class:`ValueError` with a stable ``code``; nothing changed.

>>> err = ThrottledError("too many failed logins", retry_after=60.0)
>>> err.code, err.retry_after, isinstance(err, AccountError)
('throttled', 60.0, True)
"""

from __future__ import annotations

from croupier.engine.errors import CodedError

__all__ = [
    "AccountError",
    "InvalidCredentialsError",
    "InvalidNameError",
    "InvalidPasswordError",
    "NameTakenError",
    "SessionError",
    "ThrottledError",
]


class AccountError(CodedError):
    """Base of account errors, built as ``Error(message)`` or ``Error(code, message)``."""

    code = "account_error"


class InvalidNameError(AccountError):
    """A user name that breaks the name rules."""

    code = "invalid_name"


class NameTakenError(AccountError):
    """The name (compared case-insensitively) belongs to someone else."""

    code = "name_taken"


class InvalidPasswordError(AccountError):
    """A password that breaks the length rules."""

    code = "invalid_password"


class InvalidCredentialsError(AccountError):
    """Unknown user or wrong password: the same error for both, on purpose."""

    code = "invalid_credentials"


class ThrottledError(AccountError):
    """Too many failed logins for this account or address; retry after ``retry_after`` s."""

    code = "throttled"

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SessionError(AccountError):
    """A session token that is unknown, revoked (``invalid_session``) or expired
    (``session_expired``)."""

    code = "invalid_session"
