"""The state of one hand: :class:`HandState` (a value: only the transitions of
:mod:`croupier.engine.state` build new ones) and its :class:`Phase`.

>>> Phase.BETTING.value, Phase.COMPLETE.value
('betting', 'complete')
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Final

from croupier.engine.cards import Card
from croupier.engine.errors import InconsistentStateError
from croupier.engine.events import HandEnded
from croupier.engine.game import Game

if TYPE_CHECKING:
    from croupier.engine import split as _split

__all__ = ["HandState", "Phase", "take"]


class Phase(StrEnum):
    BETTING = "betting"
    DRAWING = "drawing"
    SPLIT = "split"
    """32-Card Draw: a split offer is going round (R-DRAW-5)."""
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


class HandState:
    """One hand in progress. Treat it as immutable: only this module's transitions build new
    ones. Read-only views of the interesting parts are exposed as properties.

    A transition changes lists in a copy (:meth:`_clone`) and seals the state it returns
    (:meth:`_sealed`): its per-player lists become tuples. A tuple of numbers or flags is
    soon no longer tracked by the garbage collector, and an empty one is shared (issue #16:
    at 1,000 tables these lists were a third of what a middle collection scanned; sealed,
    a middle collection scans a quarter fewer objects).

    >>> from croupier.engine.cards import parse_cards
    >>> from croupier.engine.game import Game
    >>> from croupier.engine.state import start_hand
    >>> deck = parse_cards("AsKs QhQd 2c 7h8h9h 3d Td 4s Jc")
    >>> s, _ = start_hand(Game.of("nlhe", blinds=(1, 2)), (100, 100), deck)
    >>> type(s._stacks).__name__, s._draw_queue, type(s._clone()._stacks).__name__
    ('tuple', (), 'list')
    """

    __slots__ = (
        "_acted",
        "_aggressor",
        "_antes",
        "_bets",
        "_board",
        "_burnt",
        "_contrib",
        "_dead",
        "_dealt_street",
        "_discards",
        "_draw_queue",
        "_folded",
        "_hole",
        "_last_aggressor",
        "_mucked",
        "_no_raise",
        "_opener",
        "_pot_limited",
        "_reserved",
        "_show_queue",
        "_shown",
        "_stacks",
        "_stud",
        "_thrown",
        "_up",
        "_values",
        "actor",
        "bet_count",
        "current_bet",
        "deck",
        "deck_pos",
        "entropy",
        "game",
        "n",
        "nominal_blinds",
        "phase",
        "raise_inc",
        "result",
        "split",
        "start_stacks",
        "street",
    )

    game: Game
    n: int
    deck: tuple[Card, ...]
    deck_pos: int
    entropy: int
    street: int
    phase: Phase
    actor: int
    current_bet: int
    raise_inc: int
    bet_count: int
    start_stacks: tuple[int, ...]
    nominal_blinds: tuple[int, ...]
    result: HandEnded | None
    split: _split.SplitOffer | None
    _stud: int
    _thrown: list[tuple[Card, ...]]
    _values: dict[tuple[tuple[Card, ...], tuple[Card, ...]], tuple[int | None, ...]]
    _acted: list[int]
    _aggressor: int
    _antes: list[int]
    _bets: list[int]
    _board: list[Card]
    _burnt: list[Card]
    _contrib: list[int]
    _dead: list[int]
    _dealt_street: int
    _discards: list[Card]
    _draw_queue: list[int]
    _folded: list[bool]
    _hole: list[tuple[Card, ...]]
    _last_aggressor: int
    _mucked: list[bool]
    _no_raise: list[bool]
    _opener: int
    _pot_limited: list[bool]
    _reserved: list[int]
    _shown: list[bool]
    _show_queue: list[int]
    _stacks: list[int]
    _up: list[tuple[bool, ...]]

    # -- read-only views -------------------------------------------------------------
    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind (not in front of the player, not in the pot), including chips set
        aside by an all-in protection."""
        return tuple(a + b for a, b in zip(self._stacks, self._reserved, strict=True))

    @property
    def protected(self) -> tuple[bool, ...]:
        """Players treated as all-in by a disconnection protection (R-TIME-2)."""
        return tuple(r > 0 for r in self._reserved)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips bet in the current round."""
        return tuple(self._bets)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each player has put in during the hand (blinds, antes, dead, bets)."""
        return tuple(self._contrib)

    @property
    def pot(self) -> int:
        """All chips in the middle, including the current round's bets."""
        return sum(self._contrib)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def hole_cards(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(self._hole)

    @property
    def up_flags(self) -> tuple[tuple[bool, ...], ...]:
        return tuple(self._up)

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def burnt(self) -> tuple[Card, ...]:
        return tuple(self._burnt)

    @property
    def shown(self) -> tuple[bool, ...]:
        return tuple(self._shown)

    @property
    def mucked(self) -> tuple[bool, ...]:
        return tuple(self._mucked)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.COMPLETE

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Players who have not folded."""
        return tuple(i for i in range(self.n) if not self._folded[i])

    def next_cards(self, count: int = 1) -> tuple[Card, ...]:
        """The next ``count`` cards of the stub (for powers that look ahead; never shown
        to anyone but the power's user)."""
        return self.deck[self.deck_pos : self.deck_pos + count]

    def __eq__(self, other: object) -> bool:
        """Value equality over every field (tests use it to check refusals change nothing)."""
        if not isinstance(other, HandState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in HandState.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<HandState {self.game.variant.key} street={self.street} phase={self.phase.value}"
            f" actor={self.actor} stacks={self._stacks} bets={self._bets}>"
        )

    def _clone(self) -> HandState:
        """A copy whose lists can be changed without touching ``self`` (replaced below by a
        generated, unrolled version of the same copy, several times faster)."""
        new = HandState.__new__(HandState)
        for name in _SCALARS:
            setattr(new, name, getattr(self, name))
        for name in _LISTS:
            setattr(new, name, list(getattr(self, name)))
        return new

    def _sealed(self) -> HandState:
        """``self``, its lists turned into tuples: what a transition returns, never to be
        changed again (replaced below by a generated, unrolled version)."""
        for name in _LISTS:
            setattr(self, name, tuple(getattr(self, name)))
        return self


_LISTS: Final = (
    "_acted",
    "_antes",
    "_bets",
    "_board",
    "_burnt",
    "_contrib",
    "_dead",
    "_discards",
    "_draw_queue",
    "_folded",
    "_hole",
    "_mucked",
    "_no_raise",
    "_pot_limited",
    "_reserved",
    "_shown",
    "_show_queue",
    "_stacks",
    "_thrown",
    "_up",
)
_SCALARS: Final = tuple(s for s in HandState.__slots__ if s not in _LISTS)


def _unrolled(name: str, body: list[str]) -> object:
    namespace: dict[str, object] = {"_new": HandState.__new__, "HandState": HandState}
    exec("\n".join([f"def {name}(self):", *body]), namespace)
    return namespace[name]


HandState._clone = _unrolled(  # type: ignore[method-assign,assignment]
    "_clone",
    [
        "    new = _new(HandState)",
        *(f"    new.{name} = self.{name}" for name in _SCALARS),
        *(f"    new.{name} = [*self.{name}]" for name in _LISTS),
        "    return new",
    ],
)
HandState._sealed = _unrolled(  # type: ignore[method-assign,assignment]
    "_sealed", [*(f"    self.{name} = (*self.{name},)" for name in _LISTS), "    return self"]
)


def take(s: HandState, count: int) -> list[Card]:
    """Deal ``count`` cards from the front of the stub (R-CARD-4: never a card twice)."""
    if s.deck_pos + count > len(s.deck):
        raise InconsistentStateError(
            f"the deck ran out: {count} card(s) needed, {len(s.deck) - s.deck_pos} left"
        )
    out = list(s.deck[s.deck_pos : s.deck_pos + count])
    s.deck_pos += count
    return out
