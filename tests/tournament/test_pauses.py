"""Hand-for-hand on the bubble (R-TOUR-17) and breaks (R-TOUR-18) of a multi-table event,
on the fake clock: tables wait for each other through the table's ``HoldHands`` hook."""

from __future__ import annotations

import asyncio
import itertools

from croupier.tournament import PlayCashier, scheduled
from croupier.tournament.structures import HYPER
from tests.tournament.kit import register_bots, run


def test_hand_for_hand_on_the_bubble() -> None:
    """R-TOUR-17: 30 bots, 6 paid: once 7 are left on two tables, each table plays one
    hand and waits until every table has finished it; between two releases no table
    begins more than one hand; it ends when the bubble bursts (6 left)."""
    spec = scheduled(
        "mtt-h", "MTT", opens_at=0.0, starts_at=60.0, seats=6, max_entrants=100,
        buy_in=100, starting_stack=1000, schedule=HYPER, between_hands=1.0, bot_delay=0.5,
    )  # fmt: skip
    reg = register_bots(spec, 30, PlayCashier({f"b{i}": 100 for i in range(30)}))
    result = asyncio.run(run(reg, 3))
    d = result.director
    assert d.finished and len(result.launch.prizes) == 6
    assert d.h4h_rounds, "the bubble was played hand for hand"
    bubble = next(p.at for p in d.placings if p.place == 7)
    releases = [at for at, _ in d.h4h_rounds] + [bubble]
    assert all(len(tables) >= 2 for _, tables in d.h4h_rounds)
    for start, end in itertools.pairwise(releases):
        began = [t for t, at, _ in result.began if start <= at < end]
        assert all(began.count(t) <= 1 for t in set(began)), (start, end, began)
    assert not d.hand_for_hand  # over once the bubble burst
    assert sorted(p.place for p in d.placings).count(1) == 1


def test_breaks_start_when_every_table_has_finished_its_hand() -> None:
    """R-TOUR-18: breaks of 30 s after 120 s of play, then every 120 s: a break starts
    only when no table is in a hand, no hand is dealt during it, play resumes after it,
    and the event still ends with every chip and place accounted for."""
    spec = scheduled(
        "mtt-b", "MTT", opens_at=0.0, starts_at=60.0, seats=6, max_entrants=100,
        buy_in=100, starting_stack=1000, schedule=HYPER, between_hands=1.0, bot_delay=0.5,
        breaks=(120.0, 120.0, 30.0),
    )  # fmt: skip
    reg = register_bots(spec, 12, PlayCashier({f"b{i}": 100 for i in range(12)}))
    result = asyncio.run(run(reg, 5))
    d = result.director
    assert d.finished and d.breaks_taken
    assert d.breaks_taken[0][0] >= 60.0 + 120.0
    for start, end in d.breaks_taken:
        assert end - start == 30.0
        assert not [at for _, at, _ in result.began if start <= at < end]
        # every hand that began before the break had ended when it began
        for table in {t for t, _, _ in result.began}:
            before = [at for t, at, _ in result.began if t == table and at < start]
            ended = [at for t, at, _ in result.settled if t == table and at <= start]
            assert len(ended) >= len(before), (table, start)
        assert [at for _, at, _ in result.began if at >= end], "play resumed"
    assert {chips for _, _, chips in result.settled} == {12 * 1000}
    assert len({p.player_id for p in d.placings}) == 12
