"""The one error normalizer, on every door and in both modes.

pydantic's errors reach users only in the library's words: a plain field path, the rule, public names;
no `tagged-union[...]`, `function-wrap[...]` or private class name. Model constructors raise the
library's `ModelError` (an `ItemError` that is also a pydantic `ValidationError`). Wrong JSON types in
any nested position of real values give one `ItemError` (or a violation), never a stray exception.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, corpus_files, corpus_items, fuzz_settings, load
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import replayable as rp
from replayable import agents
from replayable.errors import ReplayableError

INTERNAL = ("tagged-union[", "function-wrap[", "function-after[", "function-before[", "union[", "list[", "[")
PRIVATE = ("UrlCitationParam", "UserMessageParam", "AssistantMessageParam", "_OpenAI", "NamespacedPart")


def assert_public(exc: BaseException) -> None:
    """No internal label or private class name in the text or in any error's location."""
    text = str(exc)
    assert not any(label in text for label in ("tagged-union[", "function-wrap[", "function-after[")), text
    for e in getattr(exc, "errors", []):
        for seg in e["loc"]:
            assert isinstance(seg, int) or not any(x in seg for x in INTERNAL), e
        assert not any(p in e["msg"] for p in PRIVATE), e


ASSISTANT = {
    "type": "message",
    "role": "assistant",
    "id": "m",
    "status": "completed",
    "content": [{"type": "output_text", "text": "x", "annotations": [{"type": {}}]}],
}


@pytest.mark.parametrize("side", ["input", "output"])
@pytest.mark.parametrize("as_text", [False, True])
def test_a_non_string_annotation_type_is_one_error_at_its_path(side: str, as_text: bool) -> None:
    data: Any = json.dumps(ASSISTANT) if as_text else ASSISTANT
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(data, side=side)  # type: ignore[call-overload]
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [
        (("content", 0, "annotations", 0, "type"), "type_not_string")
    ]
    assert_public(err.value)
    report = rp.check_transcript([ASSISTANT])
    assert not report.ok and report.violations[0].index == 0


def test_a_message_without_role_blames_role() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"type": "message", "content": "hi"})
    assert [e["loc"] for e in err.value.errors] == [("role",)]
    assert "role" in err.value.errors[0]["msg"]
    with pytest.raises(rp.ItemError) as err:
        rp.parse_request({"input": [{"type": "message", "content": "hi"}]})
    assert [e["loc"] for e in err.value.errors] == [("input", 0, "role")]


@pytest.mark.parametrize(
    ("part", "side", "field"),
    [
        ({"type": "refusal"}, "output", "refusal"),
        ({"type": "refusal"}, "input", "refusal"),
        ({"type": "output_text", "annotations": []}, "output", "text"),
        ({"type": "input_text"}, "input", "text"),
    ],
)
def test_a_part_missing_its_own_field_names_it(part: dict[str, Any], side: str, field: str) -> None:
    role = "assistant" if part["type"] in ("refusal", "output_text") else "user"
    item = {"type": "message", "role": role, "content": [part]}
    if side == "output":
        item |= {"id": "m", "status": "completed"}
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(item, side=side)  # type: ignore[call-overload]
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("content", 0, field), "missing")]


def test_a_text_part_with_a_wrong_text_names_the_text() -> None:
    # the part type `text` is also the name of its field: the tag is told from the field
    item = {
        "type": "message",
        "role": "assistant",
        "id": "m",
        "status": "completed",
        "content": [{"type": "refusal", "refusal": 5}],
    }
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(item, side="output")
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("content", 0, "refusal"), "string_type")]


def test_a_wrong_kind_in_a_union_is_one_error_naming_every_kind() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"type": "message", "role": "user", "content": 5})
    assert [(e["loc"]) for e in err.value.errors] == [("content",)]
    assert "a string or an array" in err.value.errors[0]["msg"] and "got a number" in err.value.errors[0]["msg"]


# --- constructors ------------------------------------------------------------------------------------


def test_constructors_raise_the_librarys_error() -> None:
    with pytest.raises(rp.ModelError) as err:
        rp.FunctionCall(id=1, call_id="c", name="n", arguments="{}", status="completed")  # type: ignore[arg-type]
    exc = err.value
    assert isinstance(exc, rp.ItemError) and isinstance(exc, ReplayableError) and isinstance(exc, ValueError)
    assert isinstance(exc, ValidationError)  # code written against pydantic keeps working
    assert exc.errors == [{"loc": ("id",), "type": "string_type", "msg": "Input should be a valid string"}]
    assert exc.errors() == exc.errors and exc.error_count() == 1
    assert str(exc).startswith("invalid FunctionCall (1 problem):") and "field id" in str(exc)


