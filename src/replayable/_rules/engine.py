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

from collections.abc import Sequence
from itertools import chain, islice, repeat
from typing import Any

from pydantic.experimental.missing_sentinel import MISSING

from replayable._codes import ViolationCode
from replayable._families import CallFamily, by_call_type, by_output_type
from replayable._findings import Findings
from replayable._rules.call_rules import call_finished, listed_ids
from replayable._rules.state import Context, Facts, RuleCheck
from replayable._rules.table import active, select
from replayable._rules.view import NO_VIEW, View, field

__all__ = ["Engine", "run_rules"]

_BARRIERS = frozenset({"message", "compaction", "item_reference"})
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}

_Fns = tuple[RuleCheck, ...]
#: (item rules, role, call family, the family's call or output rules): see `Engine._plan`.
_Plan = tuple[_Fns, int, CallFamily | None, _Fns]


class Engine:
    """The rules as one state machine fed one item at a time, with the next item as lookahead (`nxt` is None
    for the last item). Holds per-id and per-call state only (`Context`), never the items; the findings
    the rules return go to `out`."""

    __slots__ = ("ctx", "out", "_rows", "_plans", "_every")

    def __init__(self, ctx: Context, out: Findings) -> None:
        """Run the rules with `ctx` (`rules.state.Context`: the target and its profile, the tools and the
        allowed names, the side, the source provider, the Agents registry), their findings added to `out`."""
        self.ctx = ctx
        self.out = out
        self._rows = {on: active(ctx, on) for on in ("item", "call", "output", "pending")}
        # the rules of an item whose type is not a string; the conversation moves on past it
        self._every: _Plan = (select(self._rows["item"], None), 3, None, ())
        self._plans: dict[str, _Plan] = {}

    def _plan(self, vtype: str) -> _Plan:
        """What to run for items of type `vtype`: its item rules, its role (0 none, 1 call, 2 output, 3 a
        barrier that closes the open calls), its call family, and that family's call or output rules."""
        role = _FAMILY_OF.get(vtype)
        if role is None:
            plan: _Plan = (select(self._rows["item"], vtype), 3 if vtype in _BARRIERS else 0, None, ())
        else:
            fam, is_call = role
            rows = self._rows["call" if is_call else "output"]
            plan = (select(self._rows["item"], vtype), 1 if is_call else 2, fam, select(rows, fam.call_type))
        if len(self._plans) < 1024:  # item types come from the input: never an unbounded cache
            self._plans[vtype] = plan
        return plan

    def step(self, i: int, v: View, nxt: View | None, json: Any = None) -> None:
        """Run the rules of item `i` (view `v`; `nxt` the next item's view, None at the end; `json` the
        JSON value it came from, for the target's profile)."""
        vtype = v.get("type")
        if type(vtype) is str:  # no type, or one that is not a string (a list is unhashable): `_every`
            plan = self._plans.get(vtype) or self._plan(vtype)
        else:
            plan = self._every
        self._item(i, v, nxt, json, plan)

    def run(self, views: list[View], values: Sequence[Any] | None = None) -> None:
        """`step` over all views in one pass, each with its successor as lookahead and its JSON value
        (`values[i]`, when given): this loop is what checking a parsed transcript costs per item, so
        `_item`'s item rules and id bookkeeping are inlined here."""
        ctx, out, plans, plan_of, every = self.ctx, self.out, self._plans, self._plan, self._every
        ids, call, output, close = ctx.ids, self._call, self._output, self._close
        following = chain(islice(views, 1, None), (None,))  # each item's successor (the lookahead)
        jsons = repeat(None) if values is None else values
        facts = Facts(0, NO_VIEW)  # one per run, its fields set for each item before its rules run
        for i, (v, nxt, json) in enumerate(zip(views, following, jsons, strict=False)):
            vtype = v.get("type")
            fns, role, fam, fam_fns = (plans.get(vtype) or plan_of(vtype)) if type(vtype) is str else every
            vid = v.get("id")
            first = ids.setdefault(vid, i) if vid and type(vid) is str else i
            facts.index, facts.view, facts.next, facts.json = i, v, nxt, json
            facts.first_index = None if first == i else first
            for fn in fns:
                found = fn(ctx, facts)
                if found:
                    out.extend(found)
            if role == 1:
                call(facts, fam, fam_fns)  # type: ignore[arg-type]
            elif role == 2:
                output(facts, fam, fam_fns)  # type: ignore[arg-type]
            elif role == 3 and ctx.open_calls:  # the conversation moves on: open calls stay unanswered
                close(i)

    def _item(self, i: int, v: View, nxt: View | None, json: Any, plan: _Plan) -> None:
        fns, role, fam, fam_fns = plan
        ctx, out = self.ctx, self.out
        vid = v.get("id")
        first = ctx.ids.setdefault(vid, i) if vid and type(vid) is str else i  # the first index of each id
        facts = Facts(i, v, nxt, json, None if first == i else first)
        for fn in fns:
            out.extend(fn(ctx, facts))
        if role == 1:
            self._call(facts, fam, fam_fns)  # type: ignore[arg-type]
        elif role == 2:
            self._output(facts, fam, fam_fns)  # type: ignore[arg-type]
        elif role == 3 and ctx.open_calls:  # the conversation moves on: open calls stay unanswered
            self._close(i)

    def _call(self, facts: Facts, fam: CallFamily, fns: _Fns) -> None:
        ctx, out, i, v = self.ctx, self.out, facts.index, facts.view
        key = v.get(fam.call_key)
        if key is MISSING:
            key = None
        slot = (fam.call_type, key) if isinstance(key, str) and fam.output_type is not None else None
        status = v.get("status")
        finished = type(status) is not str or status not in fam.unfinished or call_finished(fam, v, ctx.programs)
        facts.family, facts.key, facts.slot, facts.finished = fam, key, slot, finished
        for fn in fns:
            found = fn(ctx, facts)
            if found:
                out.extend(found)
        facts.family, facts.key, facts.slot, facts.finished = None, None, None, True  # the next item's own
        if slot is not None:
            ctx.calls.setdefault(slot, i)  # type: ignore[arg-type]
            if fam.call_key == "call_id":
                ctx.call_ids.setdefault(slot[1], i)  # type: ignore[arg-type]
            if not finished:
                ctx.unfinished.add(slot)
            if fam.acknowledge is not None:
                ctx.to_acknowledge[slot] = listed_ids(field(v, fam.acknowledge[0]))
        if fam.call_type == "openai:program" and isinstance(key, str):
            ctx.programs.add(key)
        if finished and isinstance(key, str) and fam.needs_output(v):
            ctx.open_calls.setdefault((fam.call_type, key), i)  # type: ignore[arg-type]

    def _output(self, facts: Facts, fam: CallFamily, fns: _Fns) -> None:
        ctx, out, i, v = self.ctx, self.out, facts.index, facts.view
        key, key_field = _output_key(fam, v)
        if not isinstance(key, str):
            hosted = fam.hosted_when
            # a provider's output that names no call answers none (a server-run tool search's may); the
            # spec's own outputs require their key, so theirs is already item_invalid
            own = fam.output_type is not None and ":" in fam.output_type
            if key is None and own and not (hosted is not None and field(v, hosted[0]) == hosted[1]):
                out.at(
                    i, ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL, "/" + key_field, family=fam.name,
                    call_key=fam.call_key, output_type=fam.output_type, variant="keyless",
                )  # fmt: skip
            return
        slot = (fam.call_type, key)
        facts.family, facts.key, facts.slot, facts.key_field = fam, key, slot, key_field
        for fn in fns:
            found = fn(ctx, facts)
            if found:
                out.extend(found)
        facts.family, facts.key, facts.slot, facts.key_field = None, None, None, "call_id"  # the next item's own
        ctx.answered.add(slot)
        ctx.open_calls.pop(slot, None)

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
                for fn in select(self._rows["pending"], ctype):
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
