"""Exact returns of Texas Hold'em Bonus (combinatorics, not sampling) and a seeded
Monte Carlo for the betting strategies the exact enumeration does not cover.

- :func:`bonus_return` — the bonus bet: every one of the 1,326 player hole-card pairs,
  and for the lines that look at the dealer's hand (A-A against A-A) every dealer pair of
  the 50 cards left. Exact, as a :class:`~fractions.Fraction` per unit staked.
- :func:`check_through_counts` — the main game when the player never bets the turn or
  river: for each of the 1,326 hole pairs, the exact number of (board, dealer pair) deals
  the player wins (and wins with a straight or better), ties and loses. Every 5-card
  board up to a permutation of the suits (134,459 classes, weighted by their size) is
  evaluated with every hole pair (``croupier.engine.evaluate.high_batch``); the counts
  against the 990 dealer pairs disjoint from the hole follow by inclusion–exclusion over
  sorted hand values. :func:`main_returns` turns the counts into the exact expected return
  of "always play, always check" and of "play a hand only when that beats folding, always
  check" (the best fold rule for a player who never bets later).
- :func:`simulate_strategy` — seeded Monte Carlo of a strategy that also bets the turn and
  river, with a 95 % confidence interval.

>>> r = bonus_return()
>>> r, round(float(r), 6)
(Fraction(-13873, 162435), -0.085406)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from croupier.casino.paytable import BONUS_LINES, LOSE, MAIN, BonusLine, MainPaytable
from croupier.engine.cards import DECK_52, RANKS, Card
from croupier.engine.evaluate import high_batch

__all__ = [
    "BOARDS",
    "DEALER_PAIRS",
    "HOLES",
    "HandClass",
    "MainReturns",
    "SimResult",
    "board_counts",
    "bonus_return",
    "canonical_boards",
    "check_through_counts",
    "hand_class",
    "main_returns",
    "simulate_strategy",
]

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]

BOARDS: Final = math.comb(50, 5)
"""Boards a given hole pair sees: 2,118,760."""
DEALER_PAIRS: Final = math.comb(45, 2)
"""Dealer pairs disjoint from a hole pair and a board: 990."""
_BIG: Final = 8191  # above every high value (1..7462): marks an impossible hole pair

HOLES: Final[npt.NDArray[np.int32]] = np.array(list(combinations(range(52), 2)), dtype=np.int32)
"""The 1,326 hole pairs ``(low card, high card)`` in lexicographic order."""


def _pair_index() -> I64:
    idx = np.full((52, 52), len(HOLES), dtype=np.int64)  # diagonal -> the extra "BIG" column
    for i, (a, b) in enumerate(HOLES.tolist()):
        idx[a, b] = idx[b, a] = i
    return idx


_PAIR_INDEX: Final = _pair_index()


# -- the bonus bet --------------------------------------------------------------------


def bonus_return(lines: Sequence[BonusLine] = BONUS_LINES) -> Fraction:
    """The bonus bet's exact expected profit per unit staked (R-BONUS-4)."""
    total = Fraction(0)
    deck = DECK_52
    for a, b in combinations(deck, 2):
        hole = (a, b)
        fits = [ln for ln in lines if ln.matches_hole(hole)]
        if not fits or fits[0].dealer_ranks is None:
            total += fits[0].pays if fits else LOSE.pays
            continue
        # the best line that fits also needs the dealer's hand: enumerate the dealer's pairs
        rest = [c for c in deck if c not in hole]
        pays = 0
        for d in combinations(rest, 2):
            pays += next((ln for ln in lines if ln.matches(hole, d)), LOSE).pays
        total += Fraction(pays, math.comb(50, 2))
    return total / math.comb(52, 2)


# -- hand classes ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandClass:
    """One of the 169 starting-hand classes: ``"AA"``, ``"AKs"``, ``"72o"`` …"""

    name: str
    combos: int


def hand_class(a: int, b: int) -> str:
    """The class name of a hole pair.

    >>> from croupier.engine.cards import Card as C
    >>> hand_class(C.parse("Ks"), C.parse("As")), hand_class(C.parse("2c"), C.parse("7d"))
    ('AKs', '72o')
    """
    hi, lo = max(Card(a), Card(b), key=int), min(Card(a), Card(b), key=int)
    if hi.rank == lo.rank:
        return RANKS[hi.rank] * 2
    return RANKS[hi.rank] + RANKS[lo.rank] + ("s" if hi.suit == lo.suit else "o")


# -- boards up to suit permutations ---------------------------------------------------


@cache
def canonical_boards() -> tuple[I32, I64]:
    """The 5-card boards up to a permutation of the suits, and each class's size.

    Returns ``(boards (134459, 5), weights)``; the weights add up to C(52, 5).
    """
    combos = _combinations(52, 5)
    # a suit permutation permutes the four 13-bit rank masks: sort them for the class key
    masks = np.zeros((len(combos), 4), dtype=np.int64)
    for k in range(5):
        np.add.at(masks, (np.arange(len(combos)), combos[:, k] & 3), 1 << (combos[:, k] >> 2))
    masks.sort(axis=1)
    key = ((masks[:, 0] * 8192 + masks[:, 1]) * 8192 + masks[:, 2]) * 8192 + masks[:, 3]
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    return combos[first], counts.astype(np.int64)


