"""Button movement and blinds owed (R-POS-1, R-POS-6, R-SEAT-3)."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable, Callable
from typing import Any

from croupier.table import SitIn, SitOut
from croupier.table.button import clockwise
from croupier.table.testing import Harness


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


class CountingRng(random.Random):
    """A seeded Random that counts button draws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws = 0

    def choice(self, seq: Any) -> Any:
        self.draws += 1
        return super().choice(seq)


async def play_hand(h: Harness) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    await h.next_hand()
    plan = h.table.plan
    assert plan is not None and plan.blinds is not None and plan.dead is not None
    out = (plan.button, plan.seats, plan.blinds, plan.dead)
    await h.finish_hand()
    return out


def test_standard_button_moves_one_seat_clockwise() -> None:
    """R-POS-6 standard, R-POS-1: the button moves to the next occupied seat each hand; the
    small blind is at its left, the big blind next; the button is the last position."""

    async def body() -> None:
        h = await Harness.create(seats=6)
        for p, seat in (("ann", 0), ("bob", 2), ("cid", 3), ("dan", 5)):
            await h.sit(p, seat=seat)
        buttons = []
        for _ in range(6):
            button, seats, blinds, _ = await play_hand(h)
            buttons.append(button)
            assert seats[-1] == button
            assert seats == tuple(clockwise([0, 2, 3, 5], button, 6))
            assert blinds[:2] == (1, 2) and not any(blinds[2:])
        for a, b in itertools.pairwise(buttons):
            assert b == clockwise([0, 2, 3, 5], a, 6)[0]

    run(body)


def test_heads_up_button_posts_small_blind() -> None:
    """R-POS-1: heads-up the button posts the small blind and acts first pre-flop."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        plan = h.table.plan
        assert plan is not None and plan.blinds == (2, 1)
        button_player = h.table.seats[plan.button].player_id
        assert h.to_act() == button_player

    run(body)


def test_arcade_button_random_then_clockwise_unless_players_change() -> None:
    """R-POS-6 arcade: first button random; next hand one seat clockwise if nobody joined or
    left, otherwise a new random button."""

    async def body() -> None:
        h = await Harness.create("nlhe", rules="arcade", seats=6)
        rng = CountingRng(5)
        h.table.rng = rng
        for p in ("ann", "bob", "cid"):
            await h.sit(p)
        b1, seats1, _, _ = await play_hand(h)
        assert rng.draws == 1
        b2, _, _, _ = await play_hand(h)
        assert rng.draws == 1 and b2 == clockwise(list(seats1), b1, 6)[0]
        await h.sit("dan")
        await play_hand(h)
        assert rng.draws == 2  # a player joined: a new random button
        await play_hand(h)
        assert rng.draws == 2
        # random: over many seeds the first button lands on every seat
        firsts = set()
        for seed in range(12):
            g = await Harness.create("nlhe", rules="arcade", seed=seed)
            for p in ("ann", "bob", "cid"):
                await g.sit(p)
            await g.next_hand()
            assert g.table.plan is not None
            firsts.add(g.table.plan.button)
        assert firsts == {0, 1, 2}

    run(body)


def test_new_player_waits_for_big_blind() -> None:
    """R-SEAT-3, R-POS-6: a new player waits for the big blind unless they post one."""

    async def body() -> None:
        h = await Harness.create(seats=6)
        for p in ("ann", "bob", "cid"):
            await h.sit(p, seat={"ann": 0, "bob": 1, "cid": 2}[p])
        await play_hand(h)
        await h.sit("eve", seat=4)
        dealt_as_bb = False
        for _ in range(4):
            _, seats, blinds, _ = await play_hand(h)
            if 4 in seats:
                assert blinds[seats.index(4)] == 2 and seats.index(4) == 1  # the big blind
                dealt_as_bb = True
                break
        assert dealt_as_bb
        # posting: dealt in at once with a live big blind out of position
        await h.sit("fay", seat=5, post_big_blind=True)
        _, seats, blinds, dead = await play_hand(h)
        assert 5 in seats and blinds[seats.index(5)] == 2 and dead[seats.index(5)] == 0

    run(body)


def test_missed_blinds_posted_live_and_dead_or_wait() -> None:
    """R-SEAT-3: a player who missed the big blind posts it to come back; one who missed
    both also posts the small blind dead; or waits for the big blind."""

    async def body() -> None:
        h = await Harness.create(seats=6)
        for i, p in enumerate(("ann", "bob", "cid", "dan")):
            await h.sit(p, seat=i)
        await play_hand(h)
        await h.send(SitOut(h.cid(), "cid"))
        for _ in range(6):  # both blinds pass seat 2
            await play_hand(h)
        cid = h.table.seat_of("cid")
        assert cid.owes_bb and cid.owes_sb
        await h.send(SitIn(h.cid(), "cid", post_blinds=True))
        _, seats, blinds, dead = await play_hand(h)
        pos = seats.index(2)
        assert pos > 1  # out of the blinds: posts a live big blind and a dead small blind
        assert blinds[pos] == 2 and dead[pos] == 1
        assert not h.table.seat_of("cid").owes_bb
        # dan sits out, misses, and comes back waiting for the big blind instead
        await h.send(SitOut(h.cid(), "dan"))
        for _ in range(4):
            await play_hand(h)
        assert h.table.seat_of("dan").owes_bb
        await h.send(SitIn(h.cid(), "dan", post_blinds=False))
        for _ in range(5):
            _, seats, blinds, dead = await play_hand(h)
            if 3 in seats:
                assert blinds[seats.index(3)] == 2 and dead[seats.index(3)] == 0
                assert seats.index(3) == 1  # natural big blind
                break
        else:
            raise AssertionError("dan never came back")

    run(body)


def test_restart_deals_everyone_in() -> None:
    """R-SEAT-3 (Decision): when fewer than two players owe nothing, the game restarts and
    everyone is dealt in free."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        assert h.table.plan is not None and len(h.table.plan.seats) == 2

    run(body)
