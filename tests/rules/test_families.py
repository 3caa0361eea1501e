"""Call families (replayable._families.FAMILIES): each family's orphan output, answer to an unfinished
call, unanswered call and duplicate are caught by check_transcript; computer_call safety checks."""

from __future__ import annotations

from typing import Any

import pytest

import replayable as rp
from replayable._families import FAMILIES, markdown_table

USER = {"type": "message", "role": "user", "content": "go"}
CALLS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "custom_tool_call": (
        {"type": "custom_tool_call", "call_id": "c1", "name": "sql", "input": "SELECT 1"},
        {"type": "custom_tool_call_output", "call_id": "c1", "output": "1"},
    ),
    "local_shell_call": (
        {"type": "local_shell_call", "id": "l1", "call_id": "c1", "status": "completed",
         "action": {"type": "exec", "command": ["ls"], "env": {}}},
        {"type": "local_shell_call_output", "id": "lo1", "call_id": "c1", "output": "{}"},
    ),
    "apply_patch_call": (
        {"type": "apply_patch_call", "call_id": "c1", "status": "completed",
         "operation": {"type": "delete_file", "path": "a"}},
        {"type": "apply_patch_call_output", "call_id": "c1", "status": "completed"},
    ),
    "mcp_approval_request": (
        {"type": "mcp_approval_request", "id": "r1", "server_label": "s", "name": "t", "arguments": "{}"},
        {"type": "mcp_approval_response", "approval_request_id": "r1", "approve": True},
    ),
}


def codes(items: list[Any], **kw: Any) -> list[tuple[int, str]]:
    return [(v.index, str(v.code)) for v in rp.check_transcript(items, provider="openai", **kw).violations]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_family_rules(name: str) -> None:
    call, out = CALLS[name]
    assert codes([USER, call, out, USER]) == []
    assert codes([USER, out]) == [(1, "output_without_function_call")]
    assert codes([USER, call, USER]) == [(1, "function_call_without_output")]
    assert (3, "duplicate_output") in codes([USER, call, out, out])
    assert (1, "duplicate_call_id") in [(i - 1, c) for i, c in codes([USER, call, call, out])] or codes(
        [USER, call, call, out]
    ) == [(2, "duplicate_call_id")] or "duplicate_item_id" in str(codes([USER, call, call, out]))
    assert codes([USER, call], pending_ok=True) == []


def test_answer_to_an_in_progress_custom_tool_call_is_refused() -> None:
    call, out = CALLS["custom_tool_call"]
    got = codes([USER, {**call, "status": "in_progress"}, out])
    assert got == [(1, "in_progress_call_replayed"), (2, "output_for_unfinished_call")]


def test_hosted_calls_need_no_output() -> None:
    ws = {"type": "web_search_call", "id": "ws", "status": "completed", "action": {"type": "search"}}
    assert codes([USER, ws, USER]) == []
    assert codes([USER, {**ws, "status": "searching"}, USER]) == [(1, "in_progress_call_replayed")]


def test_computer_call_safety_checks_must_be_acknowledged() -> None:
    call = {"type": "computer_call", "id": "cu", "call_id": "c1", "status": "completed",
            "pending_safety_checks": [{"id": "sc1", "code": "malicious_instructions"}]}
    out = {"type": "computer_call_output", "call_id": "c1", "output": {"type": "computer_screenshot", "file_id": "f"}}
    assert codes([USER, call, out]) == [(2, "safety_check_not_acknowledged")]
    acked = {**out, "acknowledged_safety_checks": [{"id": "sc1"}]}
    assert codes([USER, call, acked]) == []


def test_program_call_waiting_for_its_output_is_not_a_false_alarm() -> None:
    program = {"type": "program", "id": "cm", "call_id": "p1", "code": "x", "fingerprint": "f"}
    call = {"type": "function_call", "id": "fc", "call_id": "c1", "name": "f", "arguments": "{}",
            "status": "in_progress", "caller": {"type": "program", "caller_id": "p1"}}
    out = {"type": "function_call_output", "call_id": "c1", "output": "1"}
    done = {"type": "program_output", "id": "po", "call_id": "p1", "result": "1", "status": "completed"}
    assert codes([USER, program, call, out, done, USER]) == []
    assert rp.gate(call, {}, programs=[program]).ok  # inside its program's turn
    assert rp.gate(call, {}).reason == "status"  # no program in view: it runs in no turn
    assert rp.gate(call, programs=[program]).reason == "no_schema"  # no tool given: never run unchecked
    assert codes([USER, call, out]) == [(1, "in_progress_call_replayed"), (2, "output_for_unfinished_call")]


