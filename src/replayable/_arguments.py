"""Strict parsing of tool-call arguments and their check against the tool's JSON Schema.

Arguments come from a model, so they are untrusted: `parse_arguments` reads them as strict JSON
with the one reader of `replayable._json` (no duplicate keys, no `NaN`/`Infinity`, no lone surrogates,
nesting at most `MAX_DEPTH` levels) and `schema_failures` checks the parsed value
with jsonschema-rs, whose regex engine has no catastrophic backtracking. Every schema is compiled by
`compile_schema`, which never lets a schema cause I/O (no `$ref`/`$schema` fetch, over the network or
from files) and caches validators by content, so gating many calls against one tool costs one compile.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, NamedTuple
from urllib.parse import urldefrag, urljoin

from ._json import JSONError, loads, reads_cleanly
from ._pointers import json_pointer, pointer_token
from ._schema_budget import (
    MAX_LISTED_VALUES,
    MAX_SCHEMA_FANOUT,
    MAX_SCHEMA_STEPS,
    SchemaLoopError,
    count_values,
    schema_profile,
    value_depth,
)
from .errors import ArgumentsError, SchemaError

__all__ = [
    "KNOWN_METASCHEMAS",
    "MAX_DEPTH",
    "MAX_SCHEMA_DEPTH",
    "BOM_REFUSED",
    "ArgumentsError",
    "SchemaError",
    "SchemaFailure",
    "compile_schema",
    "json_syntax_error",
    "object_failure",
    "parse_arguments",
    "schema_failures",
    "validator_failures",
    "validator_passes",
    "value_problem",
]

#: Deepest nesting of arrays and objects accepted in arguments (a top-level object is depth 1).
#: A fixed limit: `replayable.MAX_DEPTH` is a copy of it, and assigning that changes nothing.
MAX_DEPTH = 64
#: How many compiled tool schemas are kept.
CACHE_SIZE = 512

#: Why arguments starting with a byte order mark are refused (the JSON readers of the languages tools run
#: in refuse it, so the gate's verdict and the tool's reading would differ).
BOM_REFUSED = (
    "arguments: a leading byte order mark (U+FEFF) is refused: arguments are a JSON string inside a JSON "
    "document, where no byte order mark belongs (RFC 8259 section 8.1), and the tool's own JSON reader may "
    "refuse it (Python's json.loads and JavaScript's JSON.parse do)"
)


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
    (docs/strict-json.md).

    Returns the parsed value (any JSON value; the tool schema decides whether a non-object is
    acceptable). Raises `ArgumentsError` (a `ValueError`) when `text` is not a string, not JSON, has a
    duplicate key, `NaN`/`Infinity` or a number that reads as infinity (`1e400`), an integer of more
    than 4300 digits, a lone UTF-16 surrogate, or nests deeper than `max_depth` levels (the reader
    never goes past 201). Never raises `RecursionError`. `max_depth=None` uses the fixed
    limit `replayable.MAX_DEPTH` (64 levels), the one `gate` and `check_transcript` use; assigning
    `replayable.MAX_DEPTH` changes nothing (it is a copy of the constant).

    Unlike a JSON document read from a file or the network (where one leading byte order mark is
    ignored, as RFC 8259 section 8.1 allows), arguments that start with U+FEFF are refused (`not_json`):
    they are about to be executed, and the tool's own reader may refuse or read them otherwise
    (`BOM_REFUSED` says why), so the check fails closed.
    """
    if max_depth is None:
        max_depth = MAX_DEPTH
    if not isinstance(text, str):
        raise ArgumentsError("not_json", f"arguments must be a JSON string, got {type(text).__name__}")
    if text[:1] == "\ufeff":
        raise ArgumentsError("not_json", BOM_REFUSED)
    try:
        return loads(text, what="arguments", max_depth=max_depth, count_values=False)
    except JSONError as exc:
        raise ArgumentsError(exc.reason, str(exc)) from None


def json_syntax_error(text: str) -> str | None:
    """Why `text` is not strict JSON arguments (`parse_arguments`' rules), or None when it is."""
    if reads_cleanly(text, MAX_DEPTH):  # the common case, without building the value: every call passes here
        return None
    if not isinstance(text, str):
        return f"arguments must be a JSON string, got {type(text).__name__}"
    if text[:1] == "\ufeff":
        return BOM_REFUSED
    try:  # parse_arguments' reading, for its error
        loads(text, what="arguments", max_depth=MAX_DEPTH, count_values=False)
    except JSONError as exc:
        return str(exc)
    return None


