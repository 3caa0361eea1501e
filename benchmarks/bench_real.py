"""Issue 36's rows that `check.py perf` does not measure: real recorded items against the peers, one real
response per call with and without the check, the rules alone, and where parse time goes.

    python benchmarks/bench_real.py                        # all sections, collector off then on
    python benchmarks/bench_real.py --only corpus --gc off # sections: corpus response rules parts; --gc off|on|both

The recorded payloads are read from `../shared/corpus` beside the checkout (never copied into the
project); `--corpus DIR` names another folder. Start-up is measured by `bench_startup.py`, memory by
`bench_read.py --only memory`.

- *corpus*: the output items of every recorded response and stream (`response.output_item.done`) that
  both `parse_items(side="output")` and the fastest peer (openresponses-py `list[ItemField]`) accept,
  repeated to 20,000 items (23 MB: half of the bytes are reasoning `encrypted_content`), against
  `TypeAdapter(list[dict]).validate_json` (the floor) and the peers; then the strict reader's parts on
  the same bytes (jiter alone, the `1e400` filter, the container budget).
- *response*: each recorded response body that parses with `provider="openai"`, one per call:
  `parse_response` and `parse_response` + `check_transcript`, against the floor
  `TypeAdapter(dict).validate_json` of the same text (summed over the bodies, so the ratio is per text).
- *rules*: `check_transcript` over items already parsed (the rules alone) on `check.py`'s mixed workload
  (one namespaced item in five), against the floor reading of the same text; then the same with each
  call's arguments its own text, with every call unanswered, and with every call's arguments unreadable
  (a transcript full of findings: the unanswered one has 4/5 of the items, so its row is per item of W2).
- *parts*: `bench_core.py`'s core output items (`check.py`'s W1 but for the texts) and `check.py`'s
  mixed workload (W2), each split into the strict read
  (`_json.loads`), validating the read dicts, and the whole `parse_items`.

Every ratio is a paired ratio (the median over rounds of the per-round ratio, `timing.paired`), so
runs on a loaded machine stay comparable; absolute µs are printed for orientation only. `--gc on` lets the
collector run during each call, as it does in an app. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from bench_core import core_output_items, peers  # the workloads and peers of bench_core.py
from pydantic import TypeAdapter
from timing import paired, rounds, table  # the benchmarks' one timing home (benchmarks/timing.py)

import replayable as rp
from replayable import _json
from replayable.items import ITEM_ADAPTERS

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FLOOR = "floor TypeAdapter(list[dict]).validate_json"


def recorded(corpus: Path) -> list[dict[str, Any]]:
    """(kind, body) of every recorded payload."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(corpus.glob("*.json"))]


def corpus_items(payloads: list[dict[str, Any]], peer: Any) -> list[dict[str, Any]]:
    items: list[Any] = []
    for d in payloads:
        body = d["body"]
        if d["kind"] == "response":
            items += body.get("output") or []
        elif d["kind"] == "stream":
            items += [e["item"] for e in body if isinstance(e, dict) and e.get("type") == "response.output_item.done"]
    kept = []
    for item in items:
        try:
            rp.parse_item(item, side="output")
            if peer is not None:
                peer(json.dumps([item]))
        except Exception:  # noqa: BLE001, S112  an item one reader refuses is not a shared workload
            continue
        kept.append(item)
    return kept


