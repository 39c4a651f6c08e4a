"""Seats: who sits where, with how many chips, and what they owe (R-SEAT-1, R-SEAT-3).

A :class:`Seat` is a frozen value; the table actor is its only owner and replaces seats
with :func:`dataclasses.replace`. ``stack`` is the chips the player owns at the table
*outside* any hand in progress: during a hand it stays at the hand's starting value and
is updated from the engine's result at settlement, so a journaled seat map never holds
chips that are still in play.

>>> seats = {0: Seat(0, "a", "A", stack=100)}
>>> first_free(seats, 3), first_free({**seats, 1: Seat(1, "b", "B"), 2: Seat(2, "c", "C")}, 3)
(1, None)
>>> Seat(4, "bot-1", "BOT Ann", is_bot=True).display_name
'BOT Ann'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.table.results import TableError

if TYPE_CHECKING:
    from croupier.table.config import TableConfig

__all__ = ["Seat", "check_buy_in", "choose_seat", "first_free", "label_bot"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One occupied seat.

    ``waiting_bb``: a new player waiting for the big blind; ``owes_bb``/``owes_sb``: blinds
    missed while sitting out (R-SEAT-3); ``post_now``: the player chose to post what is owed
    at the next hand rather than wait; ``disconnected_at``: the clock time the connection
    dropped (``None``: connected); ``leaving``: stands up when the hand ends;
    ``destellos``: Naiko mode's Destellos held at this table between hands (R-NAIKO-1:
    kept while seated, sitting out included, lost with the seat).
    """

    seat: int
    player_id: str
    name: str = ""
    is_bot: bool = False
    stack: int = 0
    sitting_out: bool = False
    busted: bool = False
    waiting_bb: bool = False
    owes_bb: bool = False
    owes_sb: bool = False
    post_now: bool = False
    disconnected_at: float | None = None
    leaving: bool = False
    time_bank: float = 0.0
    destellos: int = 0

    @property
    def display_name(self) -> str:
        return self.name or self.player_id

    @property
    def connected(self) -> bool:
        return self.disconnected_at is None

    @property
    def owes(self) -> bool:
        return self.waiting_bb or self.owes_bb

    def ready(self) -> bool:
        """Can be dealt in (blind debts aside): in, with chips, not leaving."""
        return not self.sitting_out and self.stack > 0 and not self.leaving


def label_bot(name: str) -> str:
    """Bots are labelled BOT (R-BOT-1).

    >>> label_bot("Ann"), label_bot("BOT Ann")
    ('BOT Ann', 'BOT Ann')
    """
    return name if "BOT" in name else f"BOT {name}".strip()


def first_free(seats: Mapping[int, Seat], count: int) -> int | None:
    """The lowest free seat number, or ``None`` when the table is full."""
    for i in range(count):
        if i not in seats:
            return i
    return None


def choose_seat(seats: Mapping[int, Seat], count: int, wanted: int | None) -> int:
    """The seat a newcomer gets: ``wanted`` if valid and free, else the first free one.

    >>> choose_seat({0: Seat(0, "a")}, 3, None), choose_seat({}, 3, 2)
    (1, 2)
    >>> choose_seat({0: Seat(0, "a")}, 3, 0)
    Traceback (most recent call last):
    ...
    croupier.table.results.TableError: seat 0 is taken
    """
    if wanted is not None:
        if type(wanted) is not int or not 0 <= wanted < count:
            raise TableError("bad_seat", f"seats are 0 to {count - 1}, not {wanted!r}")
        if wanted in seats:
            raise TableError("seat_taken", f"seat {wanted} is taken")
        return wanted
    free = first_free(seats, count)
    if free is None:
        raise TableError("table_full", "every seat is taken")
    return free


def check_buy_in(config: TableConfig, amount: int, current: int) -> None:
    """Refuse ``amount`` chips added to ``current`` outside the table's buy-in (R-SEAT-1)."""
    if type(amount) is not int or amount <= 0:
        raise TableError("bad_amount", f"a buy-in is a positive whole number, not {amount!r}")
    if current + amount < config.min_buy_in:
        raise TableError(
            "buy_in_too_small", f"the minimum buy-in is {config.min_buy_in} (R-SEAT-1)"
        )
    if config.buy_in_max and current + amount > config.buy_in_max:
        raise TableError(
            "buy_in_too_large",
            f"the maximum is {config.buy_in_max} at the table; you may add at most"
            f" {max(config.buy_in_max - current, 0)}",
        )