def test_provider_state_rule_is_shared_with_prepare_replay() -> None:
    rs = {"type": "reasoning", "id": "rs", "summary": [], "encrypted_content": "gAAA"}
    msg = {"type": "message", "id": "msg_m", "role": "assistant", "content": "hi"}
    report = rp.check_transcript([USER, rs, msg], target="acme", provider="openai")
    assert [(v.index, str(v.code)) for v in report.violations] == [(1, "foreign_provider_state")]
    kept, rep = rp.prepare_replay([USER, rs, msg], target="acme", provider="openai")
    assert [i for i, _ in rep.dropped] == [1]
    assert rp.check_transcript([USER, rs, msg], target="openai", provider="openai").ok


def test_compare_blocks_a_rewritten_custom_tool_input() -> None:
    call = CALLS["custom_tool_call"][0]
    diffs = rp.compare_items(call, {**call, "input": "DROP TABLE users"})
    assert [(d.path, d.blocking) for d in diffs] == [("/input", True)]


def test_docs_table_is_the_family_table() -> None:
    """docs/openai.md (the call families) shows the table `markdown_table()` generates from `FAMILIES`."""
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent.parent / "docs" / "openai.md").read_text(encoding="utf-8")
    assert markdown_table() in page
    assert len(FAMILIES) == markdown_table().count("\n") - 1


# --- pairing by call_id across families; an output that names no call ---------------------------


def test_two_calls_of_different_families_with_one_call_id_are_duplicate_call_id() -> None:
    """New-user and attacker reports: a function_call and a custom_tool_call sharing call_id 'c1' passed;
    an output pairs by call_id alone, so which call it answers would be a guess."""
    fc = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"}
    ctc = {"type": "custom_tool_call", "call_id": "c1", "name": "g", "input": "x"}
    items = [fc, ctc, {"type": "function_call_output", "call_id": "c1", "output": "x"}]
    report = rp.check_transcript(items, provider="openai")
    dup = [v for v in report.violations if v.code is rp.ViolationCode.DUPLICATE_CALL_ID]
    assert [(v.index, v.path) for v in dup] == [(1, "/call_id")] and "item 0" in dup[0].message
    apart = [fc, {"type": "function_call_output", "call_id": "c1", "output": "x"}, {**ctc, "call_id": "c2"},
             {"type": "custom_tool_call_output", "call_id": "c2", "output": "y"}]
    assert rp.check_transcript(apart, provider="openai").ok


def test_a_provider_output_that_names_no_call_answers_none() -> None:
    """New-user report (R45 with --pending-ok): an openai:local_shell_call_output without call_id was
    silently skipped, so the call counted as pending and the transcript passed. The output answers no
    call; a server-run tool search's output names none by design."""
    call = {"type": "local_shell_call", "id": "lsh_1", "call_id": "call_1", "status": "completed",
            "action": {"type": "exec", "command": ["ls"], "env": {}}}
    output = {"type": "local_shell_call_output", "id": "call_1", "output": "notes.txt"}
    for pending_ok in (False, True):
        report = rp.check_transcript([call, output], provider="openai", pending_ok=pending_ok)
        keyless = [v for v in report.violations if v.code is rp.ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL]
        assert [(v.index, v.path) for v in keyless] == [(1, "/call_id")]
        assert "names no local_shell_call" in keyless[0].message
    server = {"type": "tool_search_output", "execution": "server", "status": "completed", "tools": []}
    assert rp.check_transcript([server], provider="openai").ok
    client = {**server, "execution": "client"}
    assert [str(v.code) for v in rp.check_transcript([client], provider="openai").violations] == [
        "output_without_function_call"
    ]
