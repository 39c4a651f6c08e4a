"""The casino tables at the edge: their actors, and the ``casino_*`` WebSocket messages
(Texas Hold'em Bonus; docs/protocol.md, "Casino tables").

:class:`CasinoRoom` opens the public casino tables at start (``casino-1`` …), each a
:class:`~croupier.table.casino_actor.CasinoActor` on the ledger cashier; a table found
with a round left open (the server was killed) voids it first, every bet returned
(R-CRASH-1). If a table's actor stops on an error, the next message restores it the same
way. The ledger cashier's transactions run on worker threads, never on the event loop
(``CasinoActor._serve``; on the loop only with an in-memory SQLite database, one
connection shared by every thread). At a graceful stop, each table's round in play is
voided (every bet back) once its actor stopped.

:func:`casino_dispatch` handles one frame whose type starts with ``casino_``; the
connection calls it for types the main protocol does not know.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from croupier.casino.advice import advise
from croupier.casino.bonus import BonusConfig
from croupier.casino.paytable import BONUS_LINES
from croupier.casino.table import (
    Cancel,
    CasinoResult,
    CasinoTableConfig,
    Deal,
    Decide,
    Sit,
    Stand,
)
from croupier.engine.cards import parse_cards
from croupier.engine.errors import CodedError
from croupier.engine.evaluate import describe, high
from croupier.store.casino import LedgerCashier
from croupier.table.casino_actor import CasinoActor
from croupier.table.clock import AsyncioClock, Clock
from croupier.table.supervise import Supervision

if TYPE_CHECKING:
    from croupier.server.app import Services
    from croupier.server.ws import WsSession

__all__ = ["CasinoRoom", "casino_cleanup", "casino_dispatch", "casino_info"]

log = logging.getLogger("croupier.server")

_Id = Annotated[str, StringConstraints(min_length=1, max_length=64)]
_Table = Annotated[str, StringConstraints(min_length=1, max_length=100)]
_Amount = Annotated[int, Field(strict=True, ge=0, le=10**6)]


class _Base(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CasinoSubscribe(_Base):
    type: Literal["casino_subscribe"]
    id: _Id | None = None
    table_id: _Table


class CasinoUnsubscribe(_Base):
    type: Literal["casino_unsubscribe"]
    id: _Id | None = None
    table_id: _Table


class CasinoSit(_Base):
    type: Literal["casino_sit"]
    id: _Id
    table_id: _Table
    seat: Annotated[int, Field(strict=True, ge=0, le=20)] | None = None


class CasinoStand(_Base):
    type: Literal["casino_stand"]
    id: _Id
    table_id: _Table


class CasinoDeal(_Base):
    type: Literal["casino_deal"]
    id: _Id
    table_id: _Table
    ante: _Amount
    bonus: _Amount = 0


class CasinoCancel(_Base):
    type: Literal["casino_cancel"]
    id: _Id
    table_id: _Table


class CasinoDecide(_Base):
    type: Literal["casino_decide"]
    id: _Id
    table_id: _Table
    move: Literal["fold", "play", "check", "bet"]


class CasinoHint(_Base):
    type: Literal["casino_hint"]
    id: _Id
    table_id: _Table


_Message = Annotated[
    CasinoSubscribe
    | CasinoUnsubscribe
    | CasinoSit
    | CasinoStand
    | CasinoDeal
    | CasinoCancel
    | CasinoDecide
    | CasinoHint,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(_Message)
_TYPES = {
    "casino_subscribe",
    "casino_unsubscribe",
    "casino_sit",
    "casino_stand",
    "casino_deal",
    "casino_cancel",
    "casino_decide",
    "casino_hint",
}


def casino_info(game: BonusConfig) -> dict[str, Any]:
    """The limits, chip buttons and pay tables a client shows (R-BONUS-1, 3, 4), with the
    exact returns of ``croupier bonus edge`` (docs/bonus.md)."""
    from croupier.casino.optimal import EXACT_OPTIMAL_EV, EXACT_OPTIMAL_STAKED
    from croupier.casino.returns import EXACT_FIGURES, bonus_return

    returns = [
        {"strategy": f.strategy, "ev": float(f.ev), "per_staked": float(f.per_staked)}
        for f in EXACT_FIGURES
    ]
    returns.append(
        {
            "strategy": "optimal",
            "ev": float(EXACT_OPTIMAL_EV),
            "per_staked": float(EXACT_OPTIMAL_EV / EXACT_OPTIMAL_STAKED),
        }
    )
    return {
        "ante_min": game.ante_min,
        "ante_max": game.ante_max,
        "bonus_min": game.bonus_min,
        "bonus_max": game.bonus_max,
        "chips": list(game.chips),
        "seats": game.max_players,
        "main": {
            "ante_pays": game.main.ante_pays,
            "street_pays": game.main.street_pays,
        },
        "bonus_lines": [{"key": b.key, "pays": b.pays} for b in BONUS_LINES if b.pays > 0],
        "returns": {"bonus": float(bonus_return(game.bonus_lines)), "main": returns},
    }


class CasinoRoom:
    """The casino tables of this process."""

    def __init__(self, sv: Services, clock: Clock | None = None) -> None:
        self.sv = sv
        self.clock: Clock = clock if clock is not None else AsyncioClock()
        self.configs: dict[str, CasinoTableConfig] = {}
        self.actors: dict[str, CasinoActor] = {}
        self.cashier = LedgerCashier(
            sv.store.db, sv.store.ledger, clock=sv.wall, fence=sv.store.fence
        )
        self.offload = sv.store.db.url not in ("sqlite://", "sqlite:///:memory:")
        """The cashier's transactions on worker threads (not with an in-memory SQLite
        database: its one connection is shared by every thread)."""
        self._info: dict[str, Any] | None = None
        self._reopening = asyncio.Lock()

    @property
    def info(self) -> dict[str, Any]:
        """The pay tables and exact returns (computed by :meth:`warm`, or on first use)."""
        if self._info is None:
            self._info = casino_info(BonusConfig())
        return self._info

    async def warm(self) -> None:
        """Compute on a worker thread what the first watcher and the first settlement
        would otherwise compute on the loop (about 0.1 s of CPU each): the exact returns
        of :attr:`info` and the hand names' tables."""

        def work() -> dict[str, Any]:
            describe("high", high(parse_cards("AsKs"), parse_cards("Ts8h5s4hJc")))
            return casino_info(BonusConfig())

        self._info = await asyncio.to_thread(work)

    async def open(self, config: CasinoTableConfig) -> CasinoActor:
        """Open (or restore) a table: rounds it left open are voided first (off the loop)."""
        self.configs[config.table_id] = config
        # Supervised: a crash voids the open round and the table goes on (table/supervise.py);
        # given up after repeated crashes, it stops and is restored here on next use.
        actor = await CasinoActor.restore(
            config,
            self.cashier,
            self.clock,
            supervision=Supervision(close_on_give_up=False),
            offload=self.offload,
        )
        self.actors[config.table_id] = actor
        return actor

    async def actor(self, table_id: str) -> CasinoActor | None:
        actor = self.actors.get(table_id)
        if actor is None or actor.alive:
            return actor
        async with self._reopening:  # one restore, however many messages wait for it
            actor = self.actors[table_id]
            if not actor.alive:  # it stopped on an error: restore it (voids the open round)
                log.error("casino table %s stopped (%r); restoring it", table_id, actor.crashed)
                old = actor.table
                actor = await self.open(self.configs[table_id])
                actor.table.adopt_watchers(old)
        return actor

    def summaries(self) -> list[dict[str, Any]]:
        return [a.table.summary() for a in self.actors.values()]

    async def close(self) -> None:
        """Stop every table; the round each had in play is voided, every bet back (a
        store that fails here leaves it to the next start, R-CRASH-1)."""
        for tid, actor in self.actors.items():
            try:
                await actor.close()
            except Exception:
                log.exception("casino table %s: its open round is left to the next start", tid)


