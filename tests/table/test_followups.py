"""Table follow-ups: buy-in crash gap (R-CRASH-1, R-SEAT-1), the all-in protection quota
across restarts (R-TIME-2), an uncontested winner showing (R-POT-4) and tables without
spectators (R-SEAT-2)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from croupier.engine.events import CardsShown
from croupier.table import Disconnect, Reconnect, Reload, ShowCards, TableCrashed, TableError
from croupier.table.events import Protected, TimedOut
from croupier.table.grace import GRACE_SECONDS
from croupier.table.journal import BuyInAborted, BuyInIntent, ProtectionUsed, plan_recovery
from croupier.table.seatcmds import policy
from croupier.table.testing import Harness, check_event, data_of


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


class CrashAt:
    """Crash the table the first time it reaches ``point`` while ``armed``."""

    def __init__(self, point: str) -> None:
        self.point, self.armed, self.fired = point, False, False

    def __call__(self, point: str) -> None:
        if point == self.point and self.armed and not self.fired:
            self.fired = True
            raise TableCrashed(f"crash at {point}")


def test_crash_between_bank_and_seat_map_refunds_sit_down() -> None:
    """R-CRASH-1, R-SEAT-1: the table stops after the bank took a buy-in but before the seat
    map holding it was journaled: recovery gives the chips back, exactly once."""

    async def body() -> None:
        fault = CrashAt("bought_in")
        h = await Harness.create(faults=fault)
        await h.sit("ann")
        fault.armed = True
        with pytest.raises(TableCrashed):
            await h.sit("bob", 300)
        assert fault.fired and not h.actor.alive
        assert h.bank.balance("bob") == -300  # stranded in the table's escrow
        pending = plan_recovery(h.journal.records(h.table.id)).pending_buy_ins
        assert [(p.player_id, p.amount) for p in pending] == [("bob", 300)]
        await h.restart()
        assert h.bank.balance("bob") == 0
        assert "bob" not in h.stacks() and h.stacks() == {"ann": 400}
        assert plan_recovery(h.journal.records(h.table.id)).pending_buy_ins == ()
        await h.restart()  # a second restart refunds nothing more
        assert h.bank.balance("bob") == 0 and h.bank.total_in - h.bank.total_out == 400
        # bob can sit down normally afterwards
        assert (await h.sit("bob", 300)).accepted
        assert h.bank.balance("bob") == -300

    run(body)


def test_crash_between_bank_and_seat_map_refunds_reload() -> None:
    """R-CRASH-1, R-SEAT-1: the same gap on a reload: the stack stays, the chips come back."""

    async def body() -> None:
        fault = CrashAt("bought_in")
        h = await Harness.create(faults=fault)
        await h.sit("ann", 100)
        fault.armed = True
        with pytest.raises(TableCrashed):
            await h.send(Reload(h.cid(), "ann", 200))
        assert h.bank.balance("ann") == -300
        await h.restart()
        assert h.stacks() == {"ann": 100}
        assert h.bank.balance("ann") == -100

    run(body)


def test_crash_before_the_bank_refunds_nothing() -> None:
    """R-CRASH-1: an intent journaled but never sent to the bank costs the player nothing."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        h.journal.append(h.table.id, BuyInIntent("t:never-sent", "bob", 250))
        await h.restart()
        assert h.bank.balance("bob") == 0 and h.bank.total_in - h.bank.total_out == 400
        assert any(
            isinstance(r, BuyInAborted) and r.ref == "t:never-sent"
            for r in h.journal.records(h.table.id)
        )

    run(body)


def test_refused_buy_in_is_closed_in_the_journal() -> None:
    """R-SEAT-1: a buy-in the bank refuses leaves no open intent (nothing refunded later)."""

    async def body() -> None:
        h = await Harness.create()
        h.bank.limits["poor"] = 50
        r = await h.sit("poor", 100)
        assert r.code == "insufficient_funds" and "poor" not in h.stacks()
        assert plan_recovery(h.journal.records(h.table.id)).pending_buy_ins == ()
        await h.restart()
        assert h.bank.balance("poor") == 0

    run(body)


async def _protected_hand(h: Harness) -> tuple[list[Protected], list[TimedOut]]:
    await h.next_hand()
    await h.send(Disconnect(h.cid(), "ann"))
    while h.table.hand is not None and h.to_act() == "bob":
        await h.act("bob", "call" if h.table.hand.bets[h.table.hand.actor] < 2 else "check")
    if h.table.hand is not None and h.to_act() == "ann":
        await h.clock.advance(GRACE_SECONDS)  # the reconnection grace first (R-TIME-2)
    events = h.events()
    prot = data_of(events, Protected)
    outs = [o for o in data_of(events, TimedOut) if "disconnected" in o.reason]
    await h.finish_hand()
    await h.send(Reconnect(h.cid(), "ann"))
    return prot, outs


