"""A break cut by a restart resumes (R-TOUR-18, R-CRASH-1 revised): the director journals
the break when it starts; after kill -9 and a restart every table stays held for the rest
of the break, then play resumes and the event ends with every chip accounted for."""

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
from croupier.tournament.money import pool_account
from croupier.tournament.persist import tournament_store
from croupier.tournament.structures import HYPER


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(f"sqlite:///{tmp_path / 'break.sqlite3'}", clock=lambda: 0.0)
    try:
        yield s
    finally:
        s.close()


def _registry(store: Store, clock: FakeClock, seed: int) -> TournamentRegistry:
    return TournamentRegistry(
        LedgerCashier(store.ledger),
        clock=clock,
        rng=random.Random(seed),
        testing=True,
        store=tournament_store(store),
    )


def test_a_break_cut_by_a_restart_resumes_for_the_time_it_had_left(store: Store) -> None:
    """R-TOUR-18: breaks of 30 s after 120 s of play; the process dies 10 s into the first
    break; after the restart the tables stay held for the 20 s left (no hand is dealt,
    the HUD counts the break down), then hands are dealt again; the event ends, every
    place is given once, the prizes equal the pool and the audit is clean."""
    ids = []
    for i in range(8):
        user = store.users.create_user(f"B{i}", f"b{i}", None, "bot", 0)
        store.ledger.grant_diamonds(user.id, 500, key=f"grant-B{i}")
        store.ledger.buy_chips(user.id, 500, key=f"buy-B{i}")
        ids.append(str(user.id))
    spec = scheduled(
        "mtt-br", "MTT breaks", opens_at=0.0, starts_at=10.0, seats=4, buy_in=100,
        starting_stack=5000, schedule=HYPER, between_hands=1.0, bot_delay=0.5,
        breaks=(120.0, 600.0, 30.0),
    )  # fmt: skip

    async def first() -> None:
        clock = FakeClock()
        reg = _registry(store, clock, seed=7)
        reg.add(spec)
        for i, p in enumerate(ids):
            await reg.register("mtt-br", p, f"B{i}", is_bot=True)
        await clock.advance(11.0)
        d = reg.get("mtt-br").director
        assert d is not None
        await clock.run_until(lambda: d.on_break_until is not None or d.finished, limit=400.0)
        assert d.on_break_until is not None, "the break started"
        await clock.advance(10.0)  # 10 s into the break: the process dies

    asyncio.run(first())
    (row,) = [r for r in TournamentJournal(store.db, clock=lambda: 0.0).load() if r.id == "mtt-br"]
    assert row.state is not None and row.state["break_left"] == pytest.approx(30.0)

    async def second() -> None:
        clock = FakeClock(10_000.0)
        reg = _registry(store, clock, seed=8)
        assert await reg.restore() == ["mtt-br"]
        d = reg.get("mtt-br").director
        assert d is not None
        assert d.on_break_until == pytest.approx(10_030.0)
        assert d.progress()["break_ends_in"] == pytest.approx(30.0)
        hands = {t: a.table.hand_no for t, a in d.actors.items()}
        await clock.advance(29.0)
        assert {t: a.table.hand_no for t, a in d.actors.items()} == hands, "no hand in a break"
        assert all(a.table.hand is None for a in d.actors.values())
        await clock.advance(2.0)
        assert d.on_break_until is None

        def dealt() -> bool:
            return any(a.table.hand_no > hands[t] for t, a in d.actors.items())

        await clock.run_until(dealt, limit=clock.now() + 600.0)
        assert dealt(), "play resumed after the break"
        await clock.run_until(lambda: d.finished, limit=60_000)
        await clock.advance(1.0)
        assert sorted(p.place for p in d.placings) == list(range(1, 9))
        assert sum(p.prize for p in d.placings) == 800
        await reg.close()

    asyncio.run(second())
    assert store.ledger.balance(pool_account("mtt-br")) == 0
    report = store.audit()
    assert report.ok, report.discrepancies
