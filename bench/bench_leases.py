"""What a lease round's read costs: every lease row, with the lobby row each carries.

Run: ``.venv/bin/python bench/bench_leases.py``. A SQLite file holds ``--tables`` leases
(two processes' halves), each with the lobby row a process writes in its lease's ``info``
(a table's summary, about 400 bytes of JSON). Every round of a room's process reads all of
them (``Leases.renew_and_read``: the other processes' tables, and the expired ones to take
over), every quarter of a lease's length: every 750 ms at 3 s leases.

Two ways, measured in this run one after the other, best of ``--repeat``, in CPU time:

* ``stdlib``: the rows read by an engine parsing JSON with the standard library, each
  ``info`` copied into a new dict (as before);
* ``croupier``: the store's own engine (``json_deserializer=loads_json``: orjson, and the
  standard library for what orjson refuses) and ``info`` kept as parsed.

Prints milliseconds per read of every row and the ratio ``stdlib / croupier`` (the
machine is shared and noisy: compare ratios measured in one run), and checks both reads
give the same leases.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from croupier.store.db import Database
from croupier.store.leases import Lease, Leases
from croupier.store.schema import table_leases

SUMMARY = {
    "table_id": "",
    "name": "No-Limit Hold'em 1/2",
    "kind": "cash",
    "game": "nlhe",
    "family": "holdem",
    "structure": "no_limit",
    "profile": "room",
    "stakes": "1/2",
    "seats": 6,
    "players": 6,
    "bots": 0,
    "waiting": 0,
    "buy_in_min": 40,
    "buy_in_max": 200,
    "private": False,
    "avg_pot": 31,
    "hands_per_hour": 84,
}


def _rows(tables: int) -> Database:
    path = Path(tempfile.mkdtemp()) / "leases.sqlite3"
    db = Database.open(f"sqlite:///{path}")
    db.migrate()
    leases = Leases(db, clock=time.time)
    for i in range(tables):
        name = f"nlhe-{i:04d}"
        owner = f"n{i % 2 + 1}/boot"
        info = {"node": owner[:2], "room": False, "table": {**SUMMARY, "table_id": name}}
        assert leases.acquire(name, owner, url="http://127.0.0.1:8000", ttl=600, info=info)
    return db


def _stdlib_read(engine: sa.Engine) -> list[Lease]:
    """Every row as before: the standard library's JSON, ``info`` copied."""
    stmt = sa.select(table_leases).order_by(table_leases.c.name)
    with engine.connect() as conn:
        return [
            Lease(r.name, r.owner, int(r.epoch), r.url, int(r.expires_ms), dict(r.info or {}))
            for r in conn.execute(stmt).all()
        ]


def _best(fn: Callable[[], Any], repeat: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        for _ in range(rounds):
            fn()
        best = min(best, (time.process_time() - began) / rounds)
    return best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args(argv)
    db = _rows(args.tables)
    leases = Leases(db, clock=time.time)
    stdlib = sa.create_engine(db.url, json_deserializer=json.loads)
    assert _stdlib_read(stdlib) == leases.all(), "both reads give the same leases"
    old = _best(lambda: _stdlib_read(stdlib), args.repeat, args.rounds)
    new = _best(leases.all, args.repeat, args.rounds)
    print(f"every lease row read ({args.tables:,} rows, a lobby row each), CPU per read:")
    print(f"  stdlib    {1000 * old:7.2f} ms")
    print(f"  croupier  {1000 * new:7.2f} ms")
    print(f"  ratio stdlib / croupier: {old / new:.2f}×")
    stdlib.dispose()
    db.close()


if __name__ == "__main__":
    main()
