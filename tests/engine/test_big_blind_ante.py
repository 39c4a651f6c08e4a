"""The big-blind ante (R-TOUR-7, TDA RP-11): the player in the big blind posts the blind,
then an ante equal to it; a short stack's chips go to the blind first; the ante is dead
money in the main pot; chips are conserved."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.cards import DECK_52
from croupier.engine.errors import ConfigurationError
from croupier.engine.events import ForcedBet
from croupier.engine.game import Game, Stakes
from croupier.engine.state import apply, auto_showdown_action, legal_actions, start_hand
from tests.engine.kit import ended, events_of, finish_showdown, play, start

BBA = Game.of("nlhe", blinds=(100, 200), ante=200, big_blind_ante=True)
BOARD = "2c5d9hTs3h"
AA, KK, QQ = "AsAh", "KsKh", "QsQc"


def posts(events: list) -> list[tuple[int, str, int, bool]]:  # type: ignore[type-arg]
    return [(e.player, e.kind, e.amount, e.all_in) for e in events_of(events, ForcedBet)]


def test_only_the_big_blind_posts_the_ante_after_the_blind() -> None:
    """R-TOUR-7: with a big-blind ante only the big blind antes, after posting the blind;
    the others post nothing more than their blinds; the call is still the big blind."""
    s, ev = start(BBA, (5000, 5000, 5000))
    assert posts(ev) == [(0, "small_blind", 100, False), (1, "big_blind", 200, False),
                         (1, "ante", 200, False)]  # fmt: skip
    assert s.contributions == (100, 400, 0)
    assert s.current_bet == 200
    legal = legal_actions(s)
    assert s.actor == 2 and legal.call == 200


def test_heads_up_the_big_blind_is_position_zero_and_antes() -> None:
    """R-TOUR-7: heads-up the big blind (position 0, the button posts the small) antes."""
    _, ev = start(BBA, (5000, 5000))
    assert posts(ev) == [(1, "small_blind", 100, False), (0, "big_blind", 200, False),
                         (0, "ante", 200, False)]  # fmt: skip


def test_explicit_blinds_the_big_blind_antes_wherever_it_is() -> None:
    """R-TOUR-7: with the table's blinds (a dead small blind), the big blind still antes."""
    _, ev = start(BBA, (5000, 5000, 5000), blinds=(0, 200, 0))
    assert posts(ev) == [(1, "big_blind", 200, False), (1, "ante", 200, False)]


@pytest.mark.parametrize(
    ("stack", "blind", "ante"),
    [(150, 150, 0), (200, 200, 0), (250, 200, 50), (400, 200, 200), (401, 200, 200)],
)
def test_a_short_big_blind_pays_the_blind_first(stack: int, blind: int, ante: int) -> None:
    """R-TOUR-7, TDA RP-11: a big blind short of blind + ante puts its chips in the blind
    first and the rest in the ante."""
    _, ev = start(BBA, (5000, stack, 5000))
    got = [(k, a) for p, k, a, _ in posts(ev) if p == 1]
    assert got == [("big_blind", blind)] + ([("ante", ante)] if ante else [])


def test_the_ante_is_dead_money_the_short_big_blind_can_win() -> None:
    """R-TOUR-7, R-POT-1: a big blind all-in for blind + part of the ante wins the whole
    main pot (ante included) from a caller when it has the best hand; chips are conserved."""
    s, ev = start(BBA, (5000, 250, 5000), [KK, AA, QQ], BOARD)
    s, ev2 = play(s, fold(2), call(0))
    s, ev3 = finish_showdown(s)
    res = ended(ev + ev2 + ev3)
    assert sum(res.stacks) == 10_250
    # the big blind wins its 200 + 200 from the small blind + its 50 of ante
    assert res.stacks == (4800, 450, 5000)


def test_a_walk_gives_the_big_blind_back_its_chips() -> None:
    """R-TOUR-7: when everyone folds to the big blind it takes the blinds and its ante."""
    s, ev = start(BBA, (5000, 5000, 5000))
    s, ev2 = play(s, fold(2), fold(0))
    res = ended(ev + ev2)
    assert res.stacks == (4900, 5100, 5000)


@given(
    st.lists(st.integers(1, 1500), min_size=2, max_size=9),
    st.integers(0, 2**32 - 1),
)
def test_chips_are_conserved_with_short_stacks(stacks: list[int], seed: int) -> None:
    """R-TOUR-7, R-POT-1: random short stacks and random play with a big-blind ante: no chip
    is created or lost, and the big blind never antes before its blind is complete."""
    rng = random.Random(seed)
    deck = list(DECK_52)
    rng.shuffle(deck)
    s, ev = start_hand(BBA, stacks, deck)
    bb = 1 if len(stacks) > 2 else 0
    mine = [e for e in events_of(ev, ForcedBet) if e.player == bb]
    if any(e.kind == "ante" for e in mine):
        assert mine[0].kind == "big_blind" and mine[0].amount == 200
    events = list(ev)
    for _ in range(200):
        if s.is_over:
            break
        try:
            action = _random_action(s, rng)
        except LookupError:
            action = auto_showdown_action(s)
        s, more = apply(s, action)
        events.extend(more)
    assert s.is_over
    assert sum(ended(events).stacks) == sum(stacks)


def _random_action(s, rng: random.Random):  # type: ignore[no-untyped-def]
    legal = legal_actions(s)
    choices = []
    if legal.can_fold:
        choices.append(fold(s.actor))
    if legal.can_check:
        choices.append(check(s.actor))
    if legal.can_call:
        choices.append(call(s.actor))
    if legal.can_raise:
        choices.append(raise_to(s.actor, rng.randint(legal.min_raise, legal.max_raise)))
    if not choices or legal.show_or_muck:
        raise LookupError("no betting action")
    return rng.choice(choices)


def test_big_blind_ante_is_a_bool() -> None:
    """R-TOUR-7: the option is data, checked like the other stakes."""
    with pytest.raises(ConfigurationError):
        Stakes(small_blind=1, big_blind=2, ante=2, big_blind_ante=1)  # type: ignore[arg-type]