def test_a_body_constructor_names_the_nested_field() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.CreateResponseBody(
            model="m", input=[{"type": "message", "role": "user", "content": [{"type": "input_text", "text": 5}]}]
        )
    assert [e["loc"] for e in err.value.errors] == [("input", 0, "content", 0, "text")]
    assert_public(err.value)


def test_model_validate_raises_the_librarys_error() -> None:
    with pytest.raises(rp.ModelError) as err:
        rp.Message.model_validate({**ASSISTANT})
    assert [e["loc"] for e in err.value.errors] == [("content", 0, "annotations", 0, "type")]
    assert_public(err.value)


def test_model_validate_json_raises_the_librarys_error() -> None:
    with pytest.raises(rp.ModelError) as err:
        rp.Message.model_validate_json(json.dumps(ASSISTANT))
    assert [e["loc"] for e in err.value.errors] == [("content", 0, "annotations", 0, "type")]
    with pytest.raises(rp.ModelError):
        rp.Message.model_validate_json("{")  # not JSON at all


# --- output items as input ---------------------------------------------------------------------------

RESPONSE = {
    "id": "r",
    "object": "response",
    "created_at": 1,
    "model": "m",
    "output": [
        {"type": "reasoning", "id": "rs", "summary": [], "content": [{"type": "reasoning_text", "text": "t"}]},
        {
            "type": "message",
            "id": "m1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "x", "annotations": [], "logprobs": []}],
        },
        {"type": "function_call", "id": "fc", "call_id": "c", "name": "f", "arguments": "{}", "status": "completed"},
    ],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}


def test_output_items_are_written_in_their_input_form() -> None:
    resp = rp.parse_response(RESPONSE, provider="openai")
    body = rp.CreateResponseBody(model="m", input=resp.output)  # type: ignore[arg-type]
    assert rp.dump_request(body)["input"] == [rp.dump_item(rp.to_input(x)) for x in resp.output]
    assert "content" not in rp.dump_request(body)["input"][0]  # reasoning content is output-only
    # read back as what it is (OpenAI's body: its items keep OpenAI's input forms), it dumps the same
    again = rp.parse_request(rp.dump_request(body), provider="openai")
    assert rp.dump_request(again) == rp.dump_request(body)
    assert [type(x).__name__ for x in again.input] == [type(x).__name__ for x in body.input]  # type: ignore[union-attr]


def test_sdk_output_items_are_written_in_their_input_form() -> None:
    openai_types = pytest.importorskip("openai.types.responses")
    sdk = openai_types.Response.model_validate({**RESPONSE, "created_at": 1.0})
    body = rp.CreateResponseBody(model="m", input=sdk.output)
    assert rp.dump_request(body)["input"] == [rp.dump_item(rp.to_input(x)) for x in sdk.output]


@pytest.mark.filterwarnings("ignore::UserWarning")  # pydantic warns when it dumps the forged part
def test_an_output_item_without_an_input_form_says_what_to_do() -> None:
    bad = rp.Message.model_construct(
        type="message", id="m", role="assistant", status="completed", content=[{"type": "input_text", "text": 5}]
    )
    with pytest.raises(rp.ModelError) as err:
        rp.CreateResponseBody(model="m", input=[bad])  # type: ignore[list-item]
    assert err.value.errors[0]["loc"][:2] == ("input", 0)
    assert "rp.to_input" in str(err.value)


# --- Agents parse_* ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parse", "data", "loc"),
    [
        (agents.parse_create_params, {"agent": {"model": 5}, "environment": {}}, ("agent", "model")),
        (agents.parse_update_params, {"agent": 5}, ("agent",)),
        (
            agents.parse_session_item,
            {
                "type": "message",
                "role": "user",
                "turn_id": "t",
                "status": "completed",
                "content": [{"type": "input_text"}],
            },
            ("content", 0, "text"),
        ),
        (
            agents.parse_required_action,
            {"type": "function_call", "call_id": "c", "turn_id": "t", "name": "n", "arguments": "x"},
            ("arguments",),
        ),
    ],
)
def test_agents_bodies_items_and_actions_raise_the_librarys_error(parse: Any, data: Any, loc: tuple[Any, ...]) -> None:
    with pytest.raises(rp.ItemError) as err:
        parse(data)
    assert loc in [e["loc"] for e in err.value.errors], err.value.errors
    assert_public(err.value)
    with pytest.raises(rp.ItemError):
        parse(json.dumps(data))


