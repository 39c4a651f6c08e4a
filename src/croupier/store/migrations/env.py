"""Alembic environment for croupier's schema, run programmatically by :func:`migrate`.

The caller passes an open connection in ``config.attributes["connection"]``; nothing here
reads ``alembic.ini`` or configures logging. Imported outside Alembic (doctest collection)
it does nothing.
"""

from __future__ import annotations

from alembic import context

from croupier.store.schema import metadata


def run_migrations() -> None:
    """Run the pending migrations on the connection the caller provided."""
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:
    run_migrations()
