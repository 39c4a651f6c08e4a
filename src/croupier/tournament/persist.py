"""Tournaments that survive a restart (R-CRASH-1 revised, R-TOUR-11): the published terms
as JSON, the registrations, and the director's state between hands, journaled in the store
(:class:`~croupier.store.tournaments.TournamentJournal`).

* A registration is written *before* its buy-in moves (``active``) and marked ``declined``
  if the cashier refuses, ``refunded`` when it goes back; at restart an ``active`` row whose
  ledger transfer does not exist is dropped (the process died between the two).
* The director writes its state (:meth:`Director.state`) at its start, after every hand,
  every move, every level and at the end. After a hand, the hand's archive row (History,
  built by :attr:`TournamentStore.hands` the moment the hand ends) and the state that
  counts it are ONE
  transaction (:meth:`TournamentJournal.save_state`): a crash leaves both or neither.
  At restart a running tournament resumes from it
  (:meth:`Director.resume`): the hand that was cut is void, the stacks are those of the
  last hand each table finished, the level clock continues from what was written.
* Tournament ids are never used twice: a recurring event takes the next free
  ``<root>.<n>`` over every id the store has ever seen, so no ledger key is replayed.

>>> from croupier.tournament.spin import spin
>>> spec = spin("spin-1", "Spin 10", buy_in=10)
>>> spec_from_json(spec_to_json(spec)) == spec
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from croupier.store.archive import ArchivedHand
from croupier.store.store import Store
from croupier.store.tournaments import TournamentJournal
from croupier.tournament.registration import Entrant, Registration, Status, TournamentSpec
from croupier.tournament.structures import (
    BlindSchedule,
    Level,
    PayoutTable,
    PayoutTier,
    SpinPrize,
    SpinTable,
)

__all__ = ["TournamentStore", "spec_from_json", "spec_to_json", "tournament_store"]


def _schedule_json(s: BlindSchedule) -> dict[str, Any]:
    return {
        "name": s.name,
        "levels": [[lv.small_blind, lv.big_blind, lv.ante, lv.seconds] for lv in s.levels],
    }


def _schedule(d: dict[str, Any]) -> BlindSchedule:
    return BlindSchedule(
        str(d["name"]), tuple(Level(int(a), int(b), int(c), float(s)) for a, b, c, s in d["levels"])
    )


def spec_to_json(spec: TournamentSpec) -> dict[str, Any]:
    """Every term of ``spec`` as plain JSON (see :func:`spec_from_json`)."""
    out: dict[str, Any] = {
        "tournament_id": spec.tournament_id,
        "name": spec.name,
        "kind": spec.kind,
        "game": spec.game,
        "profile": spec.profile,
        "buy_in": spec.buy_in,
        "starting_stack": spec.starting_stack,
        "seats": spec.seats,
        "max_entrants": spec.max_entrants,
        "min_entrants": spec.min_entrants,
        "schedule": _schedule_json(spec.schedule),
        "payouts": [[t.max_entrants, list(t.shares)] for t in spec.payouts.tiers],
        "bots_allowed": spec.bots_allowed,
        "spin": None,
        "opens_at": spec.opens_at,
        "starts_at": spec.starts_at,
        "between_hands": spec.between_hands,
        "bot_delay": spec.bot_delay,
        "breaks": None if spec.breaks is None else list(spec.breaks),
    }
    for name in ("late_levels", "reentries"):
        if hasattr(spec, name):
            out[name] = getattr(spec, name)
    if spec.spin is not None:
        out["spin"] = {
            "prizes": [
                [p.multiplier, p.ppm, list(p.shares), p.level_seconds] for p in spec.spin.prizes
            ],
            "blinds": [list(b) for b in spec.spin.blinds],
        }
    return out


def spec_from_json(d: dict[str, Any]) -> TournamentSpec:
    """The :class:`TournamentSpec` written by :func:`spec_to_json`."""
    terms = dict(d)
    terms["schedule"] = _schedule(d["schedule"])
    terms["payouts"] = PayoutTable(
        tuple(PayoutTier(int(m), tuple(int(s) for s in sh)) for m, sh in d["payouts"])
    )
    spin = d.get("spin")
    terms["spin"] = (
        None
        if spin is None
        else SpinTable(
            tuple(
                SpinPrize(int(m), int(ppm), tuple(int(s) for s in sh), float(sec))
                for m, ppm, sh, sec in spin["prizes"]
            ),
            tuple((int(a), int(b)) for a, b in spin["blinds"]),
        )
    )
    if terms.get("breaks") is not None:
        terms["breaks"] = tuple(float(x) for x in terms["breaks"])
    known = set(TournamentSpec.__dataclass_fields__)
    return TournamentSpec(**{k: v for k, v in terms.items() if k in known})


HandSource = Callable[[str, int], ArchivedHand | None]
"""``(table id, hand number)`` → the settled hand's archive row (the server builds it from
the table's events), or ``None`` when the table is not served."""


