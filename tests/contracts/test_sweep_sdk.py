"""The SDK sweep: every member of the installed `openai` SDK's unions, read through
the public API in OpenAI mode.

Surfaces (each the SDK's own union, enumerated, never listed by hand): Responses input items
(`ResponseInputItemParam`), output items (`ResponseOutputItem`), stored items (`ResponseItem`), stream
events (`ResponseStreamEvent`), `Response`, the WebSocket mode's client and server events
(`ResponsesClientEvent`, `ResponsesServerEvent`); the Agents API's session events, session items, output
items, inputs and required actions, the session, and the create, update and events bodies.

For each member, instances are built from the SDK's own models and TypedDicts (`build`: deterministic, a
few per member: the required fields only, every field, and union arms rotated), kept when the SDK itself
accepts them, and:

- **valid**: read through the reader of that shape with `provider="openai"` (the Agents readers have no
  provider), accepted, typed (never a fallback: no bare `NamespacedItem`, `ExtensionEvent` or `Unknown*`
  for a known type) and dumped back equal. A valid instance we refuse must be one of `DELIBERATE`, the
  differences README.md, docs/ and schemas/README.md document (`test_every_deliberate_difference_is_documented`);
- **invalid**: each required field of the instance (down to every nested object) given a value of the
  wrong JSON type, kept when the SDK refuses it, is refused with the library's error (`ItemError`,
  `StreamError`) whose location names that field by its plain path (`content.0.text`, never pydantic's
  union tags `message.user.content`).

The tests run against the SDK the test extra pins exactly (`openai==` in pyproject.toml). A member whose
`type` is not in `KNOWN` fails: it means the pin moved without the library learning the member. What a newer
SDK adds is reported by `scripts/drift.py`, never by a broken suite. The whole file runs in seconds (no
randomness, bounded instances).
"""

from __future__ import annotations

import collections.abc as cabc
import copy
import json
import re
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typing_extensions

import replayable as rp
from replayable import agents as A
from replayable import stream as S
from replayable import websocket as W

openai = pytest.importorskip("openai", reason="the openai SDK is a dev dependency")
R = pytest.importorskip("openai.types.responses", reason="the openai SDK is a dev dependency")

from openai.types.beta.agent_output_item import AgentOutputItem  # noqa: E402
from openai.types.beta.agent_session import AgentSession  # noqa: E402
from openai.types.beta.agent_session import RequiredAction as SdkRequiredAction  # noqa: E402
from openai.types.beta.agent_session_event import AgentSessionEvent  # noqa: E402
from openai.types.beta.agent_session_input_param import AgentSessionInputParam  # noqa: E402
from openai.types.beta.agent_session_item import AgentSessionItem  # noqa: E402
from openai.types.beta.agents.session_create_params import (  # noqa: E402
    SessionCreateParamsNonStreaming,
    SessionCreateParamsStreaming,
)
from openai.types.beta.agents.session_update_params import SessionUpdateParams  # noqa: E402
from openai.types.beta.agents.sessions.event_create_params import EventCreateParams  # noqa: E402
from pydantic import BaseModel, TypeAdapter, ValidationError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parents[1]
#: Instances per member: required fields only and every field, each with union arms rotated this many ways.
ROTATIONS = 3
#: Required fields mutated per instance (spread over the instance, deterministic).
MUTATIONS = 6

# ------------------------------------------------------------------ the SDK's unions and their members


def arms(union: Any) -> list[Any]:
    """The members of an SDK union (`Annotated[Union[...], PropertyInfo]`, nested unions flattened)."""
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    if typing.get_origin(union) not in (typing.Union, types.UnionType):
        return [union]
    out: list[Any] = []
    for a in typing.get_args(union):
        out += arms(a) if typing.get_origin(a) in (typing.Union, types.UnionType, typing.Annotated) else [a]
    return out


