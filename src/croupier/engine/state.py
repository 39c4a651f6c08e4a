"""The hand state machine: ``start_hand``, ``legal_actions`` and ``apply``.

Pure transitions: :func:`apply` never changes the state it is given; it returns a new
state and the events of the transition, or raises :class:`IllegalActionError` (a
``ValueError`` with a stable ``code``) and changes nothing.

Players are numbered in *position order*: 0 is the first seat at the left of the button
and ``n - 1`` is the button (PHH and PokerKit use the same order). With three players or
more, 0 posts the small blind and 1 the big blind; heads-up, the button (1) posts the
small blind and acts first before the flop (R-POS-1).

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.actions import call, check, raise_to, fold
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> deck = parse_cards("AsKs QhQd 2c 7h8h9h 3d Td 4s Jc")
>>> s, ev = start_hand(g, (100, 100), deck)
>>> s.actor, legal_actions(s).min_raise, legal_actions(s).max_raise
(1, 4, 100)
>>> s, ev = apply(s, raise_to(1, 6))
>>> s, ev = apply(s, call(0))
>>> [str(c) for c in s.board]
['7h', '8h', '9h']
>>> for _ in range(3):
...     s, ev = apply(s, check(0)); s, ev = apply(s, check(1))
>>> s.phase.value, s.actor
('showdown', 0)
>>> while not s.is_over:
...     s, ev = apply(s, auto_showdown_action(s))
>>> s.stacks, s.result.net
((94, 106), (-6, 6))
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final

from croupier.engine import split as _split
from croupier.engine import stud as _stud
from croupier.engine.actions import Action, ActionKind, LegalActions
from croupier.engine.cards import Card
from croupier.engine.errors import ConfigurationError, IllegalActionError, InconsistentStateError
from croupier.engine.events import (
    Acted,
    BoardDealt,
    CardBurnt,
    CardsMucked,
    CardsShown,
    ChipsReturned,
    Drew,
    Event,
    ForcedBet,
    HandStarted,
    HoleDealt,
    StreetStarted,
)
from croupier.engine.game import Game, Structure
from croupier.engine.hand import HandState, Phase, take
from croupier.engine.inputs import (
    cap_raise_to_pot,
    exchange_hole_card,
    forbid_raise,
    show_uncontested,
)
from croupier.engine.variants import BetSize, ForcedBets, Opener

__all__ = [
    "HandState",
    "Phase",
    "apply",
    "auto_showdown_action",
    "cap_raise_to_pot",
    "exchange_hole_card",
    "fold_out",
    "forbid_raise",
    "legal_actions",
    "protect",
    "show_uncontested",
    "start_hand",
]

_NL: Final = Structure.NO_LIMIT
_PL: Final = Structure.POT_LIMIT
_HPL: Final = Structure.HALF_POT_LIMIT
_FL: Final = Structure.FIXED_LIMIT
_SL: Final = Structure.SPREAD_LIMIT
FL_BET_CAP: Final = 4
"""Fixed limit: one bet and three raises per round (R-BET-4)."""


# -- starting a hand ------------------------------------------------------------------


def _default_blinds(game: Game, n: int) -> tuple[int, ...]:
    sb, bb = game.stakes.small_blind, game.stakes.big_blind
    blinds = [0] * n
    if game.variant.forced_bets is not ForcedBets.BLINDS:
        return tuple(blinds)
    if n == 2:
        blinds[0], blinds[1] = bb, sb
    else:
        blinds[0], blinds[1] = sb, bb
    return tuple(blinds)


def _as_amounts(values: Sequence[int] | None, n: int, what: str) -> tuple[int, ...]:
    if values is None:
        return (0,) * n
    out = tuple(values)
    if len(out) != n or any(type(v) is not int or v < 0 for v in out):
        raise ConfigurationError(f"{what} must be {n} non-negative integers, not {values!r}")
    return out


def start_hand(
    game: Game,
    stacks: Sequence[int],
    deck: Sequence[Card],
    *,
    blinds: Sequence[int] | None = None,
    antes: Sequence[int] | None = None,
    dead: Sequence[int] | None = None,
    entropy: int = 0,
) -> tuple[HandState, list[Event]]:
    """Deal a new hand and run it to the first decision.

    ``stacks`` are the players' chips in position order (0 = left of the button, last =
    button). ``deck`` is the shuffled deck, dealt from the front. ``blinds`` (live bets),
    ``antes`` and ``dead`` (dead money, e.g. a returning player's missed small blind,
    R-SEAT-3) are per player and default to the game's stakes. ``entropy`` seeds the
    reshuffle of discards in draw games (R-DRAW-4); record it with the deck to replay.
    """
    n = len(stacks)
    variant = game.variant
    if not variant.min_players <= n <= variant.max_players:
        raise ConfigurationError(
            f"{variant.name} deals to {variant.min_players}–{variant.max_players} players, not {n}"
        )
    if any(type(s) is not int or s <= 0 for s in stacks):
        raise ConfigurationError(f"stacks must be positive integers, not {tuple(stacks)!r}")
    deck_t = tuple(Card(c) for c in deck)
    if len(set(deck_t)) != len(deck_t):
        raise InconsistentStateError("the deck holds the same card twice (R-CARD-5)")
    allowed = set(variant.deck)
    if any(c not in allowed for c in deck_t):
        raise ConfigurationError(f"the deck holds cards that {variant.name} does not use")

    s = HandState.__new__(HandState)
    s.game = game
    s.n = n
    s.deck = deck_t
    s.deck_pos = 0
    s.entropy = entropy
    s.street = 0
    s.phase = Phase.BETTING
    s.actor = -1
    s.current_bet = 0
    s.raise_inc = game.min_bet
    s.bet_count = 0
    s.start_stacks = tuple(stacks)
    s.result = None
    s._stacks = list(stacks)
    s._bets = [0] * n
    s._contrib = [0] * n
    s._folded = [False] * n
    s._hole = [() for _ in range(n)]
    s._up = [() for _ in range(n)]
    s._board = []
    s._burnt = []
    s._discards = []
    s._acted = [-1] * n
    s._aggressor = -1
    s._last_aggressor = -1
    s._opener = 0
    s._draw_queue = []
    s._show_queue = []
    s._shown = [False] * n
    s._mucked = [False] * n
    s._no_raise = [False] * n
    s._pot_limited = [False] * n
    s._dealt_street = 0
    s._dead = [0] * n
    s._antes = [0] * n
    s._reserved = [0] * n
    s._values = {}
    s._stud = 0
    s._thrown = [() for _ in range(n)]
    s.split = None

    blinds_t = _default_blinds(game, n) if blinds is None else _as_amounts(blinds, n, "blinds")
    s.nominal_blinds = blinds_t
    ante = game.stakes.ante
    bb_ante = antes is None and game.stakes.big_blind_ante and ante > 0
    if bb_ante:
        antes_t: tuple[int, ...] = (0,) * n  # posted after the blinds, below
    else:
        antes_t = (ante,) * n if antes is None else _as_amounts(antes, n, "antes")
    dead_t = _as_amounts(dead, n, "dead posts")

    events: list[Event] = [HandStarted(variant.key, game.structure.value, tuple(stacks))]
    stk, contrib, bets = s._stacks, s._contrib, s._bets
    for kind, amounts in (("ante", antes_t), ("dead", dead_t)):
        for p in range(n):
            if amounts[p]:
                paid = min(amounts[p], stk[p])
                stk[p] -= paid
                contrib[p] += paid
                if kind == "dead":
                    s._dead[p] += paid
                else:
                    s._antes[p] += paid
                events.append(ForcedBet(p, kind, paid, stk[p] == 0))
    order = sorted((b, p) for p, b in enumerate(blinds_t) if b)
    sb, bb = game.stakes.small_blind, game.stakes.big_blind
    for b, p in order:
        paid = min(b, stk[p])
        stk[p] -= paid
        contrib[p] += paid
        bets[p] += paid
        kind = "small_blind" if b == sb and b != bb else "big_blind" if b == bb else "straddle"
        events.append(ForcedBet(p, kind, paid, stk[p] == 0))
    if bb_ante:
        _post_big_blind_ante(s, blinds_t, ante, events)
    if order:
        largest = max(blinds_t)
        # A blind posted short (all-in) still sets the full amount to call (R-POS-3, house
        # rule ``short_blind``): the others call the nominal blind; what the short blind
        # cannot match comes back as uncalled chips (R-POT-2).
        s.current_bet = max(*bets, largest) if game.rules.short_blind == "full" else max(bets)
        if game.structure is _FL:
            s.raise_inc = _fixed_size(s)
            s.bet_count = 1
        else:
            s.raise_inc = max(game.min_bet, largest)
    _deal_street(s, events)
    if not _open_street(s, events, first=True):
        _end_round(s, events)
    return s._sealed(), events


def _post_big_blind_ante(
    s: HandState, blinds: tuple[int, ...], ante: int, events: list[Event]
) -> None:
    """The big-blind ante (R-TOUR-7, TDA RP-11): the first position posting the big blind
    (or the largest blind) adds the ante after its blind, with what it has left. It is dead
    money in the main pot (:func:`croupier.engine.settle.dead_money`)."""
    bb = s.game.stakes.big_blind
    largest = max(blinds) if blinds else 0
    if not largest:
        return
    target = bb if bb in blinds else largest
    p = blinds.index(target)
    paid = min(ante, s._stacks[p])
    if not paid:
        return
    s._stacks[p] -= paid
    s._contrib[p] += paid
    s._antes[p] += paid
    events.append(ForcedBet(p, "ante", paid, s._stacks[p] == 0))


# -- dealing --------------------------------------------------------------------------


_take = take


def _deal_street(s: HandState, events: list[Event]) -> None:
    street = s.game.variant.streets[s.street]
    s._dealt_street = s.street
    if (
        street.hole
        and s.game.variant.forced_bets is ForcedBets.ANTE_BRING_IN
        and _stud.deal_short(s, street, events)
    ):
        return
    if street.burn and (street.hole or street.board or (street.draw and s.deck_pos < len(s.deck))):
        (card,) = _take(s, 1)
        s._burnt.append(card)
        events.append(CardBurnt(card))
    if street.hole:
        live = [p for p in range(s.n) if not s._folded[p]]
        dealt: dict[int, list[Card]] = {p: [] for p in live}
        for _ in street.hole:
            for p in live:
                dealt[p].extend(_take(s, 1))
        up = street.hole
        for p in live:
            s._hole[p] = (*s._hole[p], *dealt[p])
            s._up[p] = (*s._up[p], *up)
            events.append(HoleDealt(p, tuple(dealt[p]), up))
    if street.board:
        cards = _take(s, street.board)
        s._board.extend(cards)
        events.append(BoardDealt(s.street, tuple(cards)))


def _open_street(s: HandState, events: list[Event], *, first: bool = False) -> bool:
    """Start the draw or the betting of the current street; ``True`` if a decision waits."""
    street = s.game.variant.streets[s.street]
    if not first:
        events.append(StreetStarted(s.street, street.name, sum(s._contrib)))
    if street.hole and s._board and s.game.variant.forced_bets is ForcedBets.ANTE_BRING_IN:
        return False  # the stud community card: no betting on that round (SPEC §7)
    if street.draw and _count_live(s) > 1:
        s.phase = Phase.DRAWING
        s._draw_queue = [p for p in range(s.n) if not s._folded[p]]
        s.actor = s._draw_queue[0]
        return True
    return _open_betting(s, first=first)


def _count_live(s: HandState) -> int:
    return s.n - sum(s._folded)


def _open_betting(s: HandState, *, first: bool = False) -> bool:
    """Start the betting round of the current street; ``False`` if nobody can act (run-out)."""
    s.phase = Phase.BETTING
    game = s.game
    if not first:
        s.current_bet = 0
        s.bet_count = 0
        s.raise_inc = _fixed_size(s) if game.structure is _FL else game.min_bet
        s._bets = [0] * s.n
        s._acted = [-1] * s.n
        s._aggressor = -1
    street = game.variant.streets[s.street]
    s._opener = _opener(s, street.opener)
    s.actor = _next_to_act(s, s._opener - 1)
    if street.opener is Opener.BRING_IN and game.stakes.bring_in and s.actor >= 0:
        s._stud = _stud.BRING_IN_DUE
    return s.actor >= 0


def _bb_position(n: int) -> int:
    """The big blind's position: 1 with three players or more, 0 heads-up (R-POS-1)."""
    return 0 if n == 2 else 1


