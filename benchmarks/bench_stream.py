"""Throughput of the streaming layer: SSE reading and StreamAssembler, in events/s and µs/event.

    python benchmarks/bench_stream.py [N_CALLS]

Builds one synthetic stream (a message with N text deltas and N_CALLS function calls with argument
deltas, as an SSE capture), then times `parse_sse` alone, `StreamAssembler.feed` alone, and both.
Then times `parse_sse` on one long event (1, 4 and 16 MB of `data:`) fed in 4 KiB byte chunks, as
`httpx.Response.iter_bytes()` gives it: the time per MB must stay flat (linear in the line length).
Run on demand; it is not a unit test. Prints the best of several rounds.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from replayable import stream as S


def build(n_calls: int = 200, n_text: int = 2000) -> list[dict[str, Any]]:
    seq = iter(range(10**9))
    resp = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    evs: list[dict[str, Any]] = [{"type": "response.created", "sequence_number": next(seq), "response": resp}]
    part = {"type": "output_text", "text": "", "annotations": []}
    msg = {"type": "message", "id": "msg_0", "status": "in_progress", "role": "assistant", "content": []}
    base = {"item_id": "msg_0", "output_index": 0, "content_index": 0}
    text = "".join(f"word{i} " for i in range(n_text))
    evs.append({"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0, "item": msg})
    evs.append({"type": "response.content_part.added", "sequence_number": next(seq), **base, "part": part})
    for i in range(n_text):
        evs.append({"type": "response.output_text.delta", "sequence_number": next(seq), **base, "delta": f"word{i} "})
    evs.append({"type": "response.output_text.done", "sequence_number": next(seq), **base, "text": text})
    evs.append(
        {
            "type": "response.content_part.done",
            "sequence_number": next(seq),
            **base,
            "part": dict(part, text=text),
        }
    )
    done_msg = dict(msg, status="completed", content=[dict(part, text=text)])
    evs.append(
        {
            "type": "response.output_item.done",
            "sequence_number": next(seq),
            "output_index": 0,
            "item": done_msg,
        }
    )
    output = [done_msg]
    for k in range(1, n_calls + 1):
        fc = {
            "type": "function_call",
            "id": f"fc_{k}",
            "call_id": f"call_{k}",
            "name": "lookup",
            "arguments": "",
            "status": "in_progress",
        }
        args = json.dumps({"region": "apac", "k": k, "fields": ["a", "b", "c"]})
        evs.append(
            {
                "type": "response.output_item.added",
                "sequence_number": next(seq),
                "output_index": k,
                "item": fc,
            }
        )
        for j in range(0, len(args), 4):
            evs.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "sequence_number": next(seq),
                    "item_id": fc["id"],
                    "output_index": k,
                    "delta": args[j : j + 4],
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
        evs.append(
            {
                "type": "response.output_item.done",
                "sequence_number": next(seq),
                "output_index": k,
                "item": done,
            }
        )
        output.append(done)
    evs.append(
        {
            "type": "response.completed",
            "sequence_number": next(seq),
            "response": dict(resp, status="completed", output=output),
        }
    )
    return evs


def best(fn: Any, rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    n_calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    events = build(n_calls)
    sse = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode() + b"data: [DONE]\n\n"
    n = len(events)

    def read() -> None:
        for _ in S.parse_sse(sse):
            pass

    def assemble() -> None:
        asm = S.StreamAssembler()
        for e in events:
            asm.feed(e)
        asm.close()

    def both() -> None:
        asm = S.StreamAssembler()
        for e in S.parse_sse(sse):
            asm.feed(e)
        asm.close()

    print(f"{n} events, {len(sse) / 1e6:.2f} MB of SSE, {n_calls} function calls")
    for name, fn in (("parse_sse", read), ("StreamAssembler.feed", assemble), ("parse_sse + feed", both)):
        t = best(fn)
        print(f"{name:22s} {n / t:12,.0f} events/s  {t / n * 1e6:8.2f} µs/event")
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
        data = b"event: response.output_text.delta\ndata: " + json.dumps(ev).encode() + b"\n\n"
        pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]

        def read_long(pieces: list[bytes] = pieces) -> None:
            for _ in S.parse_sse(iter(pieces)):
                pass

        t = best(read_long, rounds=3)
        print(f"parse_sse, one {mb:2d} MB line in {chunk} B chunks: {t * 1e3:8.1f} ms  {t * 1e3 / mb:6.1f} ms/MB")


if __name__ == "__main__":
    main()
