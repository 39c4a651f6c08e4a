"""``croupier serve --processes N``: the room on every core of one machine (issue #16,
server/processes.py). The pure parts (how many processes, their ports and names, the
restart budget), the command's refusals, the supervisor's restart bookkeeping on fake
children, and the real thing: a supervisor of two ``croupier serve`` processes on one
SQLite file, one of them killed with SIGKILL and started again while the other serves
its tables, then the whole room stopped with SIGTERM."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from croupier.cli import app as cli_app
from croupier.server import processes
from croupier.server.cluster import preferred
from croupier.server.processes import (
    MAX_AUTO,
    RestartBudget,
    Supervisor,
    auto_processes,
    backoff,
    check,
    child_env,
    plan,
    resolve,
    usable_cores,
)
from croupier.server.settings import Settings, SettingsError
from tests.ports import bindable, free_port
from tests.server.chaos import CROUPIER, server_env
from tests.server.room import holders
from tests.server.test_crash import escrow_matches_journal
from tests.waiting import wait_until

NODES = ("n1", "n2")
BOT_TABLES = 6
TABLES = [f"bots-{i}" for i in range(1, BOT_TABLES + 1)]
LEASE = 2.0


# -- the pure parts ---------------------------------------------------------------------


def test_auto_is_one_process_per_usable_core_between_1_and_8() -> None:
    assert [auto_processes(c) for c in (0, 1, 2, 3, 8, 9, 128)] == [1, 1, 2, 3, 8, 8, 8]
    assert MAX_AUTO == 8
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)
    if hasattr(os, "sched_getaffinity") and sys.version_info < (3, 13):
        assert usable_cores() == len(os.sched_getaffinity(0))
    assert resolve("auto", lambda: 1) == 1  # a 1-core machine: today's single process
    assert resolve("auto", lambda: 2) == 2
    assert resolve("auto") == auto_processes(usable_cores())
    assert resolve("5") == 5


def test_the_plan_names_nodes_n1_to_nN_on_consecutive_ports() -> None:
    nodes = plan(Settings(port=9000), 3)
    assert [(n.node_id, n.port) for n in nodes] == [("n1", 9000), ("n2", 9001), ("n3", 9002)]
    assert [n.url for n in nodes] == [f"http://127.0.0.1:{p}" for p in (9000, 9001, 9002)]
    assert [n.health for n in nodes] == [f"http://127.0.0.1:{p}/health" for p in (9000, 9001, 9002)]
    # an explicit CROUPIER_NODE_URL gives the scheme and the host, each node its own port
    https = plan(Settings(port=8443, node_url="https://poker.example"), 2)
    assert [n.url for n in https] == ["https://poker.example:8443", "https://poker.example:8444"]
    assert https[0].health == "http://127.0.0.1:8443/health"
    # every address served: the browser and the health check use loopback
    wild = plan(Settings(host="0.0.0.0", port=8000), 2)
    assert [n.url for n in wild] == ["http://127.0.0.1:8000", "http://127.0.0.1:8001"]
    six = plan(Settings(host="::1", port=8000), 1)
    assert six[0].url == "http://[::1]:8000"


def test_each_child_gets_its_node_settings_and_inherits_the_rest() -> None:
    settings = Settings(database_url="postgresql://u@db/room", host="0.0.0.0", port=7000)
    nodes = plan(settings, 2)
    base = {"CROUPIER_LEASE_SECONDS": "2", "CROUPIER_PROCESSES": "auto", "PATH": "/bin"}
    env = child_env(base, settings, nodes[1], nodes)
    assert env == {
        "CROUPIER_LEASE_SECONDS": "2",
        "PATH": "/bin",
        "CROUPIER_DATABASE_URL": "postgresql://u@db/room",
        "CROUPIER_HOST": "0.0.0.0",
        "CROUPIER_PORT": "7001",
        "CROUPIER_NODE_ID": "n2",
        "CROUPIER_NODES": "n1,n2",
        "CROUPIER_NODE_URL": "http://127.0.0.1:7001",
        "CROUPIER_PROCESSES": "1",
    }
    # what the child reads back is a valid node of the room
    child = Settings.from_env(env)
    assert (child.node_id, child.nodes, child.port, child.processes) == ("n2", NODES, 7001, "1")


def test_a_supervisor_that_cannot_work_is_refused_before_anything_starts() -> None:
    check(Settings(), 1)
    check(Settings(node_id="a", nodes=("a",)), 1)  # one node of a room: today's way
    with pytest.raises(SettingsError, match="unset CROUPIER_NODE_ID") as exc:
        check(Settings(node_id="a", nodes=("a", "b")), 2)
    assert exc.value.code == "bad_processes"
    with pytest.raises(SettingsError, match="past 65535"):
        check(Settings(port=65530), 7)
    check(Settings(port=65530), 6)
    with pytest.raises(SettingsError, match="CROUPIER_NODE_URL"):
        check(Settings(node_url="ftp://x"), 2)


@pytest.mark.parametrize("bad", ["0", "-1", "x", "99", "17", "2.5", "", "²"])
def test_the_processes_setting_is_auto_or_1_to_16(bad: str) -> None:
    with pytest.raises(SettingsError) as exc:
        Settings(processes=bad)
    assert exc.value.code == "bad_processes"
    assert Settings.from_env({"CROUPIER_PROCESSES": "auto"}).processes == "auto"
    assert Settings.from_env({"CROUPIER_PROCESSES": " 16 "}).processes == "16"
    assert Settings().processes == "1"


def test_the_restart_budget_is_5_restarts_in_60_s_with_a_growing_back_off() -> None:
    """R-CRASH-1: a node that dies is started again, but not in a tight loop."""
    budget = RestartBudget()
    for t in (0.0, 1.0, 3.0, 7.0, 15.0):
        assert budget.allows(t)
        budget = budget.after(t)
    assert not budget.allows(30.0)
    assert not budget.allows(59.9)
    assert budget.allows(60.5)  # the first restart left the window
    assert len(budget.after(100.0).times) == 1  # old ones are forgotten
    assert [backoff(k) for k in range(7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]


# -- the command ------------------------------------------------------------------------


@pytest.fixture
def no_start(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Nothing may start: no child process, no server; calls are recorded."""
    calls: list[Any] = []

    def popen(*args: Any, **kwargs: Any) -> Any:
        calls.append(("popen", args))
        raise AssertionError("a process was started")

    def serve(settings: Settings) -> None:
        calls.append(("serve", settings))

    def supervise(settings: Settings, n: int, **options: Any) -> int:
        calls.append(("supervise", n))
        return 0

    import croupier.server.serve as serve_module

    monkeypatch.setattr(processes.subprocess, "Popen", popen)
    monkeypatch.setattr(serve_module, "serve", serve)
    monkeypatch.setattr(processes, "supervise", supervise)
    for key in (
        "CROUPIER_PROCESSES",
        "CROUPIER_NODE_ID",
        "CROUPIER_NODES",
        "CROUPIER_PORT",
        "CROUPIER_REDIS_URL",
    ):
        monkeypatch.delenv(key, raising=False)
    return calls


