"""`replayable.integrations.agents` against the real openai-agents package: a fake `Model`
(the SDK's own `agents.testing.ScriptedModel`, no network) drives real `Runner.run`s through real
`function_tool`s and a real `SQLiteSession`."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

agents = pytest.importorskip("agents", reason="openai-agents (the test extra) is not installed")

from agents import (  # noqa: E402
    Agent,
    RunConfig,
    Runner,
    SessionSettings,
    SQLiteSession,
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolInputGuardrailData,
    function_tool,
)
from agents.testing import ScriptedModel  # noqa: E402
from agents.tool_context import ToolContext  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402

import replayable as rp  # noqa: E402
from replayable.integrations.agents import FAKE_ID, CheckedSession, check_tool_call, replay_guardrail  # noqa: E402

NO_TRACING = RunConfig(tracing_disabled=True)


def chat_call(call_id: str, arguments: str, name: str = "add") -> ResponseFunctionToolCall:
    """A call as a Chat Completions-backed model gives it to the SDK: placeholder id, `status: None`."""
    return ResponseFunctionToolCall(
        id=FAKE_ID, call_id=call_id, type="function_call", name=name, arguments=arguments, status=None
    )


def chat_message(text: str) -> ResponseOutputMessage:
    part = ResponseOutputText(type="output_text", text=text, annotations=[])
    return ResponseOutputMessage(id=FAKE_ID, type="message", role="assistant", status="completed", content=[part])


class Calculator:
    """A fresh `add` tool guarded by `replay_guardrail`, recording each time it really runs."""

    def __init__(self) -> None:
        self.ran: list[tuple[int, int]] = []

        @function_tool(tool_input_guardrails=[replay_guardrail])
        def add(a: int, b: int) -> int:
            """Add two integers."""
            self.ran.append((a, b))
            return a + b

        self.tool = add


def run(agent: Agent[Any], text: str, session: Any = None) -> Any:
    return asyncio.run(Runner.run(agent, text, session=session, run_config=NO_TRACING))


def outputs_sent_back(model: ScriptedModel) -> dict[str, str]:
    """call_id -> output of the function_call_outputs the model received on its last call."""
    last = model.last_call
    assert last is not None and isinstance(last.input, list)
    return {
        i["call_id"]: i["output"] for i in last.input if isinstance(i, dict) and i.get("type") == "function_call_output"
    }


# --- the tool input guardrail ---------------------------------------------------------------------------


def test_replay_guardrail_is_the_sdks_own_guardrail_type() -> None:
    assert isinstance(replay_guardrail, ToolInputGuardrail)
    assert replay_guardrail.get_name() == "replay_guardrail"


def test_the_guardrail_rejects_what_the_sdk_would_run_and_lets_the_good_call_run() -> None:
    calc = Calculator()
    model = ScriptedModel(
        [
            [
                chat_call("dup", '{"a": 1, "a": 2, "b": 2}'),  # duplicate key: the SDK would run a=2
                chat_call("extra", '{"a": 1, "b": 2, "refund": true}'),  # extra key: the SDK would drop it
                chat_call("str", '{"a": "5", "b": 2}'),  # "5" for an integer: the SDK would run a=5
                chat_call("good", '{"a": 1, "b": 2}'),
            ],
            [chat_message("3")],
        ]
    )
    result = run(Agent(name="calc", model=model, tools=[calc.tool]), "add")
    assert result.final_output == "3"
    assert calc.ran == [(1, 2)]  # only the good call ran
    behaviours = [r.output.behavior["type"] for r in result.tool_input_guardrail_results]
    assert behaviours == ["reject_content", "reject_content", "reject_content", "allow"]
    told = outputs_sent_back(model)  # the model is told why, in each call's output
    assert "duplicate key" in told["dup"] and "arguments_parse" in told["dup"]
    assert "/refund (additionalProperties)" in told["extra"]
    assert '/a (type): "5" is not of type "integer"' in told["str"]
    assert told["good"] == "3"
    for call_id in ("dup", "extra", "str"):
        assert told[call_id].startswith("The call to 'add' was rejected before it ran")


def test_without_the_guardrail_the_sdk_runs_those_calls() -> None:
    """The baseline the guardrail exists for (if the SDK ever refuses these itself, this says so)."""
    ran: list[tuple[int, int]] = []

    @function_tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        ran.append((a, b))
        return a + b

    model = ScriptedModel(
        [[chat_call("dup", '{"a": 1, "a": 2, "b": 2}'), chat_call("str", '{"a": "5", "b": 2}')], [chat_message("ok")]]
    )
    run(Agent(name="calc", model=model, tools=[add]), "add")
    assert ran == [(2, 2), (5, 2)]


def test_an_unfinished_call_is_rejected_and_a_responses_call_passes() -> None:
    calc = Calculator()
    truncated = ResponseFunctionToolCall(
        id="fc_1", call_id="c1", type="function_call", name="add", arguments='{"a": 1, "b": 2}', status="incomplete"
    )
    finished = truncated.model_copy(update={"id": "fc_2", "call_id": "c2", "status": "completed"})
    model = ScriptedModel([[truncated, finished], [chat_message("3")]])
    run(Agent(name="calc", model=model, tools=[calc.tool]), "add")
    assert calc.ran == [(1, 2)]
    told = outputs_sent_back(model)
    assert "status" in told["c1"] and told["c2"] == "3"


def guardrail_data(agent: Agent[Any], name: str, arguments: str) -> ToolInputGuardrailData:
    ctx = ToolContext(context=None, tool_name=name, tool_call_id="c1", tool_arguments=arguments)
    return ToolInputGuardrailData(context=ctx, agent=agent)


def test_a_tool_the_agent_does_not_have_is_rejected() -> None:
    calc = Calculator()
    agent = Agent(name="calc", tools=[calc.tool])
    out = asyncio.run(replay_guardrail.run(guardrail_data(agent, "delete_everything", "{}")))
    assert isinstance(out, ToolGuardrailFunctionOutput) and out.behavior["type"] == "reject_content"
    assert "no single function tool named 'delete_everything'" in out.behavior["message"]
    ok = asyncio.run(replay_guardrail.run(guardrail_data(agent, "add", '{"a": 1, "b": 2}')))
    assert ok.behavior["type"] == "allow" and isinstance(ok.output_info, rp.GateResult) and ok.output_info.ok


def test_a_call_in_another_namespace_never_reaches_the_top_level_tool_of_its_name() -> None:
    calc = Calculator()
    agent = Agent(name="calc", tools=[calc.tool])

    def data(namespace: str | None) -> ToolInputGuardrailData:
        ctx = ToolContext(context=None, tool_name="add", tool_call_id="c1", tool_arguments='{"a": 1, "b": 2}',
                          tool_namespace=namespace)
        return ToolInputGuardrailData(context=ctx, agent=agent)

    refused = asyncio.run(replay_guardrail.run(data("admin")))  # the only `add` is a top-level tool
    assert refused.behavior["type"] == "reject_content"
    assert "no single function tool named 'add'" in refused.behavior["message"]
    for top_level in (None, "add"):  # no namespace, or OpenAI's form for a deferred top-level tool
        assert asyncio.run(replay_guardrail.run(data(top_level))).behavior["type"] == "allow"


def test_check_tool_call_reads_the_tools_own_schema() -> None:
    tool = Calculator().tool
    assert check_tool_call(tool, '{"a": 1, "b": 2}').ok
    assert check_tool_call(tool, '{"a": 1, "b": 2}', status="completed").ok
    bad = check_tool_call(tool, '{"a": 1}')
    assert bad.reason == "arguments_schema" and [(f.path, f.keyword) for f in bad.failures] == [("/b", "required")]
    assert check_tool_call(tool, '{"a": 1, "b": 2}', status="in_progress").reason == "status"
    # the tool's name plays no part (the SDK matched the call to the tool by it)
    named = type("Tool", (), {"name": "orders.lookup v2" + "x" * 80, "params_json_schema": tool.params_json_schema})
    assert check_tool_call(named, '{"a": 1, "b": 2}').ok


# --- CheckedSession ------------------------------------------------------------------------------------


def test_a_whole_run_through_a_checked_sqlite_session_raises_no_false_alarm() -> None:
    """What the SDK stores from a Chat Completions-backed model: placeholder ids on every item, calls
    without a status, a user message without `type`, rejected calls with their refusals."""
    calc = Calculator()
    session = CheckedSession(SQLiteSession("run-1"))
    model = ScriptedModel(
        [[chat_call("c1", '{"a": 1, "a": 2, "b": 2}'), chat_call("c2", '{"a": 1, "b": 2}')], [chat_message("3")]]
    )
    agent = Agent(name="calc", model=model, tools=[calc.tool])
    assert run(agent, "add 1 and 2", session).final_output == "3"
    stored = asyncio.run(session.get_items())
    assert stored[0] == {"role": "user", "content": "add 1 and 2"}  # no type: the shorthand message
    assert [i.get("id") for i in stored].count(FAKE_ID) == 3  # kept as the SDK wrote them
    assert all("status" not in i or i["status"] is None for i in stored if i.get("type") == "function_call")
    report = asyncio.run(session.check())
    assert report.ok, report.violations
    # a second turn on the same history
    model.extend([[chat_call("c3", '{"a": 3, "b": 4}')], [chat_message("7")]])
    assert run(agent, "and 3 and 4?", session).final_output == "7"
    assert calc.ran == [(1, 2), (3, 4)] and len(asyncio.run(session.get_items())) == 10


def test_the_placeholder_id_is_the_only_id_read_as_none() -> None:
    session = CheckedSession(SQLiteSession("ids"))
    user = {"role": "user", "content": "hi"}
    msg = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x", "annotations": []}]}
    asyncio.run(session.add_items([user, dict(msg, id=FAKE_ID), dict(msg, id=FAKE_ID), dict(msg, id="msg_1")]))
    with pytest.raises(rp.ReplayError) as info:
        asyncio.run(session.add_items([dict(msg, id="msg_1")]))
    assert [(v.index, v.code) for v in info.value.report.violations] == [(4, "duplicate_item_id")]


def test_an_orphaned_output_is_refused_and_nothing_is_written() -> None:
    inner = SQLiteSession("orphan")
    session = CheckedSession(inner)
    asyncio.run(session.add_items([{"role": "user", "content": "hi"}]))
    orphan = {"type": "function_call_output", "call_id": "call_404", "output": "done"}
    with pytest.raises(rp.ReplayError) as info:
        asyncio.run(session.add_items([{"role": "user", "content": "again"}, orphan]))
    report = info.value.report
    assert [(v.index, v.code) for v in report.violations] == [(2, "output_without_function_call")]
    assert "refused to store items 1-2 (after 1 stored)" in str(info.value)
    assert "item 2: output_without_function_call" in str(info.value)
    assert len(asyncio.run(inner.get_items())) == 1  # nothing of the refused batch was written


def test_pending_calls_are_allowed_and_then_answered() -> None:
    session = CheckedSession(SQLiteSession("pending"))
    call = {"type": "function_call", "call_id": "c1", "name": "add", "arguments": "{}", "id": FAKE_ID}
    asyncio.run(session.add_items([{"role": "user", "content": "hi"}, call]))
    assert asyncio.run(session.check()).pending == (1,)
    asyncio.run(session.add_items([{"type": "function_call_output", "call_id": "c1", "output": "0"}]))
    with pytest.raises(rp.ReplayError) as info:  # a second answer to the same call
        asyncio.run(session.add_items([{"type": "function_call_output", "call_id": "c1", "output": "1"}]))
    assert [v.code for v in info.value.report.violations] == ["duplicate_output"]


def test_a_row_the_sqlite_session_skips_leaves_an_orphan_that_stops_the_next_run(tmp_path: Path) -> None:
    """SQLiteSession skips a row it cannot read: the call's output is left answering nothing. The next
    run's first write is refused, and `check()` says why."""
    db = tmp_path / "history.db"
    calc = Calculator()
    model = ScriptedModel([[chat_call("c1", '{"a": 1, "b": 2}')], [chat_message("3")]])
    agent = Agent(name="calc", model=model, tools=[calc.tool])
    session = CheckedSession(SQLiteSession("user-42", db))
    run(agent, "add", session)
    with sqlite3.connect(db) as conn:  # damage the stored call, as a bad disk or a bad migration would
        rows = conn.execute("SELECT id, message_data FROM agent_messages ORDER BY id").fetchall()
        (row_id,) = [r for r, data in rows if json.loads(data).get("type") == "function_call"]
        conn.execute("UPDATE agent_messages SET message_data = ? WHERE id = ?", ("{not json", row_id))
    stored_before = asyncio.run(session.get_items())
    assert [i.get("type") for i in stored_before] == [None, "function_call_output", "message"]
    model.extend([[chat_message("hello")]])
    with pytest.raises(rp.ReplayError) as info:
        run(agent, "hi again", session)
    assert "output_without_function_call" in str(info.value)
    assert asyncio.run(session.get_items()) == stored_before
    assert [(v.index, v.code) for v in asyncio.run(session.check()).violations] == [(1, "output_without_function_call")]


