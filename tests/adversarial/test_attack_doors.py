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
from replayable._reading import DocumentKind, read_document
from replayable.integrations.openai import check_request_body
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
    "response with an input": {"object": "response", "status": "completed", "output": [], "input": [CALL]},
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


# --- a call into a `namespace` tool is never matched to the top-level tool of the same name ---------------

NS_CALL = {**CALL, "name": "get_weather", "namespace": "admin"}
NS_OUT_CALL = {**NS_CALL, "id": "fc_1", "status": "completed"}


def test_a_namespaced_call_is_no_call_of_the_top_level_tool_on_every_door(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from replayable._replay import check_transcript_iter  # noqa: PLC0415

    items = [NS_CALL, OUTPUT]
    assert rp.check_transcript([{**CALL, "name": "get_weather"}, OUTPUT], tools=[WEATHER]).ok  # the control
    for gate_tools in (WEATHER, [WEATHER], {"get_weather": WEATHER}):
        assert rp.gate(NS_OUT_CALL, gate_tools).reason is rp.GateReason.UNKNOWN_TOOL
    parsed = rp.parse_items(items)
    assert rp.gate(rp.parse_item(NS_OUT_CALL), WEATHER).reason is rp.GateReason.UNKNOWN_TOOL
    for value in (items, parsed, {"model": "m", "input": items, "tools": [WEATHER]}):
        report = rp.check_transcript(value, tools=None if isinstance(value, dict) else [WEATHER])
        assert _codes(report) == ["unknown_tool"], _codes(report)
    assert _codes(rp.check_transcript(items, allowed_tools=["get_weather"])) == ["tool_not_allowed"]
    assert _codes(check_transcript_iter(iter(items), tools=[WEATHER])) == ["unknown_tool"]
    resp = {"object": "response", "status": "completed", "output": [NS_OUT_CALL], "tools": [WEATHER]}
    assert _codes(rp.check_transcript(resp)) == ["unknown_tool"]
    sdk = pytest.importorskip("openai.types.responses")
    sdk_items = [sdk.ResponseFunctionToolCall.model_construct(**NS_OUT_CALL), OUTPUT]
    assert rp.gate(sdk_items[0], WEATHER).reason is rp.GateReason.UNKNOWN_TOOL
    assert _codes(rp.check_transcript(sdk_items, tools=[WEATHER])) == ["unknown_tool"]
    body = {"model": "m", "input": items, "tools": [WEATHER]}
    with pytest.raises(rp.ReplayError):
        check_request_body(json.dumps(body).encode())
    for data in (json.dumps(body), json.dumps(body).encode()):
        with pytest.raises(AssertionError):
            assert_replay_safe(data)
    for stdin in (False, True):
        exit_code, codes, err = _cli(body, tmp_path, monkeypatch, capsys, stdin=stdin)
        assert exit_code == 1 and "unknown_tool" in codes, (codes, err)
    kept, prepared = rp.prepare_replay(body, target="openai")
    assert kept == [] and prepared.check.ok


# --- hostile text quoted by a finding reaches no CI log as raw control characters ------------------------

EVIL = "x\x1b[31mRED\x1b]0;t\x07\r\n::error::forged%0A\u202e\x9b2J"


@pytest.mark.parametrize("fmt", ["github", "sarif", "text"])
def test_quoted_input_is_printable_in_every_report_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [{"type": "acme:" + EVIL}, {"type": EVIL}, {**OUTPUT, "call_id": EVIL}]
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(items))
    assert main(["check", str(path), "--format", fmt]) == 1
    out = capsys.readouterr().out
    texts = [out]
    if fmt == "sarif":
        log = json.loads(out)
        texts = [r["message"]["text"] for r in log["runs"][0]["results"]]
        texts += [loc["fullyQualifiedName"] for r in log["runs"][0]["results"] for x in r["locations"]
                  for loc in x.get("logicalLocations", [])]  # fmt: skip
    for text in texts:
        assert not any(ch in text for ch in "\x1b\x07\x9b\u202e\r"), repr(text)
    if fmt == "github":
        assert all(line.startswith("::error file=") for line in out.splitlines())  # no line forged


def test_the_github_renderer_escapes_a_record_it_is_handed() -> None:
    from replayable._ci_formats import github_lines, sarif_log  # noqa: PLC0415

    record = {"file": "a\x1b.json", "error": f"unreadable {EVIL}\nsecond line"}
    (line,) = github_lines([record])
    assert "\x1b" not in line and "\u202e" not in line and "%0Asecond line" in line
    (result,) = sarif_log([record])["runs"][0]["results"]
    assert "\x1b" not in result["message"]["text"] and result["properties"]["file"] == "a\x1b.json"