def bench_corpus(payloads: list[dict[str, Any]], n: int, n_rounds: int, gc_off: bool) -> None:
    floor = TypeAdapter(list[dict[str, Any]]).validate_json
    others = peers()
    kept = corpus_items(payloads, next(iter(others.values()), None))
    kinds: dict[str, int] = {}
    for item in kept:
        kinds[item["type"]] = kinds.get(item["type"], 0) + 1
    text = json.dumps([kept[i % len(kept)] for i in range(n)]).encode()
    print(f"\n{len(kept)} recorded output items {kinds}, repeated to {n} items, {len(text) / 1e6:.1f} MB")
    cands: dict[str, Any] = {FLOOR: floor, "json.loads": json.loads}
    cands["replayable parse_items(output)"] = lambda d: rp.parse_items(d, side="output")
    for k, fn in list(others.items()):
        try:
            fn(text)
        except ValueError as exc:  # pydantic's ValidationError: this peer refuses some of the recorded items
            print(f"({k} refuses the workload: {str(exc).splitlines()[0][:80]})")
            del others[k]
    cands.update(others)
    _, many = ITEM_ADAPTERS[("output", False)]
    many.validate_python([])  # build the adapter outside the clock
    cands["  strict read (_json.loads)"] = lambda d: _json.loads(d, max_depth=_json.MAX_ITEM_DEPTH + 1)
    cands["  jiter alone"] = _json.read_strict
    cands["  1e400 filter (may_overflow)"] = _json.may_overflow
    cands["  container budget"] = _json.too_many_containers
    cands["  validate the read dicts"] = lambda d: many.validator.validate_python(_json.read_strict(d))
    for fn in cands.values():
        fn(text)
    times = rounds(cands, text, n_rounds, gc_off)
    table(f"real corpus items, collector {'off' if gc_off else 'on'}", times, n, FLOOR)
    ours = "replayable parse_items(output)"
    for k in others:
        print(f"  -> parse_items x{paired(times, ours, k):.2f} of {k}")
    print("  (the 'validate the read dicts' row includes jiter alone)")


def bench_response(payloads: list[dict[str, Any]], n_rounds: int, gc_off: bool) -> None:
    texts = []
    for d in payloads:
        if d["kind"] != "response":
            continue
        text = json.dumps(d["body"]).encode()
        try:
            rp.check_transcript(rp.parse_response(text, provider="openai"), provider="openai")
        except Exception:  # noqa: BLE001, S112  a body the library refuses is not timed
            continue
        texts.append(text)
    floor = TypeAdapter(dict[str, Any]).validate_json

    def each(fn: Any) -> Any:
        return lambda _: [fn(t) for t in texts]

    cands = {
        "floor TypeAdapter(dict).validate_json": each(floor),
        "parse_response": each(lambda t: rp.parse_response(t, provider="openai")),
        "parse_response + check_transcript": each(
            lambda t: rp.check_transcript(rp.parse_response(t, provider="openai"), provider="openai")
        ),
    }
    times = rounds(cands, None, n_rounds * 3, gc_off)
    size = sum(map(len, texts))
    print(f"\n{len(texts)} recorded responses (provider='openai'), {size / 1e3:.0f} kB, one per call")
    table(f"one response per call, collector {'off' if gc_off else 'on'} (per response)", times, len(texts),
          "floor TypeAdapter(dict).validate_json", 40)  # fmt: skip


