"""The engine of the transcript rules: computes what the rules read of each item (its `Facts`: the view,
the next item as lookahead, the JSON it came from, a call's pairing key and whether it is finished, the
field an output names its call by), then hands them to the rules of `replayable._rules.table.RULES` that
apply to it, keyed by item type and by call family, and collects the findings they return. After an item's
rules have run, it updates the pairing tables that every call family shares (`replayable._families.FAMILIES`):
no rule writes state another rule reads, so the table's order is only the order of findings.

The engine itself owns one rule, the one that needs the whole pairing state: a call left unanswered once
the conversation moves on (a message, compaction or item reference follows), or at the end unless
pending calls are allowed (`function_call_without_output`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, count, islice, repeat
from typing import Any, NamedTuple

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
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}

_Fns = tuple[RuleCheck, ...]


class _Plan(NamedTuple):
    """What to run for the items of one type: its item rules (`plain`: those without a gate, asked of an item
    whose id is no earlier item's; `every`: all of them, in table order), its `role` (0 none, 1 a call, 2 an
    output, 3 a barrier that closes the open calls), its call `family`, and that family's call or output
    rules (`fam_plain`: those without a gate, asked of a plain call or output; `fam_every`: all of them)."""

    plain: _Fns
    every: _Fns
    role: int
    family: CallFamily | None
    fam_plain: _Fns
    fam_every: _Fns


class _RuleSet:
    """The rows of a table switched on for one combination of settings, and the plan of each item type
    (`_Plan`), made once and kept for every check with the same table and switches (`rule_set`)."""

    __slots__ = ("rows", "plans", "every")

    def __init__(self, rows: dict[str, list[Rule]]) -> None:
        self.rows = rows
        # the rules of an item whose type is not a string; the conversation moves on past it
        every = select(rows["item"], None)
        self.every = _Plan(_ungated(rows["item"], None), every, 3, None, (), ())
        self.plans: dict[str, _Plan] = {}

    def plan(self, vtype: str) -> _Plan:
        """The plan of items of type `vtype` (kept for the next item of that type)."""
        plan = self.plans.get(vtype)
        if plan is not None:
            return plan
        items = self.rows["item"]
        role = _FAMILY_OF.get(vtype)
        if role is None:
            plan = _Plan(_ungated(items, vtype), select(items, vtype), 3 if vtype in _BARRIERS else 0, None, (), ())
        else:
            fam, is_call = role
            rows = self.rows["call" if is_call else "output"]
            plan = _Plan(
                _ungated(items, vtype), select(items, vtype), 1 if is_call else 2, fam,
                _ungated(rows, fam.call_type), select(rows, fam.call_type),
            )  # fmt: skip
        if len(self.plans) < 1024:  # item types come from the input: never an unbounded cache
            self.plans[vtype] = plan
        return plan


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
        self._run(i, (v,), (nxt,), (json,))

    def run(self, views: list[View], values: Sequence[Any] | None = None) -> None:
        """`step` over all views in one pass, each with its successor as lookahead and its JSON value
        (`values[i]`, when given)."""
        following = chain(islice(views, 1, None), (None,))  # each item's successor (the lookahead)
        self._run(0, views, following, repeat(None) if values is None else values)

    def _run(self, start: int, views: Iterable[View], following: Iterable[View | None], jsons: Iterable[Any]) -> None:
        """The rules of items `start`, `start + 1`, ... (their views, successors and JSON values): this loop is
        what checking a parsed transcript costs per item. A plain item (no gate of its rules holds: its id
        new, a call finished and its key new, an output answering an open call) is asked only the rules
        without a gate; the facts are set only when a rule is asked; the pairing state is kept inline."""
        ctx, out, facts, rules = self.ctx, self.out, self._facts, self._rules
        plans, plan_of, every = rules.plans, rules.plan, rules.every
        ids, calls, call_ids, answered = ctx.ids, ctx.calls, ctx.call_ids, ctx.answered
        unfinished, open_calls = ctx.unfinished, ctx.open_calls
        for i, v, nxt, json in zip(count(start), views, following, jsons):
            vtype = v.get("type")
            if vtype.__class__ is str:  # no type, or one that is not a string (a list is unhashable): `every`
                plan = plans.get(vtype) or plan_of(vtype)  # type: ignore[arg-type]
            else:
                plan = every
            fns, _, role, fam, fam_fns, _ = plan
            vid = v.get("id")
            first = ids.setdefault(vid, i) if vid and type(vid) is str else i  # the first index of each id
            if first != i:
                fns = plan.every  # a duplicate id: every item rule is asked
            if fns:
                facts.index, facts.view, facts.next, facts.json = i, v, nxt, json
                facts.first_index = None if first == i else first
                for fn in fns:
                    found = fn(ctx, facts)
                    if found:
                        out.extend(found)
            if role == 1:  # a call: its facts, its rules, then the pairing tables
                key = v.get(fam.call_key)  # type: ignore[union-attr]
                if key is MISSING:
                    key = None
                slot = (fam.call_type, key) if isinstance(key, str) and fam.output_type is not None else None  # type: ignore[union-attr]
                status = v.get("status")
                finished = (
                    type(status) is not str or status not in fam.unfinished or call_finished(fam, v, ctx.programs)  # type: ignore[union-attr]
                )
                if not finished or (
                    slot is not None and (slot in calls or (fam.call_key == "call_id" and key in call_ids))  # type: ignore[union-attr]
                ):
                    fam_fns = plan.fam_every  # unfinished, or its key seen before: every call rule is asked
                if fam_fns:
                    if not fns:  # no item rule was asked: the item's own facts first
                        facts.index, facts.view, facts.next, facts.json = i, v, nxt, json
                        facts.first_index = None if first == i else first
                    facts.family, facts.key, facts.slot, facts.finished = fam, key, slot, finished
                    for fn in fam_fns:
                        found = fn(ctx, facts)
                        if found:
                            out.extend(found)
                    facts.family, facts.key, facts.slot, facts.finished = None, None, None, True  # the next item's
                self._called(i, v, fam, key, slot, finished)  # type: ignore[arg-type]
            elif role == 2:  # an output: its facts, its rules, then the pairing tables
                if fam.output_keys == ("call_id",):  # type: ignore[union-attr]  # every family but a few of OpenAI's
                    key = v.get("call_id")
                    key_field = "call_id"
                    if key is MISSING:
                        key = None
                else:
                    key, key_field = _output_key(fam, v)  # type: ignore[arg-type]
                if not isinstance(key, str):
                    self._keyless(i, v, fam, key, key_field)  # type: ignore[arg-type]
                    continue
                slot = (fam.call_type, key)  # type: ignore[union-attr]
                if slot not in calls or slot in answered or slot in unfinished:
                    fam_fns = plan.fam_every  # it answers no open call: every output rule is asked
                if fam_fns:
                    if not fns:  # no item rule was asked: the item's own facts first
                        facts.index, facts.view, facts.next, facts.json = i, v, nxt, json
                        facts.first_index = None if first == i else first
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
        """The pairing tables once the rules of call `i` have run."""
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
    views: list[View], engine: Engine, pending_ok: bool, pending_from: int = 0, values: Sequence[Any] | None = None
) -> list[int]:
    """Run the rules over all views in one pass (each with its successor as lookahead and its JSON value,
    `values`); returns pending (never a call before `pending_from`: see `Engine.finish`)."""
    engine.run(views, values)
    return engine.finish(pending_ok, pending_from)
