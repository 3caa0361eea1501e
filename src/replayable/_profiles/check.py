"""Check items and request bodies against a target profile, and fix what can be fixed safely.

`check_item` and `check_body` read plain JSON (items as they will be sent) and return `Finding`s: an
index, a stable code (a `replayable.ViolationCode` value), a message naming the field and the rule, and
a JSON Pointer. `fix_item` is what `prepare_replay` applies: it removes what the target refuses and can
do without (refused `null`s, undeclared keys, ids in another provider's format) and reports what it
cannot fix. Nothing here knows a provider: every rule is a row of a `Profile`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from replayable._pointers import pointer_parts, pointer_token
from replayable._validation import json_type

from .model import FieldRule, ItemRule, PartRule, Profile

__all__ = [
    "FIXABLE",
    "Finding",
    "Fix",
    "check_body",
    "check_item",
    "fix_item",
    "item_type",
]

#: Codes `fix_item` repairs by removing the offending key (the rest it refuses).
FIXABLE = frozenset({"field_not_accepted", "null_not_accepted", "id_format"})


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the target refuses: item `index` (None for the body), `code`, `message`, `path`."""

    index: int | None
    code: str
    message: str
    path: str = ""


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
                Finding(index, "field_not_accepted", f"{what} does not accept {key!r}{hint}; accepted: {listed} "
                        f"[{rule.source}]", at)
            )  # fmt: skip
        elif value is None:
            if not accepted.nullable:
                out.append(
                    Finding(index, "null_not_accepted", f"{what}.{key} may be absent but not null (it takes "
                            f"{accepted.describe()}); leave the key out [{rule.source}]", at)
                )  # fmt: skip
        elif not _fits(accepted, value):
            out.append(
                Finding(index, "field_shape", f"{what}.{key} must be {accepted.describe()}, got "
                        f"{_json_type(value)} [{rule.source}]", at)
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
        out.append(
            Finding(index, "image_source_missing" if ptype == "input_image" else "computer_output_not_screenshot",
                    f"{ptype} needs {' or '.join(rule.one_of)} (neither is given) [{rule.source}]", base)
        )  # fmt: skip
    for key, needed, code, source in rule.needs:
        given = part.get(key)
        have = part.get(needed)
        if given is not None and not (isinstance(have, str) and have):
            out.append(Finding(index, code, f"{ptype}.{key} is given without {needed}: {profile.name} refuses it "
                               f"(add {needed}) [{source}]", f"{base}/{needed}"))  # fmt: skip


def check_item(
    profile: Profile, index: int, raw: Any, settings: Mapping[str, Any] | None = None
) -> list[Finding]:
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
            Finding(index, "id_format", f"{t}.id {vid!r} is not in {profile.name}'s format (it begins with "
                    f"{rule.id_prefix!r}); an id from another provider is refused: remove it "
                    f"(replayable.prepare_replay does) [{rule.id_source}]", "/id")
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
                Finding(index, "computer_output_not_screenshot", f"{t}.{key} must be a {want} object "
                        f"{{type: {want!r}, image_url | file_id}}, got {got} [{rule.source}]", f"/{key}")
            )  # fmt: skip
        else:
            _part(index, value, profile, f"/{key}", out, want)
    return out


def _stateless(index: int, raw: Mapping[str, Any], t: str, out: list[Finding]) -> None:
    if t == "item_reference":
        out.append(
            Finding(index, "item_reference_not_persisted", "with store: false nothing is kept server-side, so an "
                    "item_reference points at nothing: send the item itself", "/id")
        )  # fmt: skip
    elif t == "reasoning" and isinstance(raw.get("id"), str) and not raw.get("encrypted_content"):
        out.append(
            Finding(index, "reasoning_not_persisted", f"reasoning {raw['id']!r} is sent as a bare id without "
                    "encrypted_content, but with store: false nothing is kept server-side: request include: "
                    "['reasoning.encrypted_content'] and send the blob back, or drop the item", "/encrypted_content")
        )  # fmt: skip


def check_body(profile: Profile, settings: Mapping[str, Any], keys: Iterable[str] = ()) -> list[Finding]:
    """What `profile` refuses in a request body's own keys (`keys`, all of them: a key the target does not
    accept; `settings`: `include`, keys that exclude each other)."""
    out: list[Finding] = []
    rules = profile.body
    if rules.keys is not None:
        for key in keys:
            if key not in rules.keys:
                out.append(
                    Finding(None, "field_not_accepted", f"request key {key!r} is not one {profile.name} accepts "
                            f"[{rules.sources.get('keys', '')}]", f"/{pointer_token(key)}")
                )  # fmt: skip
    include = settings.get("include")
    if rules.include is not None and isinstance(include, list):
        for j, value in enumerate(include):
            if type(value) is not str or value not in rules.include:  # a list or an object is no value it defines
                out.append(
                    Finding(None, "include_invalid", f"include value {value!r} is not one {profile.name} defines: "
                            f"{', '.join(sorted(rules.include))} [{rules.sources.get('include', '')}]",
                            f"/include/{j}")
                )  # fmt: skip
    for a, b in rules.exclusive:
        if settings.get(a) is not None and settings.get(b) is not None:
            out.append(
                Finding(None, "body_conflict", f"{a} and {b} cannot be used together "
                        f"[{rules.sources.get('exclusive', '')}]", f"/{b}")
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
