"""The WebSocket protocol: JSON messages with pydantic schemas (see docs/protocol.md).

Every client message is an object with a ``type``; the server answers commands with an
``ack`` carrying the client's ``id``, and reports anything it cannot accept with an
``error`` carrying a stable ``code``. Amounts are JSON integers (strict: ``"10"``,
``10.5``, ``true`` and negatives are refused) no larger than :data:`MAX_AMOUNT`.

>>> msg = parse_client('{"type": "act", "id": "c1", "table_id": "t1", "action": "raise", "amount": 12}')
>>> msg.type, msg.action, msg.amount
('act', 'raise', 12)
>>> parse_client('{"type": "act", "id": "c1", "table_id": "t1", "action": "raise", "amount": 1.5}')
Traceback (most recent call last):
...
croupier.server.protocol.ProtocolError: amount: Input should be a valid integer
>>> parse_client('[1, 2]').__class__.__name__
Traceback (most recent call last):
...
croupier.server.protocol.ProtocolError: a message is a JSON object with a "type"
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from croupier.engine.actions import BetKind
from croupier.engine.errors import CodedError
from croupier.jsontext import loads_json

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_AMOUNT",
    "Ack",
    "Act",
    "Chat",
    "ClientMessage",
    "CloseCode",
    "CreatePrivate",
    "DrawCards",
    "ErrorMessage",
    "Hello",
    "JoinPrivate",
    "Leave",
    "Ping",
    "ProtocolError",
    "QuickMatch",
    "Reload",
    "RespondAncre",
    "Resync",
    "Show",
    "Sit",
    "SitIn",
    "SitOut",
    "Subscribe",
    "TimeBank",
    "Unsubscribe",
    "UsePower",
    "ack",
    "error",
    "parse_client",
]

#: The largest amount a message may carry (chips): far above any stack, far below 2**63.
MAX_AMOUNT = 10**12

Id = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
TableId = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
]
Amount = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]
Version = Annotated[int, Field(strict=True, ge=0, le=2**53)]


class CloseCode:
    """WebSocket close codes the server uses (4000–4999 are the application's)."""

    NORMAL = 1000
    GOING_AWAY = 1001
    """Server shutdown."""
    POLICY = 1008
    """Wrong origin or forbidden."""
    TOO_BIG = 1009
    """A frame over the cap."""
    AUTH_REQUIRED = 4001
    """No hello in time, or a bad/expired token."""
    LOGGED_OUT = 4002
    """The session was logged out."""
    REPLACED = 4003
    """A newer connection of the same account took over."""
    FLOOD = 4008
    """Too many messages after repeated rate-limit warnings."""
    PROTOCOL = 4009
    """Too many malformed messages."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Msg):
    """First message: authenticate with a session token (or none: guest)."""

    type: Literal["hello"]
    token: Annotated[str, StringConstraints(max_length=256)] | None = None
    client: Annotated[str, StringConstraints(max_length=64)] = ""
    lines: bool = False
    """Several messages per frame, one per line (JSON text never holds a raw newline): the
    messages queued for the socket when it is written go in one frame, one system call."""


class Ping(_Msg):
    type: Literal["ping"]
    id: Id | None = None


class Subscribe(_Msg):
    """Follow the lobby (``table_id`` omitted) or a table from ``since`` (its last seen
    version): the server replays the missing events or, on a gap, sends a snapshot."""

    type: Literal["subscribe"]
    table_id: TableId | None = None
    since: Version | None = None
    epoch: Version | None = None
    code: Annotated[str, StringConstraints(max_length=32)] | None = None
    """The invitation code of a private table."""


class Unsubscribe(_Msg):
    type: Literal["unsubscribe"]
    table_id: TableId | None = None


class Resync(_Msg):
    """Ask for a full snapshot of a table."""

    type: Literal["resync"]
    table_id: TableId


class _Command(_Msg):
    id: Id
    table_id: TableId


class Sit(_Command):
    """Buy in and take a seat (``seat`` omitted: the first free one)."""

    type: Literal["sit"]
    buy_in: Amount
    seat: Annotated[int, Field(strict=True, ge=0, le=9)] | None = None
    post_big_blind: bool = False
    code: Annotated[str, StringConstraints(max_length=32)] | None = None


class Act(_Command):
    """Fold, check, call, or raise to ``amount`` (the total bet of the round); in stud,
    ``bring_in`` (R-POS-5); in 32-Card Draw, ``offer_split`` after the draw and
    ``accept_split``/``decline_split`` when a split is offered (R-DRAW-5). The turn's
    ``view.legal`` says which are allowed (``can_bring_in``/``bring_in``,
    ``can_offer_split``, ``split_answer``).

    >>> parse_client('{"type": "act", "id": "c9", "table_id": "t1", "action": "offer_split"}').action
    'offer_split'
    """

    type: Literal["act"]
    action: BetKind
    """One of the engine's betting decisions (:data:`croupier.engine.actions.BET_KINDS`)."""
    amount: Amount = 0
    version: Version | None = None
    """The table version the client acted on; a stale one is refused (``stale_version``)."""


class DrawCards(_Command):
    type: Literal["draw"]
    discards: Annotated[
        str, StringConstraints(max_length=20, pattern=r"^[2-9TJQKAtjqka0-9cdhsCDHS ]*$")
    ] = ""
    version: Version | None = None


class Show(_Command):
    type: Literal["show"]
    show: bool = True


class SitOut(_Command):
    type: Literal["sit_out"]


class SitIn(_Command):
    type: Literal["sit_in"]
    post_blinds: bool = True


class Leave(_Command):
    type: Literal["leave"]


class Reload(_Command):
    type: Literal["reload"]
    amount: Amount


class TimeBank(_Command):
    """Use your time bank on your turn (R-TIME-1): the deadline moves by the bank left."""

    type: Literal["time_bank"]


class Chat(_Command):
    """Free text (``text``) where the table allows it, else a ``canned`` message or an
    ``emote`` from the published lists."""

    type: Literal["chat"]
    text: Annotated[str, StringConstraints(max_length=2000)] | None = None
    canned: Annotated[str, StringConstraints(max_length=32)] | None = None
    emote: Annotated[str, StringConstraints(max_length=32)] | None = None


class UsePower(_Command):
    """Naiko tables (SPEC §9): use ``power`` on your turn (``coup_d_oeil``,
    ``echange_de_manche``, ``ancre_courte``, ``sceau_protecteur``); ``target_seat`` is the
    Ancre Courte's target, ``card`` the hole card an Échange de Manche discards (``"7c"``).
    The table names an unknown power (``unknown_power``) and every refusal.

    >>> m = parse_client('{"type": "use_power", "id": "p1", "table_id": "t1",'
    ...                  ' "power": "ancre_courte", "target_seat": 3}')
    >>> m.power, m.target_seat, m.card
    ('ancre_courte', 3, None)
    >>> parse_client('{"type": "respond_ancre", "id": "p2", "table_id": "t1"}')
    Traceback (most recent call last):
    ...
    croupier.server.protocol.ProtocolError: block: Field required
    """

    type: Literal["use_power"]
    power: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    target_seat: Annotated[int, Field(strict=True, ge=0, le=9)] | None = None
    card: Annotated[str, StringConstraints(min_length=1, max_length=8)] | None = None
    version: Version | None = None


class RespondAncre(_Command):
    """Naiko tables: the target of an Ancre Courte answers inside its window, even out of
    turn: ``block`` with Sceau Protecteur (1 Destello) or pass (R-NAIKO-8)."""

    type: Literal["respond_ancre"]
    block: bool


class QuickMatch(_Msg):
    """Join (``join``) or leave (``cancel``) the arcade quick-match queue."""

    type: Literal["quick_match"]
    id: Id
    cancel: bool = False


class CreatePrivate(_Msg):
    type: Literal["create_private"]
    id: Id
    game: Annotated[str, StringConstraints(max_length=32)] = "nlhe"
    profile: Literal["room", "naiko", "arcade"] = "room"
    small_blind: Annotated[int, Field(strict=True, ge=1, le=10**9)] = 1
    big_blind: Annotated[int, Field(strict=True, ge=1, le=10**9)] = 2
    seats: Annotated[int, Field(strict=True, ge=2, le=10)] = 6
    bots: bool = False
    buy_in_min: Amount = 0
    buy_in_max: Amount = 0
    spread: Annotated[str, StringConstraints(max_length=40)] = ""
    """Spread-Limit games: the per-round maxima, ``1-2-3`` (R-BET-5)."""


class JoinPrivate(_Msg):
    """Resolve an invitation code to its table (then ``subscribe``/``sit`` with the code)."""

    type: Literal["join_private"]
    id: Id
    code: Annotated[str, StringConstraints(min_length=1, max_length=32)]


ClientMessage = Annotated[
    Hello
    | Ping
    | Subscribe
    | Unsubscribe
    | Resync
    | Sit
    | Act
    | DrawCards
    | Show
    | SitOut
    | SitIn
    | Leave
    | Reload
    | TimeBank
    | Chat
    | UsePower
    | RespondAncre
    | QuickMatch
    | CreatePrivate
    | JoinPrivate,
    Field(discriminator="type"),
]

CLIENT_MESSAGES: tuple[type[_Msg], ...] = (
    Hello, Ping, Subscribe, Unsubscribe, Resync, Sit, Act, DrawCards, Show, SitOut, SitIn,
    Leave, Reload, Chat, QuickMatch, CreatePrivate, JoinPrivate, UsePower, RespondAncre,
    TimeBank,
)  # fmt: skip
_TYPES = frozenset(m.model_fields["type"].annotation.__args__[0] for m in CLIENT_MESSAGES)  # type: ignore[union-attr]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


class ProtocolError(CodedError):
    """A message the server cannot read; ``code`` is stable, ``id`` the client id if any."""

    def __init__(self, code: str, message: str, id: str | None = None) -> None:
        super().__init__(code, message)
        self.id = id


def parse_client(text: str | bytes) -> Any:
    """Parse one client frame into its message model, or raise :class:`ProtocolError`.

    Codes: ``bad_json`` (not JSON), ``bad_message`` (not an object with a string
    ``type``), ``unknown_type``, ``invalid`` (fields: wrong type, out of range, unknown).
    """
    try:
        data = loads_json(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json", "a message is one JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", 'a message is a JSON object with a "type"')
    cid = data.get("id") if isinstance(data.get("id"), str) else None
    if data["type"] not in _TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {data['type'][:40]!r}", cid)
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("invalid", f"{where}: {first['msg']}", cid) from None


# --- server → client ----------------------------------------------------------------


class Ack(BaseModel):
    """The answer to a command: ``accepted`` or refused with ``code``."""

    type: Literal["ack"] = "ack"
    id: str
    accepted: bool
    code: str = "ok"
    message: str = ""
    table_id: str | None = None
    version: int | None = None
    data: dict[str, Any] | None = None


def ack(
    cid: str,
    accepted: bool,
    code: str = "ok",
    message: str = "",
    table_id: str | None = None,
    version: int | None = None,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An :class:`Ack` as the dict its ``model_dump`` gives, built directly: one per
    command, on the event loop (a model's validation and dump cost ten times more).

    >>> ack("c1", True, table_id="t") == Ack(id="c1", accepted=True, table_id="t").model_dump()
    True
    """
    return {
        "type": "ack",
        "id": cid,
        "accepted": accepted,
        "code": code,
        "message": message,
        "table_id": table_id,
        "version": version,
        "data": data,
    }


class ErrorMessage(BaseModel):
    type: Literal["error"] = "error"
    code: str
    message: str
    id: str | None = None


def error(code: str, message: str, id: str | None = None) -> dict[str, Any]:
    """An ``error`` message as a dict.

    >>> error("rate_limited", "slow down")
    {'type': 'error', 'code': 'rate_limited', 'message': 'slow down', 'id': None}
    """
    return ErrorMessage(code=code, message=message, id=id).model_dump()
