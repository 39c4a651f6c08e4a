"""PHH records of draw hands, Naiko exchanges and all-in protections: every draw and
exchange is recorded, the download of each player hides every card never shown to them,
and every such file replays exactly (issue 10, Secrets; R-FAIR-1)."""

from __future__ import annotations

import contextlib
import random

import pytest

from croupier.engine.actions import Action, call, check, draw, fold, muck, raise_to, show
from croupier.engine.cards import Card
from croupier.engine.events import Event
from croupier.engine.game import Game
from croupier.engine.naiko import Power, act, start_naiko_hand, use_power
from croupier.engine.state import HandState, Phase, apply, legal_actions, protect, start_hand
from croupier.history.export import to_phh
from croupier.history.phh import HandHistory, Verb, dump_phh, load_phh
from croupier.history.redact import redact_phh
from croupier.history.replay import verify


def _policy(rng: random.Random, s: HandState) -> Action:
    legal = legal_actions(s)
    assert legal is not None
    p = s.actor
    if legal.can_draw:
        hole = s.hole_cards[p]
        k = rng.randint(0, min(legal.max_discards, len(hole)))
        return draw(p, "".join(str(c) for c in rng.sample(list(hole), k)))
    if legal.show_or_muck:
        return show(p) if rng.random() < 0.7 else muck(p)
    r = rng.random()
    if legal.can_raise and r < 0.15:
        return raise_to(p, legal.min_raise)
    if legal.can_check:
        return check(p)
    if legal.can_call and r < 0.9:
        return call(p)
    return fold(p)


def _texts(hh: HandHistory) -> list[str]:
    return [str(a) for a in hh.actions]


def _never_shown(full: HandHistory, viewer: int) -> set[Card]:
    """Cards of other players that the viewer never saw: dealt or drawn, not shown."""
    shown: dict[int, set[Card]] = {}
    for a in full.actions:
        if a.verb is Verb.SHOW_MUCK and a.player is not None and a.cards:
            shown.setdefault(a.player, set()).update(c for c in a.cards if c is not None)
    hidden: set[Card] = set()
    for a in full.actions:
        if a.player is None or a.player == viewer or not a.cards:
            continue
        if a.verb in (Verb.DEAL_HOLE, Verb.DISCARD):
            hidden.update(c for c in a.cards if c is not None and c not in shown.get(a.player, ()))
    return hidden


def _cards_in(hh: HandHistory) -> set[Card]:
    return {c for a in hh.actions for c in (a.cards or ()) if c is not None}


def _reshuffled(full: HandHistory) -> bool:
    """Whether a draw needed the discards reshuffled (a card dealt twice, R-DRAW-4): the
    engine reshuffles with the hand's own entropy, which a PHH file does not carry, so
    such hands are not replayed (docs/phh.md); they are still redacted."""
    seen = [c for a in full.actions if a.verb is Verb.DEAL_HOLE for c in a.cards or () if c]
    return len(seen) != len(set(seen))


def _check_downloads(full: HandHistory) -> None:
    text = dump_phh(full)
    replayable = not _reshuffled(full)
    if replayable:
        whole = verify(load_phh(text))
        assert whole.status.value == "exact", (whole, text)
    for viewer in range(full.player_count):
        mine = load_phh(dump_phh(redact_phh(full, viewer)))
        leaked = _never_shown(full, viewer) & _cards_in(mine)
        assert not leaked, (viewer, leaked, _texts(mine))
        if replayable:
            verdict = verify(mine)
            assert verdict.status.value == "exact", (viewer, verdict, _texts(mine), _texts(full))


