"""A provider's typed item (`openai:web_search_call`) gets one verdict whichever door reads it: the item
readers (`parse_item`, the public item adapters), the body readers (`parse_request`, `parse_response`, their
compaction forms, the WebSocket `response.create` event, the stream's `response.output_item.*` events), the
public body models' own `model_validate`, and `check_transcript`. A malformed typed item is refused by every
one of them, whatever Python shape holds it (a dict subclass, a model that skipped validation), and never
kept as an opaque `NamespacedItem`. Spec: Open Responses 2026-04-24, "Extending items"."""

from __future__ import annotations

import contextlib
import io
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import pytest
from conftest import compact_response, full_response

import replayable as rp
from replayable._cli import main
from replayable._generated.streaming.response_output_item_done_event import ResponseOutputItemDoneEvent
from replayable.stream import parse_event
from replayable.websocket import WebSocketResponseCreateEvent, parse_websocket_event

#: Missing `action`: refused by `web_search_call`'s own model on either side.
MALFORMED = {"type": "openai:web_search_call", "id": "ws_1", "status": "completed"}
WELL_FORMED = {**MALFORMED, "action": {"type": "search", "query": "weather"}}
RESPONSE = {**full_response(), "tools": []}
COMPACT_RESPONSE = compact_response()


class _Item(dict[str, Any]):
    """A dict subclass holding an item, as a caller's own mapping type may be."""


class _LyingItem(dict[str, Any]):
    """A dict subclass whose own `get` names another type than the one it holds."""

    def get(self, key: str, default: Any = None) -> Any:
        return "acme:thing" if key == "type" else super().get(key, default)


class _Type(str):
    """A str subclass holding an item's `type`."""

    __slots__ = ()


def _holders(item: dict[str, Any]) -> list[Any]:
    return [OrderedDict(item), _Item(item), {**item, "type": _Type(item["type"])}]


#: The public model classes and adapters that read an item inside a body or alone, by side.
MODEL_DOORS: dict[str, Callable[[Any], Any]] = {
    "CreateResponseBody.model_validate": lambda it: rp.CreateResponseBody.model_validate(
        {"model": "m", "input": [it]}
    ).input[0],
    "CompactRequestBody.model_validate": lambda it: rp.CompactRequestBody.model_validate(
        {"model": "m", "input": [it]}
    ).input[0],
    "Response.model_validate": lambda it: rp.Response.model_validate({**RESPONSE, "output": [it]}).output[0],
    "CompactResource.model_validate": lambda it: rp.CompactResource.model_validate(
        {**COMPACT_RESPONSE, "output": [it]}
    ).output[0],
    "input_item_adapter": lambda it: rp.input_item_adapter.validate_python(it),
    "output_item_adapter": lambda it: rp.output_item_adapter.validate_python(it),
    "input_items_adapter": lambda it: rp.input_items_adapter.validate_python([it])[0],
    "output_items_adapter": lambda it: rp.output_items_adapter.validate_python([it])[0],
}


@pytest.mark.parametrize("door", list(MODEL_DOORS))
@pytest.mark.parametrize("holder", range(3))
def test_a_malformed_typed_item_held_by_a_dict_or_str_subclass_is_refused_by_the_public_models(
    door: str, holder: int
) -> None:
    """A dict subclass (`OrderedDict`, a caller's own) or a `str` subclass `type` reads as the plain dict
    does: a malformed `openai:web_search_call` is refused naming `action`, never an opaque item."""
    read = MODEL_DOORS[door]
    with pytest.raises(ValueError, match="action"):
        read(MALFORMED)
    item = _holders(MALFORMED)[holder]
    with pytest.raises(ValueError, match="action"):
        read(item)
    with pytest.raises(ValueError, match="action"):
        read(_LyingItem(MALFORMED))  # what the model reads decides, never what `get` says


@pytest.mark.parametrize("door", list(MODEL_DOORS))
@pytest.mark.parametrize("holder", range(3))
def test_a_well_formed_typed_item_held_by_a_dict_subclass_is_its_own_model(door: str, holder: int) -> None:
    """The same holders of a well-formed typed item give its own model, as the plain dict does."""
    read = MODEL_DOORS[door]
    got = read(_holders(WELL_FORMED)[holder])
    assert type(got) is type(read(dict(WELL_FORMED)))
    assert type(got) is not rp.NamespacedItem
    assert got.model_dump(mode="json", by_alias=True, exclude_unset=True) == WELL_FORMED


