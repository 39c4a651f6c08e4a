"""A table's seating and connection commands (``SitDown`` … ``Reload``, ``Disconnect``,
``Reconnect``), as functions of the :class:`~croupier.table.table.Table` that owns the
seats (split out of ``table.py``; the table dispatches to them).

Buy-ins and reloads journal their intent (:class:`~croupier.table.journal.BuyInIntent`)
*before* the bank moves the chips, and the seat map holding them names it: a crash in
between is refunded at recovery, so no chip is stranded in the table's escrow.

Cash-outs go the other way: the seat map naming the
:class:`~croupier.table.journal.CashOutRecord` is durable *before* the bank pays it, and
:class:`~croupier.table.journal.CashOutDone` follows; a crash in between is paid again at
restart with the same reference (applied once). A table driven directly pays at once; in
its :class:`~croupier.table.actor.TableActor` over a server's background journal, both the
buy-in funding (:func:`fund`) and the cash-out payment (:func:`pay`) run off the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from croupier.table import grace
from croupier.table.commands import (
    Disconnect,
    Leave,
    Reconnect,
    Reload,
    SitDown,
    SitIn,
    SitOut,
    WindowExpired,
)
from croupier.table.events import (
    Disconnected,
    PlayerLeft,
    PlayerSeated,
    Reconnected,
    SatIn,
    SatOut,
    SeatChanged,
    TableSnapshot,
)
from croupier.table.journal import BuyInAborted, BuyInIntent, CashOutDone, CashOutRecord
from croupier.table.results import TableError
from croupier.table.seating import Seat, check_buy_in, choose_seat, label_bot

if TYPE_CHECKING:
    from croupier.table.host import SeatHost

__all__ = [
    "ASK_FUNDING",
    "Funded",
    "NeedsFunding",
    "arm_window",
    "disconnect",
    "fund",
    "leave",
    "on_window_expired",
    "pay",
    "policy",
    "protections_used",
    "reconnect",
    "refund",
    "reload",
    "sit_down",
    "sit_in",
    "sit_out",
    "stand_up",
    "take",
]


ASK_FUNDING = "ask"
"""``SeatHost.funding`` value: a buy-in raises :class:`NeedsFunding` instead of asking the
bank (the actor asks it off the event loop, then hands the command over again)."""


@dataclass(frozen=True, slots=True)
class Funded:
    """A buy-in the actor funded off the loop: its intent journaled, the bank asked."""

    player_id: str
    amount: int
    ref: str
    ok: bool


class NeedsFunding(Exception):
    """Raised by :func:`take` when the actor funds buy-ins off the event loop: the command
    passed every check and needs ``amount`` of ``player_id``'s chips (nothing changed)."""

    def __init__(self, player_id: str, amount: int, what: str) -> None:
        super().__init__(f"{player_id} buys in for {amount}")
        self.player_id, self.amount, self.what = player_id, amount, what


def fund(t: SeatHost, ask: NeedsFunding) -> Funded:
    """Journal the intent and ask the bank (blocking: the actor runs it off the loop)."""
    ref = t.new_ref(ask.what)
    t.journal.append(t.id, BuyInIntent(ref, ask.player_id, ask.amount))
    ok = t.bank.buy_in(ask.player_id, ask.amount, ref)
    if not ok:
        t.journal.append(t.id, BuyInAborted(ref, "insufficient_funds"))
    return Funded(ask.player_id, ask.amount, ref, ok)


def refund(t: SeatHost, funded: Funded) -> None:
    """Give back a funding the table did not use (blocking: off the loop)."""
    if funded.ok:
        t.bank.cash_out(funded.player_id, funded.amount, f"{funded.ref}:refund")
        t.journal.append(t.id, BuyInAborted(funded.ref, "unused"))


def take(t: SeatHost, player_id: str, amount: int, what: str) -> str:
    """Take a buy-in or reload from the bank: the intent is journaled first, so a crash
    before the seat map holding the chips is journaled is refunded at recovery. With the
    actor funding buy-ins off the loop, the funding it did is used (or asked for)."""
    pre = t.funding
    if pre == ASK_FUNDING:
        raise NeedsFunding(player_id, amount, what)
    if isinstance(pre, Funded) and (pre.player_id, pre.amount) == (player_id, amount):
        t.funding = None
        if not pre.ok:
            raise TableError("insufficient_funds", f"{player_id} cannot buy in for {amount}")
        t.fault("bought_in")
        return pre.ref
    ref = t.new_ref(what)
    t.journal.append(t.id, BuyInIntent(ref, player_id, amount))
    if not t.bank.buy_in(player_id, amount, ref):
        t.journal.append(t.id, BuyInAborted(ref, "insufficient_funds"))
        raise TableError("insufficient_funds", f"{player_id} cannot buy in for {amount}")
    t.fault("bought_in")
    return ref