def test_a_session_limit_does_not_hide_the_calls_from_the_check() -> None:
    """With `SessionSettings(limit=2)` `get_items()` returns a window that may start with an output; the
    check reads the whole history."""
    inner = SQLiteSession("window", session_settings=SessionSettings(limit=2))
    session = CheckedSession(inner)
    call = {"type": "function_call", "call_id": "c1", "name": "add", "arguments": "{}"}
    out = {"type": "function_call_output", "call_id": "c1", "output": "0"}
    asyncio.run(session.add_items([{"role": "user", "content": "hi"}, call, out]))
    assert [i["type"] for i in asyncio.run(session.get_items())] == ["function_call", "function_call_output"]
    asyncio.run(session.add_items([{"role": "user", "content": "again"}]))
    assert session.session_settings.limit == 2


def test_check_kwargs_go_to_check_transcript() -> None:
    tool = {
        "type": "function",
        "name": "add",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    }
    session = CheckedSession(SQLiteSession("kw"), tools=[tool])
    with pytest.raises(rp.ReplayError) as info:
        asyncio.run(session.add_items([{"type": "function_call", "call_id": "c1", "name": "rm_rf", "arguments": "{}"}]))
    assert [v.code for v in info.value.report.violations] == ["unknown_tool"]
    with pytest.raises(ValueError, match="provider"):
        CheckedSession(SQLiteSession("kw2"), provider="anthropic")
    with pytest.raises(TypeError, match="has no get_items"):
        CheckedSession(object())


