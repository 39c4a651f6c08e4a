"""The table itself: seats, the hand loop, clocks and policies, as one synchronous owner.

:class:`Table` holds every mutable thing of a live table and changes it only in
:meth:`Table.handle` (a command or an internal timer message). It never awaits: the
asyncio :class:`~croupier.table.actor.TableActor` feeds it one message at a time from its
mailbox, which makes it the table's only writer. Timers come from the injected
:class:`~croupier.table.clock.Clock`; when one fires it posts a message through ``wake``
(the actor's mailbox), so a timeout is handled like any command.

Order of effects for each change: validate (a refusal changes nothing), journal what must
survive a crash, then publish the events. A player's decision is no record (a crash in
the middle of a hand cancels it), so the decision that ends a hand is published before
its settlement is journaled, and what the settlement decides after it.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

from croupier.engine import actions as A
from croupier.engine.cards import parse_cards
from croupier.engine.errors import EngineError, IllegalActionError, InconsistentStateError
from croupier.engine.events import Acted, CardsMucked, CardsShown, Drew, Event, HandEnded
from croupier.engine.game import Stakes
from croupier.engine.rng import Shuffler, SystemShuffler
from croupier.engine.settle import can_still_win
from croupier.engine.state import (
    HandState,
    Phase,
    apply,
    fold_out,
    protect,
    show_uncontested,
    start_hand,
)
from croupier.engine.views import view
from croupier.table import grace, seatcmds
from croupier.table.bank import Bank, PlayChips
from croupier.table.button import HandPlan, dealable, mark_missed_blinds, plan_hand
from croupier.table.clock import Clock, TimerHandle
from croupier.table.commands import (
    Act,
    AncreExpired,
    Command,
    Disconnect,
    Draw,
    GraceEnded,
    HoldHands,
    Leave,
    Message,
    Reconnect,
    Reload,
    RespondAncre,
    SetStakes,
    ShowCards,
    SitDown,
    SitIn,
    SitOut,
    StartHand,
    Timeout,
    UsePower,
    UseTimeBank,
    WindowExpired,
)
from croupier.table.config import TableConfig
from croupier.table.eventlog import EventLog, Subscription
from croupier.table.events import (
    HandBegan,
    HandSettled,
    HandVoided,
    Notice,
    PlayerLeft,
    Protected,
    ReloadOffered,
    SatOut,
    SeatChanged,
    TableEvent,
    TableSnapshot,
    TimeBankUsed,
    TimedOut,
    Turn,
)
from croupier.table.journal import (
    CashOutRecord,
    HandEndRecord,
    HandStartRecord,
    HandVoidRecord,
    Journal,
    ProtectionUsed,
    SeatsRecord,
    commit_deck,
)
from croupier.table.naiko import NaikoDesk
from croupier.table.policies import DAY, automatic_action, can_protect
from croupier.table.quota import LocalQuota, ProtectionQuota
from croupier.table.restart import RESTART_REASON, RestartDone, restart_journal
from croupier.table.results import CommandResult, TableError
from croupier.table.seating import Seat

__all__ = ["DAY", "DealGate", "Subscription", "Table", "TableCrashed"]

DealGate = Callable[[str, Callable[[], bool]], bool]
"""Asked with the table's id and a ``resume`` callback when the table's next hand is due:
``True`` deals it now; ``False`` puts it off until the gate calls ``resume()``, which
deals it (through the table's mailbox) and returns ``True``, or returns ``False`` when
the table no longer waits for it (dealt, held or rescheduled since). Nothing polls: a
room pacing a thousand tables on its archive wakes them as the archive catches up.
"""
DECISIONS = (Acted, Drew, CardsShown, CardsMucked)
"""The engine events that record a player's decision (the first event of the decision
that ends a hand is published before its settlement is journaled, see ``_settle``)."""
ANSWERS_KEPT = 300
"""Answered commands kept per table for repeated ids (the newest; see ANSWERS_SECONDS)."""
ANSWERS_SECONDS = 120.0
"""How long a command's answer is kept for a repeated id (a client retrying after a
reconnection, which it does within seconds): bounded by time and by count, so a busy
table keeps no long tail. (Ten minutes and 1,000 answers made a room's heap grow for ten
minutes, about 90 MB at 300 tables: docs/benchmarks.md.)"""


_Answer = tuple[float, bool, str, str, int, Any]
"""A kept answer: when it was given, then :class:`CommandResult`'s fields after its id."""


class TableCrashed(RuntimeError):
    """Raised by fault injection (tests) to stop a table at a precise point."""