def test_a_responses_empty_tools_echo_sets_no_limit_on_every_door(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    resp = {"object": "response", "status": "completed", "output": [OUT_CALL], "tools": []}
    assert read_document(resp).tools is None  # providers that do not echo the tools send []
    report = rp.check_transcript(resp)
    assert report.ok and len(report.pending) == 1
    for stdin in (False, True):
        exit_code, codes, err = _cli(resp, tmp_path, monkeypatch, capsys, stdin=stdin)
        assert exit_code == 0 and codes == [], (codes, err)


def test_a_namespace_equal_to_the_name_is_the_top_level_tool() -> None:
    """OpenAI's form of a call to a deferred function tool loaded by `tool_search` (recorded in the corpus,
    pai-23): its `namespace` is its own name, and it is the top-level tool."""
    call = {**CALL, "name": "get_weather", "namespace": "get_weather"}
    assert rp.gate({**call, "status": "completed"}, WEATHER).ok
    assert rp.check_transcript([call, OUTPUT], tools=[WEATHER], allowed_tools=["get_weather"]).ok


# ---- review after the attack pass: a Response's `conversation` is no request field


def test_a_response_without_object_that_names_its_conversation_is_a_response() -> None:
    response = {"id": "resp_1", "created_at": 1, "status": "completed", "conversation": {"id": "conv_1"},
                "output": [{"type": "message", "id": "m1", "role": "assistant", "status": "completed",
                            "content": [{"type": "output_text", "text": "hi", "annotations": []}]}]}
    report = rp.check_transcript(response)
    assert report.ok and len(report.items) == 1


def test_a_previous_output_that_holds_no_items_is_refused_not_ignored(tmp_path: Path) -> None:
    request = {"input": [{"type": "function_call_output", "call_id": "c1", "output": "ok"}],
               "previous_response_id": "resp_1"}
    with pytest.raises(rp.ItemError) as caught:
        rp.check_transcript(request, previous=[1, 2, None])
    assert caught.value.errors[0]["loc"] == ("previous", 0)
    body, prev = tmp_path / "body.json", tmp_path / "prev.json"
    body.write_text(json.dumps(request))
    prev.write_text("[1, 2, null]")
    assert main(["check", str(body), "--previous", str(prev)]) == 2


# --- a body's own fields are read, not ignored (from an attacker's report) ----------------------------

BAD_ENVELOPE = {
    "model": 5,
    "input": [{"type": "message", "role": "user", "content": "x"}],
    "store": "yes",
    "previous_response_id": 7,
    "tool_choice": {"type": "ALLOWED_TOOLS", "mode": "auto", "tools": []},
}


@pytest.mark.parametrize("stdin", [False, True])
def test_a_body_whose_own_fields_break_its_schema_is_refused_on_every_door(
    stdin: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`previous_response_id: 7` would silently make the body no continuation and `ALLOWED_TOOLS` no
    allowed-tools choice: each field that breaks the body's schema is body_invalid, on every door, as
    `parse_request` refuses it."""
    expected = ["body_invalid"] * 4
    report = rp.check_transcript(BAD_ENVELOPE)
    assert _codes(report) == expected
    assert {v.path for v in report.violations} == {"/model", "/store", "/previous_response_id", "/tool_choice"}
    assert all(v.index is None for v in report.violations)
    assert _codes(rp.check_transcript(read_document(json.dumps(BAD_ENVELOPE)))) == expected  # JSON text, read
    with pytest.raises(rp.ReplayError):
        check_request_body(json.dumps(BAD_ENVELOPE).encode())
    with pytest.raises(AssertionError, match="body_invalid"):
        assert_replay_safe(json.dumps(BAD_ENVELOPE).encode())
    with pytest.raises(rp.ItemError):
        rp.parse_request(BAD_ENVELOPE)
    code, codes, _ = _cli(BAD_ENVELOPE, tmp_path, monkeypatch, capsys, stdin=stdin)
    assert code == 1 and codes == expected
    fine = {**BAD_ENVELOPE, "model": "m", "store": True, "previous_response_id": "resp_1", "tool_choice": "auto"}
    assert rp.check_transcript(fine).ok
