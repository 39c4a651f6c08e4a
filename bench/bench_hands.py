"""Hands per second: croupier against PokerKit 0.7.7, same workload, same process.

    .venv/bin/python bench/bench_hands.py [--hands N] [--c-hands K] [--pk-hands M] [--seed S] [--games nlhe,plo,flhe|all]

Games (``--games``, comma-separated; default ``nlhe,plo,flhe``; ``all`` runs every one):
``nlhe``, ``plo``, ``flhe``, ``7stud``, ``stud8``, ``razz``, ``27td``, ``27sd``, ``badugi``,
``shortdeck``. Each game is played 6-max, 200-chip stacks, fresh stacks every hand; blind
games post blinds 1/2 (fixed limit: bets 2/4; no limit: minimum bet 2), stud games an ante
of 1, a bring-in of 1 and bets 2/4 (``make_game``'s stud stakes; PokerKit's
``FixedLimitSevenCardStud``, ``...HighLowSplitEightOrBetter``, ``FixedLimitRazz``,
``FixedLimitDeuceToSevenLowballTripleDraw``, ``NoLimitDeuceToSevenLowballSingleDraw``,
``FixedLimitBadugi``, ``NoLimitShortDeckHoldem``), with the `random` self-play policy of
``croupier simulate`` (facing a bet: fold 20 %, minimum raise 12 %, all-in 3 %, else call;
otherwise minimum bet 32 %, all-in 3 %, else check; the bring-in is always posted, never
completed) in both engines. At a draw both engines apply the same rule: discard a random
number k of the player's cards (k uniform from 0 to the hand size, 0 = stand pat), chosen
at random. PokerKit deals with its own automations (its natural use); croupier deals a
seeded shuffle. croupier runs twice: on its Python engine and on its C simulation core
(``croupier.analysis.fastsim``, which deals from its own seeded generator). Prints hands/s
and actions/s for each engine and the ratios croupier-python / PokerKit and croupier-C /
PokerKit (goal: at least 100x). Times are the process's CPU time by default (``--clock
wall`` for wall time), so that other work on a shared machine does not skew them.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitShortDeckHoldem,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

from croupier.analysis import fastsim
from croupier.analysis.simulate import make_game, simulate

SEATS, STACK, BLINDS = 6, 200, (1, 2)
DEFAULT_GAMES = ("nlhe", "plo", "flhe")
ALL_GAMES = (*DEFAULT_GAMES, "7stud", "stud8", "razz", "27td", "27sd", "badugi", "shortdeck")
_STUD: dict[str, Any] = {
    "7stud": FixedLimitSevenCardStud,
    "stud8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "razz": FixedLimitRazz,
}
_FL_BLINDS: dict[str, Any] = {
    "27td": FixedLimitDeuceToSevenLowballTripleDraw,
    "badugi": FixedLimitBadugi,
}
_NL_BLINDS: dict[str, Any] = {
    "27sd": NoLimitDeuceToSevenLowballSingleDraw,
    "shortdeck": NoLimitShortDeckHoldem,
}

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _pokerkit_state(game: str) -> State:
    sb, bb = BLINDS
    stacks = (STACK,) * SEATS
    mode = Mode.TOURNAMENT
    if game == "nlhe":
        return NoLimitTexasHoldem.create_state(
            _AUTOMATIONS, True, 0, (sb, bb), bb, stacks, SEATS, mode=mode
        )
    if game == "plo":
        return PotLimitOmahaHoldem.create_state(
            _AUTOMATIONS, True, 0, (sb, bb), bb, stacks, SEATS, mode=mode
        )
    if game == "flhe":
        return FixedLimitTexasHoldem.create_state(
            _AUTOMATIONS, True, 0, (sb, bb), bb, 2 * bb, stacks, SEATS, mode=mode
        )
    if game in _STUD:  # ante 1, bring-in 1, bets 2/4: make_game's stud stakes for 1/2
        state: State = _STUD[game].create_state(
            _AUTOMATIONS, True, sb, sb, bb, 2 * bb, stacks, SEATS, mode=mode
        )
        return state
    if game in _FL_BLINDS:
        fl_state: State = _FL_BLINDS[game].create_state(
            _AUTOMATIONS, True, 0, (sb, bb), bb, 2 * bb, stacks, SEATS, mode=mode
        )
        return fl_state
    if game in _NL_BLINDS:
        nl_state: State = _NL_BLINDS[game].create_state(
            _AUTOMATIONS, True, 0, (sb, bb), bb, stacks, SEATS, mode=mode
        )
        return nl_state
    raise SystemExit(f"no PokerKit game for {game!r}; one of {', '.join(ALL_GAMES)}")


def _pokerkit_draw(state: State, rng: random.Random) -> None:
    """The draw rule of croupier's random policy: discard k random cards, k uniform in
    0..hand size (0 stands pat)."""
    p = state.stand_patter_or_discarder_index
    assert p is not None
    hole = list(state.hole_cards[p])
    k = rng.randint(0, len(hole))
    state.stand_pat_or_discard(rng.sample(hole, k))


def _pokerkit_random_action(state: State, rng: random.Random) -> None:
    """The same random policy as croupier's, on a PokerKit state."""
    owed = state.checking_or_calling_amount
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    if state.can_post_bring_in():
        state.post_bring_in()
        return
    r = rng.random()
    if owed:
        if r < 0.20:
            state.fold()
        elif r < 0.32 and lo is not None:
            state.complete_bet_or_raise_to(lo)
        elif 0.32 <= r < 0.35 and hi is not None:
            state.complete_bet_or_raise_to(hi)
        else:
            state.check_or_call()
    elif r < 0.32 and lo is not None:
        state.complete_bet_or_raise_to(lo)
    elif 0.32 <= r < 0.35 and hi is not None:
        state.complete_bet_or_raise_to(hi)
    else:
        state.check_or_call()


