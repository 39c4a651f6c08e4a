"""A room served by several processes on one database (issue #16): table leases,
takeover of a dead process's tables, and where a client finds a table served elsewhere.

Every process of the room has a node name (``CROUPIER_NODE_ID``) and knows the others
(``CROUPIER_NODES``). The room's catalogue of public tables is split between them by
rendezvous hashing (:func:`preferred`): a process opens the tables that hash to it, each
under a lease (:mod:`croupier.store.leases`) it renews every quarter of the lease's
length. Any table a process opens (a private table, a quick match) is leased the same
way, so no other process touches its journal while it runs.

**Takeover.** Every quarter of the lease's length, a process reads the leases: one that
expired (its holder died, froze, or lost the database) is acquired (the epoch grows, so
the old holder can write nothing more: fencing), and its table is

- opened here if it is one of the room's catalogue tables: restored from its journal by
  the crash policy (R-CRASH-1: the hand in play voided, every stack back to its owner's
  account, seats empty), its bots seated again;
- otherwise closed (a private or quick-match table: the same crash policy, then the lease
  is given up).

A catalogue table whose preferred process never came up (no lease row at all) is opened
by another one after ten lease lengths (:data:`START_GRACE`: the room's processes start
together, not in the same second). A process that finds at renewal that it lost a lease stops serving the
table at once (:meth:`TableRegistry.forget`), its watchers told ``table_closed`` with
reason ``moved``.

**Clients.** A process serves its tables' sockets itself (no cross-process hop on an
action's path). A message naming a table served by another live process is refused with
``table_elsewhere`` and that process's address (``url``); the lobby lists every table of
the room, each other process's table with its ``node_url`` (from the summary its holder
writes in the lease at the renewal after it changed).

**The room-wide services** (tournaments and the casino) run on the process that holds the
lease :data:`~croupier.store.leases.ROOM_LEASE`: the first node takes it at its start, and
any process takes it over once it expired (the process running them died, froze, or lost
the database), then restores them from the database as a restart does (R-CRASH-1: running
tournaments resume from their directors' journaled state, a casino round in play is void,
its bets back). Their writes are fenced by that lease as a table's are by its own: a
process that lost it writes nothing more for them, and stops running them at its next
round. The start-up recovery of tables nobody serves stays with the first node's start.

>>> preferred("bots-1", ("a", "b")) in ("a", "b")
True
>>> sorted({preferred(f"t{i}", ("a", "b")) for i in range(20)})
['a', 'b']
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import logging
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from croupier.lobby import LobbyError, TableSpec
from croupier.server.wire import plain
from croupier.store.leases import ROOM_LEASE, Lease
from croupier.table.restart import close_table

if TYPE_CHECKING:
    from croupier.server.app import Services

T = TypeVar("T")

__all__ = ["ROOM_LEASE", "Node", "preferred"]

log = logging.getLogger("croupier.server")

START_GRACE = 10
"""Lease lengths after its start before a process opens a catalogue table that no
process has leased yet (its preferred node did not come up)."""


def preferred(table_id: str, nodes: Sequence[str]) -> str:
    """The node that serves ``table_id`` when every node is up (rendezvous hashing: a
    node's going or coming moves only its own share)."""
    return max(nodes, key=lambda n: hashlib.sha256(f"{n}\0{table_id}".encode()).digest())


class Node:
    """This process's part of the room: its leases, their renewal, takeovers."""

    def __init__(self, sv: Services, *, monotonic: Any = time.monotonic) -> None:
        settings = sv.settings
        self.sv = sv
        self.name = settings.node_id
        self.nodes = settings.nodes
        self.owner = f"{self.name}/{uuid.uuid4().hex[:12]}"
        """The holder's name in the lease rows: one per process start, so a node that
        restarts is a new holder (its old incarnation's leases expire and are taken over
        like any other)."""
        self.url = settings.node_url or f"http://{settings.host}:{settings.port}"
        self.ttl = settings.lease_seconds
        self.catalogue: dict[str, TableSpec] = {}
        self.others: dict[str, Lease] = {}
        """The live leases of the other processes, as last read; a lease read again with
        the same holder, epoch, address and lobby row keeps its object, and with it the
        ``expires_ms`` first read (:func:`_kept`)."""
        self.peers: tuple[str, ...] = ()
        """The addresses of the room's other live processes (their leases'), sorted: where
        a page whose process died goes on (the welcome's ``peers``, the pages' CSP)."""
        self.takeovers = 0
        self._monotonic = monotonic
        self._started = monotonic()
        self._taking: dict[str, asyncio.Task[None]] = {}
        """Takeovers under way, by table."""
        self._written: dict[str, tuple[int, dict[str, Any]]] = {}
        """The info this process last wrote in each lease it holds (name → epoch, info): a
        renewal writes only the infos that changed (at 1,000 tables, most summaries are
        the same from one round to the next)."""
        self._plain_rows: dict[str, tuple[Any, dict[str, Any]]] = {}
        """Each public table's lobby row as last converted (summary → plain), made again
        only when the table's summary is a new object (``LiveTable.summary``)."""
        self._acquired: set[str] = set()
        """The leases acquired (:meth:`lease`) since the renewal under way started: an
        acquire writes an empty info, before or after that renewal's, so what it wrote
        is not remembered for them."""
        self._leases = concurrent.futures.ThreadPoolExecutor(1, "croupier-leases")
        """The thread the renewal rounds run their statements on. Not the loop's default
        executor: under load its threads are taken by the tables' own store calls
        (buy-ins, cash-outs), thousands queued at 1,000 tables, and a renewal queued
        behind them came seconds late; the leases expired and the other process took
        the tables of a live one over (docs/benchmarks.md, "Leases under load")."""
        self.slowest_round = 0.0
        """The longest renewal round so far, in seconds (``/metrics``)."""
        self.longest_gap = 0.0
        """The longest time between two renewals' commits so far, in seconds: what the
        lease length must exceed (``/metrics``)."""
        self._renewed: float | None = None
        self._renewed_lock = threading.Lock()
        self._beat = monotonic()
        """When the event loop last ran :meth:`_heartbeat` (the keeper's proof of life)."""
        self._keeper: threading.Thread | None = None
        self._stop = threading.Event()
        self.lost = 0
        """Tables this process stopped serving because another one holds their lease now."""
        self.first = self.name == self.nodes[0]
        """Whether this process takes the room services' lease at its start (the first
        node); any process takes it over once it expired."""
        self.room = False
        """Whether this process runs the room-wide services now (it holds
        :data:`ROOM_LEASE` and started them)."""
        self.start_room: Callable[[], Awaitable[None]] | None = None
        """Starts the room-wide services here (the server's; after a takeover of the room
        services' lease)."""
        self.stop_room: Callable[[], Awaitable[None]] | None = None
        """Stops them (this process lost their lease to another)."""
        self.rooms_taken = 0
        """Times this process took the room-wide services over from another."""
        self.rooms_lost = 0
        """Times this process found the room-wide services taken over by another."""
        self._room_tables: frozenset[str] = frozenset()
        """The running tournaments' tables the room services' holder last listed (kept
        after it died: :meth:`restarting`)."""
        sv.store.fence.owner = self.owner
        sv.registry.lease = self.lease

    async def take_room(self) -> bool:
        """At start: take the room services' lease if nobody holds it (``True``: this
        process runs the services; the caller starts them). A live holder keeps them."""
        self.room = await self.lease(ROOM_LEASE)
        return self.room

    @property
    def room_starting(self) -> bool:
        """Whether this process is taking the room services over (restoring them)."""
        return ROOM_LEASE in self._taking

    @property
    def services_moving(self) -> bool:
        """Whether the room services are nobody's for a moment: their process died and no
        other took them over yet, or this one is taking them over (restoring them)."""
        return self.room_starting or (not self.room and self.room_url is None)

    def mine(self, table_id: str) -> bool:
        return preferred(table_id, self.nodes) == self.name

    async def lease(self, table_id: str) -> bool:
        """Take ``table_id``'s lease for this process (the registry asks before opening a
        table); ``False`` when another live process holds it."""
        store = self.sv.store
        try:
            lease = await asyncio.to_thread(
                store.leases.acquire, table_id, self.owner, url=self.url, ttl=self.ttl
            )
        finally:  # (an acquire empties the row's info: written again at the next renewal)
            self._written.pop(table_id, None)
            self._acquired.add(table_id)
        if lease is None:
            return False
        store.fence.hold(table_id, lease.epoch)
        return True

    async def open_share(self, specs: Iterable[TableSpec]) -> None:
        """Open this node's share of the catalogue ``specs`` (the rest is opened by the
        other nodes, or taken over from them later)."""
        for spec in specs:
            self.catalogue[spec.table_id] = spec
        for table_id, spec in sorted(self.catalogue.items()):
            if self.mine(table_id):
                await self._open(spec)

    async def _open(self, spec: TableSpec) -> bool:
        try:
            await self.sv.registry.open(spec)
        except LobbyError as exc:
            if exc.code not in ("table_elsewhere", "table_exists"):
                raise
            return False
        return True

    def elsewhere(self, table_id: str) -> str | None:
        """The address of the live process serving ``table_id`` if it is not this one (a
        tournament's table: the room services' holder, as it last listed it)."""
        if self.sv.registry.serving(table_id):
            return None
        lease = self.others.get(table_id)
        if lease is not None:
            return lease.url
        if not self.room and table_id in self._room_tables:
            return self.room_url
        return None

    def restarting(self, table_id: str) -> bool:
        """Whether ``table_id`` is nobody's for a moment and soon served again: a
        catalogue table this process is taking over (its process died), or a tournament
        table of the room services while they move (this process takes them over, or
        their process died and nobody took them yet)."""
        if table_id in self._taking and table_id in self.catalogue:
            return True
        return self.services_moving and table_id in self._room_tables

    def holder(self, table_id: str) -> str | None:
        """The node name of the other live process serving ``table_id`` (``None``: this
        one serves it, or nobody does)."""
        if self.sv.registry.serving(table_id):
            return None
        lease = self.others.get(table_id)
        return lease.owner.split("/", 1)[0] if lease is not None else None  # (see owner)

    def url_of(self, table_id: str) -> str | None:
        """The address of the other live process serving ``table_id``."""
        lease = self.others.get(table_id)
        return lease.url if lease is not None else None

    def remote_tables(self) -> list[dict[str, Any]]:
        """The lobby rows of the other processes' public tables (their holders' last
        summaries), each with its ``node_url``."""
        rows = []
        for name, lease in sorted(self.others.items()):
            table = lease.info.get("table")
            if isinstance(table, dict) and name not in self.sv.registry.tables:
                rows.append({**table, "node_url": lease.url})
        return rows

    async def _on_lease_thread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on the leases' own thread (:attr:`_leases`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._leases, functools.partial(fn, *args, **kwargs))

    def _renew(
        self, held: dict[str, int], info: dict[str, dict[str, Any]]
    ) -> tuple[set[str], list[Lease]]:
        """(On the leases' thread.) Renew and read the leases; note the gap since the
        previous renewal committed."""
        out = self.sv.store.leases.renew_and_read(self.owner, held, ttl=self.ttl, info=info)
        self._note_renewal()
        return out

    def _note_renewal(self) -> None:
        done = self._monotonic()
        with self._renewed_lock:
            if self._renewed is not None:
                self.longest_gap = max(self.longest_gap, done - self._renewed)
            self._renewed = done

    def _keep(self) -> None:
        """(The keeper's thread.) Every quarter of the lease's length, extend every lease
        this process holds, while its event loop shows life.

        The round (:meth:`tick`) renews too, but it runs on the loop: under load a round
        waits for the loop twice (woken, then the renewal's result), and with the loop's
        lag and a full collection the time between two renewals reached 2.85 s of a 3 s
        lease in ten minutes at 1,000 tables (docs/benchmarks.md, "Leases under load").
        The keeper's renewals do not wait for the loop. They stop once the loop has not run
        for a lease's length (:meth:`_heartbeat`): a process whose loop is stuck lets its
        leases expire, and the others take its tables over. A renewal names each lease's
        epoch, so it never extends a lease lost or given up meanwhile."""
        store = self.sv.store
        while not self._stop.wait(self.ttl / 4):
            if self._monotonic() - self._beat > self.ttl:
                continue  # the loop is stuck: the leases are left to expire
            held = store.fence.held()
            if not held:
                continue
            try:
                store.leases.renew(self.owner, held, ttl=self.ttl)
            except Exception:
                log.exception("lease keeper failed", extra={"event": "lease_keeper_failed"})
            else:
                self._note_renewal()

    async def _heartbeat(self) -> None:
        """The loop's proof of life for the keeper, several times per lease length."""
        while True:
            self._beat = self._monotonic()
            await asyncio.sleep(min(0.25, self.ttl / 8))

    async def run(self) -> None:
        """Renew, read, take over: every quarter of the lease's length, until cancelled;
        with the keeper's thread (:meth:`_keep`) renewing meanwhile."""
        beats = asyncio.create_task(self._heartbeat())
        self._stop.clear()
        self._keeper = threading.Thread(
            target=self._keep, name="croupier-lease-keeper", daemon=True
        )
        self._keeper.start()
        try:
            await self._rounds()
        finally:
            beats.cancel()
            self._stop.set()

    async def _rounds(self) -> None:
        while True:  # the first round at once: the other processes' tables known from the start
            began = self._monotonic()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease round failed", extra={"event": "lease_round_failed"})
            took = self._monotonic() - began
            self.slowest_round = max(self.slowest_round, took)
            if took > self.ttl / 2:
                log.warning(
                    "lease round took %.2f s (the lease lasts %.1f s)",
                    took,
                    self.ttl,
                    extra={"event": "lease_round_slow", "seconds": round(took, 3)},
                )
            await asyncio.sleep(max(0.0, self.ttl / 4 - took))

    async def tick(self) -> None:
        """One round: renew this process's leases, stop serving the ones lost, start
        taking the expired ones over (each in its own task, so a slow restore never
        delays the next renewal)."""
        sv, store = self.sv, self.sv.store
        registry = sv.registry
        held = store.fence.held()
        for table_id, epoch in list(held.items()):
            if table_id == ROOM_LEASE:
                continue
            if not registry.serving(table_id) and table_id not in self._taking:
                # closed here (private idle, given up); not one being taken over
                await self._on_lease_thread(store.leases.release, table_id, self.owner, epoch)
                store.fence.drop(table_id)
                del held[table_id]
        public = {s.table_id: s for s in registry.summaries()}  # once: tables can be many
        for name in [n for n in self._plain_rows if n not in public]:
            del self._plain_rows[name]
        written = self._written
        info: dict[str, dict[str, Any]] = {}  # only the ones changed since last written
        for name, epoch in held.items():
            body = self._info(name, public)
            if written.get(name) != (epoch, body):
                info[name] = body
        self._acquired.clear()
        # the renewal and the read of every lease: one transaction (one write turn)
        lost, rows = await self._on_lease_thread(self._renew, held, info)
        now = store.leases.now_ms()
        for name in [n for n in written if n not in held or n in lost]:
            del written[name]  # released or lost
        for name, body in info.items():
            if name not in lost and name not in self._acquired:
                written[name] = (held[name], body)
        for table_id in sorted(lost):
            store.fence.lose(table_id)
        if self.room and store.fence.lost(ROOM_LEASE):  # (frozen past it, or cut off)
            await self._lose_room()
        for table_id in sorted(t for t in registry.tables if store.fence.lost(t)):
            # lost at renewal, or found lost by one of its writes (fenced)
            log.error(
                "table %s lost to another process",
                table_id,
                extra={"event": "table_lost", "table": table_id, "node": self.name},
            )
            self.lost += 1
            await registry.forget(table_id, "moved")
        self.others = _kept(self.others, (r for r in rows if r.owner != self.owner and r.live(now)))
        if ROOM_LEASE in self.others:  # (kept when its holder dies: restarting())
            self._room_tables = frozenset(
                t
                for row in self.room_rows("tournaments")
                if isinstance(tables := row.get("tables"), list)
                for t in tables
                if isinstance(t, str)
            )
        self.peers = _peers(self.others.values(), self.url)
        for row in rows:
            if row.owner != self.owner and not row.live(now) and row.name != ROOM_LEASE:
                self._start_takeover(row.name, row.owner)
        late = self._monotonic() - self._started > START_GRACE * self.ttl
        if not self.room and ROOM_LEASE not in self._taking:
            found = next((r for r in rows if r.name == ROOM_LEASE), None)
            if found is None and (self.first or late):  # nobody ever took it
                self._start_room_takeover("")
            elif found is not None and not found.live(now):  # its holder died, froze, stopped
                self._start_room_takeover(found.owner if found.owner != self.owner else "")
        if late:
            named = {r.name for r in rows}
            for table_id in sorted(self.catalogue):
                if table_id not in named and not registry.serving(table_id):
                    self._start_takeover(table_id, "")  # its node never came up

    def _start_takeover(self, table_id: str, owner: str) -> None:
        if table_id in self._taking:
            return
        self._track(table_id, asyncio.create_task(self._take_over(table_id, owner)))

    def _start_room_takeover(self, owner: str) -> None:
        self._track(ROOM_LEASE, asyncio.create_task(self._take_room(owner)))

    def _track(self, table_id: str, task: asyncio.Task[None]) -> None:
        self._taking[table_id] = task

        def done(_task: asyncio.Task[None], table_id: str = table_id) -> None:
            self._taking.pop(table_id, None)

        task.add_done_callback(done)

    async def settled(self) -> None:
        """Wait for the takeovers under way (tests, shutdown)."""
        while self._taking:
            await asyncio.gather(*self._taking.values(), return_exceptions=True)

    def _info(self, table_id: str, public: dict[str, Any]) -> dict[str, Any]:
        info: dict[str, Any] = {"node": self.name, "room": self.room}
        if table_id in public:
            summary = public[table_id]
            kept = self._plain_rows.get(table_id)
            if kept is None or kept[0] is not summary:  # a summary is remade when it changes
                kept = self._plain_rows[table_id] = (summary, plain(summary))
            info["table"] = kept[1]
        if table_id == ROOM_LEASE:
            sv = self.sv
            info["tournaments"] = sv.tournaments.summaries() if sv.tournaments else []
            info["casino"] = sv.casino.summaries() if sv.casino is not None else []
        return info

    def room_rows(self, kind: str) -> list[dict[str, Any]]:
        """The lobby rows of the room-wide services (``tournaments``, ``casino``) that the
        process holding their lease runs, each with its ``node_url``, as it last wrote them
        (empty in that process itself, and while nobody runs them)."""
        lease = self.others.get(ROOM_LEASE)
        if lease is None or not isinstance(rows := lease.info.get(kind), list):
            return []
        return [{**row, "node_url": lease.url} for row in rows if isinstance(row, dict)]

    @property
    def room_url(self) -> str | None:
        """The address of the process running the room-wide services, if another one."""
        lease = self.others.get(ROOM_LEASE)
        return lease.url if lease is not None else None

    async def _take_room(self, owner: str) -> None:
        """Take the room services' lease over (``owner``: its dead holder, ``""`` if
        nobody held it) and start the services here, restored from the database."""
        started = self._monotonic()
        try:
            if not await self.lease(ROOM_LEASE):
                return  # another process was quicker
            if self.start_room is not None:
                await self.start_room()
        except Exception:
            log.exception("taking the room services over failed", extra={"event": "room_failed"})
            with contextlib.suppress(Exception):  # expired: taken again by the next round
                await self._give_room_up()
            return
        self.room = True
        if owner:
            self.rooms_taken += 1
        log.warning(
            "room services taken over from %s",
            owner or "nobody",
            extra={
                "event": "room_taken_over",
                "from": owner,
                "node": self.name,
                "seconds": round(self._monotonic() - started, 3),
            },
        )

    async def _lose_room(self) -> None:
        """Another process holds the room services' lease now: stop running them here
        (their writes were refused from the moment it was lost: fencing)."""
        log.error(
            "room services lost to another process",
            extra={"event": "room_lost", "node": self.name},
        )
        self.room = False
        self.rooms_lost += 1
        if self.stop_room is not None:
            await self.stop_room()

    async def _give_room_up(self) -> None:
        """(The services failed to start.) Stop what started of them and let their lease
        expire at once."""
        if self.stop_room is not None:
            await self.stop_room()
        await self._expire_room()

    async def _expire_room(self) -> None:
        """Let the room services' lease expire now, its row kept (any process takes it at
        once, at a new epoch), and forget it here."""
        store = self.sv.store
        epoch = store.fence.epoch(ROOM_LEASE)
        if epoch is not None:
            with contextlib.suppress(Exception):
                await self._on_lease_thread(store.leases.expire, ROOM_LEASE, self.owner, epoch)
        store.fence.drop(ROOM_LEASE)

    async def _take_over(self, name: str, owner: str) -> None:
        spec = self.catalogue.get(name)
        store = self.sv.store
        started = self._monotonic()
        try:
            if not await self.lease(name):
                return
            # R-CRASH-1 on a worker thread (the hand voided, every stack home, seats empty;
            # fenced by the new epoch), so that reopening it below, on the loop, finds
            # nothing left to recover: the loop serves the other tables meanwhile
            await asyncio.to_thread(close_table, name, store.journal, store.bank(name))
            if spec is not None:
                if not await self._open(spec):
                    return
            else:  # not one of the room's tables (private, quick match): closed for good
                epoch = store.fence.epoch(name)
                if epoch is not None:
                    await asyncio.to_thread(store.leases.release, name, self.owner, epoch)
                store.fence.drop(name)
        except Exception:
            log.exception(
                "taking %s over failed", name, extra={"event": "takeover_failed", "table": name}
            )
            return
        self.takeovers += 1
        log.warning(
            "table %s taken over from %s",
            name,
            owner or "nobody",
            extra={
                "event": "table_taken_over",
                "table": name,
                "from": owner,
                "node": self.name,
                "reopened": spec is not None,
                "seconds": round(self._monotonic() - started, 3),
            },
        )

    def stop_takeovers(self) -> None:
        """Cancel the takeovers under way (the process is stopping)."""
        for task in list(self._taking.values()):
            task.cancel()

    async def close(self) -> None:
        """Give up the leases of this process's catalogue tables (after its tables
        stopped), so the other processes open them at once, and let the room services'
        lease expire now (after the services stopped), so another process takes them over
        at once. The others (private and quick-match tables) are left to expire: the
        process that takes them over then sends their stacks home (R-CRASH-1)."""
        self._stop.set()  # (the keeper renews nothing more)
        self.stop_takeovers()
        store = self.sv.store
        for table_id, epoch in store.fence.held().items():
            if table_id == ROOM_LEASE:
                await self._expire_room()
                continue
            if table_id not in self.catalogue:
                continue
            with contextlib.suppress(Exception):
                await self._on_lease_thread(store.leases.release, table_id, self.owner, epoch)
            store.fence.drop(table_id)
        self._leases.shutdown(wait=False)


def _peers(leases: Iterable[Lease], own: str) -> tuple[str, ...]:
    """The distinct addresses of ``leases`` but ``own``, sorted.

    >>> from croupier.store.leases import Lease
    >>> rows = [Lease(n, "n2/x", 1, u, 0) for n, u in (("t1", "http://h:8001"),
    ...         ("t2", "http://h:8001"), ("t3", "http://h:8000"), ("t4", ""))]
    >>> _peers(rows, "http://h:8000")
    ('http://h:8001',)
    """
    return tuple(sorted({lease.url for lease in leases if lease.url and lease.url != own}))


def _kept(before: dict[str, Lease], rows: Iterable[Lease]) -> dict[str, Lease]:
    """The leases ``rows`` by name, each the object of ``before`` if that one has the same
    holder, epoch, address and lobby row (only its expiry moved on). A round reads every
    lease row, 500 of another process's at 1,000 tables, each with its lobby row (two
    dicts): kept, the unchanged ones are not new objects for the garbage collector to scan
    every round (docs/benchmarks.md, "A lease round's read").

    >>> a = Lease("t1", "n2/x", 1, "http://b", 1000, {"players": 2})
    >>> later = Lease("t1", "n2/x", 1, "http://b", 4000, {"players": 2})
    >>> _kept({"t1": a}, [later])["t1"] is a
    True
    >>> moved = Lease("t1", "n2/x", 1, "http://b", 4000, {"players": 3})
    >>> _kept({"t1": a}, [moved])["t1"] is moved
    True
    """
    out: dict[str, Lease] = {}
    for row in rows:
        old = before.get(row.name)
        same = (
            old is not None
            and old.owner == row.owner
            and old.epoch == row.epoch
            and old.url == row.url
            and old.info == row.info
        )
        out[row.name] = old if same and old is not None else row
    return out
