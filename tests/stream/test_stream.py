"""Streaming: recorded streams assemble, the spec's stream rules are enforced, SSE is read exactly.

Every recorded stream in ../shared/corpus (kind "stream") is a test case; the corpus is read in place
and the tests skip with a reason when it is absent.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable import stream as S
from replayable._cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "stream"
SPEC_JSON = resources.files("openresponses") / "openapi" / "2026-04-24.json"  # openresponses-py package data


def _corpus_streams() -> list[Any]:
    if not CORPUS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"corpus not found at {CORPUS}"))]
    files = [p for p in sorted(CORPUS.glob("*.json")) if json.loads(p.read_text()).get("kind") == "stream"]
    return [pytest.param(p, id=p.stem) for p in files]


STREAMS = _corpus_streams()


def _events(path: Path) -> list[dict[str, Any]]:
    body: list[dict[str, Any]] = json.loads(path.read_text())["body"]
    return body


def _essentials(items: list[Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for it in items:
        d = it if isinstance(it, dict) else rp.dump_item(it)
        if d.get("type") == "function_call":
            out.append(("call", d["call_id"], d["name"], d["arguments"], d.get("status")))
        elif d.get("type") == "message":
            out.append(("message", d["role"], "".join(p.get("text", "") for p in d["content"])))
        else:
            out.append((d.get("type"),))
    return out


def _sse(events: list[dict[str, Any]], *, crlf: bool = False) -> str:
    nl = "\r\n" if crlf else "\n"
    frames = [f"event: {e['type']}{nl}data: {json.dumps(e)}{nl}{nl}" for e in events]
    return "".join(frames) + f"data: [DONE]{nl}{nl}"


# --- recorded streams ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", STREAMS)
def test_recorded_stream_assembles_strictly_in_openai_mode(path: Path) -> None:
    events = _events(path)
    asm = S.StreamAssembler(provider="openai", strict=True)
    handed: list[Any] = []
    for ev in events:
        handed.extend(asm.feed(ev))
    assert asm.close() is not None
    terminal = events[-1]
    assert terminal["type"] in S.TERMINAL_EVENT_TYPES
    assert asm.status == terminal["type"].removeprefix("response.")
    # the assembled items agree with the final snapshot on what replay depends on
    assert _essentials(asm.items) == _essentials(terminal["response"]["output"])
    # only notes, never violations, on a stream a provider really sent
    assert all(not w.violation for w in asm.warnings), [str(w) for w in asm.warnings]
    # every handed-out call is completed; every finished item is in .items
    for item in handed:
        d = rp.dump_item(item)
        if d["type"] == "function_call":
            assert d["status"] == "completed"
    assert len(handed) <= len(asm.items) == len(terminal["response"]["output"])


@pytest.mark.parametrize("path", STREAMS)
def test_recorded_stream_lenient_matches_strict(path: Path) -> None:
    strict, lenient = S.StreamAssembler(provider="openai"), S.StreamAssembler(provider="openai", strict=False)
    for ev in _events(path):
        assert [rp.dump_item(x) for x in strict.feed(ev)] == [rp.dump_item(x) for x in lenient.feed(ev)]
    assert [rp.dump_item(x) for x in strict.items] == [rp.dump_item(x) for x in lenient.items]
    assert strict.warnings == lenient.warnings


@pytest.mark.parametrize("path", STREAMS)
@pytest.mark.parametrize("crlf", [False, True])
def test_recorded_stream_read_back_from_sse(path: Path, crlf: bool) -> None:
    events = _events(path)
    text = _sse(events, crlf=crlf)
    assert list(S.parse_sse(text.encode())) == events
    # the same bytes split into small chunks, and as a list of lines
    data = text.encode()
    assert list(S.parse_sse(data[i : i + 7] for i in range(0, len(data), 7))) == events
    assert list(S.parse_sse(text.splitlines())) == events


@pytest.mark.parametrize("path", STREAMS)
def test_recorded_stream_passes_check_stream(path: Path) -> None:
    report = S.check_stream(_sse(_events(path)).encode(), provider="openai")
    assert report.ok, [str(f) for f in report.findings] + [v.message for v in report.transcript.violations]
    assert report.events == len(_events(path))


def test_corpus_quirks_are_notes_not_errors() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    # pai-27: no sequence_number (early 2025) -> one note in OpenAI mode, an error in strict spec mode
    asm = S.StreamAssembler(provider="openai")
    for ev in _events(CORPUS / "pai-27.json"):
        asm.feed(ev)
    assert [w.rule for w in asm.warnings if w.rule == S.StreamRule.SEQUENCE_MISSING] == ["sequence_missing"]
    with pytest.raises(S.StreamError) as exc:
        S.StreamAssembler().feed(_events(CORPUS / "pai-27.json")[0])
    assert exc.value.rule == S.StreamRule.SEQUENCE_MISSING and exc.value.sequence_number is None
    # pai-30: the message finishes before the reasoning, and the snapshot renames the reasoning id
    events = _events(CORPUS / "pai-30.json")
    asm = S.StreamAssembler(provider="openai")
    order = [rp.dump_item(x)["type"] for ev in events for x in asm.feed(ev)]
    assert order == ["message", "reasoning"]
    assert [rp.dump_item(x)["type"] for x in asm.items] == ["reasoning", "message"]
    assert rp.dump_item(asm.items[0])["id"] != events[-1]["response"]["output"][0]["id"]
    # pai-28: encrypted_content refreshed at completion is not a mismatch
    events = _events(CORPUS / "pai-28.json")
    asm = S.StreamAssembler(provider="openai")
    for ev in events:
        asm.feed(ev)
    streamed = rp.dump_item(asm.items[0])["encrypted_content"]
    assert streamed != events[-1]["response"]["output"][0]["encrypted_content"]
    assert asm.warnings == []
    # dd-01: an incomplete message ends an incomplete response
    asm = S.StreamAssembler(provider="openai")
    for ev in _events(CORPUS / "dd-01.json"):
        asm.feed(ev)
    assert asm.status == "incomplete" and rp.dump_item(asm.items[-1])["status"] == "incomplete"


def test_openai_extra_events_are_errors_in_strict_spec_mode() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    asm = S.StreamAssembler()
    with pytest.raises(S.StreamError) as exc:
        for ev in _events(CORPUS / "pai-30.json"):
            asm.feed(ev)
    assert exc.value.rule == S.StreamRule.UNKNOWN_EVENT and exc.value.sequence_number == 4


def test_openai_sdk_events_are_accepted() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    from openai._models import construct_type  # how the SDK builds events from the wire
    from openai.types.responses import ResponseStreamEvent
    from pydantic import BaseModel

    events = _events(CORPUS / "vai-07.json")
    sdk = [construct_type(type_=ResponseStreamEvent, value=ev) for ev in events]
    assert all(isinstance(e, BaseModel) for e in sdk)
    asm = S.StreamAssembler()  # SDK objects imply provider="openai"
    handed = [rp.dump_item(x) for ev in sdk for x in asm.feed(ev)]
    assert [d["type"] for d in handed] == ["reasoning", "function_call"]
    assert handed[1]["arguments"] == events[-1]["response"]["output"][1]["arguments"]


# --- a spec stream, and one test per rule ----------------------------------------------------------


def _good() -> list[dict[str, Any]]:
    return list(S.parse_sse((FIXTURES / "message_and_call.sse").read_bytes()))


def test_fixture_stream_hands_out_items_as_they_complete() -> None:
    events = _good()
    asm = S.StreamAssembler()
    handed = [(ev["sequence_number"], rp.dump_item(x)["type"]) for ev in events for x in asm.feed(ev)]
    assert handed == [(8, "message"), (14, "function_call")]
    assert asm.warnings == []
    assert isinstance(asm.resource, S.ResponseResource) and asm.resource.status == "completed"
    assert asm.response is not None and asm.response["id"] == "resp_1"
    call = asm.items[1]
    assert rp.gate(call, {"type": "object"}).ok


def _mutate(events: list[dict[str, Any]], seq: int, **changes: Any) -> list[dict[str, Any]]:
    return [dict(e, **changes) if e.get("sequence_number") == seq else e for e in events]


def _cases() -> dict[str, tuple[list[dict[str, Any]], S.StreamRule, int | None]]:
    g = _good()
    fc_added = g[10]["item"]
    by_seq = {e["sequence_number"]: e for e in g}
    return {
        "sequence_order": (g[:5] + [dict(g[5], sequence_number=3)], S.StreamRule.SEQUENCE_ORDER, 3),
        "not_added": (g[:2] + [g[11]], S.StreamRule.NOT_ADDED, 11),
        "item_id": (g[:4] + [dict(g[4], item_id="msg_other")], S.StreamRule.ITEM_ID, 4),
        "added_twice": (g[:3] + [dict(g[2], sequence_number=3)], S.StreamRule.ADDED_TWICE, 3),
        "after_done": (g[:9] + [dict(by_seq[5], sequence_number=10)], S.StreamRule.AFTER_DONE, 10),
        "part_not_added": (g[:3] + [g[4]], S.StreamRule.PART_ORDER, 4),
        "delta_after_text_done": (g[:7] + [dict(g[5], sequence_number=7)], S.StreamRule.PART_ORDER, 7),
        "text_mismatch": (g[:6] + [dict(g[6], text="Checking emea.")], S.StreamRule.TEXT_MISMATCH, 6),
        "part_done_mismatch": (
            g[:7] + [dict(g[7], part=dict(g[7]["part"], text="other"))],
            S.StreamRule.TEXT_MISMATCH,
            7,
        ),
        "arguments_mismatch": (g[:13] + [dict(g[13], arguments="{}")], S.StreamRule.ARGUMENTS_MISMATCH, 13),
        "done_item_arguments": (
            g[:14] + [dict(g[14], item=dict(g[14]["item"], arguments='{"region":"emea"}'))],
            S.StreamRule.ARGUMENTS_MISMATCH,
            14,
        ),
        "item_changed": (
            g[:14] + [dict(g[14], item=dict(g[14]["item"], call_id="call_9"))],
            S.StreamRule.ITEM_CHANGED,
            14,
        ),
        "done_status": (
            g[:14] + [dict(g[14], item=dict(g[14]["item"], status="in_progress"))],
            S.StreamRule.DONE_STATUS,
            14,
        ),
        "wrong_item": (
            g[:4] + [dict(g[11], output_index=0, item_id="msg_1", sequence_number=4)],
            S.StreamRule.WRONG_ITEM,
            4,
        ),
        "item_schema": (
            g[:2] + [dict(g[2], item={"type": "message", "id": "m", "status": "in_progress"})],
            S.StreamRule.ITEM_SCHEMA,
            2,
        ),
        "after_incomplete": (
            g[:2]
            + [
                dict(g[10], sequence_number=2, output_index=0),
                {
                    "type": "response.output_item.done",
                    "sequence_number": 3,
                    "output_index": 0,
                    "item": dict(fc_added, status="incomplete"),
                },
                dict(g[2], sequence_number=4, output_index=1),
            ],
            S.StreamRule.AFTER_INCOMPLETE,
            4,
        ),
        "completed_with_incomplete_item": (
            g[:2]
            + [
                dict(g[10], sequence_number=2, output_index=0),
                {
                    "type": "response.output_item.done",
                    "sequence_number": 3,
                    "output_index": 0,
                    "item": dict(fc_added, status="incomplete"),
                },
                dict(g[15], sequence_number=4),
            ],
            S.StreamRule.RESPONSE_STATUS,
            4,
        ),
        "after_terminal": (g + [dict(g[0], sequence_number=99)], S.StreamRule.AFTER_TERMINAL, 99),
        "snapshot_mismatch": (
            g[:15]
            + [
                dict(
                    g[15],
                    response=dict(g[15]["response"], output=[g[8]["item"], dict(g[14]["item"], name="other")]),
                )
            ],
            S.StreamRule.SNAPSHOT_MISMATCH,
            15,
        ),
        "event_schema": (g[:5] + [dict(g[5], delta=5)], S.StreamRule.EVENT_SCHEMA, 5),
        "unknown_event": (
            g[:3] + [{"type": "response.trace", "sequence_number": 3}],
            S.StreamRule.UNKNOWN_EVENT,
            3,
        ),
    }


@pytest.mark.parametrize("name", list(_cases()))
def test_strict_rule_raises_at_the_offending_event(name: str) -> None:
    events, rule, seq = _cases()[name]
    asm = S.StreamAssembler()
    with pytest.raises(S.StreamError) as exc:
        for ev in events:
            asm.feed(ev)
    assert exc.value.rule == rule
    assert exc.value.sequence_number == seq
    assert f"event {seq}" in str(exc.value) and f"[{rule}]" in str(exc.value)
    assert isinstance(exc.value, ValueError)


@pytest.mark.parametrize("name", list(_cases()))
def test_lenient_rule_is_recorded_and_the_stream_goes_on(name: str) -> None:
    events, rule, seq = _cases()[name]
    asm = S.StreamAssembler(strict=False)
    for ev in events:
        asm.feed(ev)
    hits = [w for w in asm.violations if w.rule == rule]
    assert hits and hits[0].sequence_number == seq


def test_a_call_with_a_broken_rule_is_not_handed_out_in_lenient_mode() -> None:
    events, _, _ = _cases()["arguments_mismatch"]
    asm = S.StreamAssembler(strict=False)
    handed = [x for ev in [*events, _good()[14]] for x in asm.feed(ev)]
    assert [rp.dump_item(x)["type"] for x in handed] == ["message"]  # the tainted call is withheld
    assert rp.dump_item(asm.items[-1])["type"] == "function_call"


def test_incomplete_call_is_kept_but_never_handed_out() -> None:
    g = _good()
    item = dict(g[10]["item"], status="incomplete")
    events = [
        g[0],
        dict(g[10], output_index=0, sequence_number=1),
        {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item},
    ]
    asm = S.StreamAssembler()
    assert [x for ev in events for x in asm.feed(ev)] == []
    assert rp.dump_item(asm.items[0])["status"] == "incomplete"


def test_close_without_terminal_event() -> None:
    asm = S.StreamAssembler()
    for ev in _good()[:5]:
        asm.feed(ev)
    with pytest.raises(S.StreamError) as exc:
        asm.close()
    assert exc.value.rule == S.StreamRule.NO_TERMINAL and "[0]" in exc.value.message


def test_bad_python_input_is_a_stream_error() -> None:
    asm = S.StreamAssembler()
    for bad in (None, 5, [1], "not json", {"no": "type"}):
        with pytest.raises(S.StreamError):
            asm.feed(bad)


# --- extension events ------------------------------------------------------------------------------


def test_extension_event_is_kept_verbatim_and_ignored() -> None:
    ev = {"type": "acme:trace_event", "sequence_number": 3, "span": {"id": 1}}
    parsed = S.parse_event(ev)
    assert isinstance(parsed, S.ExtensionEvent) and parsed.slug == "acme"
    assert parsed.model_dump(mode="json", exclude_unset=True) == ev
    asm = S.StreamAssembler()
    asm.feed(_good()[0])
    assert asm.feed(ev) == [] and asm.warnings == []


def test_openai_native_event_reads_as_openai_extension() -> None:
    ev = {
        "type": "response.reasoning_text.delta",
        "sequence_number": 4,
        "item_id": "rs_1",
        "output_index": 0,
        "content_index": 0,
        "delta": "The",
    }
    parsed = S.parse_event(ev, provider="openai")
    assert isinstance(parsed, S.ExtensionEvent)
    assert parsed.type == "openai:response.reasoning_text.delta" and parsed.wire_type == ev["type"]
    assert parsed.model_dump(mode="json", exclude_unset=True) == ev
    with pytest.raises(S.StreamError) as exc:
        S.parse_event(ev)
    assert exc.value.rule == S.StreamRule.UNKNOWN_EVENT and exc.value.sequence_number == 4


@pytest.mark.parametrize("ev", _good(), ids=lambda e: e["type"])
def test_parse_event_round_trips_spec_events(ev: dict[str, Any]) -> None:
    parsed = S.parse_event(ev)
    assert parsed.model_dump(mode="json", exclude_unset=True) == ev


# --- parity with the official OpenAPI document ----------------------------------------------------


def _spec() -> dict[str, Any]:
    if not SPEC_JSON.is_file():
        pytest.skip(f"openresponses-py package data not found at {SPEC_JSON}")
    spec: dict[str, Any] = json.loads(SPEC_JSON.read_text())
    return spec


def _event_schemas(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    schemas = spec["components"]["schemas"]
    out = {}
    for name, s in schemas.items():
        if name.endswith("StreamingEvent") and "properties" in s:
            out[s["properties"]["type"]["enum"][0]] = s
    return out


def test_the_24_event_types_match_the_spec() -> None:
    events = _event_schemas(_spec())
    assert len(S.SPEC_EVENT_TYPES) == 24
    assert set(events) == set(S.SPEC_EVENT_TYPES)


def test_event_models_require_what_the_spec_requires() -> None:
    events = _event_schemas(_spec())
    models = {m.model_fields["type"].annotation.__args__[0]: m for m in S.SpecStreamEvent.__origin__.__args__}  # type: ignore[attr-defined]
    for etype, schema in events.items():
        model = models[etype]
        required = {n for n, f in model.model_fields.items() if f.is_required()}
        assert required == set(schema["required"]), etype
        assert set(model.model_fields) == set(schema["properties"]), etype


def test_response_resource_has_the_31_fields() -> None:
    rr = _spec()["components"]["schemas"]["ResponseResource"]
    fields = S.ResponseResource.model_fields
    assert len(rr["required"]) == 31
    assert {n for n, f in fields.items() if f.is_required()} == set(rr["required"])
    nullable = {n for n, p in rr["properties"].items() if any(b.get("type") == "null" for b in p.get("anyOf", []))}
    for n in nullable:
        assert S.ResponseResource.model_fields[n].is_required(), n  # present, possibly null


# --- SSE ------------------------------------------------------------------------------------------


def test_sse_comments_multiline_data_and_done() -> None:
    text = ': OPENROUTER PROCESSING\n\nevent: error\ndata: {"type": "error",\ndata:  "sequence_number": 1,\r\n'
    text += 'data: "error": {"type": "server_error", "code": null, "message": "x", "param": null}}\n\n'
    text += "data: [DONE]\n\n"
    assert list(S.parse_sse(text)) == [
        {
            "type": "error",
            "sequence_number": 1,
            "error": {"type": "server_error", "code": None, "message": "x", "param": None},
        }
    ]
    with pytest.raises(S.StreamError) as exc:  # a frame after [DONE] is never dropped silently
        list(S.parse_sse(text + 'data: {"type": "ignored"}\n\n'))
    assert exc.value.rule == S.StreamRule.AFTER_DONE_MARKER


@pytest.mark.parametrize(
    ("text", "rule", "offset"),
    [
        ('data: {"type": "error", "sequence_number": 0\n\n', S.StreamRule.SSE_MALFORMED, 0),
        ("\n\ndata: [1, 2]\n\n", S.StreamRule.SSE_MALFORMED, 2),
        (': hi\n\n{"type": "error"}\n\n', S.StreamRule.SSE_MALFORMED, 6),
        ("event: response.created\n\n", S.StreamRule.SSE_MALFORMED, 0),
        (
            'event: response.created\ndata: {"type": "error", "sequence_number": 7}\n\n',
            S.StreamRule.EVENT_NAME,
            0,
        ),
    ],
)
def test_sse_errors_name_the_byte_offset(text: str, rule: S.StreamRule, offset: int) -> None:
    with pytest.raises(S.StreamError) as exc:
        list(S.parse_sse(text.encode()))
    assert exc.value.rule == rule and exc.value.offset == offset
    assert f"at byte {offset}" in str(exc.value)


def test_sse_event_name_mismatch_names_the_sequence_number() -> None:
    text = 'event: response.created\ndata: {"type": "error", "sequence_number": 7}\n\n'
    with pytest.raises(S.StreamError) as exc:
        list(S.parse_sse(text))
    assert exc.value.sequence_number == 7


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=0, max_size=40), st.lists(st.integers(min_value=1, max_value=5), max_size=12))
def test_text_deltas_split_anywhere_reassemble(text: str, cuts: list[int]) -> None:
    g = _good()
    pieces, i = [], 0
    for c in cuts:
        if i >= len(text):
            break
        pieces.append(text[i : i + c])
        i += c
    if i < len(text) or not pieces:
        pieces.append(text[i:])
    seq = iter(range(100))
    part = {"type": "output_text", "text": "", "annotations": []}
    item = {"type": "message", "id": "msg_1", "status": "in_progress", "role": "assistant", "content": []}
    base = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    events = [
        dict(g[0], sequence_number=next(seq)),
        {"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0, "item": item},
        {"type": "response.content_part.added", "sequence_number": next(seq), **base, "part": part},
        *({"type": "response.output_text.delta", "sequence_number": next(seq), **base, "delta": p} for p in pieces),
        {"type": "response.output_text.done", "sequence_number": next(seq), **base, "text": text},
        {
            "type": "response.content_part.done",
            "sequence_number": next(seq),
            **base,
            "part": dict(part, text=text),
        },
        {
            "type": "response.output_item.done",
            "sequence_number": next(seq),
            "output_index": 0,
            "item": dict(item, status="completed", content=[dict(part, text=text)]),
        },
    ]
    sse = _sse(events).encode()
    asm = S.StreamAssembler()
    out = [x for ev in S.parse_sse(sse[k : k + 5] for k in range(0, len(sse), 5)) for x in asm.feed(ev)]
    assert [rp.dump_item(x)["content"][0]["text"] for x in out] == [text]


# --- command line ---------------------------------------------------------------------------------


def test_cli_checks_an_sse_capture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["check", str(FIXTURES / "message_and_call.sse")]) == 0
    assert ": replay-safe: 16 events, 2 items, status completed" in capsys.readouterr().out
    # the same stream as a JSON array and as JSONL of events, without the .sse suffix
    events = _good()
    (tmp_path / "events.json").write_text(json.dumps(events))
    (tmp_path / "events.jsonl").write_text("\n".join(json.dumps(e) for e in events))
    assert cli_main(["check", str(tmp_path / "events.json")]) == 0
    assert cli_main(["check", str(tmp_path / "events.jsonl"), "--format", "json"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out[out.rindex('{\n  "file"') :])
    assert report["ok"] is True and report["kind"] == "stream" and report["items"] == 2


def test_cli_reports_stream_violations_and_unreadable_captures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, _, _ = _cases()["arguments_mismatch"]
    bad = tmp_path / "bad.sse"
    bad.write_text(_sse(events))
    assert cli_main(["check", str(bad), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [f["rule"] for f in report["stream"] if f["violation"]][0] == "arguments_mismatch"
    broken = tmp_path / "broken.txt"
    broken.write_text('data: {"type": "response.created"\n\n')
    assert cli_main(["check", str(broken)]) == 2
    assert "byte 0" in capsys.readouterr().err


def test_cli_checks_the_items_of_a_stream(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(
        json.dumps(
            [
                {
                    "type": "function",
                    "name": "get_latest_sales_report",
                    "parameters": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["region"],
                        "properties": {"region": {"enum": ["emea"]}},
                    },
                }
            ]
        )
    )
    code = cli_main(["check", str(FIXTURES / "message_and_call.sse"), "--tools", str(tools)])
    assert code == 1
    assert "item 1" in capsys.readouterr().out
