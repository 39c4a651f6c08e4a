"""The PokerStars text of a hand with an all-in protection (R-TIME-2) replays exactly.

The engine's protection (``state.protect``) leaves the player all-in for the chips they
have put in while the rest of their stack waits aside; the PokerStars format has no such
state, so the text gives the player the chips in play and states the chips set aside
(``croupier.history.pokerstars_protect``). PokerKit replays the text; its final stacks
plus the chips set aside are the engine's final stacks, for hands built card by card and
for hundreds of random ones.
"""

from __future__ import annotations

import random

import pytest

from croupier.engine.actions import Action, call, check, fold, raise_to
from croupier.engine.cards import Card, parse_cards
from croupier.engine.events import Event, HandEnded
from croupier.engine.game import Game
from croupier.engine.state import (
    HandState,
    apply,
    auto_showdown_action,
    legal_actions,
    protect,
    start_hand,
)
from croupier.history.pokerstars import PokerStarsInfo, to_pokerstars
from croupier.table.policies import can_protect
from tests.history.pokerstars_replay import pokerkit_split, replay

GAME = Game.of("nlhe", blinds=(1, 2))


def _finish(s: HandState, events: list[Event]) -> HandState:
    while not s.is_over:
        s, more = apply(s, auto_showdown_action(s))
        events += more
    return s


def _hand(
    stacks: tuple[int, ...], deck: str, steps: list[Action | int]
) -> tuple[HandState, list[Event]]:
    """Play ``steps`` (an int ``p``: protect ``p``, as the table does at their turn)."""
    s, events = start_hand(GAME, stacks, parse_cards(deck))
    for step in steps:
        if isinstance(step, int):
            assert s.actor == step and can_protect(s, step)
            s, more = protect(s, step)
        else:
            s, more = apply(s, step)
        events += more
    return _finish(s, events), events


def _text(events: list[Event], names: tuple[str, ...]) -> str:
    info = PokerStarsInfo(331, names, tuple(range(len(names))), "NLHE 1/2 6-max", 6)
    return to_pokerstars(GAME, events, info)


def test_protected_small_blind_facing_the_big_blind_replays() -> None:
    """R-TIME-2, R-POT-2: the soak's hand: the disconnected small blind (1 chip in) is
    protected facing the big blind, the big blind's extra chip comes back, and the small
    blind wins the 2-chip pot at showdown. Written as a check, PokerKit made the small blind
    call (stacks one chip off); now the seat line gives the chip in play and the chips set
    aside, the protection is said as such, and the replay is exact."""
    names = ("soaker", "BOT 1", "BOT 2", "BOT 3")
    deck = "7d 4c Kh Qs 5c 7s Kd Qd 2c Ac Th 5s 2d Qc 2h 9h"
    s, events = _hand((163, 91, 86, 100), deck, [fold(2), fold(3), 0])
    assert s.stacks == (164, 90, 86, 100)
    text = _text(events, names)
    lines = text.splitlines()
    assert "Seat 1: soaker (1 in chips, 162 set aside by the all-in protection)" in lines
    assert "Seat 2: BOT 1 (91 in chips)" in lines
    assert lines.index("soaker: posts small blind 1") < lines.index("BOT 1: posts big blind 2")
    protected = lines.index("soaker is all-in by the all-in protection (162 set aside).")
    assert lines[protected - 1] == "soaker has timed out while disconnected"
    assert lines.index("BOT 3: folds") < protected < lines.index("*** FLOP *** [Ac Th 5s]")
    assert "soaker: checks" not in lines and "soaker: calls 1" not in lines
    assert "Uncalled bet (1) returned to BOT 1" in lines
    assert "soaker collected 2 from pot" in lines
    assert "Seat 1: soaker (small blind) showed [7d 5c] and won (2)" in lines
    done = replay(text, names)
    assert done.stacks == list(s.stacks) and done.set_aside == 162


def test_protection_after_a_call_heads_up_replays() -> None:
    """R-TIME-2: heads-up on the flop, the protected player called before the flop
    (6 in) and checked; the bet they then faced could be answered by no one else, so the
    protection returned all of it: the text says the hand as it counted (no check of the
    all-in player, no bet only they could call) and PokerKit replays it to the stacks."""
    names = ("ann", "bob", "cat")
    # ann (small blind) AhAd folds; bob (big blind) calls cat's raise with 9c9d and wins
    deck = "Ah 9c Ks Ad 9d Kd 2c 9h 5s 3c 2d Jc 2h 4h"
    steps: list[Action | int] = [raise_to(2, 6), fold(0), call(1), check(1), raise_to(2, 10), 1]
    s, events = _hand((100, 100, 100), deck, steps)
    assert s.stacks == (99, 107, 94)  # bob: 100 - 6 + 13; cat's 10 came back
    text = _text(events, names)
    lines = text.splitlines()
    assert "Seat 2: bob (6 in chips, 94 set aside by the all-in protection)" in lines
    assert "bob: calls 4" in lines and "bob: checks" not in lines
    assert "cat: bets 10" not in lines and not any(x.startswith("Uncalled") for x in lines)
    # what the account leaves out is still said, as played
    assert (
        "bob is all-in by the all-in protection (94 set aside)."
        " As played before it: bob checked, cat bet 10."
    ) in lines
    assert "bob collected 13 from pot" in lines
    assert replay(text, names).stacks == list(s.stacks)


