"""The audit's money checks (see :mod:`croupier.store.audit`): table escrows, house rake and
levy, diamonds. Each is a function of :class:`~croupier.store.audit.AuditData` yielding
the discrepancies it finds.

- ``escrow`` (R-CRASH-1): every table escrow holding chips belongs to a table whose
  journal seats exactly those chips (a buy-in journaled as intended may be in flight); a
  table that did not restart in the last recovered server boot holds nothing (after a
  restart every cash stack is back in its owner's account, so chips left there are stuck:
  a private or quick-match table nobody reopened).
- ``leases`` (a room of several processes, store/leases.py): a table whose lease expired
  (its process stopped renewing it) and that no process took over holds nothing in
  escrow; a table leased live is being served, so the ``escrow`` check's restart rule
  does not apply to it.
- ``rake``: what ``house:rake`` and ``house:levy`` hold equals the rake of the settled
  hands of the journal, each hand's settlement paid exactly its rake there, and nothing
  else paid into them.
- ``diamonds``: diamonds come only from grants (``mint:diamonds`` → a player), go to the
  house only in exchanges for chips at 1:1 (``buy_chips``: the diamonds taken equal the
  chips issued to the same player), and the diamonds granted equal what the players hold
  plus what they exchanged.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from croupier.store.boots import last_recovered_boot
from croupier.store.schema import hands, table_journal, table_leases

if TYPE_CHECKING:
    from croupier.store.audit import AuditData

__all__ = ["check_diamonds", "check_escrow", "check_leases", "check_rake"]

HOUSE_CHIP_ACCOUNTS = ("house:rake", "house:levy")


def _escrows(data: AuditData) -> dict[str, dict[int, int]]:
    """Non-zero escrow balances by table and account."""
    out: dict[str, dict[int, int]] = defaultdict(dict)
    for account in data.accounts_of("escrow"):
        if int(account.balance):
            out[str(account.table_id)][int(account.user_id)] = int(account.balance)
    return dict(out)


SEAT_RECORDS = ("SeatsRecord", "HandStartRecord", "HandEndRecord", "HandVoidRecord")
"""Journal records that carry a table's whole seat map (the last one is the table's)."""


class _TableState:
    """What the escrow check needs of a table's journal, read without decoding it all."""

    def __init__(self) -> None:
        self.last_id = 0
        self.seats: dict[int, int] = defaultdict(int)
        self.intents: dict[str, tuple[int, int]] = {}

    def in_flight(self, uid: int) -> int:
        return sum(amount for u, amount in self.intents.values() if u == uid)


def _journal_states(conn: sa.Connection, table_ids: list[str]) -> dict[str, _TableState]:
    """Each table's seat map (the last record carrying one, the same as
    :func:`~croupier.table.journal.plan_recovery` reads), its buy-ins in flight and the id
    of its last record."""
    found: dict[str, _TableState] = {}
    tj = table_journal.c
    for start in range(0, len(table_ids), 500):
        chunk = table_ids[start : start + 500]
        for table_id, last in conn.execute(
            sa.select(tj.table_id, sa.func.max(tj.id))
            .where(tj.table_id.in_(chunk))
            .group_by(tj.table_id)
        ):
            found.setdefault(table_id, _TableState()).last_id = int(last)
        last_seats = (
            sa.select(sa.func.max(tj.id))
            .where(tj.table_id.in_(chunk), tj.type.in_(SEAT_RECORDS))
            .group_by(tj.table_id)
        )
        for table_id, body in conn.execute(
            sa.select(tj.table_id, tj.body).where(tj.id.in_(last_seats))
        ):
            state = found[table_id]
            for seat in body.get("seats") or ():
                uid = _account(str(seat.get("player_id", "")))
                if uid is not None:
                    state.seats[uid] += int(seat.get("stack", 0))
        rows = conn.execute(
            sa.select(tj.table_id, tj.type, tj.body)
            .where(
                tj.table_id.in_(chunk), tj.type.in_(("BuyInIntent", "BuyInAborted", "SeatsRecord"))
            )
            .order_by(tj.id)
        )
        for table_id, kind, body in rows:
            intents = found[table_id].intents
            if kind == "BuyInIntent":
                uid = _account(str(body.get("player_id", "")))
                if uid is not None:
                    intents[str(body["ref"])] = (uid, int(body["amount"]))
            elif kind == "BuyInAborted":
                intents.pop(str(body.get("ref")), None)
            else:
                intents.pop(str(body.get("buy_in") or ""), None)
    return found


def _account(player_id: str) -> int | None:
    return int(player_id) if player_id.isdigit() else None


