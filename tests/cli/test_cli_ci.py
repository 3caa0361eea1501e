"""`replayable check --format sarif|github` and the pre-commit hook: one SARIF 2.1.0
result per finding (`ruleId` the code, the file as location, the rules in the driver), GitHub workflow
commands escaped as GitHub's toolkit escapes them, and a `.pre-commit-hooks.yaml` whose entry runs."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from replayable import _ci_formats as ci_formats
from replayable._cli import main

ROOT = Path(__file__).parent.parent.parent
EXAMPLES = ROOT / "examples"
BROKEN = EXAMPLES / "sales_report_broken.json"
USER = {"type": "message", "role": "user", "content": "hi"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "x"}

# The OASIS SARIF 2.1.0 JSON Schema as published (tests/fixtures/sarif/README.md says where it comes from).
SARIF_SCHEMA: dict[str, Any] = json.loads(
    (ROOT / "tests" / "fixtures" / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def sarif(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code, out, _ = run([*argv, "--format", "sarif"], capsys)
    log = json.loads(out)
    jsonschema.Draft4Validator(SARIF_SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    for result in run_["results"]:  # every result names a rule of the driver, by id and by index
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    return code, log


def test_sarif_has_one_result_per_violation_with_the_code_and_the_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    rel = "examples/sales_report_broken.json"
    _, out, _ = run(["check", rel, "--format", "json"], capsys)
    findings = json.loads(out)["findings"]
    code, log = sarif(["check", rel], capsys)
    results = log["runs"][0]["results"]
    assert code == 1 and log["version"] == "2.1.0" and log["runs"][0]["tool"]["driver"]["name"] == "replayable"
    assert [r["ruleId"] for r in results] == [f["code"] for f in findings]
    assert [r["message"]["text"] for r in results] == [f["message"] for f in findings]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {rel}
    assert {r["ruleId"] for r in results} == {rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    assert results[0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].startswith("item 2")
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_sarif_of_a_safe_file_has_no_results_and_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, log = sarif(["check", str(EXAMPLES / "conversation.json")], capsys)
    assert code == 0 and log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_of_many_files_and_an_unreadable_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text(json.dumps([USER, ORPHAN]))
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "ok.json").write_text(json.dumps([USER]))
    code, log = sarif(["check", str(tmp_path)], capsys)
    results = log["runs"][0]["results"]
    assert code == 2 and [r["ruleId"] for r in results] == ["output_without_function_call", "unreadable_input"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris == [(tmp_path / "bad.json").as_uri(), (tmp_path / "broken.json").as_uri()]
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False}]
    code, log = sarif(["check", str(tmp_path / "broken.json")], capsys)  # one unreadable file alone
    assert code == 2 and [r["ruleId"] for r in log["runs"][0]["results"]] == ["unreadable_input"]


def test_sarif_uris_escape_odd_file_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    name = "a b%\n#?.json"
    Path(name).write_text(json.dumps([ORPHAN]))
    code, log = sarif(["check", name], capsys)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert code == 1 and uri == "a%20b%25%0A%23%3F.json"


def test_sarif_of_streams_and_agents_logs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frames = (Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_text().split("\n\n")
    cut = tmp_path / "cut.sse"
    cut.write_text("\n\n".join(frames[:6]) + "\n\n")
    code, log = sarif(["check", str(cut)], capsys)
    assert code == 1 and [r["ruleId"] for r in log["runs"][0]["results"]] == ["done_missing", "no_terminal"]


def test_the_escapes_are_githubs() -> None:
    assert ci_formats.escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert ci_formats.escape_property("100% a\r\nb: c, d") == "100%25 a%0D%0Ab%3A c%2C d"


def test_github_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    rel = "examples/sales_report_broken.json"
    _, out, _ = run(["check", rel, "--format", "json"], capsys)
    findings = json.loads(out)["findings"]
    code, out, _ = run(["check", rel, "--format", "github"], capsys)
    lines = out.splitlines()
    assert code == 1 and len(lines) == len(findings)
    pattern = re.compile(r"^::error file=([^,:]+),line=[1-9][0-9]*,col=[1-9][0-9]*,title=replayable ([a-z_]+)::(.*)$")
    for line, f in zip(lines, findings, strict=True):
        m = pattern.match(line)
        assert m, line
        assert m.group(1) == rel and m.group(2) == f["code"] and f["message"][:20] in m.group(3)
    assert lines[0].split("::")[2].startswith("item 2/arguments: ")


def test_github_escapes_file_names_and_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "x,y:z%"
    d.mkdir()
    bad = d / "a\nb.json"
    bad.write_text(json.dumps([USER, {**ORPHAN, "call_id": "x\ny"}]))
    code, out, _ = run(["check", str(bad), "--format", "github"], capsys)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("::error file=")
    assert "x%2Cy%3Az%25/a%0Ab.json,line=1,col=100,title=replayable output_without_function_call::" in lines[0]
    code, out, _ = run(["check", str(d), "--format", "github"], capsys)  # many files: a summary line after
    assert code == 1 and out.splitlines()[-1].startswith("checked 1 file: ")
    (d / "u.json").write_text("[")
    code, out, _ = run(["check", str(d / "u.json"), "--format", "github"], capsys)
    assert code == 2 and out.startswith("::error file=") and "title=replayable unreadable_input::" in out


# --- the pre-commit hook -------------------------------------------------------------------------------


def _hook() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert isinstance(hooks, list)
    (hook,) = [h for h in hooks if h["id"] == "replayable-check"]
    return hook


def test_the_hook_file_parses_and_is_valid_for_pre_commit() -> None:
    hook = _hook()
    assert hook["language"] == "python" and hook["entry"] == "replayable check"
    files = re.compile(hook["files"])
    for name in ["tests/fixtures/t.json", "store/session.jsonl", "capture.sse"]:
        assert files.search(name), name
    for name in ["README.md", "t.json.bak", "x.py"]:
        assert not files.search(name), name
    clientlib = pytest.importorskip("pre_commit.clientlib")
    (loaded,) = clientlib.load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))  # pre-commit's own validation
    assert loaded["id"] == "replayable-check" and loaded["pass_filenames"] is True


def test_the_hook_entry_runs_on_the_files_pre_commit_passes(tmp_path: Path) -> None:
    hook = _hook()
    exe = Path(sys.executable).parent / shlex.split(hook["entry"])[0]
    if not exe.exists():
        pytest.skip(f"the console script is not installed beside {sys.executable}")
    argv = [str(exe), *shlex.split(hook["entry"])[1:], *hook.get("args", [])]
    good = [str(EXAMPLES / "conversation.json"), str(EXAMPLES / "conversation.tools.json")]
    proc = subprocess.run([*argv, *good], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "checked 2 files: 2 replay-safe, 0 with violations, 0 unreadable"
    proc = subprocess.run([*argv, str(BROKEN)], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 1 and "NOT replay-safe" in proc.stdout
    env = {**os.environ, "GITHUB_ACTIONS": "true"}
    proc = subprocess.run(
        [*argv, str(BROKEN), "--format", "github"], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert proc.returncode == 1 and proc.stdout.startswith("::error file=")


def test_bad_usage_is_reported_in_the_format_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    code, log = sarif(["check", "--no-such-option", "x.json"], capsys)
    assert code == 2 and [r["ruleId"] for r in log["runs"][0]["results"]] == ["unreadable_input"]
    code, out, _ = run(["check", "--no-such-option", "x.json", "--format", "github"], capsys)
    assert code == 2 and out.startswith("::error title=replayable unreadable_input::bad usage")
