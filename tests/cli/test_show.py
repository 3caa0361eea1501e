"""`replayable show FILE [--html OUT.html]`: the timeline of every kind of input `check` reads, with
exactly `check`'s findings, each on its item's row; calls paired with their outputs; untrusted text
never read as markup, escapes or HTML."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, FIXTURES

from replayable._checking import CheckOptions, check_document
from replayable._cli import main
from replayable._reading import read_file
from replayable._timeline import Row, Timeline, timeline
from replayable._timeline_render import html, terminal

ANSI = re.compile(r"\x1b\[")

SSE = FIXTURES / "stream" / "message_and_call.sse"
AGENTS_LOG = FIXTURES / "agents" / "session_stream.jsonl"


def _broken_stream(tmp_path: Path) -> Path:
    """The fixture stream with event 5's sequence_number going back (sequence_order, output_index 0)."""
    text = SSE.read_text(encoding="utf-8").replace('"sequence_number": 5,', '"sequence_number": 3,', 1)
    path = tmp_path / "broken.sse"
    path.write_text(text, encoding="utf-8")
    return path


def _agents_log_with_bad_result(tmp_path: Path) -> Path:
    """The fixture log with its tool result answering a call_id nobody asked for."""
    lines = AGENTS_LOG.read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        event = json.loads(line)
        if event.get("type") == "agent.session.input.tool_result":
            event["call_id"] = "call_nobody"
        out.append(json.dumps(event))
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def _inputs(tmp_path: Path) -> list[tuple[str, Path, list[str]]]:
    """(label, file, extra arguments): one of every kind of input `check` reads."""
    tools = tmp_path / "tools.json"
    tools.write_text(
        json.dumps([{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}]),
        encoding="utf-8",
    )
    jsonl = tmp_path / "items.jsonl"
    items = json.loads((EXAMPLES / "sales_report_broken.json").read_text(encoding="utf-8"))
    jsonl.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return [
        ("items", EXAMPLES / "sales_report_broken.json", []),
        ("jsonl", jsonl, []),
        ("clean items", EXAMPLES / "sales_report.json", []),
        ("request", EXAMPLES / "weather.next_request.json", []),
        ("response", EXAMPLES / "weather.response.json", []),
        ("openai response", EXAMPLES / "openai_weather_response.json", ["--provider", "openai"]),
        ("stream", SSE, []),
        ("broken stream", _broken_stream(tmp_path), []),
        ("agents log", AGENTS_LOG, ["--agents"]),
        ("agents log, refused result", _agents_log_with_bad_result(tmp_path), ["--agents"]),
        ("tools", tools, []),
    ]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _key(f: dict[str, Any]) -> tuple[Any, ...]:
    return (f["where"], f["index"], f["code"], f["message"], f["path"], f["severity"])


def _view(path: Path, extra: list[str]) -> tuple[Timeline, dict[str, Any]]:
    provider = "openai" if "--provider" in extra else None
    doc = read_file(str(path), provider=provider, agents="--agents" in extra)
    record = check_document(doc, CheckOptions(file=str(path), provider=provider))
    return timeline(doc, record), record


def test_every_kind_of_input_renders_with_checks_findings_and_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = set()
    for label, path, extra in _inputs(tmp_path):
        check_code, check_out, _ = _run(capsys, "check", str(path), "--format", "json", *extra)
        record = json.loads(check_out)
        kinds.add(record["kind"])
        code, out, err = _run(capsys, "show", str(path), *extra)
        assert (code, err) == (check_code, ""), label
        assert not ANSI.search(out), label  # not a terminal: no colour
        view, _ = _view(path, extra)
        for row in view.rows:  # every row is drawn, with its index
            assert re.search(rf"^\s*{row.index}\s", out, re.MULTILINE), (label, row.index)
        for f in record["findings"]:  # every finding's code is on the page (its message wraps)
            assert f["code"] in out.replace("\n", ""), (label, f["code"])
        verdict = _run(capsys, "check", str(path), *extra)[1].strip().splitlines()[-1]
        assert out.rstrip().splitlines()[-1].strip() == verdict, label  # check's own verdict line
        page_code, page, _ = _run(capsys, "show", str(path), "--html", "-", *extra)
        assert page_code == check_code
        for f in record["findings"]:
            assert f'data-code="{f["code"]}"' in page, (label, f["code"])
    assert kinds == {"items", "request", "response", "stream", "agents", "tools"}


