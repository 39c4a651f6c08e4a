"""Differential harness: croupier against PokerKit 0.7.7 (the reference engine, tests only).

Each hand is dealt in both engines from the same deck, stacks, blinds and antes. At every
decision the harness compares the player to act, whether fold / check / call are possible,
the call amount and the min / max raise-to, then applies one random action that both
engines allow to both. At the end the final stacks must be equal.

Where PokerKit and SPEC.md disagree (see ``docs/pokerkit-differences.md``) the harness
detects the case precisely, counts it under the rule's id in :class:`Tally` and leaves
only that part out of the comparison. The R-BET-6 and R-BET-4 cases are justified by
:class:`Reopen`, the harness's own account of the betting round kept from the actions, not
by either engine's state:

* ``R-BET-6`` (decision): PokerKit lets a player raise after an all-in for less than a
  full bet or raise did not reopen the betting for them; croupier refuses. The raise
  bounds are not compared and neither engine raises at that decision.
* ``R-BET-6 reopened`` (decision): the other way round, short all-ins that add up to a
  full raise since a player acted reopen the betting for them; PokerKit forgets them once
  a later short all-in follows, and refuses the raise.
* ``R-BET-4`` (decision): fixed limit before the flop, PokerKit allows four raises over
  the big blind; the SPEC allows one bet (the blind) and three raises.
* ``R-BET-10`` (decision): PokerKit asks the only player with chips left to check when
  nothing is owed; croupier deals the rest without betting. The harness answers PokerKit.
* ``R-POS-1`` (hand): heads-up with equal blinds PokerKit lets the big blind act first;
  such hands are played in croupier alone.
* ``R-POT-4 order`` (hand): with a player all-in both engines show every hand, in a
  different order; who shows and mucks is still compared.
* ``R-POT-3`` (hand): PokerKit gives every odd chip of a split pot to the first winner;
  the SPEC gives them one at a time from the left of the button. The hand's stacks are
  still checked, against croupier's result with PokerKit's odd-chip rule applied.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    HoleCardsShowingOrMucking,
    HoleDealing,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

from croupier.engine.actions import Action, ActionKind, call, check, fold, raise_to
from croupier.engine.cards import DECK_52, Card
from croupier.engine.events import CardsMucked, CardsShown, Event
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.engine.rules import profile
from croupier.engine.state import (
    HandState,
    Phase,
    apply,
    auto_showdown_action,
    legal_actions,
    start_hand,
)

GAMES = ("nlhe", "plo", "flhe")

PK_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class Mismatch(AssertionError):
    """The two engines disagree on something the SPEC does not settle in croupier's favour."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Everything needed to replay one hand in both engines."""

    game: str
    stacks: tuple[int, ...]
    blinds: tuple[int, int]
    ante: int
    deck: tuple[Card, ...]
    action_seed: int

    def __str__(self) -> str:
        deck = "".join(str(c) for c in self.deck)
        return (
            f"Deal(game={self.game!r}, stacks={self.stacks}, blinds={self.blinds},"
            f" ante={self.ante}, action_seed={self.action_seed}, deck={deck!r})"
        )


@dataclass(slots=True)
class Tally:
    """Counts of what was compared and what was left out, by reason."""

    hands: int = 0
    decisions: int = 0
    actions: int = 0
    excluded_decisions: Counter[str] = field(default_factory=Counter)
    excluded_hands: Counter[str] = field(default_factory=Counter)

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        self.decisions += other.decisions
        self.actions += other.actions
        self.excluded_decisions.update(other.excluded_decisions)
        self.excluded_hands.update(other.excluded_hands)

    def summary(self) -> str:
        return (
            f"{self.hands} hands, {self.decisions} decisions compared;"
            f" decisions with raise bounds not compared {dict(self.excluded_decisions)},"
            f" hands with one part not compared {dict(self.excluded_hands)}"
        )


# -- PokerKit speed-up (caching only: the same results, computed once) -------------------


