"""Sit & Go payouts and structures, blind levels and the big-blind ante, seats, the dead
button and absent players at tournament tables (R-TOUR-6..9), through the director and
its real table actors on a FakeClock, and the lobby's JSON."""

from __future__ import annotations

import asyncio
import itertools
import random
from functools import partial

import pytest

from croupier.table.button import clockwise
from croupier.table.clock import FakeClock
from croupier.table.commands import SitOut
from croupier.table.events import HandBegan, TableEvent
from croupier.tournament.director import Director, seeded_shufflers
from croupier.tournament.money import PlayCashier
from croupier.tournament.registration import Registration
from croupier.tournament.scheduled import draw_seats, scheduled
from croupier.tournament.sitngo import sit_and_go
from croupier.tournament.structures import (
    SNG_HYPER,
    SNG_PAYOUTS,
    SNG_REGULAR,
    SNG_TURBO,
    STANDARD_PAYOUTS,
    BlindSchedule,
    Level,
)
from tests.tournament.kit import register_bots, run

# -- R-TOUR-9: Sit & Go payouts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "shares"),
    [
        (2, (10_000,)),
        (3, (10_000,)),
        (4, (7_000, 3_000)),
        (5, (7_000, 3_000)),
        (6, (6_500, 3_500)),
        (8, (6_500, 3_500)),
        (9, (5_000, 3_000, 2_000)),
        (10, (5_000, 3_000, 2_000)),
        (30, (5_000, 3_000, 2_000)),
    ],
)
def test_sit_and_go_payouts_by_entrants(entrants: int, shares: tuple[int, ...]) -> None:
    """R-TOUR-9: 2-3 entrants 100; 4-5: 70/30; 6-8: 65/35; 9-30: 50/30/20; a Sit & Go
    uses this table, a scheduled event keeps the pokersource table."""
    assert SNG_PAYOUTS.shares(entrants) == shares
    seats = min(entrants, 10)
    assert sit_and_go("s", "S", seats=seats).payouts.shares(seats) == SNG_PAYOUTS.shares(seats)
    assert scheduled("m", "M", opens_at=0.0, starts_at=60.0).payouts is STANDARD_PAYOUTS
    assert STANDARD_PAYOUTS.shares(3) == (6_500, 3_500)  # not the Sit & Go table


