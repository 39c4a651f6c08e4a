"""Player actions (small frozen values) and the legal-action summary (R-BET-8).

Amounts are *raise-to* totals for the current betting round, as in PHH and PokerKit:
``raise_to(2, 12)`` makes player 2's bet in this round 12 chips in all.

>>> raise_to(2, 12)
Action(kind=<ActionKind.RAISE: 'raise'>, player=2, amount=12, cards=())
>>> str(fold(0)), str(raise_to(1, 8)), str(draw(3, parse_cards("2c 7d")))
('p1 fold', 'p2 raise to 8', 'p4 draw 2c7d')

The betting decisions by name, as the wire, the table commands and the bots spell them, are
one vocabulary, :data:`BET_KINDS`; :func:`betting` makes the action from the name:

>>> BET_KINDS[:4]
('fold', 'check', 'call', 'raise')
>>> betting("raise", 1, 12), betting("call", 0, 99)
(Action(kind=<ActionKind.RAISE: 'raise'>, player=1, amount=12, cards=()), Action(kind=<ActionKind.CALL: 'call'>, player=0, amount=0, cards=()))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal, get_args

from croupier.engine.cards import Card, format_cards, parse_cards

__all__ = [
    "BET_KINDS",
    "Action",
    "ActionKind",
    "BetKind",
    "LegalActions",
    "accept_split",
    "betting",
    "bring_in",
    "call",
    "check",
    "decline_split",
    "draw",
    "fold",
    "muck",
    "offer_split",
    "raise_to",
    "show",
]


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"
    """Bet, raise or complete: ``amount`` is the player's total bet in the round after it."""
    BRING_IN = "bring_in"
    DRAW = "draw"
    """Discard ``cards`` (none: stand pat) and receive as many new ones."""
    SHOW = "show"
    MUCK = "muck"
    OFFER_SPLIT = "offer_split"
    """32-Card Draw: offer to split the pot after the draw (R-DRAW-5)."""
    ACCEPT_SPLIT = "accept_split"
    DECLINE_SPLIT = "decline_split"


BetKind = Literal[
    "fold", "check", "call", "raise", "bring_in", "offer_split", "accept_split", "decline_split"
]
"""A betting decision by name: the ``act`` message of the protocol, the table's ``Act``
command and the bots' decisions all use these names (the values of :class:`ActionKind`)."""

BET_KINDS: Final[tuple[BetKind, ...]] = get_args(BetKind)
"""Every :data:`BetKind`, in the order of the type."""

if not {k.value for k in ActionKind} >= set(BET_KINDS):  # pragma: no cover - import-time check
    raise AssertionError("BetKind names an action the engine does not have")


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    player: int
    amount: int = 0
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        text = f"p{self.player + 1} {self.kind.value}"
        if self.kind is ActionKind.RAISE:
            text += f" to {self.amount}"
        elif self.kind is ActionKind.DRAW:
            text += f" {format_cards(self.cards)}" if self.cards else " (stand pat)"
        return text


def fold(player: int) -> Action:
    return Action(ActionKind.FOLD, player)


def check(player: int) -> Action:
    return Action(ActionKind.CHECK, player)


def call(player: int) -> Action:
    return Action(ActionKind.CALL, player)


def raise_to(player: int, amount: int) -> Action:
    """Bet or raise so that the player's bet in this round totals ``amount``."""
    return Action(ActionKind.RAISE, player, amount)


def bring_in(player: int) -> Action:
    return Action(ActionKind.BRING_IN, player)


def draw(player: int, discards: Iterable[int] | str = ()) -> Action:
    cards = parse_cards(discards) if isinstance(discards, str) else tuple(Card(c) for c in discards)
    return Action(ActionKind.DRAW, player, len(cards), cards)


def offer_split(player: int) -> Action:
    return Action(ActionKind.OFFER_SPLIT, player)


def accept_split(player: int) -> Action:
    return Action(ActionKind.ACCEPT_SPLIT, player)


def decline_split(player: int) -> Action:
    return Action(ActionKind.DECLINE_SPLIT, player)


def betting(kind: str, player: int, amount: int = 0) -> Action:
    """The betting decision ``kind`` (one of :data:`BET_KINDS`) of ``player``; ``amount`` is
    the raise-to total of a ``raise`` and is ignored otherwise. An unknown name raises
    :class:`ValueError`."""
    if kind not in BET_KINDS:
        raise ValueError(f"unknown betting action {kind!r}")
    action_kind = ActionKind(kind)
    return Action(action_kind, player, amount if action_kind is ActionKind.RAISE else 0)


def show(player: int) -> Action:
    return Action(ActionKind.SHOW, player)


def muck(player: int) -> Action:
    return Action(ActionKind.MUCK, player)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What ``player`` may do now, with the amounts (R-BET-8).

    ``call`` is the chips a call adds (0 if nothing to call or calling is not possible:
    see ``can_call``); ``min_raise``/``max_raise`` bound a legal raise-to total (both 0 if
    raising is not possible); ``max_discards`` bounds a draw; ``show_or_muck`` offers the
    showdown choice.
    """

    player: int
    can_fold: bool = False
    can_check: bool = False
    can_call: bool = False
    call: int = 0
    can_raise: bool = False
    min_raise: int = 0
    max_raise: int = 0
    can_bring_in: bool = False
    bring_in: int = 0
    can_draw: bool = False
    max_discards: int = 0
    show_or_muck: bool = False
    can_offer_split: bool = False
    """32-Card Draw: the first player after the draw may offer to split (R-DRAW-5)."""
    split_answer: bool = False
    """A split is offered: accept or decline."""
    call_above: int = 0
    """R-BET-9 at ``room`` tables (``tda_half_raise``; 0 when strict): a raise-to amount
    above this (the current bet) and below ``round_up_from`` counts as a call; from
    ``round_up_from`` up to ``min_raise`` it is raised to ``min_raise``."""
    round_up_from: int = 0

    @property
    def kinds(self) -> tuple[ActionKind, ...]:
        out: list[ActionKind] = []
        if self.can_fold:
            out.append(ActionKind.FOLD)
        if self.can_check:
            out.append(ActionKind.CHECK)
        if self.can_call:
            out.append(ActionKind.CALL)
        if self.can_bring_in:
            out.append(ActionKind.BRING_IN)
        if self.can_raise:
            out.append(ActionKind.RAISE)
        if self.can_draw:
            out.append(ActionKind.DRAW)
        if self.show_or_muck:
            out.extend((ActionKind.SHOW, ActionKind.MUCK))
        if self.can_offer_split:
            out.append(ActionKind.OFFER_SPLIT)
        if self.split_answer:
            out.extend((ActionKind.ACCEPT_SPLIT, ActionKind.DECLINE_SPLIT))
        return tuple(out)
