"""OpenAI's strict-mode subset of JSON Schema, for the strict tool lint (`replayable.check_tool`).

A strict function tool (`strict: true`, or absent on a Responses function tool: the spec's default) is
compiled by the provider into a grammar, and only a subset of JSON Schema is accepted there (OpenAI,
"Structured Outputs", section "Supported schemas":
https://platform.openai.com/docs/guides/structured-outputs#supported-schemas). Checked here, besides
the closed-object rules `check_tool` already applies:

- every schema node has a `type` (or is a `$ref`, an `anyOf` of typed branches, an `enum` or a
  `const`): `{}` as an `anyOf` branch, `items: {}` and a typeless property are refused (case R52,
  weave-os/router#669: "In context=(..., 'anyOf', '0'), schema must have a 'type' key.");
- only the supported keywords: `type`, `properties`, `required`, `additionalProperties`, `items`,
  `enum`, `const`, `anyOf`, `$ref`, `$defs` / `definitions`, the annotations `title`, `description`,
  `$comment`, `$schema`, `$id`, and the constraints `pattern`, `format` (strings), `multipleOf`,
  `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers), `minItems`, `maxItems`
  (arrays). Anything else (`allOf`, `oneOf`, `not`, `if`/`then`/`else`, `patternProperties`,
  `default`, ...) is refused ("'default' is not permitted");
- the documented limits: at most `MAX_NESTING` levels of nested objects, `MAX_PROPERTIES` object
  properties in all, `MAX_ENUM_VALUES` enum values in all, `MAX_STRING_BUDGET` characters of property
  names, definition names, enum and const values in all, and for one string enum of more than
  `LARGE_ENUM` values at most `LARGE_ENUM_BUDGET` characters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._codes import ViolationCode
from ._findings import Findings
from ._pointers import pointer_token

__all__ = [
    "LARGE_ENUM",
    "LARGE_ENUM_BUDGET",
    "MAX_ENUM_VALUES",
    "MAX_NESTING",
    "MAX_PROPERTIES",
    "MAX_STRING_BUDGET",
    "SUPPORTED_KEYWORDS",
    "strict_findings",
]

MAX_NESTING = 10
"""Levels of nested object schemas (the root object is level 1)."""
MAX_PROPERTIES = 5000
"""Object properties in the whole schema."""
MAX_ENUM_VALUES = 1000
"""Enum values across all enum properties."""
MAX_STRING_BUDGET = 120_000
"""Characters of all property names, definition names, enum values and const values together."""
LARGE_ENUM = 250
"""A string enum with more values than this ..."""
LARGE_ENUM_BUDGET = 15_000
"""... may total at most this many characters."""

SUPPORTED_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref",
        "$defs", "definitions", "title", "description", "$comment", "$schema", "$id",
        "pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minItems", "maxItems",
    }
)  # fmt: skip

_TYPE_STANDINS = ("type", "$ref", "anyOf", "enum", "const")
_TYPE_MISSING = ViolationCode.STRICT_SCHEMA_TYPE_MISSING
_KEYWORD = ViolationCode.STRICT_SCHEMA_KEYWORD
_LIMIT = ViolationCode.STRICT_SCHEMA_LIMIT


class _Walk:
    def __init__(self) -> None:
        self.out = Findings()
        self.properties = 0
        self.enum_values = 0
        self.budget = 0
        self.deepest: tuple[int, str] = (0, "")

    def node(self, node: Any, path: str, depth: int, limit: int) -> None:
        if limit <= 0:
            return  # deeper than the schema depth limit: reported by compile_schema
        at = path or "/"
        if not isinstance(node, Mapping):
            if isinstance(node, bool):
                self.out.at(None, _TYPE_MISSING, path, at=at, value=str(node).lower(), variant="boolean")
            return
        if not any(k in node for k in _TYPE_STANDINS):
            self.out.at(None, _TYPE_MISSING, path, at=at)
        for key in node:
            if key not in SUPPORTED_KEYWORDS:
                self.out.at(None, _KEYWORD, f"{path}/{pointer_token(key)}", at=at, keyword=key)
        t = node.get("type")
        props = node.get("properties")
        is_object = t == "object" or (isinstance(t, list) and "object" in t) or isinstance(props, Mapping)
        if is_object:
            depth += 1
            if depth > self.deepest[0]:
                self.deepest = (depth, path)
        if isinstance(props, Mapping):
            self.properties += len(props)
            for name, sub in props.items():
                self.budget += len(str(name))
                self.node(sub, f"{path}/properties/{pointer_token(name)}", depth, limit - 1)
        enum = node.get("enum")
        if isinstance(enum, list):
            self.enum_values += len(enum)
            chars = sum(len(v) for v in enum if isinstance(v, str))
            self.budget += chars
            if len(enum) > LARGE_ENUM and chars > LARGE_ENUM_BUDGET:
                self.out.at(
                    None, _LIMIT, f"{path}/enum", at=at, values=len(enum), count=chars, values_limit=LARGE_ENUM,
                    limit=LARGE_ENUM_BUDGET, variant="large_enum",
                )  # fmt: skip
        const = node.get("const")
        if isinstance(const, str):
            self.budget += len(const)
        items = node.get("items")
        if isinstance(items, Mapping | bool):
            self.node(items, f"{path}/items", depth, limit - 1)
        branches = node.get("anyOf")
        if isinstance(branches, list):
            for n, sub in enumerate(branches):
                self.node(sub, f"{path}/anyOf/{n}", depth, limit - 1)
        extra = node.get("additionalProperties")
        if isinstance(extra, Mapping):
            self.node(extra, f"{path}/additionalProperties", depth, limit - 1)
        for key in ("$defs", "definitions"):
            defs = node.get(key)
            if isinstance(defs, Mapping):
                for name, sub in defs.items():
                    self.budget += len(str(name))
                    self.node(sub, f"{path}/{key}/{pointer_token(name)}", 0, limit - 1)


def strict_findings(schema: Any, base: str, max_depth: int = 128) -> Findings:
    """The strict-mode findings (codes `strict_schema_type_missing`, `strict_schema_keyword`,
    `strict_schema_limit`, no index) of an argument schema whose JSON Pointer in the tool is `base` (see
    the module docstring for the rules). `max_depth` bounds the walk (deeper schemas are refused
    elsewhere). Never raises on a malformed schema: what is not an object or a boolean is skipped."""
    walk = _Walk()
    walk.node(schema, base, 0, max_depth)
    out = walk.out
    depth, where = walk.deepest
    if depth > MAX_NESTING:
        out.at(None, _LIMIT, where, at=where, count=depth, limit=MAX_NESTING, variant="nesting")
    if walk.properties > MAX_PROPERTIES:
        out.at(None, _LIMIT, base, count=walk.properties, what="object properties", limit=MAX_PROPERTIES)
    if walk.enum_values > MAX_ENUM_VALUES:
        out.at(None, _LIMIT, base, count=walk.enum_values, what="enum values", limit=MAX_ENUM_VALUES)
    if walk.budget > MAX_STRING_BUDGET:
        out.at(None, _LIMIT, base, count=walk.budget, limit=MAX_STRING_BUDGET, variant="characters")
    return out
