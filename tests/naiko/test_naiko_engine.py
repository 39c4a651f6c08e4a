"""Naiko mode in the engine: Destellos, the Carrousel and the four powers (R-NAIKO-1..9)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine.actions import call, check, fold, raise_to
from croupier.engine.cards import DECK_52, Card, parse_cards
from croupier.engine.errors import IllegalActionError
from croupier.engine.game import Game
from croupier.engine.naiko import (
    CARROUSELS,
    Power,
    PowerError,
    PowerResolved,
    act,
    can_answer,
    peek_of,
    power_options,
    respond,
    start_naiko_hand,
    use_power,
)
from croupier.engine.state import auto_showdown_action, legal_actions
from croupier.engine.views import redact

GAME = Game.of("nlhe", blinds=(1, 2), rules="naiko")
C, E, A, S = (
    Power.COUP_D_OEIL,
    Power.ECHANGE_DE_MANCHE,
    Power.ANCRE_COURTE,
    Power.SCEAU_PROTECTEUR,
)


def _carrousel(*powers: Power) -> int:
    return next(i for i, c in enumerate(CARROUSELS) if set(powers) <= set(c))


def deal(n=3, destellos=None, carrousel=0, stacks=None, deck=None):
    deck = deck or DECK_52
    return start_naiko_hand(
        GAME,
        stacks or (200,) * n,
        deck,
        destellos=destellos or (2,) * n,
        carrousel=carrousel,
    )[0]


def test_destellos_earned_and_capped() -> None:
    """R-NAIKO-1: +1 Destello per hand dealt into, at most 3."""
    nh = deal(destellos=(0, 2, 3))
    assert nh.destellos == (1, 3, 3)


def test_carrousel_sets() -> None:
    """R-NAIKO-2: 3 distinct powers of 4; Sceau implies Ancre; exactly three such sets."""
    assert len(CARROUSELS) == 3
    for c in CARROUSELS:
        assert len(set(c)) == 3
        if S in c:
            assert A in c
    all_sets = [frozenset(c) for c in CARROUSELS]
    assert len(set(all_sets)) == 3
    assert frozenset((C, E, S)) not in all_sets


def test_naiko_is_holdem_only() -> None:
    """R-NAIKO-9 / SPEC §9: Naiko mode is Hold'em only."""
    with pytest.raises(PowerError) as err:
        start_naiko_hand(
            Game.of("plo", blinds=(1, 2)), (100, 100), DECK_52, destellos=(0, 0), carrousel=0
        )
    assert err.value.code == "naiko_holdem_only"


def test_power_not_in_carrousel_refused_for_free() -> None:
    """R-NAIKO-4: a refused attempt costs nothing and says why."""
    nh = deal(carrousel=_carrousel(C, E, A))
    before = copy.deepcopy(nh)
    with pytest.raises(PowerError) as err:
        use_power(nh, nh.hand.actor, S)
    assert err.value.code == "wrong_moment" or err.value.code == "not_in_carrousel"
    assert nh == before


def test_coup_d_oeil_sees_next_card_each_street_not_river() -> None:
    """R-NAIKO-5: pre-flop the first flop card, on the flop the turn, on the turn the river; never on the river."""
    deck = parse_cards("2c 3c 4c 2d 3d 4d  5h 6h7h8h  9h Th  Jh Qh  Kh")
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(C), deck=deck)
    p = nh.hand.actor  # position 2, after the big blind
    nh2, ev = use_power(nh, p, C)
    assert ev[-1].card == Card.parse("6h")
    assert nh2.hand.deck_pos == nh.hand.deck_pos  # nothing moves
    assert nh2.destellos[p] == 2
    # finish pre-flop: everybody calls/checks
    nh = nh2
    nh, _ = act(nh, call(2))
    nh, _ = act(nh, call(0))
    nh, _ = act(nh, check(1))
    assert [str(c) for c in nh.hand.board] == ["6h", "7h", "8h"]
    p = nh.hand.actor
    nh, ev = use_power(nh, p, C)
    assert ev[-1].card == Card.parse("Th")
    for q in (0, 1, 2):
        nh, _ = act(nh, check(q))
    nh, _ = act(nh, check(0))
    nh, ev = use_power(nh, 1, C)  # player 1 peeks on the turn
    assert ev[-1].card == Card.parse("Qh")
    for q in (1, 2):
        nh, _ = act(nh, check(q))
    assert nh.hand.street == 3
    nh, _ = act(nh, check(0))
    nh, _ = act(nh, check(1))
    assert all(C in nh.used[q] for q in range(3))  # 2 pre-flop, 0 on the flop, 1 on the turn
    with pytest.raises(PowerError) as err:
        use_power(nh, 2, C)  # position 2 peeked pre-flop: once per hand
    assert err.value.code == "already_used"


