"""Seed rules as a player meets them over the WebSocket (issue #12): real uvicorn servers,
private tables created from the same message as the browser's form, two accounts playing.

R-BET-9 (room under-raise), R-POT-4 (showdown order; arcade shows every hand), R-TIME-2
(arcade: a disconnected player folds even when checking is free), R-SEAT-2 (level 6 for
every arcade table), R-POS-5 (stud bring-in twice the ante), R-SEAT-1 (FL/SL: a minimum,
no maximum), R-BET-5 (spread maxima from the form), R-POS-6 / R-SEAT-3 (post a big blind
or wait for it), R-NAIKO-4..8 (power offers sent with the turn).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import Client, LiveServer, fast_settings, register_and_login, running
from tests.server.test_followups import Player, _drain, _drive, _fund, _get, _passive
from tests.waiting import async_wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("rules") / "db.sqlite3"
    # one address creates every private table of the module: the caps have their own tests
    caps = {"private_tables_per_address": 1000, "private_tables_per_account": 100}
    with running(fast_settings(f"sqlite:///{path}", arcade_min_level=0, **caps)) as srv:
        yield srv


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("rules-gated") / "db.sqlite3"
    caps = {"private_tables_per_address": 1000, "private_tables_per_account": 100}
    with running(fast_settings(f"sqlite:///{path}", arcade_min_level=6, **caps)) as srv:
        yield srv


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _login(srv: LiveServer, name: str) -> tuple[Client, str]:
    token = register_and_login(srv.url, name)
    _fund(srv, token, 1000)  # every welcome diamond: 1,000 chips
    pid = str(_get(srv, token, "/api/me").json()["id"])
    return await Client.open(srv.ws_url, token), pid


async def _private(
    srv: LiveServer,
    names: tuple[str, ...],
    buy_in: int = 200,
    post_big_blind: bool = False,
    **form: Any,
) -> tuple[str, list[Player], dict[str, Any]]:
    """The first name creates a private table from ``form`` (the browser's message); all
    join by code and sit. Returns the table id, the players and the table's summary."""
    host, host_pid = await _login(srv, names[0])
    ack = await host.command({"type": "create_private", **form})
    assert ack["accepted"], ack
    table_id, code = ack["data"]["table_id"], ack["data"]["code"]
    joined = await host.command({"type": "join_private", "code": code})
    summary = joined["data"]["table"]
    players = []
    for i, name in enumerate(names):
        c, pid = (host, host_pid) if i == 0 else await _login(srv, name)
        sit = {"type": "sit", "table_id": table_id, "buy_in": buy_in, "code": code}
        subscribe = {"type": "subscribe", "table_id": table_id, "code": code}
        if form.get("profile") == "arcade":  # no spectators (R-SEAT-2): sit, then follow
            ack = await c.command({**sit, "post_big_blind": post_big_blind})
            await c.send(subscribe)
            await c.expect("subscribed")
        else:
            await c.send(subscribe)
            await c.expect("subscribed")
            ack = await c.command({**sit, "post_big_blind": post_big_blind})
        assert ack["accepted"], ack
        players.append(Player(name, c, pid))
    return table_id, players, summary


async def _close(players: list[Player], table_id: str) -> None:
    """Leave the table, then close: a table whose players only dropped would go on dealing
    them hand after hand (folded or protected at once) and load the shared server."""
    for p in players:
        await p.send(table_id, {"type": "leave"})
    await asyncio.gather(*(_drain(p, 0.3) for p in players))
    for p in players:
        await p.client.close()


async def _event(c: Client, match: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The first event (already received or coming) that ``match`` accepts."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = 0
    while True:
        for frame in c.frames[seen:]:
            if frame["type"] == "event" and match(frame["event"]):
                return dict(frame["event"])
        seen = len(c.frames)
        left = deadline - loop.time()
        if left <= 0:
            raise TimeoutError("no such event")
        try:
            await c.recv(min(0.5, left))
        except TimeoutError:
            continue


def _pending_turn(p: Player) -> dict[str, Any] | None:
    """A turn of ``p``'s that came inside a snapshot (subscribed after the hand began:
    arcade tables seat before following), as a ``turn`` event would carry it."""
    snaps = [f for f in p.client.frames if f["type"] == "snapshot"]
    if not snaps:
        return None
    snap = snaps[-1]["snapshot"]
    hand = snap.get("hand")
    if not hand or not hand.get("legal") or snap.get("actor_seat") is None:
        return None
    later = p.client.frames[p.client.frames.index(snaps[-1]) :]
    if any(f["type"] == "event" and f["event"]["type"] == "turn" for f in later):
        return None
    return {"type": "turn", "player_id": p.pid, "phase": hand["phase"], "view": hand}


async def _play(
    players: list[Player], table_id: str, decide: Any, stop: Any, timeout: float = 60.0
) -> None:
    """Drive every player with ``decide`` until ``stop`` (answering first a turn that came
    in a snapshot)."""
    for p in players:
        turn = _pending_turn(p)
        if turn is not None:
            p.turns.append(turn)
            for msg in decide(p, turn):
                await p.send(table_id, msg)
    done = asyncio.Event()
    await asyncio.gather(*(_drive(p, table_id, decide, done, stop, timeout) for p in players))


def _settled(p: Player) -> bool:
    return any(e["type"] == "hand_settled" for e in p.events)


# -- R-BET-9: under-raises -------------------------------------------------------------------


def test_room_under_raise_counts_as_a_call_or_the_minimum(server: LiveServer) -> None:
    """R-BET-9 (room): heads-up 5/10, the small blind sends ``raise 14`` (below half the
    increment of 10): accepted as a call of 10; next hand ``raise 15``: raised to the
    minimum of 20. The turn's legal actions say where the ranges are (call_above 10,
    round_up_from 15)."""

    def decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
        legal = turn["view"]["legal"]
        if legal["can_call"] and (legal["call_above"], legal["call"]) == (10, 5):
            hands = sum(1 for e in p.events if e["type"] == "hand_began")
            return [{"type": "act", "action": "raise", "amount": 14 if hands == 1 else 15}]
        if legal["can_call"]:
            return [{"type": "act", "action": "call"}]
        return _passive(p, turn)

    def two_hands(p: Player) -> bool:
        return sum(1 for e in p.events if e["type"] == "hand_settled") >= 2

    async def go() -> list[Player]:
        table_id, players, _ = await _private(
            server, ("ulla", "umar"), 1000, small_blind=5, big_blind=10, seats=2
        )
        await _play(players, table_id, decide, two_hands)
        await _close(players, table_id)
        return players

    players = _run(go())
    raises = [
        (p, t)
        for p in players
        for t in p.turns
        if (t["view"]["legal"]["call_above"], t["view"]["legal"]["call"]) == (10, 5)
    ]
    assert raises, "no small blind facing the big blind"
    _, turn = raises[0]
    legal = turn["view"]["legal"]
    assert (legal["call_above"], legal["round_up_from"], legal["min_raise"]) == (10, 15, 20)
    acks = [a for q in players for cid, a in q.acks.items() if q.sent[cid].get("action") == "raise"]
    assert len(acks) >= 2 and all(a["accepted"] for a in acks), acks
    acted = [e for e in players[0].events if e["type"] == "acted" and e["added"] > 0]
    by_amount = {(e["action"], e["amount"]) for e in acted}
    assert ("call", 10) in by_amount  # raise 14 counted as a call
    assert ("raise", 20) in by_amount  # raise 15 raised to the minimum


def test_naiko_and_arcade_under_raise_is_refused(server: LiveServer) -> None:
    """R-BET-9 (naiko, arcade): strict; the same ``raise 14`` is refused with
    ``raise_too_small`` and the legal actions carry no lenient range."""
    for profile, names in (("naiko", ("vera", "vlad")), ("arcade", ("wren", "wade"))):

        def decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
            legal = turn["view"]["legal"]
            if legal["can_call"] and legal["can_raise"] and not p.turns[:-1]:
                return [{"type": "act", "action": "raise", "amount": 14}, *_passive(p, turn)]
            return _passive(p, turn)

        async def go(profile: str = profile, names: tuple[str, str] = names) -> list[Player]:
            table_id, players, _ = await _private(
                server, names, 1000, profile=profile, small_blind=5, big_blind=10, seats=2
            )
            await _play(players, table_id, decide, _settled)
            await _close(players, table_id)
            return players

        players = _run(go())
        refused = [
            a for p in players for cid, a in p.acks.items() if p.sent[cid].get("action") == "raise"
        ]
        assert refused and all(a["code"] == "raise_too_small" for a in refused), (profile, refused)
        legal = [t["view"]["legal"] for p in players for t in p.turns if t["phase"] == "betting"]
        assert all(lg["call_above"] == 0 and lg["round_up_from"] == 0 for lg in legal)


# -- R-POT-4: showdown order, arcade shows every hand ------------------------------------------


def _checked_down(players: list[Player], game: str) -> None:
    """After a hand checked (or called) down, the first asked to show is the first dealt
    position (left of the dealer), R-POT-4."""
    began = next(e for e in players[0].events if e["type"] == "hand_began")
    first = began["seats"][0]
    showdown_turns = [
        e for e in players[0].events if e["type"] == "turn" and e["phase"] == "showdown"
    ]
    assert showdown_turns, f"{game}: no ordered showdown"
    assert showdown_turns[0]["seat"] == first, (game, showdown_turns[0], began)


@pytest.mark.parametrize(("game", "blinds"), [("nlhe", (1, 2)), ("7stud", (2, 4))])
def test_checked_through_showdown_starts_left_of_the_dealer(
    server: LiveServer, game: str, blinds: tuple[int, int]
) -> None:
    """R-POT-4 (room, every game): no bet on the last round: the first player still in the
    hand to the left of the dealer shows first (in stud too, not the best board)."""

    async def go() -> list[Player]:
        table_id, players, _ = await _private(
            server,
            (f"x{game}", f"y{game}"),
            200,
            game=game,
            small_blind=blinds[0],
            big_blind=blinds[1],
            seats=2,
        )
        await _play(players, table_id, _passive, _settled)
        await _close(players, table_id)
        return players

    _checked_down(_run(go()), game)


def test_arcade_shows_every_unfolded_hand(server: LiveServer) -> None:
    """R-POT-4 (arcade): "Tous les joueurs montrent leurs cartes": at showdown nobody is
    asked to show or muck (no muck button); every unfolded hand is shown."""

    async def go() -> list[Player]:
        table_id, players, _ = await _private(
            server, ("zara", "zeno"), 200, profile="arcade", seats=2
        )
        await _play(players, table_id, _passive, _settled)
        await _close(players, table_id)
        return players

    players = _run(go())
    events = players[0].events
    assert not any(e["type"] == "turn" and e["phase"] == "showdown" for e in events)
    folded = any(e["type"] == "acted" and e["action"] == "fold" for e in events)
    shown = {e["player"] for e in events if e["type"] == "cards_shown"}
    assert folded or shown == {0, 1}, shown


# -- R-TIME-2: arcade disconnection folds ------------------------------------------------------


def test_arcade_disconnected_player_folds_even_when_checking_is_free(server: LiveServer) -> None:
    """R-TIME-2 (arcade `fold`): the big blind, checked to, has dropped: the table folds
    them (``timed_out`` action ``fold``), it does not check, and the other wins the pot."""

    async def go() -> tuple[int, list[dict[str, Any]]]:
        table_id, players, _ = await _private(
            server, ("abel", "abby"), 200, profile="arcade", seats=2
        )
        a, b = players
        began = await _event(a.client, lambda e: e["type"] == "hand_began", timeout=30)
        bb_seat = began["seats"][0]  # heads-up: the button posts the small blind
        sb, bb = (a, b) if began["players"][0] == b.pid else (b, a)
        await bb.client.close()  # the big blind drops before acting
        if _pending_turn(sb) is not None:  # sb followed the table after the deal
            await sb.send(table_id, {"type": "act", "action": "call"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        events: list[dict[str, Any]] = [
            f["event"] for f in sb.client.frames if f["type"] == "event"
        ]
        answered = {id(e) for e in events}
        while not any(e["type"] == "hand_settled" for e in events):
            for ev in events:
                mine = ev["type"] == "turn" and ev.get("view") and ev["player_id"] == sb.pid
                if mine and id(ev) not in answered:
                    answered.add(id(ev))
                    await sb.send(table_id, {"type": "act", "action": "call"})
            frame = await sb.client.recv(max(0.1, deadline - loop.time()))
            if frame["type"] == "event":
                events.append(frame["event"])
        await sb.send(table_id, {"type": "leave"})
        await _drain(sb, 0.3)
        await sb.client.close()
        return bb_seat, events

    bb_seat, events = _run(go())
    timed = [e for e in events if e["type"] == "timed_out"]
    assert timed and timed[0]["seat"] == bb_seat, timed
    assert timed[0]["action"] == "fold" and "disconnected" in timed[0]["reason"], timed
    assert not any(e["type"] == "acted" and e["action"] == "check" for e in events)
    assert any(e["type"] == "acted" and e["action"] == "fold" for e in events)


# -- R-SEAT-2: level 6 for every arcade table ---------------------------------------------------


def test_arcade_level_applies_to_private_tables(gated: LiveServer, server: LiveServer) -> None:
    """R-SEAT-2: a level-1 account can neither create a private arcade table nor sit at
    one (``level_too_low``); a private room table is fine."""

    async def go() -> None:
        c, _ = await _login(gated, "lowly")
        ack = await c.command({"type": "create_private", "profile": "arcade", "seats": 2})
        assert (ack["accepted"], ack["code"]) == (False, "level_too_low"), ack
        ack = await c.command({"type": "create_private", "profile": "room", "seats": 2})
        assert ack["accepted"], ack
        # an arcade table opened by someone else (the registry, as a host of any level could)
        live = gated.app.state.services.registry
        from croupier.lobby import private_spec

        spec = private_spec(
            "private-arcadex", profile="arcade", seats=2, code="ARCADEX2", host=None
        )
        loop = next(iter(live.tables.values())).actor._task.get_loop()
        asyncio.run_coroutine_threadsafe(live.open(spec), loop).result(10)
        await c.send({"type": "subscribe", "table_id": spec.table_id, "code": "ARCADEX2"})
        sub = await c.expect("subscribed", "error", "ack")
        assert sub
        ack = await c.command(
            {"type": "sit", "table_id": spec.table_id, "buy_in": 100, "code": "ARCADEX2"}
        )
        assert (ack["accepted"], ack["code"]) == (False, "level_too_low"), ack
        await c.close()

    _run(go())


# -- R-POS-5, R-SEAT-1, R-BET-5: stakes and buy-ins of the private form ------------------------


def test_stud_from_the_form_brings_in_twice_the_ante(server: LiveServer) -> None:
    """R-POS-5: a 7-Card Stud table created from the form at 2/4: ante 1, bring-in 2
    (the turn offers a bring-in of 2); at 1/2 there is no room for that: ``bad_stakes``."""

    def decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
        return _passive(p, turn)

    def brought_in(p: Player) -> bool:
        return any(e["type"] == "acted" and e["action"] == "bring_in" for e in p.events)

    async def go() -> tuple[list[Player], dict[str, Any]]:
        table_id, players, summary = await _private(
            server, ("sten", "stina"), 200, game="7stud", small_blind=2, big_blind=4, seats=2
        )
        await _play(players, table_id, decide, brought_in)
        bad = await players[0].client.command(
            {"type": "create_private", "game": "razz", "small_blind": 1, "big_blind": 2}
        )
        assert (bad["accepted"], bad["code"]) == (False, "bad_stakes"), bad
        await _close(players, table_id)
        return players, summary

    players, summary = _run(go())
    assert (summary["ante"], summary["stakes"]) == (1, "2/4")
    antes = [e for e in players[0].events if e["type"] == "forced_bet" and e["kind"] == "ante"]
    turn = next(t for p in players for t in p.turns if t["view"]["legal"]["can_bring_in"])
    assert turn["view"]["legal"]["bring_in"] == 2
    assert not antes or all(e["amount"] == 1 for e in antes)


def test_limit_tables_have_a_minimum_and_no_maximum_buy_in(server: LiveServer) -> None:
    """R-SEAT-1: FL (and SL) tables from the form: buy-in max 0 (none): 900 chips (above
    200 big blinds) at FLHE 1/2 are accepted; below the minimum is refused; NLHE 1/2
    keeps its maximum of 400."""

    async def go() -> None:
        c, _ = await _login(server, "limon")
        for game, amount, code in (
            ("flhe", 900, "ok"),
            ("flhe", 10, "buy_in_too_small"),
            ("nlhe", 900, "buy_in_too_large"),
        ):
            ack = await c.command({"type": "create_private", "game": game, "seats": 2})
            assert ack["accepted"], ack
            table_id, inv = ack["data"]["table_id"], ack["data"]["code"]
            info = await c.command({"type": "join_private", "code": inv})
            summary = info["data"]["table"]
            assert (summary["buy_in_max"] == 0) == (game == "flhe"), summary
            await c.send({"type": "subscribe", "table_id": table_id, "code": inv})
            await c.expect("subscribed")
            sit = await c.command(
                {"type": "sit", "table_id": table_id, "buy_in": amount, "code": inv}
            )
            assert sit["code"] == code or (code == "ok" and sit["accepted"]), (game, sit)
            if sit["accepted"]:
                await c.command({"type": "leave", "table_id": table_id})
        bad = await c.command(
            {"type": "create_private", "game": "slhe", "buy_in_max": 500, "seats": 2}
        )
        assert (bad["accepted"], bad["code"]) == (False, "bad_buy_in"), bad
        await c.close()

    _run(go())


def test_spread_limit_table_with_per_round_maxima_from_the_form(server: LiveServer) -> None:
    """R-BET-5: ``spread: "1-2-3"`` at a Spread-Limit table (blinds 1/1): the summary says
    1-1-2-3 and pre-flop the largest raise is one chip above the bet; a spread on a
    no-limit game or a malformed one is refused with ``bad_spread``."""

    def decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
        return _passive(p, turn)

    async def go() -> tuple[list[Player], dict[str, Any]]:
        table_id, players, summary = await _private(
            server,
            ("sal", "sid"),
            200,
            game="slhe",
            small_blind=1,
            big_blind=1,
            seats=2,
            spread="1-2-3",
        )
        await _play(players, table_id, decide, _settled)
        for form in ({"game": "nlhe", "spread": "1-2-3"}, {"game": "slhe", "spread": "1-2-x"}):
            bad = await players[0].client.command(
                {"type": "create_private", "small_blind": 1, "big_blind": 1, **form}
            )
            assert (bad["accepted"], bad["code"]) == (False, "bad_spread"), (form, bad)
        await _close(players, table_id)
        return players, summary

    players, summary = _run(go())
    assert summary["spread"] == "1-1-2-3" and summary["structure"] == "spread_limit"
    assert summary["buy_in_max"] == 0
    first = next(t for p in players for t in p.turns if t["phase"] == "betting")
    legal = first["view"]["legal"]
    assert legal["max_raise"] == 2  # the bet of 1 plus at most 1 on the first round


# -- R-POS-6, R-SEAT-3: post a big blind or wait for it ----------------------------------------


def test_new_player_waits_for_the_big_blind_or_posts_now(server: LiveServer) -> None:
    """R-SEAT-3: a third player sits while a hand is on and waits for the big blind
    (``player_seated`` says ``waiting_bb``, not ``post_now``); ``sit_in`` with
    ``post_blinds`` while waiting chooses to post now (``seat_changed`` ``post_now``);
    the next hand deals them in with a big blind posted."""

    async def go() -> tuple[list[Player], Player, dict[str, Any], dict[str, Any]]:
        table_id, players, _ = await _private(server, ("pia", "pim"), 200, seats=3)
        done = asyncio.Event()
        drivers = [
            asyncio.create_task(_drive(p, table_id, _passive, done, lambda _p: False, 90))
            for p in players
        ]
        # wait for a hand in progress, then the third sits and waits
        await async_wait_until(
            lambda: any(e["type"] == "hand_began" for e in players[0].events),
            30,
            "a hand in progress",
        )
        c, pid = await _login(server, "pol")
        third = Player("pol", c, pid)
        spec = server.app.state.services.registry.tables[table_id].spec
        await c.send({"type": "subscribe", "table_id": table_id, "code": spec.code})
        await c.expect("subscribed")
        ack = await c.command(
            {"type": "sit", "table_id": table_id, "buy_in": 200, "code": spec.code}
        )
        assert ack["accepted"], ack
        seated = await _event(c, lambda e: e["type"] == "player_seated" and e["player_id"] == pid)
        post = await c.command({"type": "sit_in", "table_id": table_id, "post_blinds": True})
        assert post["accepted"], post
        changed = await _event(c, lambda e: e["type"] == "seat_changed")
        again = await c.command({"type": "sit_in", "table_id": table_id, "post_blinds": True})
        assert again["code"] == "not_sitting_out", again
        # the next hand deals the third player in
        began = await _event(
            c, lambda e: e["type"] == "hand_began" and pid in e["players"], timeout=30
        )
        done.set()
        await asyncio.gather(*drivers, return_exceptions=True)
        await _close([*players, third], table_id)
        return players, third, seated, {"changed": changed, "began": began}

    _, third, seated, rest = _run(go())
    assert seated["waiting_bb"] is True and seated["post_now"] is False
    assert rest["changed"]["reason"] == "post_now" and rest["changed"]["seat"]["post_now"]
    began = rest["began"]
    pos = began["players"].index(third.pid)
    assert began["blinds"][pos] == 2  # a big blind posted to play at once


# -- R-NAIKO-4..8: the server says which powers may be used ------------------------------------


def test_naiko_turn_carries_the_power_offers(server: LiveServer) -> None:
    """R-NAIKO-4..8: each Naiko turn sends the actor, with the legal actions, every power
    of the carrousel with its cost, whether it may be used now (else a reason code) and the
    seats an Ancre may target; the public status carries the costs; others get none."""

    async def go() -> list[Player]:
        table_id, players, _ = await _private(
            server, ("nadia", "nico"), 200, profile="naiko", seats=2
        )
        await _play(players, table_id, _passive, _settled)
        await _close(players, table_id)
        return players

    players = _run(go())
    costs = {"coup_d_oeil": 1, "echange_de_manche": 2, "ancre_courte": 2, "sceau_protecteur": 1}
    seen_other = False
    for p in players:
        for t in p.turns:
            if t["phase"] != "betting":
                continue
            offers = t["powers"]
            assert [o["power"] for o in offers] == t["naiko"]["carrousel"]
            assert dict(t["naiko"]["costs"]) == costs
            for o in offers:
                assert o["cost"] == costs[o["power"]]
                assert o["usable"] or o["reason"]
                if o["power"] == "ancre_courte" and o["usable"]:
                    assert o["target_seats"] and all(isinstance(s, int) for s in o["target_seats"])
                if o["power"] == "sceau_protecteur":
                    assert not o["usable"] and o["reason"] == "no_ancre"
        for e in p.events:
            if e["type"] == "turn" and e["player_id"] != p.pid:
                seen_other = True
                assert e["powers"] is None and e["view"] is None
    assert seen_other