# -- seating commands -----------------------------------------------------------------


def sit_down(t: SeatHost, cmd: SitDown) -> int:
    cfg = t.config
    if t.find(cmd.player_id) is not None:
        raise TableError("already_seated", f"{cmd.player_id} already has a seat here")
    if cmd.is_bot and not cfg.bots_allowed:
        raise TableError("bots_not_allowed", "this table does not seat bots")
    number = choose_seat(t.seats, cfg.seats, cmd.seat)
    check_buy_in(t.config, cmd.buy_in, 0)
    ref = take(t, cmd.player_id, cmd.buy_in, "buy-in")
    name = cmd.name or cmd.player_id
    standard = cfg.has_blinds and cfg.rules.button == "standard"
    seat = Seat(
        number,
        cmd.player_id,
        label_bot(name) if cmd.is_bot else name,
        cmd.is_bot,
        cmd.buy_in,
        waiting_bb=standard,
        post_now=cmd.post_big_blind,
        time_bank=float(cfg.rules.time_bank_seconds),
    )
    t.set_seat(seat)
    t.journal_seats("sit_down", buy_in=ref)
    t.publish(
        PlayerSeated(
            number,
            seat.player_id,
            seat.name,
            seat.is_bot,
            seat.stack,
            waiting_bb=seat.waiting_bb,
            post_now=seat.post_now,
            time_bank=seat.time_bank,
        )
    )
    t.schedule_hand()
    return number


def sit_out(t: SeatHost, cmd: SitOut) -> None:
    seat = t.seat_of(cmd.player_id)
    if seat.sitting_out:
        raise TableError("already_sitting_out", "already sitting out")
    t.set_seat(replace(seat, sitting_out=True, post_now=False))
    t.journal_seats("sit_out")
    t.publish(SatOut(seat.seat, "requested"))


def sit_in(t: SeatHost, cmd: SitIn) -> None:
    seat = t.seat_of(cmd.player_id)
    if not seat.sitting_out and seat.owes and cmd.post_blinds is True and not seat.post_now:
        # R-SEAT-3: a player waiting for the big blind chooses to post now instead
        t.set_seat(replace(seat, post_now=True))
        t.journal_seats("post_now")
        t.publish(SeatChanged(t.seats[seat.seat], "post_now"))
        t.schedule_hand()
        return
    if not seat.sitting_out:
        raise TableError("not_sitting_out", "not sitting out")
    if seat.stack <= 0:
        raise TableError("no_chips", "reload before sitting in (R-SEAT-1)")
    t.set_seat(replace(seat, sitting_out=False, post_now=cmd.post_blinds))
    t.journal_seats("sit_in")
    t.publish(SatIn(seat.seat, post_now=seat.owes and cmd.post_blinds))
    t.schedule_hand()


def leave(t: SeatHost, cmd: Leave) -> str:
    seat = t.seat_of(cmd.player_id)
    if seat.leaving:
        raise TableError("already_leaving", "already leaving at the end of the hand")
    if t.position(seat.seat) is not None:
        t.set_seat(replace(seat, leaving=True))
        t.publish(SatOut(seat.seat, "leaving"))
        t.drive()
        return "after_hand"
    stand_up(t, seat, "left")
    t.schedule_hand()
    return "now"


def stand_up(t: SeatHost, seat: Seat, reason: str) -> None:
    """Free ``seat`` and send its stack home: the seat map naming the cash-out is
    journaled, then the bank pays it (R-CRASH-1: never before the seat map is durable),
    then ``CashOutDone`` is journaled. With the actor paying off the loop (``t.owed`` is a
    list) the seat map is queued and the cash-out left in ``t.owed``: the actor pays it
    once the seat map is durable, before it takes its next message."""
    del t.seats[seat.seat]
    cash: tuple[CashOutRecord, ...] = ()
    if seat.stack > 0:
        cash = (CashOutRecord(t.new_ref("cash-out"), seat.player_id, seat.stack),)
    owed = t.owed
    if owed is not None and cash:
        t.journal_seats(reason, cash, payer_waits=True)
        owed.extend(cash)
    else:
        t.journal_seats(reason, cash)
        for co in cash:
            t.bank.cash_out(co.player_id, co.amount, co.ref)
            t.journal.append(t.id, CashOutDone(co.ref))
    t.publish(PlayerLeft(seat.seat, seat.player_id, seat.stack, reason))


