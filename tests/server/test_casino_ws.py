"""The casino table over the WebSocket: lobby listing, sit, deal, decide, hint, stand,
redacted views, refusals; balances and the ledger audit after the rounds (R-BONUS-1 … 5,
R-ACC-1)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from croupier.store import open_store
from croupier.store.casino import HOUSE_CASINO
from tests.server.live import ORIGIN, Client, fast_settings, register_and_login, running

TABLE = "casino-1"


def _chips(base: str, token: str, diamonds: int) -> int:
    with httpx.Client(
        base_url=base, headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    ) as h:
        r = h.post("/api/exchange", json={"diamonds": diamonds, "key": f"casino-{diamonds}-x"})
        assert r.status_code == 200, r.text
        return int(r.json()["id"])


_CURSOR: dict[int, int] = {}


async def _state(c: Client, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The next casino_state (among the frames received, then new ones) matching pred."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        i = _CURSOR.get(id(c), 0)
        while i < len(c.frames):
            f = c.frames[i]
            i += 1
            if f.get("type") == "casino_state" and pred(f):
                _CURSOR[id(c)] = i
                return f
        _CURSOR[id(c)] = i
        await c.recv(max(0.05, deadline - loop.time()))


def test_two_players_share_a_casino_table(database_url: str) -> None:
    """R-BONUS-1, R-BONUS-2, R-BONUS-3: two accounts sit at the public casino table, bet
    (one ante under the minimum, raised), decide in turn; each sees only their own hole
    cards and never the dealer's before the end; the settlement moves their chips and the
    house's through the ledger, and the audit balances."""

    async def scenario(base: str, ws: str) -> dict[str, int]:
        tokens = {n: register_and_login(base, n) for n in ("carla", "dino")}
        ids = {n: _chips(base, t, 500) for n, t in tokens.items()}
        cs = {n: await Client.open(ws, t) for n, t in tokens.items()}
        # the lobby lists the casino table beside the poker tables
        await cs["carla"].send({"type": "subscribe"})
        lobby = await cs["carla"].expect("lobby")
        assert [r["table_id"] for r in lobby["casino"]] == [TABLE]
        for c in cs.values():
            ack = await c.command({"type": "casino_subscribe", "table_id": TABLE})
            assert ack["accepted"], ack
            info = next(f for f in c.frames if f.get("type") == "casino_info")
            assert info["info"]["chips"] == [1, 5, 25, 100, 500]
            assert abs(info["info"]["returns"]["bonus"] + 0.085406) < 1e-5
            ack = await c.command({"type": "casino_sit", "table_id": TABLE})
            assert ack["accepted"], ack
        # refusals: bonus too large, bad move, not JSON-int amounts
        bad = await cs["carla"].command(
            {"type": "casino_deal", "table_id": TABLE, "ante": 10, "bonus": 26}
        )
        assert not bad["accepted"] and bad["code"] == "bonus_out_of_range"
        await cs["carla"].send({"type": "casino_deal", "table_id": TABLE, "ante": "10", "id": "z1"})
        err = await cs["carla"].expect("error", id="z1")
        assert err["code"] == "invalid"
        ack = await cs["carla"].command(
            {"type": "casino_deal", "table_id": TABLE, "ante": 1, "bonus": 5}
        )
        assert ack["accepted"] and ack["data"] == {"ante": 2, "bonus": 5, "raised": True}
        ack = await cs["dino"].command({"type": "casino_deal", "table_id": TABLE, "ante": 10})
        assert ack["accepted"], ack
        rounds = 0
        while rounds < 3:
            views = {n: await _state(c, lambda f: f["phase"] != "betting") for n, c in cs.items()}
            for n, v in views.items():
                mine = v["you"]["seat"]
                for s in v["seats"]:
                    if s and s["in_round"]:
                        assert (s["hole"] is not None) == (s["seat"] == mine), (n, s)
                assert v["dealer"] is None
            # play the round: whoever is to act decides (play, then bet the turn, check)
            latest = dict(views)
            while latest["carla"]["phase"] != "betting":
                n = next(k for k, v in latest.items() if v["you"]["legal"])
                c, v = cs[n], latest[n]
                other_name = next(k for k in cs if k != n)
                if v["phase"] == "preflop":
                    hint = await c.command({"type": "casino_hint", "table_id": TABLE})
                    assert hint["accepted"] and hint["data"]["advice"]["move"] in ("play", "fold")
                move = {"preflop": "play", "turn": "bet", "river": "check"}[v["phase"]]
                ack = await c.command({"type": "casino_decide", "table_id": TABLE, "move": move})
                assert ack["accepted"], ack
                mine = [f for f in c.frames if f.get("type") == "casino_state"][-1]
                latest[n] = mine
                latest[other_name] = await _state(
                    cs[other_name], lambda f, ver=mine["version"]: f["version"] >= ver
                )
                theirs = latest[other_name]
                if theirs["phase"] != "betting" and not theirs["you"]["legal"]:
                    wrong = await cs[other_name].command(
                        {"type": "casino_decide", "table_id": TABLE, "move": "bet"}
                    )
                    assert not wrong["accepted"]
            rounds += 1
            last = latest["carla"]["last"]
            assert last["dealer"] and len(last["board"]) == 10
            if rounds < 3:
                for c in cs.values():
                    ack = await c.command(
                        {"type": "casino_deal", "table_id": TABLE, "ante": 10, "bonus": 1}
                    )
                    assert ack["accepted"], ack
        for c in cs.values():
            assert (await c.command({"type": "casino_stand", "table_id": TABLE}))["accepted"]
            await c.close()
        return {n: int(i) for n, i in ids.items()}

    settings = fast_settings(database_url, casino_gather_seconds=5.0, casino_decision_seconds=10.0)
    with running(settings) as srv:
        ids = asyncio.run(scenario(srv.url, srv.ws_url))
    with open_store(database_url) as store:
        report = store.audit()
        assert report.ok, report.discrepancies
        total = sum(store.ledger.balances(i).chips for i in ids.values())
        assert total + store.ledger.balance(HOUSE_CASINO) == 1000
        assert store.ledger.balance(HOUSE_CASINO) != 0 or total == 1000