def pokerkit_run(
    game: str, hands: int, seed: int, clock: Callable[[], float] = time.process_time
) -> tuple[int, int, float]:
    """(hands, actions, seconds) of ``hands`` PokerKit hands with the random policy."""
    rng = random.Random(seed)
    random.seed(seed)  # PokerKit shuffles with the module-level generator
    # draw games with six players can run the stub dry: PokerKit then deals the muck, and says so
    warnings.filterwarnings("ignore", "Returning reserved", UserWarning, "pokerkit")
    actions = 0
    start = clock()
    for _ in range(hands):
        state = _pokerkit_state(game)
        while state.status:
            if state.can_stand_pat_or_discard():
                _pokerkit_draw(state, rng)
                actions += 1
            elif state.actor_index is not None:
                _pokerkit_random_action(state, rng)
                actions += 1
            else:  # pragma: no cover - every other step is automated
                raise RuntimeError("PokerKit waits for an operation that is not automated")
        assert sum(state.stacks) == STACK * SEATS
    return hands, actions, clock() - start


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def bench(
    game: str,
    hands: int,
    pk_hands: int,
    seed: int,
    say: Callable[[str], None],
    clock: Callable[[], float] = time.process_time,
    c_hands: int = 200_000,
) -> float:
    """One line for ``game``; returns the ratio croupier-python / PokerKit."""
    mine = simulate(
        game,
        seats=SEATS,
        stack=STACK,
        blinds=BLINDS,
        hands=hands,
        seed=seed,
        clock=clock,
        engine="python",
    )
    n, actions, seconds = pokerkit_run(game, pk_hands, seed, clock)
    theirs_hps, theirs_aps = _rate(n, seconds), _rate(actions, seconds)
    ratio = mine.hands_per_second / theirs_hps
    c_part = "croupier-C n/a"
    if fastsim.why_not(make_game(game, BLINDS), "random") is None:
        fast = simulate(
            game,
            seats=SEATS,
            stack=STACK,
            blinds=BLINDS,
            hands=c_hands,
            seed=seed,
            clock=clock,
            engine="c",
        )
        c_part = (
            f"croupier-C {fast.hands_per_second:11,.0f} hands/s {fast.actions_per_second:12,.0f}"
            f" actions/s ({fast.hands} hands, actions/hand {fast.actions / max(1, fast.hands):.1f})"
            f"   ratio C {fast.hands_per_second / theirs_hps:8.1f}x"
        )
    say(
        f"{game:9}  croupier-python {mine.hands_per_second:8,.0f} hands/s"
        f" {mine.actions_per_second:9,.0f} actions/s ({mine.hands} hands)   PokerKit"
        f" {theirs_hps:8,.1f} hands/s {theirs_aps:9,.0f} actions/s ({n} hands)   ratio"
        f" {ratio:6.1f}x  (actions/hand {mine.actions / max(1, mine.hands):.1f} vs"
        f" {actions / max(1, n):.1f})   {c_part}"
    )
    return ratio


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="croupier hands per game")
    parser.add_argument("--c-hands", type=int, default=200_000, help="croupier-C hands per game")
    parser.add_argument("--pk-hands", type=int, default=300, help="PokerKit hands per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--games",
        default=",".join(DEFAULT_GAMES),
        help=f"comma-separated, or all: {','.join(ALL_GAMES)}",
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="time the process's CPU (default: steady on a shared machine) or the wall clock",
    )
    args = parser.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(
        f"6-max, stacks {STACK}, blinds {BLINDS[0]}/{BLINDS[1]}, policy random,"
        f" seed {args.seed}, {args.clock} time"
    )
    games = ALL_GAMES if args.games.strip() == "all" else args.games.split(",")
    for game in games:
        bench(game.strip(), args.hands, args.pk_hands, args.seed, print, clock, args.c_hands)


if __name__ == "__main__":
    main()
