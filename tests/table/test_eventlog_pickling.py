"""The history's pickling (croupier.table.eventlog): events of every game and profile come
back from the history exactly as published, pickled through the fields reducers.

R-TIME-3 (a reconnecting client's resync reads the history), R-NAIKO-1 (Naiko's powers'
events among them)."""

from __future__ import annotations

import asyncio
import copy
import copyreg
import dataclasses
import pickle
import random

import pytest

from croupier.bots import BotRunner, RuleBot
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.engine.rules import profile
from croupier.table import FakeClock, InMemoryJournal, PlayChips, TableActor, TableConfig
from croupier.table.eventlog import REDUCED, _compact, reduce_as_fields
from croupier.table.events import TableEvent


async def _play(game: Game, hands: int) -> tuple[TableActor, list[TableEvent]]:
    clock = FakeClock()
    config = TableConfig.default(game, seats=6, testing=True, between_hands_seconds=1.0)
    actor = TableActor.open(
        config,
        clock=clock,
        journal=InMemoryJournal(),
        shuffler=SeededShuffler(3),
        rng=random.Random(3),
        bank=PlayChips(),
    )
    published: list[TableEvent] = []
    actor.table.log.add(None, lambda e: published.append(_compact(e)), raw=True)
    for k in range(6):
        bot = BotRunner(actor, f"b{k}", RuleBot(), clock=clock, delay=0.5)
        assert (await bot.join(config.min_buy_in * 2)).accepted
    await clock.run_until(lambda: actor.table.hand_no >= hands, max_timers=10**7)
    assert actor.alive, actor.crashed
    return actor, published


def _classes(obj: object, out: set[type]) -> set[type]:
    if isinstance(obj, tuple | list):
        for item in obj:
            _classes(item, out)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out.add(type(obj))
        for f in dataclasses.fields(obj):
            _classes(getattr(obj, f.name), out)
    return out


@pytest.mark.parametrize(
    ("preset", "rules"), [("nlhe", "room"), ("plo8", "room"), ("nlhe", "naiko"), ("27td", "room")]
)
def test_history_gives_back_every_event_as_published(preset: str, rules: str) -> None:
    """R-TIME-3, R-NAIKO-1: the history's events, pickled by the fields reducers, equal the
    events published (cards, seats, pots, powers, turns without their view), and every
    dataclass they hold was pickled by a reducer, not by ``dataclasses``' own state."""
    game = Game.of(preset, blinds=(1, 2), rules=profile(rules))
    actor, published = asyncio.run(_play(game, 12))
    history = actor.table.log.history
    assert len(history) > 100
    assert history == published[-len(history) :]
    seen: set[type] = set()
    for event in published:
        _classes(event, seen)
    assert seen - REDUCED == set()
    assert all(cls in copyreg.dispatch_table for cls in seen)
    for event in published[:50]:
        assert copy.copy(event) == event
    if rules == "naiko":
        assert any(e.type.startswith(("power", "naiko")) for e in published)


@dataclasses.dataclass(frozen=True, slots=True)
class Later:
    a: int
    b: int = dataclasses.field(init=False, default=3)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Named:
    a: int


def test_a_dataclass_a_reducer_cannot_rebuild_is_left_to_dataclasses() -> None:
    """A field outside ``__init__`` or keyword-only: no reducer, pickling as before."""
    for cls, value in ((Later, Later(1)), (Named, Named(a=1))):
        assert reduce_as_fields(cls) is False
        assert cls not in copyreg.dispatch_table
        assert pickle.loads(pickle.dumps(value)) == value
