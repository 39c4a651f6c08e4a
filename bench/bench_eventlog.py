"""What keeping a table's history costs the event loop: pickling each published event.

Run: ``.venv/bin/python bench/bench_eventlog.py``. ``--tables`` tables of bots (every
game preset in turn, six seats) play ``--hands`` hands in all on a fake clock; every event
they publish is kept as the history keeps it (a ``turn`` without its private view). The
stream is then pickled, and unpickled (what a resync reads), two ways measured in this run
one after the other, best of ``--repeat``:

* ``dataclasses``: the ``__getstate__`` that ``dataclasses`` gives a slotted class (what
  ``pickle`` uses without help: a Python call of ``fields()`` per object);
* ``fields``: the reducers ``croupier.table.eventlog`` registers (class and field values
  read by one ``operator.attrgetter``, :func:`~croupier.table.eventlog.reduce_as_fields`).

Prints microseconds per event and the ratio ``dataclasses / fields``: the machine is
shared and noisy, compare ratios measured in one run. Checks every event comes back equal
both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import copyreg
import pickle
import random
import time
from collections.abc import Callable
from typing import Any

from croupier.bots import BotRunner, RuleBot
from croupier.engine.game import GAME_PRESETS, Game, find_game
from croupier.engine.rng import SeededShuffler
from croupier.engine.variants import ForcedBets
from croupier.table import FakeClock, InMemoryJournal, PlayChips, TableActor, TableConfig, eventlog
from croupier.table.events import TableEvent


async def _stream(tables: int, hands: int) -> list[TableEvent]:
    clock = FakeClock()
    kept: list[TableEvent] = []
    actors = []
    for index in range(tables):
        preset = sorted(GAME_PRESETS)[index % len(GAME_PRESETS)]
        variant, _ = find_game(preset)
        if variant.forced_bets is ForcedBets.ANTE_BRING_IN:
            game = Game.of(preset, ante=1, bring_in=2, bets=(4, 8))
        else:
            game = Game.of(preset, blinds=(1, 2))
        seats = min(6, variant.max_players, game.rules.max_seats)
        config = TableConfig.default(
            game, seats=seats, testing=True, table_id=f"t{index}", between_hands_seconds=1.0
        )
        actor = TableActor.open(
            config,
            clock=clock,
            journal=InMemoryJournal(),
            shuffler=SeededShuffler(index),
            rng=random.Random(index),
            bank=PlayChips(),
        )
        # every event unredacted, as the history keeps it
        actor.table.log.add(None, lambda e: kept.append(eventlog._compact(e)), raw=True)
        for k in range(seats):
            bot = BotRunner(actor, f"t{index}b{k}", RuleBot(), clock=clock, delay=0.5)
            joined = await bot.join(config.min_buy_in * 2)
            assert joined.accepted, joined
        actors.append(actor)
    await clock.run_until(lambda: sum(a.table.hand_no for a in actors) >= hands, max_timers=10**8)
    return kept


def _best(run: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    events = asyncio.run(_stream(args.tables, args.hands))
    for event in events:  # what publish does for a class it meets first
        eventlog._reduce_tree(event)
    ours = {
        cls: copyreg.dispatch_table[cls]
        for cls in list(copyreg.dispatch_table)
        if cls in eventlog.REDUCED or cls is eventlog.Card
    }
    n = len(events)
    print(
        f"{n} events from {args.tables} tables, {args.hands} hands; "
        f"{len(ours)} classes with a fields reducer"
    )
    rows = {}
    for way in ("dataclasses", "fields"):
        for cls in ours:
            copyreg.dispatch_table.pop(cls, None)
        if way == "fields":
            copyreg.dispatch_table.update(ours)
        blobs = [pickle.dumps(e, pickle.HIGHEST_PROTOCOL) for e in events]
        assert [pickle.loads(b) for b in blobs] == events, f"{way}: an event came back different"
        dumps = _best(
            lambda: [pickle.dumps(e, pickle.HIGHEST_PROTOCOL) for e in events], args.repeat
        )
        loads = _best(lambda blobs=blobs: [pickle.loads(b) for b in blobs], args.repeat)
        size = sum(map(len, blobs)) / n
        rows[way] = (dumps / n * 1e6, loads / n * 1e6, size)
    print(f"{'way':<12} {'dumps µs/event':>15} {'loads µs/event':>15} {'bytes/event':>12}")
    for way, (d, lo, size) in rows.items():
        print(f"{way:<12} {d:>15.2f} {lo:>15.2f} {size:>12.0f}")
    (d0, l0, _), (d1, l1, _) = rows["dataclasses"], rows["fields"]
    print(f"ratio dataclasses / fields: dumps {d0 / d1:.2f}×, loads {l0 / l1:.2f}×")


if __name__ == "__main__":
    main()
