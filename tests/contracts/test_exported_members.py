"""The public face, pinned: which modules are public and exactly what each exports.

A module is public when no part of its dotted name starts with `_`. Everything else is an implementation
module: its names may change in any release, and users reach what they need through a public module"s
`__all__`. This test fails when a public module appears or disappears, when an export is added or
removed (change the table here on purpose, and say so in CHANGELOG.md), when `__all__` is not sorted,
names something that does not exist, or leaves out a class or function the module defines itself.
(httpx keeps the same kind of table in `tests/test_exported_members.py`.)
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import replayable

PACKAGE = Path(replayable.__file__).parent

#: at most this many hand-written public modules (each integration counts)
MAX_PUBLIC_MODULES = 20

EXPORTS: dict[str, list[str]] = {
    "replayable": [
        "AllowedToolsParam", "ArgumentsError", "AssistantMessageParam", "Change", "CompactRequestBody",
        "CompactResource", "Compaction", "CompactionParam", "CreateResponseBody", "DeveloperMessageParam",
        "Difference", "Document", "Finding", "FunctionCall", "FunctionCallOutput", "FunctionCallOutputParam",
        "FunctionCallParam", "FunctionTool", "FunctionToolParam", "GateReason", "GateResult", "InputError",
        "InputItem", "InputMessage", "Item", "ItemError", "ItemReferenceParam", "JsonObjectFormat",
        "JsonSchemaFormatParam", "MAX_DEPTH", "Message", "ModelError", "NamespacedItem", "NamespacedPart",
        "NamespacedTool", "NamespacedToolChoice", "Note", "NoteCode", "OpenAIResponse", "OutputItem", "Reasoning",
        "ReasoningConfigParam", "ReasoningParam", "ReplayError", "ReplayReport", "ReplayableError", "Response",
        "SchemaError", "SchemaFailure", "Severity", "SpecificFunctionParam", "SystemMessageParam", "TextFormat",
        "TextParam", "ToolChoiceParam", "ToolFindings", "ToolParam", "TranscriptReport", "Usage",
        "UserMessageParam", "Violation", "ViolationCode", "agents", "check_tool", "check_transcript",
        "check_transcript_iter", "compare_items", "dump_item", "dump_items", "dump_request", "dump_response",
        "from_chat_completions", "gate", "input_item_adapter", "input_items_adapter", "iter_items", "json_schema",
        "output_item_adapter", "output_items_adapter", "parse_arguments", "parse_compact_request",
        "parse_compact_response", "parse_item", "parse_items", "parse_request", "parse_response", "parts",
        "prepare_replay", "read_file", "stream", "to_chat_completions", "to_input",
    ],
    "replayable.agents": [
        "AgentConfigParam", "AgentMessageItem", "AgentSession", "AgentTool", "AgentsReport", "AgentsViolation",
        "AgentsViolationCode", "ArgumentCheck", "CardCheck", "CloseSubagentCallItem", "CommandExecutionItem",
        "ComputerUseApprovalRequestAction", "ComputerUseApprovalRequestItem",
        "ComputerUseApprovalRequestResultItem", "ComputerUseCallItem", "CreateSubagentCallItem", "Environment",
        "EnvironmentConnectionAction", "FunctionCallAction", "FunctionCallItem", "FunctionCallOutputItem",
        "FunctionTool", "InterruptSubagentCallItem", "Link", "LinkKind", "McpApprovalRequestAction", "McpCallItem",
        "PendingActions", "ReasoningItem", "RequiredAction", "ResumeSubagentCallItem", "SendSubagentInputCallItem",
        "SessionChain", "SessionCreateParams", "SessionEvent", "SessionEventsBody", "SessionInput",
        "SessionInputCancel", "SessionInputComputerUseApprovalRequestResult",
        "SessionInputMcpApprovalRequestResult", "SessionInputMessage", "SessionInputToolResult", "SessionItem",
        "SessionItemListPage", "SessionListPage", "SessionMessage", "SessionSnapshot", "SessionUpdateParams",
        "Subagent", "ToolResultError", "Turn", "TurnListPage", "UnknownRequiredAction", "UnknownSessionEvent",
        "UnknownSessionItem", "WaitForSubagentsCallItem", "WebSearchCallItem", "approval_problems",
        "check_arguments", "check_card", "check_event_log", "dump", "format_report", "is_unknown", "link_chain",
        "parse_create_params", "parse_event", "parse_events_body", "parse_input", "parse_required_action",
        "parse_session", "parse_session_item", "parse_session_snapshot", "parse_update_params",
        "required_action_adapter", "session_create_params_adapter", "session_event_adapter",
        "session_events_body_adapter", "session_input_adapter", "session_item_adapter",
        "session_item_list_page_adapter", "session_list_page_adapter", "session_notes", "session_of",
        "session_update_params_adapter", "turn_list_page_adapter",
    ],
    "replayable.errors": [
        "ArgumentsError", "InputError", "ItemError", "JSONError", "ModelError", "ReplayError", "ReplayableError",
        "SchemaError", "SchemaLoopError", "StreamError", "ToolResultError", "Verdict",
    ],
    "replayable.integrations": [
    ],
    "replayable.integrations.agents": [
        "CheckedSession", "FAKE_ID", "SETTLED_BY_THE_SDK", "check_tool_call", "replay_guardrail",
    ],
    "replayable.integrations.langchain": [
        "CheckpointReport", "ReplayCheckMiddleware", "audit_checkpoints", "messages_to_items",
    ],
    "replayable.integrations.litellm": [
        "ReplayGuard", "target_for",
    ],
    "replayable.integrations.openai": [
        "async_event_hooks", "check_conversation_body", "check_request_body", "event_hooks", "is_checked_request",
        "target_for_host",
    ],
    "replayable.integrations.pydantic_ai": [
        "check_history", "messages_to_items", "replay_history_processor",
    ],
    "replayable.items": [
        "AssistantMessageParam", "Compaction", "CompactionParam", "DeveloperMessageParam", "FunctionCall",
        "FunctionCallOutput", "FunctionCallOutputParam", "FunctionCallParam", "InputItem", "InputMessage", "Item",
        "ItemError", "ItemReferenceParam", "MAX_ITEM_DEPTH", "Message", "NamespacedItem", "NamespacedPart",
        "OutputItem", "Provider", "Reasoning", "ReasoningParam", "Side", "SystemMessageParam", "UserMessageParam",
        "dump_item", "dump_items", "input_item_adapter", "input_items_adapter", "iter_items", "output_item_adapter",
        "output_items_adapter", "parse_item", "parse_items",
    ],
    "replayable.parts": [
        "Annotation", "AnnotationParam", "AssistantContentParam", "FunctionOutputContent",
        "FunctionOutputContentParam", "InputFileContent", "InputFileContentParam", "InputImageContent",
        "InputImageContentParam", "InputTextContent", "InputVideoContent", "InstructionContentParam", "LogProb",
        "MessageContent", "NamespacedPart", "OutputTextContent", "OutputTextContentParam", "ReasoningContent",
        "ReasoningTextContent", "RefusalContent", "SummaryTextContent", "SummaryTextContentParam", "TextContent",
        "TopLogProb", "UrlCitation", "UrlCitationParam", "UserContentParam", "data_url_problem",
    ],
    "replayable.request": [
        "AllowedTool", "AllowedToolChoice", "AllowedToolParam", "AllowedToolsParam", "CompactRequestBody",
        "CreateResponseBody", "FunctionTool", "FunctionToolChoice", "FunctionToolParam", "Include",
        "JsonObjectFormat", "JsonSchemaFormat", "JsonSchemaFormatParam", "MAX_BODY_DEPTH", "Metadata",
        "NamespacedTool", "NamespacedToolChoice", "OpenAICreateResponseBody", "ReasoningConfig",
        "ReasoningConfigParam", "ReasoningEffort", "ReasoningSummary", "ServiceTier", "SpecificFunctionParam",
        "StreamOptions", "TextField", "TextFormat", "TextFormatField", "TextFormatParam", "TextParam", "Tool",
        "ToolChoice", "ToolChoiceParam", "ToolChoiceValue", "ToolParam", "Truncation", "Verbosity", "dump_request",
        "parse_compact_request", "parse_request",
    ],
    "replayable.response": [
        "CompactResource", "IncompleteDetails", "InputTokensDetails", "OpenAIJsonSchemaFormat",
        "OpenAIReasoningConfig", "OpenAIResponse", "OpenAITextField", "OpenAITextFormat", "OutputTokensDetails",
        "Response", "ResponseError", "Usage", "dump_response", "parse_compact_response", "parse_response",
    ],
    "replayable.schema": [
        "AGENTS_RULES", "AGENTS_SIDES", "BODY_SIDES", "CROSS_ITEM_RULES", "NAMESPACED_PATTERN", "SIDES",
        "STREAM_RULES", "bundle", "json_schema", "sides", "source_root",
    ],
    "replayable.stream": [
        "ErrorEvent", "ErrorPayload", "ExtensionEvent", "OPENAI_EVENT_TYPES", "OpenAIResponseCompletedEvent",
        "OpenAIResponseCreatedEvent", "OpenAIResponseFailedEvent", "OpenAIResponseInProgressEvent",
        "OpenAIResponseIncompleteEvent", "OpenAIResponseQueuedEvent", "ResponseCompletedEvent",
        "ResponseContentPartAddedEvent", "ResponseContentPartDoneEvent", "ResponseCreatedEvent",
        "ResponseFailedEvent", "ResponseFunctionCallArgumentsDeltaEvent", "ResponseFunctionCallArgumentsDoneEvent",
        "ResponseInProgressEvent", "ResponseIncompleteEvent", "ResponseOutputItemAddedEvent",
        "ResponseOutputItemDoneEvent", "ResponseOutputTextAnnotationAddedEvent", "ResponseOutputTextDeltaEvent",
        "ResponseOutputTextDoneEvent", "ResponseQueuedEvent", "ResponseReasoningDeltaEvent",
        "ResponseReasoningDoneEvent", "ResponseReasoningSummaryPartAddedEvent",
        "ResponseReasoningSummaryPartDoneEvent", "ResponseReasoningSummaryTextDeltaEvent",
        "ResponseReasoningSummaryTextDoneEvent", "ResponseRefusalDeltaEvent", "ResponseRefusalDoneEvent",
        "ResponseResource", "SPEC_EVENT_TYPES", "SpecStreamEvent", "StreamAssembler", "StreamError", "StreamEvent",
        "StreamReport", "StreamRule", "StreamWarning", "TERMINAL_EVENT_TYPES", "check_stream", "event_model",
        "is_event_list", "parse_event", "parse_sse", "response_resource_adapter", "stream_event_adapter",
    ],
    "replayable.testing": [
        "assert_replay_safe",
    ],
    "replayable.websocket": [
        "DISALLOWED_FIELDS", "OPENAI_WEBSOCKET_TYPES", "OpenAIWebSocketErrorEvent", "OpenAIWebSocketErrorPayload",
        "OpenAIWebSocketEvent", "OpenAIWebSocketRequiredInput", "OpenAIWebSocketResponseCreateEvent",
        "OpenAIWebSocketSteer", "OpenAIWebSocketSteerAcceptedEvent", "OpenAIWebSocketSteerEvent",
        "OpenAIWebSocketSteerFailedEvent", "OpenAIWebSocketSteerFailedSteer", "OpenAIWebSocketSteerFailure",
        "OpenAIWebSocketSteerPendingEvent", "WebSocketErrorEvent", "WebSocketErrorPayload", "WebSocketEvent",
        "WebSocketResponseCreateEvent", "parse_websocket_event",
    ],
}


def public_modules() -> list[str]:
    """Every hand-written module whose dotted name has no part starting with `_` (`__main__` is the CLI"s
    `python -m` door, not an import)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            found.append(".".join(parts))
    return found


