"""The one home of the benchmarks' timing helpers: rounds of candidates run in turn, paired ratios, and
the table they print (imported by `bench_core.py` and `bench_read.py`, run as scripts from here).

A paired ratio is the median over rounds of the per-round ratio of two candidates timed in the same
round, so figures from a loaded or shared machine stay comparable; the best time of each candidate is
printed for orientation only. Nothing here asserts.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Fn", "paired", "rounds", "table"]

Fn = Callable[[Any], Any]


def rounds(cands: dict[str, Fn], data: Any, n_rounds: int, gc_off: bool = True) -> dict[str, list[float]]:
    """Every round runs each candidate once on `data`, in turn, each from a freshly collected heap; returns
    all times per candidate. `gc_off`: the collector is off during each call (otherwise it runs as in an
    app). What a call returns is dropped after its time is taken (as `check.py perf` does)."""
    times: dict[str, list[float]] = {k: [] for k in cands}
    for _ in range(n_rounds):
        for k, fn in cands.items():
            gc.collect()
            if gc_off:
                gc.disable()
            t = time.perf_counter()
            out = fn(data)
            times[k].append(time.perf_counter() - t)
            gc.enable()
            del out
    return times


def paired(times: dict[str, list[float]], a: str, b: str) -> float:
    """The median over rounds of `a`'s time over `b`'s in the same round."""
    return statistics.median(x / y for x, y in zip(times[a], times[b], strict=True))


def table(title: str, times: dict[str, list[float]], n: int, base: str, width: int = 44) -> None:
    """Each candidate's best µs per item and its paired ratio to `base`."""
    print(f"\n{title}")
    print(f"  {'candidate':{width}s} {'us/item':>8s} {'x ' + base:>18s}")
    for k, v in times.items():
        print(f"  {k:{width}s} {min(v) / n * 1e6:8.3f} {paired(times, k, base):18.2f}")
