"""The composition root: ``create_app(settings)`` wires the store, accounts, live tables,
lobby and connections into one Starlette application.

Startup opens the store (SQLite file by default, PostgreSQL by URL; migrations run),
restores every table that has a journal (a hand cut by a crash is voided and refunded,
R-CRASH-1) and creates the default public tables with bots when the room is empty.
Shutdown closes every socket with 1001 and stops the tables; a hand in progress is left
journaled unsettled, so the next start voids it and refunds its chips.

>>> app = create_app(Settings(database_url="sqlite://", default_tables=False))
>>> sorted(r.path for r in app.routes if r.path)[:3]
['/api/arcade', '/api/exchange', '/api/hands']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from croupier.accounts import Accounts, PasswordHashing, ThrottlePolicy
from croupier.accounts.sessions import SessionPolicy
from croupier.engine.game import GAME_PRESETS
from croupier.lobby import DEFAULT_TABLES, QuickMatch, TableSpec
from croupier.lobby.access import ArcadeGate
from croupier.lobby.arcade import parse_schedule
from croupier.lobby.catalog import invitation_code
from croupier.server.abuse import GuessLimiter, PrivateCaps
from croupier.server.arcade import (
    arcade_status,
    close_empty_quick_tables,
    experience_rewards,
    level_up,
    push_queue_status,
    quick_match_spec,
)
from croupier.server.bus import Bus
from croupier.server.casino_ws import CasinoRoom, open_casino
from croupier.server.cluster import Node
from croupier.server.http import routes
from croupier.server.hub import Hub
from croupier.server.private_idle import IdlePrivateTables
from croupier.server.protocol import CloseCode
from croupier.server.ratelimit import Buckets
from croupier.server.registry import TableRegistry
from croupier.server.security import SecurityMiddleware
from croupier.server.settings import Settings
from croupier.server.wire import plain
from croupier.server.ws import WsSession
from croupier.store import Store, open_store
from croupier.table import AsyncioClock, SitDown, TableActor
from croupier.table.clock import StoppableClock
from croupier.tournament import LedgerCashier, TournamentRegistry, sit_and_go, spin
from croupier.tournament.persist import tournament_store
from croupier.tournament.structures import SPIN_MULTIPLIERS

__all__ = ["Services", "create_app"]

log = logging.getLogger("croupier.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass(slots=True)
class Services:
    """Everything the handlers share (one per application)."""

    settings: Settings
    store: Store
    accounts: Accounts
    registry: TableRegistry
    hub: Hub = field(default_factory=Hub)
    quick: QuickMatch = field(default_factory=QuickMatch)
    ip_buckets: Buckets = field(default_factory=lambda: Buckets(rate=0.2, burst=10))
    cookie_name: str = "croupier_session"
    wall: Callable[[], float] = time.time
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    tournaments: TournamentRegistry | None = None
    guesses: GuessLimiter = field(default_factory=lambda: GuessLimiter(per_minute=10, burst=5))
    private_caps: PrivateCaps | None = None
    casino: CasinoRoom | None = None
    looks: dict[int, dict[str, str]] = field(default_factory=dict)
    """Each account's equipped shop items, as shown at tables (server/arcade.py)."""
    arcade_gate: ArcadeGate = field(default_factory=ArcadeGate)
    """The arcade's hours and level (the lobby's rule, from the settings)."""
    node: Node | None = None
    """This process's part of a room served by several processes (server/cluster.py);
    ``None``: the room is this process."""
    bus: Bus | None = None
    """The room's Redis, shared with its other processes (server/bus.py); ``None``: no
    Redis (each process serves its own sockets only)."""

    def online(self) -> int:
        """Accounts connected to the room: every process's, through Redis, else this one's."""
        return self.bus.online if self.bus is not None else len(self.hub.by_account)

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def origin_allowed(self, origin: str) -> bool:
        allowed = self.settings.origins
        return "*" in allowed or origin.rstrip("/") in allowed

    def lobby_message(self) -> dict[str, Any]:
        tournaments = self.tournaments.summaries() if self.tournaments is not None else []
        casino = self.casino.summaries() if self.casino is not None else []
        remote = self.node.remote_tables() if self.node is not None else []
        node = self.node
        if node is not None and not node.room and not node.room_starting:  # run elsewhere
            tournaments, casino = node.room_rows("tournaments"), node.room_rows("casino")
        return {
            "type": "lobby",
            "tables": [plain(s) for s in self.registry.summaries()] + remote,
            "tournaments": tournaments,
            "casino": casino,
            "arcade_open": arcade_status(self)["open"],
            "online": self.online(),
        }


