"""Live tables of this process: open or restore each table actor on the store's journal
and ledger bank, seat its bots, archive every settled hand, keep lobby statistics.

The registry is the composition of the table layer with the store: the table decides
every rule; the registry only wires ports and records what the table published.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import itertools
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from croupier.accounts import Accounts
from croupier.accounts.levels import level_for
from croupier.accounts.service import hand_credits
from croupier.bots import BotRunner, RuleBot
from croupier.engine.events import CardsShown, Event, HandEnded, plain
from croupier.history.export import to_phh
from croupier.history.phh import PhhError, dump_phh
from croupier.lobby import LobbyError, TableSpec, TableSummary
from croupier.store import ArchivedHand, HandPlayer, Store
from croupier.store.groupcommit import GroupCommitJournal
from croupier.store.protections import CachedProtections, SqlProtections
from croupier.store.users import HandCredit
from croupier.table import AsyncioClock, Clock, TableActor, TableEvent
from croupier.table.events import HandBegan, HandSettled, PlayerSeated, Turn
from croupier.table.recorder import HandRecorder
from croupier.table.restart import close_table
from croupier.table.supervise import Supervision
from croupier.table.table import Table

__all__ = ["LiveTable", "TableRegistry", "hand_events"]

log = logging.getLogger("croupier.server")

BOT_CHIPS = 10_000_000
JOURNAL_LANES = 4
"""Journal writer threads: tables are written in parallel, each in its own order."""
ARCHIVE_BACKLOG = 8
"""Hands waiting for the archive thread beyond which the tables put off their next deal
(:attr:`~croupier.table.table.Table.deal_gate`) until it catches up: the thread shares the
GIL with the loop, so a thread that stays behind (bots playing hands back to back) would
take half of the loop's time. The tables are paced; the loop never archives itself.
A table put off waits, without polling, until an archived hand wakes it
(:meth:`TableRegistry.deal_gate`)."""
ARCHIVE_BATCH = 256
"""The most settled hands the archive thread writes in one transaction (issue #16: what
costs is the number of statements, each a GIL handover, not the rows)."""


@dataclass(slots=True)
class LiveTable:
    """One table running here: its spec, actor, bots and figures."""

    spec: TableSpec
    actor: TableActor
    bots: list[BotRunner] = field(default_factory=list)
    pots: deque[int] = field(default_factory=lambda: deque(maxlen=20))
    hands: int = 0
    last_turn_version: int = 0
    listeners: set[Callable[[str, dict[str, Any]], None]] = field(default_factory=set)
    names: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """The display names of each unarchived hand's players, by engine position, as the
    table showed them when the hand began (``BOT 1``, the account name)."""
    recorder: HandRecorder = field(default_factory=HandRecorder)
    """Each hand's unredacted record, fed by the table (what the archive writes)."""
    _summary: tuple[tuple[Any, ...], TableSummary] | None = None

    @property
    def table_id(self) -> str:
        return self.spec.table_id

    def info(self) -> dict[str, Any]:
        """The table's settings as a lobby row (game, stakes, seats, buy-in range,
        profile, bots) with ``private`` and ``bot_seats`` (seats the table fills with
        bots): what a player who joins a private table by its code needs (R-LOBBY-2),
        and the ``table_info`` a watcher gets."""
        row: dict[str, Any] = plain(self.summary())
        row.update(private=self.spec.private, bot_seats=self.spec.bots)
        return row

    def summary(self) -> TableSummary:
        """The table's lobby row, made again only when what it says changed (its
        configuration, players, bots or hands): each process's lease round reads every
        table's, a few times a second."""
        t = self.actor.table
        seated = list(t.seats.values())
        bots = sum(1 for s in seated if s.is_bot)
        pots = self.pots
        stamp = (t.config, len(seated), bots, self.hands, len(pots), pots[-1] if pots else 0)
        made = self._summary
        if made is not None and made[0] == stamp:
            return made[1]
        game = t.config.game
        row = TableSummary(
            table_id=self.table_id,
            name=self.spec.name,
            kind=self.spec.kind,
            game=self.spec.game,
            variant=game.variant.name,
            structure=game.structure.value,
            profile=game.rules.name,
            stakes=(
                f"{game.stakes.bring_in}/{game.small_bet}"
                if game.stakes.ante and not game.stakes.big_blind
                else f"{game.stakes.small_blind}/{game.stakes.big_blind}"
            ),
            seats=t.config.seats,
            players=len(seated),
            bots=bots,
            average_pot=sum(self.pots) // len(self.pots) if self.pots else 0,
            buy_in_min=t.config.min_buy_in,
            buy_in_max=t.config.buy_in_max,
            spectators=game.rules.spectators,
            spread="-".join(map(str, game.stakes.spread)),
            ante=game.stakes.ante,
        )
        self._summary = (stamp, row)
        return row


