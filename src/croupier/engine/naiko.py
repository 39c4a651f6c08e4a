"""Naiko mode (SPEC §9): Destellos, the Carrousel and the four powers, on top of a hand.

A :class:`NaikoHand` wraps a Hold'em :class:`~croupier.engine.state.HandState` with the
Naiko bookkeeping. Poker actions go through :func:`act`; powers through
:func:`use_power`; the target of an Ancre Courte answers with :func:`respond` (Sceau
Protecteur or pass) inside the response window, which the table times (8 s) and closes
with ``respond(…, block=False)`` on expiry. Everything is pure: each call returns a new
value and events, or raises :class:`PowerError` (a ``ValueError`` with a ``code``) and
changes nothing.

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.actions import call
>>> g = Game.of("nlhe", blinds=(1, 2), rules="naiko")
>>> deck = parse_cards("7c As 2d Kd Qs 9h 8h 7h 6s 5c 4d 3c")
>>> nh, ev = start_naiko_hand(g, (100, 100), deck, destellos=(2, 0), carrousel=0)
>>> nh.destellos, nh.carrousel
((3, 1), (<Power.COUP_D_OEIL: 'coup_d_oeil'>, <Power.ECHANGE_DE_MANCHE: 'echange_de_manche'>, <Power.ANCRE_COURTE: 'ancre_courte'>))
>>> nh, ev = use_power(nh, 1, Power.COUP_D_OEIL)
>>> ev[-1].card, nh.destellos  # the first flop card (after the burn)
(Card('9h'), (3, 0))
>>> nh, ev = act(nh, call(1))
>>> nh, ev = use_power(nh, 0, Power.ECHANGE_DE_MANCHE, card=parse_cards("7c")[0])
>>> nh.hand.hole_cards[0], nh.destellos  # 7c out, the top of the stub in
((Card('Qs'), Card('2d')), (1, 0))
>>> from croupier.engine.actions import check
>>> nh, ev = act(nh, check(0))
>>> nh.hand.board  # the exchange moved the deck on: the peeked 9h is now burnt
(Card('8h'), Card('7h'), Card('6s'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar, Final

from croupier.engine.actions import Action
from croupier.engine.cards import Card
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import Event
from croupier.engine.game import Game
from croupier.engine.state import (
    HandState,
    Phase,
    apply,
    cap_raise_to_pot,
    exchange_hole_card,
    start_hand,
)

__all__ = [
    "CARROUSELS",
    "COSTS",
    "MAX_DESTELLOS",
    "NORMAL_ACTIVATIONS_PER_ROUND",
    "RESPONSE_WINDOW_SECONDS",
    "AncreWindow",
    "NaikoHand",
    "Peeked",
    "Power",
    "PowerError",
    "PowerOption",
    "PowerResolved",
    "PowerUsed",
    "act",
    "can_answer",
    "check_power",
    "peek_of",
    "power_options",
    "respond",
    "start_naiko_hand",
    "use_power",
]


class Power(StrEnum):
    COUP_D_OEIL = "coup_d_oeil"
    ECHANGE_DE_MANCHE = "echange_de_manche"
    ANCRE_COURTE = "ancre_courte"
    SCEAU_PROTECTEUR = "sceau_protecteur"


COSTS: Final = {
    Power.COUP_D_OEIL: 1,
    Power.ECHANGE_DE_MANCHE: 2,
    Power.ANCRE_COURTE: 2,
    Power.SCEAU_PROTECTEUR: 1,
}
"""Destellos each power costs (R-NAIKO-5..8)."""
MAX_DESTELLOS: Final = 3
NORMAL_ACTIVATIONS_PER_ROUND: Final = 3
RESPONSE_WINDOW_SECONDS: Final = 8
CARROUSELS: Final[tuple[tuple[Power, ...], ...]] = (
    (Power.COUP_D_OEIL, Power.ECHANGE_DE_MANCHE, Power.ANCRE_COURTE),
    (Power.COUP_D_OEIL, Power.ANCRE_COURTE, Power.SCEAU_PROTECTEUR),
    (Power.ECHANGE_DE_MANCHE, Power.ANCRE_COURTE, Power.SCEAU_PROTECTEUR),
)
"""The three 3-of-4 sets in which Sceau Protecteur never comes without Ancre Courte
(R-NAIKO-2); a hand's carrousel is drawn uniformly among them."""


