"""``croupier serve --processes N``: the room on every core of one machine (issue #16).

One server process runs its tables' actors on one event-loop thread, so it uses one
core. With ``--processes N`` (``CROUPIER_PROCESSES``; ``auto``: one per usable core, at
most :data:`MAX_AUTO`) and N > 1, ``croupier serve`` is a small **supervisor** of N room
nodes (:mod:`croupier.server.cluster`) on one database:

- node ``nK`` is a child ``croupier serve --processes 1`` with the same environment plus
  ``CROUPIER_NODE_ID=nK``, ``CROUPIER_NODES=n1,…,nN``, ``CROUPIER_PORT=port+K-1`` and
  ``CROUPIER_NODE_URL`` (the address a browser reaches it at: the scheme and host of an
  explicit ``CROUPIER_NODE_URL``, else ``http`` and the host served, with the child's
  port); ``n1`` runs the room-wide services (tournaments, casino);
- the children start one at a time, each waited for at ``/health`` (the first migrates
  the database) within a bounded time; a child that fails to start stops the lot with
  a clear message and a non-zero exit;
- a child that dies unexpectedly is started again after a back-off (:func:`backoff`),
  at most :data:`RESTART_LIMIT` times in :data:`RESTART_WINDOW` seconds
  (:class:`RestartBudget`); past that the supervisor gives that node up and says so.
  Meanwhile the other nodes take its tables over through their leases (R-CRASH-1);
- SIGINT or SIGTERM: every child gets SIGTERM (each gives its tables up and closes its
  sockets), the supervisor waits the shutdown grace plus a margin, kills what is left,
  and exits 0 when every child stopped by itself.

With N == 1 ``croupier serve`` is the single process it always was (no node, no lease).
The pure parts (how many, which ports and names, the restart budget) are below the
supervisor's loop and tested on their own:

>>> auto_processes(2), auto_processes(1), auto_processes(64), auto_processes(0)
(2, 1, 8, 1)
>>> [(p.node_id, p.port, p.url) for p in plan(Settings(port=9000), 2)]
[('n1', 9000, 'http://127.0.0.1:9000'), ('n2', 9001, 'http://127.0.0.1:9001')]
>>> budget = RestartBudget()
>>> for t in range(5):
...     budget = budget.after(float(t))
>>> budget.allows(10.0), budget.allows(61.0)
(False, True)
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import IO, Any
from urllib.parse import urlsplit

from croupier.server.settings import Settings, SettingsError

__all__ = [
    "MAX_AUTO",
    "NodePlan",
    "RestartBudget",
    "Supervisor",
    "auto_processes",
    "backoff",
    "check",
    "child_env",
    "configure",
    "plan",
    "resolve",
    "supervise",
    "usable_cores",
]

MAX_AUTO = 8
"""``auto`` never starts more processes than this (each renews its leases and polls the
others' on the one database)."""
RESTART_LIMIT = 5
RESTART_WINDOW = 60.0
"""A node is started again at most :data:`RESTART_LIMIT` times in this many seconds."""
START_TIMEOUT = 300.0
"""Seconds a child has to answer ``/health`` at start (migrations and recovery included)."""
STOP_MARGIN = 10.0
"""Seconds past the shutdown grace the children have to exit before SIGKILL."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counter is not None:
        found = counter()
        return int(found) if found else 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def auto_processes(cores: int) -> int:
    """``auto``: one process per usable core, at least 1, at most :data:`MAX_AUTO`."""
    return max(1, min(MAX_AUTO, cores))


def resolve(value: str, cores: Callable[[], int] | None = None) -> int:
    """The number of processes ``value`` (a checked ``Settings.processes``) stands for.

    >>> resolve("3"), resolve("auto", lambda: 1), resolve("auto", lambda: 12)
    (3, 1, 8)
    """
    if value != "auto":
        return int(value)
    return auto_processes((cores or usable_cores)())


@dataclass(frozen=True, slots=True)
class NodePlan:
    """One child of the supervisor: its node name, port, and the addresses of it."""

    node_id: str
    port: int
    url: str
    """The address told to clients (``CROUPIER_NODE_URL``)."""
    health: str
    """Where the supervisor asks whether it is up."""


def _local(host: str) -> str:
    """A name of ``host`` to reach it from this machine (a wildcard means loopback)."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def check(settings: Settings, n: int) -> None:
    """Refuse a supervisor that cannot work (``bad_processes``) before anything starts.

    >>> check(Settings(port=65535), 2)
    Traceback (most recent call last):
    ...
    croupier.server.settings.SettingsError: 2 processes need ports 65535..65536: past 65535
    """
    if n < 2:
        return
    if settings.node_id or settings.nodes:
        raise SettingsError(
            "bad_processes",
            "--processes names the nodes itself (n1…nN): unset CROUPIER_NODE_ID and "
            "CROUPIER_NODES, or serve one process per node",
        )
    last = settings.port + n - 1
    if last > 65535:
        raise SettingsError(
            "bad_processes", f"{n} processes need ports {settings.port}..{last}: past 65535"
        )
    if settings.node_url:
        parts = urlsplit(settings.node_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SettingsError(
                "bad_processes",
                f"CROUPIER_NODE_URL must be http(s)://host[:port], not {settings.node_url!r}",
            )


NODE_ONLY = ("CROUPIER_REDIS_URL",)
"""Settings only a room node may have (they need ``CROUPIER_NODE_ID``): the supervisor,
which serves nothing, reads its own settings without them and passes them on to its
children, each of them a node."""


def configure(env: Mapping[str, str], changes: Mapping[str, Any]) -> tuple[Settings, int]:
    """``croupier serve``'s settings (``env`` with the command's options ``changes``) and
    its number of processes; a :class:`SettingsError` for anything that cannot work,
    before anything starts. With N > 1 every child's settings are checked too.

    >>> settings, n = configure({"CROUPIER_PROCESSES": "2", "CROUPIER_REDIS_URL": "redis://r"}, {"port": 9000})
    >>> n, settings.port, settings.redis_url
    (2, 9000, '')
    >>> configure({"CROUPIER_REDIS_URL": "redis://r"}, {})
    Traceback (most recent call last):
    ...
    croupier.server.settings.SettingsError: CROUPIER_REDIS_URL needs CROUPIER_NODE_ID
    """

    def read(source: Mapping[str, str]) -> Settings:
        settings = Settings.from_env(source)
        return settings.with_(**changes) if changes else settings

    own = read({k: v for k, v in env.items() if k not in NODE_ONLY})
    n = resolve(own.processes)
    if n == 1:
        return read(env), 1
    check(own, n)
    nodes = plan(own, n)
    for node in nodes:
        Settings.from_env(child_env(env, own, node, nodes))
    return own, n


def plan(settings: Settings, n: int) -> tuple[NodePlan, ...]:
    """The N nodes: ``n1``…``nN`` on ports ``port``…``port+N-1``. Each one's client
    address keeps the scheme and host of an explicit ``CROUPIER_NODE_URL`` (a proxy's
    name, ``https``) with the node's own port; else ``http`` and the host served.

    >>> [p.url for p in plan(Settings(node_url="https://poker.example:443"), 2)]
    ['https://poker.example:8000', 'https://poker.example:8001']
    >>> [p.health for p in plan(Settings(host="0.0.0.0", port=8000), 2)]
    ['http://127.0.0.1:8000/health', 'http://127.0.0.1:8001/health']
    """
    scheme, host = "http", _local(settings.host)
    if settings.node_url:
        parts = urlsplit(settings.node_url)
        scheme = parts.scheme or "http"
        name = parts.hostname or host
        host = f"[{name}]" if ":" in name else name
    local = _local(settings.host)
    return tuple(
        NodePlan(
            node_id=f"n{k}",
            port=settings.port + k - 1,
            url=f"{scheme}://{host}:{settings.port + k - 1}",
            health=f"http://{local}:{settings.port + k - 1}/health",
        )
        for k in range(1, n + 1)
    )


def child_env(
    base: Mapping[str, str], settings: Settings, node: NodePlan, nodes: Sequence[NodePlan]
) -> dict[str, str]:
    """The environment of ``node``'s process: ``base`` (the supervisor's own) with the
    database, address and node settings of this child; every other ``CROUPIER_*`` setting
    is inherited as it is.

    >>> nodes = plan(Settings(port=9000, database_url="sqlite:///r.db"), 2)
    >>> env = child_env({"CROUPIER_PROCESSES": "auto"}, Settings(), nodes[1], nodes)
    >>> env["CROUPIER_NODE_ID"], env["CROUPIER_NODES"], env["CROUPIER_PORT"], env["CROUPIER_PROCESSES"]
    ('n2', 'n1,n2', '9001', '1')
    """
    return {
        **base,
        "CROUPIER_DATABASE_URL": settings.database_url,
        "CROUPIER_HOST": settings.host,
        "CROUPIER_PORT": str(node.port),
        "CROUPIER_NODE_ID": node.node_id,
        "CROUPIER_NODES": ",".join(n.node_id for n in nodes),
        "CROUPIER_NODE_URL": node.url,
        "CROUPIER_PROCESSES": "1",
    }


@dataclass(frozen=True, slots=True)
class RestartBudget:
    """The restarts of one node in the last ``window`` seconds: at most ``limit``."""

    limit: int = RESTART_LIMIT
    window: float = RESTART_WINDOW
    times: tuple[float, ...] = ()

    def recent(self, now: float) -> tuple[float, ...]:
        return tuple(t for t in self.times if now - t < self.window)

    def allows(self, now: float) -> bool:
        """Whether one more restart at ``now`` stays within the budget."""
        return len(self.recent(now)) < self.limit

    def after(self, now: float) -> RestartBudget:
        """The budget once a restart happened at ``now``."""
        return RestartBudget(self.limit, self.window, (*self.recent(now), now))


def backoff(recent: int) -> float:
    """Seconds before a restart, after ``recent`` restarts in the window: 0.5 s, doubling,
    at most 8 s.

    >>> [backoff(k) for k in range(6)]
    [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    """
    return float(min(8.0, 0.5 * 2**recent))


def default_command() -> list[str]:
    """This Python running ``croupier serve --processes 1`` (no console script needed)."""
    return [sys.executable, "-m", "croupier", "serve", "--processes", "1"]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the child gets SIGTERM if the supervisor dies (even by SIGKILL)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _healthy(url: str, timeout: float) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # our own URL
            return int(answer.status) == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


@dataclass
class _Child:
    """A node's current process and its restart state (the supervisor's only mutable
    bookkeeping)."""

    node: NodePlan
    proc: subprocess.Popen[bytes] | None = None
    budget: RestartBudget = field(default_factory=RestartBudget)
    restart_at: float | None = None
    healthy: bool = False
    given_up: bool = False
    next_probe: float = 0.0


class Supervisor:
    """Start, watch and stop the N node processes (see the module's docstring)."""

    def __init__(
        self,
        settings: Settings,
        n: int,
        *,
        env: Mapping[str, str] | None = None,
        command: Sequence[str] | None = None,
        out: IO[str] | None = None,
        start_timeout: float = START_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.nodes = plan(settings, n)
        self.env = dict(os.environ if env is None else env)
        self.command = list(command) if command is not None else default_command()
        self.out = out if out is not None else sys.stderr
        self.start_timeout = start_timeout
        self.clock = clock
        self.children = [_Child(node) for node in self.nodes]
        self.stopping = False

    def say(self, text: str) -> None:
        print(f"croupier: {text}", file=self.out, flush=True)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def _spawn(self, child: _Child) -> None:
        child.proc = subprocess.Popen(
            self.command,
            env=child_env(self.env, self.settings, child.node, self.nodes),
            start_new_session=True,  # Ctrl-C reaches the supervisor, which stops them in order
            preexec_fn=_die_with_parent,  # no thread runs in the supervisor
        )
        child.healthy = False
        child.restart_at = None
        child.next_probe = 0.0

    def _wait_started(self, child: _Child) -> str | None:
        """Wait for ``child``'s ``/health``: ``None`` once up, else why not."""
        assert child.proc is not None
        deadline = self.clock() + self.start_timeout
        while not self.stopping:
            code = child.proc.poll()
            if code is not None:
                return f"node {child.node.node_id} exited with code {code} at start"
            if _healthy(child.node.health, 1.0):
                child.healthy = True
                return None
            if self.clock() >= deadline:
                return (
                    f"node {child.node.node_id} did not answer {child.node.health} "
                    f"within {self.start_timeout:g} s"
                )
            time.sleep(0.1)
        return None

    def run(self) -> int:
        """Serve until SIGINT/SIGTERM: 0 after a clean stop; 1 when a node could not
        start, when every node was given up, or when a child had to be killed."""
        previous = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            for child in self.children:
                self._spawn(child)
                failure = self._wait_started(child)
                if failure is not None:
                    self.say(f"error: {failure}; stopping the room")
                    self.stop()
                    return 1
                if self.stopping:
                    return self.stop()
                self.say(f"node {child.node.node_id} serves {child.node.url}/")
            self.say(
                f"{len(self.children)} processes, one room (Ctrl-C stops them; a process "
                "that dies is started again and its tables are served by the others meanwhile)"
            )
            while not self.stopping:
                if not self._watch():
                    self.say("error: every node was given up; stopping")
                    self.stop()
                    return 1
                time.sleep(0.2)
            return self.stop()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    def _watch(self) -> bool:
        """One look at every child: restart the dead, announce the restarted once up.
        ``False`` when no node is left."""
        now = self.clock()
        for child in self.children:
            if child.given_up or child.proc is None:
                continue
            code = child.proc.poll()
            if code is not None and child.restart_at is None:
                if child.budget.allows(now):
                    delay = backoff(len(child.budget.recent(now)))
                    child.restart_at = now + delay
                    self.say(
                        f"node {child.node.node_id} (pid {child.proc.pid}) died with code "
                        f"{code}; starting it again in {delay:g} s (the others take over "
                        "its tables meanwhile)"
                    )
                else:
                    child.given_up = True
                    self.say(
                        f"error: node {child.node.node_id} died {child.budget.limit} times "
                        f"in {child.budget.window:g} s; giving it up (the other nodes serve "
                        "its tables)"
                    )
            elif child.restart_at is not None and now >= child.restart_at:
                child.budget = child.budget.after(now)
                self._spawn(child)
            elif code is None and not child.healthy and now >= child.next_probe:
                child.next_probe = now + 0.5
                if _healthy(child.node.health, 0.5):
                    child.healthy = True
                    self.say(
                        f"node {child.node.node_id} serves {child.node.url}/ again "
                        f"(pid {child.proc.pid})"
                    )
        return any(not c.given_up for c in self.children)

    def stop(self) -> int:
        """SIGTERM every child, wait the shutdown grace plus a margin, SIGKILL the rest:
        0 when each stopped by itself."""
        alive = [c.proc for c in self.children if c.proc is not None and c.proc.poll() is None]
        for proc in alive:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        deadline = self.clock() + self.settings.shutdown_grace_seconds + STOP_MARGIN
        killed = 0
        for proc in alive:
            try:
                proc.wait(max(0.0, deadline - self.clock()))
            except subprocess.TimeoutExpired:
                killed += 1
                proc.kill()
                proc.wait()
        if killed:
            self.say(f"error: {killed} node(s) did not stop in time and were killed")
        return 1 if killed else 0


def supervise(settings: Settings, n: int, **options: Any) -> int:
    """Run the room as ``n`` processes (``croupier serve --processes n``): the exit code."""
    check(settings, n)
    return Supervisor(settings, n, **options).run()
