"""Rules on any item, whatever its call family: unique ids, provider items and state that stay with their
provider, reasoning followed by what it produced, `incomplete` last in a response's output.

Each rule is `rule(ctx, item)` (`replayable._rules.state.RuleCheck`): it reads the item's facts (`item.index`,
its view `item.view`, its successor's `item.next`, None for the last item) and returns its findings;
registered in `replayable._rules.table.RULES`."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, compress, repeat
from typing import Any, Literal, get_args, get_origin

from pydantic.experimental.missing_sentinel import MISSING

from replayable._base import WireModel, read_field
from replayable._codes import ViolationCode
from replayable._findings import Finding
from replayable._rules.state import Context, Facts, found
from replayable.parts import data_url_problem

__all__ = [
    "COMPACTION_TRIGGERS",
    "PART_HOLDERS",
    "REASONING_TYPES",
    "compaction_trigger_last",
    "data_urls_possible",
    "data_urls_readable",
    "foreign_extension_item",
    "foreign_provider_state",
    "foreign_state_kind",
    "incomplete_not_last",
    "foreign_extension_possible",
    "foreign_state_possible",
    "profile_accepts",
    "profile_possible",
    "reasoning_followed",
    "unique_item_id",
]


def profile_accepts(ctx: Context, item: Facts) -> Iterable[Finding]:
    """What the target's profile refuses in the item's JSON (`replayable._profiles`: for `openai`, the
    fields, nulls, shapes and id formats OpenAI accepts in `input`; with `store: false`, references to
    stored items): read from the JSON the item came from, never from a dump of its model."""
    profile = ctx.profile
    if profile is None or item.index is None:
        return ()
    view = item.view
    vtype = view.get("type") if type(view) is dict else None
    if type(vtype) is str and not profile_possible(ctx, vtype, [view]):  # told by its fields: nothing to dump
        return ()
    return profile.item(item.index, item.json)


def profile_possible(ctx: Context, vtype: str, views: list[Any]) -> bool:
    """The sweep of `profile_accepts` (`replayable._rules.table.Rule.sweep`): whether the target's profile
    may refuse anything in `views`, the items of type `vtype` in a list (`replayable._profiles.check.may_refuse`,
    told a field at a time). A namespaced type of another slug is no item the profile reads."""
    check = ctx.profile
    return check is not None and check.may_refuse(vtype, views)


def unique_item_id(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`duplicate_item_id`: two items with one `id` (`item.first_index`: the first item that has it)."""
    first = item.first_index
    if first is None:
        return ()
    return (found(item.index, ViolationCode.DUPLICATE_ITEM_ID, "/id", id=item.view.get("id"), first_index=first),)


