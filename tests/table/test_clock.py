"""Decision clocks, the time bank and the draw clock (R-TIME-1, R-DRAW-2)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from croupier.engine.game import Game
from croupier.engine.rules import profile
from croupier.engine.state import Phase, legal_actions
from croupier.table import Draw, UseTimeBank
from croupier.table.events import TimedOut, Turn
from croupier.table.testing import Harness, data_of


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


def timed_out(h: Harness) -> list[TimedOut]:
    return data_of(h.events(), TimedOut)


@pytest.mark.parametrize(("rules", "seconds"), [("arcade", 15), ("naiko", 20), ("room", 30)])
def test_clock_per_profile(rules: str, seconds: int) -> None:
    """R-TIME-1: every decision has the profile's clock (arcade 15 s, naiko 20 s, room 30 s)."""

    async def body() -> None:
        h = await Harness.create(rules=rules)
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        assert h.table.deadline == pytest.approx(h.clock.now() + seconds)
        turns = data_of(h.events(), Turn)
        assert turns and turns[-1].deadline == h.table.deadline

    run(body)


def test_timeout_folds_facing_a_bet_and_checks_otherwise() -> None:
    """R-TIME-1: when the clock runs out the player checks if legal, else folds."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        first = h.to_act()
        await h.clock.advance(29.9)
        assert h.to_act() == first and not timed_out(h)
        await h.clock.advance(0.1)
        outs = timed_out(h)
        assert [(o.action, o.reason) for o in outs] == [("fold", "timeout")]
        assert h.table.hand is None  # heads-up: the fold ends the hand
        await h.next_hand()
        sb = h.to_act()
        assert sb is not None
        await h.act(sb, "call")
        bb = h.to_act()
        assert bb is not None
        h.events()
        await h.clock.advance(30)
        outs = timed_out(h)
        assert [(o.action, o.seat) for o in outs] == [("check", h.table.seat_of(bb).seat)]
        assert h.table.hand is not None and h.table.hand.street == 1

    run(body)


def test_time_bank_extends_the_clock_once_and_is_consumed() -> None:
    """R-TIME-1: the time bank (rules.time_bank_seconds) is used on request and spent."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        who = h.to_act()
        other = "bob" if who == "ann" else "ann"
        assert who is not None
        r = await h.send(UseTimeBank(h.cid(), other))
        assert r.code == "not_your_turn"
        start = h.clock.now()
        r = await h.send(UseTimeBank(h.cid(), who))
        assert r.accepted and r.data == pytest.approx(start + 30 + 60)
        assert (await h.send(UseTimeBank(h.cid(), who))).code == "time_bank_in_use"
        await h.clock.advance(70)
        assert h.to_act() == who and not timed_out(h)
        await h.act(who, "call")
        assert h.table.seat_of(who).time_bank == pytest.approx(20)
        # next decision: 30 s again, the bank is not used unless asked
        nxt = h.to_act()
        assert h.table.deadline == pytest.approx(h.clock.now() + 30)
        assert nxt is not None
        await h.send(UseTimeBank(h.cid(), nxt))
        await h.clock.advance(30 + 60)
        assert [o.action for o in timed_out(h)] == ["check"]
        assert h.table.seat_of(nxt).time_bank == 0
        await h.finish_hand()
        await h.next_hand()
        if h.to_act() == nxt:
            assert (await h.send(UseTimeBank(h.cid(), nxt))).code == "no_time_bank"

    run(body)


def test_draw_clock_stands_pat_and_forbids_raising() -> None:
    """R-DRAW-2: a player who has not drawn when the draw clock runs out stands pat and may
    only check, call or fold on the next round."""

    async def body() -> None:
        game = Game.of("5cd", blinds=(1, 2), rules=profile("room", draw_clock_seconds=12))
        h = await Harness.create(game)
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        sb = h.to_act()
        assert sb is not None
        await h.act(sb, "call")
        bb = h.to_act()
        assert bb is not None
        await h.act(bb, "check")
        state = h.table.hand
        assert state is not None and state.phase is Phase.DRAWING
        first = h.to_act()
        assert first is not None
        assert h.table.deadline == pytest.approx(h.clock.now() + 12)
        hole_before = state.hole_cards[state.actor]
        h.events()
        await h.clock.advance(12)
        assert [o.action for o in timed_out(h)] == ["stand_pat"]
        state = h.table.hand
        assert state is not None
        pos = h.record.players.index(first)
        assert state.hole_cards[pos] == hole_before
        second = h.to_act()
        assert second is not None and second != first
        r = await h.send(Draw(h.cid(), second, ""))
        assert r.accepted
        # betting after the draw: the player who timed out may not bet
        state = h.table.hand
        assert state is not None and state.phase is Phase.BETTING
        while h.to_act() != first:
            who = h.to_act()
            assert who is not None
            await h.act(who, "check")
        legal = legal_actions(state if h.table.hand is None else h.table.hand)
        assert legal is not None and legal.can_check and not legal.can_raise
        r = await h.act(first, "raise", 4)
        assert not r.accepted and r.code == "raise_not_allowed"

    run(body)
