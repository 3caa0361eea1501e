"""The exported JSON Schema bundles: shape, staleness, the CLI, and agreement with the models.

Differential rule: for every value, jsonschema-rs against `json_schema(side)` and
`parse_item(value, side=side)` (strict mode) give the same verdict. Sources of values: the fixtures,
the recorded corpus, hand-written union edge cases, and hypothesis (instances generated from the bundle
itself, then mutated). The one difference JSON Schema cannot avoid (an integral float such as `1.0` for an
integer field) has its own test and is listed in schemas/README.md.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import CASES, CHECKOUT, FIXTURES, ROOT, corpus_items, load, needs_checkout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import replayable as rp
from replayable import schema as schema_mod
from replayable._cli import main as cli_main

SIDES = ("input", "output")
DIST = ROOT / "schemas" / "dist"
NAMESPACED = r"^[A-Za-z0-9][A-Za-z0-9._-]*:[A-Za-z0-9][A-Za-z0-9._:/-]*$"


def validator(side: str) -> Any:
    return jsonschema_rs.validator_for(rp.json_schema(side))


VALIDATORS = {side: validator(side) for side in SIDES}


def by_model(value: Any, side: str) -> bool:
    try:
        rp.parse_item(value, side=side)
    except rp.ItemError:
        return False
    return True


def assert_same_verdict(value: Any, side: str) -> None:
    by_schema = VALIDATORS[side].is_valid(value)
    model = by_model(value, side)
    assert by_schema == model, f"{side}: schema says {by_schema}, models say {model}: {json.dumps(value)[:300]}"


# --- shape of the bundles ---------------------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
def test_bundle_is_self_contained_2020_12(side: str) -> None:
    doc = rp.json_schema(side)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema_rs.meta.validate(doc)  # a valid 2020-12 schema
    text = json.dumps(doc)
    refs = [r for r in _values(doc, "$ref")]
    assert refs and all(r.startswith("#/$defs/") for r in refs), "every $ref points inside the bundle"
    assert all(r.removeprefix("#/$defs/") in doc["$defs"] for r in refs)
    assert ".json" not in "".join(refs)
    assert "customBasePath" not in text and "$id" not in text


@pytest.mark.parametrize(
    ("side", "mapping"),
    [
        (
            "input",
            {
                "message": "#/$defs/InputMessage",
                "function_call": "#/$defs/FunctionCallParam",
                "function_call_output": "#/$defs/FunctionCallOutputParam",
                "reasoning": "#/$defs/ReasoningParam",
                "compaction": "#/$defs/CompactionParam",
            },
        ),
        (
            "output",
            {
                "message": "#/$defs/Message",
                "function_call": "#/$defs/FunctionCall",
                "function_call_output": "#/$defs/FunctionCallOutput",
                "reasoning": "#/$defs/Reasoning",
                "compaction": "#/$defs/Compaction",
            },
        ),
    ],
)
def test_root_is_known_oneof_with_mapping_then_namespaced(side: str, mapping: dict[str, str]) -> None:
    doc = rp.json_schema(side)
    branches = [b["$ref"] for b in doc["oneOf"]]
    known = doc["$defs"][branches[0].removeprefix("#/$defs/")]
    assert known["discriminator"] == {"propertyName": "type", "mapping": mapping}
    assert sorted(b["$ref"] for b in known["oneOf"]) == sorted(mapping.values())
    # the namespaced branch, split in two where OpenAI's items are typed: other slugs, then `openai:` types
    # that have no typed model (scripts/ts narrows on both; together they accept what NamespacedItem did)
    assert branches[-2:] == ["#/$defs/NamespacedItem", "#/$defs/UnknownOpenaiItem"]
    assert doc["$defs"]["NamespacedItem"]["properties"]["type"]["pattern"] == NAMESPACED
    if side == "input":
        assert branches[1] == "#/$defs/ItemReferenceParam"
        assert doc["$defs"]["ItemReferenceParam"]["additionalProperties"] is False
        roles = doc["$defs"]["InputMessage"]["discriminator"]
        assert roles["propertyName"] == "role"
        assert roles["mapping"]["assistant"] == "#/$defs/AssistantMessageParam"
    else:
        assert "ItemReferenceParam" not in doc["$defs"]
        assert not any(name.endswith("Param") for name in doc["$defs"]), "output bundle holds output forms only"


@pytest.mark.parametrize("side", SIDES)
def test_descriptions_kept_and_cross_item_rules_stated(side: str) -> None:
    doc = rp.json_schema(side)
    for rule in schema_mod.CROSS_ITEM_RULES:
        assert rule in doc["description"]
    for name, node in doc["$defs"].items():
        assert node.get("description"), f"$defs/{name} has a description"
        for prop, sub in node.get("properties", {}).items():
            assert sub.get("description"), f"$defs/{name}.{prop} has a description"


@needs_checkout
def test_schemas_readme_lists_the_cross_item_rules() -> None:
    readme = " ".join((ROOT / "schemas" / "README.md").read_text(encoding="utf-8").split())
    for rule in schema_mod.CROSS_ITEM_RULES:
        assert rule.split(";")[0] in readme, f"schemas/README.md lists the cross-item rule {rule!r}"


def test_json_schema_returns_a_fresh_copy_and_rejects_unknown_sides() -> None:
    a = rp.json_schema("output")
    a["$defs"].clear()
    assert rp.json_schema("output")["$defs"], "callers cannot corrupt the cached bundle"
    with pytest.raises(ValueError, match="side must be one of"):
        rp.json_schema("sideways")
    with pytest.raises(ValueError, match="side must be one of"):
        schema_mod.bundle("sideways")


@needs_checkout
def test_dist_is_fresh() -> None:
    """schemas/dist/ is what bundling schemas/ gives now (CI also runs bundle_schemas.py --check), and
    the installed package (editable or a wheel) serves exactly those bundles."""
    assert sorted(p.stem for p in DIST.glob("*.json")) == sorted(schema_mod.sides())
    for side in schema_mod.sides():
        committed = json.loads((DIST / f"{side}.json").read_text(encoding="utf-8"))
        assert committed == schema_mod.bundle(side, ROOT / "schemas"), f"schemas/dist/{side}.json is stale"
        assert rp.json_schema(side) == committed


@needs_checkout
def test_bundle_script_check_mode() -> None:
    res = subprocess.run(
        [sys.executable, "scripts/bundle_schemas.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "up to date" in res.stdout


@needs_checkout
def test_bundle_refuses_two_types_with_one_name(tmp_path: Path) -> None:
    pkg = tmp_path / "open_responses"
    pkg.mkdir()
    for f in (ROOT / "schemas" / "open_responses").glob("*.json"):
        (pkg / f.name).write_text(f.read_text())
    clash = json.loads((pkg / "compaction.json").read_text())
    clash["title"] = "Message"
    (pkg / "compaction.json").write_text(json.dumps(clash))
    with pytest.raises(ValueError, match="two schemas export the name 'Message'"):
        schema_mod.bundle("output", tmp_path)


@pytest.mark.skipif("agents-events" not in schema_mod.sides(), reason="no Agents API schemas yet")
def test_agents_sides_exported() -> None:
    doc = rp.json_schema("agents-events")
    assert doc["$ref"] == "#/$defs/SessionEvent"
    assert "UnknownSessionEvent" in doc["$defs"]
    for rule in schema_mod.AGENTS_RULES:
        assert rule in doc["description"]
    v = jsonschema_rs.validator_for(doc)
    events = [
        json.loads(line) for line in (FIXTURES / "agents" / "session_stream.jsonl").read_text().splitlines() if line
    ]
    assert events
    for ev in events:
        assert v.is_valid(ev), ev


# --- CLI ----------------------------------------------------------------------------------------------


def test_cli_schema_prints_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["schema", "--side", "output"]) == 0
    assert json.loads(capsys.readouterr().out) == rp.json_schema("output")
    out = tmp_path / "input.json"
    assert cli_main(["schema", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == json.dumps(rp.json_schema("input"), indent=2, ensure_ascii=False) + "\n"
    if CHECKOUT:  # and it is the committed bundle, byte for byte
        assert out.read_text(encoding="utf-8") == (DIST / "input.json").read_text(encoding="utf-8")
    assert cli_main(["schema", "--side", "nowhere"]) == 2
    assert "invalid choice" in capsys.readouterr().err


# --- differential: fixtures, corpus, edge cases ------------------------------------------------------


def _fixture_items() -> Iterator[tuple[str, Any]]:
    for p in sorted(CASES.glob("*.json")):
        case = load(p)
        value = case.get("input", case.get("item"))
        if case.get("kind") == "request":  # a whole request body: its items
            value = value["input"]
        if value is None or (isinstance(value, dict) and value.get("type") == "function" and "parameters" in value):
            continue
        for item in value if isinstance(value, list) else [value]:
            yield p.stem, item


FIXTURE_ITEMS = list(_fixture_items())

EDGE_CASES: list[tuple[str, Any]] = [
    ("input", {"type": "message", "role": "user", "content": "hi"}),
    ("input", {"type": "message", "role": "tool", "content": "hi"}),
    ("input", {"role": "user", "content": "hi"}),  # shorthand needs provider="openai"
    ("input", {"id": "msg_1"}),
    ("input", {"id": "msg_1", "type": None}),
    ("input", {"id": "msg_1", "type": "item_reference"}),
    ("input", {"id": "msg_1", "type": "item_reference", "extra": 1}),
    ("input", {"id": 5}),
    ("output", {"id": "msg_1"}),
    ("output", {"id": "msg_1", "type": "item_reference"}),
    ("input", {"type": ""}),
    ("input", {"type": 5}),
    ("input", {"type": None}),
    ("input", {"type": "web_search_call", "id": "ws_1"}),
    ("input", {"type": "openai:web_search_call", "id": "ws_1", "status": "completed", "action": {}}),
    ("output", {"type": "acme:search_result", "hits": []}),
    ("output", {"type": ":x"}),
    ("output", {"type": "acme:"}),
    ("output", {"type": "acme:x\n"}),
    ("input", {"type": "function_call", "call_id": "c", "name": "f", "arguments": {"a": 1}}),
    ("input", {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "zzz": [1]}),
    ("input", {"type": "function_call", "call_id": "", "name": "f", "arguments": "{}"}),
    ("input", {"type": "function_call", "call_id": "c" * 65, "name": "f", "arguments": "{}"}),
    ("input", {"type": "function_call", "call_id": "\U0001f600" * 64, "name": "f", "arguments": "{}"}),
    ("input", {"type": "function_call", "call_id": "c", "name": "f\n", "arguments": "{}"}),
    ("input", {"type": "function_call", "call_id": "c", "name": "f g", "arguments": "{}"}),
    ("input", {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": None}),
    ("input", {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": "done"}),
    ("output", {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": "completed"}),
    ("input", {"type": "message", "role": "assistant", "content": "x", "phase": None}),
    ("input", {"type": "message", "role": "assistant", "content": "x", "phase": "final_answer"}),
    ("input", {"type": "reasoning", "summary": [], "content": None}),
    ("input", {"type": "reasoning", "summary": [], "content": []}),
    ("input", {"type": "function_call_output", "call_id": "c", "output": [{"type": "input_video", "video_url": "v"}]}),
    (
        "output",
        {
            "type": "function_call_output",
            "id": "o",
            "status": "completed",
            "call_id": "c",
            "output": [{"type": "input_video", "video_url": "v"}],
        },
    ),
    ("input", {"type": "function_call_output", "call_id": "c", "output": {"ok": True}}),
    ("input", {"type": "message", "role": "user", "content": [{"type": "output_text", "text": "x"}]}),
    ("input", {"type": "message", "role": "user", "content": [{"text": "x"}]}),
    (
        "output",
        {
            "type": "message",
            "id": "m",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "x", "annotations": [{"type": "openai:file_citation"}]}],
        },
    ),
    (
        "output",
        {
            "type": "message",
            "id": "m",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "x", "annotations": [{"type": "file_citation"}]}],
        },
    ),
    (
        "output",
        {"type": "message", "id": "m", "status": "completed", "role": "assistant", "phase": None, "content": []},
    ),
    (
        "output",
        {"type": "message", "id": "m", "status": "completed", "role": "assistant", "content": [], "logprob": True},
    ),
    ("input", [{"type": "message"}]),
    ("input", "message"),
    ("input", None),
    ("output", 5),
]


@pytest.mark.parametrize(("source", "item"), FIXTURE_ITEMS, ids=[s for s, _ in FIXTURE_ITEMS])
@pytest.mark.parametrize("side", SIDES)
def test_fixture_items_same_verdict(side: str, source: str, item: Any) -> None:
    assert_same_verdict(item, side)


def test_corpus_items_same_verdict() -> None:
    items = corpus_items()
    if not items:
        pytest.skip("no recorded corpus beside this checkout")
    for _, side, _, item in items:
        assert_same_verdict(item, side)


@pytest.mark.parametrize(("side", "item"), EDGE_CASES, ids=[json.dumps(x)[:40] for _, x in EDGE_CASES])
def test_edge_cases_same_verdict(side: str, item: Any) -> None:
    assert_same_verdict(item, side)


def test_integral_float_for_integer_is_the_documented_difference() -> None:
    """JSON Schema's data model has one number type: 1.0 *is* an integer there, the strict models refuse it."""
    cit = {"type": "url_citation", "url": "u", "start_index": 1.0, "end_index": 2, "title": "t"}
    item = {
        "type": "message",
        "id": "m",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "x", "annotations": [cit]}],
    }
    assert VALIDATORS["output"].is_valid(item)
    assert not by_model(item, "output")
    assert by_model(json.loads(json.dumps(item).replace("1.0", "1")), "output")


