"""Texas Hold'em Bonus, the casino game: a pure state machine (R-BONUS-1 … R-BONUS-4).

Several players at one table each play against the dealer with one 52-card deck. Players
are numbered clockwise from the dealer's left (player 0 acts first). The deck is the
shuffled deck, dealt from the front: hole cards one at a time to players 0 … n-1 then the
dealer, twice; then a burn and the flop, a burn and the turn, a burn and the river.

:func:`start_round` takes the bets and the deck; :func:`legal_actions` says who acts and
what they may do; :func:`apply` returns ``(state', events)`` and never changes the state it
is given. A refused input raises :class:`IllegalActionError` (a ``ValueError`` with a
stable ``code``) and changes nothing.

>>> from croupier.engine.cards import parse_cards
>>> deck = parse_cards("As Qh Ks Jd  9c Td8h5s 2d 4h 3c Jc")
>>> s, ev = start_round(BonusConfig(), [Bets(ante=10, bonus=5)], deck)
>>> [str(c) for c in s.seats[0].hole], [str(c) for c in s.dealer]
(['As', 'Ks'], ['Qh', 'Jd'])
>>> legal_actions(s)
Legal(player=0, moves=(<Move.FOLD: 'fold'>, <Move.PLAY: 'play'>), amount=20)
>>> s, ev = apply(s, play(0))
>>> [str(c) for c in s.board], s.phase.value
(['Td', '8h', '5s'], 'turn')
>>> s, ev = apply(s, check(0))
>>> s, ev = apply(s, bet(0))
>>> r = s.result.results[0]
>>> r.outcome.value, [str(c) for c in s.board]
('lose', ['Td', '8h', '5s', '4h', 'Jc'])
>>> r.ante_net, r.flop_net, r.river_net, r.bonus_line, r.bonus_net, r.net
(-10, -20, -10, 'ak_suited', 125, 85)
>>> s.result.house_net
-85
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from croupier.casino.events import (
    Acted,
    BoardDealt,
    BonusEvent,
    CardBurnt,
    DealerShown,
    HoleDealt,
    Move,
    Outcome,
    RoundEnded,
    RoundStarted,
    SeatResult,
    Wagered,
)
from croupier.casino.paytable import (
    BONUS_LINES,
    MAIN,
    BonusLine,
    MainPaytable,
    ante_qualifies,
    bonus_line,
)
from croupier.engine.cards import DECK_52, Card, format_cards
from croupier.engine.errors import ConfigurationError, IllegalActionError
from croupier.engine.evaluate import high
from croupier.engine.rng import Shuffler, SystemShuffler

__all__ = [
    "Bets",
    "BonusAction",
    "BonusConfig",
    "Legal",
    "Phase",
    "RoundState",
    "Seat",
    "apply",
    "arrange_deck",
    "bet",
    "check",
    "fold",
    "legal_actions",
    "normalize_ante",
    "play",
    "settle_seat",
    "shuffled_deck",
    "start_round",
    "view",
]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, slots=True)
class BonusConfig:
    """Table limits and pay tables (R-BONUS-1). Chips are integers in the table's unit."""

    ante_min: int = 2
    ante_max: int = 1000
    bonus_min: int = 1
    bonus_max: int = 25
    chips: tuple[int, ...] = (1, 5, 25, 100, 500)
    max_players: int = 7
    main: MainPaytable = MAIN
    bonus_lines: tuple[BonusLine, ...] = BONUS_LINES

    def __post_init__(self) -> None:
        nums = (self.ante_min, self.ante_max, self.bonus_min, self.bonus_max, self.max_players)
        if not all(_is_int(x) for x in (*nums, *self.chips)):
            raise ConfigurationError("bad_limits", "limits and chip values are integers")
        if not 1 <= self.ante_min <= self.ante_max:
            raise ConfigurationError("bad_limits", "the ante needs 1 <= minimum <= maximum")
        if not 1 <= self.bonus_min <= self.bonus_max:
            raise ConfigurationError("bad_limits", "the bonus bet needs 1 <= minimum <= maximum")
        if not self.chips or min(self.chips) < 1:
            raise ConfigurationError("bad_limits", "chip buttons are positive integers")
        if not 1 <= self.max_players <= 21:  # 2 per player and dealer + 8 board/burns <= 52
            raise ConfigurationError("bad_limits", "one deck serves 1 to 21 players")


@dataclass(frozen=True, slots=True)
class Bets:
    """One player's opening stakes: the ante and the optional bonus bet (0: none)."""

    ante: int
    bonus: int = 0