def _transcript(n: int) -> bytes:
    """`check.py`'s mixed workload (W2): one namespaced item in five."""
    call = {"name": "get_latest_sales_report", "status": "completed", "arguments": '{"region":"apac","limit":10}'}
    items: list[dict[str, Any]] = []
    for i in range(n // 5):
        question = {"type": "input_text", "text": f"question {i} about the apac region"}
        answer = {"type": "output_text", "text": f"answer {i}", "annotations": []}
        search = {"type": "search", "query": "apac"}
        items += [
            {"type": "message", "role": "user", "content": [question]},
            {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}", **call},
            {
                "type": "function_call_output",
                "call_id": f"call_{i}",
                "output": f"sales report {i} for apac: 1234 units",
            },
            {"type": "message", "id": f"msg_{i}", "role": "assistant", "status": "completed", "content": [answer]},
            {"type": "openai:web_search_call", "id": f"ws_{i}", "status": "completed", "action": search},
        ]
    return json.dumps(items).encode()


def bench_rules(n: int, n_rounds: int, gc_off: bool) -> None:
    text = _transcript(n)
    parsed = rp.parse_items(text)
    dicts = json.loads(text)
    floor = TypeAdapter(list[dict[str, Any]]).validate_json
    # the same items with each call's own arguments (no text repeated), every call left unanswered (its
    # output dropped: 4,000 `function_call_without_output`), and every call's arguments unreadable
    distinct = [{**x, "arguments": f'{{"region":"apac","limit":{i}}}'} if x["type"] == "function_call" else x
                for i, x in enumerate(dicts)]  # fmt: skip
    unanswered = [x for x in dicts if x["type"] != "function_call_output"]
    unreadable = [{**x, "arguments": x["arguments"][:-1]} if x["type"] == "function_call" else x for x in dicts]
    variants = {name: rp.parse_items(json.dumps(v)) for name, v in
                (("distinct", distinct), ("unanswered", unanswered), ("unreadable", unreadable))}  # fmt: skip
    cands = {
        FLOOR: floor,
        "parse_items": rp.parse_items,
        "check_transcript(parsed items): the rules alone": lambda _: rp.check_transcript(parsed),
        "check_transcript(json.loads dicts)": lambda _: rp.check_transcript(dicts),
        "the rules alone, each call's arguments its own text": lambda _: rp.check_transcript(variants["distinct"]),
        "the rules alone, every call unanswered (n/5 findings)": lambda _: rp.check_transcript(variants["unanswered"]),
        "the rules alone, every call's arguments unreadable": lambda _: rp.check_transcript(variants["unreadable"]),
        "the rules alone, target='openai'": lambda _: rp.check_transcript(parsed, target="openai"),
    }
    times = rounds(cands, text, n_rounds, gc_off)
    table(f"the rules alone, {n} mixed items (one namespaced in five), collector {'off' if gc_off else 'on'}",
          times, n, FLOOR, 58)  # fmt: skip
    # a model that skipped validation, alive elsewhere in the process for this whole run
    keep = rp.Message.model_construct(role="user", content="x")
    alive = rounds({FLOOR: floor, "the rules alone, a model_construct'ed model alive elsewhere":
                    lambda _: rp.check_transcript(parsed)}, text, n_rounds, gc_off)  # fmt: skip
    del keep
    table("the same, while a model that skipped validation is alive", alive, n, FLOOR, 58)


def bench_parts(n: int, n_rounds: int, gc_off: bool) -> None:
    floor = TypeAdapter(list[dict[str, Any]]).validate_json
    for name, text, side in (
        ("core output items", json.dumps(core_output_items(n)).encode(), "output"),
        ("W2 mixed", _transcript(n), "input"),
    ):
        _, many = ITEM_ADAPTERS[(side, False)]
        rp.parse_items(text, side=side)  # type: ignore[call-overload]
        cands = {
            FLOOR: floor,
            "strict read (_json.loads)": lambda d: _json.loads(d, max_depth=_json.MAX_ITEM_DEPTH + 1),
            "strict read + validate the dicts at once": lambda d, v=many.validator: v.validate_python(
                _json.read_strict(d)
            ),
            "parse_items": lambda d, s=side: rp.parse_items(d, side=s),
        }
        times = rounds(cands, text, n_rounds, gc_off)
        table(f"{name}: where parse time goes, collector {'off' if gc_off else 'on'}", times, n, FLOOR)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20_000, help="items per workload (default 20000)")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--gc", choices=["off", "on", "both"], default="both")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--only", nargs="*", default=None, help="sections: corpus response rules parts")
    a = ap.parse_args()
    only = set(a.only or ["corpus", "response", "rules", "parts"])
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    payloads = recorded(a.corpus) if a.corpus.is_dir() else []
    if not payloads and only & {"corpus", "response"}:
        print(f"(no recorded payloads in {a.corpus}: corpus and response sections skipped)")
    for gc_off in {"off": [True], "on": [False], "both": [True, False]}[a.gc]:
        if "corpus" in only and payloads:
            bench_corpus(payloads, a.n, a.rounds, gc_off)
        if "response" in only and payloads:
            bench_response(payloads, a.rounds, gc_off)
        if "rules" in only:
            bench_rules(a.n, a.rounds, gc_off)
        if "parts" in only:
            bench_parts(a.n, a.rounds, gc_off)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
