"""Other languages, proven: bundles ready for code generators, a second and third validator that agree
with the parsers on every bundle, and Python types that narrow.

- Every bundle in schemas/dist is judged by jsonschema-rs here and by Ajv (scripts/ts/ajv_diff.mjs, when
  node and scripts/ts/node_modules are present) on the instances of scripts/differential.py; both must
  give the Python parser's verdict on every value.
- tests/typing/narrowing.py passes `mypy --strict`; code that skips the narrowing fails it.
- The TypeScript side (json-schema-to-typescript, `tsc --strict` on scripts/ts/usage.ts) runs in
  scripts/check_typescript.sh.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import CHECKOUT, ROOT

import replayable as rp
from replayable import schema as schema_mod
from replayable._agents_base import KNOWN_ACTION_TYPES, KNOWN_EVENT_TYPES, KNOWN_ITEM_TYPES

TS = ROOT / "scripts" / "ts"


def _load_differential() -> Any:
    spec = importlib.util.spec_from_file_location("differential", ROOT / "scripts" / "differential.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


differential = _load_differential() if CHECKOUT else None
needs_mypy = pytest.mark.skipif(
    importlib.util.find_spec("mypy") is None, reason="mypy is a dev tool (the dev extra), not installed here"
)


def _nodes(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _nodes(v)


# --- bundles ready for code generators -------------------------------------------------------------------


@pytest.mark.parametrize("side", schema_mod.sides())
def test_no_ref_with_siblings(side: str) -> None:
    """json-schema-to-typescript copies a `$ref` that has sibling keywords (`LongText1`): the bundle has none."""
    doc = rp.json_schema(side)
    for node in _nodes(doc["$defs"]):
        if "$ref" in node:
            assert set(node) == {"$ref"}, node


@pytest.mark.parametrize("side", schema_mod.sides())
def test_namespaced_types_are_template_literals(side: str) -> None:
    doc = rp.json_schema(side)
    tagged = [n for n in _nodes(doc["$defs"]) if n.get("pattern") == schema_mod.NAMESPACED_PATTERN]
    # every slug, or (where OpenAI's items are typed) every slug but `openai`, whose untyped types are
    # the `Unknown<Slug>...` branch next to it
    for node in tagged:
        assert node["tsType"] in ("`${string}:${string}`", schema_mod._ts_other_slug("openai"))
    if side in ("input", "output", "stream-events"):
        assert tagged, "the slug:name branch is in the bundle"


def _literal(tag: dict[str, Any]) -> bool:
    """A `type` schema TypeScript sees as literals: a const, an enum, a tsType, or an anyOf of those and null."""
    if "const" in tag or "enum" in tag or "tsType" in tag:
        return True
    return "anyOf" in tag and all(_literal(t) or t == {"type": "null"} for t in tag["anyOf"])


@pytest.mark.parametrize("side", schema_mod.sides())
def test_every_union_of_types_is_tagged(side: str) -> None:
    """Each branch of each union of named types has a literal `type` (or is itself such a union), so a
    `switch (x.type)` in TypeScript narrows to one branch."""
    doc = rp.json_schema(side)
    defs = doc["$defs"]
    unions = 0
    for node in [doc, *_nodes(defs)]:
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if not branches or not all(set(b) == {"$ref"} for b in branches):
                continue
            unions += 1
            for b in branches:
                target = defs[b["$ref"].removeprefix("#/$defs/")]
                if "oneOf" in target or "anyOf" in target:
                    continue
                if target.get("type") == "string":  # a bare string choice (`"auto"`): `typeof` narrows it
                    continue
                tag = target.get("properties", {}).get("type")
                for part in target.get("allOf", []) if tag is None else []:  # a body plus its tag (WebSocket)
                    tag = tag or defs.get(part.get("$ref", "").removeprefix("#/$defs/"), {}).get("properties", {}).get("type")
                assert tag is not None and _literal(tag), f"{side}: {b['$ref']} has no literal `type`"
    assert unions or side == "agents-turn-list"  # a page of turns holds no union of named types


@pytest.mark.parametrize(
    ("side", "fallback", "known"),
    [
        ("agents-events", "UnknownSessionEvent", KNOWN_EVENT_TYPES),
        ("agents-items", "UnknownSessionItem", KNOWN_ITEM_TYPES),
        ("agents-required-actions", "UnknownRequiredAction", KNOWN_ACTION_TYPES),
    ],
)
def test_unknown_fallbacks_refuse_known_types(side: str, fallback: str, known: frozenset[str]) -> None:
    """As the models do: a known type with a bad field is an error, never an unknown value."""
    if side not in schema_mod.sides():
        pytest.skip(f"no {side} bundle in this checkout")
    doc = rp.json_schema(side)
    tag = doc["$defs"][fallback]["properties"]["type"]
    assert tag["not"] == {"enum": sorted(known)}
    assert tag["minLength"] == 1 and tag["tsType"] == "never"
    v = jsonschema_rs.validator_for(doc)
    name = sorted(known)[0]
    assert not v.is_valid({"type": name}), "a known type with its fields missing is not an unknown value"
    assert v.is_valid({"type": "zz.brand_new"})


def test_stream_events_bundle_is_the_spec_event_union() -> None:
    from replayable import stream

    doc = rp.json_schema("stream-events")
    known = doc["$defs"]["StreamEventKnown"]
    assert set(known["discriminator"]["mapping"]) == set(stream.SPEC_EVENT_TYPES)
    # the spec's events, OpenAI's typed events, then the extension events of every other slug and of openai:
    typed = [_tag(doc, b) for b in doc["oneOf"][1:-2]]
    assert doc["oneOf"][0] == {"$ref": "#/$defs/StreamEventKnown"} and sorted(typed) == sorted(stream.OPENAI_EVENT_TYPES)
    assert doc["oneOf"][-2:] == [{"$ref": "#/$defs/ExtensionEvent"}, {"$ref": "#/$defs/UnknownOpenaiExtensionEvent"}]
    readme = " ".join((ROOT / "schemas" / "README.md").read_text(encoding="utf-8").split())
    for rule in schema_mod.STREAM_RULES:
        assert rule in doc["description"]
        assert rule.split(";")[0] in readme, f"schemas/README.md lists the stream rule {rule!r}"


def test_conditions_kept_as_one_if_chain() -> None:
    """The tool result's two conditions, rewritten for the code generator, still decide the same."""
    doc = rp.json_schema("agents-input")
    tool_result = doc["$defs"]["SessionInputToolResult"]
    assert "allOf" not in tool_result and {"if", "then", "else"} <= set(tool_result)
    v = jsonschema_rs.validator_for(doc)
    base = {"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "c"}
    assert v.is_valid({**base, "success": True, "output": ""})
    assert not v.is_valid({**base, "success": True})
    assert not v.is_valid({**base, "success": True, "output": None})
    assert v.is_valid({**base, "success": False, "error": "timeout"})
    assert not v.is_valid({**base, "success": False, "error": "  "})
    assert not v.is_valid({**base, "success": False})


# --- OpenAI's typed namespaced types: every bundle types them where the models do --------------------------

#: Generic namespaced type -> where the models read OpenAI's types with a typed model instead of it.
_PART, _EVENT, _ITEM = "NamespacedPart", "ExtensionEvent", "NamespacedItem"


def _tag(doc: dict[str, Any], branch: dict[str, Any]) -> Any:
    return doc["$defs"][branch["$ref"].removeprefix("#/$defs/")].get("properties", {}).get("type", {}).get("const")


def _typed_tables(side: str) -> dict[str, set[str]]:
    """The models' typed types per generic type, for the bundle of `side` (`differential.typed_openai_tables`,
    read from the models): annotations and stream events wherever the generic type is (a class attribute);
    items where an item union routes them (`parse_item`'s two sides and a stream event's output item)."""
    assert differential is not None
    tables = differential.typed_openai_tables()
    out = {_PART: set(tables["annotation"]), _EVENT: set(tables["event"])}
    items = {"input": "input", "output": "output", "stream-events": "output"}.get(side)
    if items is not None:
        out[_ITEM] = set(tables[items])
    return out


@pytest.mark.skipif(differential is None, reason="needs scripts/differential.py from the source checkout")
@pytest.mark.parametrize("side", schema_mod.sides())
def test_typed_openai_types_are_branches_wherever_the_models_read_them(side: str) -> None:
    """Every union that lists a generic namespaced type (`NamespacedPart`: annotations; `ExtensionEvent`;
    `NamespacedItem` where the item union routes typed items) lists, right before it, one branch per typed
    type of the models, and the generic type (and its `UnknownOpenai*` split) excludes exactly those: a
    malformed `openai:file_citation` is refused on every side, as by the models (a bundle
    without them accepts it in an input assistant message)."""
    doc = rp.json_schema(side)
    defs = doc["$defs"]
    tables = _typed_tables(side)
    seen = set()
    for node in [doc, *_nodes(defs)]:
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if not isinstance(branches, list):
                continue
            for generic, typed in tables.items():
                ref = {"$ref": f"#/$defs/{generic}"}
                if ref not in branches:
                    continue
                seen.add(generic)
                at = branches.index(ref)
                got = [_tag(doc, b) for b in branches[at - len(typed) : at]] if at >= len(typed) else []
                assert sorted(got) == sorted(typed), f"{side}: the typed branches before {generic} in a union"
                split = branches[at + 1 : at + 2]
                assert split == [{"$ref": f"#/$defs/UnknownOpenai{generic.removeprefix('Namespaced')}"}], split
    for generic in seen:
        excluded = defs[generic]["not"]["properties"]["type"]["enum"]
        assert excluded == sorted(tables[generic]), f"{side}: {generic} excludes the typed types"
        unknown = defs[f"UnknownOpenai{generic.removeprefix('Namespaced')}"]["properties"]["type"]
        assert unknown["not"] == {"enum": sorted(tables[generic])}
    if side in ("input", "output", "request", "response", "compact-request", "compact-response", "websocket-events"):
        assert _PART in seen, f"{side}: its messages' annotations"
    if side in ("input", "output"):
        assert _ITEM in seen
    if side == "stream-events":
        assert seen == {_PART, _EVENT, _ITEM}
    if _PART in seen:  # and one malformed typed annotation, in an assistant message of its side
        v = jsonschema_rs.validator_for(doc)
        note = {"type": "openai:file_citation", "file_id": 5, "index": 0, "filename": "a.txt"}
        message = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]}
        message["content"][0]["annotations"] = [note]
        host = {"input": message, "output": {**message, "id": "m", "status": "completed"}}.get(side)
        if host is not None:
            assert not v.is_valid(host)
            note["file_id"] = "file_1"
            assert v.is_valid(host)


