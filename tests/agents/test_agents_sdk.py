"""Differential test of replayable.agents against the `openai` SDK (`openai.types.beta`).

Every event, item, required-action and input type the SDK has is enumerated from its unions (nothing
listed by hand). From each SDK model we build valid instances (required fields only, every field, and
one instance per arm of every nested union), then mutate each of them at every path (drop a key, give a
value of the wrong JSON type, give a `type` no one knows). For every instance:

- our parser and the SDK give the same accept/refuse verdict, except for the documented differences
  listed in `_explained` (unknown types are kept as Unknown* values; the session inside a session
  event may be trimmed; the tool-result rule is ours);
- what both accept round-trips exactly through `agents.dump`;
- the exported JSON Schema bundle (`replayable.json_schema("agents-...")`) gives our parser's verdict.
"""

from __future__ import annotations

import copy
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import pytest
import typing_extensions

import replayable as rp
from replayable import agents as A
from replayable._agents_base import (
    KNOWN_ACTION_TYPES,
    KNOWN_EVENT_TYPES,
    KNOWN_ITEM_TYPES,
    SESSION_STATUS_EVENT_TYPES,
)
from replayable.agents import _events as agent_events

beta = pytest.importorskip("openai.types.beta", reason="the openai SDK (a dev dependency) is needed")
pydantic = pytest.importorskip("pydantic")
jsonschema_rs = pytest.importorskip("jsonschema_rs")

from openai.types.beta.agent_output_item import AgentOutputItem  # noqa: E402
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

UNKNOWN = "zz_unknown_type"


# ------------------------------------------------------------------ enumerate the SDK's unions


def arms(union: Any) -> list[Any]:
    """The members of an SDK union (`Annotated[Union[...], PropertyInfo]` or a bare `Union`)."""
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return list(typing.get_args(union))


def type_literal(cls: Any) -> str:
    ann = dict((name, a) for name, a, _ in _fields(cls))["type"]
    return typing.get_args(ann)[0]


SURFACES: dict[str, tuple[Any, list[Any]]] = {
    "events": (AgentSessionEvent, arms(AgentSessionEvent)),
    "items": (AgentSessionItem, arms(AgentSessionItem)),
    "output_items": (AgentOutputItem, arms(AgentOutputItem)),
    "inputs": (AgentSessionInputParam, arms(AgentSessionInputParam)),
    "actions": (SdkRequiredAction, arms(SdkRequiredAction)),
}


# ------------------------------------------------------------------ instances from the SDK's models