class MemorySession:
    """A third-party session written to the protocol, opting in to the SDK's `wrapper` argument."""

    def __init__(self) -> None:
        self.session_id = "mem"
        self.items: list[Any] = []
        self.wrappers: list[Any] = []

    async def get_items(self, limit: int | None = None, wrapper: Any = None) -> list[Any]:
        self.wrappers.append(wrapper)
        return list(self.items if limit is None else self.items[-limit:])

    async def add_items(self, items: list[Any], wrapper: Any = None) -> None:
        self.wrappers.append(wrapper)
        self.items.extend(items)

    async def pop_item(self, wrapper: Any = None) -> Any:
        return self.items.pop() if self.items else None

    async def clear_session(self, wrapper: Any = None) -> None:
        self.items.clear()


def test_any_session_is_wrapped_and_the_sdks_wrapper_is_passed_on() -> None:
    from agents.memory import Session

    inner = MemorySession()
    session = CheckedSession(inner)
    assert isinstance(session, Session) and isinstance(CheckedSession(SQLiteSession("p")), Session)
    assert session.session_id == "mem"
    model = ScriptedModel([[chat_message("hello")]])
    run(Agent(name="a", model=model), "hi", session)
    assert [i.get("role") for i in inner.items] == ["user", "assistant"]
    assert any(w is not None for w in inner.wrappers)  # the SDK's run context reached the inner session
    assert asyncio.run(session.pop_item())["role"] == "assistant"
    asyncio.run(session.clear_session())
    assert inner.items == []


