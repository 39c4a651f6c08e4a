"""Exact returns of Texas Hold'em Bonus (combinatorics, not sampling) and a seeded
Monte Carlo for the betting strategies the exact enumeration does not cover.

- :func:`bonus_return` — the bonus bet: every one of the 1,326 player hole-card pairs,
  and for the lines that look at the dealer's hand (A-A against A-A) every dealer pair of
  the 50 cards left. Exact, as a :class:`~fractions.Fraction` per unit staked.
- :func:`exact_counts` — the main game: for each of the 1,326 hole pairs, the exact
  number of (board, dealer pair) deals the player wins (and wins with a straight or
  better), ties and loses, and the signed results of the turn and river bets of the
  *pair rule* (bet when a hole card makes a pair or better with the cards out). Every
  5-card board up to a permutation of the suits (134,459 classes, weighted by their size)
  is evaluated with every hole pair (``croupier.engine.evaluate.high_batch``); the counts
  against the 990 dealer pairs disjoint from the hole follow by inclusion–exclusion over
  sorted hand values, and the pair rule's bets over the 20 deal orders of each board
  follow from how many board cards match a hole rank. :func:`main_returns` turns the
  counts into exact expected returns: always check or the pair rule, always play or play
  only the hand classes for which playing beats folding.
- :func:`simulate_strategy` — seeded Monte Carlo of the same strategies by dealing
  rounds (an independent check), with a 95 % confidence interval.

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
    "EXACT_ALWAYS_PLAY_CHECK",
    "EXACT_ALWAYS_PLAY_PAIR",
    "EXACT_BEST_FOLD_CHECK",
    "EXACT_BEST_FOLD_PAIR",
    "EXACT_FIGURES",
    "HOLES",
    "Figure",
    "HandClass",
    "MainReturns",
    "SimResult",
    "board_counts",
    "bonus_return",
    "canonical_boards",
    "exact_counts",
    "figures",
    "hand_class",
    "main_returns",
    "pair_rule_bets",
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
    rows = np.arange(len(combos))
    for k in range(5):  # the five cards of a row are distinct: no index repeats in a step
        masks[rows, combos[:, k] & 3] += np.int64(1) << (combos[:, k] >> 2)
    masks.sort(axis=1)
    key = ((masks[:, 0] * 8192 + masks[:, 1]) * 8192 + masks[:, 2]) * 8192 + masks[:, 3]
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    return combos[first], counts.astype(np.int64)


def _combinations(n: int, k: int) -> I32:
    """Every k-subset of range(n) as rows, in lexicographic order.

    >>> _combinations(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    rows = np.arange(n, dtype=np.int32)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1]
        children = n - 1 - last  # each row grows by every larger card
        parent = np.repeat(np.arange(len(rows)), children)
        offset = np.arange(len(parent)) - np.repeat(np.cumsum(children) - children, children)
        rows = np.column_stack([rows[parent], last[parent] + 1 + offset]).astype(np.int32)
    return rows


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


ORDERINGS: Final = 20
"""Ways a 5-card board set comes out as flop (3), turn, river: 10 flops x 2."""


def pair_rule_bets(boards: npt.ArrayLike) -> I64:
    """For each board and hole pair: in how many of the 20 deal orders of the board the
    pair rule bets the turn, plus in how many it bets the river (0 … 40).

    The pair rule bets when a hole card makes a pair or better with the cards out (a
    pocket pair always). With ``k`` board cards matching a hole rank the turn is bet when
    the flop holds one of them (``2 * (10 - C(5 - k, 3))`` orders) and the river when the
    flop and turn do (``4 * #{river card r : the other four hold one}``).
    """
    b = np.ascontiguousarray(boards, dtype=np.int32).reshape(-1, 5)
    hr = HOLES >> 2
    br = b >> 2
    k = (br[:, None, :, None] == hr[None, :, None, :]).any(axis=3).sum(axis=2)
    turn = np.array([0, 12, 18, 20, 20, 20], dtype=np.int64)[k]
    river = np.array([0, 16, 20, 20, 20, 20], dtype=np.int64)[k]
    pocket = (hr[:, 0] == hr[:, 1])[None, :]
    return np.where(pocket, 2 * ORDERINGS, turn + river)


