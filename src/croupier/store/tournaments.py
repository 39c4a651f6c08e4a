"""Tournaments journaled in the store (R-CRASH-1 revised, R-TOUR-11): every published event
(its terms as JSON, its status, the director's state between hands) and every registration,
so that after a restart registrations still stand, running events resume and no
tournament id — hence no ledger key — is ever used twice.

This module only reads and writes rows; what they mean is the tournament layer's
(:mod:`croupier.tournament.persist`).

>>> from croupier.store.db import Database
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> j = TournamentJournal(db, clock=lambda: 1.0)
>>> j.save_event("sng-1", root="sng", kind="sitngo", status="registering", buy_in=10,
...              recurring=True, spec={"name": "SNG"})
>>> j.save_entry("sng-1", "e1", "7", "Ann", False, "sng-1:entry:e1")
>>> j.set_entry_status("e1", "refunded")
>>> [(r.id, r.status, [(e.entry_id, e.status) for e in r.entries]) for r in j.load()]
[('sng-1', 'registering', [('e1', 'refunded')])]
>>> j.used_ids("sng")
{'sng-1'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from croupier.store.archive import ArchivedHand, HandArchive
from croupier.store.db import Clock, Database, now_ms
from croupier.store.leases import ROOM_LEASE, Fence, run_fenced
from croupier.store.schema import tournament_entries, tournaments

__all__ = ["EntryRow", "EventRow", "TournamentJournal"]


@dataclass(frozen=True, slots=True)
class EntryRow:
    """One registration: ``status`` is ``active`` (its buy-in is in the pool) or
    ``refunded``."""

    entry_id: str
    tournament_id: str
    player_id: str
    name: str
    is_bot: bool
    idem_key: str
    status: str


@dataclass(frozen=True, slots=True)
class EventRow:
    """One published tournament and its registrations (oldest first)."""

    id: str
    root: str
    kind: str
    status: str
    buy_in: int
    recurring: bool
    spec: dict[str, Any]
    state: dict[str, Any] | None
    entries: tuple[EntryRow, ...]
    created_ms: int = 0
    updated_ms: int = 0


class TournamentJournal:
    """Rows of ``tournaments`` and ``tournament_entries``; each call is one transaction.
    ``archive`` is where :meth:`save_state` writes the hands a state depends on. With a
    ``fence``, every write is made only while this process holds the room services' lease
    (if it holds it: a room of several processes, :data:`~croupier.store.leases.ROOM_LEASE`),
    checked in the write's own transaction."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock,
        archive: HandArchive | None = None,
        fence: Fence | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.archive = archive if archive is not None else HandArchive(db)
        self.fence = fence

    def save_event(
        self,
        tournament_id: str,
        *,
        root: str,
        kind: str,
        status: str,
        buy_in: int,
        recurring: bool,
        spec: Mapping[str, Any],
        state: Mapping[str, Any] | None = None,
    ) -> None:
        """Insert the event, or update its status (and state when given)."""
        now = now_ms(self.clock)

        def work(conn: sa.Connection) -> None:
            found = conn.execute(
                sa.select(tournaments.c.id).where(tournaments.c.id == tournament_id)
            ).first()
            if found is None:
                conn.execute(
                    tournaments.insert().values(
                        id=tournament_id,
                        root=root,
                        kind=kind,
                        status=status,
                        buy_in=buy_in,
                        recurring=recurring,
                        spec=dict(spec),
                        state=None if state is None else dict(state),
                        created_ms=now,
                        updated_ms=now,
                    )
                )
                return
            values: dict[str, Any] = {"status": status, "updated_ms": now}
            if state is not None:
                values["state"] = dict(state)
            conn.execute(
                tournaments.update().where(tournaments.c.id == tournament_id).values(**values)
            )

        run_fenced(self.db, self.fence, ROOM_LEASE, work)

    def save_state(
        self,
        tournament_id: str,
        status: str,
        state: Mapping[str, Any],
        hands: Sequence[ArchivedHand] = (),
    ) -> None:
        """The director's state after a hand (or a move, a level, the end), and the
        ``hands`` it counts that were not written yet, in ONE transaction (R-CRASH-1
        revised): the store never holds a tournament hand without the state that follows
        it, nor that state without its hand. Archiving a hand already archived is a no-op.

        >>> from croupier.store.db import Database
        >>> db = Database.open("sqlite://"); _ = db.migrate()
        >>> j = TournamentJournal(db, clock=lambda: 1.0)
        >>> j.save_event("t", root="t", kind="sitngo", status="running", buy_in=0,
        ...              recurring=False, spec={})
        >>> hand = ArchivedHand("t-t1", "4", 1000, "nlhe 10/20", "", {}, ())
        >>> j.save_state("t", "running", {"hand_nos": {"0": 4}}, [hand])
        >>> j.load()[0].state, [h.hand_id for h in j.archive.for_table("t-t1")]
        ({'hand_nos': {'0': 4}}, ['4'])
        """
        now = now_ms(self.clock)

        def work(conn: sa.Connection) -> None:
            for hand in hands:
                self.archive.add_in(conn, hand)
            conn.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament_id)
                .values(status=status, state=dict(state), updated_ms=now)
            )

        run_fenced(self.db, self.fence, ROOM_LEASE, work)

    def save_entry(
        self,
        tournament_id: str,
        entry_id: str,
        player_id: str,
        name: str,
        is_bot: bool,
        idem_key: str,
    ) -> None:
        """A registration whose buy-in was taken."""
        now = now_ms(self.clock)

        def work(conn: sa.Connection) -> None:
            position = conn.execute(
                sa.select(sa.func.count()).where(
                    tournament_entries.c.tournament_id == tournament_id
                )
            ).scalar_one()
            conn.execute(
                tournament_entries.insert().values(
                    entry_id=entry_id,
                    tournament_id=tournament_id,
                    player_id=player_id,
                    name=name[:64],
                    is_bot=is_bot,
                    idem_key=idem_key,
                    status="active",
                    position=int(position),
                    created_ms=now,
                )
            )

        run_fenced(self.db, self.fence, ROOM_LEASE, work)

    def set_entry_status(self, entry_id: str, status: str) -> None:
        """``refunded`` once its buy-in went back."""
        run_fenced(
            self.db,
            self.fence,
            ROOM_LEASE,
            lambda conn: conn.execute(
                tournament_entries.update()
                .where(tournament_entries.c.entry_id == entry_id)
                .values(status=status)
            ),
        )

    def load(
        self, statuses: tuple[str, ...] | None = None, *, newest: int | None = None
    ) -> list[EventRow]:
        """Every event (of ``statuses``), oldest first, with its registrations; with
        ``newest``, only the ``newest`` last updated (still oldest first)."""

        def work(conn: sa.Connection) -> list[EventRow]:
            query = sa.select(tournaments).order_by(tournaments.c.created_ms, tournaments.c.id)
            if statuses is not None:
                query = query.where(tournaments.c.status.in_(statuses))
            if newest is not None:
                last = (
                    sa.select(tournaments.c.id)
                    .order_by(tournaments.c.updated_ms.desc(), tournaments.c.id.desc())
                    .limit(max(0, newest))
                )
                if statuses is not None:
                    last = last.where(tournaments.c.status.in_(statuses))
                query = query.where(tournaments.c.id.in_(last.scalar_subquery()))
            events = conn.execute(query).all()
            ids = [r.id for r in events]
            entries: dict[str, list[EntryRow]] = {i: [] for i in ids}
            if ids:
                rows = conn.execute(
                    sa.select(tournament_entries)
                    .where(tournament_entries.c.tournament_id.in_(ids))
                    .order_by(tournament_entries.c.position)
                ).all()
                for e in rows:
                    entries[e.tournament_id].append(
                        EntryRow(
                            e.entry_id,
                            e.tournament_id,
                            e.player_id,
                            e.name,
                            bool(e.is_bot),
                            e.idem_key,
                            e.status,
                        )
                    )
            return [
                EventRow(
                    r.id,
                    r.root,
                    r.kind,
                    r.status,
                    int(r.buy_in),
                    bool(r.recurring),
                    dict(r.spec),
                    None if r.state is None else dict(r.state),
                    tuple(entries[r.id]),
                    int(r.created_ms),
                    int(r.updated_ms),
                )
                for r in events
            ]

        return self.db.run(work)

    def used_ids(self, root: str | None = None) -> set[str]:
        """Every tournament id ever published (of ``root``): never to be used again."""

        def work(conn: sa.Connection) -> set[str]:
            query = sa.select(tournaments.c.id)
            if root is not None:
                query = query.where(tournaments.c.root == root)
            return {str(r[0]) for r in conn.execute(query)}

        return self.db.run(work)
