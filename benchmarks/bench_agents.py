"""Agents API benchmarks: event parsing against the untyped floor, and the event-log check's scaling.

    python benchmarks/bench_agents.py            # 1k..50k-event logs
    python benchmarks/bench_agents.py --quick    # fewer rounds, 1k..10k events

`parse_event` is reported as a ratio against `json.loads` of the same event text (the untyped floor),
timed in the same round. `check_event_log` is reported per event for growing logs of requires_action
events, each answered by a tool result (half of the calls refused by their tool schema and answered
`success: false`, every tenth result resent): the per-event time must stay flat (the check is linear).
Run on demand: nothing here is a unit test and nothing here asserts.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from replayable import agents as A

FIX = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "agents"


def stream() -> list[str]:
    return [line for line in (FIX / "session_stream.jsonl").read_text().splitlines() if line.strip()]


def log(n: int) -> list[dict[str, Any]]:
    """`n` requires_action events, each answered; every other call breaks the tool schema."""
    case = json.loads((FIX / "S20.json").read_text())
    base = json.loads((FIX / "S22.json").read_text())["events"]
    tool = dict(case["tool"], defer_loading=False)
    out: list[dict[str, Any]] = []
    for k in range(n):
        ev = copy.deepcopy(base[0])
        ev["session"]["agent"] = {"tools": [tool]}
        action = ev["session"]["required_actions"][0]
        action.update(turn_id=f"turn_{k}", call_id=f"call_{k}")
        if k % 2:
            action["arguments"] = case["required_action"]["arguments"]
            answer = {**base[6], "turn_id": f"turn_{k}", "call_id": f"call_{k}", "error": "refused"}
        else:
            answer = {**base[1], "turn_id": f"turn_{k}", "call_id": f"call_{k}"}
        out += [ev, answer] + ([answer] if k % 10 == 0 else [])
    return out


def best(fn: Any, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_parse(rounds: int) -> None:
    texts = stream() * 100
    ratios = []
    for _ in range(rounds):
        floor = best(lambda: [json.loads(t) for t in texts], 1)
        ours = best(lambda: [A.parse_event(t) for t in texts], 1)
        ratios.append(ours / floor)
    per = best(lambda: [A.parse_event(t) for t in texts], rounds) / len(texts)
    print(
        f"parse_event: {per * 1e6:.1f} us/event, x{statistics.median(ratios):.1f} of json.loads ({len(texts)} events)"
    )


def bench_log(sizes: list[int], rounds: int) -> None:
    for n in sizes:
        events = log(n)
        t = best(lambda events=events: A.check_event_log(events), rounds)
        rep = A.check_event_log(events)
        print(
            f"check_event_log: {len(events):>7} events  {t * 1e3:8.1f} ms  {t / len(events) * 1e6:6.1f} us/event  "
            f"ok={rep.ok} refused={len(rep.refused)}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds, smaller logs")
    a = ap.parse_args()
    rounds = 3 if a.quick else 7
    print(f"replayable Agents benchmarks: python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    bench_parse(rounds)
    bench_log([1_000, 10_000] if a.quick else [1_000, 10_000, 50_000], rounds)


if __name__ == "__main__":
    main()