class Phase(StrEnum):
    PREFLOP = "preflop"
    """Each player folds or plays (flop bet 2x ante)."""
    TURN = "turn"
    """The flop is out; each remaining player checks or bets 1x ante before the turn."""
    RIVER = "river"
    """The turn is out; each remaining player checks or bets 1x ante before the river."""
    COMPLETE = "complete"


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's hand and stakes. ``stack`` is the chips behind (None: not tracked)."""

    hole: tuple[Card, ...]
    ante: int
    bonus: int
    flop: int = 0
    turn: int = 0
    river: int = 0
    folded: bool = False
    stack: int | None = None

    @property
    def wagered(self) -> int:
        return self.ante + self.bonus + self.flop + self.turn + self.river


@dataclass(frozen=True, slots=True)
class BonusAction:
    player: int
    move: Move

    def __str__(self) -> str:
        return f"p{self.player + 1} {self.move}"


def fold(player: int) -> BonusAction:
    return BonusAction(player, Move.FOLD)


def play(player: int) -> BonusAction:
    return BonusAction(player, Move.PLAY)


def check(player: int) -> BonusAction:
    return BonusAction(player, Move.CHECK)


def bet(player: int) -> BonusAction:
    return BonusAction(player, Move.BET)


@dataclass(frozen=True, slots=True)
class Legal:
    """Who acts, the moves allowed, and the chips the betting move (play/bet) costs."""

    player: int
    moves: tuple[Move, ...]
    amount: int


@dataclass(frozen=True, slots=True)
class RoundState:
    """One round. Immutable: transitions build new states."""

    config: BonusConfig
    seats: tuple[Seat, ...]
    dealer: tuple[Card, ...]
    deck: tuple[Card, ...]
    deck_pos: int
    board: tuple[Card, ...]
    burnt: tuple[Card, ...]
    phase: Phase
    actor: int | None
    result: RoundEnded | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.COMPLETE

    @property
    def final_stacks(self) -> tuple[int | None, ...]:
        """Stacks after settlement (None where stacks are not tracked)."""
        if self.result is None:
            raise IllegalActionError("round_not_over", "the round is not settled yet")
        return tuple(
            None if s.stack is None else s.stack + r.paid
            for s, r in zip(self.seats, self.result.results, strict=True)
        )


_CARDS_NEEDED: Final = 8  # 3 burns + 5 board cards


def normalize_ante(config: BonusConfig, ante: int) -> int:
    """The ante as accepted: under the minimum it is raised to it (R-BONUS-1).

    >>> normalize_ante(BonusConfig(), 1), normalize_ante(BonusConfig(), 40)
    (2, 40)
    >>> normalize_ante(BonusConfig(), 1001)
    Traceback (most recent call last):
    ...
    croupier.engine.errors.IllegalActionError: the ante is at most 1000, not 1001
    """
    if not _is_int(ante):
        raise IllegalActionError("bad_amount", f"an ante is a whole number of chips, not {ante!r}")
    if ante < 1:
        raise IllegalActionError("ante_required", f"every player places an ante, not {ante}")
    if ante > config.ante_max:
        raise IllegalActionError(
            "ante_too_large", f"the ante is at most {config.ante_max}, not {ante}"
        )
    return max(ante, config.ante_min)


def _check_bonus(config: BonusConfig, bonus: int) -> int:
    if not _is_int(bonus):
        raise IllegalActionError("bad_amount", f"a bonus bet is a whole number, not {bonus!r}")
    if bonus != 0 and not config.bonus_min <= bonus <= config.bonus_max:
        raise IllegalActionError(
            "bonus_out_of_range",
            f"the bonus bet is 0 (none) or {config.bonus_min} to {config.bonus_max}, not {bonus}",
        )
    return bonus


def _as_bets(b: Bets | int | tuple[int, int]) -> Bets:
    if isinstance(b, Bets):
        return b
    if _is_int(b):
        return Bets(ante=b)  # type: ignore[arg-type]
    if isinstance(b, tuple) and len(b) == 2:
        return Bets(ante=b[0], bonus=b[1])
    raise IllegalActionError("bad_amount", f"not a bet: {b!r} (Bets(ante, bonus) or an ante)")


