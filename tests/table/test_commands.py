"""Seating commands, buy-ins, idempotency and refusals (R-SEAT-1, R-SEAT-3, R-BET-8, R-BOT-1)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.table import (
    Act,
    FakeClock,
    InMemoryJournal,
    Leave,
    Reload,
    SitDown,
    SitIn,
    SitOut,
    Table,
    TableConfig,
    TableError,
)
from croupier.table.events import ReloadOffered
from croupier.table.testing import Harness, data_of


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


def state_of(h: Harness) -> tuple[Any, ...]:
    t = h.table
    return (t.snapshot(None), t.version, len(h.journal.records(t.id)), dict(h.bank.moves))


def test_sit_down_first_free_and_chosen_seat() -> None:
    """R-SEAT-1, R-SEAT-2: seat by arrival (first free) or the chosen free seat."""

    async def body() -> None:
        h = await Harness.create()
        a = await h.sit("ann", seat=2)
        b = await h.sit("bob")
        c = await h.sit("cid")
        assert (a.data, b.data, c.data) == (2, 0, 1)
        assert h.stacks() == {"ann": 400, "bob": 400, "cid": 400}
        assert h.bank.total_in == 1200

    run(body)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"buy_in": 79}, "buy_in_too_small"),
        ({"buy_in": 401}, "buy_in_too_large"),
        ({"buy_in": 0}, "bad_amount"),
        ({"buy_in": 100, "seat": 6}, "bad_seat"),
        ({"buy_in": 100, "seat": -1}, "bad_seat"),
        ({"buy_in": 100, "seat": 0}, "seat_taken"),
    ],
)
def test_sit_down_refusals_change_nothing(kwargs: dict[str, Any], code: str) -> None:
    """R-SEAT-1: buy-in within min/max; bad input is refused with a code and changes nothing."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann", seat=0)
        before = state_of(h)
        r = await h.send(SitDown(h.cid(), "bob", "Bob", **kwargs))
        assert not r.accepted and r.code == code and r.message
        assert state_of(h) == before

    run(body)


def test_already_seated_full_table_and_funds() -> None:
    """R-SEAT-1: one seat per player; a full table and an empty account are refused."""

    async def body() -> None:
        h = await Harness.create(seats=2)
        h.bank.limits["poor"] = 50
        await h.sit("ann")
        assert (await h.sit("ann")).code == "already_seated"
        assert (await h.sit("poor", 100)).code == "insufficient_funds"
        await h.sit("bob")
        before = state_of(h)
        assert (await h.sit("cid")).code == "table_full"
        assert state_of(h) == before

    run(body)


def test_idempotent_command_ids() -> None:
    """A repeated command id gets the same answer and is applied once (R-FAIR-1: server authority)."""

    async def body() -> None:
        h = await Harness.create()
        cmd = SitDown("same", "ann", "Ann", 200)
        first = await h.send(cmd)
        again = await h.send(cmd)
        assert first == again and first.accepted
        assert h.bank.total_in == 200 and len(h.table.seats) == 1
        await h.sit("bob")
        await h.next_hand()
        who = h.to_act()
        assert who is not None
        act = Act("act-1", who, "call")
        r1 = await h.send(act)
        version = h.table.version
        r2 = await h.send(act)
        assert r1 == r2 and r1.accepted and h.table.version == version
        refused = await h.send(Act("bad-1", who, "raise", 10**9))
        assert not refused.accepted
        assert await h.send(Act("bad-1", who, "raise", 10**9)) == refused

    run(body)


def test_bots_labelled_and_refused_when_not_allowed() -> None:
    """R-BOT-1: bots are labelled BOT; a table without bots refuses them."""

    async def body() -> None:
        h = await Harness.create()
        r = await h.send(SitDown(h.cid(), "b1", "Ann", 200, is_bot=True))
        seat = h.table.seats[r.data]
        assert seat.is_bot and "BOT" in seat.display_name
        h2 = await Harness.create(bots_allowed=False)
        r2 = await h2.send(SitDown(h2.cid(), "b1", "Ann", 200, is_bot=True))
        assert r2.code == "bots_not_allowed" and not h2.table.seats

    run(body)


def test_live_table_refuses_seeded_shuffler() -> None:
    """R-CARD-3: a live table never uses the seeded shuffle unless testing=True."""

    async def body() -> None:
        cfg = TableConfig.default(Game.of("nlhe", blinds=(1, 2)))
        with pytest.raises(TableError) as err:
            Table.open(
                cfg, clock=FakeClock(), journal=InMemoryJournal(), shuffler=SeededShuffler(1)
            )
        assert err.value.code == "shuffler_not_live"
        Table.open(cfg, clock=FakeClock(), journal=InMemoryJournal())  # SystemShuffler: fine

    run(body)


