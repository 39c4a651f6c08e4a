"""The hand archive written in batches (issue #16), on SQLite and PostgreSQL.

R-SEAT-2 (the arcade's level ≥ 6 comes from experience): a batch of settled hands credits
each account exactly what the same hands credit one by one, once per hand.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.store import ArchivedHand, HandPlayer, NotFoundError, Store, StoreError
from croupier.store import archive as archive_module
from croupier.store import users as users_module
from croupier.store.schema import hand_archive
from croupier.store.users import HandCredit

Item = tuple[ArchivedHand | None, Mapping[int, HandCredit]]


def _accounts(store: Store, prefix: str, n: int) -> list[int]:
    return [
        store.users.create_user(f"{prefix}{i}", f"{prefix}{i}", None, "player", 0).id
        for i in range(n)
    ]


def _item(table: str, hand: int, uids: list[int]) -> Item:
    """Hand ``hand`` of ``table``: every account plays it, the first wins."""
    players = tuple(HandPlayer(u, seat, 10 if seat == 0 else -2) for seat, u in enumerate(uids))
    row = ArchivedHand(
        table, str(hand), 1000 * hand, "nlhe 1/2", f"hand = {hand}\n", {"hand_no": hand}, players
    )
    return row, {
        u: HandCredit(15 if seat == 0 else 10, 1, int(seat == 0)) for seat, u in enumerate(uids)
    }


def _counts(store: Store, uids: list[int]) -> list[tuple[int, int, int]]:
    records = [store.users.user(u) for u in uids]
    return [(r.experience, r.hands_played, r.hands_won) for r in records if r is not None]


def _rows(store: Store, table: str) -> list[tuple[str, int, str, str, object, object]]:
    return sorted(
        (h.hand_id, h.ended_ms, h.game, h.phh, h.summary, h.players)
        for h in store.archive.for_table(table, limit=1000)
    )


@contextmanager
def _statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements the store runs meanwhile."""
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    sa.event.listen(store.db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(store.db.engine, "before_cursor_execute", count)


def test_a_batch_writes_what_the_same_hands_write_one_by_one(store: Store) -> None:
    """R-SEAT-2: 20 hands of 2 tables in one ``settle_hands`` give the same archive rows,
    players and experience/hands counts as the same hands settled one at a time."""
    one, many = _accounts(store, "one", 4), _accounts(store, "many", 4)
    for table, uids, batch in (("t-one", one, False), ("t-many", many, True)):
        items = [_item(table, h, uids[h % 2 :] if h % 3 else uids) for h in range(1, 21)]
        if batch:
            updated = store.settle_hands(items)
        else:
            for hand, credits in items:
                updated = store.settle_hand(hand, credits)
        assert set(updated) <= set(uids)
    assert _rows(store, "t-one") == [
        (
            h,
            ms,
            g,
            phh,
            s,
            tuple(HandPlayer(one[many.index(p.user_id)], p.seat, p.net) for p in players),
        )
        for h, ms, g, phh, s, players in _rows(store, "t-many")
    ]
    assert _counts(store, one) == _counts(store, many)
    assert _counts(store, one)[0] == (13 * 15, 13, 13)  # the even hands and 3, 9, 15


def test_a_hand_twice_is_archived_and_credited_once(store: Store) -> None:
    """R-SEAT-2: a hand twice in one batch, and again in a later batch, has one row and
    is credited once; a hand without a row (a tournament's) is always credited."""
    uids = _accounts(store, "p", 2)
    a, b = _item("t1", 1, uids), _item("t1", 2, uids)
    first = store.settle_batch([a, b, a])
    assert first.credited == (True, True, False)
    assert first.experience([a, b, a]) == {uids[0]: 30, uids[1]: 20}
    assert {u: r.experience for u, r in first.users.items()} == {uids[0]: 30, uids[1]: 20}
    again = store.settle_batch([b, (None, {uids[1]: HandCredit(10)}), a])
    assert again.credited == (False, True, False)
    assert {u: r.hands_played for u, r in again.users.items()} == {uids[1]: 3}
    assert store.settle_hands([a]) == {} and store.settle_hands([]) == {}
    assert [h.hand_id for h in store.archive.for_table("t1")] == ["2", "1"]
    assert _counts(store, uids) == [(30, 2, 2), (30, 3, 0)]


def test_an_unknown_account_fails_its_batch_and_nothing_is_written(store: Store) -> None:
    """R-SEAT-2: a batch naming an unknown account writes no row and no credit (the
    registry then writes its hands one by one: the others are archived); an invalid hand
    fails its batch the same way, with its code."""
    uids = _accounts(store, "p", 2)
    good, ghost = _item("t1", 1, uids), _item("t1", 2, [uids[0], 999_999])
    with pytest.raises(NotFoundError, match="999999"):
        store.settle_hands([good, ghost])
    bad = ArchivedHand("t1", "", 0, "nlhe", "")
    with pytest.raises(StoreError) as err:
        store.settle_hands([good, (bad, {})])
    assert err.value.code == "invalid_hand"
    assert store.archive.for_table("t1") == [] and _counts(store, uids) == [(0, 0, 0)] * 2
    store.settle_hand(*good)
    with pytest.raises(NotFoundError):
        store.settle_hand(*ghost)
    assert [h.hand_id for h in store.archive.for_table("t1")] == ["1"]
    assert _counts(store, uids) == [(15, 1, 1), (10, 1, 0)]


def test_a_batch_of_50_hands_runs_under_3_statements_a_hand(store: Store) -> None:
    """Issue #16: each statement costs the store thread a GIL handover, so a batch is
    set-based. 50 hands of 6 players: one select, one insert of rows, one of players, one
    update, one select (a count, not a timing)."""
    uids = _accounts(store, "p", 6)
    items = [_item(f"t{i}", 1, uids) for i in range(50)]
    with _statements(store) as seen:
        store.settle_hands(items)
    assert len(seen) / len(items) < 3, seen
    assert _counts(store, uids)[0] == (50 * 15, 50, 50)


def test_a_batch_stays_under_the_parameter_and_term_limits(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Statements are chunked (limits made tiny here): no statement binds more than
    ``MAX_PARAMETERS`` nor lists more than ``MAX_OR_TERMS`` terms, and the batch is whole."""
    monkeypatch.setattr(archive_module, "MAX_PARAMETERS", 13)
    monkeypatch.setattr(archive_module, "MAX_OR_TERMS", 3)
    monkeypatch.setattr(users_module, "MAX_OR_TERMS", 3)
    uids = _accounts(store, "p", 7)
    items = [_item("t1", h, uids[h % 3 :]) for h in range(1, 8)]
    with _statements(store) as seen:
        store.settle_hands(items)
    assert len(seen) > 5
    assert _counts(store, uids)[6] == (7 * 10, 7, 0)
    with store.db.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(hand_archive)).scalar() == 7
    assert sum(len(h.players) for h in store.archive.for_table("t1")) == 6 + 5 + 7 + 6 + 5 + 7 + 6
    assert store.settle_batch(items).credited == (False,) * 7


def test_settling_hands_leaves_no_cyclic_garbage(store: Store) -> None:
    """Issue #16: the room's steady cyclic garbage was the experience ``UPDATE`` built per
    batch (some 370 SQLAlchemy expression objects in reference cycles each time, which only
    a collection frees: the collector's pauses grow with them). Its statement is now built
    once per size; ten batches leave (almost) nothing for the collector."""
    uids = _accounts(store, "p", 6)
    for hand in (1, 2):  # statements compiled and cached, connections pooled
        store.settle_hands([_item(f"t{i}", hand, uids) for i in range(3)])
    gc.collect()
    gc.disable()
    try:
        for hand in range(3, 13):
            store.settle_hands([_item(f"t{i}", hand, uids) for i in range(3)])
        found = gc.collect()
    finally:
        gc.enable()
    assert found < 100, f"{found} objects in cycles after ten batches"
    assert _counts(store, uids)[0] == (12 * 3 * 15, 36, 36)


def test_a_level_reached_is_rewarded_in_the_batch_that_credits_it(store: Store) -> None:
    """R-SEAT-2: the archive's credits (a tournament's hands, which have no settlement of
    their own in the store) grant the rewards of the levels they reach in the same
    transaction (``level_rewards``, the room's rule: 10 bound diamonds a level), once; a
    batch that fails grants nothing."""
    from croupier.server.arcade import experience_rewards

    ann, bob = _accounts(store, "lv", 2)
    store.users.add_experience(ann, 95, 0, 0)
    tourney = (None, {ann: HandCredit(160, 1, 1), bob: HandCredit(10, 1, 0)})  # ann: 255
    store.settle_batch([tourney], level_rewards=experience_rewards)
    assert store.ledger.balances(ann).bound_diamonds == 20  # levels 2 and 3
    assert store.ledger.balances(bob).bound_diamonds == 0
    # a bad hand in the batch: nothing is credited, nothing granted
    bad = (None, {bob: HandCredit(500, 1, 1), 424242: HandCredit(10)})
    with pytest.raises(NotFoundError):
        store.settle_batch([bad], level_rewards=experience_rewards)
    assert store.ledger.balances(bob).bound_diamonds == 0
    assert store.users.user(bob).experience == 10  # type: ignore[union-attr]
    assert store.audit().ok
