"""The work budget of checking a value against a tool schema: no schema and value together can crash
the process or make a check take exponential time.

jsonschema-rs evaluates a schema recursively on the native stack: every subschema entered (an
applicator branch such as an `allOf` entry, a `$ref` target, a `properties` value) is a frame, and its
error walks (`evaluate`, `iter_errors`) use far more stack per frame than `is_valid`. A 4.6 KB schema
made of a chain of `allOf`/`$ref` steps that recurses into the value overflows the stack (SIGSEGV)
once the chain length times the value's depth passes about 6,000 steps, and a chain of `anyOf`
entries that each name the next step twice costs 2^n evaluations. Both are bounded here before
jsonschema-rs sees the value:

- `MAX_SCHEMA_STEPS`: the most subschemas one evaluation path may enter, from the root down to the
  deepest value (bounds the native stack: about 1.4 MB at 2,048 steps, under a fifth of the 8 MB a
  main thread or a Linux thread has; macOS gives threads other than the main one 512 KB).
- `MAX_SCHEMA_FANOUT`: the most subschema evaluations one location of the value may cost (bounds
  time: checking costs at most this many evaluations per value in the arguments, never 2^depth).

`schema_profile` computes, once per compiled schema, the deepest value (in levels of arrays and
objects) that stays within both budgets, from an upper bound of jsonschema-rs' work: in-place
applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`, `$ref`,
`$dynamicRef`, `$recursiveRef`) are all entered at one location; a child location gets one
`properties` (or `prefixItems`) entry plus every `patternProperties`, `additionalProperties`,
`unevaluated*`, `items`, `contains`, `propertyNames` schema; `unevaluated*` counts its location's
in-place work again. A schema that enters itself without stepping into the value (`{"allOf":
[{"$ref": "#"}]}`, an endless loop) is refused outright.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from .errors import SchemaLoopError

__all__ = [
    "MAX_LISTED_VALUES",
    "MAX_SCHEMA_FANOUT",
    "MAX_SCHEMA_STEPS",
    "SchemaLoopError",
    "SchemaProfile",
    "count_values",
    "schema_profile",
    "value_depth",
]

#: Most subschemas one evaluation path may enter, summed over every level of the value (native stack).
MAX_SCHEMA_STEPS = 2048
#: Most subschema evaluations one location of the value may cost (time per value).
MAX_SCHEMA_FANOUT = 10_000
#: Most JSON values a failing value may hold for its failures to be listed one by one: jsonschema-rs
#: builds all of a value's errors at once (hundreds of bytes each), so past this only the verdict is given.
MAX_LISTED_VALUES = 5_000
#: Deepest value a profile is computed for (the strict reader never goes past 201 levels).
_MAX_LEVELS = 202
_CAP = 1 << 62

_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
_MAP_KEYWORDS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else", "contentSchema")
_OBJECT_ALWAYS = ("additionalProperties", "unevaluatedProperties", "propertyNames")
_ARRAY_ALWAYS = ("additionalItems", "contains", "unevaluatedItems")
_ROOT = "https://replayable.invalid/schema"  # a base that `urljoin` can resolve against


class SchemaProfile:
    """The deepest value (levels of arrays and objects, a top-level object being 1) that a schema can
    check within the budgets, and the bounds at one level past it (for the message)."""

    __slots__ = ("fanout", "limit", "steps")

    def __init__(self, limit: int, steps: int, fanout: int) -> None:
        self.limit = limit
        self.steps = steps
        self.fanout = fanout


class _Node:
    __slots__ = ("array_always", "array_indexed", "in_place", "object_always", "object_named", "unevaluated")

    def __init__(self) -> None:
        self.in_place: list[Any] = []
        self.object_named: list[Any] = []
        self.object_always: list[Any] = []
        self.array_indexed: list[Any] = []
        self.array_always: list[Any] = []
        self.unevaluated = 0


class _Graph:
    """The subschemas of a schema (and its registry), with references resolved in-process."""

    def __init__(self) -> None:
        self.resources: dict[str, Any] = {}
        self.anchors: dict[tuple[str, str], Any] = {}
        self.dynamic: dict[str, list[Any]] = {}
        self.recursive: list[Any] = []
        self.base: dict[int, str] = {}
        self.refs: list[tuple[Any, str, str]] = []  # (node, keyword, target URI)

    def add(self, schema: Any, base: str, draft4: bool = False) -> None:
        self.resources.setdefault(base, schema)
        stack: list[tuple[Any, str, str]] = [(schema, base, "schema")]
        while stack:
            node, node_base, how = stack.pop()
            if isinstance(node, Mapping):
                if how == "schema":
                    ident = node.get("id" if draft4 else "$id")
                    if isinstance(ident, str):
                        if ident.startswith("#"):
                            self.anchors[(node_base, ident[1:])] = node
                        else:
                            node_base = urldefrag(urljoin(node_base, ident)).url
                            self.resources.setdefault(node_base, node)
                    self.base[id(node)] = node_base
                    for kw in ("$anchor", "$dynamicAnchor"):
                        name = node.get(kw)
                        if isinstance(name, str):
                            self.anchors[(node_base, name)] = node
                            if kw == "$dynamicAnchor":
                                self.dynamic.setdefault(name, []).append(node)
                    if node.get("$recursiveAnchor") is True:
                        self.recursive.append(self.resources.get(node_base, node))
                    for kw in ("$ref", "$dynamicRef", "$recursiveRef"):
                        ref = node.get(kw)
                        if isinstance(ref, str):
                            self.refs.append((node, kw, urljoin(node_base, ref)))
                for key, value in node.items():
                    if isinstance(value, Mapping | list):
                        if how == "map":
                            stack.append((value, node_base, "schema"))
                        elif how == "data" or key in _DATA_KEYWORDS:
                            stack.append((value, node_base, "data"))
                        elif key in _MAP_KEYWORDS:
                            stack.append((value, node_base, "map"))
                        else:
                            stack.append((value, node_base, "schema"))
            elif isinstance(node, list):
                stack.extend((value, node_base, how if how == "data" else "schema") for value in node)

    def resolve(self, target: str) -> Any:
        url, fragment = urldefrag(target)
        root = self.resources.get(url)
        if root is None:
            raise SchemaLoopError(f"reference {target!r} names no resource of the schema")
        fragment = unquote(fragment)
        if not fragment:
            return root
        if not fragment.startswith("/"):
            found = self.anchors.get((url, fragment))
            if found is None:
                raise SchemaLoopError(f"reference {target!r} names no anchor of the schema")
            return found
        node = root
        for part in fragment[1:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise SchemaLoopError(f"reference {target!r} points at nothing in the schema")
        return node


def _subschemas(value: Any) -> list[Any]:
    return (
        [v for v in value if isinstance(v, Mapping | bool)]
        if isinstance(value, list)
        else ([value] if isinstance(value, Mapping | bool) else [])
    )


def _build(graph: _Graph) -> dict[int, tuple[Any, _Node]]:
    """Every subschema reachable from the resources -> its edges."""
    targets: dict[int, list[Any]] = {}
    for node, kw, target in graph.refs:
        found = [graph.resolve(target)]
        if kw == "$dynamicRef":
            found += graph.dynamic.get(urldefrag(target).fragment, [])
        elif kw == "$recursiveRef":
            found += graph.recursive
        targets.setdefault(id(node), []).extend(found)
    nodes: dict[int, tuple[Any, _Node]] = {}
    todo = [s for s in graph.resources.values() if isinstance(s, Mapping)]
    while todo:
        schema = todo.pop()
        if id(schema) in nodes:
            continue
        node = _Node()
        nodes[id(schema)] = (schema, node)
        for kw in _IN_PLACE_LISTS:
            node.in_place += _subschemas(schema.get(kw))
        for kw in _IN_PLACE_ONE:
            node.in_place += _subschemas(schema.get(kw))
        for kw in ("dependentSchemas", "dependencies"):
            value = schema.get(kw)
            if isinstance(value, Mapping):
                node.in_place += [v for v in value.values() if isinstance(v, Mapping | bool)]
        node.in_place += targets.get(id(schema), [])
        properties = schema.get("properties")
        if isinstance(properties, Mapping):
            node.object_named += [v for v in properties.values() if isinstance(v, Mapping | bool)]
        patterns = schema.get("patternProperties")
        if isinstance(patterns, Mapping):
            node.object_always += [v for v in patterns.values() if isinstance(v, Mapping | bool)]
        for kw in _OBJECT_ALWAYS:
            node.object_always += _subschemas(schema.get(kw))
        items = schema.get("items")
        if isinstance(items, list):
            node.array_indexed += _subschemas(items)
        else:
            node.array_always += _subschemas(items)
        node.array_indexed += _subschemas(schema.get("prefixItems"))
        for kw in _ARRAY_ALWAYS:
            node.array_always += _subschemas(schema.get(kw))
        node.unevaluated = ("unevaluatedProperties" in schema) + ("unevaluatedItems" in schema)
        for edges in (node.in_place, node.object_named, node.object_always, node.array_indexed, node.array_always):
            todo.extend(s for s in edges if isinstance(s, Mapping))
    return nodes


def _in_place_order(nodes: dict[int, tuple[Any, _Node]]) -> list[int]:
    """The subschemas, each after every subschema it enters in place; raises `SchemaLoopError` on a loop."""
    order: list[int] = []
    state: dict[int, int] = {}  # 1: on the stack, 2: done
    for start in nodes:
        if start in state:
            continue
        stack: list[tuple[int, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            key, n = stack[-1]
            children = nodes[key][1].in_place
            while n < len(children) and not isinstance(children[n], Mapping):
                n += 1
            if n == len(children):
                stack.pop()
                state[key] = 2
                order.append(key)
                continue
            stack[-1] = (key, n + 1)
            child = id(children[n])
            seen = state.get(child)
            if seen == 1:
                raise SchemaLoopError(
                    "the schema enters itself without stepping into the value (an endless loop of "
                    "applicators and references)"
                )
            if seen is None:
                state[child] = 1
                stack.append((child, 0))
    return order


def schema_profile(schema: Any, registry: Mapping[str, Any] | None = None) -> SchemaProfile | None:
    """The budget profile of a compiled schema (plain JSON, references already checked to stay
    in-process), or None when every value the strict reader accepts stays within the budgets. Raises
    `SchemaLoopError` for a schema that loops in place or whose own root is over budget."""
    if not isinstance(schema, Mapping):
        return None
    graph = _Graph()
    for uri, resource in (registry or {}).items():
        graph.add(resource, urldefrag(uri).url)
    graph.add(schema, _ROOT, "draft-04" in str(schema.get("$schema")))
    graph.resources[_ROOT] = schema
    nodes = _build(graph)
    order = _in_place_order(nodes)
    size = len(order)
    index = {key: n for n, key in enumerate(order)}
    root = index[id(schema)]

    def pick(edges: list[Any]) -> list[int]:
        return [index[id(s)] if isinstance(s, Mapping) else -1 for s in edges]

    plan = [
        (
            pick(node.in_place),
            pick(node.object_named),
            pick(node.object_always),
            pick(node.array_indexed),
            pick(node.array_always),
            node.unevaluated + 1,
        )
        for node in (nodes[key][1] for key in order)
    ]
    prev_f: list[int] = []
    prev_h: list[int] = []
    for level in range(_MAX_LEVELS):
        f = [0] * size
        h = [0] * size

        def val(arr: list[int], i: int) -> int:
            return 1 if i < 0 else arr[i]

        for i, (in_place, named, obj, indexed, arr, times) in enumerate(plan):
            fan = 1 + times * sum(val(f, c) for c in in_place)
            depth = max((val(h, c) for c in in_place), default=0)
            if level:
                obj_f = max((val(prev_f, c) for c in named), default=0) + sum(val(prev_f, c) for c in obj)
                arr_f = max((val(prev_f, c) for c in indexed), default=0) + sum(val(prev_f, c) for c in arr)
                fan += max(obj_f, arr_f)
                depth = max(depth, *(val(prev_h, c) for c in (*named, *obj, *indexed, *arr)), 0)
            f[i] = min(fan, _CAP)
            h[i] = depth + 1
        if f[root] > MAX_SCHEMA_FANOUT or h[root] > MAX_SCHEMA_STEPS:
            if level == 0:
                raise SchemaLoopError(
                    f"checking even a single value would cost {f[root]} subschema evaluations and "
                    f"{h[root]} nested steps (budgets: {MAX_SCHEMA_FANOUT} and {MAX_SCHEMA_STEPS})"
                )
            return SchemaProfile(level - 1, h[root], f[root])
        if f == prev_f and h == prev_h:
            return None  # a fixed point: deeper values cost no more
        prev_f, prev_h = f, h
    return None


def value_depth(value: Any, stop: int) -> int:
    """Levels of arrays and objects in a plain JSON value (a top-level object is 1, a scalar 0), counted
    up to `stop + 1` at most. Iterative."""
    if not isinstance(value, dict | list):
        return 0
    deepest = 1
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if deepest > stop:
                return deepest
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return deepest


def count_values(value: Any, stop: int) -> int:
    """JSON values in a plain JSON value (every array, object and scalar, keys not counted), counted up
    to `stop + 1` at most. Iterative; an object of scalars (most arguments) is counted without a walk."""
    if type(value) is dict and len(value) < stop:
        kinds = set(map(type, value.values()))
        if dict not in kinds and list not in kinds:
            return len(value) + 1
    count = 0
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        count += 1
        if count > stop:
            return count
        if isinstance(node, dict):
            if len(node) > stop:
                return stop + 1
            stack.extend(node.values())
        elif isinstance(node, list):
            if len(node) > stop:
                return stop + 1
            stack.extend(node)
    return count
