"""``Table.deal_gate``: a table whose next hand is due asks the gate; refused, the deal is
put off without blocking anything and without asking again and again, until the gate
calls the ``resume`` it was given (how a server paces its tables on its archive thread,
issue #11; woken instead of polling, issue #16)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from croupier.table.commands import HoldHands
from croupier.table.testing import Harness


class Gate:
    """A gate that is open or closed, and keeps what each refusal was given."""

    def __init__(self) -> None:
        self.open = False
        self.asked: list[str] = []
        self.waiting: list[Callable[[], bool]] = []

    def __call__(self, table_id: str, resume: Callable[[], bool]) -> bool:
        self.asked.append(table_id)
        if not self.open:
            self.waiting.append(resume)
        return self.open


async def _served(h: Harness) -> None:
    """Until the actor has served what its mailbox holds (a command queued behind)."""
    await h.actor.post(HoldHands("served", "director", hold=h.table.held))


def test_a_closed_gate_puts_the_deal_off_until_it_resumes_it() -> None:
    async def go() -> None:
        h = await Harness.create(between_hands_seconds=1.0)
        gate = Gate()
        h.table.deal_gate = gate
        await h.sit("a")
        await h.sit("b")
        await h.clock.advance(1.0)
        assert gate.asked == [h.table.id] and len(gate.waiting) == 1
        await h.clock.advance(30.0)
        # put off, and not asked again: nothing polls while it waits
        assert h.table.hand_no == 0 and h.table.hand is None
        assert len(gate.asked) == 1
        gate.open = True
        assert gate.waiting.pop()() is True  # resumed: the start goes through the mailbox
        await _served(h)
        assert h.table.hand_no == 1 and h.table.hand is not None
        assert len(gate.asked) == 2  # asked once more as the start arrives, and dealt
        await h.finish_hand()
        h.table.deal_gate = None  # no gate: dealt after the pause between hands, as always
        await h.next_hand()
        assert h.table.hand_no == 2 and len(gate.asked) == 2

    asyncio.run(go())


def test_a_resume_the_table_no_longer_waits_for_does_nothing() -> None:
    """A table that moved on while put off (held by a tournament, here) answers ``False``
    to a late resume, and no hand is dealt by it; released, it asks the gate again."""

    async def go() -> None:
        h = await Harness.create(between_hands_seconds=1.0)
        gate = Gate()
        h.table.deal_gate = gate
        await h.sit("a")
        await h.sit("b")
        await h.clock.advance(1.0)
        late = gate.waiting.pop()
        await h.send(HoldHands("hold", "director", hold=True))
        gate.open = True
        assert late() is False
        await h.clock.advance(5.0)
        assert h.table.hand_no == 0 and len(gate.asked) == 1
        await h.send(HoldHands("release", "director", hold=False))
        await h.clock.advance(1.0)
        assert h.table.hand_no == 1 and len(gate.asked) == 2
        assert late() is False  # spent: a hand is in play

    asyncio.run(go())
