"""Migrations, URLs and the hand archive, on SQLite and PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.exc import IntegrityError

from croupier.store import (
    ArchivedHand,
    HandPlayer,
    NotFoundError,
    Store,
    StoreError,
    UnsupportedDatabaseError,
    open_store,
)
from croupier.store.db import MIGRATIONS, Database, default_url
from croupier.store.schema import metadata
from croupier.store.users import HandCredit


def test_migrations_build_exactly_the_schema(store: Store) -> None:
    """The Alembic migrations and the SQLAlchemy tables agree (no pending difference)."""
    with store.db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, metadata)
    assert diff == []
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert store.revision == ScriptDirectory.from_config(config).get_current_head()


def test_migrating_again_is_harmless(url: str) -> None:
    """Opening a store twice runs the migrations once; data stays."""
    with open_store(url, clock=lambda: 0.0) as first:
        first.ledger.grant_diamonds(1, 5, key="g")
    with open_store(url, clock=lambda: 0.0) as second:
        assert second.ledger.balances(1).diamonds == 5


@pytest.mark.parametrize("bad", ["mysql://u@h/db", "oracle://x", "nonsense"])
def test_unsupported_urls_are_refused(bad: str) -> None:
    """A URL that is neither SQLite nor PostgreSQL gets a clear error with a code."""
    with pytest.raises(UnsupportedDatabaseError) as err:
        Database.open(bad)
    assert err.value.code == "unsupported_database"


def test_default_url_is_a_sqlite_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The default store is an embedded SQLite file; the environment may override it."""
    monkeypatch.delenv("CROUPIER_DATABASE_URL", raising=False)
    assert default_url() == "sqlite:///croupier.sqlite3"
    monkeypatch.setenv("CROUPIER_DATABASE_URL", f"sqlite:///{tmp_path}/x.sqlite3")
    with open_store(clock=lambda: 0.0) as store:
        assert store.backend == "sqlite"
    assert (tmp_path / "x.sqlite3").exists()


def _hand(hand_id: str, ended: int, players: tuple[HandPlayer, ...]) -> ArchivedHand:
    return ArchivedHand(
        "t1", hand_id, ended, "nlhe 1/2", f"hand = {hand_id}\n", {"pot": 10}, players
    )


def test_archive_lists_hands_per_account(store: Store) -> None:
    """Settled hands are archived with PHH text and listed per account, newest first."""
    for i in range(1, 6):
        players = (HandPlayer(1, 0, 5), HandPlayer(2 if i % 2 else 3, 1, -5))
        store.archive.add(_hand(str(i), 1000 * i, players))
    assert [h.hand_id for h in store.archive.for_account(1)] == ["5", "4", "3", "2", "1"]
    assert [h.hand_id for h in store.archive.for_account(3)] == ["4", "2"]
    assert [h.hand_id for h in store.archive.for_account(1, limit=2, before_ms=4000)] == ["3", "2"]
    got = store.archive.get("t1", "3")
    assert got.phh == "hand = 3\n" and got.summary == {"pot": 10}
    assert got.players == (HandPlayer(1, 0, 5), HandPlayer(2, 1, -5))
    assert [h.hand_id for h in store.archive.for_table("t1", limit=1)] == ["5"]


def test_archive_is_idempotent_and_validates(store: Store) -> None:
    """Archiving a hand again keeps one copy; bad input is refused with a code."""
    hand = _hand("1", 1000, (HandPlayer(1, 0, 5), HandPlayer(2, 1, -5)))
    store.archive.add(hand)
    store.archive.add(hand)
    assert len(store.archive.for_account(1)) == 1
    with pytest.raises(StoreError) as err:
        store.archive.add(_hand("2", 1, (HandPlayer(1, 0, 5), HandPlayer(1, 1, -5))))
    assert err.value.code == "invalid_hand"
    with pytest.raises(StoreError) as err:
        store.archive.for_account(1, limit=0)
    assert err.value.code == "invalid_limit"
    with pytest.raises(NotFoundError):
        store.archive.get("t1", "nope")


def test_a_settled_hand_and_its_experience_are_one_transaction(store: Store) -> None:
    """R-SEAT-2 (levels from experience, issue #16): a hand's archive row and its players'
    experience are written together. The same hand settled again, in turn or from
    threads at once, is credited once; a hand naming an unknown account writes nothing
    at all (no row without its credit)."""
    ann = store.users.create_user("Ann", "ann", None, "player", 0)
    bob = store.users.create_user("Bob", "bob", None, "player", 0)
    hand = _hand("1", 1000, (HandPlayer(ann.id, 0, 5), HandPlayer(bob.id, 1, -5)))
    credits = {ann.id: HandCredit(15, 1, 1), bob.id: HandCredit(10, 1, 0)}
    updated = store.settle_hand(hand, credits)
    assert {u: (r.experience, r.hands_played, r.hands_won) for u, r in updated.items()} == {
        ann.id: (15, 1, 1),
        bob.id: (10, 1, 0),
    }
    assert store.settle_hand(hand, credits) == {}
    with ThreadPoolExecutor(4) as pool:
        again = list(pool.map(lambda _: _settle_or_refused(store, hand, credits), range(4)))
    assert all(a == {} for a in again), again
    record = store.users.user(ann.id)
    assert record is not None and (record.experience, record.hands_played) == (15, 1)

    ghost = _hand("2", 2000, (HandPlayer(ann.id, 0, 5), HandPlayer(9999, 1, -5)))
    with pytest.raises(NotFoundError):
        store.settle_hand(ghost, {ann.id: HandCredit(15, 1, 1), 9999: HandCredit(10, 1, 0)})
    with pytest.raises(NotFoundError):
        store.archive.get("t1", "2")
    record = store.users.user(ann.id)
    assert record is not None and (record.experience, record.hands_played) == (15, 1)

    # A tournament's hand (archived with its director's state): the credit alone.
    assert store.settle_hand(None, {bob.id: HandCredit(10, 1, 0)})[bob.id].hands_played == 2
    assert store.settle_hand(None, {}) == {}


def _settle_or_refused(
    store: Store, hand: ArchivedHand, credits: dict[int, HandCredit]
) -> dict[int, object]:
    """On PostgreSQL two transactions may both find no row and race to insert it: the
    loser is refused by the unique index, and credits nothing either."""
    try:
        return dict(store.settle_hand(hand, credits))
    except IntegrityError:
        return {}
