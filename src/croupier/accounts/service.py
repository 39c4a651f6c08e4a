"""The accounts service: register, log in, log out, authenticate, experience (R-ACC-1).

Time comes from an injected clock (seconds), so tests never sleep.

>>> from croupier.store import open_store
>>> now = [1000.0]
>>> store = open_store("sqlite://", clock=lambda: now[0])
>>> accounts = Accounts(store.users, clock=lambda: now[0])
>>> ann = accounts.register("Ann", "correct horse battery")
>>> login = accounts.login("ann", "correct horse battery", ip="10.0.0.1")
>>> accounts.authenticate(login.token).name, ann.level
('Ann', 1)
>>> accounts.login("ann", "wrong password", ip="10.0.0.1")
Traceback (most recent call last):
...
croupier.accounts.errors.InvalidCredentialsError: unknown name or wrong password
>>> accounts.logout(login.token)
True
>>> accounts.authenticate(login.token)
Traceback (most recent call last):
...
croupier.accounts.errors.SessionError: this session has ended; log in again
>>> store.close()
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from croupier.accounts.errors import (
    InvalidCredentialsError,
    NameTakenError,
    SessionError,
    ThrottledError,
)
from croupier.accounts.levels import hand_experience, level_for
from croupier.accounts.names import (
    MAX_NAME,
    MAX_PASSWORD,
    check_name,
    check_password,
    name_key,
)
from croupier.accounts.passwords import PasswordHashing
from croupier.accounts.sessions import SessionPolicy, new_token, token_hash
from croupier.accounts.throttle import ThrottlePolicy
from croupier.store.db import Clock
from croupier.store.errors import StoreError
from croupier.store.users import HandCredit, SessionRecord, UserRecord

__all__ = ["Account", "Accounts", "Login", "UserRepository", "hand_credits"]


def hand_credits(results: Mapping[int, bool]) -> dict[int, HandCredit]:
    """What each account dealt in earns from one hand (``{account id: won}``; levels: R-SEAT-2).

    >>> hand_credits({7: True, 8: False})
    {7: HandCredit(experience=15, played=1, won=1), 8: HandCredit(experience=10, played=1, won=0)}
    """
    return {
        user_id: HandCredit(hand_experience(won=bool(won)), 1, 1 if won else 0)
        for user_id, won in results.items()
    }


class UserRepository(Protocol):
    """What the service needs from the store (:class:`croupier.store.SqlUsers` fits)."""

    def create_user(
        self, name: str, name_key: str, password_hash: str | None, kind: str, created_ms: int
    ) -> UserRecord: ...
    def user(self, user_id: int) -> UserRecord | None: ...
    def user_by_name_key(self, name_key: str) -> UserRecord | None: ...
    def set_password_hash(self, user_id: int, password_hash: str) -> None: ...
    def credit(self, credits: Mapping[int, HandCredit]) -> dict[int, UserRecord]: ...
    def add_session(self, record: SessionRecord) -> None: ...
    def session(self, token_hash: str) -> SessionRecord | None: ...
    def touch_session(self, token_hash: str, at_ms: int) -> None: ...
    def revoke_session(self, token_hash: str, at_ms: int) -> bool: ...
    def revoke_user_sessions(self, user_id: int, at_ms: int) -> int: ...
    def add_failure(self, scope: str, subject: str, at_ms: int) -> None: ...
    def failures_since(self, scope: str, subject: str, since_ms: int) -> list[int]: ...
    def clear_failures(self, scope: str, subject: str) -> None: ...
    def remove_failure(self, scope: str, subject: str, at_ms: int) -> None: ...
    def reserve_attempt(
        self,
        checks: Sequence[tuple[str, str, int]],
        at_ms: int,
        refuse: Callable[[Sequence[Sequence[int]]], bool],
    ) -> Sequence[Sequence[int]] | None: ...
    def has_session_from(self, user_id: int, ip: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Account:
    """A registered player (or bot) as the rest of the server sees it."""

    id: int
    name: str
    kind: str
    experience: int
    hands_played: int
    hands_won: int
    created_ms: int

    @property
    def level(self) -> int:
        """The level reached (see :mod:`croupier.accounts.levels`)."""
        return level_for(self.experience)

    @classmethod
    def of(cls, record: UserRecord) -> Account:
        return cls(
            id=record.id,
            name=record.name,
            kind=record.kind,
            experience=record.experience,
            hands_played=record.hands_played,
            hands_won=record.hands_won,
            created_ms=record.created_ms,
        )


@dataclass(frozen=True, slots=True)
class Login:
    """A successful login: the account and its new session token (shown once, never stored)."""

    account: Account
    token: str
    expires_at: float


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


class Accounts:
    """Registration, login, logout, sessions, throttling and experience."""

    def __init__(
        self,
        users: UserRepository,
        *,
        clock: Clock = time.time,
        hashing: PasswordHashing | None = None,
        sessions: SessionPolicy | None = None,
        account_throttle: ThrottlePolicy | None = None,
        ip_throttle: ThrottlePolicy | None = None,
        pair_throttle: ThrottlePolicy | None = None,
    ) -> None:
        self._users = users
        self._clock = clock
        self._hashing = hashing or PasswordHashing()
        self._sessions = sessions or SessionPolicy()
        self._pair_throttle = pair_throttle or ThrottlePolicy(5, 15 * 60.0)
        self._account_throttle = account_throttle or ThrottlePolicy(50, 3600.0)
        self._ip_throttle = ip_throttle or ThrottlePolicy(20, 15 * 60.0)
        self._gate = threading.Lock()
        """Makes "check the throttles, count the attempt" one step across threads."""

    # -- registration -----------------------------------------------------------------

    def register(self, name: str, password: str, *, kind: str = "player") -> Account:
        """A new account; ``invalid_name``, ``reserved_name``, ``invalid_password`` or
        ``name_taken`` otherwise."""
        clean = check_name(name)
        check_password(password, clean)
        if kind not in ("player", "bot"):
            raise ValueError("kind is 'player' or 'bot'")
        if self._users.user_by_name_key(name_key(clean)) is not None:
            raise NameTakenError(f"the name {clean!r} is taken")
        hashed = self._hashing.hash(password)
        try:
            record = self._users.create_user(
                clean, name_key(clean), hashed, kind, _ms(self._clock())
            )
        except StoreError as exc:
            if exc.code == "name_taken":
                raise NameTakenError(f"the name {clean!r} is taken") from None
            raise
        return Account.of(record)

    # -- login / logout ---------------------------------------------------------------

    def login(
        self, name: str, password: str, *, ip: str = "", previous_token: str | None = None
    ) -> Login:
        """Check the password and open a new session (``previous_token``, if any, is revoked:
        the token rotates at every login). Unknown name and wrong password raise the same
        ``invalid_credentials``; too many failures raise ``throttled``.

        Throttles (docs/security.md): failures per (name, address) pair, per address, and
        a slower global limit per name that does not apply from an address the owner has
        logged in from before (so a stranger cannot lock the owner out). Checking the
        throttles and counting the attempt are one atomic step: the attempt is counted as
        a failure *before* the password is checked, and forgotten if the password is
        right, so parallel guesses cannot all pass the check before any is recorded.
        """
        now = self._clock()
        subject = name_key(name) if isinstance(name, str) else ""
        usable = (
            isinstance(name, str)
            and isinstance(password, str)
            and 0 < len(subject) <= MAX_NAME
            and len(password) <= MAX_PASSWORD
        )
        pair = f"{subject}|{ip}"
        at = _ms(now)
        with self._gate:
            record = self._users.user_by_name_key(subject) if usable else None
            known = record is not None and bool(ip) and self._users.has_session_from(record.id, ip)
            rules: list[tuple[str, str, ThrottlePolicy | None]] = [
                ("pair", pair, self._pair_throttle),
                ("account", subject, None if known else self._account_throttle),
            ]
            if ip:
                rules.append(("ip", ip, self._ip_throttle))
            checks = [
                (scope, subj, _ms(now - (p or self._account_throttle).window_seconds))
                for scope, subj, p in rules
            ]

            def waits(found: Sequence[Sequence[int]]) -> list[float]:
                return [
                    w
                    for (_, _, p), times in zip(rules, found, strict=True)
                    if p is not None
                    and (w := p.retry_after([t / 1000 for t in times], now)) is not None
                ]

            refused = self._users.reserve_attempt(checks, at, lambda found: bool(waits(found)))
        if refused is not None:
            wait = max(waits(refused))
            raise ThrottledError(
                f"too many failed logins; try again in {int(wait) + 1} s", retry_after=wait
            )
        if record is None or record.password_hash is None or record.disabled:
            self._hashing.verify_dummy(password if isinstance(password, str) else "")
            ok = False
        else:
            ok = self._hashing.verify(record.password_hash, password)
        if not ok or record is None:
            raise InvalidCredentialsError("unknown name or wrong password")
        assert record.password_hash is not None
        self._users.clear_failures("pair", pair)
        self._users.remove_failure("account", subject, at)
        if ip:
            self._users.remove_failure("ip", ip, at)
        if self._hashing.needs_rehash(record.password_hash):
            self._users.set_password_hash(record.id, self._hashing.hash(password))
        if previous_token:
            self._users.revoke_session(token_hash(previous_token), _ms(now))
        return self._open_session(record, now, ip)

    def _open_session(self, record: UserRecord, now: float, ip: str) -> Login:
        token = new_token()
        expires = now + self._sessions.absolute_seconds
        self._users.add_session(
            SessionRecord(
                token_hash=token_hash(token),
                user_id=record.id,
                created_ms=_ms(now),
                last_seen_ms=_ms(now),
                expires_ms=_ms(expires),
                ip=ip or None,
            )
        )
        return Login(Account.of(record), token, expires)

    def logout(self, token: str) -> bool:
        """End a session; False if it was unknown or already ended."""
        if not isinstance(token, str) or not token:
            return False
        return self._users.revoke_session(token_hash(token), _ms(self._clock()))

    def logout_everywhere(self, user_id: int) -> int:
        """End every session of an account; returns how many."""
        return self._users.revoke_user_sessions(user_id, _ms(self._clock()))

    def rotate(self, token: str) -> Login:
        """Replace a live session's token by a new one (the old one stops working)."""
        account = self.authenticate(token)
        record = self._users.user(account.id)
        assert record is not None
        now = self._clock()
        self._users.revoke_session(token_hash(token), _ms(now))
        return self._open_session(record, now, "")

    # -- sessions ---------------------------------------------------------------------

    def authenticate(self, token: str) -> Account:
        """The account behind a live session token; ``invalid_session`` or
        ``session_expired`` otherwise. Records activity (idle expiry)."""
        if not isinstance(token, str) or not token or len(token) > 256:
            raise SessionError("this session has ended; log in again")
        hashed = token_hash(token)
        session = self._users.session(hashed)
        if session is None or session.revoked_ms is not None:
            raise SessionError("this session has ended; log in again")
        now = self._clock()
        now_ms = _ms(now)
        idle_limit = session.last_seen_ms + _ms(self._sessions.idle_seconds)
        if now_ms >= session.expires_ms or now_ms >= idle_limit:
            self._users.revoke_session(hashed, now_ms)
            raise SessionError("session_expired", "this session has expired; log in again")
        record = self._users.user(session.user_id)
        if record is None or record.disabled:
            raise SessionError("this session has ended; log in again")
        if now_ms - session.last_seen_ms >= _ms(self._sessions.touch_every):
            self._users.touch_session(hashed, now_ms)
        return Account.of(record)

    # -- experience -------------------------------------------------------------------

    def record_hand(self, results: Mapping[int, bool]) -> dict[int, Account]:
        """Credit experience for one hand, in one transaction: ``{account id: won}`` for
        each account dealt in. (A live table's hands are credited with their archive row,
        :meth:`croupier.store.Store.settle_hand`.)"""
        updated = self._users.credit(hand_credits(results))
        return {user_id: Account.of(record) for user_id, record in updated.items()}

    def account(self, user_id: int) -> Account | None:
        """An account by id."""
        record = self._users.user(user_id)
        return None if record is None else Account.of(record)
