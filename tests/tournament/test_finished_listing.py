"""A finished tournament stays listed after a restart, read-only (R-CRASH-1 revised,
R-TOUR-2, R-TOUR-4, R-TOUR-9).

Over HTTP on a real server: a player registers to the Spin, fills it with bots and plays
it to the end over the WebSocket; the lobby row (standings, prizes, pool, multiplier) is
the same after the server is stopped and started again on the same database, and nothing
can register to, fill, unregister from or restart the finished event (no chip moves). The
bound (Decision): the newest ``keep_finished`` (10) finished or cancelled events are
listed, in this process and after a restart."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.store import Store, open_store
from croupier.table.clock import FakeClock
from croupier.tournament import LedgerCashier, TournamentRegistry, sit_and_go
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import pool_account
from croupier.tournament.persist import tournament_store
from tests.server.live import ORIGIN, Client, fast_settings, register_and_login, running
from tests.tournament.kit import standard_places

VOLATILE = {"starts_at_ms"}
"""Row keys that may differ between two listings (none of a finished event's)."""


def _post(url: str, path: str, token: str, body: Any = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Origin": ORIGIN}
    return httpx.post(url + path, json=body, headers=headers, timeout=30)


def _me(url: str, token: str) -> dict[str, Any]:
    r = httpx.get(url + "/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return dict(r.json())


async def _play_to_the_end(url: str, ws_url: str, token: str, tid: str, me: str) -> None:
    """Answer every turn (check, else call) until the event is finished (bounded)."""
    c = await Client.open(ws_url, token)
    table_id = ""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 180
    try:
        while loop.time() < deadline:
            rows = {r["id"]: r for r in httpx.get(url + "/api/tournaments", timeout=30).json()}
            row = rows[tid]
            if row["status"] == "finished":
                return
            seat = row.get("seating", {}).get(me)
            if seat and seat != table_id:
                table_id = seat
                await c.send({"type": "subscribe", "table_id": table_id, "since": 0})
            end = loop.time() + 1.0
            while loop.time() < end:
                try:
                    frame = await c.recv(max(0.05, end - loop.time()))
                except TimeoutError:
                    break
                if frame["type"] != "event":
                    continue
                ev = frame["event"]
                if ev["type"] == "turn" and ev.get("view") and ev.get("player_id") == me:
                    legal = ev["view"]["legal"]
                    msg: dict[str, Any] = {"table_id": table_id, "id": c.next_id()}
                    if ev["phase"] == "showdown":
                        msg |= {"type": "show", "show": True}
                    else:
                        msg |= {"type": "act", "action": "check" if legal["can_check"] else "call"}
                    await c.send(msg)
        raise AssertionError(f"{tid} did not finish in time")
    finally:
        await c.close()


def test_a_finished_spin_is_listed_the_same_after_a_restart(tmp_path: Path) -> None:
    """R-CRASH-1 (revised), R-TOUR-2, R-TOUR-4: see the module docstring. Before this
    change the restarted registry reloaded only registering and running events: the
    finished Spin vanished from ``GET /api/tournaments``."""
    settings = fast_settings(f"sqlite:///{tmp_path / 'done.sqlite3'}")
    with running(settings) as srv:
        token = register_and_login(srv.url, "finisher")
        assert _post(
            srv.url, "/api/exchange", token, {"diamonds": 50, "key": "finisher-0001"}
        ).is_success
        r = _post(srv.url, "/api/tournaments/spin-10/register", token)
        assert r.status_code == 200, r.text
        row = _post(srv.url, "/api/tournaments/spin-10/fill", token).json()
        assert row["status"] == "running"
        me = str(_me(srv.url, token)["id"])
        asyncio.run(_play_to_the_end(srv.url, srv.ws_url, token, "spin-10", me))
        time.sleep(0.3)
        before = {r["id"]: r for r in httpx.get(srv.url + "/api/tournaments", timeout=30).json()}
        chips_before = _me(srv.url, token)["chips"]
    done = before["spin-10"]
    assert done["status"] == "finished" and done["entrants"] == 3
    assert standard_places(sorted(s["place"] for s in done["standings"]), 3)
    assert sum(s["prize"] for s in done["standings"]) == done["pool"] == sum(done["prizes"])
    assert done["multiplier"] in (2, 4, 6, 10, 25, 100, 200, 1000)

    with running(settings) as srv:  # the same database: a real restart of the app and store
        after = {r["id"]: r for r in httpx.get(srv.url + "/api/tournaments", timeout=30).json()}
        assert "spin-10" in after, sorted(after)
        again = after["spin-10"]
        differs = {k for k in done.keys() | again.keys() if done.get(k) != again.get(k)}
        assert differs <= VOLATILE, {k: (done.get(k), again.get(k)) for k in differs}
        # a recurring root goes on under a new id; the finished one is never reused
        assert after["spin-10.2"]["status"] == "registering"
        for action in ("register", "fill", "unregister"):
            r = _post(srv.url, f"/api/tournaments/spin-10/{action}", token)
            assert r.status_code == 409, (action, r.text)
            code = r.json()["error"]["code"]
            assert code in ("registration_closed", "not_registered"), (action, code)
        assert _me(srv.url, token)["chips"] == chips_before
        services = srv.app.state.services
        event = services.tournaments.get("spin-10")
        assert event.director is not None and not event.director.actors
        assert services.store.ledger.balance(pool_account("spin-10")) == 0
        report = services.store.audit()
        assert report.ok, report.discrepancies
        results = httpx.get(
            srv.url + "/api/tournaments/results",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        ).json()
        assert [x["id"] for x in results] == ["spin-10"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    ticks = itertools.count(1)  # every store write one second later: a strict order
    s = open_store(f"sqlite:///{tmp_path / 'bound.sqlite3'}", clock=lambda: float(next(ticks)))
    try:
        yield s
    finally:
        s.close()


def test_the_newest_ten_finished_events_are_listed_after_a_restart(store: Store) -> None:
    """R-CRASH-1 (revised), Decision: twelve heads-up Sit & Gos played to the end (real
    bots, seeded) and a cancelled scheduled event: the lobby lists the newest ten of the
    thirteen, before and after a restart, with their standings; a finished one refuses a
    registration and the restore starts nothing (no table, no chip moved)."""
    ids = []
    for i in range(2):
        user = store.users.create_user(f"H{i}", f"h{i}", None, "bot", 0)
        store.ledger.grant_diamonds(user.id, 5_000, key=f"grant-H{i}")
        store.ledger.buy_chips(user.id, 5_000, key=f"buy-H{i}")
        ids.append(str(user.id))

    def registry(clock: FakeClock, seed: int) -> TournamentRegistry:
        return TournamentRegistry(
            LedgerCashier(store.ledger),
            clock=clock,
            rng=random.Random(seed),
            testing=True,
            store=tournament_store(store),
        )

    async def first() -> list[dict[str, Any]]:
        from croupier.tournament import scheduled

        clock = FakeClock()
        reg = registry(clock, 1)
        for n in range(12):
            tid = f"hu-{n}"
            reg.add(sit_and_go(tid, f"HU {n}", seats=2, buy_in=10, speed="hyper"))
            for i, p in enumerate(ids):
                await reg.register(tid, p, f"H{i}", is_bot=True)
            director = reg.get(tid).director
            assert director is not None
            await clock.run_until(lambda d=director: d.finished, limit=20_000)  # type: ignore[misc]
            await clock.advance(1.0)
        reg.add(scheduled("mtt-c", "Cancelled", opens_at=0.0, starts_at=clock.now() + 5.0))
        await reg.register("mtt-c", ids[0], "H0")
        await clock.advance(10.0)  # one entrant: cancelled and refunded
        rows = [r for r in reg.summaries() if r["status"] in ("finished", "cancelled")]
        await reg.close()
        return rows

    before = asyncio.run(first())
    assert len(before) == 10 and before[-1]["id"] == "mtt-c"
    assert before[0]["id"] == "hu-3"
    chips = [store.ledger.balances(int(p)).chips for p in ids]

    async def second() -> list[dict[str, Any]]:
        reg = registry(FakeClock(100_000.0), 2)
        assert await reg.restore() == []  # nothing to run again
        rows = reg.summaries()
        with pytest.raises(TournamentError) as refused:
            await reg.register("hu-11", ids[0], "H0")
        assert refused.value.code == "registration_closed"
        assert all(not e.director.actors for e in reg.events.values() if e.director)
        return rows

    after = asyncio.run(second())
    assert [r["id"] for r in after] == [r["id"] for r in before]
    for a, b in zip(after, before, strict=True):
        assert a["status"] == b["status"]
        assert a.get("standings") == b.get("standings") and a["pool"] == b["pool"]
        assert a["entrants"] == b["entrants"] and a.get("prizes") == b.get("prizes")
    assert [store.ledger.balances(int(p)).chips for p in ids] == chips
    report = store.audit()
    assert report.ok, report.discrepancies
