"""Cross-provider diff: what changed between an item (or a list of items) and its replayed copy, and
whether the change blocks a replay.

A transcript moved from one provider to another, or rewritten by a gateway, must keep what tool
execution hangs on: the item `type` (a portable `function_call` must not turn into a `slug:name`
extension, which is not portable; Open Responses 2026-04-24, "Extending items"), the `call_id` that
pairs a call with its output byte for byte ("Tool calling"), the tool `name`, and the meaning of the
`arguments`. Provider-scoped `id`s may change freely; so may key order and whitespace inside the
`arguments` string, which are compared as parsed strict JSON (`replayable._arguments.parse_arguments`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ._arguments import ArgumentsError, parse_arguments
from ._families import by_call_type
from ._item_json import plain_json
from ._pointers import pointer_token
from .items import ItemError

__all__ = ["Change", "Difference", "compare_items"]


class Change(StrEnum):
    """What a `Difference` is about. `type`, `call_id`, `name`, `arguments` (in meaning) and a call or
    output present on one side only block a replay; the others never do."""

    TYPE = "type"
    """The item `type` changed (above all into a `slug:name` extension, which is not portable)."""
    CALL_ID = "call_id"
    """The `call_id` changed, by even one byte (or appeared / disappeared)."""
    NAME = "name"
    """The tool `name` changed."""
    ARGUMENTS = "arguments"
    """The arguments differ: blocking when their parsed JSON differs, not when only key order or
    whitespace does."""
    ID = "id"
    """The provider-scoped item `id` changed, appeared or disappeared (never blocks)."""
    FIELD = "field"
    """Any other field changed, appeared or disappeared (never blocks)."""
    ITEM_REMOVED = "item_removed"
    """An item of the original has no counterpart in the candidate (blocks for a call or an output)."""
    ITEM_ADDED = "item_added"
    """An item of the candidate has no counterpart in the original (blocks for a call or an output)."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One difference found by `compare_items`.

    `path` is a JSON Pointer (RFC 6901) into the original (into the candidate for `item_added`): into
    the item when two items were compared (`/call_id`), starting with the item's index when two lists
    were (`/2/call_id`). `change` is a `Change`; `blocking` says whether the candidate must not be
    replayed in place of the original; `original` / `candidate` hold the two values (`None` when
    absent); `message` explains it.
    """

    path: str
    change: Change
    blocking: bool
    message: str
    original: Any = None
    candidate: Any = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: `{path, change, blocking, message, original, candidate}`."""
        return {
            "path": self.path,
            "change": str(self.change),
            "blocking": self.blocking,
            "message": self.message,
            "original": self.original,
            "candidate": self.candidate,
        }


_ABSENT: Any = object()