def _fields(tp: Any) -> list[tuple[str, Any, bool]]:
    """(wire name, annotation, required) of a pydantic model or a TypedDict."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [(f.alias or name, f.annotation, f.is_required()) for name, f in tp.model_fields.items()]
    hints = typing.get_type_hints(tp, include_extras=True)
    out = []
    for name, ann in hints.items():
        # with `from __future__ import annotations` the SDK's `Required[...]` only shows in the hints
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


def _is_record(tp: Any) -> bool:
    return (isinstance(tp, type) and issubclass(tp, BaseModel)) or typing_extensions.is_typeddict(tp)


Focus = tuple[Any, ...]


def variants(tp: Any, depth: int = 0) -> list[tuple[Any, Focus]]:
    """Valid JSON values of `tp`, each with its focus (the path below which it differs from the
    others; mutations are made there). The first value is the smallest; together they use every union
    arm and every optional field at least once."""
    if depth > 14:
        raise RecursionError(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return variants(args[0], depth + 1)
    if origin is typing.Union:
        out = []
        for a in args:
            out += variants(a, depth + 1)
        return out
    if origin is typing.Literal:
        return [(a, ()) for a in args]
    leaf = {type(None): None, str: "s", bool: True, int: 1, float: 1.5}
    if tp in leaf:
        return [(leaf[tp], ())]
    if tp is object or tp is Any:
        return [({"k": "v"}, ())]
    if origin in (list, Iterable, Sequence):
        return [([v], (0, *f)) for v, f in variants(args[0], depth + 1)]
    if origin is dict:
        return [({"k": v}, ("k", *f)) for v, f in variants(args[1], depth + 1)[:1]]
    if _is_record(tp):
        fields = _fields(tp)
        per = {name: variants(ann, depth + 1) for name, ann, _ in fields}
        smallest = {name: per[name][0][0] for name, _, req in fields if req}
        full = {name: per[name][0][0] for name, _, _ in fields if per[name][0][0] is not None or name in smallest}
        out: list[tuple[Any, Focus]] = [(smallest, ()), (full, ())]
        for name, _, _ in fields:
            for v, f in per[name][1:]:
                out.append(({**full, name: v}, (name, *f)))
        return out
    raise TypeError(f"no generator for {tp!r}")


def mutations(value: Any, focus: Focus = ()) -> Iterator[tuple[tuple[Any, ...], str, Any]]:
    """(path, kind, mutated copy) for every path of `value` at or below `focus`: `drop` a key,
    `wrong_type`, `unknown_type`."""

    def paths(v: Any, at: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
        if isinstance(v, dict):
            for k, x in v.items():
                yield (*at, k), x
                yield from paths(x, (*at, k))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                yield (*at, i), x
                yield from paths(x, (*at, i))

    def put(path: tuple[Any, ...], new: Any, drop: bool = False) -> Any:
        out = copy.deepcopy(value)
        node = out
        for seg in path[:-1]:
            node = node[seg]
        if drop:
            del node[path[-1]]
        else:
            node[path[-1]] = new
        return out

    for path, v in paths(value, ()):
        if path[: len(focus)] != focus:
            continue
        if isinstance(path[-1], str):
            yield path, "drop", put(path, None, drop=True)
        if path[-1] == "type" and isinstance(v, str):
            yield path, "unknown_type", put(path, UNKNOWN)
        wrong = "x" if not isinstance(v, str) else 12345
        yield path, "wrong_type", put(path, wrong)


def _consume(v: Any) -> None:
    """Force pydantic's lazy `Iterable` validation (the SDK's TypedDict params use Iterable[...])."""
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


def ours(parse: Callable[[Any], Any], value: Any) -> tuple[bool, Any]:
    try:
        return True, parse(value)
    except ValueError:
        return False, None


OUR_PARSERS: dict[str, Callable[[Any], Any]] = {
    "events": A.parse_event,
    "items": A.session_item_adapter.validate_python,
    "output_items": A.session_item_adapter.validate_python,
    "inputs": A.parse_input,
    "actions": A.required_action_adapter.validate_python,
}
BUNDLES = {
    "events": "agents-events",
    "items": "agents-items",
    "output_items": "agents-items",
    "inputs": "agents-input",
    "actions": "agents-required-actions",
}
SESSION_EVENTS = SESSION_STATUS_EVENT_TYPES


def _explained(surface: str, value: Any, path: tuple[Any, ...], kind: str, we: bool) -> str | None:
    """Why our verdict may differ from the SDK's for this mutation (None: it may not)."""
    if we and kind == "unknown_type":
        return "a type no one knows is kept verbatim as an Unknown* value (never acted on)"
    trimmed = len(path) == 2 or (len(path) == 3 and path[1] == "agent")
    trimmed = trimmed or (len(path) == 5 and path[1:3] == ("agent", "tools") and path[4] != "type")  # a tool's field
    if we and kind == "drop" and trimmed and path[0] == "session" and value.get("type") in SESSION_EVENTS:
        return "the session inside a session event may be trimmed (parse_session_snapshot)"
    if not we and kind == "wrong_type" and path[-1:] == ("arguments",) and not isinstance(_at(value, path), dict):
        return "function_call arguments are a JSON object (the SDK types them `object`, any value)"
    if we and kind == "drop" and path[-1:] == ("id",) and _at(value, path[:-1]).get("type") == "message":
        return "one item union for history and item.done: a message's id may be absent (old user messages)"
    if not we and value.get("type") == "agent.session.input.tool_result":
        ok_true = value.get("success") is True and isinstance(value.get("output"), str | list)
        error = value.get("error")
        ok_false = value.get("success") is False and isinstance(error, str) and error.strip() != ""
        if not (ok_true or ok_false):
            return "the tool-result rule: success true needs output, success false a non-empty error"
    return None


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for seg in path:
        value = value[seg]
    return value


def _cases(surface: str) -> list[tuple[Any, tuple[Any, ...], str]]:
    _, members = SURFACES[surface]
    out: list[tuple[Any, tuple[Any, ...], str]] = []
    for cls in members:
        base = variants(cls)
        out += [(v, (), "valid") for v, _ in base]
        for v, focus in base:
            out += [(m, path, kind) for path, kind, m in mutations(v, focus)]
    return out


# ------------------------------------------------------------------ the tests


def test_every_sdk_type_is_known_here():
    """No SDK event, item, input or required-action type is missing from our unions."""
    assert {type_literal(c) for c in SURFACES["events"][1]} <= KNOWN_EVENT_TYPES
    assert {type_literal(c) for c in SURFACES["items"][1] + SURFACES["output_items"][1]} <= KNOWN_ITEM_TYPES
    assert {type_literal(c) for c in SURFACES["actions"][1]} <= KNOWN_ACTION_TYPES
    ours_inputs = set(agent_events._INPUT_TYPES)
    assert {type_literal(c) for c in SURFACES["inputs"][1]} == ours_inputs
    assert len(SURFACES["events"][1]) >= 33 and len(SURFACES["inputs"][1]) == 5


