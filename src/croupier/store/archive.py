"""The hand archive: settled hands with their PHH text and a JSON summary, listed per
account (the server serves PHH and PokerStars-style downloads from it).

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> archive = HandArchive(db)
>>> hand = ArchivedHand("t1", "1", 1000, "nlhe 1/2", "variant = 'NT'", {"pot": 8},
...                     (HandPlayer(7, 0, 4), HandPlayer(8, 1, -4)))
>>> archive.add(hand)
>>> [h.hand_id for h in archive.for_account(7)], archive.get("t1", "1").summary
(['1'], {'pot': 8})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from croupier.store.db import MAX_OR_TERMS, MAX_PARAMETERS, Database, chunked
from croupier.store.errors import NotFoundError, StoreError
from croupier.store.schema import hand_archive, hand_players

__all__ = ["ArchivedHand", "HandArchive", "HandPlayer"]


@dataclass(frozen=True, slots=True)
class HandPlayer:
    """One account's part in an archived hand."""

    user_id: int
    seat: int
    net: int


@dataclass(frozen=True, slots=True)
class ArchivedHand:
    """A settled hand as archived. ``phh`` is the PHH text; ``summary`` is free JSON."""

    table_id: str
    hand_id: str
    ended_ms: int
    game: str
    phh: str
    summary: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[HandPlayer, ...] = ()
    number: int = 0
    """The archive's own number for the hand, unique across the room (0 before it is
    archived): the hand number of the PokerStars export."""


