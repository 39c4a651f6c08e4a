"""Restart of cash tables (R-CRASH-1 revised): every stack goes back to its owner's account
and every seat is emptied at restart, at public, private and quick-match tables alike; no
hand is dealt to a player who has not come back and sat down again; no escrow is left
behind; the audit is clean."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from croupier.store import open_store
from croupier.table.journal import HandStartRecord, Restarted, SeatsRecord, plan_recovery
from croupier.table.seating import Seat
from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login
from tests.waiting import async_wait_until

BUY_IN = 200
FUNDS = 500


def _fund(srv: LiveServer, token: str) -> int:
    headers = {"Authorization": f"Bearer {token}", "Origin": ORIGIN}
    r = httpx.post(
        srv.url + "/api/exchange",
        json={"diamonds": FUNDS, "key": f"fund-{token[:12]}"},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return int(httpx.get(srv.url + "/api/me", headers=headers).json()["id"])


def _stacks_before_restart(url: str, table_id: str) -> dict[int, int]:
    """Each player's chips at the table as its journal says (stacks before any open hand)."""
    with open_store(url) as store:
        plan = plan_recovery(store.journal.records(table_id))
        assert store.ledger.escrow(table_id) == {
            int(s.player_id): s.stack for s in plan.seats if s.stack
        }
        return {int(s.player_id): s.stack for s in plan.seats}