def _constructed_bodies(item: Any) -> dict[str, tuple[Any, Callable[[Any], Any]]]:
    """Each body model built without validation around `item`, with the parser that reads it."""
    return {
        "parse_request": (rp.CreateResponseBody.model_construct(model="m", input=[item]), rp.parse_request),
        "parse_compact_request": (
            rp.CompactRequestBody.model_construct(model="m", input=[item]),
            rp.parse_compact_request,
        ),
        "parse_response": (rp.Response.model_construct(**{**RESPONSE, "output": [item]}), rp.parse_response),
        "parse_compact_response": (
            rp.CompactResource.model_construct(**{**COMPACT_RESPONSE, "output": [item]}),
            rp.parse_compact_response,
        ),
        "parse_websocket_event": (
            WebSocketResponseCreateEvent.model_construct(type="response.create", model="m", input=[item]),
            parse_websocket_event,
        ),
    }


@pytest.mark.parametrize("door", list(_constructed_bodies(MALFORMED)))
def test_a_body_model_that_skipped_validation_is_read_again_by_its_parser(door: str) -> None:
    """A body built with `model_construct` around a malformed typed item is refused by its parser, as
    `check_transcript` refuses it, never returned as it is."""
    body, parse = _constructed_bodies(MALFORMED)[door]
    if door != "parse_websocket_event":
        assert [str(v.code) for v in rp.check_transcript(body).violations] == ["item_invalid"]
    with pytest.raises(ValueError, match="action"):
        parse(body)


@pytest.mark.parametrize("door", list(_constructed_bodies(WELL_FORMED)))
def test_a_constructed_body_that_is_valid_reads_as_the_dict_does(door: str) -> None:
    """A `model_construct`ed body that is valid reads to what its JSON reads to."""
    body, parse = _constructed_bodies(WELL_FORMED)[door]
    got = parse(body)
    dumped = body.model_dump(mode="json", by_alias=True, exclude_unset=True, warnings=False)
    assert got.model_dump(mode="json", by_alias=True, exclude_unset=True) == dumped
    assert got == parse(dumped)


def test_a_body_copied_with_an_update_is_read_again_by_its_parser() -> None:
    """`model_copy(update=...)` skips validation: the copy's new values meet the parser's rules."""
    body = rp.parse_request({"model": "m", "input": [WELL_FORMED]})
    assert rp.parse_request(body) is body  # a validated body is returned as it is
    with pytest.raises(rp.ItemError, match="temperature"):
        rp.parse_request(body.model_copy(update={"temperature": "hot"}))
    with pytest.raises(rp.ItemError, match="model"):
        rp.parse_request(rp.CreateResponseBody.model_construct(model=5, input=[]))


def _rebuilt(model: Any) -> Any:
    """`model` built again with `model_construct` from its own values (so marked as unchecked)."""
    return type(model).model_construct(**{name: getattr(model, name) for name in model.model_fields_set})


def test_an_openai_mode_body_that_skipped_validation_is_read_again_in_openai_mode() -> None:
    """OpenAI mode's own body models, built without validation, are read again as OpenAI's (the mode their
    class stands for), giving what the validated body is; a malformed typed item in one is refused."""
    ws = {**WELL_FORMED, "type": "web_search_call"}
    request = rp.parse_request(
        {"model": "m", "input": [{"role": "user", "content": "x"}, ws], "user": "u"}, provider="openai"
    )
    response = rp.parse_response({**RESPONSE, "output": [ws]}, provider="openai")
    socket = parse_websocket_event(
        {"type": "response.create", "model": "m", "input": [ws], "stream_id": "s"}, provider="openai"
    )
    for model, parse in ((request, rp.parse_request), (response, rp.parse_response), (socket, parse_websocket_event)):
        again = parse(_rebuilt(model))
        assert type(again) is type(model)
        assert again == model
    broken = type(request).model_construct(model="m", input=[{**MALFORMED, "type": "web_search_call"}])
    with pytest.raises(rp.ItemError, match="action"):
        rp.parse_request(broken)