def test_coup_d_oeil_never_on_the_river() -> None:
    """R-NAIKO-5: a player who never peeked still cannot use Coup d'Œil on the river."""
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(C))
    nh, _ = act(nh, call(2))
    nh, _ = act(nh, call(0))
    nh, _ = act(nh, check(1))
    for _street in range(2):
        for q in (0, 1, 2):
            nh, _ = act(nh, check(q))
    assert nh.hand.street == 3 and nh.hand.actor == 0 and not nh.used[0]
    before = copy.deepcopy(nh)
    with pytest.raises(PowerError) as err:
        use_power(nh, 0, C)
    assert err.value.code == "wrong_moment"
    assert nh == before


def test_coup_d_oeil_private() -> None:
    """R-NAIKO-5, R-FAIR-1: the peeked card is seen by its user only."""
    nh = deal(carrousel=_carrousel(C))
    p = nh.hand.actor
    _, ev = use_power(nh, p, C)
    peek = ev[-1]
    assert redact(peek, p).card is not None
    for other in (None, *(q for q in range(3) if q != p)):
        assert redact(peek, other).card is None


def test_echange_de_manche() -> None:
    """R-NAIKO-6: pre-flop, before the first betting action (a blind is not one); discarded card out of play; the peeked card then changes."""
    deck = parse_cards("2c 3c 4c 2d 3d 4d  5h 6h7h8h  9h Th  Jh Qh  Kh")
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(C, E), deck=deck)
    # the big blind (position 1) has posted but not acted: it may exchange on its turn
    nh, _ = act(nh, call(2))
    nh, _ = act(nh, call(0))
    assert nh.hand.actor == 1
    _, ev = use_power(nh, 1, C)
    assert ev[-1].card == Card.parse("6h")
    nh, ev = use_power(nh, 1, E, card=Card.parse("3c"))
    assert nh.hand.hole_cards[1] == (Card.parse("5h"), Card.parse("3d"))
    assert nh.destellos[1] == 1
    # others never see which cards moved
    drew = next(e for e in ev if e.type == "drew")
    assert redact(drew, 0).received == (None,)
    # no undo, and once per turn
    with pytest.raises(PowerError):
        use_power(nh, 1, E, card=Card.parse("5h"))
    nh, _ = act(nh, check(1))
    # the flop moved by one card: 6h is burnt now
    assert [str(c) for c in nh.hand.board] == ["7h", "8h", "9h"]
    assert Card.parse("3c") not in nh.hand.board


def test_echange_after_acting_refused() -> None:
    """R-NAIKO-6: not after the player's first betting action; not after the flop."""
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(E))
    p = nh.hand.actor
    nh, _ = act(nh, call(p))
    nh, _ = act(nh, call(0))
    nh, _ = act(nh, raise_to(1, 6))
    assert nh.hand.actor == 2
    with pytest.raises(PowerError) as err:
        use_power(nh, 2, E, card=nh.hand.hole_cards[2][0])
    assert err.value.code == "wrong_moment"


