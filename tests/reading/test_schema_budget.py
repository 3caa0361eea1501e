"""The schema work budget: no tool schema and arguments together crash the process
(jsonschema-rs's error walk overflowing the native stack) or take exponential time. Every public entry
point that checks arguments against a schema (`gate`, `check_transcript(tools=)`,
`agents.check_arguments`, `check_card`, `replayable check --tools`) runs in a child process, so that a
crash is a failed test, not a dead test run."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable._arguments import SchemaError, compile_schema, schema_failures
from replayable._schema_budget import MAX_SCHEMA_STEPS, schema_profile

# The worker: reads one JSON case per line ({"schema", "arguments"}), drives every entry point and
# answers one JSON line per case: what each returned, or the class of a library error. Anything else
# (a stray exception) is reported as "stray:<class>"; a crash ends the process.
WORKER = r"""
import json, os, sys, tempfile
import replayable as rp
from replayable import agents
from replayable._cli import main

def outcome(fn):
    try:
        return fn()
    except rp.ReplayableError as exc:
        return "error:" + type(exc).__name__
    except BaseException as exc:
        return "stray:" + type(exc).__name__ + ":" + str(exc)[:200]

tmp = tempfile.mkdtemp()
for line in sys.stdin:
    case = json.loads(line)
    schema, text = case["schema"], case["arguments"]
    tool = {"type": "function", "name": "t", "parameters": schema}
    call = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": text, "status": "completed"}
    out = {"type": "function_call_output", "call_id": "c1", "output": "ok"}
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    action = {"type": "function_call", "turn_id": "t1", "call_id": "c1", "name": "t", "arguments": value}
    card = {"type": "message", "role": "assistant", "status": "completed", "phase": "final_answer",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}
    result = {
        "gate": outcome(lambda: rp.gate(call, tool).reason.value),
        "transcript": outcome(lambda: [v.code.value for v in rp.check_transcript([call, out], tools=[tool]).violations]),
        "agents": outcome(lambda: [f.keyword for f in agents.check_arguments(action, tool).failures]),
        "card": outcome(lambda: [f.keyword for f in agents.check_card([card], schema).failures]),
    }
    tpath, tools_path = os.path.join(tmp, "t.json"), os.path.join(tmp, "tools.json")
    with open(tpath, "w") as f:
        json.dump([call, out], f)
    with open(tools_path, "w") as f:
        json.dump([tool], f)
    null = open(os.devnull, "w")
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = null
    try:
        result["cli"] = outcome(lambda: main(["check", tpath, "--tools", tools_path]))
    finally:
        sys.stdout, sys.stderr = saved
    print(json.dumps(result), flush=True)
"""


# Seconds one case may take in the child (all five entry points); a bounded check takes well under one.
CASE_TIMEOUT = 60


class Worker:
    """One child process that checks cases until it is closed (or dies)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def check(self, schema: Any, arguments: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if self.proc.poll() is not None:  # died on an earlier case: start afresh
            self.__init__()  # type: ignore[misc]
            assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"schema": schema, "arguments": arguments}) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], CASE_TIMEOUT)
        if not ready:  # a hang is a failure too (the child is ended, a fresh one takes the next case)
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"no answer within {CASE_TIMEOUT} s on schema {json.dumps(schema)[:300]}")
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            stderr = self.proc.stderr.read() if self.proc.stderr else ""
            pytest.fail(f"the child process died (exit {code}) on schema {json.dumps(schema)[:300]}: {stderr[-500:]}")
        result: dict[str, Any] = json.loads(line)
        stray = {k: v for k, v in result.items() if isinstance(v, str) and v.startswith("stray:")}
        assert not stray, f"stray exceptions {stray} on schema {json.dumps(schema)[:300]}"
        return result

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def worker() -> Any:
    w = Worker()
    yield w
    w.close()


def chain(n: int, keyword: str = "allOf", width: int = 1, step: str = "properties") -> dict[str, Any]:
    """`n` subschemas, each entering the next through `keyword` (`width` times), the last recursing
    into the value (one level down) back to the root: the shape of a reported 4.6 KB schema."""
    defs: dict[str, Any] = {f"d{i}": {keyword: [{"$ref": f"#/$defs/d{i + 1}"}] * width} for i in range(n)}
    if step == "properties":
        defs[f"d{n}"] = {"type": "object", "properties": {"a": {"$ref": "#"}}, "required": ["a"]}
    else:
        defs[f"d{n}"] = {"type": "array", "items": {"$ref": "#"}, "minItems": 1}
    return {"type": "object", "allOf": [{"$ref": "#/$defs/d0"}], "$defs": defs}


def nested(depth: int, step: str = "properties") -> Any:
    """`{"a": {"a": ... {}}}` (or `[[...[]]]`) `depth` levels deep: fails `chain` at the bottom."""
    value: Any = {} if step == "properties" else []
    for _ in range(depth - 1):
        value = {"a": value} if step == "properties" else [value]
    return {"a": value} if step != "properties" else value


# ---------------------------------------------------------------------------------------------- the crash


ISSUE_SCHEMA = chain(104)


