"""Table leases: the process that owns each table in a room of several processes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_leases``."""
    op.create_table(
        "table_leases",
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("owner", sa.String(100), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("url", sa.String(300), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("info", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_table_leases"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("table_leases")
