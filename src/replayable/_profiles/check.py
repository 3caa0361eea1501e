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
from typing import Any, NamedTuple

from replayable._codes import ViolationCode as C
from replayable._findings import Finding
from replayable._pointers import pointer_parts, pointer_token
from replayable._validation import json_type

from .model import FieldRule, ItemRule, PartRule, Profile

__all__ = [
    "FIXABLE",
    "Fix",
    "check_body",
    "check_item",
    "fix_item",
    "item_type",
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
