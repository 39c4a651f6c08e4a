"""User rows, session rows and login failures in SQL (the accounts service's repository).

The rules (names, passwords, expiry, throttling, levels) live in :mod:`croupier.accounts`;
this module only reads and writes.

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> users = SqlUsers(db)
>>> alice = users.create_user("Alice", "alice", "hash", "player", 0)
>>> users.user_by_name_key("alice").name
'Alice'
>>> users.create_user("ALICE", "alice", "hash", "player", 0)
Traceback (most recent call last):
...
croupier.store.errors.StoreError: the name 'ALICE' is taken
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from croupier.store.db import MAX_OR_TERMS, Database, case_by, chunked, numbered, padded
from croupier.store.errors import NotFoundError, StoreError
from croupier.store.schema import login_failures, sessions, users

__all__ = ["HandCredit", "SessionRecord", "SqlUsers", "UserRecord", "experience_moves"]


@dataclass(frozen=True, slots=True)
class UserRecord:
    """A stored user."""

    id: int
    name: str
    kind: str
    password_hash: str | None
    created_ms: int
    experience: int
    hands_played: int
    hands_won: int
    disabled: bool


@dataclass(frozen=True, slots=True)
class HandCredit:
    """What one account earns from one hand: experience and hand counts.

    >>> HandCredit(15, played=1, won=1)
    HandCredit(experience=15, played=1, won=1)
    """

    experience: int
    played: int = 1
    won: int = 0


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A stored session: only the SHA-256 of the token is kept."""

    token_hash: str
    user_id: int
    created_ms: int
    last_seen_ms: int
    expires_ms: int
    revoked_ms: int | None = None
    ip: str | None = None


def _sum_credits(credits: Iterable[Mapping[int, HandCredit]]) -> dict[int, HandCredit]:
    """The credits of many hands, summed per account."""
    totals: dict[int, HandCredit] = {}
    for hand in credits:
        for uid, c in hand.items():
            t = totals.get(uid, HandCredit(0, 0, 0))
            totals[uid] = HandCredit(
                t.experience + c.experience, t.played + c.played, t.won + c.won
            )
    return totals


@functools.cache
def _add_credits(size: int) -> sa.Update:
    """Add ``x0``, ``p0`` and ``w0`` to account ``u0``'s experience, hands played and
    hands won, ``x1``… to ``u1``'s, … (``size`` accounts), the rows locked in id order
    first (PostgreSQL: ``FOR UPDATE`` in the subquery; SQLite has one writer): one
    statement, built once per size (:func:`~croupier.store.db.padded`). Built per call, its
    expression objects were most of the room's steady cyclic garbage (issue #16)."""
    ids = numbered("u", size, sa.BigInteger())

    def added(column: sa.Column[int], name: str) -> sa.ColumnElement[int]:
        return column + case_by(users.c.id, ids, name, sa.BigInteger(), 0)

    row = users.alias("locked")
    locked = sa.select(row.c.id).where(row.c.id.in_(ids)).order_by(row.c.id).with_for_update()
    return (
        users.update()
        .where(users.c.id.in_(locked.scalar_subquery()))
        .values(
            experience=added(users.c.experience, "x"),
            hands_played=added(users.c.hands_played, "p"),
            hands_won=added(users.c.hands_won, "w"),
        )
        .returning(*users.c)  # the accounts as updated: no second statement to read them
    )


def experience_moves(
    updated: Mapping[int, UserRecord], credits: Iterable[Mapping[int, HandCredit]]
) -> dict[int, tuple[int, int]]:
    """Each account of ``updated`` (as :meth:`SqlUsers.credit_many_in` returned it) with
    its experience before and after ``credits`` (what it credited).

    >>> ann = UserRecord(7, "Ann", "player", None, 0, 110, 1, 0, False)
    >>> experience_moves({7: ann}, [{7: HandCredit(15)}])
    {7: (95, 110)}
    """
    added = _sum_credits(credits)
    return {
        uid: (user.experience - (added[uid].experience if uid in added else 0), user.experience)
        for uid, user in updated.items()
    }


