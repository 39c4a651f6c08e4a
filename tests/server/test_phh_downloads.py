"""PHH downloads of draw hands played at a real server (issue 10, Secrets; R-FAIR-1).

Two accounts play heads-up 2-7 Triple Draw at a private table over the WebSocket, each
drawing two cards at every draw and showing down. Each then downloads every hand as PHH
over HTTP: the file records every draw (``sd`` + ``d dh``), holds none of the other
player's cards that were never shown (first cards discarded, discards), and replays
exactly with ``croupier phh verify``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.engine.cards import Card
from croupier.history.phh import HandHistory, Verb, load_phh
from tests.history.pokerstars_replay import replay
from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login, running
from tests.server.test_followups import Player, _drive, _fund, _passive

HANDS = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path: Path = tmp_path_factory.mktemp("phh") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}", default_tables=False)) as srv:
        yield srv


_EXCHANGED: set[tuple[str, int]] = set()
"""(player, hand number) pairs that already tried an Échange de Manche."""


def _decide(p: Player, turn: dict[str, Any]) -> list[dict[str, Any]]:
    legal = turn["view"]["legal"]
    mine = turn["view"]["players"][turn["position"]]["cards"]
    if turn["phase"] == "drawing" or legal["can_draw"]:
        return [{"type": "draw", "discards": "".join(mine[:2])}]
    first: list[dict[str, Any]] = []
    hand = sum(1 for e in p.events if e["type"] == "hand_began")
    if turn.get("naiko") and turn["phase"] == "betting" and (p.pid, hand) not in _EXCHANGED:
        _EXCHANGED.add((p.pid, hand))
        first = [{"type": "use_power", "power": "echange_de_manche", "card": mine[0]}]
    if turn["phase"] == "showdown" or legal["show_or_muck"]:
        return [{"type": "show", "show": True}]
    if legal["can_check"]:
        return [*first, {"type": "act", "action": "check"}]
    if legal["can_call"]:
        return [*first, {"type": "act", "action": "call"}]
    return _passive(p, turn)


def _swaps(p: Player) -> list[dict[str, Any]]:
    """The draws with discards and the exchanges (``drew`` events) of the hands ``p`` saw
    settle, with the hand they belong to."""
    out: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    hand = 0
    for e in p.events:
        if e["type"] == "hand_began":
            hand += 1
            pending = []
        elif e["type"] == "drew" and e.get("discarded"):
            pending.append({"hand": hand, **e})
        elif e["type"] == "hand_settled":
            out.extend(pending)
            pending = []
    return out


def _settled(p: Player) -> int:
    return sum(1 for e in p.events if e["type"] == "hand_settled")


def _never_shown_to(full: HandHistory, viewer: int) -> set[Card]:
    shown: dict[int, set[Card]] = {}
    for a in full.actions:
        if a.verb is Verb.SHOW_MUCK and a.player is not None and a.cards:
            shown.setdefault(a.player, set()).update(c for c in a.cards if c is not None)
    out: set[Card] = set()
    for a in full.actions:
        if a.player is None or a.player == viewer or not a.cards:
            continue
        if a.verb in (Verb.DEAL_HOLE, Verb.DISCARD):
            out.update(c for c in a.cards if c is not None and c not in shown.get(a.player, ()))
    return out


@pytest.mark.parametrize(
    ("game", "profile"), [("27td", "room"), ("nlhe", "naiko")], ids=["triple-draw", "naiko"]
)
def test_downloads_hold_no_unshown_card_and_replay(
    server: LiveServer, tmp_path: Path, game: str, profile: str
) -> None:
    """R-FAIR-1, R-NAIKO-6, issue 10: a player who showed down after drawing (2-7 Triple Draw) or after an
    Échange de Manche (Naiko) has only their final cards in the other player's download;
    draws and exchanges are recorded; every download verifies exact."""
    tokens = {n: register_and_login(server.url, f"{n}_{profile}") for n in ("pa", "pb")}
    for t in tokens.values():
        _fund(server, t)

    async def go() -> tuple[str, list[Player]]:
        clients = {n: await Client.open(server.ws_url, t) for n, t in tokens.items()}
        made = await clients["pa"].command(
            {"type": "create_private", "game": game, "profile": profile, "seats": 2}
        )
        assert made["accepted"], made
        table_id, code = made["data"]["table_id"], made["data"]["code"]
        players = []
        for n, c in clients.items():
            me = httpx.get(
                server.url + "/api/me", timeout=30, headers={"Authorization": f"Bearer {tokens[n]}"}
            ).json()
            await c.send({"type": "subscribe", "table_id": table_id, "code": code})
            await c.expect("subscribed")
            ack = await c.command(
                {"type": "sit", "table_id": table_id, "buy_in": 100, "code": code}
            )
            assert ack["accepted"], ack
            players.append(Player(n, c, str(me["id"])))
        done = asyncio.Event()

        def enough(q: Player) -> bool:
            # hands whose file must hold a draw or an exchange (see the assert below)
            swapped = {e["hand"] for e in _swaps(q)}
            return _settled(q) >= HANDS and len(swapped) >= HANDS - 1

        await asyncio.gather(*(_drive(p, table_id, _decide, done, enough, 240.0) for p in players))
        for c in clients.values():
            await c.close()
        return table_id, players

    table_id, _ = asyncio.run(go())
    archive = server.app.state.services.store.archive
    files = []
    checked = leaks_possible = with_draws = 0
    for name, token in tokens.items():
        with httpx.Client(
            base_url=server.url,
            headers={"Authorization": f"Bearer {token}", "Origin": ORIGIN},
            timeout=30,
        ) as h:
            listed = [r for r in h.get("/api/hands").json() if r["table_id"] == table_id]
            assert len(listed) >= HANDS
            for row in listed:
                stored = archive.get(table_id, row["hand_id"])
                full = load_phh(stored.phh)
                viewer = stored.summary["players"].index(str(h.get("/api/me").json()["id"]))
                r = h.get(f"/api/hands/{table_id}/{row['hand_id']}.phh")
                assert r.status_code == 200, r.text
                mine = load_phh(r.text)
                draws = [a for a in full.actions if a.verb is Verb.DISCARD]
                with_draws += bool(draws)
                hidden = _never_shown_to(full, viewer)
                leaks_possible += len(hidden)
                seen = {c for a in mine.actions for c in (a.cards or ()) if c is not None}
                assert not hidden & seen, (name, hidden & seen, r.text)
                for a in mine.actions:
                    if a.verb is Verb.DISCARD and a.player != viewer and a.cards:
                        assert set(a.cards) == {None}, r.text
                path = tmp_path / f"{name}-{row['hand_id']}.phh"
                path.write_text(r.text)
                files.append(path)
                checked += 1
    # A hand can end before the draw (a fold, or a clock that ran out before a driver
    # started: a timeout hand, exported and verified like the others).
    assert checked >= 2 * HANDS and with_draws >= 2 * (HANDS - 1) and leaks_possible > 0, (
        checked,
        with_draws,
    )
    result = CliRunner().invoke(app, ["phh", "verify", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"{len(files)} hands: {len(files)} exact" in result.output, result.output


async def _leave_mid_hand(p: Player, table_id: str) -> None:
    """Play the first hand, then drop the connection in the second one while the other
    player is to act (the table then protects ``p`` on their turn, R-TIME-2)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    began = 0
    while loop.time() < deadline:
        frame = await p.client.recv(max(0.1, deadline - loop.time()))
        if frame["type"] != "event":
            continue
        ev = frame["event"]
        p.events.append(ev)
        if ev["type"] == "hand_began":
            began += 1
        elif ev["type"] == "turn" and began >= 2 and ev["player_id"] != p.pid:
            await p.client.close()
            return
        elif ev["type"] == "turn" and ev.get("view") and ev["player_id"] == p.pid:
            for msg in _decide(p, ev):
                await p.send(table_id, msg)
    raise TimeoutError("no second hand")


