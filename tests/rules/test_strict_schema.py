"""The strict tool lint follows OpenAI's strict-mode subset (`replayable._strict_schema`):
typed nodes, supported keywords, documented limits; the library and the CLI agree on which tools are
linted as strict (`strict` true or absent on a Responses function tool)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable._cli import main
from replayable._strict_schema import (
    LARGE_ENUM,
    LARGE_ENUM_BUDGET,
    MAX_ENUM_VALUES,
    MAX_NESTING,
    MAX_PROPERTIES,
    MAX_STRING_BUDGET,
)


def closed(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False, **extra}


def tool(parameters: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "function", "name": "t", "parameters": parameters, **extra}


def findings(t: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(v.code), v.path) for v in rp.check_tool(t)]


TYPELESS = {
    "empty_anyof_branch": (closed({"x": {"anyOf": [{}, {"type": "string"}]}}), "/parameters/properties/x/anyOf/0"),
    "items_empty": (closed({"x": {"type": "array", "items": {}}}), "/parameters/properties/x/items"),
    "typeless_property": (closed({"x": {"description": "anything"}}), "/parameters/properties/x"),
    "typeless_nested_property": (
        closed({"o": closed({"y": {"description": "anything"}})}),
        "/parameters/properties/o/properties/y",
    ),
    "true_schema": (closed({"x": True}), "/parameters/properties/x"),
    "typeless_definition": (
        closed({"x": {"$ref": "#/$defs/D"}}, **{"$defs": {"D": {"description": "d"}}}),
        "/parameters/$defs/D",
    ),
}


@pytest.mark.parametrize("name", TYPELESS)
def test_every_node_needs_a_type(name: str) -> None:
    schema, path = TYPELESS[name]
    assert ("strict_schema_type_missing", path) in findings(tool(schema, strict=True))
    assert ("strict_schema_type_missing", path) in findings(tool(schema))  # strict absent: linted as strict
    assert findings(tool(schema, strict=False)) == []


def test_type_stand_ins_are_typed() -> None:
    schema = closed(
        {
            "r": {"$ref": "#/$defs/D"},
            "e": {"enum": ["a", "b"]},
            "c": {"const": "x"},
            "u": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
        **{"$defs": {"D": {"type": "string", "description": "d", "title": "D"}}},
    )
    assert findings(tool(schema, strict=True)) == []


@pytest.mark.parametrize(
    ("keyword", "value"),
    [
        ("minLength", 1),
        ("maxLength", 9),
        ("uniqueItems", True),
        ("default", "x"),
        ("allOf", [{"type": "string"}]),
        ("oneOf", [{"type": "string"}]),
        ("not", {"type": "integer"}),
        ("patternProperties", {"^a": {"type": "string"}}),
    ],
)
def test_keywords_outside_the_subset(keyword: str, value: Any) -> None:
    schema = closed({"x": {"type": "string", keyword: value}})
    assert ("strict_schema_keyword", f"/parameters/properties/x/{keyword}") in findings(tool(schema, strict=True))
    assert findings(tool(schema, strict=False)) == []


def test_supported_keywords_pass() -> None:
    schema = closed(
        {
            "s": {"type": "string", "pattern": "^a", "format": "date", "description": "d", "title": "S"},
            "n": {"type": "number", "minimum": 0, "maximum": 9, "exclusiveMinimum": -1, "multipleOf": 0.5},
            "a": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3},
        }
    )
    assert findings(tool(schema, strict=True)) == []


def nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = closed({"leaf": {"type": "string"}})
    for _ in range(levels - 1):
        node = closed({"o": node})
    return node


def test_nesting_limit() -> None:
    assert findings(tool(nested(MAX_NESTING), strict=True)) == []
    got = findings(tool(nested(MAX_NESTING + 1), strict=True))
    assert [c for c, _ in got] == ["strict_schema_limit"]


def test_property_count_limit() -> None:
    many = closed({f"p{n}": {"type": "integer"} for n in range(MAX_PROPERTIES + 1)})
    assert ("strict_schema_limit", "/parameters") in findings(tool(many, strict=True))
    assert findings(tool(closed({f"p{n}": {"type": "integer"} for n in range(100)}), strict=True)) == []


def test_enum_limits() -> None:
    values = [f"v{n}" for n in range(MAX_ENUM_VALUES + 1)]
    assert ("strict_schema_limit", "/parameters") in findings(
        tool(closed({"e": {"type": "string", "enum": values}}), strict=True)
    )
    long_values = ["x" * (LARGE_ENUM_BUDGET // LARGE_ENUM + 1) + str(n) for n in range(LARGE_ENUM + 1)]
    got = findings(tool(closed({"e": {"type": "string", "enum": long_values}}), strict=True))
    assert ("strict_schema_limit", "/parameters/properties/e/enum") in got
    budget = closed({"k" * (MAX_STRING_BUDGET // 2): {"type": "string"}, "j" * (MAX_STRING_BUDGET // 2 + 1): {"type": "string"}})
    assert ("strict_schema_limit", "/parameters") in findings(tool(budget, strict=True))


def test_chat_completions_and_mcp_tools() -> None:
    typeless = closed({"x": {}})
    chat = {"type": "function", "function": {"name": "t", "parameters": typeless, "strict": True}}
    assert ("strict_schema_type_missing", "/function/parameters/properties/x") in findings(chat)
    chat["function"]["strict"] = False  # type: ignore[index]
    assert findings(chat) == []
    # MCP inputSchema is not sent as a strict function: only the closed-object rules apply to it
    assert findings({"name": "t", "inputSchema": typeless}) == []


@pytest.mark.parametrize("strict", [True, None, False])
def test_library_and_cli_agree_on_strict(strict: bool | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = {} if strict is None else {"strict": strict}
    t = tool(closed({"x": {"anyOf": [{}, {"type": "string"}]}}), **extra)
    library = {c for c, _ in findings(t)}
    f = tmp_path / "body.json"
    f.write_text(json.dumps({"model": "m", "input": [{"type": "message", "role": "user", "content": "hi"}], "tools": [t]}))
    code = main(["check", str(f), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    cli = {v["code"] for v in report["violations"]}
    assert library == cli
    assert (code == 1) == (strict is not False) == ("strict_schema_type_missing" in cli)


def test_every_strict_message_is_its_codes_template() -> None:
    """The strict-mode findings are `Finding`s whose text is their code's template filled with their
    parameters (`replayable._codes`), in each wording the lint uses; the `strict_fallback` note of a tool
    whose `strict` OpenAI decides quotes the strict finding it stands for, word for word."""
    from replayable._codes import code_info  # noqa: PLC0415

    deep = nested(MAX_NESTING + 1)
    schema = closed(
        {
            "typeless": {},
            "boolean": True,
            "keyword": {"type": "string", "default": "x"},
            "big": {"type": "string", "enum": ["x" * (LARGE_ENUM_BUDGET // LARGE_ENUM + 1) + str(n) for n in range(LARGE_ENUM + 1)]},
            "deep": deep,
        }
    )
    report = rp.check_tool(tool(schema, strict=True))
    strict = [v for v in report if str(v.code).startswith("strict_schema_")]
    assert len(strict) == 5
    for v in strict:  # the parameters name what the message says; no sentence made elsewhere is passed through
        assert isinstance(v, rp.Finding) and "detail" not in v.params and "text" not in v.params
        assert v.message == code_info(v.code).render(v.params)
    messages = {(str(v.code), v.path): v.message for v in strict}
    assert messages[("strict_schema_type_missing", "/parameters/properties/typeless")] == (
        "schema at /parameters/properties/typeless has no 'type' (strict mode needs one on every node; use "
        "strict: false for an untyped value)"
    )
    assert messages[("strict_schema_type_missing", "/parameters/properties/boolean")] == (
        "schema at /parameters/properties/boolean is true: strict mode needs a typed schema"
    )
    assert messages[("strict_schema_keyword", "/parameters/properties/keyword/default")] == (
        "schema at /parameters/properties/keyword uses 'default', which strict mode does not support"
    )
    chars = sum(len("x" * (LARGE_ENUM_BUDGET // LARGE_ENUM + 1) + str(n)) for n in range(LARGE_ENUM + 1))
    assert messages[("strict_schema_limit", "/parameters/properties/big/enum")] == (
        f"enum at /parameters/properties/big has {LARGE_ENUM + 1} values of {chars} characters in all: more than "
        f"{LARGE_ENUM} string values may total at most {LARGE_ENUM_BUDGET}"
    )
    (nesting,) = [m for (c, _), m in messages.items() if c == "strict_schema_limit" and "nest" in m]
    assert nesting.startswith(f"objects nest {MAX_NESTING + 2} levels deep (at /parameters/properties/deep/")  # root + deep
    assert nesting.endswith(f"); strict mode allows {MAX_NESTING}")
    many = closed({f"p{n}": {"type": "integer"} for n in range(MAX_PROPERTIES + 1)})
    (limit,) = [v.message for v in rp.check_tool(tool(many, strict=True)) if v.code == "strict_schema_limit"]
    assert limit == f"the schema has {MAX_PROPERTIES + 1} object properties; strict mode allows {MAX_PROPERTIES}"

    notes = rp.check_tool(tool(closed({"typeless": {}})), provider="openai").notes
    (note,) = [n for n in notes if n.code == "strict_fallback"]
    cause = messages[("strict_schema_type_missing", "/parameters/properties/typeless")]
    assert f"(strict_schema_type_missing: {cause}): OpenAI falls back" in note.message
