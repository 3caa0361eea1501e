"""OpenAI's own streaming events (the ones outside the Open Responses spec) as typed extension events.

OpenAI's Responses API streams events the spec does not define (`response.mcp_call_arguments.delta`,
`response.web_search_call.searching`, ...). Under the spec's extension rules they are `openai:`
extension events: `openai:response.mcp_call_arguments.delta`. Each has a model generated from
`schemas/openai/` (written from OpenAI's OpenAPI document 2.3.0 and `openai.types.responses` 3.57), a
subclass of `ExtensionEvent`: `ExtensionEvent` reads a known OpenAI type with its model (a malformed
one is an error, never an opaque fallback), in OpenAI mode (`provider="openai"`) from the un-prefixed
name OpenAI sends, dumped back un-prefixed. Unknown `slug:name` types stay generic `ExtensionEvent`s.

OpenAI's flat `error` event (`{"type": "error", "code", "message", "param", "sequence_number"}`) shares its
type with the spec's `error` event (which nests them in an `error` object): in OpenAI mode an `error` event
without an `error` object is `ResponseErrorEvent` (`openai:error`, dumped back as `error`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from replayable._generated.openai.response_audio_delta_event import ResponseAudioDeltaEvent
from replayable._generated.openai.response_audio_done_event import ResponseAudioDoneEvent
from replayable._generated.openai.response_audio_transcript_delta_event import ResponseAudioTranscriptDeltaEvent
from replayable._generated.openai.response_audio_transcript_done_event import ResponseAudioTranscriptDoneEvent
from replayable._generated.openai.response_code_interpreter_call_code_delta_event import (
    ResponseCodeInterpreterCallCodeDeltaEvent,
)
from replayable._generated.openai.response_code_interpreter_call_code_done_event import (
    ResponseCodeInterpreterCallCodeDoneEvent,
)
from replayable._generated.openai.response_code_interpreter_call_completed_event import (
    ResponseCodeInterpreterCallCompletedEvent,
)
from replayable._generated.openai.response_code_interpreter_call_in_progress_event import (
    ResponseCodeInterpreterCallInProgressEvent,
)
from replayable._generated.openai.response_code_interpreter_call_interpreting_event import (
    ResponseCodeInterpreterCallInterpretingEvent,
)
from replayable._generated.openai.response_compaction_compacting_event import ResponseCompactionCompactingEvent
from replayable._generated.openai.response_custom_tool_call_input_delta_event import (
    ResponseCustomToolCallInputDeltaEvent,
)
from replayable._generated.openai.response_custom_tool_call_input_done_event import ResponseCustomToolCallInputDoneEvent
from replayable._generated.openai.response_error_event import ResponseErrorEvent
from replayable._generated.openai.response_file_search_call_completed_event import ResponseFileSearchCallCompletedEvent
from replayable._generated.openai.response_file_search_call_in_progress_event import (
    ResponseFileSearchCallInProgressEvent,
)
from replayable._generated.openai.response_file_search_call_searching_event import ResponseFileSearchCallSearchingEvent
from replayable._generated.openai.response_image_gen_call_completed_event import ResponseImageGenCallCompletedEvent
from replayable._generated.openai.response_image_gen_call_generating_event import ResponseImageGenCallGeneratingEvent
from replayable._generated.openai.response_image_gen_call_in_progress_event import ResponseImageGenCallInProgressEvent
from replayable._generated.openai.response_image_gen_call_partial_image_event import (
    ResponseImageGenCallPartialImageEvent,
)
from replayable._generated.openai.response_mcp_call_arguments_delta_event import ResponseMcpCallArgumentsDeltaEvent
from replayable._generated.openai.response_mcp_call_arguments_done_event import ResponseMcpCallArgumentsDoneEvent
from replayable._generated.openai.response_mcp_call_completed_event import ResponseMcpCallCompletedEvent
from replayable._generated.openai.response_mcp_call_failed_event import ResponseMcpCallFailedEvent
from replayable._generated.openai.response_mcp_call_in_progress_event import ResponseMcpCallInProgressEvent
from replayable._generated.openai.response_mcp_list_tools_completed_event import ResponseMcpListToolsCompletedEvent
from replayable._generated.openai.response_mcp_list_tools_failed_event import ResponseMcpListToolsFailedEvent
from replayable._generated.openai.response_mcp_list_tools_in_progress_event import ResponseMcpListToolsInProgressEvent
from replayable._generated.openai.response_reasoning_text_delta_event import ResponseReasoningTextDeltaEvent
from replayable._generated.openai.response_reasoning_text_done_event import ResponseReasoningTextDoneEvent
from replayable._generated.openai.response_shell_call_command_added_event import ResponseShellCallCommandAddedEvent
from replayable._generated.openai.response_shell_call_command_delta_event import ResponseShellCallCommandDeltaEvent
from replayable._generated.openai.response_shell_call_command_done_event import ResponseShellCallCommandDoneEvent
from replayable._generated.openai.response_shell_call_output_content_delta_event import (
    ResponseShellCallOutputContentDeltaEvent,
)
from replayable._generated.openai.response_shell_call_output_content_done_event import (
    ResponseShellCallOutputContentDoneEvent,
)
from replayable._generated.openai.response_web_search_call_completed_event import ResponseWebSearchCallCompletedEvent
from replayable._generated.openai.response_web_search_call_in_progress_event import ResponseWebSearchCallInProgressEvent
from replayable._generated.openai.response_web_search_call_searching_event import ResponseWebSearchCallSearchingEvent
from replayable._generated.streaming.extension_event import ExtensionEvent

__all__ = [
    "OPENAI_EVENT_TYPES",
    "ResponseAudioDeltaEvent",
    "ResponseAudioDoneEvent",
    "ResponseAudioTranscriptDeltaEvent",
    "ResponseAudioTranscriptDoneEvent",
    "ResponseCodeInterpreterCallCodeDeltaEvent",
    "ResponseCodeInterpreterCallCodeDoneEvent",
    "ResponseCodeInterpreterCallCompletedEvent",
    "ResponseCodeInterpreterCallInProgressEvent",
    "ResponseCodeInterpreterCallInterpretingEvent",
    "ResponseCompactionCompactingEvent",
    "ResponseCustomToolCallInputDeltaEvent",
    "ResponseCustomToolCallInputDoneEvent",
    "ResponseErrorEvent",
    "ResponseFileSearchCallCompletedEvent",
    "ResponseFileSearchCallInProgressEvent",
    "ResponseFileSearchCallSearchingEvent",
    "ResponseImageGenCallCompletedEvent",
    "ResponseImageGenCallGeneratingEvent",
    "ResponseImageGenCallInProgressEvent",
    "ResponseImageGenCallPartialImageEvent",
    "ResponseMcpCallArgumentsDeltaEvent",
    "ResponseMcpCallArgumentsDoneEvent",
    "ResponseMcpCallCompletedEvent",
    "ResponseMcpCallFailedEvent",
    "ResponseMcpCallInProgressEvent",
    "ResponseMcpListToolsCompletedEvent",
    "ResponseMcpListToolsFailedEvent",
    "ResponseMcpListToolsInProgressEvent",
    "ResponseReasoningTextDeltaEvent",
    "ResponseReasoningTextDoneEvent",
    "ResponseShellCallCommandAddedEvent",
    "ResponseShellCallCommandDeltaEvent",
    "ResponseShellCallCommandDoneEvent",
    "ResponseShellCallOutputContentDeltaEvent",
    "ResponseShellCallOutputContentDoneEvent",
    "ResponseWebSearchCallCompletedEvent",
    "ResponseWebSearchCallInProgressEvent",
    "ResponseWebSearchCallSearchingEvent",
    "native_event_name",
]

_MODELS: tuple[type[ExtensionEvent], ...] = (
    ResponseAudioDeltaEvent,
    ResponseAudioDoneEvent,
    ResponseAudioTranscriptDeltaEvent,
    ResponseAudioTranscriptDoneEvent,
    ResponseCodeInterpreterCallCodeDeltaEvent,
    ResponseCodeInterpreterCallCodeDoneEvent,
    ResponseCodeInterpreterCallCompletedEvent,
    ResponseCodeInterpreterCallInProgressEvent,
    ResponseCodeInterpreterCallInterpretingEvent,
    ResponseCompactionCompactingEvent,
    ResponseCustomToolCallInputDeltaEvent,
    ResponseCustomToolCallInputDoneEvent,
    ResponseErrorEvent,
    ResponseFileSearchCallCompletedEvent,
    ResponseFileSearchCallInProgressEvent,
    ResponseFileSearchCallSearchingEvent,
    ResponseImageGenCallCompletedEvent,
    ResponseImageGenCallGeneratingEvent,
    ResponseImageGenCallInProgressEvent,
    ResponseImageGenCallPartialImageEvent,
    ResponseMcpCallArgumentsDeltaEvent,
    ResponseMcpCallArgumentsDoneEvent,
    ResponseMcpCallCompletedEvent,
    ResponseMcpCallFailedEvent,
    ResponseMcpCallInProgressEvent,
    ResponseMcpListToolsCompletedEvent,
    ResponseMcpListToolsFailedEvent,
    ResponseMcpListToolsInProgressEvent,
    ResponseReasoningTextDeltaEvent,
    ResponseReasoningTextDoneEvent,
    ResponseShellCallCommandAddedEvent,
    ResponseShellCallCommandDeltaEvent,
    ResponseShellCallCommandDoneEvent,
    ResponseShellCallOutputContentDeltaEvent,
    ResponseShellCallOutputContentDoneEvent,
    ResponseWebSearchCallCompletedEvent,
    ResponseWebSearchCallInProgressEvent,
    ResponseWebSearchCallSearchingEvent,
)


def _tag(model: type[Any]) -> str:
    literal: Any = model.model_fields["type"].annotation
    (value,) = literal.__args__
    return str(value)


OPENAI_EVENT_TYPES: MappingProxyType[str, type[ExtensionEvent]] = MappingProxyType({_tag(m): m for m in _MODELS})
"""Namespaced event type (`openai:response.mcp_call.completed`) -> model, for OpenAI's own stream events."""

ExtensionEvent.typed_models = OPENAI_EVENT_TYPES


def native_event_name(etype: str) -> str | None:
    """The un-prefixed OpenAI name (`response.mcp_call.completed`) of a typed OpenAI event type, given
    prefixed or as OpenAI sends it; None for any other type."""
    key = etype if etype.startswith("openai:") else "openai:" + etype
    return key[7:] if key in OPENAI_EVENT_TYPES else None
