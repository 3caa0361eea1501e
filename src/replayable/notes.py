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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ._pointers import pointer_token

__all__ = ["Note", "NoteCode", "identifier_notes", "multi_agent_notes"]


class NoteCode(StrEnum):
    """The stable codes of notes."""

    UNCONSTRAINED_IDENTIFIER = "unconstrained_identifier"
    """A string property named like an id, code or status without `pattern`, `enum`, `const` or `format`."""
    SUBAGENTS_WITHOUT_FUNCTION_TOOLS = "subagents_without_function_tools"
    """`multi_agent` is enabled and the agent has function tools, which subagents do not get."""


@dataclass(frozen=True, slots=True)
class Note:
    """One note: a stable `code`, a readable `message`, `path` (a JSON Pointer into the checked tool,
    session or body) and `index` (the event's index in a log, else None)."""

    code: NoteCode
    message: str
    path: str = ""
    index: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "code": str(self.code), "message": self.message, "path": self.path}


#: The last word of a property name (snake_case, camelCase or kebab-case) that marks an identifier or code.
_ID_WORDS = frozenset({"id", "ids", "uuid", "guid", "code", "codes", "sku", "status", "ref"})
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_CONSTRAINTS = ("pattern", "enum", "const", "format")


def _looks_like_id(name: str) -> bool:
    words = _WORDS.findall(name)
    return bool(words) and words[-1].lower() in _ID_WORDS


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
                    out.append(
                        Note(
                            NoteCode.UNCONSTRAINED_IDENTIFIER,
                            f"{key!r} looks like an identifier or code but is a bare string (no pattern, enum or "
                            "format), which lets any value through ('1042' where 'A-1042' is meant); constrain it",
                            here,
                        )
                    )
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
        Note(
            NoteCode.SUBAGENTS_WITHOUT_FUNCTION_TOOLS,
            f"multi_agent is enabled and the agent has function tools ({shown}): subagents do not get function "
            "tools, so only the parent agent can call them",
            f"{base}/multi_agent",
            index,
        )
    ]
