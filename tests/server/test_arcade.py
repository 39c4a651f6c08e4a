"""The arcade through the player's layer (seed 000, issue #14): points earned at a real
arcade table over the WebSocket reach the accounts; the points shop over HTTP (buy, refuse
when short, idempotent retry, equip seen by the other players at the table); bound and
unbound diamonds; the quick match's gathering window and feedback; the availability
windows; level-up rewards."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.engine.cards import Card
from croupier.table.journal import HandEndRecord, HandStartRecord
from croupier.table.seating import Seat
from tests.server.live import (
    ORIGIN,
    Client,
    LiveServer,
    fast_settings,
    register_and_login,
    running,
)
from tests.waiting import async_wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("arcade") / "db.sqlite3"
    settings = fast_settings(
        f"sqlite:///{path}",
        arcade_min_level=0,
        quick_match_wait_seconds=0.6,
        default_tables=False,
    )
    with running(settings) as srv:
        yield srv


def _http(srv: LiveServer, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=srv.url, headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    )


def _fund(srv: LiveServer, token: str, diamonds: int = 400) -> int:
    with _http(srv, token) as h:
        r = h.post("/api/exchange", json={"diamonds": diamonds, "key": f"fund-{token[:16]}"})
        assert r.status_code == 200, r.text
        return int(r.json()["id"])


def _answer(table_id: str, ev: dict[str, Any], aggressive: bool) -> dict[str, Any]:
    legal = ev["view"]["legal"]
    if legal.get("show_or_muck"):
        return {"type": "show", "table_id": table_id, "show": True}
    if aggressive and legal["can_raise"]:
        amount = legal["min_raise"]
        return {"type": "act", "table_id": table_id, "action": "raise", "amount": amount}
    if legal["can_check"]:
        return {"type": "act", "table_id": table_id, "action": "check"}
    if legal["can_call"]:
        return {"type": "act", "table_id": table_id, "action": "call"}
    return {"type": "act", "table_id": table_id, "action": "fold"}


async def _play(
    c: Client, table_id: str, me: str, hands: int, aggressive: bool, timeout: float = 90.0
) -> list[dict[str, Any]]:
    """Answer every turn until ``hands`` hands are settled (or a player is busted), then
    leave; returns every
    ``hand_ended`` event seen with the players of its hand."""
    ended: list[dict[str, Any]] = []
    players: list[str] = []
    leaving = busted = False
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await c.recv(max(0.1, deadline - loop.time()))
        if frame["type"] != "event" or frame.get("table_id") != table_id:
            continue
        ev = frame["event"]
        if ev["type"] == "hand_began":
            players = list(ev["players"])
        elif ev["type"] == "hand_ended":
            ended.append({**ev, "players": players})
            busted = 0 in ev["stacks"]  # heads-up, a busted player ends the match
        elif ev["type"] == "turn" and ev.get("view") and ev.get("player_id") == me:
            await c.send({**_answer(table_id, ev, aggressive), "id": c.next_id()})
        elif ev["type"] == "player_left" and ev["player_id"] == me:
            return ended
        if (len(ended) >= hands or busted) and not leaving:
            leaving = True
            await c.send({"type": "leave", "table_id": table_id, "id": c.next_id()})


def _expected_points(ended: list[dict[str, Any]]) -> dict[str, int]:
    """R-RAKE-3 recomputed from what the table sent: per pot with two or more
    contributors, levy = max(1, ⌈20 % of the pot⌉); each contributor gets
    ⌈levy × 10 × their share of the pot⌉ points."""
    out: dict[str, int] = {}
    for hand in ended:
        for pot in hand["pots"]:
            contributions = pot["contributions"]
            if sum(1 for x in contributions if x > 0) < 2:
                continue
            levy = max(1, -(-pot["amount"] * 20 // 100))
            assert pot["rake"] == levy
            for pos, given in enumerate(contributions):
                if given:
                    pid = hand["players"][pos]
                    out[pid] = out.get(pid, 0) + -(-levy * 10 * given // pot["amount"])
    return out


def test_arcade_hands_over_the_websocket_credit_points(server: LiveServer) -> None:
    """R-RAKE-3, R-SEAT-2, R-ACC-1: two players meet in the quick match, play arcade hands
    over the WebSocket and leave; each account then holds exactly the points the levy of
    those hands gives (levy × 10 shared by contribution, rounded up), credited in the
    hands' settlement transfers; the audit (arcade checks included) finds nothing."""
    _points_scenario(server, "arcade")