def _object(value: Any, loc: tuple[Any, ...], what: str) -> Mapping[str, Any]:
    value = plain_json(value, what)
    if not isinstance(value, Mapping):
        got = "null" if value is None else type(value).__name__
        raise ItemError([{"loc": loc, "type": "object_type", "msg": f"{what} must be a JSON object, got {got}"}])
    return value


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values: object key order does not count, `1 == 1.0`, but `true != 1` and
    `"1" != 1`. Iterative: any nesting depth, no `RecursionError`."""
    stack: list[tuple[Any, Any]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, bool) or isinstance(y, bool):
            if not (isinstance(x, bool) and isinstance(y, bool) and x is y):
                return False
        elif isinstance(x, int | float) and isinstance(y, int | float):
            if x != y:
                return False
        elif isinstance(x, Mapping) and isinstance(y, Mapping):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list | tuple) and isinstance(y, list | tuple):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif not (type(x) is type(y) and bool(x == y)):
            return False
    return True


def _value_paths(a: Any, b: Any, path: str, out: list[str], limit: int = 5) -> None:
    """JSON Pointers where two parsed JSON values differ (at most `limit`)."""
    if len(out) >= limit or json_equal(a, b):
        return
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in [*a, *(k for k in b if k not in a)]:
            if k not in a or k not in b:
                if len(out) < limit:
                    out.append(path + "/" + pointer_token(k))
            else:
                _value_paths(a[k], b[k], path + "/" + pointer_token(k), out, limit)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            _value_paths(x, y, f"{path}/{n}", out, limit)
        return
    out.append(path)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not _ABSENT else "(absent)"
    return text if len(text) <= 80 else text[:77] + "..."


def _arguments(path: str, a: Any, b: Any) -> list[Difference]:
    """Compare two `arguments` values (JSON strings in Responses, objects in the Agents API)."""

    def parsed(v: Any) -> tuple[bool, Any]:
        if isinstance(v, str):
            try:
                return True, parse_arguments(v)
            except ArgumentsError:
                return False, v
        return v is not _ABSENT, v

    oa, va = parsed(a)
    ob, vb = parsed(b)
    ra, rb = (None if a is _ABSENT else a), (None if b is _ABSENT else b)
    if a is _ABSENT or b is _ABSENT:
        side = "removed" if b is _ABSENT else "added"
        return [Difference(path, Change.ARGUMENTS, True, f"arguments {side}", ra, rb)]
    if not (oa and ob):  # at least one side is not strict JSON: compare as text
        if isinstance(a, str) and isinstance(b, str) and a == b:
            return []
        return [
            Difference(
                path,
                Change.ARGUMENTS,
                True,
                "arguments changed (compared as text: at least one side is not strict JSON)",
                ra,
                rb,
            )
        ]
    if json_equal(va, vb):
        if a == b and type(a) is type(b):
            return []
        how = "JSON text vs object" if isinstance(a, str) != isinstance(b, str) else "key order or whitespace"
        return [
            Difference(path, Change.ARGUMENTS, False, f"arguments have the same JSON value; only {how} differ", ra, rb)
        ]
    where: list[str] = []
    _value_paths(va, vb, "", where)
    return [
        Difference(
            path,
            Change.ARGUMENTS,
            True,
            f"arguments changed in meaning at {', '.join(p or '/' for p in where)}",
            ra,
            rb,
        )
    ]


def _fields(path: str, a: Any, b: Any, out: list[Difference]) -> None:
    """Non-blocking differences of any other field, down to the leaves where both sides are objects."""
    if a is not _ABSENT and b is not _ABSENT and json_equal(a, b):
        return
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in [*a, *(k for k in b if k not in a)]:
            _fields(path + "/" + pointer_token(k), a.get(k, _ABSENT), b.get(k, _ABSENT), out)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b, strict=True)):
            _fields(f"{path}/{n}", x, y, out)
        return
    what = "added" if a is _ABSENT else "removed" if b is _ABSENT else f"changed from {_short(a)} to {_short(b)}"
    out.append(
        Difference(
            path,
            Change.FIELD,
            False,
            f"{path.rsplit('/', 1)[-1]} {what}",
            None if a is _ABSENT else a,
            None if b is _ABSENT else b,
        )
    )


def _compare_pair(base: str, a: Mapping[str, Any], b: Mapping[str, Any]) -> list[Difference]:
    out: list[Difference] = []
    for key in [*a, *(k for k in b if k not in a)]:
        va, vb = a.get(key, _ABSENT), b.get(key, _ABSENT)
        path = base + "/" + pointer_token(key)
        ra, rb = (None if va is _ABSENT else va), (None if vb is _ABSENT else vb)
        if key == "arguments":
            out.extend(_arguments(path, va, vb))
            continue
        if key in _payload(a) and key not in ("type", "call_id", "name"):
            if not (va is not _ABSENT and vb is not _ABSENT and json_equal(va, vb)):
                msg = f"{key} changed from {_short(va)} to {_short(vb)}: it says what the call does"
                out.append(Difference(path, Change.ARGUMENTS, True, msg, ra, rb))
            continue
        if key in ("type", "call_id", "name"):
            same = va is not _ABSENT and vb is not _ABSENT and type(va) is type(vb) and va == vb
            if same:
                continue
            if key == "type":
                msg = f"type changed from {_short(va)} to {_short(vb)}"
                if isinstance(vb, str) and ":" in vb and not (isinstance(va, str) and ":" in va):
                    msg += ": a slug:name extension type is provider-specific and not portable"
                out.append(Difference(path, Change.TYPE, True, msg, ra, rb))
            elif key == "call_id":
                out.append(
                    Difference(
                        path,
                        Change.CALL_ID,
                        True,
                        f"call_id changed from {_short(va)} to {_short(vb)}: outputs pair with calls "
                        "by call_id byte for byte",
                        ra,
                        rb,
                    )
                )
            else:
                out.append(
                    Difference(path, Change.NAME, True, f"tool name changed from {_short(va)} to {_short(vb)}", ra, rb)
                )
            continue
        if key == "id":
            if not (va is not _ABSENT and vb is not _ABSENT and json_equal(va, vb)):
                out.append(
                    Difference(
                        path,
                        Change.ID,
                        False,
                        f"item id changed from {_short(va)} to {_short(vb)} (ids are provider-scoped)",
                        ra,
                        rb,
                    )
                )
            continue
        _fields(path, va, vb, out)
    return out


def _payload(item: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields that say what a call does, from the call family table (`custom_tool_call.input`, ...)."""
    t = item.get("type")
    if not isinstance(t, str):
        return ()
    fam = by_call_type.get(t) or (by_call_type.get("openai:" + t) if ":" not in t else None)
    return fam.payload if fam is not None else ()