def _opener(s: HandState, rule: Opener) -> int:
    n = s.n
    if rule is Opener.BLINDS:
        blinds = s.nominal_blinds
        if any(blinds):
            top = max(blinds)
            holders = [p for p in range(n) if blinds[p] == top]
            # A straddle (a blind above the big blind) moves the first action past the last
            # straddler; a live big blind posted out of position by a new or returning
            # player (R-SEAT-3) does not: the player after the big blind's seat opens.
            if top <= s.game.stakes.big_blind and _bb_position(n) in holders:
                return (_bb_position(n) + 1) % n
            return (holders[-1] + 1) % n
        return 0
    if rule is Opener.AFTER_BIG_BLIND:
        blinds = s.nominal_blinds
        bb = s.game.stakes.big_blind
        holders = [p for p in range(n) if blinds[p] == bb and bb]
        if _bb_position(n) in holders:
            return (_bb_position(n) + 1) % n
        return (holders[-1] + 1) % n if holders else 0
    if rule is Opener.LEFT_OF_BUTTON:
        return 0
    if rule is Opener.BRING_IN or rule is Opener.BEST_SHOWING:
        return _stud.opener(s, rule)
    raise ConfigurationError(f"opener rule {rule.value!r} is not supported by this engine yet")


def _can_act(s: HandState, p: int) -> bool:
    return not s._folded[p] and s._stacks[p] > 0