def start_round(
    config: BonusConfig,
    bets: Sequence[Bets | int | tuple[int, int]],
    deck: Sequence[Card],
    *,
    stacks: Sequence[int] | None = None,
) -> tuple[RoundState, tuple[BonusEvent, ...]]:
    """Take the antes and bonus bets and deal the hole cards (R-BONUS-1, R-BONUS-2).

    ``bets[i]`` is player i's :class:`Bets` (or just an ante, or ``(ante, bonus)``);
    ``deck`` the shuffled deck (at least ``2 * (players + 1) + 8`` distinct cards);
    ``stacks`` the players' chips, checked against every stake (None: not tracked).
    """
    if not isinstance(config, BonusConfig):
        raise IllegalActionError("bad_config", "start_round needs a BonusConfig")
    n = len(bets)
    if not 1 <= n <= config.max_players:
        raise IllegalActionError("bad_player_count", f"1 to {config.max_players} players, not {n}")
    accepted = [_as_bets(b) for b in bets]
    antes = tuple(normalize_ante(config, b.ante) for b in accepted)
    bonuses = tuple(_check_bonus(config, b.bonus) for b in accepted)
    if stacks is not None:
        if len(stacks) != n or not all(_is_int(s) and s >= 0 for s in stacks):
            raise IllegalActionError("bad_stacks", "one non-negative whole stack per player")
        for i, (a, b, s) in enumerate(zip(antes, bonuses, stacks, strict=True)):
            if a + b > s:
                raise IllegalActionError(
                    "insufficient_chips", f"player {i + 1} has {s} chips, bets {a + b}"
                )
    cards = tuple(deck)
    if not all(isinstance(c, Card) for c in cards):
        raise IllegalActionError("bad_deck", "the deck holds Card values")
    if len(set(cards)) != len(cards):
        raise IllegalActionError("bad_deck", "the deck holds a card twice")
    need = 2 * (n + 1) + _CARDS_NEEDED
    if len(cards) < need:
        raise IllegalActionError("bad_deck", f"{n} players need {need} cards, not {len(cards)}")

    k = n + 1
    holes = [(cards[i], cards[i + k]) for i in range(k)]
    seats = tuple(
        Seat(
            hole=holes[i],
            ante=antes[i],
            bonus=bonuses[i],
            stack=None if stacks is None else stacks[i] - antes[i] - bonuses[i],
        )
        for i in range(n)
    )
    events: list[BonusEvent] = [
        RoundStarted(
            antes, bonuses, tuple(a != b.ante for a, b in zip(antes, accepted, strict=True))
        )
    ]
    for i in range(n):
        events.append(Wagered(i, "ante", antes[i]))
        if bonuses[i]:
            events.append(Wagered(i, "bonus", bonuses[i]))
    events += [HoleDealt(i, holes[i]) for i in range(n)]
    events.append(HoleDealt(-1, holes[n]))
    state = RoundState(
        config=config,
        seats=seats,
        dealer=holes[n],
        deck=cards,
        deck_pos=2 * k,
        board=(),
        burnt=(),
        phase=Phase.PREFLOP,
        actor=0,
    )
    return state, tuple(events)


def arrange_deck(
    holes: Sequence[Sequence[Card]],
    dealer: Sequence[Card],
    board: Sequence[Card] = (),
    burns: Sequence[Card] = (),
) -> tuple[Card, ...]:
    """A full 52-card deck that deals these hands (for tests, replays and demos).

    Cards not given (the rest of the board, burns) follow in deck order.

    >>> from croupier.engine.cards import parse_cards as p, format_cards
    >>> format_cards(arrange_deck([p("AsKs"), p("2c2d")], p("QhJd"), p("Td8h5s4hJc"))[:14])
    'As2cQhKs2dJd2hTd8h5s2s4h3cJc'
    """
    given = [*(c for h in holes for c in h), *dealer, *board, *burns]
    if len(set(given)) != len(given) or not all(isinstance(c, Card) for c in given):
        raise IllegalActionError("bad_deck", "the arranged cards must be distinct Cards")
    rest = iter(c for c in DECK_52 if c not in set(given))
    hands = [*holes, dealer]
    out = [h[0] for h in hands] + [h[1] for h in hands]
    b = list(board) + [next(rest) for _ in range(5 - len(board))]
    u = list(burns) + [next(rest) for _ in range(3 - len(burns))]
    out += [u[0], *b[:3], u[1], b[3], u[2], b[4]]
    out += list(rest)
    return tuple(out)


