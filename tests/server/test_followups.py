"""Protocol follow-ups from the client and server reviews: quick-match cancel refusals,
display names in downloads, the replayer's redacted JSON events, private table settings
for players who join by code, the table clock in frames, bring-in and the 32-Card Draw
split over the WebSocket."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.engine.game import Game
from croupier.lobby import TableSpec
from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login, running
from tests.waiting import wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("followups") / "db.sqlite3"
    settings = fast_settings(
        f"sqlite:///{path}", arcade_min_level=0, quick_match_wait_seconds=600.0
    )
    with running(settings) as srv:
        yield srv


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def _fund(srv: LiveServer, token: str, diamonds: int = 500) -> None:
    r = httpx.post(
        srv.url + "/api/exchange",
        json={"diamonds": diamonds, "key": f"fund-{token[:12]}"},
        headers={"Authorization": f"Bearer {token}", "Origin": ORIGIN},
    )
    assert r.status_code == 200, r.text


def test_quick_match_cancel_when_not_queued_is_refused(server: LiveServer) -> None:
    """R-SEAT-2 (quick match): leaving the queue when not in it is refused with
    ``not_queued`` and changes nothing; a real cancel is accepted once."""
    token = register_and_login(server.url, "quinn")
    _fund(server, token)  # the quick match needs the buy-in's chips (else insufficient_chips)

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        ack = await c.command({"type": "quick_match", "cancel": True})
        assert (ack["accepted"], ack["code"]) == (False, "not_queued"), ack
        assert len(server.app.state.services.quick) == 0
        ack = await c.command({"type": "quick_match"})
        assert ack["accepted"], ack
        assert len(server.app.state.services.quick) == 1
        ack = await c.command({"type": "quick_match", "cancel": True})
        assert (ack["accepted"], ack["code"]) == (True, "ok"), ack
        assert len(server.app.state.services.quick) == 0
        ack = await c.command({"type": "quick_match", "cancel": True})
        assert (ack["accepted"], ack["code"]) == (False, "not_queued"), ack
        await c.close()

    _run(go())


TABLE = "nlhe-1-2"


def _answer(ev: dict[str, Any], table_id: str) -> dict[str, Any]:
    legal = ev["view"]["legal"]
    if ev["phase"] == "showdown":
        return {"type": "show", "table_id": table_id, "show": True}
    if legal["can_check"]:
        return {"type": "act", "table_id": table_id, "action": "check"}
    if legal["can_call"]:
        return {"type": "act", "table_id": table_id, "action": "call"}
    return {"type": "act", "table_id": table_id, "action": "fold"}


async def _play_hands(
    c: Client, me: str, table_id: str, until: Any, max_hands: int = 8, timeout: float = 60.0
) -> list[str]:
    """Check/call every turn of ``me`` until ``until(hand_no)`` is true after a settled
    hand ``me`` was dealt in (or ``max_hands`` such hands); returns those hand numbers."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    dealt = False
    played: list[str] = []
    while True:
        frame = await c.recv(max(0.1, deadline - loop.time()))
        if frame["type"] != "event":
            continue
        ev = frame["event"]
        if ev["type"] == "hand_began":
            dealt = me in ev["players"]
        elif ev["type"] == "turn" and ev.get("view") and ev.get("player_id") == me:
            await c.send({**_answer(ev, table_id), "id": c.next_id()})
        elif ev["type"] == "hand_settled" and dealt:
            played.append(str(ev["hand_no"]))
            # ``until`` reads the archive, waiting for the hand (archived just after it settles)
            if until(played[-1]) or len(played) >= max_hands:
                return played


def _archived(archive: Any, table_id: str, hand_id: str, timeout: float = 10.0) -> Any:
    """The archived hand, waiting for the registry's archive thread (it writes the hand
    just after it settles, off the event loop)."""
    from croupier.store.errors import NotFoundError

    def found() -> Any:
        try:
            return archive.get(table_id, hand_id)
        except NotFoundError:
            return None

    return wait_until(found, timeout, f"hand {table_id}/{hand_id} in the archive")


