"""Two processes of one room sharing Redis (issue #16, server/bus.py), through the
WebSocket a player uses: a table served by one process is watched from the other with no
gap, no repeat and no card shown, chat crosses processes both ways (checked by the rules
of the process running the table), a seated player and a seat request are sent to the
serving process, an account connecting on one process closes its connection on the
other, the room counts who is online across processes, and when the serving process
dies the watchers of the other are told the table moved and find it served where it now
is (R-CRASH-1)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from croupier.server.cluster import preferred
from tests.server.chaos import ServerProcess, register
from tests.server.live import Client, free_port
from tests.server.room import BUSY, health, metric, room
from tests.server.test_leaks import check_frame
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.rules("R-CRASH-1", "R-SEAT-2")]

NODES = ("a", "b")
BOT_TABLES = 4
TABLES = [f"bots-{i}" for i in range(1, BOT_TABLES + 1)]


def _pair(url: str, tmp_path: Path, redis_env: dict[str, str]) -> dict[str, ServerProcess]:
    return room(url, tmp_path, NODES, bot_tables=BOT_TABLES, env={**redis_env, **BUSY})


@contextlib.contextmanager
def _serving(
    url: str, tmp_path: Path, env: dict[str, str]
) -> Iterator[tuple[dict[str, ServerProcess], str]]:
    """The two processes started, b serving its share, and a table a serves; both killed
    at the end."""
    nodes = _pair(url, tmp_path, env)
    try:
        nodes["a"].start()
        nodes["b"].start()
        wait_until(lambda: health(nodes["b"]).get("tables") == 2, 30, "b serves its share")
        yield nodes, next(t for t in TABLES if preferred(t, NODES) == "a")
    finally:
        for n in NODES:
            nodes[n].kill()


async def _watch(client: Client, table_id: str) -> int:
    """Subscribe; the snapshot's version (after ``table_info`` and the snapshot)."""
    await client.send({"type": "subscribe", "table_id": table_id})
    await client.expect("table_info", table_id=table_id)
    snap = await client.expect("snapshot", table_id=table_id)
    done = await client.expect("subscribed", table_id=table_id)
    assert done["version"] == snap["version"]
    return int(snap["version"])


async def _events(client: Client, table_id: str, seconds: float) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    end = asyncio.get_running_loop().time() + seconds
    while (left := end - asyncio.get_running_loop().time()) > 0:
        try:
            frame = await client.recv(left)
        except TimeoutError:
            break
        if frame.get("type") == "event" and frame.get("table_id") == table_id:
            got.append(frame)
    return got


async def _chat(client: Client, table_id: str) -> dict[str, Any]:
    """The next chat line ``client`` hears at ``table_id`` (already received or to come)."""
    for frame in client.frames:
        if frame.get("type") == "chat" and frame.get("table_id") == table_id:
            client.frames.remove(frame)
            return frame
    frame = await client.expect("chat", table_id=table_id)
    client.frames.remove(frame)
    return frame


def test_a_table_is_watched_and_chatted_at_from_the_other_process(
    sqlite_url: str, tmp_path: Path, redis_env: dict[str, str]
) -> None:
    with _serving(sqlite_url, tmp_path, redis_env) as (nodes, table):
        watcher = register(nodes["a"].base, "buswatch")
        local = register(nodes["a"].base, "buslocal")
        player = register(nodes["a"].base, "busplayer")

        async def scenario() -> None:
            here = await Client.open(nodes["a"].ws_url, local.token)
            there = await Client.open(nodes["b"].ws_url, watcher.token)
            await _watch(here, table)
            wait_until(lambda: "b" in [n for n in NODES if health(nodes[n])], 5, "b up")
            since = await _watch(there, table)  # from b: relayed, not refused
            seen_here, seen_there = await asyncio.gather(
                _events(here, table, 4.0), _events(there, table, 4.0)
            )
            for frame in there.frames:  # a relayed frame shows the watcher no card
                check_frame(frame, str(watcher.pid))
            versions = [f["version"] for f in seen_there]
            assert len(versions) >= 10, f"too few relayed events: {versions}"
            assert versions == sorted(set(versions)) and versions[0] > since  # no repeat
            # the same frames as a's own spectator got, version for version: no gap
            here_by_version = {f["version"]: f for f in seen_here}
            common = [v for v in versions if v <= max(here_by_version)]
            expected = [v for v in sorted(here_by_version) if versions[0] <= v <= common[-1]]
            assert common == expected
            for v in common:
                assert seen_there[versions.index(v)]["event"] == here_by_version[v]["event"]
            assert metric(nodes["a"], "croupier_bus_tables_published") == 1
            assert metric(nodes["b"], "croupier_bus_tables_relayed") == 1
            # chat both ways, said by the rules of the table's process
            ack = await there.command({"type": "chat", "table_id": table, "canned": "gg"})
            assert ack["accepted"], ack
            heard = await _chat(here, table)
            assert (heard["from"], heard["canned"]) == ("buswatch", "gg")
            echo = await _chat(there, table)  # it may come before the ack
            assert echo["from"] == "buswatch"
            ack = await here.command({"type": "chat", "table_id": table, "canned": "nh"})
            assert ack["accepted"], ack
            heard = await _chat(there, table)
            assert (heard["from"], heard["canned"]) == ("buslocal", "nh")
            bad = await there.command({"type": "chat", "table_id": table, "canned": "nope"})
            assert (bad["accepted"], bad["code"]) == (False, "unknown_canned"), bad
            # a seat is taken where the table runs
            sit = await there.command({"type": "sit", "table_id": table, "buy_in": 100})
            assert (sit["accepted"], sit["code"]) == (False, "table_elsewhere"), sit
            assert sit["data"] == {"url": nodes["a"].base}
            # a player seated there is sent there to play (cards are dealt there)
            seated = await Client.open(nodes["a"].ws_url, player.token)
            await _watch(seated, table)
            ack = await seated.command({"type": "sit", "table_id": table, "buy_in": 100})
            assert ack["accepted"], ack
            await seated.close()
            elsewhere = await Client.open(nodes["b"].ws_url, player.token)
            await elsewhere.send({"type": "subscribe", "table_id": table})
            refused = await elsewhere.expect("error")
            assert (refused["code"], refused["url"]) == ("table_elsewhere", nodes["a"].base)
            # who is online: the room's count, the same from both processes
            wait_until(
                lambda: {health(nodes[n]).get("online") for n in NODES} == {3},
                10,
                "three accounts online in the room",
            )
            # one connection per account in the whole room: the newest wins
            again = await Client.open(nodes["a"].ws_url, watcher.token)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(500):
                    await there.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
            for c in (here, again, elsewhere):
                await c.close()

        asyncio.run(scenario())


