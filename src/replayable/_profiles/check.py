"""Check items and request bodies against a target profile, and fix what can be fixed safely.

`check_item` and `check_body` read plain JSON (items as they will be sent) and return the one finding
type (`replayable._findings.Finding`): an index, a stable code (a `ViolationCode`), a JSON Pointer, and
the parameters of its message (the field, the rule and its source), whose text is the code's template
in `replayable._codes`. `fix_item` is what `prepare_replay` applies: it removes what the target refuses and can
do without (refused `null`s, undeclared keys, ids in another provider's format) and reports what it
cannot fix. Nothing here knows a provider: every rule is a row of a `Profile`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import chain, compress, repeat
from operator import attrgetter, eq
from typing import Any, NamedTuple

from pydantic.experimental.missing_sentinel import MISSING

from replayable._base import WireModel
from replayable._codes import ViolationCode as C
from replayable._findings import Finding
from replayable._model_slots import get_extras
from replayable._pointers import pointer_parts, pointer_token
from replayable._validation import class_json_type, json_type

from .model import FieldRule, ItemRule, PartRule, Profile

__all__ = [
    "FIXABLE",
    "Fix",
    "check_body",
    "check_item",
    "fix_item",
    "item_type",
    "may_refuse",
]

#: Codes `fix_item` repairs by removing the offending key (the rest it refuses).
FIXABLE = frozenset({"field_not_accepted", "null_not_accepted", "id_format"})


def _json_type(value: Any) -> str:
    return json_type(value) or type(value).__name__


def _fits(rule: FieldRule, value: Any) -> bool:
    if "any" in rule.types:
        return True
    t = _json_type(value)
    return t in rule.types or (t == "integer" and "number" in rule.types)


def item_type(raw: Mapping[str, Any], profile: Profile) -> str | None:
    """The wire type of a JSON item for `profile`: its `type` without the profile's native slug, `message`
    for a `{role, content}` shorthand, `item_reference` for an object with only an `id`; None otherwise."""
    t = raw.get("type")
    if t is None:
        if "role" in raw:
            return "message"
        if set(raw) <= {"id", "type"} and "id" in raw:
            return "item_reference"
        return None
    if not isinstance(t, str):
        return None
    if ":" in t:
        slug, _, name = t.partition(":")
        return name if profile.native_slug is not None and slug == profile.native_slug else None
    return t


def _fields(
    index: int, obj: Mapping[str, Any], rule: ItemRule | PartRule, what: str, base: str, out: list[Finding]
) -> None:
    """Closed keys, refused nulls and JSON types of one object against its row."""
    for key, value in obj.items():
        if key == "type":
            continue
        at = f"{base}/{pointer_token(key)}"
        accepted = rule.fields.get(key)
        if accepted is None:
            listed = ", ".join(sorted(rule.fields)) or "none"
            hint = (
                " (a Chat Completions field: a Responses function_call has no role)"
                if key == "role" and rule.type == "function_call"
                else ""
            )
            out.append(
                Finding(index, C.FIELD_NOT_ACCEPTED, None, at,
                        params={"what": what, "key": key, "hint": hint, "listed": listed, "source": rule.source})
            )  # fmt: skip
        elif value is None:
            if not accepted.nullable:
                out.append(
                    Finding(index, C.NULL_NOT_ACCEPTED, None, at,
                            params={"what": what, "key": key, "takes": accepted.describe(), "source": rule.source})
                )  # fmt: skip
        elif not _fits(accepted, value):
            out.append(
                Finding(index, C.FIELD_SHAPE, None, at,
                        params={"what": what, "key": key, "takes": accepted.describe(), "got": _json_type(value),
                                "source": rule.source})
            )  # fmt: skip


def _part(index: int, part: Any, profile: Profile, base: str, out: list[Finding], want: str | None = None) -> None:
    if not isinstance(part, Mapping):
        return
    ptype = part.get("type")
    rule = profile.parts.get(ptype) if isinstance(ptype, str) else None
    if rule is None or (want is not None and ptype != want):
        return
    _fields(index, part, rule, str(ptype), base, out)
    if rule.one_of and not any(isinstance(part.get(k), str) and part.get(k) for k in rule.one_of):
        image = ptype == "input_image"
        out.append(
            Finding(index, C.IMAGE_SOURCE_MISSING if image else C.COMPUTER_OUTPUT_NOT_SCREENSHOT, None, base,
                    params={"ptype": ptype, "needs": " or ".join(rule.one_of), "source": rule.source,
                            "variant": "" if image else "part"})
        )  # fmt: skip
    for key, needed, code, source in rule.needs:
        given = part.get(key)
        have = part.get(needed)
        if given is not None and not (isinstance(have, str) and have):
            out.append(Finding(index, C(code), None, f"{base}/{needed}",
                               params={"ptype": ptype, "key": key, "needed": needed, "profile": profile.name,
                                       "source": source}))  # fmt: skip


def check_item(profile: Profile, index: int, raw: Any, settings: Mapping[str, Any] | None = None) -> list[Finding]:
    """What `profile` refuses in one JSON item (`raw`) sent at position `index` of a request's `input`.

    `settings` are the request body's own keys (`store`, `include`, ...) when the item comes from a body.
    Returns findings in field order; an item that is not a JSON object, or whose type the profile does
    not list, has none (the schemas report those)."""
    if not isinstance(raw, Mapping):
        return []
    out: list[Finding] = []
    t = item_type(raw, profile)
    if t is None:
        return out
    if settings is not None and settings.get("store") is False and profile.body.stateless_references:
        _stateless(index, raw, t, out)
    rule = profile.items.get(t)
    if not profile.closed or rule is None:
        return out
    _fields(index, raw, rule, t, "", out)
    vid = raw.get("id")
    if rule.id_prefix is not None and isinstance(vid, str) and not vid.startswith(rule.id_prefix):
        out.append(
            Finding(index, C.ID_FORMAT, None, "/id",
                    params={"what": t, "id": vid, "profile": profile.name, "prefix": rule.id_prefix,
                            "source": rule.id_source})
        )  # fmt: skip
    for key in rule.parts_in:
        parts = raw.get(key)
        if isinstance(parts, list):
            for j, part in enumerate(parts):
                _part(index, part, profile, f"/{key}/{j}", out)
    if rule.single_part is not None:
        key, want = rule.single_part
        value = raw.get(key)
        if not isinstance(value, Mapping) or value.get("type") != want:
            got = f"a {value.get('type')!r} object" if isinstance(value, Mapping) else _json_type(value)
            out.append(
                Finding(index, C.COMPUTER_OUTPUT_NOT_SCREENSHOT, None, f"/{key}",
                        params={"what": t, "key": key, "want": want, "got": got, "source": rule.source})
            )  # fmt: skip
        else:
            _part(index, value, profile, f"/{key}", out, want)
    return out


class _Absent:
    """What a key absent from a view reads as (`dict.get`'s default in `may_refuse`)."""


_ABSENT = _Absent()
_SKIP = (_Absent, type(MISSING))  # an absent key, a field of a validated model that was not given


def _column_may_refuse(rows: Mapping[str, FieldRule], views: list[Any], keys: Iterable[str]) -> bool:
    """Whether any of `keys` in any of `views` may be refused by the field `rows` (closed keys, refused
    nulls, JSON types), told a key at a time: the values of one key across the views, read in C."""
    n = len(views)
    for key in keys:
        if key == "type":
            continue
        kinds = set(map(type, map(dict.get, views, repeat(key, n), repeat(_ABSENT, n)))).difference(_SKIP)
        if not kinds:
            continue
        accepted = rows.get(key)
        if accepted is None:
            return True  # a key the target does not take
        for kind in kinds:
            t = class_json_type(kind)
            if t is None or (t == "null" and not accepted.nullable):
                return True
            if t != "null" and "any" not in accepted.types and t not in accepted.types:
                if not (t == "integer" and "number" in accepted.types):
                    return True
    return False


#: (field rows, key, the class of its value) found to be refused by nothing (`_view_may_refuse`)
_FITS: set[tuple[int, str, type]] = set()


def _view_may_refuse(rows: Mapping[str, FieldRule], view: dict[str, Any]) -> bool:
    """`_column_may_refuse` of one view, a key at a time (what each key and class of value was told is kept)."""
    fits = _FITS
    where = id(rows)  # the rows of a profile live as long as the process
    for key, value in view.items():
        kind = type(value)
        if (where, key, kind) in fits or key == "type" or kind in _SKIP:
            continue
        if _column_may_refuse(rows, [view], (key,)):
            return True
        if len(fits) < 4096:
            fits.add((where, key, kind))
    return False


def may_refuse(profile: Profile, t: str, views: list[Any], settings: Mapping[str, Any] | None = None) -> bool:
    """Whether `check_item` may find anything in the items of wire type `t` (without the profile's native
    slug) whose fields are `views`: each a `dict`, the JSON object read or the storage of one of our
    validated models (its unknown fields merged in: `replayable._rules.view.model_views`; a field not given
    is `MISSING`, a nested object a model). False only when it finds nothing in any of them: every key
    present accepted, no refused `null`, every value of an accepted JSON type, every string `id` with the
    target's prefix, and every content part a `dict` or a model of ours holding no unknown field that
    passes its part's row. Anything else (`store: false`, a part row with conditions, a key spelled
    another way in the storage than on the wire) says True: `check_item` is then asked of each item."""
    if settings is not None and settings.get("store") is False and profile.body.stateless_references:
        return True
    rule = profile.items.get(t)
    if not profile.closed or rule is None:
        return False
    if rule.single_part is not None:
        return True
    if len(views) == 1:  # one item (the walk asks item by item): its keys one by one
        view = views[0]
        if type(view) is not dict or _view_may_refuse(rule.fields, view):
            return True
    elif set(map(type, views)) != {dict} or _column_may_refuse(rule.fields, views, set().union(*views)):
        return True
    if rule.id_prefix is not None:
        ids: list[Any] = list(map(dict.get, views, repeat("id")))
        if set(map(type, ids)) != {str}:
            ids = list(compress(ids, map(_IS_STR, map(type, ids))))
        if not all(map(str.startswith, ids, repeat(rule.id_prefix))):
            return True
    for key in rule.parts_in:
        values = list(map(dict.get, views, repeat(key)))
        lists = list(filter(None, compress(values, map(_IS_LIST, map(type, values)))))  # the non-empty lists
        if len(lists) == 1 and len(lists[0]) <= 8:  # one item's parts: one by one
            if _parts_may_refuse(profile, lists[0]):
                return True
        elif lists and _part_columns_may_refuse(profile, list(chain.from_iterable(lists))):
            return True
    return False


_DICT_OF = attrgetter("__dict__")
_IS_STR = {str}.__contains__
_IS_LIST = {list}.__contains__


def _part_columns_may_refuse(profile: Profile, parts: list[Any]) -> bool:
    """`_parts_may_refuse` for the parts of many items, told a field at a time across the parts of each type."""
    kinds = set(map(type, parts))
    if kinds == {dict}:
        views = parts
    elif all(issubclass(k, WireModel) for k in kinds) and not any(map(get_extras, parts)):
        views = list(map(_DICT_OF, parts))  # our validated part models holding no unknown field: their storages
    else:
        return _parts_may_refuse(profile, parts)  # mixed: one by one
    types: list[Any] = list(map(dict.get, views, repeat("type")))
    if set(map(type, types)) != {str}:
        return True  # a part without a string type: asked of its item
    for ptype in set(types):
        if ":" in ptype:
            return True  # a namespaced part (spelled another way on the wire in OpenAI mode)
        rule = profile.parts.get(ptype)
        if rule is None:
            continue
        group = list(compress(views, map(eq, types, repeat(ptype))))
        if rule.one_of or rule.needs or _column_may_refuse(rule.fields, group, set().union(*group)):
            return True
    return False


def _parts_may_refuse(profile: Profile, parts: list[Any]) -> bool:
    """`may_refuse` for the content parts of one item: JSON objects or our validated part models."""
    for part in parts:
        if type(part) is dict:
            view = part
        elif isinstance(part, WireModel) and not get_extras(part):
            view = part.__dict__
        else:
            return True  # a part holding unknown fields, or of another kind: asked of the item
        ptype = view.get("type")
        if type(ptype) is not str or ":" in ptype:
            return True  # no type, or a namespaced one (spelled another way on the wire in OpenAI mode)
        rule = profile.parts.get(ptype)
        if rule is None:
            continue  # a part the target has no row for: `check_item` finds nothing in it either
        if rule.one_of or rule.needs or _view_may_refuse(rule.fields, view):
            return True
    return False


def _stateless(index: int, raw: Mapping[str, Any], t: str, out: list[Finding]) -> None:
    if t == "item_reference":
        out.append(Finding(index, C.ITEM_REFERENCE_NOT_PERSISTED, None, "/id", params={}))
    elif t == "reasoning" and isinstance(raw.get("id"), str) and not raw.get("encrypted_content"):
        out.append(Finding(index, C.REASONING_NOT_PERSISTED, None, "/encrypted_content", params={"id": raw["id"]}))


def check_body(profile: Profile, settings: Mapping[str, Any], keys: Iterable[str] = ()) -> list[Finding]:
    """What `profile` refuses in a request body's own keys (`keys`, all of them: a key the target does not
    accept; `settings`: `include`, keys that exclude each other)."""
    out: list[Finding] = []
    rules = profile.body
    if rules.keys is not None:
        for key in keys:
            if key not in rules.keys:
                out.append(
                    Finding(None, C.FIELD_NOT_ACCEPTED, None, f"/{pointer_token(key)}",
                            params={"key": key, "profile": profile.name, "source": rules.sources.get("keys", ""),
                                    "variant": "body"})
                )  # fmt: skip
    include = settings.get("include")
    if rules.include is not None and isinstance(include, list):
        for j, value in enumerate(include):
            if type(value) is not str or value not in rules.include:  # a list or an object is no value it defines
                out.append(
                    Finding(None, C.INCLUDE_INVALID, None, f"/include/{j}",
                            params={"value": value, "profile": profile.name, "source": rules.sources.get("include", ""),
                                    "defined": ", ".join(sorted(rules.include))})
                )  # fmt: skip
    for a, b in rules.exclusive:
        if settings.get(a) is not None and settings.get(b) is not None:
            out.append(
                Finding(None, C.BODY_CONFLICT, None, f"/{b}",
                        params={"a": a, "b": b, "source": rules.sources.get("exclusive", "")})
            )  # fmt: skip
    return out


class Fix(NamedTuple):
    """What `fix_item` did: the item to send (`data`, None when it must be dropped), the `edits` made,
    why it was dropped (`dropped`), and the findings it cannot fix (`refused`)."""

    data: dict[str, Any] | None
    edits: list[str]
    dropped: str | None
    refused: list[Finding]


def _remove(obj: dict[str, Any], path: list[str]) -> bool:
    node: Any = obj
    for part in path[:-1]:
        node = node[int(part)] if isinstance(node, list) else node.get(part)
        if node is None:
            return False
    if isinstance(node, dict) and path[-1] in node:
        del node[path[-1]]
        return True
    return False


def fix_item(profile: Profile, index: int, data: dict[str, Any], settings: Mapping[str, Any] | None = None) -> Fix:
    """Make one JSON item (input form, a fresh dict the caller owns) acceptable to `profile`.

    Removed (listed in `edits`): keys the target does not accept, `null`s it refuses (absent means the
    same), ids in another provider's format. Dropped: a reasoning item that `store: false` makes a
    reference to nothing. Refused (`refused`): what has no safe rewrite (a wrong JSON type, an image
    without a source, a bad `data:` URL, a computer_call_output without a screenshot, an
    `item_reference` under `store: false`)."""
    findings = check_item(profile, index, data, settings)
    edits: list[str] = []
    refused: list[Finding] = []
    for f in findings:
        if f.code == "reasoning_not_persisted":
            return Fix(None, [], f"reasoning sent as a bare id with store: false ({f.message})", [])
        if f.code in FIXABLE:
            path = pointer_parts(f.path)
            if path and _remove(data, path):
                what = {"field_not_accepted": "undeclared key", "null_not_accepted": "null",
                        "id_format": "id in another provider's format"}[f.code]  # fmt: skip
                edits.append(f"{what} {f.path} removed for {profile.name}")
                continue
        refused.append(f)
    return Fix(data, edits, None, refused)
