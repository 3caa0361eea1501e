"""OpenAI's own stream events: typed, round-tripped exactly, refused where the SDK refuses, and applied
by the assembler under the same state machine as the spec's events.

Every event type of `openai.types.responses.ResponseStreamEvent` that is not one of the 24 spec events
is built by the SDK from a payload, read by `parse_event` (OpenAI mode, and prefixed `openai:` in Open
Responses mode) and dumped back unchanged.
"""

from __future__ import annotations

import typing
from typing import Any

import pytest
from openai.types.responses import ResponseStreamEvent
from pydantic import BaseModel, ValidationError

import replayable as rp
from replayable import stream as S

_MEMBERS: list[type[BaseModel]] = list(typing.get_args(typing.get_args(ResponseStreamEvent)[0]))
OPENAI_ONLY = {
    typing.get_args(m.model_fields["type"].annotation)[0]: m
    for m in _MEMBERS
    if typing.get_args(m.model_fields["type"].annotation)[0] not in S.SPEC_EVENT_TYPES
}

#: A value of the right type for each field the OpenAI-only events carry.
_VALUES: dict[str, Any] = {
    "sequence_number": 7,
    "item_id": "it_1",
    "output_index": 0,
    "content_index": 0,
    "command_index": 1,
    "partial_image_index": 0,
    "partial_image_b64": "aGk=",
    "delta": "pi",
    "code": "print(1)",
    "arguments": '{"a":1}',
    "input": "SELECT 1;",
    "text": "because",
    "command": "ls -la",
    "obfuscation": "xyz",
    "size": "1024x1024",
    "quality": "high",
    "background": "opaque",
    "output_format": "png",
    "delta_obj": {"stdout": "a", "stderr": ""},
    "output": [{"stdout": "a\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}],
}


def _payload(etype: str, *, optional: bool = False) -> dict[str, Any]:
    model = OPENAI_ONLY[etype]
    values = {**_VALUES, "delta": _VALUES["delta_obj"]} if etype.startswith("response.shell_call_output") else _VALUES
    return {"type": etype} | {
        k: values[k] for k, f in model.model_fields.items() if k != "type" and (f.is_required() or optional)
    }


def _sdk(etype: str, *, optional: bool = False) -> BaseModel:
    return OPENAI_ONLY[etype].model_validate(_payload(etype, optional=optional))


def test_every_openai_only_event_has_a_typed_model() -> None:
    assert len(OPENAI_ONLY) >= 35
    # plus OpenAI's flat `error` event, which shares its type with the spec's `error` (nested payload)
    assert {t.removeprefix("openai:") for t in S.OPENAI_EVENT_TYPES} == set(OPENAI_ONLY) | {"error"}


@pytest.mark.parametrize("optional", [False, True], ids=["required", "all"])
@pytest.mark.parametrize("etype", sorted(OPENAI_ONLY))
def test_sdk_event_parses_typed_and_round_trips(etype: str, optional: bool) -> None:
    sdk = _sdk(etype, optional=optional)
    wire = sdk.model_dump(mode="json", exclude_unset=True)
    for data in (sdk, wire):  # the SDK object implies OpenAI mode
        parsed = S.parse_event(data, provider="openai")
        assert type(parsed) is S.OPENAI_EVENT_TYPES["openai:" + etype]
        assert isinstance(parsed, S.ExtensionEvent) and parsed.slug == "openai"
        assert parsed.model_dump(mode="json", exclude_unset=True) == wire
    prefixed = {**wire, "type": "openai:" + etype}  # Open Responses mode: the namespaced name
    parsed = S.parse_event(prefixed)
    assert type(parsed) is S.OPENAI_EVENT_TYPES["openai:" + etype]
    assert parsed.model_dump(mode="json", exclude_unset=True) == prefixed


@pytest.mark.parametrize("etype", sorted(OPENAI_ONLY))
def test_what_the_sdk_refuses_we_refuse(etype: str) -> None:
    model = OPENAI_ONLY[etype]
    full = _payload(etype)
    for field in [k for k, f in model.model_fields.items() if f.is_required() and k != "type"]:
        broken = {k: v for k, v in full.items() if k != field}
        with pytest.raises(ValidationError):
            model.model_validate(broken)
        for provider, data in ((None, {**broken, "type": "openai:" + etype}), ("openai", broken)):
            with pytest.raises(S.StreamError) as exc:
                S.parse_event(data, provider=provider)  # type: ignore[arg-type]
            assert exc.value.rule == S.StreamRule.EVENT_SCHEMA
            assert field in exc.value.message  # one precise error, naming the field
            assert "pattern" not in exc.value.message  # never the generic extension's error


def test_a_malformed_known_event_never_falls_back_to_a_generic_extension() -> None:
    ev = {"type": "response.mcp_call_arguments.delta", "sequence_number": 1, "item_id": "m", "output_index": 0}
    with pytest.raises(S.StreamError) as exc:
        S.parse_event(ev, provider="openai")
    assert exc.value.rule == S.StreamRule.EVENT_SCHEMA and "delta" in exc.value.message
    ev = {**ev, "delta": 3}
    with pytest.raises(S.StreamError) as exc:
        S.parse_event(ev, provider="openai")
    assert exc.value.message.startswith("delta:")


def test_unknown_openai_and_slug_events_stay_generic() -> None:
    for ev, provider in (
        ({"type": "response.some_future.thing", "sequence_number": 1, "x": 1}, "openai"),
        ({"type": "acme:trace", "sequence_number": 1, "x": 1}, None),
    ):
        parsed = S.parse_event(ev, provider=provider)  # type: ignore[arg-type]
        assert type(parsed) is S.ExtensionEvent
        assert parsed.model_dump(mode="json", exclude_unset=True) == ev


# --- the assembler: one family at a time -----------------------------------------------------------------

_ITEMS: dict[str, dict[str, Any]] = {
    "custom_tool_call": {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "sql", "input": ""},
    "mcp_call": {"type": "mcp_call", "id": "mcp_1", "server_label": "srv", "name": "lookup", "arguments": ""},
    "code_interpreter_call": {
        "type": "code_interpreter_call",
        "id": "ci_1",
        "status": "in_progress",
        "container_id": "cntr_1",
        "code": "",
    },
    "reasoning": {"type": "reasoning", "id": "rs_1", "summary": []},
}
#: family -> (item type, delta event, done event, the done event's and the item's field)
_FAMILIES = {
    "custom_tool_call": ("response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "input"),
    "mcp_call": ("response.mcp_call_arguments.delta", "response.mcp_call_arguments.done", "arguments"),
    "code_interpreter_call": (
        "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "code",
    ),
}
_STATUS_OF_DONE = {"custom_tool_call": "completed", "mcp_call": "completed", "code_interpreter_call": "completed"}


def _ns(item: dict[str, Any], prefixed: bool) -> dict[str, Any]:
    return {**item, "type": "openai:" + item["type"]} if prefixed else item


def _ev(etype: str, prefixed: bool, **fields: Any) -> dict[str, Any]:
    return {"type": ("openai:" + etype) if prefixed and etype in OPENAI_ONLY else etype} | fields


def _call_stream(family: str, prefixed: bool, pieces: list[str], done_text: str, final: str) -> list[dict[str, Any]]:
    delta_t, done_t, key = _FAMILIES[family]
    base = _ITEMS[family]
    item_id = base["id"]
    events = [_ev("response.output_item.added", prefixed, output_index=0, item=_ns(base, prefixed))]
    events += [_ev(delta_t, prefixed, item_id=item_id, output_index=0, delta=p) for p in pieces]
    events.append(_ev(done_t, prefixed, item_id=item_id, output_index=0, **{key: done_text}))
    done_item = {**base, key: final, "status": _STATUS_OF_DONE[family]}
    events.append(_ev("response.output_item.done", prefixed, output_index=0, item=_ns(done_item, prefixed)))
    return [{**e, "sequence_number": i} for i, e in enumerate(events)]


_MODES = [("openai", False), (None, True)]  # OpenAI mode (un-prefixed), Open Responses mode (openai:)


def _run(events: list[dict[str, Any]], provider: Any, strict: bool) -> tuple[S.StreamAssembler, list[Any]]:
    asm = S.StreamAssembler(provider=provider, strict=strict)
    handed = [x for ev in events for x in asm.feed(ev)]
    return asm, handed


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_good_call_stream_hands_out_the_item(family: str, provider: Any, prefixed: bool) -> None:
    events = _call_stream(family, prefixed, ["SEL", "ECT 1;"], "SELECT 1;", "SELECT 1;")
    for strict in (True, False):
        asm, handed = _run(events, provider, strict)
        assert asm.violations == []
        assert [rp.dump_item(x)[_FAMILIES[family][2]] for x in handed] == ["SELECT 1;"]
        assert rp.dump_item(asm.items[0])["type"] == ("openai:" if prefixed else "") + family


def _expect(events: list[dict[str, Any]], provider: Any, rule: S.StreamRule, seq: int, *, blocks: bool = True) -> None:
    """Strict mode raises `rule` at event `seq`; lenient mode records it first and goes on, and (when
    `blocks`) never hands out the custom_tool_call the broken rule belongs to."""
    with pytest.raises(S.StreamError) as exc:
        _run(events, provider, strict=True)
    assert exc.value.rule == rule and exc.value.sequence_number == seq, exc.value
    asm, handed = _run(events, provider, strict=False)
    assert [(w.rule, w.sequence_number) for w in asm.violations][:1] == [(rule, seq)]
    if blocks:
        assert [x for x in handed if "custom_tool_call" in rp.dump_item(x)["type"]] == []


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_done_text_must_equal_the_deltas(family: str, provider: Any, prefixed: bool) -> None:
    events = _call_stream(family, prefixed, ["SEL", "ECT 1;"], "SELECT 2;", "SELECT 2;")
    _expect(events, provider, S.StreamRule.ARGUMENTS_MISMATCH, 3)


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_done_item_must_equal_the_streamed_text(family: str, provider: Any, prefixed: bool) -> None:
    events = _call_stream(family, prefixed, ["SEL", "ECT 1;"], "SELECT 1;", "DROP TABLE users;")
    _expect(events, provider, S.StreamRule.ARGUMENTS_MISMATCH, 4)


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_delta_after_done(family: str, provider: Any, prefixed: bool) -> None:
    events = _call_stream(family, prefixed, ["SEL", "ECT 1;"], "SELECT 1;", "SELECT 1;")
    late = {**events[1], "sequence_number": 9}  # after output_item.done
    _expect([*events, late], provider, S.StreamRule.AFTER_DONE, 9, blocks=False)
    # after the text's own done event
    _expect([*events[:4], {**events[1], "sequence_number": 5}], provider, S.StreamRule.AFTER_DONE, 5)


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_delta_for_an_item_never_added(family: str, provider: Any, prefixed: bool) -> None:
    events = _call_stream(family, prefixed, ["SEL"], "SEL", "SEL")
    _expect(events[1:], provider, S.StreamRule.NOT_ADDED, 1)


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
def test_delta_for_another_item_type_is_wrong_item(provider: Any, prefixed: bool) -> None:
    events = _call_stream("mcp_call", prefixed, ["{}"], "{}", "{}")
    events[1] = _ev("response.custom_tool_call_input.delta", prefixed, item_id="mcp_1", output_index=0, delta="x")
    events[1]["sequence_number"] = 1
    _expect(events, provider, S.StreamRule.WRONG_ITEM, 1)


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
def test_custom_tool_call_is_handed_out_only_when_completed(provider: Any, prefixed: bool) -> None:
    events = _call_stream("custom_tool_call", prefixed, ["ls"], "ls", "ls")
    events[-1]["item"]["status"] = "incomplete"
    asm, handed = _run(events, provider, strict=True)
    assert handed == [] and len(asm.items) == 1
    del events[-1]["item"]["status"]
    asm, handed = _run(events, provider, strict=True)
    assert handed == [] and len(asm.items) == 1


def _reasoning_stream(prefixed: bool, pieces: list[str], done_text: str) -> list[dict[str, Any]]:
    part = {"type": "reasoning_text", "text": ""}
    ids = {"item_id": "rs_1", "output_index": 0, "content_index": 0}
    events = [
        _ev("response.output_item.added", prefixed, output_index=0, item=_ITEMS["reasoning"]),
        _ev("response.content_part.added", prefixed, part=part, **ids),
        *[_ev("response.reasoning_text.delta", prefixed, delta=p, **ids) for p in pieces],
        _ev("response.reasoning_text.done", prefixed, text=done_text, **ids),
    ]
    return [{**e, "sequence_number": i} for i, e in enumerate(events)]


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
def test_reasoning_text_follows_the_part_state_machine(provider: Any, prefixed: bool) -> None:
    good = _reasoning_stream(prefixed, ["be", "cause"], "because")
    for strict in (True, False):
        asm, _ = _run(good, provider, strict)
        assert asm.violations == []
    _expect(_reasoning_stream(prefixed, ["be", "cause"], "because!"), provider, S.StreamRule.TEXT_MISMATCH, 4)
    late = {**good[2], "sequence_number": 5}
    _expect([*good, late], provider, S.StreamRule.PART_ORDER, 5)
    _expect([good[0], *good[2:]], provider, S.StreamRule.PART_ORDER, 2)  # part never added


_STATUS_ITEMS = {
    "response.web_search_call.searching": {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "in_progress",
        "action": {"type": "search", "query": "q"},
    },
    "response.image_generation_call.generating": {"type": "image_generation_call", "id": "ig_1", "status": "in_progress"},
    "response.file_search_call.searching": {
        "type": "file_search_call",
        "id": "fs_1",
        "status": "in_progress",
        "queries": ["q"],
    },
    "response.mcp_call.in_progress": _ITEMS["mcp_call"],
    "response.code_interpreter_call.interpreting": _ITEMS["code_interpreter_call"],
}


@pytest.mark.parametrize(("provider", "prefixed"), _MODES, ids=["openai", "open_responses"])
@pytest.mark.parametrize("etype", sorted(_STATUS_ITEMS))
def test_status_events_of_hosted_calls(etype: str, provider: Any, prefixed: bool) -> None:
    item = _STATUS_ITEMS[etype]
    added = {"type": "response.output_item.added", "output_index": 0, "item": _ns(item, prefixed)}
    done = {"type": "response.output_item.done", "output_index": 0, "item": _ns(item, prefixed)}
    status = _ev(etype, prefixed, item_id=item["id"], output_index=0)

    def seq(*evs: dict[str, Any]) -> list[dict[str, Any]]:
        return [{**e, "sequence_number": i} for i, e in enumerate(evs)]

    for strict in (True, False):
        asm, _ = _run(seq(added, status, done), provider, strict)
        assert asm.violations == []
    _expect(seq(status, added, done), provider, S.StreamRule.NOT_ADDED, 0)
    _expect(seq(added, done, status), provider, S.StreamRule.AFTER_DONE, 2)
    other = {"type": "response.output_item.added", "output_index": 0, "item": _ns(_ITEMS["custom_tool_call"], prefixed)}
    _expect(seq(other, {**status, "item_id": "ctc_1"}), provider, S.StreamRule.WRONG_ITEM, 1)
