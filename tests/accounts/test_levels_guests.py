"""Levels and guests (R-SEAT-2: the arcade quick match needs level 6 and has no spectators)."""

from __future__ import annotations

import itertools

import pytest

from croupier.accounts import (
    ARCADE_MIN_LEVEL,
    Accounts,
    Guest,
    experience_for_level,
    level_for,
    may_quick_match,
    may_watch,
)
from croupier.engine.rules import profile
from croupier.store import Store
from tests.store.backends import FakeClock


def test_curve_is_increasing_and_matches_its_formula() -> None:
    """R-SEAT-2: the documented curve, 25 (L - 1)(L + 2), each step 50 more than the last."""
    xs = [experience_for_level(n) for n in range(1, 101)]
    steps = [b - a for a, b in itertools.pairwise(xs)]
    assert xs[:6] == [0, 100, 250, 450, 700, 1000]
    assert all(b - a == 50 for a, b in itertools.pairwise(steps))
    for n in range(1, 101):
        assert level_for(xs[n - 1]) == n
        if n > 1:
            assert level_for(xs[n - 1] - 1) == n - 1
    with pytest.raises(ValueError):
        level_for(-1)


def test_level_six_after_a_hundred_hands(store: Store, clock: FakeClock) -> None:
    """R-SEAT-2: level 6 — the arcade quick match — is reached in 100 hands played, fewer
    with wins."""
    accounts = Accounts(store.users, clock=clock)
    ann = accounts.register("Ann_1", "correct horse battery")
    bob = accounts.register("Bob_1", "correct horse battery")
    for hand in range(99):
        accounts.record_hand({ann.id: False, bob.id: hand % 6 == 0})
    a = accounts.account(ann.id)
    b = accounts.account(bob.id)
    assert a is not None and b is not None
    assert a.hands_played == 99 and a.level == 5 and not may_quick_match(a.level)
    assert b.level == ARCADE_MIN_LEVEL and b.hands_won == 17
    a = accounts.record_hand({ann.id: False})[ann.id]
    assert a.experience == 1000 and a.level == 6 and may_quick_match(a.level)


def test_guests_watch_only_where_spectators_are_allowed() -> None:
    """R-SEAT-2: the arcade profile allows no spectators; room and naiko do."""
    guest = Guest.new()
    assert guest.id.startswith("guest-") and guest.id != Guest.new().id
    assert may_watch(guest, profile("room")) and may_watch(guest, profile("naiko"))
    assert not may_watch(guest, profile("arcade"))
