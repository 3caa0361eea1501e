"""Never validate against the wrong thing: one reading of tool shapes (`replayable._tools`) behind
`gate`, `check_transcript`, `check_tool`, `agents.check_arguments`, `agents.check_card` and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable._arguments import SchemaError
from replayable._cli import main
from replayable._tools import ToolKind, read_tool, tool_index

PARAMS = {
    "type": "object",
    "properties": {"q": {"type": "string", "maxLength": 3}},
    "required": ["q"],
    "additionalProperties": False,
}
SHAPES: dict[str, tuple[Any, ToolKind, str, bool]] = {
    "bare schema": (PARAMS, ToolKind.SCHEMA, "", False),
    "responses": ({"type": "function", "name": "lookup", "parameters": PARAMS}, ToolKind.FUNCTION, "/parameters", True),
    "responses, strict false": (
        {"type": "function", "name": "lookup", "parameters": PARAMS, "strict": False},
        ToolKind.FUNCTION,
        "/parameters",
        False,
    ),
    "name + parameters": ({"name": "lookup", "parameters": PARAMS}, ToolKind.FUNCTION, "/parameters", True),
    "agents": (
        {"type": "function", "name": "lookup", "parameters": PARAMS, "defer_loading": True, "strict": False},
        ToolKind.FUNCTION,
        "/parameters",
        True,
    ),
    "chat completions": (
        {"type": "function", "function": {"name": "lookup", "parameters": PARAMS}},
        ToolKind.CHAT_FUNCTION,
        "/function/parameters",
        False,
    ),
    "mcp": ({"name": "lookup", "inputSchema": PARAMS}, ToolKind.MCP, "/inputSchema", True),
}
ACTION = {"type": "function_call", "turn_id": "t1", "call_id": "c1", "name": "lookup", "arguments": {"q": "ab"}}


def turn(text: str) -> list[dict[str, Any]]:
    return [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_read_tool_finds_name_schema_and_strictness(shape: str) -> None:
    tool, kind, pointer, closed = SHAPES[shape]
    spec = read_tool(tool)
    assert (spec.kind, spec.schema, spec.pointer, spec.closed) == (kind, PARAMS, pointer, closed)
    assert spec.name == (None if kind is ToolKind.SCHEMA else "lookup")


def test_read_tool_without_parameters_takes_no_arguments() -> None:
    # an absent or null `parameters` is a function without arguments (as Chat Completions defines it),
    # never "anything goes": only `{}` passes, on gate, check_arguments and check_transcript alike
    call = {"type": "function_call", "call_id": "c", "name": "lookup", "arguments": "{}", "status": "completed"}
    extra = {**call, "arguments": '{"refund": true}'}
    for tool in (
        {"type": "function", "name": "lookup"},
        {"type": "function", "name": "lookup", "parameters": None},
        {"name": "lookup", "inputSchema": None},
    ):
        spec = read_tool(tool)
        assert spec.schema == {"type": "object", "properties": {}, "additionalProperties": False}
        assert "inputSchema" in tool or not spec.declared
        assert rp.gate(call, spec.schema).ok and rp.gate(call, tool).ok
        refused = rp.gate(extra, tool)
        assert refused.reason == "arguments_schema" and refused.failures[0].keyword == "additionalProperties"
        action = {"type": "function_call", "turn_id": "t", "call_id": "c", "name": "lookup", "arguments": {"refund": True}}
        assert not rp.agents.check_arguments(action, tool).execute
        assert [str(v.code) for v in rp.check_transcript([extra], tools=[tool], pending_ok=True).violations] == [
            "arguments_schema"
        ]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_agents_check_arguments_reads_every_shape(shape: str) -> None:
    tool = SHAPES[shape][0]
    assert rp.agents.check_arguments(ACTION, tool).execute
    bad = rp.agents.check_arguments({**ACTION, "arguments": {"q": "abcd", "x": 1}}, tool)
    assert sorted((f.path, f.keyword) for f in bad.failures) == [("/q", "maxLength"), ("/x", "additionalProperties")]
    if shape != "bare schema":
        other = rp.agents.check_arguments({**ACTION, "name": "drop_db"}, tool)
        assert not other.execute and ("", "name") in [(f.path, f.keyword) for f in other.failures]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_check_card_reads_every_shape(shape: str) -> None:
    tool = SHAPES[shape][0]
    assert rp.agents.check_card(turn('{"q": "ab"}'), tool).ok
    assert [(f.path, f.keyword) for f in rp.agents.check_card(turn('{"q": "abcd"}'), tool).failures] == [
        ("/q", "maxLength")
    ]


@pytest.mark.parametrize(
    "wrong",
    [
        {"name": "lookup"},
        {"name": "lookup", "input_schema": PARAMS},
        {"x-note": "hi"},
        {"type": "function", "name": "a", "parameters": PARAMS, "function": {"name": "b", "parameters": {}}},
        {"name": "lookup", "inputSchema": PARAMS, "parameters": {}},
        "lookup",
        5,
        None,
        [PARAMS],
    ],
    ids=repr,
)
def test_agents_and_cards_refuse_what_is_neither(wrong: Any) -> None:
    with pytest.raises(SchemaError):
        rp.agents.check_arguments(ACTION, wrong)
    with pytest.raises(SchemaError):
        rp.agents.check_card(turn('{"q": "ab"}'), wrong)


def test_tool_index_skips_hosted_tools_and_refuses_duplicates() -> None:
    index = tool_index([{"type": "web_search"}, SHAPES["chat completions"][0], SHAPES["mcp"][0] | {"name": "other"}])
    assert index is not None and sorted(index) == ["lookup", "other"]
    with pytest.raises(ValueError, match="both named 'lookup'"):
        tool_index([SHAPES["responses"][0], SHAPES["mcp"][0]])
    with pytest.raises(ValueError):
        tool_index({"tools": []})  # type: ignore[arg-type]


def _write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value))
    return str(path)


CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"q": "abcd"}'}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}


def test_cli_checks_chat_and_mcp_tools_of_a_request_body(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for tool in (SHAPES["chat completions"][0], SHAPES["mcp"][0]):
        body = _write(tmp_path, "body.json", {"model": "m", "input": [CALL, OUT], "tools": [tool]})
        assert main(["check", body, "--format", "json"]) == 1
        report = json.loads(capsys.readouterr().out)
        assert ("arguments_schema", 0) in [(v["code"], v["index"]) for v in report["violations"]]


def test_cli_refuses_two_tools_with_one_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tools = [SHAPES["responses"][0], SHAPES["chat completions"][0]]
    body = _write(tmp_path, "body.json", {"model": "m", "input": [CALL, OUT], "tools": tools})
    assert main(["check", body]) == 2
    assert "lookup" in capsys.readouterr().err
    items = _write(tmp_path, "items.json", [CALL, OUT])
    tools_file = _write(tmp_path, "tools.json", tools)
    assert main(["check", items, "--tools", tools_file]) == 2
    assert "lookup" in capsys.readouterr().err
    jsonl = tmp_path / "items.jsonl"
    jsonl.write_text(json.dumps(CALL) + "\n" + json.dumps(OUT) + "\n")
    assert main(["check", str(jsonl), "--tools", tools_file]) == 2
    assert "lookup" in capsys.readouterr().err


# --- tools that are not function tools: check_tool and the command line's lint say the same -------------

HOSTED = [{"type": "web_search"}, {"type": "file_search", "vector_store_ids": ["vs_1"]},
          {"type": "mcp", "server_label": "s", "server_url": "https://x"}, {"type": "acme:lookup"}]


@pytest.mark.parametrize("tool", HOSTED, ids=lambda t: t["type"])
def test_check_tool_on_a_hosted_tool_says_there_is_no_schema_to_check(tool: dict[str, Any]) -> None:
    found = rp.check_tool(tool)
    assert found == []  # a hosted tool is a fine tool, not "a bare schema"
    assert [(n.code, n.path) for n in found.notes] == [("hosted_tool", "/type")]
    assert "hosted tool" in found.notes[0].message and "no parameters schema" in found.notes[0].message
    assert "bare" not in found.notes[0].message


def test_check_tool_on_a_custom_tool_checks_its_name_and_says_its_input_is_free_text() -> None:
    found = rp.check_tool({"type": "custom", "name": "run code", "format": {"type": "text"}})
    assert [(v.code, v.path) for v in found] == [("invalid_tool", "/name")]
    assert "free text" in found.notes[0].message
    assert rp.check_tool({"type": "custom", "name": "run_code"}) == []


@pytest.mark.parametrize(
    ("tool", "path", "words"),
    [
        ({"type": "web_serch"}, "/type", "neither 'function', a hosted tool type"),
        ({"type": "message", "role": "user", "content": "x"}, "/type", "a message item"),
        ({"type": "object", "properties": {}}, "", "bare JSON Schema"),  # a schema is still a schema
    ],
)
def test_check_tool_refuses_what_is_no_tool(tool: dict[str, Any], path: str, words: str) -> None:
    (v,) = rp.check_tool(tool)
    assert (v.code, v.path) == ("invalid_tool", path) and words in v.message


def test_the_cli_lints_hosted_and_unknown_tool_types_as_check_tool_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = _write(tmp_path, "items.json", [CALL, OUT])
    lookup = {"type": "function", "name": "lookup", "parameters": {
        "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}}
    tools = [lookup, *HOSTED]
    assert main(["check", items, "--tools", _write(tmp_path, "tools.json", tools)]) == 0
    body = _write(tmp_path, "body.json", {"model": "m", "input": [CALL, OUT], "tools": tools})
    assert main(["check", body, "--provider", "openai"]) == 0
    assert main(["check", body]) == 1  # read strictly, OpenAI's own tool types are no Open Responses tools
    capsys.readouterr()
    path = _write(tmp_path, "body2.json", {"model": "m", "input": [CALL, OUT], "tools": [*tools, {"type": "web_serch"}]})
    assert main(["check", path, "--provider", "openai", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["code"], f["path"]) for f in found if f["severity"] == "error"] == [
        ("body_invalid", "/tools/5"),  # the body that sends it: no tool type of OpenAI's
        ("invalid_tool", "/tools/5/type"),  # the lint of the tool
    ]
    assert main(["check", items, "--tools", _write(tmp_path, "tools2.json", [*tools, {"type": "web_serch"}])]) == 1


def test_check_tool_lints_each_tool_of_a_namespace() -> None:
    loose = {"type": "function", "name": "f", "strict": True,
             "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    namespace = {"type": "namespace", "name": "ns", "description": "d", "tools": [loose, {"type": "custom", "name": "c"}]}
    found = rp.check_tool(namespace)
    assert [(v.code, v.path) for v in found] == [
        ("strict_schema_additional_properties", "/tools/0/parameters/additionalProperties"),
        ("strict_schema_required_incomplete", "/tools/0/parameters/required"),
    ]
    assert [(n.code, n.path) for n in found.notes] == [("hosted_tool", "/tools/1/type")]
    assert found == [v.under("/tools/0") for v in rp.check_tool(loose)]
