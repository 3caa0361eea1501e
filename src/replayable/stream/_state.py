"""Per-item state of a stream being assembled, and the tables of events that build an item's text
(used by `replayable.stream._assembler`; not public API)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ARGS_BY_EVENT",
    "ARGS_EVENTS",
    "STATUS_EVENTS",
    "TEXT_DELTA",
    "TEXT_DONE",
    "Part",
    "Slot",
    "essential_diff",
    "message_text",
    "plain_type",
    "short",
    "unsent_annotations",
]


@dataclass(slots=True)
class Part:
    """A content or summary part: its deltas, its done text, whether `content_part.done` closed it."""

    kind: Any  # the part's type when added
    chunks: list[str] = field(default_factory=list)
    got_delta: bool = False
    text_done: str | None = None
    closed: bool = False
    final: str | None = None  # the text of content_part.done

    def text(self) -> str | None:
        """The best-known text of the part, or None when nothing about it was streamed."""
        if self.final is not None:
            return self.final
        if self.text_done is not None:
            return self.text_done
        return "".join(self.chunks) if self.got_delta else None


@dataclass(slots=True)
class Slot:
    """One output item of the response: its added form, its parts, its argument deltas, and whether a
    finding made it unfit to hand out (`tainted`)."""

    index: int
    added: dict[str, Any] | None
    type: Any = None
    id: Any = None
    done: bool = False
    tainted: bool = False
    parts: dict[int, Part] = field(default_factory=dict)
    summary: dict[int, Part] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    got_args: bool = False
    args_done: str | None = None
    args_key: str = "arguments"  # the item field the argument-like deltas build (`input`, `code`)


TEXT_DELTA = {
    "response.output_text.delta": ("content", "output_text"),
    "response.refusal.delta": ("content", "refusal"),
    "response.reasoning.delta": ("content", "reasoning_text"),
    "response.reasoning_summary_text.delta": ("summary", "summary_text"),
    "response.reasoning_text.delta": ("content", "reasoning_text"),  # OpenAI's own name
}
TEXT_DONE = {
    "response.output_text.done": ("content", "output_text", "text"),
    "response.refusal.done": ("content", "refusal", "refusal"),
    "response.reasoning.done": ("content", "reasoning_text", "text"),
    "response.reasoning_summary_text.done": ("summary", "summary_text", "text"),
    "response.reasoning_text.done": ("content", "reasoning_text", "text"),  # OpenAI's own name
}
#: OpenAI's argument-like deltas: event family -> (item type, the item field they build, done event key).
ARGS_EVENTS = {
    "response.function_call_arguments": ("function_call", "arguments", "arguments"),
    "response.mcp_call_arguments": ("mcp_call", "arguments", "arguments"),
    "response.custom_tool_call_input": ("custom_tool_call", "input", "input"),
    "response.code_interpreter_call_code": ("code_interpreter_call", "code", "code"),
}
ARGS_BY_EVENT = {f"{family}.{step}": spec for family, spec in ARGS_EVENTS.items() for step in ("delta", "done")}
#: OpenAI's status events of hosted calls: event family -> the item type they belong to (None: any).
STATUS_EVENTS = {
    "response.web_search_call": "web_search_call",
    "response.file_search_call": "file_search_call",
    "response.code_interpreter_call": "code_interpreter_call",
    "response.image_generation_call": "image_generation_call",
    "response.mcp_call": "mcp_call",
    "response.mcp_list_tools": "mcp_list_tools",
    "response.compaction": "compaction",
    "response.shell_call_command": "shell_call",
    "response.shell_call_output_content": None,
}


def plain_type(t: Any) -> Any:
    """An item type without the `openai:` prefix (OpenAI's own items, in either mode)."""
    return t[7:] if isinstance(t, str) and t.startswith("openai:") else t


def short(value: Any, n: int = 60) -> str:
    """A JSON value shown in a message, cut to `n` characters."""
    s = json.dumps(value, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."


def message_text(item: Mapping[str, Any]) -> str:
    """The text of a message item's content, parts joined."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    return (
        "".join(str(p.get("text", p.get("refusal", ""))) for p in content or [] if isinstance(p, dict))
        if isinstance(content, list)
        else ""
    )


def essential_diff(mine: Mapping[str, Any], theirs: Any) -> str:
    """Compare a streamed item with the snapshot's on what replay depends on; '' when they agree."""
    if not isinstance(theirs, Mapping):
        return "the snapshot item is not an object"
    if mine.get("type") != theirs.get("type"):
        return f"type {mine.get('type')!r} vs {theirs.get('type')!r}"
    keys = ("call_id", "name", "arguments") if mine.get("type") == "function_call" else ("call_id", "name")
    for k in keys:
        if (k in mine or k in theirs) and mine.get(k) != theirs.get(k):
            return f"{k} {short(mine.get(k))} vs {short(theirs.get(k))}"
    if mine.get("type") == "message":
        if mine.get("role") != theirs.get("role"):
            return f"role {mine.get('role')!r} vs {theirs.get('role')!r}"
        a, b = message_text(mine), message_text(theirs)
        if a != b:
            return f"text {short(a)} vs {short(b)}"
    return ""


def unsent_annotations(mine: Mapping[str, Any], theirs: Any) -> str:
    """The snapshot's message annotations that the streamed item does not carry ('' when none): the
    snapshot is the stored record, so what it holds must be what the stream sent."""
    if mine.get("type") != "message" or not isinstance(theirs, Mapping):
        return ""
    parts, sent = theirs.get("content"), mine.get("content")
    if not isinstance(parts, list):
        return ""
    for j, part in enumerate(parts):
        notes = part.get("annotations") if isinstance(part, Mapping) else None
        if not isinstance(notes, list):
            continue
        streamed = sent[j] if isinstance(sent, list) and j < len(sent) and isinstance(sent[j], Mapping) else {}
        had = streamed.get("annotations")
        had = had if isinstance(had, list) else []
        had = [_without_nulls(a) for a in had]
        extra = [a for a in notes if _without_nulls(a) not in had]
        if extra:
            return f"content[{j}] carries {len(extra)} annotation(s) the stream never sent"
    return ""


def _without_nulls(value: Any) -> Any:
    """An annotation without its null keys (a dump leaves out what a wire form writes as null)."""
    return {k: v for k, v in value.items() if v is not None} if isinstance(value, Mapping) else value
