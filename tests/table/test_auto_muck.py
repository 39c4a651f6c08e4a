"""Auto-muck, the player's option (issue #15): at a table whose profile lets losers muck
(R-POT-4), a hand that can no longer win or tie anything is mucked at once without the
show/muck prompt; a hand that can still win is asked as before; a player without the
option is asked even when beaten; where every hand is shown (naiko) nothing is mucked."""

from __future__ import annotations

import asyncio

from croupier.engine.events import CardsMucked
from croupier.engine.settle import can_still_win
from croupier.engine.state import legal_actions
from croupier.table.commands import ShowCards
from croupier.table.testing import Harness


async def _play(rules: str, hands: int) -> tuple[int, int, int]:
    """Check down ``hands`` hands between ``a`` (asked) and ``b`` (auto-muck); the counts
    of: b's automatic mucks, b asked with a beaten hand, a asked with a beaten hand."""
    h = await Harness.create("nlhe", rules=rules, seats=2, seed=7)
    h.table.auto_muck = lambda player: player == "b"
    await h.sit("a", 200)
    await h.sit("b", 200)
    auto = b_beaten = a_beaten = 0
    for _ in range(hands):
        await h.next_hand()
        while h.table.hand is not None and not h.table.hand.is_over:
            who = h.to_act()
            if who is None:
                break
            state = h.table.hand
            legal = legal_actions(state)
            assert legal is not None
            if legal.show_or_muck:
                beaten = not can_still_win(state, state.actor)
                b_beaten += who == "b" and beaten
                a_beaten += who == "a" and beaten
                await h.send(ShowCards(h.cid(), who, not beaten))
            else:
                await h.act(who, "check" if legal.can_check else "call")
        for ev in h.events():
            if isinstance(ev.data, CardsMucked) and ev.players[ev.data.player] == "b":
                auto += 1
        if any(s.stack == 0 for s in h.table.seats.values()):
            break
    await h.actor.stop()
    return auto, b_beaten, a_beaten


def test_auto_muck_mucks_beaten_hands_unasked() -> None:
    """R-POT-4: b (auto-muck) is never asked with a beaten hand and mucks it; a is."""
    auto, b_beaten, a_beaten = asyncio.run(_play("room", 40))
    assert b_beaten == 0
    assert auto > 0
    assert a_beaten > 0


def test_no_muck_where_every_hand_is_shown() -> None:
    """R-POT-4: at a naiko table every unfolded hand is shown: auto-muck changes nothing."""
    auto, b_beaten, _ = asyncio.run(_play("naiko", 15))
    assert auto == 0 and b_beaten == 0