class PowerError(IllegalActionError):
    """A refused power: nothing is paid (R-NAIKO-4). ``code`` says why."""

    code = "power_refused"


@dataclass(frozen=True, slots=True)
class PowerUsed(Event):
    """A power was activated (public: everyone sees who used what, on whom)."""

    type: ClassVar[str] = "power_used"
    player: int
    power: Power
    cost: int
    target: int = -1


@dataclass(frozen=True, slots=True)
class Peeked(Event):
    """The private result of a Coup d'Œil: only ``player`` may see ``card``."""

    type: ClassVar[str] = "peeked"
    player: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class PowerResolved(Event):
    """The end of an Ancre's response window: ``blocked`` by a Sceau, or applied."""

    type: ClassVar[str] = "power_resolved"
    caster: int
    target: int
    blocked: bool


@dataclass(frozen=True, slots=True)
class AncreWindow:
    """An Ancre Courte waiting for its target's answer (R-NAIKO-8)."""

    caster: int
    target: int


@dataclass(frozen=True, slots=True)
class NaikoHand:
    hand: HandState
    carrousel: tuple[Power, ...]
    destellos: tuple[int, ...]
    used: tuple[frozenset[Power], ...]
    round: tuple[int, str]
    """(street, phase) of the betting round the counters below belong to."""
    activations: int = 0
    anchored: frozenset[int] = frozenset()
    turn_used: int = -1
    """The player who activated a power during the current turn (one per turn)."""
    window: AncreWindow | None = None
    peeks: tuple[tuple[int, int, Card | None], ...] = ()
    """Each Coup d'Œil as ``(player, street, card)``: a page that resyncs shows its own peek
    again while the street it was made on lasts."""


@dataclass(frozen=True, slots=True)
class PowerOption:
    """One power of the carrousel for one player now (sent with each turn, like the legal
    actions): ``usable`` or not and why (``reason``: a :class:`PowerError` code, with
    ``wrong_moment`` made precise as ``not_turn``, ``one_per_turn``, ``river`` or
    ``preflop``), its ``cost`` and, for Ancre Courte, the engine positions it may target."""

    power: Power
    cost: int
    usable: bool
    reason: str = ""
    targets: tuple[int, ...] = ()


def start_naiko_hand(
    game: Game,
    stacks: tuple[int, ...],
    deck: tuple[Card, ...] | list[Card],
    *,
    destellos: tuple[int, ...],
    carrousel: int,
    blinds: tuple[int, ...] | None = None,
    dead: tuple[int, ...] | None = None,
    entropy: int = 0,
) -> tuple[NaikoHand, list[Event]]:
    """Deal a Naiko hand. ``destellos`` are what each player holds before the deal (the
    table keeps them between hands, R-NAIKO-1); each player dealt in earns one, up to 3.
    ``carrousel`` indexes :data:`CARROUSELS` (the table draws it uniformly)."""
    if game.variant.key != "holdem":
        raise PowerError("naiko_holdem_only", "Naiko mode is played in Texas Hold'em only")
    if not 0 <= carrousel < len(CARROUSELS):
        raise PowerError("bad_carrousel", f"carrousel index must be 0..{len(CARROUSELS) - 1}")
    if len(destellos) != len(stacks) or any(d < 0 for d in destellos):
        raise PowerError("bad_destellos", "one non-negative Destellos count per player")
    hand, events = start_hand(game, stacks, deck, blinds=blinds, dead=dead, entropy=entropy)
    nh = NaikoHand(
        hand=hand,
        carrousel=CARROUSELS[carrousel],
        destellos=tuple(min(MAX_DESTELLOS, d + 1) for d in destellos),
        used=tuple(frozenset() for _ in stacks),
        round=(hand.street, hand.phase.value),
    )
    return nh, events


def _fresh_round(nh: NaikoHand) -> NaikoHand:
    """Reset the per-round counters when the betting round has changed."""
    key = (nh.hand.street, nh.hand.phase.value)
    if key == nh.round:
        return nh
    return replace(nh, round=key, activations=0, anchored=frozenset(), turn_used=-1)


