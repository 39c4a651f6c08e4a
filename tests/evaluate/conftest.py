"""Fixtures of the evaluator tests: both backends, all 5-card hands, peers' adapters."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import combinations, pairwise
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from croupier.engine.cards import format_cards
from croupier.engine.evaluate import _pure

try:
    from croupier.engine.evaluate import _ceval
except ImportError:  # pragma: no cover
    _ceval = None  # type: ignore[assignment]


def _c_backend() -> SimpleNamespace:
    assert _ceval is not None

    def batch(arr: np.ndarray, short: bool = False) -> np.ndarray:
        arr = np.ascontiguousarray(arr, dtype=np.int32)
        out = np.empty(arr.shape[0], dtype=np.int32)
        assert _ceval.high_batch(arr, arr.shape[1], out, short) == -1
        return out

    def omaha_batch(h: np.ndarray, b: np.ndarray, lo: bool) -> np.ndarray:
        h = np.ascontiguousarray(h, dtype=np.int32)
        b = np.ascontiguousarray(b, dtype=np.int32)
        out = np.empty(h.shape[0], dtype=np.int32)
        args = (None, out) if lo else (out, None)
        assert _ceval.omaha_batch(h, h.shape[1], b, b.shape[1], *args) == -1
        return out

    def low8_batch(arr: np.ndarray) -> np.ndarray:
        arr = np.ascontiguousarray(arr, dtype=np.int32)
        out = np.empty(arr.shape[0], dtype=np.int32)
        assert _ceval.low8_batch(arr, arr.shape[1], out) == -1
        return out

    return SimpleNamespace(
        name="c",
        high=_ceval.high,
        omaha_high=_ceval.omaha_high,
        low8=_ceval.low8,
        omaha_low8=_ceval.omaha_low8,
        short_deck=_ceval.short_deck,
        high_batch=batch,
        short_deck_batch=lambda a: batch(a, True),
        omaha_high_batch=lambda h, b: omaha_batch(h, b, False),
        omaha_low8_batch=lambda h, b: omaha_batch(h, b, True),
        low8_batch=low8_batch,
    )


def _pure_backend() -> SimpleNamespace:
    return SimpleNamespace(
        name="python",
        high=_pure.high,
        omaha_high=_pure.omaha_high,
        low8=_pure.low8,
        omaha_low8=_pure.omaha_low8,
        short_deck=_pure.short_deck,
        high_batch=lambda a: _pure.high_batch(np.asarray(a, dtype=np.int32)),
        short_deck_batch=lambda a: _pure.short_deck_batch(np.asarray(a, dtype=np.int32)),
        omaha_high_batch=lambda h, b: _pure.omaha_high_batch(
            np.asarray(h, dtype=np.int32), np.asarray(b, dtype=np.int32)
        ),
        omaha_low8_batch=lambda h, b: _pure.omaha_low8_batch(
            np.asarray(h, dtype=np.int32), np.asarray(b, dtype=np.int32)
        ),
        low8_batch=lambda a: _pure.low8_batch(np.asarray(a, dtype=np.int32)),
    )


BACKENDS = ["c", "python"] if _ceval is not None else ["python"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> SimpleNamespace:
    """Each evaluator backend in turn (C extension, pure Python)."""
    return _c_backend() if request.param == "c" else _pure_backend()


@pytest.fixture(scope="session")
def c_backend() -> SimpleNamespace:
    if _ceval is None:  # pragma: no cover
        pytest.skip("C extension not built")
    return _c_backend()


@pytest.fixture(scope="session")
def all5() -> np.ndarray:
    """All 2,598,960 five-card hands, lexicographic, as an int8 (N, 5) array."""
    return np.array(list(combinations(range(52), 5)), dtype=np.int8)


def random_hands(
    seed: int, n: int, k: int, deck: range | list[int] = range(52)
) -> Iterator[list[int]]:
    rng = random.Random(seed)
    for _ in range(n):
        yield rng.sample(list(deck), k)


def assert_same_order(ours: list[Any], theirs: list[Any], label: str = "") -> None:
    """Both lists rank the hands the same way (same ties, same order); None is lowest."""
    idx = sorted(range(len(ours)), key=lambda i: (ours[i] is not None, ours[i] or 0))
    for a, b in pairwise(idx):
        oa, ob, ta, tb = ours[a], ours[b], theirs[a], theirs[b]
        if oa is None or ta is None:
            assert (oa is None) == (ta is None), (label, a, oa, ta)
            continue
        if oa == ob:
            assert not (ta < tb) and not (tb < ta), (label, a, b, oa, ta, tb)
        else:
            assert ta < tb, (label, a, b, oa, ob, ta, tb)


def peer(fn: Callable[[str, str], Any]) -> Callable[[list[int], list[int]], Any]:
    """Adapt a pokerkit ``from_game``: None when the hand does not qualify."""

    def call(hole: list[int], board: list[int]) -> Any:
        try:
            return fn(format_cards(hole), format_cards(board))
        except ValueError:
            return None

    return call