def _kind(item: Mapping[str, Any]) -> str:
    t = item.get("type")
    return "output" if isinstance(t, str) and t.rsplit(":", 1)[-1].endswith("_output") else "call"


def _key(item: Mapping[str, Any]) -> tuple[str, str] | None:
    cid = item.get("call_id")
    return (_kind(item), cid) if isinstance(cid, str) else None


def _as_list(value: Any, what: str) -> list[Mapping[str, Any]] | None:
    value = plain_json(value, what)
    if isinstance(value, Mapping):
        return None
    if isinstance(value, Iterable) and not isinstance(value, str | bytes | bytearray):
        return [_object(v, (n,), f"{what} item {n}") for n, v in enumerate(value)]
    got = "null" if value is None else type(value).__name__
    msg = f"{what} must be an item or a list of items, got {got}"
    raise ItemError([{"loc": (), "type": "object_type", "msg": msg}])


def _one_sided(path: str, item: Mapping[str, Any], removed: bool) -> Difference:
    blocking = isinstance(item.get("call_id"), str)
    what = item.get("type")
    side = "is missing from the candidate" if removed else "is only in the candidate"
    why = ": a call or output on one side only breaks the pairing" if blocking else ""
    return Difference(
        path,
        Change.ITEM_REMOVED if removed else Change.ITEM_ADDED,
        blocking,
        f"{what if isinstance(what, str) else 'an'} item {side}{why}",
        dict(item) if removed else None,
        None if removed else dict(item),
    )


def compare_items(original: Any, candidate: Any) -> list[Difference]:
    """Compare an item (or a list of items) with its candidate replacement, e.g. the same transcript
    after a provider round trip.

    `original` and `candidate` are each an item or a list of items: JSON objects, our models, `openai`
    SDK objects, or JSON text. Two lists are paired by `call_id` where items have one (a call with a
    call, an output with an output), then the rest by position; an item that has no counterpart is
    `item_removed` / `item_added`, blocking for a call or an output. A single item against a list is
    compared as a list of one.

    Returns a list of `Difference` in order (empty when equal). Blocking: a changed `type` (above all
    into a `slug:name` extension), `call_id` (byte for byte), `name`, the payload of other call families
    (`custom_tool_call.input`, `shell_call.action`, ...: the call families, docs/openai.md), and
    arguments whose parsed JSON differs (`1` equals `1.0`, `true` does not equal `1`; arguments that
    are not strict JSON are compared as text). Never blocking: provider-scoped `id`s, key order or
    whitespace inside arguments, and every other field (reported as `field`).

    Raises `ItemError` (a `ValueError`) when an item is not a JSON object, or is not strict JSON (text or
    value: a duplicate key, NaN, a set or bytes inside, nesting past `replayable.items.MAX_ITEM_DEPTH`,
    ...; see docs/strict-json.md). Never `RecursionError` or `TypeError`.
    """
    la, lb = _as_list(original, "original"), _as_list(candidate, "candidate")
    if la is None and lb is None:
        return _compare_pair("", _object(original, (), "original"), _object(candidate, (), "candidate"))
    if la is None:
        la = [_object(original, (), "original")]
    if lb is None:
        lb = [_object(candidate, (), "candidate")]
    return _compare_lists(la, lb)


def _compare_lists(la: Sequence[Mapping[str, Any]], lb: Sequence[Mapping[str, Any]]) -> list[Difference]:
    by_key: dict[tuple[str, str], int] = {}
    for j, item in enumerate(lb):
        k = _key(item)
        if k is not None:
            by_key.setdefault(k, j)
    pairs: dict[int, int] = {}
    used: set[int] = set()
    for i, item in enumerate(la):  # 1. by call_id
        k = _key(item)
        hit = by_key.get(k) if k is not None else None
        if hit is not None and hit not in used:
            pairs[i] = hit
            used.add(hit)
    for i, item in enumerate(la):  # 2. a call whose call_id changed: the unpaired item at the same index
        if i not in pairs and _key(item) is not None and i < len(lb) and i not in used and _key(lb[i]) is not None:
            pairs[i] = i
            used.add(i)
    rest_a = [i for i, item in enumerate(la) if i not in pairs and _key(item) is None]
    rest_b = [j for j, item in enumerate(lb) if j not in used and _key(item) is None]
    for i, j in zip(rest_a, rest_b, strict=False):  # 3. the others by position
        pairs[i] = j
        used.add(j)
    out: list[Difference] = []
    for i, item in enumerate(la):
        if i in pairs:
            out.extend(_compare_pair(f"/{i}", item, lb[pairs[i]]))
        else:
            out.append(_one_sided(f"/{i}", item, removed=True))
    out.extend(_one_sided(f"/{j}", lb[j], removed=False) for j in range(len(lb)) if j not in used)
    return out