@needs_checkout
def test_schemas_readme_lists_the_integral_float_difference() -> None:
    assert "1.0" in (ROOT / "schemas" / "README.md").read_text(encoding="utf-8")


# --- differential: hypothesis ------------------------------------------------------------------------

ODD: list[Any] = [
    None,
    0,
    1,
    1.5,
    -1,
    True,
    False,
    "",
    "x",
    "acme:x",
    "message",
    "a" * 65,
    [],
    {},
    [1],
    {"type": "acme:y"},
    {"type": "input_text", "text": "t"},
    {"type": "bogus"},
]
KEYS = ["type", "id", "status", "role", "content", "text", "arguments", "call_id", "output", "zzz"]


def _paths(x: Any, pre: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield pre
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, (*pre, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, (*pre, i))


def _replace(x: Any, path: tuple[Any, ...], new: Any, delete: bool = False) -> Any:
    if not path:
        return new
    x = json.loads(json.dumps(x))
    cur = x
    for k in path[:-1]:
        cur = cur[k]
    if delete:
        del cur[path[-1]]
    else:
        cur[path[-1]] = new
    return x


def _has_integral_float(x: Any) -> bool:
    if isinstance(x, float):
        return x.is_integer()
    if isinstance(x, dict):
        return any(_has_integral_float(v) for v in x.values())
    if isinstance(x, list):
        return any(_has_integral_float(v) for v in x)
    return False


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[Any]) -> Any:
    """A valid instance with one or two mutations: a value replaced, a key deleted, a key or element added."""
    x = draw(base)
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(list(_paths(x))))
        kind = draw(st.sampled_from(["replace", "delete", "add"]))
        if kind == "delete" and path:
            x = _replace(x, path, None, delete=True)
        elif kind == "add":
            cur: Any = x
            for k in path:
                cur = cur[k]
            if isinstance(cur, dict):
                x = _replace(x, path, {**cur, draw(st.sampled_from(KEYS)): draw(st.sampled_from(ODD))})
            elif isinstance(cur, list):
                x = _replace(x, path, [*cur, draw(st.sampled_from(ODD))])
        else:
            x = _replace(x, path, draw(st.sampled_from(ODD)))
    return x


