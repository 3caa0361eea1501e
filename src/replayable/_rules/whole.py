"""The whole-list pass of the check engine (issue 36): whether the rules find nothing in a list of views,
told a column at a time instead of item by item (`clean`). Ids, statuses and keys are read in C, `BLOCK`
items at a time, so that each column of a block reads what the block's first column brought into the CPU
cache; items are grouped by their model's class, which tells their type (`_keys`); calls are paired with
their outputs by comparing their lists of keys (`_Calls`); barriers are counted only where an output does
not follow its call at once, or a call is left open; the rows' `sweep`s tell in bulk where a rule cannot
find anything, from the items' values as they are now. It reports nothing: a list where something may be
found is walked item by item (`replayable._rules.engine.Engine`), which alone reports findings, so every
finding, message and order is the walk's (`tests/rules/test_engine_gates.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate, chain, repeat
from operator import lt
from typing import Any, Literal, get_args, get_origin

from pydantic.experimental.missing_sentinel import MISSING

from replayable._rules.plans import Pairing, Plan, RuleSet, sweepable
from replayable._rules.state import Context, Slot
from replayable._rules.view import View

__all__ = ["BLOCK", "clean"]

#: How many items the whole-list pass reads at a time (`clean`): every column of a block reads items
#: its first column has just brought into the CPU cache, instead of each column going back to memory for the
#: whole list (the check of W2 after a parse, in `check.py perf`'s heap: x0.38 of the parse read whole, x0.32
#: to x0.33 in blocks of 256 to 2048; benchmarks/README.md, 2026-12-07 18:10-19:30 UTC).
BLOCK = 1024


def clean(
    ctx: Context,
    rules: RuleSet,
    views: list[View],
    stored: bool = False,
    models: Sequence[Any] | None = None,
    classes: list[type] | None = None,
) -> bool:
    """Whether the rules of `rules` find nothing in `views` for the check `ctx`, told a column at a time:
    no id twice, every call finished with a key no earlier call holds, every output answering an earlier
    call of its family once with no barrier between them, every call still open at the end after the last
    barrier, and every rule without a gate told by its row's `sweep` that it finds nothing in these items
    (no rule is asked of any item here). The columns are read `BLOCK` items at a time (`_Pass` carries what
    a block leaves to the next). True: `ctx.open_calls` holds the calls still open at the end, as the
    item-by-item walk would leave it. False (anything else, or any doubt, or a view that is not a `dict`):
    nothing was changed, and the walk checks the list. `stored`: the views are our validated models'
    storages (`Engine.run`; then the types of the ids need no look); `models`: those models, whose classes
    tell the items' types (`_keys`); `classes`: the class of each model, in order, when the reader took
    them already."""
    if ctx.ids or ctx.calls or ctx.open_calls or ctx.answered:  # fed before: only the walk continues it
        return False
    if not stored and not set(map(type, views)) <= {dict}:
        return False  # each field is read with `dict.get`, in C: a view of another kind is asked by the walk
    state = _Pass(ctx, rules)
    size = BLOCK
    for start in range(0, len(views), size):
        told: list[type] | None = None
        if classes is not None:
            told = classes[start : start + size]
        elif models is not None:
            told = list(map(type, models[start : start + size]))
        if not state.block(start, views[start : start + size], stored, told):
            return False
    open_calls = state.open_calls()
    if open_calls is None:
        return False
    ctx.open_calls.update(open_calls)
    return True


class _Pass:
    """One whole-list pass (`clean`) of a check (`ctx`) with its rule set (`rules`), and what its blocks
    leave to the next: the string ids read (`ids`), each item type's plan (`plans`: None for a type whose
    items the item-by-item walk must ask), the keys (`_keys`: classes or types) of the items that close the
    open calls (`barriers`), each block's keys (`keys`), each paired call family's calls (`calls`, by call
    type) and the item type of its outputs (`outputs`)."""

    __slots__ = ("ctx", "rules", "ids", "plans", "barriers", "keys", "calls", "outputs", "_segment", "_counted")

    def __init__(self, ctx: Context, rules: RuleSet) -> None:
        self.ctx, self.rules = ctx, rules
        self.ids: set[Any] = set()
        self.plans: dict[str, Plan | None] = {}
        self.barriers: set[Any] = set()
        self.keys: list[list[Any]] = []
        self.calls: dict[str, _Calls] = {}
        self.outputs: dict[str, str] = {}
        self._segment: list[int] = []
        self._counted = 0  # blocks counted in `_segment`

    def segment(self) -> list[int]:
        """How many barriers are at each index up to the last one read: two items have no barrier between
        them when their counts are equal (one pass in C, instead of a search per call and per output). Read
        only where an output does not follow its call at once, or a call is left open; counted on from where
        the last count stopped (a barrier key first met in a later block is in no earlier one)."""
        segment, counted = self._segment, self._counted
        if counted < len(self.keys):
            done = len(segment)
            more = map(self.barriers.__contains__, chain.from_iterable(self.keys[counted:]))
            segment += accumulate(more, initial=segment[-1] if segment else 0)
            del segment[done]  # (the count carried on, in the place of the first index counted now)
            self._counted = len(self.keys)
        return segment

    def open_calls(self) -> dict[Slot, int] | None:
        """The calls still open at the end (each needing an output), as the item-by-item walk leaves them; None
        when one was left unanswered while the conversation moved on (a barrier after it)."""
        out: dict[Slot, int] = {}
        for call_type, family in self.calls.items():
            if family.pairing.needs != 1:
                continue
            unanswered = family.unanswered()
            if not unanswered:
                continue
            segment = self.segment()
            last = segment[-1]
            for key, j in unanswered:
                if last > segment[j]:
                    return None  # left unanswered when the conversation moved on
                out[(call_type, key)] = j
        return out

    def block(self, start: int, views: list[View], stored: bool, classes: list[type] | None) -> bool:
        """`clean` over the items `start`, `start + 1`, ... (their `views`; `classes`, the classes of their
        models when `stored`), with what the blocks before left: False as soon as something may be
        found."""
        try:
            keys, key_types = _keys(views, classes)
            kinds = set(key_types.values())
            if any(type(t) is not str for t in kinds):
                return False  # an item without a string type
            ids = _field(views, "id")  # a pass in C: no tuple per view
            seen = self.ids
            before = len(seen)
            seen.update(ids)  # (hashed once: no id read again)
        except TypeError:  # an unhashable type or id (a list): the item's own rules say what it is
            return False
        if not stored and not set(map(type, ids)) <= _ID_TYPES:
            return False
        # ids are strings, None or MISSING: the strings are the rest once those two (counted by identity:
        # neither equals a string) are left out, and they are all new when the set grew by as many
        absent = 0
        for none in (None, MISSING):
            if none in seen:
                absent += ids.count(none)
                seen.discard(none)
        if "" in seen or len(seen) - before != len(ids) - absent:
            return False  # an empty id, or an id twice (in this block or with an earlier one)
        plans: dict[str, Plan] = {}
        for t in kinds:
            plan = self.plan(t)
            if plan is None:
                return False
            plans[t] = plan
        self.barriers.update(k for k, t in key_types.items() if plans[t].role == 3)
        self.keys.append(keys)
        # the indexes of each key, in one pass; then of each type, the keys of one type merged
        by_key: dict[Any, list[int]] = {k: [] for k in key_types}
        add = {k: at.append for k, at in by_key.items()}
        for i, k in enumerate(keys):
            add[k](i)
        groups: dict[str, list[int]] = {}
        for k, at in by_key.items():
            t = key_types[k]
            groups[t] = sorted(groups[t] + at) if t in groups else at
        block = _Block(views, groups)
        if not self.paired(start, plans, block):  # the pairing first: it fails fastest
            return False
        for t, plan in plans.items():  # then the sweeps, each over the items of its types
            pairing = plan.pairing
            if plan.plain and not self.swept("item", t, t, block):
                return False
            if pairing is not None and pairing.plain:
                stage = "call" if plan.role == 1 else "output"
                if not self.swept(stage, pairing.call_type, t, block):
                    return False
        return True

    def plan(self, t: str) -> Plan | None:
        """The plan of items of type `t` for the whole-list pass, kept for the next block; None when the walk
        must ask its items (a rule without a gate and without a sweep, safety checks, programs, a call that
        may need no output, outputs keyed otherwise)."""
        plan = self.plans.get(t)
        if plan is not None or t in self.plans:
            return plan
        plan = self.rules.plan(t)
        pairing = plan.pairing
        rows = self.rules.rows
        if (
            pairing is not None
            and (pairing.special or pairing.needs == 2 or (plan.role == 2 and not pairing.output_by_call_id))
        ) or not sweepable(rows["item"], t):
            plan = None
        elif pairing is not None and not sweepable(rows["call" if plan.role == 1 else "output"], pairing.call_type):
            plan = None
        self.plans[t] = plan
        return plan

    def swept(self, stage: str, kind: str, t: str, block: _Block) -> bool:
        """Whether every rule of `stage` without a gate that the items of type `t` are asked (the rows for
        `kind`: the item type, or its call family's call type) is told by its row's `sweep` that it finds
        nothing in these items of `block`. A rule without a sweep is asked of each item by the walk instead,
        so the whole list is: no rule is ever asked of an item twice."""
        for row in self.rules.rows[stage]:
            if row.gate is not None or (row.types is not None and kind not in row.types):
                continue
            if row.sweep is None:
                return False
            try:
                swept = block.column(t)[1]
                if swept and row.sweep(self.ctx, t, swept):
                    return False
            except Exception:  # noqa: BLE001  a sweep that cannot read these items: the walk asks each one
                return False
        return True

    def paired(self, start: int, plans: dict[str, Plan], block: _Block) -> bool:
        """Whether the calls of a block (its items from index `start`) are finished, each with a key no call
        before it holds, and its outputs each answer an earlier call of their family once, with no barrier
        between them; what is paired is kept for the next block, the calls first (an output may answer a call of
        its own block). False otherwise, or when a column cannot be read so. Where outputs name the calls
        of their family in the calls' own order (the common case: each call answered before the next one is
        made), the pairing is told by comparing the two lists of keys; otherwise, from there on, through a
        table of the calls by key (`_Calls.by_key`)."""
        calls = self.calls
        try:
            for t, plan in plans.items():
                pairing = plan.pairing
                if plan.role != 1 or pairing is None:
                    continue
                at, cv = block.column(t)
                if not pairing.unfinished.isdisjoint(_field(cv, "status")):
                    return False  # an unfinished call
                if not pairing.paired:
                    continue  # a call with no output: no slot, nothing to pair
                keys = _field(cv, pairing.key_field)
                if set(map(type, keys)) != {str}:
                    return False  # a call without a string key
                family = calls.get(pairing.call_type)
                if family is None:
                    family = calls[pairing.call_type] = _Calls(t, pairing)
                elif family.item_type != t:
                    return False  # two call types of one family
                if not family.add(keys, list(map(start.__add__, at))):
                    return False  # a key twice
                if pairing.by_call_id and any(
                    other is not family and other.pairing.by_call_id and not other.held.isdisjoint(keys)
                    for other in calls.values()
                ):
                    return False  # two families' calls with one call_id
            for t, plan in plans.items():
                pairing = plan.pairing
                if plan.role != 2 or pairing is None:
                    continue
                at, ov = block.column(t)
                keys = _field(ov, "call_id")
                if set(map(type, keys)) != {str} or self.outputs.setdefault(pairing.call_type, t) != t:
                    return False  # an output without a string key (or two output types of one family)
                family = calls.get(pairing.call_type)
                if family is None:
                    return False  # an output of no call
                where = list(map(start.__add__, at))
                called = family.answer(keys)
                if called is None or not all(map(lt, called, where)):
                    return False  # an output of no call, a call answered twice, an output before its call
                if pairing.needs == 1 and list(map((1).__add__, called)) != where:  # an output not right after its call
                    segment = self.segment()
                    if list(map(segment.__getitem__, called)) != list(map(segment.__getitem__, where)):
                        return False  # a barrier between a call and its output: the call was left unanswered
        except TypeError:  # an unhashable status or key: the item's own rules say what it is
            return False
        return True


class _Block:
    """One block of the whole-list pass (`clean`) as its columns read it: the items' `views` and the indexes
    of each item type (`groups`); each type's views are taken once (`column`)."""

    __slots__ = ("views", "groups", "_columns")

    def __init__(self, views: list[View], groups: dict[str, list[int]]) -> None:
        self.views, self.groups = views, groups
        self._columns: dict[str, tuple[list[int], list[View]]] = {}

    def column(self, t: str) -> tuple[list[int], list[View]]:
        """The indexes (in the block) and views of the items of type `t`, in order."""
        got = self._columns.get(t)
        if got is None:
            at = self.groups[t]
            got = self._columns[t] = (at, list(map(self.views.__getitem__, at)))
        return got


