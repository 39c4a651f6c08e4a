"""Bust groups (R-TOUR-12): the busts of one hand or of one hand-for-hand round form one
group below every survivor, ranked by their stacks at the start of the hand, not by time;
equal starting stacks share their places' prizes, the leftover chips one each from the
button's left (not by player id)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from croupier.tournament import PlayCashier, groups, scheduled
from croupier.tournament.director import Placing, rank_out
from croupier.tournament.structures import HYPER
from tests.tournament.kit import register_bots, run


def _director(where: list[str], prizes: tuple[int, ...], tables: set[int]) -> Any:
    """The part of a director the bust groups read (players still in, prizes, tables)."""
    return SimpleNamespace(
        round_open=set(),
        round_busts=[],
        actors=dict.fromkeys(tables),
        where=dict.fromkeys(where),
        placings=[],
        launch=SimpleNamespace(prizes=prizes),
        _dealt=lambda placed: placed,
    )


def test_odd_chips_go_from_the_buttons_left_not_by_player_id() -> None:
    """R-TOUR-12: two players out in one hand with equal starting stacks share places 2
    and 3 (31 + 10 = 41 chips): the odd chip goes to the first of them from the button's
    left — seat 5 with the button at seat 3 — though its id sorts after seat 1's."""
    order = groups.left_of_button(3, (1, 3, 5), ("aa", "btn", "zz"), table=0)
    placed = rank_out(["aa", "zz"], {"aa": 400, "zz": 400}, 2, (100, 31, 10), 9.0, order)
    assert [(p.player_id, p.place, p.prize) for p in placed] == [("zz", 2, 21), ("aa", 2, 20)]
    # the button moved past seat 5: now seat 1 is first from its left
    order = groups.left_of_button(6, (1, 3, 5), ("aa", "btn", "zz"), table=0)
    placed = rank_out(["aa", "zz"], {"aa": 400, "zz": 400}, 2, (100, 31, 10), 9.0, order)
    assert [(p.player_id, p.prize) for p in placed] == [("aa", 21), ("zz", 20)]


def test_a_hand_for_hand_rounds_busts_form_one_group_ranked_by_stacks() -> None:
    """R-TOUR-12, R-TOUR-17: in one hand-for-hand round, table 1 busts a player who began
    the hand with 800 at t=10, table 2 a player who began with 500 at t=12: by time the
    later one would place better; as one group the bigger starting stack ranks higher.
    Nothing is placed until the round's last table finishes its hand; then both take the
    places below the survivors."""
    d = _director(["s1", "s2"], (50, 30, 20, 0, 0, 0), {1, 2, 3})
    groups.open_round(d, {1, 2, 3})
    groups.round_bust(d, [("big", 800, (1, 4), 10.0)])
    groups.hand_done(d, 1)
    groups.round_bust(d, [("small", 500, (2, 0), 12.0)])
    groups.hand_done(d, 2)
    assert d.placings == [] and d.round_open == {3}, "table 3 has not finished its hand"
    groups.hand_done(d, 3)
    assert [(p.player_id, p.place) for p in d.placings] == [("big", 3), ("small", 4)]
    assert d.round_busts == [] and d.round_open == set()


def test_equal_stacks_of_one_round_share_their_places_prizes() -> None:
    """R-TOUR-12: two players out in the same round at two tables with equal starting
    stacks tie for places 2-3 and share 30 + 15 = 45: 23 to the first by table then from
    its button's left, 22 to the other; a restart in the middle of the round places the
    busts already recorded at once (the round's cut hands are void)."""
    d = _director(["s1"], (55, 30, 15), {1, 2})
    groups.open_round(d, {1, 2})
    groups.round_bust(d, [("zz", 600, (1, 2), 5.0)])
    groups.round_bust(d, [("aa", 600, (2, 0), 6.0)])
    saved = groups.round_state(d)
    groups.hand_done(d, 1)
    groups.hand_done(d, 2)
    assert [(p.player_id, p.place, p.prize) for p in d.placings] == [
        ("zz", 2, 23),
        ("aa", 2, 22),
    ]
    fresh = _director(["s1"], (55, 30, 15), {1, 2})
    groups.resume_round(fresh, saved)
    assert fresh.placings == d.placings


def test_a_played_bubble_places_each_rounds_busts_as_one_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-TOUR-12, R-TOUR-17 through the director: 30 bots, 6 paid, played hand for hand
    on the bubble; the busts of each round share one time (the round's end) and take
    consecutive places ranked by their starting stacks; every place 1..N is given once."""
    recorded: list[list[groups.Bust]] = []
    real = groups.round_bust

    def spy(d: Any, busts: list[groups.Bust]) -> None:
        recorded.append(list(busts))
        real(d, busts)

    monkeypatch.setattr(groups, "round_bust", spy)
    spec = scheduled(
        "mtt-g", "MTT", opens_at=0.0, starts_at=60.0, seats=6, max_entrants=100,
        buy_in=100, starting_stack=1000, schedule=HYPER, between_hands=1.0, bot_delay=0.5,
    )  # fmt: skip
    reg = register_bots(spec, 30, PlayCashier({f"b{i}": 100 for i in range(30)}))
    result = asyncio.run(run(reg, 3))
    d = result.director
    assert d.finished and d.h4h_rounds
    assert recorded, "someone busted in a hand-for-hand round"
    by_player: dict[str, Placing] = {p.player_id: p for p in d.placings}
    busts = [b for r in recorded for b in r]
    for b in busts:
        assert by_player[b[0]].at >= b[3]
    same_round: dict[float, list[groups.Bust]] = {}
    for b in busts:
        same_round.setdefault(by_player[b[0]].at, []).append(b)
    for members in same_round.values():
        ranked = sorted(members, key=lambda b: by_player[b[0]].place)
        assert [b[1] for b in ranked] == sorted((b[1] for b in members), reverse=True)
    assert sorted(p.place for p in d.placings) == list(range(1, 31))


def test_late_registration_busts_keep_their_button_order_until_placed() -> None:
    """R-TOUR-12, R-TOUR-11: two players out in one hand during late registration with
    equal starting stacks are placed when it closes; the odd chip of their shared prize
    still goes to the first from that hand's button's left, not by player id."""
    from croupier.table.clock import FakeClock
    from croupier.tournament import late
    from croupier.tournament.registration import Launch
    from croupier.tournament.structures import PayoutTable, PayoutTier

    payouts = PayoutTable((PayoutTier(10, (6000, 2500, 1500)),))
    d: Any = SimpleNamespace(
        late=True,
        group=0,
        pending=[],
        pending_order={},
        clock=FakeClock(3.0),
        where=dict.fromkeys(["s1"]),
        placings=[],
        launch=Launch(tuple(SimpleNamespace() for _ in range(3)), 45, ()),  # type: ignore[arg-type]
        spec=SimpleNamespace(buy_in=15, payouts=payouts),
        _save=lambda: None,
    )
    order = groups.left_of_button(4, (2, 7), ("aa", "zz"), table=1)
    late.record_busts(d, ["aa", "zz"], {"aa": 300, "zz": 300}, order)
    late.close_late(d)
    prizes = payouts.prizes(45, 3)  # (28, 11, 6): floored, the remainder to 1st (R-TOUR-9)
    share = prizes[1] + prizes[2]
    assert [(p.player_id, p.place) for p in d.placings] == [("zz", 2), ("aa", 2)]
    assert share == 17 and [p.prize for p in d.placings] == [9, 8]
    assert d.pending == [] and d.pending_order == {}
