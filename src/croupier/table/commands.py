"""Table commands: small frozen values, each with a client-supplied ``command_id``.

Every command goes through the table actor's mailbox and is answered with a
:class:`~croupier.table.results.CommandResult`. A repeated ``command_id`` gets the same
answer and is applied once.

>>> SitDown("c1", "alice", name="Alice", buy_in=200).seat is None
True
>>> Act("c2", "alice", "raise", 40).amount
40
>>> UsePower("c3", "alice", "ancre_courte", target_seat=4).target_seat
4
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.engine.actions import BetKind
from croupier.engine.game import Stakes

__all__ = [
    "Act",
    "AncreExpired",
    "Command",
    "Disconnect",
    "Draw",
    "HoldHands",
    "Leave",
    "Message",
    "Reconnect",
    "Reload",
    "RespondAncre",
    "SetStakes",
    "ShowCards",
    "SitDown",
    "SitIn",
    "SitOut",
    "StartHand",
    "Timeout",
    "UsePower",
    "UseTimeBank",
    "WindowExpired",
]

ActKind = BetKind
"""The betting decisions by name: the engine's vocabulary (:data:`croupier.engine.actions.BET_KINDS`)."""


@dataclass(frozen=True, slots=True)
class SitDown:
    """Take ``seat`` (or the first free one) with ``buy_in`` chips (R-SEAT-1).

    ``post_big_blind``: a new player posts a big blind to play at once (``True``) or waits
    for the big blind (R-SEAT-3)."""

    command_id: str
    player_id: str
    name: str = ""
    buy_in: int = 0
    seat: int | None = None
    is_bot: bool = False
    post_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class SitOut:
    command_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class SitIn:
    """Come back; ``post_blinds`` pays missed blinds now instead of waiting for the big blind."""

    command_id: str
    player_id: str
    post_blinds: bool = True


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand up; the chips go back to the account (at the end of the hand if in one)."""

    command_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class Reload:
    """Add ``amount`` chips (busted, or below the maximum buy-in), between hands."""

    command_id: str
    player_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class Act:
    """A betting action: ``fold``, ``check``, ``call``, ``raise`` to ``amount`` (raise-to
    total of the round, as in the engine), ``bring_in`` (stud), or the 32-Card Draw split
    answers ``offer_split``/``accept_split``/``decline_split`` (R-DRAW-5)."""

    command_id: str
    player_id: str
    kind: ActKind
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Draw:
    """Discard ``discards`` (card text such as ``"2c7d"``, empty: stand pat)."""

    command_id: str
    player_id: str
    discards: str = ""


@dataclass(frozen=True, slots=True)
class ShowCards:
    """At showdown: show (``True``) or muck (``False``). In the pause after a hand won
    uncontested, the winner may show (``True``, R-POT-4)."""

    command_id: str
    player_id: str
    show: bool = True


@dataclass(frozen=True, slots=True)
class UsePower:
    """Naiko mode (SPEC §9): use ``power`` (``coup_d_oeil``, ``echange_de_manche``,
    ``ancre_courte``, ``sceau_protecteur``). ``target_seat``: the Ancre Courte's target;
    ``card``: the hole card an Échange de Manche discards (card text such as ``"7c"``).
    ``sceau_protecteur`` answers an Ancre aimed at you, as ``RespondAncre(block=True)``."""

    command_id: str
    player_id: str
    power: str
    target_seat: int | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class RespondAncre:
    """Naiko mode: the target of an Ancre Courte answers inside its window, even out of
    turn: ``block`` with Sceau Protecteur (1 Destello) or pass (R-NAIKO-8)."""

    command_id: str
    player_id: str
    block: bool = False


@dataclass(frozen=True, slots=True)
class UseTimeBank:
    command_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class Disconnect:
    """From the connection layer: the player's connection dropped."""

    command_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class Reconnect:
    """From the connection layer: the player is back; the answer carries a snapshot."""

    command_id: str
    player_id: str


@dataclass(frozen=True, slots=True)
class SetStakes:
    """From the tournament director (never built from client input): play the next hands
    at ``stakes`` (blind levels rise between hands, R-TOUR-1); a hand in play keeps its
    own. ``player_id`` names the sender (e.g. ``"director"``)."""

    command_id: str
    player_id: str
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class HoldHands:
    """From the tournament director (never built from client input): ``hold`` True deals
    no new hand after the one in play (hand-for-hand on the bubble, R-TOUR-17; a break,
    R-TOUR-18); False deals again. ``player_id`` names the sender."""

    command_id: str
    player_id: str
    hold: bool


@dataclass(frozen=True, slots=True)
class Timeout:
    """Internal (posted by the table's own timer): the decision clock ``token`` ran out."""

    token: int


@dataclass(frozen=True, slots=True)
class StartHand:
    """Internal: time to start the next hand (``token`` of the pause that ends)."""

    token: int


@dataclass(frozen=True, slots=True)
class WindowExpired:
    """Internal: ``player_id``'s reconnection window (disconnected at ``since``) ended."""

    player_id: str
    since: float


@dataclass(frozen=True, slots=True)
class GraceEnded:
    """Internal: the reconnection grace of ``player_id``'s drop at ``since`` ended
    (R-TIME-2 revised: the disconnection policy may act from now on)."""

    player_id: str
    since: float


@dataclass(frozen=True, slots=True)
class AncreExpired:
    """Internal: the Ancre response window ``token`` ran out (the Ancre applies)."""

    token: int


Command = (
    SitDown
    | SitOut
    | SitIn
    | Leave
    | Reload
    | Act
    | Draw
    | ShowCards
    | UseTimeBank
    | Disconnect
    | Reconnect
    | UsePower
    | RespondAncre
    | SetStakes
    | HoldHands
)

Message = Command | Timeout | StartHand | WindowExpired | AncreExpired | GraceEnded
"""Everything the table actor's mailbox carries."""