def _get(srv: LiveServer, token: str, path: str) -> httpx.Response:
    return httpx.get(srv.url + path, headers={"Authorization": f"Bearer {token}"})


def test_downloads_and_replayer_json_use_table_names_and_redact(server: LiveServer) -> None:
    """R-BOT-1, R-FAIR-1: the PHH, PokerStars and JSON records of a hand call every
    player by the name the table showed (``BOT 1``, the account name), never an internal
    id; the JSON events hold the requester's own cards and the cards shown, nothing else;
    a player who was not in the hand gets 404."""
    token = register_and_login(server.url, "rhea")
    other = register_and_login(server.url, "stranger")
    _fund(server, token)
    me = str(_get(server, token, "/api/me").json()["id"])
    archive = server.app.state.services.store.archive

    def shown_by_other(hand_id: str) -> bool:
        h = _archived(archive, TABLE, hand_id)
        pos = h.summary["players"].index(me)
        return any(e["type"] == "cards_shown" and e["player"] != pos for e in h.summary["events"])

    async def go() -> list[str]:
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        ack = await c.command({"type": "sit", "table_id": TABLE, "buy_in": 200})
        assert ack["accepted"], ack
        played = await _play_hands(c, me, TABLE, shown_by_other)
        await c.close()
        return played

    played = _run(go())
    table = server.app.state.services.registry.get(TABLE).actor.table
    shown_names = {s.display_name for s in table.seats.values()}
    assert "rhea" in shown_names and {"BOT 1", "BOT 2", "BOT 3"} <= shown_names
    for hand_id in played:
        h = archive.get(TABLE, hand_id)
        summary = h.summary
        pos = summary["players"].index(me)
        assert set(summary["names"]) <= shown_names, summary["names"]
        assert summary["names"][pos] == "rhea"
        phh = _get(server, token, f"/api/hands/{TABLE}/{hand_id}.phh")
        assert phh.status_code == 200, phh.text
        for name in summary["names"]:
            assert f'"{name}"' in phh.text
        assert "bot." not in phh.text
        txt = _get(server, token, f"/api/hands/{TABLE}/{hand_id}.txt")
        assert txt.status_code == 200, txt.text
        for name in summary["names"]:
            assert f": {name} (" in txt.text
        assert "bot." not in txt.text
        got = _get(server, token, f"/api/hands/{TABLE}/{hand_id}.json")
        assert got.status_code == 200, got.text
        body = got.json()
        assert (body["you"], body["names"], body["seats"]) == (
            pos,
            summary["names"],
            summary["seats"],
        )
        truth = summary["events"]
        assert [e["type"] for e in body["events"]] == [e["type"] for e in truth]
        shown = {e["player"] for e in truth if e["type"] == "cards_shown"}
        for seen, real in zip(body["events"], truth, strict=True):
            if real["type"] == "hole_dealt":
                if real["player"] == pos:
                    assert seen["cards"] == real["cards"]
                else:
                    assert seen["cards"] == [
                        c if up else None for c, up in zip(real["cards"], real["up"], strict=True)
                    ]
                    if not any(real["up"]):
                        assert all(c is None for c in seen["cards"])
            elif real["type"] == "card_burnt":
                assert seen["card"] is None
            else:
                assert seen == real  # public events (shown cards, pots, hands) unchanged
        assert all(e["player"] in shown for e in body["events"] if e["type"] == "cards_shown")
        refused = _get(server, other, f"/api/hands/{TABLE}/{hand_id}.json")
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert any(shown_by_other(h) for h in played), "no showdown with another player's cards"


