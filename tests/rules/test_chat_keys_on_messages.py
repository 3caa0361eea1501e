"""A Responses `message` item carrying a Chat Completions key (`function_call`, the legacy field, or
`tool_calls`) is a Chat Completions assistant message in disguise: the call in it would be dropped
silently by a server that ignores unknown keys, and never checked. Decision: fail closed, as for the other
Chat Completions shapes (`chat_shapes.py`): `chat_completions_envelope` with the item's index and the
key as the field, on every door (dicts, parsed models, `openai` SDK objects, bodies, Responses, streams,
text, the openai SDK hook, the openai-agents session, the CLI; `to_input` and `prepare_replay` raise
`ItemError` naming the index and the field)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable._cli import main
from replayable._replay import check_transcript_iter
from replayable.integrations.openai import check_request_body
from replayable.testing import assert_replay_safe

USER = {"type": "message", "role": "user", "content": "hi"}
TEXT = [{"type": "output_text", "text": "calling f", "annotations": []}]
LEGACY = {"name": "f", "arguments": "{}"}
TOOL_CALLS = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]


def message(key: str, value: Any) -> dict[str, Any]:
    return {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed", "content": TEXT, key: value}


CASES = {
    "function_call": message("function_call", LEGACY),
    "function_call null": message("function_call", None),  # a dumped ChatCompletionMessage has the key
    "tool_calls": message("tool_calls", TOOL_CALLS),
    "function_call without type": {"role": "assistant", "content": "x", "function_call": LEGACY},
}


def key_of(name: str) -> str:
    return name.split()[0]


def found(report: Any) -> list[tuple[int | None, str, str]]:
    return [(v.index, str(v.code), v.path) for v in report.violations]


def cli(tmp_path: Path, name: str, text: str) -> list[tuple[int | None, str, str]]:
    path = tmp_path / name
    path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", str(path), "--format", "json", "--provider", "openai"])
    assert code == 1
    doc = json.loads(out.getvalue())
    return [(f["index"], f["code"], f["path"]) for f in doc["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("name", list(CASES))
def test_every_door_gives_the_same_finding_with_index_and_field(name: str, tmp_path: Path) -> None:
    item = CASES[name]
    want = [(1, "chat_completions_envelope", f"/{key_of(name)}")]
    items = [USER, item]
    for provider in (None, "openai"):
        assert found(rp.check_transcript(items, provider=provider)) == want  # type: ignore[arg-type]
        assert found(check_transcript_iter(iter(items), provider=provider)) == want  # type: ignore[arg-type]
        assert found(rp.check_transcript({"model": "m", "input": items}, provider=provider)) == want  # type: ignore[arg-type]
    if "type" in item:  # a typed message parses (its unknown keys kept) and keeps the finding
        for provider in (None, "openai"):
            parsed = rp.parse_items(items, provider=provider)  # type: ignore[arg-type]
            assert found(rp.check_transcript(parsed, provider=provider)) == want  # type: ignore[arg-type]
            assert found(check_transcript_iter(iter(parsed), provider=provider)) == want  # type: ignore[arg-type]
        response = {"object": "response", "id": "r", "created_at": 1, "status": "completed", "model": "m",
                    "output": [item]}
        assert found(rp.check_transcript(response)) == [(0, *want[0][1:])]
    text = json.dumps(items)
    for data in (text, text.encode(), "\n".join(json.dumps(i) for i in items)):
        with pytest.raises(AssertionError, match="chat_completions_envelope"):
            assert_replay_safe(data, provider="openai")
    with pytest.raises(rp.ReplayError) as info:
        check_request_body(json.dumps({"model": "m", "input": items}).encode())
    assert found(info.value.report) == want
    assert cli(tmp_path, "t.json", text) == want
    assert cli(tmp_path, "t.jsonl", "\n".join(json.dumps(i) for i in items) + "\n") == want
    assert cli(tmp_path, "b.json", json.dumps({"model": "m", "input": items})) == want
    with pytest.raises(rp.ItemError) as refused:
        rp.to_input(item, provider="openai")
    assert [(e["loc"], e["type"]) for e in refused.value.errors] == [((key_of(name),), "chat_completions_envelope")]
    with pytest.raises(rp.ItemError) as dropped:
        rp.prepare_replay(items, target="openai", provider="openai")
    assert [(e["loc"], e["type"]) for e in dropped.value.errors] == [((1, key_of(name)), "chat_completions_envelope")]


def test_an_sdk_message_with_the_legacy_key_keeps_the_finding() -> None:
    types = pytest.importorskip("openai.types.responses")
    sdk = types.ResponseOutputMessage.model_validate(CASES["function_call"])  # the SDK keeps unknown keys
    assert found(rp.check_transcript([USER, sdk])) == [(1, "chat_completions_envelope", "/function_call")]
    assert found(check_transcript_iter(iter([USER, sdk]))) == [(1, "chat_completions_envelope", "/function_call")]


def test_a_checked_agents_session_refuses_to_store_it() -> None:
    memory = pytest.importorskip("agents.memory")
    from replayable.integrations.agents import CheckedSession  # noqa: PLC0415

    session = CheckedSession(memory.SQLiteSession("chat-keys"))

    async def run() -> list[Any]:
        await session.add_items([USER])
        with pytest.raises(rp.ReplayError) as info:
            await session.add_items([CASES["function_call"]])
        assert found(info.value.report) == [(1, "chat_completions_envelope", "/function_call")]
        return await session.get_items()

    assert len(asyncio.run(run())) == 1


def test_the_stream_of_events_gives_the_finding_at_its_output_index(tmp_path: Path) -> None:
    item = CASES["function_call"]
    added = {**item, "status": "in_progress", "content": []}
    done = {**item, "content": []}
    response = {"id": "r", "object": "response", "created_at": 1, "model": "m"}
    events = [
        {"type": "response.created", "sequence_number": 0, "response": {**response, "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": added},
        {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": done},
        {"type": "response.completed", "sequence_number": 3, "response": {**response, "status": "completed", "output": [done]}},
    ]
    sse = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    assert cli(tmp_path, "t.sse", sse) == [(0, "chat_completions_envelope", "/function_call")]


@pytest.mark.parametrize(
    "item",
    [
        {"type": "acme:trace", "function_call": LEGACY},  # an extension item's own field
        {"type": "function_call_output", "call_id": "c1", "output": "x", "function_call": "meta"},
    ],
)
def test_the_key_on_an_item_that_is_not_a_message_is_not_a_chat_shape(item: dict[str, Any]) -> None:
    report = rp.check_transcript([item])
    assert "chat_completions_envelope" not in {v.code for v in report.violations}
