"""Helpers for the casino table tests: a stacked shuffler and a table on a fake clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.casino.bonus import arrange_deck
from croupier.casino.cashier import Cashier
from croupier.casino.table import CasinoTable, CasinoTableConfig
from croupier.engine.cards import Card, parse_cards
from croupier.table.casino_actor import CasinoActor
from croupier.table.clock import FakeClock


class StackedShuffler:
    """Deals the decks it is given, in order (then the last one again)."""

    live = False

    def __init__(self, *decks: Sequence[Card]) -> None:
        self.decks = [tuple(d) for d in decks]
        self.used = 0

    def push(self, deck: Sequence[Card]) -> None:
        self.decks.append(tuple(deck))

    def shuffle(self, items: Sequence[Any]) -> tuple[Any, ...]:
        deck = self.decks[min(self.used, len(self.decks) - 1)]
        self.used += 1
        return deck


def deck(holes: Sequence[str], dealer: str, board: str = "") -> tuple[Card, ...]:
    """A deck dealing these hole cards (players in seat order), dealer and board."""
    return arrange_deck(
        [parse_cards(h) for h in holes], parse_cards(dealer), parse_cards(board) if board else ()
    )


def table(
    cashier: Cashier, shuffler: Any, clock: FakeClock | None = None, **cfg: Any
) -> tuple[CasinoActor, FakeClock]:
    """A casino actor on a fake clock (call inside a running loop)."""
    clock = clock or FakeClock()
    config = CasinoTableConfig("casino-t", **cfg)
    return CasinoActor(CasinoTable(config, cashier, clock, shuffler)), clock
