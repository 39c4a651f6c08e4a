"""Initial schema: users, sessions, login failures, ledger, hand journal, hand archive.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "users",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("experience", sa.BigInteger(), nullable=False),
        sa.Column("hands_played", sa.BigInteger(), nullable=False),
        sa.Column("hands_won", sa.BigInteger(), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("last_seen_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("revoked_ms", sa.BigInteger(), nullable=True),
        sa.Column("ip", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_sessions_user_id_users"),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("scope", sa.String(8), nullable=False),
        sa.Column("subject", sa.String(128), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_login_failures"),
    )
    op.create_index("ix_login_failures_lookup", "login_failures", ["scope", "subject", "at_ms"])
    op.create_table(
        "ledger_accounts",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("currency", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("table_id", sa.String(100), nullable=True),
        sa.Column("allow_negative", sa.Boolean(), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_accounts"),
        sa.UniqueConstraint("key", name="uq_ledger_accounts_key"),
    )
    op.create_index("ix_ledger_accounts_user_id", "ledger_accounts", ["user_id"])
    op.create_index("ix_ledger_accounts_table_id", "ledger_accounts", ["table_id"])
    op.create_table(
        "transfers",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("idem_key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("memo", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_transfers"),
        sa.UniqueConstraint("idem_key", name="uq_transfers_idem_key"),
    )
    op.create_table(
        "entries",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("transfer_id", BigId, nullable=False),
        sa.Column("account_id", BigId, nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_entries"),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["transfers.id"], name="fk_entries_transfer_id_transfers"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["ledger_accounts.id"], name="fk_entries_account_id_ledger_accounts"
        ),
    )
    op.create_index("ix_entries_transfer_id", "entries", ["transfer_id"])
    op.create_index("ix_entries_account_id", "entries", ["account_id"])
    op.create_table(
        "hands",
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("hand_id", sa.String(100), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(200), nullable=False),
        sa.Column("button", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("salt", sa.String(128), nullable=False),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("ended_ms", sa.BigInteger(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("transfer_id", BigId, nullable=True),
        sa.PrimaryKeyConstraint("table_id", "hand_id", name="pk_hands"),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["transfers.id"], name="fk_hands_transfer_id_transfers"
        ),
    )
    op.create_index("ix_hands_status", "hands", ["status"])
    op.create_table(
        "table_journal",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_table_journal"),
    )
    op.create_index("ix_table_journal_table", "table_journal", ["table_id", "id"])
    op.create_table(
        "hand_archive",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("hand_id", sa.String(100), nullable=False),
        sa.Column("ended_ms", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(200), nullable=False),
        sa.Column("phh", sa.Text(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_hand_archive"),
        sa.UniqueConstraint("table_id", "hand_id", name="uq_hand_archive_table_hand"),
    )
    op.create_index("ix_hand_archive_table_id", "hand_archive", ["table_id"])
    op.create_table(
        "hand_players",
        sa.Column("archive_id", BigId, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("archive_id", "user_id", name="pk_hand_players"),
        sa.ForeignKeyConstraint(
            ["archive_id"], ["hand_archive.id"], name="fk_hand_players_archive_id_hand_archive"
        ),
    )
    op.create_index("ix_hand_players_user", "hand_players", ["user_id", "archive_id"])


def downgrade() -> None:
    """Drop every table."""
    for name in (
        "hand_players",
        "hand_archive",
        "table_journal",
        "hands",
        "entries",
        "transfers",
        "ledger_accounts",
        "login_failures",
        "sessions",
        "users",
    ):
        op.drop_table(name)
