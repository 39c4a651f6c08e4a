"""Self-play simulation: complete hands with a simple policy, for speed and sanity checks.

Every hand starts from fresh stacks, is dealt from a seeded shuffle (R-CARD-3: seeded
decks are for simulations only) and is played to the end with a policy; chips are checked
after every hand (R-POT-6: stacks plus rake equal the starting total).

>>> r = simulate("nlhe", seats=6, stack=200, blinds=(1, 2), hands=20, seed=1)
>>> r.hands, r.conserved, r.actions > 20
(20, True, True)
>>> again = simulate("nlhe", seats=6, stack=200, blinds=(1, 2), hands=20, seed=1)
>>> (again.actions, again.showdowns) == (r.actions, r.showdowns)  # seeded: same hands
True
>>> r.line().startswith("20 hands, ")
True

Hold'em and Omaha high with the ``random`` or ``call`` policy and no rake run on the C core
(:mod:`croupier.analysis.fastsim`, held hand for hand to this engine) unless
``engine="python"``; it deals from its own seeded generator, so a seed gives other hands
on each engine. ``result.engine`` says which one ran.

>>> simulate("7stud", seats=4, hands=5, seed=1).engine
'python'
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from croupier.analysis import fastsim
from croupier.engine.actions import (
    Action,
    LegalActions,
    bring_in,
    call,
    check,
    decline_split,
    draw,
    fold,
    raise_to,
)
from croupier.engine.cards import Card
from croupier.engine.errors import ConfigurationError, InconsistentStateError
from croupier.engine.game import Game, find_game
from croupier.engine.rng import SeededShuffler
from croupier.engine.state import (
    HandState,
    Phase,
    apply,
    auto_showdown_action,
    legal_actions,
    start_hand,
)
from croupier.engine.variants import ForcedBets

__all__ = [
    "ENGINES",
    "POLICIES",
    "Policy",
    "SimulationResult",
    "call_policy",
    "make_game",
    "play_hand",
    "random_policy",
    "simulate",
]

Policy = Callable[[HandState, LegalActions, random.Random], Action]
"""Chooses a betting or drawing action for ``legal.player`` (showdowns are automatic)."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What a simulation did: hands, player actions (showdown choices included), wall time."""

    game: str
    policy: str
    seed: int
    hands: int
    actions: int
    showdowns: int
    seconds: float
    conserved: bool
    """Every hand ended with stacks + rake equal to the starting total."""
    engine: str = "python"
    """``"c"`` (the C core, :mod:`croupier.analysis.fastsim`) or ``"python"``."""

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else float("inf")

    def line(self) -> str:
        """``N hands, A actions in T s: H hands/s, R actions/s``."""
        return (
            f"{self.hands} hands, {self.actions} actions in {self.seconds:.2f} s:"
            f" {self.hands_per_second:,.0f} hands/s, {self.actions_per_second:,.0f} actions/s"
        )


# -- policies -------------------------------------------------------------------------------


def _raise_or(legal: LegalActions, amount: int, otherwise: Action) -> Action:
    return raise_to(legal.player, amount) if legal.can_raise else otherwise


def _draw_random(legal: LegalActions, state: HandState, rng: random.Random) -> Action:
    hole = state.hole_cards[legal.player]
    k = rng.randint(0, min(legal.max_discards, len(hole)))
    return draw(legal.player, rng.sample(hole, k))


def random_policy(state: HandState, legal: LegalActions, rng: random.Random) -> Action:
    """Facing a bet: fold 20 %, minimum raise 12 %, all-in (largest raise) 3 %, else call.
    Not facing a bet: minimum bet 32 %, all-in 3 %, else check. Without a legal raise:
    call or check. Draws discard a random number of random cards; a bring-in is posted.

    >>> from croupier.engine.game import Game
    >>> from croupier.engine.cards import DECK_52
    >>> s, _ = start_hand(Game.of("nlhe", blinds=(1, 2)), (100, 100, 100), DECK_52)
    >>> la = legal_actions(s)
    >>> sorted({str(random_policy(s, la, random.Random(i))) for i in range(50)})
    ['p3 call', 'p3 fold', 'p3 raise to 100', 'p3 raise to 4']
    """
    p = legal.player
    if legal.can_draw:
        return _draw_random(legal, state, rng)
    if legal.split_answer:
        return decline_split(p)
    if legal.can_bring_in:
        return bring_in(p)
    r = rng.random()
    if legal.can_call:
        if r < 0.20:
            return fold(p)
        if r < 0.32:
            return _raise_or(legal, legal.min_raise, call(p))
        if r < 0.35:
            return _raise_or(legal, legal.max_raise, call(p))
        return call(p)
    if r < 0.32:
        return _raise_or(legal, legal.min_raise, check(p))
    if r < 0.35:
        return _raise_or(legal, legal.max_raise, check(p))
    return check(p)


def call_policy(state: HandState, legal: LegalActions, rng: random.Random) -> Action:
    """Always check or call (stand pat in draws, post the bring-in)."""
    p = legal.player
    if legal.can_draw:
        return draw(p)
    if legal.split_answer:
        return decline_split(p)
    if legal.can_bring_in:
        return bring_in(p)
    return call(p) if legal.can_call else check(p)


