"""Table options per account, kept in the store (issue #15): the four-colour deck, card
and chip animations, the sounds for your turn and for a running-out clock, and auto-muck
(a beaten hand is mucked at showdown without the show/muck prompt, where the table's
profile lets losers muck, R-POT-4).

Only the options a player set are stored; an option never set keeps its default, which
the client decides (animations follow the device's reduced-motion setting). Setting an
option to ``None`` forgets it. ``auto_muck`` is the tables' port: a cached read, since a
table asks it at each showdown decision.

>>> from croupier.store.db import Database
>>> from croupier.store.users import SqlUsers
>>> db = Database.open("sqlite://"); _ = db.migrate()
>>> uid = SqlUsers(db).create_user("Ann", "ann", None, "player", 0).id
>>> o = SqlOptions(db)
>>> o.get(uid)
{}
>>> o.put(uid, {"auto_muck": True, "four_colour": False})
{'four_colour': False, 'auto_muck': True}
>>> o.auto_muck(str(uid)), o.auto_muck("bot-1")
(True, False)
>>> o.put(uid, {"auto_muck": None})
{'four_colour': False}
>>> o.put(uid, {"volume": True})
Traceback (most recent call last):
...
croupier.store.errors.StoreError: unknown option 'volume' (known: four_colour, animations, sound_turn, sound_clock, auto_muck)
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Final

import sqlalchemy as sa

from croupier.store.db import Database
from croupier.store.errors import StoreError
from croupier.store.schema import account_options

__all__ = ["OPTIONS", "SqlOptions"]

OPTIONS: Final = ("four_colour", "animations", "sound_turn", "sound_clock", "auto_muck")
"""The options a player can set, all on/off."""


def check(values: Mapping[str, object]) -> dict[str, bool | None]:
    """``values`` checked: known names, each ``true``, ``false`` or ``null`` (forget)."""
    out: dict[str, bool | None] = {}
    for name, value in values.items():
        if name not in OPTIONS:
            raise StoreError(
                "unknown_option", f"unknown option {name!r} (known: {', '.join(OPTIONS)})"
            )
        if value is not None and not isinstance(value, bool):
            raise StoreError("invalid_option", f"option {name!r} is true, false or null")
        out[name] = value
    return out


class SqlOptions:
    """The options of each account (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._cache: dict[int, dict[str, bool]] = {}
        self._lock = threading.Lock()

    def _read(self, conn: sa.Connection, user_id: int) -> dict[str, bool]:
        rows = conn.execute(
            sa.select(account_options.c.name, account_options.c.value).where(
                account_options.c.user_id == user_id
            )
        ).all()
        got = {str(r.name): bool(r.value) for r in rows}
        return {k: got[k] for k in OPTIONS if k in got}

    def get(self, user_id: int) -> dict[str, bool]:
        """The options ``user_id`` set (an option absent keeps its default)."""
        got = self._db.run(lambda conn: self._read(conn, user_id))
        with self._lock:
            self._cache[user_id] = got
        return dict(got)

    def put(self, user_id: int, values: Mapping[str, object]) -> dict[str, bool]:
        """Set (``True``/``False``) or forget (``None``) some options in one transaction;
        the options now set. Unknown names or non-boolean values change nothing."""
        checked = check(values)

        def work(conn: sa.Connection) -> dict[str, bool]:
            for name, value in checked.items():
                conn.execute(
                    account_options.delete().where(
                        account_options.c.user_id == user_id, account_options.c.name == name
                    )
                )
                if value is not None:
                    conn.execute(
                        account_options.insert(),
                        {"user_id": user_id, "name": name, "value": value},
                    )
            return self._read(conn, user_id)

        got = self._db.run(work)
        with self._lock:
            self._cache[user_id] = got
        return dict(got)

    def auto_muck(self, player_id: str) -> bool:
        """Whether the table player ``player_id`` mucks beaten hands unasked (bots and
        other ids with no account: no)."""
        try:
            user_id = int(player_id)
        except ValueError:
            return False
        if user_id <= 0:
            return False
        with self._lock:
            cached = self._cache.get(user_id)
        if cached is None:
            cached = self.get(user_id)
        return cached.get("auto_muck", False)
