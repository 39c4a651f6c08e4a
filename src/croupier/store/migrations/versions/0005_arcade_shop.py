"""The points shop: items bought with arcade points and what each player equips.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``shop_items`` and ``shop_equipped``."""
    op.create_table(
        "shop_items",
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("item_id", sa.String(64), nullable=False),
        sa.Column("price", sa.BigInteger(), nullable=False),
        sa.Column("transfer_id", BigId, nullable=False),
        sa.Column("bought_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_shop_items_user_id_users"),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["transfers.id"], name="fk_shop_items_transfer_id_transfers"
        ),
        sa.PrimaryKeyConstraint("user_id", "item_id", name="pk_shop_items"),
    )
    op.create_table(
        "shop_equipped",
        sa.Column("user_id", BigId, nullable=False),
        sa.Column("slot", sa.String(16), nullable=False),
        sa.Column("item_id", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_shop_equipped_user_id_users"),
        sa.PrimaryKeyConstraint("user_id", "slot", name="pk_shop_equipped"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("shop_equipped")
    op.drop_table("shop_items")