def fields(tp: Any) -> list[tuple[str, Any, bool]]:
    """(wire name, annotation, required) of an SDK pydantic model or TypedDict."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [(f.alias or name, f.annotation, f.is_required()) for name, f in tp.model_fields.items()]
    out = []
    for name, ann in typing.get_type_hints(tp, include_extras=True).items():
        wire, required = name, tp.__total__
        while typing.get_origin(ann) in (typing.Annotated, typing.Required, typing.NotRequired):
            if typing.get_origin(ann) is typing.Annotated:
                for meta in typing.get_args(ann)[1:]:
                    wire = getattr(meta, "alias", None) or wire
            else:
                required = typing.get_origin(ann) is typing.Required
            ann = typing.get_args(ann)[0]
        out.append((wire, ann, required))
    return out


def _record(tp: Any) -> bool:
    return (isinstance(tp, type) and issubclass(tp, BaseModel)) or typing_extensions.is_typeddict(tp)


def type_tag(cls: Any) -> str:
    """The literal `type` a member pins."""
    ann = dict((n, a) for n, a, _ in fields(cls))["type"]
    while typing.get_origin(ann) is typing.Union:
        ann = next(a for a in typing.get_args(ann) if a is not type(None))
    return str(typing.get_args(ann)[0])


_LEAF = {type(None): None, str: "s", bool: True, int: 1, float: 1.5}


def build(tp: Any, full: bool, turn: int, depth: int = 0) -> Any:
    """A JSON value of the SDK type `tp`: every optional field when `full`, else the required ones; at
    every union (and literal) the arm `turn` (modulo), so that turns 0, 1, 2 use different arms."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if depth > 40:
        raise RecursionError(tp)
    if origin is typing.Annotated:
        return build(args[0], full, turn, depth + 1)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)] or [type(None)]
        return build(options[turn % len(options)], full, turn, depth + 1)
    if origin is typing.Literal:
        return args[turn % len(args)]
    if tp in _LEAF:
        return _LEAF[tp]
    if tp is object or tp is Any:
        return {"k": "v"}
    if origin in (list, cabc.Iterable, cabc.Sequence):
        return [build(args[0], full, turn, depth + 1)]
    if origin is dict:
        return {"k": build(args[1], full, turn, depth + 1)}
    if _record(tp):
        out = {}
        for name, ann, required in fields(tp):
            if required or full:
                value = build(ann, full, turn, depth + 1)
                if value is not None or required:
                    out[name] = value
        return out
    raise TypeError(f"no builder for {tp!r}")


def _consume(v: Any) -> None:
    """Force pydantic's lazy `Iterable` validation (the SDK's TypedDicts use `Iterable[...]`)."""
    if isinstance(v, dict):
        for x in v.values():
            _consume(x)
    elif isinstance(v, list | tuple):
        for x in v:
            _consume(x)
    elif hasattr(v, "__next__"):
        _consume(list(v))


def sdk_accepts(adapter: TypeAdapter[Any], value: Any) -> bool:
    try:
        _consume(adapter.validate_python(value))
    except ValidationError:
        return False
    return True


def instances(cls: Any) -> list[Any]:
    """The distinct valid instances of one member (those the SDK accepts)."""
    adapter = TypeAdapter(cls)
    out: list[Any] = []
    for full in (False, True):
        for turn in range(ROTATIONS):
            value = build(cls, full, turn)
            if value not in out and sdk_accepts(adapter, value):
                out.append(value)
    return out


# ------------------------------------------------------------------ readers


def _dump_model(x: Any) -> Any:
    return x.model_dump(mode="json", by_alias=True, exclude_unset=True)


def _not_namespaced(x: Any) -> bool:
    return type(x) is not rp.NamespacedItem


def _not_extension(x: Any) -> bool:
    return type(x) is not S.ExtensionEvent


def _not_unknown(x: Any) -> bool:
    return not getattr(x, "unknown", False)


OUTPUT_FORMS = {cls.__name__ for cls in arms(R.ResponseOutputItem)}


def _read_stored_item(value: Any, cls: Any) -> Any:
    """`ResponseItem` (OpenAI's listing of stored items) holds output items and the input forms that were
    stored (`ResponseInputMessageItem`, `ResponseFunctionToolCallItem`, ...): each is read on its side (an
    output item's class is named as in `ResponseOutputItem`)."""
    return rp.parse_item(value, side="output" if cls.__name__ in OUTPUT_FORMS else "input", provider="openai")