def test_private_table_settings_reach_a_player_who_joins_by_code(server: LiveServer) -> None:
    """R-LOBBY-2: a private table's settings (game, stakes, seats, buy-in range, profile,
    bots) are sent to a player who joins by its code: in the ``join_private`` answer and in
    the ``table_info`` frame on subscribing; without the code nothing is sent."""
    host = register_and_login(server.url, "hostess")
    guest = register_and_login(server.url, "invitee")

    async def go() -> None:
        h = await Client.open(server.ws_url, host)
        ack = await h.command(
            {
                "type": "create_private",
                "game": "plo",
                "profile": "room",
                "small_blind": 5,
                "big_blind": 10,
                "seats": 4,
                "bots": True,
                "buy_in_min": 300,
                "buy_in_max": 900,
            }
        )
        assert ack["accepted"], ack
        table_id, code = ack["data"]["table_id"], ack["data"]["code"]
        g = await Client.open(server.ws_url, guest)
        await g.send({"type": "subscribe", "table_id": table_id})
        assert (await g.expect("error"))["code"] == "bad_code"
        assert not [f for f in g.frames if f["type"] == "table_info"]
        ack = await g.command({"type": "join_private", "code": code.lower()})
        assert ack["accepted"] and ack["data"]["table_id"] == table_id, ack
        info = ack["data"]["table"]
        want = {
            "table_id": table_id,
            "game": "plo",
            "structure": "pot_limit",
            "profile": "room",
            "stakes": "5/10",
            "seats": 4,
            "buy_in_min": 300,
            "buy_in_max": 900,
            "private": True,
            "bot_seats": 2,
            "kind": "private",
        }
        assert {k: info[k] for k in want} == want, info
        await g.send({"type": "subscribe", "table_id": table_id, "code": code})
        frame = await g.expect("table_info")
        assert frame["table_id"] == table_id
        assert {k: frame["table"][k] for k in want} == want, frame
        await g.expect("subscribed")
        await g.close()
        await h.close()

    _run(go())


# -- bring-in and the 32-Card Draw split over the WebSocket (R-POS-5, R-DRAW-5) ----------


@dataclass
class Player:
    """A human at a heads-up table, answering its turns with ``decide``."""

    name: str
    client: Client
    pid: str
    acks: dict[str, dict[str, Any]] = field(default_factory=dict)
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, table_id: str, message: dict[str, Any]) -> str:
        cid = self.client.next_id()
        msg = {**message, "id": cid, "table_id": table_id}
        self.sent[cid] = msg
        await self.client.send(msg)
        return cid


Decide = Callable[[Player, dict[str, Any]], list[dict[str, Any]]]


async def _drive(
    p: Player,
    table_id: str,
    decide: Decide,
    done: asyncio.Event,
    stop: Callable[[Player], bool],
    timeout: float = 60.0,
) -> None:
    """Answer ``p``'s turns with ``decide(p, turn)`` (several messages: refusals first)
    until ``stop(p)`` holds for a player (then ``done`` is set for both)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done.is_set():
        if stop(p):
            done.set()
            return
        try:
            frame = await p.client.recv(min(0.5, max(0.05, deadline - loop.time())))
        except TimeoutError:
            if loop.time() > deadline:
                raise
            continue
        if frame["type"] == "ack":
            p.acks[frame["id"]] = frame
        elif frame["type"] == "event":
            ev = frame["event"]
            p.events.append(ev)
            if ev["type"] == "turn" and ev.get("view") and ev["player_id"] == p.pid:
                p.turns.append(ev)
                for msg in decide(p, ev):
                    await p.send(table_id, msg)


async def _drain(p: Player, quiet: float = 0.5) -> None:
    """Read ``p``'s frames until none comes for ``quiet`` seconds (the late acks)."""
    while True:
        try:
            frame = await p.client.recv(quiet)
        except TimeoutError:
            return
        if frame["type"] == "ack":
            p.acks[frame["id"]] = frame
        elif frame["type"] == "event":
            p.events.append(frame["event"])


