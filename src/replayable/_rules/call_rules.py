"""Rules on calls and their outputs, for every call family of `replayable._families.FAMILIES`: one call per
pairing key, calls finished before they are replayed or answered, each output answering one earlier
finished call once, safety checks acknowledged, and (the worked example of one function and one table
row) no call whose `call_id` is empty.

A call rule is `rule(ctx, i, v, fam, key, slot)` (the call's family, pairing key, and `slot` in the pairing
tables, None when the call has no usable key or no output); an output rule has the same shape, with the
key the output names its call by; a pending rule, `rule(ctx, i, fam, key)`, sees each call still waiting
for its output at the end (with `pending_ok`). Registered in `replayable._rules.table.RULES`.
"""

from __future__ import annotations

from typing import Any

from replayable._base import read_field
from replayable._codes import ViolationCode
from replayable._families import CallFamily, program_call_waiting
from replayable._rules.state import Context, Slot
from replayable._rules.view import View, field

__all__ = [
    "acknowledged_safety_checks",
    "call_id_empty",
    "finished_call",
    "listed_ids",
    "one_call_per_key",
    "output_answers_call",
]


def one_call_per_key(ctx: Context, i: int, v: View, fam: CallFamily, key: Any, slot: Slot | None) -> None:
    """`duplicate_call_id`: two calls of one family with the same pairing key, or two calls of different
    families with the same `call_id` (an output pairs by `call_id` alone: which call it answers would be
    a guess)."""
    if slot is None:
        return
    first = ctx.calls.get(slot)
    if first is None and fam.call_key == "call_id":
        first = ctx.call_ids.get(key)
    if first is not None:
        ctx.out.at(
            i, ViolationCode.DUPLICATE_CALL_ID, "/" + fam.call_key, call_key=fam.call_key, key=key,
            call_index=first,
        )  # fmt: skip


def call_id_empty(ctx: Context, i: int, fam: CallFamily, key: str) -> None:
    """`call_id_empty` (items read as output): a call still waiting for its output at the end of a
    Response's `output` or a stream, whose `call_id` is `""`.

    The output form of a call lets an empty `call_id` through, and a response's trailing calls are
    pending (to be executed, then answered). But nothing can answer this one: the output that answers it
    names it by a `call_id` of 1-64 characters, and the call itself is refused once it is sent back as
    input. It is found where the call is first read, not only once it is replayed. (A pair the response
    itself completes is left alone: it is what the provider sent.)"""
    if key == "" and fam.call_key == "call_id":
        ctx.out.at(
            i, ViolationCode.CALL_ID_EMPTY, "/call_id", family=fam.name, call_key=fam.call_key,
            output_type=fam.output_type,
        )  # fmt: skip


def finished_call(ctx: Context, i: int, v: View, fam: CallFamily, key: Any, slot: Slot | None) -> None:
    """`incomplete_call_replayed` / `in_progress_call_replayed`: an unfinished call (unless it is a
    program's call still waiting for its output); sets `ctx.finished` False."""
    status = v.get("status")
    if type(status) is not str or status not in fam.unfinished:
        return
    caller = field(v, "caller")
    if program_call_waiting(fam, status, caller, ctx.programs):
        return
    ctx.finished = False
    code = ViolationCode.INCOMPLETE_CALL_REPLAYED if status == "incomplete" else ViolationCode.IN_PROGRESS_CALL_REPLAYED
    variant = "program" if fam.program_callable and read_field(caller, "type") == "program" else ""
    ctx.out.at(i, code, "/status", family=fam.name, status=status, variant=variant)


def output_answers_call(ctx: Context, i: int, v: View, fam: CallFamily, key: Any, slot: Slot | None) -> None:
    """`output_without_function_call`, `duplicate_output`, `output_for_unfinished_call`: an output answers
    one earlier, finished call of its family, once."""
    if slot is None:
        return
    path = "/" + ctx.key_field
    if slot not in ctx.calls:
        ctx.out.at(
            i, ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL, path, family=fam.name, call_key=fam.call_key, key=key,
            output_type=fam.output_type,
        )  # fmt: skip
    elif slot in ctx.answered:
        ctx.out.at(i, ViolationCode.DUPLICATE_OUTPUT, path, family=fam.name, key=key, call_index=ctx.calls[slot])
    elif slot in ctx.unfinished:
        ctx.out.at(
            i, ViolationCode.OUTPUT_FOR_UNFINISHED_CALL, path, family=fam.name, key=key, call_index=ctx.calls[slot]
        )


def listed_ids(value: Any) -> list[str]:
    """The `id`s of a list of objects (safety checks)."""
    out: list[str] = []
    if isinstance(value, list | tuple):
        for x in value:
            i = read_field(x, "id")
            if isinstance(i, str):
                out.append(i)
    return out


def acknowledged_safety_checks(ctx: Context, i: int, v: View, fam: CallFamily, key: Any, slot: Slot | None) -> None:
    """`safety_check_not_acknowledged`: an output that does not list back every safety check its call raised."""
    if fam.acknowledge is None or slot is None or slot not in ctx.to_acknowledge:
        return
    raised, listed = fam.acknowledge
    acked = set(listed_ids(field(v, listed)))
    missing = [c for c in ctx.to_acknowledge[slot] if c not in acked]
    if missing:
        ctx.out.at(
            i, ViolationCode.SAFETY_CHECK_NOT_ACKNOWLEDGED, "/" + listed, family=fam.name, key=key,
            call_index=ctx.calls[slot], raised=raised, missing=", ".join(map(repr, missing)), field=listed,
        )  # fmt: skip