def test_sit_and_go_prizes_are_floored_with_the_remainder_to_first() -> None:
    """R-TOUR-9: prizes are floored, the chips left over go to 1st; they sum to the pool."""
    assert SNG_PAYOUTS.prizes(1001, 9) == (501, 300, 200)
    assert SNG_PAYOUTS.prizes(1009, 9) == (506, 302, 201)
    assert SNG_PAYOUTS.prizes(333, 6) == (217, 116)
    assert SNG_PAYOUTS.prizes(77, 4) == (54, 23)
    for pool in range(0, 400):
        for n in (2, 4, 6, 9):
            prizes = SNG_PAYOUTS.prizes(pool, n)
            assert sum(prizes) == pool
            floors = [pool * s // 10_000 for s in SNG_PAYOUTS.shares(n)]
            assert list(prizes[1:]) == floors[1:]


def test_a_three_seat_sit_and_go_pays_the_winner_everything() -> None:
    """R-TOUR-9: played through the director, a 3-entrant Sit & Go pays 100 % to 1st."""
    fast = BlindSchedule("fast", tuple(Level(b, 2 * b, 0, 60.0) for b in (20, 40, 80, 160, 320)))
    spec = sit_and_go("sng-3", "SNG 3", seats=3, buy_in=100, schedule=fast, between_hands=1.0)
    reg = register_bots(spec, 3)
    result = asyncio.run(run(reg, 4))
    d = result.director
    assert result.launch.prizes == (300,)
    assert d.paid
    (winner,) = [p for p in d.placings if p.prize]
    assert winner.place == 1 and winner.prize == 300


def test_the_lobby_row_shows_the_sit_and_go_payout_table() -> None:
    """R-TOUR-9: the lobby row (the JSON of /api/tournaments) shows the one tier a Sit & Go
    can use: 6 seats 65/35, 4 seats 70/30, 9 seats 50/30/20, 3 seats 100."""
    cases = {6: (8, [6_500, 3_500]), 4: (5, [7_000, 3_000]), 9: (30, [5_000, 3_000, 2_000])}
    cases[3] = (3, [10_000])
    for seats, (cap, shares) in cases.items():
        row = sit_and_go("s", "S", seats=seats).summary()
        assert row["payouts"] == [{"max_entrants": cap, "shares_bp": shares}]


# -- R-TOUR-8: Sit & Go structures ----------------------------------------------------------


def test_sit_and_go_structures() -> None:
    """R-TOUR-8: stack 1,500; L1-7 10/20, 15/30, 25/50, 50/100, 75/150, 100/200, 100/200
    with a big-blind ante from L7, then 200/400 … 2000/4000, then +50 % per level rounded
    to the blind chip; regular 10 min, turbo 5 min, hyper 3 min with 500 chips."""
    blinds = [(lv.small_blind, lv.big_blind) for lv in SNG_REGULAR.levels]
    assert blinds[:15] == [
        (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (100, 200),
        (200, 400), (300, 600), (400, 800), (600, 1200), (800, 1600), (1000, 2000),
        (1500, 3000), (2000, 4000),
    ]  # fmt: skip
    assert blinds[15:18] == [(3000, 6000), (4500, 9000), (7000, 14000)]
    for a, b in itertools.pairwise(blinds[14:]):
        assert b[0] % 500 == 0 and b[1] == 2 * b[0]
        assert abs(b[1] - a[1] * 3 // 2) <= 500  # +50 %, to the nearest 500 chip
    for k, lv in enumerate(SNG_REGULAR.levels, start=1):
        assert lv.ante == (lv.big_blind if k >= 7 else 0)
        assert lv.stakes.big_blind_ante is (k >= 7)
    for sched, seconds in ((SNG_REGULAR, 600.0), (SNG_TURBO, 300.0), (SNG_HYPER, 180.0)):
        assert {lv.seconds for lv in sched.levels} == {seconds}
        assert [lv.big_blind for lv in sched.levels] == [b for _, b in blinds]
    specs = {s: sit_and_go("x", "X", seats=6, speed=s) for s in ("regular", "turbo", "hyper")}
    assert {s: (p.starting_stack, p.schedule) for s, p in specs.items()} == {
        "regular": (1500, SNG_REGULAR),
        "turbo": (1500, SNG_TURBO),
        "hyper": (500, SNG_HYPER),
    }
    row = specs["hyper"].summary()
    assert row["starting_stack"] == 500
    levels = row["levels"]
    assert isinstance(levels, list)
    assert levels[6] == {"small_blind": 100, "big_blind": 200, "ante": 200, "seconds": 180.0}
    assert levels[5]["ante"] == 0


def test_an_unknown_speed_is_refused() -> None:
    """R-TOUR-8: only the published speeds exist."""
    from croupier.tournament.errors import TournamentError

    with pytest.raises(TournamentError) as err:
        sit_and_go("x", "X", speed="warp")
    assert err.value.code == "bad_speed"


# -- R-TOUR-7: levels on the clock, next hand, big-blind ante -----------------------------


class _Watch:
    """Every hand's start at each table: (table, time, notice), and the antes and
    contributions the engine took at the start."""

    def __init__(self, director: Director, clock: FakeClock) -> None:
        self.d = director
        self.clock = clock
        self.began: list[tuple[int, float, HandBegan]] = []
        self.began_antes: list[tuple[HandBegan, list[int], list[int]]] = []

    def __call__(self, table: int, event: TableEvent) -> None:
        data = event.data
        if isinstance(data, HandBegan):
            hand = self.d.actors[table].table.hand
            assert hand is not None
            self.began.append((table, self.clock.now(), data))
            self.began_antes.append((data, list(hand._antes), list(hand.contributions)))


async def _play(
    spec_kwargs: dict[str, object], n: int, seed: int, until: float
) -> tuple[Director, _Watch]:
    spec = sit_and_go("sng-r", "SNG", buy_in=0, between_hands=1.0, **spec_kwargs)  # type: ignore[arg-type]
    reg = register_bots(spec, n, PlayCashier())
    clock = FakeClock()
    rng = random.Random(seed)
    d = Director(
        spec, reg.start(rng), clock=clock, cashier=reg.cashier, rng=rng,
        shuffler=seeded_shufflers(seed), testing=True,
    )  # fmt: skip
    w = _Watch(d, clock)
    await d.start()
    for t, actor in d.actors.items():
        actor.subscribe(None, partial(w, t), internal=True)
    await clock.run_until(lambda: d.finished or clock.now() >= until, limit=until + 1)
    for a in d.actors.values():
        await a.stop()
    return d, w


def test_a_new_level_applies_to_the_next_hand() -> None:
    """R-TOUR-7: levels change on the clock; a hand running when the level changes keeps
    its blinds and the next hand at that table is dealt at the new level."""
    sched = BlindSchedule(
        "s", (Level(10, 20, 0, 7.5), Level(25, 50, 0, 7.5), Level(50, 100, 0, 60))
    )
    d, w = asyncio.run(_play({"seats": 3, "schedule": sched}, 3, 3, 40.0))
    changes = {k: at for k, at in d.levels}
    assert changes[1] == pytest.approx(d.started_at + 7.5)
    assert changes[2] == pytest.approx(d.started_at + 15.0)
    spanning = 0
    for (_, at, began), nxt in itertools.pairwise(w.began):
        level = sched.level_at(at - d.started_at)
        assert max(began.blinds) == sched.levels[level].big_blind
        k_next = sched.level_at(nxt[1] - d.started_at)
        if k_next > level:
            spanning += 1
            # the hand that began before the change was dealt at the old level, the next
            # one at the new one
            assert max(nxt[2].blinds) == sched.levels[k_next].big_blind
    assert spanning >= 1


def test_the_big_blind_antes_at_the_tournament_table() -> None:
    """R-TOUR-7: with an ante level in force, the tournament table's hands take one ante,
    equal to the big blind, from the big blind only, after the blind (a short big blind
    pays the blind first)."""
    sched = BlindSchedule("a", (Level(100, 200, 200, 600.0),))
    _, w = asyncio.run(_play({"seats": 4, "schedule": sched, "starting_stack": 700}, 4, 7, 200.0))
    assert w.began_antes, "hands were dealt"
    for began, antes, contrib in w.began_antes:
        bb_pos = [p for p, b in enumerate(began.blinds) if b == 200]
        paid = [p for p, a in enumerate(antes) if a]
        assert len(paid) <= 1
        if paid:
            assert paid == bb_pos[:1]
            (p,) = paid
            assert antes[p] <= 200
            # the blind was complete before any ante was taken
            assert contrib[p] - antes[p] == 200
        else:
            # no ante: the big blind could not even complete its blind
            assert contrib[bb_pos[0]] <= 200
    assert any(a[p] == 200 for _, a, _ in w.began_antes for p in range(len(a)))


# -- R-TOUR-6: seats, button, dead button, absent players ---------------------------------


def test_seats_are_drawn_from_the_logged_seed_and_the_button_starts_on_seat_1() -> None:
    """R-TOUR-6: seats are drawn at random from a seed the director logs and journals (the
    draw can be redone from it); the first hand's button is on seat 1 (seat 0 inside)."""

    async def go(seed: int) -> tuple[Director, list[HandBegan]]:
        spec = sit_and_go("sng-b", "SNG 6", seats=6, buy_in=0, between_hands=1.0)
        reg = register_bots(spec, 6, PlayCashier())
        clock = FakeClock()
        rng = random.Random(seed)
        d = Director(
            spec, reg.start(rng), clock=clock, cashier=reg.cashier, rng=rng,
            shuffler=seeded_shufflers(seed), testing=True,
        )  # fmt: skip
        began: list[HandBegan] = []
        await d.start()
        d.actors[0].subscribe(
            None,
            lambda e: began.append(e.data) if isinstance(e.data, HandBegan) else None,
            internal=True,
        )
        await clock.advance(5.0)
        for a in d.actors.values():
            await a.stop()
        return d, began

    for seed in (1, 2, 3):
        d, began = asyncio.run(go(seed))
        assert d.seat_seed is not None and d.state()["seat_seed"] == d.seat_seed
        redo = draw_seats(sorted(d.entrants), 6, random.Random(d.seat_seed))
        assert redo == d.where | {p: redo[p] for p in redo if p not in d.where}
        assert began and began[0].button == 0


def test_dead_button_and_absent_players_post_blinds() -> None:
    """R-TOUR-6: tournament tables use the dead button: the big blind moves one player at a
    time and never skips anyone; a player sitting out stays dealt in and posts blinds."""

    async def go() -> tuple[Director, list[HandBegan]]:
        spec = sit_and_go("sng-d", "SNG 4", seats=4, buy_in=0, between_hands=1.0)
        reg = register_bots(spec, 4, PlayCashier())
        clock = FakeClock()
        rng = random.Random(11)
        d = Director(
            spec, reg.start(rng), clock=clock, cashier=reg.cashier, rng=rng,
            shuffler=seeded_shufflers(11), testing=True,
        )  # fmt: skip
        began: list[HandBegan] = []
        await d.start()
        actor = d.actors[0]
        actor.subscribe(
            None,
            lambda e: began.append(e.data) if isinstance(e.data, HandBegan) else None,
            internal=True,
        )
        out = min(actor.table.seats.values(), key=lambda s: s.seat)
        res = await actor.submit(SitOut("t-sitout", out.player_id))
        assert res.accepted, res
        await clock.run_until(lambda: len(began) >= 8 or d.finished, limit=2000.0)
        d._sat_out = out.seat  # type: ignore[attr-defined]
        for a in d.actors.values():
            await a.stop()
        return d, began

    d, began = asyncio.run(go())
    absent = d._sat_out  # type: ignore[attr-defined]
    assert len(began) >= 4
    assert absent in began[0].seats and absent in began[1].seats  # sitting out, dealt in
    bbs = [b.seats[b.blinds.index(max(b.blinds))] for b in began]
    # the big blind moves to the next player clockwise each hand, never skipping one
    for k in range(1, len(began)):
        last_bb, dealt = bbs[k - 1], list(began[k].seats)
        assert bbs[k] == clockwise(dealt, last_bb, 4)[0]
    assert absent in bbs[:4], "the absent player's big blind was taken"


def test_the_dead_button_plan() -> None:
    """R-TOUR-6: when the big blind busts, the next hand has a dead small blind (nobody
    posts it) and the one after a dead button (on the empty seat); the big blind moves
    one player at a time; heads-up the button posts the small blind."""
    from croupier.table.button import plan_hand
    from croupier.table.seating import Seat

    def seats(*nums: int) -> dict[int, Seat]:
        return {n: Seat(n, f"p{n}", stack=100) for n in nums}

    rng = random.Random(0)
    kw = {"count": 6, "mode": "dead", "blinds": (10, 20), "rng": rng, "prev_dealt": None}
    p1 = plan_hand(seats(0, 1, 2, 4), prev_button=None, prev_spots=None, **kw)  # type: ignore[arg-type]
    assert p1 is not None and (p1.button, p1.sb_seat, p1.bb_seat) == (0, 1, 2)
    # seat 2 (the big blind) busts: seat 4 has the big blind, the small blind is dead
    p2 = plan_hand(seats(0, 1, 4), prev_button=0, prev_spots=(1, 2), **kw)  # type: ignore[arg-type]
    assert p2 is not None and (p2.button, p2.sb_seat, p2.sb_spot, p2.bb_seat) == (1, None, 2, 4)
    assert p2.seats == (4, 0, 1) and p2.blinds == (20, 0, 0)
    # next: the button is dead on the empty seat 2, seat 4 posts the small, 0 the big
    p3 = plan_hand(seats(0, 1, 4), prev_button=1, prev_spots=(2, 4), **kw)  # type: ignore[arg-type]
    assert p3 is not None and (p3.button, p3.sb_seat, p3.bb_seat) == (2, 4, 0)
    assert p3.seats == (4, 0, 1) and p3.blinds == (10, 20, 0)
    # a sitting-out player is dealt in and posts
    absent = seats(0, 1, 4) | {1: Seat(1, "p1", stack=100, sitting_out=True)}
    p4 = plan_hand(absent, prev_button=2, prev_spots=(4, 0), **kw)  # type: ignore[arg-type]
    assert p4 is not None and p4.bb_seat == 1 and 1 in p4.seats
    # heads-up: the other player has the button and posts the small blind
    p5 = plan_hand(seats(1, 4), prev_button=4, prev_spots=(0, 1), **kw)  # type: ignore[arg-type]
    assert p5 is not None and (p5.button, p5.sb_seat, p5.bb_seat) == (1, 1, 4)


def test_registration_unchanged() -> None:
    """R-TOUR-8: unregistering is allowed until the last seat fills."""
    spec = sit_and_go("sng-u", "SNG 3", seats=3, buy_in=10)
    cashier = PlayCashier({"a": 10, "b": 10, "c": 10})
    reg = Registration(spec, cashier)
    reg.register("a")
    reg.unregister("a")
    assert cashier.balances["a"] == 10