class HandArchive:
    """Archive and list settled hands."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def add(self, hand: ArchivedHand) -> None:
        """Archive a hand; archiving the same (table, hand) again is a no-op."""
        self._db.run(lambda conn: self.add_in(conn, hand))

    def add_in(self, conn: sa.Connection, hand: ArchivedHand) -> bool:
        """:meth:`add` inside the caller's transaction; ``False`` when the hand was
        already archived (nothing written)."""
        return self.add_many_in(conn, [hand])[0]

    def add_many_in(self, conn: sa.Connection, hands: Sequence[ArchivedHand]) -> list[bool]:
        """Archive many hands inside the caller's transaction, set-based: one select of
        those archived already, one multi-row insert of the new rows, one of their
        players (each in chunks under the database's parameter limits). Returns, for
        each hand in order, whether it was new: a hand archived already, or appearing
        again in ``hands``, is written once and is ``False`` after. Nothing is written
        when one hand is invalid (``invalid_hand``)."""
        for hand in hands:
            _validate(hand)
        first: dict[tuple[str, str], ArchivedHand] = {}
        for hand in hands:
            first.setdefault((hand.table_id, hand.hand_id), hand)
        archived = _archived_keys(conn, list(first))
        new = [hand for key, hand in first.items() if key not in archived]
        ids = _insert_rows(conn, new)
        _insert_players(conn, [(ids[(h.table_id, h.hand_id)], h) for h in new])
        fresh = {(h.table_id, h.hand_id): h for h in new}
        result = []
        for hand in hands:
            key = (hand.table_id, hand.hand_id)
            result.append(fresh.pop(key, None) is hand)
        return result

    def _load(self, conn: sa.Connection, rows: list[sa.Row[Any]]) -> list[ArchivedHand]:
        ids = [int(r.id) for r in rows]
        players: dict[int, list[HandPlayer]] = {i: [] for i in ids}
        if ids:
            for p in conn.execute(
                sa.select(hand_players)
                .where(hand_players.c.archive_id.in_(ids))
                .order_by(hand_players.c.seat)
            ):
                players[int(p.archive_id)].append(
                    HandPlayer(int(p.user_id), int(p.seat), int(p.net))
                )
        return [
            ArchivedHand(
                r.table_id,
                r.hand_id,
                int(r.ended_ms),
                r.game,
                r.phh,
                dict(r.summary),
                tuple(players[int(r.id)]),
                int(r.id),
            )
            for r in rows
        ]

    def get(self, table_id: str, hand_id: str) -> ArchivedHand:
        """One archived hand."""

        def work(conn: sa.Connection) -> list[ArchivedHand]:
            rows = conn.execute(
                sa.select(hand_archive).where(
                    hand_archive.c.table_id == table_id, hand_archive.c.hand_id == hand_id
                )
            ).all()
            return self._load(conn, list(rows))

        found = self._db.run(work)
        if not found:
            raise NotFoundError(f"no archived hand {table_id}/{hand_id}")
        return found[0]

    def for_account(
        self, user_id: int, *, limit: int = 50, before_ms: int | None = None
    ) -> list[ArchivedHand]:
        """An account's hands, newest first (``before_ms`` pages back)."""
        if not 0 < limit <= 1000:
            raise StoreError("invalid_limit", "limit is 1 to 1000")
        stmt = (
            sa.select(hand_archive)
            .join(hand_players, hand_players.c.archive_id == hand_archive.c.id)
            .where(hand_players.c.user_id == user_id)
        )
        if before_ms is not None:
            stmt = stmt.where(hand_archive.c.ended_ms < before_ms)
        stmt = stmt.order_by(hand_archive.c.ended_ms.desc(), hand_archive.c.id.desc()).limit(limit)
        return self._db.run(lambda conn: self._load(conn, list(conn.execute(stmt).all())))

    def for_table(self, table_id: str, *, limit: int = 50) -> list[ArchivedHand]:
        """A table's hands, newest first."""
        if not 0 < limit <= 1000:
            raise StoreError("invalid_limit", "limit is 1 to 1000")
        stmt = (
            sa.select(hand_archive)
            .where(hand_archive.c.table_id == table_id)
            .order_by(hand_archive.c.ended_ms.desc(), hand_archive.c.id.desc())
            .limit(limit)
        )
        return self._db.run(lambda conn: self._load(conn, list(conn.execute(stmt).all())))


def _validate(hand: ArchivedHand) -> None:
    """Refuse a hand the archive cannot hold (``invalid_hand``)."""
    if not hand.table_id or not hand.hand_id or len(hand.table_id) > 100 or len(hand.hand_id) > 100:
        raise StoreError("invalid_hand", "table and hand ids are 1 to 100 characters")
    users = [p.user_id for p in hand.players]
    if len(set(users)) != len(users):
        raise StoreError("invalid_hand", "an account appears twice in one hand")


def _archived_keys(conn: sa.Connection, keys: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
    """Which (table, hand) pairs of ``keys`` are archived already: one select per
    :data:`MAX_OR_TERMS` pairs, an ``OR`` of equalities that SQLite answers from the unique
    index (a row-value ``IN`` would scan the whole table)."""
    t, h = hand_archive.c.table_id, hand_archive.c.hand_id
    found: set[tuple[str, str]] = set()
    for part in chunked(keys, MAX_OR_TERMS):
        stmt = sa.select(t, h).where(sa.or_(*(sa.and_(t == a, h == b) for a, b in part)))
        found.update((str(r.table_id), str(r.hand_id)) for r in conn.execute(stmt))
    return found


def _insert_rows(conn: sa.Connection, hands: Sequence[ArchivedHand]) -> dict[tuple[str, str], int]:
    """Insert the archive rows of ``hands`` (new, distinct) with multi-row inserts;
    their ids by (table, hand) (the order of ``RETURNING`` is not guaranteed)."""
    ids: dict[tuple[str, str], int] = {}
    columns = 6
    for part in chunked(hands, MAX_PARAMETERS // columns):
        rows = [
            {
                "table_id": hand.table_id,
                "hand_id": hand.hand_id,
                "ended_ms": hand.ended_ms,
                "game": hand.game,
                "phh": hand.phh,
                "summary": dict(hand.summary),
            }
            for hand in part
        ]
        # a list of rows with RETURNING: one INSERT of many rows (SQLAlchemy's
        # "insertmanyvalues"), compiled once rather than once per batch
        stmt = hand_archive.insert().returning(
            hand_archive.c.id, hand_archive.c.table_id, hand_archive.c.hand_id
        )
        for r in conn.execute(stmt, rows):
            ids[(str(r.table_id), str(r.hand_id))] = int(r.id)
    return ids


def _insert_players(conn: sa.Connection, rows: Sequence[tuple[int, ArchivedHand]]) -> None:
    """Insert the players of newly archived hands (``(archive id, hand)``), with
    multi-row inserts."""
    players = [
        {"archive_id": archive_id, "user_id": p.user_id, "seat": p.seat, "net": p.net}
        for archive_id, hand in rows
        for p in hand.players
    ]
    columns = 4
    for part in chunked(players, MAX_PARAMETERS // columns):
        conn.execute(hand_players.insert().returning(hand_players.c.archive_id), list(part))