def test_ancre_worked_example() -> None:
    """R-NAIKO-7, R-BET-2: the seed's example — pot 100, bet 40, target to act → raise to at most 220."""
    g = Game.of("nlhe", blinds=(25, 50), min_bet=20, rules="naiko")
    nh, _ = start_naiko_hand(g, (1000, 1000), DECK_52, destellos=(3, 3), carrousel=_carrousel(A, S))
    nh, _ = act(nh, call(1))
    nh, _ = act(nh, check(0))
    assert nh.hand.pot == 100 and nh.hand.actor == 0
    # position 0 (big blind) acts first on the flop and anchors the button before betting 40
    nh, ev = use_power(nh, 0, A, target=1)
    assert nh.window is not None and nh.destellos[0] == 1
    with pytest.raises(PowerError) as err:
        act(nh, raise_to(0, 40))
    assert err.value.code == "response_pending"
    nh, ev = respond(nh, 1, block=False)
    assert ev[-1].blocked is False and nh.destellos[1] == 3  # passing costs nothing
    nh, _ = act(nh, raise_to(0, 40))
    legal = legal_actions(nh.hand)
    assert legal.call == 40
    assert legal.max_raise == 220
    assert legal.min_raise == 80  # a legal minimum raise stays legal


def test_ancre_never_beyond_stack_and_min_raise_kept() -> None:
    """R-NAIKO-7: the cap never lets anyone bet more than their stack; the minimum raise stays legal."""
    g = Game.of("nlhe", blinds=(25, 50), min_bet=20, rules="naiko")
    nh, _ = start_naiko_hand(g, (1000, 150), DECK_52, destellos=(3, 3), carrousel=_carrousel(A))
    nh, _ = act(nh, call(1))
    nh, _ = act(nh, check(0))
    nh, _ = use_power(nh, 0, A, target=1)
    assert nh.window is None  # no Sceau in this carrousel: the Ancre applied at once
    nh, _ = act(nh, raise_to(0, 40))
    legal = legal_actions(nh.hand)
    assert legal.max_raise == 100  # the stack (100 behind), below the pot cap of 220


def test_ancre_cap_expires_with_round() -> None:
    """R-NAIKO-7: until the round ends only."""
    g = Game.of("nlhe", blinds=(25, 50), rules="naiko")
    nh, _ = start_naiko_hand(g, (1000, 1000), DECK_52, destellos=(3, 3), carrousel=_carrousel(A))
    nh, _ = act(nh, call(1))
    nh, _ = act(nh, check(0))
    nh, _ = use_power(nh, 0, A, target=1)
    assert nh.window is None  # no Sceau in this carrousel: the Ancre applied at once
    nh, _ = act(nh, check(0))
    assert legal_actions(nh.hand).max_raise == 100  # checked to: the target may bet the pot
    nh2, _ = act(nh, check(1))
    assert nh2.hand.street == 2
    nh2, _ = act(nh2, raise_to(0, 50))
    assert legal_actions(nh2.hand).max_raise == 950


def test_ancre_target_rules_and_one_per_round() -> None:
    """R-NAIKO-7: target an opponent who can act and has not acted; one valid Ancre per target per round even if blocked."""
    nh = deal(n=4, destellos=(3, 3, 3, 3), carrousel=_carrousel(A, S))
    actor = nh.hand.actor  # position 2 pre-flop
    with pytest.raises(PowerError) as err:
        use_power(nh, actor, A, target=actor)
    assert err.value.code == "invalid_target"
    nh, _ = use_power(nh, actor, A, target=3)
    nh, ev = use_power(nh, 3, S)  # blocked by Sceau
    assert ev[-1].blocked is True
    assert nh.destellos[actor] == 1 and nh.destellos[3] == 2  # caster still pays 2, target 1
    nh, _ = act(nh, call(actor))
    # player 3 could be anchored again by someone else? not this round
    with pytest.raises(PowerError) as err:
        use_power(nh, 3, A, target=actor)  # actor has acted: invalid target
    assert err.value.code == "invalid_target"
    nh, _ = act(nh, call(3))
    with pytest.raises(PowerError) as err:
        use_power(nh, 0, A, target=3)  # 3 has acted and was already anchored
    assert err.value.code == "invalid_target"


