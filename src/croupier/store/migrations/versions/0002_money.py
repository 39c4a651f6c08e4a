"""Money: all-in protections per account (R-TIME-2) and server boots (R-CRASH-1 audit).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Add ``protection_uses`` and ``server_boots``."""
    op.create_table(
        "protection_uses",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_protection_uses"),
    )
    op.create_index("ix_protection_uses_user", "protection_uses", ["user_id", "at_ms"])
    op.create_index("ix_protection_uses_at", "protection_uses", ["at_ms"])
    op.create_table(
        "server_boots",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("boot_id", sa.String(64), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("journal_mark", sa.BigInteger(), nullable=False),
        sa.Column("recovered_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_server_boots"),
        sa.UniqueConstraint("boot_id", name="uq_server_boots_boot_id"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("server_boots")
    op.drop_index("ix_protection_uses_at", table_name="protection_uses")
    op.drop_index("ix_protection_uses_user", table_name="protection_uses")
    op.drop_table("protection_uses")