def test_instances_hold_typed_openai_types_valid_and_malformed(instances: dict[str, Any]) -> None:
    """The differential's pool holds, for every typed type of the models, a value the parser of its side
    accepts and one it refuses: annotations in assistant messages on both sides, items, stream events."""
    assert differential is not None
    tables = differential.typed_openai_tables()
    values = [json.dumps(x["value"]) for x in instances["values"]]
    for kind, side in (("annotation", "input"), ("annotation", "output"), ("input", "input"),
                       ("output", "output"), ("event", "stream-events")):
        for t in tables[kind]:
            found = {ok for text, ok in zip(values, instances["verdicts"][side], strict=True) if f'"{t}"' in text}
            assert found == {True, False}, f"{side}: {t} accepted and refused"
    annotated = [
        (x["value"], ok)
        for x, ok in zip(instances["values"], instances["verdicts"]["input"], strict=True)
        if isinstance(x["value"], dict) and x["value"].get("role") == "assistant" and "openai:file_citation" in json.dumps(x["value"])
    ]
    assert {ok for _, ok in annotated} == {True, False}, "input assistant messages with a typed annotation, both ways"


# --- the differential: jsonschema-rs and Ajv against the parsers ------------------------------------------


@pytest.fixture(scope="module")
def instances() -> dict[str, Any]:
    if differential is None:
        pytest.skip("needs scripts/differential.py from the source checkout")
    """Fixtures, cases, corpus, edge cases and their mutations; the generated instances (slow to make) are
    added by scripts/check_typescript.sh, which runs the same comparison in CI."""
    return differential.build(examples=0, mutations=3)  # type: ignore[no-any-return]


