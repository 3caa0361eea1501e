"""One verdict through every door: generated transcripts, under provider None and "openai", with
and without tools, go through every entry point of the same kind, and all must agree on `ok`, the
violation codes and their indexes.

Doors: `check_transcript` on the dicts, on parsed models (`parse_items`, where the items parse), on a
request body, on a Response (with and without `object`), on one item; `replayable.testing.assert_replay_safe`
on JSON text, bytes and JSONL; the openai SDK hook (`check_request_body`) on a body's bytes, and on the
Conversations API's bodies (`check_conversation_body`: a new conversation, items added to one); the command
line in process (`check FILE --format json`) on a JSON array, JSONL, a body, a Response and one item, and
its timeline (`show FILE --html -`: the error findings on each item's row) on an array and a body; the
library's file reader (`replayable._reading.read_file`, then `check_transcript`, or `check_transcript_iter` over a
JSONL read line by line) on the same files, and both on the items as a Codex session file; `check_transcript_iter`
over the JSONL lines themselves; and `prepare_replay`, whose result must pass the check it reports.
Generation is derandomized (the same
examples on every run) and bounded in examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import full_response
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable._cli import main
from replayable._repair import repair_items
from replayable.integrations.openai import check_conversation_body, check_request_body
from replayable.testing import assert_replay_safe

TOOLS = [
    {
        "type": "function",
        "name": "f",
        "parameters": {
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
            "additionalProperties": False,
        },
    }
]
CALL_IDS = ["c1", "c2", "c3"]

Verdict = tuple[bool, tuple[tuple[int | None, str], ...]]


def _call(call_id: str, name: str, arguments: Any, status: str | None) -> dict[str, Any]:
    item = {"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments}
    if status is not None:
        item["status"] = status
    return item


ITEM = st.one_of(
    st.builds(lambda text: {"type": "message", "role": "user", "content": text}, st.sampled_from(["hi", "ok"])),
    st.just({"role": "user", "content": "shorthand"}),
    st.just({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"}]}),
    st.builds(
        _call,
        st.sampled_from(CALL_IDS),
        st.sampled_from(["f", "g"]),
        st.sampled_from(['{"n":1}', '{"n":"x"}', "{", '{"refund":true}', {"n": 1}]),
        st.sampled_from([None, "completed", "completed", "incomplete"]),
    ),
    st.builds(
        lambda c, out: {"type": "function_call_output", "call_id": c, "output": out},
        st.sampled_from(CALL_IDS),
        st.sampled_from(["done", [{"type": "input_text", "text": "x"}], 5]),
    ),
    st.builds(
        lambda n, enc: {"type": "reasoning", "id": f"rs_{n}", "summary": [], **({"encrypted_content": "e"} if enc else {})},
        st.integers(0, 2),
        st.booleans(),
    ),
    st.just({"type": "acme:trace", "data": 1}),
    st.just({"type": "openai:web_search_call", "id": "ws_1", "status": "completed"}),
    st.just({"type": "bogus_type", "x": 1}),
    st.just({"type": "openai:compaction_trigger"}),  # the final input item only
    st.just({"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,"}]}),
    st.just({"type": "web_search_call", "id": "ws_2", "status": "completed", "action": {"type": "search", "query": "q"}}),
    st.just({"type": "custom_tool_call", "call_id": "c9", "name": "t", "input": "x"}),
    st.just({"role": "tool", "tool_call_id": "c1", "content": "x"}),
    st.just({"type": "message", "role": "assistant", "content": "x", "tool_calls": [{"id": "c1"}]}),
    st.just({"type": "message", "role": "assistant", "content": "x", "function_call": {"name": "f", "arguments": "{}"}}),
    st.just(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        }
    ),
)
ITEMS = st.lists(ITEM, min_size=1, max_size=6)


# --- the doors ---------------------------------------------------------------------------------------------


def _verdict(report: rp.TranscriptReport) -> Verdict:
    return report.ok, tuple(sorted(((v.index, str(v.code)) for v in report.violations), key=str))


def _raised(exc: BaseException) -> Verdict:
    return False, (("raised", type(exc).__name__),)  # type: ignore[return-value]


def library(value: Any, **kw: Any) -> Verdict:
    try:
        return _verdict(rp.check_transcript(value, **kw))
    except (ValueError, rp.ItemError) as exc:
        return _raised(exc)


def run_cli(
    command: list[str], value: Any, provider: str | None, tools: list[Any] | None, jsonl: bool = False
) -> tuple[int, str]:
    """`replayable COMMAND FILE ...` on `value` written as JSON (or JSONL), with `--provider` and a
    `--tools` file when given: the exit status and standard output."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("t.jsonl" if jsonl else "t.json")
        path.write_text("\n".join(json.dumps(v) for v in value) + "\n" if jsonl else json.dumps(value))
        args = [command[0], str(path), *command[1:]] + (["--provider", provider] if provider else [])
        if tools is not None:
            (Path(tmp) / "tools.json").write_text(json.dumps(tools))
            args += ["--tools", str(Path(tmp) / "tools.json")]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    return code, out.getvalue()


