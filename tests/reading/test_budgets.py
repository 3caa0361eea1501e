"""The reader's memory budget and number rules, on every text path: `loads`
on text and bytes, JSONL (one text and an iterable of lines), items, item lists, arguments, `gate`,
request bodies, and the command line (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable._arguments import ArgumentsError, parse_arguments
from replayable._json import (
    BYTES_PER_CONTAINER,
    CONTAINERS_BASE,
    JSONError,
    container_budget,
    iter_jsonl,
    loads,
    too_many_containers,
)


def dense(size: int) -> bytes:
    """An opaque item holding `[[],[],...]`: about one array per 3 bytes, the reported shape."""
    n = size // 3
    return b'{"type":"acme:blob","data":[' + b"[]," * n + b"[]]}"


def at_budget(size: int) -> bytes:
    """An opaque item with exactly as many arrays as the budget allows for its size."""
    pad = b"[" + b" " * (BYTES_PER_CONTAINER - 3) + b"],"  # one array per BYTES_PER_CONTAINER bytes
    return b'{"type":"acme:blob","data":[' + pad * (size // BYTES_PER_CONTAINER) + b"[]]}"


BIG = 3 * CONTAINERS_BASE * BYTES_PER_CONTAINER  # past the free allowance


# ------------------------------------------------------------------------------------ the container budget


def test_the_budget_grows_with_the_size() -> None:
    assert container_budget(0) == CONTAINERS_BASE
    assert container_budget(BYTES_PER_CONTAINER * 1000) == CONTAINERS_BASE + 1000


def test_a_dense_text_is_refused_before_it_is_built() -> None:
    raw = dense(BIG)
    with pytest.raises(JSONError) as exc:
        loads(raw)
    assert exc.value.reason == "too_many_containers"
    assert "memory budget" in str(exc.value)
    with pytest.raises(JSONError) as exc:
        loads(raw.decode())
    assert exc.value.reason == "too_many_containers"


def test_a_text_at_the_budget_is_read() -> None:
    raw = at_budget(BIG)
    assert too_many_containers(raw) is None
    assert loads(raw)["type"] == "acme:blob"


def test_small_texts_are_never_counted() -> None:
    raw = b"[" + b"[]," * (CONTAINERS_BASE // 2 - 1) + b"[]]"
    assert len(raw) < 2 * CONTAINERS_BASE
    assert len(loads(raw)) == CONTAINERS_BASE // 2


def test_brackets_inside_strings_do_not_count() -> None:
    """A string full of brackets (code, an escaped JSON text) costs memory as a string, not as arrays."""
    inner = json.dumps([[]] * 20000)  # escaped inside a string: no arrays once read
    raw = json.dumps({"type": "function_call_output", "call_id": "c", "output": inner}).encode()
    assert raw.count(b"[") > container_budget(len(raw))
    assert too_many_containers(raw) is None
    assert loads(raw)["output"] == inner


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.integers(), st.text(alphabet='[]{}"\\ab\n'), st.booleans()),
        lambda kids: st.one_of(
            st.lists(kids, max_size=4), st.dictionaries(st.text(alphabet='[{"\\k'), kids, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_the_count_outside_strings_is_exact(value: Any) -> None:
    """The byte-level count equals the arrays and objects in the value, whatever the strings hold."""
    from replayable._json import _containers_outside_strings  # noqa: PLC0415  the function under test

    def count(v: Any) -> int:
        if isinstance(v, list):
            return 1 + sum(map(count, v))
        if isinstance(v, dict):
            return 1 + sum(map(count, v.values()))
        return 0

    raw = json.dumps(value).encode()
    assert _containers_outside_strings(raw) == count(value)


def test_every_text_path_refuses_a_dense_text(tmp_path: Path) -> None:
    raw = dense(BIG)
    with pytest.raises(JSONError, match="memory budget"):
        list(iter_jsonl(b'{"type":"message","role":"user","content":"hi"}\n' + raw + b"\n"))
    with pytest.raises(JSONError, match="memory budget"):
        list(iter_jsonl([raw]))
    with pytest.raises(rp.ItemError) as exc:
        rp.parse_item(raw)
    assert exc.value.errors[0]["type"] == "too_many_containers"
    with pytest.raises(rp.ItemError):
        rp.parse_items(b"[" + raw + b"]")
    args = json.dumps([[]] * (BIG // 3))
    with pytest.raises(ArgumentsError) as aexc:
        parse_arguments(args)
    assert aexc.value.reason == "too_many_containers"
    call = {"type": "function_call", "call_id": "c", "name": "t", "arguments": args, "status": "completed"}
    assert rp.gate(call, {}).reason == "arguments_parse"


@pytest.mark.parametrize("container", ["json", "jsonl"])
def test_the_cli_refuses_with_exit_2_and_one_line(tmp_path: Path, container: str) -> None:
    user = b'{"type":"message","role":"user","content":"hi"}'
    raw = dense(BIG)
    path = tmp_path / f"t.{container}"
    path.write_bytes(b"[" + user + b"," + raw + b"]" if container == "json" else user + b"\n" + raw + b"\n")
    proc = subprocess.run([sys.executable, "-m", "replayable", "check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "memory budget" in lines[0]


# --------------------------------------------------------------------------------------------- numbers

TINY = ["1e-400", "-1e-400", "2.5E-999", "0." + "0" * 400 + "1", "-0.00000001e-330"]


@pytest.mark.parametrize("literal", TINY)
def test_a_nonzero_number_that_reads_as_zero_is_refused(literal: str) -> None:
    for text in (literal, f"[{literal}]", f'{{"a": {literal}}}'):
        for data in (text, text.encode()):
            with pytest.raises(JSONError) as exc:
                loads(data)
            assert exc.value.reason == "non_finite_number"
            assert "reads as 0.0" in str(exc.value)


@pytest.mark.parametrize("literal", ["0e-400", "-0.0e-999", "0." + "0" * 400, "1e-320", "5e-324"])
def test_zero_and_subnormal_numbers_are_read(literal: str) -> None:
    assert loads(literal) == float(literal)


def test_a_tiny_number_inside_a_string_is_text() -> None:
    assert loads(r'{"a": "1e-400", "b": "\" 1e-400", "c": 0.5e-300}') == {"a": "1e-400", "b": '" 1e-400', "c": 0.5e-300}


def test_every_path_refuses_a_number_that_reads_as_zero(tmp_path: Path) -> None:
    item = '{"type":"acme:x","v":1e-400}'
    with pytest.raises(JSONError, match="reads as 0.0"):
        list(iter_jsonl(item + "\n"))
    with pytest.raises(JSONError, match="reads as 0.0"):
        list(iter_jsonl([item.encode()]))
    with pytest.raises(rp.ItemError):
        rp.parse_item(item)
    with pytest.raises(rp.ItemError):
        rp.parse_items(("[" + item + "]").encode())
    with pytest.raises(ArgumentsError) as exc:
        parse_arguments('{"x": 1e-400}')
    assert exc.value.reason == "non_finite_number"
    call = {"type": "function_call", "call_id": "c", "name": "t", "arguments": '{"x": 1e-400}', "status": "completed"}
    assert rp.gate(call, {}).reason == "arguments_parse"
    path = tmp_path / "t.json"
    path.write_text('[{"type":"message","role":"user","content":"hi"},' + item + "]")
    proc = subprocess.run([sys.executable, "-m", "replayable", "check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "reads as 0.0" in proc.stderr


@pytest.mark.parametrize(
    "body",
    [
        {"model": "m", "input": "hi", "temperature": 1, "top_p": 1, "presence_penalty": 0, "frequency_penalty": -2},
        {"model": "m", "input": "hi", "temperature": 0.5, "top_p": 1.0},
    ],
)
def test_request_numbers_round_trip_unchanged(body: dict[str, Any]) -> None:
    """`1` dumps back as `1` and `1.0` as `1.0`: nothing read changes on a round trip."""
    dumped = rp.dump_request(rp.parse_request(body))
    assert dumped == body
    assert [type(dumped[k]) for k in body] == [type(v) for v in body.values()]
    assert json.dumps(rp.dump_request(rp.parse_request(json.dumps(body)))) == json.dumps(body)


def test_a_number_field_refuses_non_numbers_with_one_error() -> None:
    for bad in (True, "1", None if False else [1]):
        with pytest.raises(rp.ItemError) as exc:
            rp.parse_request({"model": "m", "input": "hi", "temperature": bad})
        assert [e["type"] for e in exc.value.errors] == ["float_type"]


def test_bundles_and_parser_agree_on_inherited_fields() -> None:
    """`openai:` items inherit `status` (a string or null) from the opaque item model; the bundles say
    so, on both sides."""
    import jsonschema_rs  # noqa: PLC0415

    for side in ("input", "output"):
        validator = jsonschema_rs.validator_for(rp.json_schema(side))
        for status in (1, ["x"], {"a": 1}):
            item = {"type": "openai:custom_tool_call", "call_id": "c1", "name": "t", "input": "x", "status": status}
            assert not validator.is_valid(item)
            with pytest.raises(rp.ItemError):
                rp.parse_item(item, side=side)  # type: ignore[call-overload]
