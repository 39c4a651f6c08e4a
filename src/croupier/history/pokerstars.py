"""A PokerStars-style text export of one engine hand (the format tracking tools parse).

:func:`to_pokerstars` writes the events of one hand (those of ``start_hand`` then of
every ``apply``; redacted events are fine: hidden hole cards are simply not printed) as
PokerStars hand-history text. Board games only (Hold'em and Omaha, any structure); other
variants are refused with :class:`PokerStarsError` ``unsupported``. Amounts are printed
as integer chips. PokerKit's ``HandHistory.from_pokerstars`` reads the No-Limit Hold'em
export and replays it to the same stacks (tests/server/test_pokerstars.py).

>>> from croupier.engine.game import Game
>>> from croupier.engine.cards import parse_cards
>>> from croupier.engine.actions import raise_to, fold
>>> from croupier.engine.state import start_hand, apply
>>> g = Game.of("nlhe", blinds=(1, 2))
>>> s, ev = start_hand(g, (100, 80), parse_cards("AsKs QhQd 2c 7h8h9h 3d Td 4s Jc"))
>>> s, more = apply(s, raise_to(1, 6))
>>> s, last = apply(s, fold(0))
>>> text = to_pokerstars(g, ev + more + last, PokerStarsInfo(hand_id=7, players=("ann", "bob"),
...     seats=(2, 5), table="Demo", max_seats=6))
>>> print(text)  # doctest: +NORMALIZE_WHITESPACE
PokerStars Hand #7:  Hold'em No Limit (1/2) - 2026/01/01 0:00:00 UTC
Table 'Demo' 6-max Seat #6 is the button
Seat 3: ann (100 in chips)
Seat 6: bob (80 in chips)
bob: posts small blind 1
ann: posts big blind 2
*** HOLE CARDS ***
Dealt to ann [As Qh]
Dealt to bob [Ks Qd]
bob: raises 4 to 6
ann: folds
Uncalled bet (4) returned to bob
bob collected 4 from pot
*** SUMMARY ***
Total pot 4 | Rake 0
Seat 3: ann (big blind) folded before Flop
Seat 6: bob (button) (small blind) collected (4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from croupier.engine.actions import ActionKind
from croupier.engine.cards import Card
from croupier.engine.errors import CodedError
from croupier.engine.events import (
    Acted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    ChipsReturned,
    Event,
    ForcedBet,
    HandEnded,
    HandStarted,
    HoleDealt,
    LevyTaken,
    PotAwarded,
    RakeTaken,
)
from croupier.engine.game import Game, Structure
from croupier.history.pokerstars_protect import as_counted, is_protection

__all__ = ["PokerStarsError", "PokerStarsInfo", "to_pokerstars"]

_STRUCTURES = {
    Structure.NO_LIMIT: "No Limit",
    Structure.POT_LIMIT: "Pot Limit",
    Structure.HALF_POT_LIMIT: "Half Pot Limit",
    Structure.FIXED_LIMIT: "Limit",
    Structure.SPREAD_LIMIT: "Spread Limit",
}
_VARIANTS = {"holdem": "Hold'em", "omaha": "Omaha", "omaha8": "Omaha Hi/Lo"}
_STREETS = ("FLOP", "TURN", "RIVER")
_FOLDED = ("before Flop", "on the Flop", "on the Turn", "on the River")


class PokerStarsError(CodedError):
    """A hand this exporter cannot write; ``code`` is stable."""


@dataclass(frozen=True, slots=True)
class PokerStarsInfo:
    """What the events do not say: the hand number, player names and table seats (0-based)
    by engine position (the last position is the button), the table's name and size, and
    when the hand started."""

    hand_id: int
    players: tuple[str, ...]
    seats: tuple[int, ...]
    table: str = "croupier"
    max_seats: int = 9
    started: datetime = datetime(2026, 1, 1, tzinfo=UTC)


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join(str(c) for c in cards)


def _name(name: str) -> str:
    return name.replace("\n", " ").replace(":", "_").strip() or "?"


def _pot(pot: int, side_pots: int) -> str:
    """PokerStars' name of pot ``pot`` (0: the main pot) in a hand of ``side_pots``."""
    if side_pots == 0:
        return "pot"
    if pot == 0:
        return "main pot"
    return "side pot" if side_pots == 1 else f"side pot-{pot}"


