"""A tournament hand and the director's state that counts it are ONE store transaction
(R-CRASH-1 revised, R-TOUR-4, R-TOUR-12), on SQLite and PostgreSQL.

The tables and the tournaments are wired as the server wires them (the server's
``TableRegistry`` serves the tournament tables and builds each hand's archive row; the
``TournamentRegistry`` journals in the real store). A failure is injected inside the
write (before or after the hand's archive row is inserted): the store then holds neither
the hand nor the state after it — never one without the other — checked by replaying the
archived hands' nets from the starting stacks onto the journaled stacks. The process then
"dies" (nothing closed), restarts from the store and plays to the end: every place given
once, the pool equal to the buy-ins taken and paid out once, the audit clean, and every
hand the tournament counted archived exactly once (hand numbers 1..n at every table)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.accounts import Accounts
from croupier.server.app import _tournament_table
from croupier.server.registry import TableRegistry
from croupier.store import Store, open_store
from croupier.store.archive import ArchivedHand, HandArchive, HandPlayer
from croupier.store.schema import hand_archive, hand_players
from croupier.store.tournaments import TournamentJournal
from croupier.table.clock import FakeClock
from croupier.tournament import LedgerCashier, TournamentRegistry, scheduled, sit_and_go
from croupier.tournament.money import pool_account
from croupier.tournament.persist import tournament_store
from tests.store.backends import BACKENDS, database_url

TID = "sng-at"
SEATS = 4
BUY_IN = 100


class InjectedFailure(RuntimeError):
    """The store write fails here (a disk error, the connection lost, the process killed)."""


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with database_url(request.param, tmp_path) as url:
        s = open_store(url, clock=lambda: 0.0)
        try:
            yield s
        finally:
            s.close()


def _players(store: Store, n: int = SEATS) -> list[str]:
    ids = []
    for i in range(n):
        user = store.users.create_user(f"A{i}", f"a{i}", None, "bot", 0)
        store.ledger.grant_diamonds(user.id, 500, key=f"grant-A{i}")
        store.ledger.buy_chips(user.id, 500, key=f"buy-A{i}")
        ids.append(str(user.id))
    return ids


def _life(store: Store, clock: FakeClock, seed: int) -> tuple[TableRegistry, TournamentRegistry]:
    """One process: the server's table registry and the tournaments, wired as in
    ``croupier.server.app`` (tournament tables served by id, hands archived with the
    director's state)."""
    tables = TableRegistry(store, Accounts(store.users), clock=clock, group_commit=False)
    services = SimpleNamespace(registry=tables)
    reg = TournamentRegistry(
        LedgerCashier(store.ledger),
        clock=clock,
        rng=random.Random(seed),
        testing=True,
        on_table=lambda table_id, actor: _tournament_table(services, table_id, actor),  # type: ignore[arg-type]
        store=tournament_store(store, hands=tables.tournament_hand),
    )
    return tables, reg


def _spec() -> Any:
    return sit_and_go(
        TID, "SNG atomic", seats=SEATS, buy_in=BUY_IN, speed="hyper", between_hands=1.0,
        bot_delay=0.5,
    )  # fmt: skip


def _nets(store: Store, tid: str = TID) -> dict[str, int]:
    """Each player's net over every archived hand of the tournament's tables."""

    def work(conn: sa.Connection) -> dict[str, int]:
        rows = conn.execute(
            sa.select(hand_players.c.user_id, sa.func.sum(hand_players.c.net))
            .join(hand_archive, hand_archive.c.id == hand_players.c.archive_id)
            .where(hand_archive.c.table_id.like(f"{tid}-t%"))
            .group_by(hand_players.c.user_id)
        ).all()
        return {str(u): int(n) for u, n in rows}

    return store.db.run(work)


def _check_consistent(
    store: Store, starting: int, tid: str = TID, tables: int = SEATS
) -> dict[str, Any]:
    """The journaled state and the archived hands agree: each table's archived hands are
    exactly 1..(the state's hand number), and each player's starting stack plus their
    archived nets is their journaled stack (0 once out)."""
    (row,) = [r for r in TournamentJournal(store.db, clock=lambda: 0.0).load() if r.id == tid]
    state = row.state
    assert state is not None
    hand_nos = {int(t): int(n) for t, n in state["hand_nos"].items()}
    for t in range(tables):
        archived = [int(h.hand_id) for h in store.archive.for_table(f"{tid}-t{t + 1}", limit=1000)]
        assert sorted(archived) == list(range(1, hand_nos.get(t, 0) + 1)), (t, hand_nos)
    nets = _nets(store, tid)
    stacks = {p: int(v[2]) for p, v in state["players"].items()}
    entrants = state["launch"]["entrants"]
    if state["finished"]:  # the winner holds every chip
        stacks = {
            str(p): starting * len(entrants) for p, place, *_ in state["placings"] if place == 1
        }
    for p, *_ in entrants:
        assert starting + nets.get(str(p), 0) == stacks.get(str(p), 0), (p, nets, stacks)
    return state


def _failing_archive(where: str, failures: list[str], times: int | None = None) -> Any:
    real = HandArchive.add_in

    def add_in(self: HandArchive, conn: sa.Connection, hand: ArchivedHand) -> None:
        if times is not None and len(failures) >= times:
            real(self, conn, hand)
            return
        if where == "after":
            real(self, conn, hand)  # the hand's row is in, the state's update is not
        failures.append(f"{hand.table_id}#{hand.hand_id}")
        raise InjectedFailure("store write failed")

    return add_in


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_failure_inside_the_hand_and_state_write_leaves_neither(
    store: Store, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-CRASH-1 (revised), R-TOUR-4, R-TOUR-12: the end of a tournament hand and the
    director's resulting state are one transaction. A failure injected inside it (before
    or after the hand's archive row is inserted) leaves the store with neither: the state
    of the hand before and no row for the hand (the old design wrote the row apart and the
    state after it, so the row outlived the state: its nets no longer add up to the
    journaled stacks, and the restarted table replayed the hand number, its real hand lost
    from History). Then the process dies; the restart voids the cut hand, resumes and plays
    to the end: places 1..4 once, pool == 4 buy-ins paid out once, audit clean, every
    counted hand archived once."""
    ids = _players(store)
    spec = _spec()
    failures: list[str] = []

    async def first() -> None:
        clock = FakeClock()
        _, reg = _life(store, clock, seed=11)
        reg.add(spec)
        for i, p in enumerate(ids):
            await reg.register(TID, p, f"A{i}", is_bot=True)
        director = reg.get(TID).director
        assert director is not None
        await clock.run_until(lambda: sum(director.hand_nos.values()) >= 5, limit=5_000)
        before = _check_consistent(store, spec.starting_stack)
        with monkeypatch.context() as m:
            m.setattr(HandArchive, "add_in", _failing_archive(where, failures))
            await clock.run_until(lambda: bool(failures), limit=5_000)
            assert not director.finished
            # the hand is settled in memory, but the store holds neither it nor its state
            assert director.unsaved_hands
            after = _check_consistent(store, spec.starting_stack)
            assert after["hand_nos"] == before["hand_nos"] or after["players"] != {}
            cut_table, cut_hand = failures[0].split("#")
            assert all(h.hand_id != cut_hand for h in store.archive.for_table(cut_table))
            report = store.audit()  # its check 6: the archived hands agree with the state
            assert report.ok, report.discrepancies
        # the process dies here: nothing is closed

    asyncio.run(first())
    assert failures
    assert store.ledger.balance(pool_account(TID)) == SEATS * BUY_IN

    async def second() -> None:
        clock = FakeClock(50_000.0)
        tables, reg = _life(store, clock, seed=12)
        assert TID in await reg.restore()
        director = reg.get(TID).director
        assert director is not None
        assert sum(director.stacks.values()) == SEATS * spec.starting_stack
        await clock.run_until(lambda: director.finished, limit=60_000)
        await clock.advance(1.0)
        assert sorted(p.place for p in director.placings) == list(range(1, SEATS + 1))
        assert sorted(p.player_id for p in director.placings) == sorted(ids)
        assert sum(p.prize for p in director.placings) == director.launch.pool == SEATS * BUY_IN
        await reg.close()
        await tables.close()

    asyncio.run(second())
    assert store.ledger.balance(pool_account(TID)) == 0
    assert sum(store.ledger.balances(int(p)).chips for p in ids) == SEATS * 500
    report = store.audit()
    assert report.ok, report.discrepancies
    state = _check_consistent(store, spec.starting_stack)
    assert state["finished"] and state["paid"]
    nets = _nets(store)
    (winner,) = [p for p, place, *_ in state["placings"] if place == 1]
    assert spec.starting_stack + nets[winner] == SEATS * spec.starting_stack


def test_a_failed_write_is_made_good_by_the_next_save(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-CRASH-1 (revised): when one hand-and-state write fails and the process lives on,
    the hand stays pending and the next save writes it with the newer state (one
    transaction again): at the end every hand counted is archived once and the archived
    nets add up to the final stacks; the audit is clean."""
    ids = _players(store)
    spec = _spec()
    failures: list[str] = []

    async def life() -> None:
        clock = FakeClock()
        tables, reg = _life(store, clock, seed=21)
        reg.add(spec)
        for i, p in enumerate(ids):
            await reg.register(TID, p, f"A{i}", is_bot=True)
        director = reg.get(TID).director
        assert director is not None
        await clock.run_until(lambda: sum(director.hand_nos.values()) >= 3, limit=5_000)
        monkeypatch.setattr(HandArchive, "add_in", _failing_archive("after", failures, times=1))
        await clock.run_until(lambda: director.finished, limit=60_000)
        await clock.advance(1.0)
        assert failures, failures
        assert not director.unsaved_hands, director.unsaved_hands
        await reg.close()
        await tables.close()

    asyncio.run(life())
    state = _check_consistent(store, spec.starting_stack)
    assert state["finished"] and sorted(p[1] for p in state["placings"]) == [1, 2, 3, 4]
    report = store.audit()
    assert report.ok, report.discrepancies


def test_the_audit_names_a_hand_archived_without_its_state(store: Store) -> None:
    """R-CRASH-1 (revised), R-TOUR-4: what the old two-write design could leave after a
    crash — a hand archived that the journaled state does not count — is named by the
    audit (a hand past the state's hand number, and the players whose archived nets no
    longer add up to their journaled stacks); the consistent store before it is clean."""
    ids = _players(store)
    spec = _spec()

    async def life() -> None:
        clock = FakeClock()
        _, reg = _life(store, clock, seed=31)
        reg.add(spec)
        for i, p in enumerate(ids):
            await reg.register(TID, p, f"A{i}", is_bot=True)
        director = reg.get(TID).director
        assert director is not None
        await clock.run_until(lambda: sum(director.hand_nos.values()) >= 3, limit=5_000)
        # the process dies here

    asyncio.run(life())
    report = store.audit()
    assert report.ok, report.discrepancies
    state = _check_consistent(store, spec.starting_stack)
    players = sorted(state["players"])
    last = int(state["hand_nos"]["0"])
    forged = ArchivedHand(
        f"{TID}-t1", str(last + 1), 0, "nlhe 10/20 room", "", {},
        (HandPlayer(int(players[0]), 0, 40), HandPlayer(int(players[1]), 1, -40)),
    )  # fmt: skip
    store.archive.add(forged)
    problems = [d for d in store.audit().discrepancies if TID in d]
    assert any(
        f"#{last + 1} is archived but its state counts hands up to #{last}" in d for d in problems
    )
    assert sum(1 for d in problems if "archived hands give" in d) == 2, problems


def test_a_broken_tables_last_hand_is_archived_with_its_state(store: Store) -> None:
    """R-CRASH-1 (revised), R-TOUR-13, R-TOUR-14: a 12-player event on two tables of 6,
    wired as the server wires it. The hand after which a table is broken is archived with
    the state that counts it (the table stops being served right after that hand: its
    row is built the moment the hand ends, not at the save — the SIGKILL test found a
    broken table's last hand missing from the archive); at the break and at the end the
    archived hands add up to the journaled stacks and the audit is clean."""
    ids = _players(store, 12)
    spec = scheduled(
        "mtt-at", "MTT atomic", opens_at=0.0, starts_at=5.0, seats=6, max_entrants=12,
        buy_in=BUY_IN, starting_stack=500, between_hands=1.0, bot_delay=0.5,
    )  # fmt: skip

    async def life() -> None:
        clock = FakeClock()
        tables, reg = _life(store, clock, seed=41)
        reg.add(spec)
        for i, p in enumerate(ids):
            await reg.register("mtt-at", p, f"A{i}", is_bot=True)
        await clock.advance(6.0)
        director = reg.get("mtt-at").director
        assert director is not None and len(director.actors) == 2
        await clock.run_until(lambda: bool(director.broken), limit=50_000)
        assert director.broken and not director.finished
        _check_consistent(store, 500, "mtt-at", 2)
        report = store.audit()
        assert report.ok, report.discrepancies
        await clock.run_until(lambda: director.finished, limit=100_000)
        await clock.advance(1.0)
        await reg.close()
        await tables.close()

    asyncio.run(life())
    state = _check_consistent(store, 500, "mtt-at", 2)
    assert state["finished"] and sorted(p[1] for p in state["placings"]) == list(range(1, 13))
    report = store.audit()
    assert report.ok, report.discrepancies