class TournamentStore:
    """The tournament layer's side of the journal: what the registry and the directors
    write, and what a restart reads back. ``transfer_exists(key)`` tells whether a ledger
    key was recorded (``LedgerCashier`` keys are ``tour:<key>``); ``hands`` builds the
    archive row of a settled tournament hand, written with the director's state."""

    def __init__(
        self,
        journal: TournamentJournal,
        transfer_exists: Callable[[str], bool],
        hands: HandSource | None = None,
    ) -> None:
        self.journal = journal
        self.transfer_exists = transfer_exists
        self.hands = hands

    def published(self, spec: TournamentSpec, root: str, recurring: bool) -> None:
        self.journal.save_event(
            spec.tournament_id,
            root=root,
            kind=spec.kind,
            status=Status.REGISTERING.value,
            buy_in=spec.buy_in,
            recurring=recurring,
            spec=spec_to_json(spec),
        )

    def used_ids(self, root: str | None = None) -> set[str]:
        return self.journal.used_ids(root)

    def registration_changed(self, reg: Registration, what: str, entrant: Entrant | None) -> None:
        """Hooked as :attr:`Registration.on_change`."""
        tid = reg.spec.tournament_id
        if what == "entering" and entrant is not None:
            self.journal.save_entry(
                tid, entrant.entry_id, entrant.player_id, entrant.name, entrant.is_bot, entrant.key
            )
        elif what == "declined" and entrant is not None:
            self.journal.set_entry_status(entrant.entry_id, "declined")
        elif what == "refunded" and entrant is not None:
            self.journal.set_entry_status(entrant.entry_id, "refunded")
        elif what == "cancelled":
            self.journal.save_event(
                tid,
                root=tid,
                kind=reg.spec.kind,
                status=Status.CANCELLED.value,
                buy_in=reg.spec.buy_in,
                recurring=False,
                spec={},
            )

    def hand_record(self, table_id: str, hand_no: int) -> ArchivedHand | None:
        """Hooked as the director's ``on_hand``: the archive row of a hand that just
        ended, built at once (a broken table stops being served right after)."""
        return None if self.hands is None else self.hands(table_id, hand_no)

    def director_state(
        self,
        tournament_id: str,
        status: str,
        state: dict[str, Any],
        hands: Sequence[object] = (),
    ) -> None:
        """Hooked as the director's ``on_state``: the state and the archive rows of the
        hands settled since the last save (:meth:`hand_record`), in one transaction."""
        rows = [h for h in hands if isinstance(h, ArchivedHand)]
        self.journal.save_state(tournament_id, status, state, rows)


def tournament_store(store: Store, hands: HandSource | None = None) -> TournamentStore:
    """The journal of ``store`` for a registry on a ``LedgerCashier`` (keys ``tour:…``);
    ``hands`` builds the archive rows of the tournament tables' hands (the server's
    table registry)."""
    return TournamentStore(
        TournamentJournal(store.db, clock=store.clock, archive=store.archive, fence=store.fence),
        lambda key: store.ledger.get_transfer(f"tour:{key}") is not None,
        hands,
    )