@dataclass(frozen=True, slots=True)
class Counts:
    """Per hole pair (1,326 entries), over every board and dealer pair: deals won, won
    with a straight or better, tied, lost; and for the pair rule, the sum over deals and
    deal orders of the turn and river bets made (``pair_bets``) and of their signed
    results (``pair_bet_net``: +1 a bet won, -1 a bet lost; both out of 20 orders)."""

    wins: I64
    strong_wins: I64
    ties: I64
    losses: I64
    pair_bets: I64
    pair_bet_net: I64


def _chunks(n: int, size: int) -> Iterator[slice]:
    for start in range(0, n, size):
        yield slice(start, min(n, start + size))


def exact_counts(
    progress: Callable[[int, int], None] | None = None,
    chunk: int = 256,
    boards: tuple[I32, I64] | None = None,
) -> Counts:
    """Exact counts of every hole pair over every board and dealer pair.

    Each hole pair's wins, ties and losses add up to ``BOARDS * DEALER_PAIRS``.
    ``progress(done, total)`` is called after each chunk of boards. Takes about a minute.
    ``boards`` (rows, weights) replaces the full set of board classes (tests use a part).
    """
    rows, weights = canonical_boards() if boards is None else boards
    acc = np.zeros((6, len(HOLES)), dtype=np.int64)
    for part in _chunks(len(rows), chunk):
        w = weights[part][:, None]
        wins, strong, ties, losses = board_counts(rows[part])
        bets = pair_rule_bets(rows[part])
        valid = (wins + ties + losses) > 0
        arrs = (wins, strong, ties, losses, bets * DEALER_PAIRS * valid, bets * (wins - losses))
        for k, arr in enumerate(arrs):
            acc[k] += (arr * w).sum(axis=0)
        if progress is not None:
            progress(part.stop, len(rows))
    # a suit permutation maps each of the 169 hand classes onto itself: every member of a
    # class has the same totals, which the board classes give for the class as a whole
    names = [hand_class(a, b) for a, b in HOLES.tolist()]
    out = np.zeros_like(acc)
    for name in set(names):
        members = [i for i, nm in enumerate(names) if nm == name]
        total = acc[:, members].sum(axis=1)
        if boards is None and (total % len(members)).any():
            raise AssertionError(f"class {name}: totals not shared evenly")
        out[:, members] = (total // len(members))[:, None]
    return Counts(*out)


# -- main game returns ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MainReturns:
    """Exact main-game figures per unit of ante for one turn/river policy.

    ``play_ev[name]`` is the expected profit of playing a class (``combos[name]`` hole
    pairs); ``always_play`` the expected profit of always playing; ``best_fold`` that of
    playing only the classes whose ``play_ev`` beats folding (-1), with ``played`` the
    fraction of hands played and ``wagered`` the mean antes staked per round then
    (``always_wagered`` when always playing).
    """

    bets: bool
    play_ev: dict[str, Fraction]
    combos: dict[str, int]
    always_play: Fraction
    always_wagered: Fraction
    best_fold: Fraction
    played: Fraction
    wagered: Fraction


def main_returns(counts: Counts, *, bets: bool = False, table: MainPaytable = MAIN) -> MainReturns:
    """The exact expected returns from :func:`exact_counts`: ``bets=False`` checks the
    turn and river always, ``bets=True`` follows the pair rule (:func:`pair_rule_bets`)."""
    per = BOARDS * DEALER_PAIRS
    names = [hand_class(a, b) for a, b in HOLES.tolist()]
    profit: dict[str, int] = {}
    staked: dict[str, int] = {}
    combos: dict[str, int] = {}
    for i, name in enumerate(names):
        w, s, losses = int(counts.wins[i]), int(counts.strong_wins[i]), int(counts.losses[i])
        # x20 (the deal orders): flop bet 2 antes, ante paid only with a straight or better
        p = ORDERINGS * (2 * table.street_pays * w + table.ante_pays * s - 3 * losses)
        st = ORDERINGS * 3 * per
        if bets:
            p += int(counts.pair_bet_net[i]) * table.street_pays
            st += int(counts.pair_bets[i])
        profit[name] = profit.get(name, 0) + p
        staked[name] = staked.get(name, 0) + st
        combos[name] = combos.get(name, 0) + 1
    scale = ORDERINGS * per
    play_ev = {nm: Fraction(profit[nm], combos[nm] * scale) for nm in profit}
    n = len(HOLES)
    always = sum((play_ev[nm] * combos[nm] for nm in play_ev), Fraction(0)) / n
    chosen = {nm for nm, ev in play_ev.items() if ev > -1}
    best = sum((max(play_ev[nm], Fraction(-1)) * combos[nm] for nm in play_ev), Fraction(0)) / n
    played = Fraction(sum(combos[nm] for nm in chosen), n)
    folded = Fraction(n - sum(combos[nm] for nm in chosen), n)
    wagered = folded + sum((Fraction(staked[nm], scale) for nm in chosen), Fraction(0)) / n
    always_wagered = sum((Fraction(staked[nm], scale) for nm in staked), Fraction(0)) / n
    return MainReturns(bets, play_ev, combos, always, always_wagered, best, played, wagered)


@dataclass(frozen=True, slots=True)
class Figure:
    """One strategy's exact figures per unit of ante: expected profit, fraction of hands
    played, mean antes staked per round."""

    strategy: str
    ev: Fraction
    played: Fraction
    staked: Fraction

    @property
    def per_staked(self) -> Fraction:
        """Expected profit per unit staked (the "element of risk")."""
        return self.ev / self.staked


def figures(counts: Counts, table: MainPaytable = MAIN) -> tuple[Figure, ...]:
    """The four documented strategies: always play or best folds, always check or the
    pair rule."""
    out = []
    for bets in (False, True):
        m = main_returns(counts, bets=bets, table=table)
        rule = "pair rule" if bets else "always check"
        out.append(Figure(f"always play, {rule}", m.always_play, Fraction(1), m.always_wagered))
        out.append(Figure(f"best folds, {rule}", m.best_fold, m.played, m.wagered))
    return tuple(out)


# -- the documented figures (``exact_counts`` run once; the soak test re-runs it) -------

EXACT_ALWAYS_PLAY_CHECK: Final = Fraction(-30306830009, 77260583400)
"""Always play, always check: -39.2268 % of the ante (exact)."""
EXACT_BEST_FOLD_CHECK: Final = Fraction(-43814869127, 115890875100)
"""Fold the 13 classes for which playing and checking loses more than the ante: -37.8070 %."""
EXACT_ALWAYS_PLAY_PAIR: Final = Fraction(-4043051869, 57945437550)
"""Always play, pair rule on the turn and river: -6.9773 % of the ante (exact)."""
EXACT_BEST_FOLD_PAIR: Final = Fraction(-75773399729, 1158908751000)
"""Pair rule, folding 32o 42o 52o 62o 72o: -6.5383 % of the ante (exact)."""

EXACT_FIGURES: Final[tuple[Figure, ...]] = (
    Figure("always play, always check", EXACT_ALWAYS_PLAY_CHECK, Fraction(1), Fraction(3)),
    Figure(
        "best folds, always check", EXACT_BEST_FOLD_CHECK, Fraction(593, 663), Fraction(1849, 663)
    ),
    Figure("always play, pair rule", EXACT_ALWAYS_PLAY_PAIR, Fraction(1), Fraction(532629, 139825)),
    Figure(
        "best folds, pair rule",
        EXACT_BEST_FOLD_PAIR,
        Fraction(211, 221),
        Fraction(6699237, 1817725),
    ),
)
"""What :func:`figures` returns for the published pay tables (see ``docs/bonus.md``)."""


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
