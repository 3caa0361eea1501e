"""What providers enforce on the order and company of items and on where an item came from:
a compaction trigger is the final input item, a tool choice names a declared tool, an inline file has a
filename for OpenAI, reasoning travels with what it produced, an item read with a provider is that
provider's, fields that steer the check are read or refused, a program's call runs inside its program's
turn, a broken data: URL is broken for every target, a tool without `strict` is strict only when it fits
(OpenAI), a stream's final snapshot is the stored record, and the articles' notes. Each class is tested on
every door: dicts and parsed models, the wire and `openai:` forms, a list and a whole body, a stream, the
openai SDK hook, `prepare_replay` and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FULL_RESPONSE

import replayable as rp
from replayable._cli import main
from replayable._replay import check_transcript_iter
from replayable.integrations.openai import check_request_body

USER = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
ASSISTANT = {
    "type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
    "content": [{"type": "output_text", "text": "ok", "annotations": []}],
}  # fmt: skip
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "opaque"}
CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "f",
    "arguments": "{}",
    "status": "completed",
}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
TOOL = {
    "type": "function",
    "name": "f",
    "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
}


def codes(report: rp.TranscriptReport) -> list[str]:
    return sorted(str(v.code) for v in report.violations)


def cli(tmp_path: Path, value: Any, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[str]]:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(value))
    status = main(["check", str(path), "--format", "json", *extra])
    doc = json.loads(capsys.readouterr().out)
    return status, sorted(f["code"] for f in doc["findings"] if f["severity"] == "error")


def hook_codes(body: dict[str, Any], target: str | None = None) -> list[str]:
    try:
        check_request_body(json.dumps(body).encode(), target=target)
    except rp.ReplayError as exc:
        return codes(exc.report)
    return []


# --- compaction_trigger: the final input item, and only one (case R61) ------------------------------------

TRIGGER = {"type": "compaction_trigger"}


@pytest.mark.parametrize(
    ("items", "provider", "expected"),
    [
        ([USER, {"type": "openai:compaction_trigger"}, USER], None, ["compaction_trigger_not_last"]),
        ([USER, TRIGGER, USER], "openai", ["compaction_trigger_not_last"]),
        ([USER, TRIGGER, TRIGGER], "openai", ["compaction_trigger_not_last"]),
        ([USER, ASSISTANT, TRIGGER], "openai", []),
        ([USER, {"type": "openai:compaction_trigger"}], None, []),
    ],
)
def test_a_compaction_trigger_is_the_final_input_item(
    items: list[Any], provider: str | None, expected: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert codes(rp.check_transcript(items, provider=provider)) == expected
    assert codes(rp.check_transcript(items, provider=provider, target="openai")) == expected
    assert codes(rp.check_transcript({"model": "m", "input": items}, provider=provider)) == expected
    assert codes(rp.check_transcript(rp.parse_items(items, provider=provider))) == expected
    assert codes(check_transcript_iter(iter(items), provider=provider)) == expected
    assert hook_codes({"model": "m", "input": items}) == expected
    status, found = cli(tmp_path, items, capsys, *(["--provider", "openai"] if provider else []))
    assert (status, found) == ((1 if expected else 0), expected)


def test_two_triggers_say_only_one_is_sent() -> None:
    report = rp.check_transcript([USER, TRIGGER, TRIGGER], provider="openai")
    (v,) = report.violations
    assert v.index == 1 and "only one compaction_trigger" in v.message and "item 2" in v.message


# --- tool_choice and allowed_tools name declared tools (case R68; R66 stays valid) -------------------------

WEB = {"type": "web_search"}
CUSTOM = {"type": "custom", "name": "exec_code"}
MCP = {"type": "mcp", "server_label": "docs", "server_url": "https://example.invalid/mcp"}


def _allowed(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"type": "allowed_tools", "mode": "auto", "tools": list(tools)}


@pytest.mark.parametrize(
    ("tools", "choice", "path", "strict"),
    [
        ([TOOL, WEB], _allowed({"type": "function", "name": "f"}, {"type": "function", "name": "web_search"}),
         "/tool_choice/tools/1", "body_invalid tool_choice_not_declared"),  # strictly, `web_search` is no tool
        ([TOOL], _allowed({"type": "function", "name": "g"}), "/tool_choice/tools/0", "tool_choice_not_declared"),
        ([TOOL], _allowed({"type": "web_search"}), "/tool_choice/tools/0", "body_invalid"),
        ([TOOL], {"type": "function", "name": "g"}, "/tool_choice", "tool_choice_not_declared"),
        ([TOOL], {"type": "custom", "name": "f"}, "/tool_choice", "body_invalid"),
        ([TOOL], {"type": "web_search_preview"}, "/tool_choice", "body_invalid"),
        ([TOOL, MCP], {"type": "mcp", "server_label": "other"}, "/tool_choice", "body_invalid"),
        ([], {"type": "function", "name": "f"}, "/tool_choice", "tool_choice_not_declared"),
    ],
)  # fmt: skip
def test_a_tool_choice_naming_an_undeclared_tool_is_refused_on_every_door(
    tools: list[Any], choice: Any, path: str, strict: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read as OpenAI's (the hook's default, `--provider openai`); read strictly, OpenAI's own tool types are
    `body_invalid` already (in `tools` and in `tool_choice`), and only a function choice is judged again."""
    body = {"model": "m", "input": [USER], "tools": tools, "tool_choice": choice}
    for report in (
        rp.check_transcript(body, provider="openai"),
        rp.check_transcript(body, provider="openai", target="openai"),
        rp.check_transcript(rp.parse_request(body, provider="openai")),
    ):
        (v,) = report.violations
        assert (v.code, v.index, v.path) == ("tool_choice_not_declared", None, path)
    assert hook_codes(body) == ["tool_choice_not_declared"]
    assert cli(tmp_path, body, capsys, "--provider", "openai") == (1, ["tool_choice_not_declared"])
    assert sorted(set(codes(rp.check_transcript(body)))) == strict.split()


