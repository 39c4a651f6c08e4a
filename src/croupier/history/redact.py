"""What one player may see of a hand's PHH record (R-FAIR-1).

The archive keeps the complete record; a player downloading it gets every card that was
ever shown to them and ``??`` for every other one:

* their own cards, dealt, drawn, discarded or exchanged, in full;
* another player's card only when it was face up (stud up cards) or when that player
  showed it (``sm``): a card that is part of the hand shown. Cards dealt first and then
  discarded or exchanged away are never shown, so they stay ``??`` even for a player who
  showed down; the cards of a folded or mucked hand stay ``??``;
* every discard (``sd``) of another player is written ``??`` (how many, not which);
* the board and the betting, as they were.

The result still replays to the same stacks (``croupier phh verify``): unknown cards are
cards seen nowhere else, and an unknown discard is one of the player's unknown cards.

>>> from croupier.history.phh import load_phh, dump_phh
>>> hh = load_phh('''
... variant = "F2L3D"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... small_bet = 2
... big_bet = 4
... starting_stacks = [50, 50]
... actions = ["d dh p1 7h6c4c3d2c", "d dh p2 KdQs8h5s3c", "p2 cc", "p1 cc",
...            "p1 sd", "p2 sd KdQs", "d dh p2 8s7d", "p1 cc", "p2 cc",
...            "p1 sm 7h6c4c3d2c", "p2 sm 8h5s3c8s7d"]
... ''')
>>> [str(a) for a in redact_phh(hh, 0).actions][1:7]
['d dh p2 ????8h5s3c', 'p2 cc', 'p1 cc', 'p1 sd', 'p2 sd ????', 'd dh p2 8s7d']
>>> [str(a) for a in redact_phh(hh, 1).actions][0]
'd dh p1 7h6c4c3d2c'
"""

from __future__ import annotations

import dataclasses

from croupier.engine.cards import Card
from croupier.engine.variants import Variant, find_variant
from croupier.history.phh import HandHistory, PhhAction, Verb

__all__ = ["redact_phh"]


def _variant(hh: HandHistory) -> Variant | None:
    from croupier.history.replay import PHH_GAMES

    found = PHH_GAMES.get(hh.variant)
    if found is None:
        return None
    try:
        return find_variant(found[0])
    except (KeyError, ValueError):
        return None


def _up_flags(variant: Variant | None) -> list[tuple[bool, ...]]:
    """The up/down flags of each dealing of a stud variant, by street (``[]`` otherwise)."""
    if variant is None or any(s.draw for s in variant.streets):
        return []
    return [s.hole for s in variant.streets if s.hole]


def redact_phh(hh: HandHistory, viewer: int | None) -> HandHistory:
    """``hh`` as the player at position ``viewer`` (0-based; ``None``: a spectator) may
    see it (see the module doc)."""
    shown: dict[int, set[Card]] = {}
    for a in hh.actions:
        if a.verb is Verb.SHOW_MUCK and a.player is not None and a.cards:
            shown.setdefault(a.player, set()).update(c for c in a.cards if c is not None)
    ups = _up_flags(_variant(hh))
    dealt = [0] * hh.player_count
    out: list[PhhAction] = []
    for a in hh.actions:
        p = a.player
        if p is None or p == viewer or a.cards is None:
            if a.verb is Verb.DEAL_HOLE and p is not None:
                dealt[p] += 1
            out.append(a)
            continue
        if a.verb is Verb.DEAL_HOLE:
            k = dealt[p]
            dealt[p] += 1
            flags = ups[k] if k < len(ups) and len(ups[k]) == len(a.cards) else ()
            visible = shown.get(p, set())
            cards = tuple(
                c if c is not None and (c in visible or (i < len(flags) and flags[i])) else None
                for i, c in enumerate(a.cards)
            )
            out.append(dataclasses.replace(a, cards=cards))
        elif a.verb is Verb.DISCARD:
            out.append(dataclasses.replace(a, cards=(None,) * len(a.cards)))
        else:
            out.append(a)
    return dataclasses.replace(hh, actions=tuple(out))
