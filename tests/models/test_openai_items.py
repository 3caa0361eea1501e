"""OpenAI's native items against the `openai` SDK (`openai.types.responses`, 3.57 or newer): every item
type of the SDK's unions has a typed model; malformed known items are precise errors; annotations and
the side-specific input forms are typed."""

from __future__ import annotations

import json
import typing
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

import replayable as rp
from replayable import _native as native

responses = pytest.importorskip("openai.types.responses", reason="the openai SDK is a dev dependency")
from openai.types.responses import response_input_item  # noqa: E402

SPEC = {"message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"}


def _variants(tp: Any) -> list[type[BaseModel]]:
    args = typing.get_args(tp)
    if typing.get_origin(tp) is typing.Annotated:
        return _variants(args[0])
    if typing.get_origin(tp) is typing.Union:
        return [v for a in args for v in _variants(a)]
    return [tp]


def _tag(model: type[BaseModel]) -> str:
    ann = model.model_fields["type"].annotation
    if typing.get_origin(ann) is typing.Union:  # Optional[Literal[...]]
        ann = next(a for a in typing.get_args(ann) if a is not type(None))
    return str(typing.get_args(ann)[0])


def _native(tp: Any) -> dict[str, type[BaseModel]]:
    return {_tag(m): m for m in _variants(tp) if _tag(m) not in SPEC}


SDK = {"output": _native(responses.ResponseOutputItem), "input": _native(response_input_item.ResponseInputItem)}
CASES = [(side, t) for side, table in SDK.items() for t in sorted(table)]


def test_every_sdk_item_type_has_a_typed_model() -> None:
    """No item type of OpenAI's reference falls back to an opaque NamespacedItem in OpenAI mode."""
    for side, table in SDK.items():
        ours = native.OUTPUT_TYPES if side == "output" else native.INPUT_TYPES
        missing = sorted(t for t in table if f"openai:{t}" not in ours)
        assert not missing, f"{side}: no typed model for {missing}"


def _example(schema: Any, defs: dict[str, Any], k: int, full: bool, depth: int = 0) -> Any:
    """A JSON value for an SDK model's JSON Schema: branch `k` (modulo) of every union, every optional
    property when `full`, else the required ones only."""
    if "$ref" in schema:
        return _example(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, k, full, depth)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = [b for b in schema[key] if b.get("type") != "null"] or schema[key]
            return _example(branches[k % len(branches)], defs, k, full, depth)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][k % len(schema["enum"])]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        required = set(schema.get("required", ()))
        props = schema.get("properties", {})
        return {
            name: _example(sub, defs, k, full, depth + 1)
            for name, sub in props.items()
            if name in required or (full and depth < 6)
        }
    if kind == "array":
        return [_example(schema.get("items", {}), defs, k, full, depth + 1)] if depth < 6 else []
    return {"string": "x1", "integer": 1, "number": 1.5, "boolean": True, "null": None}.get(kind, "x1")