def _hashing(settings: Settings) -> PasswordHashing:
    return PasswordHashing()


async def _start(app: Starlette, settings: Settings) -> Services:
    # a bad CROUPIER_ARCADE_HOURS stops the start
    gate = ArcadeGate(parse_schedule(settings.arcade_hours), settings.arcade_min_level)
    # In a room of several processes, a frozen one's open transaction must not hold the
    # lease rows the others need to take its tables over (store/leases.py).
    idle = 2 * settings.lease_seconds if settings.node_id else None
    store = await asyncio.to_thread(
        lambda: open_store(settings.database_url, idle_in_transaction=idle)
    )
    accounts = Accounts(
        store.users,
        hashing=_hashing(settings),
        sessions=SessionPolicy(settings.session_idle_seconds, settings.session_ttl_seconds),
        pair_throttle=ThrottlePolicy(settings.login_pair_failures, settings.login_window_seconds),
        account_throttle=ThrottlePolicy(
            settings.login_account_failures, settings.login_account_window_seconds
        ),
        ip_throttle=ThrottlePolicy(settings.login_ip_failures, settings.login_window_seconds),
    )
    registry = TableRegistry(
        store,
        accounts,
        bot_delay_seconds=settings.bot_delay_seconds,
        between_hands_seconds=settings.between_hands_seconds,
        testing=settings.testing,
    )
    services = Services(
        settings,
        store,
        accounts,
        registry,
        arcade_gate=gate,
        quick=QuickMatch(
            min_level=settings.arcade_min_level, wait_seconds=settings.quick_match_wait_seconds
        ),
        ip_buckets=Buckets(
            rate=settings.registrations_per_second, burst=settings.registration_burst
        ),
    )
    services.guesses = GuessLimiter(
        per_minute=settings.invite_guesses_per_minute, burst=settings.invite_guess_burst
    )
    services.private_caps = PrivateCaps(
        per_account=settings.private_tables_per_account,
        per_address=settings.private_tables_per_address,
        bot_seats_per_account=settings.private_bot_seats_per_account,
        is_open=lambda tid: tid in registry.tables and registry.tables[tid].actor.alive,
    )
    app.state.services = services
    registry.on_level_up = lambda uid, old, new: level_up(services, uid, old, new)
    # a level reached by a cash hand is rewarded in the hand's settlement (R-SEAT-2)
    services.store.journal.level_rewards = experience_rewards
    registry.on_table_closed = lambda tid, why: services.hub.to_table(
        tid, {"type": "table_closed", "table_id": tid, "reason": why}
    )
    node = services.node = Node(services) if settings.node_id else None
    first = node is None or node.first  # the start-up recovery runs here
    services.tournaments = _tournament_registry(services)
    # the room-wide services run here if this process takes their lease (else the
    # process holding it runs them, and this one takes them over if it dies)
    room = node is None or (node.first and await node.take_room())
    if first:  # one boot per room start (the audit's restarts)
        last = await asyncio.to_thread(store.boots.last_recovered)
        boot = await asyncio.to_thread(store.boots.begin)
    specs = {s.table_id: s for s in DEFAULT_TABLES} if settings.default_tables else {}
    for i in range(1, settings.bot_tables + 1):
        spec = TableSpec(f"bots-{i}", f"Bots {i}", "nlhe", "room", (1, 2), 6, bots=4)
        specs[spec.table_id] = spec
    if node is None:
        for spec in specs.values():
            await registry.open(spec)
    else:  # this node's share; the others' tables are theirs, or taken over when they die
        await node.open_share(specs.values())
    if first:
        # R-CRASH-1: every other journaled cash table (private, quick match, no longer
        # configured) sends its stacks home; then the boot counts as recovered (audit).
        # Candidates: every table that wrote since the last complete recovery, and every
        # table whose escrow holds chips (anything older was closed then). In a room of
        # several processes, a table another process holds a lease on is theirs, and one
        # whose lease expired is taken over by the lease round.
        since = last.journal_mark if last is not None else 0
        candidates = {*store.journal.tables(after=since), *store.ledger.escrow_tables()}
        if node is not None:
            candidates -= {lease.name for lease in await asyncio.to_thread(store.leases.all)}
        closed = registry.close_abandoned(candidates)
        if closed:
            log.info("%d tables closed at restart, every stack back to its account", len(closed))
        await asyncio.to_thread(store.boots.recovered, boot.boot_id)
    if room:
        await _room_up(services)
    if node is not None:
        node.start_room = lambda: _room_up(services)
        node.stop_room = lambda: _room_down(services)
        services.tasks.append(asyncio.create_task(node.run()))
    if node is not None and settings.redis_url:
        services.bus = Bus(services, settings.redis_url)
        await services.bus.start()
        services.hub.room = services.bus
    services.tasks.append(asyncio.create_task(_lobby_loop(services)))
    services.tasks.append(asyncio.create_task(_match_loop(services)))
    services.tasks.append(asyncio.create_task(IdlePrivateTables(services).run()))
    return services