# --- fuzz: wrong JSON types in every nested position of real values -----------------------------------

FIXTURES = Path(__file__).parent.parent / "fixtures"
WRONG = [{}, [], 0, -1, 1.5, "", "x", True, False, None, {"type": {}}, [{}], {"type": 5}, [None]]


def _item_seeds() -> list[tuple[str, dict[str, Any]]]:
    seeds = [(side, item) for _, side, _, item in corpus_items() if isinstance(item, dict)]
    shared = CORPUS.parent / "cases"  # ../shared/cases, when present
    for p in sorted((FIXTURES / "cases").glob("*.json")) + sorted(shared.glob("*.json")):
        doc = load(p)
        items = doc.get("input")
        if isinstance(items, list):
            seeds += [("input", x) for x in items if isinstance(x, dict)]
        if isinstance(doc.get("item"), dict):
            seeds.append(("input", doc["item"]))
    seeds.append(("output", ASSISTANT))
    seeds.append(("input", {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}))
    seeds.append(
        ("input", {"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text", "text": "t"}]})
    )
    return seeds


def _body_seeds() -> list[tuple[str, dict[str, Any]]]:
    out = [("response", RESPONSE)]
    for p in corpus_files():
        doc = load(p)
        if doc.get("kind") in ("response", "request") and isinstance(doc.get("body"), dict):
            out.append((doc["kind"], doc["body"]))
    for p in sorted((CORPUS.parent / "cases").glob("*.json")):
        doc = load(p)
        if doc.get("kind") == "request" and isinstance(doc.get("input"), dict):
            out.append(("request", doc["input"]))
    return out


def _agents_seeds() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for p in sorted((FIXTURES / "agents").glob("*.json")) + sorted((CORPUS.parent / "cases").glob("S2*.json")):
        doc = load(p)
        if isinstance(doc.get("required_action"), dict):
            out.append(("action", doc["required_action"]))
        out += [("event", e) for e in doc.get("events") or [] if isinstance(e, dict)]
    return out or [("action", {"type": "function_call", "call_id": "c", "turn_id": "t", "name": "n", "arguments": {}})]


ITEMS = _item_seeds()
BODIES = _body_seeds()
AGENTS = _agents_seeds()


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here] if here else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*here, i))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in value.items()}
    return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(value)]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[tuple[str, dict[str, Any]]]) -> tuple[str, Any]:
    kind, seed = draw(st.sampled_from(seeds))
    path = draw(st.sampled_from(_paths(seed) or [()]))
    return kind, _replace(seed, path, draw(st.sampled_from(WRONG)))


def _one_error_or_value(call: Any) -> None:
    try:
        call()
    except rp.ItemError as exc:
        assert exc.errors, exc
        assert_public(exc)


@fuzz_settings(150)
@given(mutated(ITEMS))
def test_wrong_types_in_nested_item_values_are_one_library_error(case: tuple[str, Any]) -> None:
    side, item = case
    for provider in (None, "openai"):
        _one_error_or_value(lambda p=provider: rp.parse_item(item, side=side, provider=p))
        _one_error_or_value(lambda p=provider: rp.parse_item(json.dumps(item), side=side, provider=p))
        _one_error_or_value(lambda p=provider: rp.parse_items([item], side=side, provider=p))
        _one_error_or_value(lambda p=provider: rp.parse_items(json.dumps([item]), side=side, provider=p))
        _one_error_or_value(lambda p=provider: rp.check_transcript([item], provider=p))


@fuzz_settings(100)
@given(mutated(BODIES))
def test_wrong_types_in_nested_body_values_are_one_library_error(case: tuple[str, Any]) -> None:
    kind, body = case
    parse = rp.parse_response if kind == "response" else rp.parse_request
    for provider in (None, "openai"):
        _one_error_or_value(lambda p=provider: parse(body, provider=p))
        _one_error_or_value(lambda p=provider: parse(json.dumps(body), provider=p))
    if kind == "request":
        _one_error_or_value(lambda: rp.check_transcript(body))


@fuzz_settings(100)
@given(mutated(AGENTS))
def test_wrong_types_in_nested_agents_values_are_one_library_error(case: tuple[str, Any]) -> None:
    kind, value = case
    parse = agents.parse_required_action if kind == "action" else agents.parse_event
    _one_error_or_value(lambda: parse(value))
    _one_error_or_value(lambda: parse(json.dumps(value)))
    if kind == "event":
        _one_error_or_value(lambda: agents.check_event_log([value]))