def _combinations(n: int, k: int) -> I32:
    """Every k-subset of range(n) as rows, in lexicographic order."""
    return np.fromiter(
        (c for combo in combinations(range(n), k) for c in combo),
        dtype=np.int32,
        count=math.comb(n, k) * k,
    ).reshape(-1, k)


# -- per-board counts against every dealer pair ---------------------------------------


def board_counts(boards: npt.ArrayLike) -> tuple[I64, I64, I64, I64]:
    """For each board (rows of 5 cards) and each of the 1,326 hole pairs: the dealer pairs
    (of the 45 cards left) the player beats, beats with a straight or better, ties and
    loses to. Rows are ``(n_boards, 1326)``; hole pairs that touch the board count 0.
    """
    b = np.ascontiguousarray(boards, dtype=np.int32).reshape(-1, 5)
    nb, nh = len(b), len(HOLES)
    seven = np.empty((nb, nh, 7), dtype=np.int32)
    seven[:, :, :2] = HOLES[None, :, :]
    seven[:, :, 2:] = b[:, None, :]
    values = high_batch(seven.reshape(-1, 7)).reshape(nb, nh).astype(np.int64)
    onboard = np.zeros((nb, 52), dtype=bool)
    np.put_along_axis(onboard, b.astype(np.int64), True, axis=1)
    valid = ~(onboard[:, HOLES[:, 0]] | onboard[:, HOLES[:, 1]])
    v = np.where(valid, values, _BIG).astype(np.int32)

    # strictly-below and at-or-below counts within the board's valid pairs ("all") ...
    lt_all, le_all = _run_counts(v)
    # ... minus the pairs sharing a card with the hole (rows of the pair matrix)
    padded = np.concatenate([v, np.full((nb, 1), _BIG, dtype=np.int32)], axis=1)
    lt_m, le_m = _run_counts(padded[:, _PAIR_INDEX])  # (nb, 52, 52): pair {c, c'}
    a, c = HOLES[:, 0], HOLES[:, 1]
    lt = lt_all - lt_m[:, a, c] - lt_m[:, c, a]
    le = le_all - le_m[:, a, c] - le_m[:, c, a] + 1  # the hole itself, removed twice
    wins = np.where(valid, lt, 0)
    ties = np.where(valid, le - lt, 0)
    losses = np.where(valid, DEALER_PAIRS - le, 0)
    strong = np.where(values >= MAIN.ante_min_value, wins, 0)
    return wins, strong, ties, losses