def test_the_timeline_holds_exactly_the_findings_of_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for label, path, extra in _inputs(tmp_path):
        record = json.loads(_run(capsys, "check", str(path), "--format", "json", *extra)[1])
        view, _ = _view(path, extra)
        shown = [f for row in view.rows for f in row.findings] + [f for _, f in view.general]
        assert Counter(map(_key, shown)) == Counter(map(_key, record["findings"])), label
        assert view.findings == len(record["findings"])
        assert view.ok is record["ok"]


def test_each_finding_sits_on_its_items_row() -> None:
    view, record = _view(EXAMPLES / "sales_report_broken.json", [])
    assert record["findings"] and not view.general
    for f in record["findings"]:
        assert f["where"] == "item"
        assert f in view.rows[f["index"]].findings
    assert view.rows[2].worst == "error" and view.rows[0].worst == ""
    assert {f["code"] for f in view.rows[2].findings} == {
        "function_arguments_not_string",
        "function_call_without_output",
    }


def test_a_stream_rules_finding_sits_on_the_item_its_event_is_about(tmp_path: Path) -> None:
    view, record = _view(_broken_stream(tmp_path), [])
    order = [f for f in record["findings"] if f["code"] == "sequence_order"]
    assert order and order[0]["where"] == "stream"
    assert order[0] in view.rows[0].findings  # the event's output_index is 0: the message
    assert view.rows[0].type == "message" and view.rows[1].type == "function_call"


def test_an_agents_finding_sits_on_its_events_row(tmp_path: Path) -> None:
    view, record = _view(_agents_log_with_bad_result(tmp_path), ["--agents"])
    assert view.unit == "event" and len(view.rows) == record["events"]
    errors = [f for f in record["findings"] if f["severity"] == "error"]
    assert errors
    for f in record["findings"]:
        assert f in view.rows[f["index"]].findings
    result = next(r for r in view.rows if r.type == "agent.session.input.tool_result")
    assert result.call_id == "call_nobody" and result.pair is None


def test_calls_and_their_outputs_are_paired_as_the_rules_pair_them() -> None:
    view, _ = _view(EXAMPLES / "sales_report_broken.json", [])
    rows = view.rows
    assert (rows[1].pair, rows[1].pair_kind) == (4, "call")
    assert (rows[4].pair, rows[4].pair_kind) == (1, "output")
    assert (rows[3].pair, rows[5].pair) == (5, 3)  # paired, though the rules refuse the answer
    assert rows[2].pair is None and rows[6].pair is None  # no output; an answer to nothing
    assert rows[7].pair is None  # a hosted call: nothing to pair
    table = terminal(view)
    assert re.search(r"call_129\s+completed\s+→ 4", table)
    assert re.search(r"call_129\s+← 1", table)
    page = html(view)
    assert '<a class="pair" href="#item-4">→ 4</a>' in page and '<a class="pair" href="#item-1">← 1</a>' in page


def test_openai_native_calls_pair_in_openai_mode(tmp_path: Path) -> None:
    items = [
        {"type": "custom_tool_call", "call_id": "c1", "name": "grep", "input": "x", "status": "completed"},
        {"type": "custom_tool_call_output", "call_id": "c1", "output": "found"},
        {"type": "mcp_approval_request", "id": "apr_1", "server_label": "s", "name": "n", "arguments": "{}"},
        {"type": "mcp_approval_response", "approval_request_id": "apr_1", "approve": True},
    ]
    path = tmp_path / "native.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    view, _ = _view(path, ["--provider", "openai"])
    assert [(r.pair, r.pair_kind) for r in view.rows] == [(1, "call"), (0, "output"), (3, "call"), (2, "output")]
    assert view.rows[3].call_id == "apr_1"


def test_a_pending_call_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    view, record = _view(SSE, [])
    assert record["pending"] == [1] and view.rows[1].pending
    assert "pending" in terminal(view)
    assert '<span class="pending">pending</span>' in html(view)


def test_findings_on_no_item_are_listed_with_where_they_are(tmp_path: Path) -> None:
    body = {
        "model": "m",
        "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}],
        "input": [{"type": "message", "role": "user", "content": "hi"}],
    }
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    view, record = _view(path, [])
    assert record["findings"]
    assert [where for where, _ in view.general] == ["tool 0"] * len(record["findings"])
    assert "tool 0: ✗ " in terminal(view)


