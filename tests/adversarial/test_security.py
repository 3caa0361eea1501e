"""Tool schemas never reach outside the process, and nothing hostile in a schema or in arguments
crashes, stalls or leaks.

Every reference class (remote `$ref`, `$dynamicRef`, `$schema`, `$id` + relative `$ref`, `urn:`,
relative paths, `file:`) is tried on every entry point that takes a schema: `gate`,
`check_transcript(tools=...)`, `check_tool`, `agents.check_arguments`, `agents.check_card`, and the CLI
(`replayable check` on a request body and with `--tools`). A local HTTP server records every request
it gets (there must be none); a file reference names a temporary file whose content must never show
up in a message; a listening socket that never answers must see no connection at all.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable import _arguments as arguments
from replayable._arguments import KNOWN_METASCHEMAS, MAX_SCHEMA_DEPTH, SchemaError, compile_schema
from replayable._cli import main

SECRET = "PLACEHOLDER-SECRET-4711"
CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "lookup",
    "arguments": '{"q": "abcdef"}',
    "status": "completed",
}
ACTION = {"type": "function_call", "turn_id": "turn_1", "call_id": "call_1", "name": "lookup", "arguments": {"q": "ab"}}
CARD_TURN = [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": '{"q": "ab"}'}]}]


class Recorder:
    """A local HTTP server (threaded) that answers every GET with a schema and records its path."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                recorder.paths.append(self.path)
                body = json.dumps({"type": "string", "maxLength": 3, "x": SECRET}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def http() -> Iterator[Recorder]:
    rec = Recorder()
    yield rec
    rec.close()


@pytest.fixture(scope="module")
def secret_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("secret") / "secret.json"
    path.write_text(json.dumps({"token": SECRET, "schema": {"type": "string"}}))
    return path


def reaching_schemas(base: str, secret: Path) -> dict[str, tuple[dict[str, Any], str]]:
    """name -> (a schema that would make a naive validator fetch or read something, the reference)."""
    q = f"{base}/q.json"
    return {
        "remote $ref": ({"type": "object", "properties": {"q": {"$ref": q}}}, q),
        "remote $ref in $defs": (
            {"type": "object", "properties": {"q": {"$ref": "#/$defs/Q"}}, "$defs": {"Q": {"$ref": q}}},
            q,
        ),
        "remote $ref under anyOf/items": (
            {"type": "object", "properties": {"q": {"anyOf": [{"type": "array", "items": {"$ref": q}}]}}},
            q,
        ),
        "remote $dynamicRef": ({"type": "object", "properties": {"q": {"$dynamicRef": f"{q}#meta"}}}, q),
        "remote $schema": ({"$schema": f"{base}/meta.json", "type": "object"}, f"{base}/meta.json"),
        "$id then relative $ref": (
            {"$id": f"{base}/root.json", "type": "object", "properties": {"q": {"$ref": "q.json"}}},
            "q.json",
        ),
        "draft-04 id then relative $ref": (
            {
                "$schema": "http://json-schema.org/draft-04/schema#",
                "id": f"{base}/root.json",
                "type": "object",
                "properties": {"q": {"$ref": "q.json"}},
            },
            "q.json",
        ),
        "relative path $ref": ({"type": "object", "properties": {"q": {"$ref": "q.json#/x"}}}, "q.json#/x"),
        "urn $ref": ({"type": "object", "properties": {"q": {"$ref": "urn:example:q"}}}, "urn:example:q"),
        "file $ref": (
            {"type": "object", "properties": {"q": {"$ref": f"file://{secret}#/token"}}},
            f"file://{secret}#/token",
        ),
        "file $schema": ({"$schema": f"file://{secret}", "type": "object"}, f"file://{secret}"),
    }


CASES = [
    "remote $ref",
    "remote $ref in $defs",
    "remote $ref under anyOf/items",
    "remote $dynamicRef",
    "remote $schema",
    "$id then relative $ref",
    "draft-04 id then relative $ref",
    "relative path $ref",
    "urn $ref",
    "file $ref",
    "file $schema",
]


def _said_gate(schema: Any) -> str:
    with pytest.raises(SchemaError) as exc:
        rp.gate(CALL, schema)
    return str(exc.value)


def _said_gate_whole_tool(schema: Any) -> str:
    with pytest.raises(SchemaError) as exc:
        rp.gate(CALL, {"type": "function", "name": "lookup", "parameters": schema})
    return str(exc.value)


def _said_transcript(schema: Any) -> str:
    items = [CALL, {"type": "function_call_output", "call_id": "call_1", "output": "x"}]
    report = rp.check_transcript(items, tools=[{"type": "function", "name": "lookup", "parameters": schema}])
    assert [v.code for v in report.violations] == ["invalid_tool"]
    return report.violations[0].message


def _said_check_tool(schema: Any) -> str:
    found = rp.check_tool({"type": "function", "name": "lookup", "parameters": schema, "strict": False})
    assert [v.code for v in found] == ["invalid_tool"]
    assert found[0].path == "/parameters"
    return found[0].message


def _said_check_tool_mcp(schema: Any) -> str:
    found = rp.check_tool({"name": "lookup", "inputSchema": schema})
    assert [v.code for v in found] == ["invalid_tool"]
    return found[0].message


def _said_agents(schema: Any) -> str:
    with pytest.raises(SchemaError) as exc:
        rp.agents.check_arguments(ACTION, {"type": "function", "name": "lookup", "parameters": schema})
    return str(exc.value)


def _said_card(schema: Any) -> str:
    with pytest.raises(SchemaError) as exc:
        rp.agents.check_card(CARD_TURN, schema)
    return str(exc.value)


ENTRY_POINTS: dict[str, Callable[[Any], str]] = {
    "gate": _said_gate,
    "gate with the whole tool": _said_gate_whole_tool,
    "check_transcript": _said_transcript,
    "check_tool": _said_check_tool,
    "check_tool MCP": _said_check_tool_mcp,
    "agents.check_arguments": _said_agents,
    "check_card": _said_card,
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("case", CASES)
def test_references_outside_the_schema_are_refused_without_io(
    http: Recorder, secret_file: Path, entry: str, case: str
) -> None:
    schema, ref = reaching_schemas(http.base, secret_file)[case]
    before = len(http.paths)
    said = ENTRY_POINTS[entry](schema)
    assert http.paths[before:] == []  # nothing was fetched
    assert SECRET not in said  # nothing read from a file (or a server) comes back
    assert ref in said  # the reference is named, so the caller can find it


@pytest.mark.parametrize("case", CASES)
def test_cli_request_body_and_tools_file_refuse_references(
    http: Recorder, secret_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    schema, ref = reaching_schemas(http.base, secret_file)[case]
    tool = {"type": "function", "name": "lookup", "parameters": schema, "strict": False}
    items = [CALL, {"type": "function_call_output", "call_id": "call_1", "output": "x"}]
    body = tmp_path / "request.json"
    body.write_text(json.dumps({"model": "m", "input": items, "tools": [tool]}))
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([tool]))
    plain = tmp_path / "items.json"
    plain.write_text(json.dumps(items))
    before = len(http.paths)
    for argv in (["check", str(body)], ["check", str(plain), "--tools", str(tools)]):
        for fmt in ("text", "json"):
            code = main([*argv, "--format", fmt])
            out, err = capsys.readouterr()
            assert code == 1, (out, err)
            assert "invalid_tool" in out and ref in out.replace("\\/", "/")
            assert SECRET not in out + err
    assert http.paths[before:] == []


def test_cli_subprocess_makes_no_request(http: Recorder, tmp_path: Path) -> None:
    """The command line, in its own process, fetches nothing either."""
    schema, _ = reaching_schemas(http.base, tmp_path / "none.json")["remote $ref"]
    body = tmp_path / "request.json"
    body.write_text(json.dumps({"model": "m", "input": [CALL], "tools": [{"name": "lookup", "parameters": schema}]}))
    before = len(http.paths)
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from replayable._cli import main; sys.exit(main(sys.argv[1:]))", "check",
         str(body)],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert "points outside the schema" in proc.stdout
    assert http.paths[before:] == []


def test_a_host_that_never_answers_gets_no_connection() -> None:
    """A `$ref` to a listening socket that never accepts: no connection is attempted (so no stall)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    try:
        schema = {"type": "object", "properties": {"q": {"$ref": f"http://127.0.0.1:{port}/slow.json"}}}
        for call in (
            lambda: rp.gate(CALL, schema),
            lambda: rp.agents.check_arguments(ACTION, schema),
            lambda: rp.agents.check_card(CARD_TURN, schema),
        ):
            with pytest.raises(SchemaError):
                call()
        assert rp.check_tool({"name": "lookup", "inputSchema": schema})[0].code == "invalid_tool"
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected
    finally:
        listener.close()


def test_the_retriever_refuses_even_when_the_reference_check_is_bypassed(
    http: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defence in depth: with the reference walk disabled, jsonschema-rs still fetches nothing."""
    monkeypatch.setattr(arguments, "_check_schema", lambda schema, registry: None)
    before = len(http.paths)
    for schema in (
        {"type": "object", "properties": {"q": {"$ref": f"{http.base}/bypass.json"}}},
        {"$schema": f"{http.base}/bypass-meta.json"},
        {"$id": f"{http.base}/r.json", "properties": {"q": {"$ref": "other.json"}}},
    ):
        with pytest.raises(SchemaError) as exc:
            compile_schema(schema)
        assert SECRET not in str(exc.value)
    assert http.paths[before:] == []


@pytest.mark.parametrize("uri", sorted(KNOWN_METASCHEMAS))
def test_known_drafts_compile_without_any_retrieval(uri: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A known `$schema` is served from jsonschema-rs's built-in meta-schemas: the retriever is never
    asked, for the schema nor for the meta-schema validation of the schema."""
    asked: list[str] = []

    def record(u: str) -> Any:
        asked.append(u)
        raise SchemaError("no")

    monkeypatch.setattr(arguments, "_no_fetch", record)
    schema = {"$schema": uri, "type": "object", "properties": {"q": {"type": "string", "maxLength": 3}}}
    assert rp.gate(dict(CALL, arguments='{"q": "ab"}'), schema).ok
    assert rp.gate(CALL, schema).reason == "arguments_schema"
    assert asked == []


def test_local_references_and_embedded_ids_still_work(http: Recorder) -> None:
    before = len(http.paths)
    local = {"type": "object", "properties": {"q": {"$ref": "#/$defs/Q"}}, "$defs": {"Q": {"type": "string"}}}
    assert rp.gate(CALL, local).ok
    anchored = {"type": "object", "properties": {"q": {"$ref": "#short"}}, "$defs": {"Q": {"$anchor": "short"}}}
    assert rp.gate(CALL, anchored).ok
    embedded = {
        "$id": f"{http.base}/root.json",
        "type": "object",
        "properties": {"q": {"$ref": "q.json"}},
        "$defs": {"Q": {"$id": "q.json", "type": "string", "maxLength": 3}},
    }
    assert rp.gate(CALL, embedded).reason == "arguments_schema"  # q.json is declared inside: no fetch
    recursive = {"type": "object", "additionalProperties": {"$ref": "#"}}
    assert rp.gate(dict(CALL, arguments='{"a": {"b": {}}}'), recursive).ok
    assert http.paths[before:] == []


def test_registry_resolves_shared_definitions_in_process(http: Recorder) -> None:
    shared = f"{http.base}/defs.json"  # a URI of our server: it must never be asked for it
    registry = {shared: {"$defs": {"Q": {"type": "string", "maxLength": 3}}}}
    schema = {"type": "object", "properties": {"q": {"$ref": f"{shared}#/$defs/Q"}}, "required": ["q"]}
    tool = {"type": "function", "name": "lookup", "parameters": schema, "strict": False}
    before = len(http.paths)
    assert rp.gate(CALL, schema, registry=registry).reason == "arguments_schema"
    assert rp.gate(dict(CALL, arguments='{"q": "ab"}'), tool, registry=registry).ok
    report = rp.check_transcript([CALL], tools=[tool], registry=registry, pending_ok=True)
    assert [v.code for v in report.violations] == ["arguments_schema"]
    assert rp.check_tool(tool, registry=registry) == []
    assert rp.agents.check_arguments(ACTION, tool, registry=registry).execute
    assert rp.agents.check_card(CARD_TURN, schema, registry=registry).ok
    assert http.paths[before:] == []
    # without the registry the same schema is refused, naming the reference
    with pytest.raises(SchemaError, match="defs.json"):
        rp.gate(CALL, schema)


def test_registry_schemas_are_held_to_the_same_rules(http: Recorder, secret_file: Path) -> None:
    schema = {"type": "object", "properties": {"q": {"$ref": "https://example.com/a.json"}}}
    before = len(http.paths)
    for registry, said in [
        ({"https://example.com/a.json": {"$ref": f"{http.base}/b.json"}}, "b.json"),
        ({"https://example.com/a.json": {"$ref": f"file://{secret_file}"}}, str(secret_file)),
        ({"https://example.com/a.json": {"$schema": f"{http.base}/m.json"}}, "m.json"),
        ({"https://example.com/a.json": {"type": "string", 5: "x"}}, "not a string"),
        ({"https://example.com/a.json": [1]}, "not a JSON Schema"),
        ({5: {"type": "string"}}, "absolute URIs"),
    ]:
        with pytest.raises(SchemaError, match=said) as exc:
            rp.gate(CALL, schema, registry=registry)  # type: ignore[arg-type]
        assert SECRET not in str(exc.value)
    with pytest.raises(SchemaError, match="mapping"):
        rp.gate(CALL, schema, registry=[("https://example.com/a.json", {})])  # type: ignore[arg-type]
    assert http.paths[before:] == []


def _nested(depth: int, key: str = "not") -> dict[str, Any]:
    schema: dict[str, Any] = {}
    for _ in range(depth):
        schema = {key: schema}
    return schema


@pytest.mark.parametrize("depth", [MAX_SCHEMA_DEPTH + 1, 300, 5_000, 200_000])
def test_hostile_deep_schemas_are_a_schema_error(depth: int) -> None:
    for schema in (_nested(depth), _nested(depth, "items"), {"enum": [_nested(depth, "a")]}):
        with pytest.raises(SchemaError, match="nests|deep"):
            rp.gate(CALL, schema)
        with pytest.raises(SchemaError):
            rp.agents.check_arguments(ACTION, schema)
        with pytest.raises(SchemaError):
            rp.agents.check_card(CARD_TURN, schema)
        assert rp.check_tool({"name": "lookup", "inputSchema": schema})[0].code == "invalid_tool"


def test_schemas_at_the_depth_limit_still_compile() -> None:
    # _nested(n) holds n objects around an empty one: n + 1 levels in all
    assert rp.gate(dict(CALL, arguments="{}"), {"type": "object", "not": _nested(MAX_SCHEMA_DEPTH - 2)}).reason in (
        "ok",
        "arguments_schema",
    )


_DEEP_AGENTS = """
import replayable as rp
schema = {"type": "object", "additionalProperties": {"$ref": "#"}}
args = {}
for _ in range(%d):
    args = {"a": args}
action = {"type": "function_call", "turn_id": "t", "call_id": "c", "name": "f", "arguments": args}
check = rp.agents.check_arguments(action, schema)
print(check.execute, [(f.path, f.keyword) for f in check.failures])
"""


@pytest.mark.parametrize("depth", [200, 100_000])
def test_deep_agents_arguments_against_a_recursive_schema_do_not_crash(depth: int) -> None:
    """Used to overflow jsonschema-rs's native stack (a segfault): run it in its own process."""
    proc = subprocess.run([sys.executable, "-c", _DEEP_AGENTS % depth], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-500:])
    assert proc.stdout.strip() == "False [('', 'too_deep')]"


def test_agents_arguments_within_the_limit_are_checked() -> None:
    schema = {"type": "object", "additionalProperties": {"$ref": "#"}}
    args: dict[str, Any] = {}
    for _ in range(rp.MAX_DEPTH - 1):
        args = {"a": args}
    action = dict(ACTION, arguments=args)
    assert rp.agents.check_arguments(action, schema).execute
    too_deep = dict(ACTION, arguments={"a": args})
    assert [(f.path, f.keyword) for f in rp.agents.check_arguments(too_deep, schema).failures] == [("", "too_deep")]


# --- generated variants: any mix of reference keywords, anywhere, fetches nothing ---------------------


def _schemas(base: str, secret: Path) -> st.SearchStrategy[Any]:
    targets = st.sampled_from(
        [
            f"{base}/a.json",
            f"{base}/a.json#/x",
            f"file://{secret}",
            f"file://{secret}#/token",
            "a.json",
            "../a.json#/b",
            "urn:x:y",
            "//127.0.0.1/a",
            "#",
            "#/$defs/a",
            "#anchor",
            "https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft-07/schema#",
            f"{base}/meta",
        ]
    )
    keywords = st.sampled_from(["$ref", "$dynamicRef", "$recursiveRef", "$id", "$schema", "$anchor", "type"])
    leaf = st.dictionaries(keywords, targets, max_size=3)
    containers = st.sampled_from(["properties", "$defs", "items", "anyOf", "not", "x-custom", "additionalProperties"])

    def nest(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.tuples(leaf, containers, st.lists(children, min_size=1, max_size=3)).map(
            lambda t: (
                {**t[0], t[1]: {f"k{i}": c for i, c in enumerate(t[2])}}
                if t[1] in ("properties", "$defs", "x-custom")
                else {**t[0], t[1]: t[2] if t[1] == "anyOf" else t[2][0]}
            )
        )

    return st.recursive(leaf, nest, max_leaves=8)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_generated_reference_mixes_never_fetch_or_leak(http: Recorder, secret_file: Path, data: st.DataObject) -> None:
    schema = data.draw(_schemas(http.base, secret_file))
    before = len(http.paths)
    for run in (
        lambda: rp.gate(CALL, schema),
        lambda: rp.agents.check_arguments(ACTION, schema),
        lambda: rp.agents.check_card(CARD_TURN, schema),
    ):
        try:
            said = str(run())
        except SchemaError as exc:
            said = str(exc)
        assert SECRET not in said
    for v in rp.check_tool({"name": "lookup", "inputSchema": schema}):
        assert SECRET not in v.message
    assert http.paths[before:] == []