# --- compiling tool schemas: in-process only ------------------------------------------------------------

#: Deepest nesting of arrays and objects accepted in a tool schema (and in each `registry` schema).
#: jsonschema-rs gives up near 255 levels; a schema deeper than this is a `SchemaError` first.
MAX_SCHEMA_DEPTH = 128

#: The `$schema` values accepted: the meta-schemas of the drafts jsonschema-rs carries built in, so
#: no meta-schema is ever fetched. Any other `$schema` is a `SchemaError`.
#: Only the canonical spellings: jsonschema-rs looks any other (`http://` for 2020-12, `https://` for
#: draft-07, ...) up through its retriever, i.e. it would fetch it.
KNOWN_METASCHEMAS = frozenset(
    uri + hash_
    for uri in (
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema",
        "http://json-schema.org/draft-04/schema",
    )
    for hash_ in ("", "#")
)

# Keywords whose value is one subschema, a list of subschemas, or a map of names to subschemas.
# Data keywords (`enum`, `const`, `default`, `examples`) are never read for references; every other
# keyword's value is walked as if it could hold schemas (fail closed: a reference there is refused).
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
_MAP_KEYWORDS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)


def _no_fetch(uri: str) -> Any:
    """The retriever given to jsonschema-rs: nothing is ever fetched (a backstop behind `_check_refs`)."""
    raise SchemaError(f"schema reference {uri!r} is not resolved: tool schemas never cause network or file access")


def _strip_fragment(uri: str) -> str:
    return urldefrag(uri).url


def _schema_problem(where: str, message: str) -> SchemaError:
    return SchemaError(f"tool schema {where or '/'}: {message}")


def _walk_schema(schema: Any, base: str | None, known: set[str], refs: list[tuple[str, str, str]], what: str) -> None:
    """Check that `schema` is plain JSON (string keys, finite numbers, at most `MAX_SCHEMA_DEPTH` deep)
    and that every `$schema` is a known draft; record `$id`s in `known` and every reference, resolved
    against the `$id`s above it, in `refs` as (reference, resolved URI, JSON Pointer). Iterative."""
    # Stack entries: (node, depth, pointer, base URI, how to read node: "schema" | "map" | "data").
    stack: list[tuple[Any, int, str, str | None, str]] = [(schema, 1, "", base, "schema")]
    while stack:
        node, depth, where, node_base, how = stack.pop()
        if isinstance(node, Mapping):
            if depth > MAX_SCHEMA_DEPTH:
                raise _schema_problem(where, f"{what} nests deeper than {MAX_SCHEMA_DEPTH} levels")
            keys = list(node)
            for key in keys:
                if not isinstance(key, str):
                    raise _schema_problem(where, f"{what} has a key that is not a string ({type(key).__name__})")
            if how == "schema":
                ident = node.get("$id")
                if ident is not None:
                    if not isinstance(ident, str):
                        raise _schema_problem(where + "/$id", "$id must be a string")
                    node_base = _strip_fragment(urljoin(node_base, ident) if node_base else ident)
                    known.add(node_base)
                meta = node.get("$schema")
                if meta is not None and meta not in KNOWN_METASCHEMAS:
                    shown = meta if isinstance(meta, str) else type(meta).__name__
                    raise _schema_problem(
                        where + "/$schema",
                        f"$schema {shown!r} is not a known draft meta-schema: use the canonical URI of a JSON "
                        "Schema draft (https://json-schema.org/draft/2020-12/schema, .../2019-09/schema, "
                        "http://json-schema.org/draft-07/schema, -06, -04); nothing is fetched",
                    )
                for kw in _REF_KEYWORDS:
                    ref = node.get(kw)
                    if ref is not None:
                        if not isinstance(ref, str):
                            raise _schema_problem(where + "/" + kw, f"{kw} must be a string")
                        target = ref if ref.startswith("#") else urljoin(node_base, ref) if node_base else ref
                        refs.append((f"{kw} {ref!r}", target, where + "/" + kw))
            for key in keys:
                value = node[key]
                if isinstance(value, Mapping | list | tuple):
                    child = where + "/" + pointer_token(key)
                    if how == "map":
                        stack.append((value, depth + 1, child, node_base, "schema"))
                    elif how == "data" or key in _DATA_KEYWORDS:
                        stack.append((value, depth + 1, child, node_base, "data"))
                    elif key in _MAP_KEYWORDS:
                        stack.append((value, depth + 1, child, node_base, "map"))
                    else:
                        stack.append((value, depth + 1, child, node_base, "schema"))
                elif not isinstance(value, _JSON_SCALARS) or (isinstance(value, float) and not math.isfinite(value)):
                    raise _schema_problem(where + "/" + key, f"{what} holds a value that is not JSON ({value!r:.40})")
        elif isinstance(node, list | tuple):
            if depth > MAX_SCHEMA_DEPTH:
                raise _schema_problem(where, f"{what} nests deeper than {MAX_SCHEMA_DEPTH} levels")
            for n, value in enumerate(node):
                if isinstance(value, Mapping | list | tuple):
                    stack.append((value, depth + 1, f"{where}/{n}", node_base, "schema" if how != "data" else "data"))
                elif not isinstance(value, _JSON_SCALARS) or (isinstance(value, float) and not math.isfinite(value)):
                    raise _schema_problem(f"{where}/{n}", f"{what} holds a value that is not JSON ({value!r:.40})")
        elif not isinstance(node, _JSON_SCALARS) or (isinstance(node, float) and not math.isfinite(node)):
            raise _schema_problem(where, f"{what} holds a value that is not JSON ({node!r:.40})")