@pytest.mark.parametrize("game_key", ["27td", "27sd", "badugi"])
def test_draw_hands_record_draws_hide_discards_and_replay(game_key: str) -> None:
    """R-FAIR-1, issue 10: draws are in the PHH file (``sd`` + ``d dh``); a player who showed down
    after drawing has only their final cards in the others' files; discards are ``??``;
    every player's file replays exactly."""
    rng = random.Random(f"draw-{game_key}")
    game = Game.of(game_key, blinds=(1, 2))
    drawn = showdowns_after_draw = 0
    for _ in range(60):
        n = rng.randint(2, 3)
        deck = list(game.variant.deck)
        rng.shuffle(deck)
        stacks = tuple(rng.randint(20, 200) for _ in range(n))
        s, events = start_hand(game, stacks, deck)
        while not s.is_over:
            s, more = apply(s, _policy(rng, s))
            events.extend(more)
        full = to_phh(game, events)
        verbs = [a.verb for a in full.actions]
        drawn += verbs.count(Verb.DISCARD)
        shows = {a.player for a in full.actions if a.verb is Verb.SHOW_MUCK and a.cards}
        discarders = {a.player for a in full.actions if a.verb is Verb.DISCARD and a.cards}
        showdowns_after_draw += bool(shows & discarders)
        _check_downloads(full)
    assert drawn > 50 and showdowns_after_draw > 5


def _naiko_hand(rng: random.Random) -> tuple[Game, list[Event]]:
    game = Game.of("nlhe", blinds=(1, 2), rules="naiko")
    n = rng.randint(2, 4)
    deck = list(game.variant.deck)
    rng.shuffle(deck)
    nh, events = start_naiko_hand(
        game, tuple([100] * n), deck, destellos=tuple([2] * n), carrousel=0
    )
    while not nh.hand.is_over:
        s = nh.hand
        p = s.actor
        if (
            s.phase is Phase.BETTING
            and Power.ECHANGE_DE_MANCHE not in nh.used[p]
            and rng.random() < 0.6
            and nh.destellos[p] >= 2
        ):
            card = rng.choice(list(s.hole_cards[p]))
            with contextlib.suppress(ValueError):
                nh, more = use_power(nh, p, Power.ECHANGE_DE_MANCHE, card=card)
                events.extend(more)
        nh, more = act(nh, _policy(rng, nh.hand))
        events.extend(more)
    return game, events


def test_naiko_exchanges_are_recorded_hidden_and_replay() -> None:
    """R-FAIR-1, R-NAIKO-6, issue 10: an Échange de Manche is in the file (``pN sd C # croupier: echange de
    manche`` + ``d dh pN C'``); the card exchanged away is never in another player's file,
    even when its owner shows down; every file replays exactly."""
    rng = random.Random("naiko")
    exchanged = shown_after = 0
    for _ in range(80):
        game, events = _naiko_hand(rng)
        full = to_phh(game, events)
        swaps = [a for a in full.actions if a.verb is Verb.DISCARD]
        assert all(a.commentary == "croupier: echange de manche" for a in swaps)
        exchanged += len(swaps)
        shows = {a.player for a in full.actions if a.verb is Verb.SHOW_MUCK and a.cards}
        shown_after += bool(shows & {a.player for a in swaps})
        _check_downloads(full)
    assert exchanged > 40 and shown_after > 10


def test_all_in_protection_is_recorded_and_replays() -> None:
    """R-TIME-2, issue 10: a hand with an all-in protection (also out of turn) is exported
    with a comment-only action and replays exactly; so do its redacted downloads."""
    rng = random.Random("protect")
    game = Game.of("nlhe", blinds=(1, 2))
    protected = 0
    for _ in range(60):
        n = rng.randint(2, 5)
        deck = list(game.variant.deck)
        rng.shuffle(deck)
        s, events = start_hand(game, tuple(rng.randint(30, 150) for _ in range(n)), deck)
        victim = -1
        while not s.is_over:
            if victim < 0 and s.phase is Phase.BETTING and rng.random() < 0.3:
                cands = [
                    p
                    for p in range(n)
                    if not s.folded[p] and s.stacks[p] > 0 and s.contributions[p] > 0
                ]
                if cands:
                    victim = rng.choice(cands)
                    s, more = protect(s, victim)
                    events.extend(more)
                    protected += 1
                    continue
            s, more = apply(s, _policy(rng, s))
            events.extend(more)
        full = to_phh(game, events)
        if victim >= 0:
            assert f"# croupier: p{victim + 1} all-in protection" in dump_phh(full)
        _check_downloads(full)
    assert protected > 20
