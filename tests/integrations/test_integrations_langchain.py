"""`replayable.integrations.langchain` against the real langchain 1.5 / langchain-core / langgraph: the
message mapper (every output_version, invalid_tool_calls kept), `ReplayCheckMiddleware` in a real
`create_agent` agent driven by langchain-core's fake chat model (sync and async), and
`audit_checkpoints` over langgraph's `InMemorySaver`."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

pytest.importorskip("langchain")

from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel  # noqa: E402
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    convert_to_openai_messages,
)
from langchain_core.outputs import ChatResult  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402

import replayable as rp  # noqa: E402
from replayable.integrations.langchain import ReplayCheckMiddleware, audit_checkpoints, messages_to_items  # noqa: E402


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


class Model(FakeMessagesListChatModel):
    """langchain-core's fake chat model, keeping the messages of every call it gets."""

    seen: list[list[BaseMessage]] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        type(self).seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def model(*replies: AIMessage) -> Model:
    Model.seen = []
    return Model(responses=list(replies) or [AIMessage(content="ok")])


def call(call_id: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "add", "args": args or {"a": 1, "b": 2}, "id": call_id,
                                              "type": "tool_call"}])


INVALID = AIMessage(content="", invalid_tool_calls=[{"name": "add", "args": '{"a": 1, "b":', "id": "c2",
                                                     "error": "bad JSON", "type": "invalid_tool_call"}])
#: Histories create_agent sends to the model unchecked: a call interrupted, then a new question; a tool
#: message whose call was trimmed away; a tool answered twice.
BAD = {
    "interrupted": [HumanMessage("1+2?"), call("c1"), HumanMessage("never mind, 2+2?")],
    "orphan": [HumanMessage("1+2?"), ToolMessage("3", tool_call_id="c1"), HumanMessage("and 2+2?")],
    "answered_twice": [HumanMessage("1+2?"), call("c1"), ToolMessage("3", tool_call_id="c1"),
                       ToolMessage("3", tool_call_id="c1")],
}


def test_invalid_tool_calls_are_kept() -> None:
    history = [HumanMessage("1+2?"), INVALID, ToolMessage("Error: bad JSON", tool_call_id="c2", status="error")]
    items = messages_to_items(history)
    assert items[1] == {"type": "function_call", "name": "add", "arguments": '{"a": 1, "b":', "call_id": "c2"}
    assert items[2] == {"type": "function_call_output", "call_id": "c2", "output": "Error: bad JSON"}
    # langchain-core's own converter drops the invalid call: its tool message answers nothing
    converted = convert_to_openai_messages(history)
    assert not any(m.get("tool_calls") for m in converted)
    report = rp.check_transcript(items)
    assert "output_without_function_call" not in {str(v.code) for v in report.violations}


def test_every_output_version() -> None:
    v0 = AIMessage(content="Sum:", tool_calls=[{"name": "add", "args": {"a": 1}, "id": "c1", "type": "tool_call"}])
    responses_v1 = AIMessage(
        content=[{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "adding"}]},
                 {"type": "text", "text": "Sum:", "annotations": []},
                 {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a":1}'}],
        tool_calls=[{"name": "add", "args": {"a": 1}, "id": "c1", "type": "tool_call"}],
        response_metadata={"output_version": "responses/v1", "model_provider": "openai"},
    )
    v1 = AIMessage(content=[{"type": "reasoning", "reasoning": "adding"}, {"type": "text", "text": "Sum:"},
                            {"type": "tool_call", "id": "c1", "name": "add", "args": {"a": 1}}], output_version="v1")
    call_item = {"type": "function_call", "name": "add", "arguments": '{"a":1}', "call_id": "c1"}
    text = {"type": "message", "role": "assistant", "content": "Sum:"}
    reasoning = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "adding"}]}
    assert messages_to_items([v0]) == [text, call_item]
    assert messages_to_items([responses_v1]) == [reasoning, text, call_item]
    assert messages_to_items([v1]) == [reasoning, text, call_item]
    human = HumanMessage(content=[{"type": "text", "text": "what is this?"},
                                  {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}])
    [item] = messages_to_items([SystemMessage("be brief"), human])[1:]
    assert item["content"][1] == {"type": "input_image", "image_url": "https://example.com/a.png", "detail": "auto"}


