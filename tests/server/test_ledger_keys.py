"""Ledger keys are unique per real transfer, never derived from a count or a balance that
can repeat (issue #10, R-ACC-1)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from croupier.accounts import Accounts
from croupier.server.registry import BOT_CHIPS, TableRegistry
from croupier.store import open_store


def test_bot_funding_is_never_a_replay(tmp_path: Path) -> None:
    """A bot account funded, then back at the very same balance, is funded again (the key
    used to be made of its balances: the second grant replayed the first and moved
    nothing, so the bot could not sit down)."""
    with open_store(f"sqlite:///{tmp_path / 'db.sqlite3'}") as store:

        async def body() -> None:
            registry = TableRegistry(store, Accounts(store.users))
            uid = registry.bot_user("bots-x", 0)
            assert store.ledger.balances(uid).chips == BOT_CHIPS
            # the bot loses everything at a table: back to the balance it had before
            store.ledger.buy_in("bots-x", uid, BOT_CHIPS, key="lost-it-all")
            assert store.ledger.balances(uid).chips == 0
            assert registry.bot_user("bots-x", 0) == uid
            assert store.ledger.balances(uid).chips == BOT_CHIPS

        asyncio.run(body())
        keys = [
            k
            for k in store.db.run(
                lambda c: c.exec_driver_sql("SELECT idem_key FROM transfers").scalars().all()
            )
            if k.startswith("bot-fund:")
        ]
        assert len(keys) == len(set(keys)) == 4