def test_arcade_points_on_sqlite_and_postgresql(database_url: str) -> None:
    """R-RAKE-3, R-ACC-1: the same points path on each database of the room (SQLite and
    PostgreSQL), on a server of its own."""
    settings = fast_settings(
        database_url, arcade_min_level=0, quick_match_wait_seconds=0.6, default_tables=False
    )
    with running(settings) as srv:
        _points_scenario(srv, "db")


def _points_scenario(server: LiveServer, prefix: str) -> None:
    names = (f"{prefix}_ann", f"{prefix}_bob")
    tokens = {n: register_and_login(server.url, n) for n in names}
    ids = {n: str(_fund(server, t)) for n, t in tokens.items()}

    async def go() -> list[dict[str, Any]]:
        clients = {n: await Client.open(server.ws_url, t) for n, t in tokens.items()}
        for c in clients.values():
            ack = await c.command({"type": "quick_match"})
            assert ack["accepted"], ack
        matched = [await c.expect("matched", timeout=15) for c in clients.values()]
        table_id = matched[0]["table_id"]
        assert table_id.startswith("arcade-qm-") and all(m["seated"] for m in matched)
        assert {m["table_id"] for m in matched} == {table_id}
        for c in clients.values():
            await c.send({"type": "subscribe", "table_id": table_id})
            await c.expect("subscribed")
        results = await asyncio.gather(
            *(
                _play(c, table_id, ids[n], hands=4, aggressive=(n == names[0]))
                for n, c in clients.items()
            )
        )
        for c in clients.values():
            await c.close()
        return results[0]

    ended = asyncio.run(go())
    expected = _expected_points(ended)
    assert expected and all(v > 0 for v in expected.values())
    for name, token in tokens.items():
        with _http(server, token) as h:
            me = h.get("/api/me").json()
        assert me["points"] == expected[ids[name]], (name, me, expected)
        assert me["points"] == sum(
            p
            for hand in ended
            for pos, p in enumerate(hand["points"])
            if hand["players"][pos] == ids[name]
        )
    report = server.app.state.services.store.audit()
    assert report.ok, report.discrepancies
    assert report.issued["points"] >= sum(expected.values())


def _earn_points(srv: LiveServer, user_id: int, points: int) -> None:
    """Points from a settled arcade hand journaled by the store (as a table writes it):
    a hand whose outcome credits ``points`` to ``user_id`` and moves no chips."""
    store = srv.app.state.services.store
    table = f"arcade-fixture-{user_id}-{secrets.token_hex(3)}"
    seats = (Seat(0, str(user_id), stack=0),)
    deck = tuple(Card(n) for n in range(52))
    store.journal.append(
        table,
        HandStartRecord(
            1,
            seats,
            (0,),
            (str(user_id),),
            (0,),
            0,
            hashlib.sha256(table.encode()).hexdigest(),
            deck,
            b"salt",
        ),
    )
    store.journal.append(table, HandEndRecord(1, seats, (0,), 0, (points,)))