def test_a_hand_with_an_all_in_protection_downloads_and_replays(
    server: LiveServer, tmp_path: Path
) -> None:
    """R-TIME-2, issue 10: a player drops their connection mid-hand at a room table; the
    table protects them all-in on their turn; the hand's PHH (both the archive's and the
    other player's download) records the protection and verifies exact, and its
    PokerStars text says the protection and replays in PokerKit to the archive's stacks."""
    tokens = {n: register_and_login(server.url, n) for n in ("stayer", "leaver")}
    for t in tokens.values():
        _fund(server, t)

    async def go() -> tuple[str, Player]:
        clients = {n: await Client.open(server.ws_url, t) for n, t in tokens.items()}
        made = await clients["stayer"].command({"type": "create_private", "seats": 2})
        table_id, code = made["data"]["table_id"], made["data"]["code"]
        players = {}
        for n, c in clients.items():
            me = httpx.get(
                server.url + "/api/me", timeout=30, headers={"Authorization": f"Bearer {tokens[n]}"}
            ).json()
            await c.send({"type": "subscribe", "table_id": table_id, "code": code})
            await c.expect("subscribed")
            ack = await c.command(
                {"type": "sit", "table_id": table_id, "buy_in": 100, "code": code}
            )
            assert ack["accepted"], ack
            players[n] = Player(n, c, str(me["id"]))
        stayer = players["stayer"]
        done = asyncio.Event()

        def protected_and_settled(q: Player) -> bool:
            types = [e["type"] for e in q.events]
            return "protected" in types and "hand_settled" in types[types.index("protected") :]

        await asyncio.gather(
            _leave_mid_hand(players["leaver"], table_id),
            _drive(stayer, table_id, _decide, done, protected_and_settled, 90.0),
        )
        await stayer.client.close()
        return table_id, stayer

    table_id, _ = asyncio.run(go())
    archive = server.app.state.services.store.archive
    with httpx.Client(
        base_url=server.url,
        headers={"Authorization": f"Bearer {tokens['stayer']}", "Origin": ORIGIN},
        timeout=30,
    ) as h:
        rows = [r for r in h.get("/api/hands").json() if r["table_id"] == table_id]
        protected = []
        for row in rows:
            full = archive.get(table_id, row["hand_id"]).phh
            if "all-in protection" not in full:
                continue
            r = h.get(f"/api/hands/{table_id}/{row['hand_id']}.phh")
            assert r.status_code == 200 and "# croupier: p" in r.text, r.text
            # the PokerStars text says the protection and replays exactly in PokerKit
            # (its chips in play, plus the chips the text sets aside)
            stored = archive.get(table_id, row["hand_id"]).summary
            txt = h.get(f"/api/hands/{table_id}/{row['hand_id']}.txt")
            assert txt.status_code == 200, txt.text
            assert "leaver is all-in by the all-in protection" in txt.text, txt.text
            ended = [e for e in stored["events"] if e["type"] == "hand_ended"][-1]
            assert replay(txt.text, stored["names"]).stacks == ended["stacks"], txt.text
            for text in (full, r.text):
                path = tmp_path / f"{row['hand_id']}-{len(protected)}.phh"
                path.write_text(text)
                protected.append(path)
    assert protected, "no hand recorded the protection"
    result = CliRunner().invoke(app, ["phh", "verify", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"{len(protected)} hands: {len(protected)} exact" in result.output, result.output