def test_protection_facing_a_bet_multiway_makes_a_side_pot() -> None:
    """R-TIME-2, R-POT-1, R-POT-6: three players; the big blind (2 in) is protected facing
    a flop bet that the button calls: a side pot forms for those two. The protected player
    has the best hand and takes the main pot only; the text names the main pot and the side
    pot as PokerStars does and replays exactly."""
    names = ("ann", "bob", "cat")
    # bob (big blind) KhKd wins the main pot; ann QsQd beats cat Jc4c for the side pot
    deck = "Qs Kh Jc Qd Kd 4c 2c 8s 7d 3h 2d 9c 2h 5s"
    steps: list[Action | int] = [call(2), call(0), check(1), raise_to(0, 10), 1, call(2)]
    steps += [raise_to(0, 20), call(2), check(0), check(2)]
    s, events = _hand((100, 100, 100), deck, steps)
    assert s.stacks == (128, 104, 68)
    ended = [e for e in events if isinstance(e, HandEnded)][-1]
    assert [p.amount for p in ended.pots] == [6, 60]
    text = _text(events, names)
    lines = text.splitlines()
    assert "Seat 2: bob (2 in chips, 98 set aside by the all-in protection)" in lines
    assert "bob: checks" not in lines  # the big blind's option: no decision all-in
    assert lines.index("ann: bets 10") < lines.index("bob has timed out while disconnected")
    said = (
        "bob is all-in by the all-in protection (98 set aside). As played before it: bob checked."
    )
    assert lines.index(said) < lines.index("cat: calls 10")
    assert lines.index("ann collected 60 from side pot") < lines.index(
        "bob collected 6 from main pot"
    )
    assert "Total pot 66 Main pot 6. Side pot 60. | Rake 0" in lines
    assert replay(text, names).stacks == list(s.stacks)


def _random_hand(seed: int) -> tuple[HandState, list[Event], int]:
    """A random NLHE hand where players with chips in are sometimes protected at their
    turn (up to two per hand); returns the hand, its events and the protections."""
    rng = random.Random(seed)
    n = 2 + seed % 5
    deck = [Card(i) for i in range(52)]
    rng.shuffle(deck)
    s, events = start_hand(GAME, tuple(rng.randint(20, 300) for _ in range(n)), deck)
    protections = 0
    while not s.is_over:
        la = legal_actions(s)
        if la is None or la.show_or_muck:
            s, more = apply(s, auto_showdown_action(s))
        elif protections < 2 and can_protect(s, s.actor) and rng.random() < 0.3:
            s, more = protect(s, s.actor)
            protections += 1
        else:
            r = rng.random()
            amount = rng.randint(la.min_raise, la.max_raise) if la.can_raise else 0
            if la.can_raise and r < 0.3:
                action = raise_to(s.actor, amount)
            elif la.can_check:
                action = check(s.actor)
            elif la.can_call and r < 0.8:
                action = call(s.actor)
            else:
                action = fold(s.actor)
            s, more = apply(s, action)
        events += more
    return s, events, protections


@pytest.mark.parametrize("chunk", range(4))
def test_random_protected_hands_replay_to_the_engine_stacks(chunk: int) -> None:
    """R-TIME-2, R-POT-1..3: 400 random hands with protections (out of turn order none:
    the table protects at the player's turn), 2-6 players, random stacks and raises,
    exported and replayed by PokerKit: every one gives the engine's final stacks, except
    a split pot's odd chips that PokerKit gives its own way (R-POT-3, the documented
    difference), recognised exactly."""
    exact = odd = 0
    for seed in range(chunk * 100, chunk * 100 + 100):
        s, events, protections = _random_hand(seed)
        n = s.n
        names = tuple(f"player{i}" for i in range(n))
        text = _text(events, names)
        assert text.count("is all-in by the all-in protection") == protections, text
        done = replay(text, names)
        assert done.stacks is not None, text
        if done.stacks == list(s.stacks):
            exact += protections > 0
            continue
        assert s.result is not None
        pots = [(pot.eligible, pot.winnings) for pot in s.result.pots]
        assert pokerkit_split(s.stacks, pots, done.survivors) == done.stacks, text
        odd += 1
    assert exact >= 80 and odd <= 3, (exact, odd)