def test_points_shop_buy_refuse_retry_and_equip_seen_by_others(server: LiveServer) -> None:
    """R-ACC-1 (points shop): an item is bought with points only, once (a retry charges
    nothing), refused with ``insufficient_points`` when short (nothing changes); equipping
    needs the item; the other players at the table see the equipped avatar and card back
    in the seat data of the WebSocket (snapshot, ``player_seated``, and ``look``)."""
    tokens = {n: register_and_login(server.url, n) for n in ("shop_cleo", "shop_dan")}
    ids = {n: _fund(server, t) for n, t in tokens.items()}
    _earn_points(server, ids["shop_cleo"], 700)
    with _http(server, tokens["shop_cleo"]) as h:
        shop = h.get("/api/shop").json()
        assert shop["points"] == 700
        assert shop["equipped"]["avatar"] == "avatar_default"
        assert {i["slot"] for i in shop["items"]} == {"card_back", "felt", "avatar", "emotes"}
        r = h.post("/api/shop/buy", json={"item": "avatar_crown"})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "insufficient_points")
        assert h.get("/api/me").json()["points"] == 700
        r = h.post("/api/shop/equip", json={"item": "avatar_fox"})
        assert (r.status_code, r.json()["error"]["code"]) == (409, "not_owned")
        r = h.post("/api/shop/buy", json={"item": "avatar_fox"})
        assert r.status_code == 200 and r.json()["replayed"] is False
        assert r.json()["points"] == 500 and "avatar_fox" in r.json()["owned"]
        again = h.post("/api/shop/buy", json={"item": "avatar_fox"})
        assert again.json()["replayed"] is True and again.json()["points"] == 500
        r = h.post("/api/shop/buy", json={"item": "back_crimson"})
        assert r.json()["points"] == 200
        assert h.post("/api/shop/buy", json={"item": "nope"}).json()["error"]["code"] == (
            "unknown_item"
        )
        assert h.post("/api/shop/buy", json={"item": "back_classic"}).status_code == 409
        assert h.post("/api/shop/buy", json={"item": 5}).status_code == 422
        r = h.post("/api/shop/equip", json={"item": "avatar_fox"})
        assert r.json()["equipped"]["avatar"] == "avatar_fox"
    store = server.app.state.services.store
    assert store.ledger.get_transfer(f"shop:{ids['shop_cleo']}:avatar_fox") is not None
    assert store.audit().ok, store.audit().discrepancies

    async def go() -> None:
        cleo = await Client.open(server.ws_url, tokens["shop_cleo"])
        dan = await Client.open(server.ws_url, tokens["shop_dan"])
        for c in (cleo, dan):
            assert (await c.command({"type": "quick_match"}))["accepted"]
        table_id = (await cleo.expect("matched", timeout=15))["table_id"]
        await dan.expect("matched", timeout=15)
        await dan.send({"type": "subscribe", "table_id": table_id})
        snap = await dan.expect("snapshot")
        seats = {s["player_id"]: s for s in snap["snapshot"]["seats"]}
        assert seats[str(ids["shop_cleo"])]["look"]["avatar"] == "avatar_fox"
        assert seats[str(ids["shop_dan"])]["look"]["avatar"] == "avatar_default"
        # Cleo changes her card back while seated: Dan is told at once.
        with _http(server, tokens["shop_cleo"]) as h:
            r = h.post("/api/shop/equip", json={"item": "back_crimson"})
            assert r.status_code == 200
        look = await dan.expect("look", timeout=10)
        assert look["player_id"] == str(ids["shop_cleo"])
        assert look["look"]["card_back"] == "back_crimson"
        with _http(server, tokens["shop_cleo"]) as h:
            r = h.post("/api/shop/equip", json={"slot": "card_back"})
            assert r.json()["equipped"]["card_back"] == "back_classic"
            assert h.post("/api/shop/equip", json={"slot": "hat"}).status_code == 409
        for c in (cleo, dan):
            await c.send({"type": "leave", "table_id": table_id, "id": c.next_id()})
            await c.close()

    asyncio.run(go())


