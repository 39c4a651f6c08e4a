"""`croupier simulate` and :mod:`croupier.analysis.simulate`."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from croupier.analysis.simulate import (
    SimulationResult,
    call_policy,
    make_game,
    play_hand,
    random_policy,
    simulate,
)
from croupier.cli import app
from croupier.engine.actions import ActionKind
from croupier.engine.cards import DECK_52
from croupier.engine.errors import ConfigurationError
from croupier.engine.rng import SeededShuffler
from croupier.engine.state import legal_actions, start_hand

runner = CliRunner()
LINE = re.compile(
    r"^(\d+) hands, (\d+) actions in [\d.]+ s: [\d,]+ hands/s, [\d,]+ actions/s$", re.M
)


@pytest.mark.parametrize("game", ["nlhe", "plo", "flhe", "plo8", "7stud", "27td", "razz"])
def test_every_hand_conserves_chips(game: str) -> None:
    """R-POT-6, R-CARD-3: seeded self-play of complete hands; chips are checked each hand."""
    r = simulate(game, seats=5, stack=100, blinds=(1, 2), hands=60, seed=7)
    assert (r.hands, r.conserved) == (60, True)
    assert r.actions >= 60 * 4  # at least the blinds' opponents act in every hand


def test_seeded_runs_repeat_and_seeds_differ() -> None:
    """R-CARD-3: the same seed plays the same hands; another seed other hands."""
    a = simulate("nlhe", hands=80, seed=3)
    b = simulate("nlhe", hands=80, seed=3)
    c = simulate("nlhe", hands=80, seed=4)
    assert (a.actions, a.showdowns) == (b.actions, b.showdowns)
    assert (a.actions, a.showdowns) != (c.actions, c.showdowns)


def test_call_policy_never_folds_or_raises() -> None:
    """R-BET-8: the call policy checks or calls; every hand reaches the river showdown."""
    game = make_game("nlhe", (1, 2))
    shuffler = SeededShuffler(1)
    for _ in range(20):
        s, actions = play_hand(
            game, (200,) * 6, shuffler.shuffle(DECK_52), call_policy, random.Random(1)
        )
        assert s.result is not None and not any(s.folded) and len(s.board) == 5
        shows = sum(s.shown) + sum(s.mucked)  # one showdown choice each, in order
        assert actions == 6 + 3 * 6 + shows  # five calls and a check, three checked streets


def test_random_policy_frequencies() -> None:
    """R-BET-8: facing a bet, the random policy folds about 20 %, raises about 15 % (12 %
    minimum, 3 % all-in) and calls the rest; every choice is legal."""
    s, _ = start_hand(make_game("nlhe", (1, 2)), (200, 200, 200), DECK_52)
    legal = legal_actions(s)
    assert legal is not None
    rng = random.Random(5)
    picks = [random_policy(s, legal, rng) for _ in range(4000)]
    kinds = [a.kind for a in picks]
    assert abs(kinds.count(ActionKind.FOLD) / 4000 - 0.20) < 0.03
    raises = [a.amount for a in picks if a.kind is ActionKind.RAISE]
    assert abs(raises.count(legal.min_raise) / 4000 - 0.12) < 0.025
    assert abs(raises.count(legal.max_raise) / 4000 - 0.03) < 0.015
    assert set(kinds) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}


def test_result_line_and_rates() -> None:
    """R-CARD-3 (seeded simulations): the summary line reads ``N hands, A actions in T s:
    H hands/s, R actions/s``; the rates come from the injected clock."""
    r = SimulationResult("nlhe", "random", 1, 100, 2500, 80, 0.5, True)
    assert r.hands_per_second == 200 and r.actions_per_second == 5000
    assert r.line() == "100 hands, 2500 actions in 0.50 s: 200 hands/s, 5,000 actions/s"
    clock = iter([10.0, 12.0])
    timed = simulate("flhe", hands=3, seed=1, clock=lambda: next(clock))
    assert timed.seconds == 2.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": 1}, "players"),
        ({"seats": 11}, "players"),
        ({"stack": 0}, "stack"),
        ({"hands": -1}, "hands"),
        ({"policy": "nit"}, "policy"),
        ({"blinds": (2, 1)}, "blinds"),
    ],
)
def test_bad_parameters_are_refused(kwargs: dict[str, object], message: str) -> None:
    """R-BET-8: bad input gets a clear error with a code."""
    with pytest.raises(ConfigurationError, match=message) as info:
        simulate("nlhe", **{"hands": 1, **kwargs})  # type: ignore[arg-type]
    assert info.value.code == "invalid_configuration"


def test_cli_ends_with_the_speed_line() -> None:
    """R-CARD-3, R-POT-6: `croupier simulate` plays N seeded hands (chips checked) and ends
    with the speed line."""
    out = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "plo",
            "--seats",
            "6",
            "--stack",
            "200",
            "--blinds",
            "1/2",
            "--hands",
            "40",
            "--policy",
            "random",
            "--seed",
            "9",
        ],
    )
    assert out.exit_code == 0, out.output
    last = out.output.strip().splitlines()[-1]
    m = LINE.match(last)
    assert m is not None, last
    assert int(m.group(1)) == 40
    assert int(m.group(2)) == simulate("plo", hands=40, seed=9).actions


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "chess"],
        ["--blinds", "1-2"],
        ["--seats", "1"],
        ["--policy", "nit"],
        ["--hands", "-5"],
    ],
)
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    """R-BET-8 (a refusal says why): bad input prints one error line and exits 2."""
    out = runner.invoke(app, ["simulate", "--hands", "2", *args])
    assert out.exit_code == 2
    assert "error" in out.output.lower()


def test_bench_hands_runs_both_engines() -> None:
    """R-POT-6: bench/bench_hands.py plays the same random workload in croupier and in
    PokerKit (chips conserved in both) and prints rates and the ratio."""
    import runpy
    from pathlib import Path

    bench = runpy.run_path(str(Path(__file__).resolve().parents[2] / "bench" / "bench_hands.py"))
    lines: list[str] = []
    ratio = bench["bench"]("flhe", 30, 3, 1, lines.append)
    assert ratio > 0
    (line,) = lines
    assert line.startswith("flhe ") and "ratio" in line and "PokerKit" in line