def cli(value: Any, provider: str | None, tools: list[Any] | None, jsonl: bool = False) -> Verdict:
    code, out = run_cli(["check", "--format", "json"], value, provider, tools, jsonl)
    if code == 2:
        return False, (("raised", "unreadable"),)  # type: ignore[return-value]
    doc = json.loads(out)
    found = [f for f in doc["findings"] if f.get("severity") == "error" and f.get("where") == "item"]
    # every finding of an item read from a file says where in the file it starts
    assert all(isinstance(f["line"], int) and isinstance(f["column"], int) for f in found), found
    return code == 0, tuple(sorted(((f["index"], f["code"]) for f in found), key=str))


def prepare_cli(value: Any, provider: str | None, tools: list[Any] | None) -> Any:
    """What `replayable prepare --target openai` prints for `value` (the JSON of the items), or "refused"."""
    code, out = run_cli(["prepare", "--target", "openai"], value, provider, tools)
    return json.loads(out) if code == 0 else "refused"


def show_door(value: Any, provider: str | None, tools: list[Any] | None) -> Verdict:
    """`replayable show FILE --html -`: the exit status, and the error findings on each item's row."""
    import re  # noqa: PLC0415

    code, out = run_cli(["show", "--html", "-"], value, provider, tools)
    if code == 2:
        return False, (("raised", "unreadable"),)  # type: ignore[return-value]
    page = out.split("</tbody>")[0]  # the rows; findings on no item follow the table
    found = [
        (int(n), code_)
        for n, row in re.findall(r'<tr id="item-(\d+)"(.*?)</tr>', page, re.S)
        for code_ in re.findall(r'<li class="error" data-code="([^"]*)"', row)
    ]
    return code == 0, tuple(sorted(found, key=str))


def file_door(value: Any, provider: str | None, tools: list[Any] | None, jsonl: bool = False) -> Verdict:
    """The public file reader on the file the command line is given: `read_file`, then `check_transcript`
    (a JSONL of items read lazily: `check_transcript_iter` over its lines, as the README's Dask example does)."""
    from replayable._reading import InputError, read_file  # noqa: PLC0415  (older trees have no read_file)
    from replayable._replay import check_transcript_iter  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("t.jsonl" if jsonl else "t.json")
        path.write_text("\n".join(json.dumps(v) for v in value) + "\n" if jsonl else json.dumps(value))
        try:
            doc = read_file(str(path), provider=provider, lazy=jsonl)  # type: ignore[arg-type]
            if doc.source is not None:
                return _verdict(check_transcript_iter(doc.iter_items(), provider=provider, tools=tools))  # type: ignore[arg-type]
            return library(doc, provider=provider, tools=tools)
        except InputError:
            return False, (("raised", "unreadable"),)  # type: ignore[return-value]


def helper(data: Any, **kw: Any) -> bool:
    try:
        assert_replay_safe(data, **kw)
    except AssertionError:
        return False
    return True