def test_diamonds_bound_and_unbound(server: LiveServer) -> None:
    """R-ACC-1: the welcome grant is unbound (it stands for a purchase) and buys chips
    1:1 with no limit; bound diamonds (rewards) show on the account and never buy chips."""
    token = register_and_login(server.url, "gem_eve")
    with _http(server, token) as h:
        me = h.get("/api/me").json()
        assert (me["diamonds"], me["bound_diamonds"]) == (1000, 0)
        server.app.state.services.store.ledger.grant_bound_diamonds(
            me["id"], 50, key=f"gift:{me['id']}:test"
        )
        r = h.post("/api/exchange", json={"diamonds": 1000, "key": "all-of-them-1"})
        assert r.status_code == 200 and r.json()["chips"] == 1000
        r = h.post("/api/exchange", json={"diamonds": 1, "key": "one-more-0001"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "insufficient_funds"
        me = h.get("/api/me").json()
        assert (me["diamonds"], me["bound_diamonds"], me["chips"]) == (0, 50, 1000)


def test_quick_match_feedback_gathering_window_and_cancel(server: LiveServer) -> None:
    """R-SEAT-2: a lone player is told they are alone and how long they have waited; a
    second player opens the gathering window (both are told when the table starts); a
    player can cancel at any time and the others hear the new count."""
    tokens = [register_and_login(server.url, f"qm_{n}") for n in ("fay", "gus", "hal")]
    for t in tokens:
        _fund(server, t)
    services = server.app.state.services

    async def go() -> None:
        fay, gus, hal = [await Client.open(server.ws_url, t) for t in tokens]
        services.quick.wait_seconds = 3.0
        try:
            assert (await fay.command({"type": "quick_match"}))["accepted"]
            first = await fay.expect("quick_match_status")
            assert first["alone"] is True and first["waiting"] == 1
            assert first["starts_in"] is None
            later = await fay.expect("quick_match_status", timeout=5)
            assert later["waited"] >= first["waited"]
            assert (await gus.command({"type": "quick_match"}))["accepted"]
            status = await fay.expect("quick_match_status", waiting=2)
            assert status["alone"] is False and 0 < status["starts_in"] <= 3.0
            assert (await hal.command({"type": "quick_match"}))["accepted"]
            assert (await hal.command({"type": "quick_match", "cancel": True}))["accepted"]
            await fay.expect("quick_match_status", waiting=2)
            matched = [await c.expect("matched", timeout=10) for c in (fay, gus)]
            assert matched[0]["table_id"] == matched[1]["table_id"]
            assert "hal" not in str(services.quick.players())
        finally:
            services.quick.wait_seconds = 0.6
        for c in (fay, gus, hal):
            await c.close()

    asyncio.run(go())


def test_arcade_hours_close_the_quick_match(tmp_path: Path) -> None:
    """Seed 000 "l'icône apparaît quand l'activité est disponible": outside the arcade's
    windows the lobby says it is closed and the quick match refuses with
    ``arcade_closed``; a bad window is refused with a clear message."""
    import time

    hour = time.gmtime().tm_hour
    closed = f"{(hour + 2) % 24:02d}:00-{(hour + 3) % 24:02d}:00"
    settings = fast_settings(
        f"sqlite:///{tmp_path / 'a.sqlite3'}", arcade_hours=closed, default_tables=False
    )
    with running(settings) as srv:
        assert httpx.get(srv.url + "/api/arcade").json()["open"] is False
        token = register_and_login(srv.url, "late_ivy")

        async def go() -> None:
            c = await Client.open(srv.ws_url, token)
            await c.send({"type": "subscribe"})
            lobby = await c.expect("lobby")
            assert lobby["arcade_open"] is False
            ack = await c.command({"type": "quick_match"})
            assert (ack["accepted"], ack["code"]) == (False, "arcade_closed")
            await c.close()

        asyncio.run(go())
    from croupier.lobby import LobbyError
    from croupier.lobby.arcade import parse_schedule

    with pytest.raises(LobbyError, match="bad arcade window"):
        parse_schedule("x")  # what the server's start runs on CROUPIER_ARCADE_HOURS


def test_level_up_grants_bound_diamonds_and_is_announced(server: LiveServer) -> None:
    """Levels: the hand that takes a player to a new level (here 95 → 105 experience:
    level 2) grants that level's bound-diamond reward, once, and announces ``level_up``
    on their connection; the account shows the next level's experience."""
    tokens = {n: register_and_login(server.url, n) for n in ("lvl_jo", "lvl_kim")}
    ids = {n: _fund(server, t) for n, t in tokens.items()}
    services = server.app.state.services
    for uid in ids.values():
        services.store.users.add_experience(uid, 95, 0, 0)

    async def go() -> dict[str, Client]:
        clients = {n: await Client.open(server.ws_url, t) for n, t in tokens.items()}
        for c in clients.values():
            assert (await c.command({"type": "quick_match"}))["accepted"]
        table_id = (await clients["lvl_jo"].expect("matched", timeout=15))["table_id"]
        await clients["lvl_kim"].expect("matched", timeout=15)
        for c in clients.values():
            await c.send({"type": "subscribe", "table_id": table_id})
            await c.expect("subscribed")
        await asyncio.gather(
            *(_play(c, table_id, str(ids[n]), 1, False) for n, c in clients.items())
        )
        for c in clients.values():
            with contextlib.suppress(TimeoutError):
                await c.expect("level_up", timeout=2)
            await c.close()
        return clients

    clients = asyncio.run(go())
    for name, token in tokens.items():
        ups = [f for f in clients[name].frames if f["type"] == "level_up"]
        assert len(ups) == 1 and ups[0]["level"] == 2 and ups[0]["bound_diamonds"] == 10
        with _http(server, token) as h:
            me = h.get("/api/me").json()
        assert (me["level"], me["bound_diamonds"]) == (2, 10)
        assert me["next_level_experience"] == 250


def test_quick_match_refuses_a_player_without_the_buy_in(server: LiveServer) -> None:
    """R-SEAT-1, R-SEAT-2: a player without the 80 chips of the quick match's buy-in is
    told so when queuing (``insufficient_chips``), not left to wait for a table that
    cannot seat them; the queue is unchanged."""
    token = register_and_login(server.url, "broke_lou")

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        before = len(server.app.state.services.quick)
        ack = await c.command({"type": "quick_match"})
        assert (ack["accepted"], ack["code"]) == (False, "insufficient_chips"), ack
        assert len(server.app.state.services.quick) == before
        await c.close()

    asyncio.run(go())


def test_quick_match_tables_stay_out_of_the_lobby_and_close_when_left(
    server: LiveServer,
) -> None:
    """R-SEAT-2: a quick-match table holds matched players only: the lobby never lists it,
    and once all its players have left it is closed (checked twice, 10 s apart)."""
    tokens = {n: register_and_login(server.url, n) for n in ("gone_max", "gone_ned")}
    for t in tokens.values():
        _fund(server, t)
    registry = server.app.state.services.registry

    async def go() -> str:
        clients = [await Client.open(server.ws_url, t) for t in tokens.values()]
        for c in clients:
            assert (await c.command({"type": "quick_match"}))["accepted"]
        table_id = str((await clients[0].expect("matched", timeout=15))["table_id"])
        await clients[1].expect("matched", timeout=15)
        listed = httpx.get(server.url + "/api/tables").json()
        assert table_id not in {t["table_id"] for t in listed}
        for c in clients:
            await c.send({"type": "subscribe", "table_id": table_id})
            await c.expect("subscribed")
            await c.send({"type": "leave", "table_id": table_id, "id": c.next_id()})
        try:
            await async_wait_until(
                lambda: table_id not in registry.tables, 40, "the emptied arcade table to close"
            )
        finally:
            for c in clients:
                await c.close()
        return table_id

    table_id = asyncio.run(go())
    assert table_id not in registry.tables
    report = server.app.state.services.store.audit()
    assert report.ok, report.discrepancies
