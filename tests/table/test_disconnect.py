"""Disconnection policies and reconnection (R-TIME-1, R-TIME-2, R-TIME-3)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from croupier.table import Disconnect, Reconnect, SitIn, SitOut, TableSnapshot
from croupier.table.events import Protected, Reconnected, TimedOut
from croupier.table.table import DAY
from croupier.table.testing import Harness, data_of

N = TypeVar("N")


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


def of_type(h: Harness, kind: type[N]) -> list[N]:
    return data_of(h.events(), kind)


async def heads_up(rules: str, **overrides: Any) -> Harness:
    h = await Harness.create(rules=rules, rule_overrides=overrides)
    await h.sit("ann")
    await h.sit("bob")
    return h


def test_fold_policy_acts_at_once() -> None:
    """R-TIME-2 `fold` (arcade): a disconnected player folds (checks if free) at their turn,
    without waiting for the clock."""

    async def body() -> None:
        h = await heads_up("arcade")
        await h.next_hand()
        who = h.to_act()
        assert who is not None
        now = h.clock.now()
        r = await h.send(Disconnect(h.cid(), who))
        assert r.accepted
        outs = of_type(h, TimedOut)
        assert [(o.action, o.reason) for o in outs] == [("fold", "disconnected (fold)")]
        assert h.clock.now() == now and h.table.hand is None
        assert (await h.send(Disconnect(h.cid(), who))).code == "already_disconnected"

    run(body)


def test_clock_policy_keeps_the_clock_and_seat() -> None:
    """R-TIME-2 `clock` (naiko): the seat is held, the clock runs and timeouts apply;
    R-TIME-3: reconnecting inside the window gives the seat back with the server's state."""

    async def body() -> None:
        h = await heads_up("naiko")
        await h.next_hand()
        who = h.to_act()
        assert who is not None
        await h.send(Disconnect(h.cid(), who))
        assert h.to_act() == who  # nothing automatic: the clock runs
        await h.clock.advance(20)
        outs = of_type(h, TimedOut)
        assert [(o.action, o.reason) for o in outs] == [("fold", "timeout")]
        await h.clock.advance(10)  # 30 s after the drop: still inside the 60 s window
        r = await h.send(Reconnect(h.cid(), who))
        assert r.accepted and isinstance(r.data, TableSnapshot)
        snap = r.data
        assert any(s.player_id == who and s.connected for s in snap.seats)
        if snap.hand is not None:  # the next hand is running: own cards visible, others hidden
            pos = h.record.players.index(who)
            assert all(c is not None for c in snap.hand.players[pos].cards)
            assert all(c is None for c in snap.hand.players[1 - pos].cards)
        assert of_type(h, Reconnected)

    run(body)


def test_reconnect_after_the_window_loses_the_seat() -> None:
    """R-TIME-2/R-TIME-3: after the reconnection window the seat is released and the chips
    cashed out; reconnecting then is refused."""

    async def body() -> None:
        h = await heads_up("naiko")
        await h.send(SitOut(h.cid(), "bob"))
        await h.send(Disconnect(h.cid(), "bob"))
        stack = h.table.seat_of("bob").stack
        await h.clock.advance(59)
        assert "bob" in h.stacks()
        await h.clock.advance(1)
        assert "bob" not in h.stacks()
        assert h.bank.balance("bob") == -400 + stack
        r = await h.send(Reconnect(h.cid(), "bob"))
        assert not r.accepted and r.code == "seat_lost"

    run(body)


def test_window_expiring_mid_hand_stands_up_after_the_hand() -> None:
    """R-TIME-2: a player whose window ends during a hand plays it out (timeouts) and is
    stood up when it ends; chips are conserved."""

    async def body() -> None:
        h = await Harness.create(rules="naiko")
        for p in ("ann", "bob", "cid"):
            await h.sit(p)
        await h.next_hand()
        rec = h.table.hand_record
        assert rec is not None
        victim = rec.players[0]
        await h.send(Disconnect(h.cid(), victim))
        await h.clock.run_until(lambda: victim not in h.stacks(), limit=h.clock.now() + 400)
        assert victim not in h.stacks()
        total = sum(h.stacks().values()) + h.bank.total_out
        assert total == 1200

    run(body)


async def play_out(h: Harness, victim: str) -> None:
    """The other player calls or checks until the hand ends."""
    while h.table.hand is not None:
        who = h.to_act()
        assert who is not None and who != victim
        await h.finish_hand()


def test_all_in_protection_quota_then_fold() -> None:
    """R-TIME-2 `all_in_protection` (room): a disconnected player with chips in the pot is
    protected (treated as all-in); at most 2 per 24 h on the table clock, then `fold`."""

    async def body() -> None:
        h = await heads_up("room")
        kinds = []
        for _ in range(3):
            await h.next_hand()
            await h.send(Disconnect(h.cid(), "ann"))
            # bob acts until ann's turn comes; ann is then protected (or folds/checks)
            while h.table.hand is not None and h.to_act() == "bob":
                await h.act("bob", "call" if h.table.hand.bets[h.table.hand.actor] < 2 else "check")
            events = h.events()
            prot = data_of(events, Protected)
            outs = [o for o in data_of(events, TimedOut) if "disconnected" in o.reason]
            kinds.append(("protected" if prot else outs[0].reason, [p.used_today for p in prot]))
            if h.table.hand is not None:
                pos = h.record.players.index("ann")
                assert prot and h.table.hand.protected[pos]
                await play_out(h, "ann")
            await h.send(Reconnect(h.cid(), "ann"))
        assert kinds == [
            ("protected", [1]),
            ("protected", [2]),
            ("disconnected (fold)", []),
        ]
        total = sum(h.stacks().values())
        assert total == 800
        # 24 h later (table idle meanwhile) the quota is back
        await h.send(SitOut(h.cid(), "ann"))
        await h.send(SitOut(h.cid(), "bob"))
        await h.clock.advance(DAY)
        await h.send(SitIn(h.cid(), "ann"))
        await h.send(SitIn(h.cid(), "bob"))
        await h.next_hand()
        await h.send(Disconnect(h.cid(), "ann"))
        while h.table.hand is not None and h.to_act() == "bob":
            await h.act("bob", "call" if h.table.hand.bets[h.table.hand.actor] < 2 else "check")
        assert of_type(h, Protected)

    run(body)


def test_protection_without_chips_in_folds() -> None:
    """R-TIME-2: a disconnected player with nothing in the pot is not protected: fold."""

    async def body() -> None:
        h = await Harness.create(rules="room")
        for p in ("ann", "bob", "cid"):
            await h.sit(p)
        await h.next_hand()
        rec = h.table.hand_record
        assert rec is not None
        button = rec.players[-1]  # three-handed, the button has posted nothing and acts first
        assert h.to_act() == button
        await h.send(Disconnect(h.cid(), button))
        outs = of_type(h, TimedOut)
        assert [o.action for o in outs] == ["fold"] and not of_type(h, Protected)

    run(body)
