"""The store's latency histogram (store/latency.py, issue #16): what ``/metrics`` says of
how long the journal's writes waited."""

from __future__ import annotations

import threading

import pytest

from croupier.store.latency import BUCKETS, Latency


def test_buckets_are_cumulative_and_the_longest_is_kept() -> None:
    h = Latency()
    for s in (0.001, 0.005, 0.007, 0.2, 12.0):
        h.observe(s)
    cumulative = dict(h.cumulative())
    assert cumulative[0.005] == 2  # a bound is inclusive (Prometheus' "le")
    assert cumulative[0.01] == 3
    assert cumulative[0.25] == 4
    assert cumulative[10.0] == 4 and cumulative[float("inf")] == 5
    assert (h.count, h.max) == (5, 12.0)
    assert abs(h.sum - 12.213) < 1e-9


def test_the_window_maximum_is_forgotten_once_taken_the_overall_one_is_not() -> None:
    h = Latency()
    h.observe(0.5)
    assert h.take_window_max() == 0.5
    assert h.take_window_max() == 0.0
    h.observe(0.1)
    assert (h.take_window_max(), h.max) == (0.1, 0.5)


def test_longer_than_a_bound_counts_what_its_bucket_excludes() -> None:
    h = Latency()
    for s in (0.01, 0.05, 0.0500001, 0.25, 0.3, 11.0):
        h.observe(s)
    assert h.longer_than(0.05) == 4  # 0.05 itself is within its bucket ("le")
    assert h.longer_than(0.25) == 2
    assert h.longer_than(10.0) == 1
    assert h.longer_than(0.005) == 6
    with pytest.raises(ValueError):
        h.longer_than(0.06)  # not a bucket bound: no exact answer


def test_prometheus_lines() -> None:
    h = Latency()
    h.observe(0.03)
    lines = h.prometheus("x_seconds")
    assert lines[0] == 'x_seconds_bucket{le="0.005"} 0'
    assert 'x_seconds_bucket{le="0.05"} 1' in lines
    assert 'x_seconds_bucket{le="+Inf"} 1' in lines
    assert len([ln for ln in lines if "_bucket" in ln]) == len(BUCKETS) + 1
    assert lines[-3:] == ["x_seconds_sum 0.030000", "x_seconds_count 1", "x_seconds_max 0.030000"]


def test_observed_from_many_threads_nothing_is_lost() -> None:
    h = Latency()

    def work() -> None:
        for _ in range(5000):
            h.observe(0.002)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.count == 20000 and h.cumulative()[0] == (0.005, 20000)
