"""A tournament's published terms (:class:`TournamentSpec`) and its registration
(:class:`Registration`): who entered, the buy-ins held in the prize pool, and the start.

The three kinds share this: a Sit & Go starts when its seats are full (R-TOUR-1), a Spin
is a three-seat Sit & Go whose pool is multiplied at the start (R-TOUR-2), a scheduled
tournament registers in a window and starts at its time (R-TOUR-3). Every refusal is a
:class:`~croupier.tournament.errors.TournamentError` with a code, and changes nothing.

>>> from croupier.tournament.money import PlayCashier
>>> spec = TournamentSpec("sng-1", "Sit & Go 100", buy_in=100, seats=2, max_entrants=2)
>>> reg = Registration(spec, PlayCashier({"ann": 500, "bob": 50, "cat": 100}))
>>> reg.register("ann").player_id
'ann'
>>> reg.register("ann")
Traceback (most recent call last):
...
croupier.tournament.errors.TournamentError: ann is already registered in sng-1
>>> reg.register("bob")
Traceback (most recent call last):
...
croupier.tournament.errors.TournamentError: bob cannot pay the buy-in of 100
>>> reg.register("cat", is_bot=True).name, reg.full
('BOT cat', True)
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, Protocol

from croupier.table.seating import label_bot
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import Cashier
from croupier.tournament.structures import (
    STANDARD,
    STANDARD_PAYOUTS,
    BlindSchedule,
    PayoutTable,
    PayoutTier,
    SpinPrize,
    SpinTable,
)

__all__ = ["Entrant", "Launch", "Registration", "Status", "TournamentSpec"]

Kind = Literal["sitngo", "spin", "scheduled"]


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """The terms published with the event (R-TOUR-1..3).

    ``seats``: seats per table; ``max_entrants``: a Sit & Go's seats (it starts when they
    are all taken), a scheduled tournament's cap; ``min_entrants``: below it a scheduled
    tournament is cancelled and refunded at its start time. ``opens_at``/``starts_at``
    (tournament clock, seconds): a scheduled tournament's registration window.
    ``bots_allowed``: bots may register (labelled BOT, R-BOT-1). ``spin``: a Spin's
    multiplier table. ``between_hands``: the pause between hands at its tables."""

    tournament_id: str
    name: str
    kind: Kind = "sitngo"
    game: str = "nlhe"
    profile: Literal["room", "naiko", "arcade"] = "room"
    buy_in: int = 100
    starting_stack: int = 1500
    seats: int = 9
    max_entrants: int = 9
    min_entrants: int = 2
    schedule: BlindSchedule = STANDARD
    payouts: PayoutTable = STANDARD_PAYOUTS
    bots_allowed: bool = True
    spin: SpinTable | None = None
    opens_at: float | None = None
    starts_at: float | None = None
    between_hands: float = 2.0
    bot_delay: float = 1.0
    late_levels: int = 0
    """R-TOUR-11: registration stays open until the end of this level (1-based; 0: closes
    at the start). Decision: only scheduled events may set it."""
    reentries: int = 0
    """How many times a player out during late registration may enter again."""
    breaks: tuple[float, float, float] | None = None
    """R-TOUR-18: ``(first, every, length)`` seconds of tournament clock — a break of
    ``length`` after ``first`` seconds of play, then every ``every``; ``None``: no breaks
    (Sit & Go and Spin). A break starts when every table has finished its hand."""

    def __post_init__(self) -> None:
        def bad(message: str) -> TournamentError:
            return TournamentError("bad_spec", message)

        tid = self.tournament_id
        if not isinstance(tid, str) or not 0 < len(tid) <= 48 or ":" in tid:
            raise bad(f"a tournament id is 1 to 48 characters without ':', not {tid!r}")
        if type(self.buy_in) is not int or self.buy_in < 0:
            raise bad(f"the buy-in is a whole number >= 0, not {self.buy_in!r}")
        if type(self.starting_stack) is not int or self.starting_stack <= 0:
            raise bad("the starting stack is a positive whole number")
        if not 2 <= self.seats <= 10:
            raise bad(f"a tournament table has 2 to 10 seats, not {self.seats}")
        if not 2 <= self.min_entrants <= self.max_entrants:
            raise bad("2 <= min_entrants <= max_entrants")
        if self.max_entrants > self.payouts.max_entrants:
            raise bad(f"the payout table stops at {self.payouts.max_entrants} entrants")
        if self.kind in ("sitngo", "spin") and self.max_entrants > self.seats:
            raise bad("a Sit & Go plays at one table: max_entrants <= seats")
        if self.kind == "spin" and (self.spin is None or self.max_entrants != 3):
            raise bad("a Spin has three seats and a multiplier table (R-TOUR-2)")
        if self.kind == "scheduled" and (
            self.starts_at is None or self.opens_at is None or self.opens_at > self.starts_at
        ):
            raise bad("a scheduled tournament opens registration before its start time")
        if self.between_hands < 0 or self.bot_delay < 0:
            raise bad("durations are >= 0")
        if self.late_levels < 0 or self.reentries < 0:
            raise bad("late_levels and reentries are >= 0")
        if (self.late_levels or self.reentries) and self.kind != "scheduled":
            raise bad("late registration and re-entry are for scheduled events (Decision)")
        if self.reentries and not self.late_levels:
            raise bad("re-entry needs late registration")
        if self.breaks is not None and (
            len(self.breaks) != 3 or not all(float(x) > 0 for x in self.breaks)
        ):
            raise bad("breaks are (first, every, length), each > 0 seconds")

    def _tiers_in_play(self) -> list[PayoutTier]:
        """The payout tiers a field of ``min_entrants`` to ``max_entrants`` can use (a
        6-seat Sit & Go shows only its 6-8 tier, R-TOUR-9)."""
        out, below = [], 0
        for tier in self.payouts.tiers:
            if tier.max_entrants >= self.min_entrants and below < self.max_entrants:
                out.append(tier)
            below = tier.max_entrants
        return out

    def summary(self) -> dict[str, object]:
        """What the lobby shows: terms, levels and the prize structure (JSON-able)."""
        levels = [
            {"small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante}
            | {"seconds": lv.seconds}
            for lv in self.schedule.levels
        ]
        out: dict[str, object] = {
            "id": self.tournament_id,
            "name": self.name,
            "kind": self.kind,
            "game": self.game,
            "buy_in": self.buy_in,
            "starting_stack": self.starting_stack,
            "seats": self.seats,
            "min_entrants": self.min_entrants,
            "max_entrants": self.max_entrants,
            "bots_allowed": self.bots_allowed,
            "opens_at": self.opens_at,
            "starts_at": self.starts_at,
            "levels": levels,
            "breaks": None if self.breaks is None else list(self.breaks),
            "late_levels": self.late_levels,
            "reentries": self.reentries,
            "payouts": [
                {"max_entrants": t.max_entrants, "shares_bp": list(t.shares)}
                for t in self._tiers_in_play()
            ],
        }
        if self.spin is not None:
            out["multipliers"] = [
                {"multiplier": p.multiplier, "ppm": p.ppm, "shares_bp": list(p.shares)}
                | {"prizes": list(p.prizes(self.buy_in)), "level_seconds": p.level_seconds}
                for p in self.spin.prizes
            ]
            out["expected_return"] = float(self.spin.expected_return())
        return out


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player; a bot's name carries the BOT label (R-BOT-1)."""

    player_id: str
    name: str
    is_bot: bool = False
    key: str = ""
    """The idempotency key of the buy-in (account → prize pool): ``<tid>:entry:<entry_id>``."""
    entry_id: str = ""
    """This registration's unique id (a fresh uuid): every ledger key of the entry derives
    from it, never from a count, so a second registration is a second transfer."""


