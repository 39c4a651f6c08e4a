"""A director's journaled state (R-CRASH-1 revised): what it writes after every hand,
move, level, break and at the end (:func:`state_of`), how a running tournament resumes
from it after a restart (:func:`resume`), and a finished one listed again read-only
(:func:`finished_from`).

The state after a hand is written in the same store transaction as the hand's archive
row (:meth:`~croupier.tournament.persist.TournamentStore.director_state`): a restart finds
either both or neither, so the hand it voids was never recorded, and the hands it keeps
are exactly those the stacks count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.table.clock import Clock
from croupier.tournament import groups, late
from croupier.tournament.deal import Deal
from croupier.tournament.errors import TournamentError
from croupier.tournament.money import Cashier, TournamentBank
from croupier.tournament.registration import Launch, TournamentSpec

if TYPE_CHECKING:
    from croupier.tournament.director import Director, Placing

__all__ = ["finished_from", "resume", "state_of"]


def state_of(d: Director) -> dict[str, Any]:
    """What a restart needs, as JSON: the launch, the level and the clock, every player
    still in at (table, seat) with the stack of the last hand their table finished, the
    places given, and the hand numbers of the tables."""
    launch = d.launch
    return {
        "launch": {
            "entrants": [
                [e.player_id, e.name, e.is_bot, e.key, e.entry_id] for e in launch.entrants
            ],
            "pool": launch.pool,
            "prizes": list(launch.prizes),
            "multiplier": None if launch.multiplier is None else launch.multiplier.multiplier,
        },
        "elapsed": d.elapsed() if d.actors or d.finished else 0.0,
        "level": d.level,
        "seat_seed": d.seat_seed,
        "players": {p: [t, s, d.stacks.get(p, 0)] for p, (t, s) in d.where.items()},
        "placings": [[p.player_id, p.place, p.prize, p.at] for p in d.placings],
        "hand_nos": {str(t): n for t, n in d.hand_nos.items()},
        "finished": d.finished,
        "paid": d.paid,
        "late": d.late,
        "deal": None if d.deal is None else d.deal.agreed,
        "pending": [list(b) for b in d.pending],
        "pending_order": {p: list(o) for p, o in d.pending_order.items()},
        "round": groups.round_state(d),
        "break_left": None
        if d.on_break_until is None
        else max(0.0, d.on_break_until - d.clock.now()),
    }


def _placings(state: dict[str, Any]) -> list[Placing]:
    from croupier.tournament.director import Placing

    return [Placing(str(p), int(k), int(z), float(a)) for p, k, z, a in state.get("placings") or []]


def _deal(state: dict[str, Any]) -> Deal | None:
    agreed = state.get("deal")
    if not agreed:
        return None
    return Deal(tuple(sorted(agreed)), agreed={str(k): int(v) for k, v in agreed.items()})


async def resume(d: Director, state: dict[str, Any]) -> None:
    """Resume ``d`` from a journaled :func:`state_of` after a restart: the hand each table
    was playing is void (its chips are back in the stacks of its last finished hand), the
    level clock continues from the time written, no place is given twice and the prizes
    are paid once (idempotent keys). A state written before the first deal starts the
    tournament afresh with its launch (the same entrants and pool)."""
    players = state.get("players") or {}
    if not players and not state.get("placings"):
        await d.start()
        return
    d.placings = _placings(state)
    d.late = bool(state.get("late", False))
    d.pending = [(str(p), int(s), int(g), float(a)) for p, s, g, a in state.get("pending", [])]
    d.group = max((g for _, _, g, _ in d.pending), default=0)
    d.pending_order = {
        str(p): (int(o[0]), int(o[1])) for p, o in (state.get("pending_order") or {}).items()
    }
    deal = _deal(state)
    if deal is not None:
        d.deal = deal
    if state.get("finished"):
        d.finished = True
        d._pay()
        d._save()
        return
    d.elapsed_before = float(state.get("elapsed", 0.0))
    d.started_at = d.clock.now() - d.elapsed_before
    d.level = max(int(state.get("level", 0)), d.schedule.level_at(d.elapsed_before))
    d.levels.append((d.level, d.clock.now()))
    d.hand_nos = {int(t): int(n) for t, n in (state.get("hand_nos") or {}).items()}
    seats = {str(p): (int(t), int(s)) for p, (t, s, _) in players.items()}
    d.stacks = {str(p): int(c) for p, (_, _, c) in players.items()}
    d.bank = TournamentBank(d.stacks)
    if sum(d.stacks.values()) != d.total_chips:
        raise TournamentError(
            "chips_not_conserved",
            f"journaled stacks hold {sum(d.stacks.values())}, {d.total_chips} issued",
        )
    d.where = dict(seats)
    groups.resume_round(d, state.get("round"))  # its cut hands are void
    # keep the elapsed clock: the offset makes started_at + level start land right
    d.started_at = d.clock.now() - d.elapsed_before
    break_left = state.get("break_left")
    if break_left is not None:
        d.on_break_until = d.clock.now() + float(break_left)  # no hand meanwhile
    await d._open(seats)
    if break_left is not None:
        d._resume_break(float(break_left))
    d.elapsed_before = 0.0
    if d.late and d.level >= d.spec.late_levels:
        late.close_late(d)
    d._save()
    if len(d.where) == 1:  # pragma: no cover - the end is journaled as finished
        d._finish()
    else:
        d._reorganize(set())


def finished_from(
    spec: TournamentSpec,
    launch: Launch,
    state: dict[str, Any],
    *,
    clock: Clock,
    cashier: Cashier,
) -> Director:
    """A finished tournament as journaled, read-only (listed after a restart): its places,
    prizes, level and deal; no table, no clock armed, no journal, no chip moves."""
    from croupier.tournament.director import Director

    d = Director(spec, launch, clock=clock, cashier=cashier)
    d.placings = _placings(state)
    d.level = int(state.get("level", 0))
    d.seat_seed = state.get("seat_seed")
    d.finished = True
    d.paid = bool(state.get("paid", False))
    d.late = False
    d.where.clear()
    d.stacks.clear()
    d.deal = _deal(state)
    return d
