"""The tournament director: runs a started tournament's tables through the table command
interface, on an injected clock (R-TOUR-1..4, R-SEAT-2, R-BOT-1).

It opens one :class:`~croupier.table.actor.TableActor` per table, whose bank is the
tournament's :class:`~croupier.tournament.money.TournamentBank` (tournament chips never
reach an account, R-TOUR-4), seats the entrants where :func:`draw_seats` put them (bots
through a :class:`~croupier.bots.runner.BotRunner`, labelled BOT), and watches every
table as an in-process observer. At each hand's end (``hand_settled``), at that table:

1. players left without chips are eliminated: they stand up, and take the worst places
   still free — several out in the same hand are ranked by their stacks when it began
   (more chips, better place; equal stacks share the prizes of their places);
2. if one player is left, the tournament ends: prizes are paid from the pool;
3. otherwise tables are broken and balanced (rules in :mod:`croupier.tournament.scheduled`):
   a player moves by standing up (chips to the tournament bank) and sitting down at the
   destination with exactly those chips.

Blind levels change on the clock (:meth:`BlindSchedule.level_at`): at each level's start
every table gets a :class:`~croupier.table.commands.SetStakes`, applied from its next hand.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from croupier.bots.runner import BotRunner
from croupier.bots.strategies import RuleBot, Strategy
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler, Shuffler, SystemShuffler
from croupier.engine.rules import RakePolicy, profile
from croupier.table.actor import TableActor
from croupier.table.button import dealable
from croupier.table.clock import Clock
from croupier.table.commands import HoldHands, Leave, SetStakes, SitDown
from croupier.table.config import TableConfig
from croupier.table.events import HandSettled, PlayerLeft, TableEvent
from croupier.table.journal import InMemoryJournal, Journal
from croupier.table.results import CommandResult
from croupier.tournament import groups, journaled, late
from croupier.tournament.deal import Deal
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import Cashier, TournamentBank
from croupier.tournament.registration import Entrant, Launch, TournamentSpec
from croupier.tournament.scheduled import (
    balance_move,
    break_destinations,
    draw_seats,
    free_seat,
    next_big_blind,
    table_to_break,
)

__all__ = ["DIRECTOR", "Director", "Move", "Placing", "rank_out", "seeded_shufflers"]

_log = logging.getLogger(__name__)
DIRECTOR = "director"
"""The ``player_id`` of the director's own table commands."""


@dataclass(frozen=True, slots=True)
class Placing:
    """A finishing place and its prize (paid at the end)."""

    player_id: str
    place: int
    prize: int
    at: float


@dataclass(frozen=True, slots=True)
class Move:
    """A player moved between tables (``reason``: ``balance`` or ``break``)."""

    player_id: str
    source: int
    dest: int
    seat: int
    chips: int
    reason: str
    at: float