def test_a_stream_event_that_skipped_validation_is_read_again() -> None:
    """A `response.output_item.done` event built with `model_construct` around a malformed typed item is
    refused, as the same event as JSON is."""
    event = {"type": "response.output_item.done", "sequence_number": 1, "output_index": 0, "item": MALFORMED}
    with pytest.raises(ValueError, match="action"):
        parse_event(event)
    with pytest.raises(ValueError, match="action"):
        parse_event(ResponseOutputItemDoneEvent.model_construct(**event))
    good = parse_event({**event, "item": WELL_FORMED})
    assert parse_event(good) is good


def test_a_generic_namespaced_item_with_a_typed_type_is_checked_in_its_input_form() -> None:
    """`check_transcript` (no side: the items are about to be sent) on a `NamespacedItem` built directly
    from a malformed typed item says what it says on the dict: `item_invalid`."""
    built = rp.NamespacedItem.model_validate(MALFORMED)
    for value in (MALFORMED, built):
        assert [(v.index, str(v.code)) for v in rp.check_transcript([value]).violations] == [(0, "item_invalid")]


def test_a_generic_namespaced_item_with_a_typed_type_gets_the_output_verdict_of_its_dict() -> None:
    """On the output side too, a `NamespacedItem` built from a malformed typed item is refused as its dict."""
    report = rp.check_transcript([MALFORMED], side="output")
    assert [(v.index, str(v.code)) for v in report.violations] == [(0, "item_invalid")]
    try:
        built = rp.NamespacedItem.model_validate(MALFORMED)
    except ValueError:
        return  # refused at the door: the same verdict
    report = rp.check_transcript([built], side="output")
    assert [(v.index, str(v.code)) for v in report.violations] == [(0, "item_invalid")]


#: OpenAI's output form of `additional_tools` (any `role`): its input form takes `role: developer` only.
OUTPUT_ADDITIONAL_TOOLS = {"type": "openai:additional_tools", "id": "at_1", "role": "user", "tools": []}


@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_typed_item_sent_back_in_its_output_form_meets_its_input_rules(provider: rp.Provider) -> None:
    """A typed item is sent back as it is: its input form's rules hold whoever reads it, as `parse_request`
    reads it. `check_transcript` without a side (on the dict, on a request body, on the parsed output
    model, alone or beside other parsed items) and `check_transcript_iter` refuse what the request refuses;
    read as output it passes."""
    item = OUTPUT_ADDITIONAL_TOOLS if provider is None else {**OUTPUT_ADDITIONAL_TOOLS, "type": "additional_tools"}
    with pytest.raises(rp.ItemError, match="developer"):
        rp.parse_request({"model": "m", "input": [item]}, provider=provider)
    parsed = rp.parse_item(item, side="output", provider=provider)
    message = rp.parse_item({"type": "message", "role": "user", "content": "hi"})
    for data, at in (([item], 0), ({"model": "m", "input": [item]}, 0), ([parsed], 0), ([message, parsed], 1)):
        report = rp.check_transcript(data, provider=provider)
        assert [(v.index, str(v.code)) for v in report.violations] == [(at, "item_invalid")]
    report = rp.check_transcript_iter(iter([message, parsed]), provider=provider)
    assert [(v.index, str(v.code)) for v in report.violations] == [(1, "item_invalid")]
    assert rp.check_transcript([parsed], side="output", provider=provider).ok
    developer = rp.parse_item({**item, "role": "developer"}, side="output", provider=provider)
    assert rp.check_transcript([message, developer], provider=provider).ok


def _held_items() -> dict[str, Any]:
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText  # noqa: PLC0415

    parsed = rp.parse_item(WELL_FORMED)
    text = ResponseOutputText(type="output_text", text="hi", annotations=[])
    message = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed"}
    return {
        "parsed": parsed,
        "changed after parsing": parsed.model_copy(update={"action": None}),  # its JSON is read: no action
        "sdk object": ResponseOutputMessage(**message, content=[text]),  # type: ignore[arg-type]
        "sdk object, malformed": ResponseOutputMessage.model_construct(**message),  # no content
    }


