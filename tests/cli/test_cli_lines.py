"""Findings read from a file say where in it: the 1-based `line` and `column` where
the item, event or field starts, for one JSON document (compact or pretty-printed over many lines, a
list, a request body, a Response, one item), JSONL and SSE captures, in the four formats: text
`FILE:LINE:COL: item N: code: message`, JSON `line`/`column`, SARIF `region` (validated against the
official SARIF 2.1.0 schema with jsonschema-rs), GitHub `file=...,line=...,col=...` with the path as
given and no leading `./`. A finding of no item has no line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from replayable._cli import main
from replayable._reading.places import Places

FIX = Path(__file__).parent.parent / "fixtures"
SSE = FIX / "stream" / "message_and_call.sse"
AGENTS_LOG = FIX / "agents" / "session_stream.jsonl"
SARIF_SCHEMA = json.loads((FIX / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "x"}
TEXT_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>[1-9]\d*):(?P<col>[1-9]\d*): (?P<where>[a-z]+(?: \d+)?): (?P<code>[a-z_]+): "
)


def check(argv: list[str], capsys: pytest.CaptureFixture[str], fmt: str = "json") -> tuple[int, Any]:
    code = main(["check", *argv, "--format", fmt])
    out = capsys.readouterr().out
    return code, (json.loads(out) if fmt in ("json", "sarif") else out)


def at(text: str, line: int, column: int) -> str:
    """The text of the file from (line, column), 1-based, columns in characters."""
    return text.splitlines()[line - 1][column - 1 :]


def item_lines(text: str, opener: str) -> list[int]:
    """The 1-based lines that are exactly `opener` (how json.dumps(indent=2) starts each element)."""
    return [n for n, line in enumerate(text.splitlines(), 1) if line == opener]


# --- one JSON document ------------------------------------------------------------------------------------


def test_a_pretty_printed_list_places_each_item_on_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = [USER, CALL, OUT, ORPHAN, {**CALL, "arguments": {"q": 1}}]
    path = tmp_path / "pretty.json"
    text = json.dumps(items, indent=2)
    path.write_text(text)
    code, doc = check([str(path)], capsys)
    starts = item_lines(text, "  {")
    assert code == 1 and len(starts) == len(items)
    by_index = {f["index"]: f for f in doc["findings"]}
    assert set(by_index) >= {3, 4}
    for f in doc["findings"]:
        assert f["where"] == "item" and f["line"] is not None, f
        # the field the finding names, inside its item: the line is within the item's lines
        assert starts[f["index"]] <= f["line"] < (starts[f["index"] + 1] if f["index"] + 1 < len(starts) else 10**9)
        key = f["path"].lstrip("/").split("/")[0]
        if key:  # the place is the value of that field
            value = json.dumps(items[f["index"]][key], indent=2).splitlines()[0]
            assert at(text, f["line"], f["column"]).startswith(value), (f, value)


def test_a_compact_list_places_items_by_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one_line.json"
    text = json.dumps([USER, ORPHAN])
    path.write_text(text)
    _, doc = check([str(path)], capsys)
    (f,) = doc["findings"]
    assert (f["index"], f["line"]) == (1, 1)
    assert at(text, 1, f["column"]).startswith('"nobody"')  # the call_id the finding names


def test_columns_count_characters_and_skip_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bom.json"
    text = json.dumps([{**USER, "content": "héllo → ✓"}, ORPHAN], ensure_ascii=False)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    _, doc = check([str(path)], capsys)
    (f,) = doc["findings"]
    assert at(text, f["line"], f["column"]).startswith('"nobody"')


@pytest.mark.parametrize(
    ("shape", "key"),
    [
        pytest.param(lambda items: {"model": "m", "input": items}, "input", id="request"),
        pytest.param(
            lambda items: {"id": "resp_1", "object": "response", "status": "completed", "output": items},
            "output",
            id="response",
        ),
    ],
)
def test_a_body_or_response_places_the_items_of_its_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: Any, key: str
) -> None:
    call = {**CALL, "id": "fc_1"}
    items = [call, {"type": "function_call_output", "call_id": "c1", "output": "x"}, {**call, "id": "fc_2"}]
    path = tmp_path / f"{key}.json"
    text = json.dumps(shape(items), indent=2)
    path.write_text(text)
    code, doc = check([str(path)], capsys)
    placed = [f for f in doc["findings"] if f["where"] == "item"]
    assert code == 1 and placed
    starts = item_lines(text, "    {")  # the elements of the body's list, one level in
    for f in placed:
        assert f["line"] >= starts[f["index"]] and f["column"] >= 1


def test_one_item_document_is_placed_at_its_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "item.json"
    path.write_text("\n\n  " + json.dumps({**CALL, "status": "incomplete"}))
    _, doc = check([str(path)], capsys)
    assert doc["findings"] and all(f["line"] == 3 for f in doc["findings"])


# --- JSONL and SSE --------------------------------------------------------------------------------------


def test_jsonl_places_each_item_on_its_line_with_blank_and_indented_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(
        json.dumps(USER) + "\n\n" + json.dumps(CALL) + "\n" + json.dumps(OUT) + "\n\n\n    " + json.dumps(ORPHAN) + "\n"
    )
    code, doc = check([str(path)], capsys)
    (f,) = doc["findings"]
    assert code == 1 and (f["index"], f["line"], f["column"]) == (3, 7, 5)
    code, text = check([str(path)], capsys, "text")
    assert text.splitlines()[0].startswith(f"{path}:7:5: item 3: output_without_function_call: ")


def test_jsonl_read_in_batches_keeps_every_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.jsonl"
    turns = [[USER, {**CALL, "call_id": f"c{n}"}, {**OUT, "call_id": f"c{n}"}] for n in range(3000)]
    path.write_text("".join(json.dumps(x) + "\n" for turn in turns for x in turn) + json.dumps(ORPHAN) + "\n")
    _, doc = check([str(path)], capsys)
    (f,) = doc["findings"]
    assert (f["index"], f["line"], f["column"]) == (9000, 9001, 1)


def _event_lines(text: str) -> list[int]:
    """The first line of each SSE frame that carries an event (not `[DONE]`), counted independently."""
    out, start, has_data = [], None, False
    for n, line in enumerate(text.split("\n"), 1):
        if not line:
            if start is not None and has_data:
                out.append(start)
            start, has_data = None, False
        elif not line.startswith(":"):
            start = n if start is None else start
            if line.startswith("data:") and line[5:].strip() != "[DONE]":
                has_data = True
    return out


def test_sse_places_stream_findings_on_their_frame(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SSE.read_text()
    frames = text.split("\n\n")
    # an event whose sequence number jumps: a finding of that event
    bad = [f.replace('"sequence_number": 3,', '"sequence_number": 30,') for f in frames]
    assert bad != frames
    path = tmp_path / "bad.sse"
    path.write_text("\n\n".join(bad))
    code, doc = check([str(path)], capsys)
    events = _event_lines(path.read_text())
    stream = [f for f in doc["findings"] if f["where"] == "stream" and f["index"] is not None]
    assert code == 1 and stream
    for f in stream:
        assert (f["line"], f["column"]) == (events[f["index"]], 1), f
    for f in doc["findings"]:  # the items a stream assembles are in no one place of the file
        if f["where"] == "item":
            assert f["line"] is None


def test_an_agents_log_places_its_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = AGENTS_LOG.read_text().splitlines()
    answer = {"type": "agent.session.input.tool_result", "turn_id": "t?", "call_id": "nobody", "success": True}
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([*lines, "", json.dumps({**answer, "output": "x"})]) + "\n")
    code, doc = check(["--agents", str(path)], capsys)
    placed = [f for f in doc["findings"] if f["index"] == len(lines)]
    assert code == 1 and placed and all((f["line"], f["column"]) == (len(lines) + 2, 1) for f in placed)


def test_a_finding_of_no_item_has_no_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loose = {"type": "function", "name": "f", "strict": True, "parameters": {"type": "object", "properties": {"q": {}}}}
    path = tmp_path / "body.json"
    path.write_text(json.dumps({"model": "m", "input": [USER], "tools": [loose]}, indent=2))
    code, doc = check([str(path)], capsys)
    assert doc["findings"] and all(f["index"] is None and f["line"] is None for f in doc["findings"])
    _, text = check([str(path)], capsys, "text")
    assert not TEXT_LINE.match(text.splitlines()[0])


def test_values_handed_to_the_library_have_no_places() -> None:
    from replayable._render import transcript_record  # noqa: PLC0415
    from replayable._replay import check_transcript  # noqa: PLC0415

    record = transcript_record(check_transcript([USER, ORPHAN]), [], 2, "<input>")
    assert [(f["line"], f["column"]) for f in record["findings"]] == [(None, None)]


def test_places_of_odd_pointers_fall_back_to_the_item() -> None:
    data = b'[\n  {"a": [1, {"b~/c": 2}], "x": "y"},\n  3\n]'
    places = Places.json(data)
    assert places.at(0) == (2, 3)
    assert places.at(0, "/a/1/b~0~1c") == (2, 22)
    assert places.at(0, "/missing/deeper") == (2, 3)
    assert places.at(1) == (3, 3) and places.at(1, "/a") == (3, 3)
    assert places.at(2) is None and places.at(None) is None and places.at(-1) is None


# --- the four formats -----------------------------------------------------------------------------------


def _broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps([USER, ORPHAN, CALL], indent=2))
    return path


def test_text_format_is_file_line_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _broken(tmp_path)
    _, doc = check([str(path)], capsys)
    _, text = check([str(path)], capsys, "text")
    lines = text.splitlines()
    for f, line in zip(doc["findings"], lines, strict=False):
        m = TEXT_LINE.match(line)
        assert m, line
        assert (m["file"], int(m["line"]), int(m["col"])) == (str(path), f["line"], f["column"])
        assert (m["where"], m["code"]) == (f"item {f['index']}", f["code"])


def test_sarif_has_regions_and_validates_against_the_sarif_2_1_0_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _broken(tmp_path)
    sse = tmp_path / "cut.sse"
    sse.write_text("\n\n".join(SSE.read_text().split("\n\n")[:6]) + "\n\n")
    (tmp_path / "unreadable.json").write_text("{")
    _, doc = check(["broken.json"], capsys)
    code, log = check(["broken.json", "cut.sse", "unreadable.json"], capsys, "sarif")
    validator = jsonschema_rs.Draft4Validator(SARIF_SCHEMA)
    errors = [e.message for e in validator.iter_errors(log)]
    assert code == 2 and not errors, errors
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    regions = [
        r["locations"][0]["physicalLocation"].get("region")
        for r in run["results"]
        if r["locations"] and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.json"
    ]
    assert regions == [{"startLine": f["line"], "startColumn": f["column"]} for f in doc["findings"]]
    # the schema is really applied: a region with line 0 is refused
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert not validator.is_valid(log)


def test_github_annotations_carry_line_and_col_and_no_leading_dot_slash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _broken(tmp_path)
    _, doc = check(["broken.json"], capsys)
    for given in ("./broken.json", "broken.json", "."):
        _, out = check([given], capsys, "github")
        lines = [x for x in out.splitlines() if x.startswith("::error")]
        assert len(lines) == len(doc["findings"])
        for line, f in zip(lines, doc["findings"], strict=True):
            assert line.startswith(f"::error file=broken.json,line={f['line']},col={f['column']},title=replayable ")


def test_one_agents_event_on_its_own_is_placed_at_the_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = {"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "nobody", "success": True, "output": "x"}
    path = tmp_path / "one.json"
    path.write_text("\n" + json.dumps(answer, indent=2))
    code, doc = check(["--agents", str(path)], capsys)
    placed = [f for f in doc["findings"] if f["index"] == 0]
    assert code == 1 and placed and all((f["line"], f["column"]) == (2, 1) for f in placed)