@pytest.mark.parametrize("bad", ["0", "-1", "x", "99"])
def test_a_bad_processes_value_exits_2_and_starts_nothing(bad: str, no_start: list[Any]) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--processes", bad])
    assert result.exit_code == 2, result.output
    assert (
        f"error [bad_processes]: --processes / CROUPIER_PROCESSES must be auto or 1..16, not '{bad}'"
        in (result.output)
    )
    result = CliRunner().invoke(cli_app, ["serve"], env={"CROUPIER_PROCESSES": bad})
    assert result.exit_code == 2, result.output
    assert "bad_processes" in result.output
    assert no_start == []


def test_the_command_serves_one_process_or_supervises_n(
    no_start: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    assert runner.invoke(cli_app, ["serve"]).exit_code == 0  # default: one process
    assert runner.invoke(cli_app, ["serve", "--processes", "1"]).exit_code == 0
    assert runner.invoke(cli_app, ["serve", "--processes", "3"]).exit_code == 0
    assert runner.invoke(cli_app, ["serve"], env={"CROUPIER_PROCESSES": "2"}).exit_code == 0
    monkeypatch.setattr(processes, "usable_cores", lambda: 1)
    assert runner.invoke(cli_app, ["serve", "--processes", "auto"]).exit_code == 0
    monkeypatch.setattr(processes, "usable_cores", lambda: 4)
    assert runner.invoke(cli_app, ["serve", "--processes", "auto"]).exit_code == 0
    kinds = [c[0] if c[0] == "serve" else c for c in no_start]
    assert kinds == [
        "serve",
        "serve",
        ("supervise", 3),
        ("supervise", 2),
        "serve",
        ("supervise", 4),
    ]
    # one process is today's server: no node, no lease
    served = [c[1] for c in no_start if c[0] == "serve"]
    assert all(s.node_id == "" and s.nodes == () for s in served)
    # a node of a hand-made room cannot be split further
    result = runner.invoke(
        cli_app,
        ["serve", "--processes", "2"],
        env={"CROUPIER_NODE_ID": "a", "CROUPIER_NODES": "a,b"},
    )
    assert result.exit_code == 2 and "unset CROUPIER_NODE_ID" in result.output


def test_redis_is_a_setting_of_the_children_not_of_the_supervisor(no_start: list[Any]) -> None:
    """``CROUPIER_REDIS_URL`` needs a node name: the supervisor passes it on to its
    children (each a node); a single process without a node name is refused as before."""
    runner = CliRunner()
    redis = {"CROUPIER_REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert runner.invoke(cli_app, ["serve", "--processes", "2"], env=redis).exit_code == 0
    assert no_start == [("supervise", 2)]
    result = runner.invoke(cli_app, ["serve", "--processes", "1"], env=redis)
    assert result.exit_code == 2 and "CROUPIER_REDIS_URL needs CROUPIER_NODE_ID" in result.output
    # a child's settings that cannot work are refused before anything starts
    result = runner.invoke(
        cli_app, ["serve", "--processes", "2"], env={"CROUPIER_REDIS_URL": "http://nope"}
    )
    assert result.exit_code == 2 and "bad_redis" in result.output
    assert no_start == [("supervise", 2)]


# -- the supervisor's bookkeeping on fake children ---------------------------------------


class FakeProc:
    """A child process the test kills by setting its exit code."""

    pids = iter(range(1000, 2000))

    def __init__(self, command: list[str], **kwargs: Any) -> None:
        self.pid = next(self.pids)
        self.env = kwargs["env"]
        self.code: int | None = None
        self.signals: list[int] = []

    def poll(self) -> int | None:
        return self.code

    def send_signal(self, signum: int) -> None:
        self.signals.append(signum)
        self.code = -signum

    def wait(self, timeout: float | None = None) -> int:
        assert self.code is not None
        return self.code

    def kill(self) -> None:
        self.code = -9


def test_a_dead_child_is_started_again_with_back_off_and_given_up_past_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-CRASH-1: the supervisor restarts a node that died (its tables are taken over by
    the others meanwhile); a node dying in a loop is given up after 5 restarts in 60 s."""
    spawned: list[FakeProc] = []

    def popen(command: list[str], **kwargs: Any) -> FakeProc:
        spawned.append(FakeProc(command, **kwargs))
        return spawned[-1]

    now = [0.0]
    monkeypatch.setattr(processes.subprocess, "Popen", popen)
    monkeypatch.setattr(processes, "_healthy", lambda url, timeout: True)
    out = io.StringIO()
    sup = Supervisor(Settings(port=9000), 2, env={}, out=out, clock=lambda: now[0])
    for child in sup.children:
        sup._spawn(child)
    assert [p.env["CROUPIER_NODE_ID"] for p in spawned] == ["n1", "n2"]
    assert sup._watch()
    assert "n1 serves http://127.0.0.1:9000/ again" in out.getvalue()
    n2 = sup.children[1]
    for k in range(5):
        n2.proc.code = -9  # type: ignore[union-attr]
        assert sup._watch()  # the death is seen: a restart is due after the back-off
        assert n2.restart_at == pytest.approx(now[0] + backoff(k))
        now[0] += backoff(k) - 0.01
        sup._watch()
        assert len(spawned) == 2 + k  # not yet
        now[0] += 0.01
        sup._watch()
        assert len(spawned) == 3 + k and spawned[-1].env["CROUPIER_NODE_ID"] == "n2"
        assert n2.proc is spawned[-1]
    n2.proc.code = 1  # type: ignore[union-attr]
    assert sup._watch()  # n1 still serves
    assert n2.given_up
    assert "error: node n2 died 5 times in 60 s; giving it up" in out.getvalue()
    assert "node n2 (pid" in out.getvalue() and "died with code -9" in out.getvalue()
    n1 = sup.children[0]
    n1.budget = RestartBudget(times=(now[0],) * 5)  # n1 spent its budget too
    n1.proc.code = 1  # type: ignore[union-attr]
    assert not sup._watch()  # no node left: the supervisor stops
    assert sup.stop() == 0


def test_stop_sends_sigterm_to_every_live_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes.subprocess, "Popen", FakeProc)
    sup = Supervisor(Settings(), 2, env={}, out=io.StringIO())
    for child in sup.children:
        sup._spawn(child)
    assert sup.stop() == 0
    assert [c.proc.signals for c in sup.children] == [[signal.SIGTERM]] * 2  # type: ignore[union-attr]


# -- the real thing: two processes on one SQLite file ------------------------------------


def _told(exc: Exception, log: Path) -> AssertionError:
    """``exc`` with what the supervisor and its nodes said (the log's tail, without the
    access lines): why a node did not come back shows there."""
    said = [line for line in log.read_text().splitlines() if '"GET /' not in line]
    tail = "\n".join(said[-60:])
    return AssertionError(f"{exc}\n--- the supervisor's log, last lines but requests ---\n{tail}")


def _two_ports() -> int:
    """A free port whose next one is free too."""
    for _ in range(100):
        port = free_port()
        if port < 65535 and bindable(port + 1):
            return port
    raise AssertionError("no two consecutive free ports")


def _children(pid: int) -> dict[str, int]:
    """The supervisor's live children by node name (from their environment)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return {}
    found = {}
    for child in text.split():
        try:
            env = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
            status = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if status == "Z":
            continue
        for item in env:
            if item.startswith(b"CROUPIER_NODE_ID="):
                found[item.split(b"=", 1)[1].decode()] = int(child)
    return found


def _health(port: int) -> dict[str, Any]:
    try:
        body: dict[str, Any] = httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).json()
    except (httpx.HTTPError, ValueError):
        return {}
    return body


def _settled(port: int) -> int:
    try:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=2).text
    except httpx.HTTPError:
        return 0
    for line in text.splitlines():
        if line.startswith("croupier_hands_settled_total "):
            return int(line.split()[1])
    return 0


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return status == "Z"  # dead, not yet reaped


