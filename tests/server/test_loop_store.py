"""The database never blocks the event loop (issue #11), checked at its root: every store
transaction goes through ``Database.run``; while a player signs up, funds their account,
sits at a table with bots, plays, leaves (a cash-out), queues for a quick match, opens a
private table and reads their hands, and bot tables deal hands back to back, no
transaction runs on the server's event loop thread. A call that did is reported with
where it came from (the test fails on the code before issue #11's last changes: the
cash-out, the auto-muck option, the looks, the quick-match checks ran there).
"""

from __future__ import annotations

import asyncio
import threading
import traceback
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.store.db import Database
from tests.server.live import ORIGIN, Client, fast_settings, register_and_login, running
from tests.waiting import async_wait_until

TABLE = "nlhe-1-2"


class LoopProbe:
    """Wraps ``Database.run``: records the caller of every transaction run on ``thread``."""

    def __init__(self) -> None:
        self.original = Database.run
        self.thread: int | None = None
        self.calls = 0
        self.on_loop: list[str] = []

    def __call__(self, db: Database, work: Any) -> Any:
        self.calls += 1
        if self.thread is not None and threading.get_ident() == self.thread:
            frames = [
                f"{f.filename.split('/src/')[-1]}:{f.lineno} {f.name}"
                for f in traceback.extract_stack()[:-1]
                if "/src/croupier/" in f.filename and "/store/" not in f.filename
            ]
            self.on_loop.append(" < ".join(reversed(frames[-3:])))
        return self.original(db, work)


def test_no_store_transaction_runs_on_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = fast_settings(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_tables=2, casino_tables=0, welcome_diamonds=500
    )
    with running(settings) as srv:
        services = srv.app.state.services
        loop = services.tasks[0].get_loop()
        probe = LoopProbe()
        monkeypatch.setattr(Database, "run", lambda db, work: probe(db, work))
        probe.thread = asyncio.run_coroutine_threadsafe(_ident(), loop).result(10)
        token = register_and_login(srv.url, "looper")
        auth = {"Authorization": f"Bearer {token}", "Origin": ORIGIN}
        with httpx.Client(base_url=srv.url, headers=auth, timeout=30) as http:
            assert http.post(
                "/api/exchange", json={"diamonds": 400, "key": "loop-probe-1"}
            ).is_success
            me = http.get("/api/me").json()

            async def play() -> None:
                c = await Client.open(srv.ws_url, token)
                await c.send({"type": "subscribe", "table_id": TABLE})
                await c.expect("subscribed")
                ack = await c.command({"type": "sit", "table_id": TABLE, "buy_in": 200})
                assert ack["accepted"], ack
                live = services.registry.tables[TABLE]
                start = live.hands
                deadline = asyncio.get_running_loop().time() + 90
                while live.hands < start + 2:  # play two hands: check or fold when asked
                    assert asyncio.get_running_loop().time() < deadline, "two hands not played"
                    ev = (await c.recv(30)).get("event") or {}
                    if ev.get("type") == "turn" and ev.get("player_id") == str(me["id"]):
                        legal = (ev.get("view") or {}).get("legal") or {}
                        action = "check" if legal.get("can_check") else "fold"
                        await c.send(
                            {"type": "act", "table_id": TABLE, "action": action, "id": c.next_id()}
                        )
                assert (await c.command({"type": "leave", "table_id": TABLE}))["accepted"]
                await async_wait_until(
                    lambda: str(me["id"]) not in {s.player_id for s in _seats(srv, TABLE)},
                    60,
                    "the seat given up at the hand's end",
                )
                joined = await c.command({"type": "quick_match"})  # level and chips read
                assert joined["accepted"] or joined["code"] == "level_too_low", joined
                if joined["accepted"]:
                    assert (await c.command({"type": "quick_match", "cancel": True}))["accepted"]
                made = await c.command(
                    {"type": "create_private", "small_blind": 1, "big_blind": 2, "seats": 2}
                )
                assert made["accepted"], made  # a new table's journal, opened off the loop
                await c.close()

            asyncio.run(play())
            assert http.get("/api/hands").is_success
            assert http.get("/api/me").json()["chips"] > 0
    assert probe.calls > 20, "the probe saw no transaction"
    assert probe.on_loop == [], "\n".join(sorted(set(probe.on_loop)))


async def _ident() -> int:
    return threading.get_ident()


def _seats(srv: Any, table_id: str) -> list[Any]:
    return list(srv.app.state.services.registry.tables[table_id].actor.table.seats.values())