@pytest.mark.parametrize("name", ["parsed", "changed after parsing", "sdk object", "sdk object, malformed"])
def test_a_dict_body_holding_a_parsed_item_gets_one_verdict_naming_its_index(name: str) -> None:
    """A request body as a dict whose `input` holds a parsed item (or an SDK object): `parse_request` and
    `check_transcript` agree, and a refusal names `input.0`."""
    item = _held_items()[name]
    body = {"model": "m", "input": [item]}
    checked = rp.check_transcript(body).ok
    try:
        rp.parse_request(body)
    except rp.ItemError as exc:
        assert not checked
        assert exc.errors[0]["loc"][:2] == ("input", 0)
    else:
        assert checked


#: An item OpenAI has on the input side only (`configuration_update`), malformed: refused by its own model.
INPUT_ONLY_MALFORMED = [
    ({"type": "openai:configuration_update", "reasoning": 5}, None),
    ({"type": "configuration_update", "reasoning": 5}, "openai"),
    ({"type": "openai:configuration_update", "text": {"verbosity": "loud"}}, None),
]


def _cli_codes(data: Any, tmp_path: Any) -> list[tuple[int | None, str]]:
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", str(path), "--format", "json"])
    return [(v["index"], v["code"]) for v in json.loads(out.getvalue())["violations"]]


@pytest.mark.parametrize(("item", "provider"), INPUT_ONLY_MALFORMED)
def test_a_malformed_input_only_typed_item_is_refused_by_the_check_as_by_parse_request(
    item: dict[str, Any], provider: rp.Provider, tmp_path: Any
) -> None:
    """An item OpenAI takes as input only (`configuration_update`) has no output form
    to fall back on: a malformed one is `item_invalid` for `check_transcript` (items, request body,
    `check_transcript_iter`) and the command line, as `parse_item` and `parse_request` refuse it."""
    body = {"model": "m", "input": [item]}
    with pytest.raises(rp.ItemError):
        rp.parse_item(item, provider=provider)
    with pytest.raises(rp.ItemError):
        rp.parse_request(body, provider=provider)
    want = [(0, "item_invalid")]
    for data in ([item], body):
        assert [(v.index, str(v.code)) for v in rp.check_transcript(data, provider=provider).violations] == want
    report = rp.check_transcript_iter(iter([item]), provider=provider)
    assert [(v.index, str(v.code)) for v in report.violations] == want
    if provider is None:
        assert _cli_codes([item], tmp_path) == want
        assert _cli_codes(body, tmp_path) == want


@pytest.mark.parametrize("item", [{"type": "openai:configuration_update"}, {"type": "openai:compaction_trigger"}])
def test_a_well_formed_input_only_typed_item_passes_the_check(item: dict[str, Any]) -> None:
    """The same items well formed pass every door that reads them as input."""
    assert rp.check_transcript([item]).ok
    assert rp.check_transcript({"model": "m", "input": [item]}).ok
    assert type(rp.parse_request({"model": "m", "input": [item]}).input[0]) is type(rp.parse_item(item))


@pytest.mark.parametrize("item_type", ["web_search_call ", "web_search_calls", "web_search_preview_x"])
def test_an_openai_mode_body_never_tells_to_read_it_with_provider_openai(item_type: str) -> None:
    """Read with `provider="openai"`, a body's unknown un-prefixed item type gets the message `parse_item`
    gives in that mode (naming the closest known types), never advice to pass `provider='openai'`."""
    item = {"type": item_type}
    with pytest.raises(rp.ItemError) as single:
        rp.parse_item(item, provider="openai")
    readers: list[Callable[[], Any]] = [
        lambda: rp.parse_request({"model": "m", "input": [item]}, provider="openai"),
        lambda: rp.parse_compact_request({"model": "m", "input": [item]}, provider="openai"),
        lambda: rp.parse_response({**RESPONSE, "output": [item]}, provider="openai"),
    ]
    for read in readers:
        with pytest.raises(rp.ItemError) as body:
            read()
        (error,) = body.value.errors
        assert error["type"] == "unknown_item_type"
        assert "provider=" not in str(error["msg"])
        assert error["msg"] == single.value.errors[0]["msg"]


def test_a_validated_body_whose_input_list_was_changed_gets_the_check_s_verdict() -> None:
    """A parsed request body whose `input` list gained a malformed typed item: `parse_request` refuses it,
    as `check_transcript` does."""
    body = rp.parse_request({"model": "m", "input": [{"type": "message", "role": "user", "content": "hi"}]})
    body.input.append(dict(MALFORMED))  # type: ignore[union-attr]
    assert [(v.index, str(v.code)) for v in rp.check_transcript(body).violations] == [(1, "item_invalid")]
    with pytest.raises(rp.ItemError, match="action"):
        rp.parse_request(body)


