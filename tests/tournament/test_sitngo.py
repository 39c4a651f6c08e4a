"""Sit & Go from registration to the last player with chips (R-TOUR-1, R-TOUR-4,
R-SEAT-2, R-BOT-1), on a FakeClock with bots."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from croupier.table.clock import FakeClock
from croupier.table.commands import Leave
from croupier.table.events import PlayerSeated
from croupier.tournament.director import Director, seeded_shufflers
from croupier.tournament.money import PlayCashier
from croupier.tournament.registration import Registration, Status
from croupier.tournament.sitngo import sit_and_go
from croupier.tournament.structures import BlindSchedule, Level
from tests.tournament.kit import register_bots, run

FAST = BlindSchedule(
    "fast",
    (
        Level(10, 20, 0, 60.0),
        Level(20, 40, 0, 60.0),
        Level(40, 80, 10, 60.0),
        *(Level(50 * k, 100 * k, 10 * k, 60.0) for k in range(2, 30)),
    ),
)


@pytest.mark.parametrize("seed", [1, 2])
def test_sit_and_go_to_the_last_player(seed: int) -> None:
    """R-TOUR-1, R-TOUR-4: 6 bots play until one has every chip; the sum of the stacks is
    the same at every hand's end; every entrant gets one place; the published prizes are
    paid to the top two and the pool ends empty."""
    spec = sit_and_go("sng-a", "SNG 6", seats=6, buy_in=100, schedule=FAST, between_hands=1.0)
    reg = register_bots(spec, 6)
    cashier = reg.cashier
    assert isinstance(cashier, PlayCashier)
    assert reg.full and cashier.pool("sng-a") == 600
    result = asyncio.run(run(reg, seed))
    d = result.director
    assert d.finished and d.paid and reg.status is Status.RUNNING
    total = 6 * spec.starting_stack
    assert result.settled, "hands were played"
    assert {chips for _, _, chips in result.settled} == {total}
    assert d.checks == len(result.settled)
    places = sorted(p.place for p in d.placings)
    assert sorted(p.player_id for p in d.placings) == sorted(f"b{i}" for i in range(6))
    assert places[0] == 1 and places[-1] <= 6
    assert result.launch.prizes == (390, 210)
    paid = {p.player_id: p.prize for p in d.placings if p.prize}
    first = next(p for p in d.placings if p.place == 1)
    assert paid[first.player_id] >= 210
    assert sum(paid.values()) == 600 and cashier.pool("sng-a") == 0
    assert sum(cashier.balances.values()) == 600  # nothing created, nothing lost
    # eliminated players were ranked by time: a later elimination is a better place (busts
    # of one hand share a time and are ranked among themselves, R-TOUR-12)
    out = sorted((p for p in d.placings if p.place > 1), key=lambda p: (p.at, -p.place))
    assert [p.place for p in out] == sorted((p.place for p in out), reverse=True)


def test_levels_rise_on_time() -> None:
    """R-TOUR-1: blinds rise on the schedule of the tournament clock, applied between
    hands: every hand uses the level in force when it began."""
    spec = sit_and_go("sng-l", "SNG 3", seats=3, buy_in=10, schedule=FAST, between_hands=1.0)
    result = asyncio.run(run(register_bots(spec, 3), 5))
    d = result.director
    starts = FAST.starts
    assert len(d.levels) >= 3
    for k, at in d.levels:
        assert at - d.started_at == pytest.approx(starts[k])
    seen = set()
    for _, at, began in result.began:
        k = FAST.level_at(at - d.started_at)
        # a hand starting exactly at a level change may still be dealt at the old level
        allowed = {FAST.levels[k].big_blind, FAST.levels[max(k - 1, 0)].big_blind}
        bb = max(began.blinds)
        assert bb in allowed, (at, bb, allowed)
        seen.add(bb)
    assert len(seen) >= 3  # the blinds did rise during the run


def test_seats_are_drawn_with_the_injected_rng() -> None:
    """R-SEAT-2: tournament seats are drawn at random: the same seed gives the same seats,
    other seeds others; bots are labelled BOT (R-BOT-1)."""

    async def seating(seed: int) -> tuple[tuple[str, int], ...]:
        spec = sit_and_go("sng-s", "SNG 9", seats=9, buy_in=0)
        reg = register_bots(spec, 9, PlayCashier())
        clock = FakeClock()
        rng = random.Random(seed)
        d = Director(
            spec,
            reg.start(rng),
            clock=clock,
            cashier=reg.cashier,
            rng=rng,
            shuffler=seeded_shufflers(seed),
            testing=True,
        )
        await d.start()
        seats = d.actors[0].table.seats
        names = [s.name for s in seats.values()]
        assert all(n.startswith("BOT ") for n in names) and all(s.is_bot for s in seats.values())
        events = d.actors[0].table.history
        assert Counter(type(e.data) for e in events)[PlayerSeated] == 9
        for a in d.actors.values():
            await a.stop()
        return tuple(sorted((s.player_id, s.seat) for s in seats.values()))

    first = asyncio.run(seating(1))
    assert asyncio.run(seating(1)) == first
    others = {asyncio.run(seating(seed)) for seed in range(2, 6)}
    assert len(others | {first}) > 1


def test_an_absent_player_cannot_take_chips_away_and_is_blinded_off() -> None:
    """R-TOUR-1, R-TOUR-4, R-TIME-1: a human who stands up with tournament chips is seated
    again with them (they cannot leave with chips); never acting, their clock runs out at
    each turn and the blinds take their chips; the tournament still ends."""
    spec = sit_and_go("sng-h", "SNG 3", seats=3, buy_in=10, schedule=FAST, between_hands=1.0)
    cashier = PlayCashier({"hal": 10, "b0": 10, "b1": 10})
    reg = Registration(spec, cashier)
    reg.register("hal", "Hal")
    reg.register("b0", is_bot=True)
    reg.register("b1", is_bot=True)

    async def go() -> Director:
        clock = FakeClock()
        rng = random.Random(9)
        d = Director(
            spec,
            reg.start(rng),
            clock=clock,
            cashier=cashier,
            rng=rng,
            shuffler=seeded_shufflers(9),
            testing=True,
        )
        await d.start()
        table = d.actors[0]
        left = await table.submit(Leave("hal-1", "hal"))
        assert left.accepted and left.data == "now"
        await clock.advance(0)
        assert [p for p, _ in d.rejoined] == ["hal"]
        seat = next(s for s in table.table.seats.values() if s.player_id == "hal")
        assert seat.stack == spec.starting_stack and not seat.is_bot
        assert d.chips_in_play() == 3 * spec.starting_stack
        await clock.run_until(lambda: d.finished, limit=200_000)
        await clock.advance(1)
        return d

    d = asyncio.run(go())
    assert d.finished and {p.player_id for p in d.placings} == {"hal", "b0", "b1"}
    assert sum(cashier.balances.values()) == 30


def test_players_out_in_the_same_hand_are_ranked_by_their_starting_stacks() -> None:
    """R-TOUR-1: several players out in one hand: more chips when it began, better place;
    equal stacks share the prizes of the places they cover."""
    from croupier.tournament.director import rank_out

    start = {"a": 300, "b": 100, "c": 300, "d": 50}
    out = rank_out(["d", "c", "b", "a"], start, 2, (500, 300, 200), 7.0)
    assert [(p.player_id, p.place, p.prize) for p in out] == [
        ("a", 2, 250),
        ("c", 2, 250),
        ("b", 4, 0),
        ("d", 5, 0),
    ]
    assert all(p.at == 7.0 for p in out)
