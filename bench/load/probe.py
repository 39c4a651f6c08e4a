"""Measurements inside a server process: event-loop lag, GC pauses, CPU time and RSS.

The load harness starts the server under test (croupier or the baseline) in a child
process that installs a :class:`Probe`; the harness asks for figures over the child's
stdin/stdout (one JSON line per answer), so nothing is added to the server itself.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import time
import traceback
import tracemalloc
from collections import Counter
from collections.abc import Callable
from typing import Any

__all__ = ["Probe", "rss_bytes"]

LAG_INTERVAL = 0.05


def rss_bytes(pid: int | None = None) -> int:
    """Resident set size of ``pid`` (default: this process), from /proc."""
    path = f"/proc/{pid or 'self'}/statm"
    try:
        with open(path) as f:
            pages = int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


class Probe:
    """Samples the loop's lag every 50 ms and times every GC collection."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.gcs: list[tuple[int, float]] = []
        self.gc_cpus: list[tuple[int, float]] = []
        """The same collections' CPU time on their thread: a pause longer than its CPU time
        is a collection the machine's other processes kept off a core."""
        self.loop_gcs: list[float] = []
        """The pauses of the collections run by the event loop's thread (the others ran on
        a store or archive thread: they stop the loop only while they hold the GIL)."""
        self._gc_start = 0.0
        self._gc_cpu_start = 0.0
        self._main = threading.main_thread().ident
        self._task: asyncio.Task[None] | None = None
        self._cpu0 = time.process_time()
        self._wall0 = time.monotonic()
        self._rss0 = rss_bytes()
        self.counters: Callable[[], dict[str, int]] = dict
        """The server's own counters (croupier: frames and messages sent), reported as
        their growth since the last reset."""
        self._counters0: dict[str, int] = {}
        self.maxima: Callable[[], dict[str, float]] = dict
        """The server's longest waits since the previous call (croupier: the journal's
        record queued → durable, its transactions, its writes on the caller's thread),
        taken at each reset and reported as the window's."""
        self._blocks0 = sys.getallocatedblocks()
        self._census = os.environ.get("LOAD_GC_CENSUS")
        """A file to append, at the start of each collection, the generation, the number
        of objects it scans and the 25 most common types among them (a debugging aid:
        it slows every collection down)."""
        self._census_from = int(os.environ.get("LOAD_GC_CENSUS_FROM", "0"))
        """The youngest generation whose collections the census writes (1: the middle and
        full ones only)."""
        gc.callbacks.append(self._on_gc)
        self._garbage = os.environ.get("LOAD_GC_GARBAGE")
        """A file to append, at each reset and report, the types of the objects the
        collections found in cycles since the previous one (``gc.DEBUG_SAVEALL``: they
        are kept, not freed: a debugging aid for finding what makes cyclic garbage)."""
        if self._garbage:
            gc.set_debug(gc.DEBUG_SAVEALL)
        self._traced = os.environ.get("LOAD_TRACEMALLOC")
        """``/path``: trace Python's allocations (``tracemalloc``, 5 frames) from the start,
        and append to ``path`` at each report the 30 places whose live memory grew most
        since the last reset (a debugging aid for memory growth: it slows the server)."""
        self._snapshot: tracemalloc.Snapshot | None = None
        if self._traced:
            tracemalloc.start(5)
        self._beat = time.monotonic()
        self._stalls = os.environ.get("LOAD_STALL_DUMP")
        """``seconds:/path``: a watchdog thread appends to ``path`` the event loop's stack
        (and every other thread's) whenever the loop has not ticked for ``seconds`` (a
        debugging aid, once per stall)."""

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        census = self._census and int(info.get("generation", 0)) >= self._census_from
        if phase == "start":
            if census:
                self._write_census(int(info.get("generation", 0)))
            self._gc_start = time.perf_counter()
            self._gc_cpu_start = time.thread_time()
        else:
            took = time.perf_counter() - self._gc_start
            cpu = time.thread_time() - self._gc_cpu_start
            if census:
                assert self._census is not None
                with open(self._census, "a") as f:
                    f.write(
                        f"  took {1000 * took:.0f} ms, collected {info.get('collected', 0):,}\n"
                    )
            self.gcs.append((int(info.get("generation", -1)), took))
            self.gc_cpus.append((int(info.get("generation", -1)), cpu))
            if threading.get_ident() == self._main:
                self.loop_gcs.append(took)

    def _write_census(self, generation: int) -> None:
        assert self._census is not None
        scanned = [o for g in range(generation + 1) for o in gc.get_objects(g)]
        kinds = Counter(type(o).__qualname__ for o in scanned).most_common(25)
        line = f"gen {generation}: {len(scanned):,} objects: " + ", ".join(
            f"{k} {n:,}" for k, n in kinds
        )
        with open(self._census, "a") as f:
            f.write(f"{time.monotonic():.1f} {line}\n")

    def _write_heap(self, path: str) -> None:
        """``LOAD_HEAP_CENSUS=/path``: at each reset and report, the objects the collector tracks
        per generation (the permanent one is never scanned) and the 40 most common types
        among those a full collection scans (what its pause is proportional to)."""
        sizes = [len(gc.get_objects(g)) for g in range(3)]
        kinds = Counter(type(o).__qualname__ for o in gc.get_objects()).most_common(40)
        with open(path, "a") as f:
            f.write(
                f"pid {os.getpid()} {time.monotonic():.1f} tracked by generation {sizes}, frozen"
                f" {gc.get_freeze_count():,}: " + ", ".join(f"{k} {n:,}" for k, n in kinds) + "\n"
            )

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._lag_loop())
        if self._stalls:
            seconds, _, path = self._stalls.partition(":")
            threading.Thread(
                target=self._watchdog, args=(float(seconds), path), daemon=True
            ).start()

    async def _lag_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            self._beat = time.monotonic()
            await asyncio.sleep(LAG_INTERVAL)
            self.lags.append(max(0.0, loop.time() - t0 - LAG_INTERVAL))

    def _watchdog(self, seconds: float, path: str) -> None:
        dumped = 0.0
        while True:
            time.sleep(LAG_INTERVAL)
            beat = self._beat
            if time.monotonic() - beat < seconds or beat == dumped:
                continue
            dumped = beat
            frames = sys._current_frames()
            with open(path, "a") as f:
                f.write(f"--- loop stalled {time.monotonic() - beat:.2f} s\n")
                for ident, frame in frames.items():
                    name = "loop" if ident == self._main else str(ident)
                    f.write(f"thread {name}:\n" + "".join(traceback.format_stack(frame)[-14:]))

    def _write_garbage(self, path: str) -> None:
        found = list(gc.garbage)
        gc.garbage.clear()
        kinds = Counter(type(o).__qualname__ for o in found).most_common(40)
        with open(path, "a") as f:
            f.write(
                f"pid {os.getpid()} {time.monotonic():.1f} {len(found):,} objects in cycles: "
                + ", ".join(f"{k} {n:,}" for k, n in kinds)
                + "\n"
            )

    def _write_growth(self, path: str) -> None:
        gc.collect()  # cyclic garbage waiting for a collection is not growth
        now = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        if self._snapshot is not None:
            stats = now.compare_to(self._snapshot, "traceback")
            grown = sum(s.size_diff for s in stats)
            with open(path, "a") as f:
                f.write(
                    f"pid {os.getpid()} {time.monotonic():.1f} live Python memory"
                    f" {sum(s.size for s in stats) / 2**20:.1f} MiB, grown {grown / 2**20:+.2f} MiB"
                    f" ({sum(s.count_diff for s in stats):+,} blocks) since the last reset\n"
                )
                for stat in stats[:30]:
                    f.write(
                        f"  {stat.size_diff / 1024:+,.0f} KiB {stat.count_diff:+,} blocks"
                        f" (now {stat.size / 1024:,.0f} KiB {stat.count:,})\n"
                    )
                    for line in stat.traceback.format()[-12:]:
                        f.write(f"      {line}\n")
        self._snapshot = now

    def full_collection(self) -> dict[str, float]:
        """A full collection now, at the window's end (after its figures are taken: its
        pause is not in them): how long it stopped the process, its CPU time and how many
        objects it scanned, every one the collector tracks outside the permanent
        generation. The paced full collections come every five minutes, so a short window
        holds none: this one shows what each would cost."""
        scanned = sum(len(gc.get_objects(g)) for g in range(3))
        wall, cpu = time.perf_counter(), time.thread_time()
        gc.collect()
        return {
            "full_pause": time.perf_counter() - wall,
            "full_cpu": time.thread_time() - cpu,
            "full_scanned": scanned,
        }

    def reset(self) -> None:
        if self._traced:
            self._write_growth(self._traced)
        if heap := os.environ.get("LOAD_HEAP_CENSUS"):
            self._write_heap(heap)
        if self._garbage:
            self._write_garbage(self._garbage)
        self.lags = []
        self.gcs = []
        self.gc_cpus = []
        self.loop_gcs = []
        self._cpu0 = time.process_time()
        self._wall0 = time.monotonic()
        self._rss0 = rss_bytes()
        self._counters0 = self.counters()
        self.maxima()
        self._blocks0 = sys.getallocatedblocks()

    def report(self) -> dict[str, Any]:
        """Figures since the last :meth:`reset` (called from another thread: copies only)."""
        if os.environ.get("LOAD_COLLECT_BEFORE_REPORT"):
            gc.collect()
        if self._traced:
            self._write_growth(self._traced)
        if heap := os.environ.get("LOAD_HEAP_CENSUS"):
            self._write_heap(heap)
        if self._garbage:
            self._write_garbage(self._garbage)
        lags = sorted(list(self.lags))
        gcs = list(self.gcs)
        gc_cpus = list(self.gc_cpus)
        wall = time.monotonic() - self._wall0
        return self.full_collection() | {
            "wall": wall,
            "cpu": time.process_time() - self._cpu0,
            "rss": rss_bytes(),
            "rss_start": self._rss0,
            "lag_p99": lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else 0.0,
            "lag_max": lags[-1] if lags else 0.0,
            "gc_count": len(gcs),
            "gc_full": sum(1 for g, _ in gcs if g == 2),
            "gc_max": max((d for _, d in gcs), default=0.0),
            "gc_max_loop": max(self.loop_gcs, default=0.0),
            "gc_max_gen": [max((d for g, d in gcs if g == gen), default=0.0) for gen in (0, 1, 2)],
            "gc_count_gen": [sum(1 for g, _ in gcs if g == gen) for gen in (0, 1, 2)],
            "gc_cpu_max_gen": [
                max((d for g, d in gc_cpus if g == gen), default=0.0) for gen in (0, 1, 2)
            ],
            "gc_total": sum(d for _, d in gcs),
            "gc_objects": len(gc.get_objects()) if os.environ.get("LOAD_COUNT_OBJECTS") else 0,
            # memory blocks Python's allocator holds: flat while RSS grows, the growth
            # is outside Python's objects (SQLite's page caches, the C allocator)
            "blocks": sys.getallocatedblocks(),
            "blocks_start": self._blocks0,
            **self.maxima(),
            **{k: v - self._counters0.get(k, 0) for k, v in self.counters().items()},
        }
