"""Issue 36, point 6: a verdict without models, measured, then decided.

    python benchmarks/bench_verdict.py            # differential, then timing (collector off and on)
    python benchmarks/bench_verdict.py --quick    # fewer mutations, rounds and items (a smoke run)
    python benchmarks/bench_verdict.py --only differential   # or: timing, gc

Two verdict-only readers of items (accept or refuse, no models built), each behind the one strict reader
(`replayable._json.loads`, exactly as `parse_items` / `parse_item` call it: duplicate keys, `1e400`, lone
surrogates, too deep, ... are refused before any verdict):

- *twins*: pydantic-core `SchemaValidator`s over TypedDict twins of the library's own item core schema,
  built mechanically from the adapters' `core_schema` (`Twins` below): every `model` schema (with its
  `model-fields`) becomes a `typed-dict` schema with the same fields, aliases, required-ness (a field is
  optional exactly when its schema has a default), strictness, extra behaviour and config; tagged unions,
  refs and definitions are kept as they are. The validators that carry rules are kept too: the namespaced
  items' and parts' wrap validator (`NamespacedBase._read_native_types`, rebound to a stand-in class whose
  `typed_models` are the twins of the typed models) and the items' typed router (`_typed_router`'s
  function, its code rebuilt over a table of twins). No model is written by hand.
- *jsonschema-rs*: `jsonschema_rs.validator_for` over the exported bundles (`replayable.json_schema(side)`,
  what `scripts/bundle_schemas.py` writes), an array of items validated as `{"type": "array", "items": <the
  bundle's root>}` with the bundle's `$defs`.

The *differential* asks `parse_item(text, side=...)` and each verdict path (strict read + verdict) about
every value of `scripts/differential.py`'s pool (every JSON object in tests/fixtures, ../shared/cases and
../shared/corpus, its edge cases and their mutations) and of this file's seeded item mutator (a field
dropped, a type changed, a wrong enum, extra fields, a bad nested part, namespaced items, `arguments` as an
object, integral floats, ...), each as JSON text on both sides, then texts the strict reader must refuse
(duplicate keys, `1e400`, `NaN`, lone surrogates, too deep, over-long integers), then whole arrays of
items (`parse_items` against strict read + the array verdict). Every disagreement is printed, with what it is
about. A second differential holds the *check replica* (`verdict_check`: `check_transcript`'s body with the
items judged by the twins and the rules run over the read dicts) against `check_transcript(read_document(text))`
on every shared case, corpus payload, fixture and a thousand mutated transcripts: every report (findings with
their messages, pending, external) must be equal.

The *timing* is paired in one process (`benchmarks/timing.py`, as `check.py perf` times), collector off and on:
`parse_items(bytes)` against strict read + verdict on W1 (20k core output items, `check.py`'s bytes), W2
(`check.py`'s mixed workload, one namespaced item in five) and real corpus output items, each also with the
verdict alone over the read dicts (models, twins, twins without their discriminators, jsonschema-rs); then
the check of W2 and of a transcript of real corpus items: the command line's pipeline (`check_document(read_file
(path))`), `check_transcript(read_document(bytes))`, `check_transcript(parse_items(bytes))`, the *models
replica* (the check replica with the library's strict list adapter in place of the twins: the two differ in
the verdict alone) and the check replica. The floor `TypeAdapter(list[dict]).validate_json` is timed in the
same rounds; `--only gc` counts the collections one call starts with the collector on. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import tempfile
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema_rs
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import SchemaValidator
from timing import paired, rounds, table  # the benchmarks' one timing home (benchmarks/timing.py)

import replayable as rp
from replayable._base import NamespacedBase
from replayable._item_validation import ITEM_ADAPTERS
from replayable._json import MAX_ITEM_DEPTH, loads
from replayable.errors import JSONError

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SIDES = ("input", "output")
FLOOR = "floor TypeAdapter(list[dict]).validate_json"

# ---------------------------------------------------------------------------------------------------------
# The TypedDict twins, built from the core schema


class Twins:
    """TypedDict twins of the item adapters' core schema (strict mode, `provider=None`).

    `validator(side)` / `many(side)`: a `SchemaValidator` for one item / a list of items of `side`. Every
    model class met (in the schema, or in a `typed_models` table or the typed router's table reached from a
    kept validator) gets a stand-in class carrying the twin validator as `__pydantic_validator__` and the
    class attributes the kept validators read (`typed_models`, `spec_types`, `native_problem`); the
    stand-ins mirror the models' class hierarchy, so `issubclass` tests in those validators hold as before.
    """

    def __init__(self) -> None:
        self.stand_ins: dict[type[Any], type[Any]] = {}
        self.pending: list[type[Any]] = []
        self.kept: dict[str, int] = {}  # qualified name of each validator function kept -> times met
        self.models = 0
        self.schemas: dict[str, Any] = {}  # side -> the twin core schema of a list of items
        for side in SIDES:
            rp.parse_items(b"[]", side=side)  # builds the deferred adapters
        self.sides = {side: self._validators(side) for side in SIDES}
        while self.pending:  # typed models reached from a table: their validators, built once each
            cls = self.pending.pop()
            cls.__pydantic_validator__  # noqa: B018  (builds a deferred model)
            twin = SchemaValidator(self.walk(cls.__pydantic_core_schema__))
            self.stand_ins[cls].__pydantic_validator__ = twin

    def _validators(self, side: str) -> tuple[SchemaValidator, SchemaValidator]:
        single, many = ITEM_ADAPTERS[(side, False)]
        self.schemas[side] = self.walk(many.core_schema)
        return SchemaValidator(self.walk(single.core_schema)), SchemaValidator(self.schemas[side])

    def validator(self, side: str) -> SchemaValidator:
        return self.sides[side][0]

    def many(self, side: str) -> SchemaValidator:
        return self.sides[side][1]

    def stand_in(self, cls: type[Any]) -> type[Any]:
        """The twin class of model `cls` (made once; its validator is built later, see `pending`)."""
        have = self.stand_ins.get(cls)
        if have is not None:
            return have
        bases = tuple(self.stand_in(b) for b in cls.__bases__ if issubclass(b, BaseModel) and b is not BaseModel)
        made: type[Any] = type(f"Twin{cls.__name__}", bases or (object,), {})
        self.stand_ins[cls] = made
        if issubclass(cls, NamespacedBase):
            made.spec_types = cls.spec_types
            made.native_problem = staticmethod(cls.native_problem) if cls.native_problem is not None else None
            made.typed_models = self.table(cls.typed_models)
        return made

    def table(self, table: Mapping[str, Any]) -> dict[str, Any]:
        """A table of namespaced type -> model, as a table of the same types -> twin classes (whose
        validators, read by the kept validators, are built once the walk is done: `pending`)."""
        out = {}
        for k, v in dict(table.items()).items():
            out[k] = made = self.stand_in(v)
            if "__pydantic_validator__" not in made.__dict__ and v not in self.pending:
                self.pending.append(v)
        return out

    def function(self, fn: Any) -> Any:
        """A kept validator function, reading twins wherever it read models."""
        name = getattr(fn, "__qualname__", repr(fn))
        self.kept[name] = self.kept.get(name, 0) + 1
        owner = getattr(fn, "__self__", None)
        if isinstance(owner, type) and issubclass(owner, BaseModel):  # a model's classmethod validator
            return types.MethodType(fn.__func__, self.stand_in(owner))
        cells = fn.__closure__ or ()
        if any(isinstance(c.cell_contents, Mapping) for c in cells):  # a closure over a table of models
            new = tuple(
                types.CellType(self.table(c.cell_contents)) if isinstance(c.cell_contents, Mapping) else c
                for c in cells
            )
            return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, new)
        return fn  # reads no model: kept as it is

    def walk(self, node: Any) -> Any:
        """A copy of core schema `node` with every model replaced by its TypedDict twin."""
        if isinstance(node, list | tuple):
            return type(node)(self.walk(x) for x in node)
        if not isinstance(node, Mapping):
            return node
        t = node.get("type")
        if t == "model":
            return self._typed_dict(node)
        out: dict[str, Any] = {}
        for k, v in node.items():
            if k in ("serialization", "metadata"):  # serializers and JSON Schema hooks: no verdict there
                continue
            if k == "function" and isinstance(v, Mapping) and callable(v.get("function")):
                out[k] = {**v, "function": self.function(v["function"])}
            elif k == "cls":
                continue
            else:
                out[k] = self.walk(v)
        return out

    def _typed_dict(self, model: Mapping[str, Any]) -> dict[str, Any]:
        inner = model["schema"]
        if inner.get("type") != "model-fields":
            raise TypeError(f"{model['cls'].__name__}: a model schema around {inner.get('type')!r} has no twin here")
        if (
            model.get("custom_init")
            or model.get("root_model")
            or model.get("post_init")
            or inner.get("computed_fields")
        ):
            raise TypeError(f"{model['cls'].__name__}: custom init, root model, post init or computed fields")
        self.models += 1
        self.stand_in(model["cls"])
        config = dict(model.get("config") or {})
        fields = {}
        for name, f in inner["fields"].items():
            schema = self.walk(f["schema"])
            field: dict[str, Any] = {
                "type": "typed-dict-field",
                "schema": schema,
                "required": schema["type"] != "default",
            }
            for key in ("validation_alias", "serialization_alias", "serialization_exclude"):
                if key in f:
                    field[key] = f[key]
            fields[name] = field
        out: dict[str, Any] = {
            "type": "typed-dict",
            "fields": fields,
            "extra_behavior": inner.get("extra_behavior") or config.get("extra_fields_behavior") or "ignore",
            "config": config,
        }
        strict = inner.get("strict", model.get("strict", config.get("strict")))
        if strict is not None:
            out["strict"] = strict
        if inner.get("extras_schema") is not None:
            out["extras_schema"] = self.walk(inner["extras_schema"])
        if "ref" in model:
            out["ref"] = model["ref"]
        return out


def untagged(node: Any) -> Any:
    """A copy of core schema `node` with every tagged union made a plain (smart) union of its choices: the
    shape of a hand-written `Union[TypedDict, ...]` without discriminators."""
    if isinstance(node, list | tuple):
        return type(node)(untagged(x) for x in node)
    if not isinstance(node, Mapping):
        return node
    if node.get("type") == "tagged-union":
        out = {"type": "union", "choices": [untagged(c) for c in node["choices"].values()]}
        if "ref" in node:
            out["ref"] = node["ref"]
        return out
    return {k: untagged(v) for k, v in node.items()}


def twin_verdicts(twins: Twins) -> dict[str, tuple[Callable[[Any], bool], Callable[[Any], bool]]]:
    """side -> (one item's text, an array's text) -> accepted, each read by the strict reader first."""
    out = {}
    for side in SIDES:
        one, many = twins.validator(side), twins.many(side)
        out[side] = (_verdict(one.validate_python, MAX_ITEM_DEPTH), _verdict(many.validate_python, MAX_ITEM_DEPTH + 1))
    return out


def _verdict(validate: Callable[[Any], Any], depth: int) -> Callable[[Any], bool]:
    what = "items" if depth > MAX_ITEM_DEPTH else "item"

    def verdict(text: Any) -> bool:
        try:
            value = loads(text, what=what, max_depth=depth)
        except JSONError:
            return False
        if depth > MAX_ITEM_DEPTH and type(value) is not list:
            return False
        try:
            validate(value)
        except (ValidationError, ValueError):
            return False
        return True

    return verdict


# ---------------------------------------------------------------------------------------------------------
# jsonschema-rs over the exported bundles


def schema_verdicts() -> dict[str, tuple[Callable[[Any], bool], Callable[[Any], bool]]]:
    """side -> (one item's text, an array's text) -> accepted, by jsonschema-rs over the side's bundle."""
    out = {}
    for side in SIDES:
        doc = rp.json_schema(side)
        one = jsonschema_rs.validator_for(doc)
        array = _array_validator(side)
        out[side] = (_is_valid(one.is_valid, MAX_ITEM_DEPTH), _is_valid(array.is_valid, MAX_ITEM_DEPTH + 1))
    return out