def test_instances_cover_every_bundle_both_ways(instances: dict[str, Any]) -> None:
    assert set(instances["verdicts"]) == set(schema_mod.sides())
    for side, verdicts in instances["verdicts"].items():
        assert len(verdicts) == len(instances["values"])
        assert sum(verdicts) >= 10, f"{side}: enough valid values"
        assert len(verdicts) - sum(verdicts) >= 10, f"{side}: enough invalid values"
    sources = {v["source"].split(":")[0].split("/")[0] for v in instances["values"]}
    assert {"edge", "mutated", "tests"} <= sources


@pytest.mark.parametrize("side", schema_mod.sides())
def test_jsonschema_rs_agrees_with_the_parser(side: str, instances: dict[str, Any]) -> None:
    v = jsonschema_rs.validator_for(rp.json_schema(side))
    diffs = [
        f"{x['source']}: schema {v.is_valid(x['value'])}, parser {ok}: {json.dumps(x['value'])[:200]}"
        for x, ok in zip(instances["values"], instances["verdicts"][side], strict=True)
        if v.is_valid(x["value"]) != ok
    ]
    assert not diffs, f"{len(diffs)} disagreements:\n" + "\n".join(diffs[:20])


def test_ajv_agrees_with_the_parser(instances: dict[str, Any], tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (TS / "node_modules" / "ajv").is_dir():
        pytest.skip("needs node and scripts/ts/node_modules (scripts/check_typescript.sh runs `npm ci`)")
    path = tmp_path / "instances.json"
    path.write_text(json.dumps(instances), encoding="utf-8")
    res = subprocess.run([node, str(TS / "ajv_diff.mjs"), str(path)], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert "agrees with the Python parser on every bundle" in res.stdout


def test_ajv_diff_fails_on_a_disagreement(instances: dict[str, Any], tmp_path: Path) -> None:
    """The comparison can fail: flip one verdict and Ajv must report it."""
    node = shutil.which("node")
    if node is None or not (TS / "node_modules" / "ajv").is_dir():
        pytest.skip("needs node and scripts/ts/node_modules (scripts/check_typescript.sh runs `npm ci`)")
    doc = json.loads(json.dumps(instances))
    doc["verdicts"]["output"][0] = not doc["verdicts"]["output"][0]
    path = tmp_path / "instances.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = subprocess.run([node, str(TS / "ajv_diff.mjs"), str(path)], capture_output=True, text=True)
    assert res.returncode == 1
    assert "DIFF output: 1 of" in res.stdout


# --- Python types that narrow -----------------------------------------------------------------------------

MYPY = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null"]


@pytest.mark.slow
@needs_mypy
def test_usage_file_narrows_under_mypy_strict() -> None:
    res = subprocess.run([*MYPY, "tests/typing/narrowing.py"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success" in res.stdout


@pytest.mark.slow
@needs_mypy
def test_mypy_refuses_what_does_not_narrow(tmp_path: Path) -> None:
    """The overloads are precise (an output list is no input list) and a call_id needs narrowing first."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import replayable as rp\n"
        "def f(text: str) -> list[rp.InputItem]:\n"
        "    return rp.parse_items(text, side='output')\n"
        "def g(text: str) -> str:\n"
        "    item = rp.parse_item(text, side='output')\n"
        "    return item.call_id\n",
        encoding="utf-8",
    )
    res = subprocess.run([*MYPY, str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 1, res.stdout
    assert "bad.py:3: error: Incompatible return value type" in res.stdout
    assert 'bad.py:6: error: Item "Message" of' in res.stdout and 'has no attribute "call_id"' in res.stdout


def test_models_of_the_other_side_are_read_again() -> None:
    """The runtime backs the overloads: parse_item(side="input") never hands back an output model."""
    out = rp.parse_item(
        {"type": "function_call", "id": "fc_1", "status": "completed", "call_id": "c", "name": "f", "arguments": "{}"},
        side="output",
    )
    assert isinstance(out, rp.FunctionCall)
    back = rp.parse_item(out, side="input")
    assert isinstance(back, rp.FunctionCallParam) and rp.dump_item(back) == rp.dump_item(out)
    assert rp.parse_item(out, side="output") is out
    assert [type(i) for i in rp.parse_items([out], side="input")] == [rp.FunctionCallParam]
    assert [type(i) for i in rp.iter_items([out], side="input")] == [rp.FunctionCallParam]
    part = rp.parse_item(
        {
            "type": "message",
            "id": "m",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "x", "annotations": []}],
        },
        side="output",
    )
    assert isinstance(part, rp.Message)
    with pytest.raises(rp.ItemError):
        rp.parse_item(part.content[0], side="input")  # a content part is no item


# --- typed slugs (OpenAI's native items) ------------------------------------------------------------------


def _template_regex(ts: str) -> re.Pattern[str]:
    """The strings a union of TypeScript template literals (as `_ts_other_slug` writes them) stands for."""
    members = []
    for member in re.findall(r"`([^`]*)`", ts):
        out = ""
        for literal, hole in re.findall(r"([^$]+)|\$\{([^}]*)\}", member):
            if literal:
                out += re.escape(literal)
            elif hole == "string":
                out += ".*"
            else:
                out += "(?:" + "|".join(re.escape(c) for c in re.findall(r'"([^"]*)"', hole)) + ")"
        members.append(out)
    return re.compile("^(?:" + "|".join(members) + ")$", re.S)


def test_ts_other_slug_is_every_slug_but_one() -> None:
    pattern = _template_regex(schema_mod._ts_other_slug("openai"))
    for other in ("acme:x", "o:x", "op:x", "opena:x", "openaix:y", "Openai:x", "xopenai:y", "openai2:z", "a.b:c:d"):
        assert pattern.match(other), other
    for typed in ("openai:web_search_call", "openai:x", "openai:a:b"):
        assert not pattern.match(typed), typed


def test_typed_slug_split_keeps_the_verdicts() -> None:
    """A namespaced type that excludes typed `openai:` types becomes two branches accepting the same values."""
    typed = {
        "title": "WebSearchCall",
        "description": "typed",
        "type": "object",
        "required": ["type", "id"],
        "properties": {"type": {"const": "openai:web_search_call", "description": "t"}},
    }
    namespaced = {  # the namespaced item before any split (the bundles are already split where typed)
        "title": "NamespacedItem",
        "description": "an item of a provider's own",
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": {"type": "string", "pattern": schema_mod.NAMESPACED_PATTERN, "tsType": schema_mod.TS_NAMESPACED}
        },
    }
    namespaced["not"] = {"required": ["type"], "properties": {"type": {"enum": ["openai:web_search_call"]}}}
    defs = {"WebSearchCall": typed, "NamespacedItem": namespaced}
    body = {"oneOf": [{"$ref": "#/$defs/WebSearchCall"}, {"$ref": "#/$defs/NamespacedItem"}]}
    before = jsonschema_rs.validator_for({**json.loads(json.dumps(body)), "$defs": json.loads(json.dumps(defs))})
    schema_mod._split_typed_slug(defs, body)
    assert body["oneOf"][-1] == {"$ref": "#/$defs/UnknownOpenaiItem"}
    assert defs["UnknownOpenaiItem"]["properties"]["type"]["tsType"] == "never"
    assert defs["NamespacedItem"]["properties"]["type"]["tsType"] == schema_mod._ts_other_slug("openai")
    after = jsonschema_rs.validator_for({**body, "$defs": defs})
    values = [
        {"type": "openai:web_search_call", "id": "ws"},
        {"type": "openai:web_search_call"},
        {"type": "openai:brand_new", "x": 1},
        {"type": "acme:search", "hits": []},
        {"type": "openai:"},
        {"type": "web_search_call"},
        {"type": "op:x"},
    ]
    for value in values:
        assert before.is_valid(value) == after.is_valid(value), value
    assert after.is_valid({"type": "openai:brand_new"}) and not after.is_valid({"type": "openai:web_search_call"})
