"""What the terminal shows of a live table: the table's events as one player sees them.

:class:`Scene` is the terminal player's knowledge of the table, built only from the
events the table delivered to that player (redacted for them by the table: never another
player's down card). :meth:`Scene.feed` takes one event, updates the scene and returns
the lines to print. :func:`turn_table` draws the player's own turn view.

>>> from croupier.table.events import PlayerSeated, TableEvent
>>> s = Scene("you")
>>> s.feed(TableEvent(1, 0, 0, PlayerSeated(2, "bot1", "BOT Bo", True, 200)))
['BOT Bo sits at seat 3 with 200.']
>>> s.names["bot1"], s.stacks[2]
('BOT Bo', 200)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.table import Table as RichTable

from croupier.engine.cards import format_cards
from croupier.engine.events import (
    Acted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    ChipsReturned,
    Drew,
    ForcedBet,
    LevyTaken,
    PotAwarded,
    RakeTaken,
    SplitAnswered,
    SplitOffered,
    SplitResolved,
    StreetStarted,
)
from croupier.engine.events import HoleDealt as EngineHoleDealt
from croupier.table.events import (
    HandBegan,
    HandSettled,
    HandVoided,
    PlayerLeft,
    PlayerSeated,
    Protected,
    ReloadOffered,
    SatIn,
    SatOut,
    SeatChanged,
    TableEvent,
    TimeBankUsed,
    TimedOut,
    Turn,
)

__all__ = ["Scene", "turn_table"]

_POSTS = {
    "small_blind": "the small blind",
    "big_blind": "the big blind",
    "straddle": "a straddle",
    "ante": "an ante",
    "dead": "dead",
    "bring_in": "the bring-in",
}


@dataclass
class Scene:
    """The table as the terminal player (``me``) knows it from the events received."""

    me: str
    names: dict[str, str] = field(default_factory=dict)
    """Display names by player id (``You`` for the terminal player unless a bot plays it)."""
    seat_of: dict[str, int] = field(default_factory=dict)
    stacks: dict[int, int] = field(default_factory=dict)
    """Stacks by seat, outside the running hand (as the table announced them)."""
    order: list[str] = field(default_factory=list)
    """Every player who sat down this session, in order (for the ``Stacks:`` line)."""
    cashed: dict[str, int] = field(default_factory=dict)
    """What players who left took with them."""
    hand_no: int = 0
    players: tuple[str, ...] = ()
    """The running hand's player ids by engine position."""
    began: list[HandBegan] = field(default_factory=list)
    """Every hand start seen (button, seats, posts), in order."""
    turn: Turn | None = None
    """The latest decision the table asked for (anyone's); ``None`` between hands."""
    turn_version: int = 0
    reload: ReloadOffered | None = None
    """A reload offered to the terminal player and not answered yet."""
    sitting_out: bool = False
    in_hand: bool = False
    """A hand is running (between ``hand_began`` and its settlement)."""
    seated: bool = False
    settled: int = 0
    bet: int = 0
    """The highest bet of the betting round so far (to say "bet" or "raise to")."""

    def name(self, player_id: str) -> str:
        return self.names.get(player_id, player_id)

    def _seat_name(self, seat: int) -> str:
        for pid, s in self.seat_of.items():
            if s == seat:
                return self.name(pid)
        return f"seat {seat + 1}"

    def _pos(self, event: TableEvent, pos: int) -> str:
        players = event.players or self.players
        return self.name(players[pos]) if 0 <= pos < len(players) else f"player {pos + 1}"

    @property
    def my_turn(self) -> Turn | None:
        """The terminal player's pending decision (with their view and legal actions)."""
        t = self.turn
        return t if t is not None and t.player_id == self.me and t.view is not None else None

    def stacks_line(self) -> str:
        parts = []
        for pid in self.order:
            seat = self.seat_of.get(pid)
            stack = self.stacks.get(seat, 0) if seat is not None else 0
            parts.append(f"{self.name(pid)} {stack}")
        return "Stacks: " + ", ".join(parts)

    def feed(self, event: TableEvent) -> list[str]:
        """Take one event (already redacted for ``me``); the lines to print."""
        return [_second_person(line) for line in self._feed(event)]

    def _feed(self, event: TableEvent) -> list[str]:
        d = event.data
        if isinstance(d, PlayerSeated):
            self.names[d.player_id] = "You" if d.player_id == self.me and not d.is_bot else d.name
            self.seat_of[d.player_id] = d.seat
            self.stacks[d.seat] = d.stack
            if d.player_id not in self.order:
                self.order.append(d.player_id)
            if d.player_id == self.me:
                self.seated = True
            wait = " (waits for the big blind)" if d.waiting_bb else ""
            return [f"{self.name(d.player_id)} sits at seat {d.seat + 1} with {d.stack}.{wait}"]
        if isinstance(d, PlayerLeft):
            self.seat_of.pop(d.player_id, None)
            self.stacks.pop(d.seat, None)
            self.cashed[d.player_id] = d.cashed_out
            if d.player_id == self.me:
                self.seated = False
            return [f"{self.name(d.player_id)} leaves ({d.reason}) with {d.cashed_out}."]
        if isinstance(d, SatOut):
            if self.seat_of.get(self.me) == d.seat:
                self.sitting_out = True
            return [f"{self._seat_name(d.seat)} sits out ({d.reason})."]
        if isinstance(d, SatIn):
            if self.seat_of.get(self.me) == d.seat:
                self.sitting_out = False
            post = ", posting what is owed at the next hand" if d.post_now else ""
            return [f"{self._seat_name(d.seat)} is back{post}."]
        if isinstance(d, SeatChanged):
            changed = d.seat
            self.stacks[changed.seat] = changed.stack
            if changed.player_id == self.me:
                self.sitting_out = changed.sitting_out
            name = self.name(changed.player_id)
            owed = [
                w
                for w, f in (("big blind", changed.owes_bb), ("small blind", changed.owes_sb))
                if f
            ]
            if d.reason == "missed_blinds" and owed:
                return [f"{name} missed the {' and the '.join(owed)}."]
            if d.reason == "post_now":
                return [f"{name} will post at the next hand."]
            if d.reason == "reload":
                return [f"{name} reloads to {changed.stack}."]
            return []
        if isinstance(d, ReloadOffered):
            if d.player_id == self.me:
                self.reload = d
            return []
        if isinstance(d, HandBegan):
            return self._began(event, d)
        if isinstance(d, Turn):
            self.turn, self.turn_version = d, event.version
            return []
        if isinstance(d, TimedOut):
            return [f"{self._seat_name(d.seat)}: time is up ({d.reason}) — {d.action}."]
        if isinstance(d, TimeBankUsed):
            return [f"{self._seat_name(d.seat)} uses the time bank."]
        if isinstance(d, Protected):
            return [f"{self._seat_name(d.seat)} is all-in protected."]
        if isinstance(d, HandSettled):
            self.settled += 1
            self.turn = None
            self.in_hand = False
            for seat, stack in d.stacks:
                self.stacks[seat] = stack
            rake = f" (rake {d.rake})" if d.rake else ""
            return [f"Hand {d.hand_no} settled{rake}.", self.stacks_line()]
        if isinstance(d, HandVoided):
            self.turn = None
            self.in_hand = False
            for seat, stack in d.stacks:
                self.stacks[seat] = stack
            return [f"Hand {d.hand_no} is void ({d.reason}): every chip goes back."]
        return self._engine(event)

    def _began(self, event: TableEvent, d: HandBegan) -> list[str]:
        self.hand_no = d.hand_no
        self.players = d.players
        self.turn = None
        self.in_hand = True
        self.bet = 0
        self.began.append(d)
        if self.me in d.players:
            self.sitting_out = False
        button = self._seat_name(d.button) if d.button in self.seat_of.values() else "empty"
        lines = [
            f"── Hand {d.hand_no} ──",
            f"Button: seat {d.button + 1} ({button}).",
        ]
        if self.me not in d.players:
            lines.append("You are not dealt in.")
        return lines

    def _engine(self, event: TableEvent) -> list[str]:
        d = event.data
        if isinstance(d, ForcedBet):
            if d.kind not in ("ante", "dead"):
                self.bet = max(self.bet, d.amount)
            what = _POSTS.get(d.kind, d.kind)
            allin = " (all-in)" if d.all_in else ""
            if d.kind == "dead":
                return [f"{self._pos(event, d.player)} posts {d.amount} dead.{allin}"]
            return [f"{self._pos(event, d.player)} posts {what}: {d.amount}.{allin}"]
        if isinstance(d, EngineHoleDealt):
            mine = event.players[d.player] == self.me if d.player < len(event.players) else False
            if mine:
                who = "Your" if self.name(self.me) == "You" else f"{self.name(self.me)}'s"
                return [f"{who} cards: {_cards(d.cards)}."]
            up = [c for c, u in zip(d.cards, d.up, strict=True) if u and c is not None]
            if up:
                return [f"{self._pos(event, d.player)} shows up: {format_cards(up)}."]
            return []
        if isinstance(d, StreetStarted):
            self.bet = 0
            return [f"{d.name.capitalize()}, pot {d.pot}."] if d.street > 0 else []
        if isinstance(d, BoardDealt):
            return [f"Board: {_cards(d.cards)}."]
        if isinstance(d, Acted):
            kind = d.action.value
            what = kind.replace("_", " ")
            if kind == "raise":
                what = f"bet {d.amount}" if self.bet == 0 else f"raise to {d.amount}"
            elif kind == "bring_in":
                what = f"bring in {d.amount}"
            if kind in ("raise", "bring_in"):
                self.bet = max(self.bet, d.amount)
            allin = " (all-in)" if d.all_in else ""
            return [f"{self._pos(event, d.player)}: {what}{allin}."]
        if isinstance(d, Drew):
            who = self._pos(event, d.player)
            if event.players[d.player] == self.me:
                if not d.discarded:
                    return [f"{who} stands pat."]
                return [f"{who} discards {_cards(d.discarded)}, gets {_cards(d.received)}."]
            n = len(d.discarded)
            return [f"{who} stands pat." if n == 0 else f"{who} draws {n}."]
        if isinstance(d, CardsShown):
            hands = f" ({', '.join(d.hands)})" if d.hands else ""
            return [f"{self._pos(event, d.player)} shows {format_cards(d.cards)}{hands}."]
        if isinstance(d, CardsMucked):
            return [f"{self._pos(event, d.player)} mucks."]
        if isinstance(d, ChipsReturned):
            return [f"{d.amount} uncalled returned to {self._pos(event, d.player)}."]
        if isinstance(d, PotAwarded):
            names = " and ".join(self._pos(event, p) for p in d.winners) or "nobody"
            hand = f" with {d.hand}" if d.hand else ""
            share = f" ({d.share})" if d.share not in ("", "all", "whole") else ""
            return [f"{names} win{'s' if len(d.winners) == 1 else ''} {d.amount}{hand}{share}."]
        if isinstance(d, RakeTaken | LevyTaken) and d.amount:
            return [f"The house takes {d.amount}."]
        if isinstance(d, SplitOffered):
            return [f"{self._pos(event, d.player)} offers to split the pot."]
        if isinstance(d, SplitAnswered):
            yes = "accepts" if d.accepted else "declines"
            return [f"{self._pos(event, d.player)} {yes} the split."]
        if isinstance(d, SplitResolved):
            return ["The pot is split."]
        return []


