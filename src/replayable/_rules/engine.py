"""The engine of the transcript rules: computes what the rules read of each item (its `Facts`: the view,
the next item as lookahead, the JSON it came from, a call's pairing key and whether it is finished, the
field an output names its call by), then hands them to the rules of `replayable._rules.table.RULES` that
apply to it, keyed by item type and by call family, and collects the findings they return. After an item's
rules have run, it updates the pairing tables that every call family shares (`replayable._families.FAMILIES`):
no rule writes state another rule reads, so the table's order is only the order of findings.

The engine itself owns one rule, the one that needs the whole pairing state: a call left unanswered once
the conversation moves on (a message, compaction or item reference follows), or at the end unless
pending calls are allowed (`function_call_without_output`).

What a check costs (issue 36): the rule sets and each item type's plan are made once per table and
switches (`rule_set`); a rule whose row has a `gate` is asked only of an item where that fact holds (an id
seen before, a call unfinished or its key seen, an output that answers no open call); and a whole list
(`Engine.run`) is first told clean or not a column at a time (`Engine._whole`: ids, statuses and keys
read in C, `BLOCK` items at a time so that each column reads what the block's first one brought into the
CPU cache, items grouped by their model's class, which tells their type, calls paired with outputs by
their lists of keys, barriers counted only where an output does not follow its call at once, the rows'
`sweep`s telling in bulk where a rule cannot find anything).
Only a list where something may be found is walked item by item (`Engine._run`), and that walk alone
reports findings, so every finding, message and order is the one item-by-item walk's
(`tests/rules/test_engine_gates.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate, chain, compress, repeat
from operator import lt
from typing import Any, Literal, NamedTuple, get_args, get_origin

from pydantic.experimental.missing_sentinel import MISSING

from replayable._codes import ViolationCode
from replayable._families import CallFamily, by_call_type, by_output_type
from replayable._findings import Findings
from replayable._rules import table
from replayable._rules.call_rules import call_finished, listed_ids
from replayable._rules.state import Context, Facts, RuleCheck, Slot
from replayable._rules.table import Rule, active, select
from replayable._rules.view import NO_VIEW, View, field

__all__ = ["Engine", "run_rules"]

_BARRIERS = frozenset({"message", "compaction", "item_reference"})
#: The shortest list `Engine.run` first tries to tell clean at once (`Engine._whole`): below it the columns
#: cost more than walking the items (one recorded response: +17%, measured with `bench_real.py`'s bodies).
WHOLE_FROM = 32
#: How many items the whole-list pass reads at a time (`Engine._whole`): every column of a block reads items
#: its first column has just brought into the CPU cache, instead of each column going back to memory for the
#: whole list (the check of W2 after a parse, in `check.py perf`'s heap: x0.38 of the parse read whole, x0.32
#: to x0.33 in blocks of 256 to 2048; benchmarks/README.md, 2026-12-07 18:10-19:30 UTC).
BLOCK = 1024
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}

_Fns = tuple[RuleCheck, ...]


class _Pairing(NamedTuple):
    """What the engine reads of a call family for each of its calls or outputs, read once per family: the
    `family`, its call or output rules (`plain`: those without a gate, asked of a plain call or output;
    `every`: all of them, in table order), the field a call holds its key in (`key_field`), its call type,
    whether its calls have outputs (`paired`: a call with a string key then has a slot), whether it pairs
    by `call_id`, its unfinished statuses, whether a finished call needs an output (0 never, 1 always, 2
    asked of the call: `CallFamily.needs_output`), whether its calls need more than the shared tables
    (`special`: safety checks to acknowledge, a program's call ids), and whether its outputs name their
    call by `call_id` alone."""

    family: CallFamily
    plain: _Fns
    every: _Fns
    key_field: str
    call_type: str
    paired: bool
    by_call_id: bool
    unfinished: frozenset[str]
    needs: int
    special: bool
    output_by_call_id: bool


def _pairing(fam: CallFamily, rows: list[Rule]) -> _Pairing:
    needs = 0 if not fam.output_required or fam.output_type is None else 1 if fam.hosted_when is None else 2
    return _Pairing(
        fam, _ungated(rows, fam.call_type), select(rows, fam.call_type), fam.call_key, fam.call_type,
        fam.output_type is not None, fam.call_key == "call_id", fam.unfinished, needs,
        fam.acknowledge is not None or fam.call_type == "openai:program", fam.output_keys == ("call_id",),
    )  # fmt: skip


class _Plan(NamedTuple):
    """What to run for the items of one type: its item rules (`plain`: those without a gate, asked of an item
    whose id is no earlier item's; `every`: all of them, in table order), its `role` (0 none, 1 a call, 2 an
    output, 3 a barrier that closes the open calls) and, for a call or an output, its family's `pairing`."""

    plain: _Fns
    every: _Fns
    role: int
    pairing: _Pairing | None


class _RuleSet:
    """The rows of a table switched on for one combination of settings, and the plan of each item type
    (`_Plan`), made once and kept for every check with the same table and switches (`rule_set`)."""

    __slots__ = ("rows", "plans", "every")

    def __init__(self, rows: dict[str, list[Rule]]) -> None:
        self.rows = rows
        # the rules of an item whose type is not a string; the conversation moves on past it
        self.every = _Plan(_ungated(rows["item"], None), select(rows["item"], None), 3, None)
        self.plans: dict[str, _Plan] = {}

    def plan(self, vtype: str) -> _Plan:
        """The plan of items of type `vtype` (kept for the next item of that type)."""
        plan = self.plans.get(vtype)
        if plan is not None:
            return plan
        items = self.rows["item"]
        role = _FAMILY_OF.get(vtype)
        if role is None:
            plan = _Plan(_ungated(items, vtype), select(items, vtype), 3 if vtype in _BARRIERS else 0, None)
        else:
            fam, is_call = role
            pairing = _pairing(fam, self.rows["call" if is_call else "output"])
            plan = _Plan(_ungated(items, vtype), select(items, vtype), 1 if is_call else 2, pairing)
        if len(self.plans) < 1024:  # item types come from the input: never an unbounded cache
            self.plans[vtype] = plan
        return plan


def _sweepable(rows: list[Rule], kind: str) -> bool:
    """Whether each of `rows` for `kind` without a gate has a sweep (`Engine._whole` can tell them in bulk)."""
    return all(r.sweep is not None for r in rows if r.gate is None and (r.types is None or kind in r.types))


def _ungated(rows: list[Rule], kind: Any) -> _Fns:
    """`select` of the rows that have no gate: what a plain item is asked."""
    return select([r for r in rows if r.gate is None], kind)


#: The rule sets made so far, by table (its identity) and switches: (the table, its rule set).
_RULE_SETS: dict[tuple[int, tuple[bool, ...]], tuple[tuple[Rule, ...], _RuleSet]] = {}


def rule_set(ctx: Context) -> _RuleSet:
    """The rule set of `table.RULES` for the settings of `ctx` (its rows' `when` switches), made once per
    table and switches: a check pays for its plans only the first time its combination of settings is seen."""
    rules = table.RULES
    switches = tuple(bool(r.when(ctx)) for r in rules if r.when is not None)
    key = (id(rules), switches)
    kept = _RULE_SETS.get(key)
    if kept is not None and kept[0] is rules:
        return kept[1]
    made = _RuleSet({on: active(ctx, on) for on in ("item", "call", "output", "pending")})
    if len(_RULE_SETS) >= 64:  # a table swapped many times (a test's): start again, never grow without bound
        _RULE_SETS.clear()
    _RULE_SETS[key] = (rules, made)
    return made


class Engine:
    """The rules as one state machine fed one item at a time, with the next item as lookahead (`nxt` is None
    for the last item). Holds per-id and per-call state only (`Context`), never the items; the findings
    the rules return go to `out`."""

    __slots__ = ("ctx", "out", "_rules", "_facts")

    def __init__(self, ctx: Context, out: Findings) -> None:
        """Run the rules with `ctx` (`rules.state.Context`: the target and its profile, the tools and the
        allowed names, the side, the source provider, the Agents registry), their findings added to `out`."""
        self.ctx = ctx
        self.out = out
        self._rules = rule_set(ctx)
        self._facts = Facts(0, NO_VIEW)  # one per engine, its fields set for each item before its rules run

    def step(self, i: int, v: View, nxt: View | None, json: Any = None) -> None:
        """Run the rules of item `i` (view `v`; `nxt` the next item's view, None at the end; `json` the
        JSON value it came from, for the target's profile)."""
        self._run(i, (v,), (json,), nxt)

    def run(self, views: list[View], values: Sequence[Any] | None = None, stored: bool = False) -> None:
        """`step` over all views, each with its successor as lookahead and its JSON value (`values[i]`, when
        given). A list of `WHOLE_FROM` items or more where nothing is to be found is told so a whole column
        at a time (`_whole`: the pairing tables then hold only the calls still open at the end, which is all
        `finish` reads); any other list, from the first item again, one item at a time (`_run`), which
        alone reports findings. `stored`: the caller knows every view is the storage of one of our validated
        item models (`rules.view.model_views`): a `dict` whose `id` is a string, None or absent, as each item
        model declares it (`tests/rules/test_engine_views.py` holds every item model to that), and `values`
        are those models."""
        if len(views) < WHOLE_FROM or not self._whole(views, stored, values if stored else None):
            self._run(0, views, values, None)

    def _whole(self, views: list[View], stored: bool = False, models: Sequence[Any] | None = None) -> bool:
        """Whether the rules find nothing in `views`, told a column at a time (types, ids, statuses and keys
        read in C) instead of item by item: no id twice, every call finished with a key no earlier call
        holds, every output answering an earlier call of its family once with no barrier between them,
        every call still open at the end after the last barrier, and every rule without a gate told by its
        row's `sweep` that it finds nothing in these items (no rule is asked of any item here). The columns
        are read `BLOCK` items at a time (`_Tally` carries what a block leaves to the next): every column of
        a block reads items the block's first column has just brought into the CPU cache. True:
        `ctx.open_calls` holds the calls still open at the end, as `_run` would leave it. False (anything
        else, or any doubt, or a view that is not a `dict`): nothing was changed, and `_run` checks the list.
        `stored`: as in `run` (then the types of the ids need no look); `models`: the validated models whose
        storages `views` are, whose classes tell the items' types (`_keys`)."""
        ctx = self.ctx
        if ctx.ids or ctx.calls or ctx.open_calls or ctx.answered:  # fed before: only `_run` continues it
            return False
        if not stored and not set(map(type, views)) <= {dict}:
            return False  # each field is read with `dict.get`, in C: a view of another kind is asked by `_run`
        tally = _Tally()
        size = BLOCK
        for start in range(0, len(views), size):
            classes = None if models is None else list(map(type, models[start : start + size]))
            if not self._block(tally, start, views[start : start + size], stored, classes):
                return False
        open_calls = tally.open_calls()
        if open_calls is None:
            return False
        ctx.open_calls.update(open_calls)
        return True

    def _block(self, tally: _Tally, start: int, views: list[View], stored: bool, classes: list[type] | None) -> bool:
        """`_whole` over the items `start`, `start + 1`, ... (their `views`; `classes`, the classes of their
        models when `stored`), with what the blocks before left in `tally`: False as soon as something may be
        found."""
        try:
            keys, key_types = _keys(views, classes)
            kinds = set(key_types.values())
            if any(type(t) is not str for t in kinds):
                return False  # an item without a string type
            ids = _field(views, "id")  # a pass in C: no tuple per view
            seen = tally.ids
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
        plans: dict[str, _Plan] = {}
        for t in kinds:
            plan = self._plan(tally, t)
            if plan is None:
                return False
            plans[t] = plan
        tally.barriers.update(k for k, t in key_types.items() if plans[t].role == 3)
        tally.keys.append(keys)
        # the indexes of each key, in one pass; then of each type, the keys of one type merged
        by_key: dict[Any, list[int]] = {k: [] for k in key_types}
        add = {k: at.append for k, at in by_key.items()}
        for i, k in enumerate(keys):
            add[k](i)
        groups: dict[str, list[int]] = {}
        for k, at in by_key.items():
            t = key_types[k]
            groups[t] = sorted(groups[t] + at) if t in groups else at
        block = _Block(views, groups, by_key, key_types, classes if keys is not classes else None)
        if not self._paired(tally, start, plans, block):  # the pairing first: it fails fastest
            return False
        for t, plan in plans.items():  # then the sweeps, each over the items of its types
            pairing = plan.pairing
            if plan.plain and not self._swept("item", t, t, block):
                return False
            if pairing is not None and pairing.plain:
                stage = "call" if plan.role == 1 else "output"
                if not self._swept(stage, pairing.call_type, t, block):
                    return False
        return True

    def _plan(self, tally: _Tally, t: str) -> _Plan | None:
        """The plan of items of type `t` for the whole-list pass, kept in `tally`; None when `_run` must ask
        its items (a rule without a gate and without a sweep, safety checks, programs, a call that may need
        no output, outputs keyed otherwise)."""
        plan = tally.plans.get(t)
        if plan is not None or t in tally.plans:
            return plan
        plan = self._rules.plan(t)
        pairing = plan.pairing
        rows = self._rules.rows
        if (
            pairing is not None
            and (pairing.special or pairing.needs == 2 or (plan.role == 2 and not pairing.output_by_call_id))
        ) or not _sweepable(rows["item"], t):
            plan = None
        elif pairing is not None and not _sweepable(rows["call" if plan.role == 1 else "output"], pairing.call_type):
            plan = None
        tally.plans[t] = plan
        return plan

    def _swept(self, stage: str, kind: str, t: str, block: _Block) -> bool:
        """Whether every rule of `stage` without a gate that the items of type `t` are asked (the rows for
        `kind`: the item type, or its call family's call type) is told by its row's `sweep` that it finds
        nothing in these items of `block`. A rule without a sweep is asked of each item by `_run` instead,
        so the whole list is: no rule is ever asked of an item twice. A row's `exempt` leaves out of its
        sweep the items of a model class in which the rule can find nothing (`_Block.swept`)."""
        for row in self._rules.rows[stage]:
            if row.gate is not None or (row.types is not None and kind not in row.types):
                continue
            if row.sweep is None:
                return False
            try:
                swept = block.swept(t, row.exempt)
                if swept and row.sweep(self.ctx, t, swept):
                    return False
            except Exception:  # noqa: BLE001  a sweep that cannot read these items: `_run` asks each one
                return False
        return True

    def _paired(
        self,
        tally: _Tally,
        start: int,
        plans: dict[str, _Plan],
        block: _Block,
    ) -> bool:
        """Whether the calls of a block (its items from index `start`) are finished, each with a key no call
        before it holds, and its outputs each answer an earlier call of their family once, with no barrier
        between them; what is paired is added to `tally`, the calls first (an output may answer a call of
        its own block). False otherwise, or when a column cannot be read so. Where outputs name the calls
        of their family in the calls' own order (the common case: each call answered before the next one is
        made), the pairing is told by comparing the two lists of keys; otherwise, from there on, through a
        table of the calls by key (`_Calls.by_key`)."""
        calls = tally.calls
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
                if set(map(type, keys)) != {str} or tally.outputs.setdefault(pairing.call_type, t) != t:
                    return False  # an output without a string key (or two output types of one family)
                family = calls.get(pairing.call_type)
                if family is None:
                    return False  # an output of no call
                where = list(map(start.__add__, at))
                called = family.answer(keys)
                if called is None or not all(map(lt, called, where)):
                    return False  # an output of no call, a call answered twice, an output before its call
                if pairing.needs == 1 and list(map((1).__add__, called)) != where:  # an output not right after its call
                    segment = tally.segment()
                    if list(map(segment.__getitem__, called)) != list(map(segment.__getitem__, where)):
                        return False  # a barrier between a call and its output: the call was left unanswered
        except TypeError:  # an unhashable status or key: the item's own rules say what it is
            return False
        return True

    def _run(self, start: int, views: Sequence[View], values: Sequence[Any] | None, tail: View | None) -> None:
        """The rules of items `start`, `start + 1`, ... (their `views`, and their JSON `values` when given;
        the successor of the last one is `tail`): this loop is what checking a parsed transcript costs per
        item. A plain item (no gate of its rules holds: its id new, a call finished and its key new, an
        output answering an open call) is asked only the rules without a gate; its facts are set only when a
        rule is asked; the pairing tables are kept inline."""
        ctx, out, facts, rules = self.ctx, self.out, self._facts, self._rules
        plans, plan_of, every = rules.plans, rules.plan, rules.every
        ids, calls, call_ids, answered = ctx.ids, ctx.calls, ctx.call_ids, ctx.answered
        unfinished, open_calls = ctx.unfinished, ctx.open_calls
        last = len(views) - 1
        for k, v in enumerate(views):
            i = start + k
            vtype = v.get("type")
            if vtype.__class__ is str:  # no type, or one that is not a string (a list is unhashable): `every`
                plan = plans.get(vtype) or plan_of(vtype)
            else:
                plan = every
            fns, _, role, pairing = plan
            vid = v.get("id")
            first = ids.setdefault(vid, i) if vid and type(vid) is str else i  # the first index of each id
            if first != i:
                fns = plan.every  # a duplicate id: every item rule is asked
            if fns:
                facts.index, facts.view, facts.first_index = i, v, None if first == i else first
                facts.next = views[k + 1] if k < last else tail
                facts.json = None if values is None else values[k]
                for fn in fns:
                    found = fn(ctx, facts)
                    if found:
                        out.extend(found)
            if role == 1:  # a call: its facts, its rules, then the pairing tables
                fam, fam_fns, fam_every, key_field, ctype, paired, by_call_id, unfin, needs, special, _ = pairing  # type: ignore[misc]
                key: Any = v.get(key_field)
                if key is MISSING:
                    key = None
                keyed = isinstance(key, str)
                slot: Slot | None = (ctype, key) if keyed and paired else None
                status = v.get("status")
                finished = type(status) is not str or status not in unfin or call_finished(fam, v, ctx.programs)
                if not finished or (slot is not None and (slot in calls or (by_call_id and key in call_ids))):
                    fam_fns = fam_every  # unfinished, or its key seen before: every call rule is asked
                if fam_fns:
                    if not fns:  # no item rule was asked: the item's own facts first
                        facts.index, facts.view, facts.first_index = i, v, None if first == i else first
                        facts.next = views[k + 1] if k < last else tail
                        facts.json = None if values is None else values[k]
                    facts.family, facts.key, facts.slot, facts.finished = fam, key, slot, finished
                    for fn in fam_fns:
                        found = fn(ctx, facts)
                        if found:
                            out.extend(found)
                    facts.family, facts.key, facts.slot, facts.finished = None, None, None, True  # the next item's
                if special:
                    self._called(i, v, fam, key, slot, finished)
                    continue
                if slot is not None:
                    calls.setdefault(slot, i)
                    if by_call_id:
                        call_ids.setdefault(key, i)
                    if not finished:
                        unfinished.add(slot)
                    elif needs == 1 or (needs == 2 and fam.needs_output(v)):
                        open_calls.setdefault(slot, i)
            elif role == 2:  # an output: its facts, its rules, then the pairing tables
                fam, fam_fns, fam_every, _, ctype, _, _, _, _, _, output_by_call_id = pairing  # type: ignore[misc]
                if output_by_call_id:  # every family but a few of OpenAI's
                    key, key_field = v.get("call_id"), "call_id"
                    if key is MISSING:
                        key = None
                else:
                    key, key_field = _output_key(fam, v)
                if not isinstance(key, str):
                    self._keyless(i, v, fam, key, key_field)
                    continue
                slot = (ctype, key)
                if slot not in calls or slot in answered or slot in unfinished:
                    fam_fns = fam_every  # it answers no open call: every output rule is asked
                if fam_fns:
                    if not fns:  # no item rule was asked: the item's own facts first
                        facts.index, facts.view, facts.first_index = i, v, None if first == i else first
                        facts.next = views[k + 1] if k < last else tail
                        facts.json = None if values is None else values[k]
                    facts.family, facts.key, facts.slot, facts.key_field = fam, key, slot, key_field
                    for fn in fam_fns:
                        found = fn(ctx, facts)
                        if found:
                            out.extend(found)
                    facts.family, facts.key, facts.slot, facts.key_field = None, None, None, "call_id"
                answered.add(slot)
                open_calls.pop(slot, None)
            elif role == 3 and open_calls:  # the conversation moves on: open calls stay unanswered
                self._close(i)

    def _called(self, i: int, v: View, fam: CallFamily, key: Any, slot: Slot | None, finished: bool) -> None:
        """The pairing tables once the rules of call `i` have run (any family; the loop of `_run` keeps them
        itself for the families with no safety checks to acknowledge and no program)."""
        ctx = self.ctx
        if slot is not None:
            ctx.calls.setdefault(slot, i)
            if fam.call_key == "call_id":
                ctx.call_ids.setdefault(key, i)
            if not finished:
                ctx.unfinished.add(slot)
            if fam.acknowledge is not None:
                ctx.to_acknowledge[slot] = listed_ids(field(v, fam.acknowledge[0]))
        if fam.call_type == "openai:program" and isinstance(key, str):
            ctx.programs.add(key)
        if finished and isinstance(key, str) and fam.needs_output(v):
            ctx.open_calls.setdefault((fam.call_type, key), i)

    def _keyless(self, i: int, v: View, fam: CallFamily, key: Any, key_field: str) -> None:
        """An output whose key is not a string: it answers no call, and no output rule is asked of it."""
        hosted = fam.hosted_when
        # a provider's output that names no call answers none (a server-run tool search's may); the
        # spec's own outputs require their key, so theirs is already item_invalid
        own = fam.output_type is not None and ":" in fam.output_type
        if key is None and own and not (hosted is not None and field(v, hosted[0]) == hosted[1]):
            self.out.at(
                i, ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL, "/" + key_field, family=fam.name,
                call_key=fam.call_key, output_type=fam.output_type, variant="keyless",
            )  # fmt: skip

    def _close(self, i: int) -> None:
        ctx = self.ctx
        for (ctype, key), j in sorted(ctx.open_calls.items(), key=lambda kv: kv[1]):
            fam = by_call_type[ctype]
            self.out.at(
                j, ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT, "/" + fam.call_key, family=fam.name, key=key,
                output_type=fam.output_type, next_index=i,
            )  # fmt: skip
        ctx.open_calls.clear()

    def finish(self, pending_ok: bool, pending_from: int = 0) -> list[int]:
        """End of the items: the trailing unanswered calls are pending (returned) or violations. A call
        before `pending_from` (in the previous output a continuation answers) is never pending: the
        request that continues it must answer it."""
        ctx = self.ctx
        trailing = sorted(ctx.open_calls.items(), key=lambda kv: kv[1])
        if pending_ok:
            waiting = [(call, j) for call, j in trailing if j >= pending_from]
            for (ctype, key), j in waiting:
                facts = Facts(j, NO_VIEW, family=by_call_type[ctype], key=key)
                for fn in select(self._rules.rows["pending"], ctype):
                    self.out.extend(fn(ctx, facts))
            trailing = [(call, j) for call, j in trailing if j < pending_from]
            if not trailing:
                return [j for _, j in waiting]
        else:
            waiting = []
        for (ctype, key), j in trailing:
            fam = by_call_type[ctype]
            self.out.at(
                j, ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT, "/" + fam.call_key, family=fam.name, key=key,
                output_type=fam.output_type, variant="end" if j >= pending_from else "previous",
            )  # fmt: skip
        return [j for _, j in waiting]


def _output_key(fam: CallFamily, v: View) -> tuple[Any, str]:
    """(the key an output names its call by, the field it is in); (None, first field) when absent."""
    keys = fam.output_keys
    if keys == ("call_id",):  # every family but a few of OpenAI's
        key = v.get("call_id")
        return (None if key is MISSING else key), "call_id"
    for name in keys:
        key = field(v, name)
        if key is not None:
            return key, name
    return None, keys[0]


class _Block:
    """One block of the whole-list pass (`Engine._whole`) as its columns read it: the items' `views`, the
    indexes of each item type (`groups`) and of each key (`by_key`: a model class, or the type read from
    the view; `_keys`), the type of each key (`key_types`), and, where the keys are types read from the views
    of validated models, each model's class (`classes`, for a row's `exempt`). Each type's views are taken
    once (`column`)."""

    __slots__ = ("views", "groups", "by_key", "key_types", "classes", "_columns")

    def __init__(
        self,
        views: list[View],
        groups: dict[str, list[int]],
        by_key: dict[Any, list[int]],
        key_types: dict[Any, Any],
        classes: list[type] | None,
    ) -> None:
        self.views, self.groups, self.by_key, self.key_types, self.classes = views, groups, by_key, key_types, classes
        self._columns: dict[str, tuple[list[int], list[View]]] = {}

    def column(self, t: str) -> tuple[list[int], list[View]]:
        """The indexes (in the block) and views of the items of type `t`, in order."""
        got = self._columns.get(t)
        if got is None:
            at = self.groups[t]
            got = self._columns[t] = (at, list(map(self.views.__getitem__, at)))
        return got

    def swept(self, t: str, exempt: Callable[[type], bool] | None) -> list[View]:
        """The views of the items of type `t` a sweep reads: those of a model class `exempt` exempts left out
        (asked once per class), in any order."""
        if exempt is None:
            return self.column(t)[1]
        if self.classes is not None:  # keys are types: each item's class, asked through its index
            at, views = self.column(t)
            return _not_exempt(exempt, views, list(map(self.classes.__getitem__, at)))
        keys = [k for k, kt in self.key_types.items() if kt == t]
        if type(keys[0]) is str:  # keys are types read from JSON: no class to exempt
            return self.column(t)[1]
        kept = [k for k in keys if not exempt(k)]
        if len(kept) == len(keys):
            return self.column(t)[1]
        return list(map(self.views.__getitem__, chain.from_iterable(map(self.by_key.__getitem__, kept))))


class _Calls:
    """The calls of one family the whole-list pass has read so far (`Engine._whole`): the item type they
    have, the family's `_Pairing`, their `keys` and indexes (`at`) in order, the set of their keys (`held`),
    how many of the first are answered in order (`matched`), and, once outputs stop following the calls'
    order, the calls by key (`by_key`) and the keys answered (`answered`)."""

    __slots__ = ("item_type", "pairing", "keys", "at", "held", "matched", "by_key", "answered")

    def __init__(self, item_type: str, pairing: _Pairing) -> None:
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


class _Tally:
    """What the blocks of one whole-list pass (`Engine._whole`) leave to the next: the string ids read
    (`ids`), each item type's plan (`plans`: None for a type whose items `_run` must ask), the keys (`_keys`:
    classes or types) of the items that close the open calls (`barriers`), each block's keys (`keys`), each
    paired call family's calls (`calls`, by call type) and the item type of its outputs (`outputs`)."""

    __slots__ = ("ids", "plans", "barriers", "keys", "calls", "outputs", "_segment", "_counted")

    def __init__(self) -> None:
        self.ids: set[Any] = set()
        self.plans: dict[str, _Plan | None] = {}
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
        """The calls still open at the end (each needing an output), as `Engine._run` leaves them; None
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


def _field(views: list[View], name: str) -> list[Any]:
    """Field `name` of each of `views` (dicts; None when absent), read in C."""
    return list(map(dict.get, views, repeat(name)))  # type: ignore[arg-type]


def _not_exempt(exempt: Callable[[type], bool], views: list[View], classes: list[type]) -> list[View]:
    """The `views` whose model's class (`classes`, one per view) `exempt` does not exempt (asked once per class)."""
    asked = {cls: not exempt(cls) for cls in set(classes)}
    if all(asked.values()):
        return views
    return list(compress(views, map(asked.__getitem__, classes)))


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


def run_rules(
    views: list[View],
    engine: Engine,
    pending_ok: bool,
    pending_from: int = 0,
    values: Sequence[Any] | None = None,
    stored: bool = False,
) -> list[int]:
    """Run the rules over all views in one pass (each with its successor as lookahead and its JSON value,
    `values`); returns pending (never a call before `pending_from`: see `Engine.finish`). `stored`: the
    views are our validated models' storages (`Engine.run`)."""
    engine.run(views, values, stored)
    return engine.finish(pending_ok, pending_from)
