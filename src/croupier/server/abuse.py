"""Abuse limits of the WebSocket commands that cost the room something: invitation-code
guesses and private tables (with the bot seats they fill). Settings and figures:
``docs/security.md``.

Both are owned by the event loop (no await between a check and its record), so a check
and what it counts are one step.

>>> g = GuessLimiter(per_minute=60, burst=2)
>>> g.allowed(7, "1.2.3.4", 0.0)
True
>>> g.wrong(7, "1.2.3.4", 0.0); g.wrong(None, "1.2.3.4", 0.0)
>>> g.allowed(8, "1.2.3.4", 0.0), g.allowed(8, "5.6.7.8", 0.0), g.allowed(8, "1.2.3.4", 1.0)
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from croupier.server.ratelimit import Bucket

__all__ = ["GuessLimiter", "PrivateCaps", "PrivateRefusal"]


class GuessLimiter:
    """Wrong invitation codes per account and per address: token buckets of
    ``per_minute`` and ``burst``. A code may be tried only while both buckets (the
    account's, when logged in, and the address's) hold a token; each wrong code takes one
    from both. Right codes cost nothing."""

    def __init__(self, *, per_minute: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: dict[str, Bucket] = {}

    @staticmethod
    def _keys(account_id: int | None, ip: str) -> list[str]:
        keys = [f"ip:{ip}"]
        if account_id is not None:
            keys.append(f"account:{account_id}")
        return keys

    def _bucket(self, key: str, now: float) -> Bucket:
        found = self._buckets.get(key)
        return (
            found if found is not None else Bucket.full(rate=self.rate, burst=self.burst, now=now)
        )

    def allowed(self, account_id: int | None, ip: str, now: float) -> bool:
        """Whether this connection may try a code now."""
        return all(self._bucket(k, now).level(now) >= 1.0 for k in self._keys(account_id, ip))

    def wrong(self, account_id: int | None, ip: str, now: float) -> None:
        """Count one wrong code."""
        if len(self._buckets) >= self.max_keys:
            self._buckets.clear()  # bounded: everyone starts full again
        for key in self._keys(account_id, ip):
            self._buckets[key], _ = self._bucket(key, now).take(now)

    def retry_after(self, account_id: int | None, ip: str, now: float) -> float:
        """Seconds until a code may be tried again."""
        missing = max(1.0 - self._bucket(k, now).level(now) for k in self._keys(account_id, ip))
        return max(0.0, missing / self.rate)


@dataclass(frozen=True, slots=True)
class PrivateRefusal:
    """Why a private table may not be opened: a stable ``code`` and a message."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class _Hosted:
    table_id: str
    account_id: int
    ip: str
    bots: int


class PrivateCaps:
    """Open private tables per account and per address, and bot seats per account.

    ``is_open(table_id)`` says whether a table still runs (the registry's view), so a table
    that closes frees its place."""

    def __init__(
        self,
        *,
        per_account: int,
        per_address: int,
        bot_seats_per_account: int,
        is_open: Callable[[str], bool],
    ) -> None:
        self.per_account = per_account
        self.per_address = per_address
        self.bot_seats = bot_seats_per_account
        self.is_open = is_open
        self._hosted: dict[str, _Hosted] = {}
        self._pending: set[str] = set()

    def _live(self) -> Iterable[_Hosted]:
        gone = [t for t in self._hosted if t not in self._pending and not self.is_open(t)]
        for table_id in gone:
            del self._hosted[table_id]
        return list(self._hosted.values())

    def refusal(self, account_id: int, ip: str, bots: int) -> PrivateRefusal | None:
        """Why ``account_id`` from ``ip`` may not open one more table with ``bots`` bot
        seats (``None``: it may)."""
        live = self._live()
        mine = [h for h in live if h.account_id == account_id]
        if len(mine) >= self.per_account:
            return PrivateRefusal(
                "too_many_private_tables",
                f"you already host {len(mine)} open private tables (at most {self.per_account})",
            )
        if ip and sum(1 for h in live if h.ip == ip) >= self.per_address:
            return PrivateRefusal(
                "too_many_private_tables_here",
                f"this address already hosts {self.per_address} open private tables",
            )
        used = sum(h.bots for h in mine)
        if bots and used + bots > self.bot_seats:
            return PrivateRefusal(
                "too_many_private_bots",
                f"your private tables would seat {used + bots} bots (at most {self.bot_seats})",
            )
        return None

    def reserve(self, table_id: str, account_id: int, ip: str, bots: int) -> None:
        """Count a table about to open (before any await, so parallel requests of one
        account cannot all pass :meth:`refusal`); then :meth:`opened` or :meth:`forget`."""
        self._hosted[table_id] = _Hosted(table_id, account_id, ip, bots)
        self._pending.add(table_id)

    def opened(self, table_id: str) -> None:
        """The reserved table runs: it counts while it stays open."""
        self._pending.discard(table_id)

    def forget(self, table_id: str) -> None:
        """The reserved table did not open."""
        self._pending.discard(table_id)
        self._hosted.pop(table_id, None)

    def count(self, account_id: int) -> int:
        """Open private tables hosted by ``account_id``."""
        return sum(1 for h in self._live() if h.account_id == account_id)
