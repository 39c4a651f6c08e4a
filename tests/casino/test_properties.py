"""Property tests of Texas Hold'em Bonus: chips are conserved between the players and
the house over random rounds, and each net agrees with a reference settlement."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.casino.bonus import (
    Bets,
    BonusAction,
    BonusConfig,
    apply,
    legal_actions,
    shuffled_deck,
    start_round,
)
from croupier.casino.events import RoundEnded, Wagered
from croupier.engine.cards import Card
from croupier.engine.evaluate import high
from croupier.engine.rng import SeededShuffler

CFG = BonusConfig()


def _reference_bonus(hole: tuple[Card, ...], dealer: tuple[Card, ...]) -> int:
    """R-BONUS-4 written out plainly, independent of the pay table records."""
    hi, lo = sorted((hole[0].rank, hole[1].rank), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if (hi, lo) == (12, 12):
        return 1000 if {dealer[0].rank, dealer[1].rank} == {12} else 30
    if (hi, lo) == (12, 11):
        return 25 if suited else 15
    if hi == 12 and lo in (10, 9):
        return 20 if suited else 5
    if hi == lo and hi in (9, 10, 11):
        return 10
    if hi == lo:
        return 3
    return -1


round_inputs = st.integers(1, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.tuples(st.integers(1, 1000), st.integers(0, 25)), min_size=n, max_size=n),
        st.lists(st.integers(0, 5000), min_size=n, max_size=n),
        st.integers(0, 2**32),
        st.lists(st.booleans(), min_size=3 * n, max_size=3 * n),
    )
)


@settings(max_examples=100, deadline=None)
@given(round_inputs)
def test_chips_are_conserved(
    data: tuple[list[tuple[int, int]], list[int], int, list[bool]],
) -> None:
    """R-BONUS-1, R-BONUS-2, R-BONUS-3, R-BONUS-4: over random rounds (1-7 players, any
    bets and stacks, random decisions), what the players lose the house wins and each
    player's net is the reference settlement of their hand."""
    bets, extra, seed, choices = data
    stakes = [max(a, 2) + b for a, b in bets]
    stacks = [s + e for s, e in zip(stakes, extra, strict=True)]
    deck = shuffled_deck(SeededShuffler(seed))
    state, events = start_round(CFG, [Bets(a, b) for a, b in bets], deck, stacks=stacks)
    log = list(events)
    k = 0
    while (legal := legal_actions(state)) is not None:
        move = legal.moves[-1] if choices[k] else legal.moves[0]
        k += 1
        state, events = apply(state, BonusAction(legal.player, move))
        log += events
    assert state.result is not None and isinstance(log[-1], RoundEnded)
    final = state.final_stacks
    assert sum(stacks) == sum(f for f in final if f is not None) + state.result.house_net
    assert all(f is not None and f >= 0 for f in final)
    for i, (seat, res) in enumerate(zip(state.seats, state.result.results, strict=True)):
        put = sum(e.amount for e in log if isinstance(e, Wagered) and e.player == i)
        assert put == seat.wagered == res.wagered
        bonus = seat.bonus * _reference_bonus(seat.hole, state.dealer)
        if seat.folded:
            main = -seat.ante
        else:
            pv, dv = high(seat.hole, state.board), high(state.dealer, state.board)
            raises = seat.flop + seat.turn + seat.river
            assert seat.flop == 2 * seat.ante and seat.turn in (0, seat.ante)
            if pv > dv:
                main = raises + (seat.ante if pv >= 5854 else 0)
            elif pv == dv:
                main = 0
            else:
                main = -(raises + seat.ante)
        assert final[i] == stacks[i] + main + bonus
