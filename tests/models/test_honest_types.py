"""Honest types: no runtime value outside its annotation.

Every recorded response in ../shared/corpus is parsed in OpenAI mode, and every field of every model in
it (the response, its output items, parts, annotations, usage, text, reasoning, tools, ...) is checked
against the field's own annotation: a key OpenAI left out reads as None where the annotation says
`| None`, or as pydantic's `MISSING` only where the annotation names `MISSING`. Dumps stay exact.
"""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, Literal, Union

import pytest
from conftest import corpus_files, load, needs_corpus
from pydantic import BaseModel
from pydantic.experimental.missing_sentinel import MISSING
from typing_extensions import TypeAliasType

import replayable as rp


def matches(value: Any, annotation: Any) -> bool:
    """Does `value` fit `annotation` (unions, Optional, Literal, Annotated, list, dict, type aliases,
    classes, `Any`, pydantic's `MISSING`)? An int fits `float`, as in Python's numeric tower."""
    if annotation is Any or annotation is object:
        return True
    if annotation is MISSING:
        return value is MISSING
    if annotation is None or annotation is type(None):
        return value is None
    if isinstance(annotation, TypeAliasType):
        return matches(value, annotation.__value__)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Annotated:
        return matches(value, args[0])
    if origin in (Union, types.UnionType):
        return any(matches(value, a) for a in args)
    if origin is Literal:
        return any(value == a and type(value) is type(a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(matches(v, args[0]) for v in value) if args else isinstance(value, list)
    if origin is dict:
        return isinstance(value, dict) and (not args or all(matches(v, args[1]) for v in value.values()))
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    return True  # a form this walk does not know: not judged


def walk(model: BaseModel, path: tuple[Any, ...] = ()) -> list[str]:
    """Every field of `model` and of the models inside it whose value is outside its annotation."""
    bad: list[str] = []
    for name, field in type(model).model_fields.items():
        value = model.__dict__.get(name, MISSING)
        if not matches(value, field.annotation):
            bad.append(f"{'.'.join(map(str, (*path, name)))}: {value!r} is not {field.annotation}")
        for sub, sub_path in _models_in(value, (*path, name)):
            bad += walk(sub, sub_path)
    return bad


def _models_in(value: Any, path: tuple[Any, ...]) -> list[tuple[BaseModel, tuple[Any, ...]]]:
    if isinstance(value, BaseModel):
        return [(value, path)]
    if isinstance(value, list):
        return [m for i, v in enumerate(value) for m in _models_in(v, (*path, i))]
    if isinstance(value, dict):
        return [m for k, v in value.items() for m in _models_in(v, (*path, k))]
    return []


RESPONSES = [p for p in corpus_files("response")]


@needs_corpus
@pytest.mark.parametrize("path", RESPONSES, ids=lambda p: p.stem)
def test_every_field_of_a_recorded_response_fits_its_annotation(path: Any) -> None:
    body = load(path)["body"]
    if body.get("object") == "response.compaction":
        compact = rp.parse_compact_response(body, provider="openai")
        assert walk(compact) == []
        return
    resp = rp.parse_response(body, provider="openai")
    assert isinstance(resp, rp.OpenAIResponse)
    assert walk(resp) == []
    assert rp.dump_response(resp) == body  # a key left out is still not dumped


def test_a_key_openai_leaves_out_reads_as_none_and_is_not_dumped() -> None:
    body = {
        "id": "r",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "output": [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "text": {"verbosity": "low"},
        "reasoning": {},
    }
    resp = rp.parse_response(body, provider="openai")
    assert resp.usage is None and resp.status is None and resp.completed_at is None
    assert resp.text is not None and resp.text.format is None
    assert resp.reasoning is not None and resp.reasoning.effort is None
    usage_total = resp.usage.total_tokens if resp.usage is not None else 0  # the README's pattern
    assert usage_total == 0
    assert walk(resp) == []
    assert rp.dump_response(resp) == body


def test_the_walk_finds_a_value_outside_its_annotation() -> None:
    resp = rp.parse_response(
        {
            "id": "r",
            "object": "response",
            "created_at": 1,
            "model": "m",
            "output": [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        },
        provider="openai",
    )
    forged = resp.model_construct(**{**resp.__dict__, "usage": MISSING})
    assert [line.split(":")[0] for line in walk(forged)] == ["usage"]
