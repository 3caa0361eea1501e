"""Throughput of the streaming layer: `parse_sse` + `StreamAssembler` against `json.loads` of the same
events' data, and against the openai SDK's own stream accumulation, measured side by side.

    python benchmarks/bench_stream.py [--events N] [--rounds R] [--peer-events M] [--no-long]

Builds one recorded-like stream of about N events (100,000 by default) as an SSE capture, shaped as
OpenAI sends it (long item ids, `obfuscation` and `logprobs` on text deltas, `sequence_number`s): a
reasoning item with a streamed summary, an assistant message of many text deltas, and function calls
with argument deltas, then `response.completed` with the full snapshot. Mostly deltas, as real
streams are.

Times are CPU time (`time.process_time`), so that waiting for a core on a busy machine does not
count. Paired rounds, alternating: in each round `json.loads` of every event's `data:` bytes (the floor: no
SSE framing, no checking), then `parse_sse` + `StreamAssembler.feed` + `close` on the capture (strict
mode: every event through the strict JSON reader and its event model, every stream rule). The ratio
of the two is taken per round; the median ratio is reported with the median µs/event of each. Also
`parse_sse` alone and `feed` alone (events as dicts), for where the time goes.

The peer: the openai SDK (`openai.lib.streaming.responses.ResponseStreamState`, what
`client.responses.stream()` runs) on the first M events of the same capture (M=20,000 by default:
its text snapshot grows by concatenation), framed with the SDK's own `SSEDecoder`, each event read
with `json.loads` and built with the SDK's `construct_type`, then `handle_event`. Its µs/event is
compared with ours on the same M events.

Then `parse_sse` on one long event (1, 4 and 16 MB of `data:`) fed in 4 KiB byte chunks, as
`httpx.Response.iter_bytes()` gives it: the time per MB must stay flat (linear in the line length).
Run on demand; it is not a unit test.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from replayable import stream as S

_HEX = "0123456789abcdef"


def _id(prefix: str, n: int) -> str:
    """An id shaped like OpenAI's: prefix, underscore, 50 hex digits."""
    digits = f"{n:x}".rjust(8, "0")
    return f"{prefix}_0fabc13af1ee0049006a691dfe{digits}a1baa444d3cf19afba"[: len(prefix) + 51]


def _obfuscation(n: int) -> str:
    return "".join(_HEX[(n * 7 + k) % 16] for k in range(8 + n % 8))


