"""All-in protections per account over a rolling 24 hours, across every table of the room,
stored with the account (R-TIME-2 revised), and `croupier admin protections`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from croupier.cli import admin
from croupier.store import Store, open_store
from croupier.store.protections import CachedProtections
from croupier.table import Disconnect, Reconnect
from croupier.table.events import Protected, TimedOut
from croupier.table.grace import GRACE_SECONDS
from croupier.table.seatcmds import policy
from croupier.table.testing import Harness, data_of
from tests.store.backends import FakeClock


def _run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


def _users(store: Store, *names: str) -> list[str]:
    return [str(store.users.create_user(n, n.lower(), None, "player", 0).id) for n in names]


def test_quota_is_per_account_over_24_hours(store: Store, clock: FakeClock) -> None:
    """R-TIME-2: the count is the account's, at any table; a protection used 24 hours ago
    no longer counts; another account has its own."""
    ann, bob = _users(store, "Ann", "Bob")
    q = store.protections
    assert q.take(ann, "t1", 2) == 1
    clock.advance(3600)
    assert q.take(ann, "t2", 2) == 2
    assert q.take(ann, "t3", 2) is None and q.used(ann) == 2
    assert q.take(bob, "t3", 2) == 1
    clock.advance(86_400 - 3600)  # the first one is now 24 h old
    assert q.used(ann) == 1 and q.take(ann, "t3", 2) == 2


def test_quota_take_is_atomic(url: str, clock: FakeClock) -> None:
    """R-TIME-2: eight tables asking at once for the same player's protections give exactly
    the quota (check and record are one step)."""
    with open_store(url, clock=clock) as store:
        (ann,) = _users(store, "Ann")
        results: list[int | None] = []
        barrier = threading.Barrier(8)

        def ask(i: int) -> None:
            barrier.wait()
            results.append(store.protections.take(ann, f"t{i}", 2))

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(r for r in results if r is not None) == [1, 2]
        assert results.count(None) == 6 and store.protections.used(ann) == 2


async def _protected_hand(h: Harness, who: str, other: str) -> tuple[list[Protected], list[Any]]:
    """``who`` drops after posting; ``other`` calls or checks: was ``who`` protected?"""
    await h.next_hand()
    h.events()
    await h.send(Disconnect(h.cid(), who))
    while h.table.hand is not None and h.to_act() == other:
        await h.act(other, "call" if h.table.hand.bets[h.table.hand.actor] < 2 else "check")
    if h.table.hand is not None and h.to_act() == who:
        await h.clock.advance(GRACE_SECONDS)  # the reconnection grace first (R-TIME-2)
    events = h.events()
    prot = data_of(events, Protected)
    outs = [o for o in data_of(events, TimedOut) if "disconnected" in o.reason]
    await h.finish_hand()
    await h.send(Reconnect(h.cid(), who))
    return prot, outs


@pytest.mark.parametrize("cached", [False, True], ids=["store", "cached"])
def test_protections_are_counted_across_tables(store: Store, cached: bool) -> None:
    """R-TIME-2: two protections used at one table leave none at another table of the room
    (before: each table kept its own count, so a player had 2 per table); the disconnection
    policy announced at the second table is already ``fold``. ``cached``: the server's
    count (:class:`CachedProtections`, issue #11: no store round trip on the event loop),
    each player's uses read as they sit, every use written to the store by its thread."""
    ann, bob, cid = _users(store, "Ann", "Bob", "Cid")
    quota: Any = CachedProtections(store.protections) if cached else store.protections

    async def body() -> None:
        one = await Harness.create(rules="room", quota=quota, table_id="one")
        two = await Harness.create(rules="room", quota=quota, table_id="two")
        if cached:
            for player in (ann, bob, cid):  # as the server does when they sit down
                await asyncio.to_thread(quota.load, player)
        for h, other in ((one, bob), (two, cid)):
            await h.sit(ann)
            await h.sit(other)
        for used in (1, 2):
            prot, _ = await _protected_hand(one, ann, bob)
            assert [p.used_today for p in prot] == [used]
        assert policy(two.table, ann) == "fold"
        prot, outs = await _protected_hand(two, ann, cid)
        assert prot == [] and outs and outs[0].reason == "disconnected (fold)"
        assert policy(two.table, cid) == "all_in_protection"

    _run(body)
    if cached:
        quota.close()
        assert quota.misses == 0  # every count was in memory: no read on the loop
    assert store.protections.used(ann) == 2
    top = store.protections.top()
    assert [(str(u.user_id), u.uses, u.tables) for u in top] == [(ann, 2, 1)]


def _app() -> typer.Typer:
    app = typer.Typer()
    admin.register(app)

    @app.command()
    def version() -> None:  # a second command keeps `admin` a sub-command
        """Unused."""

    return app


def test_admin_lists_who_used_the_most(url: str) -> None:
    """R-TIME-2: `croupier admin protections` lists the players who used the most in the
    period, most first, with how many tables; an empty period says so."""
    runner = CliRunner()
    result = runner.invoke(_app(), ["admin", "protections", "--db", url])
    assert result.exit_code == 0 and "no all-in protection used" in result.output
    with open_store(url) as store:
        ann, bob = _users(store, "Ann", "Bob")
        for table in ("a", "b", "c"):
            store.protections.take(ann, table, 5)
        store.protections.take(bob, "a", 5)
    result = runner.invoke(_app(), ["admin", "protections", "--db", url, "--limit", "5"])
    assert result.exit_code == 0, result.output
    lines = [ln.split() for ln in result.output.splitlines()[2:]]
    assert [(ln[0], ln[2], ln[3]) for ln in lines] == [("Ann", "3", "3"), ("Bob", "1", "1")]
    result = runner.invoke(_app(), ["admin", "protections", "--db", url, "--hours", "0"])
    assert result.exit_code == 2


def test_the_cache_starts_from_the_stores_count(store: Store) -> None:
    """R-TIME-2 across a restart: a new process's cache reads the uses of the last 24
    hours from the store (two used before: none left), and gives the last one once."""
    (ann,) = _users(store, "Ann")
    assert store.protections.take(ann, "t1", 3) == 1
    assert store.protections.take(ann, "t1", 3) == 2
    cache = CachedProtections(store.protections)
    cache.load(ann)
    assert cache.used(ann) == 2 and cache.take(ann, "t2", 3) == 3
    assert cache.take(ann, "t2", 3) is None
    cache.close()
    assert store.protections.used(ann) == 3 and cache.misses == 0