def shuffled_deck(shuffler: Shuffler | None = None) -> tuple[Card, ...]:
    """A shuffled 52-card deck: the live CSPRNG shuffle unless a (seeded) one is given.

    >>> from croupier.engine.rng import SeededShuffler
    >>> shuffled_deck(SeededShuffler(5)) == shuffled_deck(SeededShuffler(5))
    True
    >>> sorted(shuffled_deck()) == list(DECK_52)
    True
    """
    return (shuffler if shuffler is not None else SystemShuffler()).shuffle(DECK_52)


def legal_actions(state: RoundState) -> Legal | None:
    """What the player to act may do, or None when the round is over."""
    if state.actor is None:
        return None
    seat = state.seats[state.actor]
    moves: tuple[Move, ...]
    if state.phase is Phase.PREFLOP:
        cost, moves = 2 * seat.ante, (Move.FOLD, Move.PLAY)
    else:
        cost, moves = seat.ante, (Move.CHECK, Move.BET)
    if seat.stack is not None and seat.stack < cost:
        moves = moves[:1]
    return Legal(state.actor, moves, cost)


def _next_actor(seats: Sequence[Seat], after: int) -> int | None:
    for i in range(after + 1, len(seats)):
        if not seats[i].folded:
            return i
    return None


def apply(state: RoundState, action: BonusAction) -> tuple[RoundState, tuple[BonusEvent, ...]]:
    """Apply one decision; return the new state and what happened (R-BONUS-2)."""
    if not isinstance(action, BonusAction):
        raise IllegalActionError("unknown_action", f"not an action: {action!r}")
    legal = legal_actions(state)
    if legal is None:
        raise IllegalActionError("round_over", "the round is over")
    if not isinstance(action.move, Move):
        raise IllegalActionError("unknown_action", f"unknown move {action.move!r}")
    if action.player != legal.player:
        raise IllegalActionError(
            "not_your_turn", f"it is player {legal.player + 1}'s turn, not {action.player!r}"
        )
    if action.move not in legal.moves:
        allowed = (Move.FOLD, Move.PLAY) if state.phase is Phase.PREFLOP else (Move.CHECK, Move.BET)
        if action.move in allowed:
            raise IllegalActionError(
                "insufficient_chips", f"{action.move} costs {legal.amount} chips"
            )
        raise IllegalActionError(
            "move_not_allowed",
            f"{action.move} is not allowed {state.phase.value}: "
            f"{' or '.join(m.value for m in allowed)}",
        )
    p = legal.player
    seat = state.seats[p]
    events: list[BonusEvent] = []
    added = 0
    if action.move is Move.FOLD:
        seat = replace(seat, folded=True)
    elif action.move is not Move.CHECK:
        added = legal.amount
        spot = {Phase.PREFLOP: "flop", Phase.TURN: "turn", Phase.RIVER: "river"}[state.phase]
        stack = None if seat.stack is None else seat.stack - added
        if spot == "flop":
            seat = replace(seat, stack=stack, flop=added)
        elif spot == "turn":
            seat = replace(seat, stack=stack, turn=added)
        else:
            seat = replace(seat, stack=stack, river=added)
        events.append(Wagered(p, spot, added))
    events.insert(0, Acted(p, action.move, added))
    seats = (*state.seats[:p], seat, *state.seats[p + 1 :])
    nxt = _next_actor(seats, p)
    if nxt is not None:
        return replace(state, seats=seats, actor=nxt), tuple(events)
    return _advance(replace(state, seats=seats, actor=None), events)


def _advance(
    state: RoundState, events: list[BonusEvent]
) -> tuple[RoundState, tuple[BonusEvent, ...]]:
    """The betting round is over: deal the next street, or settle."""
    everyone_folded = all(s.folded for s in state.seats)
    if everyone_folded:
        return _settle(state, events)
    count = {Phase.PREFLOP: 3, Phase.TURN: 1, Phase.RIVER: 1}[state.phase]
    street = {Phase.PREFLOP: "flop", Phase.TURN: "turn", Phase.RIVER: "river"}[state.phase]
    pos = state.deck_pos
    burn, new = state.deck[pos], state.deck[pos + 1 : pos + 1 + count]
    events += [CardBurnt(burn), BoardDealt(street, new)]
    state = replace(
        state,
        deck_pos=pos + 1 + count,
        board=state.board + new,
        burnt=(*state.burnt, burn),
    )
    if state.phase is Phase.RIVER:
        return _settle(state, events)
    nxt = _next_actor(state.seats, -1)
    phase = Phase.TURN if state.phase is Phase.PREFLOP else Phase.RIVER
    return replace(state, phase=phase, actor=nxt), tuple(events)