def test_nothing_is_dropped_silently() -> None:
    with pytest.raises(rp.ItemError, match="message 1"):
        messages_to_items([HumanMessage("hi"), RemoveMessage(id="x")])
    server_tool = AIMessage(content=[{"type": "server_tool_call", "id": "ws_1", "name": "web_search", "args": {}}],
                            output_version="v1")
    with pytest.raises(rp.ItemError, match="server_tool_call"):
        messages_to_items([server_tool])


@pytest.mark.parametrize("name", sorted(BAD))
def test_raise_refuses_before_the_model_is_called(name: str) -> None:
    agent = create_agent(model(), [add], middleware=[ReplayCheckMiddleware()])
    with pytest.raises(rp.ReplayError, match="not replay-safe"):
        agent.invoke({"messages": BAD[name]})
    assert Model.seen == []
    with pytest.raises(rp.ReplayError):
        asyncio.run(create_agent(model(), [add], middleware=[ReplayCheckMiddleware()]).ainvoke({"messages": BAD[name]}))


def test_without_the_middleware_create_agent_sends_them() -> None:
    for history in BAD.values():
        create_agent(model(), [add]).invoke({"messages": history})
        assert Model.seen, "the model is called with the bad history"


def test_a_whole_run_passes_unchanged() -> None:
    agent = create_agent(model(call("c1"), AIMessage(content="3")), [add], middleware=[ReplayCheckMiddleware()])
    out = agent.invoke({"messages": [HumanMessage("1+2?")]})
    assert [type(m).__name__ for m in out["messages"]] == ["HumanMessage", "AIMessage", "ToolMessage", "AIMessage"]
    assert len(Model.seen) == 2 and Model.seen[1] == out["messages"][:3]


@pytest.mark.parametrize("name", sorted(BAD))
def test_repair_sends_a_replay_safe_history(name: str, caplog: pytest.LogCaptureFixture) -> None:
    agent = create_agent(model(), [add], middleware=[ReplayCheckMiddleware(mode="repair")])
    with caplog.at_level(logging.WARNING, logger="replayable"):
        asyncio.run(agent.ainvoke({"messages": BAD[name]}))
    [sent] = Model.seen
    assert rp.check_transcript(messages_to_items(sent)).ok
    assert any("repaired" in r.getMessage() for r in caplog.records)


def test_repair_answers_an_interrupted_call() -> None:
    middleware = ReplayCheckMiddleware(mode="repair", interrupted_output="The user interrupted this call.")
    create_agent(model(), [add], middleware=[middleware]).invoke({"messages": BAD["interrupted"]})
    [sent] = Model.seen
    assert isinstance(sent[2], ToolMessage) and sent[2].tool_call_id == "c1"
    assert sent[2].content == "The user interrupted this call."
    assert rp.check_transcript(messages_to_items(sent)).ok


def test_log_sends_unchanged(caplog: pytest.LogCaptureFixture) -> None:
    agent = create_agent(model(), [add], middleware=[ReplayCheckMiddleware(mode="log")])
    with caplog.at_level(logging.WARNING, logger="replayable"):
        agent.invoke({"messages": BAD["orphan"]})
    assert Model.seen[0] == BAD["orphan"]
    assert [r.replayable["code"] for r in caplog.records if r.name == "replayable"] == [  # type: ignore[attr-defined]
        "output_without_function_call"
    ]


def test_audit_names_the_first_checkpoint_that_is_not_replay_safe() -> None:
    saver = InMemorySaver()
    config: Any = {"configurable": {"thread_id": "t"}}
    agent = create_agent(model(call("c1"), AIMessage(content="3"), AIMessage(content="ok")), [add],
                         checkpointer=saver)
    agent.invoke({"messages": [HumanMessage("1+2?")]}, config)
    assert audit_checkpoints(saver, "t") is None  # pending calls mid-run are not faults
    good = len(list(saver.list(config)))
    agent.invoke({"messages": [call("c9"), HumanMessage("never mind")]}, config)  # an interrupted call
    found = audit_checkpoints(saver, "t")
    # the second run's input checkpoint still holds the first run's messages: the first bad one is after it
    assert found is not None and found.position == good + 1
    checkpoints = list(reversed(list(saver.list(config))))
    assert str(checkpoints[found.position].config["configurable"]["checkpoint_id"]) == found.checkpoint_id
    assert [str(v.code) for v in found.report.violations] == ["function_call_without_output"]
    assert found.checkpoint_id in str(found)


def test_bad_arguments_fail_early() -> None:
    with pytest.raises(ValueError):
        ReplayCheckMiddleware(mode="fix")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ReplayCheckMiddleware(target="Open AI")
