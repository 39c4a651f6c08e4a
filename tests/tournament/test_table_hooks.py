"""The table hook tournaments use (R-TOUR-1): ``SetStakes`` changes the blinds from the
next hand; the hand in play keeps its own; bad stakes are refused and change nothing."""

from __future__ import annotations

import asyncio

from croupier.engine.game import Stakes
from croupier.table.commands import HoldHands, SetStakes
from croupier.table.events import HandBegan
from croupier.table.testing import Harness, data_of


def test_set_stakes_applies_from_the_next_hand() -> None:
    """R-TOUR-1: levels rise between hands, never inside one."""

    async def go() -> None:
        h = await Harness.create("nlhe", seats=3)
        for p in ("ann", "bob", "cat"):
            assert (await h.sit(p)).accepted
        await h.next_hand()
        first = data_of(h.events(), HandBegan)[-1]
        assert max(first.blinds) == 2
        result = await h.send(SetStakes(h.cid(), "director", Stakes(small_blind=5, big_blind=10)))
        assert result.accepted
        assert h.table.hand is not None and h.table.hand.game.stakes.big_blind == 2
        await h.finish_hand()
        await h.next_hand()
        second = data_of(h.events(), HandBegan)[-1]
        assert second.hand_no == first.hand_no + 1 and max(second.blinds) == 10
        await h.actor.stop()

    asyncio.run(go())


def test_bad_stakes_are_refused_and_change_nothing() -> None:
    """R-TOUR-1: stakes the game cannot use are refused with a code."""

    async def go() -> None:
        h = await Harness.create("nlhe", seats=3)
        config, version = h.table.config, h.table.version
        bad = await h.send(SetStakes(h.cid(), "director", Stakes()))
        assert not bad.accepted and bad.code == "invalid_configuration"
        odd = await h.send(SetStakes(h.cid(), "director", "10/20"))  # type: ignore[arg-type]
        assert not odd.accepted and odd.code == "bad_stakes"
        assert h.table.config == config and h.table.version == version
        await h.actor.stop()

    asyncio.run(go())


def test_hold_hands_deals_no_new_hand_until_released() -> None:
    """R-TOUR-17, R-TOUR-18: a held table finishes the hand in play and deals no other
    (however long the clock runs) until the director releases it."""

    async def go() -> None:
        h = await Harness.create("nlhe", seats=3)
        for p in ("ann", "bob", "cat"):
            assert (await h.sit(p)).accepted
        await h.next_hand()
        first = data_of(h.events(), HandBegan)[-1]
        assert (await h.send(HoldHands(h.cid(), "director", True))).accepted
        await h.finish_hand()
        await h.clock.advance(600.0)
        assert h.table.hand is None and h.table.hand_no == first.hand_no
        assert not data_of(h.events(), HandBegan)
        assert (await h.send(HoldHands(h.cid(), "director", False))).accepted
        await h.next_hand()
        assert data_of(h.events(), HandBegan)[-1].hand_no == first.hand_no + 1
        await h.actor.stop()

    asyncio.run(go())
