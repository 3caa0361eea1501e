"""`replayable explain CODE`: what a code means, its severity and message, a minimal
example that shows it and how to fix it, for every code of `replayable._codes`. Every example is run
through the door it names (`replayable check` with its flags, or `replayable.check_tool`) and must report
its code, so that no example drifts from the rules; an unknown code exits 2 naming the closest ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable
from replayable._cli import main
from replayable._codes import CODES
from replayable._explanations import EXAMPLES, Example, example

ROWS = [pytest.param(e, id=f"{e.scope}-{e.code}") for e in EXAMPLES.values()]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    got = capsys.readouterr()
    return code, got.out, got.err


def test_every_code_has_one_example_and_nothing_else_has_one() -> None:
    assert set(EXAMPLES) == {(info.scope, info.code) for info in CODES}
    for (scope, code), ex in EXAMPLES.items():
        assert (ex.scope, ex.code) == (scope, code) and ex.text.strip() and ex.fix.strip()
        assert ex.door in ("check", "check_tool")


def _reported(ex: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list[str], str]:
    """The codes `ex`'s door reports for it, and the error of an unreadable input ("" if none)."""
    if ex.door == "check_tool":
        report = replayable.check_tool(json.loads(ex.text), provider=ex.provider)
        return [str(f.code) for f in (*report, *report.notes)], ""  # its violations (a list), its notes
    path = tmp_path / ex.file
    path.write_text(ex.text, encoding="utf-8")
    code, out, err = run(["check", *ex.flags, str(path), "--format", "json"], capsys)
    record = json.loads(out)
    assert code == (2 if record.get("error") else 0 if record["ok"] else 1), (code, err)  # exit status and record agree
    return [f["code"] for f in record.get("findings", [])], str(record.get("error") or "")


@pytest.mark.parametrize("ex", ROWS)
def test_every_example_reports_its_code(ex: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes, error = _reported(ex, tmp_path, capsys)
    # a framing error makes the capture unreadable: `check` names its code in the one error line
    assert ex.code in codes or f"[{ex.code}]" in error, (codes, error)


def test_an_example_is_minimal_where_it_can_be(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Most examples show their code and little else: no example of a transcript code is unreadable, and
    most report only their own code (streams may add the snapshot_schema note of their minimal snapshot)."""
    only = 0
    for ex in EXAMPLES.values():
        codes, error = _reported(ex, tmp_path, capsys)
        others = set(codes) - {ex.code, "snapshot_schema"}
        only += not others
        if ex.scope == "transcript":
            assert not error, ex.code
    assert only >= len(EXAMPLES) * 3 // 4, only


@pytest.mark.parametrize("info", [pytest.param(i, id=f"{i.scope}-{i.code}") for i in CODES])
def test_explain_prints_meaning_severity_example_and_fix(info: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["explain", info.code], capsys)
    assert code == 0 and not err
    (ex,) = example(info.code, info.scope)
    assert f"{info.code} ({info.scope}, {info.severity})" in out
    assert info.meaning in out and info.template in out and ex.fix in out
    assert ex.command() in out and ex.text.strip().splitlines()[0] in out


def test_explain_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["explain", "unknown_tool", "--format", "json"], capsys)
    entries = json.loads(out)
    assert code == 0 and [(e["scope"], e["severity"]) for e in entries] == [
        ("transcript", "violation"),
        ("agents", "warning"),
    ]
    for e in entries:
        assert set(e) == {"code", "scope", "severity", "meaning", "message", "example", "fix"}
        assert e["example"]["command"].startswith("replayable check") and e["example"]["text"]


def test_explain_accepts_any_case_and_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["explain", " Duplicate_Output "], capsys)
    assert code == 0 and out.startswith("duplicate_output (transcript, violation)")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("output_withut_function_call", "output_without_function_call"),
        ("duplicate_outptu", "duplicate_output"),
        ("strict_schema", "strict_schema_additional_properties"),
    ],
)
def test_an_unknown_code_exits_2_with_close_matches(
    given: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["explain", given], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"replayable: error: unknown code {given!r}; did you mean ") and expected in err
    code, out, _ = run(["explain", given, "--format", "json"], capsys)
    assert code == 2 and expected in json.loads(out)["error"]


def test_an_unknown_code_with_nothing_close_says_how_to_list_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["explain", "zzzz"], capsys)
    assert code == 2 and "`replayable explain` lists every code" in err


def test_explain_without_a_code_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["explain"], capsys)
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(CODES)
    assert [line.split()[0] for line in lines] == [info.code for info in CODES]
    code, out, _ = run(["explain", "--format", "json"], capsys)
    assert code == 0 and [e["code"] for e in json.loads(out)] == [info.code for info in CODES]