class _Calls:
    """The calls of one family the whole-list pass has read so far (`clean`): the item type they
    have, the family's `Pairing`, their `keys` and indexes (`at`) in order, the set of their keys (`held`),
    how many of the first are answered in order (`matched`), and, once outputs stop following the calls'
    order, the calls by key (`by_key`) and the keys answered (`answered`)."""

    __slots__ = ("item_type", "pairing", "keys", "at", "held", "matched", "by_key", "answered")

    def __init__(self, item_type: str, pairing: Pairing) -> None:
        self.item_type, self.pairing = item_type, pairing
        self.keys: list[str] = []
        self.at: list[int] = []
        self.held: set[str] = set()
        self.matched = 0
        self.by_key: dict[str, int] | None = None
        self.answered: set[str] = set()

    def add(self, keys: list[str], at: list[int]) -> bool:
        """Add calls (their `keys`, at indexes `at`); False when a key is one an earlier call holds."""
        held = self.held
        before = len(held)
        held.update(keys)
        if len(held) != before + len(keys):
            return False
        self.keys += keys
        self.at += at
        if self.by_key is not None:
            self.by_key.update(zip(keys, at, strict=True))
        return True

    def answer(self, keys: list[str]) -> list[int] | None:
        """The indexes of the calls that outputs naming `keys` answer, in order; None when one answers no call
        or a call already answered. The n-th output answering the n-th call is told by comparing the lists."""
        if self.by_key is None:
            m = self.matched
            if keys == self.keys[m : m + len(keys)]:  # (the keys of calls are distinct)
                self.matched = m + len(keys)
                return self.at[m : self.matched]
            self.by_key = dict(zip(self.keys, self.at, strict=True))
            self.answered.update(self.keys[:m])
        answered = self.answered
        before = len(answered)
        answered.update(keys)
        if len(answered) != before + len(keys):
            return None  # two outputs of one call
        called: list[Any] = list(map(self.by_key.get, keys))
        return None if None in called else called

    def unanswered(self) -> list[tuple[str, int]]:
        """The (key, index) of each call no output answered, in order."""
        if self.by_key is None:
            return list(zip(self.keys[self.matched :], self.at[self.matched :], strict=True))
        answered = self.answered
        return [(key, j) for key, j in zip(self.keys, self.at, strict=True) if key not in answered]


