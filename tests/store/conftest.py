"""Fixtures: every store test runs against SQLite and PostgreSQL (the same contract)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.store import Store, open_store
from tests.store.backends import BACKENDS, FakeClock, database_url


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, tmp_path) as value:
        yield value


@pytest.fixture
def store(url: str, clock: FakeClock) -> Iterator[Store]:
    s = open_store(url, clock=clock)
    try:
        yield s
    finally:
        s.close()