Settlement = tuple[ArchivedHand | None, dict[int, HandCredit]]
"""A hand's archive row (``None``: archived with a tournament director's state) and its
players' credits."""


@dataclass(slots=True, eq=False)
class ArchiveWork:
    """One settled hand for the archive thread: its record, taken on the loop; whether it
    is written yet, and the error that failed it."""

    spec: TableSpec
    game: Any
    hand_no: int
    began: HandBegan
    events: list[Event]
    ended: HandEnded
    shown_names: tuple[str, ...] | None
    bots: set[str]
    max_seats: int
    row: bool
    loop: asyncio.AbstractEventLoop
    done: bool = False
    error: Exception | None = None


def hand_events(live: LiveTable, hand_no: int) -> tuple[HandBegan | None, list[Event]]:
    """The table's unredacted record of hand ``hand_no``, as its recorder collected it."""
    hand = live.recorder.hand(hand_no)
    return (None, []) if hand is None else (hand.began, list(hand.events))


def _soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed
        loop.call_soon_threadsafe(fn, *args)


class StoppableClock:
    """The live clock, which can be stopped: after :meth:`stop` no timer fires (so bots
    and tables stay quiet while the process shuts down)."""

    def __init__(self, inner: Clock | None = None) -> None:
        self.inner: Clock = inner if inner is not None else AsyncioClock()
        self.stopped = False

    def now(self) -> float:
        return self.inner.now()

    def call_at(self, when: float, callback: Callable[[], Any]) -> Any:
        def fire() -> Any:
            return None if self.stopped else callback()

        return self.inner.call_at(when, fire)

    def stop(self) -> None:
        self.stopped = True


