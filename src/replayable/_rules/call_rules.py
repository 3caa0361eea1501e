"""Rules on calls and their outputs, for every call family of `replayable._families.FAMILIES`: one call per
pairing key, calls finished before they are replayed or answered, each output answering one earlier
finished call once, safety checks acknowledged, and (the worked example of one function and one table
row) no call whose `call_id` is empty.

Each rule is `rule(ctx, item)` (`replayable._rules.state.RuleCheck`) and returns its findings. A call
rule reads the call's facts (`item.family`, its pairing key `item.key`, its `slot` in the pairing tables,
None when the call has no usable key or no output, and whether it is `finished`); an output rule the
same, with the key the output names its call by and the field it was read from (`item.key_field`); a
pending rule sees each call still waiting for its output at the end (with `pending_ok`). What they read
is computed by the engine before they run. Registered in `replayable._rules.table.RULES`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from replayable._base import read_field
from replayable._codes import ViolationCode
from replayable._families import CallFamily, program_call_waiting
from replayable._findings import Finding
from replayable._rules.state import Context, Facts, found
from replayable._rules.view import View, field

__all__ = [
    "acknowledged_safety_checks",
    "call_finished",
    "call_id_empty",
    "finished_call",
    "listed_ids",
    "one_call_per_key",
    "output_answers_call",
]


def one_call_per_key(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`duplicate_call_id`: two calls of one family with the same pairing key, or two calls of different
    families with the same `call_id` (an output pairs by `call_id` alone: which call it answers would be
    a guess)."""
    slot, fam, key = item.slot, item.family, item.key
    if slot is None or fam is None:
        return ()
    first = ctx.calls.get(slot)
    if first is None and fam.call_key == "call_id":
        first = ctx.call_ids.get(key)
    if first is None:
        return ()
    code = ViolationCode.DUPLICATE_CALL_ID
    return (found(item.index, code, "/" + fam.call_key, call_key=fam.call_key, key=key, call_index=first),)


def call_id_empty(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`call_id_empty` (items read as output): a call still waiting for its output at the end of a
    Response's `output` or a stream, whose `call_id` is `""`.

    The output form of a call lets an empty `call_id` through, and a response's trailing calls are
    pending (to be executed, then answered). But nothing can answer this one: the output that answers it
    names it by a `call_id` of 1-64 characters, and the call itself is refused once it is sent back as
    input. It is found where the call is first read, not only once it is replayed. (A pair the response
    itself completes is left alone: it is what the provider sent.)"""
    fam = item.family
    if fam is None or item.key != "" or fam.call_key != "call_id":
        return ()
    code = ViolationCode.CALL_ID_EMPTY
    return (found(item.index, code, "/call_id", family=fam.name, call_key=fam.call_key, output_type=fam.output_type),)


def call_finished(fam: CallFamily, v: View, programs: set[str]) -> bool:
    """Whether a call of `fam` (view `v`) is finished: its status is none of the family's unfinished ones,
    or it is a program's call still waiting for its output (`programs`: the program items seen so far).
    Computed by the engine before the call's rules run (`Facts.finished`)."""
    status = v.get("status")
    if type(status) is not str or status not in fam.unfinished:
        return True
    return program_call_waiting(fam, status, field(v, "caller"), programs)


def finished_call(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`incomplete_call_replayed` / `in_progress_call_replayed`: an unfinished call (unless it is a
    program's call still waiting for its output: `call_finished`)."""
    fam = item.family
    if item.finished or fam is None:
        return ()
    status = item.view.get("status")
    code = ViolationCode.INCOMPLETE_CALL_REPLAYED if status == "incomplete" else ViolationCode.IN_PROGRESS_CALL_REPLAYED
    variant = "program" if fam.program_callable and read_field(field(item.view, "caller"), "type") == "program" else ""
    return (found(item.index, code, "/status", family=fam.name, status=status, variant=variant),)


def output_answers_call(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`output_without_function_call`, `duplicate_output`, `output_for_unfinished_call`: an output answers
    one earlier, finished call of its family, once."""
    slot, fam, key, i = item.slot, item.family, item.key, item.index
    if slot is None or fam is None:
        return ()
    path = "/" + item.key_field
    if slot not in ctx.calls:
        return (
            found(
                i, ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL, path, family=fam.name, call_key=fam.call_key, key=key,
                output_type=fam.output_type,
            ),
        )  # fmt: skip
    if slot in ctx.answered:
        return (found(i, ViolationCode.DUPLICATE_OUTPUT, path, family=fam.name, key=key, call_index=ctx.calls[slot]),)
    if slot in ctx.unfinished:
        code = ViolationCode.OUTPUT_FOR_UNFINISHED_CALL
        return (found(i, code, path, family=fam.name, key=key, call_index=ctx.calls[slot]),)
    return ()


def listed_ids(value: Any) -> list[str]:
    """The `id`s of a list of objects (safety checks)."""
    out: list[str] = []
    if isinstance(value, list | tuple):
        for x in value:
            i = read_field(x, "id")
            if isinstance(i, str):
                out.append(i)
    return out


def acknowledged_safety_checks(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`safety_check_not_acknowledged`: an output that does not list back every safety check its call raised."""
    fam, slot = item.family, item.slot
    if fam is None or fam.acknowledge is None or slot is None or slot not in ctx.to_acknowledge:
        return ()
    raised, listed = fam.acknowledge
    acked = set(listed_ids(field(item.view, listed)))
    missing = [c for c in ctx.to_acknowledge[slot] if c not in acked]
    if not missing:
        return ()
    return (
        found(
            item.index, ViolationCode.SAFETY_CHECK_NOT_ACKNOWLEDGED, "/" + listed, family=fam.name, key=item.key,
            call_index=ctx.calls[slot], raised=raised, missing=", ".join(map(repr, missing)), field=listed,
        ),
    )  # fmt: skip