def _memoize_pokerkit_hands() -> None:
    """Cache PokerKit's pure hand evaluations (``Hand.from_game`` and ``Hand.entry``).

    PokerKit re-evaluates every hand many times at showdown (``can_win_now``); nearly all
    of a differential run was spent there. The cached functions are pure functions of the
    cards, so the oracle's answers do not change.
    """
    import pokerkit.hands as pk_hands
    import pokerkit.utilities as pk_cards

    hand_cls: Any = pk_hands.Hand
    omaha_cls: Any = pk_hands.OmahaHoldemHand
    if getattr(hand_cls, "_croupier_memo", False):
        return
    games: dict[tuple[type, str, str], Any] = {}
    entries: dict[tuple[type, tuple[Any, ...]], Any] = {}
    entry_of = hand_cls.entry.fget
    assert entry_of is not None

    def entry(self: Any) -> Any:
        key = (type(self), self.cards)
        value = entries.get(key)
        if value is None:
            value = entries[key] = entry_of(self)
        return value

    def wrap(cls: Any) -> None:
        original = cls.from_game.__func__

        def from_game(klass: Any, hole_cards: Any, board_cards: Any = ()) -> Any:
            hole = tuple(pk_cards.Card.clean(hole_cards))
            board = tuple(pk_cards.Card.clean(board_cards))
            key = (klass, repr(hole), repr(board))
            hand = games.get(key)
            if hand is None:
                if len(games) > 200_000:
                    games.clear()
                try:
                    hand = original(klass, hole, board)
                except ValueError as exc:
                    hand = exc
                games[key] = hand
            if isinstance(hand, ValueError):
                raise ValueError(*hand.args)
            return hand

        cls.from_game = classmethod(from_game)

    def omaha_from_game(klass: Any, hole_cards: Any, board_cards: Any = ()) -> Any:
        # HoleBoardCombinationHand.from_game without building 60 Hand objects: the best
        # two-from-hole, three-from-board entry of the same lookup table.
        get = klass.lookup.get_entry_or_none
        best, best_cards = None, None
        for pair in combinations(hole_cards, klass.hole_card_count):
            for triple in combinations(board_cards, klass.board_card_count):
                cards = pair + triple
                found = get(cards)
                if found is not None and (best is None or found > best):
                    best, best_cards = found, cards
        if best_cards is None:
            raise ValueError("No valid OmahaHoldemHand hand can be formed.")
        return klass(best_cards)

    hand_cls.entry = property(entry)
    omaha_cls.from_game = classmethod(omaha_from_game)
    for cls in (pk_hands.StandardHighHand, omaha_cls):
        wrap(cls)
    hand_cls._croupier_memo = True


_memoize_pokerkit_hands()


# -- random deals ---------------------------------------------------------------------


def random_stack(rng: random.Random, bb: int) -> int:
    """Stacks from one chip to 200 big blinds, short ones often (all-ins, side pots)."""
    r = rng.random()
    if r < 0.3:
        return rng.randint(1, 3 * bb)
    if r < 0.55:
        return rng.randint(3 * bb, 25 * bb)
    return rng.randint(25 * bb, 200 * bb)


