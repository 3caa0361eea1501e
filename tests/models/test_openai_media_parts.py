"""OpenAI mode reads OpenAI's image and file parts (SDK 3.57): `input_image.detail: "original"`, and an
output `input_file` with `filename: null` / `file_url: null`, in message content and in a
`function_call_output`'s output parts, on both sides and every entry point, dumped back as read; strict
mode keeps the official document's verdict (schemas/differences.json: `openai-mode-media-parts`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import stream as S

IMAGE = {"type": "input_image", "image_url": "https://x.test/i.png", "detail": "original"}
FILE_URL = {"type": "input_file", "file_url": "https://x.test/f.pdf", "filename": None}
FILE_DATA = {"type": "input_file", "file_data": "QQ==", "filename": None}
NULL_URL = {"type": "input_file", "file_url": None, "filename": "f.pdf"}
CALL = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}", "status": "completed"}


def _items(parts: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], str]]:
    """(side, item, field holding the parts) for each place OpenAI puts these parts."""
    return [
        ("input", {"type": "message", "role": "user", "content": parts}, "content"),
        ("input", {"type": "function_call_output", "call_id": "c", "output": parts}, "output"),
        ("output", {"type": "message", "id": "m", "status": "completed", "role": "user", "content": parts}, "content"),
        (
            "output",
            {"type": "function_call_output", "id": "o", "call_id": "c", "output": parts, "status": "completed"},
            "output",
        ),
    ]


CASES = [
    *_items([IMAGE]),
    *[(s, i, f) for s, i, f in _items([FILE_URL, FILE_DATA]) if s == "output"],  # input files already take null
    *[(s, i, f) for s, i, f in _items([NULL_URL]) if s == "output"],
]
IDS = [f"{s}-{i['type']}-{i[f][0]['type']}-{i[f][0].get('detail', 'file')}" for s, i, f in CASES]


@pytest.mark.parametrize(("side", "item", "field"), CASES, ids=IDS)
def test_openai_mode_reads_and_dumps_back(side: str, item: dict[str, Any], field: str) -> None:
    for data in (item, json.dumps(item), json.dumps(item).encode()):
        model = rp.parse_item(data, side=side, provider="openai")  # type: ignore[call-overload]
        assert rp.dump_item(model) == item
    assert [rp.dump_item(m) for m in rp.parse_items([item], side=side, provider="openai")] == [item]  # type: ignore[call-overload]


@pytest.mark.parametrize(("side", "item", "field"), CASES, ids=IDS)
def test_strict_mode_refuses_naming_the_field(side: str, item: dict[str, Any], field: str) -> None:
    with pytest.raises(rp.ItemError) as exc:
        rp.parse_item(item, side=side)  # type: ignore[call-overload]
    bad = {e["loc"] for e in exc.value.errors}
    parts = item[field]
    want = {(field, i, k) for i, part in enumerate(parts) for k in ("detail", "filename", "file_url") if k in part}
    assert bad and bad <= want, bad


def test_request_and_response_bodies() -> None:
    request = {"model": "m", "input": [c[1] for c in CASES if c[0] == "input"]}
    assert rp.dump_request(rp.parse_request(request, provider="openai")) == request
    with pytest.raises(rp.ItemError) as exc:
        rp.parse_request(request)
    assert {e["loc"][-1] for e in exc.value.errors} == {"detail"}
    outputs = [CALL, *(c[1] for c in CASES if c[0] == "output" and c[1]["type"] == "function_call_output")]
    response = {"id": "resp_1", "object": "response", "created_at": 0, "completed_at": None, "status": "completed",
                "incomplete_details": None, "model": "m", "previous_response_id": None, "instructions": None,
                "output": outputs, "error": None, "tools": [], "tool_choice": "auto", "truncation": "disabled",
                "parallel_tool_calls": True, "text": {"format": {"type": "text"}}, "top_p": 1.0,
                "presence_penalty": 0.0, "frequency_penalty": 0.0, "top_logprobs": 0, "temperature": 1.0,
                "reasoning": None, "usage": None, "max_output_tokens": None, "max_tool_calls": None, "store": False,
                "background": False, "service_tier": "default", "metadata": {}, "safety_identifier": None,
                "prompt_cache_key": None}  # fmt: skip
    assert rp.dump_response(rp.parse_response(response, provider="openai")) == response
    with pytest.raises(rp.ItemError):
        rp.parse_response(response)


def test_sdk_objects_are_read_in_openai_mode() -> None:
    from openai.types.responses import ResponseFunctionToolCallOutputItem

    item = {
        "type": "function_call_output",
        "id": "o",
        "call_id": "c",
        "output": [IMAGE, FILE_URL],
        "status": "completed",
    }
    sdk = ResponseFunctionToolCallOutputItem.model_validate(item)
    assert rp.dump_item(rp.parse_item(sdk, side="output")) == sdk.model_dump(mode="json", exclude_unset=True)


def test_to_input_keeps_the_openai_reading() -> None:
    item = {
        "type": "function_call_output",
        "id": "o",
        "call_id": "c",
        "output": [IMAGE, FILE_URL],
        "status": "completed",
    }
    sent = rp.dump_item(rp.to_input(rp.parse_item(item, side="output", provider="openai")))
    assert sent["type"] == "function_call_output" and sent["output"] == [IMAGE, FILE_URL]


def test_check_transcript_and_stream_events() -> None:
    fco = {
        "type": "function_call_output",
        "id": "o",
        "call_id": "c",
        "output": [IMAGE, FILE_DATA],
        "status": "completed",
    }
    assert not rp.check_transcript([CALL, fco], side="output", provider="openai").violations
    strict = rp.check_transcript([CALL, fco], side="output").violations
    assert [f.path for f in strict] == ["/output/0/detail"]  # one finding for the output's parts, naming each
    assert "/output/1/filename" in strict[0].message
    event = {"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": fco}
    got = S.parse_event(event, provider="openai")
    assert got.model_dump(mode="json", by_alias=True, exclude_unset=True) == event
    with pytest.raises(S.StreamError) as exc:
        S.parse_event(event)
    assert "item.output.0.detail" in str(exc.value) and "item.output.1.filename" in str(exc.value)


def test_the_cli_reads_them_with_provider_openai(tmp_path: Path) -> None:
    fco = {
        "type": "function_call_output",
        "id": "o",
        "call_id": "c",
        "output": [IMAGE, FILE_URL],
        "status": "completed",
    }
    src = tmp_path / "t.jsonl"
    src.write_text(json.dumps(CALL) + "\n" + json.dumps(fco) + "\n", encoding="utf-8")
    run = [sys.executable, "-m", "replayable", "check", str(src)]
    strict = subprocess.run(run, capture_output=True, text=True, check=False)
    assert strict.returncode == 1 and "/output/0/detail" in strict.stdout, strict.stdout + strict.stderr
    openai = subprocess.run([*run, "--provider", "openai"], capture_output=True, text=True, check=False)
    assert openai.returncode == 0, openai.stdout + openai.stderr
