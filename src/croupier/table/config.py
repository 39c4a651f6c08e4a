"""Table configuration: a game (variant + structure + stakes + house rules) and the table's
own settings.

>>> from croupier.engine.game import Game
>>> cfg = TableConfig(Game.of("nlhe", blinds=(1, 2)), seats=6, buy_in_min=40, buy_in_max=200)
>>> cfg.rules.clock_seconds, cfg.has_blinds
(30, True)
>>> TableConfig(Game.of("nlhe", blinds=(1, 2)), seats=1)
Traceback (most recent call last):
...
croupier.table.results.TableError: a table has 2 to 10 seats for Texas Hold'em, not 1
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.engine.game import Game, Structure
from croupier.engine.rules import HouseRules
from croupier.engine.variants import ForcedBets
from croupier.table.results import TableError

__all__ = ["TableConfig"]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything a live table needs besides its players and its ports.

    ``buy_in_max`` 0 means no maximum (allowed only on limit tables: R-SEAT-1 asks for a
    maximum on No-Limit and Pot-Limit). ``bot_delay_seconds`` is how long a bot "thinks"
    on the table clock. ``history`` bounds the event history kept for resync.
    ``testing`` allows a non-live (seeded) shuffler (R-CARD-3). ``naiko`` plays Naiko
    mode (SPEC §9, Hold'em only); ``None`` (the default) means: the ``naiko`` profile on a
    Hold'em game.

    >>> TableConfig.default(Game.of("nlhe", blinds=(1, 2), rules="naiko")).naiko
    True
    >>> TableConfig.default(Game.of("plo", blinds=(1, 2), rules="naiko")).naiko
    False
    """

    game: Game
    seats: int = 6
    buy_in_min: int = 0
    buy_in_max: int = 0
    bots_allowed: bool = True
    between_hands_seconds: float = 3.0
    bot_delay_seconds: float = 1.0
    history: int = 128
    """Events kept for a reconnecting client's ``since`` (3 to 5 hands of six-max hold'em;
    older gaps get a snapshot). The events are kept pickled (``EventLog``); when they were
    live objects, 512 made the collections of a busy room 4× longer (docs/benchmarks.md)."""
    table_id: str = "table"
    testing: bool = False
    naiko: bool | None = None

    def __post_init__(self) -> None:
        v = self.game.variant
        holdem = v.key == "holdem"
        if self.naiko is None:
            object.__setattr__(self, "naiko", self.game.rules.name == "naiko" and holdem)
        elif self.naiko and not holdem:
            raise TableError("naiko_holdem_only", "Naiko mode is played in Texas Hold'em only")
        lo = max(2, v.min_players)
        hi = min(v.max_players, self.game.rules.max_seats)
        if not lo <= self.seats <= hi:
            raise TableError(
                "bad_seats", f"a table has {lo} to {hi} seats for {v.name}, not {self.seats}"
            )
        bb = max(self.game.stakes.big_blind, self.game.min_bet)
        buy_min = self.buy_in_min or 20 * bb
        if self.buy_in_min < 0 or self.buy_in_max < 0:
            raise TableError("bad_buy_in", "buy-in limits cannot be negative")
        if self.buy_in_max and self.buy_in_max < buy_min:
            raise TableError(
                "bad_buy_in", f"the maximum buy-in {self.buy_in_max} is below the minimum {buy_min}"
            )
        if not self.buy_in_max and self.game.structure in (
            Structure.NO_LIMIT,
            Structure.POT_LIMIT,
            Structure.HALF_POT_LIMIT,
        ):
            raise TableError("bad_buy_in", "no-limit and pot-limit tables need a maximum buy-in")
        if self.between_hands_seconds < 0 or self.bot_delay_seconds < 0 or self.history < 1:
            raise TableError("bad_config", "durations must be >= 0 and history >= 1")

    @classmethod
    def default(cls, game: Game, **kwargs: object) -> TableConfig:
        """Buy-ins of 40 to 200 big blinds unless given."""
        bb = max(game.stakes.big_blind, game.min_bet)
        kwargs.setdefault("buy_in_min", 40 * bb)
        kwargs.setdefault("buy_in_max", 200 * bb)
        return cls(game, **kwargs)  # type: ignore[arg-type]

    @property
    def rules(self) -> HouseRules:
        return self.game.rules

    @property
    def min_buy_in(self) -> int:
        bb = max(self.game.stakes.big_blind, self.game.min_bet)
        return self.buy_in_min or 20 * bb

    @property
    def has_blinds(self) -> bool:
        return self.game.variant.forced_bets is ForcedBets.BLINDS and self.game.stakes.big_blind > 0
