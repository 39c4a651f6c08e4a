"""Replay PHH hands through the engine, and verify them against the recorded results.

:func:`replay` maps a :class:`~croupier.history.phh.HandHistory` to a
:class:`~croupier.engine.game.Game`, rebuilds the deck from the file's deals (unknown
cards ``??`` become cards seen nowhere in the hand), starts the hand and applies the
file's actions one by one. The replay follows the file exactly: an action the engine
refuses is reported with the engine's message. :func:`verify` then compares the engine's
result with what the file records (see ``docs/phh.md``).

>>> from croupier.history.phh import load_phh
>>> hh = load_phh('''
... variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 ????", "p3 f", "p1 cbr 10",
...            "p2 cc", "d db 2c7h9d", "p1 cbr 90", "p2 cc", "d db 3s", "d db 4s",
...            "p1 sm AsAd", "p2 sm KsKd"]
... finishing_stacks = [200, 0, 100]
... ''')
>>> r = replay(hh)
>>> r.error, r.state.stacks
(None, (200, 0, 100))
>>> verify(hh).status.value
'exact'
>>> verify(load_phh('variant = "FK"\\nantes = [1, 1]\\nstarting_stacks = [9, 9]'
...                 '\\nactions = []')).message
'unsupported variant FK'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from croupier.engine.actions import Action, bring_in, call, check, fold, muck, raise_to, show
from croupier.engine.cards import Card
from croupier.engine.errors import CodedError, ConfigurationError, EngineError
from croupier.engine.events import ChipsReturned, Event
from croupier.engine.game import Game, Stakes, Structure
from croupier.engine.rules import profile
from croupier.engine.state import (
    HandState,
    Phase,
    apply,
    auto_showdown_action,
    exchange_hole_card,
    legal_actions,
    protect,
    start_hand,
)
from croupier.engine.variants import ForcedBets, find_variant
from croupier.history.phh import HandHistory, Verb, format_action, format_amounts
from croupier.history.stud_draw import PlanError, discard_action, is_stud_or_draw, known_cards
from croupier.history.stud_draw import deal_plan as stud_draw_plan

__all__ = [
    "PHH_GAMES",
    "SHORT_BLIND_FIELD",
    "Replay",
    "Status",
    "UnsupportedVariant",
    "Verdict",
    "engine_game",
    "play_factor",
    "replay",
    "verify",
]

PHH_GAMES: Final[dict[str, tuple[str, Structure]]] = {
    "NT": ("holdem", Structure.NO_LIMIT),
    "FT": ("holdem", Structure.FIXED_LIMIT),
    "PO": ("omaha", Structure.POT_LIMIT),
    "FO/8": ("omaha8", Structure.FIXED_LIMIT),
    # stud, draw and short deck (croupier.engine.variants_stud_draw, history.stud_draw)
    "F7S": ("stud", Structure.FIXED_LIMIT),
    "F7S/8": ("stud8", Structure.FIXED_LIMIT),
    "FR": ("razz", Structure.FIXED_LIMIT),
    "F2L3D": ("td27", Structure.FIXED_LIMIT),
    "N2L1D": ("sd27", Structure.NO_LIMIT),
    "FB": ("badugi", Structure.FIXED_LIMIT),
    "NS": ("shortdeck", Structure.NO_LIMIT),
}
"""PHH variant codes croupier replays: code -> (engine variant key, betting structure).
Adding a code the engine supports is one line here."""


SHORT_BLIND_FIELD: Final = "_croupier_short_blind"
"""User-defined PHH field: the engine's ``short_blind`` house rule (R-POS-3) when it is
not PokerKit's ``posted``; written by :func:`croupier.history.export.to_phh`."""


_PROTECTED = re.compile(r"^croupier: p(\d+) all-in protection$")


def protected_player(commentary: str | None) -> int | None:
    """The player (0-based) an all-in protection comment names, else ``None``.

    >>> protected_player("croupier: p3 all-in protection"), protected_player("nice hand")
    (2, None)
    """
    m = _PROTECTED.match((commentary or "").strip())
    return int(m.group(1)) - 1 if m else None


class UnsupportedVariant(CodedError):
    """A PHH variant code croupier does not replay (yet); ``code`` is ``unsupported``."""

    code = "unsupported"

    def __init__(self, variant: str) -> None:
        self.variant = variant
        super().__init__(f"unsupported variant {variant}")