def _tournament_registry(sv: Services) -> TournamentRegistry:
    """The room's tournaments, empty until :func:`_room_up` restores them, on a clock that
    stops with them (:func:`_room_down`)."""
    return TournamentRegistry(
        LedgerCashier(sv.store.ledger),
        clock=StoppableClock(AsyncioClock()),
        testing=sv.settings.testing,
        on_table=lambda table_id, actor: _tournament_table(sv, table_id, actor),
        # a tournament hand's archive row is written with the director's state (one
        # transaction, R-CRASH-1 revised)
        store=tournament_store(sv.store, hands=sv.registry.tournament_hand),
    )


async def _room_up(sv: Services) -> None:
    """Run the room-wide services in this process (at its start, or taking them over
    from a process that died): the tournaments restored from the database (R-CRASH-1:
    registrations stand, running tournaments resume from their journals), the recurring
    ones published, the casino's tables opened (a round left in play is void, its bets
    back: server/casino_ws.py)."""
    tournaments, settings = sv.tournaments, sv.settings
    assert tournaments is not None
    await tournaments.restore()
    if settings.default_tables:
        pace, delay = settings.between_hands_seconds, settings.bot_delay_seconds
        scale = settings.level_seconds_scale
        sng = sit_and_go(
            "sng-6", "Sit & Go 6-max 100", seats=6, buy_in=100, between_hands=pace, bot_delay=delay
        )
        sng = replace(sng, schedule=sng.schedule.scaled(scale)) if scale != 1.0 else sng
        tournaments.publish(sng, recurring=True)
        spins = SPIN_MULTIPLIERS.scaled(scale) if scale != 1.0 else SPIN_MULTIPLIERS
        spin10 = spin(
            "spin-10", "Spin 10", buy_in=10, table=spins, between_hands=pace, bot_delay=delay
        )
        tournaments.publish(spin10, recurring=True)
    sv.casino = await open_casino(sv)


async def _room_down(sv: Services) -> None:
    """Stop the room-wide services here (another process holds their lease now, and
    their writes from here are refused): their timers, their tables and the casino's.
    An empty registry stays: this process's lobby lists the new holder's rows."""
    tournaments, casino = sv.tournaments, sv.casino
    sv.tournaments, sv.casino = _tournament_registry(sv), None
    # their watchers are told the table moved (a page asks again: sent to the new holder)
    for table_id in [t for t, live in sv.registry.tables.items() if live.spec.kind == "tournament"]:
        await sv.registry.forget(table_id, "moved")
    if tournaments is not None:
        if isinstance(tournaments.clock, StoppableClock):
            tournaments.clock.stop()
        await tournaments.close()
    if casino is not None:
        await casino.close()


def _tournament_table(sv: Services, table_id: str, actor: TableActor | None) -> None:
    """A tournament table opens (served by id over the WebSocket) or closes."""
    if actor is None:
        sv.registry.detach(table_id)
        return
    cfg = actor.table.config
    stakes = cfg.game.stakes
    variant, structure = cfg.game.variant.key, cfg.game.structure
    spec = TableSpec(
        table_id,
        f"Tournament table {table_id}",
        next(
            (k for k, (v, st) in GAME_PRESETS.items() if (v, st) == (variant, structure)),
            "nlhe",
        ),
        cfg.rules.name if cfg.rules.name in ("room", "naiko", "arcade") else "room",  # type: ignore[arg-type]
        (stakes.small_blind, stakes.big_blind),
        cfg.seats,
        kind="tournament",
    )
    sv.registry.attach(spec, actor)