def _array_validator(side: str) -> Any:
    """jsonschema-rs over an array of `side`'s items: the bundle's root as `items`, with its `$defs`."""
    doc = rp.json_schema(side)
    root = {k: v for k, v in doc.items() if k not in ("$schema", "title", "description", "$defs")}
    return jsonschema_rs.validator_for(
        {"$schema": doc["$schema"], "type": "array", "items": root, "$defs": doc["$defs"]}
    )


def _is_valid(is_valid: Callable[[Any], bool], depth: int) -> Callable[[Any], bool]:
    what = "items" if depth > MAX_ITEM_DEPTH else "item"

    def verdict(text: Any) -> bool:
        try:
            value = loads(text, what=what, max_depth=depth)
        except JSONError:
            return False
        return is_valid(value)

    return verdict


# ---------------------------------------------------------------------------------------------------------
# The differential


def _accepts(fn: Callable[[], Any]) -> bool:
    try:
        fn()
    except rp.ItemError:
        return False
    return True


def pool(mutations: int) -> list[tuple[str, Any]]:
    """`scripts/differential.py`'s values (fixtures, cases, corpus, edge cases and their mutations)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import differential  # noqa: PLC0415  (scripts/differential.py, the schema differential's pool)
    finally:
        sys.path.pop(0)
    return differential.collect(examples=0, budget=0.0, mutations=mutations)


def harvest_items() -> list[tuple[str, Any]]:
    """Every item of the shared cases, the corpus and the tests' fixtures: the elements of `input`,
    `output`, `items` and `data` lists and `item` values, at any depth (stream events' items included)."""
    found: list[tuple[str, Any]] = []

    def walk(node: Any, source: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("input", "output", "items", "data") and isinstance(v, list):
                    found.extend((source, x) for x in v if isinstance(x, dict))
                elif k == "item" and isinstance(v, dict):
                    found.append((source, v))
                walk(v, source)
        elif isinstance(node, list):
            for v in node:
                walk(v, source)

    folders = (SHARED / "cases", SHARED / "corpus", ROOT / "tests" / "fixtures")
    for folder in folders:
        for p in sorted(folder.rglob("*")):
            if p.suffix == ".json":
                walk(json.loads(p.read_text(encoding="utf-8")), p.name)
            elif p.suffix == ".jsonl":
                for line in p.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        walk(json.loads(line), p.name)
    return found


_ENUMS = {"type": "bogus", "role": "robot", "status": 7, "phase": "middle", "detail": "ultra"}
_NAMESPACED = [
    {"type": "acme:thing", "payload": {"a": [1, 2]}},
    {"type": "openai:web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}},
    {"type": "openai:web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "teleport"}},
    {"type": "openai:web_search_call", "id": 5, "status": "completed"},
    {"type": "openai:mcp_call", "id": "mcp_1", "server_label": "s", "name": "n", "arguments": "{}"},
    {"type": "openai:mcp_call", "id": "mcp_1", "name": "n"},
    {"type": "openai:local_shell_call", "id": "ls_1", "call_id": "c", "status": "completed"},
    {"type": "openai:brand_new", "id": "x"},
    {"type": "Acme:x"},
    {"type": "acme:"},
    {"type": ":x"},
    {"type": "acme:x", "id": None, "status": None},
    {"type": "acme:x", "status": {"a": 1}},
    {"type": "web_search_call", "id": "ws_1", "status": "completed"},
    {"type": "item_reference", "id": "msg_1"},
    {"id": "msg_1"},
    {"id": "msg_1", "type": None},
    {
        "type": "message",
        "role": "assistant",
        "content": [
            {
                "type": "output_text",
                "text": "t",
                "annotations": [{"type": "openai:file_citation", "file_id": "f", "index": 1, "filename": "a"}],
            }
        ],
    },
    {
        "type": "message",
        "role": "assistant",
        "content": [
            {
                "type": "output_text",
                "text": "t",
                "annotations": [{"type": "openai:file_citation", "file_id": 5, "index": "1"}],
            }
        ],
    },
    {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "t", "annotations": [{"type": "acme:note", "x": 1}]}],
    },
    {
        "type": "message",
        "id": "m",
        "status": "completed",
        "role": "assistant",
        "content": [
            {
                "type": "output_text",
                "text": "t",
                "annotations": [{"type": "url_citation", "url": "u", "start_index": 1.0, "end_index": 2, "title": "t"}],
            }
        ],
    },
]


#: Items the rules read before parsing (a Chat Completions shape, a call inside a message's content).
_CHAT_SHAPES: list[dict[str, Any]] = [
    {"type": "message", "role": "assistant", "content": "x", "tool_calls": [{"id": "c", "type": "function"}]},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function"}]},
    {"role": "tool", "tool_call_id": "c", "content": "x"},
    {"type": "message", "role": "assistant", "content": [{"type": "function_call", "call_id": "c", "name": "f"}]},
    {"type": "message", "role": "user", "content": [{"type": "function_call_output", "call_id": "c", "output": "x"}]},
    {"type": "message", "role": "user", "content": "hi", "name": "bob"},
]


def _values_at(x: Any, pre: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield pre
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _values_at(v, (*pre, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _values_at(v, (*pre, i))


def _other_type(v: Any, rng: random.Random) -> Any:
    if isinstance(v, bool):
        return rng.choice([1, "true", None])
    if isinstance(v, int):
        return rng.choice([float(v), str(v), -1, None, True, 2**70])
    if isinstance(v, float):
        return rng.choice([str(v), int(v), None])
    if isinstance(v, str):
        return rng.choice([5, None, [v], {"text": v}, "", "x" * 65, v + "\u0000", True])
    if isinstance(v, list):
        return rng.choice([{}, "[]", None, [None], [5]])
    if isinstance(v, dict):
        return rng.choice([[], "{}", None, [v]])
    return rng.choice(["null", 0, {}])


def mutate(item: dict[str, Any], rng: random.Random) -> tuple[str, Any]:
    """One named mutation of `item` (a copy)."""
    x = copy.deepcopy(item)
    paths = [p for p in _values_at(x) if p]
    kind = rng.choice(["drop", "type", "enum", "extra", "nested", "namespaced", "arguments", "item_type", "splice"])
    if kind == "arguments":
        if x.get("type") == "function_call" or "arguments" in x:
            x["arguments"] = rng.choice([{"a": 1}, [], None, 5, '{"a": 1}'])
        else:
            x = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": {"city": "x"}}
        return kind, x
    if kind == "namespaced":
        base = copy.deepcopy(rng.choice(_NAMESPACED))
        if rng.random() < 0.5:
            base.update({k: v for k, v in x.items() if k != "type"})
        return kind, base
    if kind == "item_type":
        x["type"] = rng.choice(
            [
                "function_call",
                "message",
                "reasoning",
                "compaction",
                "function_call_output",
                "item_reference",
                "openai:web_search_call",
                "acme:x",
                "web_search_call",
            ]
        )
        return kind, x
    if not paths:
        return kind, x
    path = rng.choice(paths)
    parent: Any = x
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if kind == "drop":
        del parent[key]
    elif kind == "type":
        parent[key] = _other_type(parent[key], rng)
    elif kind == "enum":
        if isinstance(parent, dict):
            names = [k for k in parent if k in _ENUMS]
            if names:
                key = rng.choice(names)
                parent[key] = _ENUMS[key] if rng.random() < 0.5 else "in_progress" if key == "status" else "zzz"
            else:
                parent[key] = "bogus"
        else:
            parent[key] = "bogus"
    elif kind == "extra":
        target = parent[key] if isinstance(parent[key], dict) else parent if isinstance(parent, dict) else x
        target[rng.choice(["zzz", "extra", "id", "status", "role", "logprobs", "annotations"])] = rng.choice(
            [None, 1, "s", [], {"k": "v"}, 1.5]
        )
    elif kind == "nested":
        parts = [p for p in paths if len(p) >= 2 and isinstance(p[-1], int)]
        if parts:
            path = rng.choice(parts)
            parent = x
            for k in path[:-1]:
                parent = parent[k]
            part = parent[path[-1]]
            if isinstance(part, dict):
                choice = rng.random()
                if choice < 0.3:
                    part["type"] = rng.choice(
                        ["bogus", "input_text", "output_text", "refusal", "acme:part", "summary_text"]
                    )
                elif choice < 0.6 and part:
                    del part[rng.choice(list(part))]
                else:
                    part[rng.choice(list(part) or ["text"])] = _other_type(part.get("text", "t"), rng)
            else:
                parent[path[-1]] = rng.choice([{"type": "input_text"}, {"text": "t"}, 5, None])
        else:
            x["content"] = [{"type": "input_text", "text": 5}]
    else:  # splice: a value moved under another key
        if isinstance(parent, dict) and len(parent) > 1:
            other = rng.choice([k for k in parent if k != key])
            parent[other], parent[key] = parent[key], parent[other]
    return kind, x


_STRICT_REFUSALS = [
    ("duplicate key", lambda t: '{"zzz": 1, "zzz": 2, ' + t[1:]),
    ("duplicate type", lambda t: t.replace('"type":', '"type": "x", "type":', 1)),
    ("1e400", lambda t: t[:-1] + ', "n": 1e400}'),
    ("-1e400", lambda t: t[:-1] + ', "n": -1e400}'),
    ("NaN", lambda t: t[:-1] + ', "n": NaN}'),
    ("Infinity", lambda t: t[:-1] + ', "n": Infinity}'),
    ("lone surrogate", lambda t: t[:-1] + ', "n": "\\ud800"}'),
    ("integer of 5000 digits", lambda t: t[:-1] + ', "n": ' + "9" * 5000 + "}"),
    ("too deep", lambda t: t[:-1] + ', "n": ' + "[" * 300 + "]" * 300 + "}"),
    ("trailing text", lambda t: t + " x"),
    ("invalid UTF-8", lambda t: t[:-1] + ', "n": "\udcff"}'),
]


def _integral_float(x: Any) -> bool:
    if isinstance(x, float):
        return x.is_integer()
    if isinstance(x, dict):
        return any(map(_integral_float, x.values()))
    if isinstance(x, list):
        return any(map(_integral_float, x))
    return False


def _why(text: Any, side: str) -> str:
    """What a disagreement is about: an integral float in the value, or where `parse_item` refuses it (the
    first error's path, list indexes as `*`, and rule); `accepted` when it accepts it."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if _integral_float(value):
        return "integral float"
    try:
        rp.parse_item(text, side=side)  # type: ignore[call-overload]
    except rp.ItemError as exc:
        err = exc.errors[0]
        loc = "/".join("*" if isinstance(p, int) else str(p) for p in err["loc"])
        kind = value.get("type") if isinstance(value, dict) else None
        return f"{kind} at {loc or '(item)'}: {err['type']}"
    return "accepted by parse_item"


def differential(n_mutations: int, pool_mutations: int, seed: int = 36) -> dict[str, list[str]]:
    """Every disagreement of each verdict path with `parse_item` / `parse_items`, printed and returned."""
    twins = Twins()
    paths = {"twins": twin_verdicts(twins), "jsonschema-rs": schema_verdicts()}
    print(
        f"twins: {twins.models} model schemas turned into typed-dict schemas ({len(twins.stand_ins)} classes); "
        f"validators kept: {', '.join(f'{k} x{v}' for k, v in sorted(twins.kept.items()))}"
    )
    rng = random.Random(seed)
    values: list[tuple[str, Any]] = [(f"pool:{s}", v) for s, v in pool(pool_mutations)]
    items = harvest_items()
    values += [(f"item:{s}", v) for s, v in items]
    values += [("edge:namespaced", v) for v in _NAMESPACED] + [("edge:chat", v) for v in _CHAT_SHAPES]
    seeds = [v for _, v in items] + _NAMESPACED + _CHAT_SHAPES
    for _ in range(n_mutations):
        kind, v = mutate(rng.choice(seeds), rng)
        values.append((f"mutated:{kind}", v))
    texts: list[tuple[str, bytes | str]] = [(s, json.dumps(v)) for s, v in values]
    harvested = [t for s, t in texts if s.startswith("item:") and t.startswith("{")]
    for name, change in _STRICT_REFUSALS:
        for t in harvested[:: max(1, len(harvested) // 40)]:
            texts.append((f"strict:{name}", change(t)))
    disagreements: dict[str, list[str]] = {k: [] for k in paths}
    kinds: dict[str, dict[str, int]] = {}  # path -> "side: why" -> count
    counts = {side: [0, 0] for side in SIDES}
    for source, text in texts:
        raw: bytes | str = text
        if source == "strict:invalid UTF-8":
            raw = text.encode("utf-8", "surrogateescape")
        for side in SIDES:
            want = _accepts(lambda raw=raw, side=side: rp.parse_item(raw, side=side))
            counts[side][want] += 1
            for name, by_side in paths.items():
                got = by_side[side][0](raw)
                if got != want:
                    why = _why(raw, side)
                    disagreements[name].append(
                        f"{side} {source} [{why}]: parse_item {want}, {name} {got}: {str(text)[:160]}"
                    )
                    kinds.setdefault(name, {}).setdefault(f"{side}: {why}", 0)
                    kinds[name][f"{side}: {why}"] += 1
    # whole arrays: runs of the values, as parse_items reads them
    arrays: list[tuple[str, str]] = []
    texts_only = [t for s, t in texts if not s.startswith("strict:")]
    good = {
        side: [t for t in texts_only if _accepts(lambda t=t, side=side: rp.parse_item(t, side=side))] for side in SIDES
    }
    for side in SIDES:
        arrays += [(side, "[" + ", ".join(rng.sample(good[side], min(20, len(good[side])))) + "]") for _ in range(100)]
        arrays += [
            (side, "[" + ", ".join(rng.sample(good[side], 9) + [rng.choice(texts_only)]) + "]") for _ in range(300)
        ]
        arrays += [(side, "[]"), (side, "{}"), (side, "[5]"), (side, '[{"type": "message"}]')]
    for side, text in arrays:
        want = _accepts(lambda text=text, side=side: rp.parse_items(text, side=side))
        for name, by_side in paths.items():
            got = by_side[side][1](text)
            if got != want:
                disagreements[name].append(f"{side} array: parse_items {want}, {name} {got}: {text[:160]}")
    print(
        f"\ndifferential: {len(texts)} texts x {len(SIDES)} sides (input: {counts['input'][1]} accepted, "
        f"{counts['input'][0]} refused; output: {counts['output'][1]} accepted, {counts['output'][0]} refused), "
        f"then {len(arrays)} arrays"
    )
    for name, found in disagreements.items():
        print(f"  {name}: {len(found)} disagreements")
        for why, count in sorted(kinds.get(name, {}).items(), key=lambda kv: -kv[1]):
            print(f"    {count:5d}  {why}")
        for line in found:
            print(f"    {line}")
    return disagreements


# ---------------------------------------------------------------------------------------------------------
# Timing


def _w1(n: int) -> bytes:
    """`check.py perf`'s W1: core output items (its `_core_output_transcript`)."""
    items: list[dict[str, Any]] = []
    for i in range(n // 3 + 1):
        text = {"type": "output_text", "text": f"answer {i}: apac sold 1234 units", "annotations": []}
        items += [
            {"type": "message", "id": f"msg_{i}", "status": "completed", "role": "assistant", "content": [text]},
            {
                "type": "function_call",
                "id": f"fc_{i}",
                "call_id": f"call_{i}",
                "name": "get_latest_sales_report",
                "status": "completed",
                "arguments": '{"region":"apac","limit":10}',
            },
            {
                "type": "function_call_output",
                "id": f"fco_{i}",
                "call_id": f"call_{i}",
                "status": "completed",
                "output": f"sales report {i} for apac",
            },
        ]
    return json.dumps(items[:n]).encode()


def _w2(n: int) -> bytes:
    """`check.py perf`'s W2 (its `_transcript`): one namespaced item in five."""
    from bench_real import _transcript  # noqa: PLC0415

    return _transcript(n)


def _corpus(n: int) -> bytes | None:
    """The recorded output items both readers accept (`bench_real.corpus_items`), repeated to `n`."""
    from bench_real import corpus_items, recorded  # noqa: PLC0415

    folder = SHARED / "corpus"
    if not folder.is_dir():
        return None
    kept = corpus_items(recorded(folder), None)
    if not kept:
        return None
    return json.dumps([kept[i % len(kept)] for i in range(n)]).encode()


def _corpus_transcript(n: int) -> bytes | None:
    """The recorded output items (`_corpus`'s) as a transcript of `n` items: cycled, each repetition's ids and
    call_ids made unique (suffix `_<repetition>`), each function_call followed by its output."""
    from bench_real import corpus_items, recorded  # noqa: PLC0415

    folder = SHARED / "corpus"
    kept = corpus_items(recorded(folder), None) if folder.is_dir() else []
    if not kept:
        return None
    items: list[dict[str, Any]] = []
    rep = 0
    while len(items) < n:
        for item in kept:
            x = dict(item)
            for key in ("id", "call_id"):
                if rep and isinstance(x.get(key), str):
                    x[key] = f"{x[key]}_{rep}"
            items.append(x)
            if x["type"] == "function_call":
                items.append({"type": "function_call_output", "call_id": x["call_id"], "output": "42"})
        rep += 1
    return json.dumps(items[:n]).encode()


def verdict_check(twins: Twins, *, models: bool = False) -> Callable[[Any], Any]:
    """`check_transcript(read_document(text))` (what the command line runs on a file) with the items' verdict
    taken by the twins in one batch (with no `side`, items the batch refuses in their input form are then
    judged one by one, input form else output form, as `_parse_either` does) and the rules run over the read
    dicts (their views) instead of models; `check_transcript` itself when an item does not parse, when one is
    read before parsing (`_item_read._read_first`), or in OpenAI mode. A replica of
    `replayable._replay.check_transcript`'s body for a call without tools, target, previous or side (the
    document's own tools, tool_choice and side apply): only its per-item `read_item` is replaced. The
    report's `items` are the read dicts, not models.

    `models=True`: the same replica with the library's own strict list adapter in place of the twins (the
    rules then read the models' views, as `check_transcript` of parsed items does): what the verdict path
    would be with models, so that the two differ in the verdict alone."""
    from replayable._call_gate import allowed_tool_names  # noqa: PLC0415
    from replayable._continuation import unwrap  # noqa: PLC0415
    from replayable._findings import Findings, TranscriptReport  # noqa: PLC0415
    from replayable._item_read import _read_first as read_first  # noqa: PLC0415
    from replayable._profiles import TargetCheck  # noqa: PLC0415
    from replayable._reading import read_document  # noqa: PLC0415
    from replayable._replay import body_findings, read_mappings_once  # noqa: PLC0415
    from replayable._rules.engine import Engine, run_rules  # noqa: PLC0415
    from replayable._rules.state import Context  # noqa: PLC0415
    from replayable._rules.view import model_views, view_of  # noqa: PLC0415
    from replayable._tools import tool_index  # noqa: PLC0415

    fast = [0]  # how many reports the verdict path made itself (the rest fell back to check_transcript)
    one_input, one_output = twins.validator("input").validate_python, twins.validator("output").validate_python

    def either(item: Any) -> bool:
        """`_parse_either` of `replayable._rules.parse` with the twins: the input form, else (but for calls
        and outputs, which are sent back as they are) the output form."""
        try:
            one_input(item)
        except ValidationError:
            if item.get("type") in ("function_call", "function_call_output"):
                return False
            try:
                one_output(item)
            except ValidationError:
                return False
        return True

    def check(text: Any) -> Any:
        doc = read_document(text)  # the one reader, as the command line's read_file reads a file
        unwrapped = unwrap(doc, None, None)
        raw_items, side = read_mappings_once(unwrapped.items), unwrapped.side
        if unwrapped.provider is not None:  # OpenAI mode has no twins here
            return rp.check_transcript(doc)
        if any(map(read_first, raw_items)):  # what the rules read before parsing: as check_transcript does
            return rp.check_transcript(doc)
        validator = ITEM_ADAPTERS[(side or "input", False)][1].validator if models else twins.many(side or "input")
        try:  # side None: every item in its input form (calls and outputs must be), else one by one below
            parsed = validator.validate_python(raw_items)
        except ValidationError:
            if models or side is not None or not all(map(either, raw_items)):
                return rp.check_transcript(doc)  # an item that does not parse: its findings are the models'
            parsed = raw_items
        views = model_views(parsed, side, []) if models else list(map(view_of, raw_items))
        if views is None:
            return rp.check_transcript(doc)
        fast[0] += 1
        violations = Findings()
        profile = TargetCheck(None, doc.settings, doc.body_keys)
        ctx = Context(None, tool_index(doc.tools), allowed_tool_names(doc.tool_choice), side, None, None, profile, doc)
        pending = run_rules(views, Engine(ctx, violations), unwrapped.response, unwrapped.offset, raw_items)
        violations.extend(body_findings(doc, ctx))
        violations.sort(key=lambda v: v.index if v.index is not None else -1)
        items = parsed if models else raw_items
        return unwrapped.finish(TranscriptReport(tuple(violations), tuple(pending), tuple(items)))

    check.fast = fast  # type: ignore[attr-defined]
    return check


def _report_key(report: Any) -> tuple[Any, ...]:
    """What a user sees of a report: every finding (code, index, path, message, severity), pending, external."""
    found = tuple((f.code, f.index, f.path, f.message, f.severity) for f in report.violations)
    return found, report.pending, report.external, len(report.items)


def check_differential(twins: Twins, n_mutations: int, seed: int = 36) -> list[str]:
    """The check replica (`verdict_check`) against `check_transcript(read_document(text))` on every shared
    case's items, every recorded corpus payload, the tests' fixture transcripts and mutated W2 transcripts
    (one item mutated, as the differential mutates): every report that differs, printed and returned."""
    from replayable._reading import read_document  # noqa: PLC0415

    check, with_models = verdict_check(twins), verdict_check(twins, models=True)
    texts: list[tuple[str, str]] = []
    for p in sorted((SHARED / "cases").glob("*.json")):
        case = json.loads(p.read_text(encoding="utf-8"))
        for key in ("input", "item"):
            if key in case:
                texts.append((f"case {p.stem}", json.dumps(case[key])))
    for folder in (SHARED / "corpus", ROOT / "tests" / "fixtures"):
        for p in sorted(folder.rglob("*.json")):
            doc = json.loads(p.read_text(encoding="utf-8"))
            texts.append(
                (f"{folder.name}/{p.name}", json.dumps(doc.get("body", doc) if isinstance(doc, dict) else doc))
            )
    rng = random.Random(seed)
    base = json.loads(_w2(25))
    seeds = [v for _, v in harvest_items()] + _NAMESPACED + _CHAT_SHAPES
    for i, edge in enumerate([*_NAMESPACED, *_CHAT_SHAPES]):
        texts.append((f"edge {i} alone", json.dumps([edge])))
        texts.append((f"edge {i} in W2", json.dumps([*base[:7], edge, *base[7:]])))
        texts.append((f"edge {i} as output", json.dumps({"object": "response", "id": "r", "output": [edge]})))
    for _ in range(n_mutations):
        items = copy.deepcopy(base)
        i = rng.randrange(len(items))
        kind, items[i] = mutate(rng.choice([items[i], rng.choice(seeds)]), rng)
        texts.append((f"W2 mutated:{kind} at {i}", json.dumps(items)))
    out: list[str] = []
    compared = 0
    for source, text in texts:
        try:
            want: Any = _report_key(rp.check_transcript(read_document(text)))
        except (rp.ItemError, ValueError) as exc:
            want = type(exc).__name__
        for name, replica in (("twins + rules", check), ("models replica", with_models)):
            try:
                got: Any = _report_key(replica(text))
            except (rp.ItemError, ValueError) as exc:
                got = type(exc).__name__
            if got != want:
                out.append(f"{source}: check_transcript {str(want)[:200]}, {name} {str(got)[:200]}")
        compared += 1
    print(
        f"\ncheck differential: {compared} transcripts (cases, corpus, fixtures, mutated W2; "
        f"{check.fast[0]} of them through the verdict path, the others handed to check_transcript: an item "
        f"the rules read before parsing, or one that does not parse), {len(out)} reports differ"
    )
    for line in out:
        print(f"    {line}")
    return out


def _check_timing(
    name: str, text: bytes, n: int, n_rounds: int, gc_off: bool, check: Any, with_models: Any
) -> dict[str, float]:
    """The check of one transcript (`text`, a JSON array of items): the command line's pipeline, the
    library's text routes, the models replica and the verdict path, paired in one process."""
    from replayable._checking import CheckOptions, check_document  # noqa: PLC0415
    from replayable._reading import read_document, read_file  # noqa: PLC0415

    mode = "off" if gc_off else "on"
    figures: dict[str, float] = {}
    fast = check.fast[0]
    a, b, c = rp.check_transcript(read_document(text)), check(text), with_models(text)
    same = _report_key(a) == _report_key(b) == _report_key(c)
    print(
        f"\n{name} check: the replicas' reports equal check_transcript's: {same} ({len(a.violations)} findings; "
        f"the verdict path {'made its report itself' if check.fast[0] > fast else 'handed it to check_transcript'})"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "transcript.json"
        path.write_bytes(text)

        def cli(_: bytes) -> Any:  # `replayable check FILE` in process, without rendering the record
            doc = read_file(path, lazy=True)
            try:
                return check_document(doc, CheckOptions())
            finally:
                if doc.source is not None:
                    doc.source.close()

        cands = {
            FLOOR: TypeAdapter(list[dict[str, Any]]).validate_json,
            "CLI: check_document(read_file(path))": cli,
            "check_transcript(read_document(bytes))": lambda d: rp.check_transcript(read_document(d)),
            "check_transcript(parse_items(bytes))": lambda d: rp.check_transcript(rp.parse_items(d)),
            "models replica: strict list adapter + rules": with_models,
            "twins verdict + rules over the dicts": check,
            "the same, from the file": lambda _: check(path.read_bytes()),
        }
        try:
            rp.parse_items(text)
        except rp.ItemError:  # output-form items: no input-side parse, and no models replica (it reads input)
            del cands["check_transcript(parse_items(bytes))"], cands["models replica: strict list adapter + rules"]
        times = rounds(cands, text, n_rounds, gc_off)
    table(f"{name} with check_transcript, {n} items, collector {mode}", times, n, FLOOR, 40)
    if a.violations:
        print("  (the command line also places each finding at its line and column: its row is not paired)")
        del times["CLI: check_document(read_file(path))"]
    for base, ours in (
        ("CLI: check_document(read_file(path))", "the same, from the file"),
        ("check_transcript(read_document(bytes))", "twins verdict + rules over the dicts"),
        ("check_transcript(parse_items(bytes))", "twins verdict + rules over the dicts"),
        ("models replica: strict list adapter + rules", "twins verdict + rules over the dicts"),
        ("CLI: check_document(read_file(path))", "models replica: strict list adapter + rules"),
    ):
        if base in times and ours in times:
            r = paired(times, base, ours)
            figures[f"{name} check / {base} vs {ours} / gc {mode}"] = r
            print(f"  {base} / {ours}: x{r:.2f} (>1: the second is faster)")
    return figures


def timing(n: int, n_rounds: int, gc_off: bool, twins: Twins) -> dict[str, float]:
    floor = TypeAdapter(list[dict[str, Any]]).validate_json
    schemas = schema_verdicts()
    schemas_raw = {side: _array_validator(side) for side in SIDES}
    figures: dict[str, float] = {}
    mode = "off" if gc_off else "on"

    def strict(d: bytes) -> Any:
        return loads(d, what="items", max_depth=MAX_ITEM_DEPTH + 1)

    workloads: list[tuple[str, bytes | None, str]] = [
        ("W1 core output items", _w1(n), "output"),
        ("W2 mixed (one namespaced in five)", _w2(n), "input"),
        ("real corpus output items", _corpus(n), "output"),
    ]
    for name, text, side in workloads:
        if text is None:
            print(f"\n{name}: no corpus beside the checkout, skipped")
            continue
        many = twins.many(side).validate_python
        schema_array = schemas[side][1]
        assert rp.parse_items(text, side=side) and schema_array(text) and many(strict(text)) is not None  # type: ignore[call-overload]
        cands = {
            FLOOR: floor,
            "strict read alone (_json.loads)": strict,
            "parse_items(bytes)": lambda d, s=side: rp.parse_items(d, side=s),
            "strict read + twins verdict": lambda d, v=many: v(strict(d)),
            "strict read + jsonschema-rs verdict": schema_array,
        }
        times = rounds(cands, text, n_rounds, gc_off)
        table(f"{name}, {n} items, collector {mode}", times, n, FLOOR, 40)
        for k in ("strict read + twins verdict", "strict read + jsonschema-rs verdict"):
            r = paired(times, "parse_items(bytes)", k)
            figures[f"{name} / {k} / gc {mode}"] = r
            print(f"  parse_items(bytes) / {k}: x{r:.2f} (>1: the verdict is faster)")
        dicts = strict(text)  # the verdict alone, over dicts read once: models, twins, jsonschema-rs
        alone = {
            "models: the strict list adapter": ITEM_ADAPTERS[(side, False)][1].validator.validate_python,
            "twins: validate_python": many,
            "twins without discriminators": SchemaValidator(untagged(twins.schemas[side])).validate_python,
            "jsonschema-rs: is_valid": schemas_raw[side].is_valid,
        }
        times = rounds(alone, dicts, n_rounds, gc_off)
        table(
            f"{name}: validating the read dicts alone, collector {mode}",
            times,
            n,
            "models: the strict list adapter",
            40,
        )
        r = paired(times, "models: the strict list adapter", "twins: validate_python")
        figures[f"{name} / validation alone, models / twins / gc {mode}"] = r
    check, with_models = verdict_check(twins), verdict_check(twins, models=True)
    for name, text in (("W2", _w2(n)), ("real corpus transcript", _corpus_transcript(n))):
        if text is not None:
            figures |= _check_timing(name, text, n, n_rounds, gc_off, check, with_models)
    return figures


def collections(n: int, twins: Twins) -> None:
    """How many collections of each generation one call starts with the collector on (`gc.callbacks`), from
    a freshly collected heap: why the collector-on figures jump (a full collection, or none)."""
    import gc  # noqa: PLC0415

    counts = [0, 0, 0]

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            counts[info["generation"]] += 1

    def strict(d: bytes) -> Any:
        return loads(d, what="items", max_depth=MAX_ITEM_DEPTH + 1)

    print(f"\ncollections started by one call, collector on, {n} items (young, middle, full):")
    gc.callbacks.append(count)
    try:
        for name, text, side in (("W1", _w1(n), "output"), ("W2", _w2(n), "input"), ("corpus", _corpus(n), "output")):
            if text is None:
                continue
            many, schema = twins.many(side).validate_python, _array_validator(side).is_valid
            for k, fn in (
                ("parse_items(bytes)", lambda d, s=side: rp.parse_items(d, side=s)),
                ("strict read alone", strict),
                ("strict read + twins verdict", lambda d, v=many: v(strict(d))),
                ("strict read + jsonschema-rs verdict", lambda d, v=schema: v(strict(d))),
            ):
                gc.collect()
                counts[:] = [0, 0, 0]
                out = fn(text)
                print(f"  {name:7s} {k:36s} {tuple(counts)}")
                del out
    finally:
        gc.callbacks.remove(count)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer mutations, items and rounds")
    ap.add_argument("--only", choices=["differential", "timing", "gc"], help="one section")
    ap.add_argument("-n", type=int, default=None, help="items per timed workload (default 20000; --quick 5000)")
    ap.add_argument("--rounds", type=int, default=None, help="timing rounds (default 11; --quick 5)")
    ap.add_argument("--gc", choices=["off", "on", "both"], default="both", help="the collector during timed calls")
    args = ap.parse_args()
    n = args.n or (5_000 if args.quick else 20_000)
    n_rounds = args.rounds or (5 if args.quick else 11)
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    if args.only in (None, "differential"):
        differential(n_mutations=600 if args.quick else 4_000, pool_mutations=1 if args.quick else 2)
        check_differential(Twins(), n_mutations=100 if args.quick else 1_000)
    if args.only == "gc":
        collections(n, Twins())
    if args.only in (None, "timing"):
        twins = Twins()
        figures: dict[str, float] = {}
        for gc_off in {"off": (True,), "on": (False,), "both": (True, False)}[args.gc]:
            figures |= timing(n, n_rounds, gc_off, twins)
        collections(n, twins)
        print(
            f"\nload average {os.getloadavg()[0]:.2f}; paired speed-ups of the verdict paths (decision rule: >= 1.5):"
        )
        for k, v in figures.items():
            print(f"  {k}: x{v:.2f}")


if __name__ == "__main__":
    main()
