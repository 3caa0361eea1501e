"""Modes everywhere: `mode="raise" | "repair" | "log"` on the openai SDK hooks and
`CheckedSession`, `prepare_replay(interrupted_output=...)`, and the hooks' target read from the host.
The openai SDK is the real one (its own http client classes over an httpx `MockTransport` that records
what reaches it); the session is openai-agents' real `SQLiteSession`."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx2
import openai
import pytest
from agents import SQLiteSession

import replayable as rp
from replayable.integrations._modes import guard_items
from replayable.integrations.agents import CheckedSession
from replayable.integrations.openai import async_event_hooks, event_hooks, target_for_host

USER = {"type": "message", "role": "user", "content": "What is 2+3?"}
CALL = {"type": "function_call", "call_id": "call_1", "name": "add", "arguments": '{"a": 2, "b": 3}'}
OUT = {"type": "function_call_output", "call_id": "call_1", "output": "5"}
DANGLING = [USER, CALL, {"type": "message", "role": "user", "content": "never mind"}]
RESPONSE = {
    "id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-5",
    "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "5", "annotations": []}]}],
}


class Server:
    def __init__(self) -> None:
        self.bodies: list[Any] = []

    def __call__(self, request: Any) -> Any:
        self.bodies.append(json.loads(request.read()))
        return httpx2.Response(200, json=RESPONSE)

    async def handle_async(self, request: Any) -> Any:
        return self(request)


def client(server: Server, base_url: str = "https://api.openai.com/v1", **kw: Any) -> openai.OpenAI:
    http = openai.DefaultHttpxClient(transport=httpx2.MockTransport(server), event_hooks=event_hooks(**kw))
    return openai.OpenAI(api_key="test", base_url=base_url, http_client=http, max_retries=0)


def test_raise_sends_nothing() -> None:
    server = Server()
    with pytest.raises(rp.ReplayError, match="function_call_without_output"):
        client(server).responses.create(model="gpt-5", input=DANGLING)  # type: ignore[arg-type]
    assert server.bodies == []


def test_repair_sends_the_repaired_history_and_logs_it(caplog: pytest.LogCaptureFixture) -> None:
    server = Server()
    with caplog.at_level(logging.WARNING, logger="replayable"):
        client(server, mode="repair").responses.create(model="gpt-5", input=DANGLING)  # type: ignore[arg-type]
    [sent] = server.bodies
    assert [i.get("call_id") for i in sent["input"]] == [None, None]  # the unanswered call dropped
    assert rp.check_transcript(sent).ok and sent["model"] == "gpt-5"
    assert any("item 1 dropped" in r.getMessage() for r in caplog.records)


def test_repair_with_interrupted_output_answers_the_call() -> None:
    server = Server()
    c = client(server, mode="repair", interrupted_output="Interrupted: the tool did not run.")
    c.responses.create(model="gpt-5", input=DANGLING)  # type: ignore[arg-type]
    [sent] = server.bodies
    assert sent["input"][2] == {"type": "function_call_output", "call_id": "call_1",
                                "output": "Interrupted: the tool did not run."}
    assert rp.check_transcript(sent).ok


def test_log_sends_unchanged_and_logs_each_finding(caplog: pytest.LogCaptureFixture) -> None:
    server = Server()
    with caplog.at_level(logging.WARNING, logger="replayable"):
        client(server, mode="log").responses.create(model="gpt-5", input=DANGLING)  # type: ignore[arg-type]
    assert server.bodies[0]["input"] == DANGLING
    [record] = [r for r in caplog.records if r.name == "replayable"]
    assert "function_call_without_output" in record.getMessage()
    assert record.replayable["code"] == "function_call_without_output"  # type: ignore[attr-defined]


def test_good_history_is_sent_unchanged_in_every_mode() -> None:
    for mode in ("raise", "repair", "log"):
        server = Server()
        client(server, mode=mode).responses.create(model="gpt-5", input=[USER, CALL, OUT])  # type: ignore[arg-type]
        assert server.bodies[0]["input"] == [USER, CALL, OUT]


def test_async_hooks_repair() -> None:
    server = Server()
    http = openai.DefaultAsyncHttpxClient(
        transport=httpx2.MockTransport(server.handle_async), event_hooks=async_event_hooks(mode="repair")
    )
    c = openai.AsyncOpenAI(api_key="test", http_client=http, max_retries=0)
    asyncio.run(c.responses.create(model="gpt-5", input=DANGLING))  # type: ignore[arg-type]
    assert rp.check_transcript(server.bodies[0]).ok


def test_the_target_is_read_from_the_host() -> None:
    assert target_for_host("api.openai.com") == "openai"
    assert target_for_host("my-resource.openai.azure.com") == "openai"
    assert target_for_host("my-resource.cognitiveservices.azure.com") == "openai"
    assert target_for_host("127.0.0.1") is None and target_for_host("openai.azure.com.evil.test") is None
    # openai-python#3008: a null the Responses API refuses is refused when it goes to OpenAI ...
    nulls = [{**USER, "status": None}, CALL, OUT]
    refused = rp.check_transcript(nulls, target="openai", provider="openai")
    assert not refused.ok, "the openai profile refuses these nulls"
    server = Server()
    with pytest.raises(rp.ReplayError):
        client(server).responses.create(model="gpt-5", input=nulls)  # type: ignore[arg-type]
    # ... and sent to another host, as before (no provider rules)
    client(server, base_url="http://127.0.0.1:8000/v1").responses.create(model="m", input=nulls)  # type: ignore[arg-type]
    assert len(server.bodies) == 1
    # an explicit target=None checks without provider rules wherever the request goes
    client(server, target=None).responses.create(model="gpt-5", input=nulls)  # type: ignore[arg-type]
    assert len(server.bodies) == 2


def test_bad_mode_and_target_are_refused_early() -> None:
    with pytest.raises(ValueError, match="mode must be one of"):
        event_hooks(mode="fix")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="target"):
        event_hooks(target="Open AI")
    with pytest.raises(ValueError, match="mode must be one of"):
        CheckedSession(SQLiteSession("x"), mode="silent")  # type: ignore[arg-type]


# --- prepare_replay(interrupted_output=...) ---------------------------------------------------------------


def test_interrupted_output_answers_function_and_custom_calls() -> None:
    custom = {"type": "custom_tool_call", "call_id": "call_2", "name": "apply_patch", "input": "*** Begin Patch"}
    items = [USER, CALL, custom, {"type": "message", "role": "user", "content": "stop"}]
    out, rep = rp.prepare_replay(items, target="openai", provider="openai", interrupted_output="interrupted")
    dumped = rp.dump_items(out)
    assert [d["type"] for d in dumped] == ["message", "function_call", "function_call_output", "custom_tool_call",
                                          "custom_tool_call_output", "message"]
    assert dumped[2]["output"] == dumped[4]["output"] == "interrupted"
    assert rep.kept == (0, 1, 1, 2, 2, 3) and rep.dropped == ()
    assert [c for c in rep.changed if "interrupted" in c[1]] == [
        (1, "interrupted call answered with an explicit output"),
        (2, "interrupted call answered with an explicit output"),
    ]
    assert rp.check_transcript(out, provider="openai", target="openai").ok
    # without it the calls are dropped, as before
    out, rep = rp.prepare_replay(items, target="openai", provider="openai")
    assert [i for i, _ in rep.dropped] == [1, 2]
    with pytest.raises(ValueError, match="interrupted_output must be a string"):
        rp.prepare_replay(items, target="openai", provider="openai", interrupted_output=1)  # type: ignore[arg-type]


def test_interrupted_output_keeps_a_dropped_calls_answer_out() -> None:
    tools = [{"type": "function", "name": "other", "parameters": {"type": "object"}}]
    out, rep = rp.prepare_replay([USER, CALL], target="openai", tools=tools, interrupted_output="interrupted")
    assert rp.dump_items(out) == [USER]
    assert [i for i, _ in rep.dropped] == [1]  # the call (unknown tool); the added output is not listed


# --- CheckedSession ---------------------------------------------------------------------------------------


def test_session_log_mode_stores_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    session = CheckedSession(SQLiteSession("log"), mode="log")
    with caplog.at_level(logging.WARNING, logger="replayable"):
        asyncio.run(session.add_items(DANGLING))
    assert len(asyncio.run(session.get_items())) == 3
    assert any("function_call_without_output" in r.getMessage() for r in caplog.records)


def test_session_repair_mode_stores_a_safe_history() -> None:
    session = CheckedSession(SQLiteSession("repair"), mode="repair", interrupted_output="interrupted")
    asyncio.run(session.add_items([USER, CALL]))  # a pending call: stored as it is
    asyncio.run(session.add_items([{"type": "message", "role": "user", "content": "never mind"}]))
    stored = asyncio.run(session.get_items())
    assert [i.get("type") for i in stored] == ["message", "function_call", "function_call_output", "message"]
    assert asyncio.run(session.check()).ok


def test_session_repair_adds_only_the_new_items_when_the_history_stays() -> None:
    session = CheckedSession(SQLiteSession("repair-tail"), mode="repair")
    asyncio.run(session.add_items([USER, CALL, OUT]))
    asyncio.run(session.add_items([OUT]))  # a second output for one call: dropped
    stored = asyncio.run(session.get_items())
    assert len(stored) == 3 and asyncio.run(session.check()).ok


def test_session_raise_mode_is_the_default() -> None:
    session = CheckedSession(SQLiteSession("raise"))
    with pytest.raises(rp.ReplayError):
        asyncio.run(session.add_items(DANGLING))
    assert asyncio.run(session.get_items()) == []


def test_guard_items_repair_without_a_target_keeps_ids() -> None:
    items = [{**USER, "id": "msg_1"}, CALL]
    guarded = guard_items(items, mode="repair")
    assert guarded.repaired and guarded.items == [{**USER, "id": "msg_1"}]