def _start(
    url: str, port: int, log: Path, *args: str, extra: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    env = {
        **server_env(url, port, BOT_TABLES),
        **(extra or {}),
        "CROUPIER_LEASE_SECONDS": str(LEASE),
        "CROUPIER_CASINO_TABLES": "0",
        "CROUPIER_BOT_DELAY_SECONDS": "0.05",
        "CROUPIER_BETWEEN_HANDS_SECONDS": "0.05",
    }
    for key in ("CROUPIER_PROCESSES", "CROUPIER_NODE_ID", "CROUPIER_NODES", "CROUPIER_NODE_URL"):
        env.pop(key, None)
    with log.open("ab") as out:
        return subprocess.Popen(
            [CROUPIER, "serve", "--processes", "2", *args],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


@pytest.mark.slow
@pytest.mark.rules("R-CRASH-1")
def test_two_processes_serve_one_room_restart_a_killed_one_and_stop_on_sigterm(
    sqlite_url: str, tmp_path: Path
) -> None:
    """R-CRASH-1: the supervisor of two nodes on one SQLite file: both healthy, the first
    one's lobby lists the second one's tables with its address; a node killed with SIGKILL
    is started again (a new process, healthy) while the other takes its tables over, so
    every table stays served; SIGTERM to the supervisor stops every child, exit 0, audit
    clean."""
    port = _two_ports()
    log = tmp_path / "supervisor.log"
    sup = _start(sqlite_url, port, log)
    seen: set[int] = set()
    try:
        wait_until(
            lambda: _health(port).get("node") == "n1" and _health(port + 1).get("node") == "n2",
            240,
            "both nodes healthy",
            interval=0.2,
        )
        lines = [f"croupier: node n{k + 1} serves http://127.0.0.1:{port + k}/" for k in (0, 1)]
        # (the supervisor says so once it saw the node healthy: a moment after the test)
        wait_until(lambda: all(line in log.read_text() for line in lines), 10, "both announced")
        first = _children(sup.pid)
        assert set(first) == set(NODES), first
        seen.update(first.values())
        # each table leased by its node; the first node's lobby lists the second's tables
        wait_until(
            lambda: holders(sqlite_url) == {t: preferred(t, NODES) for t in TABLES},
            60,
            "each table leased by its node",
        )
        share_2 = sorted(t for t in TABLES if preferred(t, NODES) == "n2")
        assert share_2 and len(share_2) < BOT_TABLES

        def remote_rows() -> dict[str, str | None]:
            rows = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=5).json()
            return {r["table_id"]: r.get("node_url") for r in rows}

        wait_until(
            lambda: (
                remote_rows()
                == {t: (f"http://127.0.0.1:{port + 1}" if t in share_2 else None) for t in TABLES}
            ),
            30,
            "the first node's lobby listing the second's tables with their node_url",
        )
        # bots play on both
        wait_until(lambda: _settled(port) > 0 and _settled(port + 1) > 0, 60, "hands on both nodes")

        # SIGKILL the second node: started again, its tables served meanwhile
        os.kill(first["n2"], signal.SIGKILL)
        wait_until(
            lambda: _children(sup.pid).get("n2", first["n2"]) != first["n2"],
            30,
            "n2 started again",
            interval=0.1,
        )
        again = _children(sup.pid)
        seen.update(again.values())
        assert again["n1"] == first["n1"]
        wait_until(lambda: _health(port + 1).get("node") == "n2", 240, "n2 healthy again")
        wait_until(
            lambda: (
                set(holders(sqlite_url)) == set(TABLES)
                and (_health(port).get("tables", 0) + _health(port + 1).get("tables", 0))
                == BOT_TABLES
            ),
            60,
            "every table served again",
        )
        assert f"node n2 (pid {first['n2']}) died with code -9" in log.read_text()
        wait_until(  # the supervisor probes a restarted node twice a second
            lambda: (
                f"node n2 serves http://127.0.0.1:{port + 1}/ again (pid {again['n2']})"
                in log.read_text()
            ),
            10,
            "the supervisor saying n2 serves again",
        )
        settled = _settled(port) + _settled(port + 1)
        wait_until(lambda: _settled(port) + _settled(port + 1) > settled, 60, "hands go on after")

        # SIGTERM to the supervisor: every child stops, exit 0
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(60) == 0, log.read_text()[-3000:]
        assert all(_gone(pid) for pid in seen), seen
        assert not _health(port) and not _health(port + 1)
        escrow_matches_journal(sqlite_url, tables=TABLES)
    except Exception as exc:
        raise _told(exc, log) from exc
    finally:
        if sup.poll() is None:
            sup.kill()
            sup.wait(30)
        for pid in seen:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_a_node_that_cannot_start_stops_the_room_with_a_clear_error(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The second node's port is taken: the supervisor says which node failed, stops the
    first one and exits 1."""
    port = _two_ports()
    log = tmp_path / "supervisor.log"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port + 1))
        taken.listen()
        sup = _start(sqlite_url, port, log)
        seen: set[int] = set()
        try:
            wait_until(lambda: _health(port).get("node") == "n1", 240, "n1 healthy")
            seen.update(_children(sup.pid).values())
            assert sup.wait(240) == 1
        except Exception as exc:
            raise _told(exc, log) from exc
        finally:
            if sup.poll() is None:
                sup.kill()
                sup.wait(30)
    text = log.read_text()
    assert "croupier: error: node n2 exited with code 3 at start; stopping the room" in text, text[
        -3000:
    ]
    assert all(_gone(pid) for pid in seen), seen
    assert not _health(port)


@pytest.mark.slow
def test_the_room_s_redis_goes_to_every_node(
    sqlite_url: str, tmp_path: Path, redis_env: dict[str, str]
) -> None:
    """``CROUPIER_REDIS_URL`` is a node's setting: given to the supervisor (which has no
    node name), it reaches both children, which start as nodes of one room on the bus;
    SIGTERM stops them, exit 0."""
    port = _two_ports()
    log = tmp_path / "supervisor.log"
    sup = _start(sqlite_url, port, log, extra=redis_env)
    seen: set[int] = set()
    try:
        wait_until(
            lambda: _health(port).get("node") == "n1" and _health(port + 1).get("node") == "n2",
            240,
            "both nodes healthy",
            interval=0.2,
        )
        kids = _children(sup.pid)
        seen.update(kids.values())
        for pid in kids.values():
            env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            assert f"CROUPIER_REDIS_URL={redis_env['CROUPIER_REDIS_URL']}".encode() in env
        wait_until(
            lambda: sum(_health(p).get("tables", 0) for p in (port, port + 1)) == BOT_TABLES,
            60,
            "every table served",
        )
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(60) == 0, log.read_text()[-3000:]
        assert seen and all(_gone(pid) for pid in seen)
    except Exception as exc:
        raise _told(exc, log) from exc
    finally:
        if sup.poll() is None:
            sup.kill()
            sup.wait(30)