def _update_users(
    conn: sa.Connection, totals: Mapping[int, HandCredit], *, strict: bool = True
) -> dict[int, UserRecord]:
    """One ``UPDATE`` adding ``totals`` to their accounts (:func:`_add_credits`); the
    accounts as updated. :class:`NotFoundError` names an unknown account (``strict``;
    otherwise it is left out)."""
    ids = sorted(totals)
    each = padded(ids)
    params: dict[str, int] = {}
    for i, uid in enumerate(each):
        credit = totals[uid]
        params.update(
            {f"u{i}": uid, f"x{i}": credit.experience, f"p{i}": credit.played, f"w{i}": credit.won}
        )
    updated = {int(row.id): _user(row) for row in conn.execute(_add_credits(len(each)), params)}
    if strict and len(updated) != len(ids):
        missing = [uid for uid in ids if uid not in updated]
        raise NotFoundError(f"no user {missing[0] if missing else ids[0]}")
    return updated


def _user(row: sa.Row[tuple[object, ...]]) -> UserRecord:
    m = row._mapping
    return UserRecord(
        id=int(m["id"]),
        name=str(m["name"]),
        kind=str(m["kind"]),
        password_hash=None if m["password_hash"] is None else str(m["password_hash"]),
        created_ms=int(m["created_ms"]),
        experience=int(m["experience"]),
        hands_played=int(m["hands_played"]),
        hands_won=int(m["hands_won"]),
        disabled=bool(m["disabled"]),
    )