def _next_to_act(s: HandState, after: int) -> int:
    """The next player after ``after`` who must act in this betting round, or -1."""
    n = s.n
    stacks, folded, bets, acted = s._stacks, s._folded, s._bets, s._acted
    current = s.current_bet
    able = 0
    for p in range(n):
        if not folded[p] and stacks[p] > 0:
            able += 1
    for i in range(1, n + 1):
        p = (after + i) % n
        if folded[p] or stacks[p] == 0:
            continue
        if bets[p] < current:
            return p
        if acted[p] < 0 and able > 1:
            return p
    return -1


def _fixed_size(s: HandState) -> int:
    street = s.game.variant.streets[s.street]
    return s.game.big_bet if street.bet_size is BetSize.BIG else s.game.small_bet


# -- table-driven inputs ----------------------------------------------------------------


def protect(s: HandState, player: int) -> tuple[HandState, list[Event]]:
    """Treat ``player`` as all-in for what they have put in (R-TIME-2 ``all_in_protection``).

    Their remaining chips are set aside until the hand ends, so they act no more, contest
    only the pots they have matched, and a side pot forms for the others. A player with
    nothing in the pot cannot be protected (the table folds them instead).
    """
    if s.phase is Phase.COMPLETE:
        raise IllegalActionError("hand_over", "the hand is over")
    if not 0 <= player < s.n or s._folded[player]:
        raise IllegalActionError("not_in_hand", f"player {player + 1} is not in the hand")
    if s._contrib[player] == 0:
        raise IllegalActionError("nothing_in_pot", "a player with no chips in cannot be protected")
    if s._stacks[player] == 0:
        raise IllegalActionError("already_all_in", f"player {player + 1} is already all-in")
    new = s._clone()
    events: list[Event] = []
    new._reserved[player] = new._stacks[player]
    new._stacks[player] = 0
    events.append(Acted(player, ActionKind.CHECK, new._bets[player], 0, True))
    if new.phase is Phase.BETTING and new.actor == player:
        _after_action(new, player, events)
    elif new.phase is Phase.BETTING:
        nxt = _next_to_act(new, new.actor - 1)
        if nxt < 0:
            _end_round(new, events)
        else:
            new.actor = nxt
    return new._sealed(), events


