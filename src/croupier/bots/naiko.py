"""Naiko powers for bots (R-NAIKO-9, R-BOT-1): simple heuristics over the bot's own view.

A bot uses powers by the same rules as everyone (the table validates them); it sees only
its seat's events: its cards, the public Naiko state (:class:`~croupier.table.events.
NaikoStatus`, carried by its turn), the public actions (to count raises) and its own
Coup d'Œil result (a private :class:`~croupier.engine.naiko.Peeked`).

* **Échange de Manche** pre-flop, before acting, with a weak off-suit unconnected hand:
  the lower card goes.
* **Ancre Courte** against an opponent yet to act this round who has been aggressive
  (raised in this hand, or often in the hands seen), when the bot means to play on.
* **Coup d'Œil** with a flush or straight draw on the flop or the turn, or facing a
  sizeable bet with a marginal hand (a close decision); the card seen then weighs in
  (:func:`adjust_for_peek`).
* **Sceau Protecteur** against an Ancre when it matters: a strong hand and chips behind.

>>> from croupier.engine.cards import parse_cards as p
>>> weak_offsuit_card(p("9c3d")), weak_offsuit_card(p("9c8d")), weak_offsuit_card(p("Kc3d"))
(Card('3d'), None, None)
>>> has_draw(p("Ah5h"), p("Kh9h2c")), has_draw(p("9c8d"), p("7h6s2c")), has_draw(p("Ac2d"), p("9h7s4c"))
(True, True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from croupier.bots.strategies import Decision, hand_bucket
from croupier.engine.actions import ActionKind
from croupier.engine.cards import Card
from croupier.engine.events import Acted, StreetStarted
from croupier.engine.game import Game
from croupier.engine.naiko import COSTS, NORMAL_ACTIVATIONS_PER_ROUND, Peeked, Power
from croupier.engine.views import TableView
from croupier.table.events import HandBegan, NaikoStatus, TableEvent

__all__ = [
    "NaikoMemory",
    "PowerChoice",
    "adjust_for_peek",
    "can_use",
    "choose_power",
    "has_draw",
    "should_block",
    "weak_offsuit_card",
]

RIVER = 3


@dataclass(frozen=True, slots=True)
class PowerChoice:
    """A power to use: ``target`` is an engine position (Ancre), ``card`` a hole card
    (Échange)."""

    power: Power
    target: int = -1
    card: Card | None = None


class NaikoMemory:
    """What a bot remembers from its own event stream: the seats and players of the hand,
    who acted this round, raises (this hand by position, and across hands by player) and
    its own Coup d'Œil result."""

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self.players: tuple[str, ...] = ()
        self.seats: tuple[int, ...] = ()
        self.acted: set[int] = set()
        self.hand_raises: Counter[int] = Counter()
        self.raises: Counter[str] = Counter()
        self.hands: Counter[str] = Counter()
        self.street = 0
        self.peek: tuple[int, Card] | None = None
        """(street when peeked, the card seen)."""

    @property
    def position(self) -> int | None:
        return self.players.index(self.player_id) if self.player_id in self.players else None

    def observe(self, event: TableEvent) -> None:
        data = event.data
        if isinstance(data, HandBegan):
            self.players, self.seats = data.players, data.seats
            self.acted, self.hand_raises, self.street, self.peek = set(), Counter(), 0, None
            self.hands.update(data.players)
        elif isinstance(data, StreetStarted):
            self.acted, self.street = set(), data.street
        elif isinstance(data, Acted):
            self.acted.add(data.player)
            if data.action is ActionKind.RAISE and 0 <= data.player < len(self.players):
                self.hand_raises[data.player] += 1
                self.raises[self.players[data.player]] += 1
        elif isinstance(data, Peeked) and data.card is not None and data.player == self.position:
            self.peek = (self.street, data.card)

    def aggression(self, position: int) -> float:
        """Raises this hand, plus the share of hands seen in which the player raised."""
        if not 0 <= position < len(self.players):
            return 0.0
        who = self.players[position]
        seen = max(self.hands[who], 1)
        return self.hand_raises[position] + self.raises[who] / seen

    def aggressive(self, position: int) -> bool:
        return self.hand_raises[position] >= 1 or (
            self.hands[self.players[position]] >= 3 and self.aggression(position) >= 0.5
        )