def hook(body: dict[str, Any], provider: str | None) -> Verdict:
    try:
        return _verdict(check_request_body(json.dumps(body).encode(), provider=provider))  # type: ignore[arg-type]
    except rp.ReplayError as exc:
        report = exc.report
        if any(v.index is None for v in report.violations):
            return _raised(exc)
        return _verdict(report)  # type: ignore[arg-type]


def conversation_hook(items: list[Any], provider: str | None, conversation_id: str | None) -> Verdict:
    """The SDK hook on a Conversations API body: a new conversation's `items`, or items added to one."""
    raw = json.dumps({"items": items}).encode()
    try:
        return _verdict(check_conversation_body(raw, conversation_id=conversation_id, provider=provider))  # type: ignore[arg-type]
    except rp.ReplayError as exc:
        if any(v.index is None for v in exc.report.violations):
            return _raised(exc)
        return _verdict(exc.report)  # type: ignore[arg-type]


def _parsed(items: list[Any], provider: str | None) -> list[Any] | None:
    try:
        return rp.parse_items(items, provider=provider)  # type: ignore[arg-type]
    except rp.ItemError:
        return None  # not constructible: only the dicts are checked


def _sdk(items: list[Any]) -> list[Any] | None:
    """The function calls as openai SDK objects (built without validation, as stored ones may be)."""
    try:
        from openai.types.responses import ResponseFunctionToolCall  # noqa: PLC0415
    except ImportError:
        return None
    return [ResponseFunctionToolCall.model_construct(**i) if i.get("type") == "function_call" else i for i in items]


def _streamed(items: list[Any], tools: list[Any] | None) -> Verdict:
    from replayable._replay import check_transcript_iter  # noqa: PLC0415

    return _verdict(check_transcript_iter(iter(items), provider="openai", tools=tools))


def _response(items: list[Any], with_object: bool) -> dict[str, Any]:
    resp: dict[str, Any] = {"id": "resp_1", "created_at": 1, "status": "completed", "model": "m", "output": items}
    if with_object:
        resp["object"] = "response"
    return resp


def _full_response(items: list[Any]) -> dict[str, Any]:
    """A Response with every key the spec requires (`parse_response` reads it), holding `items`."""
    return {**full_response(), "output": items, "tools": []}


def _read_document(value: Any) -> Any:
    from replayable._reading import read_document  # noqa: PLC0415  (the script counting disagreements runs older trees)

    return read_document(value)


def typed_door(parse: Any, body: dict[str, Any], provider: str | None, want: Verdict, **kw: Any) -> Any:
    """The check of what a typed body parser (`parse_request`, `parse_response`) reads: the dict's verdict.
    A body it refuses must be one the check refuses too (then `want` itself is the answer)."""
    try:
        parsed = parse(body, provider=provider)
    except ValueError as exc:  # ItemError: the parser refused the body
        return want if not want[0] else f"refused by {parse.__name__} ({str(exc)[:120]}), ok by the check"
    return library(parsed, provider=provider, **kw)


# --- what must agree ---------------------------------------------------------------------------------------


