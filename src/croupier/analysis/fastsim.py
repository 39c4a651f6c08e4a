"""The C simulation core: random self-play hands of Hold'em and Omaha at C speed.

:mod:`croupier.analysis._csim` plays complete hands of Hold'em and Omaha high (no-limit,
pot-limit, half-pot-limit, fixed-limit; blinds and antes; no rake) with the ``random`` or
``call`` policy of :mod:`croupier.analysis.simulate`, by exactly the rules of the Python
engine. It deals its own seeded decks and draws the policy's numbers from its own
generator (xoshiro256**, seeded by splitmix64 from the 64-bit seed; see ``_csim.c``), so a
seed gives other hands than the Python loop's ``random.Random``; :func:`record` returns
each hand's deck and decisions (with the legal ranges the core computed), and
:func:`replay` plays them through :func:`~croupier.engine.state.start_hand` and
:func:`~croupier.engine.state.apply`, checking every step: that is how the core is held to
the Python engine (``tests/analysis/test_fastsim.py``).

The Python engine stays the engine of the live tables; this core is for throughput
(``croupier simulate``, ``bench/bench_hands.py``, bot rollouts). The extension is optional:
without it, or with ``CROUPIER_PURE_SIM=1`` (or ``CROUPIER_PURE_EVAL=1``), :data:`AVAILABLE`
is false and callers use the Python engine.

>>> from croupier.engine.game import Game
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> unsupported(g, "random") is None or not AVAILABLE
True
>>> print(unsupported(Game.of("plo8", blinds=(1, 2)), "random"))
omaha8 is not played by the C core (Hold'em and Omaha high only)
>>> if AVAILABLE:
...     r = run(g, (200,) * 6, 1000, seed=1)
...     again = run(g, (200,) * 6, 1000, seed=1)
...     assert r == again and r.hands == 1000 and r.actions > 1000
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from croupier.engine.actions import BET_KINDS, Action, call, check, fold, raise_to
from croupier.engine.cards import Card
from croupier.engine.errors import ConfigurationError, InconsistentStateError
from croupier.engine.game import Game, Structure
from croupier.engine.state import (
    HandState,
    Phase,
    apply,
    auto_showdown_action,
    legal_actions,
    start_hand,
)
from croupier.engine.variants import HOLDEM, OMAHA

__all__ = [
    "AVAILABLE",
    "POLICIES",
    "UNAVAILABLE_REASON",
    "Decision",
    "FastRun",
    "RecordedHand",
    "Xoshiro",
    "play_python",
    "record",
    "replay",
    "run",
    "unsupported",
    "why_not",
]

_PURE = any(
    os.environ.get(k, "") not in ("", "0") for k in ("CROUPIER_PURE_SIM", "CROUPIER_PURE_EVAL")
)
try:
    if _PURE:
        raise ImportError("CROUPIER_PURE_SIM or CROUPIER_PURE_EVAL is set")
    from croupier.analysis import _csim

    _reason = ""
except ImportError as exc:  # the build is optional
    _csim = None  # type: ignore[assignment]
    _reason = f"the C simulation core is not available ({exc})"

AVAILABLE: Final[bool] = _csim is not None
"""Whether the C core can run."""
UNAVAILABLE_REASON: Final[str] = _reason
"""Why not, when :data:`AVAILABLE` is false."""

POLICIES: Final = ("random", "call")
"""The self-play policies the core plays (same names as :data:`simulate.POLICIES`)."""

_STRUCTURES: Final = {
    Structure.NO_LIMIT: 0,
    Structure.POT_LIMIT: 1,
    Structure.HALF_POT_LIMIT: 2,
    Structure.FIXED_LIMIT: 3,
}
_MAX_CHIPS: Final = 2**50
_KINDS: Final = BET_KINDS[:4]  # the C core's decision codes 0..3: fold, check, call, raise


def unsupported(game: Game, policy: object) -> str | None:
    """Why the C core cannot play ``game`` with ``policy`` (a policy name), or ``None``.

    Hold'em and Omaha high (the registered variants), a structure other than spread
    limit, no rake or levy, the ``random`` or ``call`` policy. Availability of the
    extension itself is :data:`AVAILABLE`.
    """
    v = game.variant
    if v != HOLDEM and v != OMAHA:
        return f"{v.key} is not played by the C core (Hold'em and Omaha high only)"
    if game.structure not in _STRUCTURES:
        return f"the C core does not play {game.structure.value}"
    if game.rules.rake.kind != "none":
        return f"the C core takes no rake ({game.rules.rake.kind})"
    if not isinstance(policy, str) or policy not in POLICIES:
        return f"the C core plays the policies {', '.join(POLICIES)} only, not {policy!r}"
    s = game.stakes
    amounts = (s.small_blind, s.big_blind, s.ante, game.min_bet, game.small_bet, game.big_bet)
    if any(a > _MAX_CHIPS for a in amounts):
        return "the C core plays amounts up to 2**50 chips"
    return None


_M64: Final = 0xFFFF_FFFF_FFFF_FFFF


class Xoshiro:
    """The C core's generator in Python: xoshiro256** seeded by splitmix64 (slow; for
    replays and tests). ``random()`` is a uniform double in [0, 1), as the policies use it.

    >>> x = Xoshiro(1)
    >>> 0 <= x.random() < 1 and sorted(x.shuffled_deck()) == list(range(52))
    True
    """

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        x = seed & _M64
        state = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & _M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            state.append(z ^ (z >> 31))
        self._s = state

    def next(self) -> int:
        """The next 64-bit output."""
        s = self._s
        x = (s[1] * 5) & _M64
        result = ((((x << 7) | (x >> 57)) & _M64) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & _M64
        return result

    def random(self) -> float:
        return (self.next() >> 11) * 2.0**-53

    def below(self, k: int) -> int:
        """Uniform in ``0..k-1`` (Lemire's multiply-and-reject, as in C)."""
        m = self.next() * k
        low = m & _M64
        if low < k:
            threshold = (2**64 - k) % k
            while low < threshold:
                m = self.next() * k
                low = m & _M64
        return m >> 64

    def shuffled_deck(self) -> tuple[Card, ...]:
        """A fresh deck (cards 0..51) shuffled by Fisher–Yates, i from 51 down to 1."""
        deck = list(range(52))
        for i in range(51, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(Card(c) for c in deck)


def play_python(
    game: Game, stacks: Sequence[int], hands: int, *, policy: str = "random", seed: int = 0
) -> list[tuple[HandState, int]]:
    """The hands :func:`run` plays, played by the Python engine and the Python policy
    (:data:`croupier.analysis.simulate.POLICIES`) from the same :class:`Xoshiro` stream:
    each hand's final state and action count. Needs no extension (slow)."""
    from croupier.analysis.simulate import POLICIES as _POLICIES
    from croupier.analysis.simulate import play_hand

    reason = unsupported(game, policy)
    if reason is not None:
        raise ConfigurationError("unsupported_game", reason)
    rng = Xoshiro(seed)
    choose = _POLICIES[policy]
    out = []
    for _ in range(hands):
        deck = rng.shuffled_deck()
        out.append(play_hand(game, tuple(stacks), deck, choose, rng))  # type: ignore[arg-type]
    return out


def why_not(game: Game, policy: object, seed: object = 0) -> str | None:
    """Why the C core will not play this here (extension missing or switched off, or
    :func:`unsupported`, or a seed that is not an integer), or ``None`` if it will."""
    if not AVAILABLE:
        return UNAVAILABLE_REASON
    if type(seed) is not int:
        return f"the C core needs an integer seed, not {seed!r}"
    return unsupported(game, policy)


def _config(game: Game, policy: str) -> tuple[int, ...]:
    reason = unsupported(game, policy)
    if reason is not None:
        raise ConfigurationError("unsupported_game", reason)
    s = game.stakes
    small_bet = game.small_bet if game.structure is Structure.FIXED_LIMIT else 0
    big_bet = game.big_bet if game.structure is Structure.FIXED_LIMIT else 0
    return (
        int(game.variant == OMAHA),
        _STRUCTURES[game.structure],
        int(game.rules.showdown == "all"),
        int(game.rules.short_blind == "full"),
        POLICIES.index(policy),
        s.small_blind,
        s.big_blind,
        s.ante,
        game.min_bet,
        small_bet,
        big_bet,
    )


def _check(game: Game, stacks: Sequence[int], hands: int, seed: int) -> tuple[int, ...]:
    if _csim is None:
        raise ConfigurationError("c_core_unavailable", UNAVAILABLE_REASON)
    v = game.variant
    out = tuple(stacks)
    if not v.min_players <= len(out) <= v.max_players:
        raise ConfigurationError(
            f"{v.name} deals to {v.min_players}–{v.max_players} players, not {len(out)}"
        )
    if any(type(x) is not int or not 0 < x <= _MAX_CHIPS for x in out):
        raise ConfigurationError(f"stacks must be integers in 1..2**50, not {out!r}")
    if type(hands) is not int or hands < 0:
        raise ConfigurationError(f"hands must be a non-negative integer, not {hands!r}")
    if type(seed) is not int:
        raise ConfigurationError(f"the seed must be an integer, not {seed!r}")
    return out


@dataclass(frozen=True, slots=True)
class FastRun:
    """What :func:`run` played: hands, actions (showdown choices included), showdowns."""

    hands: int
    actions: int
    showdowns: int


def run(
    game: Game, stacks: Sequence[int], hands: int, *, policy: str = "random", seed: int = 0
) -> FastRun:
    """Play ``hands`` hands from ``stacks`` (position order, fresh every hand) in C.

    The GIL is released while the hands are played. Chips are checked after every hand
    (R-POT-6); a hand that loses or creates chips raises :class:`InconsistentStateError`.
    Raises :class:`ConfigurationError` (code ``unsupported_game`` or
    ``c_core_unavailable``) when the core cannot play this.
    """
    cfg = _config(game, policy)
    st = _check(game, stacks, hands, seed)
    assert _csim is not None
    actions, showdowns, bad = _csim.run(cfg, st, hands, seed & 0xFFFF_FFFF_FFFF_FFFF)
    if bad:
        raise InconsistentStateError(f"C core: hand {bad} (seed {seed}) did not conserve chips")
    return FastRun(hands, actions, showdowns)


@dataclass(frozen=True, slots=True)
class Decision:
    """One betting decision of the C core: the legal range it computed and its choice.

    ``call`` is the chips a call adds (0: check possible, so no fold either);
    ``min_raise``/``max_raise`` the raise-to bounds (both 0: no raise); ``amount`` the
    raise-to total of a raise.
    """

    player: int
    kind: str
    call: int
    min_raise: int
    max_raise: int
    amount: int

    def action(self) -> Action:
        """The engine action of this decision.

        >>> Decision(2, "raise", 2, 4, 200, 4).action()
        Action(kind=<ActionKind.RAISE: 'raise'>, player=2, amount=4, cards=())
        """
        if self.kind == "fold":
            return fold(self.player)
        if self.kind == "check":
            return check(self.player)
        if self.kind == "call":
            return call(self.player)
        return raise_to(self.player, self.amount)


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """A hand the C core played: its deck, decisions and outcome."""

    deck: tuple[Card, ...]
    decisions: tuple[Decision, ...]
    stacks: tuple[int, ...]
    """Final stacks."""
    actions: int
    """Decisions plus showdown show/muck choices, as :func:`simulate.play_hand` counts."""
    showdown: bool
    """The hand reached a showdown (some hand was shown)."""


def record(
    game: Game, stacks: Sequence[int], hands: int, *, policy: str = "random", seed: int = 0
) -> list[RecordedHand]:
    """Play like :func:`run` (same seed, same hands) and return every hand in full."""
    cfg = _config(game, policy)
    st = _check(game, stacks, hands, seed)
    assert _csim is not None
    out: list[RecordedHand] = []
    for deck, decs, final, actions, shown in _csim.record(
        cfg, st, hands, seed & 0xFFFF_FFFF_FFFF_FFFF
    ):
        out.append(
            RecordedHand(
                tuple(Card(c) for c in deck),
                tuple(Decision(p, _KINDS[k], c, lo, hi, a) for p, k, c, lo, hi, a in decs),
                final,
                actions,
                shown,
            )
        )
    return out


def replay(game: Game, stacks: Sequence[int], hand: RecordedHand) -> HandState:
    """Play ``hand`` through the Python engine and check it step by step.

    At every decision the engine's :func:`legal_actions` must match what the C core
    computed (player, call, min and max raise-to); at the end the stacks, the number of
    actions (showdown choices by :func:`auto_showdown_action`) and whether a hand was
    shown must match. Returns the engine's final state; raises
    :class:`InconsistentStateError` (code ``c_core_mismatch``) at the first difference.
    """

    def fail(step: int, what: str) -> InconsistentStateError:
        return InconsistentStateError("c_core_mismatch", f"decision {step}: {what}")

    s, _ = start_hand(game, tuple(stacks), hand.deck)
    actions = 0
    for i, d in enumerate(hand.decisions):
        legal = legal_actions(s)
        if s.phase is not Phase.BETTING or legal is None:
            raise fail(i, f"the engine is in phase {s.phase.value}, the C core decided {d}")
        mine = (legal.player, legal.call, legal.min_raise, legal.max_raise)
        theirs = (d.player, d.call, d.min_raise, d.max_raise)
        if mine != theirs or legal.can_check != (d.call == 0) or legal.can_fold != (d.call > 0):
            raise fail(i, f"engine (player, call, min, max) {mine}, C core {theirs}")
        s, _ = apply(s, d.action())
        actions += 1
    while s.phase is Phase.SHOWDOWN:
        s, _ = apply(s, auto_showdown_action(s))
        actions += 1
    if s.phase is not Phase.COMPLETE:
        raise fail(len(hand.decisions), f"the C core stopped, the engine waits ({s.phase.value})")
    if s.stacks != hand.stacks:
        raise fail(len(hand.decisions), f"final stacks: engine {s.stacks}, C core {hand.stacks}")
    if actions != hand.actions:
        raise fail(len(hand.decisions), f"actions: engine {actions}, C core {hand.actions}")
    if any(s.shown) != hand.showdown:
        raise fail(len(hand.decisions), f"showdown: engine {any(s.shown)}, C core {hand.showdown}")
    return s
