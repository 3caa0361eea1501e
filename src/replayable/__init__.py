"""replayable: typed, replay-safe Open Responses items and OpenAI Agents API session events.

Parse items with `parse_item` / `parse_items`, gate a function call before executing it with `gate`,
and check a stored transcript before replaying it with `check_transcript`. See README.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _compat  # noqa: F401  (first: pydantic 2.14's MISSING without a warning)
from ._arguments import MAX_DEPTH, ArgumentsError, SchemaError, SchemaFailure, parse_arguments
from ._codes import Severity
from ._findings import Finding
from ._notes import Note, NoteCode
from ._replay import (
    GateReason,
    GateResult,
    TranscriptReport,
    Violation,
    ViolationCode,
    check_transcript,
    check_transcript_iter,
    gate,
)
from ._validation import ModelError
from .errors import InputError, ReplayableError, ReplayError
from .items import (
    AssistantMessageParam,
    Compaction,
    CompactionParam,
    DeveloperMessageParam,
    FunctionCall,
    FunctionCallOutput,
    FunctionCallOutputParam,
    FunctionCallParam,
    InputItem,
    InputMessage,
    Item,
    ItemError,
    ItemReferenceParam,
    Message,
    NamespacedItem,
    NamespacedPart,
    OutputItem,
    Reasoning,
    ReasoningParam,
    SystemMessageParam,
    UserMessageParam,
    dump_item,
    dump_items,
    input_item_adapter,
    input_items_adapter,
    iter_items,
    output_item_adapter,
    output_items_adapter,
    parse_item,
    parse_items,
)

if TYPE_CHECKING:
    from . import agents, parts, stream
    from ._compare import Change, Difference, compare_items
    from ._interop import ReplayReport, from_chat_completions, prepare_replay, to_chat_completions, to_input
    from ._reading import Document, read_file
    from ._tool_lint import ToolFindings, check_tool
    from .request import (
        AllowedToolsParam,
        CompactRequestBody,
        CreateResponseBody,
        FunctionTool,
        FunctionToolParam,
        JsonObjectFormat,
        JsonSchemaFormatParam,
        NamespacedTool,
        NamespacedToolChoice,
        ReasoningConfigParam,
        SpecificFunctionParam,
        TextFormat,
        TextParam,
        ToolChoiceParam,
        ToolParam,
        dump_request,
        parse_compact_request,
        parse_request,
    )
    from .response import (
        CompactResource,
        OpenAIResponse,
        Response,
        Usage,
        dump_response,
        parse_compact_response,
        parse_response,
    )
    from .schema import json_schema

__version__ = "0.1.0"

# The Agents API and streaming models are many, and interop, diff, schema export, tool linting
# (`check_tool`) and the request and response bodies are not needed to parse and check items: they load
# on first use so that `import replayable` stays fast (see benchmarks/README.md for the cold import time).
_LAZY_MODULES = frozenset({"agents", "parts", "stream"})
_LAZY_NAMES = {
    "Change": "_compare",
    "Difference": "_compare",
    "compare_items": "_compare",
    "ReplayReport": "_interop",
    "from_chat_completions": "_interop",
    "prepare_replay": "_interop",
    "to_chat_completions": "_interop",
    "to_input": "_interop",
    "json_schema": "schema",
    "Document": "_reading",
    "ToolFindings": "_tool_lint",
    "check_tool": "_tool_lint",
    "read_file": "_reading",
    "AllowedToolsParam": "request",
    "CompactRequestBody": "request",
    "CreateResponseBody": "request",
    "FunctionTool": "request",
    "FunctionToolParam": "request",
    "JsonObjectFormat": "request",
    "JsonSchemaFormatParam": "request",
    "NamespacedTool": "request",
    "NamespacedToolChoice": "request",
    "ReasoningConfigParam": "request",
    "SpecificFunctionParam": "request",
    "TextFormat": "request",
    "TextParam": "request",
    "ToolChoiceParam": "request",
    "ToolParam": "request",
    "dump_request": "request",
    "parse_compact_request": "request",
    "parse_request": "request",
    "CompactResource": "response",
    "OpenAIResponse": "response",
    "Response": "response",
    "Usage": "response",
    "dump_response": "response",
    "parse_compact_response": "response",
    "parse_response": "response",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        value: Any = importlib.import_module(f".{name}", __name__)
    elif name in _LAZY_NAMES:
        value = getattr(importlib.import_module(f".{_LAZY_NAMES[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API (`__all__`, lazy names included) and the module's own dunders, not helper imports."""
    return sorted({*__all__, *_LAZY_MODULES, *_LAZY_NAMES, "__version__", "__all__", "__doc__", "__name__", "__path__"})


__all__ = [
    "AllowedToolsParam",
    "ArgumentsError",
    "AssistantMessageParam",
    "Change",
    "CompactRequestBody",
    "CompactResource",
    "Compaction",
    "CompactionParam",
    "CreateResponseBody",
    "DeveloperMessageParam",
    "Difference",
    "Document",
    "Finding",
    "FunctionCall",
    "FunctionCallOutput",
    "FunctionCallOutputParam",
    "FunctionCallParam",
    "FunctionTool",
    "FunctionToolParam",
    "GateReason",
    "GateResult",
    "InputError",
    "InputItem",
    "InputMessage",
    "Item",
    "ItemError",
    "ItemReferenceParam",
    "JsonObjectFormat",
    "JsonSchemaFormatParam",
    "MAX_DEPTH",
    "Message",
    "ModelError",
    "NamespacedItem",
    "NamespacedPart",
    "NamespacedTool",
    "NamespacedToolChoice",
    "Note",
    "NoteCode",
    "OpenAIResponse",
    "OutputItem",
    "Reasoning",
    "ReasoningConfigParam",
    "ReasoningParam",
    "ReplayError",
    "ReplayReport",
    "ReplayableError",
    "Response",
    "SchemaError",
    "SchemaFailure",
    "Severity",
    "SpecificFunctionParam",
    "SystemMessageParam",
    "TextFormat",
    "TextParam",
    "ToolChoiceParam",
    "ToolFindings",
    "ToolParam",
    "TranscriptReport",
    "Usage",
    "UserMessageParam",
    "Violation",
    "ViolationCode",
    "agents",
    "check_tool",
    "check_transcript",
    "check_transcript_iter",
    "compare_items",
    "dump_item",
    "dump_items",
    "dump_request",
    "dump_response",
    "from_chat_completions",
    "gate",
    "input_item_adapter",
    "input_items_adapter",
    "iter_items",
    "json_schema",
    "output_item_adapter",
    "output_items_adapter",
    "parse_arguments",
    "parse_compact_request",
    "parse_compact_response",
    "parse_item",
    "parse_items",
    "parse_request",
    "parse_response",
    "parts",
    "prepare_replay",
    "read_file",
    "stream",
    "to_chat_completions",
    "to_input",
]