POLICIES: Final[dict[str, Policy]] = {"random": random_policy, "call": call_policy}
ENGINES: Final = ("auto", "c", "python")
"""``auto``: the C core when it plays the game and policy, else Python."""


# -- the loop ------------------------------------------------------------------------------


def make_game(name: str, blinds: tuple[int, int], ante: int = 0) -> Game:
    """A game from a preset (``nlhe``, ``plo``, ``flhe``, ``7stud``, …) and ``a/b`` stakes.

    Blind games post ``a``/``b`` blinds; ante and bring-in games (stud) take ``a`` as the
    ante (unless ``ante`` is given) and the bring-in, and ``b`` as the small bet.

    >>> make_game("flhe", (1, 2)).big_bet
    4
    """
    sb, bb = blinds
    if not 0 < sb <= bb:
        raise ConfigurationError(f"blinds must be 0 < small <= big, not {sb}/{bb}")
    variant, _ = find_game(name)
    if variant.forced_bets is ForcedBets.BLINDS:
        return Game.of(name, blinds=blinds, ante=ante)
    if sb >= bb:
        raise ConfigurationError(
            f"{variant.name}: the bring-in ({sb}) must be below the bet ({bb})"
        )
    return Game.of(name, ante=ante or sb, bring_in=sb, bets=(bb, 2 * bb))


def play_hand(
    game: Game,
    stacks: tuple[int, ...],
    deck: Sequence[Card],
    policy: Policy,
    rng: random.Random,
) -> tuple[HandState, int]:
    """Play one hand to the end; return the final state and the number of actions."""
    s, _ = start_hand(game, stacks, deck)
    actions = 0
    while s.phase is not Phase.COMPLETE:
        if s.phase is Phase.SHOWDOWN:
            s, _ = apply(s, auto_showdown_action(s))
        else:
            legal = legal_actions(s)
            if legal is None:
                raise InconsistentStateError(f"no decision in phase {s.phase.value}")
            s, _ = apply(s, policy(s, legal, rng))
        actions += 1
    return s, actions


def simulate(
    game: Game | str,
    *,
    seats: int = 6,
    stack: int = 200,
    blinds: tuple[int, int] = (1, 2),
    ante: int = 0,
    hands: int = 1000,
    policy: str | Policy = "random",
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
    engine: str = "auto",
) -> SimulationResult:
    """Play ``hands`` complete hands of ``game`` at ``seats`` players, each from ``stack``.

    ``engine`` is ``auto`` (the C core when it can, else Python), ``c`` or ``python``.
    Raises :class:`ConfigurationError` for bad parameters (and for ``engine="c"`` when
    the C core cannot play this) and
    :class:`InconsistentStateError` if a hand ever loses or creates chips.
    """
    g = make_game(game, blinds, ante) if isinstance(game, str) else game
    name = game if isinstance(game, str) else f"{g.variant.key}/{g.structure.value}"
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise ConfigurationError(f"unknown policy {policy!r}; one of {', '.join(POLICIES)}")
        choose, policy_name = POLICIES[policy], policy
    else:
        choose, policy_name = policy, getattr(policy, "__name__", "custom")
    if type(hands) is not int or hands < 0:
        raise ConfigurationError(f"hands must be a non-negative integer, not {hands!r}")
    v = g.variant
    if type(seats) is not int or not v.min_players <= seats <= v.max_players:
        raise ConfigurationError(
            f"{v.name} deals to {v.min_players}–{v.max_players} players, not {seats!r}"
        )
    if type(stack) is not int or stack <= 0:
        raise ConfigurationError(f"the stack must be a positive integer, not {stack!r}")
    if engine not in ENGINES:
        raise ConfigurationError(f"unknown engine {engine!r}; one of {', '.join(ENGINES)}")
    if engine != "python":
        why = fastsim.why_not(g, policy, seed)
        if why is None:
            assert isinstance(policy, str)
            start = clock()
            run = fastsim.run(g, (stack,) * seats, hands, policy=policy, seed=seed)
            seconds = clock() - start
            return SimulationResult(
                name, policy_name, seed, hands, run.actions, run.showdowns, seconds, True, "c"
            )
        if engine == "c":
            raise ConfigurationError("c_core_unsupported", f"--engine c: {why}")
    stacks = (stack,) * seats
    total = stack * seats
    shuffler = SeededShuffler(seed)
    rng = random.Random(seed)
    deck_cards = g.variant.deck
    actions = showdowns = 0
    start = clock()
    for i in range(hands):
        s, n = play_hand(g, stacks, shuffler.shuffle(deck_cards), choose, rng)
        actions += n
        result = s.result
        assert result is not None
        if sum(result.stacks) + result.rake != total:
            raise InconsistentStateError(
                f"hand {i + 1} (seed {seed}) ended with {sum(result.stacks)} chips"
                f" and {result.rake} rake from {total}"
            )
        if any(s.shown):
            showdowns += 1
    seconds = clock() - start
    return SimulationResult(name, policy_name, seed, hands, actions, showdowns, seconds, True)
