"""``Table.deal_gate``: a table whose next hand is due asks the gate; refused, the deal is
put off (by ``GATE_RETRY_SECONDS``, asked again) without blocking anything, and dealt as
soon as the gate opens (how a server paces its tables on its archive thread, issue #11)."""

from __future__ import annotations

import asyncio

from croupier.table.table import GATE_RETRY_SECONDS
from croupier.table.testing import Harness


def test_a_closed_gate_puts_the_deal_off_until_it_opens() -> None:
    async def go() -> None:
        h = await Harness.create(between_hands_seconds=1.0)
        open_ = False
        asked = 0

        def gate() -> bool:
            nonlocal asked
            asked += 1
            return open_

        h.table.deal_gate = gate
        await h.sit("a")
        await h.sit("b")
        await h.clock.advance(1.0 + 20 * GATE_RETRY_SECONDS)
        assert h.table.hand_no == 0 and h.table.hand is None
        assert asked >= 20  # asked again and again, never dealt
        open_ = True
        await h.clock.advance(GATE_RETRY_SECONDS)
        assert h.table.hand_no == 1 and h.table.hand is not None
        seen = asked
        await h.finish_hand()
        h.table.deal_gate = None  # no gate: dealt after the pause between hands, as always
        await h.next_hand()
        assert h.table.hand_no == 2 and asked == seen

    asyncio.run(go())