def test_sceau_only_in_window_and_when_offered() -> None:
    """R-NAIKO-8: only in the response window of an Ancre aimed at you; must be in the carrousel and affordable."""
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(A, S))
    with pytest.raises(PowerError) as err:
        use_power(nh, 0, S)
    assert err.value.code == "wrong_moment"
    nh_no_sceau = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(C, E, A))
    nh2, ev = use_power(nh_no_sceau, nh_no_sceau.hand.actor, A, target=0)
    # no Sceau to answer with: no window, the Ancre applies at once (R-NAIKO-8 Decision)
    assert nh2.window is None and ev[-1] == PowerResolved(nh_no_sceau.hand.actor, 0, False)
    with pytest.raises(PowerError) as err:
        respond(nh2, 0, block=True)
    assert err.value.code == "wrong_moment"
    # the wrong player cannot answer
    nh3, _ = use_power(nh, nh.hand.actor, A, target=0)
    with pytest.raises(PowerError):
        respond(nh3, 1, block=False)
    # not affordable
    poor = deal(n=3, destellos=(0, 3, 3), carrousel=_carrousel(A, S))
    poor, _ = use_power(poor, poor.hand.actor, A, target=0)
    assert poor.destellos[0] == 1
    poor2, _ = use_power(poor, 0, S)
    assert poor2.destellos[0] == 0


def test_one_power_per_turn_before_action_and_table_quota() -> None:
    """R-NAIKO-3: once per player per hand, one per turn, at most 3 normal activations per round at the table; Sceau not counted."""
    nh = deal(n=6, destellos=(3,) * 6, carrousel=_carrousel(C, E, A))
    p = nh.hand.actor
    nh, _ = use_power(nh, p, C)
    with pytest.raises(PowerError) as err:
        use_power(nh, p, E, card=nh.hand.hole_cards[p][0])
    assert err.value.code == "wrong_moment"
    nh, _ = act(nh, call(p))
    for _ in range(2):
        q = nh.hand.actor
        nh, _ = use_power(nh, q, C)
        nh, _ = act(nh, call(q))
    q = nh.hand.actor
    with pytest.raises(PowerError) as err:
        use_power(nh, q, C)
    assert err.value.code == "table_quota"


def test_powers_never_change_rankings() -> None:
    """R-NAIKO-9: the showdown uses the normal ranking; powers only move information and cards."""
    deck = parse_cards("AsKs AhKh 2c7d 3c 9s8s7s 4d 6s 5d 2s")
    nh, _ = start_naiko_hand(GAME, (100, 100), deck, destellos=(3, 3), carrousel=_carrousel(C))
    nh, _ = use_power(nh, 1, C)
    nh, _ = act(nh, call(1))
    nh, _ = act(nh, check(0))
    while not nh.hand.is_over:
        legal = legal_actions(nh.hand)
        action = auto_showdown_action(nh.hand) if legal.show_or_muck else check(legal.player)
        nh, _ = act(nh, action)
    # dealt one at a time: position 0 holds As Ah, position 1 Ks Kh; board 7d 3c 9s 7s 6s
    assert nh.hand.result.net == (2, -2)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(2, 6))
def test_property_random_powers_keep_chips_destellos_and_secrets(seed: int, n: int) -> None:
    """R-NAIKO-1..9, R-FAIR-1: random legal and illegal power use keeps chips and Destellos consistent and never shows a card to the wrong player."""
    rng = random.Random(seed)
    deck = list(DECK_52)
    rng.shuffle(deck)
    nh, _events = start_naiko_hand(
        GAME,
        tuple(rng.randint(20, 300) for _ in range(n)),
        deck,
        destellos=tuple(rng.randint(0, 3) for _ in range(n)),
        carrousel=rng.randrange(3),
    )
    total = sum(nh.hand.stacks) + nh.hand.pot
    spent = Counter()
    start_d = nh.destellos
    for _ in range(200):
        if nh.hand.is_over:
            break
        before = nh
        try:
            if nh.window is not None:
                nh, ev = respond(nh, nh.window.target, block=rng.random() < 0.5)
            elif rng.random() < 0.4:
                power = rng.choice(list(Power))
                player = rng.randrange(n) if rng.random() < 0.3 else nh.hand.actor
                card = (
                    rng.choice(nh.hand.hole_cards[player])
                    if player >= 0 and nh.hand.hole_cards[player]
                    else None
                )
                nh, ev = use_power(nh, player, power, target=rng.randrange(n), card=card)
            else:
                legal = legal_actions(nh.hand)
                p = legal.player
                if legal.show_or_muck:
                    action = auto_showdown_action(nh.hand)
                elif legal.can_raise and rng.random() < 0.3:
                    action = raise_to(p, rng.randint(legal.min_raise, legal.max_raise))
                elif legal.can_check:
                    action = check(p)
                elif rng.random() < 0.3:
                    action = fold(p)
                else:
                    action = call(p)
                nh, ev = act(nh, action)
        except IllegalActionError:
            assert nh == before  # refusals change nothing and cost nothing
            continue
        for e in ev:
            if e.type == "power_used":
                spent[e.player] += e.cost
            for audience in (None, *range(n)):
                seen = redact(e, audience)
                if e.type == "peeked" and audience != e.player:
                    assert seen.card is None
                if e.type == "drew" and audience != e.player:
                    assert all(c is None for c in seen.received)
        assert sum(nh.hand.stacks) + nh.hand.pot == total or nh.hand.is_over
        assert all(0 <= d <= 3 for d in nh.destellos)
        assert all(nh.destellos[p] == start_d[p] - spent[p] for p in range(n))
        cards = [c for h in nh.hand.hole_cards for c in h] + list(nh.hand.board)
        assert len(cards) == len(set(cards))


