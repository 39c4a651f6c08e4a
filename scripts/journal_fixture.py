"""Write a table journal with the code of the release this runs from, as a test fixture.

``tests/store/test_journal_compat.py`` loads the fixture with today's code: a journal written
by an earlier release must still restore its tables (issue #11: stable record names).

    PYTHONPATH=<a checkout of the release>/src python scripts/journal_fixture.py OUT.json

Four funded bot accounts play at a NLHE table and a Naiko PLO table on the SQL journal and
the ledger bank; the NLHE table is stopped in the middle of a hand (so the journal holds a
hand to void). The rows of ``table_journal`` are written to ``OUT.json`` with what the
release itself recovers from them (seats and stacks, next hand, button).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import croupier
from croupier.bots import BotRunner, RuleBot
from croupier.store import LedgerBank, SqlJournal, open_store
from croupier.store.schema import table_journal
from croupier.table import plan_recovery
from croupier.table import testing as table_testing
from croupier.table.testing import Harness


async def _play(store: Any, table_id: str, game: str, rules: str, seconds: float) -> None:
    journal = SqlJournal(store.db, store.clock, ledger=store.ledger)
    bank = LedgerBank(store.ledger, table_id)
    table_testing.InMemoryJournal = lambda: journal  # type: ignore[assignment,misc]
    table_testing.PlayChips = lambda: bank  # type: ignore[assignment,misc]
    h = await Harness.create(game, rules=rules, table_id=table_id)
    bots = [BotRunner(h.actor, str(uid), RuleBot(), clock=h.clock) for uid in _USERS]
    for b in bots:
        assert (await b.join(200)).accepted
    await h.clock.run_until(lambda: False, limit=h.clock.now() + seconds)
    await h.actor.stop()


_USERS: list[int] = []


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/j.sqlite3", clock=lambda: 1_700_000_000.0)
        for i in range(4):
            user = store.users.create_user(f"Bot{i}", f"bot{i}", None, "bot", 0)
            store.ledger.grant_diamonds(user.id, 2000, key=f"g{i}")
            store.ledger.buy_chips(user.id, 2000, key=f"b{i}")
            _USERS.append(user.id)
        asyncio.run(_play(store, "nlhe-fixture", "nlhe", "room", 90.5))
        asyncio.run(_play(store, "naiko-fixture", "plo", "naiko", 100.0))
        rows = store.db.run(
            lambda c: c.execute(sa.select(table_journal).order_by(table_journal.c.id)).all()
        )
        tables: dict[str, Any] = {}
        for table_id in ("nlhe-fixture", "naiko-fixture"):
            plan = plan_recovery(store.journal.records(table_id))
            tables[table_id] = {
                "seats": [[s.seat, s.player_id, s.stack] for s in plan.seats],
                "next_hand": plan.next_hand,
                "button": plan.button,
                "void": plan.void is not None,
            }
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(croupier.__file__).parent,
        ).stdout.strip()
        out.write_text(
            json.dumps(
                {
                    "written_by": commit,
                    "rows": [
                        {"table_id": r.table_id, "type": r.type, "body": r.body} for r in rows
                    ],
                    "recovery": tables,
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
        store.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
