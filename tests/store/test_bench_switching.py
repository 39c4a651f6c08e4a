"""bench/bench_switching.py runs and measures: a store thread's transactions with the main
thread idle and busy, per switch interval, each busy row with its ratio (never a timing
threshold: the machine is shared)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_switching.py"


def test_the_bench_prints_a_row_per_interval_and_main_thread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    before = sys.getswitchinterval()
    bench = runpy.run_path(str(BENCH))
    bench["main"](["--transactions", "5", "--intervals", "2", "0.5"])
    rows = [
        ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| ") and " ms |" in ln
    ]
    assert [r.split(" | ")[:2] for r in rows] == [
        ["| 2 ms", "idle"], ["| 2 ms", "busy"], ["| 0.5 ms", "idle"], ["| 0.5 ms", "busy"],
    ]  # fmt: skip
    assert all("×" in r for r in rows[1::2])  # each busy row has its ratio to idle
    assert sys.getswitchinterval() == before  # the bench puts the interpreter's back
    times = bench["transactions"](tmp_path, 1.0, True, 3)
    assert len(times) == 3 and times == sorted(times) and times[0] > 0
