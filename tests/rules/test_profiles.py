"""Target profiles: what a provider accepts in `input`, as data, on every entry point.

Each class the `openai` profile refuses is refused with its own code by `check_transcript` on dicts,
JSON text, a request body and parsed items, by `check_transcript_iter`, and by `replayable check --target openai`
on a request body and on JSONL; `prepare_replay(..., target=)` fixes what is safe and refuses the rest;
the recorded requests OpenAI accepted stay accepted; the table agrees with OpenAI's OpenAPI document and
the `openai` SDK's `*_param` types; docs/targets.md shows the table.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, ROOT, corpus_files, load, needs_corpus

import replayable as rp
from replayable._cli import main
from replayable._profiles import PROFILES, get_profile, markdown_table
from replayable._replay import check_transcript_iter

OPENAPI = ROOT.parent / "shared" / "reference" / "openai-openapi.json"
USER = {"type": "message", "role": "user", "content": "hi"}
PNG = "data:image/png;base64,iVBORw0KGgo="


def call(**extra: Any) -> dict[str, Any]:
    return {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}", **extra}


OUT = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}


def image(**part: Any) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_image", "detail": "auto", **part}]}


def tool_output_image(url: str) -> list[dict[str, Any]]:
    return [
        call(),
        {"type": "function_call_output", "call_id": "call_1", "output": [{"type": "input_image", "image_url": url}]},
    ]


def computer(output: Any) -> list[dict[str, Any]]:
    return [
        USER,
        {
            "type": "computer_call",
            "id": "cu_1",
            "call_id": "call_1",
            "action": {"type": "screenshot"},
            "pending_safety_checks": [],
            "status": "completed",
        },
        {"type": "computer_call_output", "call_id": "call_1", "output": output},
    ]


#: class -> (items sent to OpenAI, the code, the index and JSON Pointer it is reported at)
CLASSES: dict[str, tuple[list[dict[str, Any]], str, int, str]] = {
    "chat_role_on_function_call": ([USER, call(role="assistant"), OUT], "field_not_accepted", 1, "/role"),
    "undeclared_key": ([USER, call(extra_field=1), OUT], "field_not_accepted", 1, "/extra_field"),
    "tool_search_arguments_string": (
        [
            USER,
            {
                "type": "tool_search_call",
                "id": "tsc_1",
                "call_id": "call_9",
                "execution": "client",
                "arguments": '{"query":"x"}',
                "status": "completed",
            },
            {"type": "tool_search_output", "call_id": "call_9", "execution": "client", "tools": [], "status": "completed"},
        ],
        "field_shape",
        1,
        "/arguments",
    ),
    "message_status_null": (
        [USER, {"type": "message", "id": "msg_1", "role": "assistant", "status": None, "content": "hi"}],
        "null_not_accepted",
        1,
        "/status",
    ),
    "reasoning_status_null": (
        [USER, {"type": "reasoning", "summary": [], "encrypted_content": "gAAA", "status": None}, call(), OUT],
        "null_not_accepted",
        1,
        "/status",
    ),
    "foreign_function_call_id": ([USER, call(id="toolu_01A"), OUT], "id_format", 1, "/id"),
    "foreign_message_id": (
        [USER, {"type": "message", "id": "item_7", "role": "assistant", "content": "hi"}],
        "id_format",
        1,
        "/id",
    ),
    "computer_output_not_screenshot": (computer("clicked"), "computer_output_not_screenshot", 2, "/output"),
    "computer_output_wrong_object": (
        computer({"type": "input_image", "image_url": PNG}),
        "computer_output_not_screenshot",
        2,
        "/output",
    ),
    "computer_output_without_image": (
        computer({"type": "computer_screenshot"}),
        "computer_output_not_screenshot",
        2,
        "/output",
    ),
    "image_without_source": ([image()], "image_source_missing", 0, "/content/0"),
    "image_null_sources": ([image(image_url=None, file_id=None)], "image_source_missing", 0, "/content/0"),
    "data_url_empty": ([image(image_url="data:image/png;base64,")], "data_url_invalid", 0, "/content/0/image_url"),
    "data_url_not_base64": ([image(image_url="data:image/png,abc")], "data_url_invalid", 0, "/content/0/image_url"),
    "data_url_bad_payload": (
        [image(image_url="data:image/png;base64,@@@")],
        "data_url_invalid",
        0,
        "/content/0/image_url",
    ),
    "data_url_not_image": (
        [image(image_url="data:text/plain;base64,aGk=")],
        "data_url_invalid",
        0,
        "/content/0/image_url",
    ),
    "data_url_in_tool_output": (
        [USER, *tool_output_image("data:application/pdf;base64,aGk=")],
        "data_url_invalid",
        2,
        "/output/0/image_url",
    ),
    "data_url_in_screenshot": (
        computer({"type": "computer_screenshot", "image_url": "data:image/png;base64,"}),
        "data_url_invalid",
        2,
        "/output/image_url",
    ),
}

#: Accepted by the openai profile: absent keys, the valid forms next to each refused one.
ACCEPTED: dict[str, list[dict[str, Any]]] = {
    "absent_status_and_id": [USER, call(), OUT],
    "function_call_status_null": [USER, call(status=None), OUT],  # recorded: corpus pai-03
    "own_ids": [USER, call(id="fc_1", status="completed"), OUT],
    "tool_search_arguments_object": [
        USER,
        {"type": "tool_search_call", "id": "tsc_1", "call_id": "c9", "execution": "client", "arguments": {}},
        {"type": "tool_search_output", "call_id": "c9", "execution": "client", "tools": []},
    ],
    "screenshot": computer({"type": "computer_screenshot", "image_url": PNG}),
    "screenshot_file": computer({"type": "computer_screenshot", "file_id": "file_1"}),
    "image_url": [image(image_url="https://example.com/a.png")],
    "image_data_url": [image(image_url=PNG)],
    "image_file": [image(file_id="file_1")],
    "tool_output_image": [USER, *tool_output_image(PNG)],
}


def codes(report: Any) -> set[tuple[int | None, str, str]]:
    return {(v.index, str(v.code), v.path) for v in report.violations}


# --- the library ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_is_refused_with_its_code_on_dicts(name: str) -> None:
    items, code, index, path = CLASSES[name]
    report = rp.check_transcript(items, target="openai", provider="openai")
    assert (index, code, path) in codes(report), report.violations
    without_target = {str(v.code) for v in rp.check_transcript(items, provider="openai").violations}
    if code == "data_url_invalid":  # a broken data: URL is broken for every provider
        assert code in without_target
    else:
        assert code not in without_target


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_on_text_bodies_models_and_streams(name: str) -> None:
    items, code, index, path = CLASSES[name]
    want = (index, code, path)
    texts = [json.dumps(i) for i in items]
    assert want in codes(rp.check_transcript(texts, target="openai", provider="openai"))
    body = {"model": "m", "input": items}
    assert want in codes(rp.check_transcript(body, target="openai", provider="openai"))
    assert want in codes(check_transcript_iter(iter(items), target="openai", provider="openai"))
    assert want in codes(check_transcript_iter(iter(texts), target="openai", provider="openai"))
    parsed = [_parsed_or_raw(i) for i in items]  # models where they parse (a broken item stays JSON)
    assert want in codes(rp.check_transcript(parsed, target="openai", provider="openai"))


def _parsed_or_raw(item: dict[str, Any]) -> Any:
    try:
        return rp.parse_item(item, provider="openai")
    except rp.ItemError:
        return item


@pytest.mark.parametrize("name", ACCEPTED)
def test_valid_forms_pass(name: str) -> None:
    items = ACCEPTED[name]
    assert rp.check_transcript(items, target="openai", provider="openai").ok
    assert rp.check_transcript({"model": "m", "input": items}, target="openai", provider="openai").ok


@pytest.mark.parametrize("name", CLASSES)
def test_other_targets_have_no_openai_rules(name: str) -> None:
    items, code, _, _ = CLASSES[name]
    got = {str(v.code) for v in rp.check_transcript(items, target="acme", provider="openai").violations}
    assert (code in got) is (code == "data_url_invalid")  # a broken data: URL is broken for every target


# --- store: false -----------------------------------------------------------------------------------------

REASONING_BARE = {"type": "reasoning", "id": "rs_1", "summary": []}
REASONING_BLOB = {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA"}


def stateless(*items: dict[str, Any], store: bool | None = False, **body: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": "m", "input": [USER, *items], **body}
    if store is not None:
        out["store"] = store
    return out


@pytest.mark.parametrize("target", [None, "openai", "acme"])
def test_store_false_refuses_references_by_id_alone(target: str | None) -> None:
    body = stateless(REASONING_BARE, call(id="fc_1"), OUT, include=["reasoning.encrypted_content"])
    assert (1, "reasoning_not_persisted", "/encrypted_content") in codes(rp.check_transcript(body, target=target))
    ref = stateless({"type": "item_reference", "id": "msg_1"})
    assert (1, "item_reference_not_persisted", "/id") in codes(rp.check_transcript(ref, target=target))
    shorthand_ref = stateless({"id": "msg_1"})
    assert (1, "item_reference_not_persisted", "/id") in codes(rp.check_transcript(shorthand_ref, target=target))


@pytest.mark.parametrize("target", [None, "openai"])
def test_stateless_replay_with_encrypted_content_passes(target: str | None) -> None:
    body = stateless(REASONING_BLOB, call(), OUT, include=["reasoning.encrypted_content"])
    assert rp.check_transcript(body, target=target, provider="openai").ok
    with_id = stateless({**REASONING_BLOB, "id": "rs_1"}, call(id="fc_1"), OUT, include=["reasoning.encrypted_content"])
    assert rp.check_transcript(with_id, target=target, provider="openai").ok


def test_stored_conversations_may_refer_by_id() -> None:
    for store in (True, None):
        assert rp.check_transcript(stateless(REASONING_BARE, call(id="fc_1"), OUT, store=store)).ok
        assert rp.check_transcript(stateless({"type": "item_reference", "id": "msg_1"}, store=store)).ok


def test_body_rules_of_the_openai_profile() -> None:
    bad = stateless(store=True, include=["reasoning.encrypted_content", "everything"])
    assert (None, "include_invalid", "/include/1") in codes(rp.check_transcript(bad, target="openai"))
    both = stateless(store=True, previous_response_id="resp_1", conversation="conv_1")
    assert (None, "body_conflict", "/conversation") in codes(rp.check_transcript(both, target="openai"))
    assert rp.check_transcript(stateless(store=True, previous_response_id="resp_1"), target="openai").ok


# --- pairing as the API pairs -------------------------------------------------------------------------------

SHELL_CALL = {
    "type": "local_shell_call",
    "id": "lsh_1",
    "call_id": "call_1",
    "action": {"type": "exec", "command": ["ls"], "env": {}},
    "status": "completed",
}


def test_local_shell_output_pairs_by_call_id_alone() -> None:
    by_call_id = [USER, SHELL_CALL, {"type": "local_shell_call_output", "call_id": "call_1", "output": "a\n"}]
    assert rp.check_transcript(by_call_id, provider="openai").ok
    assert rp.check_transcript(by_call_id, provider="openai", target="openai").ok
    by_id = [USER, SHELL_CALL, {"type": "local_shell_call_output", "id": "call_1", "output": "a\n"}]
    got = codes(rp.check_transcript(by_id, provider="openai"))
    assert (1, "function_call_without_output", "/call_id") in got


# --- prepare_replay ---------------------------------------------------------------------------------------

FIXABLE_CLASSES = ("chat_role_on_function_call", "undeclared_key", "message_status_null", "reasoning_status_null",
                   "foreign_function_call_id", "foreign_message_id")  # fmt: skip


@pytest.mark.parametrize("name", CLASSES)
def test_prepare_replay_fixes_what_is_safe_and_refuses_the_rest(name: str) -> None:
    items, code, index, _ = CLASSES[name]
    if name in FIXABLE_CLASSES:
        kept, report = rp.prepare_replay(items, target="openai", provider="openai")
        assert report.check.ok
        assert any(i == index for i, _ in report.changed), report.changed
        dumped = [rp.dump_item(k) for k in kept]
        assert rp.check_transcript(dumped, target="openai", provider="openai").ok
        assert sum(1 for d in dumped if d.get("type") == "message") == sum(
            1 for d in items if d.get("type") == "message"
        )
    else:
        with pytest.raises(rp.ReplayableError) as err:
            rp.prepare_replay(items, target="openai", provider="openai")
        if isinstance(err.value, rp.ReplayError):
            assert code in str(err.value) and any(str(v.code) == code for v in err.value.report.violations)
        else:  # an item its own schema refuses (a computer_call_output needs a screenshot): ItemError
            assert isinstance(err.value, rp.ItemError) and err.value.errors[0]["loc"][0] == index


def test_prepare_replay_drops_reasoning_a_stateless_request_cannot_use() -> None:
    body = stateless(REASONING_BARE, call(id="fc_1"), OUT)
    kept, report = rp.prepare_replay(body, target="openai", provider="openai")
    assert [i for i, _ in report.dropped] == [1]
    assert report.check.ok
    after = {**body, "input": [rp.dump_item(k) for k in kept]}
    assert rp.check_transcript(after, target="openai", provider="openai").ok
    with pytest.raises(rp.ReplayError) as err:  # a stored item of the same provider: nothing to send instead
        rp.prepare_replay(stateless({"type": "item_reference", "id": "msg_1"}), target="openai", provider="openai")
    assert [str(v.code) for v in err.value.report.violations] == ["item_reference_not_persisted"]


@needs_corpus
def test_prepare_replay_result_passes_for_the_same_target_on_recorded_requests() -> None:
    for path in corpus_files("request"):
        body = load(path)["body"]
        kept, report = rp.prepare_replay(body, target="openai", provider="openai")
        after = {**body, "input": [rp.dump_item(k) for k in kept]}
        assert report.check.ok and rp.check_transcript(after, target="openai", provider="openai").ok, path.name


# --- no false alarms: what OpenAI accepted ----------------------------------------------------------------


@needs_corpus
def test_recorded_requests_are_accepted_by_the_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = corpus_files("request")
    assert files
    for path in files:
        body = load(path)["body"]
        report = rp.check_transcript(body, target="openai", provider="openai")
        assert report.ok, (path.name, report.violations)
        assert rp.check_transcript(body["input"], target="openai", provider="openai").ok, path.name
        f = tmp_path / path.name
        f.write_text(json.dumps(body))
        code = main(["check", str(f), "--target", "openai", "--provider", "openai"])
        out, _ = capsys.readouterr()
        assert code == 0, out


# --- the command line -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_is_refused_by_the_cli(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items, code, index, path = CLASSES[name]
    f = tmp_path / "body.json"
    f.write_text(json.dumps({"model": "m", "input": items}))
    assert main(["check", str(f), "--target", "openai", "--provider", "openai", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {"index": index, "code": code, "path": path} in [
        {k: v[k] for k in ("index", "code", "path")} for v in report["violations"]
    ]
    jsonl = tmp_path / "items.jsonl"
    jsonl.write_text("".join(json.dumps(i) + "\n" for i in items))
    assert main(["check", str(jsonl), "--target", "openai", "--provider", "openai"]) == 1
    out = capsys.readouterr().out
    assert f"item {index}: {code}" in out


def test_cli_store_false_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "body.json"
    f.write_text(json.dumps(stateless(REASONING_BARE, call(id="fc_1"), OUT)))
    assert main(["check", str(f)]) == 1
    assert "reasoning_not_persisted" in capsys.readouterr().out
    f.write_text(json.dumps(stateless(REASONING_BLOB, call(), OUT, include=["reasoning.encrypted_content"])))
    assert main(["check", str(f), "--target", "openai", "--provider", "openai"]) == 0


# --- the error names the OpenAI reading ---------------------------------------------------------------------


def test_strict_reading_of_openai_types_names_provider_openai(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    item = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(item)
    assert "provider='openai'" in str(err.value) and "acme:" not in str(err.value)
    report = rp.check_transcript([USER, item])
    assert "provider='openai'" in report.violations[0].message and "acme:" not in report.violations[0].message
    with pytest.raises(rp.ItemError) as err:
        rp.parse_request({"model": "m", "input": [item]})
    assert "provider='openai'" in str(err.value) and "acme:" not in str(err.value)
    f = tmp_path / "items.json"
    f.write_text(json.dumps([USER, item]))
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert "--provider openai" in out and "acme:" not in out
    # an unknown type still gets the slug:name advice
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item({"type": "brand_new_item", "id": "x"})
    assert "slug:name" in str(err.value)


@needs_corpus
def test_strict_reading_of_an_openai_response_names_provider_openai() -> None:
    for path in corpus_files("response"):
        body = load(path)["body"]
        try:
            rp.parse_response(body)
        except rp.ItemError as exc:
            assert "acme:" not in str(exc), path.name
            if all(e["type"] in ("missing", "extra_forbidden") for e in exc.errors):
                assert "provider='openai'" in str(exc).splitlines()[0], path.name


# --- the table: data, cited, checked against its sources -------------------------------------------------


def test_profiles_ship_and_unknown_targets_read_open_responses() -> None:
    assert set(PROFILES) == {"openresponses", "openai"}
    assert get_profile(None) is PROFILES["openresponses"] and get_profile("acme") is PROFILES["openresponses"]
    openai = get_profile("openai")
    assert openai.closed and openai.items["function_call"].id_prefix == "fc"
    for row in [*openai.items.values(), *openai.parts.values()]:
        assert row.source, row.type
    for item_row in openai.items.values():
        assert item_row.id_prefix is None or item_row.id_source


def _openapi() -> dict[str, Any]:
    if not OPENAPI.is_file():
        pytest.skip("../shared/reference/openai-openapi.json is not beside this checkout")
    return typing.cast(dict[str, Any], json.loads(OPENAPI.read_text()))


def _props(schemas: dict[str, Any], name: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    s = schemas[name]
    for part in [s, *s.get("allOf", [])]:
        if "$ref" in part and part is not s:
            out.update(_props(schemas, part["$ref"].rsplit("/", 1)[1]))
        out.update(part.get("properties", {}))
    return out


def _variants(schemas: dict[str, Any], name: str) -> list[str]:
    s = schemas[name]
    members = s.get("oneOf") or s.get("anyOf")
    if not members:
        return [name]
    return [v for m in members if "$ref" in m for v in _variants(schemas, m["$ref"].rsplit("/", 1)[1])]


def _nullable(schema: dict[str, Any]) -> bool:
    return any(v.get("type") == "null" for v in schema.get("anyOf", []) + schema.get("oneOf", []))


def _type_of(schemas: dict[str, Any], name: str) -> str:
    t = _props(schemas, name)["type"]
    for v in [t, *t.get("anyOf", [])]:
        if "enum" in v:
            return str(v["enum"][0])
    raise AssertionError(name)


#: Where the table departs from the OpenAPI document, and why (each also cited in its row).
OVERRIDES = {
    ("function_call", "status"): "nullable: corpus pai-03, pai-07",
    ("function_call", "async"): "SDK ResponseFunctionToolCallParam",
    ("custom_tool_call", "async"): "SDK ResponseCustomToolCallParam",
    ("local_shell_call_output", "call_id"): "OpenAPI `required`, case R45",
    ("compaction_trigger", "id"): "SDK CompactionTrigger",
}


def test_item_rows_match_openai_openapi() -> None:
    schemas = _openapi()["components"]["schemas"]
    by_type: dict[str, dict[str, Any]] = {}
    for name in _variants(schemas, "InputItem"):
        by_type.setdefault(_type_of(schemas, name), {}).update(
            {k: v for k, v in _props(schemas, name).items() if k != "type"}
        )
    table = get_profile("openai").items
    assert set(by_type) <= set(table)
    for t, props in by_type.items():
        row = table[t]
        extra = {k for k in row.fields if k not in props and (t, k) not in OVERRIDES}
        sdk_only = {"image_generation_call"}  # the SDK's newer fields, cited in the row
        assert not extra or t in sdk_only, (t, extra)
        assert set(props) <= set(row.fields), (t, set(props) - set(row.fields))
        for k, schema in props.items():
            if (t, k) not in OVERRIDES and t != "message":  # message: the union of three forms
                assert row.fields[k].nullable == _nullable(schema), (t, k)


def test_part_rows_match_openai_openapi() -> None:
    schemas = _openapi()["components"]["schemas"]
    parts = get_profile("openai").parts
    for union in ("InputContent", "OutputMessageContent", "FunctionAndCustomToolCallOutput"):
        for name in _variants(schemas, union):
            props = {k for k in _props(schemas, name) if k != "type"}
            assert props == set(parts[_type_of(schemas, name)].fields), name
    assert set(parts["computer_screenshot"].fields) == set(_props(schemas, "ComputerScreenshotImage")) - {"type"}


def test_item_rows_cover_the_sdk_param_types() -> None:
    from openai.types.responses import response_input_item_param as sdk

    def literal(t: Any) -> Any:
        for a in [t, *typing.get_args(t)]:
            if typing.get_origin(a) is typing.Literal:
                return typing.get_args(a)[0]
        return None

    table = get_profile("openai").items
    for td in typing.get_args(sdk.ResponseInputItemParam):
        hints = typing.get_type_hints(td)
        row = table[literal(hints["type"])]
        assert set(hints) - {"type"} <= set(row.fields), (td.__name__, set(hints) - set(row.fields))


def test_docs_table_is_the_profile() -> None:
    """docs/targets.md shows what the `openai` profile refuses, as `markdown_table` generates it."""
    page = (ROOT / "docs" / "targets.md").read_text(encoding="utf-8")
    assert markdown_table(get_profile("openai")) in page
    assert str(CORPUS)  # the corpus is read from ../shared, never copied


def test_cli_prepare_fixes_and_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "items.json"
    f.write_text(json.dumps(CLASSES["chat_role_on_function_call"][0]))
    assert main(["prepare", "--target", "openai", "--provider", "openai", str(f), "--report"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "role" not in out["input"][1] and any("/role" in c["change"] for c in out["changed"])
    f.write_text(json.dumps(CLASSES["image_without_source"][0]))
    assert main(["prepare", "--target", "openai", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "image_source_missing" in err and "Traceback" not in err


def test_target_openai_refuses_request_keys_openai_does_not_accept(tmp_path: Path) -> None:
    """From a new user's report: a misspelt key (`tmperature`) passed `--target openai`; OpenAI refuses
    unknown parameters. Without a target the spec reading keeps unknown keys (extensions)."""
    body = {"model": "gpt-5", "input": "hi", "tmperature": 0.5, "store": False}
    report = rp.check_transcript(body, target="openai")
    assert [(v.index, str(v.code), v.path) for v in report.violations] == [(None, "field_not_accepted", "/tmperature")]
    assert "'tmperature'" in report.violations[0].message
    assert rp.check_transcript(body).ok
    ok = {"model": "gpt-5", "input": "hi", "temperature": 0.5, "stream": True, "background_options": {}}
    assert rp.check_transcript(ok, target="openai").ok
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    assert main(["check", str(path), "--target", "openai"]) == 1
    assert main(["check", str(path)]) == 0
