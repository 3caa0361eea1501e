"""The stream assembler's hand-out rule: no call of a family the client executes is
handed out unless it is `completed` and no finding concerns its own events, for every family of the
call-family table (`replayable._families.FAMILIES`), in strict and lenient mode, through `feed`,
`feed_sse`, `parse_sse` then `feed`, `feed_bytes` and `afeed_sse`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

import replayable as rp
from replayable import stream as S
from replayable._families import FAMILIES, CallFamily

#: One output-form item per family (status filled in by the test), un-prefixed as OpenAI sends it.
SAMPLES: dict[str, dict[str, Any]] = {
    "function_call": {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}"},
    "openai:custom_tool_call": {"type": "custom_tool_call", "id": "ct_1", "call_id": "c1", "name": "sql", "input": "x"},
    "openai:computer_call": {
        "type": "computer_call",
        "id": "cu_1",
        "call_id": "c1",
        "action": {"type": "screenshot"},
        "pending_safety_checks": [],
    },
    "openai:local_shell_call": {
        "type": "local_shell_call",
        "id": "ls_1",
        "call_id": "c1",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    },
    "openai:shell_call": {"type": "shell_call", "id": "sh_1", "call_id": "c1", "action": {"commands": ["ls"]}},
    "openai:apply_patch_call": {
        "type": "apply_patch_call",
        "id": "ap_1",
        "call_id": "c1",
        "operation": {"type": "delete_file", "path": "a"},
    },
    "openai:tool_search_call": {
        "type": "tool_search_call",
        "id": "ts_1",
        "call_id": "c1",
        "arguments": {"query": "x"},
        "execution": "client",
    },
    "openai:program": {"type": "program", "id": "pg_1", "call_id": "c1", "code": "x", "fingerprint": "f"},
    "openai:mcp_approval_request": {
        "type": "mcp_approval_request",
        "id": "mr_1",
        "server_label": "s",
        "name": "t",
        "arguments": "{}",
    },
}
#: The families the client executes (a call that asks the app to run something and answer).
EXECUTED = [f for f in FAMILIES if f.output_type is not None and f.output_required]
RESP = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}


def test_every_client_executed_family_has_a_sample() -> None:
    """A new family row gets its hand-out test here (the rule is read from the table, not a list)."""
    assert {f.call_type for f in EXECUTED} == set(SAMPLES)


def _item(family: CallFamily, status: str | None, prefixed: bool, **extra: Any) -> dict[str, Any]:
    item = {**SAMPLES[family.call_type], **extra}
    if status is not None:
        item["status"] = status
    if prefixed and ":" not in item["type"] and family.call_type.startswith("openai:"):
        item["type"] = family.call_type
    return item


def _stream(items: list[dict[str, Any]], *, incomplete: bool = False) -> list[dict[str, Any]]:
    """A well-formed stream of the given finished items (each added in progress, then done)."""
    events: list[dict[str, Any]] = [{"type": "response.created", "response": RESP}]
    for i, item in enumerate(items):
        added = {**item, "status": "in_progress"} if "status" in item else dict(item)
        events.append({"type": "response.output_item.added", "output_index": i, "item": added})
        events.append({"type": "response.output_item.done", "output_index": i, "item": item})
    end = "response.incomplete" if incomplete else "response.completed"
    snap = {**RESP, "status": end.rsplit(".", 1)[1], "output": items}
    events.append({"type": end, "response": snap})
    return [{**e, "sequence_number": n} for n, e in enumerate(events)]


def _sse(events: list[dict[str, Any]]) -> bytes:
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    return (body + "data: [DONE]\n\n").encode()


async def _agen(chunks: list[bytes]) -> Any:
    for c in chunks:
        await asyncio.sleep(0)
        yield c


def _by_afeed(asm: S.StreamAssembler, data: bytes) -> Any:
    got: list[Any] = []

    async def run() -> None:
        async for x in asm.afeed_sse(_agen([data[i : i + 5] for i in range(0, len(data), 5)])):
            got.append(x)

    try:
        asyncio.run(run())
    finally:
        yield from got


PATHS: dict[str, Callable[[S.StreamAssembler, list[dict[str, Any]]], Any]] = {
    "feed": lambda asm, evs: (x for e in evs for x in asm.feed(e)),
    "feed_sse": lambda asm, evs: asm.feed_sse(_sse(evs)),
    "parse_sse": lambda asm, evs: (x for e in S.parse_sse(_sse(evs)) for x in asm.feed(e)),
    "feed_bytes": lambda asm, evs: (x for b in _sse(evs) for x in asm.feed_bytes(bytes([b]))),
    "afeed_sse": lambda asm, evs: _by_afeed(asm, _sse(evs)),
}


def _run(events: list[dict[str, Any]], *, provider: Any, strict: bool, path: str) -> tuple[list[Any], Any, Any]:
    """(items handed out before the end or the error, the error's rule or None, the assembler)."""
    asm = S.StreamAssembler(provider=provider, strict=strict)
    handed: list[Any] = []
    try:
        for x in PATHS[path](asm, events):
            handed.append(x)
        asm.close()
    except S.StreamError as exc:
        return handed, exc.rule, asm
    return handed, None, asm


MODES = [("openai", False), (None, True)]  # (provider, the type written prefixed)


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
@pytest.mark.parametrize("family", EXECUTED, ids=lambda f: f.name)
def test_a_completed_call_is_handed_out_and_an_unfinished_one_never(
    family: CallFamily, strict: bool, path: str
) -> None:
    for provider, prefixed in MODES:
        if provider is None and family.call_type != "function_call" and not prefixed:
            continue
        finished = "completed" if family.has_status else None
        item = _item(family, finished, prefixed)
        handed, error, asm = _run(_stream([item]), provider=provider, strict=strict, path=path)
        assert error is None, (provider, error, asm.warnings)
        assert [rp.dump_item(x) for x in handed] == [item], provider
        statuses = sorted(family.unfinished & {"in_progress", "incomplete"})
        assert statuses, family
        for status in statuses:
            unfinished = _item(family, status, prefixed)
            events = _stream([unfinished], incomplete=status == "incomplete")
            handed, error, asm = _run(events, provider=provider, strict=strict, path=path)
            assert handed == [], (provider, status)
            if error is None:  # the item is kept with its status, never handed out as executable
                assert [rp.dump_item(x) for x in asm.items] == [unfinished] or asm.violations, (provider, status)


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("family", EXECUTED, ids=lambda f: f.name)
def test_a_call_reusing_a_call_id_is_never_handed_out_in_lenient_mode(family: CallFamily, path: str) -> None:
    key = family.call_key
    finished = "completed" if family.has_status else None
    first = _item(family, finished, False)
    second = _item(family, finished, False, id="other_1", **({key: first[key]} if key != "id" else {}))
    if key == "id":  # mcp_approval_request pairs by its id: a second one with the same id
        second = {**first}
    handed, error, asm = _run(_stream([first, second]), provider="openai", strict=False, path=path)
    assert error is None
    assert [rp.dump_item(x) for x in handed] == [first]
    assert "duplicate_id" in [w.rule for w in asm.violations]
    # strict mode refuses it at the event that shows it
    handed, error, _ = _run(_stream([first, second]), provider="openai", strict=True, path=path)
    assert error == S.StreamRule.DUPLICATE_ID and [rp.dump_item(x) for x in handed] == [first]


def _seq_backwards(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last call's `output_item.done` carries a sequence_number that goes backwards."""
    done = max(i for i, e in enumerate(events) if e["type"] == "response.output_item.done")
    return [*events[:done], {**events[done], "sequence_number": 0}, *events[done + 1 :]]


def _part_out_of_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A text delta for a content part of the call never added, at the call's own output_index."""
    done = max(i for i, e in enumerate(events) if e["type"] == "response.output_item.done")
    idx, item_id = events[done]["output_index"], events[done]["item"].get("id")
    delta = {
        "type": "response.output_text.delta",
        "item_id": item_id,
        "output_index": idx,
        "content_index": 0,
        "delta": "x",
    }
    out = [*events[:done], delta, *events[done:]]
    return [{**e, "sequence_number": n} for n, e in enumerate(out)]


def _after_incomplete(events: list[dict[str, Any]], family: CallFamily) -> list[dict[str, Any]]:
    """A message ends incomplete, then the call is added after it."""
    msg = {"type": "message", "id": "m_1", "role": "assistant", "status": "incomplete", "content": []}
    call = next(e["item"] for e in events if e["type"] == "response.output_item.done")
    return _stream([msg, call], incomplete=True)


FINDINGS: dict[str, tuple[Callable[[list[dict[str, Any]], CallFamily], list[dict[str, Any]]], str]] = {
    "sequence going backwards": (lambda evs, f: _seq_backwards(evs), "sequence_order"),
    "a part out of order": (lambda evs, f: _part_out_of_order(evs), "part_order"),
    "after an incomplete item": (_after_incomplete, "after_incomplete"),
}


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("finding", list(FINDINGS))
@pytest.mark.parametrize("family", EXECUTED, ids=lambda f: f.name)
def test_a_call_with_a_finding_at_its_own_events_is_never_handed_out(
    family: CallFamily, finding: str, path: str
) -> None:
    make, rule = FINDINGS[finding]
    item = _item(family, "completed" if family.has_status else None, False)
    events = make(_stream([item]), family)
    handed, error, asm = _run(events, provider="openai", strict=False, path=path)
    assert error is None
    assert rule in [w.rule for w in asm.violations]
    calls = [x for x in handed if rp.dump_item(x)["type"] == item["type"]]
    assert calls == [], finding
    assert item in [rp.dump_item(x) for x in asm.items]  # kept, with the finding, for the app to inspect
    handed, error, _ = _run(events, provider="openai", strict=True, path=path)
    assert error == rule and [x for x in handed if rp.dump_item(x)["type"] == item["type"]] == []


def test_a_hosted_call_is_handed_out_whatever_its_status() -> None:
    """Hosted calls carry their own result and ask the app to run nothing: handed out as informational
    items (an unfinished web search is the provider's to report)."""
    item = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "in_progress",
        "action": {"type": "search", "query": "q"},
    }
    handed, error, _ = _run(_stream([item]), provider="openai", strict=True, path="feed")
    assert error is None and [rp.dump_item(x) for x in handed] == [item]
    server = {**SAMPLES["openai:tool_search_call"], "execution": "server", "call_id": None, "status": "in_progress"}
    handed, error, _ = _run(_stream([server]), provider="openai", strict=True, path="feed")
    assert error is None and [rp.dump_item(x) for x in handed] == [server]
