"""Accounts for the load harness, registered through the store before the server starts.

Registering 6,000 accounts over HTTP would spend ~12,000 argon2id computations (sign-up and
login, ~50 ms each at the OWASP parameters) and trip the sign-up throttle, which is not
what the harness measures. So accounts are written with the store's own tables and ledger
calls, 500 per transaction: the user row with one real argon2id hash shared by every load
account (computed once), chips bought 1:1 with granted diamonds through the double-entry
ledger (keys unique per account id), and a live session token, as ``POST /api/register``
+ ``POST /api/login`` + ``POST /api/exchange`` would leave them."""

from __future__ import annotations

import time

import sqlalchemy as sa

from croupier.accounts.passwords import PasswordHashing
from croupier.accounts.sessions import new_token, token_hash
from croupier.store import open_store
from croupier.store.ledger import (
    HOUSE_DIAMONDS,
    MINT_CHIPS,
    MINT_DIAMONDS,
    Currency,
    Leg,
    user_account,
)
from croupier.store.schema import sessions, users

__all__ = ["PASSWORD", "provision"]

PASSWORD = "load-harness-password"
CHIPS = 1_000_000
BATCH = 500


def provision(db: str, count: int, prefix: str = "load") -> list[str]:
    """``count`` funded accounts ``<prefix>0…`` with a live session each; their tokens."""
    store = open_store(db)
    try:
        shared_hash = PasswordHashing().hash(PASSWORD)
        now_ms = round(time.time() * 1000)
        tokens = [new_token() for _ in range(count)]

        def batch(conn: sa.Connection, start: int) -> None:
            for i in range(start, min(count, start + BATCH)):
                name = f"{prefix}{i}"
                uid = conn.execute(sa.select(users.c.id).where(users.c.name_key == name)).scalar()
                if uid is None:
                    uid = conn.execute(
                        users.insert().returning(users.c.id),
                        {
                            "name": name,
                            "name_key": name,
                            "password_hash": shared_hash,
                            "kind": "player",
                            "created_ms": now_ms,
                            "experience": 0,
                            "hands_played": 0,
                            "hands_won": 0,
                            "disabled": False,
                        },
                    ).scalar_one()
                    store.ledger.transfer_in(
                        conn,
                        "diamonds_grant",
                        f"load-grant:{uid}",
                        [
                            Leg(MINT_DIAMONDS, -CHIPS),
                            Leg(user_account(uid, Currency.DIAMONDS), CHIPS),
                        ],
                        {"reason": "load"},
                    )
                    store.ledger.transfer_in(
                        conn,
                        "buy_chips",
                        f"load-chips:{uid}",
                        [
                            Leg(user_account(uid, Currency.DIAMONDS), -CHIPS),
                            Leg(HOUSE_DIAMONDS, CHIPS),
                            Leg(MINT_CHIPS, -CHIPS),
                            Leg(user_account(uid), CHIPS),
                        ],
                        None,
                    )
                conn.execute(
                    sessions.insert(),
                    {
                        "token_hash": token_hash(tokens[i]),
                        "user_id": uid,
                        "created_ms": now_ms,
                        "last_seen_ms": now_ms,
                        "expires_ms": now_ms + 24 * 3600 * 1000,
                        "revoked_ms": None,
                        "ip": None,
                    },
                )

        for start in range(0, count, BATCH):
            store.db.run(lambda conn, s=start: batch(conn, s))
        return tokens
    finally:
        store.close()