class Status(StrEnum):
    EXACT = "exact"
    MISMATCH = "mismatch"
    UNSUPPORTED = "unsupported"


def play_factor(hh: HandHistory) -> int:
    """Recorded chips per engine chip: ``hh.scale`` over the scale the *playing* amounts
    need (forced bets, limits, stacks and bets). It is above 1 only when a result field
    (``finishing_stacks``, ``winnings``) is finer than the chip, e.g. a half chip."""
    playing: list[int] = [*hh.antes, *hh.starting_stacks]
    for name in ("blinds_or_straddles",):
        value = getattr(hh, name)
        if value is not None:
            playing.extend(value)
    for name in ("bring_in", "small_bet", "big_bet", "min_bet"):
        value = getattr(hh, name)
        if value is not None:
            playing.append(value)
    playing.extend(a.amount for a in hh.actions if a.amount is not None)
    # The largest power of ten (at most the scale) dividing every playing amount.
    best = 1
    f = 10
    while f <= hh.scale:
        if all(v % f == 0 for v in playing):
            best = f
        f *= 10
    return best


def _positional(values: Sequence[int], n: int) -> list[int]:
    """PHH lists forced bets per player, reversed heads-up (phh-std, PokerKit)."""
    out = list(values)
    return out[::-1] if n == 2 else out


