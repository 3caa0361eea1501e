"""Notes: advice about a tool or a session that is not a violation (nothing is refused for it).

- `unconstrained_identifier` (`identifier_notes`, reported by `replayable.check_tool` in `.notes`): a
  string property that looks like an identifier, code or status (`order_id`, `country_code`, `status`,
  `sku`, ...) and carries neither `pattern`, `enum`, `const` nor `format`. The three-doors article: "a bare
  string lets `1042` through"; constrain identifiers and statuses so that the schema door can refuse a
  malformed one.
- `subagents_without_function_tools` (`multi_agent_notes`, reported by `replayable.agents`): a session
  (or create / update body) whose agent enables `multi_agent` and has function tools. Subagents do not get
  the parent's function tools (the doors and IDs articles): a subagent cannot call them, so work that
  needs one must stay with the parent.
- `unconstrained_identifier`, variant `amount`: a money `amount` with no enum, format, pattern or bound
  ("amounts and statuses want an enum or an explicit format").
- `deferred_without_tool_search` (`deferred_tool_notes`, in `agent_notes`): a deferred function tool with no
  `tool_search` tool to load it (the doors article: both are needed).
- `text_format_not_applied` (`agent_notes`): a Responses-style `agent.text.format` on an Agents session,
  which the session does not apply.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from replayable._codes import NoteCode
from replayable._findings import Finding

from ._pointers import pointer_token

__all__ = ["Note", "NoteCode", "agent_notes", "deferred_tool_notes", "identifier_notes", "multi_agent_notes"]


class Note(Finding):
    """One note, a `Finding` of severity `note`: a stable `code` (`NoteCode`), its `message`, `path` (a JSON
    Pointer into the checked tool, session or body) and `index` (the event's index in a log, else None).
    `Note(code, message=None, path="", index=None, *, params=None)`: the message is made from the code's
    template and `params` (the table of codes, docs/codes.md) unless given whole."""

    __slots__ = ()

    def __init__(
        self,
        code: Any,
        message: str | None = None,
        path: str = "",
        index: int | None = None,
        *,
        params: Mapping[str, Any] | None = None,
        severity: Any = None,
    ) -> None:
        Finding.__init__(self, index, code, message, path, params=params, severity=severity)


#: The last word of a property name (snake_case, camelCase or kebab-case) that marks an identifier or code.
_ID_WORDS = frozenset({"id", "ids", "uuid", "guid", "code", "codes", "sku", "status", "ref"})
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_CONSTRAINTS = ("pattern", "enum", "const", "format")


#: The last word of a property name that marks a money amount: "amounts and statuses want an enum or an
#: explicit format" (the three-doors article).
_AMOUNT_WORDS = frozenset({"amount", "amounts"})
#: What constrains a numeric amount besides `pattern`, `enum`, `const` and `format`.
_NUMBER_CONSTRAINTS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _last_word(name: str) -> str:
    words = _WORDS.findall(name)
    return words[-1].lower() if words else ""


def _looks_like_id(name: str) -> bool:
    return _last_word(name) in _ID_WORDS


def _unconstrained_amount(name: str, leaf: Mapping[str, Any]) -> bool:
    """A property named like a money amount (`amount`, `refund_amount`) whose values are strings or numbers
    with no `pattern`, `enum`, `const`, `format` nor numeric bound."""
    if _last_word(name) not in _AMOUNT_WORDS:
        return False
    t = leaf.get("type")
    kinds = set(t) if isinstance(t, list) else {t}
    if not kinds & {"string", "number", "integer"}:
        return False
    return not any(k in leaf for k in (*_CONSTRAINTS, *_NUMBER_CONSTRAINTS))


def _is_string(node: Mapping[str, Any]) -> bool:
    t = node.get("type")
    return t == "string" or (isinstance(t, list) and "string" in t)


def identifier_notes(schema: Any, base: str = "") -> list[Note]:
    """`unconstrained_identifier` notes for the properties of a JSON Schema (`base`: the schema's JSON
    Pointer in the tool, e.g. `/parameters`), walking nested `properties`, `items` and the `anyOf` /
    `oneOf` / `allOf` branches. A property whose values are arrays of such strings is noted too."""
    out: list[Note] = []
    stack: list[tuple[Any, str]] = [(schema, base)]
    seen = 0
    while stack and seen < 10_000:  # a bound: tool schemas are small, hostile ones are not walked forever
        node, path = stack.pop()
        seen += 1
        if not isinstance(node, Mapping):
            continue
        props = node.get("properties")
        if isinstance(props, Mapping):
            for key, sub in props.items():
                here = f"{path}/properties/{pointer_token(key)}"
                leaf = sub.get("items") if isinstance(sub, Mapping) and sub.get("type") == "array" else sub
                if (
                    isinstance(key, str)
                    and isinstance(leaf, Mapping)
                    and _looks_like_id(key)
                    and _is_string(leaf)
                    and not any(k in leaf for k in _CONSTRAINTS)
                ):
                    out.append(Note(NoteCode.UNCONSTRAINED_IDENTIFIER, None, here, params={"key": key}))
                elif isinstance(key, str) and isinstance(leaf, Mapping) and _unconstrained_amount(key, leaf):
                    params = {"key": key, "variant": "amount"}
                    out.append(Note(NoteCode.UNCONSTRAINED_IDENTIFIER, None, here, params=params))
                stack.append((sub, here))
        for key in ("items", "additionalProperties", "not"):
            if isinstance(node.get(key), Mapping):
                stack.append((node[key], f"{path}/{key}"))
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            subs = node.get(key)
            if isinstance(subs, list):
                stack.extend((sub, f"{path}/{key}/{n}") for n, sub in enumerate(subs))
        defs = node.get("$defs")
        if isinstance(defs, Mapping):
            stack.extend((sub, f"{path}/$defs/{pointer_token(k)}") for k, sub in defs.items())
    out.sort(key=lambda n: n.path)
    return out


def multi_agent_notes(agent: Any, base: str = "", index: int | None = None) -> list[Note]:
    """A `subagents_without_function_tools` note when `agent` (the `agent` object of a session, a create
    or an update body, as JSON) enables `multi_agent` and lists function tools; `base` is the agent's JSON
    Pointer. Anything else (no agent, multi_agent off, no function tool) gives no note."""
    if not isinstance(agent, Mapping):
        return []
    multi = agent.get("multi_agent")
    tools = agent.get("tools")
    if not (isinstance(multi, Mapping) and multi.get("enabled") is True and isinstance(tools, list)):
        return []
    names = [
        t.get("name") if isinstance(t.get("name"), str) else "?"
        for t in tools
        if isinstance(t, Mapping) and t.get("type") == "function"
    ]
    if not names:
        return []
    shown = ", ".join(repr(n) for n in names[:5]) + (", ..." if len(names) > 5 else "")
    return [
        Note(NoteCode.SUBAGENTS_WITHOUT_FUNCTION_TOOLS, None, f"{base}/multi_agent", index, params={"tools": shown})
    ]


def deferred_tool_notes(tools: Any, base: str = "", index: int | None = None) -> list[Note]:
    """A `deferred_without_tool_search` note for each function tool with `defer_loading: true` in `tools`
    (a list of tool definitions; `base` its JSON Pointer) when no `tool_search` tool is listed: a deferred
    tool is loaded only through tool search, so without it the model never sees the tool (the doors
    article: both are needed; Agents API `AgentToolParam`: `tool_search` "Discovers deferred function
    tools")."""
    if not isinstance(tools, list):
        return []
    if any(isinstance(t, Mapping) and t.get("type") == "tool_search" for t in tools):
        return []
    return [
        Note(NoteCode.DEFERRED_WITHOUT_TOOL_SEARCH, None, f"{base}/{n}/defer_loading", index,
             params={"name": t.get("name") if isinstance(t.get("name"), str) else "?"})
        for n, t in enumerate(tools)
        if isinstance(t, Mapping) and t.get("defer_loading") is True
    ]  # fmt: skip


def agent_notes(agent: Any, base: str = "", index: int | None = None) -> list[Note]:
    """Every note about an Agents API `agent` object (a session's, a create or update body's, as JSON;
    `base` its JSON Pointer): `subagents_without_function_tools`, `deferred_without_tool_search`, and
    `text_format_not_applied` for a Responses-style structured `text.format` (`json_schema`, ...; the plain
    `{"type": "text"}` every session reports is no request), which an Agents session does not apply to its
    answers."""
    if not isinstance(agent, Mapping):
        return []
    out = multi_agent_notes(agent, base, index)
    out += deferred_tool_notes(agent.get("tools"), f"{base}/tools", index)
    text = agent.get("text")
    fmt = text.get("format") if isinstance(text, Mapping) else None
    kind = fmt.get("type") if isinstance(fmt, Mapping) and isinstance(fmt.get("type"), str) else "?"
    if fmt is not None and kind != "text":  # plain text is what every session gives: nothing is asked
        out.append(Note(NoteCode.TEXT_FORMAT_NOT_APPLIED, None, f"{base}/text/format", index, params={"type": kind}))
    return out
