"""Export hands croupier plays to PHH.

:func:`to_phh` turns the events of one engine hand (those of ``start_hand`` followed by
those of every ``apply``) into a :class:`~croupier.history.phh.HandHistory`.

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.actions import raise_to, fold
>>> from croupier.engine.state import start_hand, apply
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> s, events = start_hand(g, (100, 80), parse_cards("AsKs QhQd 2c 7h8h9h 3d Td 4s Jc"))
>>> s, more = apply(s, raise_to(1, 6))
>>> s, last = apply(s, fold(0))
>>> hh = to_phh(g, events + more + last)
>>> hh.variant, hh.blinds_or_straddles, [str(a) for a in hh.actions]
('NT', (1, 2), ['d dh p1 AsQh', 'd dh p2 KsQd', 'p2 cbr 6', 'p1 f'])
>>> hh.finishing_stacks
(98, 82)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from croupier.engine.actions import ActionKind
from croupier.engine.events import (
    Acted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Drew,
    Event,
    ForcedBet,
    HandEnded,
    HandStarted,
    HoleDealt,
)
from croupier.engine.game import Game
from croupier.engine.state import HandState
from croupier.history.phh import HandHistory, PhhAction, PhhError, Verb
from croupier.history.replay import PHH_GAMES, SHORT_BLIND_FIELD

__all__ = ["EXCHANGE_COMMENT", "PROTECTION_COMMENT", "phh_code", "protection_comment", "to_phh"]


def phh_code(game: Game) -> str:
    """The PHH variant code of ``game``, or :class:`PhhError` ``unsupported``.

    >>> phh_code(Game.of("plo", blinds=(1, 2)))
    'PO'
    """
    for code, (vkey, structure) in PHH_GAMES.items():
        if vkey == game.variant.key and structure is game.structure:
            return code
    raise PhhError(
        "unsupported",
        f"{game.variant.name} {game.structure.value.replace('_', ' ')} has no PHH variant code here",
    )


PROTECTION_COMMENT: Final = "croupier: p{n} all-in protection"
"""The comment-only action that records an all-in protection of player ``pN``."""
EXCHANGE_COMMENT: Final = "croupier: echange de manche"
"""The comment on the ``sd`` action of a Naiko Échange de Manche in a Hold'em file."""


def protection_comment(player: int) -> str:
    """The comment recording an all-in protection of ``player`` (0-based).

    >>> protection_comment(2)
    'croupier: p3 all-in protection'
    """
    return PROTECTION_COMMENT.format(n=player + 1)


def _draw_actions(game: Game, e: Drew) -> list[PhhAction]:
    """A draw (``pN sd`` + ``d dh pN``) or, in Hold'em, a Naiko Échange de Manche written
    the same way with :data:`EXCHANGE_COMMENT` on its ``sd`` line."""
    if any(c is None for c in (*e.discarded, *e.received)):
        raise PhhError("bad_events", "redacted events: drawn cards are hidden")
    draws = any(s.draw for s in game.variant.streets)
    comment = None if draws else EXCHANGE_COMMENT
    out = [PhhAction(Verb.DISCARD, e.player, tuple(e.discarded) or None, commentary=comment)]
    if e.received:
        out.append(PhhAction(Verb.DEAL_HOLE, e.player, tuple(e.received)))
    return out