@dataclass(frozen=True, slots=True)
class Launch:
    """What the start fixed: the entrants, the prize pool and the prize of each place
    (best first), and a Spin's drawn multiplier."""

    entrants: tuple[Entrant, ...]
    pool: int
    prizes: tuple[int, ...]
    multiplier: SpinPrize | None = None
    schedule: BlindSchedule | None = None
    """The levels played when they differ from the event's (a Spin's depend on its
    multiplier, R-TOUR-10)."""


class _Rng(Protocol):
    def randrange(self, stop: int, /) -> int: ...


@dataclass
class Registration:
    """The registration of one tournament; its only writer is whoever owns it (the lobby's
    registry). ``now`` arguments are the tournament clock (a scheduled event's window)."""

    spec: TournamentSpec
    cashier: Cashier
    status: Status = Status.REGISTERING
    entrants: list[Entrant] = field(default_factory=list)
    launch: Launch | None = None
    new_id: Callable[[], str] = field(default=lambda: uuid.uuid4().hex)
    """Makes each registration's unique id (inject a deterministic one in tests)."""
    on_change: Callable[[Registration, str, Entrant | None], None] = field(
        default=lambda reg, what, entrant: None
    )
    """Told after each change (``entered``, ``refunded``, ``started``, ``cancelled``): the
    registry journals the registration in the store so it survives a restart."""

    @property
    def full(self) -> bool:
        return len(self.entrants) >= self.spec.max_entrants

    def _find(self, player_id: str) -> Entrant | None:
        return next((e for e in self.entrants if e.player_id == player_id), None)

    def _check_open(self, now: float | None) -> None:
        spec = self.spec
        if self.status is not Status.REGISTERING:
            raise TournamentError("registration_closed", f"{spec.tournament_id} is {self.status}")
        if spec.kind == "scheduled" and now is not None:
            assert spec.opens_at is not None and spec.starts_at is not None
            if now < spec.opens_at:
                raise TournamentError("registration_not_open", "registration is not open yet")
            if now >= spec.starts_at:
                raise TournamentError("registration_closed", "the tournament has started")

    def register(
        self, player_id: str, name: str = "", *, is_bot: bool = False, now: float | None = None
    ) -> Entrant:
        """Enter ``player_id``: the buy-in moves from their account to the prize pool.

        Refusals (nothing changes): ``registration_closed``, ``registration_not_open``,
        ``already_registered``, ``tournament_full``, ``bots_not_allowed``, ``bad_player``,
        ``insufficient_funds``."""
        spec = self.spec
        if not isinstance(player_id, str) or not 0 < len(player_id) <= 64:
            raise TournamentError("bad_player", f"a player id is 1 to 64 characters: {player_id!r}")
        self._check_open(now)
        if self._find(player_id) is not None:
            raise TournamentError(
                "already_registered", f"{player_id} is already registered in {spec.tournament_id}"
            )
        if self.full:
            raise TournamentError("tournament_full", f"{spec.tournament_id} is full")
        if is_bot and not spec.bots_allowed:
            raise TournamentError("bots_not_allowed", "this event seats no bots")
        return self._enter(player_id, name, is_bot)

    def _enter(self, player_id: str, name: str, is_bot: bool) -> Entrant:
        """Take the buy-in of a new entry (``insufficient_funds`` moves nothing)."""
        spec = self.spec
        entry_id = self.new_id()
        key = f"{spec.tournament_id}:entry:{entry_id}"
        display = name or player_id
        entrant = Entrant(
            player_id, label_bot(display) if is_bot else display, is_bot, key, entry_id
        )
        self.on_change(self, "entering", entrant)
        if spec.buy_in and not self.cashier.enter(spec.tournament_id, player_id, spec.buy_in, key):
            self.on_change(self, "declined", entrant)
            raise TournamentError(
                "insufficient_funds", f"{player_id} cannot pay the buy-in of {spec.buy_in}"
            )
        self.entrants.append(entrant)
        self.on_change(self, "entered", entrant)
        return entrant

    def register_late(
        self, player_id: str, name: str = "", *, is_bot: bool = False, out: bool = False
    ) -> Entrant:
        """A late entry or a re-entry while the event runs (R-TOUR-11); the director says
        whether late registration is still open and whether ``player_id`` is ``out``.
        Refusals: ``registration_closed``, ``already_registered`` (still playing),
        ``no_reentry`` (no re-entry left), ``tournament_full``, ``bots_not_allowed``,
        ``insufficient_funds``."""
        spec = self.spec
        if self.status is not Status.RUNNING or not spec.late_levels:
            raise TournamentError("registration_closed", f"{spec.tournament_id} is {self.status}")
        if not isinstance(player_id, str) or not 0 < len(player_id) <= 64:
            raise TournamentError("bad_player", f"a player id is 1 to 64 characters: {player_id!r}")
        before = sum(1 for e in self.entrants if e.player_id == player_id)
        if before and not out:
            raise TournamentError("already_registered", f"{player_id} is still playing")
        if before > spec.reentries:
            raise TournamentError("no_reentry", f"{player_id} has no re-entry left")
        if len(self.entrants) >= spec.max_entrants:
            raise TournamentError("tournament_full", f"{spec.tournament_id} is full")
        if is_bot and not spec.bots_allowed:
            raise TournamentError("bots_not_allowed", "this event seats no bots")
        return self._enter(player_id, name, is_bot)

    def unregister(self, player_id: str, *, now: float | None = None) -> None:
        """Leave before the start; the buy-in is refunded (``not_registered``)."""
        self._check_open(now)
        entrant = self._find(player_id)
        if entrant is None:
            raise TournamentError("not_registered", f"{player_id} is not registered")
        if self.spec.buy_in:
            self.cashier.refund(
                self.spec.tournament_id, player_id, self.spec.buy_in, f"{entrant.key}:refund"
            )
        self.entrants.remove(entrant)
        self.on_change(self, "refunded", entrant)

    def start(self, rng: _Rng) -> Launch:
        """Close registration and fix the pool and prizes. A Spin draws its multiplier
        here (R-TOUR-2) with ``rng`` and the house adds (or keeps) the difference.
        Refused with ``not_enough_entrants`` / ``registration_closed``."""
        spec = self.spec
        if self.status is not Status.REGISTERING:
            raise TournamentError("registration_closed", f"{spec.tournament_id} is {self.status}")
        n = len(self.entrants)
        if n < spec.min_entrants or (spec.kind != "scheduled" and not self.full):
            raise TournamentError("not_enough_entrants", f"{n} entrants cannot start")
        collected = spec.buy_in * n
        prize: SpinPrize | None = None
        schedule: BlindSchedule | None = None
        if spec.spin is not None:
            prize = spec.spin.draw(rng)
            prizes = prize.prizes(spec.buy_in)
            pool = sum(prizes)
            schedule = spec.spin.schedule(prize)
            if pool != collected:
                self.cashier.adjust(
                    spec.tournament_id, pool - collected, f"{spec.tournament_id}:overlay"
                )
        else:
            pool = collected
            prizes = spec.payouts.prizes(pool, n)
        self.launch = Launch(tuple(self.entrants), pool, prizes, prize, schedule)
        self.status = Status.RUNNING
        self.on_change(self, "started", None)
        return self.launch

    def cancel(self) -> None:
        """Cancel before the start (a scheduled tournament short of entrants): every buy-in
        is refunded."""
        if self.status is not Status.REGISTERING:
            raise TournamentError(
                "registration_closed", f"{self.spec.tournament_id} is {self.status}"
            )
        for entrant in list(self.entrants):
            if self.spec.buy_in:
                self.cashier.refund(
                    self.spec.tournament_id,
                    entrant.player_id,
                    self.spec.buy_in,
                    f"{entrant.key}:refund",
                )
        self.status = Status.CANCELLED
        self.on_change(self, "cancelled", None)
