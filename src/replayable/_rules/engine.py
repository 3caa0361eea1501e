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
switches (`replayable._rules.plans.rule_set`); a rule whose row has a `gate` is asked only of an item
where that fact holds (an id seen before, a call unfinished or its key seen, an output that answers no open
call); and a whole list (`Engine.run`) is first told clean or not a column at a time, by the whole-list
pass (`replayable._rules.whole.clean`).
Only a list where something may be found is walked item by item (`Engine._run`), and that walk alone
reports findings, so every finding, message and order is the one item-by-item walk's
(`tests/rules/test_engine_gates.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic.experimental.missing_sentinel import MISSING

from replayable._codes import ViolationCode
from replayable._families import CallFamily, by_call_type
from replayable._findings import Findings
from replayable._rules.call_rules import call_finished, listed_ids
from replayable._rules.plans import rule_set
from replayable._rules.state import Context, Facts, Slot
from replayable._rules.table import select
from replayable._rules.view import NO_VIEW, View, field
from replayable._rules.whole import clean

__all__ = ["Engine", "run_rules"]

#: The shortest list `Engine.run` first tries to tell clean at once (`Engine._whole`): below it the columns
#: cost more than walking the items (one recorded response: +17%, measured with `bench_real.py`'s bodies).
WHOLE_FROM = 32


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

    def run(
        self,
        views: list[View],
        values: Sequence[Any] | None = None,
        stored: bool = False,
        classes: list[type] | None = None,
    ) -> None:
        """`step` over all views, each with its successor as lookahead and its JSON value (`values[i]`, when
        given). A list of `WHOLE_FROM` items or more where nothing is to be found is told so a whole column
        at a time (`_whole`: the pairing tables then hold only the calls still open at the end, which is all
        `finish` reads); any other list, from the first item again, one item at a time (`_run`), which
        alone reports findings. `stored`: the caller knows every view is the storage of one of our validated
        item models (`rules.view.model_views`): a `dict` whose `id` is a string, None or absent, as each item
        model declares it (`tests/rules/test_engine_views.py` holds every item model to that), and `values`
        are those models, of the `classes` when given (one per model, in order: the reader's)."""
        if len(views) < WHOLE_FROM or not self._whole(views, stored, values if stored else None, classes):
            self._run(0, views, values, None)

    def _whole(
        self,
        views: list[View],
        stored: bool = False,
        models: Sequence[Any] | None = None,
        classes: list[type] | None = None,
    ) -> bool:
        """Whether the rules find nothing in `views`: the whole-list pass (`replayable._rules.whole.clean`),
        which leaves in `ctx.open_calls` the calls still open at the end when it says so."""
        return clean(self.ctx, self._rules, views, stored, models, classes)

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


def run_rules(
    views: list[View],
    engine: Engine,
    pending_ok: bool,
    pending_from: int = 0,
    values: Sequence[Any] | None = None,
    stored: bool = False,
    classes: list[type] | None = None,
) -> list[int]:
    """Run the rules over all views in one pass (each with its successor as lookahead and its JSON value,
    `values`); returns pending (never a call before `pending_from`: see `Engine.finish`). `stored`: the
    views are our validated models' storages (`Engine.run`), of the `classes` when given."""
    engine.run(views, values, stored, classes)
    return engine.finish(pending_ok, pending_from)
