"""What an integration sends or stores in `repair` and `log` mode passes the check it was asked for, and
the new surfaces read every line and every spelling (found by an attacker's review of this round).

- a repair is checked again, the body's own fields included: `allowed_tools`, `tool_choice`, a body's
  `tools`, pending calls kept as they are; a finding about the body (no index) has no repair;
- a history an integration cannot read as items is logged in `log` mode, refused otherwise, never a stray
  `ItemError` out of the app's model call;
- a Codex session file skips only real bookkeeping lines: an item that happens to carry a `payload` key is
  read and judged;
- `show --html` writes no raw control character; a `data:` URL is judged as a URL parser reads it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from agents import SQLiteSession

import replayable as rp
from replayable._cli import main
from replayable.integrations._modes import guard_items
from replayable.integrations.agents import CheckedSession
from replayable.integrations.openai import event_hooks

USER = {"type": "message", "role": "user", "content": "hi"}


def call(call_id: str, name: str) -> dict[str, Any]:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"}


def out(call_id: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "ok"}


TOOL_A = {
    "type": "function",
    "name": "a",
    "strict": True,
    "parameters": {"type": "object", "properties": {}, "additionalProperties": False, "required": []},
}


# --- a repair passes the check it was asked for ---------------------------------------------------------


def test_a_repair_that_still_breaks_allowed_tools_is_refused() -> None:
    items = [USER, call("c1", "b"), out("c1")]
    with pytest.raises(rp.ReplayError, match="tool_not_allowed"):
        guard_items(items, mode="repair", allowed_tools=["a"])
    # what repair does return passes the same check
    fixable = [USER, call("c1", "a"), out("c1"), out("c1")]
    guarded = guard_items(fixable, mode="repair", allowed_tools=["a"])
    assert guarded.items is not None and rp.check_transcript(guarded.items, allowed_tools=["a"]).ok


@pytest.mark.parametrize(
    "body, code",
    [
        ({"tools": [TOOL_A], "tool_choice": {"type": "function", "name": "zzz"}}, "tool_choice_not_declared"),
        ({"previous_response_id": "resp_1", "conversation": "conv_1"}, "body_conflict"),
        ({"bogus_key": 1}, "field_not_accepted"),
    ],
)
def test_the_sdk_hook_in_repair_mode_refuses_a_body_it_cannot_repair(body: dict[str, Any], code: str) -> None:
    sent: list[Any] = []

    def server(request: Any) -> Any:
        sent.append(json.loads(request.read()))
        return httpx2.Response(500)

    http = openai.DefaultHttpxClient(transport=httpx2.MockTransport(server), event_hooks=event_hooks(mode="repair"))
    client = openai.OpenAI(api_key="test", base_url="https://api.openai.com/v1", http_client=http, max_retries=0)
    dangling = [USER, call("c1", "a"), {"type": "message", "role": "user", "content": "never mind"}]
    with pytest.raises(rp.ReplayError, match=code):
        client.responses.create(model="gpt-5", input=dangling, extra_body=body)  # type: ignore[arg-type]
    assert sent == []


def _session(name: str, **kw: Any) -> CheckedSession:
    return CheckedSession(SQLiteSession(name), mode="repair", **kw)


@pytest.mark.parametrize(
    "kw, stored, added, code",
    [
        ({"tools": [TOOL_A]}, [USER], [call("c1", "zz")], "unknown_tool"),
        ({"allowed_tools": ["a"]}, [USER], [call("c1", "b")], "tool_not_allowed"),
        ({}, [USER, call("c1", "a"), out("c1")], [call("c1", "a")], "duplicate_call_id"),
    ],
)
def test_a_repairing_session_never_stores_a_pending_call_the_check_refuses(
    kw: dict[str, Any], stored: list[Any], added: list[Any], code: str
) -> None:
    session = _session(f"pending-{code}", **kw)
    asyncio.run(session.add_items(stored))
    with pytest.raises(rp.ReplayError, match=code):
        asyncio.run(session.add_items(added))
    assert len(asyncio.run(session.get_items())) == len(stored)
    assert asyncio.run(session.check()).ok


def test_the_litellm_guard_reads_the_bodys_tools_and_tool_choice() -> None:
    pytest.importorskip("litellm")
    from replayable.integrations.litellm import ReplayGuard

    body = {
        "model": "openai/gpt-5",
        "input": [USER, call("c1", "b"), out("c1")],
        "tools": [TOOL_A],
        "tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "a"}]},
    }
    with pytest.raises(rp.ReplayError, match="unknown_tool|tool_not_allowed"):
        ReplayGuard(mode="raise").check_request(body)
    assert ReplayGuard(mode="raise").check_request({**body, "input": [USER, call("c1", "a"), out("c1")]}) is None


# --- log mode never breaks the app's call on a history it cannot read ---------------------------------


def test_pydantic_ai_log_mode_logs_what_it_cannot_read(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai.messages import DocumentUrl, ModelRequest, UserPromptPart

    from replayable.integrations.pydantic_ai import replay_history_processor

    messages = [ModelRequest(parts=[UserPromptPart(content=["hi", DocumentUrl(url="https://x/a.pdf")])])]
    with caplog.at_level(logging.WARNING, logger="replayable"):
        assert replay_history_processor("log")(messages) is messages
    assert any("cannot be checked" in r.getMessage() for r in caplog.records)
    with pytest.raises(rp.ReplayError, match="cannot be read as items"):
        replay_history_processor("raise")(messages)


def test_langchain_log_mode_logs_what_it_cannot_read(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("langchain")
    from langchain.agents.middleware import ModelRequest
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from replayable.integrations.langchain import ReplayCheckMiddleware

    messages = [
        HumanMessage("look"),
        AIMessage("", tool_calls=[{"name": "shot", "args": {}, "id": "call_1"}]),
        ToolMessage(content=[{"type": "image", "url": "https://x/a.png"}], tool_call_id="call_1"),
    ]
    request = ModelRequest(model=None, messages=messages)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="replayable"):
        assert ReplayCheckMiddleware(mode="log")._checked(request) is request
    assert any("cannot be checked" in r.getMessage() for r in caplog.records)
    with pytest.raises(rp.ReplayError, match="cannot be read as items"):
        ReplayCheckMiddleware(mode="raise")._checked(request)


# --- every line of a Codex session file, every spelling of a data: URL --------------------------------


def test_a_rollout_item_with_a_payload_key_is_read_not_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"timestamp": "t", "type": "session_meta", "payload": {"id": "s"}},
        {"timestamp": "t", "type": "response_item", "payload": USER},
        {**call("c9", "shell"), "status": "incomplete", "payload": None},
        {"timestamp": "t", "type": "function_call", "payload": {}},  # an item's type is never bookkeeping
        {"timestamp": "t", "type": "world_state", "payload": {"anything": 1}},  # a later line type
    ]
    f = tmp_path / "rollout-x.jsonl"
    f.write_text("\n".join(json.dumps(v) for v in lines) + "\n")
    assert main(["check", str(f), "--format", "json"]) == 1
    found = {(x["line"], x["code"]) for x in json.loads(capsys.readouterr().out)["findings"]}
    assert (3, "incomplete_call_replayed") in found
    assert any(line == 4 for line, _ in found)
    assert not any(line == 5 for line, _ in found)


def test_show_html_writes_no_raw_control_character(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "esc.json"
    f.write_text(json.dumps([{"type": "message", "role": "user", "content": "\x1b]0;PWNED\x07\x1b[2J hi"}]))
    main(["show", str(f), "--html", "-"])
    page = capsys.readouterr().out
    assert "\x1b" not in page and "\x07" not in page
    assert "\\x1b]0;PWNED\\x07" in page


@pytest.mark.parametrize(
    "part",
    [
        {"type": "input_image", "image_url": " data:image/png;base64,!!!!"},
        {"type": "input_image", "image_url": "\tdata:image/png;base64,!!!!"},
        {"type": "input_file", "file_url": "data:image/png;base64,!!!!"},
        {"type": "input_file", "file_data": " data:application/pdf;base64,"},
    ],
)
def test_a_data_url_is_judged_as_a_url_parser_reads_it(part: dict[str, Any]) -> None:
    items = [{"type": "message", "role": "user", "content": [part]}]
    assert [v.code for v in rp.check_transcript(items).violations] == ["data_url_invalid"]
    parsed = rp.parse_items(json.dumps(items))
    assert [v.code for v in rp.check_transcript(parsed).violations] == ["data_url_invalid"]


# --- the library's repair is the command line's (found by a new user) ------------------------------------

EXAMPLES = Path(__file__).parent.parent.parent / "examples"


def test_repair_mode_makes_the_certain_repairs_prepare_makes() -> None:
    """`mode="repair"` repairs the bundled broken example as `replayable prepare` does (object arguments,
    a Chat Completions tool message), every index naming the item as given."""
    if not EXAMPLES.is_dir():
        pytest.skip("examples/ is not beside tests/")
    items = json.loads((EXAMPLES / "sales_report_broken.json").read_text())
    tools = json.loads((EXAMPLES / "sales_report.tools.json").read_text())
    guarded = guard_items(items, mode="repair", target="acme", tools=tools)
    assert guarded.items is not None and guarded.replay is not None
    assert rp.check_transcript(guarded.items, target="acme", tools=tools).ok
    assert all(0 <= i < len(items) for i in guarded.replay.kept)
    dropped = {i for i, _ in guarded.replay.dropped}
    assert not dropped & {i for i, _ in guarded.replay.changed}  # a dropped item is not also "changed"


def test_openai_items_go_back_to_openai_in_its_own_spelling() -> None:
    search = {"type": "openai:web_search_call", "id": "ws_1", "status": "completed",
              "action": {"type": "search", "query": "q"}}  # fmt: skip
    items = [{"role": "user", "content": "hi"}, search]
    out, rep = rp.prepare_replay(items, target="openai", provider="openai")
    assert rp.dump_item(out[1])["type"] == "web_search_call"
    assert (1, "openai:web_search_call written as OpenAI's own type 'web_search_call'") in rep.changed
    assert rp.check_transcript([rp.dump_item(i) for i in out], target="openai", provider="openai").ok
    wire = [{"type": "message", "role": "user", "content": "hi"}, {**search, "type": "web_search_call"}]
    assert rp.prepare_replay(wire, target="openai", provider="openai")[1].changed == ()  # already OpenAI's


def test_check_tool_is_a_report_like_every_other() -> None:
    loose = {"type": "function", "name": "f", "strict": True,
             "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}  # fmt: skip
    found = rp.check_tool(loose)
    assert not found.ok and found.violations == tuple(found)
    with pytest.raises(rp.ReplayError, match="tool/parameters"):
        found.raise_for_violations()
    closed = rp.check_tool(TOOL_A)
    assert closed.ok and closed.raise_for_violations() is closed


@pytest.mark.parametrize(
    "lines",
    [
        [{"type": []}],
        [{"timestamp": "t", "type": "session_meta", "payload": {}}, {"timestamp": "t", "type": "response_item", "payload": {"type": [1]}}],
        [{"timestamp": "t", "type": {"a": 1}, "payload": {}}],
    ],
)
def test_a_type_that_is_no_string_is_a_finding_in_any_jsonl(
    lines: list[Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "x.jsonl"
    f.write_text("\n".join(json.dumps(v) for v in lines) + "\n")
    assert main(["check", str(f), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["findings"]


# --- second review --------------------------------------------------------------------------------------


def test_a_spec_type_spelled_openai_stays_the_opaque_item_it_was_checked_as() -> None:
    items = [{"type": "message", "role": "user", "content": "hi"},
             {"type": "openai:function_call", "call_id": "c1", "name": "rm_rf", "arguments": "{}", "status": "completed"}]  # fmt: skip
    out, rep = rp.prepare_replay(items, target="openai", provider="openai")
    assert [rp.dump_item(i)["type"] for i in out] == ["message", "openai:function_call"]
    assert not any("written as OpenAI's own type" in what for _, what in rep.changed)


def test_repair_reads_a_generator_once_and_names_its_repairs() -> None:
    gen = (x for x in [USER, {**call("c1", "a"), "arguments": {"x": 1}}, out("c1")])
    guarded = guard_items(gen, mode="repair")
    assert guarded.items is not None and len(guarded.items) == 3
    assert guarded.replay is not None and any(i == 1 and "JSON text" in what for i, what in guarded.replay.changed)
    tools = iter([TOOL_A])
    assert guard_items([USER, call("c1", "a"), out("c1")], mode="repair", tools=tools).items is None  # safe
    with pytest.raises(ValueError, match="bogus"):
        guard_items([USER], mode="repair", bogus=1)


def test_a_repairing_session_rewrites_a_stored_history_the_certain_repairs_change() -> None:
    inner = SQLiteSession("stored-object-arguments")
    asyncio.run(inner.add_items([USER, {**call("c1", "f"), "arguments": {"path": "/"}}, out("c1")]))  # type: ignore[list-item]
    session = CheckedSession(inner, mode="repair")
    asyncio.run(session.add_items([{"type": "message", "role": "user", "content": "again"}]))
    assert asyncio.run(session.check()).ok
    stored = asyncio.run(session.get_items())
    assert isinstance(stored[1]["arguments"], str) and len(stored) == 4


def test_a_rollout_resumes_from_its_replacement_history(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Codex resumes a compacted session from the `compacted` line's `replacement_history`
    (`history.replace(replacement)`): those items are what is replayed, and what is checked."""
    lines = [
        {"timestamp": "t", "type": "response_item", "payload": {**call("c1", "f"), "status": "incomplete"}},
        {"timestamp": "t", "type": "compacted", "payload": {"message": "", "replacement_history": [
            USER, {**call("c2", "rm"), "arguments": '{"a": 1}'}]}},
        {"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": "go"}},
    ]  # fmt: skip
    f = tmp_path / "rollout-x.jsonl"
    f.write_text("\n".join(json.dumps(v) for v in lines) + "\n")
    assert main(["check", str(f), "--format", "json"]) == 1
    found = {(x["line"], x["code"]) for x in json.loads(capsys.readouterr().out)["findings"]}
    assert found == {(2, "function_call_without_output")}  # c2, placed on the compacted line; c1 was replaced
