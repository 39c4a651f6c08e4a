"""PHH replay of stud and draw hands: the deck in the engine's dealing order, discards.

Stud files deal each street with ``d dh`` (third street ``d dh p1 ????7s``: two down cards
and the up card, then one card a street); draw files deal the first hand, then each
``pN sd <cards>`` (``pN sd`` alone stands pat) is followed by ``d dh pN <new cards>``.
:func:`deal_plan` lays these cards out in the order the engine deals them: the first
street one card at a time round the table, then for each later stud street a burn and one
card to each live player in position order, and for each draw a burn and every drawer's new
cards in position order. Unknown cards (``??``) and burns are cards seen nowhere in the
hand.

>>> from croupier.history.phh import load_phh
>>> from croupier.engine.variants import find_variant
>>> hh = load_phh('''
... variant = "F2L3D"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... small_bet = 2
... big_bet = 4
... starting_stacks = [50, 50]
... actions = ["d dh p1 7h6c4c3d2c", "d dh p2 ????????Kd", "p2 cc", "p1 cc",
...            "p1 sd", "p2 sd Kd", "d dh p2 8s"]
... ''')
>>> deck, choice = deal_plan(hh, find_variant("td27"))
>>> [str(c) for c in deck[:10:2]], str(deck[11])
(['7h', '6c', '4c', '3d', '2c'], '8s')
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine.actions import Action, draw
from croupier.engine.cards import Card
from croupier.engine.errors import CodedError
from croupier.engine.state import HandState
from croupier.engine.variants import Variant
from croupier.history.phh import HandHistory, Verb

__all__ = ["deal_plan", "discard_action", "is_stud_or_draw", "known_cards"]

_BETS = (Verb.FOLD, Verb.CHECK_CALL, Verb.BET, Verb.BRING_IN)


class PlanError(CodedError):
    """The file's deals do not fit the variant (reported as a replay mismatch)."""

    code = "deal_mismatch"


def is_stud_or_draw(variant: Variant) -> bool:
    """Whether cards reach the players after the first street (stud streets or draws)."""
    return any(s.hole or s.draw for s in variant.streets[1:])


def known_cards(hh: HandHistory) -> list[set[Card]]:
    """The cards the file names as dealt to each player."""
    out: list[set[Card]] = [set() for _ in range(hh.player_count)]
    for a in hh.actions:
        if a.verb is Verb.DEAL_HOLE and a.player is not None and a.cards is not None:
            out[a.player].update(c for c in a.cards if c is not None)
    return out


def deal_plan(hh: HandHistory, variant: Variant) -> tuple[list[Card], dict[int, str]]:
    """The deck in engine order and each player's showdown choice (``show``/``muck``)."""
    n = hh.player_count
    first = len(variant.streets[0].hole)
    draws = any(s.draw for s in variant.streets)
    # batches[k][p]: the cards of player p in the k-th dealing (street or draw);
    # expect[k][p]: how many cards a draw gives p (what p discarded).
    batches: list[dict[int, list[Card | None]]] = [{}]
    expect: list[dict[int, int]] = [{}]
    choice: dict[int, str] = {}
    shown: dict[int, tuple[Card | None, ...]] = {}
    in_draw = False
    betting_seen = False
    board: list[Card | None] = []
    for a in hh.actions:
        p = a.player
        if a.verb is Verb.DEAL_HOLE and p is not None and a.cards is not None:
            if not draws:
                current = batches[-1]
                full = p in current and (len(batches) > 1 or len(current[p]) >= first)
                if betting_seen or full:
                    batches.append({})
                    expect.append({})
                betting_seen = False
            batches[-1].setdefault(p, []).extend(a.cards)
        elif a.verb is Verb.DISCARD and p is not None:
            if not in_draw:
                batches.append({})
                expect.append({})
                in_draw = True
            expect[-1][p] = len(a.cards or ())
        elif a.verb in _BETS:
            in_draw = False
            betting_seen = True
        elif a.verb is Verb.DEAL_BOARD and a.cards is not None:
            board.extend(a.cards)
        elif a.verb is Verb.SHOW_MUCK and p is not None:
            if a.cards is None and not a.dash:
                choice[p] = "muck"
            else:
                choice[p] = "show"
                if a.cards is not None:
                    shown[p] = a.cards
    for batch, counts in zip(batches[1:], expect[1:], strict=True):
        for p, k in counts.items():
            row = batch.setdefault(p, [])
            if len(row) > k:
                raise PlanError(f"p{p + 1} draws {len(row)} cards after discarding {k}")
            row.extend([None] * (k - len(row)))
    if not draws:
        _reveal(batches, shown, n)
    slots: list[Card | None] = []
    for r in range(first):
        for p in range(n):
            cards = batches[0].get(p, [])
            slots.append(cards[r] if r < len(cards) else None)
    for p, cards in batches[0].items():
        if len(cards) > first:
            raise PlanError(f"p{p + 1} is dealt {len(cards)} cards; {variant.name} deals {first}")
    for batch in batches[1:]:
        slots.append(None)  # the burn
        for p in sorted(batch):
            slots.extend(batch[p])
    if board:
        slots.extend(board)
    seen = [c for c in slots if c is not None]
    if len(set(seen)) != len(seen):
        dupe = sorted({c for c in seen if seen.count(c) > 1})[0]
        raise PlanError(f"card {dupe} is dealt twice")
    spare = [c for c in variant.deck if c not in set(seen)]
    if not draws:
        # An unknown up card of the first street (a player who folds at once) must not
        # change the bring-in: it gets an ace (the highest card; razz: the lowest).
        ups = [r * n + p for r, up in enumerate(variant.streets[0].hole) if up for p in range(n)]
        aces = sorted((c for c in spare if c.rank == 12), reverse=True)
        for i in ups:
            if i < len(slots) and slots[i] is None and aces:
                ace = aces.pop(0)
                slots[i] = ace
                spare.remove(ace)
    unused = iter(spare)
    deck = [c if c is not None else next(unused) for c in slots]
    deck.extend(unused)
    return deck, choice


def _reveal(
    batches: list[dict[int, list[Card | None]]], shown: dict[int, tuple[Card | None, ...]], n: int
) -> None:
    """Stud: unknown hole cards take the cards the player shows, in dealing order."""
    for p, cards in shown.items():
        mine = [c for b in batches for c in b.get(p, [])]
        if len(cards) != len(mine):
            continue
        for b in batches:
            row = b.get(p)
            if row is None:
                continue
            for i, c in enumerate(row):
                k = sum(len(bb.get(p, [])) for bb in batches[: batches.index(b)]) + i
                if c is None:
                    row[i] = cards[k]


def discard_action(
    s: HandState, p: int, cards: Sequence[Card | None] | None, known: set[Card]
) -> Action:
    """The engine draw for ``pN sd <cards>``: unknown discards (``??``) are the player's
    cards the file never named."""
    if not cards:
        return draw(p)
    hole = s.hole_cards[p]
    hidden = [c for c in hole if c not in known]
    out: list[Card] = []
    for c in cards:
        if c is not None:
            out.append(c)
        elif hidden:
            out.append(hidden.pop(0))
        else:
            raise PlanError(f"p{p + 1} discards an unknown card but has none")
    return draw(p, out)