def _read_server_event(value: Any) -> Any:
    """A message of OpenAI's socket: the socket-only ones (`error`, steering acknowledgements) by
    `parse_websocket_event`, the streaming events (with the lane's `stream_id`) by `stream.parse_event`."""
    if value.get("type") in W.OPENAI_WEBSOCKET_TYPES:
        return W.parse_websocket_event(value, provider="openai")
    return S.parse_event(value, provider="openai")


@dataclass(frozen=True)
class Surface:
    union: Any
    read: Callable[[Any, Any], Any]  # (value, member class) -> model
    dump: Callable[[Any], Any]
    typed: Callable[[Any], bool]


SURFACES: dict[str, Surface] = {
    "input": Surface(R.ResponseInputItemParam, lambda v, c: rp.parse_item(v, side="input", provider="openai"),
                     rp.dump_item, _not_namespaced),
    "output": Surface(R.ResponseOutputItem, lambda v, c: rp.parse_item(v, side="output", provider="openai"),
                      rp.dump_item, _not_namespaced),
    "stored-item": Surface(R.ResponseItem, _read_stored_item, rp.dump_item, _not_namespaced),
    "stream-event": Surface(R.ResponseStreamEvent, lambda v, c: S.parse_event(v, provider="openai"), _dump_model,
                            _not_extension),
    "response": Surface(R.Response, lambda v, c: rp.parse_response(v, provider="openai"), rp.dump_response,
                        lambda x: all(_not_namespaced(i) for i in x.output)),
    "websocket-client": Surface(R.ResponsesClientEvent, lambda v, c: W.parse_websocket_event(v, provider="openai"),
                                _dump_model, lambda x: True),
    "websocket-server": Surface(R.ResponsesServerEvent, lambda v, c: _read_server_event(v), _dump_model,
                                _not_extension),
    "agents-event": Surface(AgentSessionEvent, lambda v, c: A.parse_event(v), A.dump, _not_unknown),
    "agents-item": Surface(AgentSessionItem, lambda v, c: A.parse_session_item(v), A.dump, _not_unknown),
    "agents-output-item": Surface(AgentOutputItem, lambda v, c: A.parse_session_item(v), A.dump, _not_unknown),
    "agents-input": Surface(AgentSessionInputParam, lambda v, c: A.parse_input(v), A.dump, _not_unknown),
    "agents-required-action": Surface(SdkRequiredAction, lambda v, c: A.parse_required_action(v), A.dump,
                                      _not_unknown),
    "agents-session": Surface(AgentSession, lambda v, c: A.parse_session(v), A.dump, lambda x: True),
    "agents-create": Surface(typing.Union[SessionCreateParamsNonStreaming, SessionCreateParamsStreaming],  # noqa: UP007
                             lambda v, c: A.parse_create_params(v), A.dump, lambda x: True),
    "agents-update": Surface(SessionUpdateParams, lambda v, c: A.parse_update_params(v), A.dump, lambda x: True),
    "agents-events-body": Surface(EventCreateParams, lambda v, c: A.parse_events_body(v), A.dump, lambda x: True),
}  # fmt: skip