class TableRegistry:
    """Every live table of the process, by id."""

    def __init__(
        self,
        store: Store,
        accounts: Accounts,
        *,
        clock: Clock | None = None,
        bot_delay_seconds: float = 1.0,
        between_hands_seconds: float = 3.0,
        testing: bool = False,
        wall: Callable[[], float] = time.time,
        group_commit: bool = True,
    ) -> None:
        self.store = store
        # An in-memory SQLite database is one connection shared by every thread: keep its
        # writes on the loop.
        self.threaded = group_commit and store.db.url not in ("sqlite://", "sqlite:///:memory:")
        self.journal: Any = (
            GroupCommitJournal(store.journal, lanes=JOURNAL_LANES)
            if self.threaded
            else store.journal
        )
        """The tables' journal: with ``group_commit``, hands' records are written off the
        loop by background writer lanes, each transaction holding one table's queued
        records, so one table's stalled write delays no other table (store/groupcommit.py)."""
        self._archiver = concurrent.futures.ThreadPoolExecutor(1, "croupier-archive")
        self._backlog = 0
        self._gated: dict[str, Callable[[], bool]] = {}
        """The tables whose next deal waits for the archive, by table id, oldest first:
        each one's ``resume`` (:data:`~croupier.table.table.DealGate`)."""
        self._opening: set[str] = set()
        """Tables being opened (their journal read off the loop)."""
        self.quota: CachedProtections | SqlProtections = (
            CachedProtections(store.protections) if self.threaded else store.protections
        )
        """The room's all-in protection count (R-TIME-2): with a server's threads, kept in
        memory for this process and written off the loop, each player's uses read when
        they sit down."""
        self._latest_archive: dict[int, concurrent.futures.Future[None]] = {}
        self._queued: deque[ArchiveWork] = deque()
        """Settled hands waiting for the archive thread, oldest first: each has its job
        in the executor, and the first job to run writes every hand queued then
        (:meth:`_archive_queued`)."""
        self.accounts = accounts
        self.clock = StoppableClock(clock)
        self.bot_delay = bot_delay_seconds
        self.between_hands = between_hands_seconds
        self.testing = testing
        self.wall = wall
        self.tables: dict[str, LiveTable] = {}
        self.codes: dict[str, str] = {}
        self._bot_ids = itertools.count(1)
        self.hands_settled = 0
        self.on_level_up: Callable[[int, int, int], Callable[[], None] | None] | None = None
        """``(account, old level, new level)``: the announcement to run on the event loop
        when a hand levels a player up (its rewards are granted with the experience, in
        the same transaction)."""
        self.hands_voided = 0
        self.supervision = Supervision()
        """How a crashed cash table is supervised: restored in place from its journal, given
        up (every stack home) after too many crashes (table/supervise.py)."""
        self.tournament_supervision = Supervision(close_on_give_up=False, pause_seconds=30.0)
        """The same for a tournament's tables, which never close (tournament chips are never
        paid to accounts, and the players have no other table): given up, a table pauses
        30 s and is restored from its journal again (R-CRASH-1: the tournament goes on)."""
        self.on_table_closed: Callable[[str, str], None] | None = None
        """Called with (table id, reason) when a table given up is closed."""
        self.lease: Callable[[str], Awaitable[bool]] | None = None
        """In a room of several processes (server/cluster.py): takes the table's lease
        before :meth:`open` opens it; ``False`` when another process serves it."""
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop the tables run on (level-ups are announced there)."""
        # R-SEAT-2: a cash hand's experience is credited in its settlement's transaction
        # (a crash before the archive loses none of it); level-ups follow the commit.
        store.journal.hand_credits = hand_credits
        store.journal.on_credited = self._credited
        self.keep_at_restart: list[Callable[[str], bool]] = []
        """Predicates naming journaled tables that :meth:`close_abandoned` must leave alone
        (a tournament's tables, which its director resumes)."""

    def get(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            raise LobbyError("unknown_table", f"no table {table_id!r}")
        return live

    def summaries(self) -> list[TableSummary]:
        return [
            t.summary()
            for t in self.tables.values()
            if not t.spec.private
            and t.spec.kind != "tournament"
            and not t.table_id.startswith("arcade-qm-")  # matched players only (R-SEAT-2)
        ]

    def attach(self, spec: TableSpec, actor: TableActor) -> LiveTable:
        """Serve a table run elsewhere (a tournament's, run by its director): players and
        spectators reach it by id, its hands are archived; the lobby's table list leaves
        it out (the tournament row lists it)."""
        live = LiveTable(spec, actor)
        self.tables[spec.table_id] = live
        with contextlib.suppress(RuntimeError):  # no loop running: none to announce on
            self._loop = asyncio.get_running_loop()
        live.recorder = HandRecorder.attach(actor.table)  # the archive's record of each hand
        actor.supervise(self.tournament_supervision)
        actor.subscribe(None, lambda e: self._on_event(live, e), internal=True)
        return live

    def detach(self, table_id: str) -> None:
        """Stop serving an attached table (it was broken or the tournament ended)."""
        self.tables.pop(table_id, None)

    async def open(self, spec: TableSpec) -> LiveTable:
        """Open ``spec``'s table, restoring it from its journal if it has one (R-CRASH-1)."""
        if spec.table_id in self.tables or spec.table_id in self._opening:
            raise LobbyError("table_exists", f"table {spec.table_id!r} is already open")
        self._loop = asyncio.get_running_loop()
        self._opening.add(spec.table_id)
        try:
            if self.lease is not None and not await self.lease(spec.table_id):
                raise LobbyError(
                    "table_elsewhere", f"table {spec.table_id!r} is served by another process"
                )
        finally:
            self._opening.discard(spec.table_id)
        config = spec.config(
            bot_delay_seconds=self.bot_delay,
            between_hands_seconds=self.between_hands,
            testing=False,
        )
        ports: dict[str, Any] = {
            "clock": self.clock,
            "journal": self.journal,
            "bank": self.store.bank(spec.table_id),
            "quota": self.quota,
            "auto_muck": self.store.options.auto_muck,
        }
        self._opening.add(spec.table_id)
        try:
            restoring = bool(await asyncio.to_thread(self.store.journal.records, spec.table_id))
            if restoring:  # on the loop: the restored table arms its timers
                actor = TableActor.restore(config, **ports)
            else:  # a new table's empty seat map, written off the loop
                self.clock.now()  # the live clock learns its loop here, on it
                actor = TableActor(await asyncio.to_thread(Table.open, config, **ports))
        finally:
            self._opening.discard(spec.table_id)
        live = LiveTable(spec, actor)
        self.tables[spec.table_id] = live
        actor.supervise(self.supervision)
        if isinstance(self.journal, GroupCommitJournal):
            journal = self.journal

            def watch(table: Any, table_id: str = spec.table_id, actor: TableActor = actor) -> None:
                # A journal write that failed is a crash of the table: its actor restores
                # it from what is durable (supervision), then its new log is watched.
                journal.watch(table_id, table.log, actor.fail)

            watch(actor.table)
            actor.on_restored.append(watch)
        if self.threaded:
            self._pace(actor.table)
            actor.on_restored.append(self._pace)

        def given_up(exc: BaseException, live: LiveTable = live) -> None:
            self._given_up(live)

        actor.on_closed.append(given_up)
        if spec.code is not None:
            self.codes[spec.code] = spec.table_id
        live.recorder = HandRecorder.attach(actor.table)  # the archive's record of each hand
        actor.subscribe(None, lambda e: self._on_event(live, e), internal=True)
        await self._seat_bots(live, restoring)
        return live

    def serving(self, table_id: str) -> bool:
        """Whether the table is open here or being opened."""
        return table_id in self.tables or table_id in self._opening

    async def forget(self, table_id: str, reason: str) -> None:
        """Stop serving a table at once, writing nothing for it (its lease was taken over
        by another process, which now owns its journal): the actor stops, its bots and
        watchers are told ``table_closed`` with ``reason``."""
        live = self.tables.pop(table_id, None)
        if live is None:
            return
        if live.spec.code is not None:
            self.codes.pop(live.spec.code, None)
        for bot in live.bots:
            if bot.stream is not None:
                bot.stream.close()
        if live.actor.alive:
            await live.actor.stop()
        if isinstance(self.journal, GroupCommitJournal):  # its queued records: never written
            await asyncio.to_thread(self.journal.reset, table_id)
        if self.on_table_closed is not None:
            self.on_table_closed(table_id, reason)

    def close_abandoned(self, table_ids: Iterable[str]) -> list[str]:
        """R-CRASH-1 for journaled cash tables that do not run again in this process (a
        private or quick-match table, a table no longer configured): void their
        interrupted hand, finish their cash-outs and buy-ins, and send every stack home, so
        no escrow stays stuck. Returns the tables that had anything to do."""
        closed = []
        for table_id in sorted(set(table_ids)):
            if table_id in self.tables or any(keep(table_id) for keep in self.keep_at_restart):
                continue
            try:
                done = close_table(table_id, self.store.journal, self.store.bank(table_id))
            except Exception:  # one broken journal must not keep the room closed
                log.exception("closing %s at restart failed", table_id)
                continue
            if done is not None:
                closed.append(table_id)
                log.info(
                    "table %s closed at restart: %d stacks home (%d chips)",
                    table_id,
                    len(done.cashed),
                    sum(c.amount for c in done.cashed),
                )
        return closed

    def _given_up(self, live: LiveTable) -> None:
        """A table crashed too often and was closed (every stack home): stop serving it."""
        if self.tables.get(live.table_id) is live:
            del self.tables[live.table_id]
        if live.spec.code is not None:
            self.codes.pop(live.spec.code, None)
        if isinstance(self.journal, GroupCommitJournal):
            self.journal.unwatch(live.table_id)
        for bot in live.bots:
            if bot.stream is not None:
                bot.stream.close()
        if self.on_table_closed is not None:
            self.on_table_closed(live.table_id, "crashed")

    async def flushed(self, table_id: str) -> None:
        """Return once the table's journal records written so far are durable (the edge
        acknowledges a command only then)."""
        if isinstance(self.journal, GroupCommitJournal):
            with contextlib.suppress(Exception):
                await self.journal.flushed(table_id)

    async def archived(self, account_id: int) -> bool:
        """Return once every hand settled so far with ``account_id`` in it is archived
        and credited (the archive thread works in order): an account reads its own
        hands and experience. ``True`` if an archive was still pending (what was read
        of the account before this is stale)."""
        fut = self._latest_archive.get(account_id)
        if fut is None:
            return False
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(fut)), 30)
        return True

    def bot_user(self, key: str, index: int) -> int:
        """A funded bot account (created on first use), e.g. for tournament seats."""
        return self._bot_user(key, index)

    def _bot_user(self, table_id: str, index: int) -> int:
        name = f"bot.{table_id}.{index}"[:32]
        users = self.store.users
        record = users.user_by_name_key(name.lower())
        if record is None:
            record = users.create_user(name, name.lower(), None, "bot", round(self.wall() * 1000))
        ledger = self.store.ledger
        chips = ledger.balances(record.id).chips
        if chips < BOT_CHIPS // 2:
            # A key of its own for each funding (never derived from a balance, which can
            # come back to the same value and would replay an earlier grant).
            key = f"bot-fund:{record.id}:{uuid.uuid4().hex}"
            ledger.grant_diamonds(record.id, BOT_CHIPS, key=key + ":d", reason="bot")
            ledger.buy_chips(record.id, BOT_CHIPS, key=key + ":c")
        return record.id

    async def _seat_bots(self, live: LiveTable, restoring: bool) -> None:
        table = live.actor.table
        seated = {s.player_id for s in table.seats.values()}
        for i in range(live.spec.bots):
            uid = self._bot_user(live.table_id, i)
            runner = BotRunner(
                live.actor,
                str(uid),
                RuleBot(),
                clock=self.clock,
                delay=self.bot_delay,
                name=f"BOT {i + 1}",
            )
            live.bots.append(runner)
            if str(uid) in seated:
                runner.attach(live.actor)
                await runner.reconnect()
            else:
                result = await runner.join(table.config.min_buy_in)
                if not result.accepted:
                    log.warning("bot %s refused at %s: %s", uid, live.table_id, result.code)

    # -- what the table published --------------------------------------------------------

    def _on_event(self, live: LiveTable, event: TableEvent) -> None:
        data = event.data
        if isinstance(data, Turn):
            live.last_turn_version = event.version
        elif isinstance(data, HandBegan):
            seats = live.actor.table.seats
            live.names[data.hand_no] = tuple(
                seats[s].display_name
                if s in seats and seats[s].player_id == pid
                else self._account_name(pid)
                for s, pid in zip(data.seats, data.players, strict=True)
            )
        elif isinstance(data, PlayerSeated):
            self._prime(data.player_id)
        elif isinstance(data, HandSettled):
            live.hands += 1
            self.hands_settled += 1
            # a tournament hand's row is written with its director's state, in the same
            # transaction (tournament_hand, R-CRASH-1 revised); here only the experience
            self._archive(live, data.hand_no, row=live.spec.kind != "tournament")
        elif data.type == "hand_voided":
            self.hands_voided += 1

    def tournament_hand(self, table_id: str, hand_no: int) -> ArchivedHand | None:
        """The archive row of a settled hand of an attached tournament table, built here
        on the loop; the tournament's journal writes it in the same transaction as its
        director's state (``TournamentStore.hands``). ``None``: not served, or no such
        hand in the table's history."""
        live = self.tables.get(table_id)
        if live is None:
            return None
        began, events = hand_events(live, hand_no)
        ended = next((e for e in events if isinstance(e, HandEnded)), None)
        if began is None or ended is None:
            return None
        shown_names = live.names.pop(hand_no, None)
        for old in [n for n in live.names if n < hand_no]:
            del live.names[old]
        table = live.actor.table
        try:
            return self._hand_row(
                live.spec, table.config.game, hand_no, began, events, ended, shown_names,
                table.config.seats,
            )  # fmt: skip
        except Exception:  # a hand that cannot be archived must not stop the journal
            log.exception("archiving %s #%s failed", table_id, hand_no)
            return None

    def _archive(self, live: LiveTable, hand_no: int, *, row: bool = True) -> None:
        """Archive one settled hand (PHH + events; not with ``row`` false) and credit
        experience: the hand's record is taken from the table's history here, on the
        loop; the PHH export and the writes run on the archive thread, off the loop."""
        try:
            work = self._archive_job(live, hand_no, row=row)
        except Exception:  # never let archiving take a table down
            log.exception("archiving %s #%s failed", live.table_id, hand_no)
            return
        if work is None:
            return
        # A cash hand's record is in the job now: the recorder forgets it (kept, 4 hands
        # per table are 100 engine events more for the collector to scan, per table). A
        # tournament's is read again with its director's state (tournament_hand).
        recorded = live.recorder.take(hand_no) if row else live.recorder.hand(hand_no)
        self._queued.append(work)  # before its job: the job may run at once
        job = functools.partial(self._archive_queued, work)
        if not self.threaded:  # an in-memory store (tests): no thread to hand it to
            self._run_archive(job, live.table_id, hand_no)
            return
        try:
            fut = self._archiver.submit(self._run_archive, job, live.table_id, hand_no)
        except RuntimeError:  # shut down: the process is stopping
            with contextlib.suppress(ValueError):
                self._queued.remove(work)
            return
        self._backlog += 1
        loop = asyncio.get_running_loop()
        players = recorded.began.players if recorded is not None else ()
        uids = [int(p) for p in players if p.isdigit()]
        fut.add_done_callback(lambda f: _soon(loop, self._archive_done, f, uids))
        for uid in uids:
            self._latest_archive[uid] = fut

    def _prime(self, player_id: str) -> None:
        """As a player sits: read off the loop what their table asks of the store in play
        (their all-in protections of the last day, their auto-muck option)."""
        if player_id.isdigit() and self.threaded:
            asyncio.get_running_loop().run_in_executor(None, self._load_player, player_id)

    def _load_player(self, player_id: str) -> None:
        if isinstance(self.quota, CachedProtections):
            self.quota.load(player_id)
        self.store.options.auto_muck(player_id)

    def _pace(self, table: Any) -> None:
        """Deal ``table``'s next hand only while the archive thread keeps up."""
        self._gated.pop(table.id, None)  # a restored table: the old one waits no more
        table.deal_gate = self.deal_gate

    def deal_gate(self, table_id: str, resume: Callable[[], bool]) -> bool:
        """A table's next hand is due: deal it now while the archive keeps up; otherwise
        put it off until an archived hand makes room (:meth:`_wake_gated`)."""
        if self.archive_keeps_up():
            return True
        self._gated.pop(table_id, None)
        self._gated[table_id] = resume  # the newest request, last in line
        return False

    def _wake_gated(self) -> None:
        """After a hand is archived: resume the tables waiting longest, one deal for each
        place below :data:`ARCHIVE_BACKLOG` (so the deals keep the archive's pace, with no
        burst of a thousand tables at once), and every one of them when the archive is
        idle. A table that no longer waits (dealt, held or closed since) takes no place."""
        room = len(self._gated) if self._backlog == 0 else ARCHIVE_BACKLOG - self._backlog
        while room > 0 and self._gated:
            table_id = next(iter(self._gated))
            resume = self._gated.pop(table_id)
            if resume():
                room -= 1

    @property
    def tables_put_off(self) -> int:
        """Tables whose next deal waits for the archive thread."""
        return len(self._gated)

    @property
    def archive_backlog(self) -> int:
        """Settled hands waiting for the archive thread."""
        return self._backlog

    def archive_keeps_up(self) -> bool:
        """Whether fewer than :data:`ARCHIVE_BACKLOG` hands wait for the archive thread."""
        return self._backlog < ARCHIVE_BACKLOG

    def _archive_done(self, fut: concurrent.futures.Future[None], uids: list[int]) -> None:
        self._backlog -= 1
        if self._gated:
            self._wake_gated()
        for uid in uids:  # the hand's players (not a scan of every account's latest)
            if self._latest_archive.get(uid) is fut:
                del self._latest_archive[uid]

    def _run_archive(self, job: Callable[[], None], table_id: str, hand_no: int) -> None:
        try:
            job()
        except Exception:
            log.exception("archiving %s #%s failed", table_id, hand_no)

    def _archive_job(
        self, live: LiveTable, hand_no: int, *, row: bool = True
    ) -> ArchiveWork | None:
        """The archive work of a settled hand, taken from the table's history (on the
        loop); ``None`` when the history does not hold the whole hand."""
        began, events = hand_events(live, hand_no)
        ended = next((e for e in events if isinstance(e, HandEnded)), None)
        if began is None or ended is None:
            return None
        live.pots.append(sum(p.amount for p in ended.pots))
        shown_names = live.names.pop(hand_no, None) if row else None
        if row:
            for old in [n for n in live.names if n < hand_no]:
                del live.names[old]
        table = live.actor.table
        return ArchiveWork(
            live.spec, table.config.game, hand_no, began, events, ended, shown_names,
            {b.player_id for b in live.bots}, table.config.seats, row,
            asyncio.get_running_loop(),
        )  # fmt: skip

    def _archive_queued(self, work: ArchiveWork) -> None:
        """The archive thread's job for one hand: unless an earlier job wrote it, write
        every hand queued now (up to :data:`ARCHIVE_BATCH`, oldest first: this one is the
        oldest) in one transaction. Raises the error that failed this hand (logged by
        :meth:`_run_archive`)."""
        while not work.done and self._queued:
            batch: list[ArchiveWork] = []
            with contextlib.suppress(IndexError):
                while len(batch) < ARCHIVE_BATCH:
                    batch.append(self._queued.popleft())
            self._archive_batch(batch)
        if work.error is not None:
            raise work.error

    def _archive_batch(self, batch: list[ArchiveWork]) -> None:
        """Build the rows and credits of ``batch`` (PHH export and all) and write them in
        one :meth:`~croupier.store.Store.settle_batch`. If that fails, each hand is written
        alone, so a bad hand fails alone. Every hand of the batch is done after."""
        ready: list[tuple[ArchiveWork, Settlement]] = []
        for work in batch:
            try:
                settlement = self._settlement(work)
            except Exception as exc:  # this hand alone
                work.error = exc
                continue
            if settlement is not None:
                ready.append((work, settlement))
        if len(ready) > 1:
            items = [settlement for _, settlement in ready]
            try:
                settled = self.store.settle_batch(
                    items, level_rewards=self.store.journal.level_rewards
                )
            except Exception as exc:
                log.warning("archiving %d hands at once failed (%r): each alone", len(ready), exc)
            else:
                ready = []
                self._level_up(settled.moves, batch[0].loop)
        for work, settlement in ready:  # one hand, or a batch that failed
            try:
                settled = self.store.settle_batch(
                    [settlement], level_rewards=self.store.journal.level_rewards
                )
            except Exception as exc:
                work.error = exc
            else:
                self._level_up(settled.moves, work.loop)
        for work in batch:
            work.done = True

    def _settlement(self, work: ArchiveWork) -> Settlement | None:
        """A hand's archive row (PHH + events) with no credits (a cash hand's players
        were credited by its settlement, :meth:`_credited`), or a tournament hand's human
        players' credits with no row (its row is written with the director's state);
        ``None``: nothing to write (a tournament hand of bots)."""
        hand = (
            self._hand_row(
                work.spec, work.game, work.hand_no, work.began, work.events, work.ended,
                work.shown_names, work.max_seats,
            )
            if work.row
            else None
        )  # fmt: skip
        if hand is not None:
            return hand, {}
        humans = {
            int(pid): net > 0
            for pid, net in zip(work.began.players, work.ended.net, strict=True)
            if pid not in work.bots
        }
        if not humans:
            return None
        return hand, hand_credits(humans)

    def _credited(self, experience: Mapping[int, tuple[int, int]]) -> None:
        """After a settlement's transaction credited experience (``{account: (before,
        after)}``, on the journal's writer thread): announce who reached a level (the
        rewards were granted in that transaction)."""
        if self._loop is not None:
            self._level_up(experience, self._loop)

    def _level_up(
        self, experience: Mapping[int, tuple[int, int]], loop: asyncio.AbstractEventLoop
    ) -> None:
        """Level up each account once, from its level at its experience before to its
        level after (``{account: (before, after)}``); the announcements on ``loop``."""
        if self.on_level_up is None:
            return
        for uid, (exp_before, exp_after) in experience.items():
            before, after = level_for(exp_before), level_for(exp_after)
            if after <= before:
                continue
            try:
                announce = self.on_level_up(uid, before, after)
            except Exception:  # the hands are written: the other accounts still level up
                log.exception("levelling up account %s failed", uid)
                continue
            if announce is not None:
                _soon(loop, announce)  # a connection's queue is the loop's

    def _hand_row(
        self,
        spec: TableSpec,
        game: Any,
        hand_no: int,
        began: HandBegan,
        events: list[Event],
        ended: HandEnded,
        shown_names: tuple[str, ...] | None,
        max_seats: int,
    ) -> ArchivedHand:
        """The archive row (PHH text, JSON summary, each account's net) of a settled hand."""
        names = (
            list(shown_names)
            if shown_names is not None and len(shown_names) == len(began.players)
            else [self._account_name(pid) for pid in began.players]
        )
        try:
            phh = dump_phh(to_phh(game, events, players=names))
        except PhhError:
            phh = ""
        summary = {
            "hand_no": hand_no,
            "button": began.button,
            "seats": list(began.seats),
            "players": list(began.players),
            "names": names,
            "table_name": spec.name,
            "max_seats": max_seats,
            "events": [e.to_dict() for e in events],
            "net": list(ended.net),
            "shown": [e.player for e in events if isinstance(e, CardsShown)],
        }
        players = tuple(
            HandPlayer(int(pid), seat, net)
            for pid, seat, net in zip(began.players, began.seats, ended.net, strict=True)
        )
        return ArchivedHand(
            spec.table_id,
            str(hand_no),
            round(self.wall() * 1000),
            f"{spec.game} {spec.blinds[0]}/{spec.blinds[1]} {spec.profile}",
            phh,
            summary,
            players,
        )

    def _account_name(self, player_id: str) -> str:
        record = self.store.users.user(int(player_id)) if player_id.isdigit() else None
        return record.name if record is not None else player_id

    @staticmethod
    def _is_bot(live: LiveTable, player_id: str) -> bool:
        return any(b.player_id == player_id for b in live.bots)

    async def close(self) -> None:
        """Stop every actor (a hand in progress stays journaled unsettled: the next start
        voids it and refunds every chip, R-CRASH-1)."""
        self.clock.stop()
        for live in self.tables.values():
            if live.actor.alive:
                await live.actor.stop()
        await asyncio.to_thread(self._archiver.shutdown, wait=True)
        if isinstance(self.quota, CachedProtections):
            await asyncio.to_thread(self.quota.close)
        if isinstance(self.journal, GroupCommitJournal):
            await asyncio.to_thread(self.journal.close)
