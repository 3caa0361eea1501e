"""The one reader: whatever a caller passes, read once into a typed `Document`.

`read_document` (`document.py`) reads values, text, models and SDK objects; `read_file` (`files.py`)
reads a file or standard input (SSE, JSONL, one JSON document; size and depth limits) and hands its
value to `read_document`. Every public function and the command line read their input here.
"""

from __future__ import annotations

from replayable._reading.document import (
    HOSTED_TOOL_TYPES,
    Document,
    DocumentKind,
    allowed_from_tool_choice,
    chat_envelope,
    conversation_id,
    first_value_kind,
    function_tools,
    is_event_list,
    is_rollout_line,
    looks_like_tools,
    read_document,
    read_previous,
    read_text,
    read_value,
    rollout_document,
)
from replayable._reading.files import DEFAULT_MAX_BYTES, InputError, display_name, looks_like_sse, read_file

__all__ = [
    "DEFAULT_MAX_BYTES",
    "HOSTED_TOOL_TYPES",
    "Document",
    "DocumentKind",
    "InputError",
    "allowed_from_tool_choice",
    "conversation_id",
    "chat_envelope",
    "display_name",
    "first_value_kind",
    "function_tools",
    "is_event_list",
    "is_rollout_line",
    "looks_like_sse",
    "looks_like_tools",
    "read_document",
    "read_file",
    "read_previous",
    "read_text",
    "read_value",
    "rollout_document",
]