def disagreements(items: list[Any], provider: str | None, with_tools: bool) -> list[str]:
    """Each door whose verdict differs from `check_transcript` on the same container's dicts."""
    tools = TOOLS if with_tools else None
    kw: dict[str, Any] = {"provider": provider, "tools": tools}
    found: list[str] = []

    def same(name: str, got: Any, want: Any) -> None:
        if got != want:
            found.append(f"{name}: {got} != {want}")

    # a list of items
    want = library(items, **kw)
    parsed = _parsed(items, provider)
    if parsed is not None:
        same("check_transcript(parse_items)", library(parsed, **kw), want)
    sdk = _sdk(items) if provider == "openai" else None  # SDK objects imply provider="openai"
    if sdk is not None and any(not isinstance(i, dict) for i in sdk):
        same("check_transcript(SDK objects)", library(sdk, provider="openai", tools=tools), want)
        same("check_transcript_iter(SDK objects)", _streamed(sdk, tools), want)
    from replayable._replay import check_transcript_iter  # noqa: PLC0415

    lines = [json.dumps(i) for i in items]  # JSONL lines read one at a time: the list's verdict
    same("check_transcript_iter(JSONL lines)", _verdict(check_transcript_iter(iter(lines), **kw)), want)
    text = json.dumps(items)
    same("assert_replay_safe(text)", helper(text, **kw), want[0])
    same("assert_replay_safe(bytes)", helper(text.encode(), **kw), want[0])
    if len(items) > 1:
        same("assert_replay_safe(jsonl)", helper("\n".join(json.dumps(i) for i in items), **kw), want[0])
        same("cli(jsonl)", cli(items, provider, tools, jsonl=True), want)
        same("read_file(jsonl, lazy)", file_door(items, provider, tools, jsonl=True), want)
    same("cli(array)", cli(items, provider, tools), want)
    same("show(array)", show_door(items, provider, tools), want)
    same("read_file(array)", file_door(items, provider, tools), want)
    if provider == "openai":  # a Codex session file: its response_item payloads, read in OpenAI's reading
        rollout = [{"timestamp": "t", "type": "session_meta", "payload": {"id": "s"}},
                   *({"timestamp": "t", "type": "response_item", "payload": i} for i in items)]
        same("cli(codex rollout)", cli(rollout, provider, tools, jsonl=True), want)
        same("read_file(codex rollout)", file_door(rollout, provider, tools, jsonl=True), want)

    # a request body: its own tools apply
    body: dict[str, Any] = {"model": "m", "input": items}
    if with_tools:
        body["tools"] = TOOLS
        body["tool_choice"] = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "f"}]}
    want_body = library(body, provider=provider)
    same("check_transcript(body) vs list with the body's tools", want_body,
         library(items, provider=provider, tools=tools, allowed_tools=["f"] if with_tools else None))
    same("cli(body)", cli(body, provider, None), want_body)
    same("show(body)", show_door(body, provider, None), want_body)
    same("read_file(body)", file_door(body, provider, None), want_body)
    same("hook(body)", hook(body, provider), want_body)
    same("assert_replay_safe(body text)", helper(json.dumps(body), provider=provider), want_body[0])
    same("check_transcript(parse_request)", typed_door(rp.parse_request, body, provider, want_body), want_body)

    # the Conversations API through the SDK hook: a new conversation's items are a transcript; items added
    # to one continue it, as a request body with `conversation` does (an output may answer a stored call)
    same("hook(new conversation)", conversation_hook(items, provider, None), library(items, provider=provider))
    same("hook(conversation items)", conversation_hook(items, provider, "conv_1"),
         library({"model": "m", "conversation": "conv_1", "input": items}, provider=provider))

    # a Response, with and without `object`
    for with_object in (True, False):
        resp = _response(items, with_object)
        want_resp = library(resp, **kw)
        same(f"cli(response object={with_object})", cli(resp, provider, tools), want_resp)
        same(f"read_file(response object={with_object})", file_door(resp, provider, tools), want_resp)
        same(f"assert_replay_safe(response object={with_object})", helper(json.dumps(resp), **kw), want_resp[0])
    same("response with and without object", library(_response(items, False), **kw),
         library(_response(items, True), **kw))
    full = _full_response(items)  # every key: the typed parser reads it
    want_full = library(full, **kw)
    same("check_transcript(parse_response)", typed_door(rp.parse_response, full, provider, want_full, tools=tools),
         want_full)

    # one item on its own
    one = items[0]
    want_one = library(one, **kw)
    same("lone item vs a list of one", want_one, library([one], **kw))
    same("cli(lone item)", cli(one, provider, tools), want_one)
    same("read_file(lone item)", file_door(one, provider, tools), want_one)

    # prepare_replay: what it keeps passes the check it reports, and the check of the result agrees
    try:
        result, report = rp.prepare_replay(items, target="openai", tools=tools, provider=provider)  # type: ignore[arg-type]
    except (ValueError, rp.ReplayError, rp.ItemError):
        pass
    else:
        same("prepare_replay result passes", report.check.ok, True)
        dumped = [rp.dump_item(i) for i in result]
        if not repair_items(items)[1]:  # nothing the command line repairs first: the same result
            same("prepare (cli) vs prepare_replay", prepare_cli(items, provider, tools), dumped)
        same("check_transcript(prepare_replay result)",
             library(dumped, tools=tools, target="openai", provider=provider).__getitem__(0), True)
    return found