def _sdk_examples(model: type[BaseModel]) -> list[dict[str, Any]]:
    """Instances the SDK model builds and accepts, dumped as the SDK dumps them (no unset fields)."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.get("$defs", {})
    out: list[dict[str, Any]] = []
    for k in range(4):
        for full in (False, True):
            value = _example(schema, defs, k, full)
            try:
                instance = model.model_validate(value)
            except ValidationError:
                continue
            dumped = json.loads(instance.model_dump_json(by_alias=True, exclude_unset=True))
            if dumped not in out:
                out.append(dumped)
    return out


@pytest.mark.parametrize(("side", "wire"), CASES, ids=[f"{s}-{t}" for s, t in CASES])
def test_sdk_instances_parse_typed_and_round_trip(side: str, wire: str) -> None:
    examples = _sdk_examples(SDK[side][wire])
    assert examples, f"no instance of the SDK's {wire} could be built"
    for value in examples:
        parsed = rp.parse_item(value, side=side, provider="openai")  # type: ignore[arg-type]
        assert type(parsed) is native.typed_model(wire, side), type(parsed).__name__
        assert parsed.type == f"openai:{wire}" and parsed.wire_type == wire  # type: ignore[union-attr]
        assert rp.dump_item(parsed) == value
        prefixed = {**value, "type": f"openai:{wire}"}  # the same model in strict Open Responses mode
        strict = rp.parse_item(prefixed, side=side)  # type: ignore[arg-type]
        assert type(strict) is type(parsed) and rp.dump_item(strict) == prefixed


def _breakages(value: dict[str, Any]) -> list[dict[str, Any]]:
    """Each field removed, and each field given a value of another JSON type."""
    out = []
    for key in value:
        if key == "type":
            continue
        out.append({k: v for k, v in value.items() if k != key})
        wrong: Any = 12345 if not isinstance(value[key], int) or isinstance(value[key], bool) else "x"
        out.append({**value, key: wrong})
        if isinstance(value[key], str):
            out.append({**value, key: ["x"]})
    return out


#: (type, removed field): what the SDK's type requires but the API does not, accepted on purpose. A
#: local_shell_call_output answers its call by `call_id` alone; the SDK's required `id` is what led clients
#: to put the call_id there (case R45, openai/openai-agents-python#1855).
WIDER_THAN_SDK = {("local_shell_call_output", "id")}


@pytest.mark.parametrize(("side", "wire"), CASES, ids=[f"{s}-{t}" for s, t in CASES])
def test_what_the_sdk_refuses_we_refuse(side: str, wire: str) -> None:
    model = SDK[side][wire]
    refused = 0
    for value in _sdk_examples(model):
        for broken in _breakages(value):
            try:
                model.model_validate(broken)
            except ValidationError:
                refused += 1
                if (wire, *sorted(set(value) - set(broken))) in WIDER_THAN_SDK:
                    rp.parse_item(broken, side=side, provider="openai")  # type: ignore[arg-type]
                    continue
                with pytest.raises(rp.ItemError):
                    rp.parse_item(broken, side=side, provider="openai")  # type: ignore[arg-type]
    assert refused, "the SDK refused none of the broken instances: the test would prove nothing"


def test_malformed_known_item_is_one_precise_error_never_a_fallback() -> None:
    bad = {"type": "custom_tool_call", "call_id": "c", "name": "run", "input": {"sql": "x"}}
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(bad, side="output", provider="openai")
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("input",), "string_type")]
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({**bad, "type": "openai:custom_tool_call"}, side="output")
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("input",), "string_type")]


def test_unknown_slug_stays_opaque_and_an_unknown_openai_type_is_refused() -> None:
    item = {"type": "acme:thing", "x": 1}
    parsed = rp.parse_item(item)
    assert type(parsed) is rp.NamespacedItem and rp.dump_item(parsed) == item
    # Turn-3 decision: an un-prefixed type that is not one of OpenAI's is an unknown type in OpenAI mode
    # too (it was read as an opaque `openai:future_call` before), see tests/adversarial/test_trust.py.
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"type": "future_call", "x": 1}, provider="openai")
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("type",), "unknown_item_type")]


def test_input_and_output_forms_differ_where_openai_says_so() -> None:
    call = {"type": "shell_call", "call_id": "c", "action": {"commands": ["ls"]}}
    assert type(rp.parse_item(call, side="input", provider="openai")) is native.ShellCallParam
    with pytest.raises(rp.ItemError):  # an output item always carries id and status
        rp.parse_item(call, side="output", provider="openai")
    assert type(rp.parse_item({"type": "compaction_trigger"}, side="input", provider="openai")) is (
        native.CompactionTriggerParam
    )


ANNOTATIONS = [
    {"type": "file_citation", "file_id": "file_1", "index": 3, "filename": "a.pdf"},
    {"type": "container_file_citation", "container_id": "cntr", "file_id": "f", "start_index": 0, "end_index": 4,
     "filename": "a.csv"},
    {"type": "file_path", "file_id": "file_2", "index": 0},
]


@pytest.mark.parametrize("note", ANNOTATIONS, ids=lambda n: n["type"])
def test_openai_annotations_are_typed(note: dict[str, Any]) -> None:
    msg = {"type": "message", "id": "m", "status": "completed", "role": "assistant",
           "content": [{"type": "output_text", "text": "see", "annotations": [note]}]}
    parsed = rp.parse_item(msg, side="output", provider="openai")
    got = parsed.content[0].annotations[0]  # type: ignore[union-attr]
    assert type(got) is native.ANNOTATION_TYPES["openai:" + note["type"]]
    assert rp.dump_item(parsed) == msg
    broken = {k: v for k, v in note.items() if k != "file_id"}
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({**msg, "content": [{**msg["content"][0], "annotations": [broken]}]}, side="output",
                      provider="openai")
    assert [e["loc"] for e in err.value.errors] == [("content", 0, "annotations", 0, "file_id")]


def test_to_input_keeps_only_what_openais_input_form_declares() -> None:
    call = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "c", "name": "sql", "input": "SELECT 1",
            "status": "completed", "created_by": "u"}
    assert rp.dump_item(rp.to_input(call, provider="openai")) == {
        "type": "custom_tool_call", "id": "ctc_1", "call_id": "c", "name": "sql", "input": "SELECT 1"}
    sdk = responses.ResponseCustomToolCall.model_validate(call)
    assert rp.dump_item(rp.to_input(sdk))["type"] == "custom_tool_call"
    msg = {"type": "message", "role": "assistant",
           "content": [{"type": "output_text", "text": "x", "annotations": [], "logprobs": []}]}
    kept, _ = rp.prepare_replay([msg], target="openai", provider="openai")
    assert "logprobs" not in rp.dump_item(kept[0])["content"][0]  # type: ignore[index]
