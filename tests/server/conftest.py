"""Databases for the server tests: a SQLite file, and PostgreSQL from
``CROUPIER_TEST_POSTGRES_URL`` (a fresh database per test; skipped with a message when the
variable is missing outside CI, a failure when ``CI`` is set)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.services import service_url


def _postgres_url() -> Iterator[str]:
    base = service_url("CROUPIER_TEST_POSTGRES_URL", "PostgreSQL", "bash scripts/postgres.sh")
    import psycopg

    name = f"croupier_srv_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    head, _, _ = base.rpartition("/")
    try:
        yield f"{head}/{name}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    else:
        yield from _postgres_url()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
