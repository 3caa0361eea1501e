"""Core benchmarks: parsing, checking, gating, dumping, scaling, memory and import time, in one run.

    python benchmarks/bench_core.py                # default: 20k-item workloads, scaling 1k..200k
    python benchmarks/bench_core.py --full         # scaling up to 1M items (slow, ~2 GB of RAM)
    python benchmarks/bench_core.py --quick        # fewer rounds, scaling to 100k

Everything is reported as a ratio against a baseline timed in the same run (and, for paired ratios,
in the same round), so figures from a loaded or slow machine stay comparable. Times are the best of
several rounds; ratios are the median over rounds of the per-round ratio. Run on demand: nothing here
is a unit test and nothing here asserts. Targets (issue #5) are printed next to each result.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from timing import Fn, paired, rounds, table  # the benchmarks' one timing home (benchmarks/timing.py)

import replayable as rp
from replayable._replay import check_transcript_iter

HERE = Path(__file__).resolve().parent


# --- workloads ------------------------------------------------------------------------------------------


def core_output_items(n: int) -> list[dict[str, Any]]:
    """Output-form messages and function_call / function_call_output pairs: what every peer can read."""
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < n:
        out.append(
            {
                "type": "message",
                "id": f"msg_{i}",
                "status": "completed",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": f"The weather in city {i} is 21 C and sunny.", "annotations": []}
                ],
            }
        )
        out.append(
            {
                "type": "function_call",
                "id": f"fc_{i}",
                "call_id": f"call_{i}",
                "name": "get_weather",
                "status": "completed",
                "arguments": json.dumps({"city": f"city {i}", "unit": "c"}),
            }
        )
        out.append(
            {
                "type": "function_call_output",
                "id": f"fco_{i}",
                "call_id": f"call_{i}",
                "status": "completed",
                "output": json.dumps({"temp": 21, "sky": "sunny"}),
            }
        )
        i += 1
    return out[:n]


def log_items(n: int) -> list[dict[str, Any]]:
    """A stored conversation shaped like real logs (input form, as replayed): user turns, reasoning
    followed by what it produced, function_call / function_call_output pairs, assistant answers with
    annotations, and provider items (`openai:web_search_call`)."""
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < n:
        out.append(
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": f"Turn {i}: what is the weather in city {i}?"}],
            }
        )
        out.append(
            {
                "type": "reasoning",
                "id": f"rs_{i}",
                "summary": [{"type": "summary_text", "text": "The user wants the weather; call get_weather."}],
                "encrypted_content": "gAAAAB" + "x" * 120,
            }
        )
        out.append(
            {
                "type": "function_call",
                "id": f"fc_{i}",
                "call_id": f"call_{i}",
                "name": "get_weather",
                "status": "completed",
                "arguments": json.dumps({"city": f"city {i}", "unit": "c"}),
            }
        )
        out.append(
            {"type": "function_call_output", "call_id": f"call_{i}", "output": json.dumps({"temp": 21, "sky": "sunny"})}
        )
        out.append(
            {
                "type": "openai:web_search_call",
                "id": f"ws_{i}",
                "status": "completed",
                "action": {"type": "search", "query": f"weather city {i}"},
            }
        )
        out.append(
            {
                "type": "message",
                "id": f"msg_{i}",
                "role": "assistant",
                "status": "completed",
                "content": [
                    {
                        "type": "output_text",
                        "text": f"It is 21 C in city {i}.",
                        "annotations": [
                            {
                                "type": "url_citation",
                                "url": "https://example.com/w",
                                "title": "Weather",
                                "start_index": 0,
                                "end_index": 5,
                            }
                        ],
                    }
                ],
            }
        )
        i += 1
    return out  # whole turns: len(out) is n rounded up to a multiple of 6


WEATHER_TOOL = {
    "type": "function",
    "name": "get_weather",
    "strict": True,
    "parameters": {
        "type": "object",
        "additionalProperties": False,
        "required": ["city", "unit"],
        "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
    },
}


# --- timing ---------------------------------------------------------------------------------------------


# --- sections -------------------------------------------------------------------------------------------


def peers() -> dict[str, Fn]:
    from pydantic import TypeAdapter

    out: dict[str, Fn] = {}
    try:
        from openresponses.types import ItemField

        out["peer openresponses-py list[ItemField]"] = TypeAdapter(list[ItemField]).validate_json
    except Exception as exc:  # a peer missing is reported, not fatal
        print(f"(openresponses-py unavailable: {type(exc).__name__})")
    try:
        import openresponses_types as ort

        ann = ort.ResponseResource.model_fields["output"].annotation
        out["peer openresponses-types output"] = TypeAdapter(ann).validate_json
    except Exception as exc:
        print(f"(openresponses-types unavailable: {type(exc).__name__})")
    try:
        from openai.types.responses import ResponseOutputItem

        out["peer openai SDK list[ResponseOutputItem]"] = TypeAdapter(list[ResponseOutputItem]).validate_json
    except Exception as exc:
        print(f"(openai unavailable: {type(exc).__name__})")
    return out


def bench_parse(n: int, n_rounds: int) -> dict[str, float]:
    import orjson
    from pydantic import TypeAdapter

    from replayable._json import loads as strict_loads

    data = json.dumps(core_output_items(n)).encode()
    floor = TypeAdapter(list[dict[str, Any]]).validate_json
    cands: dict[str, Fn] = {
        "json.loads": json.loads,
        "orjson.loads": orjson.loads,
        "floor TypeAdapter(list[dict]).validate_json": floor,
        "replayable parse_items(side='output')": lambda d: rp.parse_items(d, side="output"),
        # where the time goes: the strict reading alone, and pydantic-core typing the bytes directly
        # (one pass, but duplicate keys and 1e400 pass unseen: not what parse_items may do)
        "  strict reading alone (_json.loads)": lambda d: strict_loads(d, max_depth=201),
        "  typed, not strict (validate_json)": rp.output_items_adapter.validate_json,
    }
    for k, fn in peers().items():
        try:
            fn(data)
            cands[k] = fn
        except Exception as exc:
            print(f"({k} rejects the workload: {str(exc)[:80]})")
    out: dict[str, float] = {}
    for gc_off in (True, False):
        t = rounds(cands, data, n_rounds, gc_off=gc_off)
        table(
            f"parse {n} core output items ({len(data) / 1e6:.1f} MB), GC {'off' if gc_off else 'on'}",
            t,
            n,
            "json.loads",
        )
        ours = "replayable parse_items(side='output')"
        vs_floor = paired(t, ours, "floor TypeAdapter(list[dict]).validate_json")
        peer_keys = [k for k in t if k.startswith("peer ")]
        vs_peers = {k: paired(t, ours, k) for k in peer_keys}
        goal_floor, goal_peer = (2.5, 1.0) if gc_off else (2.9, 0.3)  # issue 26 (check.py perf / perf-gc)
        print(f"  -> typed parse x{vs_floor:.2f} of the untyped pydantic floor (goal <= {goal_floor})")
        for k, r in vs_peers.items():
            print(f"  -> x{r:.2f} of {k} (goal <= {goal_peer} of the fastest)")
        out[f"vs_floor_gc_{'off' if gc_off else 'on'}"] = vs_floor
        out[f"vs_fastest_peer_gc_{'off' if gc_off else 'on'}"] = max(vs_peers.values(), default=float("nan"))
    return out


def bench_model_floor(n: int, n_rounds: int) -> None:
    """What one pydantic model instance costs on this machine, against a dict: the floor under any typed
    parse that returns models (a parsed core output item is 1.33 models on average: a message holds a
    content part)."""
    from typing import Literal

    from pydantic import BaseModel, ConfigDict, TypeAdapter
    from typing_extensions import TypedDict

    status = Literal["in_progress", "completed", "incomplete"]
    fields: dict[str, Any] = {"type": Literal["function_call"], "id": str, "call_id": str, "name": str}
    fields |= {"arguments": str, "status": status}
    call_dict = TypedDict("CallDict", fields)  # type: ignore[operator]
    empty = type("Empty", (BaseModel,), {})
    call_model = type(
        "Call",
        (BaseModel,),
        {"__annotations__": fields, "model_config": ConfigDict(strict=True, frozen=True, extra="allow")},
    )
    calls = [x for x in core_output_items(n) if x["type"] == "function_call"]
    empties: list[dict[str, Any]] = [{} for _ in calls]
    as_dicts = TypeAdapter(list[dict[str, Any]]).validate_python
    as_typed_dicts = TypeAdapter(list[call_dict], config=ConfigDict(strict=True)).validate_python
    as_empty = TypeAdapter(list[empty]).validate_python  # type: ignore[valid-type]
    as_models = TypeAdapter(list[call_model]).validate_python  # type: ignore[valid-type]
    cands: dict[str, Fn] = {
        "dict copy (list[dict] validate_python)": lambda _d: as_dicts(calls),
        "TypedDict, 6 fields, strict": lambda _d: as_typed_dicts(calls),
        "BaseModel, no fields, from {}": lambda _d: as_empty(empties),
        "BaseModel, 6 fields, strict, extra=allow": lambda _d: as_models(calls),
    }
    t = rounds(cands, None, n_rounds)
    table(
        f"the model floor: {len(calls)} function_call dicts validated as each type, GC off",
        t,
        len(calls),
        "dict copy (list[dict] validate_python)",
    )


def bench_check_dump(n: int, n_rounds: int) -> None:
    items = log_items(n)
    n = len(items)
    data = json.dumps(items).encode()
    parsed = rp.parse_items(data)
    tools = [WEATHER_TOOL]
    cands: dict[str, Fn] = {
        "json.loads": json.loads,
        "parse_items": rp.parse_items,
        "parse_items + check_transcript": lambda d: rp.check_transcript(rp.parse_items(d)),
        "parse_items + check_transcript(tools)": lambda d: rp.check_transcript(rp.parse_items(d), tools=tools),
        "json.loads + check_transcript (raw dicts)": lambda d: rp.check_transcript(json.loads(d)),
        "json.loads + check_transcript_iter (raw dicts)": lambda d: check_transcript_iter(json.loads(d)),
        "dump_items (parsed models)": lambda _d: rp.dump_items(parsed),
        "dump_items + json.dumps": lambda _d: json.dumps(rp.dump_items(parsed)),
    }
    for gc_off in (True, False):
        t = rounds(cands, data, n_rounds, gc_off=gc_off)
        title = f"check and dump {n} log-shaped items ({len(data) / 1e6:.1f} MB), GC {'off' if gc_off else 'on'}"
        table(title, t, n, "json.loads")
        plain = paired(t, "parse_items + check_transcript", "parse_items")
        with_tools = paired(t, "parse_items + check_transcript(tools)", "parse_items")
        print(f"  -> checking adds x{plain:.2f} to parsing (goal <= 1.3); with the tool schema x{with_tools:.2f}")
    report = rp.check_transcript(parsed, tools=tools)
    if not report.ok:  # the workload is replay-safe, so the rules ran in full; anything else is a bug
        raise SystemExit(f"unexpected violations: {report.violations[:3]}")


def toy_gate(item: dict[str, Any], schema: dict[str, Any]) -> str:
    """A hand-written gate as an app would write it: the same order of checks, json.loads, and a
    validator for the subset of JSON Schema the tool uses (type, enum, required, additionalProperties)."""
    t = item.get("type")
    if not isinstance(t, str) or ":" in t:
        return "namespaced"
    if t != "function_call":
        return "not_function_call"
    if item.get("status") != "completed":
        return "status"
    args = item.get("arguments")
    if not isinstance(args, str):
        return "arguments_type"
    try:
        value = json.loads(args)
    except ValueError:
        return "arguments_parse"
    if not isinstance(value, dict):
        return "arguments_schema"
    props = schema["properties"]
    if any(k not in value for k in schema.get("required", ())):
        return "arguments_schema"
    if schema.get("additionalProperties") is False and any(k not in props for k in value):
        return "arguments_schema"
    for k, v in value.items():
        sub = props[k]
        if sub.get("type") == "string" and not isinstance(v, str):
            return "arguments_schema"
        if "enum" in sub and v not in sub["enum"]:
            return "arguments_schema"
    return "ok"


def bench_gate(n: int, n_rounds: int) -> None:
    schema = WEATHER_TOOL["parameters"]
    good = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": "get_weather",
        "status": "completed",
        "arguments": '{"city":"Paris","unit":"c"}',
    }
    bad = {**good, "arguments": '{"city":"Paris","unit":"kelvin","refund":true}'}
    assert toy_gate(good, schema) == "ok" and toy_gate(bad, schema) == "arguments_schema"
    assert rp.gate(good, schema).ok and rp.gate(bad, schema).reason == "arguments_schema"

    def loop(fn: Callable[[Any, Any], Any]) -> Fn:
        def go(_: Any) -> None:
            for _i in range(n):
                fn(good, schema)
                fn(bad, schema)

        return go

    t = rounds(
        {"toy gate (json.loads + subset validator)": loop(toy_gate), "replayable.gate": loop(rp.gate)}, None, n_rounds
    )
    table(
        f"gate {2 * n} calls (half pass, half fail the cached schema)",
        t,
        2 * n,
        "toy gate (json.loads + subset validator)",
    )
    print(
        f"  -> gate x{paired(t, 'replayable.gate', 'toy gate (json.loads + subset validator)'):.2f} of the toy "
        "gate while checking full JSON Schema and strict JSON (target <= 1.0)"
    )


def bench_dicts(n: int, n_rounds: int) -> None:
    """Items already decoded (a list of dicts, as an app or a database driver hands them over)."""
    from pydantic import TypeAdapter

    data = json.dumps(core_output_items(n)).encode()
    raw = json.loads(data)
    floor = TypeAdapter(list[dict[str, Any]]).validate_python
    cands: dict[str, Fn] = {
        "floor TypeAdapter(list[dict]).validate_python": lambda _d: floor(raw),
        "replayable parse_items(list of dicts)": lambda _d: rp.parse_items(raw, side="output"),
        "replayable parse_items(bytes)": lambda d: rp.parse_items(d, side="output"),
        "json.loads + check_transcript (raw dicts)": lambda d: rp.check_transcript(json.loads(d), side="output"),
        "parse_items(bytes) + check_transcript": lambda d: rp.check_transcript(rp.parse_items(d, side="output")),
    }
    t = rounds(cands, data, n_rounds)
    table(f"{n} core output items as Python dicts, GC off", t, n, "floor TypeAdapter(list[dict]).validate_python")
    ratio = paired(t, "replayable parse_items(list of dicts)", "floor TypeAdapter(list[dict]).validate_python")
    vs_bytes = paired(t, "replayable parse_items(list of dicts)", "replayable parse_items(bytes)")
    raw_check = paired(t, "json.loads + check_transcript (raw dicts)", "parse_items(bytes) + check_transcript")
    print(f"  -> list of dicts x{ratio:.2f} of the floor (goal <= 2.0), x{vs_bytes:.2f} of the bytes path")
    print(f"  -> json.loads + check_transcript on raw dicts x{raw_check:.2f} of parse_items(bytes) + check")


def bench_heap(n: int) -> None:
    """Peak and held Python heap (tracemalloc) of reading one JSON array: plain dicts against typed items."""
    items = log_items(n)
    n = len(items)
    data = json.dumps(items).encode()
    del items
    print(f"\nheap: reading a JSON array of {n} log-shaped items, {len(data) / 1e6:.1f} MB (tracemalloc, GC on)")
    out: dict[str, tuple[int, int]] = {}
    for name, fn in (("json.loads", json.loads), ("parse_items", rp.parse_items)):
        gc.collect()
        tracemalloc.start()
        value = fn(data)
        held, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del value
        out[name] = (held, peak)
        print(f"  {name:12s} peak {peak / 1e6:8.1f} MB   held afterwards {held / 1e6:8.1f} MB ({held / n:.0f} B/item)")
    ratio = out["parse_items"][1] / out["json.loads"][1]
    print(f"  -> parse_items peak x{ratio:.2f} of json.loads (goal <= 1.0)")


def bench_scaling(sizes: list[int]) -> None:
    print("\nscaling: parse_items + check_transcript on log-shaped items (GC on, best of 3; 1 round from 500k)")
    print(f"  {'items':>9s} {'MB':>7s} {'parse us/item':>14s} {'check us/item':>14s} {'peak MB':>8s}")
    per: list[float] = []
    for size in sizes:
        items = log_items(size)
        n = len(items)
        data = json.dumps(items).encode()
        del items
        best_p = best_c = float("inf")
        for _ in range(1 if n >= 500_000 else 3):
            gc.collect()
            t0 = time.perf_counter()
            parsed = rp.parse_items(data)
            t1 = time.perf_counter()
            rp.check_transcript(parsed)
            t2 = time.perf_counter()
            best_p, best_c = min(best_p, t1 - t0), min(best_c, t2 - t1)
            del parsed
        tracemalloc.start()
        parsed = rp.parse_items(data)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del parsed
        per.append((best_p + best_c) / n)
        print(f"  {n:9d} {len(data) / 1e6:7.1f} {best_p / n * 1e6:14.3f} {best_c / n * 1e6:14.3f} {peak / 1e6:8.1f}")
    print(
        f"  -> cost per item at the largest size is x{per[-1] / per[0]:.2f} of the smallest "
        "(linear: close to 1; target: linear)"
    )


def bench_cli_memory(sizes: list[int]) -> None:
    exe = [sys.executable, "-m", "replayable"]
    print("\n`replayable check` peak memory (RSS of the process; each size in a fresh process)")
    print(f"  {'items':>9s} {'MB file':>8s} {'.jsonl (streamed) MB':>21s} {'.json (whole) MB':>17s}")
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for n in sizes:
            items = log_items(n)
            jl = Path(tmp, f"t{n}.jsonl")
            js = Path(tmp, f"t{n}.json")
            jl.write_text("\n".join(json.dumps(x) for x in items) + "\n")
            js.write_text(json.dumps(items))
            del items
            rows.append((n, jl, js))
        for n, jl, js in rows:  # a fresh child process per file
            rss_l = _rss_of([*exe, "check", str(jl)])
            rss_j = _rss_of([*exe, "check", str(js)])
            print(f"  {n:9d} {jl.stat().st_size / 1e6:8.1f} {rss_l:21.1f} {rss_j:17.1f}")


def _rss_of(cmd: list[str]) -> float:
    """Peak RSS (MB) of one child, from its own /proc/self/status VmHWM (per address space, so neither
    this process nor earlier children count; ru_maxrss would inherit this process's peak across exec)."""
    code = (
        "import runpy, sys; sys.argv = {argv!r}\ntry:\n"
        "    runpy.run_module('replayable', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0]\n"
        "sys.stderr.write(hwm.split()[1])"
    )
    argv = ["replayable", *cmd[3:]]
    proc = subprocess.run(
        [sys.executable, "-c", code.format(argv=argv)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def bench_import(n_rounds: int) -> None:
    def run(code: str) -> float:
        best = float("inf")
        for _ in range(n_rounds):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            best = min(best, time.perf_counter() - t)
        return best

    bare = run("pass")
    pyd = run("import pydantic, pydantic_core; pydantic.TypeAdapter(int)")
    ours = run("import replayable")
    print(
        f"\ncold import (fresh interpreter, best of {n_rounds}): python alone {bare * 1e3:.0f} ms; "
        f"`import replayable` adds {(ours - bare) * 1e3:.0f} ms (target <= 150 ms); "
        f"pydantic alone adds {(pyd - bare) * 1e3:.0f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="scale up to 1M items")
    ap.add_argument("--quick", action="store_true", help="fewer rounds, scaling to 100k")
    ap.add_argument("-n", type=int, default=20_000, help="items in the parse/check workloads (default 20000)")
    ap.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="sections: parse check dicts gate heap scaling memory import (default: all)",
    )
    a = ap.parse_args()
    r = 5 if a.quick else 11
    sizes = [1_000, 10_000, 100_000] if a.quick else [1_000, 10_000, 50_000, 200_000]
    if a.full:
        sizes += [1_000_000]
    only = set(a.only or ["parse", "check", "dicts", "gate", "heap", "scaling", "memory", "import"])
    load = os.getloadavg()[0]
    print(
        f"replayable benchmarks: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load average {load:.2f} at start{' (loaded machine)' if load > 0.5 else ''}"
    )
    if "parse" in only:
        bench_parse(a.n, r)
        bench_model_floor(a.n, r)
    if "check" in only:
        bench_check_dump(a.n, r)
    if "dicts" in only:
        bench_dicts(a.n, r)
    if "gate" in only:
        bench_gate(20_000, r)
    if "heap" in only:
        bench_heap(1_000_000 if a.full else 200_000)
    if "scaling" in only:
        bench_scaling(sizes)
    if "memory" in only:
        bench_cli_memory([20_000, 200_000] + ([1_000_000] if a.full else []))
    if "import" in only:
        bench_import(7)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
