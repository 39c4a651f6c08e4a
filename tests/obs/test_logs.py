"""Structured logging (croupier.logs): one logger per package, text or JSON lines, and the
lines the room writes for table crashes, refused commands and store retries."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Any

import pytest
import sqlalchemy as sa

from croupier import logs
from croupier.bots import BotRunner, RuleBot
from croupier.server.settings import Settings, SettingsError
from croupier.store.db import Database
from croupier.table import TableCrashed
from croupier.table.commands import Act
from croupier.table.testing import Harness


@pytest.fixture
def lines() -> Any:
    out = io.StringIO()
    logs.configure(level="INFO", fmt="json", stream=out)
    try:
        yield lambda: [json.loads(line) for line in out.getvalue().splitlines()]
    finally:
        logs.reset()


def test_text_and_json_forms() -> None:
    out = io.StringIO()
    logs.configure(level="WARNING", fmt="text", stream=out)
    try:
        log = logging.getLogger("croupier.store")
        log.info("not shown")
        log.warning("retried", extra={"event": "store_retry", "attempt": 2})
    finally:
        logs.reset()
    text = out.getvalue()
    assert "not shown" not in text
    assert "WARNING croupier.store: retried event=store_retry attempt=2" in text
    with pytest.raises(ValueError, match="log format"):
        logs.configure(fmt="xml")
    with pytest.raises(SettingsError) as err:
        Settings(log_format="xml")
    assert err.value.code == "bad_log_format"


def test_table_crash_and_refusals_are_logged(lines: Any) -> None:
    """A crashed table actor writes one ``table_crashed`` line with its traceback; a
    refused command one ``command_refused`` line with its code."""

    fired = []
    codes: list[str] = []

    def fault(point: str) -> None:
        if point == "engine_applied" and not fired:
            fired.append(point)
            raise TableCrashed("injected")

    async def body() -> None:
        h = await Harness.create(faults=fault)
        refused = await h.actor.submit(Act("x1", "nobody", "fold"))
        assert not refused.accepted and refused.code not in ("", "ok")
        codes.append(refused.code)
        for i in range(3):
            assert (await BotRunner(h.actor, f"b{i}", RuleBot(), clock=h.clock).join(200)).accepted
        await h.clock.run_until(lambda: not h.actor.alive, limit=10_000)
        await h.actor.stop()

    asyncio.run(body())
    got = lines()
    crash = [x for x in got if x.get("event") == "table_crashed"]
    assert len(crash) == 1 and crash[0]["level"] == "ERROR"
    assert (
        crash[0]["logger"] == "croupier.table" and "TableCrashed: injected" in crash[0]["exception"]
    )
    refusals = [x for x in got if x.get("event") == "command_refused"]
    assert [x["code"] for x in refusals][:1] == [codes[0]]


def test_store_retries_are_logged(lines: Any, tmp_path: Any) -> None:
    """A retried transaction (a lock timeout) writes a ``store_retry`` warning."""
    db = Database.open(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    calls = []

    def work(conn: sa.Connection) -> int:
        calls.append(1)
        if len(calls) == 1:
            raise sa.exc.OperationalError("BEGIN", {}, Exception("database is locked"))
        return 7

    assert db.run(work) == 7
    db.close()
    retry = [x for x in lines() if x.get("event") == "store_retry"]
    assert len(retry) == 1 and retry[0]["attempt"] == 1 and retry[0]["backend"] == "sqlite"