class Director:
    """Runs one started tournament. Build it, then ``await director.start()``;
    ``director.finished`` turns true when one player has every chip.

    ``rng`` draws seats, table buttons and destination seats (inject a seeded one in
    tests); ``shuffler`` gives each table its shuffler (default: the OS CSPRNG, R-CARD-3;
    a seeded one needs ``testing=True``); ``strategy`` makes each bot's strategy;
    ``on_table(table_id, actor or None)`` is told when each table opens and closes."""

    def __init__(
        self,
        spec: TournamentSpec,
        launch: Launch,
        *,
        clock: Clock,
        cashier: Cashier,
        rng: random.Random | None = None,
        shuffler: Callable[[int], Shuffler] | None = None,
        strategy: Callable[[Entrant], Strategy] | None = None,
        journal: Journal | None = None,
        testing: bool = False,
        on_table: Callable[[str, TableActor | None], None] | None = None,
        on_state: Callable[[str, str, dict[str, Any], tuple[Any, ...]], None] | None = None,
        on_hand: Callable[[str, int], Any] | None = None,
    ) -> None:
        self.spec = spec
        self.on_state = on_state
        """Told ``(tournament id, status, state, hands)`` after every change that must
        survive a restart; ``hands`` are the records of the hands settled since the last
        save, which the store writes in the same transaction as the state
        (:mod:`croupier.tournament.persist`, R-CRASH-1 revised)."""
        self.on_hand = on_hand
        """Told ``(table id, hand number)`` the moment a hand ends, while its table is
        still served (a break detaches it right after): returns the hand's record for
        the journal (the store's archive row), kept until the state is saved with it."""
        self.unsaved_hands: list[Any] = []
        """Records of the hands settled whose state is not journaled yet (kept until a
        save succeeds)."""
        self.schedule = launch.schedule if launch.schedule is not None else spec.schedule
        self.on_table = on_table
        """Told when a table opens (its actor) and closes (``None``): the server routes
        players' commands to it."""
        self.launch = launch
        self.clock = clock
        self.cashier = cashier
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.seat_seed: int | None = None
        """The seed of the seat draw (R-TOUR-6), logged and kept in :meth:`state`."""
        self._shuffler = shuffler
        self._strategy = strategy or (lambda e: RuleBot())
        self.journal: Journal = journal if journal is not None else InMemoryJournal()
        self.testing = testing
        self.entrants = {e.player_id: e for e in launch.entrants}
        self.total_chips = spec.starting_stack * len(launch.entrants)
        self.bank = TournamentBank({p: spec.starting_stack for p in self.entrants})
        self.stacks: dict[str, int] = dict.fromkeys(self.entrants, spec.starting_stack)
        """Each player's stack at the end of the last hand their table finished (the
        journaled stacks: a cut hand is void and gives these back)."""
        self.hand_nos: dict[int, int] = {}
        self.elapsed_before = 0.0
        """Tournament clock already played before this process resumed it."""
        self.actors: dict[int, TableActor] = {}
        self.runners: dict[str, BotRunner] = {}
        self.where: dict[str, tuple[int, int]] = {}
        """Every player still in: (table, seat), the destination while moving."""
        self.moving: dict[str, Move] = {}
        self.placings: list[Placing] = []
        self.moves: list[Move] = []
        self.broken: list[tuple[int, float]] = []
        self.levels: list[tuple[int, float]] = []
        """(level index, clock time) of each level change."""
        self.reorganized: list[tuple[frozenset[int], dict[int, int]]] = []
        """After each balancing: the tables that were at a boundary and the counts."""
        self.rejoined: list[tuple[str, float]] = []
        """Players who stood up with chips and were seated again (time)."""
        self.checks = 0
        """How many times chip conservation was checked (every hand end)."""
        self._opened: list[TableActor] = []
        self._post_bb: dict[str, bool] = {}
        self._closing: dict[int, TableActor] = {}
        self.level = 0
        self.started_at = 0.0
        self.finished = False
        self.paid = False
        self._ids = itertools.count(1)
        self.hand_for_hand = False
        """R-TOUR-17: on the bubble of a multi-table event every table plays one hand and
        waits for the others."""
        self.h4h_rounds: list[tuple[float, frozenset[int]]] = []
        """(time, tables released) of each hand-for-hand round."""
        self._waiting: set[int] = set()
        self._held: set[int] = set()
        self.break_due = False
        self.on_break_until: float | None = None
        self.breaks_taken: list[tuple[float, float]] = []
        """(start, end) of each break (R-TOUR-18)."""
        self.late = spec.late_levels > 0
        """Late registration open (R-TOUR-11, :mod:`croupier.tournament.late`)."""
        self.pending: list[tuple[str, int, int, float]] = []
        """Busts during late registration: (player, stack at the hand's start, group, at)."""
        self.group = 0
        self.pending_order: dict[str, tuple[int, int]] = {}
        """Odd-chip order of the pending busts (from their button's left, R-TOUR-12)."""
        self.late_entries: list[tuple[str, float]] = []
        self.round_open: set[int] = set()
        """Tables of the hand-for-hand round still playing its hand (R-TOUR-12)."""
        self.round_busts: list[groups.Bust] = []
        """Busts of that round, placed as one group when it ends."""
        self.deal: Deal | None = None
        """The deal talks at the final table (R-TOUR-19, :mod:`croupier.tournament.deal`)."""

    # -- set-up ---------------------------------------------------------------------------

    def _id(self, what: str) -> str:
        return f"{self.spec.tournament_id}:{what}:{next(self._ids)}"

    def table_id(self, table: int) -> str:
        return f"{self.spec.tournament_id}-t{table + 1}"  # players count tables from 1

    def _config(self, table: int) -> TableConfig:
        spec = self.spec
        level = self.schedule.levels[self.level]
        # R-TOUR-6: the dead button; sitting-out and disconnected players stay dealt in
        rules = profile(spec.profile, rake=RakePolicy(kind="none"), button="dead")
        game = Game.of(
            spec.game,
            blinds=(level.small_blind, level.big_blind),
            ante=level.ante,
            big_blind_ante=level.stakes.big_blind_ante,
            rules=rules,
        )
        return TableConfig(
            game,
            seats=spec.seats,
            buy_in_min=1,
            buy_in_max=self.total_chips,
            bots_allowed=spec.bots_allowed,
            between_hands_seconds=spec.between_hands,
            bot_delay_seconds=spec.bot_delay,
            table_id=self.table_id(table),
            testing=self.testing,
            naiko=False,
        )

    async def start(self) -> None:
        """Draw the seats (R-SEAT-2), open the tables, seat everyone, start the level clock."""
        if self.actors:
            raise TournamentError("already_started", "the tournament is running")
        self.started_at = self.clock.now()
        self.levels.append((0, self.started_at))
        # R-TOUR-6: the seats come from a seed drawn here, logged and journaled, so the
        # draw can be checked afterwards: draw_seats(sorted entrants, seats, Random(seed))
        self.seat_seed = self.rng.getrandbits(64)
        _log.info(
            "tournament seats drawn",
            extra={"tournament": self.spec.tournament_id, "seat_seed": self.seat_seed},
        )
        seats = draw_seats(sorted(self.entrants), self.spec.seats, random.Random(self.seat_seed))
        await self._open(seats)
        self._save()

    async def _open(self, seats: dict[str, tuple[int, int]], *, arm: bool = True) -> None:
        """Open the tables of ``seats``, seat everyone with their chips, arm the levels
        (and the breaks) unless ``arm`` is false (a table opened for a late entrant)."""
        tables = sorted({t for t, _ in seats.values()})
        for t in tables:
            shuffler = self._shuffler(t) if self._shuffler is not None else SystemShuffler()
            actor = TableActor.open(
                self._config(t),
                clock=self.clock,
                journal=self.journal,
                shuffler=shuffler,
                rng=random.Random(self.rng.getrandbits(64)),
                bank=self.bank,
            )
            if t in self.hand_nos:
                actor.table.hand_no = self.hand_nos[t]
            self.actors[t] = actor
            self._opened.append(actor)
            self._tell(t, actor)
            actor.subscribe(None, partial(self._on_event, t), internal=True)
        self.where.update(seats)
        for player in sorted(seats, key=lambda p: seats[p]):
            table, seat = seats[player]
            result = await self._sit(player, table, seat, post_bb=False)
            if not result.accepted:  # pragma: no cover - a bug: every seat was free
                raise TournamentError("seat_refused", f"{player}: {result.code}")
        if not arm:
            return
        for k, when in enumerate(self.schedule.starts[1:], start=1):
            if k > self.level:
                self.clock.call_at(self.started_at + when, partial(self._set_level, k))
        self._arm_break()

    def _tell(self, table: int, actor: TableActor | None) -> None:
        if self.on_table is not None:
            self.on_table(self.table_id(table), actor)

    async def _sit(self, player: str, table: int, seat: int, *, post_bb: bool) -> CommandResult:
        entrant = self.entrants[player]
        actor = self.actors[table]
        chips = self.bank.holding(player)
        if entrant.is_bot:
            runner = self.runners.get(player)
            if runner is None:
                runner = BotRunner(
                    actor,
                    player,
                    self._strategy(entrant),
                    clock=self.clock,
                    name=entrant.name,
                    reload=False,
                )
                self.runners[player] = runner
            runner.actor = actor
        cmd = SitDown(self._id("sit"), player, entrant.name, chips, seat, entrant.is_bot, post_bb)
        result = await actor.submit(cmd)
        if result.accepted and entrant.is_bot:
            self.runners[player].attach(actor)
        return result

    # -- levels ---------------------------------------------------------------------------

    def _set_level(self, k: int) -> Any:
        if self.finished:
            return None
        self.level = k
        self.levels.append((k, self.clock.now()))
        if self.late and k >= self.spec.late_levels:
            late.close_late(self)
        stakes = self.schedule.levels[k].stakes
        futures = [
            actor.post(SetStakes(self._id(f"level-{k}"), DIRECTOR, stakes))
            for actor in self.actors.values()
            if actor.alive
        ]
        self._save()
        return asyncio.gather(*futures, return_exceptions=True)

    # -- events ---------------------------------------------------------------------------

    def _on_event(self, table: int, event: TableEvent) -> None:
        data = event.data
        if isinstance(data, HandSettled):
            self._hand_over(table, data)
        elif isinstance(data, PlayerLeft) and data.player_id in self.moving:
            move = self.moving[data.player_id]
            if move.source == table:
                self.clock.call_at(self.clock.now(), lambda: self._arrive(data.player_id))
        elif isinstance(data, PlayerLeft) and data.player_id in self.where and data.cashed_out:
            # left on their own (or their reconnection window ran out) with chips: a
            # tournament player cannot take chips away; they sit back at their seat and
            # are dealt in (their clock runs out at each turn: they are blinded off)
            self.rejoined.append((data.player_id, self.clock.now()))
            self.clock.call_at(self.clock.now(), lambda: self._reseat(data.player_id))

    def counts(self) -> dict[int, int]:
        """Players still in, per open table (moving players count at their destination)."""
        out = dict.fromkeys(self.actors, 0)
        for t, _ in self.where.values():
            out[t] += 1
        return out

    def chips_in_play(self) -> int:
        """Every tournament chip: the stacks at the tables (a hand in play counts at its
        start stacks) and the chips of players between tables."""
        seated = sum(s.stack for a in self._opened for s in a.table.seats.values())
        return seated + self.bank.total

    def _check_chips(self) -> None:
        self.checks += 1
        if self.chips_in_play() != self.total_chips:
            raise TournamentError(
                "chips_not_conserved",
                f"{self.chips_in_play()} tournament chips in play, {self.total_chips} issued",
            )

    def _hand_over(self, table: int, settled: HandSettled) -> None:
        t = self.actors[table].table
        record = t.hand_record
        assert record is not None
        start = dict(zip(record.players, record.stacks, strict=True))
        after = {t.seats[s].player_id: chips for s, chips in settled.stacks if s in t.seats}
        out = [p for p, chips in after.items() if chips == 0 and p in self.where]
        order = groups.left_of_button(record.button, record.dealt, record.players, table=table)
        self._check_chips()
        self.hand_nos[table] = settled.hand_no
        self.unsaved_hands.append(self._hand_record(table, settled.hand_no))
        for p, chips in after.items():
            if p in self.stacks:
                self.stacks[p] = chips
        if out:
            self._eliminate(table, out, start, order)
        groups.hand_done(self, table)
        if len(self.where) == 1:
            self._finish()
            return
        self._reorganize({table})
        self._save()
        self._pause_check(table)

    def _hand_record(self, table: int, hand_no: int) -> Any:
        """The journal's record of a hand that just ended (:attr:`on_hand`)."""
        table_id = self.table_id(table)
        if self.on_hand is None:
            return (table_id, hand_no)
        try:
            return self.on_hand(table_id, hand_no)
        except Exception:  # the state must still be journaled
            _log.exception("tournament hand %s #%s not recorded", table_id, hand_no)
            return None

    def _eliminate(
        self,
        table: int,
        players: list[str],
        start: dict[str, int],
        order: dict[str, tuple[int, int]],
    ) -> None:
        now = self.clock.now()
        if self.late:
            late.record_busts(self, players, start, order)  # placed when late registration closes
        elif groups.in_round(self, table):  # one group per hand-for-hand round
            groups.round_bust(self, [(p, start[p], order[p], now) for p in players])
        else:
            first = len(self.where) - len(players) + 1  # the best place among them
            placed = rank_out(players, start, first, self.launch.prizes, now, order)
            self.placings.extend(self._dealt(placed))
        actor = self.actors[table]
        for p in players:
            del self.where[p]
            self.stacks.pop(p, None)
            actor.post(Leave(self._id("out"), p))
            runner = self.runners.get(p)
            if runner is not None and runner.stream is not None:
                runner.stream.close()

    def _prize(self, place: int) -> int:
        prizes = self.launch.prizes
        return prizes[place - 1] if 0 < place <= len(prizes) else 0

    def _finish(self) -> None:
        groups.place_round(self)
        late.close_late(self)
        (winner,) = self.where
        self.placings.extend(self._dealt([Placing(winner, 1, self._prize(1), self.clock.now())]))
        self.finished = True
        self.where.clear()
        self.stacks.clear()
        self.clock.call_at(self.clock.now(), self._close)
        if not self._save():
            return  # never paid before the end is journaled: the restart replays it
        self._pay()
        self._save()

    def _pay(self) -> None:
        """Prizes from the pool to the accounts, each once (idempotent keys)."""
        tid = self.spec.tournament_id
        for p in self.placings:
            if p.prize:
                entrant = self.entrants[p.player_id]
                ref = entrant.entry_id or p.player_id
                self.cashier.pay(tid, p.player_id, p.prize, f"{tid}:prize:{ref}")
        self.paid = True

    async def _close(self) -> None:
        for runner in self.runners.values():
            if runner.stream is not None:
                runner.stream.close()
        for t, actor in self.actors.items():
            await actor.stop()
            self._tell(t, None)

    # -- hand-for-hand and breaks (R-TOUR-17, R-TOUR-18) --------------------------------

    def _paid_places(self) -> int:
        return sum(1 for p in self.launch.prizes if p > 0)

    def _bubble(self) -> bool:
        """Hand-for-hand applies: several tables and one player more than the paid places."""
        return len(self.actors) > 1 and len(self.where) == self._paid_places() + 1

    def _hold(self, table: int, hold: bool) -> None:
        actor = self.actors.get(table)
        if actor is None or not actor.alive:
            return
        if hold:
            self._held.add(table)
        else:
            self._held.discard(table)
        actor.post(HoldHands(self._id("hold" if hold else "release"), DIRECTOR, hold))

    def _pause_check(self, table: int) -> None:
        """After a hand at ``table``: start or end hand-for-hand; hold the table while a
        round or a break waits for the others; release them all when every table has
        finished its hand."""
        if self.finished:
            return
        bubble = self._bubble()
        if bubble and not self.hand_for_hand:
            self.hand_for_hand = True
            self._hold_idle()
        elif not bubble and self.hand_for_hand:
            self.hand_for_hand = False
            self._waiting.clear()
            if not self.break_due and self.on_break_until is None:
                for t in list(self._held):
                    self._hold(t, False)
        if self.hand_for_hand or self.break_due or self.on_break_until is not None:
            self._waiting.add(table)
            self._hold(table, True)
        self._maybe_release()

    def _hold_idle(self) -> None:
        """Hold every table between two hands now: they have finished this round's hand."""
        for t, actor in self.actors.items():
            if actor.table.hand is None:
                self._waiting.add(t)
                self._hold(t, True)

    def _maybe_release(self) -> None:
        if self.on_break_until is not None or not (self.hand_for_hand or self.break_due):
            return
        able = set(self.actors) - self._idle()
        if not able <= self._waiting:
            return  # a table has still to finish its hand of this round
        for t in self.actors:
            self._hold(t, True)
        if self.break_due:
            self.break_due = False
            spec_breaks = self.spec.breaks
            assert spec_breaks is not None
            start = self.clock.now()
            self.on_break_until = start + spec_breaks[2]
            self.breaks_taken.append((start, self.on_break_until))
            self.clock.call_at(self.on_break_until, self._end_break)
            self._save()  # a restart resumes the break (R-TOUR-18)
            return
        self._waiting.clear()
        self.h4h_rounds.append((self.clock.now(), frozenset(self.actors)))
        groups.open_round(self, able)
        for t in list(self.actors):
            self._hold(t, False)

    def _arm_break(self) -> None:
        """The next break on the tournament clock (R-TOUR-18)."""
        breaks = self.spec.breaks
        if breaks is None or self.finished:
            return
        first, every, _ = breaks
        played = self.clock.now() - self.started_at
        k = 0 if played < first else int((played - first) // every) + 1
        when = self.started_at + first + k * every
        self.clock.call_at(when, self._break_due)

    def _break_due(self) -> None:
        if self.finished:
            return
        self.break_due = True
        self._hold_idle()  # a table in a hand is held when it ends
        self._maybe_release()

    def _end_break(self, *, rearm: bool = True) -> None:
        self.on_break_until = None
        if self.finished:
            return
        self._waiting.clear()
        for t in list(self.actors):
            self._hold(t, False)
        self._save()
        if rearm:  # a resumed break: the restart armed the next one already
            self._arm_break()

    def _resume_break(self, left: float) -> None:
        """A break cut by a restart goes on for the ``left`` seconds it had (R-TOUR-18):
        every table is held until then."""
        start = self.clock.now()
        self.on_break_until = start + left
        self.breaks_taken.append((start, self.on_break_until))
        for t in list(self.actors):
            self._hold(t, True)
        self.clock.call_at(self.on_break_until, partial(self._end_break, rearm=False))

    # -- balancing and breaking -----------------------------------------------------------

    def _idle(self) -> set[int]:
        """Tables where no hand can start (fewer than two players ready): at a boundary."""
        return {
            t
            for t, a in self.actors.items()
            if a.table.hand is None
            and sum(1 for s in a.table.seats.values() if dealable(s, a.table.config.rules.button))
            < 2
        }

    def _reorganize(self, boundary: set[int]) -> None:
        """Break or balance what the tables at a hand boundary allow. A table with players
        still arriving is neither broken nor a source (it waits for its next boundary)."""
        if self.finished:
            return
        inbound = {m.dest for m in self.moving.values()}
        boundary = (boundary | self._idle()) - inbound
        counts = self.counts()
        broken = table_to_break(counts, self.spec.seats)
        if broken is not None:
            if broken in boundary:
                self._break(broken, counts)
            return
        while (step := balance_move(counts, boundary)) is not None:
            self._move_one(*step)
            counts = self.counts()
        self.reorganized.append((frozenset(boundary), counts))

    def _players_at(self, table: int) -> Iterator[tuple[str, int]]:
        for p, (t, s) in self.where.items():
            if t == table:
                yield p, s

    def _move(self, player: str, dest: int, reason: str, *, post_bb: bool) -> None:
        source, _ = self.where[player]
        taken = {s for _, s in self._players_at(dest)}
        seat = free_seat(taken, self.spec.seats, self.rng)
        move = Move(player, source, dest, seat, 0, reason, self.clock.now())
        self.where[player] = (dest, seat)
        self.moving[player] = move
        self._post_bb[player] = post_bb
        self.actors[source].post(Leave(self._id("move"), player))

    def _move_one(self, source: int, dest: int) -> None:
        t = self.actors[source].table
        occupied = {s: p for p, s in self._players_at(source) if p not in self.moving}
        plan = t.plan if t.plan is not None else t.last_plan
        last_bb = plan.bb_seat if plan is not None else None
        seat = next_big_blind(sorted(occupied), last_bb, self.spec.seats)
        self._move(occupied[seat], dest, "balance", post_bb=True)

    def _break(self, table: int, counts: dict[int, int]) -> None:
        movers = sorted(p for p, _ in self._players_at(table))
        self.rng.shuffle(movers)
        dests = break_destinations(movers, counts, table)
        self.broken.append((table, self.clock.now()))
        for p in movers:
            self._move(p, dests[p], "break", post_bb=False)
        actor = self.actors.pop(table)
        self._tell(table, None)
        if not movers:
            self.clock.call_at(self.clock.now(), actor.stop)
        else:
            self._closing[table] = actor

    async def _arrive(self, player: str) -> None:
        move = self.moving[player]
        chips = self.bank.holding(player)
        post_bb = self._post_bb.pop(player, False)
        result = await self._sit(player, move.dest, move.seat, post_bb=post_bb)
        if not result.accepted:  # pragma: no cover - a bug: the seat was reserved
            raise TournamentError("move_refused", f"{player}: {result.code} {result.message}")
        done = Move(player, move.source, move.dest, move.seat, chips, move.reason, move.at)
        self.moves.append(done)
        del self.moving[player]
        self._save()
        source = self._closing.get(move.source)
        if source is not None and not source.table.seats:
            del self._closing[move.source]
            await source.stop()
        self._reorganize(set())

    async def _reseat(self, player: str) -> None:
        spot = self.where.get(player)
        if spot is None or player in self.moving or self.finished:
            return
        await self._sit(player, spot[0], spot[1], post_bb=False)

    # -- deals (R-TOUR-19) ---------------------------------------------------------------

    def _dealt(self, placed: list[Placing]) -> list[Placing]:
        """With a deal made, each dealt player's prize is the amount agreed."""
        agreed = self.deal.agreed if self.deal is not None else None
        if not agreed:
            return placed
        return [
            Placing(p.player_id, p.place, agreed.get(p.player_id, p.prize), p.at) for p in placed
        ]

    def deal_action(self, player: str, choice: str) -> dict[str, Any]:
        """A final-table player opts in (``in``), accepts an offer (``icm``, ``equal``) or
        refuses (``none``). Refusals: ``deals_not_offered`` (Sit & Go, Spin),
        ``not_final_table``, ``deal_done``, ``not_at_final_table``, ``bad_deal``."""
        if self.spec.kind != "scheduled":
            raise TournamentError("deals_not_offered", "no deals in a Sit & Go or a Spin")
        if self.finished or len(self.actors) != 1 or self.moving:
            raise TournamentError("not_final_table", "deals are made at the final table")
        if self.deal is not None and self.deal.agreed:
            raise TournamentError("deal_done", "a deal was made")
        players = tuple(sorted(self.where))
        if self.deal is None or self.deal.players != players:
            bots = frozenset(p for p in players if self.entrants[p].is_bot)
            self.deal = Deal(players, bots)
        deal = self.deal
        (table,) = self.actors
        if choice == "in":
            if deal.opt_in(player) and not deal.offers:
                self._hold(table, True)  # play pauses once the hand in play ends
                deal.make_offers(self.stacks, list(self.launch.prizes[: len(players)]))
        else:
            outcome = deal.choose(player, choice)
            if outcome is not None:
                if not outcome:
                    self.deal = None
                self._hold(table, False)
                self._save()
        return self.deal_view()

    def deal_view(self) -> dict[str, Any]:
        deal = self.deal
        if deal is None:
            return {}
        return {
            "players": list(deal.players),
            "opted": sorted(deal.opted),
            "offers": deal.offers,
            "choices": dict(deal.choices),
            "agreed": deal.agreed,
        }

    # -- the journal (R-CRASH-1) ----------------------------------------------------------

    def elapsed(self) -> float:
        """Seconds of tournament clock played (across restarts)."""
        return self.elapsed_before + (self.clock.now() - self.started_at)

    def state(self) -> dict[str, Any]:
        """What a restart needs, as JSON (:func:`croupier.tournament.journaled.state_of`)."""
        return journaled.state_of(self)

    def _save(self, *, strict: bool = False) -> bool:
        """Journal the state with the hands it counts (one store transaction). A failed
        write is logged (raised when ``strict``) and changes nothing in the store: the
        hands stay pending and the next save writes them with its newer state; a restart
        before that voids them with their state (R-CRASH-1 revised). Returns whether the
        state is journaled."""
        if self.on_state is None:
            self.unsaved_hands.clear()
            return True
        status = "finished" if self.paid else "running"
        hands = tuple(self.unsaved_hands)
        try:
            self.on_state(self.spec.tournament_id, status, self.state(), hands)
        except Exception:
            if strict:
                raise
            _log.exception(
                "tournament state not journaled",
                extra={"tournament": self.spec.tournament_id, "hands": len(hands)},
            )
            return False
        del self.unsaved_hands[: len(hands)]
        return True

    async def resume(self, state: dict[str, Any]) -> None:
        """Resume from a journaled :meth:`state` after a restart
        (:func:`croupier.tournament.journaled.resume`): the cut hands are void."""
        await journaled.resume(self, state)

    # -- running --------------------------------------------------------------------------

    def standings(self) -> list[Placing]:
        """Places so far, best first."""
        return sorted(self.placings, key=lambda p: (p.place, p.player_id))

    def seating(self) -> dict[str, str]:
        """Each player still in and the id of their table (the destination while moving)."""
        return {p: self.table_id(t) for p, (t, _) in sorted(self.where.items())}

    def progress(self) -> dict[str, Any]:
        """What the tournament table's HUD shows (JSON): the level and its blinds, the
        seconds to the next level (``None`` at the last), the players left, each one's
        stack at their table's last hand end, and the levels actually played."""
        level = self.schedule.levels[self.level]
        starts = self.schedule.starts
        ends_in = None
        if self.level + 1 < len(starts) and not self.finished:
            ends_in = max(0.0, self.started_at + starts[self.level + 1] - self.clock.now())
        return {
            "level": self.level + 1,
            "blinds": [level.small_blind, level.big_blind, level.ante],
            "level_ends_in": ends_in,
            "players_left": len(self.where),
            "break_ends_in": None
            if self.on_break_until is None
            else max(0.0, self.on_break_until - self.clock.now()),
            "hand_for_hand": self.hand_for_hand,
            "stacks": dict(sorted(self.stacks.items())),
            "structure": [
                [lv.small_blind, lv.big_blind, lv.ante, lv.seconds] for lv in self.schedule.levels
            ],
        }

    def table_of(self, player_id: str) -> TableActor | None:
        """The actor of the table where ``player_id`` plays (a human's commands go there)."""
        spot = self.where.get(player_id)
        if spot is None or player_id in self.moving:
            return None
        return self.actors.get(spot[0])


def rank_out(
    players: list[str],
    start: dict[str, int],
    first: int,
    prizes: tuple[int, ...],
    at: float,
    order: Mapping[str, tuple[int, int]] | None = None,
) -> list[Placing]:
    """Places of ``players`` out in the same hand (or hand-for-hand round), the best being
    ``first``: more chips at the start of the hand, better place; equal stacks tie and
    share the prizes of the places they cover, the odd chips one each in ``order`` (from
    the button's left, :func:`croupier.tournament.groups.left_of_button`; R-TOUR-12).

    >>> order = {"a": (0, 2), "b": (0, 0), "c": (0, 1)}
    >>> [(p.player_id, p.place, p.prize) for p in
    ...  rank_out(["a", "b", "c"], {"a": 50, "b": 90, "c": 50}, 2, (60, 30, 7, 4), 0.0, order)]
    [('b', 2, 30), ('c', 3, 6), ('a', 3, 5)]
    """
    out: list[Placing] = []
    place = first
    seat = order or {}
    ranked = sorted(players, key=lambda p: (-start[p], seat.get(p, (0, 0)), p))
    for _, group_iter in itertools.groupby(ranked, key=lambda p: start[p]):
        group = list(group_iter)
        pot = sum(prizes[k - 1] for k in range(place, place + len(group)) if k <= len(prizes))
        share, odd = divmod(pot, len(group))
        for i, p in enumerate(group):
            out.append(Placing(p, place, share + (1 if i < odd else 0), at))
        place += len(group)
    return out


def seeded_shufflers(seed: int) -> Callable[[int], Shuffler]:
    """Per-table seeded shufflers for tests and simulations (``testing=True`` only)."""
    return lambda table: SeededShuffler(seed * 1000 + table)