# --- openai-agents over the openai SDK hooks ------------------------------------------------------------


def responses_model(replies: list[list[dict[str, Any]]], sent: list[Any]) -> Any:
    """openai-agents' real Responses model on an `AsyncOpenAI` whose http client has the replayable hooks;
    a MockTransport answers with `replies` in turn and keeps each body it received in `sent`."""
    import httpx2
    import openai
    from agents import OpenAIResponsesModel

    from replayable.integrations.openai import async_event_hooks

    async def reply(request: Any) -> Any:
        sent.append(json.loads(request.content))
        output = replies[len(sent) - 1]
        usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}
        usage |= {"input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}
        body = {"id": f"resp_{len(sent)}", "object": "response", "created_at": 1, "status": "completed"}
        body |= {"model": "gpt-4o", "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
        return httpx2.Response(200, json=body | {"usage": usage})

    http = openai.DefaultAsyncHttpxClient(transport=httpx2.MockTransport(reply), event_hooks=async_event_hooks())
    client = openai.AsyncOpenAI(api_key="test", base_url="http://127.0.0.1:8000/v1", http_client=http)
    return OpenAIResponsesModel(model="gpt-4o", openai_client=client)


def responses_call(arguments: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": "add",
        "arguments": arguments,
        "status": "completed",
    }


DONE = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "3", "annotations": []}],
}


def test_an_agent_on_the_responses_model_sends_its_history_through_the_hooks() -> None:
    calc, sent = Calculator(), []
    model = responses_model([[responses_call('{"a": 1, "b": 2}')], [DONE]], sent)
    assert run(Agent(name="calc", model=model, tools=[calc.tool]), "add").final_output == "3"
    assert calc.ran == [(1, 2)] and len(sent) == 2
    assert [i.get("type") for i in sent[1]["input"]] == [None, "function_call", "function_call_output"]


def test_the_hooks_refuse_a_history_holding_arguments_that_are_not_strict_json() -> None:
    """The library's verdict on a call whose arguments are not strict JSON holds in the hooks even when
    the call was answered (here by replay_guardrail's refusal): the next request is not sent. Such
    histories are the SDK's own: CheckedSession leaves these findings out (SETTLED_BY_THE_SDK)."""
    calc, sent = Calculator(), []
    model = responses_model([[responses_call('{"a": 1, "a": 2, "b": 2}')], [DONE]], sent)
    with pytest.raises(rp.ReplayError) as info:
        run(Agent(name="calc", model=model, tools=[calc.tool]), "add")
    assert [(v.index, v.code) for v in info.value.report.violations] == [(1, "arguments_parse")]
    assert calc.ran == [] and len(sent) == 1
