"""The hand record is fed by a subscription, not rebuilt from the bounded resync history
(issue #11): a hand longer than the history is recorded whole, voided hands are dropped,
and the recorder sees every card (it is the table's own record, never a client's feed).
R-CRASH-1 (a voided hand is not archived), R-FAIR-1 (clients still get redacted events)."""

from __future__ import annotations

import asyncio

from croupier.engine.cards import parse_cards
from croupier.engine.events import HandEnded, HoleDealt
from croupier.table.events import HandBegan, HandVoided, TableEvent
from croupier.table.recorder import HandRecorder
from croupier.table.testing import Harness, data_of


def test_a_hand_longer_than_the_history_is_recorded_whole() -> None:
    async def run() -> None:
        h = await Harness.create("nlhe", history=8)  # far fewer events than one hand
        recorder = HandRecorder.attach(h.actor.table)
        for p in ("ann", "bob", "cy", "dee"):
            await h.sit(p)
        await h.next_hand()
        await h.finish_hand()
        hand = recorder.take(1)
        assert hand is not None and hand.hand_no == 1
        assert isinstance(hand.events[-1], HandEnded)
        dealt = [e for e in hand.events if isinstance(e, HoleDealt)]
        assert len(dealt) == 4 and all(c is not None for e in dealt for c in e.cards)
        assert len(h.actor.table.history) <= 8 < len(hand.events)
        assert recorder.take(1) is None  # taken once
        # the spectator stream of the same table saw the same hand redacted
        seen = data_of(h.events(), HoleDealt)
        assert seen and all(c is None for e in seen for c in e.cards)

    asyncio.run(run())


def test_a_voided_hand_is_not_recorded() -> None:
    """Fed by hand: a hand voided before its end leaves nothing; the next one is whole."""
    recorder = HandRecorder()

    def began(n: int) -> TableEvent:
        return TableEvent(n * 10, 0, n, HandBegan(n, 1, (0, 1), ("a", "b"), (1, 2), (0, 0), "c"))

    dealt = HoleDealt(0, parse_cards("AsKd"), (False, False))
    ended = HandEnded((99, 101), (), 0, (-1, 1), ())
    recorder.on_event(began(1))
    recorder.on_event(TableEvent(11, 0, 1, dealt, ("a", "b")))
    recorder.on_event(TableEvent(12, 0, 1, HandVoided(1, "misdeal", ((0, 100), (1, 100)))))
    recorder.on_event(TableEvent(13, 0, 1, ended, ("a", "b")))  # a stray end: no hand in play
    assert recorder.take(1) is None
    recorder.on_event(began(2))
    recorder.on_event(TableEvent(21, 0, 2, dealt, ("a", "b")))
    recorder.on_event(TableEvent(22, 0, 2, ended, ("a", "b")))
    hand = recorder.take(2)
    assert hand is not None and hand.events == (dealt, ended) and hand.ended is ended
