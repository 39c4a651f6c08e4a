"""Cash-outs paid off the event loop (issue #11: the database never blocks the loop).

In a :class:`TableActor` over a background journal (every server table), a stand-up
queues the seat map naming its :class:`CashOutRecord` and the actor pays it once that
seat map is durable, on a worker thread, then journals :class:`CashOutDone`, before the
next message: the event loop runs while the bank pays, the bank never pays before the
seat map is durable, the player is paid exactly once, and a stop or a journal failure in
the middle loses nothing and pays nothing twice (R-CRASH-1). A table driven directly
(no background journal) still pays at once.

``GatedJournal`` stands for the server's group-commit journal: the records queued by
``append_payer_waits`` become durable only when the test opens its gate.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from tests.waiting import async_wait_until

from croupier.engine.game import Game
from croupier.table import TableConfig
from croupier.table.actor import TableActor
from croupier.table.bank import PlayChips
from croupier.table.clock import FakeClock
from croupier.table.commands import Disconnect, Leave, SitDown
from croupier.table.journal import (
    CashOutDone,
    InMemoryJournal,
    Record,
    SeatsRecord,
    plan_recovery,
)
from croupier.table.table import Table

pytestmark = pytest.mark.rules("R-CRASH-1")

TABLE = "cash-1"


class GatedJournal(InMemoryJournal):
    """A background journal: seat maps whose payer waits are queued until ``gate`` opens
    (then ``flushed`` makes them durable); other records are written at once, after the
    queued ones (a table's records stay in order)."""

    def __init__(self) -> None:
        super().__init__()
        self.queued: list[tuple[str, Record]] = []
        self.gate = threading.Event()
        self.fail = False

    def watch(self, *args: Any) -> None:
        """The server's journal holds events until durable; nothing to hold here."""

    def append_payer_waits(self, table_id: str, record: Record) -> None:
        self.queued.append((table_id, record))

    def append(self, table_id: str, record: Record) -> None:
        self._write_queued()
        super().append(table_id, record)

    def _write_queued(self) -> None:
        queued, self.queued = self.queued, []
        for t, r in queued:
            super().append(t, r)

    async def flushed(self, table_id: str, *, strict: bool = False) -> None:
        while not self.gate.is_set():
            await asyncio.sleep(0.005)
        if self.fail:
            self.queued = []  # the write failed: those records are lost
            raise RuntimeError("journal_failed")
        self._write_queued()

    def durable_cash_outs(self) -> set[str]:
        return {
            co.ref for r in self.records(TABLE) if isinstance(r, SeatsRecord) for co in r.cash_outs
        }


class SlowBank(PlayChips):
    """Play chips whose cash-out waits for ``go`` (the bank is slow, the loop goes on),
    recording the thread it runs on and whether its seat map was durable then."""

    def __init__(self, journal: GatedJournal) -> None:
        super().__init__()
        self.journal = journal
        self.entered = threading.Event()
        self.go = threading.Event()
        self.calls: list[tuple[str, str, bool]] = []

    def cash_out(self, player_id: str, amount: int, ref: str) -> None:
        durable = ref in self.journal.durable_cash_outs()
        self.calls.append((ref, threading.current_thread().name, durable))
        self.entered.set()
        assert self.go.wait(30), "the test never released the bank"
        super().cash_out(player_id, amount, ref)


def _config() -> TableConfig:
    game = Game.of("nlhe", blinds=(1, 2))
    return TableConfig.default(game, seats=6, testing=True, table_id=TABLE)


async def _seated(journal: GatedJournal, bank: SlowBank, clock: FakeClock) -> TableActor:
    actor = TableActor.open(_config(), clock=clock, journal=journal, bank=bank)
    seated = await actor.submit(SitDown("c1", "7", "Ann", buy_in=100))
    assert seated.accepted, seated
    return actor


async def _ticks(seconds: float) -> int:
    """How many times a coroutine wakes on the loop in ``seconds`` (10 ms sleeps)."""
    loop = asyncio.get_running_loop()
    end, n = loop.time() + seconds, 0
    while loop.time() < end:
        await asyncio.sleep(0.01)
        n += 1
    return n


def _done(journal: GatedJournal) -> list[str]:
    return [r.ref for r in journal.records(TABLE) if isinstance(r, CashOutDone)]


def test_a_leave_is_paid_off_the_loop_once_its_seat_map_is_durable() -> None:
    """The bank is not asked before the seat map is durable; while it pays, the loop runs
    (another coroutine ticks) and the Leave is not answered yet; then the player is paid
    once, ``CashOutDone`` is journaled and a restart finds nothing to pay."""
    journal = GatedJournal()
    bank = SlowBank(journal)

    async def go() -> tuple[str, int]:
        actor = await _seated(journal, bank, FakeClock())
        loop_thread = threading.current_thread().name
        answer = actor.post(Leave("c2", "7"))
        await async_wait_until(lambda: journal.queued, 10, "the seat map queued")
        await asyncio.sleep(0.05)
        assert bank.calls == [], "paid before the seat map was durable"
        assert not answer.done()
        journal.gate.set()
        assert await asyncio.to_thread(bank.entered.wait, 30)
        ticks = await _ticks(0.2)  # the bank holds the payment: the loop goes on
        assert not answer.done(), "the Leave was answered before the player was paid"
        bank.go.set()
        result = await asyncio.wait_for(answer, 30)
        assert result is not None and result.accepted and result.data == "now", result
        await actor.stop()
        return loop_thread, ticks

    loop_thread, ticks = asyncio.run(go())
    assert ticks >= 10, f"the loop was blocked while the bank paid ({ticks} ticks)"
    ((ref, thread, durable),) = bank.calls
    assert durable, "the bank paid a cash-out whose seat map was not durable"
    assert thread != loop_thread, "the bank paid on the event loop's thread"
    assert bank.balance("7") == 0 and (bank.total_in, bank.total_out) == (100, 100)
    assert _done(journal) == [ref]
    assert plan_recovery(journal.records(TABLE)).pending_cash_outs == ()
    again = Table.restore(_config(), clock=FakeClock(), journal=journal, bank=bank)
    assert len(bank.calls) == 1 and again.seats == {}, "a restart paid the cash-out again"


def test_a_stop_while_the_bank_pays_finishes_the_payment() -> None:
    """A graceful stop in the middle of the payment waits for it and journals
    ``CashOutDone``: the player is paid once, nothing is left for the restart."""
    journal = GatedJournal()
    bank = SlowBank(journal)

    async def go() -> BaseException | None:
        actor = await _seated(journal, bank, FakeClock())
        answer = actor.post(Leave("c2", "7"))
        journal.gate.set()
        assert await asyncio.to_thread(bank.entered.wait, 30)
        stopping = asyncio.create_task(actor.stop())
        await asyncio.sleep(0.05)
        assert not stopping.done(), "the stop did not wait for the payment"
        bank.go.set()
        await asyncio.wait_for(stopping, 30)
        return answer.exception() if answer.done() else None

    stopped = asyncio.run(go())
    assert isinstance(stopped, asyncio.CancelledError), stopped
    ((ref, _, durable),) = bank.calls
    assert durable and bank.balance("7") == 0 and bank.total_out == 100
    assert _done(journal) == [ref]
    Table.restore(_config(), clock=FakeClock(), journal=journal, bank=bank)
    assert len(bank.calls) == 1 and bank.total_out == 100


def test_a_stop_while_the_seat_map_is_written_still_pays_once() -> None:
    """A stop while the seat map is not durable yet waits for it, then pays: nothing is
    lost, and the restart pays nothing more."""
    journal = GatedJournal()
    bank = SlowBank(journal)
    bank.go.set()

    async def go() -> None:
        actor = await _seated(journal, bank, FakeClock())
        actor.post(Leave("c2", "7"))
        await async_wait_until(lambda: journal.queued, 10, "the seat map queued")
        stopping = asyncio.create_task(actor.stop())
        await asyncio.sleep(0.05)
        assert not stopping.done() and bank.calls == []
        journal.gate.set()
        await asyncio.wait_for(stopping, 30)

    asyncio.run(go())
    ((ref, _, durable),) = bank.calls
    assert durable and bank.balance("7") == 0
    assert _done(journal) == [ref]
    Table.restore(_config(), clock=FakeClock(), journal=journal, bank=bank)
    assert len(bank.calls) == 1


def test_a_seat_map_that_never_became_durable_is_not_paid() -> None:
    """The seat map's write fails: the actor pays nothing (the table crashes); the journal
    still seats the player with the stack, and the restart sends it home once."""
    journal = GatedJournal()
    bank = SlowBank(journal)
    bank.go.set()
    journal.fail = True

    async def go() -> BaseException | None:
        actor = await _seated(journal, bank, FakeClock())
        answer = actor.post(Leave("c2", "7"))
        journal.gate.set()
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(answer, 30)
        await actor.stop()
        return actor.crashed

    crashed = asyncio.run(go())
    assert isinstance(crashed, RuntimeError), crashed
    assert bank.calls == [] and bank.balance("7") == -100
    plan = plan_recovery(journal.records(TABLE))
    assert [(s.player_id, s.stack) for s in plan.seats] == [("7", 100)]
    journal.fail = False
    Table.restore(_config(), clock=FakeClock(), journal=journal, bank=bank)
    assert bank.balance("7") == 0 and len(bank.calls) == 1


def test_a_reconnection_window_expired_is_paid_off_the_loop() -> None:
    """A stand-up made by a timer message (the player's reconnection window expired) goes
    through the same path: seat map durable first, paid on a worker thread."""
    journal = GatedJournal()
    bank = SlowBank(journal)
    bank.go.set()
    journal.gate.set()
    clock = FakeClock()

    async def go() -> str:
        actor = await _seated(journal, bank, clock)
        assert (await actor.submit(Disconnect("c2", "7"))).accepted
        await clock.advance(actor.table.config.rules.reconnect_seconds + 1)
        await async_wait_until(lambda: _done(journal), 10, "the cash-out paid")
        assert actor.table.seats == {}
        await actor.stop()
        return threading.current_thread().name

    loop_thread = asyncio.run(go())
    ((ref, thread, durable),) = bank.calls
    assert durable and thread != loop_thread and bank.balance("7") == 0
    assert _done(journal) == [ref]


def test_a_table_driven_directly_pays_at_once() -> None:
    """Without a background journal (tests, tournament tables driven directly, the
    restart path) a stand-up still journals the seat map, pays and journals
    ``CashOutDone`` in the same call."""
    journal = InMemoryJournal()
    bank = PlayChips()
    table = Table.open(_config(), clock=FakeClock(), journal=journal, bank=bank)
    assert table.handle(SitDown("c1", "7", "Ann", buy_in=100)).accepted  # type: ignore[union-attr]
    result = table.handle(Leave("c2", "7"))
    assert result is not None and result.accepted
    assert bank.balance("7") == 0 and table.owed is None
    seats, done = journal.records(TABLE)[-2:]
    assert isinstance(seats, SeatsRecord) and isinstance(done, CashOutDone)
    assert [co.ref for co in seats.cash_outs] == [done.ref]


def test_a_player_leaving_during_a_hand_is_paid_off_the_loop_at_its_end() -> None:
    """A Leave during a hand is answered ``after_hand``; the stand-up happens in the
    message that ends the hand (here the clock folding the players who do not act), and
    that payment goes the same way: seat map durable first, paid on a worker thread,
    ``CashOutDone`` journaled."""
    journal = GatedJournal()
    bank = SlowBank(journal)
    bank.go.set()
    journal.gate.set()
    clock = FakeClock()

    async def go() -> str:
        actor = await _seated(journal, bank, clock)
        joined = await actor.submit(SitDown("c3", "8", "Bob", buy_in=100, post_big_blind=True))
        assert joined.accepted, joined
        cfg = actor.table.config
        await clock.advance(cfg.between_hands_seconds + 1)
        assert actor.table.hand is not None, "no hand was dealt"
        left = await actor.submit(Leave("c2", "7"))
        assert left.accepted and left.data == "after_hand", left
        for _ in range(50):  # every decision times out: the hand ends
            if actor.table.find("7") is None:
                break
            await clock.advance(60)
        await async_wait_until(lambda: _done(journal), 10, "the cash-out paid")
        bob = actor.table.find("8")
        assert bob is not None
        await actor.stop()
        return threading.current_thread().name, bob.stack

    loop_thread, bob_stack = asyncio.run(go())
    ((ref, thread, durable),) = bank.calls
    assert durable and thread != loop_thread
    assert _done(journal) == [ref]
    (paid,) = [
        co
        for r in journal.records(TABLE)
        if isinstance(r, SeatsRecord)
        for co in r.cash_outs
        if co.ref == ref
    ]
    assert bank.balance("7") == paid.amount - 100  # paid once, the stack she left with
    assert paid.amount + bob_stack == 200  # the chips moved between the two players only
    assert plan_recovery(journal.records(TABLE)).pending_cash_outs == ()