def can_use(status: NaikoStatus, position: int, power: Power) -> bool:
    """Whether ``power`` looks usable now by ``position`` (the table has the last word)."""
    if power.value not in status.carrousel or power.value in status.used[position]:
        return False
    if status.destellos[position] < COSTS[power]:
        return False
    if power is Power.SCEAU_PROTECTEUR:
        return status.window is not None and status.window[1] == position
    return (
        status.window is None
        and status.turn_used != position
        and status.activations < NORMAL_ACTIVATIONS_PER_ROUND
    )


def weak_offsuit_card(cards: Sequence[Card]) -> Card | None:
    """The card to exchange from a weak off-suit unconnected two-card hand (no pair, no
    card above ten, ranks at least four apart), else ``None``."""
    if len(cards) != 2:
        return None
    a, b = sorted(cards, key=lambda c: c.rank)
    if a.suit == b.suit or a.rank == b.rank or b.rank >= 9 or b.rank - a.rank < 4:
        return None
    return a


def has_draw(cards: Sequence[Card], board: Sequence[Card]) -> bool:
    """A flush draw (four of a suit, one of them ours) or a straight draw (four ranks of a
    five-rank window, one of them ours) on the flop or the turn."""
    if len(board) not in (3, 4):
        return False
    every = (*cards, *board)
    suits = Counter(c.suit for c in every)
    if any(n == 4 and any(c.suit == s for c in cards) for s, n in suits.items()):
        return True
    ranks = {c.rank for c in every} | ({-1} if any(c.rank == 12 for c in every) else set())
    mine = {c.rank for c in cards} | ({-1} if any(c.rank == 12 for c in cards) else set())
    for low in range(-1, 9):
        window = set(range(low, low + 5))
        if len(window & ranks) == 4 and window & mine:
            return True
    return False


def _own(view: TableView, position: int) -> tuple[Card, ...]:
    return tuple(c for c in view.players[position].cards if c is not None)


def choose_power(
    view: TableView, position: int, status: NaikoStatus, memory: NaikoMemory, game: Game
) -> PowerChoice | None:
    """The power the bot uses at the start of its turn, if any (see the module docstring)."""
    legal = view.legal
    if legal is None or legal.show_or_muck or view.phase != "betting":
        return None
    cards = _own(view, position)
    bucket = hand_bucket(cards, view.board, game)
    if view.street == 0 and position not in memory.acted:
        weak = weak_offsuit_card(cards)
        if weak is not None and can_use(status, position, Power.ECHANGE_DE_MANCHE):
            return PowerChoice(Power.ECHANGE_DE_MANCHE, card=weak)
    if bucket >= 1 and can_use(status, position, Power.ANCRE_COURTE):
        targets = [
            q
            for q, p in enumerate(view.players)
            if q != position
            and not p.folded
            and p.stack > 0
            and q not in memory.acted
            and q not in status.anchored
            and memory.aggressive(q)
        ]
        if targets:
            return PowerChoice(Power.ANCRE_COURTE, target=max(targets, key=memory.aggression))
    if view.street < RIVER and can_use(status, position, Power.COUP_D_OEIL):
        close = bucket == 1 and legal.call > 0 and 4 * legal.call >= view.pot
        if has_draw(cards, view.board) or close:
            return PowerChoice(Power.COUP_D_OEIL)
    return None


def should_block(view: TableView, position: int, status: NaikoStatus, game: Game) -> bool:
    """Block an Ancre with Sceau Protecteur when it matters: a strong hand and chips behind."""
    if not can_use(status, position, Power.SCEAU_PROTECTEUR):
        return False
    cards = _own(view, position)
    return hand_bucket(cards, view.board, game) >= 2 and view.players[position].stack > view.pot


def adjust_for_peek(
    decision: Decision, view: TableView, position: int, memory: NaikoMemory, game: Game
) -> Decision:
    """Weigh the card seen with Coup d'Œil this round: facing a bet, call when it makes a
    good hand, fold a marginal hand it does not help."""
    legal = view.legal
    if memory.peek is None or legal is None or memory.peek[0] != view.street or legal.call <= 0:
        return decision
    cards = _own(view, position)
    now = hand_bucket(cards, view.board, game)
    later = hand_bucket(cards, (*view.board, memory.peek[1]), game)
    if later >= 2 and decision.kind == "fold" and legal.can_call:
        return Decision("call")
    if later <= 1 and now <= 1 and decision.kind == "call":
        return Decision("fold")
    return decision