def build(n_events: int = 100_000) -> list[dict[str, Any]]:
    """About `n_events` events of one response (see the module docstring)."""
    seq = iter(range(10**9))
    resp: dict[str, Any] = {  # a complete ResponseResource, as OpenAI's snapshots are
        "id": _id("resp", 0),
        "object": "response",
        "created_at": 1785273853,
        "completed_at": None,
        "status": "in_progress",
        "incomplete_details": None,
        "model": "gpt-5.1-2025-11-13",
        "previous_response_id": None,
        "instructions": None,
        "output": [],
        "error": None,
        "tools": [],
        "tool_choice": "auto",
        "truncation": "disabled",
        "parallel_tool_calls": True,
        "text": {"format": {"type": "text"}},
        "top_p": 1.0,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
        "top_logprobs": 0,
        "temperature": 1.0,
        "reasoning": None,
        "usage": None,
        "max_output_tokens": None,
        "max_tool_calls": None,
        "store": False,
        "background": False,
        "service_tier": "default",
        "metadata": {},
        "safety_identifier": None,
        "prompt_cache_key": None,
    }
    evs: list[dict[str, Any]] = [
        {"type": "response.created", "sequence_number": next(seq), "response": resp},
        {"type": "response.in_progress", "sequence_number": next(seq), "response": resp},
    ]
    output: list[dict[str, Any]] = []
    n_summary = n_events // 10
    n_text = n_events // 2
    n_calls = max(1, (n_events - n_summary - n_text) // 24)

    # a reasoning item with one summary part
    rs_id = _id("rs", 0)
    rs = {"type": "reasoning", "id": rs_id, "summary": [], "encrypted_content": "gAAAAABqaR3-" + "x" * 600}
    base = {"item_id": rs_id, "output_index": 0, "summary_index": 0}
    evs.append({"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0, "item": rs})
    evs.append(
        {
            "type": "response.reasoning_summary_part.added",
            "sequence_number": next(seq),
            **base,
            "part": {"type": "summary_text", "text": ""},
        }
    )
    words = [f" step{i}" for i in range(n_summary)]
    for i, w in enumerate(words):
        evs.append(
            {
                "type": "response.reasoning_summary_text.delta",
                "sequence_number": next(seq),
                **base,
                "delta": w,
                "obfuscation": _obfuscation(i),
            }
        )
    summary = "".join(words)
    evs.append({"type": "response.reasoning_summary_text.done", "sequence_number": next(seq), **base, "text": summary})
    part = {"type": "summary_text", "text": summary}
    evs.append({"type": "response.reasoning_summary_part.done", "sequence_number": next(seq), **base, "part": part})
    rs_done = dict(rs, summary=[part])
    evs.append({"type": "response.output_item.done", "sequence_number": next(seq), "output_index": 0, "item": rs_done})
    output.append(rs_done)

    # an assistant message
    msg_id = _id("msg", 1)
    msg = {"type": "message", "id": msg_id, "status": "in_progress", "role": "assistant", "content": []}
    base = {"item_id": msg_id, "output_index": 1, "content_index": 0}
    empty = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
    evs.append({"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 1, "item": msg})
    evs.append({"type": "response.content_part.added", "sequence_number": next(seq), **base, "part": empty})
    words = [f" word{i}" for i in range(n_text)]
    for i, w in enumerate(words):
        evs.append(
            {
                "type": "response.output_text.delta",
                "sequence_number": next(seq),
                **base,
                "delta": w,
                "logprobs": [],
                "obfuscation": _obfuscation(i),
            }
        )
    text = "".join(words)
    evs.append(
        {"type": "response.output_text.done", "sequence_number": next(seq), **base, "text": text, "logprobs": []}
    )
    part = dict(empty, text=text)
    evs.append({"type": "response.content_part.done", "sequence_number": next(seq), **base, "part": part})
    msg_done = dict(msg, status="completed", content=[part])
    evs.append({"type": "response.output_item.done", "sequence_number": next(seq), "output_index": 1, "item": msg_done})
    output.append(msg_done)

    # function calls with argument deltas
    for k in range(2, n_calls + 2):
        fc = {
            "type": "function_call",
            "id": _id("fc", k),
            "call_id": f"call_{k:024d}",
            "name": "lookup",
            "arguments": "",
            "status": "in_progress",
        }
        args = json.dumps({"region": "apac", "k": k, "fields": ["revenue", "units", "margin"], "q": "x" * 20})
        evs.append({"type": "response.output_item.added", "sequence_number": next(seq), "output_index": k, "item": fc})
        for j in range(0, len(args), 5):
            evs.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "sequence_number": next(seq),
                    "item_id": fc["id"],
                    "output_index": k,
                    "delta": args[j : j + 5],
                    "obfuscation": _obfuscation(j),
                }
            )
        evs.append(
            {
                "type": "response.function_call_arguments.done",
                "sequence_number": next(seq),
                "item_id": fc["id"],
                "output_index": k,
                "arguments": args,
            }
        )
        done = dict(fc, arguments=args, status="completed")
        evs.append({"type": "response.output_item.done", "sequence_number": next(seq), "output_index": k, "item": done})
        output.append(done)
    evs.append(
        {
            "type": "response.completed",
            "sequence_number": next(seq),
            "response": dict(resp, status="completed", output=output),
        }
    )
    return evs


def to_sse(events: list[dict[str, Any]]) -> tuple[bytes, list[bytes]]:
    """The SSE capture of `events` and each event's `data:` bytes."""
    data = [json.dumps(e, separators=(",", ":")).encode() for e in events]
    frames = (b"event: " + e["type"].encode() + b"\ndata: " + d + b"\n\n" for e, d in zip(events, data, strict=True))
    sse = b"".join(frames)
    return sse + b"data: [DONE]\n\n", data


def timed(fn: Callable[[], Any]) -> float:
    """CPU seconds of one call: on a shared machine the time this process waits for a core is left out
    (both sides of a ratio are single-threaded, so their CPU time is their running time)."""
    gc.collect()
    t = time.process_time()
    fn()
    return time.process_time() - t


def ours(sse: bytes) -> Callable[[], None]:
    """`StreamAssembler.feed_sse`: SSE framing, the strict reader once per event, every rule."""

    def run() -> None:
        asm = S.StreamAssembler()
        for _ in asm.feed_sse(sse):
            pass
        asm.close()
        assert asm.status == "completed" and not asm.warnings

    return run


def ours_loop(sse: bytes) -> Callable[[], None]:
    """`parse_sse` then `feed` per event: each event dict is checked again as a Python value."""

    def run() -> None:
        asm = S.StreamAssembler()
        feed = asm.feed
        for e in S.parse_sse(sse):
            feed(e)
        asm.close()

    return run


def floor(data: list[bytes]) -> Callable[[], None]:
    def run() -> None:
        loads = json.loads
        for d in data:
            loads(d)

    return run


def sdk_peer(sse: bytes) -> Callable[[], None] | None:
    """The openai SDK's stream accumulation over `sse` (None when the SDK is not installed)."""
    try:
        from openai._models import construct_type
        from openai._streaming import SSEDecoder
        from openai.lib.streaming.responses._responses import ResponseStreamState
        from openai.types.responses import ResponseStreamEvent
    except ImportError:
        return None

    def run() -> None:
        state: Any = ResponseStreamState(input_tools=[], text_format=None)  # type: ignore[arg-type]
        decoder = SSEDecoder()
        for chunk in decoder.iter_bytes(iter([sse])):
            if chunk.data.startswith("[DONE]"):
                break
            event = construct_type(type_=ResponseStreamEvent, value=json.loads(chunk.data))  # type: ignore[arg-type]
            state.handle_event(event)

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=100_000, help="events in the stream (default 100,000)")
    ap.add_argument("--rounds", type=int, default=7, help="paired rounds (default 7)")
    ap.add_argument("--peer-events", type=int, default=20_000, help="events the SDK peer reads (default 20,000)")
    ap.add_argument("--no-long", action="store_true", help="skip the long-line runs")
    args = ap.parse_args()

    events = build(args.events)
    sse, data = to_sse(events)
    n = len(events)
    print(f"{n:,} events, {len(sse) / 1e6:.1f} MB of SSE")
    runs = {"floor": floor(data), "feed_sse": ours(sse), "loop": ours_loop(sse)}
    for fn in runs.values():
        fn()  # warm-up: models built, caches filled
    times: dict[str, list[float]] = {k: [] for k in runs}
    order = list(runs)
    for r in range(args.rounds):  # paired rounds, the order rotating
        for k in order[r % 3 :] + order[: r % 3]:
            times[k].append(timed(runs[k]))
    mid = statistics.median
    print(
        f"json.loads of each event's data          {mid(times['floor']) / n * 1e6:6.2f} µs/event"
        f"  {n / mid(times['floor']):10,.0f} events/s"
    )
    titles = {"feed_sse": "StreamAssembler.feed_sse (SSE + assembly)", "loop": "parse_sse, then feed per event"}
    for k, title in titles.items():
        ratios = sorted(a / b for a, b in zip(times[k], times["floor"], strict=True))
        t = mid(times[k])
        print(
            f"{title:41s} {t / n * 1e6:6.2f} µs/event  {n / t:10,.0f} events/s  paired ratio to json.loads: "
            f"median x{mid(ratios):.2f} (min x{ratios[0]:.2f}, max x{ratios[-1]:.2f}, {len(ratios)} rounds)"
        )
    print("goal (issue 16): StreamAssembler over an SSE capture at most x3 json.loads per event")

    def read() -> None:
        for _ in S.parse_sse(sse):
            pass

    def assemble() -> None:
        asm = S.StreamAssembler()
        for e in events:
            asm.feed(e)
        asm.close()

    chunks = [sse[i : i + 4096] for i in range(0, len(sse), 4096)]

    def pushed() -> None:
        asm = S.StreamAssembler()
        for c in chunks:
            asm.feed_bytes(c)
        asm.close()

    for name, fn in (
        ("  parse_sse alone", read),
        ("  StreamAssembler.feed alone, dicts", assemble),
        ("  feed_bytes, 4 KiB chunks (+ assembly)", pushed),
    ):
        t = min(timed(fn) for _ in range(3))
        print(f"{name:33s} {t / n * 1e6:7.2f} µs/event")

    m = min(args.peer_events, n - 1)
    head_sse, _ = to_sse(events[:m])
    peer = sdk_peer(head_sse)
    if peer is None:
        print("openai SDK not installed: peer skipped")
    else:

        def ours_head() -> None:
            asm = S.StreamAssembler()
            for _ in asm.feed_sse(head_sse):
                pass

        pairs = [(timed(peer), timed(ours_head)) for _ in range(3)]
        t_peer, t_head = mid(p for p, _ in pairs), mid(o for _, o in pairs)
        print(
            f"openai SDK ResponseStreamState, first {m:,} events: {t_peer / m * 1e6:7.2f} µs/event, "
            f"x{mid(p / o for p, o in pairs):.1f} of ours on the same events ({t_head / m * 1e6:.2f} µs/event)"
        )
    if not args.no_long:
        long_lines()


def long_lines(chunk: int = 4096) -> None:
    """One event whose `data:` line is 1, 4 or 16 MB, in `chunk`-byte pieces: ms per MB stays flat."""
    for mb in (1, 4, 16):
        ev = {
            "type": "response.output_text.delta",
            "sequence_number": 1,
            "item_id": "msg_0",
            "output_index": 0,
            "content_index": 0,
            "delta": "x" * (mb << 20),
        }
        data = b"event: response.output_text.delta\ndata: " + json.dumps(ev).encode() + b"\n\ndata: [DONE]\n\n"
        pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]

        def read_long(pieces: list[bytes] = pieces) -> None:
            for _ in S.parse_sse(iter(pieces)):
                pass

        t = min(timed(read_long) for _ in range(3))
        print(f"parse_sse, one {mb:2d} MB line in {chunk} B chunks: {t * 1e3:8.1f} ms  {t * 1e3 / mb:6.1f} ms/MB")


if __name__ == "__main__":
    main()
