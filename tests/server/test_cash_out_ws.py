"""A player's cash-out through the real server, paid off the event loop (issue #11).

A real uvicorn server (SQLite and PostgreSQL); a player buys chips, sits at a private
table over the WebSocket, leaves, sits again and leaves again. The table's bank is
wrapped so that each cash-out takes 200 ms (a slow database round trip) and records the
thread it ran on and whether the seat map naming it was durable then. The test checks,
on the player's layer and in the store:

* the Leave is acknowledged only once the player is paid: the HTTP account read right
  after the ack shows the chips back, nothing is left in the table's escrow;
* the payment ran on a worker thread, after its seat map was durable (R-CRASH-1), and
  the server's event loop kept running meanwhile (a probe on it is never late by more
  than the 200 ms of the payment, minus 20 ms);
* one ``cash_out`` ledger transfer per leave with the cash-out's own reference, a
  ``CashOutDone`` journaled for each, nothing pending for a restart, and the ledger audit
  clean.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx

from croupier.store import open_store
from croupier.table.journal import CashOutDone, SeatsRecord, plan_recovery
from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login, running

STALL = 0.200
BOUND = 0.020


class StalledBank:
    """The table's bank, each cash-out ``seconds`` slower (on the thread that pays)."""

    def __init__(self, inner: Any, records: Any, table_id: str, seconds: float) -> None:
        self.inner = inner
        self.records = records
        self.table_id = table_id
        self.seconds = seconds
        self.calls: list[tuple[str, int, bool]] = []
        """(ref, thread id, seat map durable) per cash-out."""

    def buy_in(self, player_id: str, amount: int, ref: str) -> bool:
        return bool(self.inner.buy_in(player_id, amount, ref))

    def cash_out(self, player_id: str, amount: int, ref: str) -> None:
        durable = any(
            isinstance(r, SeatsRecord) and any(co.ref == ref for co in r.cash_outs)
            for r in self.records(self.table_id)
        )
        self.calls.append((ref, threading.get_ident(), durable))
        time.sleep(self.seconds)
        self.inner.cash_out(player_id, amount, ref)


async def _probe(stop: threading.Event) -> float:
    """On the server's loop: the largest lateness of a 5 ms sleep until ``stop``."""
    worst = 0.0
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.005)
        worst = max(worst, time.perf_counter() - before - 0.005)
    return worst


def _http(base: str, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=base, headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"}, timeout=30
    )


def test_a_leave_is_paid_off_the_loop_before_it_is_acknowledged(database_url: str) -> None:
    """R-CRASH-1, R-SEAT-1 (issue #11): sit, leave, sit, leave over the WebSocket with a
    200 ms cash-out; the balance is right at each ack, the loop never stalls, the ledger
    and journal agree and the audit is clean."""
    settings = fast_settings(database_url, default_tables=False, casino_tables=0)
    with running(settings) as srv:
        result = _scenario(srv)
    table_id, refs, user_id = result
    with open_store(database_url) as store:
        assert store.audit().ok, store.audit()
        assert store.ledger.escrow(table_id) == {}
        for ref in refs:
            transfer = store.ledger.get_transfer(f"bank:{table_id}:{ref}")
            assert transfer is not None and transfer.kind == "cash_out", ref
        records = store.journal.records(table_id)
        done = [r.ref for r in records if isinstance(r, CashOutDone)]
        assert done == refs
        assert plan_recovery(records).pending_cash_outs == ()
        assert store.ledger.balances(user_id).chips == 300


def _scenario(srv: LiveServer) -> tuple[str, list[str], int]:
    services = srv.app.state.services
    loop = services.tasks[0].get_loop()
    registry = services.registry
    token = register_and_login(srv.url, "leaver")
    with _http(srv.url, token) as h:
        r = h.post("/api/exchange", json={"diamonds": 300, "key": "ex-leaver-1"})
        assert r.status_code == 200, r.text
        user_id = int(r.json()["id"])

    def on_loop(coro: Any) -> asyncio.Future[Any]:
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))

    async def loop_thread() -> int:
        return threading.get_ident()

    async def go() -> tuple[str, list[str]]:
        server_thread = await on_loop(loop_thread())
        c = await Client.open(srv.ws_url, token)
        made = await c.command({"type": "create_private", "seats": 2})
        assert made["accepted"], made
        table_id, code = made["data"]["table_id"], made["data"]["code"]
        table = registry.tables[table_id].actor.table
        bank = StalledBank(table.bank, registry.journal.inner.records, table_id, STALL)
        table.bank = bank
        await c.send({"type": "subscribe", "table_id": table_id, "code": code})
        await c.expect("subscribed")
        refs: list[str] = []
        worst: list[float] = []
        for n in range(2):
            sat = await c.command(
                {"type": "sit", "table_id": table_id, "buy_in": 120, "code": code}
            )
            assert sat["accepted"], sat
            with _http(srv.url, token) as h:
                assert h.get("/api/me").json()["chips"] == 180
            stop = threading.Event()
            probe = on_loop(_probe(stop))
            left = await c.command({"type": "leave", "table_id": table_id}, timeout=30)
            assert left["accepted"] and left["data"]["result"] == "now", left
            with _http(srv.url, token) as h:  # paid before the ack
                assert h.get("/api/me").json()["chips"] == 300, n
            stop.set()
            worst.append(await probe)
            assert len(bank.calls) == n + 1
            ref, thread, durable = bank.calls[-1]
            assert durable, "paid before the seat map naming the cash-out was durable"
            assert thread != server_thread, "the cash-out was paid on the event loop"
            refs.append(ref)
            gone = [
                f["event"]
                for f in c.frames
                if f["type"] == "event" and f["event"]["type"] == "player_left"
            ]
            while len(gone) <= n:  # the broadcast may follow the ack
                f = await c.expect("event", timeout=10)
                if f["event"]["type"] == "player_left":
                    gone.append(f["event"])
            assert gone[n]["player_id"] == str(user_id) and gone[n]["cashed_out"] == 120
        assert max(worst) < STALL - BOUND, f"the loop stalled {max(worst) * 1e3:.0f} ms"
        assert len(set(refs)) == 2
        await c.close()
        return table_id, refs

    table_id, refs = asyncio.run(go())
    return table_id, refs, user_id
