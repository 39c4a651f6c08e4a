"""The archive thread writes the hands queued for it in batches (issue #16).

R-SEAT-2 (levels from experience): every settled hand is archived and credited once, a
level-up is announced once per account and batch; one bad hand fails alone. The backlog,
``archived()`` and the gate count each hand as before: one job per hand.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from croupier.accounts import Accounts
from croupier.server.registry import ArchiveWork, Settlement, TableRegistry
from croupier.store import ArchivedHand, HandPlayer, Store, open_store
from croupier.store.store import SettledBatch
from croupier.store.users import HandCredit

TABLE = "batch-t"


class CountingStore:
    """The registry's store, counting the hands of each ``settle_batch`` (the store is a
    frozen value)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.batches: list[int] = []

    def settle_batch(self, items: list[Settlement], **kw: Any) -> SettledBatch:
        self.batches.append(len(items))
        return self._store.settle_batch(items, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


@dataclass
class Began:
    players: tuple[str, ...]


@dataclass
class Recorded:
    began: Began


class Recorder:
    """Stands for a table's recorder: each hand was played by ``players``."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def take(self, hand_no: int) -> Recorded:
        return Recorded(Began(self.players))

    hand = take


@dataclass
class Live:
    table_id: str
    recorder: Recorder


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'db.sqlite3'}") as s:
        yield s


def _hand(hand_no: int, uids: list[int]) -> ArchivedHand:
    players = tuple(HandPlayer(u, seat, 0) for seat, u in enumerate(uids))
    return ArchivedHand(TABLE, str(hand_no), hand_no, "nlhe", "", {}, players)


async def _archive_held(
    registry: TableRegistry, plan: dict[int, Settlement], order: list[int], uids: list[int]
) -> None:
    """Settle the hands ``order`` (a hand number again: the same hand again) while the
    archive thread is busy, so that they queue; then let it go and wait for them all."""
    loop = asyncio.get_running_loop()

    def work(live: Any, hand_no: int, *, row: bool = True) -> ArchiveWork:
        blank: Any = None  # what the patched _settlement does not read
        return ArchiveWork(blank, blank, hand_no, blank, [], blank, None, set(), 6, row, loop)

    registry._archive_job = work  # type: ignore[method-assign]
    registry._settlement = lambda w: plan[w.hand_no]  # type: ignore[method-assign,assignment]
    live = Live(TABLE, Recorder(tuple(str(u) for u in uids)))
    held = threading.Event()
    busy = registry._archiver.submit(held.wait, 30)
    for hand_no in order:
        registry._archive(live, hand_no)  # type: ignore[arg-type]
    assert registry.archive_backlog == len(order)
    held.set()
    await asyncio.wrap_future(busy)
    assert await registry.archived(uids[0]) is True
    for _ in range(500):  # the done callbacks run on the loop
        if registry.archive_backlog == 0:
            break
        await asyncio.sleep(0.01)
    assert registry.archive_backlog == 0
    assert await registry.archived(uids[0]) is False


def test_queued_hands_are_written_in_one_transaction(store: Store) -> None:
    """R-SEAT-2: 6 hands queued behind a busy archive thread (one of them twice) are
    written by one ``settle_batch``; each is archived and credited once, and each account
    levels up once, from its level before the batch to its level after."""
    ann = store.users.create_user("Ann", "ann", None, "player", 0).id
    bob = store.users.create_user("Bob", "bob", None, "player", 0).id
    store.users.add_experience(ann, 90, 0, 0)  # level 1, 10 short of level 2
    plan: dict[int, Settlement] = {
        n: (_hand(n, [ann, bob]), {ann: HandCredit(100, 1, 1), bob: HandCredit(10, 1, 0)})
        for n in range(1, 6)
    }
    counting = CountingStore(store)
    announced: list[tuple[int, int, int]] = []

    async def body() -> None:
        registry = TableRegistry(store, Accounts(store.users))
        registry.store = counting  # type: ignore[assignment]

        def level_up(uid: int, before: int, after: int) -> None:
            announced.append((uid, before, after))

        registry.on_level_up = level_up
        await _archive_held(registry, plan, [1, 2, 3, 2, 4, 5], [ann, bob])
        await asyncio.to_thread(registry._archiver.shutdown, wait=True)

    asyncio.run(body())
    assert counting.batches == [6]
    assert sorted(h.hand_id for h in store.archive.for_table(TABLE)) == ["1", "2", "3", "4", "5"]
    a, b = store.users.user(ann), store.users.user(bob)
    assert a is not None and (a.experience, a.hands_played, a.hands_won) == (590, 5, 5)
    assert b is not None and (b.experience, b.hands_played) == (50, 5)
    assert announced == [(ann, 1, 4)]  # 90 → 590: level 1 → 4, announced once


def test_a_bad_hand_fails_alone_and_the_others_are_archived(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """R-SEAT-2: a hand naming an unknown account fails its batch; the archive thread then
    writes the batch's hands one by one: the others are archived and credited, the bad
    one fails alone and is logged as before."""
    ann = store.users.create_user("Ann", "ann", None, "player", 0).id
    plan: dict[int, Settlement] = {
        n: (_hand(n, [ann]), {ann: HandCredit(10, 1, 0)}) for n in (1, 2, 4)
    }
    plan[3] = (_hand(3, [ann, 424242]), {ann: HandCredit(10), 424242: HandCredit(10)})
    counting = CountingStore(store)

    async def body() -> None:
        registry = TableRegistry(store, Accounts(store.users))
        registry.store = counting  # type: ignore[assignment]
        await _archive_held(registry, plan, [1, 2, 3, 4], [ann])
        await asyncio.to_thread(registry._archiver.shutdown, wait=True)

    with caplog.at_level(logging.WARNING, "croupier.server"):
        asyncio.run(body())
    assert counting.batches == [4, 1, 1, 1, 1]
    assert sorted(h.hand_id for h in store.archive.for_table(TABLE)) == ["1", "2", "4"]
    a = store.users.user(ann)
    assert a is not None and (a.experience, a.hands_played) == (30, 3)
    failed = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert failed == [f"archiving {TABLE} #3 failed"], failed