def to_phh(
    game: Game,
    events: Sequence[Event],
    *,
    state: HandState | None = None,
    players: Sequence[str] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> HandHistory:
    """The PHH record of one engine hand from its events (a hand in progress gives a
    partial history without ``finishing_stacks``).

    ``state`` (any state of the same hand) supplies the nominal blinds and straddles; without
    it a straddle posted short (all-in) is recorded as the amount posted. A blind posted
    short under the engine's ``short_blind="full"`` rule (R-POS-3) is recorded in the
    user-defined field ``_croupier_short_blind`` so croupier replays it exactly (PokerKit
    ignores the field and lets the others call only what was posted).
    """
    code = phh_code(game)
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    if started is None:
        raise PhhError("bad_events", "the events do not start with a hand (no hand_started)")
    n = len(started.stacks)
    antes = [0] * n
    blinds = [0] * n
    stakes = game.stakes
    nominal = {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind}
    actions: list[PhhAction] = []
    finishing: tuple[int, ...] | None = None
    short = False
    for e in events:
        if isinstance(e, ForcedBet):
            if e.kind == "ante":
                antes[e.player] = e.amount
            elif e.kind in ("small_blind", "big_blind", "straddle"):
                full = nominal.get(e.kind, e.amount)
                if state is not None and len(state.nominal_blinds) == n:
                    full = state.nominal_blinds[e.player]
                blinds[e.player] = full if e.all_in and full > e.amount else e.amount
                short = short or blinds[e.player] > e.amount
            else:
                raise PhhError("unsupported", f"PHH cannot record a {e.kind} post")
        elif isinstance(e, HoleDealt):
            cards = tuple(e.cards)
            if any(c is None for c in cards):
                raise PhhError("bad_events", "redacted events: hole cards are hidden")
            actions.append(PhhAction(Verb.DEAL_HOLE, e.player, cards))
        elif isinstance(e, BoardDealt):
            actions.append(PhhAction(Verb.DEAL_BOARD, None, tuple(e.cards)))
        elif isinstance(e, Drew):
            actions.extend(_draw_actions(game, e))
        elif isinstance(e, Acted):
            if e.action is ActionKind.CHECK and e.all_in:
                # An all-in protection (R-TIME-2): the engine's ``protect``; PHH has no verb
                # for it, so a comment-only action records it (docs/phh.md).
                actions.append(PhhAction(Verb.NOOP, commentary=protection_comment(e.player)))
            elif e.action is ActionKind.FOLD:
                actions.append(PhhAction(Verb.FOLD, e.player))
            elif e.action in (ActionKind.CHECK, ActionKind.CALL):
                actions.append(PhhAction(Verb.CHECK_CALL, e.player))
            elif e.action is ActionKind.RAISE:
                actions.append(PhhAction(Verb.BET, e.player, amount=e.amount))
            else:
                raise PhhError("unsupported", f"PHH export of {e.action.value} is not supported")
        elif isinstance(e, CardsShown):
            actions.append(PhhAction(Verb.SHOW_MUCK, e.player, tuple(e.cards)))
        elif isinstance(e, CardsMucked):
            actions.append(PhhAction(Verb.SHOW_MUCK, e.player))
        elif isinstance(e, HandEnded):
            finishing = e.stacks
    # Hands are shown right after the last bet: at the end of the river, or before the
    # run-out of an all-in hand (phh-std and PokerKit show before dealing the rest).
    shows = [a for a in actions if a.verb is Verb.SHOW_MUCK]
    if shows:
        rest = [a for a in actions if a.verb is not Verb.SHOW_MUCK]
        betting = (Verb.FOLD, Verb.CHECK_CALL, Verb.BET, Verb.NOOP)  # NOOP: a protection
        last = max((i for i, a in enumerate(rest) if a.verb in betting), default=len(rest) - 1)
        actions = [*rest[: last + 1], *shows, *rest[last + 1 :]]
    if n == 2:
        antes.reverse()
        blinds.reverse()
    meta = dict(metadata or {})
    if short and game.rules.short_blind != "posted":
        meta[SHORT_BLIND_FIELD] = game.rules.short_blind
    limit = game.structure.is_limit
    return HandHistory(
        variant=code,
        antes=tuple(antes),
        blinds_or_straddles=tuple(blinds),
        small_bet=game.small_bet if limit else None,
        big_bet=game.big_bet if limit else None,
        min_bet=None if limit else game.min_bet,
        starting_stacks=tuple(started.stacks),
        actions=tuple(actions),
        ante_trimming_status=True,
        players=None if players is None else tuple(players),
        finishing_stacks=finishing,
        metadata=meta,
    )
