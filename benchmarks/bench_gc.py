"""What one parse costs the garbage collector: objects allocated and held per item, and the collections a
call triggers with the collector on (issue 36, point 1).

    python benchmarks/bench_gc.py                 # 20,000 core output items (check.py's W1), 5 calls each
    python benchmarks/bench_gc.py -n 50000 --calls 3

For each reader of the same bytes (the floor `TypeAdapter(list[dict]).validate_json`, the peers,
pydantic-core's own `validate_json` of our output item union without the strict reader, and
`replayable.parse_items`):

- *GC allocations per item*: how far one call moves the collector's young-generation count with the
  collector off (`gc.get_count()[0]` after minus before, from a freshly collected heap). CPython counts
  every allocation of an object that can hold references (dicts, lists, sets, model instances; tracked
  or not) and takes one off for each such object freed while the count is above zero; a young collection
  runs each time the count passes 700, so this figure (over 700) is about how many collections one call
  triggers.
- *tracked held per item*: objects the collector tracks that the result keeps alive (`gc.get_objects()`
  before and after, the result held): what every later collection of the app walks.
- *collections*: with the collector on, as apps run it, the young / middle / full collections one call
  triggers and the time spent in each kind (`gc.callbacks`), and the call's time. A full collection walks
  every tracked object of the process, the app's included: it runs once the middle generation has been
  collected 11 times *and* the objects moved to the oldest generation since the last full collection are
  at least a quarter of those that survived it (so its cost, and whether it runs, depends on the
  process's heap as well as on the call).

The collector is only switched on and off and asked here, by this script (no library call touches it,
`tests/contracts/test_gc_pause.py`). Nothing here asserts; figures depend on the Python version.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from typing import Any

from bench_core import core_output_items, peers  # the workloads and peers of bench_core.py
from pydantic import TypeAdapter

import replayable as rp
from replayable.items import output_items_adapter

FLOOR = "floor TypeAdapter(list[dict]).validate_json"


def allocations(fn: Any, data: bytes) -> tuple[int, int]:
    """(net GC allocations, tracked objects held) of one call, the collector off."""
    gc.collect()
    before_objects = len(gc.get_objects())
    gc.disable()
    try:
        before = gc.get_count()[0]
        out = fn(data)
        after = gc.get_count()[0]
    finally:
        gc.enable()
    held = len(gc.get_objects()) - before_objects - 1  # the result list itself is not counted twice
    del out
    return after - before, held


def collections(fn: Any, data: bytes) -> tuple[list[int], list[float], float]:
    """([young, middle, full] collections, [seconds in each], the call's seconds) of one call, the
    collector on, from a freshly collected heap."""
    counts, spent = [0, 0, 0], [0.0, 0.0, 0.0]
    started: list[float] = [0.0]

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            g = info["generation"]
            counts[g] += 1
            spent[g] += time.perf_counter() - started[0]

    gc.collect()
    gc.callbacks.append(watch)
    try:
        t = time.perf_counter()
        out = fn(data)
        took = time.perf_counter() - t
    finally:
        gc.callbacks.remove(watch)
    del out
    return counts, spent, took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20_000, help="items (default 20000)")
    ap.add_argument("--calls", type=int, default=5, help="calls per reader with the collector on (default 5)")
    args = ap.parse_args()
    n = args.n
    data = json.dumps(core_output_items(n)).encode()
    cands: dict[str, Any] = {FLOOR: TypeAdapter(list[dict[str, Any]]).validate_json}
    for name, fn in peers().items():
        try:
            fn(data)
            cands[name] = fn
        except Exception as exc:  # a peer that refuses the workload is reported, not fatal
            print(f"({name} refuses the workload: {str(exc)[:80]})")
    cands["pydantic-core validate_json of our output items (no strict read)"] = output_items_adapter.validate_json
    cands["replayable.parse_items(side='output')"] = lambda d: rp.parse_items(d, side="output")
    for fn in cands.values():  # build every schema first
        fn(data)
    gc.collect()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
        f"{n} core output items ({len(data) / 1e6:.1f} MB); thresholds {gc.get_threshold()}; "
        f"{len(gc.get_objects())} tracked objects in the process before the calls"
    )
    width = max(map(len, cands))
    print(f"\n{'reader':{width}s}  GC allocs/item  tracked held/item")
    for name, fn in cands.items():
        net, held = allocations(fn, data)
        print(f"{name:{width}s}  {net / n:14.2f}  {held / n:17.2f}")
    print(f"\ncollector on, {args.calls} calls each (medians): collections and the time spent in them")
    head = f"{'young':>5s} {'middle':>6s} {'full':>4s}  {'ms young/middle/full':>22s}  {'call ms':>8s}"
    print(f"{'reader':{width}s}  {head}")
    for name, fn in cands.items():
        runs = [collections(fn, data) for _ in range(args.calls)]
        counts = [statistics.median(r[0][g] for r in runs) for g in range(3)]
        spent = [statistics.median(r[1][g] for r in runs) * 1e3 for g in range(3)]
        took = statistics.median(r[2] for r in runs) * 1e3
        shown = "/".join(f"{s:.1f}" for s in spent)
        print(f"{name:{width}s}  {counts[0]:5.0f} {counts[1]:6.0f} {counts[2]:4.0f}  {shown:>22s}  {took:8.1f}")
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