def random_deal(rng: random.Random, game: str) -> Deal:
    n = rng.randint(2, 9)
    bb = rng.randint(2, 10)
    sb = bb // 2 if rng.random() < 0.6 else rng.randint(1, bb)
    ante = rng.randint(1, max(1, bb // 2)) if rng.random() < 0.25 else 0
    stacks = tuple(random_stack(rng, bb) for _ in range(n))
    deck = SeededShuffler(rng.getrandbits(64)).shuffle(DECK_52)
    return Deal(game, stacks, (sb, bb), ante, deck, rng.getrandbits(64))


# -- the two engines -------------------------------------------------------------------


def croupier_game(deal: Deal) -> Game:
    """The croupier game, with PokerKit's choice for the one house rule where it differs.

    R-POS-3 ``short_blind``: croupier's default (``full``) makes the others call the
    nominal blind when a blind is posted short; PokerKit (``posted``) what was posted.
    Both are house rules of the SPEC, so the comparison uses ``posted``.
    """
    return Game.of(
        deal.game, blinds=deal.blinds, ante=deal.ante, rules=profile("room", short_blind="posted")
    )


def pokerkit_state(deal: Deal) -> State:
    sb, bb = deal.blinds
    n = len(deal.stacks)
    common: dict[str, Any] = {"mode": Mode.TOURNAMENT}
    if deal.game == "nlhe":
        return NoLimitTexasHoldem.create_state(
            PK_AUTOMATIONS, True, deal.ante, (sb, bb), bb, deal.stacks, n, **common
        )
    if deal.game == "plo":
        return PotLimitOmahaHoldem.create_state(
            PK_AUTOMATIONS, True, deal.ante, (sb, bb), bb, deal.stacks, n, **common
        )
    if deal.game == "flhe":
        return FixedLimitTexasHoldem.create_state(
            PK_AUTOMATIONS, True, deal.ante, (sb, bb), bb, 2 * bb, deal.stacks, n, **common
        )
    raise ValueError(f"no PokerKit counterpart for {deal.game!r}")


def _feed_cards(pk: State, deck: tuple[Card, ...], pos: int) -> int:
    """Deal to PokerKit whatever it waits for, in croupier's order; return the new deck position."""
    while True:
        if pk.can_burn_card():
            pk.burn_card(str(deck[pos]))
            pos += 1
        elif pk.can_deal_hole():
            pk.deal_hole(str(deck[pos]))
            pos += 1
        elif pk.can_deal_board():
            count = pk.board_dealing_count
            assert count is not None
            pk.deal_board("".join(str(c) for c in deck[pos : pos + count]))
            pos += count
        else:
            return pos


def _lone_check(pk: State) -> bool:
    """PokerKit waits for a check from the only player who still has chips (R-BET-10)."""
    actor = pk.actor_index
    if actor is None or pk.checking_or_calling_amount != 0:
        return False
    return all(
        i == actor or not pk.statuses[i] or pk.stacks[i] == 0 for i in range(pk.player_count)
    )


def _advance(pk: State, deck: tuple[Card, ...], pos: int, tally: Tally) -> int:
    """Feed cards, and answer the checks croupier never asks for (R-BET-10 run-out)."""
    pos = _feed_cards(pk, deck, pos)
    while _lone_check(pk):
        pk.check_or_call()
        tally.excluded_decisions["R-BET-10"] += 1
        pos = _feed_cards(pk, deck, pos)
    return pos


# -- one hand ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """The comparable part of a betting decision."""

    actor: int
    can_fold: bool
    can_check: bool
    call: int  # chips a call adds; 0 when checking
    raise_bounds: tuple[int, int] | None


def _croupier_decision(s: HandState) -> Decision:
    la = legal_actions(s)
    assert la is not None
    bounds = (la.min_raise, la.max_raise) if la.can_raise else None
    return Decision(la.player, la.can_fold, la.can_check, la.call, bounds)


def _pokerkit_decision(pk: State) -> Decision:
    actor = pk.actor_index
    assert actor is not None
    amount = pk.checking_or_calling_amount
    assert amount is not None
    lo = pk.min_completion_betting_or_raising_to_amount
    hi = pk.max_completion_betting_or_raising_to_amount
    bounds = None if lo is None or hi is None else (lo, hi)
    return Decision(actor, pk.can_fold(), amount == 0, amount, bounds)


class Reopen:
    """An independent account of one betting round (R-BET-6, R-BET-4), kept by the harness
    from the actions alone, to justify an exclusion without trusting either engine.

    ``full`` is the last full bet or raise (at least the minimum bet); ``acted[p]`` the bet
    to match when ``p`` last acted; ``bets`` the bets and raises made (the big blind
    counts as the first bet before the flop).
    """

    def __init__(self, deal: Deal, street: int, current: int) -> None:
        bb = deal.blinds[1]
        fixed = deal.game == "flhe"
        self.fixed_size = (bb if street < 2 else 2 * bb) if fixed else 0
        self.full = self.fixed_size or bb
        self.current = current
        self.bets = 1 if street == 0 else 0
        self.acted: dict[int, int] = {}

    def open_for(self, p: int) -> bool:
        """Whether the betting is open for ``p``: not acted yet, or faced at least a full
        raise since (what was added since ``p`` acted, short all-ins included)."""
        return p not in self.acted or self.current - self.acted[p] >= self.full

    def record(self, action: Action) -> None:
        if action.kind is ActionKind.RAISE:
            increment = action.amount - self.current
            if increment >= self.full and not self.fixed_size:
                self.full = increment
            self.bets += 1
            self.current = action.amount
        self.acted[action.player] = self.current


def _short_all_ins_reopened(pk: State, p: int) -> bool:
    """PokerKit's side of ``R-BET-6 reopened``: it only sums the short all-ins since they
    last reached a full raise, so a later short all-in shuts ``p`` out again."""
    pending = pk.consecutive_short_all_in_amounts
    return (
        p in pk.acted_player_indices
        and bool(pending)
        and sum(pending) < pk.completion_betting_or_raising_amount
    )


def _reconcile(
    s: HandState, pk: State, mine: Decision, theirs: Decision, tally: Tally, rnd: Reopen
) -> bool:
    """Compare two decisions; return whether raising is allowed in both engines."""
    if (mine.actor, mine.can_fold, mine.can_check, mine.call) != (
        theirs.actor,
        theirs.can_fold,
        theirs.can_check,
        theirs.call,
    ):
        raise Mismatch(f"decision differs: croupier {mine}, PokerKit {theirs}")
    if mine.raise_bounds == theirs.raise_bounds:
        return mine.raise_bounds is not None
    p = mine.actor
    if mine.raise_bounds is None and not rnd.open_for(p):
        tally.excluded_decisions["R-BET-6"] += 1
        return False
    if theirs.raise_bounds is None and rnd.open_for(p) and _short_all_ins_reopened(pk, p):
        tally.excluded_decisions["R-BET-6 reopened"] += 1
        return False
    if mine.raise_bounds is None and s.street == 0 and rnd.fixed_size and rnd.bets >= 4:
        tally.excluded_decisions["R-BET-4"] += 1
        return False
    raise Mismatch(f"raise bounds differ: croupier {mine}, PokerKit {theirs}")


def _choose(rng: random.Random, d: Decision, can_raise: bool) -> Action:
    p = d.actor
    r = rng.random()
    if d.can_fold and r < 0.15:
        return fold(p)
    if can_raise and d.raise_bounds is not None and r < 0.55:
        lo, hi = d.raise_bounds
        r2 = rng.random()
        if r2 < 0.4:
            return raise_to(p, lo)
        if r2 < 0.65:
            return raise_to(p, hi)
        return raise_to(p, rng.randint(lo, hi))
    return check(p) if d.can_check else call(p)


def _apply_pokerkit(pk: State, action: Action) -> None:
    if action.kind.value == "fold":
        pk.fold()
    elif action.kind.value in ("check", "call"):
        pk.check_or_call()
    else:
        pk.complete_bet_or_raise_to(action.amount)


def _pokerkit_split(s: HandState, survivors: tuple[bool, ...]) -> tuple[int, ...]:
    """croupier's final stacks re-split the PokerKit way (R-POT-3 difference).

    PokerKit rebuilds the pots after the beaten hands are killed, so consecutive pots with
    the same surviving players merge into one, and each pot's odd chips all go to its first
    winner. The SPEC splits every pot on its own, odd chips one at a time from the left of
    the button. The winners of each pot are croupier's own.
    """
    result = s.result
    assert result is not None
    stacks = [result.stacks[p] - sum(pot.winnings[p] for pot in result.pots) for p in range(s.n)]
    groups: list[tuple[tuple[int, ...], int, set[int]]] = []
    for pot in result.pots:
        alive = tuple(p for p in pot.eligible if survivors[p])
        winners = {p for p in range(s.n) if pot.winnings[p] > 0}
        if groups and groups[-1][0] == alive:
            key, amount, won = groups[-1]
            groups[-1] = (key, amount + sum(pot.winnings), won | winners)
        else:
            groups.append((alive, sum(pot.winnings), winners))
    for _, amount, won in groups:
        ordered = sorted(won)
        if not ordered:
            continue
        share, odd = divmod(amount, len(ordered))
        for i, p in enumerate(ordered):
            stacks[p] += share + (odd if i == 0 else 0)
    return tuple(stacks)


def _croupier_holes(s: HandState) -> list[list[str]]:
    return [[str(c) for c in h] for h in s.hole_cards]


def _pokerkit_holes(pk: State) -> list[list[str]]:
    holes: list[list[str]] = [[] for _ in range(pk.player_count)]
    for op in pk.operations:
        if isinstance(op, HoleDealing):
            holes[op.player_index].extend(repr(c) for c in op.cards)
    return holes


def _play_alone(s: HandState, rng: random.Random, deal: Deal) -> tuple[int, ...]:
    while s.phase is Phase.BETTING:
        d = _croupier_decision(s)
        s, _ = apply(s, _choose(rng, d, d.raise_bounds is not None))
    while s.phase is Phase.SHOWDOWN:
        s, _ = apply(s, auto_showdown_action(s))
    if sum(s.stacks) != sum(deal.stacks):
        raise Mismatch(f"croupier lost or created chips\n  {deal}")
    return s.stacks


def _shows(events: list[Event]) -> list[tuple[str, int]]:
    return [
        ("show" if isinstance(e, CardsShown) else "muck", e.player)
        for e in events
        if isinstance(e, CardsShown | CardsMucked)
    ]


def _compare_showdowns(mine: list[tuple[str, int]], pk: State, all_in: bool, tally: Tally) -> None:
    """R-POT-4: who shows and who mucks, in which order.

    With a player all-in every hand is shown in both engines, but croupier tables them from
    the first player to act on the last round (nobody bet on it), PokerKit from the last
    aggressor of the hand; only the order differs there (counted as ``R-POT-4 order``).
    """
    theirs = [
        ("show" if op.hole_cards else "muck", op.player_index)
        for op in pk.operations
        if isinstance(op, HoleCardsShowingOrMucking)
    ]
    if mine == theirs:
        return
    if all_in and sorted(mine) == sorted(theirs):
        tally.excluded_hands["R-POT-4 order"] += 1
        return
    raise Mismatch(f"showdowns differ: croupier {mine}, PokerKit {theirs}")


def play_hand(deal: Deal, tally: Tally) -> tuple[int, ...]:
    """Play one hand in both engines, comparing as it goes; return the final stacks."""
    rng = random.Random(deal.action_seed)
    s, first = start_hand(croupier_game(deal), deal.stacks, deal.deck)
    if len(deal.stacks) == 2 and deal.blinds[0] == deal.blinds[1]:
        # R-POS-1: heads-up with equal blinds PokerKit lets the big blind act first; the
        # whole hand's order differs, so it is played in croupier alone.
        tally.excluded_hands["R-POS-1"] += 1
        return _play_alone(s, rng, deal)
    pk = pokerkit_state(deal)
    pos = _advance(pk, deal.deck, 0, tally)
    history: list[str] = []
    shows = _shows(first)
    rnd_street, rnd = 0, Reopen(deal, 0, max(s.bets))
    try:
        if _croupier_holes(s) != _pokerkit_holes(pk):
            raise Mismatch("hole cards differ")
        while s.phase is Phase.BETTING:
            if pk.actor_index is None:
                raise Mismatch(f"croupier waits for player {s.actor}, PokerKit for nobody")
            if len(s.board) != sum(1 for _ in pk.get_board_cards(0)):
                raise Mismatch("boards differ")
            if s.stacks != tuple(pk.stacks) or s.bets != tuple(pk.bets):
                raise Mismatch(
                    f"stacks or bets differ: {s.stacks} {s.bets} vs {pk.stacks} {pk.bets}"
                )
            if s.street != rnd_street:
                rnd_street, rnd = s.street, Reopen(deal, s.street, 0)
            mine, theirs = _croupier_decision(s), _pokerkit_decision(pk)
            can_raise = _reconcile(s, pk, mine, theirs, tally, rnd)
            tally.decisions += 1
            action = _choose(rng, mine, can_raise)
            rnd.record(action)
            history.append(str(action))
            s, events = apply(s, action)
            shows.extend(_shows(events))
            _apply_pokerkit(pk, action)
            tally.actions += 1
            pos = _advance(pk, deal.deck, pos, tally)
        all_in = any(s.contributions[p] == deal.stacks[p] for p in s.in_hand)
        while s.phase is Phase.SHOWDOWN:
            s, events = apply(s, auto_showdown_action(s))
            shows.extend(_shows(events))
        pos = _advance(pk, deal.deck, pos, tally)
        if pk.status:
            raise Mismatch(f"croupier ended the hand, PokerKit did not (actor {pk.actor_index})")
        _compare_showdowns(shows, pk, all_in, tally)
        mine_stacks = s.stacks
        theirs_stacks = tuple(pk.stacks)
        if mine_stacks != theirs_stacks:
            if _pokerkit_split(s, tuple(pk.statuses)) == theirs_stacks:
                tally.excluded_hands["R-POT-3"] += 1
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


class Twin:
    """One hand in both engines, driven action by action (for the difference tests)."""

    def __init__(self, deal: Deal, game: Game | None = None) -> None:
        self.deal = deal
        self.tally = Tally()
        self.s, _ = start_hand(game or croupier_game(deal), deal.stacks, deal.deck)
        self.pk = pokerkit_state(deal)
        self.pos = _feed_cards(self.pk, deal.deck, 0)

    def act(self, *actions: Action) -> Twin:
        for action in actions:
            self.s, _ = apply(self.s, action)
            _apply_pokerkit(self.pk, action)
            self.pos = _feed_cards(self.pk, self.deal.deck, self.pos)
        return self

    def finish(self) -> Twin:
        while self.s.phase is Phase.SHOWDOWN:
            self.s, _ = apply(self.s, auto_showdown_action(self.s))
        self.pos = _advance(self.pk, self.deal.deck, self.pos, self.tally)
        return self

    @property
    def croupier(self) -> Decision:
        return _croupier_decision(self.s)

    @property
    def pokerkit(self) -> Decision:
        return _pokerkit_decision(self.pk)


def main() -> None:
    """Print the counts of the test suite's seeded run (``CROUPIER_DIFF_HANDS`` per game,
    chunks of 1,000 hands with seeds 0, 1, …), as ``test_differential.py`` plays them."""
    import os

    hands = int(os.environ.get("CROUPIER_DIFF_HANDS", "10000"))
    for game in GAMES:
        total = Tally()
        for index in range(max(1, -(-hands // 1000))):
            total.merge(run(game, min(1000, hands - index * 1000), seed=index))
        print(f"{game}: {total.summary()}")


if __name__ == "__main__":
    main()
