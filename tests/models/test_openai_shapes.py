"""OpenAI mode reads the shapes OpenAI really sends (`null` in optional fields of spec items,
`web_search_call.status: "incomplete"`), on every entry point, and dumps them back unchanged; strict Open
Responses mode still refuses the `null`s, as the official document does."""

from __future__ import annotations

import json
from typing import Any

import pytest

import replayable as rp
from replayable import _native as native
from replayable import _openai_forms as openai_forms
from replayable import stream as S

responses = pytest.importorskip("openai.types.responses", reason="the openai SDK is a dev dependency")

MESSAGE = {
    "type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "phase": None,
    "content": [{"type": "output_text", "text": "hi", "annotations": [], "logprobs": None}],
}
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "content": None, "encrypted_content": None}
COMPACTION = {"type": "compaction", "id": "cmp_1", "encrypted_content": "e", "created_by": None}
SEARCH = {"type": "web_search_call", "id": "ws_1", "status": "incomplete", "action": {"type": "search", "query": "q"}}
OUTPUT = [REASONING, MESSAGE, COMPACTION, SEARCH]
TYPED = {"message": openai_forms.OpenAIMessage, "reasoning": openai_forms.OpenAIReasoning,
         "compaction": openai_forms.OpenAICompaction, "web_search_call": native.WebSearchCall}
#: where strict mode refuses each item, and why
STRICT_REFUSALS = {"message": {("phase",), ("content", 0, "logprobs")},
                   "reasoning": {("content",), ("encrypted_content",)}, "compaction": {("created_by",)}}


@pytest.mark.parametrize("item", OUTPUT, ids=lambda i: i["type"])
@pytest.mark.parametrize("form", ["dict", "text", "bytes", "sdk"])
def test_openai_output_shapes_parse_typed_and_round_trip(item: dict[str, Any], form: str) -> None:
    value: Any = {"dict": item, "text": json.dumps(item), "bytes": json.dumps(item).encode()}.get(form)
    if form == "sdk":
        value = responses.Response.model_validate(_response([item])).output[0]
    parsed = rp.parse_item(value, side="output", provider="openai")
    assert type(parsed) is TYPED[item["type"]]
    assert rp.dump_item(parsed) == item


def test_spec_subclasses_keep_isinstance_and_honest_types() -> None:
    msg, reasoning, compaction = (rp.parse_item(i, side="output", provider="openai") for i in (MESSAGE, REASONING, COMPACTION))
    assert isinstance(msg, rp.Message) and msg.phase is None  # type: ignore[union-attr]
    assert isinstance(reasoning, rp.Reasoning) and reasoning.encrypted_content is None  # type: ignore[union-attr]
    assert isinstance(compaction, rp.Compaction) and compaction.created_by is None  # type: ignore[union-attr]


@pytest.mark.parametrize("item", [i for i in OUTPUT if i["type"] in STRICT_REFUSALS], ids=lambda i: i["type"])
def test_strict_mode_still_refuses_the_nulls(item: dict[str, Any]) -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(item, side="output")
    assert {e["loc"] for e in err.value.errors} == STRICT_REFUSALS[item["type"]]


def test_web_search_incomplete_is_typed_in_strict_mode_too_and_unfinished() -> None:
    prefixed = {**SEARCH, "type": "openai:web_search_call"}
    assert rp.dump_item(rp.parse_item(prefixed, side="output")) == prefixed
    report = rp.check_transcript([SEARCH], provider="openai")
    assert [(v.index, v.code) for v in report.violations] == [(0, "incomplete_call_replayed")]
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({**SEARCH, "status": "stalled"}, side="output", provider="openai")
    assert [e["loc"] for e in err.value.errors] == [("status",)]


def _response(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-x", "output": output,
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "status": "completed"}


def test_openai_response_and_compaction_response_keep_the_nulls() -> None:
    body = _response(OUTPUT[:3])
    parsed = rp.parse_response(body, provider="openai")
    assert [type(x) for x in parsed.output] == [TYPED[i["type"]] for i in OUTPUT[:3]]
    assert rp.dump_response(parsed) == body
    sdk = rp.parse_response(responses.Response.model_validate(body))
    assert rp.dump_response(sdk)["output"] == OUTPUT[:3]
    compact = {"id": "c", "object": "response.compaction", "created_at": 1, "output": [MESSAGE, COMPACTION],
               "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                         "input_tokens_details": {"cached_tokens": 0},
                         "output_tokens_details": {"reasoning_tokens": 0}}}
    assert rp.dump_response(rp.parse_compact_response(compact, provider="openai")) == compact
    assert rp.check_transcript(body, provider="openai").ok


def test_request_input_takes_the_sdk_null_phase_in_openai_mode_only() -> None:
    msg = {"type": "message", "role": "assistant", "content": "done", "phase": None}
    body = {"model": "gpt-x", "input": [msg, {"type": "reasoning", "summary": [], "encrypted_content": None}]}
    parsed = rp.parse_request(body, provider="openai")
    assert type(parsed.input[0]) is openai_forms.OpenAIAssistantMessageParam  # type: ignore[index]
    assert rp.dump_request(parsed) == body
    with pytest.raises(rp.ItemError):
        rp.parse_request(body)
    assert rp.dump_items(rp.parse_items(json.dumps([msg]), provider="openai")) == [msg]
    # an output message read in OpenAI mode converts to an input form OpenAI mode reads back
    back = rp.dump_item(rp.to_input(MESSAGE, provider="openai"))
    assert back["phase"] is None and rp.dump_item(rp.parse_item(back, provider="openai")) == back


def test_stream_hands_out_the_openai_shapes() -> None:
    asm = S.StreamAssembler(provider="openai", strict=False)
    seq = 0
    for n, item in enumerate(OUTPUT[:2]):
        for etype in ("response.output_item.added", "response.output_item.done"):
            seq += 1
            asm.feed({"type": etype, "sequence_number": seq, "output_index": n, "item": item})
    assert [rp.dump_item(i) for i in asm.items] == OUTPUT[:2]
    assert [type(i) for i in asm.items] == [openai_forms.OpenAIReasoning, openai_forms.OpenAIMessage]