#: The `type` of every member known to this sweep (the pinned openai); a member with another `type` fails
#: (`_known`). Surfaces whose members have no `type` are keyed by class.
KNOWN: dict[str, frozenset[str]] = {
    name: frozenset(words.split())
    for name, words in {
        "input": "additional_tools apply_patch_call apply_patch_call_output code_interpreter_call compaction "
        "compaction_trigger computer_call computer_call_output configuration_update custom_tool_call "
        "custom_tool_call_output file_search_call function_call function_call_output image_generation_call "
        "item_reference local_shell_call local_shell_call_output mcp_approval_request mcp_approval_response mcp_call "
        "mcp_list_tools message program program_output reasoning shell_call shell_call_output tool_search_call "
        "tool_search_output web_search_call",
        "output": "additional_tools apply_patch_call apply_patch_call_output code_interpreter_call compaction "
        "computer_call computer_call_output custom_tool_call custom_tool_call_output file_search_call function_call "
        "function_call_output image_generation_call local_shell_call local_shell_call_output mcp_approval_request "
        "mcp_approval_response mcp_call mcp_list_tools message program program_output reasoning shell_call "
        "shell_call_output tool_search_call tool_search_output web_search_call",
        "stored-item": "additional_tools apply_patch_call apply_patch_call_output code_interpreter_call compaction "
        "computer_call computer_call_output configuration_update custom_tool_call custom_tool_call_output "
        "file_search_call function_call function_call_output image_generation_call local_shell_call "
        "local_shell_call_output mcp_approval_request mcp_approval_response mcp_call mcp_list_tools message program "
        "program_output reasoning shell_call shell_call_output tool_search_call tool_search_output web_search_call",
        "stream-event": "error response.audio.delta response.audio.done response.audio.transcript.delta "
        "response.audio.transcript.done response.code_interpreter_call.completed "
        "response.code_interpreter_call.in_progress response.code_interpreter_call.interpreting "
        "response.code_interpreter_call_code.delta response.code_interpreter_call_code.done "
        "response.compaction.compacting response.completed response.content_part.added response.content_part.done "
        "response.created response.custom_tool_call_input.delta response.custom_tool_call_input.done "
        "response.failed response.file_search_call.completed response.file_search_call.in_progress "
        "response.file_search_call.searching response.function_call_arguments.delta "
        "response.function_call_arguments.done response.image_generation_call.completed "
        "response.image_generation_call.generating response.image_generation_call.in_progress "
        "response.image_generation_call.partial_image response.in_progress response.incomplete "
        "response.mcp_call.completed response.mcp_call.failed response.mcp_call.in_progress "
        "response.mcp_call_arguments.delta response.mcp_call_arguments.done response.mcp_list_tools.completed "
        "response.mcp_list_tools.failed response.mcp_list_tools.in_progress response.output_item.added "
        "response.output_item.done response.output_text.annotation.added response.output_text.delta "
        "response.output_text.done response.queued response.reasoning_summary_part.added "
        "response.reasoning_summary_part.done response.reasoning_summary_text.delta "
        "response.reasoning_summary_text.done response.reasoning_text.delta response.reasoning_text.done "
        "response.refusal.delta response.refusal.done response.shell_call_command.added "
        "response.shell_call_command.delta response.shell_call_command.done "
        "response.shell_call_output_content.delta response.shell_call_output_content.done "
        "response.web_search_call.completed response.web_search_call.in_progress response.web_search_call.searching",
        "response": "Response",
        "websocket-client": "response.create response.steer",
        "agents-event": "agent.output.command_execution_output.delta agent.session.created "
        "agent.session.environment.connected agent.session.environment.disconnected agent.session.environment.expired "
        "agent.session.environment.failed agent.session.environment.pending agent.session.environment.ready "
        "agent.session.environment.reset agent.session.environment.suspended agent.session.failed agent.session.budget_reached agent.session.idle "
        "agent.session.in_progress agent.session.requires_action agent.session.subagent.active "
        "agent.session.subagent.closed agent.session.subagent.created agent.session.turn.cancelled "
        "agent.session.turn.completed agent.session.turn.content_part.added agent.session.turn.content_part.done "
        "agent.session.turn.created agent.session.turn.failed agent.session.turn.in_progress "
        "agent.session.turn.item.added agent.session.turn.item.done agent.session.turn.output_text.delta "
        "agent.session.turn.output_text.done agent.session.turn.reasoning_summary_part.added "
        "agent.session.turn.reasoning_summary_part.done agent.session.turn.reasoning_summary_text.delta "
        "agent.session.turn.reasoning_summary_text.done error",
        "agents-item": "agent_message close_subagent_call command_execution computer_use_approval_request "
        "computer_use_approval_request_result computer_use_call create_subagent_call function_call "
        "function_call_output interrupt_subagent_call mcp_call message reasoning resume_subagent_call "
        "send_subagent_input_call wait_for_subagents_call web_search_call",
        "agents-output-item": "close_subagent_call command_execution computer_use_approval_request computer_use_call "
        "create_subagent_call function_call interrupt_subagent_call mcp_call message reasoning resume_subagent_call "
        "send_subagent_input_call wait_for_subagents_call web_search_call",
        "agents-input": "agent.session.input.cancel agent.session.input.computer_use_approval_request_result "
        "agent.session.input.mcp_approval_request_result agent.session.input.message agent.session.input.tool_result",
        "agents-required-action": "computer_use_approval_request environment_connection function_call "
        "mcp_approval_request",
        "agents-session": "AgentSession",
        "agents-create": "SessionCreateParamsNonStreaming SessionCreateParamsStreaming",
        "agents-update": "SessionUpdateParams",
        "agents-events-body": "EventCreateParams",
    }.items()
}
# the server's WebSocket events are the stream events (with `stream_id`), OpenAI's error and the steer events
KNOWN["websocket-server"] = KNOWN["stream-event"] | {"response.steer.accepted", "response.steer.failed",
                                                     "response.steer.pending"}  # fmt: skip