def _run_counts(x: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """For every entry along the last axis: how many entries of its row are smaller, and
    how many are smaller or equal (itself included)."""
    order = np.argsort(x, axis=-1, kind="stable")
    s = np.take_along_axis(x, order, axis=-1)
    n = x.shape[-1]
    j = np.broadcast_to(np.arange(n, dtype=np.int32), x.shape)
    starts = np.ones(x.shape, dtype=bool)
    starts[..., 1:] = s[..., 1:] != s[..., :-1]
    first = np.maximum.accumulate(np.where(starts, j, 0), axis=-1)
    ends = np.ones(x.shape, dtype=bool)
    ends[..., :-1] = starts[..., 1:]
    last = np.flip(
        np.minimum.accumulate(np.flip(np.where(ends, j, n - 1), axis=-1), axis=-1), axis=-1
    )
    lt = np.empty_like(x)
    le = np.empty_like(x)
    np.put_along_axis(lt, order, first.astype(x.dtype), axis=-1)
    np.put_along_axis(le, order, (last + 1).astype(x.dtype), axis=-1)
    return lt, le


@dataclass(frozen=True, slots=True)
class Counts:
    """Per hole pair (1,326 rows): deals won, won with a straight or better, tied, lost."""

    wins: I64
    strong_wins: I64
    ties: I64
    losses: I64


def _chunks(n: int, size: int) -> Iterator[slice]:
    for start in range(0, n, size):
        yield slice(start, min(n, start + size))


def check_through_counts(
    progress: Callable[[int, int], None] | None = None, chunk: int = 256
) -> Counts:
    """Exact win/tie/loss counts of every hole pair over every board and dealer pair.

    Each hole pair's four counts add up to ``BOARDS * DEALER_PAIRS``. ``progress(done,
    total)`` is called after each chunk of boards. Takes a minute or so on one core.
    """
    boards, weights = canonical_boards()
    acc = np.zeros((4, len(HOLES)), dtype=np.int64)
    for part in _chunks(len(boards), chunk):
        w = weights[part][:, None]
        for k, arr in enumerate(board_counts(boards[part])):
            acc[k] += (arr * w).sum(axis=0)
        if progress is not None:
            progress(part.stop, len(boards))
    # the suit classes count each hole pair's orbit together: spread evenly over each
    # class of the 169, which every suit permutation maps onto itself
    names = [hand_class(a, b) for a, b in HOLES.tolist()]
    out = np.zeros_like(acc)
    for name in set(names):
        members = [i for i, nm in enumerate(names) if nm == name]
        total = acc[:, members].sum(axis=1)
        out[:, members] = (total // len(members))[:, None]
    return Counts(out[0], out[1], out[2], out[3])


# -- main game returns ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MainReturns:
    """Exact main-game figures per unit of ante.

    ``play_ev[name]`` is the expected profit of playing a class and checking to the end;
    ``always_play`` the expected profit of always playing and checking; ``best_fold`` that
    of playing only the classes whose ``play_ev`` beats folding (-1), with ``played`` the
    fraction of hands played and ``wagered`` the mean antes staked per round.
    """

    play_ev: dict[str, Fraction]
    combos: dict[str, int]
    always_play: Fraction
    best_fold: Fraction
    played: Fraction
    wagered: Fraction


def main_returns(counts: Counts, table: MainPaytable = MAIN) -> MainReturns:
    """The exact expected returns of the check-through strategies from :func:`check_through_counts`."""
    per = BOARDS * DEALER_PAIRS
    names = [hand_class(a, b) for a, b in HOLES.tolist()]
    profit: dict[str, int] = {}
    combos: dict[str, int] = {}
    for i, name in enumerate(names):
        w, s, losses = int(counts.wins[i]), int(counts.strong_wins[i]), int(counts.losses[i])
        # win: flop bet (2 antes) paid, ante paid only with a straight or better
        p = 2 * table.street_pays * w + table.ante_pays * s - 3 * losses
        profit[name] = profit.get(name, 0) + p
        combos[name] = combos.get(name, 0) + 1
    play_ev = {nm: Fraction(profit[nm], combos[nm] * per) for nm in profit}
    n = len(HOLES)
    always = sum((play_ev[nm] * combos[nm] for nm in play_ev), Fraction(0)) / n
    chosen = {nm for nm, ev in play_ev.items() if ev > -1}
    best = sum((max(play_ev[nm], Fraction(-1)) * combos[nm] for nm in play_ev), Fraction(0)) / n
    played = Fraction(sum(combos[nm] for nm in chosen), n)
    return MainReturns(play_ev, combos, always, best, played, 1 + 2 * played)


# -- Monte Carlo for betting strategies ------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimResult:
    """A seeded Monte Carlo estimate: mean profit per ante, its 95 % interval, and the
    mean antes staked per round."""

    rounds: int
    seed: int
    mean: float
    half_width: float
    wagered: float


def _pair_hits(hole: I32, board: I32) -> npt.NDArray[np.bool_]:
    """Whether the hole cards make a pair or better with the board through a hole card
    (a pocket pair, or a hole card's rank on the board)."""
    hr, br = hole >> 2, board >> 2
    pocket = hr[:, 0] == hr[:, 1]
    hit = (hr[:, :, None] == br[:, None, :]).any(axis=(1, 2))
    out: npt.NDArray[np.bool_] = pocket | hit
    return out


def simulate_strategy(
    rounds: int,
    seed: int,
    play: Callable[[str], bool] | None = None,
    table: MainPaytable = MAIN,
    *,
    bets: bool = True,
    chunk: int = 200_000,
) -> SimResult:
    """Monte Carlo of: play the classes ``play`` accepts (default: every hand); bet the
    turn when a hole card makes a pair or better with the flop (a pocket pair counts),
    bet the river on the same test with the flop and turn; else check (``bets=False``:
    always check).

    >>> r = simulate_strategy(20_000, seed=1)
    >>> r.rounds, r.seed, -0.2 < r.mean < 0.2, r.half_width < 0.05
    (20000, 1, True, True)
    """
    rng = np.random.default_rng(seed)
    play_mask = np.ones(len(HOLES), dtype=bool)
    if play is not None:
        play_mask = np.array([play(hand_class(a, b)) for a, b in HOLES.tolist()])
    lookup = np.asarray(_PAIR_INDEX)
    total = total_sq = staked = 0.0
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        cards = np.argsort(rng.random((n, 52)), axis=1)[:, :9].astype(np.int32)
        hole, dealer, board = cards[:, :2], cards[:, 2:4], cards[:, 4:9]
        plays = play_mask[lookup[hole[:, 0], hole[:, 1]]]
        pv = high_batch(np.concatenate([hole, board], axis=1)).astype(np.int64)
        dv = high_batch(np.concatenate([dealer, board], axis=1)).astype(np.int64)
        sign = np.sign(pv - dv)
        turn = _pair_hits(hole, board[:, :3]).astype(np.int64) * bets
        river = _pair_hits(hole, board[:, :4]).astype(np.int64) * bets
        win = sign > 0
        ante = np.where(win, np.where(pv >= table.ante_min_value, table.ante_pays, 0), sign)
        profit = np.where(plays, ante + sign * (2 + turn + river), -1).astype(np.float64)
        staked += float(np.where(plays, 3 + turn + river, 1).sum())
        total += float(profit.sum())
        total_sq += float((profit * profit).sum())
        done += n
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0)
    return SimResult(rounds, seed, mean, 1.96 * math.sqrt(var / rounds), staked / rounds)
