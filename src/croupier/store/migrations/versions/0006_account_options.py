"""Table options per account: four-colour deck, animations, sounds, auto-muck.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``account_options``."""
    op.create_table(
        "account_options",
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_account_options_user_id_users"),
        sa.PrimaryKeyConstraint("user_id", "name", name="pk_account_options"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("account_options")
