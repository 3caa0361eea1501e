"""Conformance with the official Open Responses OpenAPI document, 2026-04-24.

The document is read from the `openresponses-py` package data (a test dependency), never copied here.
Both directions, per item variant (`ItemParam` on the input side, `ItemField` on the output side) and
per content-part schema:

- instances generated with hypothesis-jsonschema from the official schema parse with our models and
  dump back equal;
- what we dump (instances generated from our exported bundle, extension types left out) validates
  against the official schema of its variant.

The only allowed differences are the deliberate ones listed in schemas/README.md; `expected_difference`
names each, and a value it names must be refused by our models for that reason.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from pydantic import BaseModel

import replayable as rp
from replayable._generated.open_responses import (
    input_file,
    input_file_param,
    input_image,
    input_image_param,
    input_text,
    input_video,
    output_text,
    output_text_param,
    reasoning_text,
    refusal,
    summary_text,
    summary_text_param,
    text_content,
)

OFFICIAL = json.loads((resources.files("openresponses") / "openapi" / "2026-04-24.json").read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = OFFICIAL["components"]["schemas"]
# Modest example counts keep the suite fast; the large official schemas (Message) dominate the time.
HYPO = settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def official(name: str) -> dict[str, Any]:
    """One official component as a standalone schema (its `$ref`s resolve inside `components`)."""
    return {"$ref": f"#/components/schemas/{name}", "components": {"schemas": SCHEMAS}}


def variants(union: str) -> list[str]:
    return [ref["$ref"].rsplit("/", 1)[1] for ref in SCHEMAS[union]["oneOf"]]


INPUT_VARIANTS = variants("ItemParam")
OUTPUT_VARIANTS = variants("ItemField")

#: Official content-part schema -> our model, per side.
PARTS: dict[str, tuple[str, type[BaseModel]]] = {
    "InputTextContentParam": ("input", input_text.InputTextContent),
    "InputImageContentParamAutoParam": ("input", input_image_param.InputImageContentParam),
    "InputFileContentParam": ("input", input_file_param.InputFileContentParam),
    "OutputTextContentParam": ("input", output_text_param.OutputTextContentParam),
    "RefusalContentParam": ("input", refusal.RefusalContent),
    "ReasoningSummaryContentParam": ("input", summary_text_param.SummaryTextContentParam),
    "InputVideoContent": ("input", input_video.InputVideoContent),
    "InputTextContent": ("output", input_text.InputTextContent),
    "OutputTextContent": ("output", output_text.OutputTextContent),
    "TextContent": ("output", text_content.TextContent),
    "SummaryTextContent": ("output", summary_text.SummaryTextContent),
    "ReasoningTextContent": ("output", reasoning_text.ReasoningTextContent),
    "RefusalContent": ("output", refusal.RefusalContent),
    "InputImageContent": ("output", input_image.InputImageContent),
    "InputFileContent": ("output", input_file.InputFileContent),
}


def _walk(x: Any) -> Any:
    yield x
    if isinstance(x, dict):
        for v in x.values():
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def expected_difference(value: Any, side: str) -> tuple[str, ...] | None:
    """The deliberate difference (schemas/README.md) that makes our models refuse an official instance,
    as the error codes that may report it."""
    if side == "input" and isinstance(value, dict) and "id" in value and set(value) - {"id", "type"}:
        if value.get("type") in (None, "item_reference"):
            # item_reference is closed; without `type`, extra keys mean it is not a reference at all
            return ("extra_forbidden",) if value.get("type") else ("missing_type",)
    for node in _walk(value):
        if isinstance(node, dict) and node.get("type") == "url_citation":
            if any(isinstance(node.get(k), int) and node[k] < 0 for k in ("start_index", "end_index")):
                return ("greater_than_equal",)  # citation offsets are never negative
    return None


def _official_instance_round_trips(value: Any, side: str, parse: Any, dump: Any) -> None:
    reason = expected_difference(value, side)
    if reason is not None:
        with pytest.raises((rp.ItemError, ValueError)) as info:
            parse(value)
        assert any(code in str(info.value) for code in reason), str(info.value)
        return
    assert dump(parse(value)) == value


@pytest.mark.slow
@pytest.mark.parametrize(
    ("side", "name"), [("input", n) for n in INPUT_VARIANTS] + [("output", n) for n in OUTPUT_VARIANTS]
)
def test_official_items_parse_and_dump_back_equal(side: str, name: str) -> None:
    @HYPO
    @given(from_schema(official(name)))
    def check(value: Any) -> None:
        _official_instance_round_trips(value, side, lambda v: rp.parse_item(v, side=side), rp.dump_item)

    check()


@pytest.mark.parametrize("name", sorted(PARTS))
def test_official_content_parts_parse_and_dump_back_equal(name: str) -> None:
    side, model = PARTS[name]

    @HYPO
    @given(from_schema(official(name)))
    def check(value: Any) -> None:
        _official_instance_round_trips(
            value,
            side,
            model.model_validate,
            lambda m: m.model_dump(mode="json", by_alias=True, exclude_unset=True),
        )

    check()


def test_the_union_variants_are_the_ones_we_model() -> None:
    assert sorted(INPUT_VARIANTS) == sorted(
        [
            "ItemReferenceParam",
            "ReasoningItemParam",
            "CompactionSummaryItemParam",
            "UserMessageItemParam",
            "SystemMessageItemParam",
            "DeveloperMessageItemParam",
            "AssistantMessageItemParam",
            "FunctionCallItemParam",
            "FunctionCallOutputItemParam",
        ]
    )
    assert sorted(OUTPUT_VARIANTS) == sorted(
        ["Message", "FunctionCall", "FunctionCallOutput", "ReasoningBody", "CompactionBody"]
    )


def test_each_deliberate_difference_is_real() -> None:
    """The differences `expected_difference` allows are refused by us and accepted by the document."""
    ref = {"id": "msg_1", "type": "item_reference", "note": "x"}
    assert jsonschema_rs.validator_for(official("ItemReferenceParam")).is_valid(ref)
    with pytest.raises(rp.ItemError, match="extra_forbidden"):
        rp.parse_item(ref)
    cit = {"type": "url_citation", "url": "u", "start_index": -1, "end_index": 2, "title": "t"}
    msg = {
        "type": "message",
        "id": "m",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "x", "annotations": [cit]}],
    }
    assert jsonschema_rs.validator_for(official("Message")).is_valid(msg)
    with pytest.raises(rp.ItemError, match="greater_than_equal"):
        rp.parse_item(msg, side="output")
    ext = {"type": "acme:search_result", "id": "sr_1"}
    assert not jsonschema_rs.validator_for(official("ItemField")).is_valid(ext)
    assert rp.parse_item(ext, side="output").slug == "acme"


# --- what we dump validates against the official schema of its variant -------------------------------

INPUT_OFFICIAL = {
    "function_call": "FunctionCallItemParam",
    "function_call_output": "FunctionCallOutputItemParam",
    "reasoning": "ReasoningItemParam",
    "compaction": "CompactionSummaryItemParam",
    "item_reference": "ItemReferenceParam",
    None: "ItemReferenceParam",
}
ROLE_OFFICIAL = {
    "user": "UserMessageItemParam",
    "system": "SystemMessageItemParam",
    "developer": "DeveloperMessageItemParam",
    "assistant": "AssistantMessageItemParam",
}
OUTPUT_OFFICIAL = {
    "message": "Message",
    "function_call": "FunctionCall",
    "function_call_output": "FunctionCallOutput",
    "reasoning": "ReasoningBody",
    "compaction": "CompactionBody",
}
VALIDATORS = {
    name: jsonschema_rs.validator_for(official(name))
    for name in {*INPUT_OFFICIAL.values(), *ROLE_OFFICIAL.values(), *OUTPUT_OFFICIAL.values(), *PARTS}
}


def portable(doc: dict[str, Any], root: str | None = None) -> dict[str, Any]:
    """Our bundle without the extension branches (namespaced items and parts have no official schema)."""
    doc = json.loads(json.dumps(doc))
    for name in ("NamespacedPart", "UnknownOpenaiPart", "FileCitation", "ContainerFileCitation", "FilePath"):  # OpenAI's too
        if name in doc["$defs"]:
            doc["$defs"][name] = False
    if root is not None:
        return {"$ref": f"#/$defs/{root}", "$defs": doc["$defs"]}
    spec = ("#/$defs/InputItemKnown", "#/$defs/OutputItemKnown", "#/$defs/ItemReferenceParam")
    doc["oneOf"] = [b for b in doc["oneOf"] if b["$ref"] in spec]  # not NamespacedItem nor OpenAI's own items
    return doc


def official_variant(item: dict[str, Any], side: str) -> str:
    if side == "output":
        return OUTPUT_OFFICIAL[item["type"]]
    if item.get("type") == "message":
        return ROLE_OFFICIAL[item["role"]]
    return INPUT_OFFICIAL[item.get("type")]


@pytest.mark.parametrize("side", ["input", "output"])
def test_our_dumped_items_validate_against_the_official_variant(side: str) -> None:
    @settings(HYPO, max_examples=30)
    @given(from_schema(portable(rp.json_schema(side))))
    def check(value: Any) -> None:
        try:
            item = rp.parse_item(value, side=side)
        except rp.ItemError:
            return  # an integral float for an integer: not ours to dump (see test_schema.py)
        dumped = rp.dump_item(item)
        name = official_variant(dumped, side)
        errors = [e.message for e in VALIDATORS[name].iter_errors(dumped)]
        assert not errors, f"{name}: {errors[:3]} for {json.dumps(dumped)[:300]}"

    check()


OUR_PART_DEF = {
    "InputTextContentParam": "InputTextContent",
    "InputImageContentParamAutoParam": "InputImageContentParam",
    "InputFileContentParam": "InputFileContentParam",
    "OutputTextContentParam": "OutputTextContentParam",
    "RefusalContentParam": "RefusalContent",
    "ReasoningSummaryContentParam": "SummaryTextContentParam",
    "InputVideoContent": "InputVideoContent",
    "InputTextContent": "InputTextContent",
    "OutputTextContent": "OutputTextContent",
    "TextContent": "TextContent",
    "SummaryTextContent": "SummaryTextContent",
    "ReasoningTextContent": "ReasoningTextContent",
    "RefusalContent": "RefusalContent",
    "InputImageContent": "InputImageContent",
    "InputFileContent": "InputFileContent",
}


def _bundle_with(side: str, name: str) -> dict[str, Any]:
    for s in (side, "input", "output"):
        doc = rp.json_schema(s)
        if name in doc["$defs"]:
            return doc
    raise AssertionError(f"no bundle holds {name}")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PARTS))
def test_our_dumped_parts_validate_against_the_official_part(name: str) -> None:
    side, model = PARTS[name]
    ours = OUR_PART_DEF[name]

    @HYPO
    @given(from_schema(portable(_bundle_with(side, ours), ours)))
    def check(value: Any) -> None:
        try:
            part = model.model_validate(value)
        except ValueError:
            return  # an integral float for an integer (see test_schema.py)
        dumped = part.model_dump(mode="json", by_alias=True, exclude_unset=True)
        errors = [e.message for e in VALIDATORS[name].iter_errors(dumped)]
        assert not errors, f"{name}: {errors[:3]} for {json.dumps(dumped)[:300]}"

    check()