@pytest.mark.slow
def test_restart_returns_every_cash_stack_and_empties_every_seat(tmp_path: Path) -> None:
    """R-CRASH-1: a private table with two players, a quick-match arcade table with two
    players and a public bot table with a player who never comes back: after a restart
    every one of their stacks is back in their account (one transfer each), no escrow
    holds a chip, the public table deals only to the bots that sat down again, and the
    audit is clean."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    settings = fast_settings(
        url,
        default_tables=False,
        bot_tables=1,
        arcade_min_level=0,
        quick_match_wait_seconds=0.3,
        between_hands_seconds=0.2,
    )
    srv = LiveServer(settings)
    srv.start()
    ids: dict[str, int] = {}
    tables: dict[str, str] = {}
    try:
        tokens = {
            n: register_and_login(srv.url, n)
            for n in ("host", "visitor", "quicka", "quickb", "pub")
        }
        ids = {n: _fund(srv, t) for n, t in tokens.items()}

        async def play() -> None:
            clients = {n: await Client.open(srv.ws_url, t) for n, t in tokens.items()}
            ack = await clients["host"].command(
                {"type": "create_private", "small_blind": 1, "big_blind": 2, "seats": 2}
            )
            assert ack["accepted"], ack
            tables["private"], code = ack["data"]["table_id"], ack["data"]["code"]
            for n in ("host", "visitor"):
                sit = {"type": "sit", "table_id": tables["private"], "buy_in": BUY_IN, "code": code}
                assert (await clients[n].command(sit))["accepted"]
            for n in ("quicka", "quickb"):
                assert (await clients[n].command({"type": "quick_match"}))["accepted"]
            matched = await clients["quicka"].expect("matched", timeout=15)
            assert matched["seated"], matched
            tables["quick"] = matched["table_id"]
            sit = {"type": "sit", "table_id": "bots-1", "buy_in": BUY_IN}
            assert (await clients["pub"].command(sit))["accepted"]
            registry = srv.app.state.services.registry
            for kind in ("private", "quick"):
                await async_wait_until(
                    lambda kind=kind: registry.get(tables[kind]).actor.table.hand_no >= 1,
                    20,
                    f"a hand dealt at the {kind} table",
                )
            for c in clients.values():
                await c.close()

        asyncio.run(play())
    finally:
        srv.stop()

    before = {t: _stacks_before_restart(url, tid) for t, tid in tables.items()}
    before["public"] = _stacks_before_restart(url, "bots-1")
    assert set(before["private"]) == {ids["host"], ids["visitor"]}
    assert set(before["quick"]) == {ids["quicka"], ids["quickb"]}
    assert ids["pub"] in before["public"]
    with open_store(url) as store:
        chips = {n: store.ledger.balances(uid).chips for n, uid in ids.items()}

    srv = LiveServer(settings)
    srv.start()
    try:

        async def after() -> None:
            registry = srv.app.state.services.registry
            live = registry.get("bots-1")
            # R-TIME-2: the table counts all-in protections in the room's store, per account
            # (in this process's memory, written to the store off the loop)
            assert live.actor.table.quota is registry.quota
            assert registry.quota.sql is srv.app.state.services.store.protections
            start = live.actor.table.hand_no
            await async_wait_until(
                lambda: live.actor.table.hand_no >= start + 3, 20, "three more hands dealt"
            )
            assert str(ids["pub"]) not in {s.player_id for s in live.actor.table.seats.values()}

        asyncio.run(after())
    finally:
        srv.stop()

    with open_store(url) as store:
        for label, stacks in before.items():
            for uid, stack in stacks.items():
                if uid not in ids.values():
                    continue  # a bot: it sat down again with a new buy-in
                name = next(n for n, i in ids.items() if i == uid)
                assert store.ledger.balances(uid).chips == chips[name] + stack, (label, name)
        for tid in (*tables.values(), "bots-1"):
            escrow = store.ledger.escrow(tid)
            humans = {u: c for u, c in escrow.items() if u in ids.values()}
            assert humans == {}, (tid, escrow)
        for tid in tables.values():
            assert store.ledger.escrow(tid) == {}, tid
        # no hand after the restart was dealt to the player who did not come back
        records = store.journal.records("bots-1")
        restart_at = max(i for i, r in enumerate(records) if isinstance(r, Restarted))
        dealt = [r for r in records[restart_at:] if isinstance(r, HandStartRecord)]
        assert dealt and all(str(ids["pub"]) not in r.players for r in dealt)
        report = store.audit()
        assert report.ok, report.discrepancies


def test_first_start_frees_escrows_stuck_by_earlier_versions(tmp_path: Path) -> None:
    """R-CRASH-1: a database from before this policy (private and quick-match tables whose
    players' chips stayed in escrow, no boot ever recorded) is cleaned at the first start:
    every stuck stack goes home, an interrupted hand there is voided first, the audit is
    clean."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    with open_store(url) as store:
        ids = []
        for name in ("stuckann", "stuckbob"):
            uid = store.users.create_user(name, name, None, "player", 0).id
            store.ledger.grant_diamonds(uid, 500, key=f"g-{name}")
            store.ledger.buy_chips(uid, 500, key=f"b-{name}")
            ids.append(uid)
        seats = []
        for i, (table, uid) in enumerate(
            (("private-old1", ids[0]), ("arcade-qm-old2", ids[1]), ("arcade-qm-old2", ids[0]))
        ):
            store.bank(table).buy_in(str(uid), 100 + i, f"old-{i}")
            seats.append((table, Seat(i, str(uid), stack=100 + i)))
        for table in ("private-old1", "arcade-qm-old2"):
            mine = tuple(s for t, s in seats if t == table)
            store.journal.append(table, SeatsRecord(mine, "sit_down"))
        mine = tuple(s for t, s in seats if t == "arcade-qm-old2")
        start = HandStartRecord(
            4, mine, (1, 2), tuple(s.player_id for s in mine), (101, 102), 1, "c", (), b""
        )
        store.journal.append("arcade-qm-old2", start)
        assert store.boots.last_recovered() is None
    srv = LiveServer(fast_settings(url, default_tables=False))
    srv.start()
    srv.stop()
    with open_store(url) as store:
        assert store.ledger.escrow("private-old1") == {}
        assert store.ledger.escrow("arcade-qm-old2") == {}
        assert [store.ledger.balances(u).chips for u in ids] == [500, 500]
        assert store.journal.hand_status("arcade-qm-old2", 4) == "void"
        assert store.boots.last_recovered() is not None
        report = store.audit()
        assert report.ok, report.discrepancies
