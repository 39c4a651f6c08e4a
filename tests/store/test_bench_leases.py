"""bench/bench_leases.py runs and measures a lease round's read both ways, with the ratio,
and both ways read the same leases (never a timing threshold: the machine is shared).
The store reads a JSON column with orjson, and with the standard library what orjson
refuses: a lease's lobby row holding ``NaN`` or an integer past 64 bits reads back as
before, on SQLite and PostgreSQL."""

from __future__ import annotations

import math
import runpy
from pathlib import Path

import pytest

from croupier.store import Store

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_leases.py"

pytestmark = pytest.mark.rules("R-LOBBY-1")


def test_the_bench_prints_both_reads_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    bench = runpy.run_path(str(BENCH))
    bench["main"](["--tables", "40", "--repeat", "1", "--rounds", "2"])
    out = capsys.readouterr().out
    assert "every lease row read (40 rows, a lobby row each)" in out
    lines = [ln.split() for ln in out.splitlines() if ln.strip().startswith(("stdlib", "croupier"))]
    assert [ln[0] for ln in lines] == ["stdlib", "croupier"]
    assert all(float(ln[1]) > 0 for ln in lines)
    assert "ratio stdlib / croupier: " in out and out.rstrip().endswith("×")


def test_what_orjson_refuses_reads_back_as_before(store: Store) -> None:
    """Integers past 64 bits (both databases) and, on SQLite, ``NaN`` and a lone
    surrogate (PostgreSQL's ``json`` refuses those on the way in)."""
    leases = store.leases
    odd: dict[str, object] = {"big": 2**70 + 1, "neg": -(2**65) - 3, "nested": [{"a": None}]}
    if store.db.backend.name == "sqlite":
        odd.update(nan=math.nan, lone="\ud800")
    assert leases.acquire("odd", "n1/x", url="http://a", ttl=30, info=odd) is not None
    assert leases.acquire("plain", "n1/x", url="http://a", ttl=30, info={"n": [1, 2.5, "é"]})
    got = {lease.name: dict(lease.info) for lease in leases.all()}
    if "nan" in odd:
        assert math.isnan(got["odd"].pop("nan"))
        odd.pop("nan")
    assert got == {"odd": odd, "plain": {"n": [1, 2.5, "é"]}}