def test_the_message_says_a_hosted_tool_is_named_by_its_type() -> None:
    body = {"model": "m", "input": [USER], "tools": [TOOL, WEB],
            "tool_choice": _allowed({"type": "function", "name": "web_search"})}  # fmt: skip
    (v,) = rp.check_transcript(body, provider="openai").violations
    assert "function 'web_search'" in v.message and "{type: 'web_search'}" in v.message and "R68" in v.message


@pytest.mark.parametrize(
    ("tools", "choice"),
    [
        ([CUSTOM], {"type": "custom", "name": "exec_code"}),
        ([TOOL, WEB], _allowed({"type": "function", "name": "f"}, {"type": "web_search"})),
        ([{"type": "web_search_preview_2025_03_11"}], {"type": "web_search_preview"}),
        ([{"type": "computer_use_preview", "display_width": 1, "display_height": 1, "environment": "linux"}],
         {"type": "computer_use_preview"}),
        ([TOOL, MCP], {"type": "mcp", "server_label": "docs", "name": "search"}),
        ([{"type": "namespace", "name": "crm", "description": "d", "tools": [TOOL]}], {"type": "function", "name": "f"}),
        ([TOOL], "required"),
        ([TOOL], {"type": "programmatic_tool_calling"}),
    ],
)  # fmt: skip
def test_a_tool_choice_naming_a_declared_tool_passes(tools: list[Any], choice: Any) -> None:
    body = {"model": "m", "input": [USER], "tools": tools, "tool_choice": choice}
    assert "tool_choice_not_declared" not in codes(rp.check_transcript(body, provider="openai"))


def test_a_stored_prompt_brings_its_own_tools() -> None:
    body = {"model": "m", "input": [USER], "prompt": {"id": "pmpt_1"}, "tool_choice": {"type": "function", "name": "f"}}
    assert "tool_choice_not_declared" not in codes(rp.check_transcript(body, provider="openai"))


# --- input_file with file_data needs a filename for OpenAI (case R64) -------------------------------------


def _file_message(**part: Any) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_file", **part}]}


DATA = "data:application/pdf;base64,JVBERi0xLjQK"


