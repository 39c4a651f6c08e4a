"""The table journal in SQL (R-CRASH-1): :class:`SqlJournal` implements the table's
:class:`croupier.table.journal.Journal` port.

Every record is appended to ``table_journal`` in its own committed transaction, so
``append`` returns only once the record is durable (the actor publishes after that).
Hand boundaries are also kept in ``hands`` (one row per hand: the seats and starting
stacks, the button, the deck commitment, the deck and salt for later verification, and
the status ``open`` → ``settled`` | ``void``), which is what recovery and the audit read.

With a ledger, a seat map that stands players up (``SeatsRecord.cash_outs``) pays them
from their table escrow in the same transaction, and a hand's settlement moves chips between the players' table escrow
sub-accounts (and the rake to the house) **in the same transaction** as the settlement
record: a hand is either settled in both the journal and the ledger, or in neither. A
voided (or interrupted, then voided) hand moved nothing, so every escrow is exactly what
it was at the hand's start. Appending the end of an already settled hand is a no-op: no
hand is ever paid twice.

>>> from croupier.store.db import Database
>>> from croupier.table.journal import SeatsRecord
>>> from croupier.table.seating import Seat
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> journal = SqlJournal(db, clock=lambda: 0.0)
>>> journal.append("t1", SeatsRecord((Seat(0, "7", stack=100),), "sit"))
>>> journal.records("t1")[0].seats[0].stack
100
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from croupier.store.db import MAX_OR_TERMS, Clock, Database, chunked, now_ms, padded
from croupier.store.errors import NotFoundError, StoreError
from croupier.store.leases import Fence
from croupier.store.ledger import (
    HOUSE_LEVY,
    HOUSE_RAKE,
    Ledger,
    Leg,
    TransferRequest,
    cash_out_legs,
    settlement_legs,
)
from croupier.store.schema import hands, table_journal
from croupier.store.users import HandCredit, SqlUsers, experience_moves
from croupier.table import codec
from croupier.table.codec import CodecError
from croupier.table.journal import (
    HandEndRecord,
    HandStartRecord,
    HandVoidRecord,
    Record,
    SeatsRecord,
)

__all__ = ["SqlJournal", "decode_record", "encode_record", "user_id_of"]

log = logging.getLogger("croupier.store")

_Encoded = tuple[str, Record, str, dict[str, Any]]
"""A record to write: (table id, record, its codec name, its JSON body)."""


def _started(table_id: str, record: HandStartRecord, now: int) -> dict[str, Any]:
    """The ``hands`` row a hand's start opens."""
    return {
        "table_id": table_id,
        "hand_id": str(record.hand_no),
        "started_ms": now,
        "game": "",
        "button": record.button,
        "seats": {"players": list(record.players), "stacks": list(record.stacks)},
        "commitment": record.commitment,
        "salt": record.salt.hex(),
        "deck": " ".join(str(int(c)) for c in record.deck),
        "status": "open",
        "ended_ms": None,
        "outcome": None,
        "transfer_id": None,
    }


def _hand_keys(size: int) -> sa.ColumnElement[bool]:
    """``hands`` rows by (table, hand id), ``size`` of them bound as ``t0``, ``h0``, …: an
    ``OR`` of the primary key's equalities, which SQLite answers from the index (a
    row-value ``IN`` scans the table)."""
    return sa.or_(
        *(
            sa.and_(
                hands.c.table_id == sa.bindparam(f"t{i}"), hands.c.hand_id == sa.bindparam(f"h{i}")
            )
            for i in range(size)
        )
    )


@functools.cache
def _select_hands(size: int) -> sa.Select[Any]:
    """The rows of ``size`` hands (built once per size: see :func:`padded`)."""
    return sa.select(hands).where(_hand_keys(size)).order_by(hands.c.table_id, hands.c.hand_id)


@functools.cache
def _delete_hands(size: int) -> sa.Delete:
    """Delete ``size`` hands (built once per size)."""
    return hands.delete().where(_hand_keys(size))


def _hand_params(keys: Sequence[tuple[str, str]]) -> dict[str, str]:
    params: dict[str, str] = {}
    for i, (table_id, hand_id) in enumerate(keys):
        params[f"t{i}"] = table_id
        params[f"h{i}"] = hand_id
    return params


def user_id_of(player_id: str) -> int:
    """The default mapping of a table's player id to an account id: the id itself.

    >>> user_id_of("42")
    42
    """
    try:
        value = int(player_id)
    except ValueError:
        raise StoreError(
            "unknown_player", f"player {player_id!r} has no account to settle against"
        ) from None
    if value <= 0:
        raise StoreError("unknown_player", f"player {player_id!r} has no account")
    return value


