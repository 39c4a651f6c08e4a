"""The live casino table of Texas Hold'em Bonus: seats, bets, a shared deck, decisions on
a clock, money through a :class:`~croupier.casino.cashier.Cashier` (R-BONUS-1 … 5).

:class:`CasinoTable` is the synchronous owner of one table;
:class:`croupier.table.casino_actor.CasinoActor` runs it as one asyncio task fed through a
mailbox (the design of the poker tables), so it is the only writer. Players sit at up to :attr:`BonusConfig.max_players` seats. Between rounds
each seated player places an ante (2–1000, raised to the minimum) and an optional bonus
bet (1–25) and presses *Deal*; the round starts when every seated player is ready, or
``gather_seconds`` after the first one was. One shuffled 52-card deck serves the round:
:func:`croupier.casino.bonus.start_round` deals the players in seat order (clockwise from
the dealer's left) then the dealer. Each player decides in turn on a clock of
``decision_seconds``; when it runs out the table folds pre-flop and checks later.

Money: the opening stakes are journaled and escrowed with the round's start in one
atomic call (``Cashier.open_round``), every flop/turn/river bet is escrowed before the
decision is applied, the settlement pays everybody in one call. A table restored after a
crash voids every round it had open: each escrowed chip goes back (R-CRASH-1).

The table never calls its cashier while it is in the middle of a change: :meth:`steps`
handles a message as a generator that *yields* each cashier call it needs
(:class:`CashierCall`) and goes on with the answer (or the :class:`CashierError` thrown
back in). Whoever drives it runs the calls: :meth:`handle` inline (tests, simulations),
the actor on a worker thread while the event loop goes on (a server; the table itself
is only ever touched on the loop). Every change of state comes after the call it
depends on, so a table waiting for its cashier is still in its previous, consistent
state. The views read the balances the table knows (``balances``: read with each money
movement, at each seat taken and bet placed), never the store.

Views are per audience: a player sees their own hole cards, never the others' nor the
dealer's until the round is settled, and never a burnt card.

>>> from croupier.casino.cashier import MemoryCashier
>>> from croupier.engine.rng import SeededShuffler
>>> class Clock:   # a clock that never fires (the doctest decides for everyone)
...     def now(self): return 0.0
...     def call_at(self, when, cb): return _Never()
>>> class _Never:
...     def cancel(self): pass
>>> cash = MemoryCashier({"1": 1000})
>>> t = CasinoTable(CasinoTableConfig("casino-1"), cash, Clock(), SeededShuffler(3))
>>> t.handle(Sit("a", "1", "ann")).accepted
True
>>> r = t.handle(Deal("b", "1", ante=1, bonus=5))   # an ante of 1 is raised to 2
>>> r.accepted, t.view("1")["phase"], cash.balance("1")
(True, 'preflop', 993)
>>> t.handle(Decide("c", "1", "fold")).accepted, t.view("1")["phase"]
(True, 'betting')
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from croupier.casino.bonus import (
    Bets,
    BonusAction,
    BonusConfig,
    Phase,
    RoundState,
    apply,
    legal_actions,
    normalize_ante,
    start_round,
)
from croupier.casino.cashier import Cashier, CashierError
from croupier.casino.events import Move, RoundEnded, Wagered
from croupier.casino.paytable import BONUS_LINES
from croupier.engine.cards import DECK_52, format_cards
from croupier.engine.errors import CodedError
from croupier.engine.evaluate import describe, high
from croupier.engine.rng import Shuffler, SystemShuffler

__all__ = [
    "Cancel",
    "CashierCall",
    "CasinoResult",
    "CasinoTable",
    "CasinoTableConfig",
    "Deal",
    "Decide",
    "Sit",
    "Stand",
    "Steps",
    "run_inline",
]


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """The table's time (``croupier.table.clock`` clocks fit): seconds and timers."""

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], Any]) -> Timer: ...


