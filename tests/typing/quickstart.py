"""The seed loop as a program: build a typed request, dump it, parse the whole Response, gate its calls
and build the next request with function_call_output items (the README's Quickstart itself is run and
type-checked as written by tests/contracts/test_readme.py). Type-checked with `mypy --strict` by
tests/cli/test_quickstart.py, and run by it (with a canned response instead of an HTTP call)."""

from __future__ import annotations

from typing import Any

import replayable as rp
from replayable.parts import InputTextContent

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


def get_weather(city: str) -> str:
    return f"18C in {city}"


TOOLS = [rp.FunctionToolParam(name="get_weather", description="Current weather", parameters=WEATHER, strict=True)]


def first_request() -> rp.CreateResponseBody:
    return rp.CreateResponseBody(
        model="gpt-5",
        input=[rp.UserMessageParam(content=[InputTextContent(text="Weather in Paris?")])],
        tools=list(TOOLS),
        tool_choice="auto",
    )


def next_request(response: rp.Response, tools: list[rp.FunctionToolParam]) -> rp.CreateResponseBody:
    """Run every call the gate allows; answer the others with an error text, never by executing them."""
    outputs: list[rp.InputItem] = []
    schemas = {t.name: t.parameters for t in tools}
    for item in response.output:
        if not isinstance(item, rp.FunctionCall):
            continue
        verdict = rp.gate(item, schemas.get(item.name))
        if verdict.ok:
            result = get_weather(**verdict.arguments)
        else:
            result = f"refused: {verdict.message}"
        outputs.append(rp.FunctionCallOutputParam(call_id=item.call_id, output=result))
    return rp.CreateResponseBody(
        model="gpt-5", previous_response_id=response.id, input=outputs, tools=list(tools)
    )


def loop(canned_response: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    request = first_request()
    payload: dict[str, Any] = rp.dump_request(request)  # POST this with any HTTP client or the openai SDK
    response = rp.parse_response(canned_response)
    follow_up = next_request(response, TOOLS)
    report = rp.check_transcript(follow_up, previous=response)
    assert report.ok and not report.external, report
    return payload, rp.dump_request(follow_up)
