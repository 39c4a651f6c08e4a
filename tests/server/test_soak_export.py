"""Hand exports a tracker can read (issue #15): a player plays a run of hands with the
bots over the WebSocket — including hands decided for them while disconnected past the
grace (all-in protection, then folds) — then downloads every hand they were dealt in as
PHH and as PokerStars text through the HTTP API. Every PHH replays with ``croupier phh
verify``; every text is read by PokerKit's parser and replays to the same final stacks;
the text carries the real time of the hand and a hand number unique across the room."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.history.pokerstars_replay import pokerkit_split, replay
from tests.server.live import ORIGIN, Client, LiveServer, fast_settings, register_and_login, running

TABLE = "nlhe-1-2"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("soak-export") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}")) as srv:
        yield srv


def _answer(ev: dict[str, Any]) -> dict[str, Any]:
    legal = ev["view"]["legal"]
    if ev["phase"] == "showdown":
        return {"type": "show", "table_id": TABLE, "show": True}
    if legal["can_check"]:
        return {"type": "act", "table_id": TABLE, "action": "check"}
    if legal["can_call"]:
        return {"type": "act", "table_id": TABLE, "action": "call"}
    return {"type": "act", "table_id": TABLE, "action": "fold"}


async def _play(c: Client, me: str, hands: int, timeout: float = 120.0) -> int:
    """Check/call ``hands`` settled hands ``me`` was dealt in; returns how many."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    dealt, played = False, 0
    while played < hands and loop.time() < deadline:
        frame = await c.recv(max(0.1, deadline - loop.time()))
        ev = frame.get("event") or {}
        if ev.get("type") == "hand_began":
            dealt = me in ev["players"]
        elif ev.get("type") == "turn" and ev.get("view") and ev.get("player_id") == me:
            await c.send({**_answer(ev), "id": c.next_id()})
        elif ev.get("type") == "hand_settled" and dealt:
            played += 1
    return played


def test_every_hand_of_a_soak_exports_and_replays(server: LiveServer, tmp_path: Path) -> None:
    """R-POT-6 (history), R-TIME-2: every hand of the run, protections and automatic folds
    included, downloads as PHH that ``croupier phh verify`` replays with no mismatch and
    as PokerStars text that PokerKit parses and replays to the archive's final stacks (a
    protected player's chips set aside, which the text states, added back; a split pot's
    odd chips, which PokerKit gives its own way, R-POT-3, recognised exactly)."""
    token = register_and_login(server.url, "soaker")
    headers = {"Authorization": f"Bearer {token}", "Origin": ORIGIN}
    r = httpx.post(
        server.url + "/api/exchange", json={"diamonds": 600, "key": "soak-fund"}, headers=headers
    )
    assert r.status_code == 200, r.text
    me = str(httpx.get(server.url + "/api/me", headers=headers).json()["id"])

    async def go() -> None:
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        assert (await c.command({"type": "sit", "table_id": TABLE, "buy_in": 200}))["accepted"]
        assert await _play(c, me, 12) == 12
        await c.close()  # away: after the 10 s grace the table decides for us at our turns
        await asyncio.sleep(25)
        c = await Client.open(server.ws_url, token)
        await c.send({"type": "subscribe", "table_id": TABLE})
        await c.expect("subscribed")
        # sat out after the absence (or busted)? the hands so far are enough
        with contextlib.suppress(TimeoutError):
            await _play(c, me, 2, timeout=30.0)
        await c.command({"type": "leave", "table_id": TABLE})
        await c.close()

    asyncio.run(go())
    rows = httpx.get(server.url + "/api/hands?limit=500", headers=headers).json()
    assert len(rows) >= 12
    assert all(row["table_name"] == "NLHE 1/2 6-max" for row in rows)
    archive = server.app.state.services.store.archive
    automatic = 0
    mismatched: list[tuple[str, bool, list[int] | None, list[int]]] = []
    odd_chips = 0
    numbers: set[str] = set()
    files: list[Path] = []
    shielded: list[Path] = []  # hands with an all-in protection
    today = datetime.now(UTC).strftime("%Y/%m/%d")
    for row in rows:
        base = f"{server.url}/api/hands/{row['table_id']}/{row['hand_id']}"
        phh = httpx.get(base + ".phh", headers=headers)
        assert phh.status_code == 200, phh.text
        path = tmp_path / f"{row['hand_id']}.phh"
        path.write_text(phh.text, encoding="utf-8")
        txt = httpx.get(base + ".txt", headers=headers)
        assert txt.status_code == 200, txt.text
        head = txt.text.splitlines()[0]
        assert today in head, head  # the real date, not a placeholder
        numbers.add(head.split("#", 1)[1].split(":", 1)[0])
        stored = archive.get(row["table_id"], row["hand_id"])
        summary = stored.summary
        ended = [e for e in summary["events"] if e["type"] == "hand_ended"][-1]
        protected = any(  # the engine records a protection as an all-in "check" adding 0
            e["type"] == "acted" and e["action"] == "check" and e["all_in"] and not e["added"]
            for e in summary["events"]
        )
        automatic += protected
        (shielded if protected else files).append(path)
        back = replay(txt.text, [_text_name(x) for x in summary["names"]])
        if protected:
            assert "set aside by the all-in protection" in txt.text, txt.text
            assert back.set_aside > 0
        if back.stacks == list(ended["stacks"]):
            continue
        pots = [(pot["eligible"], pot["winnings"]) for pot in ended["pots"]]
        if back.stacks is not None and pokerkit_split(ended["stacks"], pots, back.survivors) == (
            back.stacks
        ):
            odd_chips += 1  # R-POT-3: PokerKit's odd chips, the engine's winners
            continue
        mismatched.append((row["hand_id"], protected, back.stacks, ended["stacks"]))
    assert len(numbers) == len(rows)  # unique hand numbers
    done = verify(files)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"{len(files)} hands: {len(files)} exact" in done.stdout, done.stdout[-500:]
    assert mismatched == [], (mismatched, automatic, odd_chips)  # protected or not: none
    shielded_done = verify(shielded)  # protected hands: the PHH replays exactly too
    assert shielded_done.returncode == 0, shielded_done.stdout[-2000:]


def _text_name(name: str) -> str:
    """A player's name as the PokerStars text writes it (``history.pokerstars._name``)."""
    return name.replace("\n", " ").replace(":", "_").strip() or "?"


def verify(files: list[Path]) -> subprocess.CompletedProcess[str]:
    """``croupier phh verify`` on ``files``."""
    cli = str(Path(sys.executable).parent / "croupier")
    return subprocess.run(
        [cli, "phh", "verify", *map(str, files)], capture_output=True, text=True, timeout=300
    )
