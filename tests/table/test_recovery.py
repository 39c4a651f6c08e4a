"""Journal, crash recovery and voided hands (R-CRASH-1, R-MISDEAL-1, R-CARD-5)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import pytest

from croupier.bots import BotRunner, RuleBot
from croupier.engine.cards import DECK_52
from croupier.table import TableCrashed, plan_recovery, verify_hand
from croupier.table.events import HandBegan, HandVoided
from croupier.table.journal import HandEndRecord, HandStartRecord, HandVoidRecord, SeatsRecord
from croupier.table.testing import Harness, data_of

T = TypeVar("T")


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


class OneShotFault:
    """Crash the table the ``n``-th time it reaches ``point``."""

    def __init__(self, point: str, n: int) -> None:
        self.point, self.n, self.fired = point, n, False

    def __call__(self, point: str) -> None:
        if point == self.point and not self.fired:
            self.n -= 1
            if self.n <= 0:
                self.fired = True
                raise TableCrashed(f"crash at {point}")


async def seat_bots(h: Harness, count: int, buy_in: int = 200) -> list[BotRunner]:
    bots = [BotRunner(h.actor, f"bot{i}", RuleBot(), clock=h.clock) for i in range(count)]
    for b in bots:
        assert (await b.join(buy_in)).accepted
    return bots


async def reattach(h: Harness, bots: Sequence[BotRunner]) -> None:
    for b in bots:
        b.attach(h.actor)
        r = await b.reconnect()
        assert r.accepted, r


def check_journal(h: Harness) -> None:
    """Each hand is settled or voided at most once, never both."""
    ends: dict[int, str] = {}
    for rec in h.journal.records(h.table.id):
        if isinstance(rec, HandEndRecord | HandVoidRecord):
            assert rec.hand_no not in ends, f"hand {rec.hand_no} closed twice"
            ends[rec.hand_no] = type(rec).__name__


@pytest.mark.parametrize(
    ("point", "n"),
    [
        ("hand_journaled", 1),
        ("hand_journaled", 3),
        ("engine_applied", 2),
        ("engine_applied", 7),
        ("before_apply", 4),
        ("settled_journaled", 1),
        ("settled_journaled", 2),
        ("settled_published", 2),
    ],
)
def test_crash_points_recover_exact_balances(point: str, n: int) -> None:
    """R-CRASH-1: kill the table at a point of a hand and restart from the journal: an
    unsettled hand is voided with every stack exactly as at its start; a hand whose
    settlement was written (even if never published) is not replayed nor paid twice."""

    async def body() -> None:
        fault = OneShotFault(point, n)
        h = await Harness.create(faults=fault)
        bots = await seat_bots(h, 3)
        await h.clock.run_until(lambda: not h.actor.alive, limit=10_000)
        assert fault.fired and not h.actor.alive
        records = h.journal.records(h.table.id)
        last_start = max(
            (r for r in records if isinstance(r, HandStartRecord)), key=lambda r: r.hand_no
        )
        settled = any(
            isinstance(r, HandEndRecord) and r.hand_no == last_start.hand_no for r in records
        )
        expected = {
            s.player_id: s.stack
            for s in (
                next(r for r in reversed(records) if isinstance(r, HandEndRecord)).seats
                if settled
                else last_start.seats
            )
        }
        await h.restart()
        assert h.stacks() == expected
        assert sum(expected.values()) == 600 == h.bank.total_in
        voids = data_of(h.table.history, HandVoided)
        assert bool(voids) == (not settled)
        if voids:
            assert voids[0].hand_no == last_start.hand_no and voids[0].reason == "crash"
        check_journal(h)
        # the table plays on
        await reattach(h, bots)
        start = h.table.hand_no
        await h.clock.run_until(lambda: h.table.hand_no >= start + 3, limit=h.clock.now() + 5000)
        assert h.table.hand_no >= start + 3 and h.actor.alive
        check_journal(h)

    run(body)


def test_random_kills_during_bot_play() -> None:
    """R-CRASH-1: kill the actor at random moments of many hands; after every restart each
    balance is exactly what it was before the voided hand and chips are conserved."""

    async def body() -> None:
        rng = random.Random(42)
        h = await Harness.create()
        bots = await seat_bots(h, 4)
        for _ in range(12):
            stop_at = h.clock.now() + rng.uniform(1, 60)
            await h.clock.run_until(lambda: False, limit=stop_at)
            await h.actor.stop()
            plan = plan_recovery(h.journal.records(h.table.id))
            expected = {s.player_id: s.stack for s in plan.seats}
            await h.restart()
            assert h.stacks() == expected
            total = sum(h.stacks().values()) + h.bank.total_out + h.table.rake_total
            assert total == h.bank.total_in
            check_journal(h)
            await reattach(h, bots)
        settled = [r for r in h.journal.records(h.table.id) if isinstance(r, HandEndRecord)]
        assert len(settled) >= 5

    run(body)


def test_settled_deal_verifies_against_commitment() -> None:
    """R-CARD-5: the journaled deck and salt of a hand match the published commitment."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        began = data_of(h.events(), HandBegan)
        await h.finish_hand()
        rec = next(r for r in h.journal.records(h.table.id) if isinstance(r, HandStartRecord))
        assert verify_hand(rec) and rec.commitment == began[0].commitment
        assert sorted(rec.deck) == sorted(DECK_52)
        from dataclasses import replace

        swapped = (rec.deck[1], rec.deck[0], *rec.deck[2:])
        assert not verify_hand(replace(rec, deck=swapped))

    run(body)


class BadShuffler:
    """Returns a broken deck: a duplicate card, or too few cards for the hand."""

    live = False

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        deck = tuple(items)
        if self.mode == "duplicate":
            return (deck[0], *deck[:-1])
        return deck[:6]


@pytest.mark.parametrize("mode", ["duplicate", "short"])
def test_inconsistent_state_voids_and_refunds(mode: str) -> None:
    """R-CARD-5, R-MISDEAL-1: the same card twice or an impossible state voids the hand and
    every chip committed returns to its owner."""

    async def body() -> None:
        h = await Harness.create()
        h.table.shuffler = BadShuffler(mode)
        await h.sit("ann", 200)
        await h.sit("bob", 200)
        await h.next_hand()
        if mode == "short":  # four hole cards dealt; the flop cannot be
            await h.act(h.to_act() or "", "call")
            await h.act(h.to_act() or "", "check")
        voids = data_of(h.events(), HandVoided)
        assert len(voids) == 1 and h.table.hand is None
        assert h.stacks() == {"ann": 200, "bob": 200}
        assert isinstance(h.journal.records(h.table.id)[-1], HandVoidRecord | SeatsRecord)
        check_journal(h)

    run(body)


@pytest.mark.parametrize(("rules", "levy"), [("arcade", True), ("room", False)])
def test_the_hand_record_says_whether_the_cut_is_a_levy(rules: str, levy: bool) -> None:
    """R-RAKE-3, R-RAKE-1: the table (its house rules), not the table's name, tells the store
    whether the house's cut of a hand is the arcade levy or the room's rake."""

    async def run() -> list[HandEndRecord]:
        h = await Harness.create("nlhe", rules=rules, seats=6)
        for p in ("ann", "bob", "cy"):
            await h.sit(p)
        await h.next_hand()
        await h.finish_hand()
        return [r for r in h.journal.records(h.table.id) if isinstance(r, HandEndRecord)]

    ends = asyncio.run(run())
    assert ends and all(r.levy is levy for r in ends)
