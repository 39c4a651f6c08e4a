"""Property tests over random hands: every structure (NL, PL, ½-PL, FL, SL), the three
variants (Hold'em, Omaha, Omaha H/L 8), 2–10 players, random stacks, blinds, antes, dead
posts and profiles, random legal and illegal actions.

Checked at every step: chips are conserved (R-POT-6), no card is dealt twice (R-CARD-4),
someone can act until the hand ends and a legal action always exists (R-BET-8, R-BET-10),
``legal_actions`` agrees with what ``apply`` accepts, every refusal has a code and leaves
the state unchanged (R-BET-8), and redaction never shows another player's down cards or a
burnt card (``views.redact``, ``views.view``; R-FAIR-1, R-BOT-1). At the end: stacks +
rake = start, the per-pot account adds up (R-POT-1, R-POT-2, R-POT-6).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.engine.actions import Action, ActionKind, LegalActions
from croupier.engine.cards import DECK_52, Card
from croupier.engine.errors import IllegalActionError
from croupier.engine.events import CardsShown, Event, HandEnded
from croupier.engine.game import Game
from croupier.engine.rules import RakePolicy, profile
from croupier.engine.state import HandState, Phase, apply, legal_actions, start_hand
from croupier.engine.views import redact, view
from tests.engine.kit import snapshot

GAMES = {
    "holdem": ("nlhe", "plhe", "hplhe", "flhe", "slhe"),
    "omaha": ("nlo", "plo", "hplo", "flo", "omaha/sl"),
    "omaha8": ("nlo8", "plo8", "omaha8/hpl", "flo8", "omaha8/sl"),
}
MAX_PLAYERS = {"holdem": 10, "omaha": 9, "omaha8": 9}
RULES = {
    "room": profile("room"),
    "room_rake": profile("room", rake=RakePolicy(kind="room")),
    "room_tda": profile("room", under_raise="tda_half_raise"),
    "room_posted": profile("room", short_blind="posted"),
    "naiko": profile("naiko"),
    "arcade": profile("arcade"),
}
SETTINGS = settings(
    max_examples=120,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Setup:
    game: Game
    stacks: tuple[int, ...]
    deck: tuple[Card, ...]
    antes: tuple[int, ...] | None
    dead: tuple[int, ...] | None
    seed: int


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    variant = draw(st.sampled_from(sorted(GAMES)))
    name = draw(st.sampled_from(GAMES[variant]))
    n = draw(st.integers(2, MAX_PLAYERS[variant]))
    bb = draw(st.integers(1, 20))
    sb = draw(st.integers(0, bb))
    rules = RULES[draw(st.sampled_from(sorted(RULES)))]
    ante = draw(st.sampled_from((0, 0, 1, 2)))
    kwargs: dict[str, Any] = {}
    if name.endswith("sl"):
        kwargs["spread"] = tuple(draw(st.integers(bb, 4 * bb)) for _ in range(4))
    game = Game.of(name, blinds=(sb, bb), ante=ante, rules=rules, **kwargs)
    stacks = tuple(draw(st.lists(st.integers(1, 400), min_size=n, max_size=n)))
    seed = draw(st.integers(0, 2**32))
    deck = tuple(random.Random(seed).sample(DECK_52, 52))
    dead = None
    if draw(st.booleans()) and n > 2:
        dead_list = [0] * n
        dead_list[draw(st.integers(2, n - 1))] = draw(st.integers(1, bb))
        dead = tuple(dead_list)
    return Setup(game, stacks, deck, None, dead, seed)


# -- oracles ---------------------------------------------------------------------------------


def _accepts(s: HandState, la: LegalActions, action: Action) -> bool:
    """Whether ``apply`` must accept ``action``, judged from ``legal_actions`` only."""
    if action.player != la.player:
        return False
    kind = action.kind
    if s.phase is Phase.SHOWDOWN:
        return kind in (ActionKind.SHOW, ActionKind.MUCK)
    if kind is ActionKind.FOLD:
        return la.can_fold
    if kind is ActionKind.CHECK:
        return la.can_check
    if kind is ActionKind.CALL:
        return la.can_call
    if kind is ActionKind.RAISE:
        if not la.can_raise or type(action.amount) is not int or action.amount > la.max_raise:
            return False
        if action.amount >= la.min_raise:
            return True
        tda = s.game.rules.under_raise == "tda_half_raise"
        return tda and action.amount > s.current_bet
    return False


def _random_legal(rng: random.Random, s: HandState, la: LegalActions) -> Action:
    p = la.player
    if la.show_or_muck:
        return Action(rng.choice((ActionKind.SHOW, ActionKind.SHOW, ActionKind.MUCK)), p)
    options: list[Action] = []
    if la.can_fold:
        options.append(Action(ActionKind.FOLD, p))
    if la.can_check:
        options += [Action(ActionKind.CHECK, p)] * 3
    if la.can_call:
        options += [Action(ActionKind.CALL, p)] * 3
    if la.can_raise:
        lo, hi = la.min_raise, la.max_raise
        for amount in (lo, hi, rng.randint(lo, hi)):
            options.append(Action(ActionKind.RAISE, p, amount))
    assert options, f"no legal action offered to the player to act: {la}"
    return rng.choice(options)


def _random_any(rng: random.Random, s: HandState, la: LegalActions) -> Action:
    kind = rng.choice(list(ActionKind))
    player = la.player if rng.random() < 0.7 else rng.randrange(-1, s.n + 1)
    top = max(la.max_raise, s.current_bet) + 5
    amount = rng.choice((0, -1, s.current_bet, s.current_bet + 1, rng.randint(0, top), top))
    return Action(kind, player, amount)


# -- redaction ----------------------------------------------------------------------------------


def _cards_in(value: Any) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        out: set[Card] = set()
        for v in value:
            out |= _cards_in(v)
        return out
    if is_dataclass(value) and not isinstance(value, type):
        out = set()
        for f in fields(value):
            out |= _cards_in(getattr(value, f.name))
        return out
    return set()


def _check_redaction(s: HandState, history: list[Event]) -> None:
    shown: set[Card] = set()
    for e in history:
        if isinstance(e, CardsShown):
            shown |= set(e.cards)
    public = set(s.board) | shown
    for p in range(s.n):
        if s.shown[p]:
            public |= set(s.hole_cards[p])
    for audience in (None, *range(s.n)):
        allowed = set(public)
        if audience is not None:
            allowed |= set(s.hole_cards[audience])
        # up cards (stud) are public: none in these variants
        for e in history:
            seen = _cards_in(redact(e, audience))
            assert seen <= allowed | shown, (audience, e, seen - allowed)
        v = view(s, audience)
        assert _cards_in(v) <= allowed, (audience, _cards_in(v) - allowed)
        assert not (_cards_in(v) & set(s.burnt))
        if audience is None or audience != s.actor:
            assert v.legal is None


# -- the walk --------------------------------------------------------------------------------------


def _invariants(s: HandState, total: int, start_stacks: tuple[int, ...]) -> None:
    dealt = [c for h in s.hole_cards for c in h] + list(s.board) + list(s.burnt)
    assert len(dealt) == len(set(dealt)), "a card was dealt twice"
    la = legal_actions(s)
    assert (la is None) == s.is_over
    if not s.is_over:
        assert sum(s.stacks) + s.pot == total
        assert la is not None and la.kinds, "nobody can act but the hand is not over"
        assert la.player == s.actor and 0 <= s.actor < s.n
        for p in range(s.n):
            assert s.stacks[p] >= 0 and s.bets[p] >= 0
            assert s.contributions[p] + s.stacks[p] == start_stacks[p]


def _final_account(
    s: HandState, result: HandEnded, total: int, dead: tuple[int, ...] | None
) -> None:
    assert result is s.result
    assert sum(result.stacks) + result.rake == total
    assert sum(result.net) == -result.rake
    assert result.stacks == s.stacks
    assert all(x >= 0 for x in result.stacks)
    assert sum(p.amount for p in result.pots) == sum(s.contributions)
    for i in range(s.n):
        assert sum(pot.contributions[i] for pot in result.pots) == s.contributions[i]
    for pot in result.pots:
        assert sum(pot.contributions) == pot.amount
        # R-POT-2: chips nobody matched were returned, so no pot has a single contributor
        # (but dead money, R-SEAT-3, is won by whoever is still in, even on its own)
        if not (dead and pot is result.pots[0]):
            assert sum(1 for c in pot.contributions if c) >= 2, pot
        assert sum(pot.winnings) + pot.rake == pot.amount
        for p, won in enumerate(pot.winnings):
            if won:
                assert p in pot.eligible or not pot.eligible
        for p in pot.eligible:
            assert not s.folded[p]
    assert sum(result.pots[i].rake for i in range(len(result.pots))) == result.rake
    for p in range(s.n):
        assert result.stacks[p] == s.start_stacks[p] - s.contributions[p] + sum(
            pot.winnings[p] for pot in result.pots
        )


def _walk(setup: Setup, *, illegal_rate: float, check_views: bool) -> None:
    g = setup.game
    s, events = start_hand(g, setup.stacks, setup.deck, antes=setup.antes, dead=setup.dead)
    total = sum(setup.stacks)
    history = list(events)
    rng = random.Random(setup.seed)
    for _ in range(400):
        _invariants(s, total, setup.stacks)
        if check_views:
            _check_redaction(s, history)
        if s.is_over:
            break
        la = legal_actions(s)
        assert la is not None
        if rng.random() < illegal_rate:
            action = _random_any(rng, s, la)
            before = snapshot(s)
            expected = _accepts(s, la, action)
            try:
                new, ev = apply(s, action)
            except IllegalActionError as exc:
                assert not expected, f"refused a legal action {action}: {exc.code} {exc}"
                assert exc.code and exc.code != "illegal_action" and str(exc)
                assert snapshot(s) == before, f"refusal of {action} changed the state"
                continue
            assert expected, f"accepted an illegal action {action} ({la})"
            assert snapshot(s) == before, "apply changed its input"
            s = new
            history += ev
            continue
        action = _random_legal(rng, s, la)
        assert _accepts(s, la, action)
        s, ev = apply(s, action)
        history += ev
    else:
        raise AssertionError("the hand did not end in 400 steps")
    assert s.is_over
    results = [e for e in history if isinstance(e, HandEnded)]
    assert len(results) == 1
    _final_account(s, results[0], total, setup.dead)


@SETTINGS
@given(setups())
def test_random_legal_hands_conserve_chips_and_settle_exactly(setup: Setup) -> None:
    """R-POT-1, R-POT-2, R-POT-6, R-CARD-4, R-BET-10: random legal play in every structure and
    variant: chips conserved at every step, exact per-pot account at the end."""
    _walk(setup, illegal_rate=0.0, check_views=False)


@SETTINGS
@given(setups())
def test_random_actions_legal_or_refused_with_a_code_and_no_change(setup: Setup) -> None:
    """R-BET-8: random (mostly illegal) actions: apply accepts exactly what legal_actions
    offers; every refusal has a code and leaves the state as it was."""
    _walk(setup, illegal_rate=0.6, check_views=False)


@settings(SETTINGS, max_examples=60)
@given(setups())
def test_redaction_never_leaks_hidden_cards(setup: Setup) -> None:
    """R-FAIR-1, R-BOT-1, R-CARD-4: at every step, no event or table view shows a player or a
    spectator another player's down cards (unless shown) or a burnt card."""
    _walk(setup, illegal_rate=0.0, check_views=True)


def _regression(
    stacks: tuple[int, ...], dead: tuple[int, ...] | None, seed: int, ante: int = 0
) -> Setup:
    game = Game.of("nlhe", blinds=(0, 1), ante=ante, rules=RULES["arcade"])
    return Setup(game, stacks, tuple(random.Random(seed).sample(DECK_52, 52)), None, dead, seed)


REGRESSIONS = [
    # an ante nobody could match was "won" by its owner (and raked) instead of returned
    (_regression((1, 2), None, 0, ante=2), 0.5),
    # a dead chip went back to the folded player who posted it
    (_regression((2, 2, 3, 2, 2), (0, 0, 1, 0, 0), 1359957), 0.5),
    (_regression((1, 1, 1), (0, 0, 1), 2), 0.5),
]


def test_regressions_found_by_the_properties() -> None:
    """R-POT-2, R-SEAT-3, R-POT-6: hands that once broke the properties above."""
    for setup, rate in REGRESSIONS:
        _walk(setup, illegal_rate=rate, check_views=True)