def act(nh: NaikoHand, action: Action) -> tuple[NaikoHand, list[Event]]:
    """A poker action. Refused while an Ancre's response window is open."""
    if nh.window is not None:
        raise PowerError(
            "response_pending",
            f"waiting for player {nh.window.target + 1} to answer the Ancre Courte",
        )
    hand, events = apply(nh.hand, action)
    return _fresh_round(replace(nh, hand=hand, turn_used=-1)), events


def check_power(nh: NaikoHand, player: int, power: Power, target: int = -1) -> None:
    """Raise :class:`PowerError` with the reason if ``player`` may not use ``power`` now."""
    nh = _fresh_round(nh)
    hand = nh.hand
    if power not in nh.carrousel:
        raise PowerError("not_in_carrousel", f"{power.value} is not in this hand's carrousel")
    if not 0 <= player < hand.n or hand.folded[player] or hand.is_over:
        raise PowerError("not_in_hand", "only a player in the hand can use a power")
    if power in nh.used[player]:
        raise PowerError("already_used", f"{power.value} was already used by you in this hand")
    if nh.destellos[player] < COSTS[power]:
        raise PowerError(
            "not_enough_destellos",
            f"{power.value} costs {COSTS[power]} Destellos; you have {nh.destellos[player]}",
        )
    if power is Power.SCEAU_PROTECTEUR:
        if nh.window is None or nh.window.target != player:
            raise PowerError(
                "wrong_moment", "Sceau Protecteur answers only an Ancre Courte aimed at you"
            )
        return
    if nh.window is not None:
        raise PowerError("response_pending", "an Ancre Courte is waiting for its answer")
    if hand.phase is not Phase.BETTING or hand.actor != player:
        raise PowerError("wrong_moment", "powers are used on your turn, before your action")
    if nh.turn_used == player:
        raise PowerError("wrong_moment", "one power per turn")
    if nh.activations >= NORMAL_ACTIVATIONS_PER_ROUND:
        raise PowerError("table_quota", "the table has used its 3 powers for this betting round")
    if power is Power.COUP_D_OEIL and hand.street >= len(hand.game.variant.streets) - 1:
        raise PowerError("wrong_moment", "Coup d'Œil cannot be used on the river")
    if power is Power.ECHANGE_DE_MANCHE and (hand.street != 0 or hand._acted[player] >= 0):
        raise PowerError(
            "wrong_moment", "Échange de Manche is pre-flop, before your first betting action"
        )
    if power is Power.ANCRE_COURTE:
        ok = (
            0 <= target < hand.n
            and target != player
            and not hand.folded[target]
            and hand._stacks[target] > 0
            and hand._acted[target] < 0
        )
        if not ok:
            raise PowerError(
                "invalid_target",
                "Ancre Courte targets an opponent who can act and has not acted this round",
            )
        if target in nh.anchored:
            raise PowerError("invalid_target", "that player already received an Ancre this round")


def can_answer(nh: NaikoHand, target: int) -> bool:
    """Whether ``target`` can block an Ancre with a Sceau Protecteur: in the carrousel,
    affordable and not yet used this hand (R-NAIKO-8)."""
    return (
        Power.SCEAU_PROTECTEUR in nh.carrousel
        and nh.destellos[target] >= COSTS[Power.SCEAU_PROTECTEUR]
        and Power.SCEAU_PROTECTEUR not in nh.used[target]
    )


def _reason(nh: NaikoHand, player: int, power: Power, exc: PowerError) -> str:
    if exc.code != "wrong_moment":
        return exc.code
    if power is Power.SCEAU_PROTECTEUR:
        return "no_ancre"
    hand = nh.hand
    if hand.phase is not Phase.BETTING or hand.actor != player:
        return "not_turn"
    if nh.turn_used == player:
        return "one_per_turn"
    return "river" if power is Power.COUP_D_OEIL else "preflop"


