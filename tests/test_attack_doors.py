"""Hostile inputs found by attacking every door after the one-reader redesign: each regression is checked
on every entry point it reaches (the library on dicts, parsed bodies and SDK objects, `assert_replay_safe`
on text and bytes, the openai SDK hook, the command line on a file and on stdin, `prepare_replay`).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable._cli import main
from replayable.integrations.openai import check_request_body
from replayable.reading import DocumentKind, read_document
from replayable.testing import assert_replay_safe

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
}
CALL = {"type": "function_call", "call_id": "c1", "name": "delete_all", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "done"}
OUT_CALL = {**CALL, "id": "fc_1", "status": "completed"}


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]


def _cli(
    value: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *, stdin: bool
) -> tuple[int, list[str], str]:
    data = json.dumps(value).encode()
    path = tmp_path / "doc.json"
    path.write_bytes(data)
    if stdin:
        monkeypatch.setattr(sys, "stdin", _Stdin(data))
    code = main(["check", "-" if stdin else str(path), "--format", "json"])
    out = capsys.readouterr()
    codes = [f["code"] for f in json.loads(out.out).get("findings", [])] if out.out else []
    return code, codes, out.err


def _codes(report: rp.TranscriptReport) -> list[str]:
    return [str(v.code) for v in report.violations]


# --- a body's tools: a listed set with no function tool lets no function call through --------------------

BODIES = {
    "no tools": ({"model": "m", "input": [CALL, OUTPUT], "tools": []}, "unknown_tool"),
    "hosted tools only": ({"model": "m", "input": [CALL, OUTPUT], "tools": [{"type": "web_search"}]}, "unknown_tool"),
    "a function tool": ({"model": "m", "input": [CALL, OUTPUT], "tools": [WEATHER]}, "unknown_tool"),
    "allowed_tools weather only": (
        {
            "model": "m",
            "input": [CALL, OUTPUT],
            "tool_choice": {
                "type": "allowed_tools",
                "mode": "auto",
                "tools": [{"type": "function", "name": "get_weather"}],
            },
        },
        "tool_not_allowed",
    ),
}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_a_request_bodys_tools_limit_its_calls_on_every_door(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body, code = BODIES[name]
    explicit = rp.check_transcript(
        body["input"], tools=body.get("tools"),
        allowed_tools=["get_weather"] if "tool_choice" in body else None,
    )  # fmt: skip
    assert code in _codes(explicit)  # what the same tools say when passed by hand
    report = rp.check_transcript(body, provider="openai")
    assert not report.ok and code in _codes(report)
    parsed = rp.parse_request(body, provider="openai")
    assert code in _codes(rp.check_transcript(parsed, provider="openai"))
    for data in (json.dumps(body), json.dumps(body).encode()):
        with pytest.raises(AssertionError):
            assert_replay_safe(data, provider="openai")
    with pytest.raises(rp.ReplayError) as raised:
        check_request_body(json.dumps(body).encode())
    assert code in _codes(raised.value.report)  # type: ignore[arg-type]
    for stdin in (False, True):
        exit_code, codes, err = _cli(body, tmp_path, monkeypatch, capsys, stdin=stdin)
        assert exit_code == 1 and code in codes, (stdin, codes, err)
    kept, prepared = rp.prepare_replay(body, target="openai", provider="openai")
    assert all(rp.dump_item(i)["type"] != "function_call" for i in kept)
    assert prepared.dropped and prepared.check.ok


# --- a Response's tools (its request's, echoed) limit its calls, as a request body's do -------------------

RESPONSES = {
    "object": {"object": "response", "id": "resp_1", "status": "completed", "output": [OUT_CALL], "tools": [WEATHER]},
    "no object": {"id": "resp_1", "status": "completed", "output": [OUT_CALL], "tools": [WEATHER]},
    "hosted only": {"object": "response", "status": "completed", "output": [OUT_CALL], "tools": [{"type": "web_search"}]},
    "allowed weather only": {
        "object": "response", "status": "completed", "output": [OUT_CALL],
        "tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "get_weather"}]},
    },
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_a_responses_tools_limit_its_pending_calls_on_every_door(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    resp = RESPONSES[name]
    code = "tool_not_allowed" if "tool_choice" in resp else "unknown_tool"
    report = rp.check_transcript(resp, provider="openai")
    assert not report.ok and code in _codes(report), _codes(report)
    if name == "object":
        full = {
            **resp,
            "created_at": 1,
            "model": "m",
            "tool_choice": "auto",
            "parallel_tool_calls": True,
            "tools": [{**WEATHER, "description": "w", "strict": True}],
        }
        parsed = rp.parse_response(full, provider="openai")
        assert code in _codes(rp.check_transcript(parsed, provider="openai"))
        sdk = pytest.importorskip("openai.types.responses")
        constructed = sdk.Response.model_construct(**{**resp, "output": [
            sdk.ResponseFunctionToolCall.model_construct(**OUT_CALL)
        ], "tools": [sdk.FunctionTool.model_construct(**WEATHER)]})  # fmt: skip
        assert code in _codes(rp.check_transcript(constructed))
    for data in (json.dumps(resp), json.dumps(resp).encode()):
        with pytest.raises(AssertionError):
            assert_replay_safe(data, provider="openai")
    for stdin in (False, True):
        exit_code, codes, err = _cli(resp, tmp_path, monkeypatch, capsys, stdin=stdin)
        assert exit_code == 1 and code in codes, (stdin, codes, err)
    kept, prepared = rp.prepare_replay(resp, target="openai", provider="openai")
    assert all(rp.dump_item(i)["type"] != "function_call" for i in kept)
    assert prepared.check.ok


def test_a_response_with_a_listed_tool_still_passes_its_call() -> None:
    resp = {
        "object": "response",
        "status": "completed",
        "output": [{**OUT_CALL, "name": "get_weather"}],
        "tools": [WEATHER],
    }
    report = rp.check_transcript(resp)
    assert report.ok and len(report.pending) == 1


# --- what is no body is refused, never ignored and never a crash ----------------------------------------

REFUSED = {
    "tools an object": {"model": "m", "input": [CALL], "tools": {"get_weather": WEATHER}},
    "tools a string": {"model": "m", "input": [CALL], "tools": "get_weather"},
    "response tools an object": {"object": "response", "output": [OUT_CALL], "tools": {"a": WEATHER}},
    "object a list": {"object": ["response"], "output": [OUT_CALL]},
    "object an object": {"object": {"response": 1}, "output": [OUT_CALL]},
    "object a number": {"object": 1, "output": [OUT_CALL]},
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_malformed_envelope_is_refused_on_every_door(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    value = REFUSED[name]
    with pytest.raises(rp.ItemError):
        read_document(value)
    with pytest.raises(rp.ItemError):
        rp.check_transcript(value)
    for data in (json.dumps(value), json.dumps(value).encode()):
        with pytest.raises((AssertionError, rp.ReplayableError)):
            assert_replay_safe(data)
    if "input" in value:
        with pytest.raises(rp.ReplayError):
            check_request_body(json.dumps(value).encode())
    for stdin in (False, True):
        exit_code, _, err = _cli(value, tmp_path, monkeypatch, capsys, stdin=stdin)
        assert exit_code == 2 and "Traceback" not in err, err
    with pytest.raises(rp.ReplayableError):
        rp.prepare_replay(value, target="openai")


def test_a_body_without_tools_sets_no_limit() -> None:
    doc = read_document({"model": "m", "input": [CALL, OUTPUT]})
    assert doc.kind is DocumentKind.REQUEST and doc.tools is None
    assert read_document({"model": "m", "input": [], "tools": [{"type": "web_search"}]}).tools == []
    assert rp.check_transcript({"model": "m", "input": [CALL, OUTPUT]}).ok