def settle_seat(
    player: int,
    seat: Seat,
    dealer: Sequence[Card],
    board: Sequence[Card],
    config: BonusConfig = BonusConfig(),
) -> SeatResult:
    """One player's settlement against the dealer (R-BONUS-3, R-BONUS-4).

    >>> from croupier.engine.cards import parse_cards as p
    >>> s = Seat(hole=p("9s9h"), ante=10, bonus=0, flop=20, turn=10)
    >>> r = settle_seat(0, s, p("KcQd"), p("9c9d2h3s4c"))   # quads beat a pair
    >>> r.outcome.value, r.ante_net, r.flop_net, r.turn_net, r.net
    ('win', 10, 20, 10, 40)
    >>> r = settle_seat(0, s, p("KcQd"), p("AcAd2h3s8c"))   # aces up, kings kicker, wins
    >>> r.outcome.value, r.ante_net, r.net                  # ante pushes: no straight
    ('win', 0, 30)
    """
    line = bonus_line(seat.hole, dealer, config.bonus_lines)
    bonus_net = seat.bonus * line.pays if seat.bonus else 0
    value: int | None = None
    nets: tuple[int, ...]
    if seat.folded:
        outcome = Outcome.FOLD
        nets = (-seat.ante, 0, 0, 0)
    else:
        value = high(seat.hole, board)
        dealer_value = high(dealer, board)
        stakes = (seat.ante, seat.flop, seat.turn, seat.river)
        if value > dealer_value:
            outcome = Outcome.WIN
            m = config.main
            ante = seat.ante * m.ante_pays if ante_qualifies(value, m) else 0
            nets = (ante, *(x * m.street_pays for x in stakes[1:]))
        elif value == dealer_value:
            outcome = Outcome.TIE
            nets = (0, 0, 0, 0)
        else:
            outcome = Outcome.LOSE
            nets = (-stakes[0], -stakes[1], -stakes[2], -stakes[3])
    wagered = seat.wagered
    return SeatResult(
        player=player,
        outcome=outcome,
        value=value,
        ante_net=nets[0],
        flop_net=nets[1],
        turn_net=nets[2],
        river_net=nets[3],
        bonus_line=line.key if seat.bonus else "",
        bonus_net=bonus_net,
        wagered=wagered,
        paid=wagered + sum(nets) + bonus_net,
    )


def _settle(
    state: RoundState, events: list[BonusEvent]
) -> tuple[RoundState, tuple[BonusEvent, ...]]:
    everyone_folded = all(s.folded for s in state.seats)
    dealer_value = None if everyone_folded else high(state.dealer, state.board)
    events.append(DealerShown(state.dealer, dealer_value))
    results = tuple(
        settle_seat(i, s, state.dealer, state.board, state.config)
        for i, s in enumerate(state.seats)
    )
    ended = RoundEnded(results, -sum(r.net for r in results))
    events.append(ended)
    return replace(state, phase=Phase.COMPLETE, actor=None, result=ended), tuple(events)


def view(state: RoundState, audience: int | None = None) -> dict[str, Any]:
    """A JSON-ready picture of the round for a client: ``audience`` is a player number
    (their hole cards shown) or None (an observer). The dealer's hole cards and the burns
    stay hidden until the round is settled; other players' hole cards are hidden.

    >>> from croupier.engine.cards import parse_cards
    >>> deck = arrange_deck([parse_cards("AsKs")], parse_cards("QhJd"), parse_cards("Td8h5s4hJc"))
    >>> s, _ = start_round(BonusConfig(), [Bets(10)], deck)
    >>> v = view(s, 0)
    >>> v["seats"][0]["hole"], v["dealer"], v["legal"]
    ('AsKs', None, {'player': 0, 'moves': ['fold', 'play'], 'amount': 20})
    """
    legal = legal_actions(state)
    over = state.is_over
    return {
        "phase": state.phase.value,
        "actor": state.actor,
        "board": format_cards(state.board),
        "dealer": format_cards(state.dealer) if over else None,
        "seats": [
            {
                "hole": format_cards(s.hole) if over or audience == i else None,
                "ante": s.ante,
                "bonus": s.bonus,
                "flop": s.flop,
                "turn": s.turn,
                "river": s.river,
                "folded": s.folded,
                "stack": s.stack,
            }
            for i, s in enumerate(state.seats)
        ],
        "legal": None
        if legal is None
        else {
            "player": legal.player,
            "moves": [m.value for m in legal.moves],
            "amount": legal.amount,
        },
        "result": None if state.result is None else state.result.to_dict(),
    }
