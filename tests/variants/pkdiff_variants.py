"""Differential harness for stud, razz, draw and short-deck games against PokerKit 0.7.7.

Each hand is played in croupier from a shuffled deck; PokerKit is fed the very cards
croupier dealt, burnt and drew (taken from croupier's events), so the two engines hold the
same cards whatever their dealing order. At every decision the harness compares the player
to act, fold / check / call / bring-in and the call amount and the min / max raise-to,
then applies one random action both engines allow. Draws are compared by who draws; the
final stacks must be equal.

Known, counted differences (a decision or a hand left out of the comparison, by reason):

* ``R-BET-6``, ``no-callers``, ``R-POT-3``: as in ``tests/differential/pkdiff.py``.
* ``R-BET-4-open-pair``: 7-Card Stud fourth street with an open pair showing: croupier
  offers the big bet too (room rule), PokerKit only the small bet. The minimum is still
  compared, and both engines bet the small bet.
* ``R-RANK-4-per-pot``: stud hi/lo, a pot whose players have no qualifying low goes
  whole to the high hand (SPEC); PokerKit splits it in halves as soon as another pot
  has a low, and shares the low half among that pot's players.
* Stud deals go to at most six players, so the deck never runs short: there the SPEC
  turns one community card up and skips the betting round, PokerKit bets on it.
"""

from __future__ import annotations

import random
import warnings
from collections import deque
from dataclasses import dataclass
from typing import Any

from pokerkit import (
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitShortDeckHoldem,
    State,
)

from croupier.engine.actions import Action, ActionKind, bring_in, call, check, draw, fold, raise_to
from croupier.engine.cards import Card
from croupier.engine.events import BoardDealt, CardBurnt, Drew, Event, HoleDealt
from croupier.engine.game import Game, Structure
from croupier.engine.rng import SeededShuffler
from croupier.engine.state import (
    FL_BET_CAP,
    HandState,
    Phase,
    apply,
    auto_showdown_action,
    legal_actions,
    start_hand,
)
from croupier.engine.stud import open_pair_active
from tests.differential.pkdiff import (
    PK_AUTOMATIONS,
    Mismatch,
    Tally,
    _lone_check,
    _pokerkit_split,
    random_stack,
)


def _short_all_in_did_not_reopen(s: HandState, p: int) -> bool:
    """R-BET-6: ``p`` acted, and what was added since is less than a full raise."""
    acted = s._acted[p]
    return acted >= 0 and s.current_bet - acted < s.raise_inc


def _fl_preflop_cap(s: HandState) -> bool:
    """R-BET-4: fixed limit, one bet and three raises already made."""
    return s.game.structure is Structure.FIXED_LIMIT and s.bet_count >= FL_BET_CAP


def _no_callers(s: HandState, p: int) -> bool:
    """Every other player still in either cannot act or cannot put in more than the bet."""
    stacks, bets = s._stacks, s._bets
    return all(
        s._folded[q] or stacks[q] == 0 or stacks[q] + bets[q] <= s.current_bet
        for q in range(s.n)
        if q != p
    )


STUD_GAMES = ("7stud", "stud8", "razz")
DRAW_GAMES = ("27td", "27sd", "badugi")
GAMES = (*STUD_GAMES, *DRAW_GAMES, "shortdeck")


@dataclass(frozen=True, slots=True)
class Deal:
    game: str
    stacks: tuple[int, ...]
    ante: int
    blinds: tuple[int, int]
    bring_in: int
    bets: tuple[int, int]
    deck: tuple[Card, ...]
    seed: int

    def __str__(self) -> str:
        deck = "".join(str(c) for c in self.deck)
        return (
            f"Deal(game={self.game!r}, stacks={self.stacks}, ante={self.ante},"
            f" blinds={self.blinds}, bring_in={self.bring_in}, bets={self.bets},"
            f" seed={self.seed}, deck={deck!r})"
        )