async def open_casino(sv: Services) -> CasinoRoom:
    """The public casino tables of the settings (call inside the running loop)."""
    room = CasinoRoom(sv)
    s = sv.settings
    if s.casino_tables:
        await room.warm()
    for i in range(1, s.casino_tables + 1):
        await room.open(
            CasinoTableConfig(
                f"casino-{i}",
                "Texas Hold'em Bonus" if s.casino_tables == 1 else f"Texas Hold'em Bonus {i}",
                decision_seconds=s.casino_decision_seconds,
                gather_seconds=s.casino_gather_seconds,
            )
        )
    return room


def _subs(session: WsSession) -> dict[str, tuple[CasinoActor, int]]:
    subs: dict[str, tuple[CasinoActor, int]] | None = getattr(session, "casino_subs", None)
    if subs is None:
        subs = {}
        session.casino_subs = subs  # type: ignore[attr-defined]
    return subs


async def casino_cleanup(session: WsSession) -> None:
    """The connection closed: stop its casino views and give up the player's seats (a
    round in play goes on: the clock folds or checks for them, then the seat frees). A
    connection replaced by the same account's new one keeps the seats."""
    subs = _subs(session)
    for actor, token in subs.values():
        actor.table.unsubscribe(token)
    pid = session.player_id
    room: CasinoRoom | None = getattr(session.sv, "casino", None)
    if pid is not None and not session.replaced and room is not None:
        for tid, actor in room.actors.items():
            if actor.alive and actor.table.seat_of(pid) is not None:
                with contextlib.suppress(Exception):
                    await actor.submit(Stand(f"sys:{tid}:{secrets.token_hex(6)}", pid))
    subs.clear()


