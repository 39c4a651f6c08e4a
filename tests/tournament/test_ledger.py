"""Tournament money on the ledger (R-TOUR-4, R-ACC-1): buy-ins move account chips to the
prize pool, tournament chips never reach an account, prizes are paid from the pool, every
movement is idempotent, and the audit reconciles (SQLite store)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.store import Store, open_store
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import HOUSE_TOURNAMENTS, LedgerCashier, pool_account
from croupier.tournament.registration import Registration
from croupier.tournament.sitngo import sit_and_go
from croupier.tournament.spin import spin
from tests.tournament.kit import run


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(f"sqlite:///{tmp_path / 'tour.sqlite3'}", clock=lambda: 0.0)
    try:
        yield s
    finally:
        s.close()


def _players(store: Store, n: int, chips: int) -> list[str]:
    ids = []
    for i in range(n):
        user = store.users.create_user(f"Player{i}", f"player{i}", None, "bot", 0)
        store.ledger.grant_diamonds(user.id, chips, key=f"grant-{i}")
        store.ledger.buy_chips(user.id, chips, key=f"buy-{i}")
        ids.append(str(user.id))
    return ids


def test_sit_and_go_on_the_ledger_reconciles(store: Store) -> None:
    """R-TOUR-4, R-TOUR-1: 4 players with 150 chips each enter a 100 Sit & Go; the pool
    holds 400 during the event; a fifth without the balance is refused and nothing moves;
    at the end the pool is empty, the winners got 260 and 140, and the audit is clean."""
    ids = _players(store, 4, 150)
    cashier = LedgerCashier(store.ledger)
    spec = sit_and_go("sng-l", "SNG 4", seats=4, buy_in=100, between_hands=1.0)
    reg = Registration(spec, cashier)
    for i, p in enumerate(ids[:3]):
        reg.register(p, f"Player{i}", is_bot=True)
    # a buy-in the balance cannot cover: refused, nothing moved
    user = store.users.create_user("Poor", "poor", None, "bot", 0)
    store.ledger.grant_diamonds(user.id, 99, key="grant-poor")
    store.ledger.buy_chips(user.id, 99, key="buy-poor")
    before = store.ledger.balance(pool_account("sng-l"))
    with pytest.raises(TournamentError) as err:
        reg.register(str(user.id), is_bot=True)
    assert err.value.code == "insufficient_funds"
    assert store.ledger.balance(pool_account("sng-l")) == before == 300
    assert store.ledger.balances(user.id).chips == 99
    reg.register(ids[3], "Player3", is_bot=True)
    assert cashier.pool("sng-l") == 400
    result = asyncio.run(run(reg, 11))
    d = result.director
    assert d.finished and result.launch.prizes == (280, 120)  # 4 entrants: 70/30 (R-TOUR-9)
    assert cashier.pool("sng-l") == 0
    chips = {p: store.ledger.balances(int(p)).chips for p in ids}
    assert sorted(chips.values()) == [50, 50, 170, 330]
    first = next(p.player_id for p in d.placings if p.place == 1)
    assert chips[first] == 330
    # R-TOUR-4: no table escrow ever held tournament chips
    for actor in d._opened:
        assert store.ledger.escrow(actor.table.id) == {}
    # paying again (a retry after a crash) moves nothing
    d._pay()
    assert {p: store.ledger.balances(int(p)).chips for p in ids} == chips
    report = store.audit()
    assert report.ok, report.discrepancies
    assert report.held["chips"].get("tournament", 0) == 0


def test_spin_overlay_is_issued_and_audited(store: Store) -> None:
    """R-TOUR-10, R-TOUR-4: a 2× Spin collects 30 and pays 20: the 10 left go to
    ``house:tournaments``; a 4× Spin next pays 40: the house adds 10 from what it kept,
    nothing is issued; the audit is clean and the chips minted are only the buy-ins."""
    ids = _players(store, 6, 10)
    cashier = LedgerCashier(store.ledger)

    class Fixed(random.Random):
        def __init__(self, x: int, seed: int) -> None:
            super().__init__(seed)
            self.x = x

        def randrange(self, *args: int, **kwargs: int) -> int:  # type: ignore[override]
            if args == (1_000_000,):
                return self.x
            return super().randrange(*args, **kwargs)

    for tid, group, x, pool in (("spin-l", ids[:3], 0, 20), ("spin-m", ids[3:], 800_000, 40)):
        reg = Registration(spin(tid, "Spin 10", buy_in=10, between_hands=1.0), cashier)
        for p in group:
            reg.register(p, is_bot=True)
        result = asyncio.run(run(reg, 2, rng=Fixed(x, 2)))
        assert result.launch.pool == pool
        assert sum(store.ledger.balances(int(p)).chips for p in group) == pool
        assert store.ledger.balance(pool_account(tid)) == 0
    assert store.ledger.balance(HOUSE_TOURNAMENTS) == 0  # kept 10, then added 10
    report = store.audit()
    assert report.ok, report.discrepancies
    assert report.issued["chips"] == 60
