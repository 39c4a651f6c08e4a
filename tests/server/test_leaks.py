"""Leak audit: every frame sent to every connection in a multi-table bot run is checked —
no card reaches a recipient who may not see it (R-FAIR-1, R-BOT-1)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import ORIGIN, Client, fast_settings, register_and_login, running

WATCHED = ["nlhe-1-2", "plo-1-2", "flhe-2-4", "naiko-1-2"]


class Leak(AssertionError):
    pass


def _hidden(cards: list[Any], up: list[bool]) -> bool:
    """Whether any down card is visible."""
    return any(c is not None and not u for c, u in zip(cards, up, strict=True))


def check_frame(frame: dict[str, Any], me: str | None) -> int:
    """Raise :class:`Leak` if ``frame`` shows ``me`` a card they may not see; returns how
    many of ``me``'s own down cards it shows (a positive control)."""
    own = 0
    if frame["type"] == "event":
        ev, players = frame["event"], frame["players"]
        pos = players.index(me) if me in players else None
        kind = ev["type"]
        if kind == "hole_dealt":
            if ev["player"] == pos:
                own += sum(1 for c in ev["cards"] if c is not None)
            elif _hidden(ev["cards"], ev["up"]):
                raise Leak(f"{me} saw a down card of position {ev['player']}: {frame}")
        elif kind == "card_burnt" and ev["card"] is not None:
            raise Leak(f"{me} saw a burnt card: {frame}")
        elif kind == "drew" and ev["player"] != pos:
            if any(c is not None for c in ev["discarded"] + ev["received"]):
                raise Leak(f"{me} saw another player's draw: {frame}")
        elif kind == "turn" and ev.get("view") is not None:
            if ev["player_id"] != me:
                raise Leak(f"{me} got another player's turn view: {frame}")
            for q, p in enumerate(ev["view"]["players"]):
                if q != ev["position"] and not p["shown"] and _hidden(p["cards"], p["up"]):
                    raise Leak(f"turn view shows position {q}'s cards to {me}")
    elif frame["type"] == "snapshot":
        snap = frame["snapshot"]
        hand = snap["hand"]
        if hand is not None:
            by_seat = {s["seat"]: s["player_id"] for s in snap["seats"]}
            for q, p in enumerate(hand["players"]):
                owner = by_seat.get(snap["hand_seats"][q])
                if owner != me and not p["shown"] and _hidden(p["cards"], p["up"]):
                    raise Leak(f"snapshot shows {owner}'s cards to {me}")
    return own


async def _run(ws: str, token: str | None, me: str | None, seconds: float) -> list[dict[str, Any]]:
    client = await Client.open(ws, token)
    try:
        return await _watch(client, me, seconds)
    finally:
        await client.close()


async def _watch(client: Client, me: str | None, seconds: float) -> list[dict[str, Any]]:
    for tid in WATCHED:
        await client.send({"type": "subscribe", "table_id": tid})
    if me is not None:
        ack = await client.command(
            {"type": "sit", "table_id": "nlhe-1-2", "buy_in": 100, "post_big_blind": True}
        )
        assert ack["accepted"], ack
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        try:
            frame = await client.recv(max(0.05, end - loop.time()))
        except TimeoutError:
            break
        if frame["type"] == "event" and frame["event"]["type"] == "turn":
            ev = frame["event"]
            if ev.get("view") and ev["player_id"] == me:
                legal = ev["view"]["legal"]
                action = "check" if legal and legal["can_check"] else "fold"
                if ev["phase"] == "showdown":
                    msg = {"type": "show", "table_id": frame["table_id"], "show": False}
                else:
                    msg = {"type": "act", "table_id": frame["table_id"], "action": action}
                await client.send({**msg, "id": client.next_id()})
    # a resync mid-run is checked too
    await client.send({"type": "resync", "table_id": "nlhe-1-2"})
    await client.expect("snapshot", "error")
    return client.frames


@pytest.mark.slow
def test_no_frame_leaks_a_card_in_a_multi_table_bot_run(tmp_path: Path) -> None:
    """R-FAIR-1: players, a spectator and a guest at four bot tables: no frame shows a
    down card, a burnt card or another player's draw to anyone but its owner."""
    settings = fast_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with running(settings) as srv:
        tokens = {n: register_and_login(srv.url, n) for n in ("ann", "ben", "cid")}
        ids = {}
        for name, tok in tokens.items():
            r = httpx.post(
                srv.url + "/api/exchange",
                json={"diamonds": 200, "key": f"leak-{name}-1"},
                headers={"Authorization": f"Bearer {tok}", "Origin": ORIGIN},
            )
            ids[name] = str(r.json()["id"])

        async def everyone() -> list[tuple[str | None, list[dict[str, Any]]]]:
            runs = [
                _run(srv.ws_url, tokens["ann"], ids["ann"], 4.0),
                _run(srv.ws_url, tokens["ben"], ids["ben"], 4.0),
                _run(srv.ws_url, tokens["cid"], None, 4.0),  # an account that only watches
                _run(srv.ws_url, None, None, 4.0),  # a guest
            ]
            frames = await asyncio.gather(*runs)
            who = [ids["ann"], ids["ben"], ids["cid"], None]
            return list(zip(who, frames, strict=True))

        results = asyncio.run(everyone())
    total = 0
    for me, frames in results:
        viewer = None if me == ids.get("cid") else me
        own = sum(check_frame(f, viewer) for f in frames)
        total += len(frames)
        if me in (ids["ann"], ids["ben"]):
            assert own > 0, "a seated player sees their own hole cards"
    assert total > 500
    hole = [
        f
        for _, fs in results
        for f in fs
        if f["type"] == "event" and f["event"]["type"] == "hole_dealt"
    ]
    assert hole, "the run dealt hands"


def test_leak_checker_catches_a_leak() -> None:
    """The checker can fail: a down card of someone else is reported."""
    frame = {
        "type": "event",
        "players": ["1", "2"],
        "event": {"type": "hole_dealt", "player": 1, "cards": ["As", "Kd"], "up": [False, False]},
    }
    try:
        check_frame(frame, "1")
    except Leak:
        return
    raise AssertionError("leak not caught")