def test_ancre_window_opens_only_when_the_target_can_answer() -> None:
    """R-NAIKO-8 (Decision): the window opens only if the target holds an affordable,
    unused Sceau in the carrousel; otherwise the Ancre applies at once (capped to pot)."""
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(A, S))
    actor = nh.hand.actor
    assert can_answer(nh, 0)
    opened, ev = use_power(nh, actor, A, target=0)
    assert opened.window is not None and not any(isinstance(e, PowerResolved) for e in ev)
    # a target whose Sceau was already used cannot answer
    used = replace(nh, used=tuple(frozenset({S}) if p == 0 else u for p, u in enumerate(nh.used)))
    assert not can_answer(used, 0)
    now, ev = use_power(used, actor, A, target=0)
    assert now.window is None and ev[-1] == PowerResolved(actor, 0, False)
    assert now.hand._pot_limited[0]
    broke = replace(nh, destellos=tuple(0 if p == 0 else d for p, d in enumerate(nh.destellos)))
    assert not can_answer(broke, 0)
    assert use_power(broke, actor, A, target=0)[0].window is None


def test_power_options_say_what_may_be_used_now_and_on_whom() -> None:
    """R-NAIKO-4..8: the server's offers per power: usable or the reason, the cost, the
    Ancre's targets; Échange only before the player's first action; Sceau only as target."""
    nh = deal(n=3, destellos=(3, 3, 3), carrousel=_carrousel(E, A, S))
    actor = nh.hand.actor
    offers = {o.power: o for o in power_options(nh, actor)}
    assert set(offers) == {E, A, S}
    assert offers[E].usable and offers[E].cost == 2
    assert offers[A].usable and set(offers[A].targets) == {p for p in range(3) if p != actor}
    assert not offers[S].usable and offers[S].reason == "no_ancre"
    other = (actor + 1) % 3
    assert {o.reason for o in power_options(nh, other) if o.power is not S} == {"not_turn"}
    nh, _ = act(nh, call(actor))
    nh2, _ = act(nh, call(nh.hand.actor))
    late = {o.power: o for o in power_options(nh2, nh2.hand.actor)}
    assert late[E].usable  # the big blind has not acted yet
    # the big blind raises: the first actor acts again, Échange is over for them
    nh3, _ = act(nh2, raise_to(nh2.hand.actor, 10))
    again = {o.power: o for o in power_options(nh3, actor)}
    assert nh3.hand.actor == actor and not again[E].usable and again[E].reason == "preflop"


def test_peek_is_kept_for_the_street() -> None:
    """R-NAIKO-5: the Coup d'Œil card stays the player's own for the street it was made on."""
    nh = deal(n=2, destellos=(3, 3), carrousel=_carrousel(C))
    actor = nh.hand.actor
    nh, ev = use_power(nh, actor, C)
    assert peek_of(nh, actor) == (ev[-1].card,) and peek_of(nh, 1 - actor) == ()