class _Rng(Protocol):
    def choice(self, seq: list[int], /) -> int: ...

    def getrandbits(self, k: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class PausedDecision:
    """A decision clock stopped by :meth:`Table.pause_decision`."""

    remaining: float
    bank_from: float | None
    at: float


class Table:
    """A live table (see the module docstring). Build it with :meth:`open` or :meth:`restore`."""

    def __init__(
        self,
        config: TableConfig,
        *,
        clock: Clock,
        journal: Journal,
        shuffler: Shuffler | None = None,
        rng: _Rng | None = None,
        bank: Bank | None = None,
        faults: Callable[[str], None] | None = None,
        quota: ProtectionQuota | None = None,
        auto_muck: Callable[[str], bool] | None = None,
    ) -> None:
        shuffler = shuffler if shuffler is not None else SystemShuffler()
        if not shuffler.live and not config.testing:
            raise TableError(
                "shuffler_not_live",
                "a live table shuffles with the OS CSPRNG (R-CARD-3); set testing=True to use"
                " a seeded shuffler",
            )
        self.config = config
        self.id = config.table_id
        self.clock = clock
        self.journal = journal
        self.shuffler = shuffler
        self.rng: _Rng = rng if rng is not None else random.SystemRandom()
        self.bank: Bank = bank if bank is not None else PlayChips()
        self.faults = faults
        self.wake: Callable[[Message], Any] = self.handle
        self.seats: dict[int, Seat] = {}
        self.log = EventLog(config.history)
        self.hand: HandState | None = None
        self.hand_no = 0
        self.held = False
        """Held by a tournament director: no new hand is dealt (``HoldHands``)."""
        self.deal_gate: DealGate | None = None
        """Asked when the next hand is due (:data:`DealGate`): a refusal puts the deal off
        until the gate resumes it (a server paces its tables on its archive this way,
        without blocking the event loop and without polling)."""
        self.plan: HandPlan | None = None
        self.last_plan: HandPlan | None = None
        self.hand_record: HandStartRecord | None = None
        self.button: int | None = None
        self.local_quota = LocalQuota(clock)
        self.quota: ProtectionQuota = quota if quota is not None else self.local_quota
        """Where all-in protections are counted (R-TIME-2): the room's, per account over 24
        hours, in a server; this table's own count otherwise."""
        self.auto_muck: Callable[[str], bool] = auto_muck or (lambda _player: False)
        """Whether a player mucks a beaten hand unasked (their account's option)."""
        self.away: dict[str, list[grace.AwayAction]] = {}
        """Automatic decisions taken for disconnected players, told to them on return."""
        self.funding: Any = None
        """Buy-ins funded off the loop by the actor (``seatcmds.take``)."""
        self.owed: list[CashOutRecord] | None = None
        """Cash-outs the actor pays off the loop once their seat map is durable
        (``seatcmds.stand_up``); ``None``: a stand-up pays at once, here."""
        self.deadline: float | None = None
        self._bank_from: float | None = None
        self._answers: OrderedDict[str, _Answer] = OrderedDict()
        self._tokens = itertools.count(1)
        self._decision_token = 0
        self._decision_timer: TimerHandle | None = None
        self._start_token = 0
        self._start_timer: TimerHandle | None = None
        self._refs = itertools.count(1)
        self.rake_total = 0
        self._step = 0
        self._clock_step = -1
        self.naiko: NaikoDesk | None = NaikoDesk(self) if config.naiko else None
        """Naiko mode (SPEC §9): the running Naiko hand and its Ancre window."""
        self._resume: tuple[float, float | None] | None = None
        """After an Ancre window: the decision seconds left and the time bank's start."""
        self.last_hand: HandState | None = None
        """The last hand, settled: its uncontested winner may show until the next deal."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def open(cls, config: TableConfig, **kwargs: Any) -> Table:
        """A new empty table (its journal gets the empty seat map)."""
        table = cls(config, **kwargs)
        table.journal.append(table.id, SeatsRecord((), "opened"))
        return table

    @classmethod
    def restore(cls, config: TableConfig, *, keep_seats: bool = False, **kwargs: Any) -> Table:
        """Restart a table from its journal after a crash (R-CRASH-1, see
        :mod:`croupier.table.restart`).

        The hand that was running (journaled start, no settlement) is voided: every stack
        is the journaled start stack. Settled hands are never replayed, so nothing is paid
        twice. Cash-outs journaled but not confirmed are sent again (same ref). A cash
        table (the default) then sends every stack back to its owner's account and empties
        every seat: nobody is dealt in before sitting down again. With ``keep_seats`` (a
        tournament table) every player comes back disconnected, with the reconnection
        window running.
        """
        table = cls(config, **kwargs)
        done = restart_journal(
            table.id, table.journal, table.bank, keep_seats=keep_seats, ref=table._restart_ref
        )
        table.resume(done)
        return table

    def resume(self, done: RestartDone, connected: dict[str, float | None] | None = None) -> None:
        """Take up the table from what :func:`restart_journal` did: the epoch, the hand
        numbers and button, ``hand_voided`` and ``player_left`` published, the seats kept.
        Every kept player comes back disconnected with the reconnection window running,
        unless ``connected`` (an in-process recovery, :mod:`croupier.table.recover`) gives
        their connection state at the crash (``None``: connected)."""
        rec = done.recovery
        self.log.epoch = done.epoch
        now = self.clock.now()
        self.hand_no = rec.next_hand - 1
        self.button = rec.button
        if done.voided is not None:
            stacks = tuple((s.seat, s.stack) for s in done.voided.seats)
            self.publish(
                HandVoided(done.voided.hand_no, "crash", stacks), hand_no=done.voided.hand_no
            )
        for seat in done.left:
            self.publish(PlayerLeft(seat.seat, seat.player_id, seat.stack, RESTART_REASON))
        known = connected if connected is not None else {}
        self.seats = {
            s.seat: replace(
                s,
                disconnected_at=known.get(s.player_id, now) if connected is not None else now,
                leaving=False,
                post_now=False,
            )
            for s in done.seats
        }
        for used in rec.protections:
            self.local_quota.load(used.player_id, used.at)
        for s in self.seats.values():
            if s.disconnected_at is not None:
                seatcmds.arm_window(self, s.player_id, s.disconnected_at)
        self.schedule_hand()

    def _restart_ref(self, epoch: int, what: str) -> str:
        return f"{self.id}:{epoch}:{what}:{next(self._refs)}:{secrets.token_hex(4)}"

    # -- entry point ----------------------------------------------------------------------

    def handle(self, msg: Message) -> CommandResult | None:
        """Apply one command or timer message. Commands get an answer (cached by id)."""
        if isinstance(msg, Timeout):
            if msg.token == self._decision_token and self.hand is not None:
                self._on_timeout()
            return None
        if isinstance(msg, StartHand):
            if msg.token == self._start_token:
                self._start_timer = None
                gate = self.deal_gate
                if gate is None or gate(self.id, partial(self._resume_deal, msg.token)):
                    self._start_hand()
            return None
        if isinstance(msg, WindowExpired):
            seatcmds.on_window_expired(self, msg)
            return None
        if isinstance(msg, GraceEnded):
            grace.on_grace_ended(self, msg)
            return None
        if isinstance(msg, AncreExpired):
            if self.naiko is not None:
                self.naiko.on_expired(msg)
            return None
        cached = self._answers.get(msg.command_id)
        if cached is not None:
            return CommandResult(msg.command_id, *cached[1:])
        try:
            data = self._dispatch(msg)
            result = CommandResult(msg.command_id, True, "ok", "", self.version, data)
        except (TableError, EngineError) as exc:
            code = getattr(exc, "code", "refused")
            result = CommandResult(msg.command_id, False, code, str(exc), self.version, None)
        self._remember(msg.command_id, result)
        return result

    def _remember(self, command_id: str, result: CommandResult) -> None:
        """Keep ``result`` for a repeated ``command_id``, dropping answers older than
        ``ANSWERS_SECONDS`` or beyond ``ANSWERS_KEPT``."""
        answers = self._answers
        now = self.clock.now()
        # a flat tuple: without ``data`` (most answers) it holds only atoms, which the
        # garbage collector stops tracking at its first pass
        answers[command_id] = (
            now,
            result.accepted,
            result.code,
            result.message,
            result.version,
            result.data,
        )
        while answers and (
            len(answers) > ANSWERS_KEPT or next(iter(answers.values()))[0] < now - ANSWERS_SECONDS
        ):
            answers.popitem(last=False)

    def _dispatch(self, cmd: Command) -> Any:
        handlers: dict[type, Callable[[Any], Any]] = {
            SitDown: partial(seatcmds.sit_down, self),
            Act: self._act,
            Draw: self._act,
            ShowCards: self._act,
            SitOut: partial(seatcmds.sit_out, self),
            SitIn: partial(seatcmds.sit_in, self),
            Leave: partial(seatcmds.leave, self),
            Reload: partial(seatcmds.reload, self),
            UseTimeBank: self._use_time_bank,
            Disconnect: partial(seatcmds.disconnect, self),
            Reconnect: partial(seatcmds.reconnect, self),
            UsePower: self._use_power,
            RespondAncre: self._use_power,
            SetStakes: self._set_stakes,
            HoldHands: self._hold_hands,
        }
        handler = handlers.get(type(cmd))
        if handler is None:
            raise TableError("unknown_command", f"not a table command: {cmd!r}")
        return handler(cmd)

    # -- helpers --------------------------------------------------------------------------

    def fault(self, point: str) -> None:
        if self.faults is not None:
            self.faults(point)

    def seat_of(self, player_id: str) -> Seat:
        for seat in self.seats.values():
            if seat.player_id == player_id:
                return seat
        raise TableError("not_seated", f"{player_id} has no seat at this table")

    def find(self, player_id: str) -> Seat | None:
        for seat in self.seats.values():
            if seat.player_id == player_id:
                return seat
        return None

    def position(self, seat: int) -> int | None:
        if self.hand is None or self.plan is None or seat not in self.plan.seats:
            return None
        return self.plan.seats.index(seat)

    def in_hand(self, seat: int) -> bool:
        """Dealt into the running hand and not folded."""
        pos = self.position(seat)
        return pos is not None and self.hand is not None and not self.hand.folded[pos]

    def set_seat(self, seat: Seat) -> None:
        self.seats[seat.seat] = seat

    def _seats_tuple(self) -> tuple[Seat, ...]:
        return tuple(self.seats[s] for s in sorted(self.seats))

    def new_ref(self, what: str) -> str:
        return f"{self.id}:{self.epoch}:{what}:{next(self._refs)}:{secrets.token_hex(4)}"

    def journal_seats(
        self,
        reason: str,
        cash_outs: tuple[CashOutRecord, ...] = (),
        *,
        buy_in: str = "",
        payer_waits: bool = False,
    ) -> None:
        """Journal the seat map. ``payer_waits``: its cash-outs are paid only once it is
        durable (the actor awaits the journal's ``flushed``), so a background journal may
        queue it (``GroupCommitJournal.append_payer_waits``); any other journal writes
        it now."""
        record = SeatsRecord(self._seats_tuple(), reason, cash_outs, buy_in)
        queue = getattr(self.journal, "append_payer_waits", None) if payer_waits else None
        if queue is not None:
            queue(self.id, record)
        else:
            self.journal.append(self.id, record)

    # -- events ---------------------------------------------------------------------------

    @property
    def epoch(self) -> int:
        return self.log.epoch

    @property
    def version(self) -> int:
        return self.log.version

    @property
    def history(self) -> Sequence[TableEvent]:
        return self.log.history

    def publish(
        self,
        data: Event | Notice,
        *,
        players: tuple[str, ...] = (),
        to: str | None = None,
        hand_no: int | None = None,
    ) -> TableEvent:
        number = self.hand_no if hand_no is None else hand_no
        return self.log.publish(data, hand_no=number, players=players, to=to)

    def _set_stakes(self, cmd: SetStakes) -> None:
        """New stakes for the next hands (tournament blind levels); the running hand keeps
        its own. Refused (``invalid_configuration``) if the game cannot use them."""
        if not isinstance(cmd.stakes, Stakes):
            raise TableError("bad_stakes", f"not stakes: {cmd.stakes!r}")
        game = replace(self.config.game, stakes=cmd.stakes)  # Game validates (EngineError)
        self.config = replace(self.config, game=game)

    def _hold_hands(self, cmd: HoldHands) -> None:
        """Hold (no new hand after the one in play) or release the table (tournaments)."""
        self.held = bool(cmd.hold)
        if self.held and self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
            self._start_token = next(self._tokens)
        if not self.held:
            self.schedule_hand()

    def _use_power(self, cmd: UsePower | RespondAncre) -> None:
        if self.naiko is None:
            raise TableError("not_naiko", "powers are played at Naiko tables only (SPEC §9)")
        if isinstance(cmd, UsePower):
            self.naiko.use_power(cmd)
        else:
            self.naiko.respond(cmd)

    def publish_engine(self, events: Iterable[Event]) -> None:
        players = self.hand_record.players if self.hand_record is not None else ()
        for e in events:
            self.publish(e, players=players)

    def subscribe(
        self,
        player_id: str | None,
        callback: Callable[[TableEvent], Any],
        *,
        since: int | None = None,
        epoch: int | None = None,
        internal: bool = False,
    ) -> tuple[Subscription, TableSnapshot | list[TableEvent]]:
        """Subscribe ``player_id`` (``None``: spectator). Returns the subscription and either
        the events after version ``since`` (redacted) or, if ``since`` is missing, from
        another epoch or older than the bounded history, a full snapshot.

        Where the rules allow no spectators (the arcade, R-SEAT-2) a subscription by
        nobody (``None``) or by a player not seated here is refused with
        ``spectators_not_allowed``. ``internal``: an in-process observer of the table
        (the hand archive, tests), not a spectator; it sees what a spectator would."""
        spectator = player_id is None or self.find(player_id) is None
        if spectator and not internal and not self.config.rules.spectators:
            raise TableError("spectators_not_allowed", "this table allows no spectators (R-SEAT-2)")
        return self.log.add(player_id, callback), self.catch_up(player_id, since, epoch)

    def unsubscribe(self, sub: Subscription) -> None:
        self.log.remove(sub)

    def catch_up(
        self, player_id: str | None, since: int | None, epoch: int | None = None
    ) -> TableSnapshot | list[TableEvent]:
        """Events after ``since`` for ``player_id``, or a snapshot if they are not all kept."""
        events = self.log.since(player_id, since, epoch)
        return self.snapshot(player_id) if events is None else events

    def snapshot(self, player_id: str | None) -> TableSnapshot:
        """The table as ``player_id`` (``None``: a spectator) may see it now."""
        hand_view = None
        actor_seat = None
        hand_seats: tuple[int, ...] = ()
        pos: int | None = None
        if self.hand is not None and self.plan is not None and self.hand_record is not None:
            players = self.hand_record.players
            pos = players.index(player_id) if player_id in players else None
            hand_view = view(self.hand, pos)
            hand_seats = self.plan.seats
            if self.hand.actor >= 0:
                actor_seat = self.plan.seats[self.hand.actor]
        return TableSnapshot(
            self.id,
            self.epoch,
            self.version,
            self._seats_tuple(),
            self.button,
            self.hand_no,
            hand_seats,
            hand_view,
            actor_seat,
            self.deadline,
            None if self.naiko is None else self.naiko.status(),
            None if self.naiko is None else self.naiko.closes_at,
            powers=None if self.naiko is None else self.naiko.own_offers(pos),
            peeks=() if self.naiko is None else self.naiko.peeks(pos),
        )

    # -- the hand loop --------------------------------------------------------------------

    def schedule_hand(self) -> None:
        if self.hand is not None or self._start_timer is not None or self.held:
            return
        if sum(1 for s in self.seats.values() if dealable(s, self.config.rules.button)) < 2:
            return
        self._arm_start(self.config.between_hands_seconds)

    def _resume_deal(self, token: int) -> bool:
        """The deal gate's ``resume``: deal the hand put off by the gate, unless the table
        has moved on since (another start armed, a hand dealt, held)."""
        if token != self._start_token or self._start_timer is not None:
            return False
        if self.hand is not None or self.held:
            return False
        self.wake(StartHand(token))  # the actor deals it, the gate asked again first
        return True

    def _arm_start(self, delay: float) -> None:
        self._start_token = next(self._tokens)
        token = self._start_token
        when = self.clock.now() + delay
        self._start_timer = self.clock.call_at(when, lambda: self.wake(StartHand(token)))

    def _start_hand(self) -> None:
        if self.hand is not None:
            return
        cfg = self.config
        game = cfg.game
        blinds = (game.stakes.small_blind, game.stakes.big_blind) if cfg.has_blinds else None
        prev_dealt = frozenset(self.last_plan.seats) if self.last_plan is not None else None
        plan = plan_hand(
            self.seats,
            cfg.seats,
            prev_button=self.button,
            prev_dealt=prev_dealt,
            mode=cfg.rules.button,
            blinds=blinds,
            rng=self.rng,
            prev_spots=_spots(self.last_plan),
        )
        if plan is None:
            return
        seats = mark_missed_blinds(self.seats, cfg.seats, prev=self.last_plan, plan=plan)
        for s in plan.seats:
            seats[s] = replace(
                seats[s], waiting_bb=False, owes_bb=False, owes_sb=False, post_now=False
            )
        before, self.seats = self.seats, seats
        seatcmds.publish_missed_blinds(self, before, plan.seats)
        self.hand_no += 1
        self.button = plan.button
        self.last_hand = None
        carrousel = self.naiko.draw_carrousel() if self.naiko is not None else -1
        deck = self.shuffler.shuffle(game.variant.deck)
        salt = secrets.token_bytes(16)
        entropy = self.rng.getrandbits(32)
        players = tuple(self.seats[s].player_id for s in plan.seats)
        stacks = tuple(self.seats[s].stack for s in plan.seats)
        record = HandStartRecord(
            self.hand_no,
            self._seats_tuple(),
            plan.seats,
            players,
            stacks,
            plan.button,
            commit_deck(deck, salt),
            tuple(deck),
            salt,
            entropy,
            carrousel,
        )
        self.journal.append(self.id, record)
        self.hand_record = record
        self.plan = plan
        self.fault("hand_journaled")
        try:
            if self.naiko is not None:
                state, events = self.naiko.start(
                    game,
                    stacks,
                    deck,
                    carrousel=carrousel,
                    destellos=tuple(self.seats[s].destellos for s in plan.seats),
                    blinds=plan.blinds,
                    dead=plan.dead,
                )
            else:
                state, events = start_hand(
                    game, stacks, deck, blinds=plan.blinds, dead=plan.dead, entropy=entropy
                )
        except InconsistentStateError as exc:
            self._void(f"misdeal: {exc}")
            return
        self.hand = state
        self.publish(
            HandBegan(
                self.hand_no,
                plan.button,
                plan.seats,
                players,
                plan.blinds or (),
                plan.dead or (),
                record.commitment,
            )
        )
        if self.naiko is not None:
            self.naiko.announce(self.hand_no, plan.seats)
        self._after_engine(state, events)

    def _engine(self, fn: Callable[[], tuple[HandState, list[Event]]]) -> bool:
        """Run an engine transition; an inconsistency voids the hand (R-CARD-5). Returns
        whether the hand goes on."""
        try:
            state, events = fn()
        except InconsistentStateError as exc:
            self._void(f"inconsistent state: {exc}")
            return False
        except EngineError as exc:  # an automatic action the engine refused: a bug; be safe
            self._void(f"automatic action refused ({exc.code}): {exc}")
            return False
        self._after_engine(state, events)
        return True

    def _apply(self, base: HandState, action: A.Action) -> tuple[HandState, list[Event]]:
        """The engine's ``apply``, through the Naiko rules at a Naiko table."""
        if self.naiko is not None and self.naiko.hand is not None:
            return self.naiko.act(base, action)
        return apply(base, action)

    def _after_engine(self, state: HandState, events: list[Event]) -> None:
        self.hand = state
        if self.naiko is not None:
            self.naiko.sync(state)
        self._resume = None
        self._step += 1
        self.fault("engine_applied")
        if state.is_over:
            self._settle(state, events)
            return
        self.publish_engine(events)
        self.drive()

    def _settle(self, state: HandState, events: list[Event]) -> None:
        assert self.plan is not None and state.result is not None
        result: HandEnded = state.result
        destellos = self.naiko.destellos_after() if self.naiko is not None else None
        for pos, s in enumerate(self.plan.seats):
            seat = replace(self.seats[s], stack=result.stacks[pos])
            if destellos is not None:
                seat = replace(seat, destellos=destellos[pos])
            self.set_seat(seat)
        # The decision that ended the hand is published now, as every decision before it
        # was: no decision is a record, and a crash before the settlement is durable
        # cancels the hand whatever its players saw of it (R-CRASH-1). What the settlement
        # decides (the cards shown down, the pots, the stacks) waits for its record.
        lead = 1 if events and isinstance(events[0], DECISIONS) else 0
        self.publish_engine(events[:lead])
        self.journal.append(
            self.id,
            HandEndRecord(
                self.hand_no,
                self._seats_tuple(),
                result.stacks,
                result.rake,
                result.points,
                levy=self.config.rules.rake.kind == "levy",
            ),
        )
        self.fault("settled_journaled")
        self.rake_total += result.rake
        self.publish_engine(events[lead:])
        stacks = tuple((s, result.stacks[pos]) for pos, s in enumerate(self.plan.seats))
        self.publish(HandSettled(self.hand_no, stacks, result.rake))
        self.fault("settled_published")
        self._end_hand()
        self.last_hand = state

    def _void(self, reason: str) -> None:
        """Void the running hand: stacks stay at the journaled start (they were never
        changed during the hand), and the voiding is journaled, then published."""
        assert self.plan is not None
        self.journal.append(self.id, HandVoidRecord(self.hand_no, self._seats_tuple(), reason))
        self.last_hand = None
        stacks = tuple((s, self.seats[s].stack) for s in self.plan.seats if s in self.seats)
        self.publish(HandVoided(self.hand_no, reason, stacks))
        self._end_hand()

    def _end_hand(self) -> None:
        plan = self.plan
        self._cancel_decision()
        self._resume = None
        if self.naiko is not None:
            self.naiko.end()
        self.hand = None
        self.plan = None
        self.last_plan = plan
        cfg = self.config
        for s in list(plan.seats if plan else ()):
            seat = self.seats.get(s)
            if seat is None:
                continue
            if seat.leaving:
                seatcmds.stand_up(self, seat, "left" if seat.connected else "disconnected")
            elif seat.stack == 0 and not seat.busted:
                self.set_seat(replace(seat, busted=True, sitting_out=True))
                self.publish(SatOut(s, "busted"))
                high = cfg.buy_in_max or 0
                self.publish(
                    ReloadOffered(s, seat.player_id, cfg.min_buy_in, high), to=seat.player_id
                )
        self.schedule_hand()

    # -- decisions --------------------------------------------------------------------------

    def _cancel_decision(self) -> None:
        if self._decision_timer is not None:
            self._decision_timer.cancel()
        self._decision_timer = None
        self._decision_token = 0
        self.deadline = None
        self._bank_from = None

    def pause_decision(self) -> PausedDecision:
        """Stop the clock of the player to act (a Naiko response window opens): what was
        left of their time and time bank, and when it stopped."""
        now = self.clock.now()
        remaining = max(0.0, self.deadline - now) if self.deadline is not None else 0.0
        paused = PausedDecision(remaining, self._bank_from, now)
        self._cancel_decision()
        return paused

    def resume_decision(self, paused: PausedDecision) -> None:
        """The next :meth:`drive` restarts the clock ``paused`` stopped, with the time that
        was left (a time bank running then is moved by the pause)."""
        paused_for = self.clock.now() - paused.at
        bank_from = paused.bank_from
        self._resume = (paused.remaining, None if bank_from is None else bank_from + paused_for)

    def next_token(self) -> int:
        """A fresh token for a timer (a stale timer's token no longer matches)."""
        return next(self._tokens)

    def drive(self) -> None:
        """Let automatic decisions happen (disconnected or leaving players), then start the
        clock for the player to act."""
        state = self.hand
        if state is None or state.is_over or self.plan is None:
            return
        if self.naiko is not None and self.naiko.window_open:
            return  # the Ancre's response window is open: the actor's clock is paused
        pos = state.actor
        if pos < 0:
            return
        seat = self.seats[self.plan.seats[pos]]
        if seat.leaving:
            self._auto(pos, "leaving", protect_ok=False)
            return
        if self._auto_muck(state, pos, seat):
            return
        if not seat.connected and not grace.in_grace(self, seat):
            policy = seatcmds.policy(self, seat.player_id)
            if policy in ("fold", "all_in_protection"):
                # arcade's `fold` folds even when a check is free (R-TIME-2)
                arcade_fold = self.config.rules.disconnection == "fold"
                self._auto(
                    pos,
                    f"disconnected ({policy})",
                    protect_ok=policy != "fold",
                    fold_free=arcade_fold,
                )
                return
        self._start_clock(pos, seat)

    def _auto_muck(self, state: HandState, pos: int, seat: Seat) -> bool:
        """Auto-muck (the player's option): at a showdown decision, a hand that can no
        longer win or tie anything is mucked at once, without the show/muck prompt
        (R-POT-4: only where the profile lets losers muck, i.e. where it asks)."""
        if state.phase is not Phase.SHOWDOWN or can_still_win(state, pos):
            return False
        if not self.auto_muck(seat.player_id):
            return False
        self._cancel_decision()
        self._engine(lambda: self._apply(state, A.muck(pos)))
        return True

    def _start_clock(self, pos: int, seat: Seat) -> None:
        state = self.hand
        assert state is not None and self.hand_record is not None
        rules = self.config.rules
        if self._decision_token and self._clock_step == self._step:
            return  # this decision's clock is already running
        resume, self._resume = self._resume, None
        self._cancel_decision()
        self._clock_step = self._step
        seconds: float = (
            rules.draw_clock_seconds if state.phase is Phase.DRAWING else rules.clock_seconds
        )
        if resume is not None:  # after an Ancre window: the time that was left
            seconds, self._bank_from = resume
        self.deadline = self.clock.now() + seconds
        self._arm_decision()
        self._publish_turn(pos, seat)

    def _publish_turn(self, pos: int, seat: Seat) -> None:
        # the view (with the legal actions) is redacted away for all but the actor
        state = self.hand
        assert state is not None and self.deadline is not None
        self.publish(
            Turn(
                seat.seat,
                seat.player_id,
                pos,
                state.phase.value,
                self.deadline,
                view(state, pos),
                None if self.naiko is None else self.naiko.status(),
                None if self.naiko is None else self.naiko.offers(pos),
            )
        )

    def refresh_turn(self) -> None:
        """Publish the actor's turn again, same deadline (a power changed their view)."""
        state = self.hand
        if state is None or self.plan is None or state.actor < 0 or self.deadline is None:
            return
        self._publish_turn(state.actor, self.seats[self.plan.seats[state.actor]])

    def _arm_decision(self) -> None:
        assert self.deadline is not None
        if self._decision_timer is not None:
            self._decision_timer.cancel()
        self._decision_token = next(self._tokens)
        token = self._decision_token
        self._decision_timer = self.clock.call_at(self.deadline, lambda: self.wake(Timeout(token)))

    def _on_timeout(self) -> None:
        state = self.hand
        if state is None or self.plan is None or state.actor < 0:
            return
        pos = state.actor
        seat = self.seats[self.plan.seats[pos]]
        if self._bank_from is not None:
            self.set_seat(replace(seat, time_bank=0.0))
            self.publish(SeatChanged(self.seats[seat.seat], "time_bank"))
        self._auto(pos, "timeout", protect_ok=False)

    def _auto(self, pos: int, reason: str, *, protect_ok: bool, fold_free: bool = False) -> None:
        """Decide for ``pos`` (see :mod:`croupier.table.policies`): all-in protection for a
        disconnected player with chips in (R-TIME-2), else the automatic action;
        ``fold_free``: fold even where the automatic action would check (arcade)."""
        state = self.hand
        assert state is not None and self.plan is not None
        seat = self.seats[self.plan.seats[pos]]
        self._cancel_decision()
        if protect_ok and can_protect(state, pos):
            limit = self.config.rules.all_in_protections_per_day
            count = self.quota.take(seat.player_id, self.id, limit)
            if count is not None:
                self.journal.append(self.id, ProtectionUsed(seat.player_id, self.clock.now()))
                self.publish(Protected(seat.seat, count))
                grace.note_auto(self, seat, "protected", reason)
                self._engine(lambda: protect(state, pos))
                return
        base, action = automatic_action(state, pos, timeout=reason == "timeout")
        if fold_free and action.kind is A.ActionKind.CHECK and state.phase is Phase.BETTING:
            self.publish(TimedOut(seat.seat, "fold", reason))
            self._engine(lambda: fold_out(state, pos))
            return
        kind = "stand_pat" if action.kind is A.ActionKind.DRAW else action.kind.value
        self.publish(TimedOut(seat.seat, kind, reason))
        grace.note_auto(self, seat, kind, reason)
        self._engine(lambda: self._apply(base, action))

    def _use_time_bank(self, cmd: UseTimeBank) -> float:
        seat = self.seat_of(cmd.player_id)
        pos = self.position(seat.seat)
        state = self.hand
        if state is None or pos is None or state.actor != pos or self.deadline is None:
            raise TableError("not_your_turn", "the time bank is used on your turn")
        if self._bank_from is not None:
            raise TableError("time_bank_in_use", "the time bank is already running")
        if seat.time_bank <= 0:
            raise TableError("no_time_bank", "the time bank is empty")
        self._bank_from = self.deadline
        self.deadline += seat.time_bank
        self._arm_decision()
        self.publish(TimeBankUsed(seat.seat, self.deadline))
        return self.deadline

    def _show_uncontested(self, cmd: ShowCards) -> None:
        """Between hands: the uncontested winner of the last hand shows (R-POT-4)."""
        seat = self.seat_of(cmd.player_id)
        last, record = self.last_hand, self.hand_record
        if last is None or record is None or cmd.player_id not in record.players:
            raise TableError("not_in_hand", "you were not dealt in the last hand")
        if not cmd.show:
            raise TableError("bad_action", "an uncontested winner's cards stay hidden unless shown")
        new, events = show_uncontested(last, record.players.index(seat.player_id))
        self.last_hand = new
        self.publish_engine(events)

    def _act(self, cmd: Act | Draw | ShowCards) -> None:
        seat = self.seat_of(cmd.player_id)
        state = self.hand
        if state is None and isinstance(cmd, ShowCards):
            self._show_uncontested(cmd)
            return
        pos = self.position(seat.seat)
        if state is None or pos is None:
            raise TableError("not_in_hand", "you are not in a hand")
        if state.actor != pos:
            raise IllegalActionError("not_your_turn", "it is not your turn")
        if isinstance(cmd, Act):
            try:
                action = A.betting(cmd.kind, pos, cmd.amount)
            except ValueError:
                raise TableError("bad_action", f"unknown action {cmd.kind!r}") from None
        elif isinstance(cmd, Draw):
            action = A.draw(pos, parse_cards(cmd.discards) if cmd.discards else ())
        else:
            action = A.show(pos) if cmd.show else A.muck(pos)
        try:
            new, events = self._apply(state, action)
        except InconsistentStateError as exc:
            self._void(f"inconsistent state: {exc}")
            return
        if self._bank_from is not None:
            used = max(0.0, self.clock.now() - self._bank_from)
            self.set_seat(replace(seat, time_bank=max(0.0, seat.time_bank - used)))
            self.publish(SeatChanged(self.seats[seat.seat], "time_bank"))  # the bank left
        self._cancel_decision()
        self.fault("before_apply")
        self._after_engine(new, events)


def _spots(plan: HandPlan | None) -> tuple[int | None, int | None] | None:
    """The last hand's small-blind spot and big-blind seat, for the dead button (R-TOUR-6)."""
    return None if plan is None else (plan.sb_spot, plan.bb_seat)
