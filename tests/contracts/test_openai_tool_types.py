"""OpenAI's tool types as the pinned SDK has them: OpenAI mode reads exactly those un-prefixed (in a request's
`tools`, its `tool_choice` and an `allowed_tools` choice's `tools`, a Response's echoed `tools`), and refuses
any other un-prefixed type as an unknown type naming the closest ones, never as an opaque `openai:` tool.

The known types are `replayable._native.OPENAI_TOOL_TYPES` (a tool) and `OPENAI_TOOL_CHOICE_TYPES` (a tool
choice; an `allowed_tools` choice lists tools, so it takes both); the SDK's are the `type` of each member of its
`ToolParam` and `ToolChoice` unions (the test extra pins the SDK exactly, so a new tool type fails here until
the library learns it)."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from conftest import full_response

import replayable as rp
from replayable._base import SPEC_TOOL_TYPES
from replayable._native import OPENAI_TOOL_CHOICE_TYPES, OPENAI_TOOL_TYPES

responses = pytest.importorskip("openai.types.responses", reason="the openai SDK (the test extra) is not installed")


def _member_types(union: Any) -> set[str]:
    """The `type` literal(s) of each member of an SDK union of TypedDicts (its tools, its tool choices)."""
    from pydantic import TypeAdapter  # noqa: PLC0415

    found: set[str] = set()
    for member in typing.get_args(union):
        if isinstance(member, str) or typing.get_origin(member) is typing.Literal:  # "auto", "none", "required"
            continue
        prop = TypeAdapter(member).json_schema().get("properties", {}).get("type", {})
        found |= {prop["const"]} if "const" in prop else set(prop.get("enum", ()))
    return found


def test_the_known_tool_and_tool_choice_types_are_the_pinned_sdks() -> None:
    from openai.types.responses import response_create_params, tool_param  # noqa: PLC0415

    tools = _member_types(tool_param.ToolParam)
    choices = _member_types(response_create_params.ToolChoice)
    assert {"web_search", "file_search", "mcp", "function"} <= tools  # the reading itself works
    assert {"allowed_tools", "function", "computer_use"} <= choices
    assert tools - SPEC_TOOL_TYPES == OPENAI_TOOL_TYPES
    assert choices - SPEC_TOOL_TYPES == OPENAI_TOOL_CHOICE_TYPES


@pytest.mark.parametrize("kind", sorted(OPENAI_TOOL_CHOICE_TYPES))
def test_every_openai_tool_choice_type_is_read_as_a_choice_in_openai_mode(kind: str) -> None:
    body = {"model": "m", "input": "hi", "tool_choice": {"type": kind}}
    parsed = rp.parse_request(body, provider="openai")
    assert rp.dump_request(parsed)["tool_choice"] == {"type": kind}


def test_a_choice_only_type_is_no_tool() -> None:
    """`computer_use` names a tool choice (OpenAI's `ToolChoiceTypes`), never a tool of `tools`."""
    with pytest.raises(rp.ItemError, match="unknown tool type 'computer_use'"):
        rp.parse_request({"model": "m", "input": "hi", "tools": [{"type": "computer_use"}]}, provider="openai")


@pytest.mark.parametrize("kind", sorted(OPENAI_TOOL_TYPES))
def test_every_openai_tool_type_is_read_in_openai_mode_only(kind: str) -> None:
    body = {"model": "m", "input": "hi", "tools": [{"type": kind}]}
    parsed = rp.parse_request(body, provider="openai")
    assert parsed.tools[0].type == f"openai:{kind}"  # type: ignore[index]
    assert rp.dump_request(parsed)["tools"] == [{"type": kind}]  # dumped back as OpenAI spells it
    with pytest.raises(rp.ItemError, match="OpenAI's hosted tool types"):
        rp.parse_request(body)  # strictly it is no Open Responses tool, and the message names the reading


UNKNOWN = "web_serch"


def _bodies() -> list[tuple[str, dict[str, Any]]]:
    tool = {"type": "function", "name": "f", "parameters": {"type": "object"}}
    allowed = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": UNKNOWN}]}
    return [
        ("tools.1", {"model": "m", "input": "hi", "tools": [tool, {"type": UNKNOWN}]}),
        ("tool_choice", {"model": "m", "input": "hi", "tools": [tool], "tool_choice": {"type": UNKNOWN}}),
        ("tool_choice.tools.0", {"model": "m", "input": "hi", "tools": [tool], "tool_choice": allowed}),
    ]


@pytest.mark.parametrize(("where", "body"), _bodies(), ids=[w for w, _ in _bodies()])
def test_an_unknown_tool_type_is_refused_in_openai_mode_naming_the_closest(where: str, body: dict[str, Any]) -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_request(body, provider="openai")
    (error,) = err.value.errors
    assert ".".join(map(str, error["loc"])) == where and error["type"] == "namespaced_type"
    what = "tool" if where.startswith("tools") else "tool choice"
    assert f"unknown {what} type '{UNKNOWN}' (did you mean 'web_search'" in error["msg"]
    found = rp.check_transcript(body, provider="openai").violations
    assert ("body_invalid", None, "/" + where.replace(".", "/")) in [(v.code, v.index, v.path) for v in found]


def test_a_responses_echoed_tool_of_an_unknown_type_is_refused_in_openai_mode() -> None:
    response = full_response()
    response["tools"] = [*response["tools"], {"type": UNKNOWN}]
    with pytest.raises(rp.ItemError, match=f"unknown tool type '{UNKNOWN}'"):
        rp.parse_response(response, provider="openai")
    response["tools"][-1] = {"type": "web_search_2025_08_26"}  # a dated spelling is OpenAI's own
    assert rp.parse_response(response, provider="openai").tools[-1].type == "openai:web_search_2025_08_26"


def test_a_provider_prefixed_tool_stays_opaque_in_both_modes() -> None:
    body = {"model": "m", "input": "hi", "tools": [{"type": "acme:lookup", "x": 1}]}
    for provider in (None, "openai"):
        parsed = rp.parse_request(body, provider=provider)  # type: ignore[arg-type]
        assert rp.dump_request(parsed)["tools"] == body["tools"]
        assert rp.check_transcript(body, provider=provider).ok  # type: ignore[arg-type]