_YOU_VERBS = {"is": "are", "has": "have", "misses": "miss"}


def _second_person(line: str) -> str:
    """ "You posts" → "You post": lines about the terminal player, in the second person.

    >>> _second_person("You sits at seat 1."), _second_person("You is back."), _second_person("Youri wins 4.")
    ('You sit at seat 1.', 'You are back.', 'Youri wins 4.')
    """
    if not line.startswith("You "):
        return line
    verb, _, rest = line[4:].partition(" ")
    if verb in _YOU_VERBS:
        verb = _YOU_VERBS[verb]
    elif verb.endswith("s") and verb.isalpha():
        verb = verb[:-1]
    return f"You {verb} {rest}".rstrip()


def _cards(cards: tuple[object, ...]) -> str:
    return " ".join("??" if c is None else str(c) for c in cards) or "—"


def turn_table(scene: Scene, turn: Turn) -> RichTable:
    """The terminal player's view of the hand at their turn (from the turn event's view)."""
    v = turn.view
    assert v is not None
    table = RichTable(title=f"{v.variant} — pot {v.pot}", show_lines=False)
    for col in ("seat", "player", "stack", "bet", "cards"):
        table.add_column(col)
    for p, pv in enumerate(v.players):
        pid = scene.players[p] if p < len(scene.players) else ""
        seat = scene.seat_of.get(pid)
        status = " (folded)" if pv.folded else " (all-in)" if pv.all_in else ""
        marker = "▶ " if p == v.actor else ""
        table.add_row(
            "?" if seat is None else str(seat + 1),
            marker + scene.name(pid) + status,
            str(pv.stack),
            str(pv.bet),
            _cards(pv.cards),
        )
    return table