_JSON_SCALARS = (str, int, float, bool, type(None))


def _check_schema(schema: Any, registry: Mapping[str, Any] | None) -> None:
    """Refuse what could make a schema reach outside the process (see `compile_schema`)."""
    known: set[str] = set()
    refs: list[tuple[str, str, str]] = []
    if registry is not None:
        for uri, resource in registry.items():
            if not isinstance(uri, str) or not uri:
                raise SchemaError(f"registry keys are absolute URIs (strings), got {uri!r:.60}")
            if not isinstance(resource, Mapping | bool):
                raise SchemaError(f"registry[{uri!r}] is not a JSON Schema (an object or a boolean)")
            known.add(_strip_fragment(uri))
            _walk_schema(resource, _strip_fragment(uri), known, refs, f"registry schema {uri!r}")
    _walk_schema(schema, None, known, refs, "the schema")
    for shown, target, where in refs:
        if target.startswith("#") or _strip_fragment(target) in known:
            continue
        raise _schema_problem(
            where,
            f"{shown} points outside the schema; only local references ('#...') and URIs passed in "
            "registry= are resolved: tool schemas never cause network or file access",
        )


def _canonical(value: Any, what: str) -> str:
    try:
        return _CANONICAL.encode(value)
    except (TypeError, ValueError) as exc:
        raise SchemaError(f"{what} is not JSON: {exc}") from None
    except RecursionError:
        raise SchemaError(f"{what} nests deeper than {MAX_SCHEMA_DEPTH} levels") from None


# Cache: canonical JSON text of (schema, registry) -> (plain copy of the schema, validator, the plain copy
# made exact for `_BY_ID`). Keyed by content, never by identity: a schema changed in place gets a fresh
# validator. A response's own tools are new objects on every parse: their hit reuses the exact copy.
_CACHE: dict[str, tuple[Any, Any, Any]] = {}
# Fast path for the schema object seen last time: id -> (the schema, an exact copy, validator). A hit
# needs the copy to equal the schema *now*, with numbers and booleans compared by type too (so
# `True` never matches `1`): content decides, identity only saves the encoding.
_BY_ID: dict[int, tuple[Any, Any, Any]] = {}


