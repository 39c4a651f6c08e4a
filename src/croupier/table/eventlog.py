"""The table's versioned event log: a bounded history and the subscribers.

Each published event gets the next version of the current epoch and is delivered to every
subscriber redacted for them (:func:`~croupier.table.events.for_audience`). Redaction runs
once per *audience* (an engine position, a spectator, the player to act), not once per
subscriber, so subscribers of one audience share one object (and the edge encodes it once).
A notice meant for one player (``to``: an away report) reaches every other subscriber as a
:class:`~croupier.table.events.Withheld` of the same version, so each subscriber's versions
stay consecutive: a gap always means a lost event, and the client resyncs only then.

The history keeps each event once, pickled: bytes the garbage collector never scans, and
whose coming and going does not move its young-generation counter (docs/benchmarks.md,
"Paced collections"). A ``turn``'s private ``view`` (the legal actions, a whole
table view) is kept only for the latest turn, the one a reconnecting player may still
answer, as the live object: the history holds every turn without it.

Pickling runs once per event published, on the event loop. A slotted dataclass pickles
through the ``__getstate__`` ``dataclasses`` gives it, Python code that calls
``fields()`` for every object; the events' classes (and what they hold: seats, pots,
cards) are pickled instead as their class and field values, read by one
``operator.attrgetter`` (:func:`reduce_as_fields`): the same bytes' meaning, about half
the time (``bench/bench_eventlog.py``).

Durability (R-CRASH-1, "nothing is published before it is durable"): when the journal
writes records in the background (group commit), ``pending`` says which write an event
must wait for; such events are held, in order, and :meth:`EventLog.release` delivers them
once the journal reports that write durable.

>>> from croupier.table.events import SatIn
>>> log = EventLog(history=2)
>>> got = []
>>> sub = log.add("ann", got.append)
>>> [log.publish(SatIn(i), hand_no=0).version for i in range(3)]
[1, 2, 3]
>>> [e.version for e in got], log.since("ann", 2, None) is not None, log.since("ann", 0, None)
([1, 2, 3], True, None)
>>> log.pending = lambda: 7          # a journal write (number 7) is not durable yet
>>> _ = log.publish(SatIn(4), hand_no=0)
>>> [e.version for e in got], log.release(7), [e.version for e in got]
([1, 2, 3], None, [1, 2, 3, 4])
"""

from __future__ import annotations

import copyreg
import dataclasses
import logging
import operator
import pickle
import sys
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from croupier.engine.cards import Card
from croupier.engine.events import Event
from croupier.table.events import Notice, TableEvent, Turn, for_audience

__all__ = ["EventLog", "Subscription", "audience_key", "reduce_as_fields"]

log = logging.getLogger("croupier.table")

REDUCED: set[type] = set()
"""The classes :func:`reduce_as_fields` registered (and those it found it cannot)."""


def _card(card: Card) -> tuple[type[Card], tuple[int]]:
    return Card, (int(card),)


def reduce_as_fields(cls: type) -> bool:
    """Have ``pickle`` (and ``copy``) take an instance of dataclass ``cls`` as its class
    and its field values, read at once, rebuilt by calling ``cls`` with them: what
    ``dataclasses``' own ``__getstate__`` keeps, without its Python call of ``fields()``
    per object. Only for a dataclass whose every field is a positional ``__init__``
    argument; False (and nothing registered) otherwise. Idempotent.

    >>> from croupier.table.seating import Seat
    >>> reduce_as_fields(Seat), pickle.loads(pickle.dumps(Seat(2, "7", stack=50))).stack
    (True, 50)
    """
    if cls in REDUCED:
        return cls in copyreg.dispatch_table
    REDUCED.add(cls)
    if not dataclasses.is_dataclass(cls) or cls in copyreg.dispatch_table:
        return False
    fields = dataclasses.fields(cls)
    if not fields or any(not f.init or f.kw_only for f in fields):
        return False
    get = operator.attrgetter(*(f.name for f in fields))
    if len(fields) == 1:
        copyreg.pickle(cls, lambda obj: (cls, (get(obj),)))
    else:
        copyreg.pickle(cls, lambda obj: (cls, get(obj)))
    return True