HOSTILE = [
    {"type": "message", "role": "user", "content": "[bold red]forged[/] \x1b[2J\x1b]0;title\x07 done"},
    {
        "type": "message",
        "role": "assistant",
        "content": '<script>document.body.setAttribute("data-pwned", "1")</script>',
    },
    {"type": "function_call", "call_id": '"><img src=x onerror=alert(1)>', "name": "f", "arguments": "{}"},
]


def _hostile(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(HOSTILE), encoding="utf-8")
    return path


def test_terminal_text_is_never_markup_nor_escape_sequences(tmp_path: Path) -> None:
    view, _ = _view(_hostile(tmp_path), [])
    for color in (False, True):
        out = terminal(view, color=color, width=200)
        assert "[bold red]forged[/]" in out  # shown as typed, not read as rich markup
        assert "\x1b[2J" not in out and "\x1b]0;" not in out and "\x07" not in out
        assert "\\x1b[2J" in out  # escaped, visible
        assert bool(ANSI.search(out)) is color


def test_html_escapes_every_value_and_fetches_nothing(tmp_path: Path) -> None:
    view, _ = _view(_hostile(tmp_path), [])
    page = html(view)
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;document.body.setAttribute(&quot;data-pwned&quot;, &quot;1&quot;)&lt;/script&gt;" in page
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    assert "default-src 'none'" in page  # a policy that forbids scripts and fetches besides
    for fetch in ("http://", "https://", "<link", "@import", "url(", " src=", "<iframe", "<object"):
        assert fetch not in page.replace("onerror=alert(1)&gt;", "").replace("&lt;img src=x", ""), fetch


def test_colour_only_on_a_terminal_without_no_color(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    path = EXAMPLES / "sales_report_broken.json"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, _ = _run(capsys, "show", str(path))
    assert code == 1 and ANSI.search(out)
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = _run(capsys, "show", str(path))
    assert code == 1 and not ANSI.search(out)


def test_html_is_written_to_the_file_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "out.html"
    code, out, err = _run(capsys, "show", str(EXAMPLES / "sales_report_broken.json"), "--html", str(out_file))
    assert (code, out, err) == (1, "", "")
    page = out_file.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count('<tr id="item-') == 10
    code, _, err = _run(capsys, "show", str(EXAMPLES / "sales_report.json"), "--html", str(tmp_path / "no" / "x.html"))
    assert code == 2 and err.startswith("replayable: error: cannot write")


def test_unreadable_input_and_bad_usage_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{", encoding="utf-8")
    code, out, err = _run(capsys, "show", str(bad))
    assert code == 2 and out == "" and err.startswith("replayable: error:") and "\n" == err[-1] and err.count("\n") == 1
    code, _, err = _run(capsys, "show", str(AGENTS_LOG))  # an Agents log needs --agents, as for check
    assert code == 2 and "--agents" in err
    code, _, err = _run(capsys, "show", str(AGENTS_LOG), "--agents", "--target", "openai")
    assert code == 2 and "--target" in err
    code, _, _ = _run(capsys, "show")
    assert code == 2


def test_a_timeline_refuses_a_jsonl_left_open_and_an_unreadable_record(tmp_path: Path) -> None:
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_text('{"type": "message", "role": "user", "content": "hi"}\n' * 3, encoding="utf-8")
    doc = read_file(str(jsonl), lazy=True)
    assert doc.source is not None
    try:
        with pytest.raises(ValueError, match="lazy"):
            timeline(doc, {"file": "x", "ok": True, "findings": []})
    finally:
        doc.source.close()
    with pytest.raises(ValueError, match="unreadable"):
        timeline(read_file(str(jsonl)), {"file": "x", "ok": False, "error": "nothing"})


def test_values_that_are_not_objects_are_rows_of_their_json_type(tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_text(
        json.dumps([1, "text", None, [], {"role": "user", "content": [{"type": "input_text", "text": "hi"}]}])
    )
    view, record = _view(path, [])
    assert [r.type for r in view.rows] == ["number", "string", "null", "array", "message"]
    assert view.rows[4].text == "hi" and not record["ok"]
    assert isinstance(view.rows[0], Row)


def test_import_replayable_stays_light() -> None:
    import subprocess
    import sys

    code = (
        "import sys, replayable; "
        "print(sorted(m for m in sys.modules if m.startswith('rich') or m.startswith('replayable._timeline')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
