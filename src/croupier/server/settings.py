"""Server settings, read once from the environment at the composition root.

Every variable is optional; a bad value is refused with a :class:`SettingsError` (a
``ValueError`` with a stable ``code``) naming the variable.

>>> s = Settings.from_env({"CROUPIER_PORT": "9000", "CROUPIER_ALLOWED_ORIGINS": "https://a.example, https://b.example"})
>>> s.port, s.allowed_origins, s.database_url
(9000, ('https://a.example', 'https://b.example'), 'sqlite:///./croupier.sqlite3')
>>> Settings.from_env({"CROUPIER_PORT": "ninety"})
Traceback (most recent call last):
...
croupier.server.settings.SettingsError: CROUPIER_PORT must be an integer, not 'ninety'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from croupier.engine.errors import CodedError

__all__ = ["DEFAULT_DATABASE_URL", "Settings", "SettingsError"]

DEFAULT_DATABASE_URL = "sqlite:///./croupier.sqlite3"
T = TypeVar("T")


class SettingsError(CodedError):
    """A setting that cannot work; ``code`` is stable."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server needs to start. Field ``x`` is read from ``CROUPIER_X``.

    ``allowed_origins``: the WebSocket/HTTP Origin allowlist (``*`` allows any; an empty
    Origin header — non-browser clients — is always allowed). Left empty (the default), it
    follows the address served: ``http://{host}:{port}``, plus the other loopback names
    when ``host`` is a loopback address (see :attr:`origins`). ``testing`` speeds bots and
    hands up and is refused together with a non-loopback ``host``.
    """

    database_url: str = DEFAULT_DATABASE_URL
    allowed_origins: tuple[str, ...] = ()
    host: str = "127.0.0.1"
    port: int = 8000
    max_frame_bytes: int = 64 * 1024
    messages_per_second: float = 10.0
    message_burst: int = 30
    registrations_per_second: float = 0.2
    """Sign-ups allowed per address: a token bucket of this rate and ``registration_burst``."""
    registration_burst: int = 10
    chat_max_length: int = 200
    chat_per_minute: int = 12
    session_ttl_seconds: int = 7 * 24 * 3600
    """A session ends this long after the login, whatever happens (absolute lifetime)."""
    session_idle_seconds: int = 2 * 3600
    """…or after this long without a request or a WebSocket hello (idle lifetime)."""
    bot_delay_seconds: float = 1.0
    between_hands_seconds: float = 3.0
    level_seconds_scale: float = 1.0
    """The room's own Sit & Go and Spin levels last this many times their published length
    (a demo or a test room plays them on a shorter clock; must be > 0)."""
    default_tables: bool = True
    guest_spectators: bool = True
    cookie_secure: str = "auto"
    """The session cookie's ``Secure`` flag: ``auto`` (set when the request came over
    HTTPS, directly or through a trusted proxy's ``X-Forwarded-Proto``), ``always``,
    ``never`` (docs/security.md)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For``
    and ``X-Forwarded-Proto`` are believed; from any other peer they are ignored."""
    max_body_bytes: int = 16 * 1024
    """HTTP request bodies over this are refused with 413 while streaming."""
    max_json_depth: int = 16
    """Deeper JSON (arrays/objects inside each other) is refused with 400 ``too_deep``."""
    login_pair_failures: int = 5
    """Failed logins per (account name, address) pair in ``login_window_seconds``."""
    login_window_seconds: float = 15 * 60.0
    login_account_failures: int = 50
    """Failed logins per account name from every address in ``login_account_window_seconds``
    (the slower global limit; an address the owner logged in from before is exempt)."""
    login_account_window_seconds: float = 3600.0
    login_ip_failures: int = 20
    """Failed logins per address (any name) in ``login_window_seconds``."""
    invite_guesses_per_minute: float = 10.0
    """Wrong invitation codes allowed per account and per address (token bucket rate)."""
    invite_guess_burst: int = 5
    private_tables_per_account: int = 3
    """Open private tables one account may host."""
    private_tables_per_address: int = 6
    """Open private tables hosted from one address (all its accounts)."""
    private_bot_seats_per_account: int = 8
    """Bot seats across the open private tables of one account."""
    private_idle_seconds: float = 300.0
    """A private table with no human seated this long is closed (its bots stand up)."""
    testing: bool = False
    arcade_min_level: int = 6
    quick_match_wait_seconds: float = 10.0
    arcade_hours: str = ""
    """Daily UTC windows when the arcade is available, ``"18:00-23:00,…"`` (empty: always;
    see :mod:`croupier.lobby.arcade`)."""
    shutdown_grace_seconds: float = 5.0
    gc_pace_seconds: float = 0.2
    """``croupier serve`` collects garbage by the clock, from the event loop: the young
    generation every this many seconds, the middle one every 3 of those, all of them
    every 1,500 (:class:`croupier.server.gctune.GcPacer`); 0: only the collector's own
    automatic collections."""
    switch_interval_ms: float = 1.0
    """``croupier serve`` asks its busy event loop to hand the GIL to a waiting store
    thread after this many milliseconds (CPython's default is 5): a store thread takes the
    GIL back after each statement it runs, so a transaction's wall time grows with it
    (:mod:`croupier.server.switching`); 0.1..100."""
    processes: str = "1"
    """``croupier serve``'s processes on this machine: ``auto`` (one per usable core, at
    most 8) or a number in 1..16; more than one makes ``serve`` a supervisor of that many
    room nodes (:mod:`croupier.server.processes`)."""
    welcome_diamonds: int = 1000
    bot_tables: int = 0
    """Extra bot-only NLHE tables (``bots-1`` …), for load and crash tests."""
    log_level: str = "INFO"
    log_format: str = "text"
    """``text`` or ``json`` (one JSON object per line, see :mod:`croupier.logs`)."""
    casino_tables: int = 1
    """Public Texas Hold'em Bonus tables opened at start (``casino-1`` …; docs/bonus.md)."""
    casino_decision_seconds: float = 20.0
    casino_gather_seconds: float = 8.0
    node_id: str = ""
    """This process's name in a room served by several processes on one database
    (server/cluster.py); empty (the default): the room is this one process, no lease."""
    nodes: tuple[str, ...] = ()
    """Every node of the room (``a,b``), the first running the room-wide services
    (tournaments, casino, recovery at start); the catalogue's tables are split between
    them. Must name ``node_id``."""
    node_url: str = ""
    """The address clients reach this process at (told to the clients of another
    process's table); default ``http://{host}:{port}``."""
    lease_seconds: float = 3.0
    """How long a table's lease lasts without renewal: a dead process's tables are taken
    over within about this (renewed every quarter of it)."""
    redis_url: str = ""
    """``redis://host:port/db`` shared by the room's processes (server/bus.py): a table
    watched from any process, chat across processes, presence (one connection per account
    in the whole room, who is online). Empty: each process serves only its own sockets."""
    redis_prefix: str = "croupier"
    """The prefix of the room's Redis keys and channels (several rooms on one Redis)."""

    def __post_init__(self) -> None:
        if not 0 < self.port < 65536:
            raise SettingsError("bad_port", f"CROUPIER_PORT must be in 1..65535, not {self.port}")
        if self.max_frame_bytes < 256:
            raise SettingsError("bad_frame_cap", "CROUPIER_MAX_FRAME_BYTES must be >= 256")
        if self.messages_per_second <= 0 or self.message_burst < 1:
            raise SettingsError("bad_rate", "message rate and burst must be positive")
        if self.registrations_per_second <= 0 or self.registration_burst < 1:
            raise SettingsError("bad_rate", "registration rate and burst must be positive")
        if self.chat_max_length < 1 or self.chat_per_minute < 1:
            raise SettingsError("bad_chat", "chat limits must be positive")
        if self.bot_delay_seconds < 0 or self.between_hands_seconds < 0:
            raise SettingsError("bad_delay", "delays cannot be negative")
        if self.node_id and self.node_id not in self.nodes:
            raise SettingsError("bad_node", "CROUPIER_NODES must name CROUPIER_NODE_ID")
        if self.nodes and not self.node_id:
            raise SettingsError("bad_node", "CROUPIER_NODES needs CROUPIER_NODE_ID")
        if not 0.4 <= self.lease_seconds <= 600:
            raise SettingsError("bad_delay", "CROUPIER_LEASE_SECONDS must be in 0.4..600")
        if self.redis_url and not self.node_id:
            raise SettingsError("bad_node", "CROUPIER_REDIS_URL needs CROUPIER_NODE_ID")
        if self.redis_url and not self.redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise SettingsError(
                "bad_redis", "CROUPIER_REDIS_URL must be redis://, rediss:// or unix://"
            )
        if (
            not self.redis_prefix
            or not self.redis_prefix.replace("-", "").replace("_", "").isalnum()
        ):
            raise SettingsError(
                "bad_redis", "CROUPIER_REDIS_PREFIX must be letters, digits, - or _"
            )
        if self.gc_pace_seconds != 0 and not 0.01 <= self.gc_pace_seconds <= 10:
            raise SettingsError(
                "bad_delay", "CROUPIER_GC_PACE_SECONDS must be 0 (off) or in 0.01..10"
            )
        if not 0.1 <= self.switch_interval_ms <= 100:
            raise SettingsError("bad_delay", "CROUPIER_SWITCH_INTERVAL_MS must be in 0.1..100")
        if not self.level_seconds_scale > 0:
            raise SettingsError("bad_delay", "CROUPIER_LEVEL_SECONDS_SCALE must be > 0")
        if not 60 <= self.session_idle_seconds <= self.session_ttl_seconds:
            raise SettingsError(
                "bad_ttl",
                "60 <= CROUPIER_SESSION_IDLE_SECONDS <= CROUPIER_SESSION_TTL_SECONDS is needed",
            )
        if self.processes != "auto" and not (
            self.processes.isascii() and self.processes.isdigit() and 1 <= int(self.processes) <= 16
        ):
            raise SettingsError(
                "bad_processes",
                f"--processes / CROUPIER_PROCESSES must be auto or 1..16, not {self.processes!r}",
            )
        if self.log_format not in ("text", "json"):
            raise SettingsError("bad_log_format", "CROUPIER_LOG_FORMAT must be text or json")
        if self.log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError("bad_log_level", f"unknown CROUPIER_LOG_LEVEL {self.log_level!r}")
        if self.cookie_secure not in ("auto", "always", "never"):
            raise SettingsError(
                "bad_cookie_secure", "CROUPIER_COOKIE_SECURE is auto, always or never"
            )
        if self.max_body_bytes < 256 or self.max_json_depth < 2:
            raise SettingsError("bad_body_cap", "body cap >= 256 bytes and JSON depth >= 2")
        if min(self.login_pair_failures, self.login_account_failures, self.login_ip_failures) < 1:
            raise SettingsError("bad_throttle", "login failure limits must be positive")
        if self.login_window_seconds <= 0 or self.login_account_window_seconds <= 0:
            raise SettingsError("bad_throttle", "login windows must be positive")
        if self.invite_guesses_per_minute <= 0 or self.invite_guess_burst < 1:
            raise SettingsError("bad_rate", "invitation guess rate and burst must be positive")
        if (
            self.private_tables_per_account < 0
            or self.private_tables_per_address < 0
            or self.private_bot_seats_per_account < 0
        ):
            raise SettingsError("bad_private_cap", "private table caps cannot be negative")
        if self.private_idle_seconds <= 0:
            raise SettingsError("bad_private_idle", "CROUPIER_PRIVATE_IDLE_SECONDS must be > 0")
        _check_networks(self.trusted_proxies)
        if self.testing and self.host not in ("127.0.0.1", "localhost", "::1"):
            raise SettingsError("testing_exposed", "CROUPIER_TESTING is only allowed on loopback")

    @property
    def origins(self) -> tuple[str, ...]:
        """The Origin allowlist in force: ``allowed_origins`` when set, else the origins of
        the host and port served (``croupier serve --port N`` works with no other setting).

        >>> Settings(port=9100).origins
        ('http://127.0.0.1:9100', 'http://localhost:9100', 'http://[::1]:9100')
        >>> Settings(host="poker.example", port=80).origins
        ('http://poker.example:80', 'http://poker.example')
        """
        if self.allowed_origins:
            return self.allowed_origins
        loopback = ("127.0.0.1", "localhost", "[::1]")
        host = f"[{self.host}]" if ":" in self.host else self.host
        names = loopback if host in loopback else (host,)
        if host == "0.0.0.0":
            names = loopback
        found = [f"http://{name}:{self.port}" for name in names]
        if self.port == 80:
            found += [f"http://{name}" for name in names]
        return tuple(found)

    def with_(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (checked again)."""
        return replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read ``CROUPIER_*`` variables from ``env`` (default: the process environment)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            key = f"CROUPIER_{f.name.upper()}"
            if key not in env or env[key] == "":
                continue
            raw = env[key]
            default = f.default
            if isinstance(default, bool):
                values[f.name] = _parse(key, raw, _bool)
            elif isinstance(default, int):
                values[f.name] = _parse(key, raw, int, "an integer")
            elif isinstance(default, float):
                values[f.name] = _parse(key, raw, float, "a number")
            elif isinstance(default, str):
                values[f.name] = _secure_word(raw) if f.name == "cookie_secure" else raw.strip()
            else:  # origins
                values[f.name] = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
        return cls(**values)


def _secure_word(raw: str) -> str:
    """``CROUPIER_COOKIE_SECURE``: auto/always/never, and the booleans of old (1 = always)."""
    low = raw.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return "always"
    if low in ("0", "false", "no", "off"):
        return "never"
    return low


def _check_networks(items: tuple[str, ...]) -> None:
    import ipaddress

    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise SettingsError(
                "bad_proxy", f"CROUPIER_TRUSTED_PROXIES: {item!r} is not an address or network"
            ) from None


def _bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _parse(key: str, raw: str, conv: Callable[[str], T], what: str = "a boolean") -> T:
    try:
        return conv(raw.strip())
    except ValueError:
        raise SettingsError("bad_setting", f"{key} must be {what}, not {raw!r}") from None
