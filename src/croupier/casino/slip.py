"""The betting slip of Texas Hold'em Bonus: chip buttons, clear and repeat (R-BONUS-1).

A :class:`BetSlip` is a small frozen value the terminal and browser clients keep between
rounds: clicking a chip button adds it to the ante or bonus spot, "clear bet" empties the
spots, "repeat bet" restores the last dealt bets, and :meth:`BetSlip.deal` turns the slip
into the :class:`~croupier.casino.bonus.Bets` for :func:`~croupier.casino.bonus.start_round`
(an ante under the minimum is raised to it). Every method returns a new slip.

>>> from croupier.casino.bonus import BonusConfig
>>> cfg = BonusConfig()
>>> s = BetSlip().add(cfg, "ante", 25).add(cfg, "ante", 5).add(cfg, "bonus", 5)
>>> s.ante, s.bonus
(30, 5)
>>> bets, s = s.deal(cfg)
>>> bets, (s.ante, s.bonus)
(Bets(ante=30, bonus=5), (0, 0))
>>> s.repeat().ante, s.add(cfg, "ante", 1).deal(cfg)[0]   # 1 is raised to the minimum 2
(30, Bets(ante=2, bonus=0))
>>> BetSlip().add(cfg, "bonus", 25).add(cfg, "bonus", 1)
Traceback (most recent call last):
...
croupier.engine.errors.IllegalActionError: the bonus bet is at most 25
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from croupier.casino.bonus import Bets, BonusConfig, normalize_ante
from croupier.engine.errors import IllegalActionError

__all__ = ["BetSlip", "Spot"]

Spot = Literal["ante", "bonus"]


@dataclass(frozen=True, slots=True)
class BetSlip:
    """Chips placed on the ante and bonus spots, and the bets of the last round dealt."""

    ante: int = 0
    bonus: int = 0
    last: Bets | None = None

    @property
    def total(self) -> int:
        return self.ante + self.bonus

    def add(self, config: BonusConfig, spot: Spot, chip: int) -> BetSlip:
        """Place one chip of a button's value on a spot; refused beyond the spot's maximum."""
        if chip not in config.chips or isinstance(chip, bool):
            buttons = ", ".join(str(c) for c in config.chips)
            raise IllegalActionError("unknown_chip", f"chip buttons are {buttons}, not {chip!r}")
        if spot == "ante":
            if self.ante + chip > config.ante_max:
                raise IllegalActionError("ante_too_large", f"the ante is at most {config.ante_max}")
            return replace(self, ante=self.ante + chip)
        if spot == "bonus":
            if self.bonus + chip > config.bonus_max:
                raise IllegalActionError(
                    "bonus_out_of_range", f"the bonus bet is at most {config.bonus_max}"
                )
            return replace(self, bonus=self.bonus + chip)
        raise IllegalActionError("unknown_spot", f"spots are ante and bonus, not {spot!r}")

    def clear(self) -> BetSlip:
        """Take every chip back from both spots (keeps the last bets for "repeat")."""
        return replace(self, ante=0, bonus=0)

    def repeat(self) -> BetSlip:
        """Place the same bets as the last round dealt."""
        if self.last is None:
            raise IllegalActionError("no_previous_bet", "no previous bet to repeat yet")
        return replace(self, ante=self.last.ante, bonus=self.last.bonus)

    def deal(self, config: BonusConfig) -> tuple[Bets, BetSlip]:
        """The bets to deal with (ante raised to the minimum) and the emptied slip."""
        if self.ante == 0:
            if self.bonus:
                raise IllegalActionError("ante_required", "a bonus bet needs an ante")
            raise IllegalActionError("no_bet", "place an ante first")
        bets = Bets(ante=normalize_ante(config, self.ante), bonus=self.bonus)
        return bets, BetSlip(last=bets)