def _passive(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
    legal = turn["view"]["legal"]
    if turn["phase"] == "drawing" or legal["can_draw"]:
        return [{"type": "draw", "discards": ""}]
    if legal["show_or_muck"]:
        return [{"type": "show", "show": True}]
    if legal["split_answer"]:
        return [{"type": "act", "action": "decline_split"}]
    if legal["can_check"]:
        return [{"type": "act", "action": "check"}]
    if legal["can_call"]:
        return [{"type": "act", "action": "call"}]
    if legal["can_bring_in"]:
        return [{"type": "act", "action": "bring_in"}]
    return [{"type": "act", "action": "fold"}]


async def _seat_two(
    server: LiveServer, table_id: str, names: tuple[str, str], buy_in: int, code: str | None = None
) -> list[Player]:
    players = []
    for n in names:
        token = register_and_login(server.url, n)
        _fund(server, token)
        pid = str(_get(server, token, "/api/me").json()["id"])
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": table_id, "code": code})
        await c.expect("subscribed")
        ack = await c.command({"type": "sit", "table_id": table_id, "buy_in": buy_in, "code": code})
        assert ack["accepted"], ack
        players.append(Player(n, c, pid))
    return players


def _acts(p: Player, action: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(message, ack) for each ``act`` with ``action`` that ``p`` sent and got answered."""
    return [
        (m, p.acks[cid]) for cid, m in p.sent.items() if m.get("action") == action and cid in p.acks
    ]


@dataclass(frozen=True, slots=True)
class _StudSpec(TableSpec):
    """A Seven-Card Stud table with an ante of 1 and a bring-in of 1 (bets 2/4)."""

    def game_of(self) -> Game:
        return Game.of("7stud", ante=1, bring_in=1, bets=(2, 4))


def _open_in_server(server: LiveServer, spec: TableSpec) -> None:
    registry = server.app.state.services.registry
    loop = registry.get(TABLE).actor._task.get_loop()
    asyncio.run_coroutine_threadsafe(registry.open(spec), loop).result(10)


def test_bring_in_over_the_websocket(server: LiveServer) -> None:
    """R-POS-5, R-BET-8: at a stud table the player with the lowest up card gets a turn
    whose legal actions offer the bring-in with its amount; ``act bring_in`` brings in
    (an ``acted`` event with the amount), while a split offer there and a bring-in out of
    turn are refused with codes and change nothing."""
    _open_in_server(server, _StudSpec("stud-bring-in", "Stud 2/4", "7stud", seats=2))
    table_id = "stud-bring-in"

    def decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
        legal = turn["view"]["legal"]
        if legal["can_bring_in"]:
            return [
                {"type": "act", "action": "offer_split"},
                {"type": "act", "action": "bring_in"},
            ]
        return _passive(p, turn)

    def brought_in(p: Player) -> bool:
        return any(e["type"] == "acted" and e["action"] == "bring_in" for e in p.events)

    async def go() -> list[Player]:
        players = await _seat_two(server, table_id, ("bianca", "bruno"), 100)
        done = asyncio.Event()
        await asyncio.gather(*(_drive(p, table_id, decide, done, brought_in) for p in players))
        # A bring-in out of turn (the other player's) is refused.
        waiting = next(
            p for p in players if not any(t["view"]["legal"]["can_bring_in"] for t in p.turns)
        )
        await waiting.send(table_id, {"type": "act", "action": "bring_in"})
        await asyncio.gather(*(_drain(p) for p in players))
        for p in players:
            await p.client.close()
        return players

    players = _run(go())
    bringer = next(p for p in players if any(t["view"]["legal"]["can_bring_in"] for t in p.turns))
    other = next(p for p in players if p is not bringer)
    turn = next(t for t in bringer.turns if t["view"]["legal"]["can_bring_in"])
    assert turn["view"]["legal"]["bring_in"] == 1
    ((_, refused),) = _acts(bringer, "offer_split")
    assert not refused["accepted"] and refused["code"] not in ("ok", "invalid"), refused
    ((_, ok),) = _acts(bringer, "bring_in")
    assert ok["accepted"], ok
    acted = next(e for e in bringer.events if e["type"] == "acted")
    assert (acted["action"], acted["amount"], acted["added"]) == ("bring_in", 1, 1)
    late = _acts(other, "bring_in")
    assert late and all(not ack["accepted"] and ack["code"] for _, ack in late), late


def test_split_offer_accept_and_decline_over_the_websocket(server: LiveServer) -> None:
    """R-DRAW-5, R-BET-8: at a heads-up 32-Card Draw table, after the draw the first player
    to act is offered ``can_offer_split``; ``act offer_split`` passes the offer to the
    other, whose turn has ``split_answer``: ``accept_split`` divides the pot (the hand
    ends, stacks unchanged), ``decline_split`` lets the betting go on. An answer when no
    split is offered is refused."""
    host = register_and_login(server.url, "splitter")

    async def create() -> tuple[str, str]:
        h = await Client.open(server.ws_url, host)
        ack = await h.command(
            {"type": "create_private", "game": "32cd", "small_blind": 1, "big_blind": 2, "seats": 2}
        )
        assert ack["accepted"], ack
        await h.close()
        return ack["data"]["table_id"], ack["data"]["code"]

    table_id, code = _run(create())
    answers: list[str] = []

    def decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
        legal = turn["view"]["legal"]
        if legal["can_offer_split"]:
            return [
                {"type": "act", "action": "accept_split"},
                {"type": "act", "action": "offer_split"},
            ]
        if legal["split_answer"]:
            answer = "accept_split" if not answers else "decline_split"
            answers.append(answer)
            return [{"type": "act", "action": answer}]
        return _passive(p, turn)

    def both_answers_seen(p: Player) -> bool:
        kinds = [e.get("accepted") for e in p.events if e["type"] == "split_answered"]
        return True in kinds and False in kinds and p.events[-1]["type"] != "split_answered"

    async def go() -> list[Player]:
        players = await _seat_two(server, table_id, ("sally", "simon"), 100, code)
        done = asyncio.Event()
        await asyncio.gather(
            *(_drive(p, table_id, decide, done, both_answers_seen) for p in players)
        )
        await asyncio.gather(*(_drain(p) for p in players))
        for p in players:
            await p.client.close()
        return players

    players = _run(go())
    events = players[0].events
    offers = [i for i, e in enumerate(events) if e["type"] == "split_offered"]
    assert len(offers) >= 2, [e["type"] for e in events]
    first = events[offers[0] :]
    answered = next(e for e in first if e["type"] == "split_answered")
    assert answered["accepted"] is True
    resolved = next(e for e in first if e["type"] == "split_resolved")
    assert resolved["pots"] == [0]
    ended = next(e for e in first if e["type"] == "hand_ended")
    assert (
        ended["net"] == [0, 0] and sum(ended["pots"][0]["winnings"]) == ended["pots"][0]["amount"]
    )
    second = events[offers[1] :]
    declined = next(e for e in second if e["type"] == "split_answered")
    assert declined["accepted"] is False
    offer_acks = [ack for p in players for _, ack in _acts(p, "offer_split")]
    assert offer_acks and all(a["accepted"] for a in offer_acks), offer_acks
    early = [ack for p in players for _, ack in _acts(p, "accept_split") if not ack["accepted"]]
    assert early and all(a["code"] not in ("ok", "invalid") for a in early), early
    assert answers[:2] == ["accept_split", "decline_split"]


def test_frames_carry_the_table_clock(server: LiveServer) -> None:
    """R-TIME-1: every ``event`` and ``snapshot`` frame carries ``now`` on the table clock,
    the clock of ``turn.deadline``: at a room table a turn's deadline is the 30 s clock
    after the ``now`` of its frame, so a client needs no guess of the offset."""
    token = register_and_login(server.url, "tick")

    async def go() -> list[dict[str, Any]]:
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": TABLE})
        snap = await c.expect("snapshot")
        assert isinstance(snap["now"], float)
        turns: list[dict[str, Any]] = []
        while len(turns) < 5:
            frame = await c.expect("event", timeout=30)
            assert isinstance(frame["now"], float) and frame["now"] >= snap["now"]
            if frame["event"]["type"] == "turn":
                turns.append(frame)
        await c.send({"type": "resync", "table_id": TABLE})
        again = await c.expect("snapshot")
        assert again["now"] >= turns[-1]["now"]
        await c.close()
        return turns

    turns = _run(go())
    for frame in turns:
        left = frame["event"]["deadline"] - frame["now"]
        assert 0 < left <= 30.0, frame
    table = server.app.state.services.registry.get(TABLE).actor.table
    assert table.config.rules.name == "room"
