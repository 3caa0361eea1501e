"""replayable: typed, replay-safe Open Responses items and OpenAI Agents API session events.

Parse items with `parse_item` / `parse_items`, gate a function call before executing it with `gate`,
and check a stored transcript before replaying it with `check_transcript`. See README.md.
"""

from __future__ import annotations

from . import agents, stream
from .arguments import MAX_DEPTH, ArgumentsError, SchemaError, SchemaFailure, parse_arguments
from .compare import Change, Difference, compare_items
from .interop import ReplayReport, from_chat_completions, prepare_replay, to_chat_completions, to_input
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
from .replay import (
    GateReason,
    GateResult,
    TranscriptReport,
    Violation,
    ViolationCode,
    check_tool,
    check_transcript,
    gate,
)
from .schema import json_schema

__version__ = "0.1.0"
