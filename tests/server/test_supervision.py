"""Supervision of a crashed table actor in a running server (issue #11, R-CRASH-1).

A real uvicorn server with two bot tables; a player on a real WebSocket sits at one of
them; a fault is injected in the table's handling of an action, or in its journal write
(the background writer cannot make a hand's settlement durable). The server keeps
running, the other table keeps playing, the player sees the hand voided (``hand_voided``,
reason ``crash``, in a new event epoch), every stack is as before the hand, the table
plays on and the ledger audit is clean. Repeated crashes close the table with every stack
back on its owner's account.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import pytest

from croupier.server.registry import LiveTable
from croupier.store import open_store
from croupier.table.journal import HandEndRecord, Record
from croupier.table.supervise import Supervision
from croupier.table.table import TableCrashed
from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login, running

TABLE, OTHER = "bots-1", "bots-2"
BUY_IN = 120


def _settings(url: str) -> Any:
    return fast_settings(url, default_tables=False, bot_tables=2, casino_tables=0)


def _live(srv: LiveServer, table_id: str) -> LiveTable:
    return srv.app.state.services.registry.tables[table_id]  # type: ignore[no-any-return]


def _account(base: str, name: str) -> tuple[str, int, int]:
    """Register ``name``, change diamonds for chips; (token, account id, chips)."""
    token = register_and_login(base, name)
    headers = {"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as h:
        r = h.post("/api/exchange", json={"diamonds": 300, "key": f"ex-{name}-0001"})
        assert r.status_code == 200, r.text
        return token, int(r.json()["id"]), int(r.json()["chips"])


def _chips(base: str, token: str) -> int:
    headers = {"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as h:
        return int(h.get("/api/me").json()["chips"])


class Player:
    """A WebSocket player at ``TABLE`` who answers every turn (check, else call, else
    fold) and keeps every event frame."""

    def __init__(self, client: Client, me: str) -> None:
        self.client = client
        self.me = me
        self.events: list[dict[str, Any]] = []
        self.closed: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    async def sit(self) -> None:
        await self.client.send({"type": "subscribe", "table_id": TABLE})
        await self.client.expect("subscribed")
        ack = await self.client.command(
            {"type": "sit", "table_id": TABLE, "buy_in": BUY_IN, "post_big_blind": True}
        )
        assert ack["accepted"], ack
        self.task = asyncio.create_task(self._answer())

    async def _answer(self) -> None:
        while True:
            frame = await self.client.recv(120)
            if frame.get("type") == "table_closed":
                self.closed.append(frame)
            if frame.get("type") != "event" or frame.get("table_id") != TABLE:
                continue
            self.events.append(frame)
            ev = frame["event"]
            if ev["type"] == "turn" and ev.get("view") and ev.get("player_id") == self.me:
                legal = ev["view"]["legal"]
                if ev["phase"] == "showdown":
                    msg = {"type": "show", "table_id": TABLE, "show": True}
                elif legal["can_check"]:
                    msg = {"type": "act", "table_id": TABLE, "action": "check"}
                elif legal["can_call"]:
                    msg = {"type": "act", "table_id": TABLE, "action": "call"}
                else:
                    msg = {"type": "act", "table_id": TABLE, "action": "fold"}
                await self.client.send({**msg, "id": self.client.next_id()})

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.events if f["event"]["type"] == kind]

    async def wait(self, test: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not test():
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            if self.task is not None and self.task.done():
                self.task.result()
            await asyncio.sleep(0.02)

    async def leave(self) -> int:
        """Leave; the chips cashed out."""
        await self.client.send({"type": "leave", "table_id": TABLE, "id": self.client.next_id()})
        await self.wait(
            lambda: any(f["event"]["player_id"] == self.me for f in self.of("player_left")),
            "player_left",
        )
        left = [f for f in self.of("player_left") if f["event"]["player_id"] == self.me]
        return int(left[-1]["event"]["cashed_out"])

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        # Close the socket before awaiting the reader: on Python 3.11 a cancellation that
        # meets a frame arriving is lost inside ``wait_for`` and the reader reads on
        # (the table keeps playing); a closed socket ends it whatever. A cancellation of
        # this scenario (its time is up) still goes through: ``gather`` does not swallow
        # it, as the bare suppress here did (a scenario then finished only after its 180 s).
        await self.client.close()
        if self.task is not None:
            await asyncio.gather(self.task, return_exceptions=True)


class ActionFault:
    """Raise inside the table's handling of an action, once ``armed`` and only in a hand
    ``player`` is dealt into; records the stacks as before that hand."""

    def __init__(self, player: str, times: int = 1) -> None:
        self.player = player
        self.times = times
        self.armed = threading.Event()
        self.fired: list[dict[str, int]] = []
        self.table: Any = None

    def __call__(self, point: str) -> None:
        t = self.table
        if point != "engine_applied" or not self.armed.is_set() or len(self.fired) >= self.times:
            return
        rec = t.hand_record if t is not None else None
        if rec is None or self.player not in rec.players:
            return
        self.fired.append({s.player_id: s.stack for s in t.seats.values()})
        raise TableCrashed("fault injected in the handling of an action")


def _audit_clean(url: str) -> None:
    with open_store(url) as store:
        report = store.audit()
        assert report.ok, report


def _settled_at(srv: LiveServer, table_id: str) -> int:
    return _live(srv, table_id).hands


def _table_crashed_logs(records: Sequence[logging.LogRecord]) -> list[logging.LogRecord]:
    return [r for r in records if getattr(r, "event", None) == "table_crashed"]


def test_action_fault_voids_the_hand_and_play_goes_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """R-CRASH-1 (supervision): an exception inside the table's handling of an action is
    logged (``table_crashed``); the table is restored from its journal while the server
    runs: the player sees ``hand_voided`` (reason ``crash``), every stack is as before the
    hand, the other table keeps playing, the faulted table plays on, and after the player
    cashes out the ledger audit is clean."""
    caplog.set_level(logging.INFO, logger="croupier.table")

    async def scenario(srv: LiveServer) -> None:
        token, uid, chips = await asyncio.to_thread(_account, srv.url, "alice")
        me = str(uid)
        live = _live(srv, TABLE)
        fault = ActionFault(me)
        fault.table = live.actor.table
        live.actor.table.faults = fault
        player = Player(await Client.open(srv.ws_url, token), me)
        await player.sit()
        await player.wait(
            lambda: any(me in f["event"]["players"] for f in player.of("hand_began")),
            "a hand with alice",
        )
        fault.armed.set()
        await player.wait(lambda: bool(player.of("hand_voided")), "hand_voided", timeout=90)
        other_before = _settled_at(srv, OTHER)
        voided = player.of("hand_voided")[-1]
        assert voided["event"]["reason"] == "crash"
        assert fault.fired, "the fault did not fire"
        before = fault.fired[0]
        # the restored table: every stack as before the voided hand, seats kept
        table = live.actor.table
        assert live.actor.alive and live.actor.crashes == 1
        assert {s.player_id: s.stack for s in table.seats.values()} == before
        assert dict(voided["event"]["stacks"]) == {
            s.seat: before[s.player_id] for s in table.seats.values()
        }
        epochs = {f["epoch"] for f in player.events}
        assert voided["epoch"] == max(epochs) and len(epochs) == 2  # a new event epoch
        # play goes on at both tables
        settled = len(player.of("hand_settled"))
        await player.wait(
            lambda: len(player.of("hand_settled")) >= settled + 2,
            "hands after the void",
            timeout=90,
        )
        await player.wait(lambda: _settled_at(srv, OTHER) > other_before, "the other table")
        cashed = await player.leave()
        await player.close()
        assert await asyncio.to_thread(_chips, srv.url, token) == chips - BUY_IN + cashed
        assert srv.app.state.services.registry.tables[OTHER].actor.crashes == 0

    with running(_settings(database_url)) as srv:
        asyncio.run(asyncio.wait_for(scenario(srv), 180))
        assert httpx.get(srv.url + "/health").status_code == 200
    logs = _table_crashed_logs(caplog.records)
    assert logs and logs[0].table == TABLE and logs[0].supervised is True  # type: ignore[attr-defined]
    assert logs[0].exc_info is not None
    assert any(getattr(r, "event", None) == "table_restored" for r in caplog.records)
    _audit_clean(database_url)


class JournalFault:
    """Make the journal write of ``table_id``'s next settlement with ``player`` fail (in
    the background writer, like a database error), once ``armed``."""

    def __init__(self, inner: Any, table_id: str, player: str) -> None:
        self.inner = inner
        self.original = inner.append_many
        self.table_id = table_id
        self.player = player
        self.armed = threading.Event()
        self.failed: list[HandEndRecord] = []

    def __call__(self, items: Sequence[tuple[str, Record]]) -> None:
        for table_id, record in items:
            if any(record is r for r in self.failed):  # a retry fails the same way
                raise OSError("fault injected in the journal write (again)")
            if (
                self.armed.is_set()
                and not self.failed
                and table_id == self.table_id
                and isinstance(record, HandEndRecord)
                and any(s.player_id == self.player for s in record.seats)
            ):
                self.failed.append(record)
                raise OSError("fault injected in the journal write")
        self.original(items)


def test_journal_write_fault_voids_the_hand_and_play_goes_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """R-CRASH-1 (supervision): the journal cannot make a hand's settlement durable; the
    settlement is never published, the table is restored from what is durable: the hand
    is voided, every stack is its start-of-hand value, play goes on and the audit is
    clean."""
    caplog.set_level(logging.INFO, logger="croupier.table")

    async def scenario(srv: LiveServer) -> None:
        token, uid, chips = await asyncio.to_thread(_account, srv.url, "bob")
        me = str(uid)
        registry = srv.app.state.services.registry
        inner = registry.journal.inner
        fault = JournalFault(inner, TABLE, me)
        inner.append_many = fault
        player = Player(await Client.open(srv.ws_url, token), me)
        await player.sit()
        await player.wait(
            lambda: any(me in f["event"]["players"] for f in player.of("hand_began")),
            "a hand with bob",
        )
        fault.armed.set()
        await player.wait(lambda: bool(player.of("hand_voided")), "hand_voided", timeout=90)
        assert fault.failed
        hand_no = fault.failed[0].hand_no
        voided = player.of("hand_voided")[-1]["event"]
        assert voided["reason"] == "crash" and voided["hand_no"] == hand_no
        # the failed settlement was never published to the player
        assert not [f for f in player.of("hand_settled") if f["event"]["hand_no"] == hand_no]
        start = await asyncio.to_thread(registry.store.journal.hand_start, TABLE, hand_no)
        live = _live(srv, TABLE)
        stacks = {s.player_id: s.stack for s in live.actor.table.seats.values()}
        assert {s.player_id: s.stack for s in start.seats} == stacks
        assert await asyncio.to_thread(registry.store.journal.hand_status, TABLE, hand_no) == "void"
        settled = len(player.of("hand_settled"))
        await player.wait(
            lambda: len(player.of("hand_settled")) >= settled + 2,
            "hands after the void",
            timeout=90,
        )
        cashed = await player.leave()
        await player.close()
        assert await asyncio.to_thread(_chips, srv.url, token) == chips - BUY_IN + cashed

    with running(_settings(database_url)) as srv:
        asyncio.run(asyncio.wait_for(scenario(srv), 180))
    assert any(getattr(r, "event", None) == "table_restored" for r in caplog.records)
    _audit_clean(database_url)


def test_repeated_crashes_close_the_table_with_chips_home(database_url: str) -> None:
    """R-CRASH-1 (supervision gives up): a table that crashes again and again is closed:
    every stack goes back to its owner's account (the player sees ``player_left`` and
    ``table_closed``), the table leaves the lobby, the other table plays on, and the audit
    is clean."""

    async def scenario(srv: LiveServer) -> None:
        token, uid, chips = await asyncio.to_thread(_account, srv.url, "carol")
        me = str(uid)
        live = _live(srv, TABLE)
        live.actor.supervise(Supervision(max_crashes=2, window_seconds=600))
        fault = ActionFault(me, times=10)
        player = Player(await Client.open(srv.ws_url, token), me)
        await player.sit()

        def every_table(point: str) -> None:
            fault.table = live.actor.table
            fault(point)

        live.actor.table.faults = every_table  # carried to each restored table
        await player.wait(
            lambda: any(me in f["event"]["players"] for f in player.of("hand_began")),
            "a hand with carol",
        )
        fault.armed.set()
        await player.wait(lambda: not live.actor.alive, "the table given up", timeout=120)
        await player.wait(lambda: bool(player.closed), "table_closed")
        assert len(fault.fired) == 2 and live.actor.gave_up
        left = [f for f in player.of("player_left") if f["event"]["player_id"] == me]
        assert left and left[-1]["event"]["reason"] == "restart"
        cashed = int(left[-1]["event"]["cashed_out"])
        assert cashed == fault.fired[-1][me]  # the stack as before the voided hand
        assert player.closed[-1]["reason"] == "crashed"
        registry = srv.app.state.services.registry
        assert TABLE not in registry.tables
        assert await asyncio.to_thread(_chips, srv.url, token) == chips - BUY_IN + cashed
        assert await asyncio.to_thread(registry.store.ledger.escrow, TABLE) == {}
        other = _settled_at(srv, OTHER)
        await player.wait(lambda: _settled_at(srv, OTHER) > other, "the other table")
        lobby = httpx.get(srv.url + "/api/tables", timeout=10)
        if lobby.status_code == 200:
            assert TABLE not in {t["table_id"] for t in lobby.json()}
        await player.close()

    with running(_settings(database_url)) as srv:
        asyncio.run(asyncio.wait_for(scenario(srv), 180))
    _audit_clean(database_url)
