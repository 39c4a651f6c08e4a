"""bench/bench_settlement.py runs and measures: the journal's and the archive's statements
and time per hand, one table per transaction against many, each group row with its ratio
(never a timing threshold: the machine is shared)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_settlement.py"


def test_the_bench_prints_each_part_both_ways_with_the_ratio(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R-CRASH-1: the bench writes real hands (the audit it runs is clean) and a group
    costs fewer statements per hand than one table per transaction (a count)."""
    bench = runpy.run_path(str(BENCH))
    bench["main"](["--tables", "4", "--hands", "2"])
    rows = [
        ln.split(" | ")
        for ln in capsys.readouterr().out.splitlines()
        if ln.startswith("| j") or ln.startswith("| a")
    ]
    assert [r[:2] for r in rows] == [
        ["| journal", "alone"], ["| journal", "group"], ["| archive", "alone"], ["| archive", "group"],
    ]  # fmt: skip
    assert all("×" in r[4] for r in rows[1::2])
    alone, group = bench["run"](4, 2, False, tmp_path), bench["run"](4, 2, True, tmp_path)
    for a, g in zip(alone, group, strict=True):
        assert g.statements < a.statements
