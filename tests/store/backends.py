"""Test databases: a fresh SQLite file, or a fresh schema in the PostgreSQL named by
``CROUPIER_TEST_POSTGRES_URL`` (``scripts/postgres.sh`` starts one and prints its URL).

Without that variable the PostgreSQL half is skipped, with a message, except under CI
(env ``CI`` set) where it fails: CI must test PostgreSQL.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

BACKENDS = ("sqlite", "postgresql")
ENV = "CROUPIER_TEST_POSTGRES_URL"


def postgres_base_url() -> str:
    """The PostgreSQL URL for tests, or skip/fail as the environment says."""
    url = os.environ.get(ENV, "")
    if url:
        return url
    message = (
        f"{ENV} is not set: start PostgreSQL with `bash scripts/postgres.sh` and export "
        f"{ENV}=<the URL it prints>"
    )
    if os.environ.get("CI"):
        pytest.fail(f"CI must test PostgreSQL: {message}", pytrace=False)
    pytest.skip(f"PostgreSQL half skipped: {message}")


@contextmanager
def database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A URL to an empty database of ``backend``, dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'croupier-test.sqlite3'}"
        return
    base = postgres_base_url()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in base else "?"
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.dispose()


class FakeClock:
    """A clock moved by hand (seconds since the epoch)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
