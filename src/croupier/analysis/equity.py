"""All-in equity of known hands: exact enumeration of the boards or seeded Monte Carlo.

The loops run in the C extension (``croupier.engine.evaluate._ceval``) when it is there;
otherwise a NumPy path built on the batch evaluators gives the same answers, slower.

Board games (Hold'em, Omaha, Omaha hi/lo 8, short deck) run here; stud games (``stud``,
``stud8``, ``razz``) and draw games (``draw5``, ``td27``, ``badugi``, ``draw32``) deal
without a board through the same :func:`equity` entry point (see ``GAMES`` and
:func:`keep_cards` for the drawing rule).

>>> from croupier.engine.cards import parse_cards as p
>>> r = equity([p("AsAh"), p("KsKh")])
>>> r.exact, r.total, r.wins[0], r.ties[0], round(r.equity[0], 6)
(True, 1712304, 1410336, 9308, 0.826366)
>>> r = equity([p("AsAh"), p("KsKh")], trials=20_000, seed=7)
>>> r.exact, r.total, abs(r.equity[0] - 0.8264) < 0.02
(False, 20000, True)
>>> r = equity(["AsAhKd7c2c3d", "KsKh8d8c2h4s"], game="stud")  # one card to come each
>>> r.exact, r.total, round(r.equity[0], 4)
(True, 1560, 0.2545)
>>> r = equity(["7s5h4d3c2c", "8s6h4s3h9d"], game="td27", draws=1, trials=2000, seed=1)
>>> r.exact, r.total, r.equity[0] > 0.6
(False, 2000, True)
>>> equity([p("AsAh"), p("As2c")])
Traceback (most recent call last):
...
croupier.engine.errors.InvalidCardError: card As appears twice
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from croupier.engine import evaluate as ev
from croupier.engine.cards import DECK_32, DECK_36, DECK_52, Card
from croupier.engine.errors import ConfigurationError, InvalidCardError

__all__ = [
    "EXACT_WORK_LIMIT",
    "GAMES",
    "NONBOARD_EXACT_LIMIT",
    "EquityResult",
    "GameSpec",
    "equity",
    "keep_cards",
]

EXACT_WORK_LIMIT: Final = 200_000_000
"""Automatic mode enumerates exactly when boards × players × 5-card evaluations per player
stays under this (every heads-up or 3-way Hold'em spot, Omaha from the flop on)."""
DEFAULT_TRIALS: Final = 1_000_000
_MC_CHUNK: Final = 250_000


@dataclass(frozen=True)
class GameSpec:
    """How a game deals and ranks for equity purposes."""

    name: str
    code: int  # game code of the C loops
    hole_min: int
    hole_max: int
    deck: tuple[Card, ...]
    evals_per_player: int  # 5-card evaluations per player and board (cost estimate)
    hi_lo: bool = False
    kind: str = "board"  # "board", "stud" (up to 7 cards each, no board) or "draw"


GAMES: Final[dict[str, GameSpec]] = {
    "holdem": GameSpec("holdem", 0, 2, 2, DECK_52, 1),
    "omaha": GameSpec("omaha", 1, 4, 6, DECK_52, 60),
    "omaha8": GameSpec("omaha8", 2, 4, 6, DECK_52, 90, hi_lo=True),
    "short_deck": GameSpec("short_deck", 3, 2, 2, DECK_36, 1),
    "stud": GameSpec("stud", -1, 2, 7, DECK_52, 21, kind="stud"),
    "stud8": GameSpec("stud8", -1, 2, 7, DECK_52, 42, hi_lo=True, kind="stud"),
    "razz": GameSpec("razz", -1, 2, 7, DECK_52, 21, kind="stud"),
    "draw5": GameSpec("draw5", -1, 5, 5, DECK_52, 1, kind="draw"),
    "td27": GameSpec("td27", -1, 5, 5, DECK_52, 1, kind="draw"),
    "badugi": GameSpec("badugi", -1, 4, 4, DECK_52, 1, kind="draw"),
    "draw32": GameSpec("draw32", -1, 5, 5, DECK_32, 1, kind="draw"),
}


@dataclass(frozen=True)
class EquityResult:
    """Per player: boards won outright (``wins``: the whole pot, both halves in hi/lo),
    boards where the player got part of the pot (``ties``) and the pot fractions of those
    (``tie_shares``); ``equity = (wins + tie_shares) / total``."""

    game: str
    hands: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    wins: tuple[int, ...]
    ties: tuple[int, ...]
    tie_shares: tuple[float, ...]
    equity: tuple[float, ...]
    total: int
    exact: bool
    seed: int | None = None


def _cards(seq: Sequence[int] | str, what: str) -> tuple[int, ...]:
    from croupier.engine.cards import parse_cards

    if isinstance(seq, str):
        return tuple(int(c) for c in parse_cards(seq))
    out = []
    for c in seq:
        if isinstance(c, bool) or not isinstance(c, int | np.integer) or not 0 <= int(c) < 52:
            raise InvalidCardError("invalid_card", f"{what}: not a card: {c!r}")
        out.append(int(c))
    return tuple(out)


def _use_c() -> bool:
    return ev.BACKEND == "c" and os.environ.get("CROUPIER_PURE_EVAL", "") in ("", "0")


def equity(
    hands: Sequence[Sequence[int] | str],
    board: Sequence[int] | str = (),
    dead: Sequence[int] | str = (),
    *,
    game: str = "holdem",
    exact: bool | None = None,
    trials: int | None = None,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    draws: int = 0,
) -> EquityResult:
    """Equity of each hand when all are all-in now (the board is dealt to five cards).

    ``exact=None`` picks exact enumeration when it is cheap (``EXACT_WORK_LIMIT``) unless
    ``trials`` is given; Monte Carlo draws ``trials`` boards (default 1,000,000), seeded by
    ``seed`` (reproducible). ``progress(done, total)`` is called between chunks. Hi/lo games
    split each pot in halves (R-POT-5): a scoop counts as a win, any part as a tie share.

    Stud games (``stud``, ``stud8``, ``razz``): each hand is 2 to 7 known cards (up and down
    alike), each is dealt to seven from the rest of the deck; exact when the deals number at
    most ``NONBOARD_EXACT_LIMIT`` (e.g. one card to come each), else Monte Carlo (200,000
    trials by default). Draw games (``draw5``, ``td27``, ``badugi``, ``draw32``): with
    ``draws=0`` the hands as they stand (one comparison, exact); with ``draws=K`` each player
    applies :func:`keep_cards` K times, drawing from the rest of the deck (Monte Carlo, 20,000
    trials by default).
    """
    spec = GAMES.get(game)
    if spec is None:
        raise ConfigurationError("unknown_game", f"unknown game {game!r}; one of {sorted(GAMES)}")
    hs = tuple(_cards(h, "hand") for h in hands)
    bd = _cards(board, "board")
    dd = _cards(dead, "dead")
    if not hs:
        raise InvalidCardError("wrong_card_count", "give at least one hand")
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ConfigurationError("bad_draws", f"draws must be a whole number >= 0, not {draws!r}")
    if spec.kind != "board":
        return _nonboard_equity(spec, hs, bd, dd, exact, trials, seed, progress, draws)
    if draws:
        raise ConfigurationError("bad_draws", f"{game} has no draws; --draws is for draw games")
    for h in hs:
        if not spec.hole_min <= len(h) <= spec.hole_max:
            want = (
                f"{spec.hole_min}"
                if spec.hole_min == spec.hole_max
                else f"{spec.hole_min} to {spec.hole_max}"
            )
            raise InvalidCardError(
                "wrong_card_count",
                f"{'an' if game[0] == 'o' else 'a'} {game} hand has {want} cards, not {len(h)}",
            )
    if len({len(h) for h in hs}) != 1:
        raise InvalidCardError("wrong_card_count", "all hands must have the same number of cards")
    if len(bd) > 5:
        raise InvalidCardError("wrong_card_count", f"a board has at most 5 cards, not {len(bd)}")
    seen: set[int] = set()
    deck_set = {int(c) for c in spec.deck}
    for c in (*[c for h in hs for c in h], *bd, *dd):
        if c in seen:
            raise InvalidCardError("duplicate_card", f"card {Card(c)} appears twice")
        if c not in deck_set:
            raise InvalidCardError("invalid_card", f"card {Card(c)} is not in the {game} deck")
        seen.add(c)
    deck = tuple(c for c in (int(x) for x in spec.deck) if c not in seen)
    k = 5 - len(bd)
    if len(deck) < k:
        raise InvalidCardError("wrong_card_count", "not enough cards left to deal the board")
    if len(hs) > 23:
        raise InvalidCardError("wrong_card_count", "at most 23 hands")
    nboards = comb(len(deck), k)
    if exact is None:
        work = nboards * len(hs) * spec.evals_per_player
        exact = trials is None and work <= EXACT_WORK_LIMIT
    if exact:
        runner = _exact_c if _use_c() else _exact_np
        w, t, s, total = runner(spec, hs, bd, deck, k, nboards, progress)
    else:
        n = DEFAULT_TRIALS if trials is None else int(trials)
        if n <= 0:
            raise ConfigurationError("bad_trials", "trials must be positive")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        runner_mc = _mc_c if _use_c() else _mc_np
        w, t, s, total = runner_mc(spec, hs, bd, deck, k, n, seed, progress)
    eq = tuple((w[i] + s[i]) / total for i in range(len(hs)))
    return EquityResult(
        game=game,
        hands=hs,
        board=bd,
        wins=tuple(w),
        ties=tuple(t),
        tie_shares=tuple(s),
        equity=eq,
        total=total,
        exact=bool(exact),
        seed=None if exact else seed,
    )


_Counts = tuple[list[int], list[int], list[float], int]


def _add(acc: _Counts, part: tuple[Sequence[int], Sequence[int], Sequence[float], int]) -> _Counts:
    w, t, s, n = acc
    return (
        [a + b for a, b in zip(w, part[0], strict=True)],
        [a + b for a, b in zip(t, part[1], strict=True)],
        [a + b for a, b in zip(s, part[2], strict=True)],
        n + part[3],
    )


def _zero(players: int) -> _Counts:
    return [0] * players, [0] * players, [0.0] * players, 0


# ----------------------------------------------------------------------------- C loops


def _exact_c(
    spec: GameSpec,
    hs: tuple[tuple[int, ...], ...],
    bd: tuple[int, ...],
    deck: tuple[int, ...],
    k: int,
    nboards: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    from croupier.engine.evaluate import _ceval

    holes = bytes(c for h in hs for c in h)
    acc = _zero(len(hs))
    if k == 0:
        return _add(acc, _ceval.equity_enum(spec.code, holes, len(hs[0]), bytes(bd), b"", 0, 1))
    deck_b = bytes(deck)
    for first in range(len(deck) - k + 1):
        acc = _add(
            acc,
            _ceval.equity_enum(spec.code, holes, len(hs[0]), bytes(bd), deck_b, first, first + 1),
        )
        if progress is not None:
            progress(acc[3], nboards)
    return acc


def _chunk_seed(seed: int, i: int) -> int:
    x = (seed * 0x9E3779B97F4A7C15 + (i + 1) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 29)


def _mc_c(
    spec: GameSpec,
    hs: tuple[tuple[int, ...], ...],
    bd: tuple[int, ...],
    deck: tuple[int, ...],
    k: int,
    trials: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    from croupier.engine.evaluate import _ceval

    holes = bytes(c for h in hs for c in h)
    acc = _zero(len(hs))
    done, i = 0, 0
    while done < trials:
        n = min(_MC_CHUNK, trials - done)
        part = _ceval.equity_mc(
            spec.code, holes, len(hs[0]), bytes(bd), bytes(deck), n, _chunk_seed(seed, i)
        )
        acc = _add(acc, part)
        done += n
        i += 1
        if progress is not None:
            progress(done, trials)
    return acc


# ----------------------------------------------------------------------------- NumPy path

IntArray = npt.NDArray[np.int32]
AnyIntArray = npt.NDArray[np.int32] | npt.NDArray[np.int64]


def _settle_np(hi: AnyIntArray, lo: AnyIntArray | None, acc: _Counts) -> _Counts:
    """hi, lo: (players, boards) values; lo uses -1 for no low."""
    best = hi.max(axis=0)
    win_h = hi == best
    share = win_h / win_h.sum(axis=0)
    if lo is not None:
        bl = lo.max(axis=0)
        win_l = (lo == bl) & (bl >= 0)
        nl = np.maximum(win_l.sum(axis=0), 1)
        share = np.where(bl >= 0, 0.5 * share + 0.5 * win_l / nl, share)
    scoop = share >= 1.0 - 1e-12
    part = (share > 0) & ~scoop
    w = scoop.sum(axis=1).tolist()
    t = part.sum(axis=1).tolist()
    s = np.where(part, share, 0.0).sum(axis=1).tolist()
    return _add(acc, (w, t, s, hi.shape[1]))


def _eval_boards_np(spec: GameSpec, hs: tuple[tuple[int, ...], ...], boards: IntArray) -> _Counts:
    n = boards.shape[0]
    his, los = [], []
    for h in hs:
        hole = np.broadcast_to(np.array(h, dtype=np.int32), (n, len(h)))
        if spec.code in (0, 3):
            cards = np.concatenate([hole, boards], axis=1)
            his.append(ev.high_batch(cards) if spec.code == 0 else ev.short_deck_batch(cards))
        else:
            his.append(ev.omaha_high_batch(hole, boards))
            if spec.hi_lo:
                los.append(ev.omaha_low8_batch(hole, boards))
    return _settle_np(np.array(his), np.array(los) if spec.hi_lo else None, _zero(len(hs)))


def _board_chunks(
    bd: tuple[int, ...], deck: tuple[int, ...], k: int, size: int
) -> Iterator[IntArray]:
    it = combinations(deck, k)
    while chunk := list(islice(it, size)):
        arr = np.array(chunk, dtype=np.int32).reshape(len(chunk), k)
        if bd:
            arr = np.concatenate(
                [np.broadcast_to(np.array(bd, np.int32), (len(chunk), 5 - k)), arr], 1
            )
        yield arr


def _exact_np(
    spec: GameSpec,
    hs: tuple[tuple[int, ...], ...],
    bd: tuple[int, ...],
    deck: tuple[int, ...],
    k: int,
    nboards: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    acc = _zero(len(hs))
    for boards in _board_chunks(bd, deck, k, 100_000):
        acc = _add(acc, _eval_boards_np(spec, hs, boards))
        if progress is not None:
            progress(acc[3], nboards)
    return acc


def _mc_np(
    spec: GameSpec,
    hs: tuple[tuple[int, ...], ...],
    bd: tuple[int, ...],
    deck: tuple[int, ...],
    k: int,
    trials: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    rng = np.random.default_rng(seed)
    deck_arr = np.array(deck, dtype=np.int32)
    acc = _zero(len(hs))
    done = 0
    while done < trials:
        n = min(100_000, trials - done)
        picks = np.argsort(rng.random((n, len(deck))), axis=1)[:, :k]
        boards = deck_arr[picks]
        if bd:
            boards = np.concatenate(
                [np.broadcast_to(np.array(bd, np.int32), (n, 5 - k)), boards], 1
            )
        acc = _add(acc, _eval_boards_np(spec, hs, boards.astype(np.int32)))
        done += n
        if progress is not None:
            progress(done, trials)
    return acc


# ----------------------------------------------------------------------------- stud and draw

NONBOARD_EXACT_LIMIT: Final = 300_000
"""Stud: automatic mode enumerates every deal of the missing cards when there are at most
this many (heads-up with one card to come each: 44 × 43 = 1,892 deals)."""
STUD_TRIALS: Final = 200_000
DRAW_TRIALS: Final = 20_000
_HAND_SIZE: Final = {"draw5": 5, "td27": 5, "badugi": 4, "draw32": 5}


def _nonboard_equity(
    spec: GameSpec,
    hs: tuple[tuple[int, ...], ...],
    bd: tuple[int, ...],
    dd: tuple[int, ...],
    exact: bool | None,
    trials: int | None,
    seed: int | None,
    progress: Callable[[int, int], None] | None,
    draws: int,
) -> EquityResult:
    game = spec.name
    if bd:
        raise InvalidCardError("wrong_card_count", f"{game} has no board; put up cards in hands")
    for h in hs:
        if not spec.hole_min <= len(h) <= spec.hole_max:
            want = (
                f"exactly {spec.hole_min}"
                if spec.hole_min == spec.hole_max
                else f"{spec.hole_min} to {spec.hole_max}"
            )
            raise InvalidCardError(
                "wrong_card_count", f"a {game} hand has {want} cards, not {len(h)}"
            )
    seen: set[int] = set()
    deck_set = {int(c) for c in spec.deck}
    for c in (*[c for h in hs for c in h], *dd):
        if c in seen:
            raise InvalidCardError("duplicate_card", f"card {Card(c)} appears twice")
        if c not in deck_set:
            raise InvalidCardError("invalid_card", f"card {Card(c)} is not in the {game} deck")
        seen.add(c)
    deck = tuple(c for c in (int(x) for x in spec.deck) if c not in seen)
    if spec.kind == "draw" and draws and exact:
        raise ConfigurationError("bad_trials", "draws are sampled: --exact needs --draws 0")
    if spec.kind == "stud" and draws:
        raise ConfigurationError("bad_draws", f"{game} has no draws; --draws is for draw games")
    if trials is not None and int(trials) <= 0:
        raise ConfigurationError("bad_trials", "trials must be positive")
    if spec.kind == "stud":
        needs = tuple(7 - len(h) for h in hs)
        if sum(needs) > len(deck):
            raise InvalidCardError(
                "wrong_card_count", f"{sum(needs)} cards to deal but {len(deck)} left in the deck"
            )
        ndeals, left = 1, len(deck)
        for k in needs:
            ndeals *= comb(left, k)
            left -= k
        if exact is None:
            exact = trials is None and ndeals <= NONBOARD_EXACT_LIMIT
        if exact:
            w, t, s, total = _stud_exact(game, hs, deck, needs, ndeals, progress)
        else:
            seed = _seed(seed)
            n = STUD_TRIALS if trials is None else int(trials)
            w, t, s, total = _stud_mc(game, hs, deck, needs, n, seed, progress)
    elif draws == 0:
        if trials is not None or exact is False:
            raise ConfigurationError("bad_trials", "no draws left: one exact comparison")
        exact = True
        vals = np.array([[_draw_value(game, h)] for h in hs], dtype=np.int64)
        w, t, s, total = _settle_np(vals, None, _zero(len(hs)))
    else:
        exact = False
        seed = _seed(seed)
        n = DRAW_TRIALS if trials is None else int(trials)
        w, t, s, total = _draw_mc(game, hs, deck, draws, n, seed, progress)
    return EquityResult(
        game=game,
        hands=hs,
        board=(),
        wins=tuple(w),
        ties=tuple(t),
        tie_shares=tuple(s),
        equity=tuple((w[i] + s[i]) / total for i in range(len(hs))),
        total=total,
        exact=bool(exact),
        seed=None if exact else seed,
    )


def _seed(seed: int | None) -> int:
    return int.from_bytes(os.urandom(8), "little") if seed is None else int(seed)


# --- stud


_A5_CAT: Final = np.zeros(18, dtype=np.int64)
_A5_CAT[[5, 7, 9, 11, 13, 17]] = [0, 1, 2, 3, 4, 5]  # sum of squared group sizes -> category
_FIVE_OF_SEVEN: Final = np.array(list(combinations(range(7), 5)), dtype=np.intp)


def _a5_raw_batch(low: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The scalar ``_a5_raw`` of (M, 5) ace-low ranks (ace 0 … king 12), vectorized:
    category (from the group sizes), then the group ranks by (size, rank) descending."""
    same = low[:, :, None] == low[:, None, :]
    size = same.sum(axis=2)
    cat = _A5_CAT[size.sum(axis=1)]
    key = np.sort(size * 16 + low, axis=1)[:, ::-1]
    first = np.ones_like(key, dtype=bool)
    first[:, 1:] = key[:, 1:] != key[:, :-1]
    slot = np.cumsum(first, axis=1) - 1
    digits = np.where(first, (key & 15) << (4 * (4 - slot)), 0).sum(axis=1)
    return np.asarray((cat << 20) | digits, dtype=np.int64)


def _ace_five_batch(cards: IntArray) -> npt.NDArray[np.int64]:
    """Razz values (``ace_five``) of (N, 7) rows: suits do not matter, so each distinct
    rank multiset is evaluated once, as the best of its 21 five-card subsets."""
    ranks = cards.astype(np.int64) >> 2
    keys = (np.int64(5) ** ranks).sum(axis=1)
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    low = (ranks[first] + 1) % 13
    best = np.min([_a5_raw_batch(low[:, idx]) for idx in _FIVE_OF_SEVEN], axis=0)
    vals = (1 << 24) - best
    return np.asarray(vals[inv.reshape(-1)], dtype=np.int64)


def _stud_settle(game: str, rows: list[IntArray]) -> _Counts:
    """``rows``: per player an (N, 7) array of the player's seven cards."""
    if game == "razz":
        hi: AnyIntArray = np.array([_ace_five_batch(r) for r in rows])
        return _settle_np(hi, None, _zero(len(rows)))
    hi = np.array([ev.high_batch(r) for r in rows])
    lo = np.array([ev.low8_batch(r) for r in rows]) if game == "stud8" else None
    return _settle_np(hi, lo, _zero(len(rows)))


def _stud_rows(
    hs: tuple[tuple[int, ...], ...], needs: tuple[int, ...], dealt: IntArray
) -> list[IntArray]:
    rows, at = [], 0
    n = dealt.shape[0]
    for h, k in zip(hs, needs, strict=True):
        known = np.broadcast_to(np.array(h, dtype=np.int32), (n, len(h)))
        rows.append(np.ascontiguousarray(np.concatenate([known, dealt[:, at : at + k]], 1)))
        at += k
    return rows


def _deals(deck: tuple[int, ...], needs: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every assignment of ``needs[i]`` cards of ``deck`` to player i, in a fixed order."""
    if not needs:
        yield ()
        return
    for mine in combinations(deck, needs[0]):
        rest = tuple(c for c in deck if c not in mine)
        for tail in _deals(rest, needs[1:]):
            yield mine + tail


def _stud_exact(
    game: str,
    hs: tuple[tuple[int, ...], ...],
    deck: tuple[int, ...],
    needs: tuple[int, ...],
    ndeals: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    acc = _zero(len(hs))
    it = _deals(deck, needs)
    width = sum(needs)
    while chunk := list(islice(it, 100_000)):
        dealt = np.array(chunk, dtype=np.int32).reshape(len(chunk), width)
        acc = _add(acc, _stud_settle(game, _stud_rows(hs, needs, dealt)))
        if progress is not None:
            progress(acc[3], ndeals)
    return acc


def _stud_mc(
    game: str,
    hs: tuple[tuple[int, ...], ...],
    deck: tuple[int, ...],
    needs: tuple[int, ...],
    trials: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    rng = np.random.default_rng(seed)
    deck_arr = np.array(deck, dtype=np.int32)
    acc = _zero(len(hs))
    done, width = 0, sum(needs)
    while done < trials:
        n = min(50_000, trials - done)
        picks = np.argsort(rng.random((n, len(deck))), axis=1)[:, :width]
        acc = _add(acc, _stud_settle(game, _stud_rows(hs, needs, deck_arr[picks])))
        done += n
        if progress is not None:
            progress(done, trials)
    return acc


# --- draw

_HIGH_WINDOWS: Final = (
    *(frozenset(range(r, r + 5)) for r in range(9)),
    frozenset({12, 0, 1, 2, 3}),
)
_WINDOWS_32: Final = (
    *(frozenset(range(r, r + 5)) for r in range(5, 9)),
    frozenset({12, 5, 6, 7, 8}),
)


def _draw_value(game: str, hand: Sequence[int]) -> int:
    if game == "draw5":
        return ev.high(hand, ())
    if game == "td27":
        return ev.deuce_seven(hand, ())
    if game == "badugi":
        return ev.badugi(hand, ())
    return ev.thirty_two(hand, ())


def keep_cards(game: str, hand: Sequence[int]) -> tuple[int, ...]:
    """The cards a player keeps at a draw in the equity simulation (the rest are replaced).

    - ``draw5``, ``draw32`` (high): a straight, flush, full house or better stands pat;
      otherwise keep every card of a paired rank (pair, two pair, trips, quads); with no
      pair keep four to a flush, else four to a straight (four distinct ranks inside one
      straight's five), else only the highest card.
    - ``td27`` (deuce-to-seven): a made 8-low or better (five ranks 8 or lower, no pair,
      straight or flush) stands pat; otherwise keep one card of each rank 7 or lower, and if
      that keeps all five and they make a straight or a flush, throw the highest.
    - ``badugi``: keep the cards of the hand's best badugi (its value's cards).

    >>> from croupier.engine.cards import format_cards as f, parse_cards as p
    >>> f(keep_cards("draw5", p("AsAhKd7c2c"))), f(keep_cards("draw5", p("2s5s9sKsQd")))
    ('AsAh', '2s5s9sKs')
    >>> f(keep_cards("td27", p("7s7h4d3c9c"))), f(keep_cards("badugi", p("Ac2c5d9h")))
    ('7s4d3c', 'Ac5d9h')
    """
    cards = tuple(int(c) for c in hand)
    if game == "badugi":
        return _keep_badugi(cards)
    if game == "td27":
        ranks5 = sorted(c >> 2 for c in cards)
        made = len(set(ranks5)) == 5 and ranks5[4] <= 6 and ranks5[4] - ranks5[0] != 4
        if made and len({c & 3 for c in cards}) > 1:
            return cards
        kept: list[int] = []
        for c in cards:
            if c >> 2 <= 5 and all(k >> 2 != c >> 2 for k in kept):
                kept.append(c)
        if len(kept) == 5:
            ranks = sorted(c >> 2 for c in kept)
            if ranks[4] - ranks[0] == 4 or len({c & 3 for c in kept}) == 1:
                kept.remove(max(kept))
        return tuple(kept)
    windows = _WINDOWS_32 if game == "draw32" else _HIGH_WINDOWS
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    ranks_set = set(counts)
    flush = len({c & 3 for c in cards}) == 1
    straight = len(ranks_set) == 5 and any(ranks_set == w for w in windows)
    if flush or straight or sorted(counts.values()) in ([2, 3], [1, 4]):
        return (
            cards
            if sorted(counts.values()) != [1, 4]
            else tuple(c for c in cards if counts[c >> 2] == 4)
        )
    if len(ranks_set) < 5:
        return tuple(c for c in cards if counts[c >> 2] >= 2)
    for s in range(4):
        suited = tuple(c for c in cards if c & 3 == s)
        if len(suited) == 4:
            return suited
    for w in reversed(windows):
        inside = tuple(c for c in cards if c >> 2 in w)
        if len(inside) == 4:
            return inside
    return (max(cards),)


def _keep_badugi(cards: tuple[int, ...]) -> tuple[int, ...]:
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for size in range(len(cards), 0, -1):
        for sub in combinations(cards, size):
            m = 0
            for c in sub:
                m |= 1 << (((c >> 2) + 1) % 13)
            if len({c & 3 for c in sub}) == size and m.bit_count() == size:
                best = max(best, ((size << 13) | (8191 - m), sub))
        if best[0] >= 0:
            return best[1]
    raise AssertionError("unreachable")  # pragma: no cover


def _draw_mc(
    game: str,
    hs: tuple[tuple[int, ...], ...],
    deck: tuple[int, ...],
    draws: int,
    trials: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
) -> _Counts:
    """Each trial shuffles the rest of the deck into a stub; at each draw, in seat order,
    every player keeps :func:`keep_cards` and takes the rest from the stub (R-DRAW-4: when
    the stub runs short, the other players' discards so far are shuffled under it)."""
    import random

    rng = random.Random(seed)
    size = _HAND_SIZE[game]
    vals = np.empty((len(hs), trials), dtype=np.int64)
    cache: dict[tuple[int, ...], tuple[int, ...]] = {}
    for t in range(trials):
        stub = list(deck)
        rng.shuffle(stub)
        muck: list[tuple[int, int]] = []  # (who discarded, card)
        cur = [h for h in hs]
        for _ in range(draws):
            for i, h in enumerate(cur):
                kept = cache.get(h)
                if kept is None:
                    kept = cache[h] = keep_cards(game, h)
                need = size - len(kept)
                if need > len(stub):
                    others = [c for who, c in muck if who != i]
                    rng.shuffle(others)
                    stub[:0] = others
                    muck = [(who, c) for who, c in muck if who == i]
                muck.extend((i, c) for c in h if c not in kept)
                cur[i] = kept + tuple(stub.pop() for _ in range(min(need, len(stub))))
        for i, h in enumerate(cur):
            vals[i, t] = _draw_value(game, h) if len(h) == size else -1
        if progress is not None and (t + 1) % 5000 == 0:
            progress(t + 1, trials)
    if progress is not None:
        progress(trials, trials)
    return _settle_np(vals, None, _zero(len(hs)))
