"""What settling a hand costs the store: statements and time, one table per transaction
against many tables per transaction.

Run: ``.venv/bin/python bench/bench_settlement.py``. ``--tables`` tables of six players
(a SQLite file, WAL, ``synchronous=FULL``) play ``--hands`` hands each; every hand is
journaled (its start, then its end with the ledger settlement) and archived (its row, its
players, their experience). Two ways, measured in this run one after the other:

* ``alone``: each record in its own transaction (``SqlJournal.append``, a writer lane
  writing one table) and each hand archived alone (``Store.settle_hand``);
* ``group``: the records of every table in one transaction (``append_many``, what the
  journal's lanes do once records wait, ``GROUP_AFTER``) and the hands archived in one
  batch (``Store.settle_hands``, the archive thread).

Prints, per way and for the journal and the archive, the statements per hand (what a
busy process pays most for: a store thread gives up the GIL around each one and waits
for it back behind the event loop, docs/storage.md) and the milliseconds per hand on
this thread, with the ratio of ``alone`` to ``group``: the machine is shared and noisy,
compare ratios measured in one run.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from croupier.engine.cards import parse_cards
from croupier.store import Store, open_store
from croupier.store.archive import ArchivedHand, HandPlayer
from croupier.store.ledger import MINT_CHIPS, Leg, escrow_account
from croupier.store.users import HandCredit
from croupier.table.journal import HandEndRecord, HandStartRecord, Record, commit_deck
from croupier.table.seating import Seat

DECK = parse_cards("AsKdQh2c3d4h5s6c7d8h9sTcJd")
STACK = 10**6


@dataclass
class Cost:
    """Statements and seconds spent, per part."""

    statements: int = 0
    seconds: float = 0.0


def _count(store: Store) -> list[int]:
    counter = [0]

    def count(*_: object) -> None:
        counter[0] += 1

    sa.event.listen(store.db.engine, "before_cursor_execute", count)
    return counter


def run(tables: int, hands: int, group: bool, folder: Path) -> tuple[Cost, Cost]:
    """(journal, archive) costs of ``tables`` × ``hands`` hands written one way."""
    store = open_store(f"sqlite:///{folder / ('group' if group else 'alone')}.sqlite3")
    users = [store.users.create_user(f"P{i}", f"p{i}", None, "player", 0).id for i in range(6)]
    names = [f"t{i}" for i in range(tables)]
    for t in names:
        legs = [Leg(escrow_account(t, u), STACK) for u in users]
        store.ledger.transfer("grant", f"fund-{t}", [*legs, Leg(MINT_CHIPS, -6 * STACK)])
    players = tuple(str(u) for u in users)
    stacks = {t: [STACK] * 6 for t in names}
    counter = _count(store)
    journal, archive = Cost(), Cost()

    def timed(cost: Cost, work: Callable[[list[Any]], object], items: list[Any]) -> None:
        counter[0] = 0
        started = time.perf_counter()
        work(items)
        cost.seconds += time.perf_counter() - started
        cost.statements += counter[0]

    def write(records: list[tuple[str, Record]]) -> None:
        if group:
            store.journal.append_many(records)
        else:
            for table_id, record in records:
                store.journal.append(table_id, record)

    def settle(rows: list[tuple[ArchivedHand, dict[int, HandCredit]]]) -> None:
        if group:
            store.settle_hands(rows)
        else:
            for hand, credits in rows:
                store.settle_hand(hand, credits)

    for hand_no in range(1, hands + 1):
        salt = secrets.token_bytes(16)
        commitment = commit_deck(DECK, salt)
        starts: list[tuple[str, Record]] = []
        ends: list[tuple[str, Record]] = []
        for t in names:
            seats = tuple(Seat(i, p, stack=stacks[t][i]) for i, p in enumerate(players))
            dealt = tuple(range(6))
            start = HandStartRecord(
                hand_no, seats, dealt, players, tuple(stacks[t]), 0, commitment, DECK, salt
            )
            starts.append((t, start))
            new = list(stacks[t])
            new[hand_no % 6] -= 10
            new[(hand_no + 1) % 6] -= 10
            new[(hand_no + 2) % 6] += 19
            stacks[t] = new
            after = tuple(Seat(i, p, stack=new[i]) for i, p in enumerate(players))
            ends.append((t, HandEndRecord(hand_no, after, tuple(new), 1)))
        timed(journal, write, starts)
        timed(journal, write, ends)
        rows = [
            (
                ArchivedHand(
                    t,
                    str(hand_no),
                    0,
                    "nlhe",
                    "",
                    players=tuple(HandPlayer(u, i, 0) for i, u in enumerate(users)),
                    summary={"hand_no": hand_no},
                ),
                {u: HandCredit(15, won=int(i == 0)) for i, u in enumerate(users)},
            )
            for t in names
        ]
        timed(archive, settle, rows)
    report = store.audit()
    assert report.ok, report.discrepancies
    store.close()
    return journal, archive


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--hands", type=int, default=10)
    args = ap.parse_args(argv)
    n = args.tables * args.hands
    with tempfile.TemporaryDirectory() as folder:
        alone = run(args.tables, args.hands, False, Path(folder))
        group = run(args.tables, args.hands, True, Path(folder))
    print(f"{args.tables} tables × {args.hands} hands, SQLite, per hand")
    print("| part | way | statements | ms | alone / group |")
    print("| --- | --- | --- | --- | --- |")
    for part, a, g in (("journal", alone[0], group[0]), ("archive", alone[1], group[1])):
        print(f"| {part} | alone | {a.statements / n:.1f} | {a.seconds / n * 1e3:.2f} | |")
        ratio = f"{a.statements / max(g.statements, 1):.0f}× statements, {a.seconds / g.seconds:.1f}× time"
        print(f"| {part} | group | {g.statements / n:.2f} | {g.seconds / n * 1e3:.2f} | {ratio} |")


if __name__ == "__main__":
    main()
