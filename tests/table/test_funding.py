"""A buy-in funded off the event loop (a :class:`TableActor` over a background journal, as
every server table is) and a graceful stop while the bank moves the chips: the chips go
back to the account and the journal records the intent aborted, so the escrow holds
nothing the seat map does not (R-CRASH-1). Before, the cancelled actor left the funded
chips in the escrow for the next start to refund."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from croupier.engine.game import Game
from croupier.table import TableConfig
from croupier.table.actor import TableActor
from croupier.table.bank import PlayChips
from croupier.table.clock import FakeClock
from croupier.table.commands import SitDown
from croupier.table.journal import BuyInAborted, BuyInIntent, InMemoryJournal, plan_recovery

pytestmark = pytest.mark.rules("R-CRASH-1")


class BackgroundJournal(InMemoryJournal):
    """An in-memory journal the actor takes for a server's background journal."""

    def watch(self, *args: Any) -> None:
        """The server's journal holds events until durable; nothing to hold here."""


class SlowBank(PlayChips):
    """Play chips whose buy-in waits for ``go`` (the bank is slow, the loop goes on)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.go = threading.Event()

    def buy_in(self, player_id: str, amount: int, ref: str) -> bool:
        self.entered.set()
        assert self.go.wait(30), "the test never released the bank"
        return super().buy_in(player_id, amount, ref)


def _actor(bank: PlayChips, journal: InMemoryJournal) -> TableActor:
    game = Game.of("nlhe", blinds=(1, 2))
    config = TableConfig.default(game, seats=6, testing=True, table_id="fund-1")
    return TableActor.open(config, clock=FakeClock(), journal=journal, bank=bank)


def test_a_stop_while_a_buy_in_is_funded_gives_the_chips_back() -> None:
    async def go() -> tuple[SlowBank, InMemoryJournal, BaseException | None]:
        bank, journal = SlowBank(), BackgroundJournal()
        actor = _actor(bank, journal)
        answer = actor.post(SitDown("c1", "7", "Ann", buy_in=100))
        assert await asyncio.to_thread(bank.entered.wait, 30)
        stopping = asyncio.create_task(actor.stop())
        await asyncio.sleep(0.05)  # the stop is waiting on the bank's thread
        assert not stopping.done()
        bank.go.set()
        await asyncio.wait_for(stopping, 30)
        return bank, journal, answer.exception() if answer.done() else None

    bank, journal, refused = asyncio.run(go())
    assert isinstance(refused, asyncio.CancelledError), refused  # the command was not served
    assert bank.balance("7") == 0 and (bank.total_in, bank.total_out) == (100, 100)
    records = journal.records("fund-1")
    (intent,) = [r for r in records if isinstance(r, BuyInIntent)]
    assert [r for r in records if isinstance(r, BuyInAborted)] == [
        BuyInAborted(intent.ref, "unused")
    ]
    plan = plan_recovery(records)
    assert plan.pending_buy_ins == () and not any(s.stack for s in plan.seats)


def test_a_buy_in_funded_off_the_loop_seats_the_player() -> None:
    """The same path without a stop: the chips funded are the seat's."""

    async def go() -> tuple[SlowBank, InMemoryJournal]:
        bank, journal = SlowBank(), BackgroundJournal()
        bank.go.set()
        actor = _actor(bank, journal)
        result = await actor.submit(SitDown("c1", "7", "Ann", buy_in=100))
        assert result.accepted, result
        await actor.stop()
        return bank, journal

    bank, journal = asyncio.run(go())
    assert bank.balance("7") == -100
    plan = plan_recovery(journal.records("fund-1"))
    assert plan.pending_buy_ins == () and [(s.player_id, s.stack) for s in plan.seats] == [
        ("7", 100)
    ]
