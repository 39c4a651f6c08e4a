"""Naiko mode at the live table (SPEC §9, R-NAIKO-1..9): the Destellos per seat, the
carrousel draw, the power commands and the Ancre Courte's response window.

The rules are the engine's (:mod:`croupier.engine.naiko`); this module only times and
routes them. A :class:`NaikoDesk` belongs to one :class:`~croupier.table.table.Table`
and holds the running :class:`~croupier.engine.naiko.NaikoHand` (the table's
``hand`` is always its ``hand``):

* at the start of a hand, the carrousel is drawn uniformly with the table's injected rng
  and each dealt seat's Destellos (kept on the :class:`~croupier.table.seating.Seat`,
  so they survive between hands and restarts and go with the seat) are passed to the
  engine, which adds the one earned for being dealt in;
* every poker action goes through :func:`croupier.engine.naiko.act`;
* ``UsePower`` / ``RespondAncre`` are validated by the engine (a refusal's code is the
  :class:`~croupier.engine.naiko.PowerError`'s) and change nothing when refused;
* an Ancre Courte opens an 8 s window on the table clock
  (:data:`~croupier.engine.naiko.RESPONSE_WINDOW_SECONDS`) during which the acting
  player's decision clock is paused; the target's answer, or the window's expiry (a
  pass), closes it and the clock resumes with the time that was left;
* at settlement the Destellos go back to the seats.

>>> parse_power("ancre_courte").value, parse_card("7c")
('ancre_courte', Card('7c'))
>>> parse_power("fireball")
Traceback (most recent call last):
...
croupier.table.results.TableError: unknown power 'fireball'; the powers are coup_d_oeil, echange_de_manche, ancre_courte, sceau_protecteur
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from croupier.engine.actions import Action
from croupier.engine.cards import Card, parse_cards
from croupier.engine.errors import InvalidCardError
from croupier.engine.events import Event
from croupier.engine.naiko import (
    CARROUSELS,
    COSTS,
    RESPONSE_WINDOW_SECONDS,
    NaikoHand,
    Power,
    PowerError,
    act,
    peek_of,
    power_options,
    respond,
    start_naiko_hand,
    use_power,
)
from croupier.engine.state import HandState
from croupier.table.clock import TimerHandle
from croupier.table.commands import AncreExpired, RespondAncre, UsePower
from croupier.table.events import AncreWindowOpened, CarrouselShown, NaikoStatus, PowerOffer
from croupier.table.results import TableError

if TYPE_CHECKING:
    from croupier.engine.game import Game
    from croupier.table.host import NaikoHost
    from croupier.table.table import PausedDecision

__all__ = ["NaikoDesk", "naiko_status", "parse_card", "parse_power"]


def parse_power(text: object) -> Power:
    """The :class:`~croupier.engine.naiko.Power` named ``text`` (its wire value)."""
    try:
        return Power(text if isinstance(text, str) else "")
    except ValueError:
        names = ", ".join(p.value for p in Power)
        raise TableError(
            "unknown_power", f"unknown power {text!r}; the powers are {names}"
        ) from None


def parse_card(text: object) -> Card:
    """Exactly one card from its text (``"7c"``)."""
    try:
        cards = parse_cards(text) if isinstance(text, str) else ()
    except InvalidCardError:
        cards = ()
    if len(cards) != 1:
        raise TableError("invalid_card", f"name one card, such as '7c', not {text!r}")
    return cards[0]


def naiko_status(nh: NaikoHand) -> NaikoStatus:
    """The public Naiko state of ``nh`` (nothing hidden: every power use is public)."""
    window = nh.window
    return NaikoStatus(
        carrousel=tuple(p.value for p in nh.carrousel),
        destellos=nh.destellos,
        used=tuple(tuple(sorted(p.value for p in used)) for used in nh.used),
        activations=nh.activations,
        anchored=tuple(sorted(nh.anchored)),
        turn_used=nh.turn_used,
        window=None if window is None else (window.caster, window.target),
        costs=tuple((p.value, COSTS[p]) for p in Power),
    )


class NaikoDesk:
    """The Naiko side of one table (see the module docstring)."""

    def __init__(self, table: NaikoHost) -> None:
        self.table = table
        self.hand: NaikoHand | None = None
        self.closes_at: float | None = None
        self._timer: TimerHandle | None = None
        self._token = 0
        self._paused: PausedDecision | None = None
        """(remaining decision seconds, time-bank start, when the window opened)."""

    # -- the hand ---------------------------------------------------------------------------

    @property
    def window_open(self) -> bool:
        return self.hand is not None and self.hand.window is not None

    def status(self) -> NaikoStatus | None:
        return None if self.hand is None else naiko_status(self.hand)

    def offers(self, pos: int) -> tuple[PowerOffer, ...] | None:
        """What the player at engine position ``pos`` may do with each power now, Ancre
        targets as seats (the engine's :func:`~croupier.engine.naiko.power_options`)."""
        plan = self.table.plan
        if self.hand is None or plan is None:
            return None
        return tuple(
            PowerOffer(
                o.power.value,
                o.cost,
                o.usable,
                o.reason,
                tuple(plan.seats[target] for target in o.targets),
            )
            for o in power_options(self.hand, pos)
        )

    def own_offers(self, pos: int | None) -> tuple[PowerOffer, ...] | None:
        """A snapshot's offers: ``pos``'s, when it is their turn (else None)."""
        t = self.table
        if pos is None or t.hand is None or t.hand.actor != pos or self.window_open:
            return None
        return self.offers(pos)

    def peeks(self, pos: int | None) -> tuple[Card | None, ...]:
        """The Coup d'Œil cards of ``pos`` on the current street (a resync shows them)."""
        return () if self.hand is None or pos is None else peek_of(self.hand, pos)

    def draw_carrousel(self) -> int:
        """A carrousel index drawn uniformly with the table's injected rng (R-NAIKO-2)."""
        return self.table.rng.choice(list(range(len(CARROUSELS))))

    def start(
        self,
        game: Game,
        stacks: tuple[int, ...],
        deck: list[Card] | tuple[Card, ...],
        *,
        carrousel: int,
        destellos: tuple[int, ...],
        blinds: tuple[int, ...] | None,
        dead: tuple[int, ...] | None,
    ) -> tuple[HandState, list[Event]]:
        nh, events = start_naiko_hand(
            game,
            stacks,
            deck,
            destellos=destellos,
            carrousel=carrousel,
            blinds=blinds,
            dead=dead,
        )
        self.hand = nh
        return nh.hand, events

    def announce(self, hand_no: int, seats: tuple[int, ...]) -> None:
        """Publish the carrousel and the Destellos after the deal (R-NAIKO-1, R-NAIKO-2)."""
        assert self.hand is not None
        self.table.publish(
            CarrouselShown(
                hand_no,
                tuple(p.value for p in self.hand.carrousel),
                tuple(zip(seats, self.hand.destellos, strict=True)),
            )
        )

    def act(self, base: HandState, action: Action) -> tuple[HandState, list[Event]]:
        """A poker action through the Naiko rules (refused while a window is open)."""
        assert self.hand is not None
        nh = self.hand if self.hand.hand is base else replace(self.hand, hand=base)
        nh, events = act(nh, action)
        self.hand = nh
        return nh.hand, events

    def sync(self, state: HandState) -> None:
        """Adopt an engine state reached outside :meth:`act` (all-in protection)."""
        if self.hand is not None and self.hand.hand is not state:
            self.hand = replace(self.hand, hand=state)

    def destellos_after(self) -> tuple[int, ...]:
        assert self.hand is not None
        return self.hand.destellos

    def end(self) -> None:
        """The hand is over (settled or voided): drop it and any open window."""
        self._cancel_window()
        self.hand = None
        self._paused = None

    # -- commands ---------------------------------------------------------------------------

    def _player(self, player_id: str) -> int:
        t = self.table
        seat = t.seat_of(player_id)
        pos = t.position(seat.seat)
        if self.hand is None or t.hand is None or pos is None:
            raise TableError("not_in_hand", "powers are used by players in a Naiko hand")
        return pos

    def use_power(self, cmd: UsePower) -> None:
        """``UsePower``: validated by the engine; accepted, its events are published. An
        Ancre opens the response window; other powers refresh the actor's turn (same
        deadline) so the new cards and Destellos are in their view."""
        pos = self._player(cmd.player_id)
        power = parse_power(cmd.power)
        if power is Power.SCEAU_PROTECTEUR:
            self._close(pos, block=True)
            return
        target = -1
        if cmd.target_seat is not None:
            found = self.table.position(cmd.target_seat) if type(cmd.target_seat) is int else None
            if found is None:
                raise PowerError("invalid_target", f"seat {cmd.target_seat!r} is not in the hand")
            target = found
        card = parse_card(cmd.card) if cmd.card is not None else None
        assert self.hand is not None
        nh, events = use_power(self.hand, pos, power, target=target, card=card)
        t = self.table
        self.hand = nh
        t.hand = nh.hand
        t.publish_engine(events)
        if nh.window is not None:
            self._open(nh.window.caster, nh.window.target)
        else:
            t.refresh_turn()

    def respond(self, cmd: RespondAncre) -> None:
        """``RespondAncre``: the target blocks (Sceau Protecteur) or passes."""
        pos = self._player(cmd.player_id)
        if type(cmd.block) is not bool:
            raise TableError("bad_answer", "block is true (Sceau Protecteur) or false (pass)")
        self._close(pos, block=cmd.block)

    def on_expired(self, msg: AncreExpired) -> None:
        """The window ran out: the Ancre applies and costs the target nothing."""
        if msg.token != self._token or self.hand is None or self.hand.window is None:
            return
        self._close(self.hand.window.target, block=False)

    # -- the response window ------------------------------------------------------------------

    def _open(self, caster: int, target: int) -> None:
        t = self.table
        assert t.plan is not None
        self._paused = t.pause_decision()
        remaining = self._paused.remaining
        self.closes_at = self._paused.at + RESPONSE_WINDOW_SECONDS
        self._token = t.next_token()
        token = self._token
        self._timer = t.clock.call_at(self.closes_at, lambda: t.wake(AncreExpired(token)))
        target_seat = t.plan.seats[target]
        t.publish(
            AncreWindowOpened(
                t.plan.seats[caster],
                target_seat,
                t.seats[target_seat].player_id,
                self.closes_at,
                remaining,
            )
        )

    def _close(self, player: int, *, block: bool) -> None:
        assert self.hand is not None
        nh, events = respond(self.hand, player, block=block)  # a refusal changes nothing
        t = self.table
        self.hand = nh
        t.hand = nh.hand
        self._cancel_window()
        t.publish_engine(events)
        if self._paused is not None:
            t.resume_decision(self._paused)
            self._paused = None
        t.drive()

    def _cancel_window(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._token = 0
        self.closes_at = None