class SqlUsers:
    """The SQL repository of users, sessions and login failures."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- users ------------------------------------------------------------------------

    def create_user(
        self, name: str, name_key: str, password_hash: str | None, kind: str, created_ms: int
    ) -> UserRecord:
        """Insert a user; ``name_taken`` if ``name_key`` exists."""
        values = {
            "name": name,
            "name_key": name_key,
            "password_hash": password_hash,
            "kind": kind,
            "created_ms": created_ms,
            "experience": 0,
            "hands_played": 0,
            "hands_won": 0,
            "disabled": False,
        }

        def work(conn: sa.Connection) -> UserRecord:
            taken = conn.execute(sa.select(users.c.id).where(users.c.name_key == name_key)).first()
            if taken is not None:
                raise StoreError("name_taken", f"the name {name!r} is taken")
            new_id = conn.execute(users.insert().returning(users.c.id), values).scalar_one()
            return _user(conn.execute(sa.select(users).where(users.c.id == new_id)).one())

        try:
            return self._db.run(work)
        except sa.exc.IntegrityError:
            raise StoreError("name_taken", f"the name {name!r} is taken") from None

    def user(self, user_id: int) -> UserRecord | None:
        """A user by id."""
        row = self._db.run(
            lambda c: c.execute(sa.select(users).where(users.c.id == user_id)).first()
        )
        return None if row is None else _user(row)

    def user_by_name_key(self, name_key: str) -> UserRecord | None:
        """A user by normalized name."""
        stmt = sa.select(users).where(users.c.name_key == name_key)
        row = self._db.run(lambda c: c.execute(stmt).first())
        return None if row is None else _user(row)

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        """Replace a user's password hash (rehash with stronger parameters)."""
        stmt = users.update().where(users.c.id == user_id).values(password_hash=password_hash)
        self._db.run(lambda c: c.execute(stmt))

    def add_experience(self, user_id: int, experience: int, played: int, won: int) -> UserRecord:
        """Add experience and hand counts; returns the updated user."""
        return self.credit({user_id: HandCredit(experience, played, won)})[user_id]

    def credit(self, credits: Mapping[int, HandCredit]) -> dict[int, UserRecord]:
        """:meth:`credit_in` in its own transaction."""
        return self._db.run(lambda conn: self.credit_in(conn, credits))

    def credit_in(
        self, conn: sa.Connection, credits: Mapping[int, HandCredit]
    ) -> dict[int, UserRecord]:
        """Add each account's experience and hand counts inside the caller's transaction;
        returns the updated users. An unknown account raises :class:`NotFoundError` (the
        transaction rolls back). One hand's credits: :meth:`credit_many_in`."""
        return self.credit_many_in(conn, [credits])

    def credit_many_in(
        self,
        conn: sa.Connection,
        credits: Iterable[Mapping[int, HandCredit]],
        *,
        strict: bool = True,
    ) -> dict[int, UserRecord]:
        """Add the credits of many hands inside the caller's transaction, summed per
        account: one ``UPDATE … RETURNING`` (a ``CASE`` per column) per
        :data:`~croupier.store.db.MAX_OR_TERMS` accounts, their rows locked in id order
        (one lock order for every writer). Returns the updated users. An unknown account
        raises :class:`NotFoundError` (the transaction rolls back), or with ``strict``
        false is left out (a table's settlement credits the accounts there are).

        >>> from croupier.store.db import Database
        >>> db = Database.open("sqlite://"); _ = db.migrate()
        >>> users = SqlUsers(db)
        >>> ann = users.create_user("Ann", "ann", None, "player", 0)
        >>> hands = [{ann.id: HandCredit(15, won=1)}, {ann.id: HandCredit(10)}]
        >>> r = db.run(lambda conn: users.credit_many_in(conn, hands))[ann.id]
        >>> r.experience, r.hands_played, r.hands_won
        (25, 2, 1)
        """
        totals = _sum_credits(credits)
        updated: dict[int, UserRecord] = {}
        for part in chunked(sorted(totals), MAX_OR_TERMS):
            updated.update(_update_users(conn, {uid: totals[uid] for uid in part}, strict=strict))
        return updated

    # -- sessions ---------------------------------------------------------------------

    def add_session(self, record: SessionRecord) -> None:
        """Store a new session."""
        values = {
            "token_hash": record.token_hash,
            "user_id": record.user_id,
            "created_ms": record.created_ms,
            "last_seen_ms": record.last_seen_ms,
            "expires_ms": record.expires_ms,
            "revoked_ms": record.revoked_ms,
            "ip": record.ip,
        }
        self._db.run(lambda c: c.execute(sessions.insert(), values))

    def session(self, token_hash: str) -> SessionRecord | None:
        """A session by token hash."""
        stmt = sa.select(sessions).where(sessions.c.token_hash == token_hash)
        row = self._db.run(lambda c: c.execute(stmt).first())
        if row is None:
            return None
        m = row._mapping
        return SessionRecord(
            token_hash=m["token_hash"],
            user_id=int(m["user_id"]),
            created_ms=int(m["created_ms"]),
            last_seen_ms=int(m["last_seen_ms"]),
            expires_ms=int(m["expires_ms"]),
            revoked_ms=None if m["revoked_ms"] is None else int(m["revoked_ms"]),
            ip=m["ip"],
        )

    def touch_session(self, token_hash: str, at_ms: int) -> None:
        """Record activity on a session (idle expiry counts from here)."""
        stmt = (
            sessions.update().where(sessions.c.token_hash == token_hash).values(last_seen_ms=at_ms)
        )
        self._db.run(lambda c: c.execute(stmt))

    def revoke_session(self, token_hash: str, at_ms: int) -> bool:
        """Revoke one session; False if it was unknown or already revoked."""
        stmt = (
            sessions.update()
            .where(sessions.c.token_hash == token_hash, sessions.c.revoked_ms.is_(None))
            .values(revoked_ms=at_ms)
        )
        return bool(self._db.run(lambda c: c.execute(stmt).rowcount))

    def revoke_user_sessions(self, user_id: int, at_ms: int) -> int:
        """Revoke every live session of a user; returns how many."""
        stmt = (
            sessions.update()
            .where(sessions.c.user_id == user_id, sessions.c.revoked_ms.is_(None))
            .values(revoked_ms=at_ms)
        )
        return int(self._db.run(lambda c: c.execute(stmt).rowcount))

    # -- login failures ---------------------------------------------------------------

    def add_failure(self, scope: str, subject: str, at_ms: int) -> None:
        """Record one failed login for ``scope`` (``account`` or ``ip``) and ``subject``."""
        values = {"scope": scope, "subject": subject[:128], "at_ms": at_ms}
        self._db.run(lambda c: c.execute(login_failures.insert(), values))

    def failures_since(self, scope: str, subject: str, since_ms: int) -> list[int]:
        """The times (ms) of failures since ``since_ms``, oldest first."""
        stmt = (
            sa.select(login_failures.c.at_ms)
            .where(
                login_failures.c.scope == scope,
                login_failures.c.subject == subject[:128],
                login_failures.c.at_ms >= since_ms,
            )
            .order_by(login_failures.c.at_ms)
        )
        return [int(v) for v in self._db.run(lambda c: c.execute(stmt).scalars().all())]

    def clear_failures(self, scope: str, subject: str) -> None:
        """Forget the failures of one subject (after a successful login)."""
        stmt = login_failures.delete().where(
            login_failures.c.scope == scope, login_failures.c.subject == subject[:128]
        )
        self._db.run(lambda c: c.execute(stmt))

    def reserve_attempt(
        self,
        checks: Sequence[tuple[str, str, int]],
        at_ms: int,
        refuse: Callable[[Sequence[Sequence[int]]], bool],
    ) -> Sequence[Sequence[int]] | None:
        """Check the login throttles and count one attempt, in one transaction: with the
        failures since ``since_ms`` of each ``(scope, subject, since_ms)`` of ``checks``,
        ``refuse(failures)`` says whether to refuse; if not, a failure is recorded at
        ``at_ms`` for each scope/subject (the caller forgets them if the password is
        right). Returns the failures when refused, else ``None``.

        Across processes the step is atomic too: PostgreSQL takes a transaction advisory
        lock per subject (in a fixed order, so no deadlock); SQLite writes first, which
        serialises the transactions that reserve."""

        def work(conn: sa.Connection) -> Sequence[Sequence[int]] | None:
            if self._db.backend.name == "postgresql":
                for scope, subject, _ in sorted(checks):
                    conn.execute(
                        sa.text("SELECT pg_advisory_xact_lock(hashtext(:k))"),
                        {"k": f"login:{scope}:{subject[:128]}"},
                    )
            else:
                # Take SQLite's write lock before reading: a concurrent reserve waits.
                conn.execute(login_failures.delete().where(login_failures.c.at_ms < 0))
            found = [
                [
                    int(v)
                    for v in conn.execute(
                        sa.select(login_failures.c.at_ms)
                        .where(
                            login_failures.c.scope == scope,
                            login_failures.c.subject == subject[:128],
                            login_failures.c.at_ms >= since,
                        )
                        .order_by(login_failures.c.at_ms)
                    ).scalars()
                ]
                for scope, subject, since in checks
            ]
            if refuse(found):
                return found
            conn.execute(
                login_failures.insert(),
                [{"scope": sc, "subject": su[:128], "at_ms": at_ms} for sc, su, _ in checks],
            )
            return None

        return self._db.run(work)

    def remove_failure(self, scope: str, subject: str, at_ms: int) -> None:
        """Forget the failure recorded at ``at_ms`` (a login attempt counted before its
        password check, which then succeeded)."""
        stmt = login_failures.delete().where(
            login_failures.c.scope == scope,
            login_failures.c.subject == subject[:128],
            login_failures.c.at_ms == at_ms,
        )
        self._db.run(lambda c: c.execute(stmt))

    def has_session_from(self, user_id: int, ip: str) -> bool:
        """Whether ``user_id`` ever logged in from address ``ip`` (a session row remembers it)."""
        stmt = (
            sa.select(sessions.c.token_hash)
            .where(sessions.c.user_id == user_id, sessions.c.ip == ip[:64])
            .limit(1)
        )
        return self._db.run(lambda c: c.execute(stmt).first()) is not None

    def prune_failures(self, before_ms: int) -> int:
        """Delete failures older than ``before_ms``; returns how many."""
        stmt = login_failures.delete().where(login_failures.c.at_ms < before_ms)
        return int(self._db.run(lambda c: c.execute(stmt).rowcount))