@dataclass(frozen=True, slots=True)
class CasinoTableConfig:
    """One casino table: its id and name, the game's limits, its clocks."""

    table_id: str
    name: str = "Texas Hold'em Bonus"
    game: BonusConfig = field(default_factory=BonusConfig)
    decision_seconds: float = 20.0
    """How long a player has for each decision (then: fold pre-flop, check later)."""
    gather_seconds: float = 8.0
    """How long, after the first player pressed Deal, the others have to join the round."""

    @property
    def seats(self) -> int:
        return self.game.max_players


# -- commands --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sit:
    """Take a seat (``seat`` None: the first free one)."""

    cid: str
    player: str
    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Stand:
    """Leave the seat (after the round in play, if any)."""

    cid: str
    player: str


@dataclass(frozen=True, slots=True)
class Deal:
    """Place the ante and bonus bet and ask for the deal (R-BONUS-1)."""

    cid: str
    player: str
    ante: int
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class Cancel:
    """Take the bets back before the round starts."""

    cid: str
    player: str


@dataclass(frozen=True, slots=True)
class Decide:
    """fold or play pre-flop, check or bet on the turn and river (R-BONUS-2)."""

    cid: str
    player: str
    move: str


Command = Sit | Stand | Deal | Cancel | Decide


@dataclass(frozen=True, slots=True)
class _GatherDue:
    token: int


@dataclass(frozen=True, slots=True)
class _DecisionDue:
    round_id: str
    actor: int
    phase: Phase


@dataclass(frozen=True, slots=True)
class _Refresh:
    """Read ``player``'s balance again (a watcher came back) and show it."""

    player: str


@dataclass(frozen=True, slots=True)
class CashierCall:
    """One call a table needs from its cashier: ``method`` (``open_round``, ``wager``,
    ``settle``, ``void``, ``open_rounds``; None: no movement) with ``args``, then the
    balances of the ``refresh`` players read after it.

    >>> from croupier.casino.cashier import MemoryCashier
    >>> CashierCall("wager", ("t", "r", "7", "flop", 4), ("7",)).method
    'wager'
    >>> CashierCall(None, (), ("7", "8")).run(MemoryCashier({"7": 5}))
    (None, {'7': 5, '8': 0})
    """

    method: str | None
    args: tuple[Any, ...] = ()
    refresh: tuple[str, ...] = ()

    def run(self, cashier: Cashier) -> tuple[Any, dict[str, int]]:
        """Make the call (blocking: the store's transaction); ``(answer, balances)``. A
        balance that cannot be read is left out (the call itself was made)."""
        value = None if self.method is None else getattr(cashier, self.method)(*self.args)
        balances: dict[str, int] = {}
        for player in dict.fromkeys(self.refresh):
            try:
                balances[player] = cashier.balance(player)
            except CashierError:
                continue
        return value, balances


Steps = Generator[CashierCall, Any, Any]
"""A message being handled: yields the cashier calls, is sent ``(answer, balances)``
back (or has the call's exception thrown in), returns the result."""


def run_inline(steps: Steps, cashier: Cashier) -> Any:
    """Drive ``steps`` to its end, making each cashier call on this thread.

    >>> def steps():
    ...     got = yield CashierCall(None, (), ("1",))
    ...     return got
    >>> from croupier.casino.cashier import MemoryCashier
    >>> run_inline(steps(), MemoryCashier({"1": 3}))
    (None, {'1': 3})
    """
    reply: Any = None
    failed: BaseException | None = None
    while True:
        try:
            call = steps.send(reply) if failed is None else steps.throw(failed)
        except StopIteration as done:
            return done.value
        try:
            reply, failed = call.run(cashier), None
        except Exception as exc:
            reply, failed = None, exc


@dataclass(frozen=True, slots=True)
class CasinoResult:
    """The answer to a command."""

    accepted: bool
    code: str = "ok"
    message: str = ""
    data: dict[str, Any] | None = None


def _refuse(code: str, message: str) -> CasinoResult:
    return CasinoResult(False, code, message)


