"""The table's record of each hand, fed by a subscription as the table publishes it.

A :class:`HandRecorder` subscribes to a table's *raw* feed (every event unredacted, in
order, once durable: an in-process observer such as the hand archive, never a client) and
keeps the events of the hand in play; when its engine's ``HandEnded`` arrives the hand is
complete and kept until :meth:`HandRecorder.take` (the archive) asks for it. A voided
hand is dropped. Nothing is rebuilt from the table's bounded resync history, so a hand
longer than that history is still recorded whole.

>>> from croupier.table.testing import Harness
>>> import asyncio
>>> async def demo():
...     h = await Harness.create()
...     rec = HandRecorder.attach(h.actor.table)
...     await h.sit("ann"); await h.sit("bob")
...     await h.next_hand(); await h.finish_hand()
...     hand = rec.take(1)
...     return hand.began.players == ("ann", "bob") or hand.began.players == ("bob", "ann"), type(hand.events[-1]).__name__
>>> asyncio.run(demo())
(True, 'HandEnded')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.engine.events import Event, HandEnded
from croupier.table.events import HandBegan, HandVoided, TableEvent

if TYPE_CHECKING:
    from croupier.table.eventlog import Subscription
    from croupier.table.table import Table

__all__ = ["HandRecorder", "RecordedHand"]


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """One settled hand as the table played it: its start and every engine event."""

    hand_no: int
    began: HandBegan
    events: tuple[Event, ...]

    @property
    def ended(self) -> HandEnded:
        last = self.events[-1]
        assert isinstance(last, HandEnded)
        return last


class HandRecorder:
    """Each hand's unredacted events, collected as they are published (see the module)."""

    KEEP = 4
    """Complete hands kept at most: they are read the moment they end (an archive that
    never asks must not grow the table's memory)."""

    def __init__(self) -> None:
        self._began: HandBegan | None = None
        self._events: list[Event] = []
        self._done: dict[int, RecordedHand] = {}
        self.subscription: Subscription | None = None

    @classmethod
    def attach(cls, table: Table) -> HandRecorder:
        """A recorder subscribed to ``table``'s raw feed from now on."""
        recorder = cls()
        recorder.subscription = table.log.add(None, recorder.on_event, raw=True)
        return recorder

    def on_event(self, event: TableEvent) -> None:
        data = event.data
        if isinstance(data, HandBegan):
            self._began, self._events = data, []
        elif isinstance(data, HandVoided):
            self._began, self._events = None, []
        elif isinstance(data, Event) and self._began is not None:
            if event.hand_no != self._began.hand_no:
                return
            self._events.append(data)
            if isinstance(data, HandEnded):
                hand = RecordedHand(self._began.hand_no, self._began, tuple(self._events))
                self._done[hand.hand_no] = hand
                while len(self._done) > self.KEEP:
                    del self._done[min(self._done)]
                self._began, self._events = None, []

    @property
    def kept(self) -> int:
        """How many complete hands are kept (not yet taken)."""
        return len(self._done)

    def hand(self, hand_no: int) -> RecordedHand | None:
        """The complete record of hand ``hand_no`` (one of the last :attr:`KEEP`)."""
        return self._done.get(hand_no)

    def take(self, hand_no: int) -> RecordedHand | None:
        """:meth:`hand`, forgotten here once read."""
        return self._done.pop(hand_no, None)