def pay(t: SeatHost, co: CashOutRecord) -> None:
    """Pay a cash-out whose seat map is durable (blocking: the actor runs it off the
    loop, then journals ``CashOutDone`` on the loop). The ledger applies a reference
    once, so paying again after a crash (the restart does) moves nothing more."""
    t.bank.cash_out(co.player_id, co.amount, co.ref)


def reload(t: SeatHost, cmd: Reload) -> int:
    seat = t.seat_of(cmd.player_id)
    if t.position(seat.seat) is not None:
        raise TableError("in_hand", "reload between hands")
    if t.config.buy_in_max and seat.stack >= t.config.buy_in_max:
        raise TableError("at_max", "the stack is already at the maximum buy-in")
    check_buy_in(t.config, cmd.amount, seat.stack)
    ref = take(t, cmd.player_id, cmd.amount, "reload")
    new = replace(seat, stack=seat.stack + cmd.amount, busted=False)
    if seat.busted:
        new = replace(new, sitting_out=False)
    t.set_seat(new)
    t.journal_seats("reload", buy_in=ref)
    t.publish(SeatChanged(new, "reload"))
    if seat.busted:
        t.publish(SatIn(seat.seat))
    t.schedule_hand()
    return new.stack


# -- connections ------------------------------------------------------------------------


def disconnect(t: SeatHost, cmd: Disconnect) -> float:
    seat = t.seat_of(cmd.player_id)
    if not seat.connected:
        raise TableError("already_disconnected", "already disconnected")
    now = t.clock.now()
    t.set_seat(replace(seat, disconnected_at=now))
    rules = t.config.rules
    arm_window(t, seat.player_id, now)
    grace.arm_grace(t, seat.player_id, now)
    until = now + rules.reconnect_seconds
    t.publish(Disconnected(seat.seat, policy(t, seat.player_id), until))
    t.drive()
    return until


def arm_window(t: SeatHost, player_id: str, since: float) -> None:
    when = since + t.config.rules.reconnect_seconds
    t.clock.call_at(when, lambda: t.wake(WindowExpired(player_id, since)))


def reconnect(t: SeatHost, cmd: Reconnect) -> TableSnapshot:
    seat = t.find(cmd.player_id)
    if seat is None:
        raise TableError("seat_lost", "no seat to return to (the reconnection window has passed)")
    if not seat.connected:
        since = seat.disconnected_at
        assert since is not None
        t.set_seat(replace(seat, disconnected_at=None))
        t.publish(Reconnected(seat.seat))
        grace.report_return(t, seat, since)
    return t.snapshot(cmd.player_id)


def on_window_expired(t: SeatHost, msg: WindowExpired) -> None:
    seat = t.find(msg.player_id)
    if seat is None or seat.disconnected_at != msg.since:
        return
    if t.position(seat.seat) is not None:
        t.set_seat(replace(seat, leaving=True))
        t.drive()
        return
    stand_up(t, seat, "disconnected")


def policy(t: SeatHost, player_id: str) -> str:
    """The disconnection policy that applies to ``player_id`` now (R-TIME-2)."""
    rules = t.config.rules
    if (
        rules.disconnection == "all_in_protection"
        and protections_used(t, player_id) >= rules.all_in_protections_per_day
    ):
        return "fold"
    return rules.disconnection


def protections_used(t: SeatHost, player_id: str) -> int:
    """The all-in protections ``player_id`` used in the last 24 hours (R-TIME-2: the
    room's count across every table when the table has the store's quota)."""
    return t.quota.used(player_id)


def publish_missed_blinds(t: SeatHost, before: dict[int, Seat], dealt: tuple[int, ...]) -> None:
    """At a hand's start, tell everyone which seats not dealt in now owe blinds (R-SEAT-3),
    so a client shows "waiting for the big blind" (the dealt seats' debts are cleared by
    ``hand_began`` itself)."""
    for number, seat in t.seats.items():
        old = before.get(number)
        if number in dealt or old is None:
            continue
        if (old.owes_bb, old.owes_sb) != (seat.owes_bb, seat.owes_sb):
            t.publish(SeatChanged(seat, "missed_blinds"))
