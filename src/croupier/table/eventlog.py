"""The table's versioned event log: a bounded history and the subscribers.

Each published event gets the next version of the current epoch and is delivered to every
subscriber redacted for them (:func:`~croupier.table.events.for_audience`).

>>> from croupier.table.events import SatIn
>>> log = EventLog(history=2)
>>> got = []
>>> sub = log.add("ann", got.append)
>>> [log.publish(SatIn(i), hand_no=0).version for i in range(3)]
[1, 2, 3]
>>> [e.version for e in got], log.since("ann", 2, None) is not None, log.since("ann", 0, None)
([1, 2, 3], True, None)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from croupier.engine.events import Event
from croupier.table.events import Notice, TableEvent, for_audience

__all__ = ["EventLog", "Subscription"]


class Subscription:
    """A subscriber: ``player_id`` (``None``: spectator) gets each event redacted for them
    through ``callback``."""

    def __init__(self, player_id: str | None, callback: Callable[[TableEvent], Any]) -> None:
        self.player_id = player_id
        self.callback = callback
        self.closed = False

    def deliver(self, event: TableEvent) -> None:
        if not self.closed:
            self.callback(event)


class EventLog:
    """Versions, the bounded history (``history`` events) and the subscribers."""

    def __init__(self, history: int, epoch: int = 0) -> None:
        self.epoch = epoch
        self.version = 0
        self.history: deque[TableEvent] = deque(maxlen=history)
        self.subscribers: list[Subscription] = []

    def publish(
        self,
        data: Event | Notice,
        *,
        hand_no: int,
        players: tuple[str, ...] = (),
        to: str | None = None,
    ) -> TableEvent:
        self.version += 1
        event = TableEvent(self.version, self.epoch, hand_no, data, players, to)
        self.history.append(event)
        for sub in list(self.subscribers):
            if event.to is None or event.to == sub.player_id:
                sub.deliver(for_audience(event, sub.player_id))
        return event

    def add(self, player_id: str | None, callback: Callable[[TableEvent], Any]) -> Subscription:
        sub = Subscription(player_id, callback)
        self.subscribers.append(sub)
        return sub

    def remove(self, sub: Subscription) -> None:
        sub.closed = True
        if sub in self.subscribers:
            self.subscribers.remove(sub)

    def since(
        self, player_id: str | None, since: int | None, epoch: int | None
    ) -> list[TableEvent] | None:
        """The events after ``since`` redacted for ``player_id``, or ``None`` when they are
        not all kept (too old, another epoch, or no version given): resync by snapshot."""
        if since is None or (epoch is not None and epoch != self.epoch) or since > self.version:
            return None
        oldest = self.history[0].version if self.history else self.version + 1
        if since + 1 < oldest:
            return None
        return [
            for_audience(e, player_id)
            for e in self.history
            if e.version > since and (e.to is None or e.to == player_id)
        ]
