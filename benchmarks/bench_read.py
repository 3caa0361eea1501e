"""Reading text once (issue 26): JSONL, one item's text, memory held by parsed items, start-up.

    python benchmarks/bench_read.py                      # all sections
    python benchmarks/bench_read.py --only jsonl item    # sections: jsonl item memory startup

Every figure is a ratio against a baseline timed in the same run (paired ratios: the median over
rounds of the per-round ratio); absolute µs are for orientation only. Nothing here asserts.
To compare with another checkout, run this script with that checkout's `src` first on `PYTHONPATH`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from timing import Fn, paired, rounds, table  # the benchmarks' one timing home (benchmarks/timing.py)

import replayable as rp


def log_items(n: int) -> list[dict[str, Any]]:
    """Input-form turns as apps store them (a user message, a call, its output, an assistant message)."""
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < n:
        out += [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"question {i}"}]},
            {
                "type": "function_call",
                "id": f"fc_{i}",
                "call_id": f"call_{i}",
                "name": "get_weather",
                "arguments": json.dumps({"city": f"city {i}", "unit": "c"}),
                "status": "completed",
            },
            {"type": "function_call_output", "call_id": f"call_{i}", "output": f"21 C in city {i}"},
            {
                "type": "message",
                "id": f"msg_{i}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": f"It is 21 C in city {i}.", "annotations": []}],
            },
        ]
        i += 1
    return out[:n]


def bench_jsonl(n: int, n_rounds: int) -> None:
    """`parse_items` on JSONL text against the same items as a JSON array (the goal: no dearer)."""
    items = log_items(n)
    array = json.dumps(items).encode()
    jsonl = b"\n".join(json.dumps(x).encode() for x in items) + b"\n"
    lines = jsonl.splitlines()
    cands: dict[str, Fn] = {
        "json.loads per line": lambda _: [json.loads(x) for x in lines],
        "parse_items(JSON array bytes)": lambda _: rp.parse_items(array),
        "parse_items(JSONL bytes)": rp.parse_items,
        "parse_items(list of JSONL lines), value by value": lambda _: rp.parse_items(lines),
    }
    for gc_off in (True, False):
        t = rounds(cands, jsonl, n_rounds, gc_off)
        table(f"JSONL, {n} log-shaped items, GC {'off' if gc_off else 'on'}", t, n, "json.loads per line", 52)
        print(f"  -> JSONL x{paired(t, 'parse_items(JSONL bytes)', 'parse_items(JSON array bytes)'):.2f} of the array")


def bench_item(n: int, n_rounds: int) -> None:
    """`parse_item` on one item's JSON text against the same item as a dict (read by `json.loads`)."""
    items = log_items(n)
    texts = [json.dumps(x).encode() for x in items]
    cands: dict[str, Fn] = {
        "json.loads": lambda _: [json.loads(x) for x in texts],
        "parse_item(json.loads(text))": lambda _: [rp.parse_item(json.loads(x)) for x in texts],
        "parse_item(text)": lambda _: [rp.parse_item(x) for x in texts],
    }
    t = rounds(cands, None, n_rounds, True)
    table(f"one item's text, {n} log-shaped items one by one, GC off", t, n, "json.loads", 52)
    ratio = paired(t, "parse_item(text)", "parse_item(json.loads(text))")
    print(f"  -> parse_item(text) x{ratio:.2f} of the dict path")


def _held(fn: Callable[[], Any]) -> tuple[int, int, Any]:
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    out = fn()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return held - before, peak - before, out


def bench_memory(n: int) -> None:
    """Bytes held by the parsed items, and the peak while parsing, against `json.loads`' dicts (tracemalloc)."""
    data = json.dumps(log_items(n)).encode()
    jl_held, jl_peak, keep = _held(lambda: json.loads(data))
    del keep
    pi_held, pi_peak, keep = _held(lambda: rp.parse_items(data))
    del keep
    print(f"\nmemory, {n} log-shaped items ({len(data) / 1e6:.1f} MB of JSON), tracemalloc")
    print(f"  json.loads:  held {jl_held / n:7.0f} B/item, peak {jl_peak / n:7.0f} B/item")
    print(f"  parse_items: held {pi_held / n:7.0f} B/item, peak {pi_peak / n:7.0f} B/item")
    print(f"  -> held x{pi_held / jl_held:.2f}, peak x{pi_peak / jl_peak:.2f} of json.loads (goals 1.5 and 1.2)")


def bench_startup(runs: int) -> None:
    """A one-item check in a fresh interpreter against `import replayable` alone (medians, ms)."""
    item = json.dumps({"type": "message", "role": "user", "content": "hi"})
    snippets = {
        "import pydantic": "import pydantic",
        "import replayable": "import replayable",
        "import + parse_item": f"import replayable as rp; rp.parse_item({item!r})",
        "import + check_transcript": f"import replayable as rp; rp.check_transcript([{item}])",
    }
    times: dict[str, list[float]] = {k: [] for k in snippets}
    for _ in range(runs):
        for k, code in snippets.items():
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times[k].append(time.perf_counter() - t)
    print(f"\nstart-up, fresh interpreters, median of {runs} runs")
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    for k, v in med.items():
        print(f"  {k:28s} {v:7.1f} ms")
    extra = med["import + check_transcript"] - med["import replayable"]
    print(f"  -> one-item check: import + {extra:.1f} ms (goal 10)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20_000, help="items per workload (default 20000)")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--only", nargs="*", default=None, help="sections: jsonl item memory startup")
    a = ap.parse_args()
    only = set(a.only or ["jsonl", "item", "memory", "startup"])
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    if "jsonl" in only:
        bench_jsonl(a.n, a.rounds)
    if "item" in only:
        bench_item(a.n, a.rounds)
    if "memory" in only:
        bench_memory(200_000)
    if "startup" in only:
        bench_startup(11)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
