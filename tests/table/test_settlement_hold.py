"""What waits for a hand's settlement record (R-CRASH-1, issue #16).

No decision is a journal record: a crash in the middle of a hand cancels it, whatever its
players saw of its decisions. So the decision that ends a hand is published at once, like
every decision before it, while what the settlement decides (the cards shown down, the
pots, the stacks, ``hand_settled``) is held until the settlement's record is durable.

The journal here counts its writes and reports them durable only when the test says so,
as the group-commit journal does through ``EventLog.pending``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from croupier.engine.events import (
    Acted,
    BoardDealt,
    CardsShown,
    ChipsReturned,
    HandEnded,
    PotAwarded,
)
from croupier.table.events import HandSettled, TableEvent
from croupier.table.journal import HandEndRecord
from croupier.table.table import DECISIONS
from croupier.table.testing import Harness

pytestmark = pytest.mark.rules("R-CRASH-1")


class SlowDurability:
    """Wraps a harness's journal: every write gets a number, durable once released."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.last = 0
        self.durable = 0
        self.records: list[Any] = []
        inner = h.journal.append

        def append(table_id: str, record: Any) -> None:
            inner(table_id, record)
            self.last += 1
            self.records.append(record)

        h.journal.append = append  # type: ignore[method-assign]
        h.table.log.pending = lambda: 0 if self.last <= self.durable else self.last

    def release(self) -> None:
        self.durable = self.last
        self.h.table.log.release(self.durable)


async def _play(ending: str) -> tuple[list[TableEvent], list[TableEvent]]:
    h = await Harness.create()
    await h.sit("ann")
    await h.sit("bob")
    await h.next_hand()
    seen: list[TableEvent] = []
    h.table.subscribe(None, seen.append, internal=True)
    slow = SlowDurability(h)
    hand_no = h.table.hand_no
    if ending == "fold":
        who = h.to_act()
        assert who is not None
        assert (await h.act(who, "fold")).accepted
    elif ending == "all_in":
        for kind in ("raise", "call"):
            who = h.to_act()
            assert who is not None
            amount = h.table.seat_of(who).stack if kind == "raise" else 0
            assert (await h.act(who, kind, amount)).accepted
    else:
        await h.finish_hand()
    assert h.table.hand is None and h.table.hand_no == hand_no, "the hand ended"
    assert [type(r) for r in slow.records] == [HandEndRecord]
    before = list(seen)
    slow.release()
    await asyncio.sleep(0)
    return before, seen[len(before) :]


@pytest.mark.parametrize("ending", ["fold", "showdown", "all_in"])
def test_the_decision_that_ends_a_hand_goes_out_before_its_settlement_is_durable(
    ending: str,
) -> None:
    """A fold, the last show of a showdown, and a call all-in before the flop: the
    decision is published at once; the uncalled bet, the board run out, the cards shown
    down, the pots and ``hand_settled`` wait for the settlement's record."""
    before, after = asyncio.run(_play(ending))
    last = before[-1].data
    assert isinstance(last, DECISIONS), before[-1]
    want = {"fold": "fold", "all_in": "call"}
    if ending in want:
        assert isinstance(last, Acted) and last.action.value == want[ending], last
    else:
        assert isinstance(last, CardsShown), last  # the room's showdown: each shows or mucks
    decided = (ChipsReturned, PotAwarded, HandEnded, HandSettled)
    assert not [e for e in before if isinstance(e.data, decided)], before
    kinds = [type(e.data) for e in after]
    assert kinds[: kinds.index(HandSettled) + 1][-3:] == [PotAwarded, HandEnded, HandSettled]
    if ending == "all_in":
        # the board run out after the call, and the cards shown down, waited too
        assert kinds.count(BoardDealt) == 3 and kinds.count(CardsShown) == 2, kinds
    # in order, none skipped, each once
    versions = [e.version for e in before + after]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