def _pots(ended: HandEnded, side_pots: int) -> str:
    """The summary's " Main pot X. Side pot-1 Y." part (empty without side pots)."""
    if side_pots == 0:
        return ""
    names = [_pot(i, side_pots).capitalize() for i in range(len(ended.pots))]
    return "".join(f" {name} {pot.amount}." for name, pot in zip(names, ended.pots, strict=True))


def to_pokerstars(game: Game, events: Sequence[Event], info: PokerStarsInfo) -> str:
    """PokerStars-style text of one hand (see the module example)."""
    variant = _VARIANTS.get(game.variant.key)
    if variant is None:
        raise PokerStarsError(
            "unsupported", f"the PokerStars export covers board games, not {game.variant.name}"
        )
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    if started is None:
        raise PokerStarsError("bad_events", "the events do not start with a hand")
    n = len(started.stacks)
    if len(info.players) != n or len(info.seats) != n:
        raise PokerStarsError("bad_info", f"players and seats must name the {n} players")
    names = [_name(p) for p in info.players]
    if len(set(names)) != n:
        raise PokerStarsError("bad_info", "player names must be distinct")
    st = game.stakes
    stakes = (
        f"{game.small_bet}/{game.big_bet}"
        if game.structure.is_limit
        else (f"{st.small_blind}/{st.big_blind}")
    )
    when = info.started.astimezone(UTC)
    lines = [
        f"PokerStars Hand #{info.hand_id}:  {variant} {_STRUCTURES[game.structure]} ({stakes})"
        f" - {when:%Y/%m/%d} {when.hour}:{when:%M:%S} UTC",
        f"Table '{_name(info.table)}' {info.max_seats}-max Seat #{info.seats[-1] + 1} is the button",
    ]
    counted = as_counted(events)
    events, aside = counted.events, counted.set_aside
    for p in sorted(range(n), key=lambda p: info.seats[p]):
        chips = f"{counted.in_play[p]} in chips"
        if p in aside:  # R-TIME-2: the hand counted only the chips in play (see the module)
            chips += f", {aside[p]} set aside by the all-in protection"
        lines.append(f"Seat {info.seats[p] + 1}: {names[p]} ({chips})")
    ended = [e for e in events if isinstance(e, HandEnded)]
    side_pots = max(len(ended[-1].pots) - 1, 0) if ended else 0
    awards: list[tuple[int, str]] = []
    bets = [0] * n
    board: list[Card] = []
    folded_on: dict[int, int] = {}
    street = 0
    blind_of: dict[int, str] = {}
    collected = [0] * n
    shown: dict[int, tuple[Card, ...]] = {}
    rake = 0
    hole_started = False
    showdown = False

    def hole_header() -> None:
        nonlocal hole_started
        if not hole_started:
            lines.append("*** HOLE CARDS ***")
            hole_started = True

    for index, e in enumerate(events):
        if isinstance(e, ForcedBet):
            who = names[e.player]
            tail = " and is all-in" if e.all_in else ""
            if e.kind == "ante":
                lines.append(f"{who}: posts the ante {e.amount}{tail}")
            elif e.kind == "dead":
                lines.append(f"{who}: posts dead {e.amount}{tail}")
            else:
                label = {"small_blind": "small blind", "big_blind": "big blind"}.get(
                    e.kind, "straddle"
                )
                blind_of[e.player] = label
                bets[e.player] += e.amount
                lines.append(f"{who}: posts {label} {e.amount}{tail}")
        elif isinstance(e, HoleDealt):
            hole_header()
            if all(c is not None for c in e.cards):
                lines.append(f"Dealt to {names[e.player]} [{_cards(e.cards)}]")
        elif isinstance(e, BoardDealt):
            hole_header()
            label = _STREETS[min(street, 2)]
            prior = f" [{_cards(board)}]" if board else ""
            board.extend(e.cards)
            if street == 0:
                lines.append(f"*** {label} *** [{_cards(board)}]")
            else:
                lines.append(f"*** {label} ***{prior} [{_cards(e.cards)}]")
            street += 1
            bets = [0] * n
        elif isinstance(e, Acted):
            hole_header()
            who = names[e.player]
            tail = " and is all-in" if e.all_in else ""
            top = max(bets)
            if is_protection(e):
                lines.append(f"{who} has timed out while disconnected")
                said = f"{who} is all-in by the all-in protection ({aside[e.player]} set aside)."
                if index in counted.played:  # what the account above leaves out, as played
                    acts = ", ".join(f"{names[p]} {what}" for p, what in counted.played[index])
                    said += f" As played before it: {acts}."
                lines.append(said)
            elif e.action is ActionKind.FOLD:
                folded_on[e.player] = street
                lines.append(f"{who}: folds")
            elif e.action is ActionKind.CHECK:
                lines.append(f"{who}: checks")
            elif e.action is ActionKind.CALL:
                bets[e.player] += e.added
                lines.append(f"{who}: calls {e.added}{tail}")
            elif e.action is ActionKind.RAISE:
                if top == 0:
                    lines.append(f"{who}: bets {e.amount}{tail}")
                else:
                    lines.append(f"{who}: raises {e.amount - top} to {e.amount}{tail}")
                bets[e.player] = e.amount
            else:
                raise PokerStarsError("unsupported", f"cannot write a {e.action.value} action")
        elif isinstance(e, ChipsReturned):
            lines.append(f"Uncalled bet ({e.amount}) returned to {names[e.player]}")
        elif isinstance(e, CardsShown):
            if not showdown:
                lines.append("*** SHOW DOWN ***")
                showdown = True
            shown[e.player] = tuple(e.cards)
            desc = ", ".join(h for h in e.hands if h) or "shows"
            lines.append(f"{names[e.player]}: shows [{_cards(e.cards)}] ({desc})")
        elif isinstance(e, CardsMucked):
            if not showdown:
                lines.append("*** SHOW DOWN ***")
                showdown = True
            lines.append(f"{names[e.player]}: mucks hand")
        elif isinstance(e, RakeTaken | LevyTaken):
            rake += e.amount
        elif isinstance(e, PotAwarded):
            for p, amount in zip(e.winners, e.amounts, strict=True):
                if amount:
                    collected[p] += amount
                    awards.append(
                        (e.pot, f"{names[p]} collected {amount} from {_pot(e.pot, side_pots)}")
                    )
        elif isinstance(e, HandEnded):
            # PokerStars order: the last side pot first, the main pot last
            lines.extend(line for _, line in sorted(awards, key=lambda a: -a[0]))
            lines.append("*** SUMMARY ***")
            lines.append(f"Total pot {sum(collected) + rake}{_pots(e, side_pots)} | Rake {rake}")
            if board:
                lines.append(f"Board [{_cards(board)}]")
            for p in sorted(range(n), key=lambda p: info.seats[p]):
                tags = (" (button)" if p == n - 1 else "") + (
                    f" ({blind_of[p]})" if p in blind_of else ""
                )
                head = f"Seat {info.seats[p] + 1}: {names[p]}{tags}"
                if p in folded_on:
                    when_txt = _FOLDED[min(folded_on[p], 3)]
                    lines.append(f"{head} folded {when_txt}")
                elif p in shown:
                    verb = f"and won ({collected[p]})" if collected[p] else "and lost"
                    lines.append(f"{head} showed [{_cards(shown[p])}] {verb}")
                elif collected[p]:
                    lines.append(f"{head} collected ({collected[p]})")
                else:
                    lines.append(f"{head} mucked")
    return "\n".join(lines) + "\n"
