"""Final-table deals (R-TOUR-19): when every player left at a scheduled event's final
table opts in, play pauses and the server offers two splits of the prizes not yet paid —
ICM (Malmuth-Harville) and equal shares; if every player accepts the same one, each is
guaranteed that amount (paid with their place as they bust) and play continues for the
ranking. Not offered in Sit & Go or Spin. Bots follow the players (they opt in and accept
whatever the humans all chose; a table of bots alone never deals).

>>> icm([5000, 3000, 2000], [500, 300, 200])
[384, 327, 289]
>>> equal_split(3, [500, 300, 200])
[334, 333, 333]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations

from croupier.tournament.errors import TournamentError

__all__ = ["Deal", "equal_split", "icm"]


def _round_to(total: int, exact: list[float]) -> list[int]:
    """Integers summing to ``total``, the largest remainders rounded up."""
    base = [int(x) for x in exact]
    order = sorted(range(len(exact)), key=lambda i: exact[i] - base[i], reverse=True)
    for i in order[: total - sum(base)]:
        base[i] += 1
    return base


def icm(stacks: list[int], prizes: list[int]) -> list[int]:
    """Malmuth-Harville equity of each stack in ``prizes`` (best first), in whole chips
    summing to the prizes (exact over every finishing order; up to 9 players)."""
    n = len(stacks)
    if n == 0 or n > 9 or any(s <= 0 for s in stacks):
        raise TournamentError("bad_deal", "ICM needs 1 to 9 positive stacks")
    pay = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    total = sum(stacks)
    equity = [0.0] * n
    depth = min(n, len([p for p in pay if p > 0]))
    for order in permutations(range(n), depth):
        prob = 1.0
        left = total
        for i in order:
            prob *= stacks[i] / left
            left -= stacks[i]
        for place, i in enumerate(order):
            equity[i] += prob * pay[place]
    return _round_to(sum(pay), equity)


def equal_split(n: int, prizes: list[int]) -> list[int]:
    """The prizes of the ``n`` places left shared equally (odd chips to the first)."""
    total = sum(prizes[:n])
    share, odd = divmod(total, n)
    return [share + (1 if i < odd else 0) for i in range(n)]


@dataclass(slots=True)
class Deal:
    """The deal talks at a final table: who opted in, the two offers, the choices."""

    players: tuple[str, ...]
    bots: frozenset[str] = frozenset()
    opted: set[str] = field(default_factory=set)
    offers: dict[str, dict[str, int]] = field(default_factory=dict)
    choices: dict[str, str] = field(default_factory=dict)
    agreed: dict[str, int] | None = None

    @property
    def humans(self) -> set[str]:
        return set(self.players) - self.bots

    def opt_in(self, player: str) -> bool:
        """``player`` wants a deal; True when every player has (bots follow the humans)."""
        if player not in self.players or player in self.bots:
            raise TournamentError("not_at_final_table", f"{player} is not at the final table")
        self.opted.add(player)
        return self.humans <= self.opted and bool(self.humans)

    def make_offers(self, stacks: dict[str, int], prizes: list[int]) -> None:
        order = list(self.players)
        fair = icm([stacks[p] for p in order], prizes)
        even = equal_split(len(order), prizes)
        self.offers = {
            "icm": dict(zip(order, fair, strict=True)),
            "equal": dict(zip(order, even, strict=True)),
        }

    def choose(self, player: str, choice: str) -> bool | None:
        """``player`` accepts ``icm`` or ``equal`` (or ``none``: no deal). Returns True
        when every human accepted the same offer (the deal is made), False when one
        refused, None while waiting."""
        if not self.offers:
            raise TournamentError("no_deal_offered", "every player must opt in first")
        if player not in self.humans:
            raise TournamentError("not_at_final_table", f"{player} is not at the final table")
        if choice not in ("icm", "equal", "none"):
            raise TournamentError("bad_deal", f"choose icm, equal or none, not {choice!r}")
        if choice == "none":
            return False
        self.choices[player] = choice
        picked = {self.choices.get(p) for p in self.humans}
        if len(picked) == 1 and None not in picked:
            self.agreed = self.offers[choice]
            return True
        return None
