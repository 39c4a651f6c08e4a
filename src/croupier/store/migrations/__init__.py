"""Alembic migrations of the croupier schema (run by ``croupier.store.db.Database.migrate``)."""