# --- a body's models and containers, read as the check reads them ------------------------------------------

GOOD_TOOL = {
    "type": "function",
    "name": "g",
    "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
}
USER = [{"type": "message", "role": "user", "content": "hi"}]


@pytest.mark.parametrize("bad", [{"type": "bogus"}, {"type": "function", "name": "g", "parameters": 5}])
def test_a_parsed_body_whose_tools_gained_a_bad_tool_is_refused_on_every_door(bad: dict[str, Any]) -> None:
    """The lists of a frozen body are mutable: one that gained a JSON object after it was read is read again
    from its JSON by `parse_request` and by every check door alike."""
    from replayable.testing import assert_replay_safe  # noqa: PLC0415

    body = rp.parse_request({"model": "m", "input": "hi", "tools": []}, provider="openai")
    body.tools.append(dict(bad))  # type: ignore[union-attr]
    with pytest.raises(rp.ItemError, match=r"tools\.0"):
        rp.parse_request(body, provider="openai")
    report = rp.check_transcript(body, provider="openai")
    assert ("body_invalid", None, ["", "tools", "0"]) in [(v.code, v.index, v.path.split("/")[:3]) for v in report.violations]
    with pytest.raises(rp.ReplayError):
        rp.prepare_replay(body, target="openai", provider="openai")
    with pytest.raises(AssertionError):
        assert_replay_safe(body, provider="openai")


def test_a_dict_subclass_body_is_read_once_by_its_items() -> None:
    """A mapping whose `get` answers differently from what it holds is read by its items, as `parse_request`
    and `json.dumps` read it: the check sees the tool that is sent."""

    class Lying(dict):  # type: ignore[type-arg]
        def get(self, key: Any, default: Any = None) -> Any:
            return [GOOD_TOOL] if key == "tools" else super().get(key, default)

    body = Lying({"model": "m", "input": USER, "tools": [{"type": "bogus"}]})
    with pytest.raises(rp.ItemError):
        rp.parse_request(body)
    assert "body_invalid" in [str(v.code) for v in rp.check_transcript(body).violations]


def test_a_list_subclass_holding_parsed_items_is_read_as_a_list() -> None:
    class Items(list):  # type: ignore[type-arg]
        pass

    body = {"model": "m", "input": Items([rp.parse_item(USER[0])]), "tools": Items([GOOD_TOOL])}
    assert rp.dump_request(rp.parse_request(body))["input"] == [{**USER[0]}]
    assert rp.check_transcript(body).ok


def test_a_websocket_create_event_reads_the_models_it_holds_as_their_json() -> None:
    tool = rp.parse_request({"model": "m", "input": "hi", "tools": [GOOD_TOOL]}).tools[0]  # type: ignore[index]
    event = {"type": "response.create", "model": "m", "input": [rp.parse_item(USER[0])], "tools": [tool]}
    parsed = parse_websocket_event(event)
    assert isinstance(parsed, WebSocketResponseCreateEvent)
    assert parsed.model_dump(mode="json", exclude_unset=True)["tools"] == [GOOD_TOOL]


def test_a_held_model_without_json_is_an_item_error_at_its_path() -> None:
    """A model whose dump fails (whatever it raises) or whose JSON breaks a strict rule is refused at its
    place in the body, never with a traceback from inside it."""
    from pydantic import BaseModel  # noqa: PLC0415

    from replayable._generated.open_responses.function_tool_param import FunctionToolParam  # noqa: PLC0415

    class Broken(BaseModel):
        def model_dump(self, **kw: Any) -> Any:
            raise AttributeError("no")

    nan_tool = FunctionToolParam.model_construct(name="g", parameters={"a": float("nan")})
    for held, rule in ((Broken(), "not_json"), (nan_tool, "non_finite_number")):
        with pytest.raises(rp.ItemError) as err:
            rp.parse_request({"model": "m", "input": "hi", "tools": [held]})
        (error,) = err.value.errors
        assert (error["loc"], error["type"]) == (("tools", 0), rule)