def test_watchers_of_a_dead_process_s_table_follow_it_to_where_it_moved(
    sqlite_url: str, tmp_path: Path, redis_env: dict[str, str]
) -> None:
    """SIGKILL the serving process: the other takes the table over (R-CRASH-1) and its
    relayed watchers are told ``table_closed`` (``moved``); subscribing again, they get
    the table from the process serving it now."""
    with _serving(sqlite_url, tmp_path, redis_env) as (nodes, table):
        watcher = register(nodes["a"].base, "busmoved")

        async def scenario() -> None:
            there = await Client.open(nodes["b"].ws_url, watcher.token)
            await _watch(there, table)
            await there.expect("event", table_id=table)
            nodes["a"].kill()
            closed = await there.expect("table_closed", table_id=table, timeout=15)
            assert closed["reason"] == "moved"
            await _watch(there, table)  # served by b now
            await there.expect("event", table_id=table, timeout=15)
            await there.close()

        asyncio.run(scenario())
        assert health(nodes["b"]).get("tables") == BOT_TABLES


def test_redis_settings_are_checked() -> None:
    """Redis needs node mode and a redis URL; the prefix is a plain word."""
    from croupier.server.settings import Settings, SettingsError

    node = {"CROUPIER_NODE_ID": "a", "CROUPIER_NODES": "a,b"}
    ok = Settings.from_env({**node, "CROUPIER_REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert (ok.redis_url, ok.redis_prefix) == ("redis://127.0.0.1:6379/0", "croupier")
    for env, code in (
        ({"CROUPIER_REDIS_URL": "redis://127.0.0.1:6379/0"}, "bad_node"),
        ({**node, "CROUPIER_REDIS_URL": "http://127.0.0.1:6379"}, "bad_redis"),
        ({**node, "CROUPIER_REDIS_PREFIX": "a b"}, "bad_redis"),
        ({**node, "CROUPIER_REDIS_PREFIX": "x:*"}, "bad_redis"),
    ):
        with pytest.raises(SettingsError) as err:
            Settings.from_env(env)
        assert err.value.code == code, (env, err.value)


def test_redis_going_away_stops_no_table_and_the_room_joins_again(
    sqlite_url: str, tmp_path: Path, redis_env: dict[str, str]
) -> None:
    """A Redis of the test's own, stopped for 5 s and started again empty: the tables play
    on meanwhile (Redis carries no game state), the relayed watcher gets frames again
    without subscribing anew (a gap it resyncs, as the client does), and the room's
    presence count comes back."""
    import shutil
    import subprocess

    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (bash scripts/redis.sh installs it)")
    port = free_port()

    def redis_up() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [
                server,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_until(lambda: _redis_ping(port), 10, "redis up")
        return proc

    redis = redis_up()
    own = {**redis_env, "CROUPIER_REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    try:
        with _serving(sqlite_url, tmp_path, own) as (nodes, table):
            watcher = register(nodes["a"].base, "busaway")

            async def scenario() -> None:
                nonlocal redis
                there = await Client.open(nodes["b"].ws_url, watcher.token)
                await _watch(there, table)
                assert await _events(there, table, 2.0)
                hands = _settled(nodes["a"])
                redis.terminate()
                redis.wait(10)
                await _events(there, table, 5.0)
                assert _settled(nodes["a"]) > hands  # the table played on without Redis
                redis = redis_up()  # empty: no subscription, no presence
                back = await _events(there, table, 6.0)
                assert len(back) >= 5, "the relay did not come back"
                await there.send({"type": "resync", "table_id": table})
                snap = await there.expect("snapshot", table_id=table)
                after = await _events(there, table, 2.0)
                assert after and after[0]["version"] > snap["version"]
                wait_until(
                    lambda: {health(nodes[n]).get("online") for n in NODES} == {1},
                    10,
                    "presence rebuilt",
                )
                await there.close()

            asyncio.run(scenario())
    finally:
        redis.kill()
        redis.wait(10)


def _redis_ping(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _settled(server: ServerProcess) -> int:
    return metric(server, "croupier_hands_settled_total")
