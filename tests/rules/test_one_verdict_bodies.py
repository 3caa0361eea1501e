"""A request body gets one verdict through every door: its own `tools` and `tool_choice`
(`allowed_tools`, including `mode: "none"`) apply in `check_transcript` on the dict, on the parsed body,
in the openai SDK hook and in the command line alike. Also: targets are validated, a schema-less tool
takes no arguments, bad Python input is an `ItemError`, and a program-issued call needs its program."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable._cli import main
from replayable.integrations.openai import check_request_body

TOOLS = [
    {
        "type": "function",
        "name": "f",
        "parameters": {
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
            "additionalProperties": False,
        },
    },
    {"type": "web_search"},
]
CALLS = [
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": '{"refund":true}', "status": "completed"},
    {"type": "function_call", "call_id": "c2", "name": "delete_all", "arguments": "{}", "status": "completed"},
    {"type": "function_call_output", "call_id": "c1", "output": "x"},
    {"type": "function_call_output", "call_id": "c2", "output": "x"},
]


def _codes(report: rp.TranscriptReport) -> list[str]:
    return sorted(str(v.code) for v in report.violations)


def _cli_codes(tmp_path: Path, body: dict, capsys: pytest.CaptureFixture[str], *extra: str) -> list[str]:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    main(["check", str(path), "--format", "json", *extra])
    doc = json.loads(capsys.readouterr().out)
    return sorted(f["code"] for f in doc["findings"] if f["severity"] == "error" and f["where"] in ("item", "document"))


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        (None, ["arguments_schema", "arguments_schema", "unknown_tool"]),
        ("auto", ["arguments_schema", "arguments_schema", "unknown_tool"]),
        (
            {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "g"}]},
            ["arguments_schema", "arguments_schema", "tool_choice_not_declared", "tool_not_allowed", "tool_not_allowed",
             "unknown_tool"],
        ),
        (
            {"type": "allowed_tools", "mode": "none", "tools": [{"type": "function", "name": "f"}]},
            ["arguments_schema", "arguments_schema", "tool_not_allowed", "tool_not_allowed", "unknown_tool"],
        ),
        (
            {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "f"}]},
            ["arguments_schema", "arguments_schema", "tool_not_allowed", "unknown_tool"],
        ),
    ],
)
def test_a_body_gets_one_verdict_through_every_door(
    choice: object, expected: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body: dict = {"model": "m", "tools": TOOLS, "input": CALLS}
    if choice is not None:
        body["tool_choice"] = choice
    # strict mode refuses OpenAI's own `web_search` tool in the body, as `parse_request` does
    strict = sorted([*expected, "body_invalid"])
    assert _codes(rp.check_transcript(body)) == strict
    with pytest.raises(rp.ItemError, match="tools.1"):
        rp.parse_request(body)
    assert _codes(rp.check_transcript(body, provider="openai")) == expected
    assert _codes(rp.check_transcript(rp.parse_request(body, provider="openai"))) == expected
    with pytest.raises(rp.ReplayError) as err:
        check_request_body(json.dumps(body).encode())
    assert _codes(err.value.report) == expected
    assert _cli_codes(tmp_path, body, capsys) == strict
    assert _cli_codes(tmp_path, body, capsys, "--provider", "openai") == expected


def test_explicit_tools_and_allowed_tools_still_win_over_the_bodys() -> None:
    body = {"model": "m", "tools": TOOLS, "input": CALLS[:1] + CALLS[2:3]}
    loose = [{"type": "function", "name": "f", "parameters": {}}]
    assert rp.check_transcript(body, tools=loose, allowed_tools=["f"], provider="openai").ok  # `web_search`: OpenAI's
    assert _codes(rp.check_transcript(body, allowed_tools=[], provider="openai")) == [
        "arguments_schema", "arguments_schema", "tool_not_allowed"
    ]


def test_gate_refuses_every_call_under_allowed_tools_mode_none() -> None:
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"}
    choice = {"type": "allowed_tools", "mode": "none", "tools": [{"type": "function", "name": "f"}]}
    assert rp.gate(call, {}, allowed_tools=choice).reason == "not_allowed"
    assert rp.gate(call, {}, allowed_tools={**choice, "mode": "auto"}).ok


@pytest.mark.parametrize("target", ["OpenAI", "openai ", "", 5, "a b", "opneai", "open_ai", "openia", "openresponse"])
def test_a_target_that_is_no_profile_slug_is_refused_everywhere(
    target: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [{"type": "message", "role": "user", "content": "hi"}]
    for check in (rp.check_transcript, rp.prepare_replay):
        with pytest.raises(ValueError, match="target"):
            check(items, target=target)  # type: ignore[operator]
    if isinstance(target, str):
        path = tmp_path / "items.json"
        path.write_text(json.dumps(items))
        assert main(["check", str(path), "--target", target]) == 2
        assert "target" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["azure", "acme", "openrouter", "openai-eu", "anthropic"])
def test_a_provider_without_a_profile_is_a_target_with_the_open_responses_rules(target: str) -> None:
    """Only a slip of a profile's own name is refused (`opneai`): any other slug is a target of its own."""
    items = [{"type": "message", "role": "user", "content": "hi"}, {"type": "acme:trace"}]
    found = [str(v.code) for v in rp.check_transcript(items, target=target).violations]
    assert found == ([] if target == "acme" else ["foreign_extension_item"])


