"""A casino table stopped while its cashier call runs on a worker thread (issue #11,
R-CRASH-1): the stop waits for the call's transaction to end, no chip is lost between the
player's balance, the table's escrow and the house, and the round left open is voided,
every bet back, by the actor's close (a graceful server stop) or at the next start (a
stop without close). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from croupier.casino.table import CasinoTableConfig, Deal, Decide, Sit
from croupier.store import Store
from croupier.store.casino import HOUSE_CASINO, LedgerCashier, casino_escrow
from croupier.store.ledger import user_account
from croupier.table.casino_actor import CasinoActor
from croupier.table.clock import FakeClock as TableClock
from tests.casino.kit import StackedShuffler, deck, table
from tests.store.backends import FakeClock

START = 1_000
TID = "casino-t"


class HeldCashier(LedgerCashier):
    """A :class:`LedgerCashier` whose ``hold`` call waits (on its worker thread) until
    :attr:`release` is set, then makes the real call: a slow database, as long as the
    test wants."""

    def __init__(self, store: Store, clock: FakeClock, hold: str) -> None:
        super().__init__(store.db, store.ledger, clock=clock)
        self.hold = hold
        self.entered = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()

    def _wait(self, name: str) -> bool:
        if name != self.hold:
            return False
        self.entered.set()
        assert self.release.wait(20), "the test never released the call"
        return True

    def open_round(
        self,
        table_id: str,
        round_id: str,
        record: Mapping[str, Any],
        stakes: Sequence[tuple[str, int]],
    ) -> None:
        held = self._wait("open_round")
        super().open_round(table_id, round_id, record, stakes)
        if held:
            self.finished.set()

    def wager(self, table_id: str, round_id: str, player: str, spot: str, amount: int) -> None:
        held = self._wait("wager")
        super().wager(table_id, round_id, player, spot, amount)
        if held:
            self.finished.set()

    def settle(
        self,
        table_id: str,
        round_id: str,
        results: Sequence[tuple[str, int, int]],
        outcome: Mapping[str, Any],
    ) -> None:
        held = self._wait("settle")
        super().settle(table_id, round_id, results, outcome)
        if held:
            self.finished.set()


# what is on the felt once the held call committed: ante 10 + bonus 5, then the flop 20
ESCROW_AFTER = {"open_round": 15, "wager": 35, "settle": 0}
# the commands up to the one whose cashier call is held
SCRIPT: dict[str, list[Any]] = {
    "open_round": [Deal("d", "1", 10, 5)],
    "wager": [Deal("d", "1", 10, 5), Decide("m1", "1", "play")],
    "settle": [
        Deal("d", "1", 10, 5),
        Decide("m1", "1", "play"),
        Decide("m2", "1", "check"),
        Decide("m3", "1", "check"),
    ],
}


def _money(store: Store) -> tuple[int, int, int]:
    """The player's chips, their escrow at the table, the house's result."""
    ledger = store.ledger
    return (
        ledger.balance(user_account(1)),
        ledger.balance(casino_escrow(TID, 1)),
        ledger.balance(HOUSE_CASINO),
    )


@pytest.mark.parametrize("how", ["close", "restart"])
@pytest.mark.parametrize("step", ["open_round", "wager", "settle"])
def test_a_stop_during_a_cashier_call_loses_nothing(
    store: Store, clock: FakeClock, step: str, how: str
) -> None:
    """R-CRASH-1: the server stops while the table's ``step`` call is on its worker
    thread. The stop waits for it; then balance + escrow + house is exactly the start,
    the escrow exactly what the committed calls put there; ``close`` voids the round at
    once, a bare stop leaves it to the next start, which voids it: every bet back (a
    settled round stays settled), and the audit balances throughout."""
    store.ledger.grant_diamonds(1, START, key="grant-1")
    store.ledger.buy_chips(1, START, key="buy-1")
    cash = HeldCashier(store, clock, step)

    async def go() -> None:
        d = deck(["AsKs"], "2c7d", "Ts8h5s4hJc")  # the player's flush wins
        actor, _ = table(cash, StackedShuffler(d))
        assert actor.offload
        assert (await actor.submit(Sit("s", "1", "ann", 0))).accepted
        *before, last = SCRIPT[step]
        for cmd in before:
            assert (await actor.submit(cmd)).accepted
        pending = asyncio.ensure_future(actor.submit(last))
        assert await asyncio.to_thread(cash.entered.wait, 20), "the call never started"
        stopping = asyncio.ensure_future(actor.close() if how == "close" else actor.stop())
        await asyncio.sleep(0.2)
        assert not stopping.done(), "the stop did not wait for the call in flight"
        assert not cash.finished.is_set()
        cash.release.set()
        await asyncio.wait_for(stopping, 20)
        assert cash.finished.is_set()  # the call ran to its end before the actor stopped
        assert not actor.alive
        (outcome,) = await asyncio.gather(pending, return_exceptions=True)
        assert isinstance(outcome, BaseException)  # the command never got an answer

    asyncio.run(go())
    chips, escrow, house = _money(store)
    assert chips + escrow + house == START  # not a chip lost or made
    rounds = cash.open_rounds(TID)
    if how == "restart":
        assert escrow == ESCROW_AFTER[step]
        assert len(rounds) == (0 if step == "settle" else 1)
        assert store.audit().ok  # chips on the felt of an open round are not stuck

        async def restart() -> None:
            actor = await CasinoActor.restore(CasinoTableConfig(TID), cash, TableClock())
            assert actor.table.round is None
            await actor.stop()

        asyncio.run(restart())
        rounds_after = cash.open_rounds(TID)
        assert rounds_after == []
        chips, escrow, house = _money(store)
    assert escrow == 0 and cash.open_rounds(TID) == []
    if step == "settle":  # committed before the stop: the player keeps the win
        assert house < 0 and chips == START - house
    else:  # voided: every bet back, the house untouched
        assert (chips, house) == (START, 0)
    report = store.audit()
    assert report.ok, report.discrepancies