def member_key(cls: Any) -> str:
    """What identifies a member in `KNOWN`: its `type`, or its class name for a member without one."""
    names = {n for n, _, _ in fields(cls)}
    return type_tag(cls) if "type" in names else cls.__name__


MEMBERS: list[tuple[str, Any]] = [(s, cls) for s, surface in SURFACES.items() for cls in arms(surface.union)]
IDS = [f"{s}:{member_key(c)}:{c.__name__}" for s, c in MEMBERS]


def _known(surface: str, cls: Any) -> None:
    key = member_key(cls)
    if key not in KNOWN[surface]:
        pytest.fail(
            f"{surface} member {cls.__name__} ({key!r}) of openai {openai.__version__} is not known to replayable: "
            "the test extra pins the SDK exactly; bump the pin only with the library (scripts/drift.py lists "
            "what a newer SDK changed)"
        )


# ------------------------------------------------------------------ the deliberate differences


@dataclass(frozen=True)
class Deliberate:
    """A valid SDK instance we refuse on purpose: on `surfaces`, when every error is at one of `fields`
    (the last field of its location; `None`: any) with one of `error_types`, and the docs say so
    (`documented`: a phrase of README.md, a page of docs/ or `schemas/README.md`)."""

    id: str
    surfaces: frozenset[str]
    fields: frozenset[str]
    error_types: frozenset[str]
    documented: str


EVENTS = frozenset({"stream-event", "websocket-server"})
DELIBERATE: tuple[Deliberate, ...] = (
    Deliberate("output-call-id-and-status", frozenset({"output", "response"}) | EVENTS,
               frozenset({"id", "status"}), frozenset({"missing"}),
               "Output `function_call` without `id` / `status`"),
    Deliberate("function-call-output-call-id", frozenset({"input", "output", "stored-item", "response",
                                                          "websocket-client"}) | EVENTS,
               frozenset({"call_id"}), frozenset({"missing"}),
               "`function_call_output` without `call_id`"),
    Deliberate("message-parts-by-role", frozenset({"input", "stored-item"}), frozenset({"content"}),
               frozenset({"union_tag_invalid"}), "Message content parts by role"),
    Deliberate("annotation-added-annotation", EVENTS, frozenset({"annotation"}), frozenset({"missing"}),
               "`response.output_text.annotation.added` without `annotation`"),
    Deliberate("allowed-tools-entries", frozenset({"response"}) | EVENTS, frozenset({"tool_choice"}),
               frozenset({"missing_type", "type_not_string"}), "`allowed_tools.tools` entries"),
    Deliberate("websocket-http-fields", frozenset({"websocket-client"}), frozenset({"stream", "stream_options",
               "background"}), frozenset({"websocket_disallowed"}), "`stream`, `stream_options` and `background` in"
               " OpenAI's WebSocket `response.create`"),
    Deliberate("agents-tool-result-rule", frozenset({"agents-input", "agents-events-body"}),
               frozenset({"output", "error"}), frozenset({"tool_result_output", "tool_result_error"}),
               "the tool-result rule (`success: true` needs `output`"),
    Deliberate("agents-create-model", frozenset({"agents-create"}), frozenset({"agent", "model"}),
               frozenset({"agent_required"}), "a create body without `agent_id` needs `agent.model`"),
    Deliberate("agents-update-agent-id", frozenset({"agents-update"}), frozenset({"agent_id"}),
               frozenset({"agent_id_in_update"}), "an update body with `agent_id` is refused"),
)  # fmt: skip


