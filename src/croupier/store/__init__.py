"""Persistence: one :class:`Store` interface over SQLite (default) and PostgreSQL.

``open_store(url)`` connects, runs the Alembic migrations and returns the users and
sessions repository, the double-entry :class:`Ledger` (chips, diamonds, points), the SQL
table journal (:class:`SqlJournal`, the table's ``Journal`` port), the hand archive and
the audit. See ``docs/storage.md``.
"""

from __future__ import annotations

from croupier.store.archive import ArchivedHand, HandArchive, HandPlayer
from croupier.store.audit import AuditReport, audit
from croupier.store.bank import LedgerBank
from croupier.store.db import DEFAULT_URL, ENV_URL, Clock, Database, default_url
from croupier.store.errors import (
    IdempotencyConflictError,
    InsufficientFundsError,
    InvalidTransferError,
    NotFoundError,
    StoreError,
    UnsupportedDatabaseError,
)
from croupier.store.journal import SqlJournal
from croupier.store.ledger import (
    Balances,
    Currency,
    Ledger,
    LedgerAccount,
    Leg,
    Transfer,
    escrow_account,
    settlement_legs,
    user_account,
)
from croupier.store.store import Store, open_store
from croupier.store.users import SessionRecord, SqlUsers, UserRecord

__all__ = [
    "DEFAULT_URL",
    "ENV_URL",
    "ArchivedHand",
    "AuditReport",
    "Balances",
    "Clock",
    "Currency",
    "Database",
    "HandArchive",
    "HandPlayer",
    "IdempotencyConflictError",
    "InsufficientFundsError",
    "InvalidTransferError",
    "Ledger",
    "LedgerAccount",
    "LedgerBank",
    "Leg",
    "NotFoundError",
    "SessionRecord",
    "SqlJournal",
    "SqlUsers",
    "Store",
    "StoreError",
    "Transfer",
    "UnsupportedDatabaseError",
    "UserRecord",
    "audit",
    "default_url",
    "escrow_account",
    "open_store",
    "settlement_legs",
    "user_account",
]