def test_config_validation() -> None:
    """R-SEAT-1: no-limit tables need a maximum buy-in; seat counts follow the variant/profile."""
    g = Game.of("nlhe", blinds=(1, 2))
    with pytest.raises(TableError) as e1:
        TableConfig(g, seats=6, buy_in_min=40)
    assert e1.value.code == "bad_buy_in"
    with pytest.raises(TableError) as e2:
        TableConfig.default(Game.of("nlhe", blinds=(1, 2), rules="arcade"), seats=7)
    assert e2.value.code == "bad_seats"
    TableConfig(Game.of("flhe", blinds=(1, 2)), seats=10, buy_in_min=40)


def test_sit_out_and_sit_in() -> None:
    """R-SEAT-3: a sitting-out player is not dealt in; sitting in makes them play again."""

    async def body() -> None:
        h = await Harness.create()
        for p in ("ann", "bob", "cid"):
            await h.sit(p)
        # ann waits for the big blind (new player): sitting in means posting now, once
        assert (await h.send(SitIn(h.cid(), "ann", post_blinds=False))).code == "not_sitting_out"
        assert (await h.send(SitIn(h.cid(), "ann"))).accepted
        assert (await h.send(SitIn(h.cid(), "ann"))).code == "not_sitting_out"
        assert (await h.send(SitOut(h.cid(), "cid"))).accepted
        assert (await h.send(SitOut(h.cid(), "cid"))).code == "already_sitting_out"
        await h.next_hand()
        assert h.table.hand_record is not None
        assert set(h.record.players) == {"ann", "bob"}
        await h.finish_hand()
        r = await h.send(SitIn(h.cid(), "cid", post_blinds=True))
        assert r.accepted
        await h.next_hand()
        assert "cid" in h.record.players

    run(body)


def test_leave_cashes_out_now_or_after_the_hand() -> None:
    """R-SEAT-1: leaving returns the chips to the account (at once, or when the hand ends)."""

    async def body() -> None:
        h = await Harness.create()
        for p in ("ann", "bob", "cid"):
            await h.sit(p, 200)
        await h.next_hand()
        rec = h.table.hand_record
        assert rec is not None
        leaver = rec.players[0]
        r = await h.send(Leave(h.cid(), leaver))
        assert r.accepted and r.data == "after_hand"
        assert leaver in h.stacks()
        await h.finish_hand()
        assert leaver not in h.stacks()
        assert h.bank.balance(leaver) == -200 + h.bank.total_out
        assert (await h.send(Leave(h.cid(), leaver))).code == "not_seated"
        # a player not in a hand leaves at once
        await h.sit("dan", 200)
        r2 = await h.send(Leave(h.cid(), "dan"))
        assert r2.data == "now" and h.bank.balance("dan") == 0

    run(body)


async def shove_until_bust(h: Harness, player: str, hands: int = 30) -> None:
    """``player`` goes all-in every hand, the others call, until ``player`` busts."""
    from croupier.engine.state import legal_actions

    for _ in range(hands):
        await h.next_hand()
        while h.table.hand is not None:
            who = h.to_act()
            assert who is not None
            legal = legal_actions(h.table.hand)
            assert legal is not None
            if legal.show_or_muck or legal.can_draw:
                await h.finish_hand()
            elif who == player and legal.can_raise:
                await h.act(who, "raise", legal.max_raise)
            else:
                await h.act(who, "call" if legal.can_call else "check")
        if h.table.seat_of(player).stack == 0:
            return
    raise AssertionError(f"{player} never busted")


def test_bust_reload_and_reload_limits() -> None:
    """R-SEAT-1: a busted player is sat out with a reload offer, the table goes on; reloads
    stay within the buy-in limits and happen between hands."""

    async def body() -> None:
        h = await Harness.create()
        ann = h.actor.subscribe("ann")
        await h.sit("ann", 80)
        await h.sit("bob", 400)
        await h.sit("cid", 400)
        assert (await h.send(Reload(h.cid(), "ann", 321))).code == "buy_in_too_large"
        await shove_until_bust(h, "ann")
        seat = h.table.seat_of("ann")
        assert seat.busted and seat.sitting_out
        offers = data_of(ann.drain(), ReloadOffered)
        assert len(offers) == 1 and offers[0].min_amount == 80
        assert not any(e.type == "reload_offered" for e in h.events())  # private to ann
        assert (await h.send(SitIn(h.cid(), "ann"))).code == "no_chips"
        before = state_of(h)
        assert (await h.send(Reload(h.cid(), "ann", 79))).code == "buy_in_too_small"
        assert (await h.send(Reload(h.cid(), "ann", 401))).code == "buy_in_too_large"
        assert state_of(h) == before
        # the table goes on without her
        await h.next_hand()
        assert "ann" not in h.record.players
        assert (await h.send(Reload(h.cid(), "ann", 100))).accepted
        assert h.table.seat_of("ann").stack == 100 and not h.table.seat_of("ann").sitting_out
        await h.finish_hand()
        await h.next_hand()
        assert "ann" in h.record.players

    run(body)


def test_reload_refused_in_hand() -> None:
    """R-SEAT-1: table stakes: no chips are added during a hand."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann", 100)
        await h.sit("bob", 100)
        await h.next_hand()
        before = state_of(h)
        assert (await h.send(Reload(h.cid(), "ann", 50))).code == "in_hand"
        assert state_of(h) == before

    run(body)
