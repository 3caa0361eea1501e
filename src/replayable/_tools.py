"""Tool shapes: the one place that recognizes a tool definition and finds its name and argument schema.

A tool schema reaches the library in many shapes, and validating arguments against the wrong part of
one (a whole tool read as a schema has only unknown keywords, so every argument passes) is a silent
fail-open. `read_tool` accepts exactly these and refuses anything else with a `SchemaError`:

- a bare JSON Schema (an object with at least one JSON Schema keyword, `{}`, or a boolean);
- a Responses / Open Responses function tool `{"type": "function", "name", "parameters", "strict"}`,
  also without `type` (`{"name", "parameters"}`), and the OpenAI Agents API function tool (the same
  with `defer_loading`; `replayable.agents.FunctionTool`);
- a Chat Completions function tool `{"type": "function", "function": {"name", "parameters", "strict"}}`;
- an MCP tool `{"name", "inputSchema"}`;
- the tool objects of openai-agents (`agents.FunctionTool`: `.name`, `.params_json_schema`,
  `.strict_json_schema`) and pydantic-ai (`pydantic_ai.tools.ToolDefinition`: `.name`,
  `.parameters_json_schema`, `.strict`), read by those public attributes (neither package is imported)
  as the function tool `{"type": "function", "name", "parameters", "strict"}`.

Models (ours or `openai` SDK objects) are read as their JSON. `tool_index` builds the name -> tool
table of a `tools` list (request bodies, `--tools` files, `check_transcript(tools=...)`): hosted tools
(`web_search`, `mcp`, `custom`, ...) are not function tools and are skipped; two tools with one name
are an error. `tool_table` also takes a mapping of name -> tool (what `gate` accepts as a tool
collection). Used by `replay` (`gate`, `check_transcript`, `check_tool`), `agents.check_arguments`,
`cards.check_card` and the CLI.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from pydantic import BaseModel

from ._arguments import SchemaError
from ._base import SPEC_ITEM_TYPES
from ._item_json import plain_json

__all__ = [
    "SCHEMA_KEYWORDS",
    "ToolKind",
    "ToolSpec",
    "as_tool_list",
    "hosted_tool_type",
    "is_tool_collection",
    "read_tool",
    "tool_index",
    "tool_json",
    "tool_table",
]


class ToolKind(StrEnum):
    """Which shape a tool was given in."""

    SCHEMA = "schema"
    """A bare JSON Schema (no name)."""
    FUNCTION = "function"
    """A Responses / Open Responses or Agents API function tool (`parameters` at the top level)."""
    CHAT_FUNCTION = "chat_function"
    """A Chat Completions function tool (`function: {name, parameters}`)."""
    MCP = "mcp"
    """An MCP tool (`inputSchema`)."""


class ToolSpec(NamedTuple):
    """A tool read by `read_tool`.

    `name` is the tool's name (`None` for a bare schema); `schema` its argument JSON Schema (`{}` when
    the tool declares none: any JSON object); `pointer` the JSON Pointer of the schema inside the tool
    (`""` for a bare schema, `/parameters`, `/function/parameters`, `/inputSchema`); `closed` whether
    the strict closed-object rules apply (`strict` true or absent on a Responses function tool, true on
    a Chat Completions one, always for Agents and MCP tools); `declared` whether the tool gave a schema
    (absent or `null` reads as `{}`).
    """

    kind: ToolKind
    name: str | None
    schema: Any
    pointer: str
    closed: bool
    declared: bool = True


#: Every keyword of JSON Schema drafts 4 to 2020-12, annotations included. A bare schema must use at
#: least one of them (or be `{}`): an object of unknown keys constrains nothing and is refused.
SCHEMA_KEYWORDS = frozenset(
    {
        "$schema", "$id", "id", "$ref", "$defs", "definitions", "$anchor", "$dynamicRef", "$dynamicAnchor",
        "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment",
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "uniqueItems", "maxContains",
        "minContains", "maxProperties", "minProperties", "required", "dependentRequired", "dependencies",
        "properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames",
        "items", "prefixItems", "additionalItems", "unevaluatedItems", "contains",
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
        "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
        "contentEncoding", "contentMediaType", "contentSchema",
    }
)  # fmt: skip

#: JSON Schema's type names: a `tools` entry typed with one is a bare schema, not a hosted tool.
JSON_TYPE_NAMES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
# Keys that say "this is a tool", never JSON Schema keywords: a mapping with one of them that is not a
# tool shape we know is refused rather than read as a schema of unknown keywords.
_TOOL_KEYS = frozenset({"name", "parameters", "function", "inputSchema", "input_schema", "strict", "defer_loading"})


# The attributes that hold the argument schema of the tool objects of agent frameworks, read without
# importing them: openai-agents `FunctionTool` and pydantic-ai `ToolDefinition` (attribute -> its strict flag).
_SCHEMA_ATTRS = (("params_json_schema", "strict_json_schema"), ("parameters_json_schema", "strict"))


def _framework_tool(tool: Any) -> dict[str, Any] | None:
    """An openai-agents `FunctionTool` or pydantic-ai `ToolDefinition` as a function tool dict (each
    attribute read once), or None for any other object."""
    found = []
    for schema_attr, strict_attr in _SCHEMA_ATTRS:
        try:
            schema = getattr(tool, schema_attr, _NONE)
        except Exception:  # a property that fails: not a tool we can read
            continue
        if schema is not _NONE:
            found.append((schema_attr, strict_attr, schema))
    if not found:
        return None
    if len(found) > 1:  # which schema the framework applies is a guess: refuse rather than pick one
        attrs = " and ".join(attr for attr, _, _ in found)
        raise SchemaError(f"ambiguous tool: the {type(tool).__name__} object has both {attrs}")
    _, strict_attr, schema = found[0]
    try:
        name = getattr(tool, "name", None)
        strict = getattr(tool, strict_attr, None)
    except Exception as exc:
        raise SchemaError(f"the {type(tool).__name__} tool could not be read: {type(exc).__name__}") from None
    out: dict[str, Any] = {"type": "function", "name": name, "parameters": schema}
    if isinstance(strict, bool):
        out["strict"] = strict
    return out


_NONE = object()


def tool_json(tool: Any) -> Any:
    """A tool as plain JSON values, read once: models (ours or `openai` SDK objects) dumped as their JSON,
    openai-agents / pydantic-ai tool objects read by attribute (see the module docstring), other
    `Mapping`s copied as `dict`; anything else (a dict, a boolean schema, a value in no tool shape) as
    it is. Raises `SchemaError` when a model has no JSON form."""
    if type(tool) is dict or isinstance(tool, bool):
        return tool
    if isinstance(tool, BaseModel):
        try:
            return plain_json(tool)
        except ValueError as exc:  # an ItemError: a model that is not strict JSON
            raise SchemaError(f"the {type(tool).__name__} tool is not JSON: {exc}") from None
    if isinstance(tool, Mapping):
        return dict(tool)
    framework = _framework_tool(tool)
    return tool if framework is None else framework


_plain = tool_json


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str):
        got = "missing" if value is None else f"a {type(value).__name__}"
        raise SchemaError(f"{where} must be a string naming the tool, got {got}")
    return value


def _schema(value: Any, where: str) -> Any:
    """The argument schema of a tool. A tool that declares no `parameters` (absent or null) is a function
    that takes no arguments, as Chat Completions defines an omitted `parameters`: only `{}` passes, never
    "anything goes" (a caller who wants no check passes the schema `{}` itself)."""
    if value is None:
        return {"type": "object", "properties": {}, "additionalProperties": False}
    if not isinstance(value, Mapping | bool):
        raise SchemaError(f"{where} must be a JSON Schema (an object or a boolean), got {type(value).__name__}")
    if value is True:
        raise SchemaError(TRUE_SCHEMA.format(where=where))
    return value


#: Why the boolean schema `true` is refused as a whole tool schema: "no check" has one spelling, `{}`.
TRUE_SCHEMA = (
    "{where} is the boolean schema true, which accepts anything: a tool's whole schema is never a silent "
    "'anything goes'; pass {{}} (any JSON object: the one explicit spelling of 'no check beyond the object "
    "rule') if that is what you mean"
)


def read_tool(tool: Any) -> ToolSpec:
    """Recognize a tool definition or a bare JSON Schema (see the module docstring for the shapes).

    Returns a `ToolSpec`. Raises `SchemaError` (a `ValueError`) for anything else: a value that is not
    an object or a boolean, a tool without a string name, a tool whose schema is not an object, an
    object with tool keys (`name`, `parameters`, `function`, `input_schema`, ...) in no known tool
    shape, and a non-empty object with no JSON Schema keyword. The schema itself is compiled later
    (`replayable._arguments.compile_schema`).
    """
    if type(tool) is dict and tool.keys().isdisjoint(_TOOL_KEYS) and not tool.keys().isdisjoint(SCHEMA_KEYWORDS):
        return ToolSpec(ToolKind.SCHEMA, None, tool, "", False)  # the common case: a bare JSON Schema
    tool = _plain(tool)
    if tool is True:
        raise SchemaError(TRUE_SCHEMA.format(where="the schema"))
    if isinstance(tool, bool):
        return ToolSpec(ToolKind.SCHEMA, None, tool, "", False)
    if not isinstance(tool, Mapping):
        got = "null" if tool is None else type(tool).__name__
        raise SchemaError(f"expected a JSON Schema or a tool definition, got {got}")
    function = tool.get("function")
    shapes = [
        shape
        for shape, present in (
            ("MCP (inputSchema)", "inputSchema" in tool),
            ("Chat Completions (function)", isinstance(function, Mapping)),
            ("Responses (parameters)", "parameters" in tool),
        )
        if present
    ]
    if len(shapes) > 1:
        raise SchemaError(f"ambiguous tool: it has the keys of {' and '.join(shapes)}; which schema applies is a guess")
    if "inputSchema" in tool:
        name = _name(tool.get("name"), "an MCP tool's name")
        return ToolSpec(ToolKind.MCP, name, _schema(tool["inputSchema"], "inputSchema"), "/inputSchema", True)
    if tool.get("type") == "function" and isinstance(function, Mapping):
        name = _name(function.get("name"), "function.name")
        params = function.get("parameters")
        schema = _schema(params, "function.parameters")
        closed = function.get("strict") is True
        return ToolSpec(ToolKind.CHAT_FUNCTION, name, schema, "/function/parameters", closed, params is not None)
    if tool.get("type") == "function" or ("name" in tool and "parameters" in tool and "type" not in tool):
        name = _name(tool.get("name"), "a function tool's name")
        closed = "defer_loading" in tool or tool.get("strict", True) is not False
        params = tool.get("parameters")
        schema = _schema(params, "parameters")
        return ToolSpec(ToolKind.FUNCTION, name, schema, "/parameters", closed, params is not None)
    keys = [k for k in tool if isinstance(k, str)]
    odd = sorted(k for k in keys if k in _TOOL_KEYS)
    if odd:
        raise SchemaError(
            f"not a JSON Schema nor a known tool shape (it has {', '.join(map(repr, odd))}): pass the tool's "
            "argument schema, or a whole function tool {type: 'function', name, parameters}, a Chat Completions "
            "tool {type: 'function', function: {name, parameters}} or an MCP tool {name, inputSchema}"
        )
    if tool and not any(k in SCHEMA_KEYWORDS for k in keys) and len(keys) == len(tool):
        shown = ", ".join(repr(k) for k in keys[:5])
        raise SchemaError(f"not a JSON Schema: none of its keys ({shown}) is a JSON Schema keyword")
    return ToolSpec(ToolKind.SCHEMA, None, tool, "", False)


def is_tool_collection(tools: Any) -> bool:
    """Whether `tools` is a collection of tools rather than one tool or schema: a list or tuple, or a
    non-empty mapping of names to tools (no key of it a JSON Schema keyword or a tool key such as
    `name`/`parameters`, every value an object or a tool object). A bare schema or a single tool is
    never a collection."""
    if isinstance(tools, list | tuple):
        return True
    if isinstance(tools, BaseModel) or not isinstance(tools, Mapping) or not tools:
        return False
    keys = list(tools)
    if not all(isinstance(k, str) for k in keys) or any(k in SCHEMA_KEYWORDS or k in _TOOL_KEYS for k in keys):
        return False
    return all(isinstance(v, Mapping | BaseModel) or _framework_tool(v) is not None for v in tools.values())


def tool_table(tools: Any) -> dict[str, ToolSpec | SchemaError]:
    """The function tools of a tool collection by name: a list of tools (as `tool_index` reads it) or a
    mapping of name -> tool, where a tool may be a bare JSON Schema (the key names it) or a named tool
    whose name must be its key (else the entry maps to a `SchemaError`: which name a call meant would
    be a guess). Raises `SchemaError` (a `ValueError`) where `tool_index` raises `ValueError`: an entry
    that is not a tool object, two tools with one name."""
    if isinstance(tools, Mapping):
        table: dict[str, ToolSpec | SchemaError] = {}
        for key, raw in tools.items():
            entry: ToolSpec | SchemaError
            try:
                spec = read_tool(raw)
                if spec.name is None:
                    entry = spec._replace(name=key)
                elif spec.name != key:
                    entry = SchemaError(f"tools[{key!r}] is a tool named {spec.name!r}: a tool's name must be its key")
                else:
                    entry = spec
            except SchemaError as exc:
                entry = exc
            table[key] = entry
        return table
    if isinstance(tools, list | tuple):
        for n, raw in enumerate(tools):
            tool = _plain(raw)
            kind = tool.get("type") if isinstance(tool, Mapping) else None
            if isinstance(tool, bool) or (
                isinstance(tool, Mapping)
                and tool.keys().isdisjoint(_TOOL_KEYS)
                and (
                    (isinstance(kind, str) and kind in JSON_TYPE_NAMES) or isinstance(kind, list) or "type" not in tool
                )
            ):
                raise SchemaError(
                    f"tools[{n}] is a bare JSON Schema, not a named tool: a tool list holds tools "
                    "({type: 'function', name, parameters}); to name schemas pass {name: schema}"
                )
    try:
        index = tool_index(tools)
    except SchemaError:
        raise
    except ValueError as exc:  # not a list of tools, two tools of one name: the tools are the problem
        raise SchemaError(str(exc)) from None
    return {} if index is None else index



def hosted_tool_type(tool: Any) -> str | None:
    """The `type` of a tool definition that is not a function tool: a hosted tool (`web_search`, `mcp`,
    `file_search`, ...), a `custom` tool, a provider's `slug:name` tool. None for a function tool, a bare
    JSON Schema (untyped, or typed with a JSON Schema type name), an item (`message`, ...) and anything
    that is not a JSON object. Such a tool has no parameters schema: `tool_index` skips it and
    `replayable.check_tool` has no schema to lint in it."""
    kind = tool.get("type") if isinstance(tool, Mapping) else None
    if not isinstance(kind, str) or kind == "function" or kind in JSON_TYPE_NAMES or kind in SPEC_ITEM_TYPES:
        return None
    return kind


def as_tool_list(tools: Any) -> list[Any]:
    """A `tools` argument (a list or another iterable of tool definitions) as a list. Raises `SchemaError`
    for a single tool, a string, or anything else that is not a collection of tools."""
    if isinstance(tools, str | bytes | bytearray | Mapping) or not isinstance(tools, Iterable):
        raise SchemaError(f"tools must be a list of tool definitions, got {type(tools).__name__}")
    return list(tools)


def tool_index(tools: Iterable[Any] | None) -> dict[str, ToolSpec | SchemaError] | None:
    """The function tools of a `tools` list by name (`None` stays `None`).

    Hosted tools (a `type` other than `function`) are skipped, as are function tools without a string
    name (`check_tool` reports those; a call to them is an unknown tool). An entry that is an item
    (`type` `message`, `function_call`, ...) or has neither `type`, `name` nor `function` is in no
    tool shape: `SchemaError`, never skipped. A named tool that `read_tool`
    refuses maps to its `SchemaError` (a call to it is refused, naming why). Raises `SchemaError` when
    `tools` is not a list of tool objects and when two tools share a name (which one a call meant
    would be a guess).
    """
    if tools is None:
        return None
    tools = as_tool_list(tools)
    index: dict[str, ToolSpec | SchemaError] = {}
    where: dict[str, int] = {}
    for n, raw in enumerate(tools):
        tool = _plain(raw)
        if not isinstance(tool, Mapping):
            raise SchemaError(f"tools[{n}] is not a tool definition (a JSON object), got {type(tool).__name__}")
        kind = tool.get("type")
        if "name" not in tool and "function" not in tool and (
            (isinstance(kind, str) and kind in JSON_TYPE_NAMES)
            or (kind is None and any(k in SCHEMA_KEYWORDS for k in tool))
        ):
            raise SchemaError(
                f"tools[{n}] is a bare JSON Schema, not a named tool: pass the tool itself "
                "({type: 'function', name, parameters}) so that calls can be matched to it by name"
            )
        # a transcript given as tools (a wrong --tools file): no tool is read
        if isinstance(kind, str) and kind in SPEC_ITEM_TYPES:
            raise SchemaError(f"tools[{n}] is a {kind} item, not a tool definition")
        if kind is not None and kind != "function":
            continue  # a hosted tool (web_search, mcp, custom, ...): its calls are not function calls
        function = tool.get("function")
        name = function.get("name") if isinstance(function, Mapping) else tool.get("name")
        if kind is None and "name" not in tool and not isinstance(function, Mapping):
            raise SchemaError(
                f"tools[{n}] is no tool definition in a known shape (no 'type', 'name' or 'function'; "
                "a tool is {type: 'function', name, parameters} (Responses, Agents), "
                "{type: 'function', function: {name, parameters}} (Chat Completions) or {name, inputSchema} (MCP))"
            )
        if not isinstance(name, str):
            continue
        spec: ToolSpec | SchemaError
        try:
            spec = read_tool(tool)
        except SchemaError as exc:
            spec = exc
        if name in index:
            raise SchemaError(f"tools[{n}] and tools[{where[name]}] are both named {name!r}: tool names must be unique")
        index[name] = spec
        where[name] = n
    return index