def check_escrow(data: AuditData) -> Iterator[str]:
    escrows = _escrows(data)
    if not escrows:
        return
    journals = _journal_states(data.conn, sorted(escrows))
    boot = last_recovered_boot(data.conn)
    now = round(time.time() * 1000)
    served = {name for name, lease in _leases(data).items() if lease.expires_ms > now}
    for table_id, held in sorted(escrows.items()):
        total = sum(held.values())
        state = journals.get(table_id)
        if state is None:
            yield f"table {table_id} has no journal but its escrow holds {total} chips ({held})"
            continue
        for uid in sorted(set(held) | {u for u, s in state.seats.items() if s}):
            have, want = held.get(uid, 0), state.seats.get(uid, 0)
            if not want <= have <= want + state.in_flight(uid):
                yield (
                    f"escrow table:{table_id}:{uid} holds {have} chips but the table's journal"
                    f" seats {want}"
                )
        if boot is not None and state.last_id <= boot.journal_mark and table_id not in served:
            when = datetime.fromtimestamp(boot.started_ms / 1000, UTC).isoformat(timespec="seconds")
            yield (
                f"table {table_id} did not restart after the server restart of {when} but its"
                f" escrow still holds {total} chips of {len(held)} players: stuck"
            )


def _leases(data: AuditData) -> dict[str, Any]:
    return {r.name: r for r in data.conn.execute(sa.select(table_leases))}


def check_leases(data: AuditData) -> Iterator[str]:
    escrows = _escrows(data)
    now = round(time.time() * 1000)
    for name, lease in sorted(_leases(data).items()):
        held = escrows.get(name)
        if lease.expires_ms <= now and held:
            when = datetime.fromtimestamp(lease.expires_ms / 1000, UTC).isoformat(
                timespec="seconds"
            )
            yield (
                f"table {name}: its process {lease.owner} let its lease expire at {when} and"
                f" no process took it over, but its escrow holds {sum(held.values())} chips of"
                f" {len(held)} players: stuck"
            )


def _settled_hands(data: AuditData) -> list[Any]:
    return list(
        data.conn.execute(
            sa.select(
                hands.c.table_id, hands.c.hand_id, hands.c.transfer_id, hands.c.outcome
            ).where(hands.c.status == "settled")
        )
    )


def check_rake(data: AuditData) -> Iterator[str]:
    raked = 0
    hand_transfers: dict[int, tuple[str, int]] = {}
    for hand in _settled_hands(data):
        rake = int((hand.outcome or {}).get("rake", 0) or 0)
        raked += rake
        if hand.transfer_id is not None:
            hand_transfers[int(hand.transfer_id)] = (f"{hand.table_id}/{hand.hand_id}", rake)
        elif rake:
            yield f"hand {hand.table_id}/{hand.hand_id} raked {rake} but moved nothing"
    for transfer_id, (name, rake) in sorted(hand_transfers.items()):
        legs = data.leg_amounts(transfer_id)
        paid = sum(legs.get(k, 0) for k in HOUSE_CHIP_ACCOUNTS)
        if paid != rake:
            yield f"hand {name} raked {rake} but its settlement paid the house {paid}"
    for key in HOUSE_CHIP_ACCOUNTS:
        for transfer, amount in data.transfers_of(key):
            if int(transfer.id) not in hand_transfers:
                yield (
                    f"{key} got {amount} from transfer {transfer.idem_key!r} ({transfer.kind}),"
                    " which settles no hand"
                )
    held = sum(data.balance(k) for k in HOUSE_CHIP_ACCOUNTS)
    if held != raked:
        yield f"house rake and levy hold {held} chips but the settled hands raked {raked}"


def check_diamonds(data: AuditData) -> Iterator[str]:
    granted = 0
    for transfer, amount in data.transfers_of("mint:diamonds"):
        legs = data.leg_amounts(int(transfer.id))
        users = {k: v for k, v in legs.items() if k.startswith("user:") and k.endswith(":diamonds")}
        if transfer.kind != "diamonds_grant" or len(legs) != 2 or list(users.values()) != [-amount]:
            yield f"mint:diamonds moved {amount} in {transfer.idem_key!r} ({transfer.kind}), not a grant"
        granted -= amount
    exchanged = 0
    for transfer_id, transfer in sorted(data.transfers.items()):
        legs = data.leg_amounts(transfer_id)
        if "house:diamonds" not in legs and transfer.kind != "buy_chips":
            continue
        spent = legs.get("house:diamonds", 0)
        exchanged += spent
        user_d = [k for k, v in legs.items() if k.endswith(":diamonds") and k.startswith("user:")]
        user_c = [k for k, v in legs.items() if k.endswith(":chips") and k.startswith("user:")]
        same_user = (
            len(user_d) == 1
            and len(user_c) == 1
            and user_d[0].rsplit(":", 1)[0] == user_c[0].rsplit(":", 1)[0]
        )
        if (
            transfer.kind != "buy_chips"
            or len(legs) != 4
            or not same_user
            or spent <= 0
            or legs.get(user_d[0] if user_d else "", 0) != -spent
            or legs.get("mint:chips", 0) != -spent
            or legs.get(user_c[0] if user_c else "", 0) != spent
        ):
            yield (
                f"transfer {transfer.idem_key!r} ({transfer.kind}) is not an exchange of"
                f" diamonds for as many chips: {legs}"
            )
    if data.balance("house:diamonds") != exchanged:
        yield (
            f"house:diamonds holds {data.balance('house:diamonds')} but the exchanges"
            f" brought {exchanged}"
        )
    players = sum(int(a.balance) for a in data.accounts_of("user") if str(a.currency) == "diamonds")
    if granted != players + exchanged:
        yield (
            f"diamonds granted {granted}, but the players hold {players} and exchanged {exchanged}"
        )