def test_inline_file_data_without_a_filename_is_refused_for_openai(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [_file_message(file_data=DATA)]
    for report in (
        rp.check_transcript(items, target="openai"),
        rp.check_transcript({"model": "m", "input": items}, target="openai"),
        rp.check_transcript(rp.parse_items(items, provider="openai"), target="openai"),
    ):
        (v,) = report.violations
        assert (v.code, v.index, v.path) == ("file_data_without_filename", 0, "/content/0/filename")
        assert "laravel/ai#321" in v.message
    assert hook_codes({"model": "m", "input": items}, target="openai") == ["file_data_without_filename"]
    assert cli(tmp_path, items, capsys, "--target", "openai") == (1, ["file_data_without_filename"])
    with pytest.raises(rp.ReplayError, match="file_data_without_filename"):
        rp.prepare_replay(items, target="openai")
    # what OpenAI accepts: a filename beside the data, a file_id alone; other targets have no such rule
    assert rp.check_transcript([_file_message(file_data=DATA, filename="notes.pdf")], target="openai").ok
    assert rp.check_transcript([_file_message(file_id="file_1")], target="openai").ok
    assert rp.check_transcript(items, target="acme").ok


# --- reasoning travels with what it produced --------------------------------------------------------------

TWO = [
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"type": "reasoning", "id": "rs_2", "summary": []},
    {**CALL, "id": "fc_1", "call_id": "call_1"},
    {**CALL, "id": "fc_2", "call_id": "call_2"},
    {**OUTPUT, "call_id": "call_1"},
    {**OUTPUT, "call_id": "call_2"},
]