def random_deal(rng: random.Random, game: str) -> Deal:
    g = Game.of(game, blinds=(1, 2), ante=1, bring_in=1, bets=(2, 4))
    deck = SeededShuffler(rng.getrandbits(64)).shuffle(g.variant.deck)
    if game in STUD_GAMES:
        n = rng.randint(2, 6)
        ante = rng.randint(0, 3)
        bring = rng.randint(1, 4)
        small = bring + rng.randint(1, 6)
        stacks = tuple(random_stack(rng, small) for _ in range(n))
        return Deal(
            game, stacks, ante, (0, 0), bring, (small, 2 * small), deck, rng.getrandbits(64)
        )
    n = rng.randint(2, 6 if game in DRAW_GAMES else 9)
    bb = rng.randint(2, 10)
    sb = bb // 2 if rng.random() < 0.6 else rng.randint(1, bb - 1)
    ante = rng.randint(1, max(1, bb // 2)) if rng.random() < 0.25 else 0
    # Blinds are always covered: a short blind is a Hold'em-family rule (R-POS-3) that the
    # engine settles on its own (the nominal blind stays the bet to call).
    stacks = tuple(max(bb + ante + 1, random_stack(rng, bb)) for _ in range(n))
    return Deal(game, stacks, ante, (sb, bb), 0, (bb, 2 * bb), deck, rng.getrandbits(64))


def croupier_game(deal: Deal) -> Game:
    if deal.game in STUD_GAMES:
        return Game.of(deal.game, ante=deal.ante, bring_in=deal.bring_in, bets=deal.bets)
    return Game.of(deal.game, blinds=deal.blinds, ante=deal.ante)


def pokerkit_state(deal: Deal) -> State:
    n = len(deal.stacks)
    kw: dict[str, Any] = {"mode": Mode.TOURNAMENT}
    small, big = deal.bets
    stud = {
        "7stud": FixedLimitSevenCardStud,
        "stud8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
        "razz": FixedLimitRazz,
    }
    if deal.game in stud:
        return stud[deal.game].create_state(
            PK_AUTOMATIONS, True, deal.ante, deal.bring_in, small, big, deal.stacks, n, **kw
        )
    blinds = deal.blinds
    if deal.game == "27td":
        return FixedLimitDeuceToSevenLowballTripleDraw.create_state(
            PK_AUTOMATIONS, True, deal.ante, blinds, small, big, deal.stacks, n, **kw
        )
    if deal.game == "badugi":
        return FixedLimitBadugi.create_state(
            PK_AUTOMATIONS, True, deal.ante, blinds, small, big, deal.stacks, n, **kw
        )
    if deal.game == "27sd":
        return NoLimitDeuceToSevenLowballSingleDraw.create_state(
            PK_AUTOMATIONS, True, deal.ante, blinds, blinds[1], deal.stacks, n, **kw
        )
    if deal.game == "shortdeck":
        return NoLimitShortDeckHoldem.create_state(
            PK_AUTOMATIONS, True, deal.ante, blinds, blinds[1], deal.stacks, n, **kw
        )
    raise ValueError(f"no PokerKit counterpart for {deal.game!r}")


class Feeder:
    """The cards croupier dealt, queued from its events, fed to PokerKit on demand."""

    def __init__(self, n: int) -> None:
        self.holes: list[deque[Card]] = [deque() for _ in range(n)]
        self.board: deque[Card] = deque()
        self.burns: deque[Card] = deque()

    def take(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, HoleDealt):
                self.holes[e.player].extend(c for c in e.cards if c is not None)
            elif isinstance(e, Drew):
                self.holes[e.player].extend(c for c in e.received if c is not None)
            elif isinstance(e, CardBurnt) and e.card is not None:
                self.burns.append(e.card)
            elif isinstance(e, BoardDealt):
                self.board.extend(e.cards)

    def feed(self, pk: State) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            while True:
                if pk.can_burn_card():
                    card = self._next_burn()
                    pk.burn_card(str(card) if card is not None else "??")
                elif pk.can_deal_hole():
                    p = pk.hole_dealee_index
                    assert p is not None
                    if not self.holes[p]:
                        raise Mismatch(f"PokerKit deals player {p} a card croupier did not")
                    pk.deal_hole(str(self.holes[p].popleft()))
                elif pk.can_deal_board():
                    count = pk.board_dealing_count
                    assert count is not None
                    cards = [self.board.popleft() for _ in range(count)]
                    pk.deal_board("".join(str(c) for c in cards))
                else:
                    return

    def _next_burn(self) -> Card | None:
        return self.burns.popleft() if self.burns else None


@dataclass(frozen=True, slots=True)
class Decision:
    actor: int
    can_fold: bool
    can_check: bool
    call: int
    bring_in: int  # 0 when there is no bring-in to post
    raise_bounds: tuple[int, int] | None


def _croupier_decision(s: HandState) -> Decision:
    la = legal_actions(s)
    assert la is not None
    bounds = (la.min_raise, la.max_raise) if la.can_raise else None
    return Decision(la.player, la.can_fold, la.can_check, la.call, la.bring_in, bounds)


def _pokerkit_decision(pk: State) -> Decision:
    actor = pk.actor_index
    assert actor is not None
    lo = pk.min_completion_betting_or_raising_to_amount
    hi = pk.max_completion_betting_or_raising_to_amount
    bounds = None if lo is None or hi is None else (lo, hi)
    if pk.can_post_bring_in():
        amount = pk.effective_bring_in_amount
        assert amount is not None
        return Decision(actor, False, False, 0, amount, bounds)
    call_amount = pk.checking_or_calling_amount
    assert call_amount is not None
    return Decision(actor, pk.can_fold(), call_amount == 0, call_amount, 0, bounds)


def _reconcile(
    s: HandState, mine: Decision, theirs: Decision, tally: Tally
) -> tuple[int, int] | None:
    """Compare; return the raise bounds both engines allow (``None``: no raise)."""
    if (mine.actor, mine.can_fold, mine.can_check, mine.call, mine.bring_in) != (
        theirs.actor,
        theirs.can_fold,
        theirs.can_check,
        theirs.call,
        theirs.bring_in,
    ):
        raise Mismatch(f"decision differs: croupier {mine}, PokerKit {theirs}")
    if mine.raise_bounds == theirs.raise_bounds:
        return mine.raise_bounds
    p = mine.actor
    if (
        open_pair_active(s)
        and mine.raise_bounds is not None
        and theirs.raise_bounds is not None
        and mine.raise_bounds[0] == theirs.raise_bounds[0]
    ):
        tally.excluded_decisions["R-BET-4-open-pair"] += 1
        return theirs.raise_bounds
    if mine.raise_bounds is None and _short_all_in_did_not_reopen(s, p):
        tally.excluded_decisions["R-BET-6"] += 1
        return None
    if mine.raise_bounds is None and s.street == 0 and _fl_preflop_cap(s):
        tally.excluded_decisions["R-BET-4"] += 1
        return None
    if theirs.raise_bounds is None and _no_callers(s, p):
        tally.excluded_decisions["no-callers"] += 1
        return None
    raise Mismatch(f"raise bounds differ: croupier {mine}, PokerKit {theirs}")


def _choose(rng: random.Random, d: Decision, bounds: tuple[int, int] | None) -> Action:
    p = d.actor
    r = rng.random()
    if d.bring_in:
        if bounds is not None and r < 0.4:
            return raise_to(p, bounds[0])
        return bring_in(p)
    if d.can_fold and r < 0.15:
        return fold(p)
    if bounds is not None and r < 0.5:
        lo, hi = bounds
        r2 = rng.random()
        return raise_to(p, lo if r2 < 0.4 else hi if r2 < 0.65 else rng.randint(lo, hi))
    return check(p) if d.can_check else call(p)


def _apply_pokerkit(pk: State, action: Action) -> None:
    kind = action.kind
    if kind is ActionKind.FOLD:
        pk.fold()
    elif kind in (ActionKind.CHECK, ActionKind.CALL):
        pk.check_or_call()
    elif kind is ActionKind.BRING_IN:
        pk.post_bring_in()
    elif kind is ActionKind.DRAW:
        pk.stand_pat_or_discard("".join(str(c) for c in action.cards))
    else:
        pk.complete_bet_or_raise_to(action.amount)


def _hi_lo_odd_chips(s: HandState, events: list[Event]) -> tuple[int, ...]:
    """croupier's stacks with every odd chip of a tied share to the first winner (PokerKit)."""
    from croupier.engine.events import PotAwarded

    stacks = list(s.stacks)
    for e in events:
        if isinstance(e, PotAwarded) and len(e.winners) > 1:
            share, odd = divmod(e.amount, len(e.winners))
            for i, p in enumerate(e.winners):
                stacks[p] += share + (odd if i == 0 else 0) - e.amounts[i]
    return tuple(stacks)


def _low_decided_per_pot(s: HandState, events: list[Event]) -> bool:
    """R-RANK-4 per pot: a hi/lo pot without a qualifying low among its players goes
    whole to the high hand. PokerKit splits every pot in halves once any player has a low,
    and shares a low half nobody in that pot qualifies for among the pot's players."""
    from croupier.engine.events import PotAwarded

    if not s.game.variant.is_hi_lo:
        return False
    awards = [e for e in events if isinstance(e, PotAwarded)]
    contested = {
        i for i, pot in enumerate(s.result.pots if s.result else ()) if len(pot.eligible) > 1
    }
    return any(e.share == "low" for e in awards) and any(
        e.share == "whole" and e.pot in contested for e in awards
    )


def play_hand(deal: Deal, tally: Tally) -> tuple[int, ...]:
    rng = random.Random(deal.seed)
    s, events = start_hand(croupier_game(deal), deal.stacks, deal.deck, entropy=deal.seed)
    all_events = list(events)
    pk = pokerkit_state(deal)
    feeder = Feeder(len(deal.stacks))
    feeder.take(events)
    history: list[str] = []

    def advance() -> None:
        feeder.feed(pk)
        while _lone_check(pk):
            pk.check_or_call()
            tally.excluded_decisions["R-BET-10"] += 1
            feeder.feed(pk)

    try:
        advance()
        while not s.is_over:
            if s.phase is Phase.SHOWDOWN:
                s, events = apply(s, auto_showdown_action(s))
                all_events += events
                continue
            if s.phase is Phase.DRAWING:
                p = s.actor
                if pk.stand_patter_or_discarder_index != p:
                    raise Mismatch(
                        f"croupier: player {p} draws, PokerKit: {pk.stand_patter_or_discarder_index}"
                    )
                la = legal_actions(s)
                assert la is not None
                k = rng.randint(0, la.max_discards)
                action = draw(p, rng.sample(list(s.hole_cards[p]), k))
            else:
                if pk.actor_index is None:
                    raise Mismatch(f"croupier waits for player {s.actor}, PokerKit for nobody")
                mine, theirs = _croupier_decision(s), _pokerkit_decision(pk)
                bounds = _reconcile(s, mine, theirs, tally)
                tally.decisions += 1
                action = _choose(rng, mine, bounds)
            history.append(str(action))
            s, events = apply(s, action)
            all_events += events
            feeder.take(events)
            _apply_pokerkit(pk, action)
            tally.actions += 1
            advance()
        advance()
        if pk.status:
            raise Mismatch(f"croupier ended the hand, PokerKit did not (actor {pk.actor_index})")
        mine_stacks, theirs_stacks = s.stacks, tuple(pk.stacks)
        if mine_stacks != theirs_stacks:
            if theirs_stacks in (
                _pokerkit_split(s, tuple(pk.statuses)),
                _hi_lo_odd_chips(s, all_events),
            ):
                tally.excluded_hands["R-POT-3"] += 1
            elif _low_decided_per_pot(s, all_events):
                tally.excluded_hands["R-RANK-4-per-pot"] += 1
            else:
                raise Mismatch(
                    f"final stacks differ: croupier {mine_stacks}, PokerKit {theirs_stacks}"
                )
        if sum(mine_stacks) != sum(deal.stacks):
            raise Mismatch("croupier lost or created chips")
    except Mismatch as exc:
        raise Mismatch(f"{exc}\n  {deal}\n  actions: {history}") from None
    tally.hands += 1
    return s.stacks


def run(game: str, hands: int, seed: int) -> Tally:
    """Play ``hands`` random hands of ``game``; raise :class:`Mismatch` on a disagreement."""
    rng = random.Random(f"{game}:{seed}")
    tally = Tally()
    for _ in range(hands):
        play_hand(random_deal(rng, game), tally)
    return tally
