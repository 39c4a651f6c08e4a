"""Shuffling (R-CARD-3): the OS CSPRNG for live play, a seeded shuffler for the rest.

Live tables use :class:`SystemShuffler`, an unbiased Fisher–Yates shuffle driven by
:class:`random.SystemRandom` (the operating system's CSPRNG). :class:`SeededShuffler` is
reproducible and exists for tests, replays and simulations only; it says so in its
``live`` attribute, which a live table checks before accepting a shuffler.

>>> from croupier.engine.cards import DECK_52
>>> a = SeededShuffler(7).shuffle(DECK_52)
>>> b = SeededShuffler(7).shuffle(DECK_52)
>>> a == b, sorted(a) == list(DECK_52)
(True, True)
>>> SystemShuffler().live, SeededShuffler(1).live
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

__all__ = ["SeededShuffler", "Shuffler", "SystemShuffler", "fisher_yates"]

T = TypeVar("T")


class _RandBelow(Protocol):
    def randrange(self, stop: int, /) -> int: ...


def fisher_yates(items: Sequence[T], rng: _RandBelow) -> tuple[T, ...]:
    """An unbiased Fisher–Yates (Durstenfeld) shuffle of ``items`` into a new tuple.

    ``rng.randrange(k)`` must be uniform on ``0..k-1`` (both :class:`random.Random` and
    :class:`random.SystemRandom` draw it by rejection sampling, without modulo bias).
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class Shuffler(Protocol):
    """Something that shuffles a deck. ``live`` is true only for the CSPRNG shuffler."""

    @property
    def live(self) -> bool: ...

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]: ...


class SystemShuffler:
    """The live shuffle: OS CSPRNG + Fisher–Yates (R-CARD-3)."""

    live = True

    def __init__(self) -> None:
        self._rng = random.SystemRandom()

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        return fisher_yates(items, self._rng)


class SeededShuffler:
    """A reproducible shuffle for tests, replays and simulations; never for a live table."""

    live = False

    def __init__(self, seed: int | str | bytes) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        # random.Random.shuffle is the same Durstenfeld shuffle with rejection-sampled
        # indices, in C for the index draws: simulations shuffle millions of decks.
        out = list(items)
        self._rng.shuffle(out)
        return tuple(out)
