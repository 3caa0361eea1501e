"""`gate` decides a schema refusal with `is_valid` and lists its failures on first access:
the verdict, the failures and everything a `GateResult` offers are those of an eagerly built one."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

import replayable as rp
from replayable import _arguments
from replayable._arguments import schema_failures

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["region"],
    "properties": {"region": {"type": "string", "enum": ["apac", "emea"]}, "limit": {"type": "integer"}},
}


def call(arguments: Any) -> dict[str, Any]:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"type": "function_call", "call_id": "c1", "name": "f", "status": "completed", "arguments": text}


@pytest.mark.parametrize(
    "arguments",
    [{"region": "global"}, {"limit": 3}, {"region": "apac", "x": 1}, {"region": 5, "limit": "ten"}],
    ids=["enum", "required", "additional", "types"],
)
def test_the_failures_are_the_schema_failures_of_the_arguments(arguments: dict[str, Any]) -> None:
    result = rp.gate(call(arguments), SCHEMA)
    assert result.reason == rp.GateReason.ARGUMENTS_SCHEMA and not result.ok
    expected = tuple(schema_failures(arguments, SCHEMA))
    assert expected and result.failures == expected
    assert result.failures is result.failures  # listed once
    assert result.message == "; ".join(f"{f.path or '/'} fails {f.keyword}: {f.message}" for f in expected)


def test_a_refusal_equals_one_built_eagerly_and_survives_copy_and_pickle() -> None:
    arguments = {"region": "global"}
    lazy = rp.gate(call(arguments), SCHEMA)
    eager = rp.GateResult(rp.GateReason.ARGUMENTS_SCHEMA, tuple(schema_failures(arguments, SCHEMA)), arguments)
    assert lazy == eager and repr(lazy) == repr(eager)
    for other in (
        rp.gate(call(arguments), SCHEMA),
        copy.copy(lazy),
        copy.deepcopy(lazy),
        pickle.loads(pickle.dumps(lazy)),
    ):
        assert other == eager
    match lazy:
        case rp.GateResult(reason, failures):
            assert reason == rp.GateReason.ARGUMENTS_SCHEMA and failures == eager.failures
    with pytest.raises(TypeError):
        hash(lazy)


def test_changing_the_arguments_or_the_depth_setting_afterwards_changes_no_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arguments = {"region": "global", "limit": 1}
    result = rp.gate(call(arguments), SCHEMA)
    result.arguments["region"] = "apac"  # the caller's copy, changed before the failures are read
    monkeypatch.setattr(_arguments, "MAX_DEPTH", 1)
    assert [(f.path, f.keyword) for f in result.failures] == [("/region", "enum")]


def test_failures_can_be_set_as_on_the_dataclass_it_was() -> None:
    result = rp.gate(call({"region": "global"}), SCHEMA)
    result.failures = ()
    assert result.failures == () and result.message == ""
    ok = rp.gate(call({"region": "apac"}), SCHEMA)
    assert ok.ok and ok.failures == () and ok.arguments == {"region": "apac"}
