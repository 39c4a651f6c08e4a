"""All-in equity of known hands: exact enumeration of the boards or seeded Monte Carlo.

The loops run in the C extension (``croupier.engine.evaluate._ceval``) when it is there;
otherwise a NumPy path built on the batch evaluators gives the same answers, slower.

Board games only for now (Hold'em, Omaha, Omaha hi/lo 8, short deck): stud and draw games
deal differently and will get their own :class:`GameSpec` entries (see ``GAMES``).

>>> from croupier.engine.cards import parse_cards as p
>>> r = equity([p("AsAh"), p("KsKh")])
>>> r.exact, r.total, r.wins[0], r.ties[0], round(r.equity[0], 6)
(True, 1712304, 1410336, 9308, 0.826366)
>>> r = equity([p("AsAh"), p("KsKh")], trials=20_000, seed=7)
>>> r.exact, r.total, abs(r.equity[0] - 0.8264) < 0.02
(False, 20000, True)
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
from croupier.engine.cards import DECK_36, DECK_52, Card
from croupier.engine.errors import ConfigurationError, InvalidCardError

__all__ = ["EXACT_WORK_LIMIT", "GAMES", "EquityResult", "GameSpec", "equity"]

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


GAMES: Final[dict[str, GameSpec]] = {
    "holdem": GameSpec("holdem", 0, 2, 2, DECK_52, 1),
    "omaha": GameSpec("omaha", 1, 4, 6, DECK_52, 60),
    "omaha8": GameSpec("omaha8", 2, 4, 6, DECK_52, 90, hi_lo=True),
    "short_deck": GameSpec("short_deck", 3, 2, 2, DECK_36, 1),
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
) -> EquityResult:
    """Equity of each hand when all are all-in now (the board is dealt to five cards).

    ``exact=None`` picks exact enumeration when it is cheap (``EXACT_WORK_LIMIT``) unless
    ``trials`` is given; Monte Carlo draws ``trials`` boards (default 1,000,000), seeded by
    ``seed`` (reproducible). ``progress(done, total)`` is called between chunks. Hi/lo games
    split each pot in halves (R-POT-5): a scoop counts as a win, any part as a tie share.
    """
    spec = GAMES.get(game)
    if spec is None:
        raise ConfigurationError("unknown_game", f"unknown game {game!r}; one of {sorted(GAMES)}")
    hs = tuple(_cards(h, "hand") for h in hands)
    bd = _cards(board, "board")
    dd = _cards(dead, "dead")
    if not hs:
        raise InvalidCardError("wrong_card_count", "give at least one hand")
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


def _settle_np(hi: IntArray, lo: IntArray | None, acc: _Counts) -> _Counts:
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
