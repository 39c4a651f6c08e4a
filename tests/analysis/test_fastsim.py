"""The C simulation core (`croupier.analysis.fastsim`, `_csim`): hand-for-hand equivalence
with the Python engine, its documented generator, the `simulate`/CLI/bench wiring and the
fallback when the extension is missing."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from croupier.analysis import fastsim
from croupier.analysis.simulate import call_policy, simulate
from croupier.cli import app
from croupier.engine.errors import ConfigurationError, InconsistentStateError
from croupier.engine.game import Game
from croupier.engine.rules import RakePolicy, profile

needs_c = pytest.mark.skipif(
    not fastsim.AVAILABLE,
    reason=f"needs the C core: {fastsim.UNAVAILABLE_REASON}"
    " (build it: .venv/bin/python setup.py build_ext --inplace)",
)

HANDS_PER_CONFIG = 10


def _configs(name: str, chunk: int, count: int) -> list[tuple[Game, tuple[int, ...], str, int]]:
    """Random tables: 2–9 players (10 in Hold'em), blinds 1/2 to 25/50 (sometimes equal),
    antes sometimes, stacks from one chip to 100 big blinds, the naiko profile (every hand
    shown) and the ``posted`` short-blind rule sometimes, the call policy sometimes."""
    rnd = random.Random(f"{name}/{chunk}")
    top = 10 if name.endswith("he") else 9
    out = []
    for k in range(count):
        n = rnd.randint(2, top)
        bb = rnd.choice((2, 4, 10, 50))
        sb = bb if rnd.random() < 0.1 else bb // 2
        ante = rnd.choice((0, 0, 0, 1, bb // 4))
        rules = profile("naiko") if rnd.random() < 0.15 else profile("room")
        if rnd.random() < 0.15:
            rules = replace(rules, short_blind="posted")
        game = Game.of(name, blinds=(sb, bb), ante=ante, rules=rules)
        depth = rnd.choice((3, 20, 100))
        stacks = tuple(rnd.randint(1, depth * bb) for _ in range(n))
        policy = "call" if rnd.random() < 0.15 else "random"
        out.append((game, stacks, policy, chunk * 100_000 + k))
    return out


@needs_c
@pytest.mark.parametrize("chunk", [0, 1])
@pytest.mark.parametrize("name", ["nlhe", "plo", "flhe"])
def test_c_core_equals_the_python_engine(name: str, chunk: int) -> None:
    """R-BET-1, R-BET-2, R-BET-4, R-BET-6, R-BET-8, R-BET-10, R-POS-1, R-POS-2, R-POS-3,
    R-POS-4, R-POT-1, R-POT-2, R-POT-3, R-POT-6, R-RANK-2, R-RANK-3: 5,000 hands per chunk
    (10,000 per game) played by the C core are replayed through `start_hand`/`apply`: at
    every decision the engine's legal actions (player, call, min and max raise-to) equal the
    core's, and the final stacks, action counts and showdowns are equal. The sample has
    side pots, split pots, run-outs and refused raises."""
    side_pots = split_pots = showdowns = no_raise = 0
    for game, stacks, policy, seed in _configs(name, chunk, 5000 // HANDS_PER_CONFIG):
        for hand in fastsim.record(game, stacks, HANDS_PER_CONFIG, policy=policy, seed=seed):
            s = fastsim.replay(game, stacks, hand)
            assert s.result is not None
            side_pots += len(s.result.pots) > 1
            split_pots += any(sum(w > 0 for w in pot.winnings) > 1 for pot in s.result.pots)
            showdowns += hand.showdown
            no_raise += sum(d.max_raise == 0 and d.call > 0 for d in hand.decisions)
    assert side_pots > 300 and split_pots > 20 and showdowns > 1000 and no_raise > 300


@needs_c
@pytest.mark.parametrize("name", ["hplhe", "nlo", "plhe", "flo"])
def test_other_structures_equal_the_python_engine(name: str) -> None:
    """R-BET-1, R-BET-2, R-BET-3, R-BET-4, R-RANK-3: half-pot-limit, no-limit Omaha,
    pot-limit Hold'em and fixed-limit Omaha, 600 hands each, replayed step by step."""
    for game, stacks, policy, seed in _configs(name, 9, 60):
        for hand in fastsim.record(game, stacks, HANDS_PER_CONFIG, policy=policy, seed=seed):
            fastsim.replay(game, stacks, hand)


@needs_c
@pytest.mark.parametrize("name", ["nlhe", "plo", "flhe"])
def test_python_policy_on_the_same_stream_plays_the_same_hands(name: str) -> None:
    """R-CARD-3, R-BET-8: the Python engine and the Python `random` policy, fed by the
    Python `Xoshiro` (the documented generator), deal the same decks and make the same
    decisions as the C core: same stacks and actions in every hand of a 6-max run."""
    game = Game.of(name, blinds=(1, 2), ante=1 if name == "flhe" else 0)
    stacks = (200, 40, 200, 9, 200, 120)
    recorded = fastsim.record(game, stacks, 150, seed=11)
    played = fastsim.play_python(game, stacks, 150, seed=11)
    for (state, actions), hand in zip(played, recorded, strict=True):
        assert state.deck[:20] == hand.deck[:20]
        assert (state.stacks, actions) == (hand.stacks, hand.actions)


@needs_c
def test_generator_is_the_documented_xoshiro() -> None:
    """R-CARD-3: the core's stream is xoshiro256** seeded by splitmix64 (checked against
    the Python `Xoshiro`), its first deck a Fisher–Yates shuffle of it, and every later
    hand's deck follows the previous hand's policy draws (one per decision)."""
    from croupier.analysis import _csim

    for seed in (0, 1, 2**63 + 5, -1 & (2**64 - 1)):
        x = fastsim.Xoshiro(seed)
        assert _csim.stream(seed, 50) == [x.next() for _ in range(50)]
        assert tuple(_csim.first_deck(seed)) == fastsim.Xoshiro(seed).shuffled_deck()
    assert _csim.stream(1, 4) != _csim.stream(2, 4)
    game = Game.of("nlhe", blinds=(1, 2))
    x = fastsim.Xoshiro(3)
    for hand in fastsim.record(game, (100,) * 4, 30, seed=3):
        assert hand.deck == x.shuffled_deck()
        for _ in hand.decisions:
            x.random()


@needs_c
def test_random_policy_frequencies_in_c() -> None:
    """R-BET-8: facing a bet the C core folds about 20 % and raises about 15 % (12 %
    minimum, 3 % maximum) where raising is open; every raise is the min or the max."""
    game = Game.of("nlhe", blinds=(1, 2))
    kinds: Counter[str] = Counter()
    at_min = at_max = facing = 0
    for hand in fastsim.record(game, (1000,) * 6, 400, seed=2):
        for d in hand.decisions:
            if d.call > 0 and d.max_raise > d.min_raise:
                facing += 1
                kinds[d.kind] += 1
                at_min += d.kind == "raise" and d.amount == d.min_raise
                at_max += d.kind == "raise" and d.amount == d.max_raise
            if d.kind == "raise":
                assert d.amount in (d.min_raise, d.max_raise)
    assert facing > 3000
    assert abs(kinds["fold"] / facing - 0.20) < 0.03
    assert abs(at_min / facing - 0.12) < 0.025 and abs(at_max / facing - 0.03) < 0.015


@needs_c
def test_run_is_seeded_and_matches_record() -> None:
    """R-CARD-3, R-POT-6: `run` repeats for a seed, differs for another, and plays the same
    hands as `record` (same actions and showdowns); the call policy never folds."""
    game = Game.of("plo", blinds=(1, 2))
    a = fastsim.run(game, (200,) * 6, 300, seed=4)
    assert a == fastsim.run(game, (200,) * 6, 300, seed=4)
    assert a != fastsim.run(game, (200,) * 6, 300, seed=5)
    hands = fastsim.record(game, (200,) * 6, 300, seed=4)
    assert a.actions == sum(h.actions for h in hands)
    assert a.showdowns == sum(h.showdown for h in hands)
    called = fastsim.record(game, (200,) * 6, 20, policy="call", seed=1)
    assert all(d.kind in ("call", "check") for h in called for d in h.decisions)
    assert all(h.showdown for h in called)


@pytest.mark.parametrize(
    ("game", "policy", "why"),
    [
        (Game.of("plo8", blinds=(1, 2)), "random", "omaha8"),
        (Game.of("7stud", ante=1, bring_in=1, bets=(2, 4)), "random", "stud"),
        (Game.of("slhe", blinds=(1, 2)), "random", "spread_limit"),
        (Game.of("nlhe", blinds=(1, 2), rules="arcade"), "random", "levy"),
        (
            Game.of("nlhe", blinds=(1, 2), rules=profile("room", rake=RakePolicy(kind="room"))),
            "random",
            "rake",
        ),
        (Game.of("nlhe", blinds=(1, 2)), "nit", "policies"),
        (Game.of("nlhe", blinds=(1, 2)), len, "policies"),
    ],
)
def test_unsupported_games_are_named(game: Game, policy: object, why: str) -> None:
    """R-BET-8 (a refusal says why): what the core does not play is refused with a reason
    and the code ``unsupported_game``; `simulate` falls back to Python under ``auto``."""
    reason = fastsim.unsupported(game, policy)
    assert reason is not None and why in reason
    with pytest.raises(ConfigurationError) as info:
        fastsim.run(game, (100, 100), 1, policy=policy)  # type: ignore[arg-type]
    assert info.value.code == "unsupported_game"
    if isinstance(policy, str) and policy != "nit":
        assert simulate(game, seats=3, hands=2, engine="auto").engine == "python"
        with pytest.raises(ConfigurationError, match="--engine c") as refused:
            simulate(game, seats=3, hands=2, engine="c")
        assert refused.value.code == "c_core_unsupported"


@needs_c
@pytest.mark.parametrize(
    ("stacks", "hands", "seed", "message"),
    [
        ((100,), 1, 0, "players"),
        ((100,) * 11, 1, 0, "players"),
        ((100, 0), 1, 0, "stacks"),
        ((100, 2**51), 1, 0, "stacks"),
        ((100, 100.0), 1, 0, "stacks"),
        ((100, 100), -1, 0, "hands"),
        ((100, 100), 1, "x", "seed"),
    ],
)
def test_bad_input_is_refused(stacks: tuple[int, ...], hands: int, seed: int, message: str) -> None:
    """R-BET-8: bad input gets a clear error with a code and plays nothing."""
    game = Game.of("nlhe", blinds=(1, 2))
    with pytest.raises(ConfigurationError, match=message) as info:
        fastsim.run(game, stacks, hands, seed=seed)
    assert info.value.code == "invalid_configuration"


@needs_c
def test_replay_catches_a_difference() -> None:
    """R-CARD-5, R-POT-6: a recorded hand that the engine does not play the same way (a
    tampered range, a tampered final stack) is reported as ``c_core_mismatch``."""
    game = Game.of("nlhe", blinds=(1, 2))
    (hand,) = fastsim.record(game, (100,) * 3, 1, seed=8)
    fastsim.replay(game, (100,) * 3, hand)
    first = replace(hand.decisions[0], max_raise=hand.decisions[0].max_raise - 1)
    bad_range = replace(hand, decisions=(first, *hand.decisions[1:]))
    bad_stacks = replace(hand, stacks=(hand.stacks[0] + 1, hand.stacks[1] - 1, hand.stacks[2]))
    for bad in (bad_range, bad_stacks):
        with pytest.raises(InconsistentStateError) as info:
            fastsim.replay(game, (100,) * 3, bad)
        assert info.value.code == "c_core_mismatch"


@needs_c
def test_simulate_uses_the_c_core_when_it_can() -> None:
    """R-POT-6, R-CARD-3: `simulate` runs Hold'em/Omaha on the C core under ``auto`` and
    ``c`` (same hands as `fastsim.run`), on Python with ``engine="python"`` or a custom
    policy; an unknown engine is refused."""
    for name in ("nlhe", "plo", "flhe"):
        auto = simulate(name, seats=6, hands=500, seed=3)
        assert (auto.engine, auto.conserved) == ("c", True)
        fast = fastsim.run(Game.of(name, blinds=(1, 2)), (200,) * 6, 500, seed=3)
        assert (auto.actions, auto.showdowns) == (fast.actions, fast.showdowns)
    assert simulate("nlhe", hands=5, engine="python").engine == "python"
    assert simulate("nlhe", hands=5, policy=call_policy).engine == "python"  # a callable
    with pytest.raises(ConfigurationError, match="engine"):
        simulate("nlhe", hands=5, engine="rust")


@needs_c
def test_cli_engine_option() -> None:
    """R-POT-6: `croupier simulate --engine` says which engine ran; ``c`` on a game the
    core does not play exits 2 with one error line."""
    runner = CliRunner()
    for engine, expected in (("auto", "engine c"), ("c", "engine c"), ("python", "engine python")):
        out = runner.invoke(app, ["simulate", "--hands", "30", "--engine", engine])
        assert out.exit_code == 0, out.output
        assert expected in out.output.splitlines()[0]
        assert out.output.strip().splitlines()[-1].startswith("30 hands, ")
    out = runner.invoke(app, ["simulate", "--game", "7stud", "--engine", "c", "--hands", "3"])
    assert out.exit_code == 2 and "not played by the C core" in out.output


@needs_c
def test_bench_prints_three_engines() -> None:
    """R-POT-6: bench/bench_hands.py prints croupier-python, PokerKit and croupier-C with
    both ratios."""
    import runpy
    from pathlib import Path

    bench = runpy.run_path(str(Path(__file__).resolve().parents[2] / "bench" / "bench_hands.py"))
    lines: list[str] = []
    bench["bench"]("nlhe", 20, 3, 1, lines.append, c_hands=2000)
    (line,) = lines
    assert "croupier-python" in line and "croupier-C" in line and "PokerKit" in line
    assert "ratio C" in line and "(2000 hands" in line


def test_pure_switch_falls_back_to_python() -> None:
    """R-CARD-3: with ``CROUPIER_PURE_SIM=1`` the C core is off: `simulate` runs Python
    under ``auto`` and ``--engine c`` is refused with the reason."""
    code = (
        "from croupier.analysis import fastsim\n"
        "from croupier.analysis.simulate import simulate\n"
        "from croupier.engine.errors import ConfigurationError\n"
        "assert not fastsim.AVAILABLE, fastsim.UNAVAILABLE_REASON\n"
        "assert simulate('nlhe', hands=3).engine == 'python'\n"
        "try:\n"
        "    simulate('nlhe', hands=3, engine='c')\n"
        "except ConfigurationError as e:\n"
        "    print(e.code, e)\n"
    )
    env = {**os.environ, "CROUPIER_PURE_SIM": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("c_core_unsupported") and "CROUPIER_PURE_SIM" in out.stdout