def _reduce_tree(obj: object) -> None:
    """:func:`reduce_as_fields` for the dataclasses in ``obj`` (an event met for the
    first time: its class may come from a module loaded after this one)."""
    if isinstance(obj, tuple | list):
        for item in obj:
            _reduce_tree(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            _reduce_tree(item)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        reduce_as_fields(type(obj))
        for f in dataclasses.fields(obj):
            _reduce_tree(getattr(obj, f.name))


def _reduce_modules(*names: str) -> None:
    for name in names:
        module = sys.modules[name]
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == name:
                reduce_as_fields(value)


if Card not in copyreg.dispatch_table:
    copyreg.pickle(Card, _card)
_reduce_modules(
    "croupier.engine.events",
    "croupier.table.events",
    "croupier.table.seating",
)


class Subscription:
    """A subscriber: ``player_id`` (``None``: spectator) gets each event redacted for them
    through ``callback``."""

    __slots__ = ("callback", "closed", "player_id", "raw")

    def __init__(
        self, player_id: str | None, callback: Callable[[TableEvent], Any], *, raw: bool = False
    ) -> None:
        self.player_id = player_id
        self.callback = callback
        self.closed = False
        self.raw = raw
        """An in-process recorder of the table's own record: every event unredacted
        (:class:`~croupier.table.recorder.HandRecorder`; never a client)."""

    def deliver(self, event: TableEvent) -> None:
        if not self.closed:
            self.callback(event)


def audience_key(event: TableEvent, player_id: str | None) -> Hashable:
    """What :func:`for_audience` depends on for ``player_id``: subscribers with the same
    key see the same redacted event.

    >>> from croupier.engine.events import HoleDealt
    >>> e = TableEvent(1, 0, 7, HoleDealt(0, (), ()), ("ann", "bob"))
    >>> audience_key(e, "ann"), audience_key(e, "bob"), audience_key(e, None), audience_key(e, "cat")
    (0, 1, None, None)
    """
    if event.to is not None:  # the one it is meant for, and everyone else (withheld)
        return ("to", event.to == player_id)
    data = event.data
    if isinstance(data, Event):
        players = event.players
        return players.index(player_id) if player_id in players else None
    if isinstance(data, Turn) and data.view is not None:
        return data.player_id == player_id
    return 0


def _compact(event: TableEvent) -> TableEvent:
    data = event.data
    if isinstance(data, Turn) and data.view is not None:
        return replace(event, data=replace(data, view=None))
    return event


class EventLog:
    """Versions, the bounded history (``history`` events) and the subscribers."""

    def __init__(self, history: int, epoch: int = 0) -> None:
        self.epoch = epoch
        self.version = 0
        self._kept: deque[bytes] = deque(maxlen=history)
        """The history: the latest events, pickled (compact), oldest first; their versions
        are consecutive, up to :attr:`version`."""
        self.subscribers: list[Subscription] = []
        self.live_turn: TableEvent | None = None
        """The latest ``turn`` with its private view (the history keeps it without)."""
        self.pending: Callable[[], int] | None = None
        """The number of the journal's latest write not yet durable (0: none), if the
        journal writes in the background."""
        self.held: deque[tuple[int, TableEvent, TableEvent]] = deque()
        """Events waiting for the journal: (write number, event, its compact form)."""

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
        if isinstance(data, Turn) and data.view is not None:
            self.live_turn = event
        compact = _compact(event)
        if type(data) not in REDUCED:
            _reduce_tree(compact)
        self._kept.append(pickle.dumps(compact, pickle.HIGHEST_PROTOCOL))
        need = self.pending() if self.pending is not None else 0
        if need or self.held:
            self.held.append((need, event, compact))
        else:
            self._deliver(event, compact)
        return event

    @property
    def history(self) -> list[TableEvent]:
        """The kept events, oldest first (a ``turn`` without its view; decoded: for
        tests and tools, not the serving path)."""
        return [pickle.loads(b) for b in self._kept]

    def _deliver(self, event: TableEvent, compact: TableEvent | None = None) -> None:
        """Hand ``event`` to each subscriber, redacted once per audience. ``compact``: the
        event as the history keeps it, which is what players other than a ``turn``'s actor
        see when it offers no Naiko powers (one copy less per turn)."""
        shared: dict[Hashable, TableEvent] = {}
        if compact is not None and compact is not event:
            data = event.data
            if isinstance(data, Turn) and data.powers is None:
                shared[False] = compact  # audience_key of all but the actor
        for sub in list(self.subscribers):
            if sub.raw:
                sub.deliver(event)
                continue
            pid = sub.player_id
            key = audience_key(event, pid)
            red = shared.get(key)
            if red is None:
                red = shared[key] = for_audience(event, pid)
            sub.deliver(red)

    def release(self, durable: int) -> None:
        """The journal's writes up to number ``durable`` are durable: deliver the events
        that waited for them, in order."""
        held = self.held
        while held and held[0][0] <= durable:
            _, event, compact = held.popleft()
            try:
                self._deliver(event, compact)
            except Exception:  # a subscriber's failure must not lose the others' events
                log.exception("delivering %s v%s failed", event.type, event.version)

    def add(
        self, player_id: str | None, callback: Callable[[TableEvent], Any], *, raw: bool = False
    ) -> Subscription:
        sub = Subscription(player_id, callback, raw=raw)
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
        not all kept (too old, another epoch, or no version given): resync by snapshot.
        Events still held for durability are left out (the subscriber gets them when they
        are released)."""
        if since is None or (epoch is not None and epoch != self.epoch) or since > self.version:
            return None
        oldest = self.version - len(self._kept) + 1
        if since + 1 < oldest:
            return None
        held = self.held[0][1].version if self.held else self.version + 1
        live = self.live_turn
        out = []
        for version, kept in enumerate(self._kept, start=oldest):
            if version <= since or version >= held:
                continue
            e: TableEvent = (
                live if live is not None and version == live.version else pickle.loads(kept)
            )
            out.append(for_audience(e, player_id))
        return out