@dataclass(slots=True)
class _Seat:
    player: str
    name: str
    leaving: bool = False


_MAX_REMEMBERED = 2000


class CasinoTable:
    """The state of one casino table; :meth:`handle` is its only entry point."""

    def __init__(
        self,
        config: CasinoTableConfig,
        cashier: Cashier,
        clock: Clock,
        shuffler: Shuffler | None = None,
    ) -> None:
        self.config = config
        self.cashier = cashier
        self.clock = clock
        self.shuffler: Shuffler = shuffler if shuffler is not None else SystemShuffler()
        self.seats: dict[int, _Seat] = {}
        self.ready: dict[int, Bets] = {}
        self.raised: dict[int, bool] = {}
        self.round: RoundState | None = None
        self.round_id: str | None = None
        self.round_seats: tuple[int, ...] = ()
        self.round_no = 0
        self.last: dict[str, Any] | None = None
        self.version = 0
        self.deadline: float | None = None
        self.gather_deadline: float | None = None
        self._gather_token = 0
        self._timer: Timer | None = None
        self._gather_timer: Timer | None = None
        self._answers: OrderedDict[tuple[str, str], CasinoResult] = OrderedDict()
        self._subs: dict[int, tuple[str | None, Callable[[dict[str, Any]], Any]]] = {}
        self._next_sub = 0
        self.wake: Callable[[Any], Any] | None = None
        self.notices: list[dict[str, Any]] = []
        self.balances: dict[str, int] = {}
        """The seated players' balances as last read from the cashier (the views)."""

    # -- recovery ------------------------------------------------------------------------

    def recover(self) -> list[str]:
        """Void every round this table left open (a crash, R-CRASH-1); returns their ids.

        Blocking (the cashier's transactions) and touching nothing but the cashier: the
        actor runs it on a worker thread."""
        voided = self.cashier.open_rounds(self.config.table_id)
        for rid in voided:
            self.cashier.void(self.config.table_id, rid, "crash")
        return voided

    def _ask(
        self, method: str | None, *args: Any, refresh: tuple[str, ...] = ()
    ) -> Generator[CashierCall, Any, Any]:
        """One cashier call (see :meth:`steps`); the balances read after it are kept."""
        value, balances = yield CashierCall(method, args, refresh)
        self.balances.update(balances)
        return value

    def _seated(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats.values())

    # -- subscriptions ---------------------------------------------------------------------

    def subscribe(self, player: str | None, callback: Callable[[dict[str, Any]], Any]) -> int:
        """``callback`` receives this audience's view after every change (and now)."""
        self._next_sub += 1
        self._subs[self._next_sub] = (player, callback)
        callback(self.view(player))
        if player is not None and self.seat_of(player) is not None:
            self._post(_Refresh(player))  # show the balance as it is now
        return self._next_sub

    def adopt_watchers(self, other: CasinoTable) -> None:
        """Take over the subscribers of ``other`` (the table this one replaces after a
        crash) and send them the new state."""
        self._subs.update(other._subs)
        self._next_sub = max(self._next_sub, other._next_sub)
        self._publish()

    def unsubscribe(self, token: int) -> None:
        self._subs.pop(token, None)

    def _publish(self) -> None:
        self.version += 1
        for player, callback in list(self._subs.values()):
            callback(self.view(player))

    # -- commands ------------------------------------------------------------------------

    def handle(self, msg: Any) -> CasinoResult | None:
        """Handle one command or timer message, making the cashier calls on this thread
        (tests, simulations; the actor drives :meth:`steps` itself)."""
        result: CasinoResult | None = run_inline(self.steps(msg), self.cashier)
        return result

    def steps(self, msg: Any) -> Generator[CashierCall, Any, CasinoResult | None]:
        """Handle one command or timer message (the actor calls this, one at a time),
        yielding each cashier call (:class:`CashierCall`) to whoever drives it."""
        if isinstance(msg, _GatherDue):
            if msg.token == self._gather_token and self.round is None and self.ready:
                yield from self._start_round()
            return None
        if isinstance(msg, _DecisionDue):
            yield from self._timeout(msg)
            return None
        if isinstance(msg, _Refresh):
            if self.seat_of(msg.player) is not None:
                before = self.balances.get(msg.player)
                yield from self._ask(None, refresh=(msg.player,))
                if self.balances.get(msg.player) != before:
                    self._publish()
            return None
        key = (msg.player, msg.cid)
        if key in self._answers:
            return self._answers[key]
        result = yield from self._command(msg)
        self._answers[key] = result
        while len(self._answers) > _MAX_REMEMBERED:
            self._answers.popitem(last=False)
        return result

    def _command(self, cmd: Command) -> Generator[CashierCall, Any, CasinoResult]:
        if isinstance(cmd, Sit):
            return (yield from self._sit(cmd))
        seat = self.seat_of(cmd.player)
        if seat is None:
            return _refuse("not_seated", "take a seat first")
        if isinstance(cmd, Stand):
            return (yield from self._stand(seat))
        if isinstance(cmd, Deal):
            return (yield from self._deal(seat, cmd))
        if isinstance(cmd, Cancel):
            if self.ready.pop(seat, None) is None:
                return _refuse("no_bet", "no bet is waiting for the deal")
            self.raised.pop(seat, None)
            if not self.ready:
                self._cancel_gather()
            self._publish()
            return CasinoResult(True)
        return (yield from self._decide(seat, cmd))

    def seat_of(self, player: str) -> int | None:
        return next((i for i, s in self.seats.items() if s.player == player), None)

    def _sit(self, cmd: Sit) -> Generator[CashierCall, Any, CasinoResult]:
        if self.seat_of(cmd.player) is not None:
            return _refuse("already_seated", "you already have a seat here")
        if cmd.seat is None:
            free = [i for i in range(self.config.seats) if i not in self.seats]
            if not free:
                return _refuse("table_full", "every seat is taken")
            seat = free[0]
        else:
            if not isinstance(cmd.seat, int) or not 0 <= cmd.seat < self.config.seats:
                return _refuse("bad_seat", f"seats are 0 to {self.config.seats - 1}")
            if cmd.seat in self.seats:
                return _refuse("seat_taken", "this seat is taken")
            seat = cmd.seat
        yield from self._ask(None, refresh=(cmd.player,))  # the balance the views show
        self.seats[seat] = _Seat(cmd.player, cmd.name)
        self._publish()
        return CasinoResult(True, data={"seat": seat})

    def _stand(self, seat: int) -> Generator[CashierCall, Any, CasinoResult]:
        if seat in self.round_seats and self.round is not None:
            self.seats[seat].leaving = True
            if self.round.actor is not None and self.round_seats[self.round.actor] == seat:
                self._arm_decision()  # not waited for: the clock decides at once
            self._publish()
            return CasinoResult(True, "after_round", "you leave when the round ends")
        self.balances.pop(self.seats.pop(seat).player, None)
        self.ready.pop(seat, None)
        self.raised.pop(seat, None)
        if not self.ready:
            self._cancel_gather()
        yield from self._maybe_start()
        self._publish()
        return CasinoResult(True)

    def _deal(self, seat: int, cmd: Deal) -> Generator[CashierCall, Any, CasinoResult]:
        if self.round is not None:
            return _refuse("round_in_play", "wait for the round in play to end")
        if seat in self.ready:
            return _refuse("already_ready", "your bet is already waiting for the deal")
        game = self.config.game
        try:
            if cmd.ante == 0 and cmd.bonus:
                raise CodedError("ante_required", "a bonus bet needs an ante")
            if cmd.ante == 0:
                raise CodedError("no_bet", "place an ante first")
            ante = normalize_ante(game, cmd.ante)
            bonus = cmd.bonus
            if not isinstance(bonus, int) or isinstance(bonus, bool):
                raise CodedError("bad_amount", f"a bonus bet is a whole number, not {bonus!r}")
            if bonus and not game.bonus_min <= bonus <= game.bonus_max:
                raise CodedError(
                    "bonus_out_of_range",
                    f"the bonus bet is 0 (none) or {game.bonus_min} to {game.bonus_max}, "
                    f"not {bonus}",
                )
        except CodedError as exc:
            return _refuse(exc.code, str(exc))
        player = self.seats[seat].player
        known = self.balances.get(player)
        yield from self._ask(None, refresh=(player,))
        have = self.balances.get(player, 0)
        if ante + cmd.bonus > have:
            if have != known:
                self._publish()  # show the balance that refuses the bet
            return _refuse(
                "insufficient_chips", f"your balance is {have}, the bets are {ante + cmd.bonus}"
            )
        self.ready[seat] = Bets(ante, cmd.bonus)
        self.raised[seat] = ante != cmd.ante
        if self.gather_deadline is None:
            self._gather_token += 1
            self.gather_deadline = self.clock.now() + self.config.gather_seconds
            token = self._gather_token
            self._gather_timer = self.clock.call_at(
                self.gather_deadline, lambda: self._post(_GatherDue(token))
            )
        data = {"ante": ante, "bonus": cmd.bonus, "raised": ante != cmd.ante}
        if not (yield from self._maybe_start()):
            self._publish()
        return CasinoResult(True, data=data)

    def _maybe_start(self) -> Generator[CashierCall, Any, bool]:
        if self.round is None and self.ready and all(i in self.ready for i in self.seats):
            yield from self._start_round()
            return True
        return False

    def _cancel_gather(self) -> None:
        self._gather_token += 1
        self.gather_deadline = None
        if self._gather_timer is not None:
            self._gather_timer.cancel()
            self._gather_timer = None

    def _post(self, msg: Any) -> Any:
        return None if self.wake is None else self.wake(msg)

    # -- the round -----------------------------------------------------------------------

    def _start_round(self) -> Generator[CashierCall, Any, None]:
        self._cancel_gather()
        tid = self.config.table_id
        players = {i: self.seats[i].player for i in sorted(self.ready) if i in self.seats}
        self.notices = []
        for _attempt in range(self.config.seats + 1):
            order = tuple(i for i in sorted(self.ready) if i in players)
            if not order:
                self.ready.clear()
                self._publish()
                return
            bets = [self.ready[i] for i in order]
            yield from self._ask(None, refresh=tuple(players[i] for i in order))
            stacks = [self.balances.get(players[i], 0) for i in order]
            short = [i for i, b, s in zip(order, bets, stacks, strict=True) if b.ante + b.bonus > s]
            if short:
                for i in short:
                    self._drop(i, "insufficient_chips")
                continue
            deck = self.shuffler.shuffle(DECK_52)
            state, _events = start_round(self.config.game, bets, deck, stacks=stacks)
            round_id = uuid.uuid4().hex
            salt = secrets.token_hex(16)
            record = {
                "round_no": self.round_no + 1,
                "seats": [
                    {"seat": i, "player": players[i], "ante": b.ante, "bonus": b.bonus}
                    for i, b in zip(order, bets, strict=True)
                ],
                "commitment": hashlib.sha256((format_cards(deck) + salt).encode()).hexdigest(),
                "deck": format_cards(deck),
                "salt": salt,
            }
            stakes = [(players[i], b.ante + b.bonus) for i, b in zip(order, bets, strict=True)]
            try:
                yield from self._ask(
                    "open_round", tid, round_id, record, stakes, refresh=self._seated()
                )
            except CashierError as exc:
                if exc.player is None:
                    raise
                seat = next(i for i in order if players[i] == exc.player)
                self._drop(seat, exc.code)
                continue
            self.round, self.round_id, self.round_seats = state, round_id, order
            self.round_no += 1
            self.ready.clear()
            self._arm_decision()
            self._publish()
            return
        self._publish()

    def _drop(self, seat: int, code: str) -> None:
        self.ready.pop(seat, None)
        self.notices.append({"seat": seat, "code": code})

    def _arm_decision(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        state = self.round
        if state is None or state.actor is None or self.round_id is None:
            self.deadline = None
            return
        seat = self.seats.get(self.round_seats[state.actor])
        leaving = seat is None or seat.leaving  # a player who stood up is not waited for
        self.deadline = self.clock.now() + (0.0 if leaving else self.config.decision_seconds)
        due = _DecisionDue(self.round_id, state.actor, state.phase)
        self._timer = self.clock.call_at(self.deadline, lambda: self._post(due))

    def _timeout(self, due: _DecisionDue) -> Generator[CashierCall, Any, None]:
        state = self.round
        if (
            state is None
            or due.round_id != self.round_id
            or state.actor != due.actor
            or state.phase is not due.phase
        ):
            return
        move = Move.FOLD if state.phase is Phase.PREFLOP else Move.CHECK
        yield from self._apply(BonusAction(due.actor, move), timed_out=True)

    def _decide(self, seat: int, cmd: Decide) -> Generator[CashierCall, Any, CasinoResult]:
        state = self.round
        if state is None or seat not in self.round_seats:
            return _refuse("not_in_round", "you are not in the round in play")
        try:
            move = Move(cmd.move)
        except ValueError:
            return _refuse(
                "unknown_action", f"moves are fold, play, check and bet, not {cmd.move!r}"
            )
        player = self.round_seats.index(seat)
        return (yield from self._apply(BonusAction(player, move)))

    def _apply(
        self, action: BonusAction, *, timed_out: bool = False
    ) -> Generator[CashierCall, Any, CasinoResult]:
        state = self.round
        assert state is not None and self.round_id is not None
        try:
            new, events = apply(state, action)
        except CodedError as exc:
            return _refuse(exc.code, str(exc))
        tid, rid = self.config.table_id, self.round_id
        for e in events:
            if isinstance(e, Wagered):
                who = self.seats[self.round_seats[e.player]].player
                try:
                    yield from self._ask("wager", tid, rid, who, e.spot, e.amount, refresh=(who,))
                except CashierError as exc:
                    return _refuse(exc.code, str(exc))
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
        if ended is not None:  # paid before anything changes here (a crash voids the round)
            yield from self._pay(ended)
        self.round = new
        if timed_out:
            self.notices.append(
                {"seat": self.round_seats[action.player], "code": "timed_out", "move": action.move}
            )
        if ended is not None:
            self._settle(new, ended)
        else:
            self._arm_decision()
        self._publish()
        return CasinoResult(True, data={"move": action.move.value})

    def _pay(self, ended: RoundEnded) -> Generator[CashierCall, Any, None]:
        """Settle the round with the cashier (one call: every player paid, the house)."""
        assert self.round_id is not None
        tid, rid = self.config.table_id, self.round_id
        players = [self.seats[i].player for i in self.round_seats]
        results = [(players[r.player], r.wagered, r.paid) for r in ended.results]
        outcome = {"house_net": ended.house_net, "round_no": self.round_no}
        yield from self._ask("settle", tid, rid, results, outcome, refresh=self._seated())

    def _settle(self, state: RoundState, ended: RoundEnded) -> None:
        """The round is paid: show its result and free the seats of who left."""
        assert self.round_id is not None
        rid = self.round_id
        self.last = {
            "round_id": rid,
            "round_no": self.round_no,
            "dealer": format_cards(state.dealer),
            "board": format_cards(state.board),
            "house_net": ended.house_net,
            "dealer_hand": describe("high", high(state.dealer, state.board))
            if len(state.board) == 5
            else None,
            "results": [
                {
                    "seat": self.round_seats[r.player],
                    "name": self.seats[self.round_seats[r.player]].name,
                    "hole": format_cards(state.seats[r.player].hole),
                    **_result_dict(r),
                    "hand": None if r.value is None else describe("high", r.value),
                    "stakes": _stakes(state, r.player),
                }
                for r in ended.results
            ],
        }
        self.round, self.round_id, self.deadline = None, None, None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for i in self.round_seats:
            if self.seats[i].leaving:
                self.balances.pop(self.seats.pop(i).player, None)
        self.round_seats = ()

    # -- views ---------------------------------------------------------------------------

    def view(self, audience: str | None) -> dict[str, Any]:
        """What ``audience`` (a player id, or None for a spectator) may see."""
        state = self.round
        me = None if audience is None else self.seat_of(audience)
        now = self.clock.now()
        legal = None if state is None else legal_actions(state)
        seats: list[dict[str, Any] | None] = []
        for i in range(self.config.seats):
            s = self.seats.get(i)
            if s is None:
                seats.append(None)
                continue
            row: dict[str, Any] = {"seat": i, "name": s.name, "leaving": s.leaving}
            waiting = self.ready.get(i)
            row["ready"] = (
                None if waiting is None else {"ante": waiting.ante, "bonus": waiting.bonus}
            )
            if state is not None and i in self.round_seats:
                p = self.round_seats.index(i)
                rs = state.seats[p]
                row["in_round"] = True
                row["hole"] = format_cards(rs.hole) if i == me else None
                row["stakes"] = _stakes(state, p)
                row["folded"] = rs.folded
                row["to_act"] = legal is not None and legal.player == p
            else:
                row["in_round"] = False
            seats.append(row)
        you: dict[str, Any] | None = None
        if me is not None and audience is not None:
            you = {"seat": me, "balance": self.balances.get(audience), "legal": None}
            if (
                state is not None
                and legal is not None
                and me in self.round_seats
                and self.round_seats.index(me) == legal.player
            ):
                you["legal"] = {"moves": [m.value for m in legal.moves], "amount": legal.amount}
        return {
            "type": "casino_state",
            "table_id": self.config.table_id,
            "name": self.config.name,
            "version": self.version,
            "phase": "betting" if state is None else state.phase.value,
            "round_no": self.round_no,
            "board": "" if state is None else format_cards(state.board),
            "dealer": None,
            "seats": seats,
            "actor_seat": None if legal is None else self.round_seats[legal.player],
            "seconds_left": None if self.deadline is None else max(0.0, self.deadline - now),
            "gather_left": None
            if self.gather_deadline is None
            else max(0.0, self.gather_deadline - now),
            "you": you,
            "last": self.last,
            "notices": list(self.notices),
        }

    def summary(self) -> dict[str, Any]:
        """The lobby row of this table."""
        return {
            "table_id": self.config.table_id,
            "name": self.config.name,
            "game": "thb",
            "seats": self.config.seats,
            "players": len(self.seats),
            "ante_min": self.config.game.ante_min,
            "ante_max": self.config.game.ante_max,
            "bonus_min": self.config.game.bonus_min,
            "bonus_max": self.config.game.bonus_max,
        }


def _stakes(state: RoundState, p: int) -> dict[str, int]:
    s = state.seats[p]
    return {"ante": s.ante, "bonus": s.bonus, "flop": s.flop, "turn": s.turn, "river": s.river}


def _result_dict(r: Any) -> dict[str, Any]:
    return {
        "outcome": r.outcome.value,
        "ante_net": r.ante_net,
        "flop_net": r.flop_net,
        "turn_net": r.turn_net,
        "river_net": r.river_net,
        "bonus_line": r.bonus_line,
        "bonus_net": r.bonus_net,
        "wagered": r.wagered,
        "paid": r.paid,
        "net": r.net,
    }


def paytable_json() -> dict[str, Any]:
    """The pay tables for a client (R-BONUS-3, R-BONUS-4)."""
    return {"bonus": [{"key": b.key, "pays": b.pays} for b in BONUS_LINES if b.pays > 0]}
