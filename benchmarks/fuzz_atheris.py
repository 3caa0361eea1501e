"""Coverage-guided fuzzing of the byte-level entry points with atheris (optional: `pip install atheris`).

    python benchmarks/fuzz_atheris.py -atheris_runs=200000      # or -max_total_time=600

Feeds raw bytes to `parse_item`, `parse_items`, `gate` (as the arguments string) and
`check_transcript` / `check_transcript_iter` (on whatever JSON the bytes hold) and fails on any exception
other than the library's own (`ItemError`, `ArgumentsError`). Complements the hypothesis properties
in tests/adversarial/test_fuzz.py, which explore structure; this explores bytes.
"""

from __future__ import annotations

import json
import sys

import atheris
import pydantic  # noqa: F401  imported uninstrumented: instrumenting pydantic crashes atheris 2.3 on 3.11

with atheris.instrument_imports(include=["replayable"]):
    import replayable as rp
    from replayable._arguments import ArgumentsError, parse_arguments
    from replayable._replay import check_transcript_iter

SCHEMA = {"type": "object", "properties": {"q": {"type": "string", "pattern": "^(a+)+$"}}, "required": ["q"]}


def one(data: bytes) -> None:
    try:
        rp.parse_item(data)
    except rp.ItemError:
        pass
    try:
        rp.parse_items(data)
    except rp.ItemError:
        pass
    text = data.decode("utf-8", "replace")
    try:
        parse_arguments(text)
    except ArgumentsError:
        pass
    res = rp.gate(
        {"type": "function_call", "call_id": "c", "name": "t", "status": "completed", "arguments": text}, SCHEMA
    )
    assert isinstance(res.reason, rp.GateReason)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    items = value if isinstance(value, list) else [value]
    a = rp.check_transcript(items)
    b = check_transcript_iter(iter(items))
    assert a.violations == b.violations, (a.violations, b.violations)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()
