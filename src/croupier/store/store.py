"""The one store interface, created from a URL: ``sqlite:///path`` (default
``sqlite:///croupier.sqlite3``, or ``$CROUPIER_DATABASE_URL``) or ``postgresql://…``.

Opening runs the Alembic migrations up to the newest revision.

>>> with open_store("sqlite://", clock=lambda: 0.0) as store:
...     user = store.users.create_user("Ann", "ann", None, "player", 0)
...     _ = store.ledger.grant_diamonds(user.id, 50, key="g1")
...     store.audit().ok, store.backend
(True, 'sqlite')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType

import sqlalchemy as sa

from croupier.store.archive import ArchivedHand, HandArchive
from croupier.store.audit import AuditReport, audit
from croupier.store.bank import LedgerBank
from croupier.store.boots import ServerBoots
from croupier.store.db import Clock, Database, default_url
from croupier.store.journal import SqlJournal
from croupier.store.leases import Fence, Leases
from croupier.store.ledger import Ledger, TransferRequest
from croupier.store.options import SqlOptions
from croupier.store.protections import SqlProtections
from croupier.store.shop import SqlShop
from croupier.store.users import HandCredit, SqlUsers, UserRecord, experience_moves

__all__ = ["SettledBatch", "Store", "open_store"]


@dataclass(frozen=True, slots=True)
class SettledBatch:
    """What :meth:`Store.settle_batch` wrote."""

    credited: tuple[bool, ...]
    """For each hand in order: whether its credits were added (its row was new, or it
    had none)."""
    users: dict[int, UserRecord]
    """The credited users, as they are after the whole batch."""
    moves: dict[int, tuple[int, int]]
    """Each credited user's experience before and after the batch."""

    def experience(
        self, items: Sequence[tuple[object, Mapping[int, HandCredit]]]
    ) -> dict[int, int]:
        """The experience the batch added to each account (``items``: the batch)."""
        added: dict[int, int] = {}
        for (_, credits), yes in zip(items, self.credited, strict=True):
            for uid, credit in credits.items() if yes else ():
                added[uid] = added.get(uid, 0) + credit.experience
        return added


@dataclass(frozen=True, slots=True)
class Store:
    """Everything persistent: users and sessions, the ledger, the table journal, the
    archive, the all-in protections, the server boots."""

    db: Database
    clock: Clock
    users: SqlUsers
    ledger: Ledger
    journal: SqlJournal
    archive: HandArchive
    revision: str
    protections: SqlProtections
    """All-in protections per account over 24 hours (R-TIME-2): the tables' quota port."""
    boots: ServerBoots
    """Server starts and their recovery (R-CRASH-1)."""
    options: SqlOptions
    """Table options per account (four-colour deck, sounds, auto-muck …)."""
    leases: Leases
    """Which process owns each table in a room of several processes (store/leases.py)."""
    fence: Fence
    """The leases this process holds, checked by every journal write, buy-in and cash-out
    of their tables (empty in a one-process room: nothing is checked)."""

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.db.backend.name

    def bank(self, table_id: str) -> LedgerBank:
        """The table's buy-in/cash-out port on the ledger."""
        return LedgerBank(self.ledger, table_id)

    @property
    def shop(self) -> SqlShop:
        """The points shop (purchases, inventory, equipment)."""
        return SqlShop(self.db, self.ledger, self.clock)

    def settle_hand(
        self, hand: ArchivedHand | None, credits: Mapping[int, HandCredit]
    ) -> dict[int, UserRecord]:
        """A settled hand's archive row (``None``: archived elsewhere, as a tournament's
        hands are with their director's state) and its players' experience in one
        transaction; returns the credited users. A hand archived already (the same
        table and hand again) credits nothing: experience is earned once per hand.

        >>> from croupier.store.archive import HandPlayer
        >>> with open_store("sqlite://", clock=lambda: 0.0) as store:
        ...     ann = store.users.create_user("Ann", "ann", None, "player", 0)
        ...     hand = ArchivedHand("t1", "1", 0, "nlhe", "", players=(HandPlayer(ann.id, 0, 3),))
        ...     first = store.settle_hand(hand, {ann.id: HandCredit(15, won=1)})
        ...     again = store.settle_hand(hand, {ann.id: HandCredit(15, won=1)})
        ...     first[ann.id].experience, again, store.users.user(ann.id).hands_played
        (15, {}, 1)
        """

        return self.settle_hands([(hand, credits)])

    def settle_hands(
        self, items: Sequence[tuple[ArchivedHand | None, Mapping[int, HandCredit]]]
    ) -> dict[int, UserRecord]:
        """:meth:`settle_hand` for many hands in one transaction; returns the credited
        users, as they are after every hand. See :meth:`settle_batch`."""
        return self.settle_batch(items).users

    def settle_batch(
        self,
        items: Sequence[tuple[ArchivedHand | None, Mapping[int, HandCredit]]],
        *,
        level_rewards: Callable[[int, int, int], Sequence[TransferRequest]] | None = None,
    ) -> SettledBatch:
        """Many settled hands' archive rows and credits in one transaction, set-based
        (:meth:`HandArchive.add_many_in`, :meth:`SqlUsers.credit_many_in`): a hand's
        credits count only when its row is new (a hand archived already, or again in
        ``items``, credits nothing) or when it has no row (``None``). With
        ``level_rewards`` (as ``SqlJournal.level_rewards``), the rewards of the levels the
        credits reach are granted in the same transaction. Any error writes nothing at
        all."""
        if not items:
            return SettledBatch((), {}, {})

        def work(conn: sa.Connection) -> SettledBatch:
            new = iter(self.archive.add_many_in(conn, [h for h, _ in items if h is not None]))
            credited = tuple(True if hand is None else next(new) for hand, _ in items)
            chosen = [c for (_, c), yes in zip(items, credited, strict=True) if yes]
            users = self.users.credit_many_in(conn, chosen)
            experience = experience_moves(users, chosen)
            if level_rewards is not None:
                self.ledger.rewards_in(conn, experience, level_rewards)
            return SettledBatch(credited, users, experience)

        return self.db.run(work)

    def audit(self) -> AuditReport:
        """Recompute every balance from the entries (see :mod:`croupier.store.audit`)."""
        return audit(self.db)

    def close(self) -> None:
        """Release the connections."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_store(
    url: str | None = None,
    *,
    clock: Clock = time.time,
    idle_in_transaction: float | None = None,
) -> Store:
    """Connect to ``url`` (default :func:`~croupier.store.db.default_url`), migrate, wire up.
    ``idle_in_transaction``: see :meth:`~croupier.store.backends.Backend.create_engine`
    (a room of several processes sets it)."""
    db = Database.open(url or default_url(), idle_in_transaction=idle_in_transaction)
    revision = db.migrate()
    fence = Fence()
    ledger = Ledger(db, clock, fence=fence)
    users = SqlUsers(db)
    journal = SqlJournal(db, clock, ledger=ledger, fence=fence, users=users)
    return Store(
        db=db,
        clock=clock,
        users=users,
        ledger=ledger,
        journal=journal,
        archive=HandArchive(db),
        revision=revision,
        protections=SqlProtections(db, clock),
        boots=ServerBoots(db, clock),
        options=SqlOptions(db),
        leases=Leases(db, clock),
        fence=fence,
    )
