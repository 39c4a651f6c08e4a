"""Baseline bot strategies (R-BOT-1): they see only their seat's redacted view.

A strategy maps a :class:`~croupier.engine.views.TableView` (the bot's own cards, the
board, what others show, the legal actions) to a :class:`Decision`. Two baselines:
:class:`RuleBot` (hand-strength buckets) and :class:`EquityBot` (Monte Carlo equity
against random hands, compared with the pot odds).

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.state import start_hand
>>> from croupier.engine.views import view
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> s, _ = start_hand(g, (100, 100), parse_cards("AsKs AhKd 2c 7h8h9h 3d Td 4s Jc"))
>>> RuleBot().decide(view(s, s.actor), s.actor, g).kind
'raise'
>>> import random
>>> EquityBot(random.Random(1), trials=30).decide(view(s, s.actor), s.actor, g).kind
'raise'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from croupier.engine.cards import Card
from croupier.engine.evaluate import EVALUATORS, category
from croupier.engine.game import Game
from croupier.engine.views import TableView

__all__ = ["Decision", "EquityBot", "RuleBot", "Strategy", "hand_bucket"]


@dataclass(frozen=True, slots=True)
class Decision:
    """``kind`` is ``fold``/``check``/``call``/``raise`` (``amount``: raise-to),
    ``bring_in``, ``draw`` (``discards``), ``show``/``muck`` or a split answer."""

    kind: str
    amount: int = 0
    discards: tuple[Card, ...] = ()


class Strategy(Protocol):
    def decide(self, view: TableView, position: int, game: Game) -> Decision: ...


_STRONG = {"straight", "flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush"}
_GOOD = {"two_pair", "three_of_a_kind"}


def _own_cards(view: TableView, position: int) -> tuple[Card, ...]:
    return tuple(c for c in view.players[position].cards if c is not None)


def hand_bucket(cards: Sequence[Card], board: Sequence[Card], game: Game) -> int:
    """Hand strength bucket 0 (weak) … 3 (strong), from the bot's own cards and the board.

    >>> from croupier.engine.cards import parse_cards as p
    >>> g = Game.of("nlhe", blinds=(1, 2))
    >>> hand_bucket(p("AsAd"), (), g), hand_bucket(p("7s2d"), (), g)
    (3, 0)
    >>> hand_bucket(p("7s2d"), p("7h7c2c"), g)
    3
    """
    kind = game.variant.hands[0]
    if len(board) >= 3 or len(cards) + len(board) >= 5:
        try:
            value = EVALUATORS[kind](tuple(cards), tuple(board))
        except ValueError:
            value = None
        if value is not None and kind in ("high", "omaha_high"):
            name = category(kind, value)
            if name in _STRONG:
                return 3
            if name in _GOOD:
                return 2
            return 1 if name == "pair" else 0
    ranks = Counter(c.rank for c in cards)
    pairs = sum(1 for r, k in ranks.items() if k >= 2)
    high = sum(1 for c in cards if c.rank >= 9)  # J or better
    suited = max(Counter(c.suit for c in cards).values(), default=0) >= 2
    if any(k >= 2 and r >= 8 for r, k in ranks.items()):
        return 3
    if pairs or high >= 2:
        return 2
    if high == 1 or suited:
        return 1
    return 0


def _bet_size(view: TableView, fraction: float) -> int:
    legal = view.legal
    assert legal is not None
    target = max(view.pot, 1) * fraction + max(p.bet for p in view.players)
    return max(legal.min_raise, min(legal.max_raise, int(target)))


def _draw_discards(cards: Sequence[Card], limit: int) -> tuple[Card, ...]:
    ranks = Counter(c.rank for c in cards)
    junk = sorted((c for c in cards if ranks[c.rank] == 1), key=lambda c: c.rank)
    return tuple(junk[: min(limit, max(0, len(junk) - 1))])


class RuleBot:
    """Hand-strength buckets: raise the strong, call the good, check or fold the rest."""

    def decide(self, view: TableView, position: int, game: Game) -> Decision:
        legal = view.legal
        if legal is None:
            return Decision("check")
        cards = _own_cards(view, position)
        if legal.show_or_muck:
            return Decision("show")
        if legal.can_draw:
            return Decision("draw", discards=_draw_discards(cards, legal.max_discards))
        if legal.split_answer:
            return Decision("decline_split")
        bucket = hand_bucket(cards, view.board, game)
        if legal.can_bring_in:
            if bucket == 3 and legal.can_raise:
                return Decision("raise", legal.min_raise)
            return Decision("bring_in")
        cheap = legal.call <= max(view.pot // 3, 1)
        if bucket == 3 and legal.can_raise:
            return Decision("raise", _bet_size(view, 0.75))
        if bucket >= 2:
            if legal.can_raise and legal.can_check:
                return Decision("raise", legal.min_raise)
            return Decision("call" if legal.can_call else "check")
        if legal.can_check:
            return Decision("check")
        if bucket == 1 and cheap and legal.can_call:
            return Decision("call")
        return Decision("fold")


class EquityBot:
    """Monte Carlo equity against random hands for each live opponent, versus pot odds.

    ``rng`` is injected (``random.Random`` for tests and simulations)."""

    def __init__(self, rng: random.Random | None = None, *, trials: int = 60) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.trials = trials

    def equity(self, view: TableView, position: int, game: Game) -> float:
        """The share of the pot the bot's hand wins against random hands (first hand kind;
        others' up cards are known, the rest of every final hand is drawn at random)."""
        variant = game.variant
        cards = _own_cards(view, position)
        board = tuple(view.board)
        seen = set(cards) | set(board)
        for p in view.players:
            seen.update(c for c in p.cards if c is not None)
        stub = [c for c in variant.deck if c not in seen]
        rivals = [
            tuple(c for c in p.cards if c is not None)
            for q, p in enumerate(view.players)
            if q != position and not p.folded
        ]
        if not rivals:
            return 1.0
        evaluate = EVALUATORS[variant.hands[0]]
        final = max(variant.hole_cards, len(cards))
        need_board = max(variant.board_cards - len(board), 0)
        need_mine = final - len(cards)
        needs = [max(final - len(known), 0) for known in rivals]
        total_needed = need_board + need_mine + sum(needs)
        if total_needed > len(stub):
            return 1.0 / (len(rivals) + 1)
        total = 0.0
        try:
            for _ in range(self.trials):
                draw = self.rng.sample(stub, total_needed)
                full = board + tuple(draw[:need_board])
                at = need_board + need_mine
                mine = evaluate((*cards, *draw[need_board:at]), full)
                ties, beaten = 1, False
                for known, need in zip(rivals, needs, strict=True):
                    theirs = evaluate((*known, *draw[at : at + need]), full)
                    at += need
                    if mine is None or (theirs is not None and theirs > mine):
                        beaten = True
                        break
                    if theirs == mine:
                        ties += 1
                if not beaten:
                    total += 1.0 / ties
        except ValueError:  # a hand shape this evaluator does not take: no opinion
            return 1.0 / (len(rivals) + 1)
        return total / self.trials

    def decide(self, view: TableView, position: int, game: Game) -> Decision:
        legal = view.legal
        if legal is None:
            return Decision("check")
        cards = _own_cards(view, position)
        if legal.show_or_muck:
            return Decision("show")
        if legal.can_draw:
            return Decision("draw", discards=_draw_discards(cards, legal.max_discards))
        if legal.split_answer:
            return Decision("accept_split")
        if legal.can_bring_in:
            return Decision("bring_in")
        e = self.equity(view, position, game)
        live = sum(1 for p in view.players if not p.folded)
        fair = 1.0 / max(live, 1)
        if legal.can_check:
            if legal.can_raise and e > max(0.6, 1.5 * fair):
                return Decision("raise", _bet_size(view, 0.5))
            return Decision("check")
        odds = legal.call / (view.pot + legal.call)
        if legal.can_raise and e > max(0.65, 1.4 * fair):
            return Decision("raise", _bet_size(view, 0.75))
        if e >= odds:
            return Decision("call")
        return Decision("fold")
