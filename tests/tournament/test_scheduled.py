"""Scheduled multi-table tournaments (R-TOUR-3, R-TOUR-4, R-SEAT-2, R-BOT-1): 30 bots on
5 tables, balanced and broken down to a final table, every chip accounted for."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from croupier.tournament.errors import TournamentError
from croupier.tournament.money import PlayCashier
from croupier.tournament.registration import TournamentSpec
from croupier.tournament.scheduled import (
    balance_move,
    break_destinations,
    draw_seats,
    free_seat,
    next_big_blind,
    scheduled,
    table_to_break,
    tables_needed,
)
from croupier.tournament.structures import HYPER
from tests.tournament.kit import register_bots, run


def _spec() -> TournamentSpec:
    return scheduled(
        "mtt-30",
        "MTT 30",
        opens_at=0.0,
        starts_at=60.0,
        seats=6,
        max_entrants=100,
        buy_in=100,
        starting_stack=1000,
        schedule=HYPER,
        between_hands=1.0,
        bot_delay=0.5,
    )


@pytest.mark.parametrize("seed", [3, 8])
def test_thirty_bots_on_five_tables_down_to_the_final_table(seed: int) -> None:
    """R-TOUR-3, R-TOUR-4, R-SEAT-2: the draw fills 5 tables of 6; as players drop out
    tables are balanced (never left with a largest table two players above the smallest
    at its hand boundary) and broken (down to one final table); chips are the same at
    every hand's end; all 30 are placed once; the prizes for 30 entrants are paid and the
    pool is empty; a player moved to balance never skips a blind."""
    spec = _spec()
    cashier = PlayCashier({f"b{i}": 100 for i in range(30)})
    reg = register_bots(spec, 30, cashier)
    result = asyncio.run(run(reg, seed))
    d = result.director
    assert d.finished
    # the draw: 5 tables of 6
    first_hands = {t: began for t, _, began in reversed(result.began)}
    assert sorted(first_hands) == [0, 1, 2, 3, 4]
    # chips conserved at every hand end, on every table
    assert {chips for _, _, chips in result.settled} == {30 * 1000}
    assert d.checks == len(result.settled) > 100
    # tables broken down to the final table
    assert len(d.broken) == 4 and len(d.actors) == 1
    reasons = Counter(m.reason for m in d.moves)
    assert reasons["break"] >= 4 and reasons["balance"] >= 1
    assert all(m.chips > 0 for m in d.moves)
    # balancing at every boundary
    for boundary, counts in d.reorganized:
        high, low = max(counts.values()), min(counts.values())
        for t in boundary:
            if t in counts and high - low > 1:
                assert counts[t] < high, (boundary, counts)
    # a player moved to balance posts a blind in the first hand at the new table
    for move in (m for m in d.moves if m.reason == "balance"):
        began = next(
            b
            for t, at, b in result.began
            if t == move.dest and at >= move.at and move.player_id in b.players
        )
        assert began.blinds[began.players.index(move.player_id)] > 0
    # places and prizes
    assert sorted(p.player_id for p in d.placings) == sorted(f"b{i}" for i in range(30))
    assert Counter(p.place for p in d.placings)[1] == 1
    assert result.launch.prizes == (1050, 660, 450, 330, 270, 240)
    paid = sorted((p.prize for p in d.placings if p.prize), reverse=True)
    assert sum(paid) == 3000 == sum(cashier.balances.values())
    assert cashier.pool("mtt-30") == 0
    assert all(not a.alive for a in d._opened)


def test_pure_seating_rules() -> None:
    """R-SEAT-2, R-TOUR-3: the draw spreads players evenly over tables at random seats;
    breaking picks the smallest table and fills the smallest others; balancing moves from
    a largest table at its boundary to the smallest; the mover is the next big blind."""
    seats = draw_seats([f"p{i}" for i in range(23)], 6, random.Random(2))
    per_table = Counter(t for t, _ in seats.values())
    assert sorted(per_table.values()) == [5, 6, 6, 6]
    assert len(set(seats.values())) == 23
    assert tables_needed(23, 6) == 4 and tables_needed(24, 6) == 4 and tables_needed(25, 6) == 5
    assert table_to_break({0: 4, 1: 4, 2: 3}, 6) == 2
    assert table_to_break({0: 3, 1: 3, 2: 3}, 6) == 2
    assert table_to_break({0: 6, 1: 6, 2: 1}, 6) is None
    assert break_destinations(["a", "b", "c"], {0: 4, 1: 3, 2: 3}, 2) == {
        "a": 1,
        "b": 0,
        "c": 1,
    }
    assert balance_move({0: 6, 1: 4, 2: 6}, {0, 1, 2}) == (0, 1)
    assert balance_move({0: 6, 1: 4, 2: 6}, {1}) is None
    assert balance_move({0: 6, 1: 5, 2: 6}, {0, 1, 2}) is None
    assert next_big_blind([0, 2, 4], last_big_blind=4, seats=6) == 0
    assert next_big_blind([0, 2, 4], last_big_blind=0, seats=6) == 2
    assert free_seat({0, 1, 2, 4, 5}, 6, random.Random(1)) == 3
    with pytest.raises(TournamentError) as err:
        free_seat(set(range(6)), 6, random.Random(1))
    assert err.value.code == "table_full"
    with pytest.raises(TournamentError) as err:
        break_destinations(["a"], {0: 1}, 0)
    assert err.value.code == "no_table"


@pytest.mark.parametrize(("entrants", "seats"), [(19, 6), (11, 10), (7, 3)])
def test_uneven_fields_end_with_every_chip_and_place(entrants: int, seats: int) -> None:
    """R-TOUR-3, R-TOUR-4: fields that do not fill their tables (short tables, a table of
    three) still balance, break and end: one winner, every entrant placed, chips constant."""
    spec = scheduled(
        "mtt-u",
        "MTT",
        opens_at=0.0,
        starts_at=1.0,
        seats=seats,
        starting_stack=800,
        schedule=HYPER,
        between_hands=1.0,
        bot_delay=0.5,
    )
    result = asyncio.run(run(register_bots(spec, entrants), entrants))
    d = result.director
    assert d.finished and len(d.actors) == 1
    assert sorted(p.player_id for p in d.placings) == sorted(f"b{i}" for i in range(entrants))
    assert {chips for _, _, chips in result.settled} == {entrants * 800}
    assert len(d.broken) == tables_needed(entrants, seats) - 1