def foreign_extension_item(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`foreign_extension_item` (with a target): a namespaced item of another provider."""
    t = item.view.get("type")
    if isinstance(t, str) and ":" in t:  # a namespaced type (`slug:name`), on a model or raw JSON alike
        slug = t.split(":", 1)[0]
        if slug != ctx.target:
            code = ViolationCode.FOREIGN_EXTENSION_ITEM
            return (found(item.index, code, "/type", type=t, slug=slug, target=ctx.target),)
    return ()


def foreign_extension_possible(ctx: Context, vtype: str, views: list[Any]) -> bool:
    """The sweep of `foreign_extension_item`: items of a namespaced type whose slug is not the target's."""
    return ":" in vtype and vtype.split(":", 1)[0] != ctx.target


def foreign_state_kind(item: Any, source: str | None, target: str) -> str | None:
    """`compaction` or `reasoning` when `item` holds provider state written by `source` (None: unknown)
    that `target` cannot read, else None."""
    if source == target:
        return None
    t = read_field(item, "type")
    if t == "compaction":
        return "compaction"
    if t == "reasoning" and read_field(item, "encrypted_content"):
        return "reasoning"
    return None


def foreign_state_possible(ctx: Context, vtype: str, views: list[Any]) -> bool:
    """The sweep of `foreign_provider_state`: a compaction item, or reasoning holding `encrypted_content`,
    when the items' source is not the target (`foreign_state_kind`)."""
    if ctx.target is None or ctx.source == ctx.target:
        return False
    if vtype != "reasoning":
        return True  # a compaction item (the row's other type)
    return any(v is not MISSING and v for v in map(dict.get, views, repeat("encrypted_content")))


def foreign_provider_state(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`foreign_provider_state` (with a target): reasoning `encrypted_content` or a compaction item that
    another (or an unknown) provider wrote."""
    target = ctx.target
    kind = foreign_state_kind(item.view, ctx.source, target) if target is not None else None
    if kind is None:
        return ()
    path = "/encrypted_content" if kind == "reasoning" else ""
    variant = "compaction" if kind == "compaction" else ""
    if ctx.source is None:  # nobody said whose it is: say how to name the owner
        variant = "compaction_unknown" if variant else "unknown"
    code = ViolationCode.FOREIGN_PROVIDER_STATE
    return (found(item.index, code, path, owner=ctx.source or "unknown", target=target, variant=variant),)


#: A reasoning item's type, as read in either mode.
REASONING_TYPES = frozenset({"reasoning", "openai:reasoning"})


def reasoning_followed(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`reasoning_without_following_item`: a reasoning item with an id not immediately followed by an
    item with an id (the item it produced), or followed by another reasoning item (two stored together
    before the items they produced: OpenAI 400 "Item 'fc_...' of type 'function_call' was provided without
    its required 'reasoning' item: 'rs_...'", issue 31)."""
    vid = item.view.get("id")
    if not (vid and type(vid) is str):
        return ()
    i, nxt, code = item.index, item.next, ViolationCode.REASONING_WITHOUT_FOLLOWING_ITEM
    if nxt is None:
        return (found(i, code, "", id=vid, variant="last"),)
    if not (isinstance(nid := nxt.get("id"), str) and nid):
        return (found(i, code, "", id=vid, next_index=i + 1),)  # type: ignore[operator]
    if nxt.get("type") in REASONING_TYPES:  # two stored together: the second is not what the first produced
        return (found(i, code, "", id=vid, next_index=i + 1, next_id=nid, variant="reasoning"),)  # type: ignore[operator]
    return ()


def incomplete_not_last(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`incomplete_not_last` (output side): an `incomplete` item is terminal, the last of its response."""
    if item.view.get("status") == "incomplete" and item.next is not None:
        return (found(item.index, ViolationCode.INCOMPLETE_NOT_LAST, "/status"),)
    return ()


#: The compaction trigger, as read with `provider="openai"` or namespaced (`openai:compaction_trigger`).
COMPACTION_TRIGGERS = frozenset({"openai:compaction_trigger", "compaction_trigger"})


def compaction_trigger_last(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`compaction_trigger_not_last`: a compaction trigger followed by any item (another trigger: `twice`).
    Source: OpenAPI `CompactionTriggerItemParam` ("Must be the final input item."); OpenAI's 400 "The
    'compaction_trigger' item must be the final input item." (james-6-23/codex2api#546, case R61)."""
    nxt = item.next
    if nxt is None:
        return ()
    variant = "twice" if nxt.get("type") in COMPACTION_TRIGGERS else ""
    code = ViolationCode.COMPACTION_TRIGGER_NOT_LAST
    return (found(item.index, code, "", next_index=item.index + 1, variant=variant),)  # type: ignore[operator]


#: Where content parts sit, by item type (as read in either mode): a list of parts, or one part object.
PART_HOLDERS: dict[str, tuple[str, bool]] = {
    "message": ("content", True),
    "function_call_output": ("output", True),
    "custom_tool_call_output": ("output", True),
    "openai:custom_tool_call_output": ("output", True),
    "computer_call_output": ("output", False),
    "openai:computer_call_output": ("output", False),
}
#: The part fields that may hold a `data:` URL, and the media type families each accepts (empty: any).
_DATA_FIELDS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "input_image": (("image_url", ("image",)),),
    "computer_screenshot": (("image_url", ("image",)),),
    "input_file": (("file_data", ()), ("file_url", ())),
}
#: What a URL parser strips from both ends of a URL before reading its scheme (WHATWG URL: C0 controls
#: and space), so `" data:..."` is a `data:` URL to the server and is judged as one here.
_URL_BLANKS = "".join(map(chr, range(0x21)))


def data_urls_readable(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`data_url_invalid`, whatever the target: a `data:` URL in a content part (`input_image.image_url`,
    `computer_screenshot.image_url`, `input_file.file_data` or `file_url`; blanks around it as a URL parser
    strips them) that has no payload, is not base64, does not
    decode, or (for an image) is not of an `image/*` media type. No provider can read it (issue 31)."""
    v, i = item.view, item.index
    t = v.get("type")
    key = "content" if t == "message" else "output"
    value = v.get(key)
    out: list[Finding] = []
    if type(value) is list:  # a string (the common text-only message) has no part
        classes = set(map(type, value))
        if classes <= _NO_DATA_URL or not _learn_parts(classes):
            return out  # parsed parts whose type holds no URL (text, refusals): told from their classes, in C
        j = 0
        for part in value:
            ptype = part.get("type") if type(part) is dict else getattr(part, "type", None)  # no call per part
            if ptype.__class__ is str and ptype in _DATA_FIELDS:
                _part_data_url(out, i, part, ptype, f"/{key}/{j}")
            j += 1
    elif value is not None and not PART_HOLDERS[t][1]:  # type: ignore[index]  # one part (a screenshot)
        ptype = read_field(value, "type")
        if isinstance(ptype, str) and ptype in _DATA_FIELDS:
            _part_data_url(out, i, value, ptype, f"/{key}")
    return out


def data_urls_possible(ctx: Context, vtype: str, views: list[Any]) -> bool:
    """The sweep of `data_urls_readable` (`replayable._rules.table.Rule.sweep`): whether any of `views`, the
    items of type `vtype` in a list, may hold a part with a URL to read. No when every list of parts holds
    only parts whose class fixes a type with no URL (`_NO_DATA_URL`) and no item holds one part on its own.
    `views`: dicts (`Rule.sweep`)."""
    values: list[Any] = list(map(dict.get, views, repeat("content" if vtype == "message" else "output")))
    kinds = set(map(type, values))
    if not PART_HOLDERS[vtype][1] and not kinds <= {list, type(None)}:
        return True  # one part on its own (a screenshot): read by the rule
    if list not in kinds:
        return False
    lists: Iterable[list[Any]] = values if kinds == {list} else compress(values, map(_IS_LIST, map(type, values)))
    classes = set(map(type, chain.from_iterable(lists)))  # of every part, read in C
    return not classes <= _NO_DATA_URL and _learn_parts(classes)


_IS_LIST = {list}.__contains__


#: Part classes (our models) whose `type` is fixed by their class to one that holds no `data:` URL
#: (`input_text`, `output_text`, `refusal`, ...): a list of such parts needs no look at each part.
_NO_DATA_URL: set[type] = set()


def _learn_parts(classes: set[type]) -> bool:
    """Add the part `classes` that hold no `data:` URL whatever their values to `_NO_DATA_URL`; whether
    some part remains to be looked at (a dict, a part that may hold one, or a class with a free `type`)."""
    left = False
    for cls in classes - _NO_DATA_URL:
        kind = cls.__pydantic_fields__.get("type") if issubclass(cls, WireModel) else None
        values = get_args(kind.annotation) if kind is not None and get_origin(kind.annotation) is Literal else ()
        if values and not any(value in _DATA_FIELDS for value in values) and len(_NO_DATA_URL) < 256:
            _NO_DATA_URL.add(cls)
        else:
            left = True
    return left


def _part_data_url(out: list[Finding], i: int | None, part: Any, ptype: str, base: str) -> None:
    for name, media in _DATA_FIELDS[ptype]:
        url = read_field(part, name)
        if not isinstance(url, str):
            continue
        url = url.strip(_URL_BLANKS)
        if url[:5].lower() == "data:":
            why = data_url_problem(url, media)
            if why is not None:
                code = ViolationCode.DATA_URL_INVALID
                out.append(found(i, code, f"{base}/{name}", part_type=ptype, field=name, why=why))
