"""The live table on the SQL journal and the ledger bank (R-CRASH-1, R-SEAT-1, R-ACC-1):
bots play, the table is killed at random moments and restored from SQL; afterwards every
player's escrow equals their stack at the table and the audit finds nothing wrong."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.bots import BotRunner, RuleBot
from croupier.store import LedgerBank, SqlJournal, Store
from croupier.store.ledger import HOUSE_RAKE
from croupier.store.schema import transfers
from croupier.table import plan_recovery
from croupier.table import testing as table_testing
from croupier.table.journal import HandEndRecord
from croupier.table.testing import Harness


def _bots(store: Store) -> dict[str, int]:
    """Four funded bot accounts; a table's player id is the account id as text."""
    ids: dict[str, int] = {}
    for i in range(4):
        user = store.users.create_user(f"Bot{i}", f"bot{i}", None, "bot", 0)
        ids[str(user.id)] = user.id
        store.ledger.grant_diamonds(user.id, 1000, key=f"g{i}")
        store.ledger.buy_chips(user.id, 1000, key=f"b{i}")
    return ids


def test_table_crashes_on_sql_keep_the_ledger_exact(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-CRASH-1: after each kill and restart, stacks are the journaled ones, every escrow
    equals its player's stack, and chips are conserved in the ledger."""
    ids = _bots(store)
    journal = SqlJournal(store.db, store.clock, ledger=store.ledger)
    bank = LedgerBank(store.ledger, "table")
    monkeypatch.setattr(table_testing, "InMemoryJournal", lambda: journal)
    monkeypatch.setattr(table_testing, "PlayChips", lambda: bank)

    async def body() -> Any:
        rng = random.Random(7)
        h = await Harness.create()
        bots = [BotRunner(h.actor, name, RuleBot(), clock=h.clock) for name in ids]
        for b in bots:
            assert (await b.join(200)).accepted
        for _ in range(4):
            await h.clock.run_until(lambda: False, limit=h.clock.now() + rng.uniform(5, 60))
            await h.actor.stop()
            plan = plan_recovery(journal.records("table"))
            await h.restart()
            assert h.stacks() == {s.player_id: s.stack for s in plan.seats}
            escrow = store.ledger.escrow("table")
            assert escrow == {ids[p]: st for p, st in h.stacks().items() if st}
            report = store.audit()
            assert report.ok, report.discrepancies
            for b in bots:
                b.attach(h.actor)
                assert (await b.reconnect()).accepted
        return [r for r in journal.records("table") if isinstance(r, HandEndRecord)]

    settled = asyncio.run(body())
    assert settled, "no hand was played"
    assert store.journal.unsettled("table") == []


def test_cash_table_restarts_on_sql_send_every_stack_home(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-CRASH-1 (cash tables): after each kill the restarted table voids the cut hand,
    sends every stack back to its account (one transfer each, a key never used before)
    and empties every seat: no hand is dealt until players sit down again; the escrow is
    empty and the audit clean; chips are conserved across the restarts."""
    ids = _bots(store)
    journal = SqlJournal(store.db, store.clock, ledger=store.ledger)
    monkeypatch.setattr(table_testing, "InMemoryJournal", lambda: journal)
    monkeypatch.setattr(table_testing, "PlayChips", lambda: LedgerBank(store.ledger, "cash"))

    async def body() -> tuple[int, int]:
        rng = random.Random(11)
        h = await Harness.create(table_id="cash")
        bots = [BotRunner(h.actor, pid, RuleBot(), clock=h.clock) for pid in ids]
        for b in bots:
            assert (await b.join(200)).accepted
        restarts = sent = 0
        for _ in range(4):
            await h.clock.run_until(lambda: False, limit=h.clock.now() + rng.uniform(5, 60))
            await h.actor.stop()
            seated = {s.player_id: s.stack for s in plan_recovery(journal.records("cash")).seats}
            before = {p: store.ledger.balances(u).chips for p, u in ids.items()}
            await h.restart(keep_seats=False)
            restarts += 1
            sent += sum(1 for st in seated.values() if st)
            assert h.table.seats == {}
            assert store.ledger.escrow("cash") == {}
            for p, u in ids.items():
                assert store.ledger.balances(u).chips == before[p] + seated.get(p, 0)
            hand_no = h.table.hand_no
            await h.clock.run_until(lambda: False, limit=h.clock.now() + 30)
            assert h.table.hand_no == hand_no, "a hand was dealt to an empty table"
            report = store.audit()
            assert report.ok, report.discrepancies
            for b in bots:
                b.attach(h.actor)
                assert (await b.join(200)).accepted
        return restarts, sent

    restarts, sent = asyncio.run(body())
    stmt = sa.select(transfers.c.idem_key).where(transfers.c.idem_key.contains("restart-cash-out"))
    keys = store.db.run(lambda c: c.execute(stmt).scalars().all())
    assert len(keys) == len(set(keys)) == sent and restarts == 4
    assert (
        sum(store.ledger.balances(u).chips for u in ids.values())
        + sum(store.ledger.escrow("cash").values())
        + store.ledger.balance(HOUSE_RAKE)
        == 4000
    )
