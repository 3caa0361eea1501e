"""Rules on a request body as a whole, which no single item can break: what its `tool_choice` names must be
a tool its `tools` declare, and the fields that decide how its items are read (`conversation`,
`previous_response_id`) must be what the spec says.

Each rule is `rule(ctx, item)` (`replayable._rules.state.RuleCheck`, the facts of the body: index None): it
reads the request body (`ctx.doc`, a `replayable._reading.Document` of kind `request`) and returns its
findings (item index None, a JSON Pointer into the body); registered in `replayable._rules.table.BODY_RULES`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from replayable._codes import ViolationCode
from replayable._findings import Finding
from replayable._native import OPENAI_TOOL_TYPES
from replayable._reading import conversation_id
from replayable._rules.state import Context, Facts, found
from replayable._validation import json_type

__all__ = ["continuation_read", "foreign_tools", "profile_body", "tool_choice_declared", "tool_key"]

#: A hosted tool's dated or preview spelling (`web_search_preview_2025_03_11`, `computer_use_preview`) is the
#: same tool as its plain one for matching a choice to a declaration (OpenAPI `ToolChoiceTypes`, `WebSearchTool`).
_DATED = re.compile(r"_\d{4}_\d{2}_\d{2}$")
_FAMILY = {"web_search_preview": "web_search", "computer_use_preview": "computer", "computer_use": "computer"}


def _hosted(t: str) -> str:
    t = _DATED.sub("", t)
    return _FAMILY.get(t, t)


#: The hosted tools a choice can name (OpenAI's tool types, by family): a choice of any other type is not
#: judged here (the body's schema refuses it: `body_invalid`).
_HOSTED = frozenset(_hosted(t) for t in OPENAI_TOOL_TYPES) - {"function", "custom", "mcp", "namespace"}


def tool_key(tool: Any) -> tuple[str, str] | None:
    """What identifies a declared tool, or the tool a choice names: `("function", name)`, `("custom", name)`,
    `("mcp", server_label)`, or `(type, "")` for a hosted tool (known by its type alone: OpenAPI
    `ToolChoiceTypes`, `ToolChoiceAllowed.tools`); None when it has no readable type, or a type that is no
    tool OpenAI hosts."""
    if not isinstance(tool, Mapping):
        return None
    t = tool.get("type")
    if not isinstance(t, str):
        return None
    if t in ("function", "custom"):
        name = tool.get("name")
        nested = tool.get("function")
        if name is None and isinstance(nested, Mapping):  # a Chat Completions shape {type, function: {name}}
            name = nested.get("name")
        return (t, name) if isinstance(name, str) else None
    if t == "mcp":
        label = tool.get("server_label")
        return ("mcp", label) if isinstance(label, str) else None
    hosted = _hosted(t)
    return (hosted, "") if hosted in _HOSTED else None


def _declared(tools: list[Any]) -> set[tuple[str, str]]:
    keys: set[tuple[str, str]] = set()
    for tool in tools:
        key = tool_key(tool)
        if key is not None:
            keys.add(key)
        if isinstance(tool, Mapping) and tool.get("type") == "namespace" and isinstance(tool.get("tools"), list):
            keys.update(k for k in map(tool_key, tool["tools"]) if k is not None)  # OpenAPI NamespaceToolParam
    return keys


def _shown(key: tuple[str, str]) -> str:
    kind, name = key
    if kind in ("function", "custom"):
        return f"{kind} {name!r}"
    if kind == "mcp":
        return f"the MCP server {name!r}"
    return f"the hosted tool {kind!r}"


def _hint(key: tuple[str, str], declared: set[tuple[str, str]]) -> str:
    kind, name = key
    if kind in ("function", "custom") and (_hosted(name), "") in declared:
        return f" (a hosted tool is named by its type: {{type: {_hosted(name)!r}}})"
    return ""


def foreign_tools(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`foreign_extension_item` (variant `tool`, with a target): a tool of the request body that belongs to a
    provider other than the target: a `slug:name` tool of another slug, or OpenAI's own un-prefixed hosted
    tool (`web_search`, `mcp`, ...) in a body read as OpenAI's. A provider's tool is no more portable than its
    items."""
    body, target = ctx.doc, ctx.target
    if body is None or target is None or not body.tool_list:
        return ()
    openai = body.provider == "openai" or body.read_with == "openai"
    out: list[Finding] = []
    for n, tool in enumerate(body.tool_list):
        t = tool.get("type") if isinstance(tool, Mapping) else None
        if not isinstance(t, str) or t in ("function", "allowed_tools"):
            continue
        slug = t.split(":", 1)[0] if ":" in t else ("openai" if openai and t in OPENAI_TOOL_TYPES else None)
        if slug is not None and slug != target:
            out.append(found(None, ViolationCode.FOREIGN_EXTENSION_ITEM, f"/tools/{n}", type=t, slug=slug,
                             target=target, variant="tool"))  # fmt: skip
    return out


