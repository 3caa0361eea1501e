"""Strict parsing of tool-call arguments and their check against the tool's JSON Schema.

Arguments come from a model, so they are untrusted: `parse_arguments` reads them as strict JSON
with the one reader of `replayable._json` (no duplicate keys, no `NaN`/`Infinity`, no lone surrogates,
nesting at most `MAX_DEPTH` levels) and `schema_failures` checks the parsed value
with jsonschema-rs, whose regex engine has no catastrophic backtracking. Compiled validators are
cached per schema object, so gating many calls against one tool costs one compile.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

import jsonschema_rs

from ._json import JSONError, loads

__all__ = [
    "MAX_DEPTH",
    "ArgumentsError",
    "SchemaError",
    "SchemaFailure",
    "compile_schema",
    "json_syntax_error",
    "parse_arguments",
    "schema_failures",
]

#: Deepest nesting of arrays and objects accepted in arguments (a top-level object is depth 1).
#: Read at each call: set `replayable.arguments.MAX_DEPTH` to change it process-wide.
MAX_DEPTH = 64
#: How many compiled tool schemas are kept.
CACHE_SIZE = 512



class ArgumentsError(ValueError):
    """Arguments are not strict JSON. `.reason` says which rule: `not_json`, `duplicate_key`,
    `non_finite_number`, `number_too_long`, `too_deep` or `lone_surrogate` (`replayable._json`)."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class SchemaError(ValueError):
    """The tool's JSON Schema itself is invalid (it cannot be compiled)."""


class SchemaFailure(NamedTuple):
    """One way a value fails a JSON Schema.

    `path` is the JSON Pointer (RFC 6901) of the offending value: for an unexpected key `refund` it is
    `/refund` (keyword `additionalProperties`), for a missing required key `content` it is `/content`
    (keyword `required`). `keyword` is the JSON Schema keyword that failed; `message` is readable.
    """

    path: str
    keyword: str
    message: str = ""


def parse_arguments(text: Any, *, max_depth: int | None = None) -> Any:
    """Parse a function call's `arguments` string as strict JSON, with the one reader every path uses
    (`replayable._json.loads`).

    Returns the parsed value (any JSON value; the tool schema decides whether a non-object is
    acceptable). Raises `ArgumentsError` (a `ValueError`) when `text` is not a string, not JSON, has a
    duplicate key, `NaN`/`Infinity` or a number that reads as infinity (`1e400`), an integer of more
    than 4300 digits, a lone UTF-16 surrogate, or nests deeper than `max_depth` levels (the reader
    never goes past 201). Never raises `RecursionError`. `max_depth=None` reads the module's
    `MAX_DEPTH` at call time, so `replayable.arguments.MAX_DEPTH = 128` raises the limit for `gate`
    and `check_transcript` too.
    """
    if max_depth is None:
        max_depth = MAX_DEPTH
    if not isinstance(text, str):
        raise ArgumentsError("not_json", f"arguments must be a JSON string, got {type(text).__name__}")
    try:
        return loads(text, what="arguments", max_depth=max_depth, count_values=False)
    except JSONError as exc:
        raise ArgumentsError(exc.reason, str(exc)) from None


def json_syntax_error(text: str) -> str | None:
    """Why `text` is not strict JSON arguments (`parse_arguments`' rules), or None when it is."""
    try:
        parse_arguments(text)
    except ArgumentsError as exc:
        return str(exc)
    return None


# Cache: id(schema) -> (schema, validator). Holding the schema keeps its id from being reused.
_BY_ID: dict[int, tuple[Any, Any]] = {}
_BY_TEXT: dict[str, Any] = {}


def compile_schema(schema: Any) -> Any:
    """Return a cached jsonschema-rs validator for `schema` (a JSON Schema as a dict or bool).

    A schema without `$schema` is read as draft 2020-12. Raises `SchemaError` when the schema is not
    a valid JSON Schema.
    """
    hit = _BY_ID.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    try:
        key = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise SchemaError(f"tool schema is not JSON: {exc}") from None
    except RecursionError:
        raise SchemaError("tool schema nests too deeply") from None
    validator = _BY_TEXT.get(key)
    if validator is None:
        if not isinstance(schema, Mapping | bool):
            raise SchemaError(f"a JSON Schema is an object or a boolean, got {type(schema).__name__}")
        try:
            plain: Any = dict(schema) if isinstance(schema, Mapping) else schema
            if isinstance(plain, dict) and "$schema" not in plain:
                validator = jsonschema_rs.Draft202012Validator(plain)
            else:
                validator = jsonschema_rs.validator_for(plain)
        except (ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError) as exc:
            raise SchemaError(f"invalid tool schema: {exc}") from None
        if len(_BY_TEXT) >= CACHE_SIZE:
            _BY_TEXT.clear()
        _BY_TEXT[key] = validator
    if len(_BY_ID) >= CACHE_SIZE:
        _BY_ID.clear()
    _BY_ID[id(schema)] = (schema, validator)
    return validator


def _pointer(parts: Any) -> str:
    if not parts:
        return ""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def schema_failures(value: Any, schema: Any) -> list[SchemaFailure]:
    """Check a parsed value against a JSON Schema; return every failure (empty when it passes).

    Each failure's `path` points at the offending value (an unexpected key or a missing required key is
    its own path under the object), and `keyword` is the failing JSON Schema keyword. Raises
    `SchemaError` when the schema is invalid.
    """
    hit = _BY_ID.get(id(schema))
    validator = hit[1] if hit is not None and hit[0] is schema else compile_schema(schema)
    try:
        if validator.is_valid(value):
            return []
        errors = list(validator.iter_errors(value))
    except (ValueError, OverflowError) as exc:  # values jsonschema-rs cannot read (e.g. huge integers)
        return [SchemaFailure("", "type", f"value cannot be checked: {exc}")]
    out: list[SchemaFailure] = []
    for err in errors:
        base = list(err.instance_path)
        kind = err.kind
        name = type(kind).__name__
        keyword = str(err.schema_path[-1]) if err.schema_path else name
        if name == "AdditionalProperties":
            out.extend(
                SchemaFailure(_pointer([*base, key]), "additionalProperties", f"unexpected key {key!r}")
                for key in kind.unexpected
            )
        elif name == "Required":
            out.append(SchemaFailure(_pointer([*base, kind.property]), "required", err.message))
        else:
            out.append(SchemaFailure(_pointer(base), keyword, err.message))
    return out
