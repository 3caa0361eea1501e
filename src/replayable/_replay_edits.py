"""The rewrites `prepare_replay` makes to one kept item, each listed in its report's `changed` (or the item
`dropped`): content parts that point at another provider's files, annotations that are not portable,
the server id of an item whose reasoning was dropped, what the target's profile refuses, OpenAI's own
spelling of OpenAI's items. Each takes the models by input index and the lists of the report being made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replayable._base import SPEC_ITEM_TYPES, NamespacedBase
from replayable._codes import ViolationCode
from replayable._findings import TranscriptReport, Violation
from replayable._forms import reparse_input
from replayable._native import INPUT_TYPES
from replayable._profiles import fix_item as profile_fix
from replayable._profiles import get_profile
from replayable.errors import ReplayError
from replayable.items import Item, ItemError, Reasoning, ReasoningParam, dump_item, parse_item

__all__ = ["fit_profile", "openai_wire_type", "strip_file_ids", "strip_orphaned_ids", "strip_provider_annotations"]


def strip_file_ids(content: Any) -> tuple[Any, int]:
    if not isinstance(content, list):
        return content, 0
    kept = [p for p in content if not (isinstance(p, dict) and p.get("file_id") is not None)]
    removed = len(content) - len(kept)
    if removed and not kept:
        return "", removed
    return kept, removed


def strip_provider_annotations(content: Any) -> int:
    """Remove, in place, annotations other than the spec's `url_citation` (e.g. OpenAI's `file_citation`,
    which points at OpenAI's files); returns how many were removed."""
    removed = 0
    if isinstance(content, list):
        for part in content:
            notes = part.get("annotations") if isinstance(part, dict) else None
            if isinstance(notes, list):
                kept = [a for a in notes if isinstance(a, dict) and a.get("type") == "url_citation"]
                removed += len(notes) - len(kept)
                part["annotations"] = kept
    return removed


def strip_orphaned_ids(
    parsed: list[Item], models: dict[int, Item], dropped: dict[int, str], changed: list[tuple[int, str]],
    stripped: set[int],
) -> None:
    """Reasoning travels with what it produced: when a reasoning item is dropped, the item right after it
    (the one it produced) is not sent by its server id, which OpenAI would look up and refuse without its
    reasoning (400 "Item 'fc_...' of type 'function_call' was provided without its required 'reasoning'
    item: 'rs_...'", issue 31): its `id` is removed and the change listed. Reasoning items stored together
    (`rs_1, rs_2, fc_1, fc_2`) produced the items after them in their order: the k-th of the run, the k-th
    item after it."""
    for i in sorted(dropped):
        if not isinstance(parsed[i], Reasoning | ReasoningParam):
            continue
        start = i
        while start > 0 and isinstance(parsed[start - 1], Reasoning | ReasoningParam):
            start -= 1
        end = i + 1
        while end < len(parsed) and isinstance(parsed[end], Reasoning | ReasoningParam):
            end += 1
        j = end + (i - start)  # what the k-th reasoning of the run produced
        if j in dropped or j in stripped or j not in models:
            continue
        model = models[j]
        if isinstance(model, Reasoning | ReasoningParam | NamespacedBase):
            continue
        data = dump_item(model)
        if data.get("id") is None:
            continue
        del data["id"]
        models[j] = reparse_input(data, None, j)
        stripped.add(j)
        changed.append((j, f"server id removed: the reasoning item that produced it (item {i}) was dropped"))


def fit_profile(
    models: dict[int, Item],
    dumps: dict[int, dict[str, Any]],
    dropped: dict[int, str],
    changed: list[tuple[int, str]],
    target: str,
    settings: Mapping[str, Any] | None,
) -> None:
    """Make the kept items acceptable to the target's profile (`replayable._profiles`): remove refused
    nulls, undeclared keys and ids in another provider's format; drop reasoning that `store: false`
    leaves pointing at nothing. Raises `ReplayError` for what has no safe rewrite."""
    profile = get_profile(target)
    if not (profile.closed or (settings is not None and settings.get("store") is False)):
        return
    refused: list[Violation] = []
    for i in sorted(models):
        if i in dropped:
            continue
        data = dumps[i] if i in dumps else dump_item(models[i])  # namespaced items kept as they are
        fix = profile_fix(profile, i, data, settings)
        if fix.dropped is not None:
            dropped[i] = fix.dropped
        elif fix.refused:
            refused.extend(fix.refused)  # the one finding type, its message from its code's template
        elif fix.edits and fix.data is not None:
            try:
                models[i] = reparse_input(fix.data, None, i)
            except ItemError as exc:  # a removed field the item requires (an id the target's item needs)
                why = "; ".join(f"{'.'.join(map(str, e.get('loc', ())))}: {e.get('msg', '')}" for e in exc.errors[:3])
                by_id = any(" /id " in e for e in fix.edits)
                code, path = (ViolationCode.ID_FORMAT, "/id") if by_id else (ViolationCode.ITEM_INVALID, "")
                msg = f"no safe rewrite for {target!r}: {'; '.join(fix.edits)} leaves an item that does not parse"
                msg += f" ({why})"
                refused.append(Violation(i, code, msg, path))
                continue
            changed.extend((i, e) for e in fix.edits)
    if refused:
        raise ReplayError(
            TranscriptReport(tuple(refused)),
            f"cannot make the items acceptable to {target!r}: "
            + "; ".join(f"item {v.index}: {v.code}: {v.message}" for v in refused[:5]),
        )


def openai_wire_type(model: Item) -> tuple[Item, str] | None:
    """An item spelled `openai:<type>` (the library's name for OpenAI's native item `<type>`) as OpenAI reads
    it, un-prefixed (`web_search_call`): the same fields read in OpenAI mode, which dumps the type as sent.
    Only OpenAI's native item types (`replayable._native.INPUT_TYPES`); never a spec type spelled
    `openai:function_call`, which was read and checked as an opaque item and stays one. None for any other
    item, or when OpenAI mode would not read it (left as it is); else the item and its un-prefixed type."""
    if not isinstance(model, NamespacedBase):
        return None
    data = dump_item(model)
    kind = data.get("type")
    if not (isinstance(kind, str) and kind.startswith("openai:")):
        return None  # already in OpenAI's spelling (read from OpenAI's wire form), or not OpenAI's
    if kind not in INPUT_TYPES:
        return None  # only OpenAI's own native items: `openai:function_call` stays the opaque item it was read as
    data["type"] = kind.removeprefix("openai:")
    if data["type"] in SPEC_ITEM_TYPES:
        return None
    try:
        wire = parse_item(data, side="input", provider="openai")
    except ItemError:
        return None
    return (wire, data["type"]) if dump_item(wire).get("type") == data["type"] else None