def _field(views: list[View], name: str) -> list[Any]:
    """Field `name` of each of `views` (dicts; None when absent), read in C."""
    return list(map(dict.get, views, repeat(name)))  # type: ignore[arg-type]


def _keys(views: list[View], classes: list[type] | None) -> tuple[list[Any], dict[Any, Any]]:
    """What the whole-list pass groups the items of a block by (their keys), and the type of each key. Given
    the `classes` of the validated models the views are the storages of: the classes, each pinning one
    type (a `Literal` of one string, which validation gave the item), asked once per class, so no storage is
    read for it. Otherwise (views read from JSON, or a class that pins none: the generic namespaced item):
    the types read from the views. Raises `TypeError` for an unhashable type."""
    if classes is not None:
        pinned = {cls: _pinned_type(cls) for cls in set(classes)}
        if None not in pinned.values():
            return classes, pinned
    types = _field(views, "type")
    return types, {t: t for t in set(types)}


#: Per class: the one item type its `type` field pins, or None (`_pinned_type`).
_PINNED: dict[type, str | None] = {}


def _pinned_type(cls: type) -> str | None:
    if cls in _PINNED:
        return _PINNED[cls]
    declared = getattr(cls, "__pydantic_fields__", {}).get("type")
    annotation = declared.annotation if declared is not None else None
    args = get_args(annotation) if get_origin(annotation) is Literal else ()
    pinned = args[0] if len(args) == 1 and type(args[0]) is str else None
    if len(_PINNED) < 4096:  # classes made on the fly never grow it without bound
        _PINNED[cls] = pinned
    return pinned


#: The types an id may have for the whole-list pass: a string, or none (absent).
_ID_TYPES = frozenset({str, type(None), type(MISSING)})
