"""Tournaments over HTTP (R-TOUR-1, R-TOUR-2, R-TOUR-4, R-BOT-1): the lobby lists them;
a logged-in player registers (buy-in from the account to the pool), is refused with codes
that change nothing, unregisters (refunded), and fills a Sit & Go with BOT seats."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import (
    ORIGIN,
    Client,
    LiveServer,
    fast_settings,
    register_and_login,
    running,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path: Path = tmp_path_factory.mktemp("tour") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}")) as srv:
        yield srv


def _post(srv: LiveServer, path: str, token: str, body: Any = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Origin": ORIGIN}
    return httpx.post(srv.url + path, json=body, headers=headers, timeout=30)


def _chips(srv: LiveServer, token: str) -> int:
    r = httpx.get(srv.url + "/api/me", headers={"Authorization": f"Bearer {token}"})
    return int(r.json()["chips"])


def test_list_register_refusals_unregister_and_fill(server: LiveServer) -> None:
    """R-TOUR-1, R-TOUR-2, R-TOUR-4, R-BOT-1: see the module docstring."""
    rows = httpx.get(server.url + "/api/tournaments").json()
    by_id = {r["id"]: r for r in rows}
    assert by_id["sng-6"]["kind"] == "sitngo" and by_id["sng-6"]["status"] == "registering"
    assert by_id["spin-10"]["expected_return"] == pytest.approx(0.93)
    assert by_id["spin-10"]["multipliers"][0] == {
        "multiplier": 2,
        "ppm": 773_800,
        "shares_bp": [10_000],
        "prizes": [20],
        "level_seconds": 120.0,
    }
    token = register_and_login(server.url, "tourist")
    # no chips yet: refused, nothing moved
    r = _post(server, "/api/tournaments/sng-6/register", token)
    assert r.status_code == 409 and r.json()["error"]["code"] == "insufficient_funds"
    r = _post(server, "/api/exchange", token, {"diamonds": 300, "key": "tourist-0001"})
    assert r.status_code == 200
    assert _chips(server, token) == 300
    r = _post(server, "/api/tournaments/nope/register", token)
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_tournament"
    r = _post(server, "/api/tournaments/sng-6/fill", token)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_registered"
    r = _post(server, "/api/tournaments/sng-6/register", token)
    assert r.status_code == 200 and r.json()["entrants"] == 1 and r.json()["pool"] == 100
    assert _chips(server, token) == 200
    r = _post(server, "/api/tournaments/sng-6/register", token)
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_registered"
    assert _chips(server, token) == 200
    r = _post(server, "/api/tournaments/sng-6/unregister", token)
    assert r.status_code == 200 and r.json()["entrants"] == 0
    assert _chips(server, token) == 300
    r = _post(server, "/api/tournaments/sng-6/register", token)
    assert r.status_code == 200
    r = _post(server, "/api/tournaments/sng-6/fill", token)
    assert r.status_code == 200, r.text
    row = r.json()
    assert row["status"] == "running" and row["entrants"] == 6 and row["prizes"] == [390, 210]
    assert len(row["tables"]) == 1
    services = server.app.state.services
    director = services.tournaments.get("sng-6").director
    seats = next(iter(director.actors.values())).table.seats.values()
    names = {s.player_id: s.name for s in seats}
    assert len(names) == 6
    bots = [n for n in names.values() if n != "tourist"]
    assert len(bots) == 5 and all(n.startswith("BOT ") for n in bots)
    r = _post(server, "/api/tournaments/sng-6/register", token)
    assert r.status_code == 409 and r.json()["error"]["code"] == "registration_closed"
    listed = {r["id"]: r["status"] for r in httpx.get(server.url + "/api/tournaments").json()}
    assert listed["sng-6"] == "running" and listed["sng-6.2"] == "registering"
    doc = httpx.get(server.url + "/openapi.json").json()
    assert "/api/tournaments" in doc["paths"]


def test_a_human_plays_a_spin_over_the_websocket(server: LiveServer) -> None:
    """R-TOUR-2, R-TOUR-4, R-BOT-1: a registered player fills a Spin with two BOT seats,
    finds their table in the lobby row, plays it over the WebSocket (each turn answered
    and accepted); tournament tables are not in the lobby's table list; sitting down
    there with account chips is refused (tournament chips only)."""
    token = register_and_login(server.url, "spinner")
    assert _post(server, "/api/exchange", token, {"diamonds": 50, "key": "spinner-01"}).is_success
    assert _post(server, "/api/tournaments/spin-10/register", token).status_code == 200
    row = _post(server, "/api/tournaments/spin-10/fill", token).json()
    assert row["status"] == "running" and row["entrants"] == 3
    assert row["multiplier"] in (2, 4, 6, 10, 25, 100, 200, 1000)
    me = str(
        httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}).json()["id"]
    )
    table_id = row["seating"][me]
    listed = {t["table_id"] for t in httpx.get(server.url + "/api/tables").json()}
    assert table_id not in listed

    async def go() -> tuple[int, int]:
        c = await Client.open(server.ws_url, token)
        # from version 0: the turn already waiting for us is replayed
        await c.send({"type": "subscribe", "table_id": table_id, "since": 0})
        await c.send({"type": "sit", "table_id": table_id, "buy_in": 10, "id": "sit-1"})
        answered = settled = 0
        refused: list[str] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        out = False  # eliminated (the Spin may end fast)
        while (answered < 2 or settled < 2) and not out and loop.time() < deadline:
            frame = await c.recv(max(0.1, deadline - loop.time()))
            if frame["type"] == "ack" and frame["id"] == "sit-1":
                refused.append(frame["code"])
            elif frame["type"] == "ack":
                assert frame["accepted"] or frame["code"] == "not_your_turn", frame
            elif frame["type"] == "event":
                ev = frame["event"]
                if ev["type"] == "turn" and ev.get("view") and ev.get("player_id") == me:
                    legal = ev["view"]["legal"]
                    msg: dict[str, Any] = {"table_id": table_id, "id": c.next_id()}
                    if ev["phase"] == "showdown":
                        msg |= {"type": "show", "show": True}
                    else:
                        action = "check" if legal["can_check"] else "call"
                        msg |= {"type": "act", "action": action}
                    await c.send(msg)
                    answered += 1
                elif ev["type"] == "hand_settled":
                    settled += 1
                elif ev["type"] == "player_left" and ev["player_id"] == me:
                    out = True
        await c.close()
        assert refused == ["already_seated"]
        return answered, settled

    answered, settled = asyncio.run(go())
    assert answered >= 1 and settled >= 1


def test_the_lobby_shows_the_sit_and_go_structure_and_payouts(server: LiveServer) -> None:
    """R-TOUR-8, R-TOUR-9: the lobby row of the server's Sit & Go (6 seats, regular) shows
    1,500 chips, 10-minute levels from 10/20 with a big-blind ante equal to the big blind
    from level 7, and its one payout tier, 65/35."""
    rows = httpx.get(server.url + "/api/tournaments").json()
    row = next(r for r in rows if r["kind"] == "sitngo" and r["id"].startswith("sng-6"))
    assert row["starting_stack"] == 1500
    assert row["payouts"] == [{"max_entrants": 8, "shares_bp": [6_500, 3_500]}]
    levels = row["levels"]
    assert levels[0] == {"small_blind": 10, "big_blind": 20, "ante": 0, "seconds": 600.0}
    assert levels[6] == {"small_blind": 100, "big_blind": 200, "ante": 200, "seconds": 600.0}
    assert [lv["big_blind"] for lv in levels[7:15]] == [400, 600, 800, 1200, 1600, 2000, 3000, 4000]


def test_a_room_on_a_shorter_clock_publishes_its_levels(tmp_path: Path) -> None:
    """R-TOUR-10, R-TOUR-8: ``CROUPIER_LEVEL_SECONDS_SCALE`` (a demo or test room) scales
    the room's own Sit & Go and Spin levels, and the lobby publishes the lengths played;
    a scale that is not > 0 stops the start with a code."""
    from croupier.server.settings import Settings, SettingsError

    assert Settings.from_env({"CROUPIER_LEVEL_SECONDS_SCALE": "0.5"}).level_seconds_scale == 0.5
    for bad in ("0", "-1"):
        with pytest.raises(SettingsError) as err:
            Settings.from_env({"CROUPIER_LEVEL_SECONDS_SCALE": bad})
        assert err.value.code == "bad_delay"
    path = tmp_path / "clock.sqlite3"
    with running(fast_settings(f"sqlite:///{path}", level_seconds_scale=0.5)) as srv:
        rows = {r["id"]: r for r in httpx.get(srv.url + "/api/tournaments").json()}
    spin_levels = [m["level_seconds"] for m in rows["spin-10"]["multipliers"]]
    assert spin_levels == [60.0, 90.0, 90.0, 120.0, 120.0, 150.0, 150.0, 150.0]
    assert rows["spin-10"]["levels"][0]["seconds"] == 60.0
    assert {lv["seconds"] for lv in rows["sng-6"]["levels"]} == {300.0}
    assert [lv["big_blind"] for lv in rows["sng-6"]["levels"][:3]] == [20, 30, 50]