HYPO = settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


@pytest.mark.slow
@pytest.mark.parametrize("side", SIDES)
def test_generated_valid_items_parse(side: str) -> None:
    @HYPO
    @given(from_schema(rp.json_schema(side)))
    def check(item: Any) -> None:
        assert VALIDATORS[side].is_valid(item)
        if not _has_integral_float(item):
            parsed = rp.parse_item(item, side=side)
            assert rp.dump_item(parsed) == item

    check()


@pytest.mark.slow
@pytest.mark.parametrize("side", SIDES)
def test_mutated_items_same_verdict(side: str) -> None:
    @settings(HYPO, max_examples=80)
    @given(mutated(from_schema(rp.json_schema(side))))
    def check(item: Any) -> None:
        if not _has_integral_float(item):
            assert_same_verdict(item, side)

    check()


# --- a second language: Python again, through datamodel-code-generator --------------------------------


@pytest.mark.parametrize("side", SIDES)
def test_datamodel_codegen_round_trip(side: str, tmp_path: Path) -> None:
    """Models generated from the bundle alone (no access to schemas/) accept our valid fixtures."""
    exe = Path(sys.executable).parent / "datamodel-codegen"
    if not exe.exists():
        pytest.skip("datamodel-code-generator (the test extra) is not installed beside this Python")
    module = f"roundtrip_{side}"
    bundle_file = tmp_path / f"{side}.json"
    bundle_file.write_text(json.dumps(rp.json_schema(side)), encoding="utf-8")  # what the package serves
    res = subprocess.run(
        [
            str(exe),
            "--input",
            str(bundle_file),
            "--input-file-type",
            "jsonschema",
            "--output",
            str(tmp_path / f"{module}.py"),
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--use-annotated",
            "--field-constraints",
            "--disable-timestamp",
            "--class-name",
            "Root",
            "--extra-fields",
            "allow",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module(module)
    finally:
        sys.path.remove(str(tmp_path))
    root = mod.Root
    valid = [item for _, item in FIXTURE_ITEMS if by_model(item, side)]
    valid += [item for _, s, _, item in corpus_items() if s == side and by_model(item, side)]
    assert valid
    for item in valid:
        dumped = root.model_validate(item).model_dump(mode="json", by_alias=True, exclude_unset=True)
        assert dumped == item
    assert hasattr(mod, "NamespacedItem") and hasattr(mod, "FunctionCall" if side == "output" else "FunctionCallParam")


def _values(node: Any, key: str) -> Iterator[Any]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            yield from _values(v, key)
    elif isinstance(node, list):
        for v in node:
            yield from _values(v, key)