CONFIGS = [(None, False), (None, True), ("openai", False), ("openai", True)]


@pytest.mark.parametrize(("provider", "with_tools"), CONFIGS)
@settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(items=ITEMS)
def test_every_door_gives_one_verdict(items: list[Any], provider: str | None, with_tools: bool) -> None:
    assert disagreements(items, provider, with_tools) == []


# --- the disagreements once found between doors, one by one ------------------------------------------------

LONE_OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": [{"type": "input_text", "text": "x"}]}
LONE_CUSTOM = {"type": "custom_tool_call", "call_id": "c1", "name": "t", "input": "x"}


@pytest.mark.parametrize("item", [LONE_OUTPUT, LONE_CUSTOM])
@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_lone_item_is_an_item_on_every_door(item: dict[str, Any], provider: str | None) -> None:
    want = library([item], provider=provider)
    assert want[0] is False
    assert library(item, provider=provider) == want
    assert cli(item, provider, None) == want
    assert file_door(item, provider, None) == want
    assert _read_document(item).kind == "item"


def test_a_response_without_object_is_a_response() -> None:
    items = [_call("c1", "f", "{", "completed"), {"type": "function_call_output", "call_id": "zz", "output": "x"}]
    with_object, without = _response(items, True), _response(items, False)
    assert library(without) == library(with_object) == cli(without, None, None) == cli(with_object, None, None)
    assert file_door(without, None, None) == file_door(with_object, None, None) == library(with_object)
    assert library(without)[0] is False
    assert _read_document(without).kind == "response"
    _, report = rp.prepare_replay(without, target="openai")
    assert [i for i, _ in report.dropped] == [0, 1]


def test_an_object_both_body_and_response_is_refused_saying_what_to_pass() -> None:
    with pytest.raises(rp.ItemError, match="pass the request body alone"):
        rp.check_transcript({"input": [], "output": []})


def test_prepare_replay_keeps_a_continuation_requests_outputs() -> None:
    body = {"model": "m", "previous_response_id": "resp_1", "input": [
        {"type": "function_call_output", "call_id": "c1", "output": "x"}]}
    assert rp.check_transcript(body).ok
    items, report = rp.prepare_replay(body, target="openai")
    assert report.dropped == () and len(items) == 1 and report.check.ok


def test_parsed_chat_shaped_items_keep_the_envelope_finding() -> None:
    chat = [{"type": "message", "role": "assistant", "content": "x", "tool_calls": [{"id": "c1"}]}]
    parsed = rp.parse_items(chat, provider="openai")
    want = library(chat, provider="openai")
    assert ("chat_completions_envelope" in {c for _, c in want[1]}) and library(parsed, provider="openai") == want


def test_an_sdk_item_that_does_not_parse_keeps_the_cross_item_findings() -> None:
    types = pytest.importorskip("openai.types.responses")
    call = types.ResponseFunctionToolCall.model_construct(
        type="function_call", call_id="c1", name="f", arguments="{}", status="in_progress", id=5
    )
    out = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    codes = {c for _, c in library([call, out])[1]}
    assert "output_without_function_call" not in codes  # the output answers the call it sees
    assert "output_for_unfinished_call" in codes or "in_progress_call_replayed" in codes


def test_prepare_replay_and_check_transcript_agree_on_reasoning_beside_a_target_item() -> None:
    items = [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e"},
        {"type": "acme:trace", "id": "tr_1"},
        {"type": "message", "role": "user", "content": "hi"},
    ]
    result, report = rp.prepare_replay(items, target="acme")
    kept = [rp.dump_item(i) for i in result]
    assert rp.check_transcript(kept, target="acme").ok == report.check.ok is True
    assert rp.check_transcript(items, target="acme").ok == (report.dropped == ())
    assert [i for i, _ in report.dropped] == [0]  # whose reasoning it is is unknown: dropped, never guessed
    from replayable._replay import check_transcript_iter  # noqa: PLC0415

    assert check_transcript_iter(iter(kept), target="acme").ok


