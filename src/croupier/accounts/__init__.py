"""Accounts: registration, login and sessions, throttling, guests, levels (R-ACC-1, R-SEAT-2).

See ``docs/storage.md``. The service (:class:`Accounts`) works on any
:class:`UserRepository`; the SQL one is ``croupier.store.SqlUsers``.
"""

from __future__ import annotations

from croupier.accounts.errors import (
    AccountError,
    InvalidCredentialsError,
    InvalidNameError,
    InvalidPasswordError,
    NameTakenError,
    SessionError,
    ThrottledError,
)
from croupier.accounts.guests import Guest, may_watch
from croupier.accounts.levels import (
    ARCADE_MIN_LEVEL,
    experience_for_level,
    hand_experience,
    level_for,
    may_quick_match,
)
from croupier.accounts.passwords import PasswordHashing
from croupier.accounts.service import Account, Accounts, Login, UserRepository
from croupier.accounts.sessions import SessionPolicy
from croupier.accounts.throttle import ThrottlePolicy

__all__ = [
    "ARCADE_MIN_LEVEL",
    "Account",
    "AccountError",
    "Accounts",
    "Guest",
    "InvalidCredentialsError",
    "InvalidNameError",
    "InvalidPasswordError",
    "Login",
    "NameTakenError",
    "PasswordHashing",
    "SessionError",
    "SessionPolicy",
    "ThrottlePolicy",
    "ThrottledError",
    "UserRepository",
    "experience_for_level",
    "hand_experience",
    "level_for",
    "may_quick_match",
    "may_watch",
]