def encode_record(record: Record) -> tuple[str, dict[str, Any]]:
    """A record as (stable name, JSON body) by the table's codec (:mod:`croupier.table.codec`).

    >>> from croupier.table.journal import HandVoidRecord
    >>> encode_record(HandVoidRecord(3, (), "misdeal"))
    ('HandVoidRecord', {'__type__': 'HandVoidRecord', 'hand_no': 3, 'seats': [], 'reason': 'misdeal', '__v__': 1})
    """
    try:
        return codec.encode_record(record)
    except CodecError as exc:
        raise StoreError(exc.code, str(exc)) from None


def decode_record(kind: str, body: dict[str, Any]) -> Record:
    """The inverse of :func:`encode_record` (reads every earlier version too)."""
    try:
        record: Record = codec.decode_record(kind, body)
    except CodecError as exc:
        raise StoreError(exc.code, str(exc)) from None
    return record


class SqlJournal:
    """The table journal on SQLite or PostgreSQL, optionally settling hands in the ledger.

    ``user_of`` maps a table's player id to the account whose escrow holds their chips. A
    hand's rake goes to ``house:rake``, an arcade levy (the hand's record says which) to
    ``house:levy``.
    """

    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        ledger: Ledger | None = None,
        user_of: Callable[[str], int] = user_id_of,
        fence: Fence | None = None,
        users: SqlUsers | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._ledger = ledger
        self._user_of = user_of
        self._fence = fence
        """The leases of this process (store/leases.py): a table it leased is written
        only while it still holds the lease, checked in each write's transaction."""
        self._users = users
        self.hand_credits: Callable[[Mapping[int, bool]], Mapping[int, HandCredit]] | None = None
        """What each account dealt in earns from a hand (``{account: won}``; the server
        sets the accounts' rule, R-SEAT-2): with it and ``users``, a hand's settlement
        credits its players' experience **in the same transaction** (a crash after the
        settlement loses no experience; a settlement written again credits nothing)."""
        self.level_rewards: Callable[[int, int, int], Sequence[TransferRequest]] | None = None
        """The transfers an account earns as its experience goes from ``before`` to
        ``after`` (``(account, before, after)``: the level-up rewards, each under its own
        key; the server sets the room's rule): written in the same transaction as the
        experience, so a level reached is rewarded whatever happens after the commit."""
        self.on_credited: Callable[[Mapping[int, tuple[int, int]]], None] | None = None
        """Called after a committed write that credited experience, with each account's
        experience ``(before, after)`` the write (the server's level-ups). Runs on the
        writing thread; an error in it is logged, the write stands."""

    @property
    def turn(self) -> contextlib.AbstractContextManager[Any]:
        """The database's write turn (``Database.serial``): held around each of its
        transactions, re-entrant; on SQLite one writer at a time across the room's
        processes, on PostgreSQL nothing."""
        return self._db.serial

    @property
    def one_writer(self) -> bool:
        """Whether the database writes one transaction at a time (SQLite): a writer
        holding :attr:`turn` holds up every other, whatever it writes."""
        return self._db.backend.name == "sqlite"

    def append(self, table_id: str, record: Record) -> None:
        """Write ``record`` durably (and settle or void the hand it closes)."""
        self.append_many(((table_id, record),))

    def append_many(self, items: Sequence[tuple[str, Record]]) -> None:
        """Write several tables' records in one transaction (one commit, one fsync): the
        group commit of :class:`~croupier.store.groupcommit.GroupCommitJournal`. All or
        nothing. The records mean what they would appended one by one, in order; the
        group is written set-wise (:meth:`_write`)."""
        encoded = []
        for table_id, record in items:
            if not isinstance(table_id, str) or not 0 < len(table_id) <= 100:
                raise StoreError("invalid_table_id", "a table id is 1 to 100 characters")
            encoded.append((table_id, record, *encode_record(record)))
        if not encoded:
            return
        credited = self._db.run(lambda conn: self._write(conn, encoded))
        if credited and self.on_credited is not None:
            try:
                self.on_credited(credited)
            except Exception:  # the hands are written: their experience stands
                log.exception("announcing the experience of %d accounts failed", len(credited))

    def _write(
        self, conn: sa.Connection, encoded: Sequence[_Encoded]
    ) -> dict[int, tuple[int, int]]:
        """The records ``encoded`` in the transaction ``conn``, in a few statements for
        the whole group rather than a dozen or more per record (issue #16: a store thread
        gives up the GIL around every statement and waits behind the event loop to get it
        back): the leases read once, the hands read once, every ledger transfer of the
        group by :meth:`Ledger.transfers_in`, the hands it starts or closes written by one
        delete and one insert, the journal's rows by one insert, the experience of the
        hands it settles by one update. Each record is checked in order against the state
        the records before it left, as if appended alone. Returns each credited account's
        experience ``(before, after)``."""
        now = now_ms(self._clock)
        if self._fence is not None:
            self._fence.check_many(conn, (t for t, *_ in encoded), self._db.backend)
        hand_keys = [
            (t, str(r.hand_no))
            for t, r, *_ in encoded
            if isinstance(r, HandStartRecord | HandEndRecord | HandVoidRecord)
        ]
        known = self._hands(conn, hand_keys)
        written: dict[tuple[str, str], dict[str, Any]] = {}  # rows to (re)write
        stored = set(known)  # rows in the database before this group
        requests: list[TransferRequest] = []
        paid_by: dict[tuple[str, str], int] = {}  # a closed hand → its transfer request
        journal_rows: list[dict[str, Any]] = []
        credits: list[Mapping[int, HandCredit]] = []  # one per hand settled here
        for table_id, record, kind, body in encoded:
            if isinstance(record, HandStartRecord):
                key = (table_id, str(record.hand_no))
                row = known.get(key)
                if row is not None:
                    if row["commitment"] != record.commitment:
                        raise StoreError(
                            "hand_exists",
                            f"hand {table_id}/{key[1]} was started with another deck",
                        )
                    continue  # the same start again: already durable
                known[key] = written[key] = _started(table_id, record, now)
            elif isinstance(record, HandEndRecord | HandVoidRecord):
                key = (table_id, str(record.hand_no))
                row = known.get(key)
                if row is None:
                    raise NotFoundError(f"hand {table_id}/{key[1]} was never started")
                legs = self._close(table_id, row, record, now)
                if legs is None:
                    continue  # already closed: nothing is written, paid or credited twice
                written[key] = row
                if isinstance(record, HandEndRecord):
                    credits.append(self._credits(row, record))
                if legs:
                    paid_by[key] = len(requests)
                    requests.append(
                        TransferRequest(
                            "settle",
                            f"settle:{table_id}:{key[1]}",
                            legs,
                            {"table": table_id, "hand": key[1]},
                        )
                    )
            elif isinstance(record, SeatsRecord) and self._ledger is not None:
                # A player standing up is paid in the same transaction as the seat map that
                # removes them; the table's later Bank.cash_out with the same ref is a replay.
                for out in record.cash_outs:
                    requests.append(
                        TransferRequest(
                            "cash_out",
                            f"bank:{table_id}:{out.ref}",
                            cash_out_legs(table_id, self._user_of(out.player_id), out.amount),
                            {"table": table_id},
                        )
                    )
            journal_rows.append({"table_id": table_id, "type": kind, "body": body, "at_ms": now})
        if requests:
            assert self._ledger is not None
            done = self._ledger.transfers_in(conn, requests)
            for key, index in paid_by.items():
                written[key]["transfer_id"] = done[index].id
        rewritten = [key for key in written if key in stored]
        for keys in chunked(rewritten, MAX_OR_TERMS):
            keys = padded(keys)
            conn.execute(_delete_hands(len(keys)), _hand_params(keys))
        # A list of rows with RETURNING is SQLAlchemy's "insertmanyvalues": one INSERT of
        # many rows (a page of 1,000 at most), compiled once, not one per row.
        if written:
            conn.execute(hands.insert().returning(hands.c.hand_id), list(written.values()))
        if journal_rows:
            conn.execute(table_journal.insert().returning(table_journal.c.id), journal_rows)
        return self._credit(conn, credits)

    def _credits(self, row: dict[str, Any], record: HandEndRecord) -> Mapping[int, HandCredit]:
        """What the accounts dealt in the settled hand ``row`` earn (bots, by the seat map
        the settlement carries, earn nothing)."""
        if self.hand_credits is None or self._users is None:
            return {}
        bots = {s.player_id for s in record.seats if s.is_bot}
        won = {
            int(pid): net > 0
            for pid, net in zip(row["seats"]["players"], row["outcome"]["nets"], strict=True)
            if pid not in bots and pid.isdigit()
        }
        return self.hand_credits(won) if won else {}

    def _credit(
        self, conn: sa.Connection, credits: Sequence[Mapping[int, HandCredit]]
    ) -> dict[int, tuple[int, int]]:
        """Credit the hands' ``credits`` in ``conn``: each account's experience before and
        after."""
        credits = [c for c in credits if c]
        if not credits or self._users is None:
            return {}
        updated = self._users.credit_many_in(conn, credits, strict=False)
        experience = experience_moves(updated, credits)
        if self.level_rewards is not None and self._ledger is not None:
            self._ledger.rewards_in(conn, experience, self.level_rewards)
        return experience

    def _hands(
        self, conn: sa.Connection, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """The rows of the hands ``keys`` (table, hand id) that exist, read (and on
        PostgreSQL locked) at once."""
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for part in chunked(sorted(set(keys)), MAX_OR_TERMS):
            part = padded(part)
            stmt = self._db.backend.lock(_select_hands(len(part)))
            for row in conn.execute(stmt, _hand_params(part)):
                found[(row.table_id, row.hand_id)] = dict(row._mapping)
        return found

    def _close(
        self,
        table_id: str,
        row: dict[str, Any],
        record: HandEndRecord | HandVoidRecord,
        now: int,
    ) -> list[Leg] | None:
        """Close the hand ``row`` (updated in place) by ``record``; the legs that settle it
        (empty: nothing moves), or ``None`` when it was closed the same way already."""
        hand_id = row["hand_id"]
        if row["status"] != "open":
            wanted = "settled" if isinstance(record, HandEndRecord) else "void"
            if row["status"] == wanted:
                return None
            raise StoreError("hand_closed", f"hand {table_id}/{hand_id} is already {row['status']}")
        legs: list[Leg] = []
        outcome: dict[str, Any]
        if isinstance(record, HandVoidRecord):
            outcome = {"reason": record.reason, "moved": False}
            status = "void"
        else:
            players = list(row["seats"]["players"])
            start = list(row["seats"]["stacks"])
            end = list(record.stacks)
            if len(end) != len(start):
                raise StoreError(
                    "bad_settlement",
                    f"hand {table_id}/{hand_id}: {len(end)} stacks for {len(start)} players",
                )
            nets = [e - s for e, s in zip(end, start, strict=True)]
            if sum(nets) + record.rake != 0:
                raise StoreError(
                    "bad_settlement",
                    f"hand {table_id}/{hand_id}: stacks change by {sum(nets)} with rake {record.rake}",
                )
            points = list(getattr(record, "points", None) or [])
            outcome = {"players": players, "nets": nets, "rake": record.rake, "points": points}
            if self._ledger is not None:
                users = [self._user_of(p) for p in players]
                by_user: dict[int, int] = {}
                pts: dict[int, int] = {}
                for i, uid in enumerate(users):
                    by_user[uid] = by_user.get(uid, 0) + nets[i]
                    if i < len(points):
                        pts[uid] = pts.get(uid, 0) + int(points[i])
                legs = settlement_legs(
                    table_id,
                    by_user,
                    record.rake,
                    pts,
                    rake_account=HOUSE_LEVY if record.levy else HOUSE_RAKE,
                )
                outcome["moved"] = bool(legs)
            status = "settled"
        row.update(status=status, ended_ms=now, outcome=outcome, transfer_id=None)
        return legs

    def records(self, table_id: str) -> Sequence[Record]:
        """Every record of a table, in the order appended."""
        stmt = (
            sa.select(table_journal.c.type, table_journal.c.body)
            .where(table_journal.c.table_id == table_id)
            .order_by(table_journal.c.id)
        )
        rows = self._db.run(lambda conn: conn.execute(stmt).all())
        return tuple(decode_record(r.type, r.body) for r in rows)

    def tables(self, *, after: int = 0) -> list[str]:
        """Every table that has a journal (with ``after``: a record after that record id)."""
        stmt = (
            sa.select(table_journal.c.table_id)
            .where(table_journal.c.id > after)
            .distinct()
            .order_by(table_journal.c.table_id)
        )
        return list(self._db.run(lambda conn: conn.execute(stmt).scalars().all()))

    def unsettled(self, table_id: str | None = None) -> list[tuple[str, int]]:
        """(table, hand number) of every hand started and neither settled nor voided."""
        stmt = sa.select(hands.c.table_id, hands.c.hand_id).where(hands.c.status == "open")
        if table_id is not None:
            stmt = stmt.where(hands.c.table_id == table_id)
        rows = self._db.run(lambda conn: conn.execute(stmt.order_by(hands.c.started_ms)).all())
        return [(r.table_id, int(r.hand_id)) for r in rows]

    def hand_status(self, table_id: str, hand_no: int) -> str:
        """``open``, ``settled`` or ``void``."""
        stmt = sa.select(hands.c.status).where(
            hands.c.table_id == table_id, hands.c.hand_id == str(hand_no)
        )
        status = self._db.run(lambda conn: conn.execute(stmt).scalar())
        if status is None:
            raise NotFoundError(f"hand {table_id}/{hand_no} was never started")
        return str(status)

    def hand_start(self, table_id: str, hand_no: int) -> HandStartRecord:
        """The journaled start of a hand (with its deck and salt, for verification)."""
        stmt = (
            sa.select(table_journal.c.body)
            .where(table_journal.c.table_id == table_id, table_journal.c.type == "HandStartRecord")
            .order_by(table_journal.c.id)
        )
        for body in self._db.run(lambda conn: conn.execute(stmt).scalars().all()):
            if int(body["hand_no"]) == hand_no:
                start = decode_record("HandStartRecord", body)
                assert isinstance(start, HandStartRecord)
                return start
        raise NotFoundError(f"hand {table_id}/{hand_no} was never started")
