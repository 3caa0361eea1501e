"""Tool lint: `check_tool`, the name, schema and closed-object rules of a tool definition (strict tools
follow OpenAI's strict-mode subset too). Findings are `replayable._findings.Finding`s with `index=None` and
`path` a JSON Pointer into the tool; advice that is no violation is in `.notes` (`replayable._notes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from pydantic import BaseModel

from replayable._arguments import SchemaError, compile_schema
from replayable._base import SPEC_ITEM_TYPES, checked_provider
from replayable._codes import NoteCode, ViolationCode
from replayable._findings import Finding, Findings, Violation
from replayable._item_json import plain_json
from replayable._native import OPENAI_TOOL_TYPES
from replayable._notes import Note, identifier_notes
from replayable._strict_schema import strict_findings
from replayable._tools import ToolKind, hosted_tool_type, read_tool, tool_json
from replayable.errors import Verdict
from replayable.items import ItemError, Provider

__all__ = ["ToolFindings", "check_tool", "lint_tools"]

_TOOL_NAME_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class ToolFindings(list[Finding], Verdict):
    """What `check_tool` returns: a list of the tool's violations (empty when the tool is fine), and
    `.notes`, advice that is not a violation (`Note`: string properties named like ids or
    codes with no `pattern`, `enum` or `format`). Like every report, `.ok` and `.raise_for_violations()`
    (`ReplayError` listing each violation by its JSON Pointer into the tool)."""

    def __init__(self, violations: Iterable[Finding] = (), notes: Iterable[Note] = ()) -> None:
        super().__init__(violations)
        self.notes: tuple[Note, ...] = tuple(notes)

    @property
    def ok(self) -> bool:
        """Whether the tool has no violation (notes do not count)."""
        return not self

    @property
    def violations(self) -> tuple[Finding, ...]:
        """The violations, as every report lists them."""
        return tuple(self)

    def violation_lines(self) -> list[str]:
        """One line per violation, `tool<path>: code: message`."""
        return [f"tool{f.path}: {f.code}: {f.message}" for f in self]


def check_tool(tool: Any, *, registry: Mapping[str, Any] | None = None, provider: Provider = None) -> ToolFindings:
    """Lint a tool definition: its name, its schema, and the closed-object rules of strict tools.

    Accepts every tool shape: a Responses function tool
    (`{"type": "function", "name", "parameters", "strict"}`), an Agents API function tool (with
    `defer_loading`), a Chat Completions function tool (`{"type": "function", "function": {...}}`) or
    an MCP tool (`{"name", "inputSchema"}`). Reported: a name that is not 1-64 letters, digits, `_` or
    `-`; a schema that is not valid or refers outside itself (`$ref`/`$schema` to a URL or file:
    `invalid_tool`; nothing is fetched, `registry` as in `compile_schema`); a schema root that is not
    an object schema (`parameters_not_object`: arguments are always a JSON object). For a Responses
    function tool whose `strict` is true or absent (the spec's default), a Chat Completions tool with
    `strict: true`, and always for Agents and MCP tools, every object schema (`type: object`, or one
    with `properties`) must have `additionalProperties: false` and list every property in `required`
    (optional ones nullable instead); `$ref`s into the same document are followed. Strict Responses and
    Chat Completions function tools also follow OpenAI's strict-mode subset (docs/targets.md):
    every node typed (`strict_schema_type_missing`), supported keywords only (`strict_schema_keyword`),
    the documented size limits (`strict_schema_limit`). Findings are `Violation`s with `index=None` and
    `path` a JSON Pointer into the tool, in a `ToolFindings` list whose `.notes` hold advice that is not a
    violation (`unconstrained_identifier`: a string property named like an id, code or status with no
    `pattern`, `enum`, `const` or `format`; `Note`). Never raises on a bad tool.

    `provider="openai"` reads the tool as OpenAI does: a Responses function tool without `strict` (absent
    or null) is strict only when its schema fits strict mode, and falls back to non-strict validation
    otherwise (OpenAPI `FunctionToolParam.strict`: "If omitted, Responses attempts to use strict validation
    when the schema is compatible, and falls back to non-strict validation otherwise"), so what strict mode
    cannot take is a `strict_fallback` note naming the keyword, not a violation; with `strict: true` it
    stays a violation. Raises `ValueError` for another `provider`.
    """
    checked_provider(provider)
    if isinstance(tool, BaseModel):
        try:
            tool = plain_json(tool)
        except ItemError as exc:  # an object that is not strict JSON: not a tool
            return _invalid("", variant="not_tool", detail=exc.errors[0]["msg"])
    elif not isinstance(tool, Mapping | bool):
        try:  # an openai-agents FunctionTool or pydantic-ai ToolDefinition, read as gate reads it
            tool = tool_json(tool)
        except SchemaError as exc:
            return _invalid("", variant="not_tool", detail=str(exc))
    if not isinstance(tool, Mapping):
        return _invalid("", variant="not_object", got=type(tool).__name__)
    hosted = hosted_tool_type(tool)
    if hosted is not None:
        return _hosted(tool, hosted, provider)
    kind = tool.get("type")
    if isinstance(kind, str) and kind in SPEC_ITEM_TYPES:
        return _invalid("/type", variant="item", type=kind)
    try:
        spec = read_tool(tool)
    except SchemaError as exc:
        function = tool.get("function")
        where = "/function/name" if isinstance(function, Mapping) else "/name"
        named = function.get("name") if isinstance(function, Mapping) else tool.get("name")
        return _invalid("" if isinstance(named, str) else where, detail=str(exc))
    if spec.kind is ToolKind.SCHEMA:
        return _invalid("", variant="bare_schema")
    out = Findings()
    _lint_name(spec.name, "/function/name" if spec.kind is ToolKind.CHAT_FUNCTION else "/name", out)
    key, schema = spec.pointer, spec.schema
    try:
        compile_schema(schema, registry=registry)
    except SchemaError as exc:
        out.at(None, ViolationCode.INVALID_TOOL, key, detail=str(exc))
        return ToolFindings(out)
    root_type = _root_type(schema)
    if spec.declared and root_type != "object" and root_type != ["object"]:
        out.at(None, ViolationCode.PARAMETERS_NOT_OBJECT, key + "/type", got=root_type)
    if spec.closed and isinstance(schema, Mapping):
        try:
            _lint_closed(schema, schema, key, key, out, set())
        except RecursionError:
            out.at(None, ViolationCode.INVALID_TOOL, key, variant="too_deep", at=key)
    if spec.closed and spec.declared and spec.kind in (ToolKind.FUNCTION, ToolKind.CHAT_FUNCTION):  # strict subset
        out.extend(strict_findings(schema, key))
    notes = identifier_notes(schema, key)
    if provider == "openai" and spec.kind is ToolKind.FUNCTION and _strict_omitted(tool):
        out, fallback = _strict_as_notes(out)
        notes = [*fallback, *notes]
    return ToolFindings(out, notes)


#: What strict mode cannot take: with OpenAI's `strict` omitted, these make the tool fall back (notes).
_STRICT_CODES = frozenset(
    {
        ViolationCode.STRICT_SCHEMA_ADDITIONAL_PROPERTIES,
        ViolationCode.STRICT_SCHEMA_REQUIRED_INCOMPLETE,
        ViolationCode.STRICT_SCHEMA_TYPE_MISSING,
        ViolationCode.STRICT_SCHEMA_KEYWORD,
        ViolationCode.STRICT_SCHEMA_LIMIT,
    }
)


def _strict_omitted(tool: Mapping[str, Any]) -> bool:
    """A Responses function tool whose `strict` is absent or null (an Agents tool, with `defer_loading`,
    is always strict)."""
    return tool.get("strict") is None and "defer_loading" not in tool


def _strict_as_notes(found: Findings) -> tuple[Findings, list[Note]]:
    """The strict-mode findings of a tool whose `strict` OpenAI decides, as `strict_fallback` notes."""
    kept, notes = Findings(), []
    for f in found:
        if f.code in _STRICT_CODES:
            notes.append(Note(NoteCode.STRICT_FALLBACK, path=f.path, params={"cause": f}))
        else:
            kept.append(f)
    return kept, notes


def _lint_name(name: Any, at: str, out: Findings) -> None:
    """`invalid_tool` (variant `name`) unless `name` is 1-64 letters, digits, `_` or `-`."""
    if not isinstance(name, str) or not name or len(name) > 64 or not set(name) <= _TOOL_NAME_OK:
        shown = repr(name) if isinstance(name, str) else f"of type {type(name).__name__}"
        out.at(None, ViolationCode.INVALID_TOOL, at, variant="name", shown=shown)


def _hosted(tool: Mapping[str, Any], kind: str, provider: Provider = None) -> ToolFindings:
    """A tool that is not a function tool: no parameters schema to lint (a `hosted_tool` note says so). A
    type that is neither a hosted tool OpenAI defines (`replayable._native.OPENAI_TOOL_TYPES`) nor a provider's
    `slug:name` is `invalid_tool` (variant `unknown_type`); a `name` it carries (a custom tool's) follows
    the name rule; the tools of a `namespace` tool are linted each (paths under `/tools/N`)."""
    out = Findings()
    if kind not in OPENAI_TOOL_TYPES and ":" not in kind:
        out.at(None, ViolationCode.INVALID_TOOL, "/type", variant="unknown_type", type=kind)
        return ToolFindings(out)
    if "name" in tool:
        _lint_name(tool["name"], "/name", out)
    inner = tool.get("tools")
    if kind == "namespace" and isinstance(inner, list):  # OpenAI's group of function / custom tools
        notes: list[Note] = []
        for n, each in enumerate(inner):
            found = check_tool(each, provider=provider)
            out.extend(f.under(f"/tools/{n}") for f in found)
            notes.extend(cast(Note, note.under(f"/tools/{n}")) for note in found.notes)  # under() keeps the class
        return ToolFindings(out, notes)
    variant = "custom" if kind == "custom" else ""
    return ToolFindings(out, [Note(NoteCode.HOSTED_TOOL, path="/type", params={"type": kind, "variant": variant})])


def _root_type(schema: Any) -> Any:
    """The `type` of a schema's root, following `$ref`s into the same document (None when absent)."""
    node, seen = schema, set()
    while isinstance(node, Mapping) and "type" not in node and isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        hit = _resolve(schema, ref) if isinstance(schema, Mapping) and ref not in seen else None
        if hit is None:
            return None
        seen.add(ref)
        node = hit[0]
    return node.get("type") if isinstance(node, Mapping) else node


_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_ONE = ("items", "not", "if", "then", "else", "additionalItems", "contains")


def _resolve(root: Mapping[str, Any], ref: str) -> tuple[Any, str] | None:
    if not ref.startswith("#"):
        return None
    node: Any = root
    for part in ref[1:].split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        else:
            return None
    return node, ref[1:]


def _lint_closed(node: Any, root: Mapping[str, Any], base: str, path: str, out: Findings, seen: set[str]) -> None:
    """Walk a schema; `base` is the pointer of `root` in the tool, `path` the pointer of `node`."""
    if not isinstance(node, Mapping):
        return
    ref = node.get("$ref")
    if isinstance(ref, str):
        hit = _resolve(root, ref)
        if hit is not None and hit[1] not in seen:
            seen.add(hit[1])
            _lint_closed(hit[0], root, base, base + hit[1], out, seen)
    t = node.get("type")
    is_object = t == "object" or (isinstance(t, list) and "object" in t) or isinstance(node.get("properties"), Mapping)
    if is_object:
        if node.get("additionalProperties") is not False:
            out.at(
                None, ViolationCode.STRICT_SCHEMA_ADDITIONAL_PROPERTIES, path + "/additionalProperties", at=path or "/"
            )
        props = node.get("properties")
        if isinstance(props, Mapping):
            required = node.get("required")
            listed = set(required) if isinstance(required, list) else set()
            missing = [k for k in props if k not in listed]
            if missing:
                out.at(
                    None, ViolationCode.STRICT_SCHEMA_REQUIRED_INCOMPLETE, path + "/required", at=path or "/",
                    missing=", ".join(map(repr, missing)),
                )  # fmt: skip
            for k, sub in props.items():
                _lint_closed(sub, root, base, f"{path}/properties/{k}", out, seen)
    for key in _SUBSCHEMA_LISTS:
        subs = node.get(key)
        if isinstance(subs, list):
            for n, sub in enumerate(subs):
                _lint_closed(sub, root, base, f"{path}/{key}/{n}", out, seen)
    for key in _SUBSCHEMA_ONE:
        _lint_closed(node.get(key), root, base, f"{path}/{key}", out, seen)
    ap = node.get("additionalProperties")
    if isinstance(ap, Mapping):
        _lint_closed(ap, root, base, f"{path}/additionalProperties", out, seen)


def _invalid(path: str, **params: Any) -> ToolFindings:
    """The one `invalid_tool` finding of something that cannot be linted further."""
    return ToolFindings([Finding(None, ViolationCode.INVALID_TOOL, None, path, params=params)])


def lint_tools(tools: list[Any], provider: Provider = None) -> list[Violation]:
    """`check_tool` findings for the tools of a request body or a --tools file (paths under `/tools/N`):
    a hosted tool has none (no schema to lint), a tool type that is neither `function`, a hosted tool
    type nor a `slug:name` is `invalid_tool`, and so is a tool that is not a JSON object. `provider` as in
    `check_tool` (with `openai`, what strict mode cannot take on a tool without `strict` is a note)."""
    findings: list[Violation] = []
    for n, tool in enumerate(tools):
        if not isinstance(tool, dict):
            findings.append(Violation(None, ViolationCode.INVALID_TOOL, "not a tool definition", f"/tools/{n}"))
        elif tool.get("type") is not None and not isinstance(tool.get("type"), str):
            findings.append(Violation(None, ViolationCode.INVALID_TOOL, "'type' must be a string", f"/tools/{n}/type"))
        else:  # a hosted tool has no violation (check_tool notes it); an unknown tool type is invalid_tool
            findings.extend(v.under(f"/tools/{n}") for v in check_tool(tool, provider=provider))
    return findings