def fold_out(s: HandState, player: int) -> tuple[HandState, list[Event]]:
    """Fold ``player`` at their turn even when checking is free (R-TIME-2 ``fold``: arcade,
    "le joueur se couche automatiquement"). Otherwise like :func:`apply` with a fold."""
    if s.phase is not Phase.BETTING or s.actor != player:
        raise IllegalActionError("not_your_turn", f"player {player + 1} is not to bet now")
    if s._stud == _stud.BRING_IN_DUE:
        raise IllegalActionError("bring_in_expected", "the lowest up card must bring in")
    new = s._clone()
    events: list[Event] = []
    new._folded[player] = True
    events.append(Acted(player, ActionKind.FOLD, new._bets[player], 0, False))
    _after_action(new, player, events)
    return new._sealed(), events


# -- legal actions ----------------------------------------------------------------------


def _raise_bounds(s: HandState, p: int) -> tuple[int, int]:
    """(min, max) raise-to totals for ``p``, or (0, 0) when ``p`` may not raise."""
    game = s.game
    structure = game.structure
    stacks, bets = s._stacks, s._bets
    current = s.current_bet
    all_in = bets[p] + stacks[p]
    if all_in <= current or s._no_raise[p]:
        return 0, 0
    if structure is _FL and s.bet_count >= FL_BET_CAP:
        return 0, 0
    acted = s._acted[p]
    if acted >= 0 and current - acted < s.raise_inc:
        return 0, 0  # a short all-in did not reopen the betting (R-BET-6)
    # A raise needs an opponent who could put in more than the current bet: otherwise no
    # chip of it could ever be called (PokerKit agrees; the excess would only come back).
    others = False
    for q in range(s.n):
        if q != p and not s._folded[q] and stacks[q] > 0 and bets[q] + stacks[q] > current:
            others = True
            break
    if not others:
        return 0, 0
    if structure is _NL:
        lo, hi = current + s.raise_inc, all_in
    elif structure is _FL:
        lo = hi = current + _fixed_size(s)
    elif structure is _SL:
        lo, hi = current + s.raise_inc, current + game.spread_max(s.street)
    else:
        pot = sum(s._contrib) + (current - bets[p])
        hi = current + (pot if structure is _PL else pot // 2)
        lo = current + s.raise_inc
        hi = max(hi, lo)
    if game.variant.forced_bets is ForcedBets.ANTE_BRING_IN:
        lo, hi = _stud.raise_bounds(s, p, lo, hi)
    if s._pot_limited[p] and structure is not _FL:
        pot_cap = current + sum(s._contrib) + (current - bets[p])
        hi = max(min(hi, pot_cap), lo)
    if current == 0:
        lo = max(lo, game.min_bet)
    if lo > all_in:
        lo = all_in
    if hi > all_in:
        hi = all_in
    return lo, hi


def legal_actions(s: HandState) -> LegalActions | None:
    """What the player to act may do, with the amounts (R-BET-8); ``None`` when nobody acts."""
    p = s.actor
    if p < 0 or s.phase is Phase.COMPLETE:
        return None
    if s.phase is Phase.DRAWING:
        street = s.game.variant.streets[s.street]
        return LegalActions(p, can_draw=True, max_discards=min(street.draw, len(s._hole[p])))
    if s.phase is Phase.SHOWDOWN:
        return LegalActions(p, show_or_muck=True)
    if s.phase is Phase.SPLIT:
        return LegalActions(p, split_answer=True)
    to_call = s.current_bet - s._bets[p]
    lo, hi = _raise_bounds(s, p)
    if s._stud == _stud.BRING_IN_DUE:
        return _stud.legal_bring_in(s, p, lo, hi)
    call_above, round_up_from = _under_raise_bounds(s, lo, hi)
    return LegalActions(
        p,
        can_fold=to_call > 0,
        can_check=to_call == 0,
        can_call=to_call > 0,
        call=min(to_call, s._stacks[p]) if to_call > 0 else 0,
        can_raise=hi > 0,
        min_raise=lo,
        max_raise=hi,
        can_offer_split=s.game.variant.split_option and _split.can_offer(s),
        call_above=call_above,
        round_up_from=round_up_from,
    )


def _under_raise_bounds(s: HandState, lo: int, hi: int) -> tuple[int, int]:
    """R-BET-9 for :class:`LegalActions`: where an amount below the minimum raise counts as
    a call and where it is raised to the minimum (the same arithmetic as ``_bet_action``);
    ``(0, 0)`` when strict or when there is no such amount."""
    current = s.current_bet
    if s.game.rules.under_raise != "tda_half_raise" or hi == 0 or lo <= current + 1:
        return 0, 0
    increment = max(lo - current, s.raise_inc)
    return current, current + (increment + 1) // 2


# -- transitions ------------------------------------------------------------------------


def apply(s: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Apply ``action`` and run the hand on to the next decision.

    Raises :class:`IllegalActionError` (the state is unchanged) when the action is not
    allowed now; the error's ``code`` says why.
    """
    if s.phase is Phase.COMPLETE:
        raise IllegalActionError("hand_over", "the hand is over")
    if not isinstance(action, Action):
        raise IllegalActionError("malformed_action", f"not an action: {action!r}")
    p = action.player
    if p != s.actor:
        raise IllegalActionError(
            "not_your_turn", f"it is player {s.actor + 1}'s turn, not player {p + 1}'s"
        )
    kind = action.kind
    new = s._clone()
    events: list[Event] = []
    if s.phase is Phase.BETTING:
        _bet_action(new, p, action, events)
    elif s.phase is Phase.DRAWING:
        if kind is not ActionKind.DRAW:
            raise IllegalActionError("draw_expected", "players are drawing: draw or stand pat")
        _draw_action(new, p, action.cards, events)
    elif s.phase is Phase.SPLIT:
        _split.answer(new, p, action, events)
    else:
        if kind is ActionKind.SHOW:
            _show(new, p, events)
        elif kind is ActionKind.MUCK:
            new._mucked[p] = True
            events.append(CardsMucked(p))
        else:
            raise IllegalActionError("show_or_muck_expected", "at showdown: show or muck")
        _run_showdown(new, events)
    return new._sealed(), events


def _bet_action(s: HandState, p: int, action: Action, events: list[Event]) -> None:
    kind = action.kind
    if kind is ActionKind.OFFER_SPLIT:
        _split.offer(s, p, events)
        return
    if (s._stud or kind is ActionKind.BRING_IN) and _stud.bring_in_turn(s, p, action, events):
        _after_action(s, p, events)
        return
    bets, stacks = s._bets, s._stacks
    current = s.current_bet
    to_call = current - bets[p]
    if kind is ActionKind.FOLD:
        if to_call <= 0:
            raise IllegalActionError("fold_when_check", "nothing to call: check instead of folding")
        s._folded[p] = True
        events.append(Acted(p, kind, bets[p], 0, False))
    elif kind is ActionKind.CHECK:
        if to_call > 0:
            raise IllegalActionError("check_facing_bet", f"there is {to_call} to call: no check")
        events.append(Acted(p, kind, bets[p], 0, False))
    elif kind is ActionKind.CALL:
        if to_call <= 0:
            raise IllegalActionError("nothing_to_call", "there is nothing to call: check")
        paid = to_call if to_call < stacks[p] else stacks[p]
        _put(s, p, paid)
        events.append(Acted(p, kind, bets[p], paid, stacks[p] == 0))
    elif kind is ActionKind.RAISE:
        amount = action.amount
        if type(amount) is not int:
            raise IllegalActionError(
                "bad_amount", f"a raise needs a whole number of chips, not {amount!r}"
            )
        lo, hi = _raise_bounds(s, p)
        if hi == 0:
            raise IllegalActionError("raise_not_allowed", "raising is not allowed now")
        if amount > hi:
            raise IllegalActionError("raise_too_large", f"the largest raise is to {hi}")
        if amount < lo:
            if s.game.rules.under_raise == "tda_half_raise" and amount > current:
                # Half of the full minimum increment, also when a short stack's ``lo`` is
                # capped at its all-in: a small raise never becomes an all-in (R-BET-9).
                if 2 * (amount - current) < max(lo - current, s.raise_inc):
                    paid = min(to_call, stacks[p])
                    _put(s, p, paid)
                    called = ActionKind.CALL if paid else ActionKind.CHECK
                    events.append(Acted(p, called, bets[p], paid, stacks[p] == 0))
                    _after_action(s, p, events)
                    return
                amount = lo
            else:
                raise IllegalActionError(
                    "raise_too_small",
                    f"a raise must be to at least {lo}" + (f" (at most {hi})" if hi != lo else ""),
                )
        increment = amount - current
        paid = amount - bets[p]
        _put(s, p, paid)
        if increment >= s.raise_inc:
            if s.game.structure is not _FL or _stud.open_pair_active(s):
                s.raise_inc = increment
            s.bet_count += 1
        elif s.game.structure is _FL:
            s.bet_count += 1
        s.current_bet = amount
        s._aggressor = p
        if s._stud:
            _stud.completed(s, p)
        events.append(Acted(p, kind, amount, paid, stacks[p] == 0))
    else:
        raise IllegalActionError("not_a_betting_action", f"{kind.value} is not a betting action")
    _after_action(s, p, events)


def _put(s: HandState, p: int, chips: int) -> None:
    s._stacks[p] -= chips
    s._bets[p] += chips
    s._contrib[p] += chips


def _after_action(s: HandState, p: int, events: list[Event]) -> None:
    s._acted[p] = s.current_bet
    if _count_live(s) == 1:
        _end_round(s, events)
        return
    nxt = _next_to_act(s, p)
    if nxt < 0:
        _end_round(s, events)
    else:
        s.actor = nxt


def _return_uncalled(s: HandState, events: list[Event]) -> None:
    bets = s._bets
    top = max(bets)
    if top <= 0:
        return
    leaders = [p for p in range(s.n) if bets[p] == top]
    if len(leaders) != 1:
        return
    p = leaders[0]
    second = max(b for q, b in enumerate(bets) if q != p)
    excess = top - second
    if excess > 0:
        bets[p] -= excess
        s._contrib[p] -= excess
        s._stacks[p] += excess
        if s.current_bet == top:
            s.current_bet = second
        events.append(ChipsReturned(p, excess))


def _end_round(s: HandState, events: list[Event]) -> None:
    """Close the betting round and move the hand on (next street, run-out or settlement)."""
    from croupier.engine.settle import settle

    _return_uncalled(s, events)
    s._stud = 0
    s._last_aggressor = s._aggressor
    if s.phase is Phase.BETTING and any(s._no_raise):
        s._no_raise = [False] * s.n
    if any(s._pot_limited):
        s._pot_limited = [False] * s.n  # an Ancre Courte expires with the round (R-NAIKO-7)
    s.actor = -1
    last = len(s.game.variant.streets) - 1
    while True:
        if _count_live(s) == 1:
            settle(s, events)
            return
        if s.street >= last:
            _start_showdown(s, events)
            return
        s.street += 1
        s._bets = [0] * s.n
        _deal_street(s, events)
        if _open_street(s, events):
            return
        s._last_aggressor = -1


# -- draws --------------------------------------------------------------------------------


def _draw_action(s: HandState, p: int, discards: tuple[Card, ...], events: list[Event]) -> None:
    street = s.game.variant.streets[s.street]
    hole = s._hole[p]
    if len(discards) > street.draw:
        raise IllegalActionError("too_many_discards", f"at most {street.draw} cards may be drawn")
    if len(set(discards)) != len(discards) or any(c not in hole for c in discards):
        raise IllegalActionError("not_your_cards", "discard only cards from your own hand")
    received = _draw_cards(s, len(discards), exclude=(*discards, *s._thrown[p]))
    kept = [c for c in hole if c not in discards]
    s._discards.extend(discards)
    s._thrown[p] = (*s._thrown[p], *discards)
    up = s._up[p]
    s._hole[p] = (*kept, *received)
    s._up[p] = (*(u for c, u in zip(hole, up, strict=True) if c not in discards),) + (
        (False,) * len(received)
    )
    events.append(Drew(p, tuple(discards), tuple(received)))
    s._draw_queue.pop(0)
    if s._draw_queue:
        s.actor = s._draw_queue[0]
        return
    if not _open_betting(s):
        _end_round(s, events)


def _draw_cards(s: HandState, count: int, exclude: Sequence[Card]) -> list[Card]:
    """Deal ``count`` cards, none of them in ``exclude`` (the cards the player has thrown in
    this hand), reshuffling the discards (and in 32-Card Draw the burnt cards) under the stub
    when it runs short (R-DRAW-4). Cards the player may not get stay in the stub, in order,
    for the next players; before any reshuffle this is a plain deal from the stub."""
    taboo = set(exclude)
    stub = list(s.deck[s.deck_pos :])
    ok = [c for c in stub if c not in taboo]
    if len(ok) < count:
        burnt = s.game.variant.reshuffle_burnt
        pool = [*s._discards, *(s._burnt if burnt else ())]
        s._discards = []
        if burnt:
            s._burnt = []
        rng = Random(s.entropy * 1_000_003 + s.deck_pos)
        rng.shuffle(pool)
        stub += pool
        ok = [c for c in stub if c not in taboo]
        if len(ok) < count:
            raise InconsistentStateError("not enough cards to complete the draw")
    picked = ok[:count]
    chosen = set(picked)
    s.deck = (*s.deck[: s.deck_pos], *picked, *(c for c in stub if c not in chosen))
    return _take(s, count)


# -- showdown ---------------------------------------------------------------------------


def _start_showdown(s: HandState, events: list[Event]) -> None:
    s.phase = Phase.SHOWDOWN
    n = s.n
    live = [p for p in range(n) if not s._folded[p]]
    # A bet on the last round: the last aggressor shows first. Checked through: the first
    # player still in the hand to the left of the dealer (the button; the nominal dealer
    # position in stud and Soko) shows first, in every game, not the best board (R-POT-4).
    aggressor = s._last_aggressor
    start = aggressor if aggressor >= 0 and not s._folded[aggressor] else 0
    order = sorted(live, key=lambda p: (p - start) % n)
    s._show_queue = order
    everyone = s.game.rules.showdown == "all" or any(s._stacks[p] == 0 for p in live)
    if everyone:
        for p in order:
            _show(s, p, events)
        s._show_queue = []
    _run_showdown(s, events)


def _run_showdown(s: HandState, events: list[Event]) -> None:
    """Ask each player in showdown order to show or muck; settle when all have (R-POT-4).

    Every player may muck in turn (conceding); :func:`auto_showdown_action` gives the usual
    automatic choice (show a hand that can still win, muck one that cannot).
    """
    from croupier.engine.settle import settle

    queue = s._show_queue
    while queue and (s._shown[queue[0]] or s._mucked[queue[0]]):
        queue.pop(0)
    contenders = [p for p in range(s.n) if not s._folded[p] and not s._mucked[p]]
    if len(contenders) == 1:
        queue.clear()  # every other hand was mucked: the last one wins uncontested
    if queue:
        s.actor = queue[0]
        return
    s.actor = -1
    settle(s, events)


def auto_showdown_action(s: HandState) -> Action:
    """The automatic showdown choice for the player to act: show if the hand can still win
    or tie something against the hands already shown, else muck."""
    from croupier.engine.actions import muck, show
    from croupier.engine.settle import can_still_win

    p = s.actor
    if s.phase is not Phase.SHOWDOWN or p < 0:
        raise IllegalActionError("not_showdown", "no showdown decision is pending")
    return show(p) if can_still_win(s, p) else muck(p)


def _show(s: HandState, p: int, events: list[Event]) -> None:
    from croupier.engine.settle import describe_hands

    if s._shown[p]:
        return
    s._shown[p] = True
    events.append(CardsShown(p, tuple(s._hole[p]), describe_hands(s, p)))