async def _lobby_loop(sv: Services) -> None:
    last: Any = None
    while True:
        await asyncio.sleep(1.0)
        if not sv.hub.lobby:
            continue
        msg = sv.lobby_message()
        if msg != last:
            sv.hub.to_lobby(msg)
            last = msg


async def _match_loop(sv: Services) -> None:
    rng = random.SystemRandom()
    ticks = 0
    seen_empty: set[str] = set()
    while True:
        await asyncio.sleep(0.5)
        ticks += 1
        if ticks % 2 == 0:
            push_queue_status(sv, sv.now())  # nobody queued waits without news
        if ticks % 20 == 0:
            await close_empty_quick_tables(sv, seen_empty)  # their players have all left
        for group in sv.quick.draw(rng, now=sv.now()):
            try:
                await _seat_group(sv, group)
            except Exception:
                log.exception("quick match failed for %s", group)


async def _seat_group(sv: Services, group: list[str]) -> None:
    """Open an arcade table for a matched group and seat everyone at a random seat."""
    table_id = f"arcade-qm-{invitation_code(6).lower()}"
    spec = quick_match_spec(table_id, len(group))
    live = await sv.registry.open(spec)
    buy_in = live.actor.table.config.min_buy_in
    seats = random.SystemRandom().sample(range(spec.seats), len(group))
    for pid, seat in zip(group, seats, strict=True):
        record = await asyncio.to_thread(sv.store.users.user, int(pid))
        name = record.name if record is not None else pid
        result = await live.actor.submit(SitDown(f"{pid}:qm:{table_id}", pid, name, buy_in, seat))
        conn = sv.hub.by_account.get(int(pid))
        if conn is not None:
            conn.send(
                {
                    "type": "matched",
                    "table_id": table_id,
                    "seated": result.accepted,
                    "code": result.code,
                }
            )


WS_PATH: Final = "/ws"
"""Where the room's WebSocket is served (docs/protocol.md)."""


class Room(Starlette):
    """The room's application: Starlette, except that a WebSocket at ``/ws`` goes straight
    to its session (:class:`~croupier.server.ws.WsSession`), outside the middleware and
    the router. Those pass a WebSocket through without touching it, but each connection
    kept ten of their coroutines suspended for its whole life (and each frame sent went
    through one more wrapper): 46 of the 146 objects an idle connection held for every
    full collection to scan, and 5 of its 35 KiB (docs/benchmarks.md). The security
    headers and body caps of :class:`~croupier.server.security.SecurityMiddleware` are
    HTTP's; the WebSocket's own checks (origin, hello, frame size, rate) are the
    session's."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == WS_PATH:
            scope["app"] = self
            await WsSession(WebSocket(scope, receive, send), self.state.services).run()
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> Starlette:
    """The application for ``settings`` (default: read from the environment)."""
    settings = settings if settings is not None else Settings.from_env()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        services = await _start(app, settings)
        try:
            yield
        finally:
            await _shutdown(services)

    return Room(
        middleware=[
            Middleware(
                SecurityMiddleware,
                max_body=settings.max_body_bytes,
                trusted=settings.trusted_proxies,
                peers=_peer_origins,
            )
        ],
        routes=[
            *routes(),
            # The browser client (src/croupier/web, docs/client.md), served as it is.
            Mount("/", app=StaticFiles(directory=WEB_DIR, html=True), name="web"),
        ],
        lifespan=lifespan,
    )


def _peer_origins(scope: Scope) -> tuple[str, ...]:
    """The origins of the room's other live processes, for the pages' CSP (none before the
    room is open, or when it is one process)."""
    services = getattr(getattr(scope.get("app"), "state", None), "services", None)
    node = getattr(services, "node", None)
    return node.peers if isinstance(node, Node) else ()


async def _shutdown(sv: Services) -> None:
    for task in sv.tasks:
        task.cancel()
    if sv.node is not None:
        sv.node.stop_takeovers()
    sv.hub.close_all(CloseCode.GOING_AWAY, "server shutting down")
    await asyncio.sleep(0.05)
    await sv.registry.close()
    if sv.casino is not None:
        await sv.casino.close()
    if sv.tournaments is not None:
        await sv.tournaments.close()
    if sv.node is not None:  # the other processes take this one's tables over at once
        await sv.node.close()
    if sv.bus is not None:
        await sv.bus.close()
    await asyncio.to_thread(sv.store.close)