def test_the_reported_schema_is_between_4_and_5_kb() -> None:
    assert 4000 < len(json.dumps(ISSUE_SCHEMA)) < 5000


def test_the_reported_case_crashes_jsonschema_rs_unbounded() -> None:
    """The reproduction: jsonschema-rs's evaluation of the reported schema and 64-level arguments dies
    with SIGSEGV (a negative exit status in the child). If a later jsonschema-rs stops crashing, this
    test says so and the budget may be raised."""
    code = (
        "import json, sys, jsonschema_rs\n"
        "schema, value = json.loads(sys.stdin.read())\n"
        "jsonschema_rs.Draft202012Validator(schema).evaluate(value).errors()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps([ISSUE_SCHEMA, nested(64)]), capture_output=True, text=True
    )
    if proc.returncode == 0:
        pytest.skip("this jsonschema-rs no longer overflows its stack on the reported case")
    assert proc.returncode < 0  # killed by a signal


def test_every_entry_point_refuses_the_reported_case_in_a_child(worker: Worker) -> None:
    result = worker.check(ISSUE_SCHEMA, json.dumps(nested(64)))
    assert result["gate"] == "arguments_schema"
    assert result["transcript"] == ["arguments_schema"]
    assert result["agents"] == ["schema_work"]
    assert result["card"] == ["schema_work"]
    assert result["cli"] == 1


def test_the_refusal_names_the_budget() -> None:
    failures = schema_failures(nested(64), ISSUE_SCHEMA)
    assert [f.keyword for f in failures] == ["schema_work"]
    assert failures[0].path == ""
    assert str(MAX_SCHEMA_STEPS) in failures[0].message
    result = rp.gate(
        {
            "type": "function_call",
            "call_id": "c",
            "name": "t",
            "arguments": json.dumps(nested(64)),
            "status": "completed",
        },
        ISSUE_SCHEMA,
    )
    assert result.reason == "arguments_schema"
    assert result.failures[0].keyword == "schema_work"


def test_shallow_values_are_still_checked_by_the_schema() -> None:
    """Within the budget the schema decides as always: the same chain passes a value that satisfies
    it and names the real failure of one that does not."""
    profile = schema_profile(ISSUE_SCHEMA)
    assert profile is not None and 1 <= profile.limit < 64
    assert [f.keyword for f in schema_failures(nested(profile.limit), ISSUE_SCHEMA)] == ["required"]
    assert [f.keyword for f in schema_failures(nested(profile.limit + 1), ISSUE_SCHEMA)] == ["schema_work"]


def test_ordinary_recursive_schemas_keep_the_full_depth() -> None:
    """A binary tree (two properties that both recurse) is linear work, not 2^depth: no limit."""
    tree = {"type": "object", "properties": {"left": {"$ref": "#"}, "right": {"$ref": "#"}}}
    assert schema_profile(tree) is None
    value: Any = {}
    for _ in range(63):
        value = {"left": value, "right": {}}
    assert schema_failures(value, tree) == []


def test_an_exponential_schema_is_refused_outright() -> None:
    """Each step names the next twice: 2^40 evaluations for any value. A `SchemaError` at compile."""
    with pytest.raises(SchemaError, match="work budget"):
        compile_schema(chain(40, "anyOf", 2))


@pytest.mark.parametrize(
    "schema",
    [
        {"allOf": [{"$ref": "#"}]},
        {"$ref": "#"},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"},
        {"not": {"$ref": "#"}},
    ],
)
def test_a_schema_that_enters_itself_in_place_is_refused(schema: Any) -> None:
    with pytest.raises(SchemaError, match="endless loop"):
        compile_schema(schema)


def test_references_through_ids_anchors_and_registry_are_followed() -> None:
    """The bound follows every kind of in-process reference (a chain through them is still seen)."""
    reg = {"https://example.com/next.json": {"$anchor": "n", "allOf": [{"$ref": "https://example.com/root.json"}]}}
    schema = {
        "$id": "https://example.com/root.json",
        "$defs": {"x": {"$anchor": "x", "properties": {"a": {"$ref": "next.json#n"}}}},
        "$ref": "#x",
    }
    assert schema_profile(schema, reg) is None  # a recursion that steps into the value each time
    looping = {
        "https://example.com/a.json": {"$anchor": "n", "allOf": [{"$ref": "b.json"}]},
        "https://example.com/b.json": {"anyOf": [{"$ref": "a.json#n"}]},
    }
    with pytest.raises(SchemaError, match="endless loop"):
        compile_schema({"$ref": "https://example.com/a.json"}, registry=looping)


# ----------------------------------------------------------------------------------- hostile, fuzzed

STEPS = st.sampled_from(["properties", "items"])


