"""Rake and the arcade points levy (SPEC §6: R-RAKE-1 … R-RAKE-3)."""

from __future__ import annotations

import pytest

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.events import LevyTaken, RakeTaken
from croupier.engine.game import Game
from croupier.engine.rules import (
    ROOM_FL_HIGH_RAKE,
    ROOM_FL_LOW_RAKE,
    ROOM_FL_MID_RAKE,
    ROOM_NL_RAKE,
    RakePolicy,
    profile,
)
from tests.engine.kit import ended, events_of, finish_showdown, play, start

BOARD = "2c5d9hTs3h"
AA, KK, QQ = "AsAh", "KsKh", "QsQc"
ROOM_RAKE = profile("room", rake=RakePolicy(kind="room"))


def test_rake_is_off_by_default_in_every_profile_but_arcade_levy() -> None:
    """R-RAKE-1, §12: no rake by default (room on play chips, naiko); arcade has the levy."""
    assert profile("room").rake.kind == "none"
    assert profile("naiko").rake.kind == "none"
    assert profile("arcade").rake.kind == "levy"
    s, _ = start(Game.of("nlhe", blinds=(50, 100)), (5000, 5000), [AA, KK], BOARD)
    s, ev = play(s, raise_to(1, 1000), call(0), *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev2 = finish_showdown(s)
    assert ended(ev2).rake == 0 and not events_of(ev + ev2, RakeTaken)


@pytest.mark.parametrize(
    ("pot", "players", "rake"),
    [
        (19, 2, 0),  # below one small step
        (20, 2, 1),
        (399, 2, 19),  # under 400: 1 per 20
        (400, 2, 20),  # from 400: 5 per 100
        (999, 6, 45),  # whole steps only
        (1000, 6, 50),
        (1600, 2, 75),  # cap 2 players
        (10_000, 3, 200),  # cap 3-4 players
        (10_000, 4, 200),
        (10_000, 5, 300),  # cap 5-10 players
        (100_000, 10, 300),
    ],
)
def test_room_no_limit_schedule(pot: int, players: int, rake: int) -> None:
    """R-RAKE-2: No-Limit, Pot-Limit, half-pot: steps, small-pot threshold, caps."""
    assert ROOM_NL_RAKE.amount(pot, players) == rake


@pytest.mark.parametrize(
    ("band", "pot", "players", "rake"),
    [
        (ROOM_FL_LOW_RAKE, 199, 2, 9),
        (ROOM_FL_LOW_RAKE, 200, 2, 10),
        (ROOM_FL_LOW_RAKE, 1999, 3, 75),
        (ROOM_FL_LOW_RAKE, 5000, 4, 100),
        (ROOM_FL_MID_RAKE, 199, 4, 9),
        (ROOM_FL_MID_RAKE, 999, 4, 25),
        (ROOM_FL_MID_RAKE, 1000, 4, 50),
        (ROOM_FL_MID_RAKE, 100_000, 3, 75),
        (ROOM_FL_MID_RAKE, 100_000, 4, 200),
        (ROOM_FL_HIGH_RAKE, 150, 4, 0),
        (ROOM_FL_HIGH_RAKE, 1999, 4, 50),
        (ROOM_FL_HIGH_RAKE, 2000, 4, 100),
        (ROOM_FL_HIGH_RAKE, 100_000, 2, 75),
        (ROOM_FL_HIGH_RAKE, 100_000, 10, 200),
    ],
)
def test_room_limit_schedules(band, pot: int, players: int, rake: int) -> None:  # type: ignore[no-untyped-def]
    """R-RAKE-2: Fixed/Spread bands by stakes."""
    assert band.amount(pot, players) == rake


@pytest.mark.parametrize(
    ("name", "bets", "band"),
    [
        ("nlhe", None, ROOM_NL_RAKE),
        ("plo", None, ROOM_NL_RAKE),
        ("hplhe", None, ROOM_NL_RAKE),
        ("flhe", (2, 4), ROOM_FL_LOW_RAKE),
        ("flhe", (50, 100), ROOM_FL_LOW_RAKE),
        ("flhe", (100, 200), ROOM_FL_MID_RAKE),
        ("slhe", (100, 200), ROOM_FL_MID_RAKE),
        ("flo8", (200, 400), ROOM_FL_HIGH_RAKE),
        ("flhe", (500, 1000), ROOM_FL_HIGH_RAKE),
    ],
)
def test_band_chosen_from_structure_and_stakes(name, bets, band) -> None:  # type: ignore[no-untyped-def]
    """R-RAKE-2: the band follows the structure and the stakes (amounts in cents)."""
    bb = bets[0] if bets else 100
    g = Game.of(name, blinds=(bb // 2, bb), bets=bets, rules=ROOM_RAKE)
    assert g.rake_band() == band
    assert Game.of(name, blinds=(bb // 2, bb), bets=bets).rake_band() is None


def test_rake_capped_by_players_dealt_in() -> None:
    """R-RAKE-2: the cap counts the players dealt in, folded or not."""
    g = Game.of("nlhe", blinds=(50, 100), rules=ROOM_RAKE)
    s, _ = start(g, (10_000,) * 5, [AA, KK, QQ, "JsJc", "8s8c"], BOARD)
    s, _ = play(s, fold(2), fold(3), fold(4), raise_to(0, 5000), call(1))
    s, ev = play(s, *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev2 = finish_showdown(s)
    res = ended(ev + ev2)
    assert res.rake == 300  # 5 dealt in: cap 300 (two players left would cap at 75)
    assert res.stacks[0] == 10_000 + 5000 - 300


def test_no_flop_no_drop() -> None:
    """R-RAKE-2: a hand that ends before the flop is not raked."""
    g = Game.of("nlhe", blinds=(50, 100), rules=ROOM_RAKE)
    s, _ = start(g, (10_000,) * 3)
    s, ev = play(s, raise_to(2, 3000), call(0), fold(1))
    assert s.street == 1
    s, ev = play(s, raise_to(0, 1000), fold(2))
    assert ended(ev).rake > 0  # the flop was dealt
    s, _ = start(g, (10_000,) * 3)
    s, ev = play(s, raise_to(2, 3000), call(0), raise_to(1, 9000), fold(2), fold(0))
    res = ended(ev)
    assert res.rake == 0 and not events_of(ev, RakeTaken)
    assert res.stacks == (7000, 16_000, 7000)


def test_pre_flop_all_in_run_out_is_raked() -> None:
    """R-RAKE-2: an all-in before the flop that runs out the board reached the flop."""
    g = Game.of("nlhe", blinds=(50, 100), rules=ROOM_RAKE)
    s, _ = start(g, (1000, 1000), [AA, KK], BOARD)
    s, ev = play(s, raise_to(1, 1000), call(0))
    res = ended(ev)
    assert res.rake == 75 and res.stacks == (2000 - 75, 0)


def test_refunds_are_never_raked_and_rake_comes_from_the_main_pot_first() -> None:
    """R-RAKE-2 Decision: the rake is computed on the total of the pots (after refunds) and
    taken from the main pot first."""
    g = Game.of("nlhe", blinds=(5, 10), rules=ROOM_RAKE)
    s, _ = start(g, (20, 500, 800), [AA, KK, QQ], BOARD)
    s, ev = play(s, raise_to(2, 800), call(0), call(1))
    res = ended(ev)
    # refund 300 to p2; pots: main 60, side 960; total 1020 -> 50 (5 per 100, 3 players)
    assert [p.amount for p in res.pots] == [60, 960]
    assert [p.rake for p in res.pots] == [50, 0]
    assert res.rake == 50
    assert [(e.pot, e.amount) for e in events_of(ev, RakeTaken)] == [(0, 50)]
    assert res.pots[0].winnings == (10, 0, 0)
    assert res.stacks == (10, 960, 300)


def test_rake_spills_into_side_pots_when_the_main_pot_is_too_small() -> None:
    """R-RAKE-2: rake larger than the main pot is taken from the next pot."""
    g = Game.of("nlhe", blinds=(5, 10), rules=ROOM_RAKE)
    s, _ = start(g, (10, 2000, 2000), [AA, KK, QQ], BOARD)
    s, ev = play(s, raise_to(2, 2000), call(0), call(1))
    res = ended(ev)
    # main 30, side 3980: total 4010 -> 200 (3 players): 30 from main, 170 from the side
    assert [p.rake for p in res.pots] == [30, 170]
    assert res.stacks == (0, 3810, 0)
    assert sum(res.stacks) + res.rake == 4010


# -- R-RAKE-3: arcade levy --------------------------------------------------------------------

ARCADE = Game.of("nlhe", blinds=(5, 10), rules="arcade")


def test_arcade_levy_20_percent_rounded_up_points_times_ten_shared_rounded_up() -> None:
    """R-RAKE-3: 20 % of each pot with two or more contributors, rounded up, is taken first;
    points = levy x 10 shared in proportion to the chips put in, each rounded up."""
    s, _ = start(ARCADE, (100, 100, 100), [AA, KK, QQ], BOARD)
    s, ev = play(s, raise_to(2, 21), fold(0), call(1))
    s, ev2 = play(s, *[check(p) for _ in range(3) for p in (1, 2)])
    s, ev3 = finish_showdown(s)
    res = ended(ev + ev2 + ev3)
    (levy,) = events_of(ev + ev2 + ev3, LevyTaken)
    # pot 5 + 21 + 21 = 47: 20 % = 9.4 -> 10; points 100: 5/47 -> 10.6 -> 11,
    # 21/47 -> 44.7 -> 45 each (the folded small blind earns points too)
    assert (levy.pot, levy.amount) == (0, 10)
    assert levy.points == (11, 45, 45)
    assert res.points == (11, 45, 45)
    assert res.rake == 10
    assert res.pots[0].rake == 10 and res.pots[0].winnings == (0, 37, 0)
    assert sum(res.stacks) + res.rake == 300


def test_arcade_levy_at_least_one_chip() -> None:
    """R-RAKE-3: a levy below one chip is rounded up to 1."""
    s, _ = start(ARCADE, (100, 100))
    s, ev = play(s, fold(1))
    res = ended(ev)
    # the big blind's 5 extra are returned; pot 10 (5 + 5): 20 % = 2
    assert res.rake == 2
    g = Game.of("nlhe", blinds=(1, 2), rules="arcade")
    s, _ = start(g, (100, 100))
    s, ev = play(s, fold(1))
    res = ended(ev)
    assert res.rake == 1  # pot 2: 0.4 -> 1
    assert res.points == (5, 5)


def test_arcade_levy_per_pot_and_single_contributor_refunded_without_levy() -> None:
    """R-RAKE-3: each pot pays its own levy; chips only one player put in are refunded with
    no levy (the seed's example: side pot 3 returned to A)."""
    s, _ = start(ARCADE, (20, 60, 200), [AA, KK, QQ], BOARD)
    s, ev = play(s, raise_to(2, 200), call(0), call(1))
    res = ended(ev)
    levies = [(e.pot, e.amount) for e in events_of(ev, LevyTaken)]
    # main 60 -> 12; side 80 -> 16; p2's 140 unmatched: returned, no levy
    assert levies == [(0, 12), (1, 16)]
    assert [p.amount for p in res.pots] == [60, 80]
    assert res.stacks == (48, 64, 140)
    assert sum(res.stacks) + res.rake == 280


def test_levy_is_a_house_rule_with_configurable_rates() -> None:
    """R-RAKE-3, §12: the levy percent and points rate are data and overridable."""
    rules = profile("arcade", rake=RakePolicy(kind="levy", levy_percent=10, points_per_chip=1))
    g = Game.of("nlhe", blinds=(5, 10), rules=rules)
    s, _ = start(g, (100, 100))
    s, ev = play(s, raise_to(1, 50), call(0), *[check(p) for _ in range(3) for p in (0, 1)])
    s, ev2 = finish_showdown(s)
    res = ended(ev + ev2)
    assert res.rake == 10 and res.points == (5, 5)