def test_protection_quota_survives_a_restart() -> None:
    """R-TIME-2: the all-in protections used (2 per 24 h per player) are journaled, so a
    restarted table does not give a player fresh ones."""

    async def body() -> None:
        h = await Harness.create(rules="room")
        await h.sit("ann")
        await h.sit("bob")
        for used in (1, 2):
            prot, _ = await _protected_hand(h)
            assert [p.used_today for p in prot] == [used]
        records = h.journal.records(h.table.id)
        assert [r.player_id for r in records if isinstance(r, ProtectionUsed)] == ["ann", "ann"]
        await h.restart()
        assert policy(h.table, "ann") == "fold"
        await h.send(Reconnect(h.cid(), "ann"))
        await h.send(Reconnect(h.cid(), "bob"))
        prot, outs = await _protected_hand(h)
        assert prot == [] and outs and outs[0].reason == "disconnected (fold)"

    run(body)


async def _uncontested(h: Harness) -> tuple[str, str]:
    """Play a hand where the first to act raises and the other folds: (winner, loser)."""
    await h.next_hand()
    winner = h.to_act()
    assert winner is not None
    await h.act(winner, "raise", 10)
    loser = h.to_act()
    assert loser is not None and loser != winner
    await h.act(loser, "fold")
    assert h.table.hand is None
    return winner, loser


def test_uncontested_winner_may_show_between_hands() -> None:
    """R-POT-4: after a hand won uncontested, the winner may show in the pause between
    hands; the loser may not, nor twice, nor once the next hand is dealt."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        winner, loser = await _uncontested(h)
        h.events()
        before = (h.table.version, h.stacks())
        r = await h.send(ShowCards(h.cid(), loser, True))
        assert not r.accepted and r.code == "not_uncontested_winner"
        assert (await h.send(ShowCards(h.cid(), winner, False))).code == "bad_action"
        assert (h.table.version, h.stacks()) == before
        r = await h.send(ShowCards(h.cid(), winner, True))
        assert r.accepted, r
        shown = data_of(h.events(), CardsShown)
        pos = h.record.players.index(winner)
        hole = h.table.last_hand.hole_cards[pos] if h.table.last_hand else ()
        assert len(shown) == 1 and shown[0].player == pos and shown[0].cards == hole
        assert h.stacks() == before[1]  # showing moves no chip
        assert (await h.send(ShowCards(h.cid(), winner, True))).code == "already_shown"
        await h.next_hand()
        r = await h.send(ShowCards(h.cid(), "zed", True))
        assert r.code == "not_seated"

    run(body)


def test_show_refused_after_a_showdown_and_for_a_spectator_seat() -> None:
    """R-POT-4: only an uncontested winner shows this way (a showdown shows by its own rules)."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.sit("cid", seat=5)
        await h.next_hand()
        await h.finish_hand()  # checked down: a showdown
        assert h.table.hand is None
        for who in ("ann", "bob", "cid"):
            r = await h.send(ShowCards(h.cid(), who, True))
            assert not r.accepted and r.code == "not_uncontested_winner"

    run(body)


def test_arcade_refuses_spectators() -> None:
    """R-SEAT-2, SPEC §12: the arcade allows no spectators; seated players subscribe; the
    table's own observers (internal) still may; other profiles allow spectators."""

    async def body() -> None:
        h = await Harness.create(rules="arcade")
        with pytest.raises(TableError) as err:
            h.actor.subscribe(None)
        assert err.value.code == "spectators_not_allowed"
        with pytest.raises(TableError) as err:
            h.actor.subscribe("zed")  # not seated here: a spectator by another name
        assert err.value.code == "spectators_not_allowed"
        await h.sit("ann")
        await h.sit("bob")
        ann = h.actor.subscribe("ann")
        await h.next_hand()
        got = ann.drain()
        assert got and any(e.type == "hole_dealt" for e in got)
        shown: set[Any] = set()
        for e in got:
            check_event(e, "ann", shown)
        assert h.actor.subscribe(None, internal=True) is not None
        room = await Harness.create(rules="room")
        assert room.actor.subscribe(None) is not None
        assert room.actor.subscribe("zed") is not None

    run(body)
