"""Disconnection policies and reconnection (R-TIME-1, R-TIME-2, R-TIME-3)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from croupier.table import Disconnect, Reconnect, SitIn, SitOut, TableSnapshot
from croupier.table.events import Protected, Reconnected, TableEvent, TimedOut, Withheld
from croupier.table.grace import GRACE_SECONDS, AwayReport, grace_seconds
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


def test_fold_policy_acts_after_the_grace() -> None:
    """R-TIME-2 `fold` (arcade): a disconnected player folds (checks if free) at their turn
    once the 10 s grace is over, without waiting for the rest of the clock."""

    async def body() -> None:
        h = await heads_up("arcade")
        await h.next_hand()
        who = h.to_act()
        assert who is not None
        now = h.clock.now()
        r = await h.send(Disconnect(h.cid(), who))
        assert r.accepted
        assert not of_type(h, TimedOut) and h.to_act() == who  # the grace: the seat waits
        await h.clock.advance(GRACE_SECONDS)
        outs = of_type(h, TimedOut)
        assert [(o.action, o.reason) for o in outs] == [("fold", "disconnected (fold)")]
        assert h.clock.now() == now + GRACE_SECONDS and h.table.hand is None
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
            if h.table.hand is not None and h.to_act() == "ann":
                await h.clock.advance(GRACE_SECONDS)
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
        await h.clock.advance(GRACE_SECONDS)
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
        await h.clock.advance(GRACE_SECONDS)
        outs = of_type(h, TimedOut)
        assert [o.action for o in outs] == ["fold"] and not of_type(h, Protected)

    run(body)


def test_grace_holds_the_seat_and_clock_for_a_reload() -> None:
    """R-TIME-2 (revised): a drop that comes back within the 10 s grace is not a
    disconnection: no policy acts, the running clock keeps its deadline, and the player acts
    on return (R-TIME-3: the seat and the server's state are theirs again)."""

    async def body() -> None:
        for rules in ("arcade", "room"):
            h = await heads_up(rules)
            await h.next_hand()
            who = h.to_act()
            assert who is not None
            deadline = h.table.deadline
            await h.send(Disconnect(h.cid(), who))
            await h.clock.advance(GRACE_SECONDS - 0.5)
            assert not of_type(h, TimedOut) and not of_type(h, Protected)
            r = await h.send(Reconnect(h.cid(), who))
            assert r.accepted and h.to_act() == who and h.table.deadline == deadline
            await h.clock.advance(1.0)  # the grace's wake-up finds the player back: nothing
            assert not of_type(h, TimedOut) and h.to_act() == who
            assert not [e for e in h.table.log.history if isinstance(e.data, AwayReport)]
            assert (await h.act(who, "call")).accepted

    run(body)


def test_grace_is_never_longer_than_the_clock() -> None:
    """R-TIME-2 (revised): the grace is 10 s but never longer than the player's clock."""

    async def body() -> None:
        h = await heads_up("arcade", clock_seconds=6, draw_clock_seconds=6)
        assert grace_seconds(h.table) == 6.0
        h2 = await heads_up("room")
        assert grace_seconds(h2.table) == GRACE_SECONDS

    run(body)


async def arcade_hand() -> tuple[Harness, str, str]:
    """Ann and Bob at an arcade table, a hand dealt: the harness, who acts, the other."""
    h = await heads_up("arcade")
    await h.next_hand()
    who = h.to_act()
    assert who is not None
    return h, who, "bob" if who == "ann" else "ann"


def test_return_after_an_automatic_action_is_told_what_happened() -> None:
    """R-TIME-2/R-TIME-3: a player who comes back after the policy acted gets a private
    report (the action, the reason, how long after the drop); nobody else sees it."""

    async def body() -> None:
        h, who, other = await arcade_hand()
        await h.send(Disconnect(h.cid(), who))
        await h.clock.advance(GRACE_SECONDS + 2)
        await h.send(Reconnect(h.cid(), who))
        reports = [e for e in h.table.log.history if isinstance(e.data, AwayReport)]
        assert len(reports) == 1 and reports[0].to == who
        rep = reports[0].data
        assert isinstance(rep, AwayReport)
        assert rep.player_id == who and rep.away_seconds == GRACE_SECONDS + 2
        assert [(a.action, a.reason, a.away_seconds) for a in rep.actions] == [
            ("fold", "disconnected (fold)", GRACE_SECONDS)
        ]
        seen: list[object] = []
        h.table.subscribe(other, seen.append)
        await h.send(Disconnect(h.cid(), who))
        await h.clock.advance(1)
        await h.send(Reconnect(h.cid(), who))  # nothing happened meanwhile: no report
        assert not [e for e in seen if isinstance(getattr(e, "data", None), AwayReport)]

    run(body)


def test_a_report_for_one_player_leaves_no_gap_in_the_others_versions() -> None:
    """R-TIME-3: the away report is private, yet every other subscriber (a player, a
    spectator, one catching up from a version) gets that version too, as a ``withheld``
    with nothing in it: their versions stay consecutive, so no client resyncs for it."""

    async def body() -> None:
        h, who, other = await arcade_hand()
        since = h.table.version
        live: dict[str | None, list[TableEvent]] = {other: [], who: [], None: []}
        for pid, seen in live.items():
            h.table.subscribe(pid, seen.append, internal=True)
        await h.send(Disconnect(h.cid(), who))
        await h.clock.advance(GRACE_SECONDS + 2)
        await h.send(Reconnect(h.cid(), who))
        report = next(e for e in live[who] if isinstance(e.data, AwayReport))
        for pid in (other, None):
            versions = [e.version for e in live[pid]]
            assert versions == list(range(since + 1, h.table.version + 1)), pid
            stand_in = next(e for e in live[pid] if e.version == report.version)
            assert isinstance(stand_in.data, Withheld) and stand_in.to is None
            assert not any(isinstance(e.data, AwayReport) for e in live[pid])
            caught = h.table.catch_up(pid, since, h.table.epoch)
            assert isinstance(caught, list)
            assert [e.version for e in caught] == versions
            assert [e.type for e in caught] == [e.type for e in live[pid]]
        assert [e.version for e in live[who]] == list(range(since + 1, h.table.version + 1))

    run(body)
