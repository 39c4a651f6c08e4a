"""Casino rounds: the Texas Hold'em Bonus round journal (croupier.store.casino).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create casino_rounds."""
    op.create_table(
        "casino_rounds",
        sa.Column("table_id", sa.String(100), nullable=False),
        sa.Column("round_id", sa.String(64), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("ended_ms", sa.BigInteger(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("transfer_id", BigId, nullable=True),
        sa.PrimaryKeyConstraint("table_id", "round_id", name="pk_casino_rounds"),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["transfers.id"], name="fk_casino_rounds_transfer_id_transfers"
        ),
    )
    op.create_index("ix_casino_rounds_status", "casino_rounds", ["status"])


def downgrade() -> None:
    """Drop casino_rounds."""
    op.drop_index("ix_casino_rounds_status", table_name="casino_rounds")
    op.drop_table("casino_rounds")