def engine_game(hh: HandHistory) -> Game:
    """The engine game of ``hh`` (amounts in engine chips: recorded chips / play factor).

    Raises :class:`UnsupportedVariant` for a code not in :data:`PHH_GAMES`, and
    :class:`~croupier.engine.errors.ConfigurationError` for stakes the engine refuses.
    """
    entry = PHH_GAMES.get(hh.variant)
    if entry is None:
        raise UnsupportedVariant(hh.variant)
    vkey, structure = entry
    variant = find_variant(vkey)
    f = play_factor(hh)
    blinds = [b // f for b in (hh.blinds_or_straddles or ())]
    posted = sorted(b for b in blinds if b > 0)
    sb = posted[0] if posted else 0
    bb = posted[1] if len(posted) > 1 else sb
    ante = 0
    if variant.forced_bets is ForcedBets.BLINDS and bb == 0:
        ante = max((a // f for a in hh.antes), default=0)
    small_bet = (hh.small_bet or 0) // f
    big_bet = (hh.big_bet or 0) // f
    min_bet = (hh.min_bet or 0) // f
    if structure.is_limit:
        min_bet = 0
    stakes = Stakes(
        small_blind=sb,
        big_blind=bb,
        ante=ante,
        bring_in=(hh.bring_in or 0) // f,
        small_bet=small_bet,
        big_bet=big_bet,
        min_bet=min_bet,
    )
    # PHH follows PokerKit: a blind posted short (all-in) sets only what it posted to
    # call. Hands croupier exported under its default ``full`` rule say so in a field.
    short = hh.metadata.get(SHORT_BLIND_FIELD, "posted")
    if short not in ("posted", "full"):
        raise ConfigurationError(f"{SHORT_BLIND_FIELD} must be 'posted' or 'full', not {short!r}")
    # A PHH action is the exact amount played (PokerKit is strict): an amount below the
    # minimum raise is a faulty file, not an under-raise to interpret (R-BET-9 is the live
    # table's; croupier's own exports record what the table counted).
    rules = profile("room", short_blind=short, under_raise="strict")
    return Game(variant, structure, stakes, rules)


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of replaying a hand: the final engine state (``None`` if the hand could
    not start), every engine event, how many PHH actions were consumed, and ``error`` (the
    first refusal or inconsistency, with the engine's message) or ``None``."""

    game: Game | None
    state: HandState | None
    events: tuple[Event, ...]
    factor: int
    error: str | None = None
    applied: int = 0
    complete: bool = False


class _Mismatch(Exception):
    pass


def _deal_plan(hh: HandHistory, game: Game) -> tuple[list[Card], dict[int, str]]:
    """The deck to deal (engine order) and each player's showdown choice in the file."""
    n = hh.player_count
    variant = game.variant
    if is_stud_or_draw(variant):
        try:
            return stud_draw_plan(hh, variant)
        except PlanError as exc:
            raise _Mismatch(str(exc)) from None
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    choice: dict[int, str] = {}
    shown: dict[int, tuple[Card | None, ...]] = {}
    # Naiko exchanges (``pN sd C`` then ``d dh pN C'``): each takes the next card of the
    # stub when it happens, i.e. after the board cards dealt so far.
    exchanges: list[tuple[int, int, list[Card | None]]] = []  # (board cards before, p, in)
    exchanging: set[int] = set()
    given: list[list[Card | None]] = [[] for _ in range(n)]
    for a in hh.actions:
        if a.verb is Verb.DEAL_HOLE and a.player is not None and a.cards is not None:
            if a.player in exchanging:
                exchanging.discard(a.player)
                exchanges[-1][2].extend(a.cards)
                given[a.player].extend(c for c in a.cards if c is not None)
            else:
                holes[a.player].extend(a.cards)
        elif a.verb is Verb.DISCARD and a.player is not None:
            if len(a.cards or ()) != 1:
                raise _Mismatch(f"action {a}: an exchange swaps exactly one card")
            exchanges.append((len(board), a.player, []))
            exchanging.add(a.player)
        elif a.verb is Verb.DEAL_BOARD and a.cards is not None:
            board.extend(a.cards)
        elif a.verb is Verb.SHOW_MUCK and a.player is not None:
            if a.cards is None and not a.dash:
                choice[a.player] = "muck"
            else:
                choice[a.player] = "show"
                if a.cards is not None:
                    shown[a.player] = a.cards
        elif a.verb is Verb.BRING_IN:
            raise _Mismatch(f"action {a} is not supported for {hh.variant}")
    # Reveal unknown hole cards from the showdown (cards received in an exchange are not
    # among the first dealt, and a card exchanged away is not shown).
    for p, cards in shown.items():
        known = [c for c in holes[p] if c is not None]
        revealed = [c for c in cards if c is not None and c not in given[p]]
        if given[p] or any(e[1] == p for e in exchanges):
            extra = [c for c in revealed if c not in known]
            fill = iter(extra)
            holes[p] = [c if c is not None else next(fill, None) for c in holes[p]]
            continue
        if any(c not in revealed for c in known) and len(revealed) == len(holes[p]):
            raise _Mismatch(f"p{p + 1} shows {_txt(cards)}, not the cards dealt {_txt(holes[p])}")
        extra = [c for c in revealed if c not in known]
        if not holes[p]:
            holes[p] = list(cards)
            continue
        fill = iter(extra)
        holes[p] = [c if c is not None else next(fill, None) for c in holes[p]]
    per_player = sum(len(s.hole) for s in variant.streets[:1])
    if any(len(s.hole) for s in variant.streets[1:]):
        raise _Mismatch(f"{variant.name}: cards dealt after the first street are not replayed yet")
    for p in range(n):
        if len(holes[p]) > per_player:
            raise _Mismatch(
                f"p{p + 1} is dealt {len(holes[p])} cards; {variant.name} deals {per_player}"
            )
        holes[p].extend([None] * (per_player - len(holes[p])))
    slots: list[Card | None] = []
    for r in range(per_player):
        for p in range(n):
            slots.append(holes[p][r])

    def exchanged(after: int) -> None:
        for before, _, received in exchanges:
            if before == after:
                slots.extend(received or [None])

    exchanged(0)
    pos = 0
    for street in variant.streets[1:]:
        if street.burn and street.board:
            slots.append(None)
        for _ in range(street.board):
            slots.append(board[pos] if pos < len(board) else None)
            pos += 1
        if street.board:
            exchanged(pos)
    if pos < len(board):
        raise _Mismatch(f"the file deals {len(board)} board cards; {variant.name} has {pos}")
    seen = [c for c in slots if c is not None]
    dupes = sorted({c for c in seen if seen.count(c) > 1})
    if dupes:
        raise _Mismatch(f"card {dupes[0]} is dealt twice")
    unused = iter(c for c in variant.deck if c not in set(seen))
    deck = [c if c is not None else next(unused) for c in slots]
    deck.extend(unused)
    return deck, choice


def _txt(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def replay(hh: HandHistory) -> Replay:
    """Replay ``hh`` through the engine, following the file exactly.

    Raises :class:`UnsupportedVariant` for variant codes not in :data:`PHH_GAMES`. Every
    other problem (a refused action, an impossible deal) is returned in ``error``.
    """
    game = engine_game(hh)
    f = play_factor(hh)
    n = hh.player_count
    events: list[Event] = []
    try:
        deck, choice = _deal_plan(hh, game)
    except _Mismatch as exc:
        return Replay(game, None, (), f, str(exc))
    blinds = _positional([b // f for b in (hh.blinds_or_straddles or [0] * n)], n)
    antes = _positional([a // f for a in hh.antes], n)
    try:
        state, evs = start_hand(
            game, [s // f for s in hh.starting_stacks], deck, blinds=blinds, antes=antes
        )
    except EngineError as exc:
        return Replay(game, None, (), f, f"the engine cannot start the hand: {exc}")
    events.extend(evs)

    def decide(s: HandState) -> Action:
        p = s.actor
        want = choice.get(p)
        if want == "show":
            return show(p)
        if want == "muck":
            return muck(p)
        return auto_showdown_action(s)

    def step(s: HandState, action: Action, text: str) -> HandState:
        try:
            new, evs = apply(s, action)
        except EngineError as exc:
            raise _Mismatch(f"the engine refuses {text!r} [{exc.code}]: {exc}") from None
        events.extend(evs)
        return new

    applied = 0
    board_seen = 0
    known = known_cards(hh)
    draws = any(st.draw for st in game.variant.streets)
    try:
        for i, a in enumerate(hh.actions):
            text = format_action(a, hh.scale)
            if a.verb is Verb.DEAL_HOLE or (
                a.verb is Verb.NOOP and protected_player(a.commentary) is None
            ):
                pass
            elif a.verb is Verb.DEAL_BOARD:
                board_seen += len(a.cards or ())
                if len(state.board) < board_seen:
                    raise _Mismatch(
                        f"action {i + 1} {text!r}: the file deals the board while the engine"
                        f" waits for p{state.actor + 1} ({state.phase.value})"
                    )
            elif a.verb is Verb.SHOW_MUCK:
                p = a.player
                assert p is not None
                while state.phase is Phase.SHOWDOWN and state.actor != p:
                    state = step(state, decide(state), f"p{state.actor + 1} show/muck")
                if state.phase is Phase.SHOWDOWN and state.actor == p:
                    state = step(state, decide(state), text)
                elif state.phase is Phase.BETTING:
                    raise _Mismatch(
                        f"action {i + 1} {text!r}: the engine waits for p{state.actor + 1} to bet"
                    )
            elif a.verb is Verb.NOOP:
                p = protected_player(a.commentary)
                if p is not None:
                    try:
                        state, evs = protect(state, p)
                    except EngineError as exc:
                        raise _Mismatch(
                            f"action {i + 1} {text!r}: the engine refuses [{exc.code}]: {exc}"
                        ) from None
                    events.extend(evs)
            elif a.verb is Verb.DISCARD:
                assert a.player is not None
                try:
                    action = discard_action(state, a.player, a.cards, known[a.player])
                except PlanError as exc:
                    raise _Mismatch(f"action {i + 1} {text!r}: {exc}") from None
                if not draws:  # a Naiko Échange de Manche (docs/phh.md)
                    try:
                        state, evs = exchange_hole_card(state, a.player, action.cards[0])
                    except (EngineError, IndexError) as exc:
                        raise _Mismatch(f"action {i + 1} {text!r}: {exc}") from None
                    events.extend(evs)
                else:
                    state = step(state, action, f"action {i + 1} {text}")
            else:
                if state.phase is not Phase.BETTING:
                    raise _Mismatch(
                        f"action {i + 1} {text!r}: the engine is not betting ({state.phase.value})"
                    )
                p = a.player
                assert p is not None
                if a.verb is Verb.FOLD:
                    action = fold(p)
                elif a.verb is Verb.BRING_IN:
                    action = bring_in(p)
                elif a.verb is Verb.CHECK_CALL:
                    legal = legal_actions(state)
                    action = check(p) if legal is not None and legal.can_check else call(p)
                else:
                    amount = a.amount or 0
                    if amount % f:
                        raise _Mismatch(f"action {i + 1} {text!r}: amount finer than the chip")
                    action = raise_to(p, _covering_raise(state, p, amount // f))
                state = step(state, action, f"action {i + 1} {text}")
            applied = i + 1
        while state.phase is Phase.SHOWDOWN:
            state = step(state, decide(state), f"p{state.actor + 1} show/muck")
    except _Mismatch as exc:
        return Replay(game, state, tuple(events), f, str(exc), applied, state.is_over)
    return Replay(game, state, tuple(events), f, None, applied, state.is_over)


def _covering_raise(state: HandState, p: int, amount: int) -> int:
    """A recorded raise below the legal minimum that already covers every opponent (it
    puts each of them all-in) is replayed as the minimum raise: the chips above what the
    opponents can match come back uncalled, so every stack ends the same. Transcribers
    write such raises (WSOP 03-50-24: "raise to 750k" putting a 750k stack all-in in
    fixed limit, where the raise is to 1.2M)."""
    legal = legal_actions(state)
    if legal is None or not legal.can_raise or amount >= legal.min_raise:
        return amount
    bets, stacks = state.bets, state.stacks
    cover = max(
        (bets[q] + stacks[q] for q in range(state.n) if q != p and not state.folded[q]),
        default=0,
    )
    if state.current_bet < cover <= amount:
        return legal.min_raise
    return amount


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verification of one hand: ``status``, what was compared (``finishing_stacks``,
    ``winnings`` or ``nothing``), a message for mismatches and unsupported variants, and
    ``half_chip`` when the comparison allowed the one-chip odd-chip tolerance."""

    status: Status
    variant: str
    compared: str = "nothing"
    message: str = ""
    half_chip: bool = False
    replay: Replay | None = field(default=None, compare=False)


def _money(values: Sequence[int], scale: int) -> str:
    return format_amounts(values, scale)


def verify(hh: HandHistory) -> Verdict:
    """Replay ``hh`` and compare the engine's result with the file's (docs/phh.md).

    * ``finishing_stacks``: the engine's final stacks must equal them; when they show a
      half chip (finer than the chip the hand is played in), within one chip.
    * otherwise ``winnings`` (HandHQ: after rake): the players the engine pays (pots won
      and uncalled chips returned) must be the players the file pays, and no recorded
      win may exceed what the engine pays that player (rake only lowers it).
    * neither: the hand must replay to its end without any refusal.
    """
    try:
        r = replay(hh)
    except UnsupportedVariant:
        return Verdict(Status.UNSUPPORTED, hh.variant, message=f"unsupported variant {hh.variant}")
    except EngineError as exc:
        return Verdict(Status.MISMATCH, hh.variant, message=f"the engine refuses the game: {exc}")
    if r.error is not None:
        return Verdict(Status.MISMATCH, hh.variant, message=r.error, replay=r)
    state = r.state
    assert state is not None
    f = r.factor
    if hh.finishing_stacks is not None:
        if not state.is_over:
            return Verdict(
                Status.MISMATCH,
                hh.variant,
                "finishing_stacks",
                f"the file ends before the hand does (the engine waits for p{state.actor + 1})",
                replay=r,
            )
        got = [s * f for s in state.stacks]
        want = list(hh.finishing_stacks)
        half = any(w % f for w in want)
        tolerance = f if half else 0
        if all(abs(g - w) <= tolerance for g, w in zip(got, want, strict=True)):
            return Verdict(Status.EXACT, hh.variant, "finishing_stacks", half_chip=half, replay=r)
        return Verdict(
            Status.MISMATCH,
            hh.variant,
            "finishing_stacks",
            f"final stacks differ: engine {_money(got, hh.scale)}, file {_money(want, hh.scale)}",
            replay=r,
        )
    if hh.winnings is not None:
        if not state.is_over:
            return Verdict(
                Status.MISMATCH,
                hh.variant,
                "winnings",
                f"the file ends before the hand does (the engine waits for p{state.actor + 1})",
                replay=r,
            )
        n = hh.player_count
        start = [s // f for s in hh.starting_stacks]
        returned = [0] * n
        for e in r.events:
            if isinstance(e, ChipsReturned):
                returned[e.player] += e.amount
        # What the engine hands each player at the end: pots won plus chips returned
        # (Absolute Poker counts a returned big blind in "collected").
        collected = [
            (state.stacks[p] - start[p] + state.contributions[p] + returned[p]) * f
            for p in range(n)
        ]
        want = list(hh.winnings)
        same_winners = all((c > 0) == (w > 0) for c, w in zip(collected, want, strict=True))
        if same_winners and all(w <= c for c, w in zip(collected, want, strict=True)):
            return Verdict(Status.EXACT, hh.variant, "winnings", replay=r)
        return Verdict(
            Status.MISMATCH,
            hh.variant,
            "winnings",
            f"winnings differ: the engine pays {_money(collected, hh.scale)} (pots and returns,"
            f" before rake), the file {_money(want, hh.scale)}"
            " (after rake)",
            replay=r,
        )
    return Verdict(Status.EXACT, hh.variant, "nothing", replay=r)