def test_the_public_modules_are_the_pinned_ones() -> None:
    assert sorted(public_modules()) == sorted(EXPORTS)
    assert len(EXPORTS) <= MAX_PUBLIC_MODULES


@pytest.mark.parametrize("module", sorted(EXPORTS))
def test_a_public_module_exports_exactly_its_pinned_names(module: str) -> None:
    mod = importlib.import_module(module)
    exported = list(getattr(mod, "__all__", []))
    assert exported == sorted(exported), f"{module}.__all__ is not sorted"
    assert exported == EXPORTS[module]
    for name in exported:
        assert getattr(mod, name, None) is not None, f"{module}.__all__ names {name!r}, which it does not have"


@pytest.mark.parametrize("module", sorted(EXPORTS))
def test_what_a_public_module_defines_is_exported_or_private(module: str) -> None:
    """A class or function defined in a public module is in its `__all__` or has a `_` name: a helper that
    other modules import lives in an implementation module."""
    mod = importlib.import_module(module)
    own = sorted(
        name
        for name, value in vars(mod).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module and callable(value)
    )
    assert [name for name in own if name not in mod.__all__] == []


def test_the_package_dir_is_its_face() -> None:
    """`dir(replayable)` lists the public API (lazy names included) and the module"s dunders, nothing else."""
    public = [name for name in dir(replayable) if not name.startswith("_")]
    assert public == sorted(replayable.__all__)