def test_casino_messages_need_login_and_a_known_table(database_url: str) -> None:
    """A guest may watch but not sit; an unknown table is refused with a code."""

    async def scenario(ws: str) -> None:
        guest = await Client.open(ws, None)
        ack = await guest.command({"type": "casino_subscribe", "table_id": TABLE})
        assert ack["accepted"]
        view = next(f for f in guest.frames if f.get("type") == "casino_state")
        assert view["you"] is None
        ack = await guest.command({"type": "casino_sit", "table_id": TABLE})
        assert not ack["accepted"] and ack["code"] == "login_required"
        ack = await guest.command({"type": "casino_sit", "table_id": "casino-99"})
        assert not ack["accepted"] and ack["code"] == "unknown_table"
        await guest.send({"type": "casino_decide", "table_id": TABLE, "move": "dance", "id": "q"})
        err = await guest.expect("error", id="q")
        assert err["code"] == "invalid"
        await guest.close()

    with running(fast_settings(database_url)) as srv:
        asyncio.run(scenario(srv.ws_url))


def test_a_crashed_casino_actor_is_restored_and_the_round_voided(database_url: str) -> None:
    """R-CRASH-1: the casino actor stops on an error in the middle of a round (the ledger
    refuses a write); the next message restores the table, the round is voided, every bet
    is back, watchers keep receiving the table, the audit balances."""

    async def scenario(base: str, ws: str, app: Any) -> int:
        token = register_and_login(base, "crashme")
        uid = _chips(base, token, 300)
        c = await Client.open(ws, token)
        assert (await c.command({"type": "casino_subscribe", "table_id": TABLE}))["accepted"]
        assert (await c.command({"type": "casino_sit", "table_id": TABLE}))["accepted"]
        deal = {"type": "casino_deal", "table_id": TABLE, "ante": 20, "bonus": 5}
        assert (await c.command(deal))["accepted"]
        await _state(c, lambda f: f["phase"] == "preflop")
        room = app.state.services.casino
        actor = room.actors[TABLE]

        def broken(*args: Any) -> None:
            raise RuntimeError("the database went away")

        actor.table.cashier = type("Broken", (), {"wager": broken, "balance": lambda s, p: 0})()
        ack = await c.command({"type": "casino_decide", "table_id": TABLE, "move": "play"})
        # supervised (table/supervise.py): the crash is answered ``table_crashed``; with the
        # ledger gone the actor cannot void the round in place, so it gives the table up
        assert not ack["accepted"] and ack["code"] == "table_crashed"
        # the voiding is tried on a worker thread after the answer: wait for the give-up
        deadline = asyncio.get_running_loop().time() + 10
        while actor.alive and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        assert not actor.alive and actor.gave_up
        ack = await c.command({"type": "casino_sit", "table_id": TABLE})  # restores it
        assert room.actors[TABLE] is not actor and room.actors[TABLE].alive
        view = await _state(c, lambda f: f["phase"] == "betting" and f["round_no"] == 0)
        assert view["you"] is None or view["you"]["balance"] == 300
        await c.close()
        return uid

    settings = fast_settings(database_url)
    with running(settings) as srv:
        uid = asyncio.run(scenario(srv.url, srv.ws_url, srv.app))
    with open_store(database_url) as store:
        assert store.audit().ok
        assert store.ledger.balances(uid).chips == 300
