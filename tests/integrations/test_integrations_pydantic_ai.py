"""`replayable.integrations.pydantic_ai` against the real pydantic-ai: stored `ModelMessage` histories
read as items and checked, and the history processor that says what pydantic-ai repairs silently, in a
real `Agent` run on pydantic-ai's `FunctionModel` / `TestModel`."""

from __future__ import annotations

import logging
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.capabilities import ProcessHistory  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    FilePart,
    ImageUrl,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.models.test import TestModel  # noqa: E402

import replayable as rp  # noqa: E402
from replayable.integrations.pydantic_ai import check_history, messages_to_items, replay_history_processor  # noqa: E402

HISTORY: list[ModelMessage] = [
    ModelRequest(parts=[SystemPromptPart("Be brief."), UserPromptPart("1+2?")]),
    ModelResponse(parts=[ThinkingPart("adding"), ToolCallPart("add", {"a": 1, "b": 2}, tool_call_id="c1")]),
    ModelRequest(parts=[ToolReturnPart("add", 3, tool_call_id="c1")]),
    ModelResponse(parts=[TextPart("3")]),
]


def test_messages_to_items() -> None:
    assert messages_to_items(HISTORY) == [
        {"type": "message", "role": "system", "content": "Be brief."},
        {"type": "message", "role": "user", "content": "1+2?"},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "adding"}]},
        {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a":1,"b":2}'},
        {"type": "function_call_output", "call_id": "c1", "output": "3"},
        {"type": "message", "role": "assistant", "content": "3"},
    ]
    assert check_history(HISTORY).ok
    image = ModelRequest(parts=[UserPromptPart(["what is this?", ImageUrl("https://example.com/a.png")])])
    assert messages_to_items([image])[0]["content"][1] == {
        "type": "input_image", "image_url": "https://example.com/a.png", "detail": "auto"}


def test_a_stored_history_round_trips_through_json() -> None:
    stored = ModelMessagesTypeAdapter.validate_json(ModelMessagesTypeAdapter.dump_json(HISTORY))
    assert messages_to_items(stored) == messages_to_items(HISTORY)


def test_bad_stored_histories_are_found() -> None:
    dangling = [*HISTORY[:2], ModelRequest(parts=[UserPromptPart("never mind")])]
    assert [str(v.code) for v in check_history(dangling).violations] == ["function_call_without_output"]
    orphan = [HISTORY[0], *HISTORY[2:]]
    assert [str(v.code) for v in check_history(orphan).violations] == ["output_without_function_call"]
    assert check_history(HISTORY[:2], pending_ok=True).ok  # the last response's call is still to be answered


def test_nothing_is_dropped_silently() -> None:
    with pytest.raises(rp.ItemError, match="message 0, part 0"):
        messages_to_items([ModelResponse(parts=[FilePart(content=rp_binary())])])
    with pytest.raises(rp.ItemError, match="message 0"):
        messages_to_items(["not a message"])  # type: ignore[list-item]


def rp_binary() -> Any:
    from pydantic_ai.messages import BinaryContent

    return BinaryContent(data=b"%PDF", media_type="application/pdf")


def agent_with(processor: Any, seen: list[list[ModelMessage]]) -> Agent[None, str]:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        return ModelResponse(parts=[TextPart("4")])

    def keep_last_three(messages: list[ModelMessage]) -> list[ModelMessage]:
        return messages[-3:]  # a common trim: it cuts the call off from its result

    return Agent(FunctionModel(model), capabilities=[ProcessHistory(keep_last_three), ProcessHistory(processor)])


def test_the_processor_says_what_pydantic_ai_repairs_silently(caplog: pytest.LogCaptureFixture) -> None:
    seen: list[list[ModelMessage]] = []
    with caplog.at_level(logging.WARNING, logger="replayable"):
        agent_with(replay_history_processor(), seen).run_sync("and 2+2?", message_history=HISTORY)
    [record] = [r for r in caplog.records if r.name == "replayable"]
    assert record.replayable["code"] == "output_without_function_call"  # type: ignore[attr-defined]
    # pydantic-ai dropped the orphaned tool result before sending, without a word
    assert not any(isinstance(p, ToolReturnPart) for m in seen[0] for p in m.parts)


def test_the_processor_can_refuse() -> None:
    seen: list[list[ModelMessage]] = []
    with pytest.raises(rp.ReplayError, match="output_without_function_call"):
        agent_with(replay_history_processor(mode="raise"), seen).run_sync("and 2+2?", message_history=HISTORY)
    assert seen == []
    with pytest.raises(ValueError, match="mode"):
        replay_history_processor(mode="repair")  # type: ignore[arg-type]


def test_a_clean_run_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    agent = Agent(TestModel(), capabilities=[ProcessHistory(replay_history_processor(mode="raise"))])

    @agent.tool_plain
    def add(a: int, b: int) -> int:
        return a + b

    with caplog.at_level(logging.WARNING, logger="replayable"):
        result = agent.run_sync("1+2?")
    assert not [r for r in caplog.records if r.name == "replayable"]
    assert check_history(result.all_messages()).ok
    kinds = [i["type"] for i in messages_to_items(result.all_messages())]
    assert "function_call" in kinds and "function_call_output" in kinds