def tool_choice_declared(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`tool_choice_not_declared`: a `tool_choice` naming a function, custom, MCP or hosted tool, or an
    `allowed_tools` entry, that matches no tool of the body's `tools` (a function or custom tool by name, an
    MCP server by `server_label`, a hosted tool by type). Not judged when the body uses a stored `prompt`
    (its tools are the prompt's). Source: OpenAI's 400 "Tool choice 'web_search' not found in 'tools'
    parameter." (vercel/ai#18997, case R68); OpenAPI `ToolChoiceAllowed.tools`, `ToolChoiceFunction`."""
    body = ctx.doc
    if body is None or "prompt" in body.body_keys:
        return ()
    choice = body.choice
    if not isinstance(choice, Mapping):
        return ()  # a string option, or nothing; a choice of another JSON type is body_invalid
    declared = _declared(body.tool_list or [])
    # OpenAI's own tool types are judged when the body is read as OpenAI's: strict reading refuses them
    # already (`body_invalid`: "one of OpenAI's hosted tool types, not an Open Responses type")
    openai = body.provider == "openai" or body.read_with == "openai"
    out: list[Finding] = []
    if choice.get("type") == "allowed_tools":
        entries = choice.get("tools")
        if not isinstance(entries, list):
            return ()
        for j, entry in enumerate(entries):
            key = tool_key(entry)
            if key is not None and key not in declared and (openai or key[0] == "function"):
                out.append(found(
                    None, ViolationCode.TOOL_CHOICE_NOT_DECLARED, f"/tool_choice/tools/{j}",
                    where=f"tool_choice.allowed_tools entry {j}", what=_shown(key), hint=_hint(key, declared),
                ))  # fmt: skip
        return out
    key = tool_key(choice)
    if key is None or key[0] == "programmatic_tool_calling":
        return ()  # programmatic tool calling is a mode, not a declared tool
    if key not in declared and (openai or key[0] == "function"):
        out.append(found(
            None, ViolationCode.TOOL_CHOICE_NOT_DECLARED, "/tool_choice", where="tool_choice", what=_shown(key),
            hint=_hint(key, declared),
        ))  # fmt: skip
    return out


def continuation_read(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`body_invalid`: a `conversation` or `previous_response_id` that is not what the spec says, which would
    otherwise decide how the items are read (every unanswered output "external") or be silently ignored:
    `previous_response_id` a non-empty string (a string of another type is refused by the body's schema
    already), `conversation` a non-empty id or `{id}` with one (OpenAPI `CreateResponse.conversation`,
    `ConversationParam`; `true`, `1`, `["x"]`, `""`, `{"id": 5}` are refused)."""
    body = ctx.doc
    if body is None:
        return ()
    out: list[Finding] = []
    settings = body.settings or {}
    if settings.get("previous_response_id") == "":
        out.append(found(
            None, ViolationCode.BODY_INVALID, "/previous_response_id", field="previous_response_id",
            msg="an empty id names no response (leave the key out)", rule="string_too_short",
        ))  # fmt: skip
    if "conversation" in settings:
        value = settings["conversation"]
        if value is not None and conversation_id(value) is None:
            shown = json_type(value) or type(value).__name__
            if isinstance(value, Mapping):
                shown = f"{{id: {json_type(value.get('id')) or 'absent'}}}"
            where = "/conversation/id" if isinstance(value, Mapping) else "/conversation"
            out.append(found(
                None, ViolationCode.BODY_INVALID, where, field=where[1:].replace("/", "."),
                msg=f"must be a conversation id (a non-empty string) or {{id: <string>}}, got {shown}"
                f"{' ' + repr(value)[:40] if isinstance(value, str | int | bool) else ''} [OpenAPI ConversationParam]",
                rule="conversation_type",
            ))  # fmt: skip
    return out


def profile_body(ctx: Context, item: Facts) -> Iterable[Finding]:
    """What the target's profile refuses in the request body's own keys (`replayable._profiles`: a key it
    does not accept, an `include` value it does not define, keys it refuses together)."""
    return () if ctx.profile is None else ctx.profile.body()