def test_a_document_is_passed_through_as_read() -> None:
    doc = _read_document({"model": "m", "input": "hi", "tools": TOOLS})
    assert doc.kind == "request" and doc.tools == TOOLS and len(doc.items) == 1
    assert _read_document(doc) is doc




@pytest.mark.parametrize("provider", [None, "openai"])
def test_an_unknown_item_type_has_one_name_in_items_and_bodies(provider: str | None) -> None:
    item = {"type": "web_searchy_call", "id": "ws_1", "status": "completed"}
    with pytest.raises(rp.ItemError) as items_err:
        rp.parse_items([item], provider=provider)  # type: ignore[arg-type]
    with pytest.raises(rp.ItemError) as body_err:
        rp.parse_request({"model": "m", "input": [item]}, provider=provider)  # type: ignore[arg-type]
    assert {e["type"] for e in items_err.value.errors} == {e["type"] for e in body_err.value.errors}
    assert {e["type"] for e in body_err.value.errors} == {"unknown_item_type"}


@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_model_that_is_no_item_gets_its_jsons_verdict(provider: str | None) -> None:
    """A parsed request body (or any model of ours that is no item) inside a list is read as its
    JSON would be, on check_transcript and check_transcript_iter alike; never trusted as an item because of its class."""
    from replayable._replay import check_transcript_iter  # noqa: PLC0415

    body = {"model": "m", "input": [{"type": "function_call_output", "call_id": "x", "output": "o"}]}
    model = rp.parse_request(body, provider=provider)  # type: ignore[arg-type]
    want = library([body], provider=provider)
    assert not want[0]
    assert library([model], provider=provider) == want
    assert _verdict(check_transcript_iter(iter([model]), provider=provider)) == want  # type: ignore[arg-type]


#: The tools a request body may hold: a body's `tools` are sent with it, so every door refuses the ones
#: `parse_request` refuses (`body_invalid`), whether or not a call names the tool.
BODY_TOOLS = {
    "function": [TOOLS[0]],
    "openai hosted": [{"type": "web_search"}],
    "openai dated": [{"type": "web_search_2025_08_26"}],
    "misspelt hosted": [{"type": "web_serch"}],
    "provider's own": [{"type": "acme:lookup", "x": 1}],
    "parameters no object": [{"type": "function", "name": "g", "parameters": 5}],
    "strict no boolean": [{"type": "function", "name": "g", "parameters": {}, "strict": "yes"}],
    "chat completions shape": [{"type": "function", "function": {"name": "g", "parameters": {}}}],
    "no type": [{"name": "g", "parameters": {}}],
}


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize("tools", BODY_TOOLS.values(), ids=BODY_TOOLS.keys())
def test_a_bodys_own_tools_get_parse_requests_verdict_on_every_door(tools: list[Any], provider: str | None) -> None:
    body = {"model": "m", "input": [{"type": "message", "role": "user", "content": "hi"}], "tools": tools}
    try:
        rp.parse_request(body, provider=provider)  # type: ignore[arg-type]
    except rp.ItemError:
        readable = False
    else:
        readable = True
    want = library(body, provider=provider)
    assert ("body_invalid" in {code for _, code in want[1]}) is not readable
    ok = want[0]  # the body read, and its tools linted (`check_tool`), as the command line lints them
    assert ok is (readable and not rp.check_tool(tools[0], provider=provider))  # type: ignore[arg-type]
    assert file_door(body, provider, None) == want
    assert hook(body, provider)[0] is ok
    assert helper(json.dumps(body), provider=provider) is ok
    assert cli(body, provider, None)[0] is ok
    assert show_door(body, provider, None)[0] is ok
    if readable:
        assert library(rp.parse_request(body, provider=provider), provider=provider) == want  # type: ignore[arg-type]
