"""Tests of the remaining doors: allowed_tools, check_tool on MCP and Agents tools, and the
CLI (`replayable diff`, `check` on a request body with tool_choice allowed_tools, `check --agents --chain`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable._cli import main
from replayable._replay import ViolationCode as V

FIX = Path(__file__).parent.parent / "fixtures"
PARAMS = {
    "type": "object",
    "properties": {"region": {"type": "string"}},
    "required": ["region"],
    "additionalProperties": False,
}
TOOLS = [{"type": "function", "name": n, "parameters": PARAMS} for n in ("get_latest_sales_report", "delete_record")]
CALL = {"type": "function_call", "call_id": "c1", "name": "delete_record", "arguments": '{"region":"apac"}'}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "done"}


def codes(report, index=0):
    return sorted(str(v.code) for v in report.violations if v.index == index)


# ------------------------------------------------------------------ allowed_tools


def test_a_call_outside_allowed_tools_is_a_violation_even_with_good_arguments():
    r = rp.check_transcript([CALL, OUT], tools=TOOLS, allowed_tools=["get_latest_sales_report"])
    assert codes(r) == [V.TOOL_NOT_ALLOWED]
    assert r.violations[0].path == "/name" and "get_latest_sales_report" in r.violations[0].message


def test_an_allowed_tool_still_needs_good_arguments():
    assert rp.check_transcript([CALL, OUT], tools=TOOLS, allowed_tools=["delete_record"]).ok
    bad = rp.check_transcript([dict(CALL, arguments='{"region":1}'), OUT], tools=TOOLS, allowed_tools=["delete_record"])
    assert codes(bad) == [V.ARGUMENTS_SCHEMA] and bad.violations[0].path == "/arguments/region"


def test_every_rule_an_item_breaks_is_reported():
    both = rp.check_transcript(
        [dict(CALL, arguments='{"region":1}'), OUT], tools=TOOLS, allowed_tools=["get_latest_sales_report"]
    )
    assert codes(both) == sorted([V.ARGUMENTS_SCHEMA, V.TOOL_NOT_ALLOWED])


def test_allowed_tools_none_empty_and_without_tools():
    assert rp.check_transcript([CALL, OUT], tools=TOOLS, allowed_tools=None).ok
    assert codes(rp.check_transcript([CALL, OUT], tools=TOOLS, allowed_tools=[])) == [V.TOOL_NOT_ALLOWED]
    assert codes(rp.check_transcript([CALL, OUT], allowed_tools=["other"])) == [V.TOOL_NOT_ALLOWED]
    assert rp.check_transcript([CALL, OUT], allowed_tools=("delete_record",)).ok


# ------------------------------------------------------------------ check_tool beyond function tools


TIGHT = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}
LOOSE = {"type": "object", "properties": {"q": {"type": "string"}}}


def findings(tool):
    return sorted((str(v.code), v.path) for v in rp.check_tool(tool))


def test_mcp_tools_are_held_to_the_closed_object_rules():
    assert rp.check_tool({"name": "lookup", "inputSchema": TIGHT}) == []
    assert findings({"name": "lookup", "inputSchema": LOOSE}) == [
        (V.STRICT_SCHEMA_ADDITIONAL_PROPERTIES, "/inputSchema/additionalProperties"),
        (V.STRICT_SCHEMA_REQUIRED_INCOMPLETE, "/inputSchema/required"),
    ]
    nested = {"name": "lookup", "inputSchema": dict(TIGHT, properties={"f": LOOSE}, required=["f"])}
    assert findings(nested) == [
        (V.STRICT_SCHEMA_ADDITIONAL_PROPERTIES, "/inputSchema/properties/f/additionalProperties"),
        (V.STRICT_SCHEMA_REQUIRED_INCOMPLETE, "/inputSchema/properties/f/required"),
    ]
    # strict: false does not relax an MCP tool
    assert findings({"name": "lookup", "strict": False, "inputSchema": LOOSE})


def test_agents_defer_loading_tools_are_always_closed_but_strict_false_relaxes_responses_tools():
    agent = {"type": "function", "name": "lookup", "description": "d", "defer_loading": True, "parameters": TIGHT}
    assert rp.check_tool(agent) == []
    assert len(rp.check_tool(dict(agent, parameters=LOOSE, strict=False))) == 2
    assert rp.check_tool({"type": "function", "name": "lookup", "strict": False, "parameters": LOOSE}) == []
    assert len(rp.check_tool({"type": "function", "name": "lookup", "parameters": LOOSE})) == 2


def test_check_tool_rejects_bad_tools_with_our_violation():
    assert [str(v.code) for v in rp.check_tool(None)] == [V.INVALID_TOOL]
    assert (V.INVALID_TOOL, "/inputSchema") in findings({"name": "x", "inputSchema": {"type": 5}})


# ------------------------------------------------------------------ CLI


def write(tmp_path: Path, name: str, value) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(value) if not isinstance(value, str) else value)
    return str(p)


def test_cli_diff_exit_codes(tmp_path, capsys):
    doors = FIX / "doors"
    assert main(["diff", str(doors / "original.json"), str(doors / "replayed.json")]) == 0
    out = capsys.readouterr().out
    assert "replay-safe" in out and "NOT" not in out
    assert main(["diff", str(doors / "original.json"), str(doors / "rewritten.json")]) == 1
    assert "/1/type: type (blocks replay)" in capsys.readouterr().out
    fc = json.loads((doors / "original.json").read_text())[1]
    a, b = write(tmp_path, "a.json", fc), write(tmp_path, "b.json", dict(fc, call_id="call_124"))
    assert main(["diff", a, b, "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["differences"][0]["change"] == "call_id"


def test_cli_diff_unreadable_input_exits_2(tmp_path, capsys):
    good = write(tmp_path, "a.json", [])
    assert main(["diff", good, str(tmp_path / "missing.json")]) == 2
    assert main(["diff", good, write(tmp_path, "bad.json", "{not json")]) == 2
    assert main(["diff", good, write(tmp_path, "five.json", "[5]")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("replayable: error:") == 3


def test_cli_check_reads_allowed_tools_from_tool_choice(tmp_path, capsys):
    body = {
        "model": "m",
        "tools": TOOLS,
        "input": [CALL, OUT],
        "tool_choice": {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "function", "name": "get_latest_sales_report"}],
        },
    }
    assert main(["check", write(tmp_path, "deny.json", body)]) == 1
    assert "tool_not_allowed" in capsys.readouterr().out
    body["tool_choice"]["tools"] = [{"type": "function", "name": "delete_record"}]
    assert main(["check", write(tmp_path, "allow.json", body)]) == 0


def test_cli_check_agents_chain_prints_only_json(tmp_path, capsys):
    assert main(["check", "--agents", "--chain", str(FIX / "agents" / "session_stream.jsonl")]) == 0
    chain = json.loads(capsys.readouterr().out)
    assert chain["session_id"] == "sess_8f21" and chain["ok"] is True and chain["broken"] == []
    s22 = json.loads((FIX / "agents" / "S22.json").read_text())["events"]
    log = write(tmp_path, "ev.jsonl", "".join(json.dumps(e) + "\n" for e in s22[:3]))
    assert main(["check", "--agents", "--chain", log]) == 1
    chain = json.loads(capsys.readouterr().out)
    assert [b["event"] for b in chain["broken"]] == [2]


def test_cli_chain_needs_agents(tmp_path, capsys):
    assert main(["check", "--chain", write(tmp_path, "x.json", [CALL, OUT])]) == 2
    assert "--chain needs --agents" in capsys.readouterr().err


@pytest.mark.parametrize("exported", ["check_card", "CardCheck", "link_chain", "SessionChain", "Link"])
def test_public_names(exported):
    assert hasattr(rp.agents, exported)
    assert exported in rp.agents.__all__
