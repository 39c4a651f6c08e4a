"""A late entry cut by a crash (R-TOUR-11, R-CRASH-1 revised, R-TOUR-4): the buy-in
reached the pool but the director's state was never written with the entry. The restart
reconciles it deterministically: the entrant was never seated nor told, so the buy-in goes
back to them under the entry's own key, the entry is ``refunded``, the audit is clean and
the event plays to the end paying exactly its journaled pool."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.store import Store, open_store
from croupier.store.tournaments import TournamentJournal
from croupier.table.clock import FakeClock
from croupier.tournament import LedgerCashier, TournamentRegistry, scheduled
from croupier.tournament import registry as registry_module
from croupier.tournament.money import pool_account
from croupier.tournament.persist import tournament_store
from croupier.tournament.structures import BlindSchedule, Level

FAST = BlindSchedule("fast", tuple(Level(b, 2 * b, 0, 60.0) for b in (20, 40, 80, 160, 320, 640)))


class Crash(BaseException):
    """The process dies here (nothing after it runs, nothing is closed)."""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(f"sqlite:///{tmp_path / 'late.sqlite3'}", clock=lambda: 0.0)
    try:
        yield s
    finally:
        s.close()


def _players(store: Store, n: int, chips: int) -> list[str]:
    ids = []
    for i in range(n):
        user = store.users.create_user(f"L{i}", f"l{i}", None, "bot", 0)
        store.ledger.grant_diamonds(user.id, chips, key=f"grant-L{i}")
        store.ledger.buy_chips(user.id, chips, key=f"buy-L{i}")
        ids.append(str(user.id))
    return ids


def _registry(store: Store, clock: FakeClock, seed: int) -> TournamentRegistry:
    return TournamentRegistry(
        LedgerCashier(store.ledger),
        clock=clock,
        rng=random.Random(seed),
        testing=True,
        store=tournament_store(store),
    )


def _chips(store: Store, player: str) -> int:
    return store.ledger.balances(int(player)).chips


def test_a_crash_between_a_late_buy_in_and_the_state_is_reconciled_at_restart(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-TOUR-11, R-CRASH-1: the crash is injected between the late buy-in (a ledger
    transfer) and the director's state save; before the restart the audit reports the
    pool holding one buy-in more than the journaled launch pool (the crash is real); after
    it the buy-in is back on the player's account (one ``tournament_refund`` under
    ``<entry key>:refund``), the entry is ``refunded``, the audit is clean, a second
    restart moves nothing, and the event plays to the end paying its pool exactly once."""
    ids = _players(store, 6, 500)
    spec = scheduled(
        "mtt-x", "MTT crash", opens_at=0.0, starts_at=10.0, seats=4, buy_in=100,
        starting_stack=300, schedule=FAST, between_hands=1.0, bot_delay=0.5,
        late_levels=2, reentries=1,
    )  # fmt: skip
    late_player = ids[5]

    async def crash_late_entry(director: object, entrant: object) -> None:
        raise Crash

    async def first() -> None:
        clock = FakeClock()
        reg = _registry(store, clock, seed=3)
        reg.add(spec)
        for i, p in enumerate(ids[:5]):
            await reg.register("mtt-x", p, f"L{i}", is_bot=True)
        await clock.advance(15.0)
        assert reg.get("mtt-x").director is not None
        with monkeypatch.context() as m:
            m.setattr(registry_module.late, "add_entry", crash_late_entry)
            with pytest.raises(Crash):
                await reg.register("mtt-x", late_player, "L5", is_bot=True)

    asyncio.run(first())
    assert _chips(store, late_player) == 400
    assert store.ledger.balance(pool_account("mtt-x")) == 600
    report = store.audit()
    assert not report.ok and any("mtt-x" in d for d in report.discrepancies)

    journal = TournamentJournal(store.db, clock=lambda: 0.0)

    async def second() -> None:
        clock = FakeClock(10_000.0)
        reg = _registry(store, clock, seed=4)
        assert await reg.restore() == ["mtt-x"]
        director = reg.get("mtt-x").director
        assert director is not None
        assert late_player not in director.where
        assert director.launch.pool == 500 == store.ledger.balance(pool_account("mtt-x"))
        assert _chips(store, late_player) == 500
        report = store.audit()
        assert report.ok, report.discrepancies
        await reg.close()

    asyncio.run(second())
    (row,) = [r for r in journal.load() if r.id == "mtt-x"]
    assert [e.status for e in row.entries if e.player_id == late_player] == ["refunded"]
    refunds = store.db.run(
        lambda c: c.exec_driver_sql(
            "SELECT count(*) FROM transfers WHERE kind = 'tournament_refund'"
        ).scalar()
    )
    assert refunds == 1

    async def third() -> None:
        clock = FakeClock(20_000.0)
        reg = _registry(store, clock, seed=5)
        assert await reg.restore() == ["mtt-x"]
        director = reg.get("mtt-x").director
        assert director is not None
        await clock.run_until(lambda: director.finished, limit=60_000)
        await clock.advance(1.0)
        assert sorted(p.place for p in director.placings) == [1, 2, 3, 4, 5]
        assert sum(p.prize for p in director.placings) == 500
        await reg.close()

    asyncio.run(third())
    assert store.ledger.balance(pool_account("mtt-x")) == 0
    assert sum(_chips(store, p) for p in ids) == 6 * 500
    report = store.audit()
    assert report.ok, report.discrepancies
