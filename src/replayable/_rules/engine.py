"""The engine of the transcript rules: feeds each item's view (with the next item as lookahead) to the
rules of `replayable._rules.table.RULES` that apply to it, keyed by item type and by call family, and keeps
the pairing tables that every call family shares (`replayable._families.FAMILIES`).

The engine itself owns one rule, the one that needs the whole pairing state: a call left unanswered once
the conversation moves on (a message, compaction or item reference follows), or at the end unless
pending calls are allowed (`function_call_without_output`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, islice
from typing import Any

from pydantic.experimental.missing_sentinel import MISSING

from replayable._codes import ViolationCode
from replayable._families import CallFamily, by_call_type, by_output_type
from replayable._rules.call_rules import listed_ids
from replayable._rules.state import Context
from replayable._rules.table import active, select
from replayable._rules.view import View, field

__all__ = ["Engine", "run_rules"]

_BARRIERS = frozenset({"message", "compaction", "item_reference"})
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}

_Fns = tuple[Callable[..., None], ...]
#: (item rules, role, call family, the family's call or output rules): see `Engine._plan`.
_Plan = tuple[_Fns, int, CallFamily | None, _Fns]


class Engine:
    """The rules as one state machine fed one item at a time, with the next item as lookahead (`nxt` is None
    for the last item). Holds per-id and per-call state only (`Context`), never the items."""

    __slots__ = ("ctx", "_rows", "_plans", "_every")

    def __init__(self, ctx: Context) -> None:
        """Run the rules with `ctx` (`rules.state.Context`: where findings go, the target, the tools and
        the allowed names, the side, the source provider, the Agents registry)."""
        self.ctx = ctx
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

    def step(self, i: int, v: View, nxt: View | None) -> None:
        """Run the rules of item `i` (view `v`; `nxt` the next item's view, None at the end)."""
        vtype = v.get("type")
        if type(vtype) is str:  # no type, or one that is not a string (a list is unhashable): `_every`
            fns, role, fam, fam_fns = self._plans.get(vtype) or self._plan(vtype)
        else:
            fns, role, fam, fam_fns = self._every
        ctx = self.ctx
        for fn in fns:
            fn(ctx, i, v, nxt)
        if role == 1:
            self._call(i, v, fam, fam_fns)  # type: ignore[arg-type]
        elif role == 2:
            self._output(i, v, fam, fam_fns)  # type: ignore[arg-type]
        elif role == 3 and ctx.open_calls:  # the conversation moves on: open calls stay unanswered
            self._close(i)

    def run(self, views: list[View]) -> None:
        """`step` over all views in one pass, each with its successor as lookahead (`step`'s body, inlined:
        this loop is what checking a parsed transcript costs per item)."""
        ctx, plans, plan_of, every = self.ctx, self._plans, self._plan, self._every
        call, output, close = self._call, self._output, self._close
        following = chain(islice(views, 1, None), (None,))  # each item's successor (the lookahead)
        for i, (v, nxt) in enumerate(zip(views, following, strict=False)):
            vtype = v.get("type")
            if type(vtype) is str:
                fns, role, fam, fam_fns = plans.get(vtype) or plan_of(vtype)
            else:
                fns, role, fam, fam_fns = every
            for fn in fns:
                fn(ctx, i, v, nxt)
            if role == 1:
                call(i, v, fam, fam_fns)  # type: ignore[arg-type]
            elif role == 2:
                output(i, v, fam, fam_fns)  # type: ignore[arg-type]
            elif role == 3 and ctx.open_calls:  # the conversation moves on: open calls stay unanswered
                close(i)

    def _call(self, i: int, v: View, fam: CallFamily, fns: _Fns) -> None:
        ctx = self.ctx
        key = v.get(fam.call_key)
        if key is MISSING:
            key = None
        slot = (fam.call_type, key) if isinstance(key, str) and fam.output_type is not None else None
        ctx.finished = True
        for fn in fns:
            fn(ctx, i, v, fam, key, slot)
        if slot is not None:
            ctx.calls.setdefault(slot, i)
            if fam.call_key == "call_id":
                ctx.call_ids.setdefault(slot[1], i)
            if not ctx.finished:
                ctx.unfinished.add(slot)
            if fam.acknowledge is not None:
                ctx.to_acknowledge[slot] = listed_ids(field(v, fam.acknowledge[0]))
        if fam.call_type == "openai:program" and isinstance(key, str):
            ctx.programs.add(key)
        if ctx.finished and isinstance(key, str) and fam.needs_output(v):
            ctx.open_calls.setdefault((fam.call_type, key), i)

    def _output(self, i: int, v: View, fam: CallFamily, fns: _Fns) -> None:
        ctx = self.ctx
        key, ctx.key_field = _output_key(fam, v)
        if not isinstance(key, str):
            hosted = fam.hosted_when
            # a provider's output that names no call answers none (a server-run tool search's may); the
            # spec's own outputs require their key, so theirs is already item_invalid
            own = fam.output_type is not None and ":" in fam.output_type
            if key is None and own and not (hosted is not None and field(v, hosted[0]) == hosted[1]):
                ctx.out.at(
                    i, ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL, "/" + ctx.key_field, family=fam.name,
                    call_key=fam.call_key, output_type=fam.output_type, variant="keyless",
                )  # fmt: skip
            return
        slot = (fam.call_type, key)
        for fn in fns:
            fn(ctx, i, v, fam, key, slot)
        ctx.answered.add(slot)
        ctx.open_calls.pop(slot, None)

    def _close(self, i: int) -> None:
        ctx = self.ctx
        for (ctype, key), j in sorted(ctx.open_calls.items(), key=lambda kv: kv[1]):
            fam = by_call_type[ctype]
            ctx.out.at(
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
                fam = by_call_type[ctype]
                for fn in select(self._rows["pending"], ctype):
                    fn(ctx, j, fam, key)
            trailing = [(call, j) for call, j in trailing if j < pending_from]
            if not trailing:
                return [j for _, j in waiting]
        else:
            waiting = []
        for (ctype, key), j in trailing:
            fam = by_call_type[ctype]
            ctx.out.at(
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


def run_rules(views: list[View], engine: Engine, pending_ok: bool, pending_from: int = 0) -> list[int]:
    """Run the rules over all views in one pass (each with its successor as lookahead); returns pending
    (never a call before `pending_from`: see `Engine.finish`)."""
    engine.run(views)
    return engine.finish(pending_ok, pending_from)