@dataclass(frozen=True)
class Accepted:
    """A value of the wrong type the SDK refuses and we accept on purpose: a mutation on `surfaces` whose
    path goes through one of `fields`, documented by the phrase `documented`."""

    id: str
    surfaces: frozenset[str]
    fields: frozenset[str]
    documented: str


ACCEPTED: tuple[Accepted, ...] = (
    Accepted("tools-verbatim", frozenset({"input", "output", "stored-item", "response"}) | EVENTS,
             frozenset({"tools"}), "Tool definitions (`tool_search_output.tools`, `additional_tools.tools`)"),
    Accepted("input-message-text", frozenset({"input", "stored-item"}), frozenset({"content"}),
             "an input message's `content` may be a string"),
)  # fmt: skip

#: Mutations the stream events' own checks settle: `parse_event` reads an
#: event's `part`, `logprobs` and annotation payloads as plain objects today, and the assembler checks them.


def _errors(exc: BaseException) -> list[tuple[tuple[Any, ...], str]]:
    """(location, error type) of each problem a library error reports."""
    if isinstance(exc, rp.ItemError):
        return [(tuple(e.get("loc", ())), str(e.get("type", ""))) for e in exc.errors]
    if isinstance(exc, S.StreamError):
        structured = getattr(exc, "errors", None)
        if isinstance(structured, list) and structured:
            return [(tuple(e.get("loc", ())), str(e.get("type", ""))) for e in structured]
        out = []
        for head in re.findall(r"(?s)(?:^|; )(.+?): (?=\S)", exc.message):
            out.append((tuple(int(p) if p.isdigit() else p for p in head.split(".")), str(exc.rule)))
        return out or [((), str(exc.rule))]
    raise AssertionError(f"not a library error: {type(exc).__name__}: {exc}")


def deliberate(surface: str, errors: list[tuple[tuple[Any, ...], str]]) -> str | None:
    for d in DELIBERATE:
        if surface not in d.surfaces:
            continue
        if all(
            loc
            and (not d.fields or (set(p for p in loc if isinstance(p, str)) & d.fields))
            and (not d.error_types or etype in d.error_types or etype == "event_schema")  # a stream error's rule
            for loc, etype in errors
        ):
            return d.id
    return None


