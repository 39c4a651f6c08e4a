"""The SQL schema (SQLAlchemy 2 Core tables), shared by SQLite and PostgreSQL.

Times are integer milliseconds since the Unix epoch (``*_ms``), chips and other currencies
are integers. The Alembic migrations in ``croupier/store/migrations`` create exactly these
tables (a test compares them).

>>> {"entries", "transfers", "ledger_accounts", "hand_archive"} <= set(metadata.tables)
True
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = [
    "casino_rounds",
    "entries",
    "hand_archive",
    "hand_players",
    "hands",
    "ledger_accounts",
    "login_failures",
    "metadata",
    "protection_uses",
    "server_boots",
    "sessions",
    "shop_equipped",
    "shop_items",
    "table_journal",
    "table_leases",
    "tournament_entries",
    "tournaments",
    "transfers",
    "users",
]

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING)

#: Big integers that still autoincrement on SQLite (which only does it for INTEGER keys).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("name_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("created_ms", sa.BigInteger(), nullable=False),
    sa.Column("experience", sa.BigInteger(), nullable=False),
    sa.Column("hands_played", sa.BigInteger(), nullable=False),
    sa.Column("hands_won", sa.BigInteger(), nullable=False),
    sa.Column("disabled", sa.Boolean(), nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", BigId, sa.ForeignKey("users.id"), nullable=False, index=True),
    sa.Column("created_ms", sa.BigInteger(), nullable=False),
    sa.Column("last_seen_ms", sa.BigInteger(), nullable=False),
    sa.Column("expires_ms", sa.BigInteger(), nullable=False),
    sa.Column("revoked_ms", sa.BigInteger(), nullable=True),
    sa.Column("ip", sa.String(64), nullable=True),
)

login_failures = sa.Table(
    "login_failures",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("scope", sa.String(8), nullable=False),
    sa.Column("subject", sa.String(128), nullable=False),
    sa.Column("at_ms", sa.BigInteger(), nullable=False),
    sa.Index("ix_login_failures_lookup", "scope", "subject", "at_ms"),
)

ledger_accounts = sa.Table(
    "ledger_accounts",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(200), nullable=False, unique=True),
    sa.Column("currency", sa.String(16), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("user_id", sa.BigInteger(), nullable=True, index=True),
    sa.Column("table_id", sa.String(100), nullable=True, index=True),
    sa.Column("allow_negative", sa.Boolean(), nullable=False),
    sa.Column("balance", sa.BigInteger(), nullable=False),
    sa.Column("created_ms", sa.BigInteger(), nullable=False),
)

transfers = sa.Table(
    "transfers",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("idem_key", sa.String(200), nullable=False, unique=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("request_hash", sa.String(64), nullable=False),
    sa.Column("created_ms", sa.BigInteger(), nullable=False),
    sa.Column("memo", sa.JSON(), nullable=False),
)

entries = sa.Table(
    "entries",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("transfer_id", BigId, sa.ForeignKey("transfers.id"), nullable=False, index=True),
    sa.Column("account_id", BigId, sa.ForeignKey("ledger_accounts.id"), nullable=False, index=True),
    sa.Column("amount", sa.BigInteger(), nullable=False),
)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("table_id", sa.String(100), primary_key=True),
    sa.Column("hand_id", sa.String(100), primary_key=True),
    sa.Column("started_ms", sa.BigInteger(), nullable=False),
    sa.Column("game", sa.String(200), nullable=False),
    sa.Column("button", sa.Integer(), nullable=False),
    sa.Column("seats", sa.JSON(), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("salt", sa.String(128), nullable=False),
    sa.Column("deck", sa.Text(), nullable=False),
    sa.Column("status", sa.String(8), nullable=False, index=True),
    sa.Column("ended_ms", sa.BigInteger(), nullable=True),
    sa.Column("outcome", sa.JSON(), nullable=True),
    sa.Column("transfer_id", BigId, sa.ForeignKey("transfers.id"), nullable=True),
)

table_journal = sa.Table(
    "table_journal",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(100), nullable=False),
    sa.Column("type", sa.String(32), nullable=False),
    sa.Column("body", sa.JSON(), nullable=False),
    sa.Column("at_ms", sa.BigInteger(), nullable=False),
    sa.Index("ix_table_journal_table", "table_id", "id"),
)

hand_archive = sa.Table(
    "hand_archive",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(100), nullable=False, index=True),
    sa.Column("hand_id", sa.String(100), nullable=False),
    sa.Column("ended_ms", sa.BigInteger(), nullable=False),
    sa.Column("game", sa.String(200), nullable=False),
    sa.Column("phh", sa.Text(), nullable=False),
    sa.Column("summary", sa.JSON(), nullable=False),
    sa.UniqueConstraint("table_id", "hand_id", name="uq_hand_archive_table_hand"),
)

hand_players = sa.Table(
    "hand_players",
    metadata,
    sa.Column("archive_id", BigId, sa.ForeignKey("hand_archive.id"), primary_key=True),
    sa.Column("user_id", sa.BigInteger(), primary_key=True),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("net", sa.BigInteger(), nullable=False),
    sa.Index("ix_hand_players_user", "user_id", "archive_id"),
)

protection_uses = sa.Table(
    "protection_uses",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.BigInteger(), nullable=False),
    sa.Column("table_id", sa.String(100), nullable=False),
    sa.Column("at_ms", sa.BigInteger(), nullable=False),
    sa.Index("ix_protection_uses_user", "user_id", "at_ms"),
    sa.Index("ix_protection_uses_at", "at_ms"),
)

server_boots = sa.Table(
    "server_boots",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("boot_id", sa.String(64), nullable=False, unique=True),
    sa.Column("started_ms", sa.BigInteger(), nullable=False),
    sa.Column("journal_mark", sa.BigInteger(), nullable=False),
    sa.Column("recovered_ms", sa.BigInteger(), nullable=True),
)

# -- tournaments (migration 0003) ------------------------------------------------------------

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("root", sa.String(64), nullable=False, index=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("buy_in", sa.BigInteger(), nullable=False),
    sa.Column("recurring", sa.Boolean(), nullable=False),
    sa.Column("spec", sa.JSON(), nullable=False),
    sa.Column("state", sa.JSON(), nullable=True),
    sa.Column("created_ms", sa.BigInteger(), nullable=False),
    sa.Column("updated_ms", sa.BigInteger(), nullable=False),
)

tournament_entries = sa.Table(
    "tournament_entries",
    metadata,
    sa.Column("entry_id", sa.String(64), primary_key=True),
    sa.Column("tournament_id", sa.String(64), nullable=False, index=True),
    sa.Column("player_id", sa.String(64), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("is_bot", sa.Boolean(), nullable=False),
    sa.Column("idem_key", sa.String(200), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("position", sa.Integer(), nullable=False),
    sa.Column("created_ms", sa.BigInteger(), nullable=False),
)

# -- casino (migration 0004) ----------------------------------------------------------------

casino_rounds = sa.Table(
    "casino_rounds",
    metadata,
    sa.Column("table_id", sa.String(100), primary_key=True),
    sa.Column("round_id", sa.String(64), primary_key=True),
    sa.Column("started_ms", sa.BigInteger(), nullable=False),
    sa.Column("record", sa.JSON(), nullable=False),
    sa.Column("status", sa.String(8), nullable=False, index=True),
    sa.Column("ended_ms", sa.BigInteger(), nullable=True),
    sa.Column("outcome", sa.JSON(), nullable=True),
    sa.Column("transfer_id", BigId, sa.ForeignKey("transfers.id"), nullable=True),
)
"""One row per Texas Hold'em Bonus round (``croupier.store.casino``): the seats, bets and
deck commitment at the start, ``open`` → ``settled`` | ``void``, the settlement transfer."""

# The points shop (migration 0005): items bought with points, one row per (player, item);
# ``transfer_id`` is the purchase (points to ``house:points_shop``).
shop_items = sa.Table(
    "shop_items",
    metadata,
    sa.Column("user_id", BigId, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("item_id", sa.String(64), primary_key=True),
    sa.Column("price", sa.BigInteger(), nullable=False),
    sa.Column("transfer_id", BigId, sa.ForeignKey("transfers.id"), nullable=False),
    sa.Column("bought_ms", sa.BigInteger(), nullable=False),
)

# What each player shows at the table: one item per slot (no row: the slot's default).
shop_equipped = sa.Table(
    "shop_equipped",
    metadata,
    sa.Column("user_id", BigId, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("slot", sa.String(16), primary_key=True),
    sa.Column("item_id", sa.String(64), nullable=False),
)

# Table options per account (migration 0006): one row per option the player set (no row:
# the option's default, e.g. animations follow the device's reduced-motion setting).
account_options = sa.Table(
    "account_options",
    metadata,
    sa.Column("user_id", BigId, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.Boolean(), nullable=False),
)

# Table leases (migration 0007): which server process owns a table, in a room of several
# processes on one database (store/leases.py). ``epoch`` grows at each change of owner and
# every journal write checks it (fencing).

table_leases = sa.Table(
    "table_leases",
    metadata,
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("owner", sa.String(100), nullable=False),
    sa.Column("epoch", sa.BigInteger(), nullable=False),
    sa.Column("url", sa.String(300), nullable=False),
    sa.Column("expires_ms", sa.BigInteger(), nullable=False),
    sa.Column("info", sa.JSON(), nullable=False),
)
