"""Command line and import benchmarks, each against a baseline timed in the same run.

    python benchmarks/bench_cli.py                  # all sections, 1M-item JSONL
    python benchmarks/bench_cli.py --only import one
    python benchmarks/bench_cli.py --items 200000 --only jsonl

Sections:

- `import`: cold `import replayable` in a fresh interpreter (bytecode cached: the package is compiled
  first), median of `--runs` runs, against `import pydantic` and a bare interpreter, interleaved.
- `one`: `replayable check` on a one-item JSONL file (the console script, wall time), median of `--runs`
  runs, against `python -c "import replayable"` in the same rounds.
- `jsonl`: `replayable check` on a generated JSONL of log-shaped items (`bench_core.log_items`), from a
  file and from standard input: microseconds per item (wall time of the whole process) and peak RSS,
  against parse + check in memory (`check_transcript(parse_items(bytes))` on the same items as one JSON
  array, timed inside a fresh process) in the same rounds; the ratio is the median of per-round ratios.
- `state`: how much `check_transcript_iter`'s rule state grows per distinct call_id (tracemalloc, two sizes).

Run on demand: nothing here is a unit test and nothing here asserts. Goals (issue 16): cold import at
most 150 ms, a one-item `check` within 200 ms, the CLI on large JSONL at most 1.2x parse + check in
memory with flat memory.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import replayable
from replayable._replay import check_transcript_iter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import log_items  # noqa: E402

PY = sys.executable
EXE = str(Path(PY).with_name("replayable"))


def wall(cmd: list[str], stdin: Any = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def bench_import(runs: int) -> None:
    compileall.compile_dir(str(Path(replayable.__file__).parent), quiet=1)  # bytecode cached
    cands = {
        "python (bare)": [PY, "-c", "pass"],
        "import pydantic": [PY, "-c", "import pydantic"],
        "import pydantic.main (BaseModel)": [PY, "-c", "from pydantic import BaseModel"],
        "import replayable": [PY, "-c", "import replayable"],
    }
    times: dict[str, list[float]] = {k: [] for k in cands}
    for _ in range(runs):  # interleaved, so that a change of load hits every candidate alike
        for k, cmd in cands.items():
            times[k].append(wall(cmd))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\ncold import, fresh interpreter, median of {runs} interleaved runs (bytecode cached)")
    for k, v in med.items():
        print(f"  {k:55s} {v * 1e3:7.1f} ms")
    ours, pyd = med["import replayable"], med["import pydantic"]
    print(
        f"  -> import replayable is {ours * 1e3:.0f} ms (goal <= 150 ms), x{ours / pyd:.2f} of `import pydantic` "
        f"(the issue's 150 ms against pydantic's 40 ms is x3.75)"
    )


def bench_one(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp, "tiny.jsonl")
        f.write_text(json.dumps({"type": "message", "role": "user", "content": "hi"}) + "\n")
        cands = {
            "python -c 'import replayable'": [PY, "-c", "import replayable"],
            "replayable check tiny.jsonl": [EXE, "check", str(f)],
        }
        times: dict[str, list[float]] = {k: [] for k in cands}
        for _ in range(runs):
            for k, cmd in cands.items():
                times[k].append(wall(cmd))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n`replayable check` on a one-item file, median of {runs} interleaved runs")
    for k, v in med.items():
        print(f"  {k:55s} {v * 1e3:7.1f} ms")
    cli, imp = med["replayable check tiny.jsonl"], med["python -c 'import replayable'"]
    print(
        f"  -> the check is {cli * 1e3:.0f} ms (goal <= 200 ms): import + {(cli - imp) * 1e3:.0f} ms, x{cli / imp:.2f}"
    )


_IN_MEMORY = """
import sys, time, gc
import replayable as rp
data = open(sys.argv[1], 'rb').read()
gc.collect()
t, c = time.perf_counter(), time.process_time()
report = rp.check_transcript(rp.parse_items(data))
dt, dc = time.perf_counter() - t, time.process_time() - c
assert report.ok
print(dt, dc, len(report.items))
"""


def _measured(cmd: list[str], stdin: Any = None) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS in MB, stdout) of one process; RSS from GNU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-v", *cmd], stdin=stdin, capture_output=True, text=True)
    dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if run.returncode != 0:
        raise SystemExit(f"{cmd} exited {run.returncode}: {run.stderr[-500:]}")
    rss = next(int(x.split()[-1]) for x in run.stderr.splitlines() if "Maximum resident set size" in x)
    return dt, cpu, rss / 1024, run.stdout


def bench_jsonl(n: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        items = log_items(n)
        n = len(items)
        jl, js = Path(tmp, "t.jsonl"), Path(tmp, "t.json")
        with jl.open("w") as f:
            for x in items:
                f.write(json.dumps(x) + "\n")
        js.write_text(json.dumps(items))
        del items
        rows: dict[str, list[tuple[float, float, float]]] = {"memory": [], "file": [], "stdin": []}
        for _ in range(rounds):  # paired: the three runs of a round meet about the same load
            _, _, rss, out = _measured([PY, "-c", _IN_MEMORY, str(js)])
            wall_s, cpu_s, _ = (float(x) for x in out.split())
            rows["memory"].append((wall_s, cpu_s, rss))
            rows["file"].append(_measured([EXE, "check", str(jl)])[:3])
            with jl.open("rb") as stdin:
                rows["stdin"].append(_measured([EXE, "check", "-"], stdin=stdin)[:3])
        size = jl.stat().st_size / 1e6
    print(f"\n`replayable check` on {n} log-shaped items as JSONL ({size:.0f} MB), {rounds} paired rounds")
    print("  (the CLI: the whole process, start-up included; in memory: parse + check only, timed inside)")
    print(f"  {'':42s} {'wall us/item':>12s} {'ratio':>6s} {'CPU us/item':>12s} {'ratio':>6s} {'peak RSS MB':>12s}")
    mem = rows["memory"]
    for name, runs in rows.items():
        wall_ratio = statistics.median(r[0] / m[0] for r, m in zip(runs, mem, strict=True))
        cpu_ratio = statistics.median(r[1] / m[1] for r, m in zip(runs, mem, strict=True))
        label = "parse_items + check_transcript in memory" if name == "memory" else f"replayable check ({name})"
        print(
            f"  {label:42s} {min(r[0] for r in runs) / n * 1e6:12.2f} {wall_ratio:6.2f} "
            f"{min(r[1] for r in runs) / n * 1e6:12.2f} {cpu_ratio:6.2f} {max(r[2] for r in runs):12.0f}"
        )
    print("  -> goal: at most 1.2x parse + check in memory, memory flat (RSS independent of the file size)")


def _pairs(n: int, start: int = 0) -> Iterator[dict[str, Any]]:
    for i in range(start, start + n):
        yield {"type": "function_call", "call_id": f"call_{i:08d}", "name": "f", "arguments": "{}"}
        yield {"type": "function_call_output", "call_id": f"call_{i:08d}", "output": "ok"}


def bench_state(sizes: tuple[int, int] = (50_000, 250_000)) -> None:
    peaks = []
    for n in sizes:
        check_transcript_iter(_pairs(100))  # warm: adapters built, caches filled
        tracemalloc.start()
        report = check_transcript_iter(_pairs(n))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert report.ok
        peaks.append(peak)
    per = (peaks[1] - peaks[0]) / (sizes[1] - sizes[0])
    print(
        f"\nrule state of check_transcript_iter: peak {peaks[0] / 1e6:.1f} MB at {sizes[0]} distinct call_ids, "
        f"{peaks[1] / 1e6:.1f} MB at {sizes[1]}: about {per:.0f} bytes per distinct call_id"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="sections: import one jsonl state (default: all)")
    ap.add_argument("--runs", type=int, default=21, help="fresh processes per candidate for import and one")
    ap.add_argument("--items", type=int, default=1_000_000, help="items in the JSONL section (default 1M)")
    ap.add_argument("--rounds", type=int, default=3, help="paired rounds in the JSONL section")
    a = ap.parse_args()
    only = set(a.only or ["import", "one", "jsonl", "state"])
    print(
        f"replayable CLI benchmarks: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    if "import" in only:
        bench_import(a.runs)
    if "one" in only:
        bench_one(a.runs)
    if "jsonl" in only:
        bench_jsonl(a.items, a.rounds)
    if "state" in only:
        bench_state()
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
