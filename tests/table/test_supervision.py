"""Supervision at the table layer (issue #11, R-CRASH-1): a supervised tournament table
voids the hand in play and the tournament goes on (tournament chips never go to an
account); a supervised casino table voids its open round and goes on; a bare actor still
stops (a process kill, restored by a new actor)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.casino.kit import StackedShuffler, deck
from tests.casino.kit import table as casino_table
from tests.tournament.kit import register_bots

from croupier.bots import BotRunner, RuleBot
from croupier.casino.cashier import MemoryCashier
from croupier.casino.table import Deal, Decide, Sit
from croupier.table.clock import FakeClock
from croupier.table.commands import SitDown
from croupier.table.events import HandBegan, HandSettled, HandVoided, TableEvent
from croupier.table.supervise import Supervision
from croupier.table.table import TableCrashed
from croupier.table.testing import Harness, data_of
from croupier.tournament.director import Director, seeded_shufflers
from croupier.tournament.money import PlayCashier
from croupier.tournament.registration import TournamentSpec
from croupier.tournament.sitngo import sit_and_go
from croupier.tournament.structures import BlindSchedule, Level

FAST = BlindSchedule(
    "fast",
    tuple([Level(10, 20, 0, 60.0), *(Level(25 * k, 50 * k, 5 * k, 60.0) for k in range(1, 40))]),
)


class Fault:
    """Raise ``TableCrashed`` at the ``n``-th ``engine_applied``, ``times`` times (each
    time ``every`` calls later)."""

    def __init__(self, n: int, times: int = 1, every: int = 25) -> None:
        self.calls, self.n, self.times, self.every = 0, n, times, every
        self.fired = 0

    def __call__(self, point: str) -> None:
        if point != "engine_applied" or self.fired >= self.times:
            return
        self.calls += 1
        if self.calls >= self.n + self.fired * self.every:
            self.fired += 1
            raise TableCrashed("fault injected")


async def _sit_and_go(
    tid: str, seed: int
) -> tuple[TournamentSpec, Director, PlayCashier, FakeClock]:
    """A started Sit & Go of six bots on a FakeClock, seeded by ``seed``."""
    spec = sit_and_go(tid, "SNG 6", seats=6, buy_in=100, schedule=FAST, between_hands=1.0)
    reg = register_bots(spec, 6)
    cashier = reg.cashier
    assert isinstance(cashier, PlayCashier)
    clock = FakeClock(0.0)
    rng = random.Random(seed)
    director = Director(
        spec, reg.start(rng), clock=clock, cashier=cashier, rng=rng,
        shuffler=seeded_shufflers(seed), testing=True,
    )  # fmt: skip
    await director.start()
    return spec, director, cashier, clock


def test_tournament_table_crash_voids_the_hand_and_the_tournament_goes_on() -> None:
    """R-CRASH-1 (tournament tables), R-TOUR-4: a tournament table supervised as the
    server supervises it crashes twice mid-hand; each time the hand is voided with every
    stack as at its start, the seats stay, and the Sit & Go is played to its end: the
    chips in play never change, the prizes are paid once and the pool ends empty; no
    tournament chip is paid to an account."""

    async def go() -> None:
        spec, director, cashier, clock = await _sit_and_go("sng-x", 5)
        ((_number, actor),) = director.actors.items()
        actor.supervise(Supervision(close_on_give_up=False))  # as the server's registry.attach
        fault = Fault(30, times=2, every=60)
        actor.table.faults = fault
        seen: list[TableEvent] = []
        actor.subscribe(None, seen.append, internal=True)
        total = 6 * spec.starting_stack
        chips: list[int] = []
        seen_settled = 0

        def tick() -> bool:
            nonlocal seen_settled
            settled = data_of(seen, HandSettled)
            if len(settled) > seen_settled:
                seen_settled = len(settled)
                chips.append(director.chips_in_play())
            return director.finished

        await clock.run_until(tick, limit=50_000)
        await clock.advance(1.0)
        assert fault.fired == 2 and actor.crashes == 2 and not actor.gave_up
        voids = data_of(seen, HandVoided)
        assert len(voids) == 2 and all(v.reason == "crash" for v in voids)
        assert director.finished and director.paid
        assert set(chips) == {total}
        paid = {p.player_id: p.prize for p in director.placings if p.prize}
        assert sum(paid.values()) == 600 and cashier.pool("sng-x") == 0
        assert sum(cashier.balances.values()) == 600  # nothing created, nothing lost

    asyncio.run(go())


def test_supervised_table_keeps_seats_connections_and_answers() -> None:
    """R-CRASH-1: a supervised cash table restores in place: the hand is voided, every
    stack is as before it, nobody is marked disconnected, a repeated command id gets its
    first answer, and the bots play on; a bare actor still stops on a crash."""

    async def go() -> None:
        fault = Fault(5)
        h = await Harness.create(faults=fault)
        h.actor.supervise(Supervision(max_crashes=3, window_seconds=60))
        bots = [BotRunner(h.actor, f"bot{i}", RuleBot(), clock=h.clock) for i in range(3)]
        for b in bots:
            assert (await b.join(200)).accepted
        sit = SitDown("ann-sit", "ann", "ann", 200)
        first = await h.send(sit)
        before: dict[str, int] = {}

        def crashed() -> bool:
            if not before and h.table.hand is not None:
                before.update(h.stacks())
            elif h.table.hand is None:
                before.clear()
            return fault.fired > 0

        await h.clock.run_until(crashed, limit=10_000)
        await h.clock.advance(0.01)
        assert h.actor.alive and h.actor.crashes == 1
        voided = data_of(h.events(), HandVoided)
        assert voided and voided[-1].reason == "crash"
        start = dict(voided[-1].stacks)
        assert {s.seat: s.stack for s in h.table.seats.values()} == start
        assert all(s.connected for s in h.table.seats.values())
        assert await h.send(sit) == first  # the answer survived the restore
        other = await h.send(SitDown("ann-sit-2", "ann", "ann", 200))
        assert not other.accepted and other.code == "already_seated"
        hand = h.table.hand_no
        await h.clock.run_until(lambda: h.table.hand_no >= hand + 3, limit=h.clock.now() + 5000)
        assert h.table.hand_no >= hand + 3 and h.actor.alive
        assert first.accepted
        await h.actor.stop()

        bare = await Harness.create(faults=Fault(3))
        for b in [BotRunner(bare.actor, f"bot{i}", RuleBot(), clock=bare.clock) for i in range(3)]:
            assert (await b.join(200)).accepted
        await bare.clock.run_until(lambda: not bare.actor.alive, limit=10_000)
        assert isinstance(bare.actor.crashed, TableCrashed)

    asyncio.run(go())


def test_supervised_casino_table_voids_the_round_and_goes_on() -> None:
    """R-CRASH-1 (casino): a supervised casino actor whose table raises mid-round voids
    the round (every bet back on the accounts), moves its watchers to the new table and
    keeps serving: the next round is played."""

    async def go() -> None:
        cash = MemoryCashier({"1": 100, "2": 100})
        d = deck(["AsKs", "2c7d"], "9c9d", "Ts8h5s4hJc")
        actor, _ = casino_table(cash, StackedShuffler(d, d))
        actor.supervise(Supervision(close_on_give_up=False))
        await actor.submit(Sit("s1", "1", "a", 0))
        await actor.submit(Sit("s2", "2", "b", 1))
        got: list[Any] = []
        actor.table.subscribe("1", got.append)
        await actor.submit(Deal("d1", "1", 10, 5))
        await actor.submit(Deal("d2", "2", 10))
        assert cash.balance("1") == 85 and cash.escrow
        old = actor.table

        def boom(msg: Any) -> Any:
            raise RuntimeError("fault injected")

        old.steps = boom  # type: ignore[method-assign]
        try:
            await actor.submit(Decide("a", "1", "play"))
        except Exception as exc:
            assert getattr(exc, "code", None) == "table_crashed"
        else:  # pragma: no cover
            raise AssertionError("the crash was not reported")
        for _ in range(1000):  # the round is voided on a worker thread after the answer
            if actor.table is not old:
                break
            await asyncio.sleep(0.01)
        assert actor.alive and actor.table is not old and actor.crashes == 1
        assert cash.balance("1") == 100 and cash.balance("2") == 100 and not cash.escrow
        assert actor.table.round is None and got[-1]["version"] == actor.table.version
        await actor.submit(Sit("s3", "1", "a", 0))
        await actor.submit(Deal("d3", "1", 10))
        assert cash.balance("1") == 90  # a new round at the restored table
        await actor.stop()

    asyncio.run(go())


def test_tournament_table_given_up_pauses_and_the_tournament_goes_on() -> None:
    """R-CRASH-1 (tournament tables), R-TOUR-4: a tournament table crashing three times in
    a row is given up; as the server supervises it (``pause_seconds``), it does not stop
    (its players have no other table): no hand is dealt for the pause, then it is restored
    from its journal with a fresh crash window and the Sit & Go is played to its end with
    every chip accounted for and the prizes paid once."""

    async def go() -> None:
        spec, director, cashier, clock = await _sit_and_go("sng-p", 7)
        ((_number, actor),) = director.actors.items()
        actor.supervise(Supervision(close_on_give_up=False, pause_seconds=30.0))
        fault = Fault(30, times=3, every=1)  # three crashes in a row: one too many
        actor.table.faults = fault
        seen: list[tuple[float, TableEvent]] = []
        actor.subscribe(None, lambda e: seen.append((clock.now(), e)), internal=True)
        chips: set[int] = set()

        def tick() -> bool:
            if any(isinstance(e.data, HandSettled) for _, e in seen[-1:]):
                chips.add(director.chips_in_play())
            return director.finished

        await clock.run_until(tick, limit=50_000)
        await clock.advance(1.0)
        assert fault.fired == 3 and actor.crashes == 3
        assert actor.pauses == 1 and not actor.gave_up and not actor.paused
        voids = [(t, e) for t, e in seen if isinstance(e.data, HandVoided)]
        assert [e.data.reason for _, e in voids] == ["crash", "crash", "crash"]
        # each restore announces its void: the third came the pause after the second, and
        # only the hand that crashed was dealt in between
        (t1, _), (t2, _), (t3, _) = voids
        assert t2 - t1 < 30.0 <= t3 - t2, (t1, t2, t3)
        between = [t for t, e in seen if isinstance(e.data, HandBegan) and t2 < t < t3]
        assert len(between) <= 1, between
        assert director.finished and director.paid
        assert chips == {6 * spec.starting_stack}
        assert sum(p.prize for p in director.placings) == 600 and cashier.pool("sng-p") == 0
        assert sum(cashier.balances.values()) == 600  # nothing created, nothing lost

    asyncio.run(go())


def test_a_pause_is_only_for_tables_that_do_not_close() -> None:
    """A cash table given up sends the stacks home: it cannot be paused instead."""
    import pytest

    with pytest.raises(ValueError):
        Supervision(pause_seconds=30.0)
    with pytest.raises(ValueError):
        Supervision(close_on_give_up=False, pause_seconds=0.0)
    assert Supervision(close_on_give_up=False, pause_seconds=1.0).pause_seconds == 1.0
