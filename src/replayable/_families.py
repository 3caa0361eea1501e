"""Call families: every kind of tool call and the item that answers it, described once, as data.

A call family is a call type, the output type that answers it, the fields that pair them, whether an
output is required, and which statuses mean the call is not finished. `FAMILIES` is the one table;
`check_transcript` (pairing, unanswered, unfinished and duplicate rules), `prepare_replay` (which drops
what those rules refuse), `compare_items` (which fields of a call carry its meaning) and the table in docs/openai.md
(`markdown_table`, checked by a test) all read it. A new family is a row here, not a branch elsewhere.

Sources: Open Responses 2026-04-24 "Tool calling" (function_call / function_call_output by call_id) and
OpenAI's Responses API (OpenAPI 2.3.0, `openai.types.responses` 3.57) for the `openai:` families.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pydantic.experimental.missing_sentinel import MISSING

__all__ = [
    "FAMILIES",
    "CallFamily",
    "by_call_type",
    "by_output_type",
    "markdown_table",
    "program_call_waiting",
]

_UNFINISHED = frozenset({"in_progress", "incomplete"})


@dataclass(frozen=True, slots=True)
class CallFamily:
    """One kind of call and its answer.

    `call_type` / `output_type`: item types (namespaced `openai:` types for OpenAI's own; `output_type` is
    None for hosted calls that carry their own result). `call_key` is the call's field holding the pairing
    key and `output_keys` the output's fields naming it, tried in order (byte for byte). `output_required`:
    the client must answer the call before the conversation moves on. `hosted_when` (field, value): a call
    whose field has that value runs at the provider and needs no output (a server-run `tool_search_call`).
    `unfinished`: statuses that mean the call must not be replayed or answered (an absent or null status
    counts as finished, as for input-form items). `payload`: the fields that say what the call does; a
    changed payload blocks a replay in `compare_items` (`arguments` compared as parsed JSON, others as
    JSON values). `acknowledge` (call field, output field): ids listed by the call that its output must
    list back (computer_call safety checks). `program_callable`: the call may be issued by a `program`
    item (programmatic tool calling; see `program_call_waiting`). `has_status`: the call item carries a
    lifecycle `status` (OpenAI's `program` and `mcp_approval_request` have none: they are whole when they
    arrive); the stream assembler hands out a call the client must answer only when its status is
    `completed` (or, without a status, not an unfinished one), and never one a finding concerns.
    """

    call_type: str
    output_type: str | None
    call_key: str = "call_id"
    output_keys: tuple[str, ...] = ("call_id",)
    output_required: bool = True
    hosted_when: tuple[str, str] | None = None
    unfinished: frozenset[str] = _UNFINISHED
    payload: tuple[str, ...] = ()
    acknowledge: tuple[str, str] | None = None
    program_callable: bool = False
    has_status: bool = True

    @property
    def name(self) -> str:
        """The call type without its slug (`custom_tool_call`)."""
        return self.call_type.rsplit(":", 1)[-1]

    def needs_output(self, item: Any) -> bool:
        """Does this call (a parsed item or a JSON object) need an output from the client?"""
        if not self.output_required or self.output_type is None:
            return False
        if self.hosted_when is not None:
            key, value = self.hosted_when
            return bool(_get(item, key) != value)
        return True


def _get(item: Any, name: str) -> Any:
    if isinstance(item, Mapping):
        return item.get(name)
    value = getattr(item, name, None)
    if value is None:
        value = (getattr(item, "__pydantic_extra__", None) or {}).get(name)
    return None if value is MISSING else value


_HOSTED = frozenset({"in_progress", "incomplete", "searching", "interpreting", "generating", "calling"})

FAMILIES: tuple[CallFamily, ...] = (
    CallFamily("function_call", "function_call_output", payload=("name", "arguments"), program_callable=True),
    CallFamily(
        "openai:custom_tool_call", "openai:custom_tool_call_output", payload=("name", "input"), program_callable=True
    ),
    CallFamily(
        "openai:computer_call",
        "openai:computer_call_output",
        payload=("action", "actions"),
        acknowledge=("pending_safety_checks", "acknowledged_safety_checks"),
    ),
    # Paired by call_id alone, as the API reads it (an output naming its call only in `id` answers
    # nothing: case R45, openai/openai-agents-python#1855; OpenAPI LocalShellToolCallOutput requires call_id).
    CallFamily("openai:local_shell_call", "openai:local_shell_call_output", payload=("action",)),
    CallFamily("openai:shell_call", "openai:shell_call_output", payload=("action",), program_callable=True),
    CallFamily(
        "openai:apply_patch_call",
        "openai:apply_patch_call_output",
        unfinished=frozenset({"in_progress"}),
        payload=("operation",),
        program_callable=True,
    ),
    CallFamily(
        "openai:tool_search_call",
        "openai:tool_search_output",
        hosted_when=("execution", "server"),
        payload=("arguments",),
    ),
    CallFamily("openai:program", "openai:program_output", payload=("code", "fingerprint"), has_status=False),
    CallFamily(
        "openai:mcp_approval_request",
        "openai:mcp_approval_response",
        call_key="id",
        output_keys=("approval_request_id",),
        payload=("server_label", "name", "arguments"),
        has_status=False,
    ),
    CallFamily("openai:web_search_call", None, output_required=False, unfinished=_HOSTED),
    CallFamily("openai:file_search_call", None, output_required=False, unfinished=_HOSTED),
    CallFamily(
        "openai:mcp_call",
        None,
        output_required=False,
        unfinished=_HOSTED,
        payload=("server_label", "name", "arguments"),
    ),
    CallFamily(
        "openai:code_interpreter_call", None, output_required=False, unfinished=_HOSTED, payload=("code",)
    ),
    CallFamily("openai:image_generation_call", None, output_required=False, unfinished=_HOSTED),
)
"""Every call family, in the order docs/openai.md lists them."""

by_call_type: MappingProxyType[str, CallFamily] = MappingProxyType({f.call_type: f for f in FAMILIES})
"""Call type -> its family."""
by_output_type: MappingProxyType[str, CallFamily] = MappingProxyType(
    {f.output_type: f for f in FAMILIES if f.output_type is not None}
)
"""Output type -> the family it answers."""


def program_call_waiting(family: CallFamily, status: Any, caller: Any, programs: Any) -> bool:
    """Is this an `in_progress` call that a running program issued and now waits on?

    In OpenAI's programmatic tool calling a `program` item runs code that calls tools; each such call is a
    call item whose `caller` is `{"type": "program", "caller_id": <the program's call_id>}`, reported
    `in_progress` in a `completed` response because the program is suspended until the client sends the
    call's output (the call's arguments are complete). Such a call is answered like a completed one.
    `programs` is a container of the program call_ids seen so far (None: do not require the program to be
    in view, as `gate` sees one item only).
    """
    if status != "in_progress" or not family.program_callable:
        return False
    kind = _get(caller, "type") if caller is not None else None
    caller_id = _get(caller, "caller_id") if caller is not None else None
    if kind != "program" or not isinstance(caller_id, str) or not caller_id:
        return False  # an empty caller_id names no program: nothing is waiting
    return programs is None or caller_id in programs


def markdown_table() -> str:
    """The table of call families in docs/openai.md, generated from `FAMILIES` (`scripts/docs_tables.py`
    writes it; a test keeps the page equal to it)."""
    rows = [
        "| Call | Answered by | Paired by | Output required | Not finished (never replayed or answered) |",
        "|---|---|---|---|---|",
    ]
    for f in FAMILIES:
        out = f"`{f.output_type}`" if f.output_type else "nothing (carries its own result)"
        pair = f"call `{f.call_key}` = output " + " or ".join(f"`{k}`" for k in f.output_keys) if f.output_type else "-"
        if not f.output_required or f.output_type is None:
            need = "no"
        elif f.hosted_when is not None:
            need = f"yes, unless `{f.hosted_when[0]}` is `{f.hosted_when[1]}`"
        else:
            need = "yes"
        if f.acknowledge is not None:
            need += f"; `{f.acknowledge[1]}` lists every `{f.acknowledge[0]}` id"
        rows.append(f"| `{f.call_type}` | {out} | {pair} | {need} | {', '.join(sorted(f.unfinished))} |")
    return "\n".join(rows)