def test_two_reasoning_items_stored_together_are_refused_on_every_door(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for report in (
        rp.check_transcript(TWO),
        rp.check_transcript(TWO, provider="openai", target="openai"),
        rp.check_transcript(rp.parse_items(TWO, provider="openai")),
        rp.check_transcript({"model": "m", "input": TWO}),
        check_transcript_iter(iter(TWO)),
    ):
        (v,) = report.violations
        assert (v.code, v.index) == ("reasoning_without_following_item", 0)
        assert "another reasoning item ('rs_2')" in v.message
    assert hook_codes({"model": "m", "input": TWO}) == ["reasoning_without_following_item"]
    assert cli(tmp_path, TWO, capsys) == (1, ["reasoning_without_following_item"])
    # each reasoning item right before what it produced is fine
    interleaved = [TWO[0], TWO[2], TWO[1], TWO[3], TWO[4], TWO[5]]
    assert rp.check_transcript(interleaved).ok


def test_prepare_replay_never_leaves_an_item_without_the_reasoning_that_produced_it() -> None:
    items, report = rp.prepare_replay(TWO, target="openai", provider="openai")
    sent = [rp.dump_item(i) for i in items]
    assert [d["type"] for d in sent] == ["function_call"] * 2 + ["function_call_output"] * 2
    assert all("id" not in d for d in sent)  # no server id left to look up without its reasoning
    assert report.changed == (
        (2, "server id removed: the reasoning item that produced it (item 0) was dropped"),
        (3, "server id removed: the reasoning item that produced it (item 1) was dropped"),
    )
    assert rp.check_transcript(sent, target="openai", source="openai").ok


@pytest.mark.parametrize("produced", [CALL, ASSISTANT])
def test_store_false_drops_bare_reasoning_and_the_id_of_what_it_produced(produced: dict[str, Any]) -> None:
    """With `store: false` a reasoning item sent as a bare id is dropped: the item it produced must not be
    sent by its server id either (OpenAI would look it up and miss its reasoning)."""
    tail = [OUTPUT] if produced is CALL else []
    body = {"model": "m", "store": False, "input": [USER, {"type": "reasoning", "id": "rs_1", "summary": []},
                                                    produced, *tail]}  # fmt: skip
    assert "reasoning_not_persisted" in codes(rp.check_transcript(body, target="openai"))
    items, report = rp.prepare_replay(body, target="openai", provider="openai")
    sent = [rp.dump_item(i) for i in items]
    assert [d["type"] for d in sent] == ["message", produced["type"], *(d["type"] for d in tail)]
    assert "id" not in sent[1]
    assert (2, "server id removed: the reasoning item that produced it (item 1) was dropped") in report.changed
    assert rp.check_transcript({**body, "input": sent}, target="openai").ok


# --- an item knows its provider ---------------------------------------------------------------------------

RESPONSE = {**FULL_RESPONSE, "status": "completed", "output": [REASONING, CALL]}


def _keeps_reasoning_and_ids(items: list[Any]) -> None:
    sent = [i if isinstance(i, dict) else rp.dump_item(i) for i in items]
    assert [d["type"] for d in sent] == ["reasoning", "function_call", "function_call_output"]
    assert sent[0]["id"] == "rs_1" and sent[0]["encrypted_content"] == "opaque" and sent[1]["id"] == "fc_1"


def test_openais_own_response_replayed_to_openai_keeps_its_reasoning_and_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    response = rp.parse_response(RESPONSE, provider="openai")
    history = [*response.output, *rp.parse_items([OUTPUT], provider="openai")]
    assert rp.check_transcript(response, target="openai").ok
    assert rp.check_transcript(history, target="openai").ok
    assert rp.check_transcript(rp.parse_items([REASONING, CALL, OUTPUT], provider="openai"), target="openai").ok
    assert check_transcript_iter(iter(rp.parse_items([REASONING, CALL, OUTPUT], provider="openai")), target="openai").ok
    items, report = rp.prepare_replay(history, target="openai")
    assert report.source == "openai" and report.dropped == () and report.changed == ()
    _keeps_reasoning_and_ids(items)
    items, _ = rp.prepare_replay({"model": "m", "input": history}, target="openai")
    _keeps_reasoning_and_ids(items)
    assert cli(tmp_path, [REASONING, CALL, OUTPUT], capsys, "--provider", "openai", "--target", "openai") == (0, [])
    assert cli(tmp_path, RESPONSE, capsys, "--provider", "openai", "--target", "openai") == (0, [])
    path = tmp_path / "history.json"
    path.write_text(json.dumps([REASONING, CALL, OUTPUT]))
    assert main(["prepare", str(path), "--target", "openai", "--provider", "openai", "--report"]) == 0
    prepared = json.loads(capsys.readouterr().out)
    assert prepared["dropped"] == [] and prepared["changed"] == []
    _keeps_reasoning_and_ids(prepared["input"])


def test_sdk_objects_and_an_assembled_stream_are_openais() -> None:
    responses = pytest.importorskip("openai.types.responses")
    sdk = [responses.ResponseReasoningItem.model_validate(REASONING),
           responses.ResponseFunctionToolCall.model_validate(CALL)]  # fmt: skip
    assert rp.check_transcript([*sdk, OUTPUT], target="openai").ok
    items, report = rp.prepare_replay([*sdk, OUTPUT], target="openai")
    assert report.source == "openai"
    _keeps_reasoning_and_ids(items)


def test_an_assembled_openai_stream_is_openais() -> None:
    response = {**FULL_RESPONSE, "status": "completed", "completed_at": 1, "output": [REASONING, CALL]}
    events = [
        {"type": "response.created", "sequence_number": 0, "response": FULL_RESPONSE},
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": REASONING},
        {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": REASONING},
        {"type": "response.output_item.added", "sequence_number": 3, "output_index": 1,
         "item": {**CALL, "status": "in_progress", "arguments": ""}},
        {"type": "response.function_call_arguments.done", "sequence_number": 4, "output_index": 1, "item_id": "fc_1",
         "arguments": "{}"},
        {"type": "response.output_item.done", "sequence_number": 5, "output_index": 1, "item": CALL},
        {"type": "response.completed", "sequence_number": 6, "response": response},
    ]  # fmt: skip
    asm = _feed(events, "openai")
    assert rp.check_transcript([*asm.items, OUTPUT], target="openai").ok
    assert rp.check_transcript(asm.resource, target="openai").ok
    items, report = rp.prepare_replay([*asm.items, OUTPUT], target="openai")
    assert report.source == "openai"
    _keeps_reasoning_and_ids(items)
    # read strictly, nobody said whose the reasoning is
    assert codes(rp.check_transcript([*_feed(events).items, OUTPUT], target="openai")) == ["foreign_provider_state"]


def test_an_unknown_owner_is_named_and_the_message_says_how_to_name_it() -> None:
    report = rp.check_transcript([REASONING, CALL, OUTPUT], target="openai")
    (v,) = report.violations
    assert v.code == "foreign_provider_state"
    assert "source=" in v.message and "provider='openai'" in v.message and "'unknown'" not in v.message
    assert rp.check_transcript([REASONING, CALL, OUTPUT], target="openai", source="openai").ok
    (v,) = rp.check_transcript([REASONING, CALL, OUTPUT], target="openai", source="acme").violations
    assert "belongs to provider 'acme', not 'openai'" in v.message
    _, report = rp.prepare_replay([REASONING, CALL, OUTPUT], target="openai")
    assert "source=" in dict(report.dropped)[0]


# --- fields that steer the check are read, or refused -----------------------------------------------------

UNANSWERED = [USER, OUTPUT]  # an output whose call only a continuation could hold


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("conversation", True, "/conversation"),
        ("conversation", 1, "/conversation"),
        ("conversation", ["x"], "/conversation"),
        ("conversation", "", "/conversation"),
        ("conversation", {"id": 5}, "/conversation/id"),
        ("conversation", {}, "/conversation/id"),
        ("previous_response_id", True, "/previous_response_id"),
        ("previous_response_id", 1, "/previous_response_id"),
        ("previous_response_id", ["x"], "/previous_response_id"),
        ("previous_response_id", "", "/previous_response_id"),
        ("previous_response_id", {"id": 5}, "/previous_response_id"),
    ],
)
def test_a_continuation_field_of_the_wrong_shape_is_body_invalid_on_every_door(
    key: str, value: Any, path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {"model": "m", "input": UNANSWERED, key: value}
    for provider in (None, "openai"):
        report = rp.check_transcript(body, provider=provider)
        assert report.external == ()  # never read as a continuation
        assert ("body_invalid", None, path) in [(v.code, v.index, v.path) for v in report.violations]
        assert "output_without_function_call" in codes(report)
    assert "body_invalid" in hook_codes(body)
    status, found = cli(tmp_path, body, capsys, "--provider", "openai")
    assert status == 1 and "body_invalid" in found
    with pytest.raises(rp.ReplayError, match="body_invalid"):
        rp.prepare_replay(body, target="openai", provider="openai")


@pytest.mark.parametrize(
    ("key", "value"),
    [("conversation", "conv_1"), ("conversation", {"id": "conv_1"}), ("previous_response_id", "resp_1")],
)
def test_a_well_formed_continuation_still_makes_unpaired_outputs_external(key: str, value: Any) -> None:
    body = {"model": "m", "input": UNANSWERED, key: value}
    report = rp.check_transcript(body, provider="openai")
    assert report.ok and report.external == (1,)
    items, _ = rp.prepare_replay(body, target="openai", provider="openai")
    assert [rp.dump_item(i)["type"] for i in items] == ["message", "function_call_output"]


# --- gate: a program's call runs only inside that program's turn ------------------------------------------

PROGRAM = {"type": "program", "id": "cm_1", "call_id": "prog_1", "code": "f()", "fingerprint": "x"}
WAITING = {**CALL, "status": "in_progress", "caller": {"type": "program", "caller_id": "prog_1"}}


@pytest.mark.parametrize(
    ("programs", "reason"),
    [
        (None, "status"),
        ([], "status"),
        (["prog_2"], "status"),
        ([{**PROGRAM, "call_id": "prog_2"}], "status"),
        (["prog_1"], "ok"),
        ([PROGRAM], "ok"),
        ([{**PROGRAM, "type": "openai:program"}], "ok"),
    ],
)
def test_gate_runs_a_program_call_only_with_its_program_in_view(programs: Any, reason: str) -> None:
    result = rp.gate(WAITING, {}, programs=programs)
    assert result.reason == reason
    if reason == "status":
        assert "prog_1" in result.detail and "programs=" in result.detail
    assert rp.gate(rp.parse_item(WAITING, provider="openai"), {}, programs=programs).reason == reason


def test_gate_refuses_programs_that_are_no_collection() -> None:
    with pytest.raises(ValueError, match="programs must be a collection"):
        rp.gate(CALL, {}, programs="prog_1")
    assert rp.gate(CALL, {}, programs=None).ok  # a completed call needs no program


def test_check_transcript_agrees_a_program_call_waits_only_with_its_program() -> None:
    assert rp.check_transcript([PROGRAM, WAITING], provider="openai", pending_ok=True).ok
    assert not rp.check_transcript([WAITING], provider="openai", pending_ok=True).ok


# --- a broken data: URL is broken for every provider ------------------------------------------------------


def _image(url: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": url}]}


BROKEN = {
    "empty": ([_image("data:image/png;base64,")], "/content/0/image_url", "is empty"),
    "not an image": ([_image("data:text/plain;base64,aGk=")], "/content/0/image_url", "'text/plain', not image/*"),
    "undecodable": ([_image("data:image/png;base64,@@@")], "/content/0/image_url", "not valid base64"),
    "file data": (
        [{"type": "message", "role": "user", "content": [
            {"type": "input_file", "filename": "a.pdf", "file_data": "data:application/pdf;base64,%%"}]}],
        "/content/0/file_data", "not valid base64",
    ),
    "tool output": (
        [{**CALL, "id": None}, {**OUTPUT, "output": [{"type": "input_image", "image_url": "data:image/png;base64,"}]}],
        "/output/0/image_url", "is empty",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(BROKEN))
@pytest.mark.parametrize("target", [None, "acme", "openai"])
def test_a_broken_data_url_is_refused_whatever_the_target(
    name: str, target: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items, path, why = BROKEN[name]
    items = [{k: v for k, v in i.items() if v is not None} for i in items]
    index = len(items) - 1
    for report in (
        rp.check_transcript(items, target=target),
        rp.check_transcript(rp.parse_items(items, provider="openai"), target=target),
        rp.check_transcript({"model": "m", "input": items}, target=target, provider="openai"),
        check_transcript_iter(iter(items), target=target),
    ):
        found = [(v.index, v.path) for v in report.violations if v.code == "data_url_invalid"]
        assert found == [(index, path)]
        assert why in next(v.message for v in report.violations if v.code == "data_url_invalid")
    assert hook_codes({"model": "m", "input": items}, target=target) == ["data_url_invalid"]
    status, found_cli = cli(tmp_path, items, capsys, *(["--target", target] if target else []))
    assert (status, found_cli) == (1, ["data_url_invalid"])
    with pytest.raises(rp.ReplayError, match="data_url_invalid"):
        rp.prepare_replay(items, target=target or "acme")


def test_a_sound_data_url_passes_for_every_target() -> None:
    items = [_image("data:image/png;base64,iVBORw0KGgo=")]
    for target in (None, "acme", "openai"):
        assert rp.check_transcript(items, target=target).ok


# --- strict by default, as OpenAI says it ----------------------------------------------------------------

WEATHER = {
    "type": "function", "name": "get_weather", "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "units": {"type": "string"}},
                   "required": ["city"]},
}  # fmt: skip
STRICT_CODES = ["strict_schema_additional_properties", "strict_schema_required_incomplete"]


def test_a_tool_without_strict_that_strict_mode_cannot_take_is_a_note_for_openai(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = rp.check_tool(WEATHER, provider="openai")
    assert list(found) == []
    assert [(n.code, n.path) for n in found.notes] == [
        ("strict_fallback", "/parameters/additionalProperties"),
        ("strict_fallback", "/parameters/required"),
    ]
    assert "additionalProperties: false" in found.notes[0].message and "falls back" in found.notes[0].message
    assert "strict_fallback" in {n.code for n in rp.check_tool({**WEATHER, "strict": None}, provider="openai").notes}
    namespace = {"type": "namespace", "name": "crm", "description": "d", "tools": [WEATHER]}
    inside = rp.check_tool(namespace, provider="openai")
    assert list(inside) == [] and {n.path for n in inside.notes} >= {"/tools/0/parameters/additionalProperties"}
    assert sorted(str(f.code) for f in rp.check_tool(namespace)) == STRICT_CODES
    body = {"model": "m", "input": [USER], "tools": [WEATHER]}
    assert rp.check_transcript(body, provider="openai").ok
    assert cli(tmp_path, body, capsys, "--provider", "openai") == (0, [])
    assert cli(tmp_path, [WEATHER], capsys, "--provider", "openai") == (0, [])  # a file of tools


@pytest.mark.parametrize(
    ("tool", "provider"),
    [
        ({**WEATHER, "strict": True}, "openai"),  # strict said: a violation
        (WEATHER, None),  # the spec's default is strict
        ({**WEATHER, "defer_loading": True}, "openai"),  # an Agents API tool is always strict
    ],
)
def test_strict_said_or_implied_stays_a_violation(
    tool: dict[str, Any], provider: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sorted(str(f.code) for f in rp.check_tool(tool, provider=provider)) == STRICT_CODES
    extra = ["--provider", provider] if provider else []
    assert cli(tmp_path, [tool], capsys, *extra) == (1, STRICT_CODES)


def test_strict_false_has_nothing_to_say_and_a_bad_provider_is_refused() -> None:
    found = rp.check_tool({**WEATHER, "strict": False}, provider="openai")
    assert list(found) == [] and all(n.code != "strict_fallback" for n in found.notes)
    with pytest.raises(ValueError, match="provider"):
        rp.check_tool(WEATHER, provider="acme")  # type: ignore[arg-type]


# --- a stream's final snapshot is the stored record --------------------------------------------------------

PART = {"type": "output_text", "text": "Sunny.", "annotations": []}
MESSAGE = {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": [PART]}
CITATION = {"type": "url_citation", "start_index": 0, "end_index": 6, "url": "https://example.invalid", "title": "t"}


def _events(snapshot_item: dict[str, Any], done_item: dict[str, Any] = MESSAGE) -> list[dict[str, Any]]:
    started = {**FULL_RESPONSE, "status": "in_progress"}
    done_part = done_item["content"][0]
    return [
        {"type": "response.created", "sequence_number": 0, "response": started},
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
         "item": {**MESSAGE, "status": "in_progress", "content": []}},
        {"type": "response.content_part.added", "sequence_number": 2, "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "part": {**PART, "text": ""}},
        {"type": "response.output_text.delta", "sequence_number": 3, "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "delta": "Sunny."},
        {"type": "response.output_text.done", "sequence_number": 4, "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "text": "Sunny."},
        {"type": "response.content_part.done", "sequence_number": 5, "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "part": done_part},
        {"type": "response.output_item.done", "sequence_number": 6, "output_index": 0, "item": done_item},
        {"type": "response.completed", "sequence_number": 7,
         "response": {**FULL_RESPONSE, "status": "completed", "completed_at": 1, "output": [snapshot_item]}},
    ]  # fmt: skip


def _feed(events: list[dict[str, Any]], provider: str | None = None) -> rp.stream.StreamAssembler:
    asm = rp.stream.StreamAssembler(provider=provider)  # type: ignore[arg-type]
    for event in events:
        asm.feed(event)
    asm.close()
    return asm


@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_snapshot_output_item_that_does_not_parse_is_refused_as_parse_response_does(
    provider: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _feed(_events(MESSAGE), provider)  # the sound stream passes
    broken = {**MESSAGE, "content": [{"type": "output_text", "text": "Sunny."}]}  # a part without annotations
    with pytest.raises(rp.ItemError):
        rp.parse_response({**FULL_RESPONSE, "status": "completed", "output": [broken]}, provider=provider)
    with pytest.raises(rp.stream.StreamError) as err:
        _feed(_events(broken), provider)
    assert err.value.rule == "item_schema" and "output.0.content.0.annotations" in str(err.value)
    path = tmp_path / "events.json"
    path.write_text(json.dumps(_events(broken)))
    assert main(["check", str(path), *(["--provider", provider] if provider else [])]) == 1
    assert "item_schema" in capsys.readouterr().out


def test_an_annotation_the_stream_never_sent_is_a_snapshot_mismatch() -> None:
    cited = {**MESSAGE, "content": [{**PART, "annotations": [CITATION]}]}
    with pytest.raises(rp.stream.StreamError) as err:
        _feed(_events(cited))
    assert err.value.rule == "snapshot_mismatch" and "1 annotation(s) the stream never sent" in str(err.value)
    _feed(_events(cited, done_item=cited))  # sent with the item: the snapshot agrees
    lenient = rp.stream.StreamAssembler(strict=False)
    for event in _events(cited):
        lenient.feed(event)
    assert [w.rule for w in lenient.warnings if w.violation] == ["snapshot_mismatch"]


def test_an_item_in_the_snapshot_the_stream_never_sent_is_a_snapshot_mismatch() -> None:
    events = _events(MESSAGE)
    events[-1]["response"]["output"] = [MESSAGE, {**MESSAGE, "id": "msg_2"}]
    with pytest.raises(rp.stream.StreamError) as err:
        _feed(events)
    assert err.value.rule == "snapshot_mismatch"


# --- the articles' notes ------------------------------------------------------------------------------------


def _money_tool(schema: dict[str, Any]) -> dict[str, Any]:
    params = {"type": "object", "properties": {"refund_amount": schema}, "required": ["refund_amount"],
              "additionalProperties": False}  # fmt: skip
    return {"type": "function", "name": "refund", "parameters": params, "strict": True}


@pytest.mark.parametrize("schema", [{"type": "number"}, {"type": "string"}, {"type": ["integer", "null"]}])
def test_an_unconstrained_amount_gets_the_note_a_status_gets(schema: dict[str, Any]) -> None:
    found = rp.check_tool(_money_tool(schema))
    assert list(found) == []
    (note,) = found.notes
    assert (note.code, note.path) == ("unconstrained_identifier", "/parameters/properties/refund_amount")
    assert "money amount" in note.message and "enum or an explicit format" in note.message


@pytest.mark.parametrize(
    "schema",
    [{"type": "number", "minimum": 0}, {"type": "string", "pattern": "^[0-9]+$"}, {"type": "integer", "enum": [1, 2]},
     {"type": "string", "format": "decimal"}, {"type": "boolean"}],
)  # fmt: skip
def test_a_constrained_amount_has_no_note(schema: dict[str, Any]) -> None:
    assert rp.check_tool(_money_tool(schema)).notes == ()


DEFERRED = {"type": "function", "name": "lookup", "description": "d", "parameters": {"type": "object"},
            "defer_loading": True}  # fmt: skip


def test_a_deferred_tool_without_tool_search_and_a_text_format_on_a_session_are_noted() -> None:
    agents = rp.agents
    agent = {"model": "m", "tools": [DEFERRED], "text": {"format": {"type": "json_schema", "name": "x", "schema": {}}}}
    notes = agents.session_notes({"agent": agent, "environment": {"type": "none"}, "input": "hi"})
    assert [(n.code, n.path) for n in notes] == [
        ("deferred_without_tool_search", "/agent/tools/0/defer_loading"),
        ("text_format_not_applied", "/agent/text/format"),
    ]
    assert "'lookup'" in notes[0].message and "tool_search" in notes[0].message
    assert "'json_schema'" in notes[1].message and "does not apply" in notes[1].message
    both = {**agent, "tools": [DEFERRED, {"type": "tool_search"}], "text": {"format": {"type": "text"}}}
    assert agents.session_notes({"agent": both}) == []  # plain text asks for nothing


def test_the_event_log_carries_the_session_notes() -> None:
    fixture = Path(__file__).parent.parent / "fixtures" / "agents" / "session_stream.jsonl"
    events = [json.loads(line) for line in fixture.open()]
    for ev in events:
        agent = ev.get("session", {}).get("agent") if isinstance(ev.get("session"), dict) else None
        if isinstance(agent, dict):
            agent["multi_agent"] = {"enabled": False}
            agent["tools"] = [*agent.get("tools", []), DEFERRED]
            agent["text"] = {**agent["text"], "format": {"type": "json_schema", "name": "x", "schema": {}}}
    report = rp.agents.check_event_log(events)
    assert sorted({n.code for n in report.notes}) == ["deferred_without_tool_search", "text_format_not_applied"]


@pytest.mark.parametrize(
    ("tool", "provider", "target", "slug"),
    [
        ({"type": "openai:web_search"}, None, "acme", "openai"),
        ({"type": "acme:lookup"}, None, "openai", "acme"),
        ({"type": "web_search"}, "openai", "acme", "openai"),  # OpenAI's hosted tool, read as OpenAI's
        ({"type": "web_search"}, "openai", "openai", None),
        ({"type": "acme:lookup"}, None, "acme", None),
        ({"type": "acme:lookup"}, None, None, None),  # no target: nothing to be foreign to
    ],
)  # fmt: skip
def test_a_tool_of_another_provider_is_foreign_to_the_target_on_every_door(
    tool: dict[str, Any], provider: str | None, target: str | None, slug: str | None, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A provider's own tool is no more portable than its items: sent to another target it is
    `foreign_extension_item` at its place in `tools`."""
    body = {"model": "m", "input": [USER], "tools": [tool]}
    want = [] if slug is None else [("foreign_extension_item", None, "/tools/0")]
    report = rp.check_transcript(body, provider=provider, target=target)  # type: ignore[arg-type]
    assert [(v.code, v.index, v.path) for v in report.violations] == want
    if slug is not None:
        assert f"belongs to provider {slug!r}, not to the target {target!r}" in report.violations[0].message
    flags = [*(["--provider", provider] if provider else []), *(["--target", target] if target else [])]
    assert cli(tmp_path, body, capsys, *flags) == (1 if want else 0, [c for c, _, _ in want])
