"""One finding type and one table of codes (`replayable._findings`, `replayable._codes`), the rule table
(`replayable._rules.table.RULES`), and the rule added as one function and one row: `call_id_empty`.

- The table of codes in docs/codes.md is the one `replayable._codes.markdown_table()` generates.
- Every code enum matches its scope's rows of the table, member for member.
- `Violation`, `AgentsViolation`, `Note` and `StreamWarning` are one finding type.
- A pending call whose `call_id` is `""`, at the end of a Response's `output` or of a stream, is
  `call_id_empty` on every entry point (nothing can answer it: an input `call_id` is 1-64 characters).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, full_response

import replayable as rp
from replayable import stream as S
from replayable._codes import CODES, AgentsViolationCode, NoteCode, StreamRule, ViolationCode, code_info, markdown_table
from replayable._replay import check_transcript_iter
from replayable._rules.table import RULES

CODES_PAGE = ROOT / "docs" / "codes.md"


def test_the_docs_table_of_codes_is_generated_from_the_table() -> None:
    text = CODES_PAGE.read_text(encoding="utf-8")
    start, end = "<!-- begin: table of finding codes -->\n", "<!-- end: table of finding codes -->"
    assert start in text and end in text
    block = text[text.index(start) + len(start) : text.index(end)].strip("\n")
    assert block == markdown_table()
    for info in CODES:  # every code has its row, with its severity
        assert f"| `{info.code}` | {info.severity} |" in block


@pytest.mark.parametrize(
    ("enum", "scope"),
    [(ViolationCode, "transcript"), (AgentsViolationCode, "agents"), (StreamRule, "stream"), (NoteCode, "note")],
)
def test_every_code_enum_matches_its_rows_of_the_table(enum: Any, scope: str) -> None:
    assert [m.value for m in enum] == [i.code for i in CODES if i.scope == scope]
    for member in enum:
        assert code_info(member).scope == scope and code_info(member).meaning


def test_one_code_in_two_scopes_keeps_two_rows() -> None:
    assert code_info(ViolationCode.UNKNOWN_TOOL).severity == rp.Severity.VIOLATION
    assert code_info(AgentsViolationCode.UNKNOWN_TOOL).severity == rp.Severity.WARNING  # refused before it ran


def test_every_rule_row_reports_codes_of_the_table() -> None:
    for row in RULES:
        assert row.codes and all(code_info(c).scope == "transcript" for c in row.codes), row
        assert row.check.__doc__, row  # each rule says what it finds


def test_the_finding_types_are_one() -> None:
    assert rp.Violation is rp.Finding and rp.agents.AgentsViolation is rp.Finding
    assert issubclass(rp.Note, rp.Finding) and issubclass(S.StreamWarning, rp.Finding)
    v = rp.Violation(3, ViolationCode.ITEM_INVALID, "tools[0] is not a tool", "/x")
    assert (v.index, v.code, v.message, v.path, v.severity) == (
        3,
        "item_invalid",
        "tools[0] is not a tool",
        "/x",
        "violation",
    )
    assert v.as_dict() == {"index": 3, "code": "item_invalid", "message": "tools[0] is not a tool", "path": "/x"}
    w = S.StreamWarning(7, 2, "response.created", StreamRule.SNAPSHOT_SCHEMA, "m", violation=False)
    assert (w.rule, w.code, w.index, w.severity, w.violation) == (
        "snapshot_schema",
        "snapshot_schema",
        2,
        "note",
        False,
    )


def test_a_message_is_made_from_the_template_and_its_parameters() -> None:
    report = rp.check_transcript([{"type": "function_call_output", "call_id": "c9", "output": "x"}])
    (v,) = report.violations
    assert v.params["key"] == "c9" and v.params["family"] == "function_call"
    assert v.message == code_info(v.code).render(v.params)
    assert v.message.startswith("no earlier function_call has call_id 'c9'")


def test_a_continuation_renumbers_the_items_a_message_names_from_its_parameters() -> None:
    """The request's findings name items of the request's `input`; nothing rewrites their text."""
    previous = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "output": [
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "c1",
                "name": "f",
                "arguments": "{}",
                "status": "completed",
            }
        ],
    }
    out = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    body = {"previous_response_id": "resp_1", "input": [out, dict(out)]}
    report = rp.check_transcript(body, previous=previous)
    (v,) = report.violations
    assert (v.index, v.code) == (1, "duplicate_output")
    assert "(item 0 of the previous output) was already answered" in v.message


# --- the worked example: call_id_empty -----------------------------------------------------------------

CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "",
    "name": "lookup",
    "arguments": "{}",
    "status": "completed",
}
OK_CALL = {**CALL, "call_id": "c1"}
MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "looking", "annotations": []}],
}


def _response(*output: dict[str, Any]) -> dict[str, Any]:
    """A strict, complete response (every key: `parse_response` reads it) with this output."""
    return {**full_response(), "output": list(output), "tools": []}


def _codes(report: Any) -> list[tuple[int | None, str]]:
    return [(v.index, str(v.code)) for v in report.violations]


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(lambda out: rp.check_transcript(_response(*out)), id="response-dict"),
        pytest.param(lambda out: rp.check_transcript(rp.parse_response(_response(*out))), id="response-model"),
        pytest.param(lambda out: rp.check_transcript(out, side="output", pending_ok=True), id="output-dicts"),
        pytest.param(
            lambda out: rp.check_transcript(rp.parse_items(out, side="output"), side="output", pending_ok=True),
            id="output-models",
        ),
        pytest.param(lambda out: check_transcript_iter(iter(out), side="output", pending_ok=True), id="check_transcript_iter"),
        pytest.param(lambda out: S.check_stream(_events(out)).transcript, id="stream-events"),
    ],
)
def test_a_pending_call_with_an_empty_call_id_is_found_on_every_entry_point(entry: Any) -> None:
    report = entry([MESSAGE, CALL])
    assert _codes(report) == [(1, "call_id_empty")]
    (v,) = report.violations
    assert v.path == "/call_id" and "no function_call_output can answer it" in v.message
    assert not report.ok
    fine = entry([MESSAGE, OK_CALL])  # the same call with a call_id is simply pending
    assert fine.ok and list(fine.pending) == [1]


def _events(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    resp = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": resp}]
    for i, item in enumerate(items):
        events.append(
            {"type": "response.output_item.added", "output_index": i, "item": {**item, "status": "in_progress"}}
        )
        events.append({"type": "response.output_item.done", "output_index": i, "item": item})
    events.append({"type": "response.completed", "response": {**resp, "status": "completed", "output": items}})
    return [{**e, "sequence_number": n} for n, e in enumerate(events)]


def test_a_stream_report_fails_on_an_empty_call_id(tmp_path: Path) -> None:
    report = S.check_stream(_events([MESSAGE, CALL]))
    assert not report.ok and _codes(report.transcript) == [(1, "call_id_empty")]


def test_the_command_line_finds_an_empty_call_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from replayable._cli import main

    path = tmp_path / "response.json"
    path.write_text(json.dumps(_response(MESSAGE, CALL)))
    assert main(["check", str(path)]) == 1
    assert "item 1: call_id_empty:" in capsys.readouterr().out


def test_an_answered_pair_and_input_items_are_left_to_their_own_rules() -> None:
    """A pair the response completes is what the provider sent (tests/rules/test_transcript.py, R30); items read
    as input already refuse the empty call_id (`item_invalid`), once."""
    out = {"type": "function_call_output", "id": "fco_1", "call_id": "", "output": "x", "status": "completed"}
    assert rp.check_transcript([CALL, out], side="output").ok
    assert _codes(rp.check_transcript([MESSAGE, CALL], pending_ok=True)) == [(1, "item_invalid")]


def test_a_rule_is_one_function_and_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine runs whatever the table lists, on the item types and families a row names, when its
    switch is on: a row added to `RULES` needs nothing else."""
    from replayable._rules import table

    seen: list[tuple[int, str]] = []

    def every_message(ctx: Any, item: Any) -> list[rp.Violation]:
        """Records each message it is handed, and returns its finding."""
        seen.append((item.index, item.view.get("type")))  # the view: the item's fields (replayable._rules.view)
        return [rp.Violation(item.index, ViolationCode.ITEM_INVALID, "a message", "/role")]

    row = table.Rule(every_message, "item", (ViolationCode.ITEM_INVALID,), frozenset({"message"}))
    monkeypatch.setattr(table, "RULES", (*table.RULES, row))
    user = {"type": "message", "role": "user", "content": "hi"}
    report = rp.check_transcript(
        [user, OK_CALL, {"type": "function_call_output", "call_id": "c1", "output": "x"}, user]
    )
    assert seen == [(0, "message"), (3, "message")]
    assert [(v.index, v.code, v.path, v.message) for v in report.violations] == [
        (0, "item_invalid", "/role", "a message"),
        (3, "item_invalid", "/role", "a message"),
    ]