def test_every_deliberate_difference_is_documented() -> None:
    pages = [ROOT / "README.md", ROOT / "schemas" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    text = " ".join(page.read_text(encoding="utf-8") for page in pages)
    text = " ".join(text.split()).lower()  # a phrase may wrap, or open a sentence
    missing = [d.id for d in (*DELIBERATE, *ACCEPTED) if " ".join(d.documented.split()).lower() not in text]
    assert not missing, f"deliberate differences the READMEs and docs/ do not document: {missing}"


# ------------------------------------------------------------------ valid instances


def read(surface: str, value: Any, cls: Any) -> Any:
    try:
        return SURFACES[surface].read(value, cls)
    except (rp.ItemError, S.StreamError) as exc:
        return exc


@pytest.mark.parametrize(("surface", "cls"), MEMBERS, ids=IDS)
def test_valid_instances_read_typed_and_round_trip(surface: str, cls: Any) -> None:
    _known(surface, cls)
    found = instances(cls)
    assert found, f"no instance of {cls.__name__} that the SDK accepts: the builder needs a case for it"
    accepted, refused = 0, []
    for value in found:
        got = read(surface, value, cls)
        if isinstance(got, BaseException):
            errors = _errors(got)
            if deliberate(surface, errors) is None:
                refused.append((value, str(got)))
            continue
        accepted += 1
        spec = SURFACES[surface]
        assert spec.typed(got), f"{cls.__name__} read as a fallback: {type(got).__name__}"
        assert spec.dump(got) == value, f"{cls.__name__}: not an exact round trip"
    assert not refused, f"valid {cls.__name__} refused: {refused[0][1]}\n{json.dumps(refused[0][0])[:2000]}"
    assert accepted, f"no valid instance of {cls.__name__} is accepted"


# ------------------------------------------------------------------ invalid instances


def _required_paths(value: Any, cls: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths of the required fields present in `value` (every nested object too), tags aside."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "type":
                yield (*here, k)
            yield from _required_paths(v, cls, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _required_paths(v, cls, (*here, i))


def _put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = copy.deepcopy(value)
    node = out
    for seg in path[:-1]:
        node = node[seg]
    node[path[-1]] = new
    return out


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for seg in path:
        value = value[seg]
    return value


def mutations(surface: str, cls: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """Up to MUTATIONS invalid variants of the smallest instance: a field given a value of the wrong JSON
    type, kept when the SDK's whole union refuses it (a value another member takes is no mutation: a
    message's `content` may be a string), spread over the instance."""
    found = instances(cls)
    if not found:
        return []
    adapter = _union_adapter(surface)
    value = found[0]
    out = []
    for path in _required_paths(value, cls):
        old = _at(value, path)
        wrong = 12345 if isinstance(old, str) else "zz_wrong" if not isinstance(old, dict) else ["zz_wrong"]
        bad = _put(value, path, wrong)
        if not sdk_accepts(adapter, bad):
            out.append((path, bad))
    if len(out) <= MUTATIONS:
        return out
    step = len(out) / MUTATIONS
    return [out[int(i * step)] for i in range(MUTATIONS)]


_UNIONS: dict[str, TypeAdapter[Any]] = {}


def _union_adapter(surface: str) -> TypeAdapter[Any]:
    if surface not in _UNIONS:
        _UNIONS[surface] = TypeAdapter(SURFACES[surface].union)
    return _UNIONS[surface]


def names_the_field(errors: list[tuple[tuple[Any, ...], str]], path: tuple[Any, ...]) -> bool:
    """An error's location is the mutated field or lies below it, or (inside an untagged union of
    objects) is a field above it."""
    for loc, _ in errors:
        if loc[: len(path)] == path:
            return True
        if path[: len(loc)] == loc and loc and isinstance(loc[-1], str) and len(path) - len(loc) <= 2:
            return True
    return False


def accepted_on_purpose(surface: str, path: tuple[Any, ...]) -> str | None:
    for a in ACCEPTED:
        if surface in a.surfaces and set(p for p in path if isinstance(p, str)) & a.fields:
            return a.id
    return None


@pytest.mark.parametrize(("surface", "cls"), MEMBERS, ids=IDS)
def test_a_wrong_type_is_refused_naming_the_field(surface: str, cls: Any) -> None:
    _known(surface, cls)
    unnamed, accepted = [], []
    for path, bad in mutations(surface, cls):
        got = read(surface, bad, cls)
        if not isinstance(got, BaseException):
            if accepted_on_purpose(surface, path) is None:
                accepted.append(path)
            continue
        errors = _errors(got)
        if not names_the_field(errors, path):
            unnamed.append((path, errors))
    assert not accepted, f"{cls.__name__}: a wrong type accepted at {accepted}"
    assert not unnamed, f"{cls.__name__}: the error does not name the field: {unnamed[:2]}"


def test_the_sweep_covers_every_union() -> None:
    counts = {s: len(arms(SURFACES[s].union)) for s in SURFACES}
    assert counts["stream-event"] >= 59 and counts["input"] >= 33 and counts["agents-event"] >= 33, counts
    # what is known today is in the installed SDK (the table is not stale in the other direction)
    for s, known in KNOWN.items():
        present = {member_key(c) for c in arms(SURFACES[s].union)}
        assert known <= present, f"{s}: {sorted(known - present)} gone from the installed SDK"