@pytest.mark.parametrize("value", [None, 5, "x", b"[]", {"a": 1}])
def test_check_transcript_refuses_what_is_no_transcript_with_item_error(value: object) -> None:
    with pytest.raises(rp.ItemError, match="items must be a list of items"):
        rp.check_transcript(value)  # type: ignore[arg-type]


def test_a_program_call_with_an_empty_caller_id_is_not_waiting() -> None:
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "in_progress"}
    assert rp.gate({**call, "caller": {"type": "program", "caller_id": ""}}, {}).reason == "status"
    waiting = {**call, "caller": {"type": "program", "caller_id": "prog_1"}}
    assert rp.gate(waiting, {}, programs=["prog_1"]).ok  # documented: inside its program's turn
    assert rp.gate(waiting, {}).reason == "status"  # no program in view: refused


def test_prepare_replay_reads_the_bodys_own_tools_as_the_cli_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {
        "model": "m",
        "tools": TOOLS,
        "input": [{"type": "message", "role": "user", "content": "hi"}, CALLS[0], CALLS[2]],
    }
    kept, report = rp.prepare_replay(body, target="openai", provider="openai")  # `web_search` is OpenAI's
    assert [x.type for x in kept] == ["message"] and [i for i, _ in report.dropped] == [1, 2]
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    assert main(["prepare", "--target", "openai", "--provider", "openai", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    sent = out["input"] if isinstance(out, dict) else out
    assert [x["type"] for x in sent] == ["message"]


def test_a_bare_schema_in_a_tool_list_is_refused_like_gate_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    items = [{"type": "message", "role": "user", "content": "hi"}]
    with pytest.raises(ValueError, match="bare JSON Schema"):
        rp.check_transcript(items, tools=[schema])
    with pytest.raises(rp.SchemaError):
        rp.gate(CALLS[0], [schema])
    assert rp.check_transcript(items, tools=[{"type": "web_search"}]).ok  # a hosted tool is no schema
    tools_file, items_file = tmp_path / "tools.json", tmp_path / "items.json"
    tools_file.write_text(json.dumps([schema]))
    items_file.write_text(json.dumps(items))
    assert main(["check", str(items_file), "--tools", str(tools_file)]) == 2
    assert "bare JSON Schema" in capsys.readouterr().err


def test_check_tool_reads_an_openai_agents_function_tool_as_gate_does() -> None:
    agents_sdk = pytest.importorskip("agents")

    @agents_sdk.function_tool
    def refund(order_id: str, amount_cents: int) -> str:
        """Refund part of an order."""
        return f"{order_id}: {amount_cents}"

    assert list(rp.check_tool(refund)) == []
    call = {**CALLS[0], "name": "refund", "arguments": '{"order_id": "A-1", "amount_cents": 5}'}
    assert rp.gate(call, refund).ok