@st.composite
def hostile_schema(draw: st.DrawFn) -> tuple[Any, str]:
    step = draw(STEPS)
    kind = draw(st.sampled_from(["chain", "nest", "enum", "pattern", "unevaluated", "dynamic"]))
    if kind == "chain":
        n = draw(st.integers(0, 160))
        width = draw(st.integers(1, 3))
        return chain(n, draw(st.sampled_from(["allOf", "anyOf", "oneOf"])), width, step), step
    if kind == "nest":  # literal nesting, no references: up to the schema depth limit
        leaf: Any = (
            {"type": "object", "properties": {"a": {"$ref": "#"}}, "required": ["a"]}
            if step == "properties"
            else {"type": "array", "items": {"$ref": "#"}, "minItems": 1}
        )
        for _ in range(draw(st.integers(0, 60))):
            leaf = {draw(st.sampled_from(["allOf", "anyOf", "oneOf"])): [leaf, {"type": ["object", "array"]}]}
        return leaf, step
    if kind == "enum":
        size = draw(st.integers(1, 5000))
        return {"type": "object", "properties": {"a": {"enum": list(range(size)) + [{"a": [1] * 20}]}}}, step
    if kind == "pattern":
        return {
            "type": "object",
            "patternProperties": {"^a": {"$ref": "#"}, "a$": {"$ref": "#"}, "": {"$ref": "#"}},
        }, step
    if kind == "unevaluated":
        return {"type": "object", "allOf": [{"properties": {"a": {"$ref": "#"}}}], "unevaluatedProperties": False}, step
    return {
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"a": {"$dynamicRef": "#node"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
    }, step


@st.composite
def hostile_arguments(draw: st.DrawFn, step: str) -> str:
    depth = draw(st.integers(0, 70))
    value = nested(depth, step) if depth else {}
    if draw(st.booleans()):
        value = {"a": value, "b": draw(st.sampled_from([1, "x", None, [], {"a": 1}]))}
    text = json.dumps(value)
    if draw(st.integers(0, 9)) == 0:
        text = text[: len(text) // 2]  # not JSON at all
    return text


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_schemas_and_arguments_never_crash_any_entry_point(worker: Worker, data: st.DataObject) -> None:
    schema, step = data.draw(hostile_schema())
    text = data.draw(hostile_arguments(step))
    result = worker.check(schema, text)
    if isinstance(result["gate"], str) and result["gate"].startswith("error:"):
        # a schema over the budget is refused the same way everywhere
        assert result["transcript"] == ["invalid_tool"] or result["transcript"] == "error:SchemaError"
        assert result["agents"] == result["card"] == "error:SchemaError"
    assert result["cli"] in (0, 1, 2)


# ------------------------------------------------------------------------------------------- format


FORMAT_DRAFTS = [
    None,
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-06/schema#",
    "http://json-schema.org/draft-04/schema#",
]


@pytest.mark.parametrize("draft", FORMAT_DRAFTS)
@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("email", "a@example.com", "not an email"),
        ("date-time", "2024-01-02T03:04:05Z", "yesterday"),
        ("ipv4", "10.0.0.1", "10.0.0.999"),
    ],
)
def test_format_is_asserted_under_every_draft(draft: str | None, fmt: str, good: str, bad: str) -> None:
    """One tool, one verdict: a known `format` is asserted whatever `$schema` says (or without it),
    through gate and check_transcript alike."""
    schema: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "string", "format": fmt}}}
    if draft is not None:
        schema["$schema"] = draft
    assert schema_failures({"x": good}, schema) == []
    failures = schema_failures({"x": bad}, schema)
    assert [(f.path, f.keyword) for f in failures] == [("/x", "format")]
    call = {
        "type": "function_call",
        "call_id": "c",
        "name": "t",
        "arguments": json.dumps({"x": bad}),
        "status": "completed",
    }
    assert rp.gate(call, schema).reason == "arguments_schema"
    tool = {"type": "function", "name": "t", "parameters": schema}
    out = {"type": "function_call_output", "call_id": "c", "output": "ok"}
    codes = [v.code for v in rp.check_transcript([call, out], tools=[tool]).violations]
    assert codes == ["arguments_schema"]


def test_an_unknown_format_is_not_asserted() -> None:
    """Formats the validator does not know are annotations (as every draft says): no verdict flips."""
    schema = {"type": "object", "properties": {"x": {"type": "string", "format": "x-acme-id"}}}
    assert schema_failures({"x": "anything"}, schema) == []


def test_a_big_value_that_fails_everywhere_gets_one_failure() -> None:
    """jsonschema-rs builds every error at once: past `MAX_LISTED_VALUES` values only the verdict is
    given (one `schema_work` failure), never hundreds of times the value's size in failures."""
    from replayable._schema_budget import MAX_LISTED_VALUES  # noqa: PLC0415

    schema = {"type": "object", "properties": {"data": {"items": {"type": "integer"}}}}
    small = {"data": ["x"] * 10}
    assert [f.path for f in schema_failures(small, schema)] == [f"/data/{i}" for i in range(10)]
    big = {"data": ["x"] * (MAX_LISTED_VALUES + 1)}
    failures = schema_failures(big, schema)
    assert [(f.path, f.keyword) for f in failures] == [("", "schema_work")]
    assert schema_failures({"data": [1] * (MAX_LISTED_VALUES + 1)}, schema) == []  # the verdict stands
    call = {"type": "function_call", "call_id": "c", "name": "t", "arguments": json.dumps(big), "status": "completed"}
    assert rp.gate(call, schema).reason == "arguments_schema"