class _Exact:
    """A number or boolean in an exact copy: equal only to a value of the same type and value."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self.value) and other == self.value

    __hash__ = None  # type: ignore[assignment]


def _exact_copy(plain: Any) -> Any:
    """`plain` (fresh from `json.loads`, at most `MAX_SCHEMA_DEPTH` deep) with scalars made exact."""
    if isinstance(plain, dict):
        return {k: _exact_copy(v) for k, v in plain.items()}
    if isinstance(plain, list):
        return [_exact_copy(v) for v in plain]
    if isinstance(plain, bool | int | float):
        return _Exact(plain)
    return plain


def compile_schema(schema: Any, *, registry: Mapping[str, Any] | None = None) -> Any:
    """Return a cached jsonschema-rs validator for `schema` (a JSON Schema: an object or a boolean).

    This is the one place tool schemas are compiled. Nothing in a schema ever causes I/O: a `$ref`,
    `$dynamicRef` or `$recursiveRef` must be a local fragment (`#...`), point at a resource the schema
    itself declares with `$id`, or at a URI given in `registry`; `$schema` must be one of
    `KNOWN_METASCHEMAS` (the drafts jsonschema-rs carries built in). Anything else (`http:`, `https:`,
    `file:`, `urn:`, relative paths) is a `SchemaError` that names the reference, never its content;
    and the retriever handed to jsonschema-rs refuses every fetch as a second line. `registry` maps
    absolute URIs to JSON Schemas (plain dicts) for shared definitions, resolved in-process only.

    A schema without `$schema` is read as draft 2020-12. Validators are cached by the canonical JSON
    of the schema and registry (content, never identity). Raises `SchemaError` (a `ValueError`) when
    the schema is not JSON (a key that is not a string, NaN, a set, ...), nests deeper than
    `MAX_SCHEMA_DEPTH`, refers outside itself, or is not a valid JSON Schema.
    """
    if registry is None:
        seen = _BY_ID.get(id(schema))
        if seen is not None and seen[0] is schema and seen[1] == schema:
            return seen[2]
    original = schema
    if isinstance(schema, Mapping) and type(schema) is not dict:
        schema = dict(schema)
    if registry is not None and not isinstance(registry, Mapping):
        raise SchemaError(f"registry must be a mapping of URIs to JSON Schemas, got {type(registry).__name__}")
    try:
        key = _canonical(schema, "tool schema")
        if registry:
            key += "\x00" + _canonical(dict(registry), "registry")
    except SchemaError:
        if isinstance(schema, Mapping | bool):
            _check_schema(schema, registry)  # names the offending key or value and where it is
        raise
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == schema:  # `==` also tells {"1": ..} from {1: ..} (same text)
        _remember(original, registry, hit[2], hit[1])
        return hit[1]
    if not isinstance(schema, Mapping | bool):
        raise SchemaError(f"a JSON Schema is an object or a boolean, got {type(schema).__name__}")
    _check_schema(schema, registry)
    if hit is not None:  # same content, only read differently (tuples for lists): reuse the validator
        return hit[1]
    plain = json.loads(key.split("\x00", 1)[0])
    import jsonschema_rs  # noqa: PLC0415  loaded on the first schema compiled, not at `import replayable`

    try:
        resources = (
            jsonschema_rs.Registry(
                [(uri, json.loads(_canonical(res, "registry"))) for uri, res in registry.items()], retriever=_no_fetch
            )
            if registry
            else None
        )
        if isinstance(plain, dict) and "$schema" in plain:
            if plain["$schema"] not in KNOWN_METASCHEMAS:  # a second line behind `_check_schema`: never fetched
                raise SchemaError(f"$schema {str(plain['$schema'])[:80]!r} is not a known draft meta-schema")
            cls = jsonschema_rs.validator_cls_for(plain)
        else:
            cls = jsonschema_rs.Draft202012Validator
        validator = _budgeted(cls)(plain, validate_formats=True, retriever=_no_fetch, registry=resources)
    except (ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError) as exc:
        message = getattr(exc, "message", None) or str(exc).split("\n", 1)[0]
        raise SchemaError(f"invalid tool schema: {message}") from None
    try:
        shared = {uri: json.loads(_canonical(res, "registry")) for uri, res in registry.items()} if registry else None
        profile = schema_profile(plain, shared)
    except SchemaLoopError as exc:
        raise SchemaError(f"tool schema over the work budget: {exc}") from None
    if profile is not None:
        validator.budget = profile
    if len(_CACHE) >= CACHE_SIZE:
        _CACHE.clear()
    exact = _exact_copy(plain)
    _CACHE[key] = (plain, validator, exact)
    _remember(original, registry, exact, validator)
    return validator


# jsonschema-rs validator class -> its subclass that carries the schema's work budget (`budget`: a
# `replayable._schema_budget.SchemaProfile`, or None when every value the reader accepts is within it).
_BUDGETED: dict[type, type] = {}


def _budgeted(cls: type) -> type:
    sub = _BUDGETED.get(cls)
    if sub is None:
        sub = _BUDGETED[cls] = type(cls.__name__, (cls,), {"budget": None, "__module__": __name__})
    return sub


def exact_copy(value: Any) -> Any:
    """A copy of a JSON value that equals (`==`) only values with the same JSON content, numbers and
    booleans compared by type too (`True` never equals `1`); `None` when `value` is not JSON. Used to
    tell whether an object seen before was changed in place."""
    try:
        return _exact_copy(json.loads(_CANONICAL.encode(value)))
    except (TypeError, ValueError, RecursionError):
        return None


def _remember(schema: Any, registry: Any, exact: Any, validator: Any) -> None:
    """Keep `schema` (this object) for the fast path, with `exact` (`_exact_copy` of its content, shared by
    every schema of that content and never changed) to tell whether it still holds that content."""
    if registry is None and type(schema) in (dict, bool):
        if len(_BY_ID) >= CACHE_SIZE:
            _BY_ID.clear()
        _BY_ID[id(schema)] = (schema, exact, validator)


def object_failure(value: Any) -> SchemaFailure | None:
    """The function-call rule that holds whatever the tool schema says: arguments are a JSON object.
    Returns a failure at path `""` with keyword `type` for `null`, an array, a string, a number or a
    boolean, else `None`."""
    if isinstance(value, dict):
        return None
    got = "null" if value is None else _JSON_NAMES.get(type(value), type(value).__name__)
    return SchemaFailure("", "type", f"function-call arguments must be a JSON object, got {got}")


def value_problem(value: Any, *, max_depth: int | None = None) -> SchemaFailure | None:
    """The strict-JSON rules of `parse_arguments` for arguments given as a value (the Agents API sends
    them as a JSON object): a failure at path `""` with keyword `too_deep` when arrays/objects nest
    deeper than `max_depth` (default: `MAX_DEPTH` at call time), `not_json` for a value JSON has no
    form for (a non-string key, NaN, a set, ...), else `None`. Iterative: never recurses; a value that
    fails is never handed to the validator (whose native stack a deep value could overflow)."""
    limit = MAX_DEPTH if max_depth is None else max_depth
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list | tuple):
            if depth > limit:
                return SchemaFailure("", "too_deep", f"arguments nest deeper than {limit} levels")
            if isinstance(node, dict):
                for key, child in node.items():
                    if not isinstance(key, str):
                        return SchemaFailure("", "not_json", f"arguments hold a key that is not a string: {key!r:.40}")
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in node)
        elif isinstance(node, float) and not math.isfinite(node):
            return SchemaFailure("", "not_json", f"{node!r} is not a JSON number")
        elif not isinstance(node, _JSON_SCALARS):
            return SchemaFailure("", "not_json", f"a {type(node).__name__} is not a JSON value")
    return None


_JSON_NAMES = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}


def schema_failures(value: Any, schema: Any, *, registry: Mapping[str, Any] | None = None) -> list[SchemaFailure]:
    """Check a parsed value against a JSON Schema; return every failure (empty when it passes).

    Each failure's `path` points at the offending value (an unexpected key or a missing required key is
    its own path under the object), and `keyword` is the failing JSON Schema keyword. The schema is
    compiled by `compile_schema` (no I/O; `registry` as there). Raises `SchemaError` when the schema is
    invalid or refers outside itself.
    """
    return validator_failures(compile_schema(schema, registry=registry), value)


def validator_passes(validator: Any, value: Any) -> bool:
    """Whether `validator_failures(validator, value)` is empty, asked the short way (no failure built)."""
    budget = validator.budget
    if budget is not None and value_depth(value, budget.limit) > budget.limit:
        return False
    try:
        return bool(validator.is_valid(value))
    except (ValueError, OverflowError):
        return False


def validator_failures(validator: Any, value: Any) -> list[SchemaFailure]:
    """`schema_failures` with a validator from `compile_schema`.

    A value nested deeper than the schema's work budget allows (`replayable._schema_budget`: at most
    `MAX_SCHEMA_STEPS` subschemas entered on one path, `MAX_SCHEMA_FANOUT` evaluations along it) is
    never handed to jsonschema-rs: it fails with keyword `schema_work` at path `""`."""
    budget = validator.budget
    if budget is not None and value_depth(value, budget.limit) > budget.limit:
        return [
            SchemaFailure(
                "",
                "schema_work",
                f"the value nests deeper than {budget.limit} levels, past what this schema can check within "
                f"its work budget ({MAX_SCHEMA_STEPS} nested subschema steps, {MAX_SCHEMA_FANOUT} evaluations "
                f"on one path; one level more needs {budget.steps} and {budget.fanout})",
            )
        ]
    try:
        if validator.is_valid(value):
            return []
        if count_values(value, MAX_LISTED_VALUES) > MAX_LISTED_VALUES:
            # jsonschema-rs builds every error at once (`iter_errors` too): on a big value that fails
            # everywhere that is hundreds of times its size in memory. The verdict stands; the list is
            # not built.
            return [
                SchemaFailure(
                    "",
                    "schema_work",
                    f"the value fails the schema; it holds more than {MAX_LISTED_VALUES} JSON values, past "
                    "which failures are not listed (the work budget)",
                )
            ]
        # The evaluation output first (a fraction of the cost of building `ValidationError`s): when each
        # error is a plain keyword reached through `properties`/`items`-like steps only, its failure is
        # read from it; else (applicators, `$ref`, `required`, ...) from `iter_errors`, as always.
        # tests/rules/test_gate_fast_paths.py proves both give the same failures.
        # A validator whose failures were not simple once goes straight to `iter_errors` from then on
        # (no evaluation spent in vain on schemas that fail by `required` or unexpected keys).
        if _NOT_SIMPLE.get(id(validator)) is not validator:
            quick = _simple_failures(validator.evaluate(value).errors())
            if quick is not None:
                return quick
            if len(_NOT_SIMPLE) >= CACHE_SIZE:
                _NOT_SIMPLE.clear()
            _NOT_SIMPLE[id(validator)] = validator
        errors = list(validator.iter_errors(value))
    except (ValueError, OverflowError) as exc:  # values jsonschema-rs cannot read (e.g. huge integers)
        return [SchemaFailure("", "type", f"value cannot be checked: {exc}")]
    return _error_failures(errors)


def _error_failures(errors: list[Any]) -> list[SchemaFailure]:
    """The failures of jsonschema-rs `ValidationError`s (an unexpected key or a missing required key at
    its own path)."""
    out: list[SchemaFailure] = []
    for err in errors:
        kind = err.kind
        name = type(kind).__name__
        if name == "AdditionalProperties":
            base = list(err.instance_path)
            out.extend(
                SchemaFailure(json_pointer([*base, key]), "additionalProperties", f"unexpected key {key!r}")
                for key in kind.unexpected
            )
        elif name == "Required":
            out.append(SchemaFailure(json_pointer([*err.instance_path, kind.property]), "required", err.message))
        else:
            where = err.schema_path
            keyword = (where[-1] if type(where[-1]) is str else str(where[-1])) if where else name
            out.append(_new(SchemaFailure, (json_pointer(err.instance_path), keyword, err.message)))
    return out


_new = tuple.__new__  # a SchemaFailure from its three fields, without the keyword-argument handling

# Keywords whose error is one failure at the instance location, with the error's own message.
_SIMPLE_KEYWORDS = frozenset(
    {
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties",
        "minProperties", "format",
    }
)  # fmt: skip
_STEP_WITH_NAME = frozenset({"properties", "patternProperties", "prefixItems"})
_STEP = frozenset({"items", "additionalProperties"})
# id -> validator, for the validators whose failures were not simple (see `validator_failures`).
_NOT_SIMPLE: dict[int, Any] = {}
# schemaLocation -> its keyword when the location is simple (see `_simple_keyword`), else "".
_SIMPLE_LOCATIONS: dict[str, str] = {}


def _simple_keyword(location: str) -> str:
    """The keyword of an evaluation error at `location` (a JSON Pointer into the schema) when it is a
    keyword of `_SIMPLE_KEYWORDS` reached from the root through `properties/<name>`,
    `patternProperties/<pattern>`, `prefixItems/<index>`, `items` and `additionalProperties` only; else
    ""."""
    steps = location.split("/")
    last = len(steps) - 1
    i = 1  # steps[0] is "" (the pointer starts with "/")
    while i < last:
        step = steps[i]
        if step in _STEP_WITH_NAME:
            i += 2
        elif step in _STEP:
            i += 1
        else:
            return ""
    if i != last or steps[last] not in _SIMPLE_KEYWORDS:
        return ""
    return steps[last]


def _simple_failures(errors: list[dict[str, Any]]) -> list[SchemaFailure] | None:
    """The failures of jsonschema-rs evaluation errors when every one is simple, else None."""
    out: list[SchemaFailure] = []
    for err in errors:
        location = err["schemaLocation"]
        keyword = _SIMPLE_LOCATIONS.get(location)
        if keyword is None:
            keyword = _simple_keyword(location)
            if len(_SIMPLE_LOCATIONS) >= CACHE_SIZE:
                _SIMPLE_LOCATIONS.clear()
            _SIMPLE_LOCATIONS[location] = keyword
        if not keyword:
            return None
        out.append(_new(SchemaFailure, (err["instanceLocation"], keyword, err["error"])))
    return out or None
