"""A provider item with a known payload (`openai:web_search_call`) is read by its own model wherever an item
union holds it: `parse_item`, the request and response bodies, their compaction forms and the stream's
`response.output_item.*` events give one verdict. A body once kept a malformed typed item as an opaque
`NamespacedItem` that `parse_item` and `check_transcript` refused (spec: Open Responses 2026-04-24,
"Extending items")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import compact_response, full_response

import replayable as rp
from replayable._native import INPUT_TYPES, OUTPUT_TYPES
from replayable.stream import parse_event

RESPONSE = {**full_response(), "tools": []}


def _request(item: dict[str, Any], provider: rp.Provider) -> Any:
    return rp.parse_request({"model": "m", "input": [item]}, provider=provider).input[0]


def _compact_request(item: dict[str, Any], provider: rp.Provider) -> Any:
    return rp.parse_compact_request({"model": "m", "input": [item]}, provider=provider).input[0]


def _response(item: dict[str, Any], provider: rp.Provider) -> Any:
    return rp.parse_response({**RESPONSE, "output": [item]}, provider=provider).output[0]


def _compact_response(item: dict[str, Any], provider: rp.Provider) -> Any:
    body = compact_response(item)
    return rp.parse_compact_response(body, provider=provider).output[0]


def _output_item_done(item: dict[str, Any], provider: rp.Provider) -> Any:
    return parse_event(
        {"type": "response.output_item.done", "sequence_number": 1, "output_index": 0, "item": item}, provider=provider
    ).item


BODIES: dict[str, tuple[rp.Side, Callable[[dict[str, Any], rp.Provider], Any]]] = {
    "request": ("input", _request),
    "compact request": ("input", _compact_request),
    "response": ("output", _response),
    "compact response": ("output", _compact_response),
    "response.output_item.done": ("output", _output_item_done),
}


#: The doors that keep an item as the JSON they read (once it reads as its model), not as the model.
STREAM = frozenset({"response.output_item.done"})


def _verdict(read: Callable[[], Any]) -> str:
    """The class read, or `refused`: the one thing every door must agree on."""
    try:
        return type(read()).__name__
    except ValueError:  # ItemError, ModelError, StreamError: each a ValueError naming the item's fields
        return "refused"


def _types(side: rp.Side) -> list[str]:
    return sorted(INPUT_TYPES if side == "input" else OUTPUT_TYPES)


CASES = [(door, t) for door, (side, _) in BODIES.items() for t in _types(side)]


def test_the_cases_cover_every_typed_item() -> None:
    assert {t for _, t in CASES} == set(INPUT_TYPES) | set(OUTPUT_TYPES)
    assert len(CASES) > 40


@pytest.mark.parametrize(("door", "item_type"), CASES)
@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_bare_typed_item_gets_the_verdict_parse_item_gives(door: str, item_type: str, provider: rp.Provider) -> None:
    side, read = BODIES[door]
    item = {"type": item_type}
    expected = _verdict(lambda: rp.parse_item(item, side=side, provider=provider))
    assert _verdict(lambda: read(item, provider)) == expected


@pytest.mark.parametrize("door", list(BODIES))
def test_a_malformed_web_search_call_is_refused_naming_its_fields(door: str) -> None:
    side, read = BODIES[door]
    with pytest.raises(ValueError, match=r"(input|output|item)\.(0\.)?action"):
        read({"type": "openai:web_search_call", "id": "ws_1", "status": "completed"}, None)
    with pytest.raises(rp.ItemError, match="action"):
        rp.parse_item({"type": "openai:web_search_call", "id": "ws_1", "status": "completed"}, side=side)


@pytest.mark.parametrize("door", list(BODIES))
def test_a_well_formed_typed_item_is_its_own_model_in_every_body(door: str) -> None:
    side, read = BODIES[door]
    item = {
        "type": "openai:web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "weather"},
    }
    got = read(item, None)
    if door in STREAM:
        assert got == item  # a stream event keeps its item as read, once it reads as its model
        return
    assert type(got) is type(rp.parse_item(item, side=side))
    assert type(got) is not rp.NamespacedItem and isinstance(got, rp.NamespacedItem)
    assert got.model_dump(mode="json", exclude_unset=True) == item


@pytest.mark.parametrize("door", list(BODIES))
def test_an_unknown_provider_item_stays_opaque_and_whole(door: str) -> None:
    side, read = BODIES[door]
    item = {"type": "acme:thing", "id": "t_1", "payload": {"n": [1, 2]}}
    got = read(item, None)
    if door in STREAM:
        assert got == item
        return
    assert type(got) is rp.NamespacedItem
    assert got.model_dump(mode="json", exclude_unset=True) == item


@pytest.mark.parametrize("door", ["request", "response"])
def test_openai_mode_refuses_a_type_openai_does_not_have(door: str) -> None:
    side, read = BODIES[door]
    with pytest.raises(ValueError, match="web_serch_call"):
        read({"type": "web_serch_call", "id": "ws_1"}, "openai")
    with pytest.raises(rp.ItemError, match="web_serch_call"):
        rp.parse_item({"type": "web_serch_call", "id": "ws_1"}, side=side, provider="openai")


@pytest.mark.parametrize("door", ["request", "response"])
def test_the_verdict_of_a_body_is_the_check_s(door: str) -> None:
    side, read = BODIES[door]
    item = {"type": "openai:web_search_call", "id": "ws_1", "status": "completed"}
    body = {"model": "m", "input": [item]} if door == "request" else {**RESPONSE, "output": [item]}
    report = rp.check_transcript(body)
    assert [str(v.code) for v in report.violations] == ["item_invalid"]
    with pytest.raises(ValueError):
        read(item, None)
