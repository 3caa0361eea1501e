"""Fail closed: nothing is trusted because of its class, no memory is kept for the
app, one budget per input whatever its framing, one check-and-write per session, no event dropped after
`[DONE]`.

Each class of fault has a test on every door it reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import replayable as rp
from replayable._call_gate import gate
from replayable._replay import check_transcript_iter
from replayable.stream import parse_event
from replayable.websocket import parse_websocket_event

# --- 1. an item is an item because it reads as one, whatever its class -------------------------------------

ORPHAN_INPUT = [
    {"type": "function_call_output", "call_id": "orphan", "output": "x"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{"},
]
BODY = {"model": "m", "input": ORPHAN_INPUT}


def _non_items() -> dict[str, Any]:
    """Models of ours that are no item, each holding items the checks must not take on trust."""
    done_event = {
        "type": "response.output_item.done",
        "sequence_number": 1,
        "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{", "status": "completed"},
    }
    return {
        "request body": rp.parse_request(BODY),
        "openai request body": rp.parse_request(BODY, provider="openai"),
        "websocket response.create": parse_websocket_event({"type": "response.create", **BODY}),
        "websocket response.steer": parse_websocket_event(
            {"type": "response.steer", "previous_response_id": "resp_1", "input": ORPHAN_INPUT}, provider="openai"
        ),
        "stream event": parse_event(done_event),
        "function tool": rp.FunctionToolParam.model_validate({"type": "function", "name": "f", "parameters": {}}),
    }


NON_ITEMS = _non_items()

CHECK_DOORS: dict[str, Callable[[Any], Any]] = {
    "check_transcript": lambda m: rp.check_transcript([m]),
    "check_transcript side=input": lambda m: rp.check_transcript([m], side="input"),
    "check_transcript openai": lambda m: rp.check_transcript([m], provider="openai"),
    "check_transcript_iter": lambda m: check_transcript_iter(iter([m])),
    "prepare_replay": lambda m: rp.prepare_replay([m], target="openai")[1].check,
}


@pytest.mark.parametrize("door", list(CHECK_DOORS))
@pytest.mark.parametrize("name", list(NON_ITEMS))
def test_a_model_that_is_no_item_is_read_not_trusted(name: str, door: str) -> None:
    model = NON_ITEMS[name]
    try:
        report = CHECK_DOORS[door](model)
    except rp.ItemError as exc:  # refused outright (prepare_replay: an item it cannot read)
        assert exc.errors and exc.errors[0]["loc"][:1] == (0,)
        return
    assert not report.ok
    assert [(v.index, v.code) for v in report.violations][:1] in ([(0, "item_invalid")], [(0, "unknown_item_type")])


PARSE_DOORS: dict[str, Callable[[Any], Any]] = {
    "parse_item": lambda m: rp.parse_item(m),
    "parse_item output": lambda m: rp.parse_item(m, side="output"),
    "parse_items": lambda m: rp.parse_items([m]),
    "iter_items": lambda m: list(rp.iter_items([m])),
    "to_input": lambda m: rp.to_input(m),
    "dump_item": lambda m: rp.dump_item(m),
    "dump_items": lambda m: rp.dump_items([m]),
}


@pytest.mark.parametrize("door", list(PARSE_DOORS))
@pytest.mark.parametrize("name", list(NON_ITEMS))
def test_a_model_that_is_no_item_is_refused_by_the_item_doors(name: str, door: str) -> None:
    with pytest.raises(rp.ItemError):
        PARSE_DOORS[door](NON_ITEMS[name])


@pytest.mark.parametrize("name", list(NON_ITEMS))
def test_gate_reads_a_model_that_is_no_item_as_its_json(name: str) -> None:
    assert not gate(NON_ITEMS[name], {"type": "object"}).ok


OUTPUT_CALL = {"type": "function_call", "id": "fc_1", "call_id": "c" * 65, "name": "f", "arguments": "{}", "status": "completed"}


def test_an_output_form_model_given_where_input_is_asked_is_read_as_input() -> None:
    """A 65-character call_id is valid in the output form and not in the input form: given as input, the
    output-form model gets the verdict its JSON gets."""
    model = rp.parse_item(OUTPUT_CALL, side="output")
    as_dict = rp.check_transcript([OUTPUT_CALL], side="input", pending_ok=True)
    assert not as_dict.ok
    want = [(v.index, v.code) for v in as_dict.violations]
    for report in (
        rp.check_transcript([model], side="input", pending_ok=True),
        check_transcript_iter(iter([model]), side="input", pending_ok=True),
    ):
        assert [(v.index, v.code) for v in report.violations] == want
    with pytest.raises(rp.ItemError):
        rp.parse_item(model, side="input")
    with pytest.raises(rp.ItemError):
        rp.parse_items([model], side="input")


@pytest.mark.parametrize(
    ("item", "update", "field"),
    [
        ({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}, {"call_id": ""}, "call_id"),
        ({"type": "function_call_output", "call_id": "c", "output": "ok"}, {"call_id": ""}, "call_id"),
        ({"type": "message", "role": "user", "content": "hi"}, {"role": "tool"}, "role"),
    ],
)
def test_dump_item_reads_back_a_model_that_skipped_validation(item: dict[str, Any], update: dict[str, Any], field: str) -> None:
    model = rp.parse_item(item).model_copy(update=update)
    with pytest.raises(rp.ItemError) as exc:
        rp.dump_item(model)
    assert field in {str(p) for e in exc.value.errors for p in e["loc"]}
    with pytest.raises(rp.ItemError):
        rp.dump_items([model])
    assert rp.dump_item(rp.parse_item(item).model_copy(update={})) == item  # nothing changed: dumped as read


# --- 4. CheckedSession.add_items checks and writes as one step per session -----------------------------------

CALL = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}


def _outputs(items: list[Any]) -> int:
    return sum(1 for i in items if (i.get("type") if isinstance(i, dict) else getattr(i, "type", None)) == "function_call_output")


async def _add_twice(first: Any, second: Any) -> list[BaseException | None]:
    import asyncio

    results = await asyncio.gather(first.add_items([dict(OUTPUT)]), second.add_items([dict(OUTPUT)]), return_exceptions=True)
    return list(results)


@pytest.mark.parametrize("wrappers", ["one wrapper", "two wrappers"])
def test_two_concurrent_outputs_for_one_call_store_one(wrappers: str, tmp_path: Any) -> None:
    """asyncio tasks of one loop: the second addition sees the first and is refused."""
    import asyncio

    agents = pytest.importorskip("agents")
    from replayable.integrations.agents import CheckedSession

    async def run() -> tuple[list[Any], list[Any]]:
        inner = agents.SQLiteSession("s1", str(tmp_path / "db.sqlite"))
        checked = CheckedSession(inner)
        await checked.add_items([dict(CALL)])
        other = checked if wrappers == "one wrapper" else CheckedSession(agents.SQLiteSession("s1", str(tmp_path / "db.sqlite")))
        results = await _add_twice(checked, other)
        return results, await inner.get_items()

    results, stored = asyncio.run(run())
    assert _outputs(stored) == 1
    assert sum(r is None for r in results) == 1
    assert [type(r).__name__ for r in results if r is not None] == ["ReplayError"]


def test_two_threads_adding_an_output_for_one_call_store_one(tmp_path: Any) -> None:
    """Threads, each running its own event loop (Runner.run_sync in a worker pool): one is stored."""
    import asyncio
    import threading

    agents = pytest.importorskip("agents")
    from replayable.integrations.agents import CheckedSession

    path = str(tmp_path / "db.sqlite")
    asyncio.run(CheckedSession(agents.SQLiteSession("s2", path)).add_items([dict(CALL)]))
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def add() -> None:
        checked = CheckedSession(agents.SQLiteSession("s2", path))
        start.wait()
        try:
            asyncio.run(checked.add_items([dict(OUTPUT)]))
        except BaseException as exc:  # noqa: BLE001 - counted below
            errors.append(exc)

    threads = [threading.Thread(target=add) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    stored = asyncio.run(agents.SQLiteSession("s2", path).get_items())
    assert _outputs(stored) == 1
    assert len(errors) == 3 and all(type(e).__name__ == "ReplayError" for e in errors)


# --- 5. frames after data: [DONE] are a finding, never dropped silently ----------------------------------------


def _sse_with_done_inside() -> bytes:
    from pathlib import Path

    whole = (Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_bytes()
    first_frame_end = whole.index(b"\n\n", whole.index(b"event: response.created")) + 2
    return whole[:first_frame_end] + b"data: [DONE]\n\n" + whole[first_frame_end:]


def test_a_strict_reader_refuses_frames_after_done() -> None:
    from replayable import stream

    data = _sse_with_done_inside()
    with pytest.raises(stream.StreamError) as exc:
        list(stream.parse_sse(data))
    assert exc.value.rule == "after_done_marker"
    with pytest.raises(stream.StreamError) as exc:
        list(stream.StreamAssembler().feed_sse(data))
    assert exc.value.rule == "after_done_marker"
    asm = stream.StreamAssembler()
    with pytest.raises(stream.StreamError) as exc:
        for i in range(0, len(data), 7):
            asm.feed_bytes(data[i : i + 7])
        asm.close()
    assert exc.value.rule == "after_done_marker"


@pytest.mark.parametrize("door", ["feed_sse", "feed_bytes", "check_stream", "check_stream lines"])
def test_a_lenient_reader_reports_frames_after_done(door: str) -> None:
    from replayable import stream

    data = _sse_with_done_inside()
    if door.startswith("check_stream"):
        source: Any = iter(data.decode().splitlines(keepends=True)) if door.endswith("lines") else data
        findings = stream.check_stream(source).findings
    else:
        asm = stream.StreamAssembler(strict=False)
        if door == "feed_sse":
            list(asm.feed_sse(data))
        else:
            for i in range(0, len(data), 5):
                asm.feed_bytes(data[i : i + 5])
        asm.close()
        findings = asm.warnings
    after = [f for f in findings if f.code == "after_done_marker"]
    assert len(after) == 1 and after[0].severity == "violation"
    assert "16 SSE frames after data: [DONE]" in after[0].message  # 15 events and the last [DONE]


def test_the_command_line_reports_frames_after_done(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from replayable._cli import main

    path = tmp_path / "capture.sse"
    path.write_bytes(_sse_with_done_inside())
    assert main(["check", "--format", "json", str(path)]) == 1
    record = json.loads(capsys.readouterr().out)
    assert "after_done_marker" in [f["code"] for f in record["findings"]]




# --- 3. one container budget per input, whatever its framing ----------------------------------------------

EMPTIES = 200_000
AS_JSONL = b"{}\n" * EMPTIES
AS_ARRAY = b"[" + b",".join([b"{}"] * EMPTIES) + b"]"


def _refused_with_budget(call: Callable[[], Any]) -> str:
    from replayable import stream
    from replayable._json import JSONError
    from replayable._reading import InputError

    with pytest.raises((rp.ItemError, stream.StreamError, InputError, JSONError)) as exc:
        call()
    text = str(exc.value)
    assert "too_many_containers" in text or "memory budget" in text, text
    return text


@pytest.mark.parametrize(
    "door",
    ["parse_items str", "parse_items bytes", "iter_items lines", "iter_items bytes lines", "read_text", "iter_jsonl"],
)
def test_jsonl_is_held_to_the_budget_of_the_same_values_as_one_array(door: str) -> None:
    from replayable._json import iter_jsonl
    from replayable._reading.document import read_text

    _refused_with_budget(lambda: rp.parse_items(AS_ARRAY))  # the array was refused already
    calls: dict[str, Callable[[], Any]] = {
        "parse_items str": lambda: rp.parse_items(AS_JSONL.decode()),
        "parse_items bytes": lambda: rp.parse_items(AS_JSONL),
        "iter_items lines": lambda: list(rp.iter_items(AS_JSONL.decode().splitlines())),
        "iter_items bytes lines": lambda: list(rp.iter_items(AS_JSONL.splitlines(keepends=True))),
        "read_text": lambda: read_text(AS_JSONL),
        "iter_jsonl": lambda: list(iter_jsonl(AS_JSONL.splitlines())),
    }
    if door.startswith("iter_items"):  # `{}` is no item: the budget must be what stops it, not the item
        padded = [b'{"type": "message", "role": "user", "content": "hi", "x": [%s]}' % b",".join([b"{}"] * 30)] * 20_000
        data = [p.decode() for p in padded] if door == "iter_items lines" else padded
        text = _refused_with_budget(lambda: list(rp.iter_items(data)))
        assert "item" in text
        return
    _refused_with_budget(calls[door])


def test_a_jsonl_under_its_budget_is_read() -> None:
    padded = b"".join(b'{"type":"message","role":"user","content":"%d"}\n' % i for i in range(20_000))
    assert len(rp.parse_items(padded)) == 20_000
    assert sum(1 for _ in rp.iter_items(padded.splitlines())) == 20_000


@pytest.mark.parametrize("source", ["file", "stdin", "json file"])
def test_the_file_reader_and_the_cli_hold_jsonl_to_the_budget(source: str, tmp_path: Any, monkeypatch: Any, capsys: Any) -> None:
    import io
    import sys

    from replayable._cli import main
    from replayable._reading import read_file

    path = tmp_path / ("x.json" if source == "json file" else "x.jsonl")
    path.write_bytes(AS_ARRAY if source == "json file" else AS_JSONL)
    if source == "stdin":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(AS_JSONL)))
        assert main(["check", "-"]) == 2
    else:
        assert main(["check", str(path)]) == 2
        _refused_with_budget(lambda: rp.check_transcript(read_file(str(path))))
    assert "memory budget" in capsys.readouterr().err


def test_an_sse_capture_is_held_to_one_budget_however_it_is_chunked() -> None:
    from replayable import stream

    frame = b'data: {"type":"x","a":[[],[],[],[],[],[],[],[],[],[],[],[]]}\n\n'
    capture = frame * 20_000
    for source in (capture, capture.decode(), iter([capture[i : i + 999] for i in range(0, len(capture), 999)]),
                   iter(capture.decode().splitlines(keepends=True))):  # fmt: skip
        _refused_with_budget(lambda source=source: list(stream.parse_sse(source, provider="openai")))
    for strict in (True, False):
        asm = stream.StreamAssembler(strict=strict, provider="openai")

        def feed(asm: Any = asm) -> None:
            for i in range(0, len(capture), 999):
                asm.feed_bytes(capture[i : i + 999])

        _refused_with_budget(feed)
    _refused_with_budget(lambda: stream.check_stream(capture, provider="openai"))


def test_jsonl_peak_memory_stays_near_the_input() -> None:
    """The measured case: 200,000 `{}` lines peaked at 401 MB (700x the file) when accepted; refused up
    front, reading them costs about the text itself."""
    import tracemalloc

    tracemalloc.start()
    try:
        _refused_with_budget(lambda: rp.parse_items(AS_JSONL))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(AS_JSONL)


# --- medium: "no check" has one spelling, {} ------------------------------------------------------------------

CALL_X = {"type": "function_call", "call_id": "c", "name": "f", "arguments": '{"x": 1}', "status": "completed"}


@pytest.mark.parametrize(
    "schema",
    [True, {"type": "function", "name": "f", "parameters": True}, [{"type": "function", "name": "f", "parameters": True}],
     {"type": "function", "function": {"name": "f", "parameters": True}}, {"name": "f", "inputSchema": True}],
)  # fmt: skip
def test_the_boolean_schema_true_is_no_way_to_say_no_check(schema: Any) -> None:
    from replayable._arguments import SchemaError

    with pytest.raises(SchemaError, match="pass \\{\\}"):
        gate(CALL_X, schema)
    assert gate(CALL_X, {}).ok  # the one explicit spelling
    assert gate(CALL_X, {"type": "function", "name": "f", "parameters": {}}).ok


def test_a_tool_whose_parameters_is_true_is_an_invalid_tool_on_every_door() -> None:
    tool = {"type": "function", "name": "f", "parameters": True}
    out = {"type": "function_call_output", "call_id": "c", "output": "o"}
    assert [str(f.code) for f in rp.check_tool(tool)] == ["invalid_tool"]
    report = rp.check_transcript([CALL_X, out], tools=[tool])
    assert not report.ok and "invalid_tool" in [str(v.code) for v in report.violations]
    body = rp.check_transcript({"model": "m", "input": [CALL_X, out], "tools": [tool]})
    assert not body.ok


@pytest.mark.parametrize("entry", [["reasoning.encrypted_content"], {"a": 1}, 5, None])
def test_an_include_entry_that_is_no_string_is_a_finding_not_a_type_error(entry: Any) -> None:
    report = rp.check_transcript({"model": "m", "input": [], "include": [entry]}, target="openai")
    assert not report.ok
    assert ("include_invalid", "/include/0") in [(str(v.code), v.path) for v in report.violations]


# --- medium: a body model that skipped validation, a body with a top-level type -----------------------------


def test_a_body_model_that_skipped_validation_is_read_from_its_json() -> None:
    constructed = rp.CreateResponseBody.model_construct(model=5, input=[])
    assert ("body_invalid", "/model") in [(str(v.code), v.path) for v in rp.check_transcript(constructed).violations]
    copied = rp.parse_request(BODY).model_copy(update={"temperature": "hot"})
    codes = [(v.index, str(v.code)) for v in rp.check_transcript(copied).violations]
    assert (None, "body_invalid") in codes and (0, "output_without_function_call") in codes


def test_a_body_with_a_top_level_type_is_refused_as_ambiguous() -> None:
    for door in (rp.check_transcript, lambda b: rp.prepare_replay(b, target="openai")):
        with pytest.raises(rp.ItemError) as exc:
            door({"type": "message", "role": "user", "content": "hi", "model": "m", "input": ORPHAN_INPUT})
        assert exc.value.errors[0]["type"] == "ambiguous_body"


# --- medium: a call inside a namespaced item's content, parsed or not ---------------------------------------

NESTED = {"type": "acme:thing", "id": "x", "content": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}


@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_call_inside_a_namespaced_items_content_is_found_parsed_or_not(provider: str | None) -> None:
    parsed = rp.parse_item(NESTED, provider=provider)
    want = [(0, "function_call_in_content")]
    for value in (NESTED, parsed):
        for report in (rp.check_transcript([value], provider=provider), check_transcript_iter(iter([value]), provider=provider)):
            assert [(v.index, str(v.code)) for v in report.violations] == want
    openai_item = {**NESTED, "type": "openai:thing"}
    for value in (openai_item, rp.parse_item(openai_item)):
        items, report = rp.prepare_replay([value], target="openai")
        assert items == [] and "function_call_in_content" in report.dropped[0][1]


# --- medium: a dict subclass whose items() lie ------------------------------------------------------------


class _Liar(dict):  # type: ignore[type-arg]
    """Says it is a harmless call with empty arguments; holds one whose arguments the schema refuses."""

    def items(self) -> Any:
        return iter([("type", "function_call"), ("call_id", "c"), ("name", "f"), ("arguments", "{}"), ("status", "completed")])


def test_a_dict_subclass_whose_items_lie_is_refused() -> None:
    liar = _Liar({"type": "function_call", "call_id": "", "name": "f", "arguments": '{"x": 1}', "status": "completed"})
    result = gate(liar, {"type": "object", "additionalProperties": False})
    assert not result.ok and "items() differ" in result.detail
    report = rp.check_transcript([liar], pending_ok=True)
    assert [(v.index, str(v.code)) for v in report.violations] == [(0, "item_invalid")]
    with pytest.raises(rp.ItemError):
        rp.parse_item(liar)

    class Honest(dict):  # type: ignore[type-arg]
        pass

    assert gate(Honest({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": "completed"}), {}).ok


# --- medium: a streamed call with an empty call_id is never handed out --------------------------------------


@pytest.mark.parametrize("call_id", ["", "c" * 65])
def test_a_streamed_call_whose_call_id_cannot_be_sent_back_is_not_handed_out(call_id: str) -> None:
    from pathlib import Path

    from replayable import stream

    data = (Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_bytes()
    data = data.replace(b'"call_id": "call_1"', b'"call_id": "%s"' % call_id.encode())
    with pytest.raises(stream.StreamError) as exc:
        list(stream.StreamAssembler().feed_sse(data))
    assert exc.value.rule == "item_schema" and "call_id" in str(exc.value)
    asm = stream.StreamAssembler(strict=False)
    handed = list(asm.feed_sse(data))
    asm.close()
    assert all(getattr(i, "type", None) != "function_call" for i in handed)
    assert "item_schema" in [str(w.code) for w in asm.warnings]
    assert not stream.check_stream(data).ok


# --- low: the SSE standard's ignorable lines, on every lenient door ---------------------------------------


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbf", b"retry: 10\nfoo: bar\n\n", b"\xef\xbb\xbfid: 1\nfoo: bar\n\n"])
@pytest.mark.parametrize("door", ["check_stream", "check_stream str lines", "feed_bytes", "cli file", "cli stdin"])
def test_a_lenient_reader_ignores_a_bom_and_unknown_field_lines(prefix: bytes, door: str, tmp_path: Any, monkeypatch: Any, capsys: Any) -> None:
    import io
    import sys
    from pathlib import Path

    from replayable import stream
    from replayable._cli import main

    data = prefix + (Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_bytes()
    if door == "check_stream":
        assert stream.check_stream(data).ok
    elif door == "check_stream str lines":
        assert stream.check_stream(iter(data.decode("utf-8").splitlines(keepends=True))).ok
    elif door == "feed_bytes":
        asm = stream.StreamAssembler(strict=False)
        for i in range(0, len(data), 3):
            asm.feed_bytes(data[i : i + 3])
        asm.close()
        assert [w for w in asm.warnings if w.violation] == []
    else:
        path = tmp_path / "capture"  # no .sse suffix: recognised by its content
        path.write_bytes(data)
        if door == "cli stdin":
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert main(["check", "-" if door == "cli stdin" else str(path)]) == 0, capsys.readouterr()


# --- medium: the SDK hook matches routes on the path as sent -------------------------------------------------




def test_the_hook_routes_on_the_raw_path_then_the_decoded_one() -> None:
    import httpx

    from replayable.integrations.openai import _request_route

    def route(url: str) -> Any:
        return _request_route(httpx.Request("POST", url))

    assert route("https://x/v1/conversations/a%2Fb/items") == ("conversation", "a/b")
    assert route("https://x/v1/respon%73es") == ("responses", None)  # a server that decodes it routes it there
    assert route("https://x/v1/conversations/a/b") is None


# --- one verdict: a value that is not JSON, an incomplete message ------------------------------------------


def test_a_call_whose_arguments_hold_nan_gets_one_verdict_as_a_list_and_as_jsonl() -> None:
    """Python values that are not JSON are unreadable, as the JSONL line json.dumps writes for them is: the
    same code at the same index, and no other rule reads their fields."""
    import json

    items = [
        {"type": "message", "role": "user", "content": "hi"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": {"x": float("nan")}},
        {"type": "function_call_output", "call_id": "c1", "output": "o"},
    ]
    want = [(1, "item_invalid"), (2, "output_without_function_call")]
    lines = [json.dumps(i) for i in items]
    doors = {
        "list": rp.check_transcript(items),
        "body": rp.check_transcript({"model": "m", "input": items}),
        "check_transcript_iter values": check_transcript_iter(iter(items)),
        "check_transcript_iter JSONL lines": check_transcript_iter(iter(lines)),
    }
    assert {k: [(v.index, str(v.code)) for v in r.violations] for k, r in doors.items()} == dict.fromkeys(doors, want)


INCOMPLETE = {
    "type": "message", "id": "m1", "role": "assistant", "status": "incomplete",
    "content": [{"type": "output_text", "text": "hi", "annotations": []}],
}  # fmt: skip


@pytest.mark.parametrize("status", ["completed", "incomplete"])
def test_an_incomplete_message_gets_one_verdict_per_container_on_every_door(status: str, tmp_path: Any, capsys: Any) -> None:
    """Decided: a Response claims a status, and one whose last item is incomplete must be incomplete too
    (`response_not_incomplete`); a bare output list claims none, so the same item there is fine. Every
    door of each container says so (the dicts, the parsed models, the CLI, the file reader)."""
    import json

    from conftest import FULL_RESPONSE

    from replayable._cli import main
    from replayable._reading import read_file

    resp = {**FULL_RESPONSE, "status": status, "output": [INCOMPLETE]}
    want_resp = [] if status == "incomplete" else [(0, "response_not_incomplete")]
    parsed_resp = rp.parse_response(resp)
    for got in (rp.check_transcript(resp), rp.check_transcript(parsed_resp),
                rp.check_transcript({k: v for k, v in resp.items() if k != "object"})):  # fmt: skip
        assert [(v.index, str(v.code)) for v in got.violations] == want_resp
    path = tmp_path / "resp.json"
    path.write_text(json.dumps(resp))
    assert [(v.index, str(v.code)) for v in rp.check_transcript(read_file(str(path))).violations] == want_resp
    assert main(["check", "--format", "json", str(path)]) == (0 if status == "incomplete" else 1)
    record = json.loads(capsys.readouterr().out)
    assert [(v["index"], v["code"]) for v in record["violations"]] == want_resp

    listed = [INCOMPLETE]
    for got in (rp.check_transcript(listed), rp.check_transcript(listed, side="output"),
                rp.check_transcript(rp.parse_items(listed, side="output")), check_transcript_iter(iter(listed))):  # fmt: skip
        assert got.ok, got.violations
    path = tmp_path / "list.json"
    path.write_text(json.dumps(listed))
    assert main(["check", str(path)]) == 0


# --- medium: the profile fix never strips what the item requires ------------------------------------------


def test_prepare_replay_refuses_instead_of_stripping_an_id_the_item_requires() -> None:
    from replayable.errors import ReplayError

    item = {"type": "openai:web_search_call", "id": "zz", "status": "completed", "action": {"type": "search", "query": "q"}}
    with pytest.raises(ReplayError) as exc:  # a ReplayError naming the item, never a stray ItemError
        rp.prepare_replay([item], target="openai", provider="openai")
    assert [(v.index, str(v.code), v.path) for v in exc.value.report.violations] == [(0, "id_format", "/id")]
    assert [(v.index, str(v.code)) for v in rp.check_transcript([item], target="openai", provider="openai").violations] == [
        (0, "id_format")
    ]
    reasoning = {"type": "reasoning", "id": "x_1", "summary": [], "encrypted_content": "e"}  # id optional: removed
    items, report = rp.prepare_replay([reasoning], target="openai", provider="openai")
    assert report.changed and "id" not in rp.dump_item(items[0])


# --- low: the target profile reads the copy the check read ------------------------------------------------


def test_the_target_profile_reads_the_copy_the_rules_read() -> None:
    """A Mapping (no dict) that answers well while it is read into the check's copy and badly afterwards:
    one copy is what the rules and the target profile judge, so the later answers are never read."""
    from collections.abc import Mapping

    from replayable._json import check_value

    class Shifty(Mapping[str, Any]):
        reads = 0
        good_reads = 10**9

        def _now(self) -> dict[str, Any]:
            Shifty.reads += 1
            if Shifty.reads <= Shifty.good_reads:
                return {"type": "message", "role": "user", "content": "hi"}
            return {"type": "message", "role": "user", "content": "hi", "bogus_key": 1}  # the openai profile refuses it

        def __getitem__(self, key: str) -> Any:
            return self._now()[key]

        def __iter__(self) -> Any:
            return iter(self._now())

        def __len__(self) -> int:
            return len(self._now())

    check_value(Shifty())
    copy_reads, Shifty.good_reads = Shifty.reads, Shifty.reads  # what one copy takes, all answered well
    for door in (lambda x: rp.check_transcript([x], target="openai"), lambda x: check_transcript_iter(iter([x]), target="openai")):
        Shifty.reads = 0
        report = door(Shifty())
        assert report.ok, report.violations
        assert Shifty.reads == copy_reads  # read once