def _ack(session: WsSession, cid: str | None, table_id: str, result: CasinoResult) -> None:
    if cid is None:
        return
    session.send(
        {
            "type": "ack",
            "id": cid,
            "accepted": result.accepted,
            "code": result.code,
            "message": result.message,
            "table_id": table_id,
            "version": None,
            "data": result.data,
        }
    )


async def casino_dispatch(session: WsSession, raw: str | bytes) -> bool:
    """Handle a ``casino_*`` frame; False when the frame is not one (the caller answers)."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    if not isinstance(data, dict) or data.get("type") not in _TYPES:
        return False
    cid = data.get("id") if isinstance(data.get("id"), str) else None
    try:
        msg = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        session.send(
            {"type": "error", "code": "invalid", "message": f"{where}: {first['msg']}", "id": cid}
        )
        return True
    room: CasinoRoom | None = getattr(session.sv, "casino", None)
    node = getattr(session.sv, "node", None)
    if room is None and node is not None and node.room_url:  # run by the room services' holder
        url = node.room_url
        there = CasinoResult(
            False, "table_elsewhere", f"the casino is served at {url}", {"url": url}
        )
        _ack(session, cid or "-", msg.table_id, there)
        return True
    if node is not None and node.services_moving:  # its process died: back in a moment
        moving = CasinoResult(
            False,
            "table_restarting",
            "the casino's process stopped: another process of the room takes it over in a "
            "moment; ask again",
        )
        _ack(session, cid or "-", msg.table_id, moving)
        return True
    actor = None if room is None else await room.actor(msg.table_id)
    if room is None or actor is None:
        _ack(
            session,
            cid or "-",
            msg.table_id,
            CasinoResult(False, "unknown_table", "no such casino table"),
        )
        return True
    try:
        await _handle(session, room, actor, msg)
    except CodedError as exc:
        _ack(session, cid, msg.table_id, CasinoResult(False, exc.code, str(exc)))
    return True


async def _handle(session: WsSession, room: CasinoRoom, actor: CasinoActor, msg: Any) -> None:
    tid = msg.table_id
    subs = _subs(session)
    if isinstance(msg, CasinoSubscribe):
        old = subs.pop(tid, None)
        if old is not None:
            old[0].table.unsubscribe(old[1])
        pid = session.player_id
        session.send({"type": "casino_info", "table_id": tid, "info": room.info})
        token = actor.table.subscribe(pid, session.send)
        subs[tid] = (actor, token)
        _ack(session, msg.id, tid, CasinoResult(True))
        return
    if isinstance(msg, CasinoUnsubscribe):
        old = subs.pop(tid, None)
        if old is not None:
            old[0].table.unsubscribe(old[1])
        _ack(session, msg.id, tid, CasinoResult(True))
        return
    if session.account is None:
        _ack(session, msg.id, tid, CasinoResult(False, "login_required", "log in to play"))
        return
    pid = str(session.account.id)
    if isinstance(msg, CasinoHint):
        _ack(session, msg.id, tid, await _hint(actor, pid))
        return
    cmd: Any
    if isinstance(msg, CasinoSit):
        cmd = Sit(msg.id, pid, session.account.name, msg.seat)
    elif isinstance(msg, CasinoStand):
        cmd = Stand(msg.id, pid)
    elif isinstance(msg, CasinoDeal):
        cmd = Deal(msg.id, pid, msg.ante, msg.bonus)
    elif isinstance(msg, CasinoCancel):
        cmd = Cancel(msg.id, pid)
    else:
        cmd = Decide(msg.id, pid, msg.move)
    try:
        result = await actor.submit(cmd)
    except CodedError:
        raise
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # this connection is being stopped
        # the actor was stopped (a graceful server stop) while this command waited
        result = CasinoResult(False, "table_down", "the table stopped")
    except Exception as exc:  # the table stopped on this message: the next one restores it
        log.exception("casino table %s failed", tid)
        result = CasinoResult(False, "table_down", f"the table stopped: {type(exc).__name__}")
    _ack(session, msg.id, tid, result)


async def _hint(actor: CasinoActor, pid: str) -> CasinoResult:
    """The optimal decision for this player now (``croupier.casino.advice``)."""
    table = actor.table
    seat = table.seat_of(pid)
    state = table.round
    if seat is None or state is None or seat not in table.round_seats:
        return CasinoResult(False, "not_in_round", "a hint is for your decision in a round")
    hole = state.seats[table.round_seats.index(seat)].hole
    board = state.board
    advice = await asyncio.to_thread(advise, hole, board)
    return CasinoResult(True, data={"advice": advice.to_dict(), "board": len(board)})
