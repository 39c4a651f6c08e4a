"""Engine hands exported to PHH replay through PokerKit to the same final stacks."""

from __future__ import annotations

import random
import warnings

import pytest
from pokerkit import HandHistory as PokerKitHandHistory

from croupier.engine.actions import Action, call, check, fold, raise_to
from croupier.engine.events import Event, HandEnded, PotAwarded
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.engine.rules import profile
from croupier.engine.state import (
    HandState,
    apply,
    auto_showdown_action,
    legal_actions,
    start_hand,
)
from croupier.history.export import phh_code, to_phh
from croupier.history.phh import PhhError, dump_phh, load_phh
from croupier.history.replay import SHORT_BLIND_FIELD, Status, verify

HANDS_PER_GAME = 120


def _someone_can_call(s: HandState, p: int) -> bool:
    """PokerKit refuses a raise that no opponent can call any part of; the engine allows
    it (the excess comes straight back). The random players avoid that one divergence."""
    top = max(s.bets)
    return any(q != p and not s.folded[q] and s.stacks[q] + s.bets[q] > top for q in range(s.n))


def _random_action(s: HandState, rng: random.Random) -> Action:
    legal = legal_actions(s)
    assert legal is not None
    if legal.show_or_muck:
        return auto_showdown_action(s)
    p = legal.player
    r = rng.random()
    if legal.can_raise and r < 0.3 and _someone_can_call(s, p):
        return raise_to(p, rng.randint(legal.min_raise, legal.max_raise))
    if legal.can_fold and r < 0.45:
        return fold(p)
    return check(p) if legal.can_check else call(p)


def _play(
    game: Game, rng: random.Random, shuffler: SeededShuffler
) -> tuple[HandState, list[Event]]:
    """A random hand: 2-6 players, some short stacks, sometimes antes and a straddle."""
    n = rng.randint(2, 6)
    stacks = [rng.randint(3, 400) for _ in range(n)]
    blinds = [2, 1] if n == 2 else [1, 2] + [0] * (n - 2)
    if n >= 4 and not game.structure.is_limit and rng.random() < 0.3:
        blinds[2] = 4
    antes = [1] * n if rng.random() < 0.3 else [0] * n
    deck = shuffler.shuffle(game.variant.deck)
    s, events = start_hand(game, stacks, deck, blinds=blinds, antes=antes)
    while not s.is_over:
        s, more = apply(s, _random_action(s, rng))
        events.extend(more)
    return s, events


def _odd_chips(events: list[Event]) -> int:
    """Odd chips of split pots: PokerKit merges pots after killing losing hands, so its
    split of an odd chip can differ from the engine's pot-by-pot split (R-POT-3)."""
    return sum(
        1
        for e in events
        if isinstance(e, PotAwarded) and len(e.winners) > 1 and e.amount % len(e.winners)
    )


def _pokerkit_stacks(text: str) -> tuple[int, ...]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = PokerKitHandHistory.loads(text)
    return tuple(state.stacks)


@pytest.mark.parametrize("name", ["nlhe", "plo", "flhe", "flo8"])
def test_exported_hands_replay_in_pokerkit(name: str) -> None:
    """R-BET-1, R-BET-2, R-BET-4, R-POS-1, R-POT-1, R-POT-3, R-POT-5: random engine hands
    (short stacks, antes, straddles) exported to PHH load in PokerKit and replay to the
    engine's final stacks; they also load back and verify exact in croupier."""
    # PHH follows PokerKit: a blind posted short sets only what it posted to call.
    game = Game.of(name, blinds=(1, 2), rules=profile("room", short_blind="posted"))
    rng = random.Random(f"export-{name}")
    shuffler = SeededShuffler(f"export-{name}")
    odd = 0
    for i in range(HANDS_PER_GAME):
        state, events = _play(game, rng, shuffler)
        hh = to_phh(game, events, state=state)
        text = dump_phh(hh)
        assert load_phh(text) == hh
        ours = verify(hh)
        assert ours.status is Status.EXACT, f"hand {i}: {ours.message}\n{text}"
        ended = events[-1]
        assert isinstance(ended, HandEnded) and hh.finishing_stacks == ended.stacks
        theirs = _pokerkit_stacks(text)
        chips = _odd_chips(events)
        if chips:
            odd += 1
            assert sum(theirs) == sum(ended.stacks)
            assert all(abs(a - b) <= chips for a, b in zip(theirs, ended.stacks, strict=True))
        else:
            assert theirs == ended.stacks, f"hand {i}\n{text}"
    assert odd < HANDS_PER_GAME // 10


def test_heads_up_export_lists_blinds_small_first() -> None:
    """R-POS-1: heads-up, the engine's position 0 posts the big blind; PHH writes the
    blinds [small, big] as PokerKit and phh-std expect."""
    game = Game.of("nlhe", blinds=(5, 10))
    s, events = start_hand(game, (100, 100), SeededShuffler(3).shuffle(game.variant.deck))
    s, more = apply(s, fold(1))
    hh = to_phh(game, events + more)
    assert hh.blinds_or_straddles == (5, 10)
    assert hh.finishing_stacks == (105, 95)
    assert _pokerkit_stacks(dump_phh(hh)) == (105, 95)


def test_export_refuses_what_phh_cannot_say() -> None:
    """Games without a PHH code and dead posts are refused with a code."""
    with pytest.raises(PhhError) as info:
        phh_code(Game.of("hplo", blinds=(1, 2)))
    assert info.value.code == "unsupported"
    game = Game.of("nlhe", blinds=(1, 2))
    _, events = start_hand(
        game, (50, 50, 50), SeededShuffler(1).shuffle(game.variant.deck), dead=(0, 0, 1)
    )
    with pytest.raises(PhhError) as info:
        to_phh(game, events)
    assert info.value.code == "unsupported" and "dead" in str(info.value)
    with pytest.raises(PhhError) as info:
        to_phh(game, [])
    assert info.value.code == "bad_events"


def test_short_straddle_under_the_full_rule_round_trips() -> None:
    """R-POS-3: under the default ``short_blind="full"`` rule a straddle posted short
    still sets the full amount to call; the export keeps the nominal straddle (from the
    state) and names the rule in a user-defined field, so croupier replays it exactly."""
    game = Game.of("nlhe", blinds=(1, 2))
    deck = SeededShuffler(5).shuffle(game.variant.deck)
    s, events = start_hand(game, (100, 100, 3, 100), deck, blinds=(1, 2, 4, 0))
    assert s.current_bet == 4
    while not s.is_over:
        legal = legal_actions(s)
        assert legal is not None
        action = (
            auto_showdown_action(s)
            if legal.show_or_muck
            else (check(legal.player) if legal.can_check else call(legal.player))
        )
        s, more = apply(s, action)
        events.extend(more)
    hh = to_phh(game, events, state=s)
    assert hh.blinds_or_straddles == (1, 2, 4, 0)
    assert hh.metadata[SHORT_BLIND_FIELD] == "full"
    back = load_phh(dump_phh(hh))
    assert verify(back).status is Status.EXACT
    plain = to_phh(game, events)  # without the state the posted amount is all we know
    assert plain.blinds_or_straddles == (1, 2, 3, 0)