def power_options(nh: NaikoHand, player: int) -> tuple[PowerOption, ...]:
    """What ``player`` may do with each power of the carrousel now, on whom and for how
    much (R-NAIKO-4..8): the server sends it with each turn; the client shows exactly that.
    Sceau Protecteur is usable only by the target of an open Ancre window."""
    nh = _fresh_round(nh)
    out: list[PowerOption] = []
    for power in nh.carrousel:
        cost = COSTS[power]
        if power is Power.ANCRE_COURTE:
            targets: list[int] = []
            reason = "invalid_target"
            for target in range(nh.hand.n):
                if target == player:
                    continue
                try:
                    check_power(nh, player, power, target)
                except PowerError as exc:
                    if exc.code != "invalid_target":  # not about the target: same for all
                        reason = _reason(nh, player, power, exc)
                        break
                else:
                    targets.append(target)
            if targets:
                out.append(PowerOption(power, cost, True, "", tuple(targets)))
            else:
                out.append(PowerOption(power, cost, False, reason))
            continue
        try:
            check_power(nh, player, power)
        except PowerError as exc:
            out.append(PowerOption(power, cost, False, _reason(nh, player, power, exc)))
        else:
            out.append(PowerOption(power, cost, True))
    return tuple(out)


def peek_of(nh: NaikoHand, player: int) -> tuple[Card | None, ...]:
    """The cards ``player`` peeked at with Coup d'Œil on the current street."""
    street = nh.hand.street
    return tuple(card for p, s, card in nh.peeks if p == player and s == street)


def use_power(
    nh: NaikoHand,
    player: int,
    power: Power,
    *,
    target: int = -1,
    card: Card | None = None,
) -> tuple[NaikoHand, list[Event]]:
    """Activate ``power`` (Sceau Protecteur goes through :func:`respond`)."""
    nh = _fresh_round(nh)
    if power is Power.SCEAU_PROTECTEUR:
        return respond(nh, player, block=True)
    check_power(nh, player, power, target)
    cost = COSTS[power]
    hand = nh.hand
    events: list[Event] = []
    window = None
    anchored = nh.anchored
    peeks = nh.peeks
    if power is Power.ECHANGE_DE_MANCHE:
        if card is None or card not in hand.hole_cards[player]:
            raise PowerError("not_your_cards", "choose one of your hole cards to exchange")
        hand, drawn = exchange_hole_card(hand, player, card)
        events.append(PowerUsed(player, power, cost))
        events.extend(drawn)
    elif power is Power.COUP_D_OEIL:
        events.append(PowerUsed(player, power, cost))
        # The next street starts with a burn: the next card to come is the one after it.
        upcoming = hand.next_cards(2)
        peeked = upcoming[-1] if upcoming else None
        events.append(Peeked(player, peeked))
        peeks = (*peeks, (player, hand.street, peeked))
    else:
        events.append(PowerUsed(player, power, cost, target))
        anchored = anchored | {target}
        if can_answer(nh, target):
            window = AncreWindow(player, target)
        else:
            # Decision (R-NAIKO-8): the target cannot answer, so no window opens: the Ancre
            # applies at once and play does not pause.
            hand = cap_raise_to_pot(hand, target)
            events.append(PowerResolved(player, target, False))
    destellos = list(nh.destellos)
    destellos[player] -= cost
    used = list(nh.used)
    used[player] = used[player] | {power}
    return (
        replace(
            nh,
            hand=hand,
            destellos=tuple(destellos),
            used=tuple(used),
            activations=nh.activations + 1,
            anchored=anchored,
            turn_used=player,
            window=window,
            peeks=peeks,
        ),
        events,
    )


def respond(nh: NaikoHand, player: int, *, block: bool) -> tuple[NaikoHand, list[Event]]:
    """The Ancre's target answers: ``block`` with Sceau Protecteur (costs 1, R-NAIKO-8) or
    pass; the table calls ``respond(nh, target, block=False)`` when the window expires."""
    window = nh.window
    if window is None or window.target != player:
        raise PowerError("wrong_moment", "no Ancre Courte is waiting for your answer")
    if block:
        check_power(nh, player, Power.SCEAU_PROTECTEUR)
        destellos = list(nh.destellos)
        destellos[player] -= COSTS[Power.SCEAU_PROTECTEUR]
        used = list(nh.used)
        used[player] = used[player] | {Power.SCEAU_PROTECTEUR}
        events: list[Event] = [
            PowerUsed(player, Power.SCEAU_PROTECTEUR, COSTS[Power.SCEAU_PROTECTEUR], window.caster),
            PowerResolved(window.caster, player, True),
        ]
        return replace(nh, destellos=tuple(destellos), used=tuple(used), window=None), events
    hand = cap_raise_to_pot(nh.hand, player)
    return replace(nh, hand=hand, window=None), [PowerResolved(window.caster, player, False)]