@pytest.mark.slow
@pytest.mark.parametrize("surface", list(SURFACES))
def test_same_verdicts_and_exact_round_trip(surface):
    union, _ = SURFACES[surface]
    sdk = TypeAdapter(union)
    parse = OUR_PARSERS[surface]
    validator = jsonschema_rs.validator_for(rp.json_schema(BUNDLES[surface]))
    unexplained, bundle_disagrees, round_trip = [], [], []
    seen_valid: set[str] = set()
    explained: dict[str, int] = {}
    cases = _cases(surface)
    for value, path, kind in cases:
        theirs = sdk_accepts(sdk, value)
        we, model = ours(parse, value)
        if kind == "valid" and not theirs:
            raise AssertionError(f"the generator made an instance the SDK refuses: {value}")
        if we != theirs:
            why = _explained(surface, value, path, kind, we)
            if why is None:
                unexplained.append((kind, path, value))
            else:
                explained[why] = explained.get(why, 0) + 1
        if we and A.dump(model) != value:
            round_trip.append(value)
        if we and theirs and kind == "valid":
            seen_valid.add(value["type"])
        if validator.is_valid(value) != we:
            bundle_disagrees.append((kind, path, value))
    assert not unexplained, f"{len(unexplained)} of {len(cases)} verdicts differ from the SDK: {unexplained[:3]}"
    assert not round_trip, f"not an exact round trip: {round_trip[:3]}"
    assert not bundle_disagrees, f"the bundle disagrees with the parser: {bundle_disagrees[:3]}"
    # every SDK type has at least one instance both accept (and that round-trips)
    assert seen_valid == {type_literal(c) for c in SURFACES[surface][1]}
    assert len(cases) > 20
    # the documented differences are really met (the test would hide nothing if they were not)
    expected = {
        "events": {"a type no one knows", "the session inside a session event"},
        "items": {"a type no one knows", "function_call arguments"},
        "inputs": {"the tool-result rule"},
        "actions": {"a type no one knows", "function_call arguments"},
    }.get(surface, set())
    assert all(any(why.startswith(e) for why in explained) for e in expected), explained


def test_malformed_known_types_are_invalid_against_the_bundles():
    """The fallback branch of each bundle excludes the known types: a function_call item whose
    arguments is a string is invalid, as the parser says."""
    items = jsonschema_rs.validator_for(rp.json_schema("agents-items"))
    bad = {"type": "function_call", "id": "i", "turn_id": "t", "call_id": "c", "name": "f", "arguments": "{}"}
    bad["status"] = "completed"
    assert not items.is_valid(bad)
    with pytest.raises(ValueError):
        A.session_item_adapter.validate_python(bad)
    assert items.is_valid({"type": "zz_new_item", "id": "i"})
    events = jsonschema_rs.validator_for(rp.json_schema("agents-events"))
    assert not events.is_valid({"type": "agent.session.turn.output_text.delta", "event_id": "e"})
    assert events.is_valid({"type": "agent.session.zz_new", "event_id": "e"})
    actions = jsonschema_rs.validator_for(rp.json_schema("agents-required-actions"))
    assert not actions.is_valid({"type": "mcp_approval_request", "request_id": "r"})


BODIES: dict[str, tuple[Any, Callable[[Any], Any]]] = {
    "create": (SessionCreateParamsNonStreaming, A.session_create_params_adapter.validate_python),
    "create_streaming": (SessionCreateParamsStreaming, A.session_create_params_adapter.validate_python),
    "update": (SessionUpdateParams, A.session_update_params_adapter.validate_python),
    "events": (EventCreateParams, A.parse_events_body),
}


def _body_explained(value: Any, path: tuple[Any, ...], we: bool) -> str | None:
    if we and path == ("stream",):
        return "one create model for both forms: without `stream` a body is a non-streaming one"
    if not we and "agent_id" not in value and not (isinstance(value.get("agent"), dict) and "model" in value["agent"]):
        return "without agent_id, agent.model is required (the SDK says so in prose only)"
    if not we and path[-2:] == ("compaction", "async"):
        return "the SDK's TypedDict checks `async_`, not the wire name `async`"
    if not we and isinstance(value.get("events"), list):
        for ev in value["events"]:
            if isinstance(ev, dict) and _explained("inputs", ev, (), "", False):
                return "the tool-result rule"
    return None


@pytest.mark.parametrize("body", list(BODIES))
def test_request_bodies_agree_with_the_sdk(body):
    """Create (streaming or not), update and events bodies: same verdicts as the SDK's TypedDicts,
    exact round trip."""
    cls, parse = BODIES[body]
    sdk = TypeAdapter(cls)
    unexplained, round_trip, n = [], [], 0
    for v, focus in variants(cls):
        for value, path, kind in [(v, (), "valid"), *((m, p, k) for p, k, m in mutations(v, focus))]:
            n += 1
            theirs = sdk_accepts(sdk, value)
            we, model = ours(parse, value)
            if we != theirs and _body_explained(value, path, we) is None:
                unexplained.append((kind, path, value))
            if we and A.dump(model) != value:
                round_trip.append(value)
    assert not unexplained, f"{len(unexplained)} of {n} verdicts differ from the SDK: {unexplained[:3]}"
    assert not round_trip, round_trip[:3]
    assert n > 50
