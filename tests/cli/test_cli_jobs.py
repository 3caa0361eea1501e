"""`replayable check` over many files (`--jobs`, directories) and the streamed JSONL path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replayable._cli import inputs, main
from replayable._reading import files


def turn(i: int) -> list[dict[str, Any]]:
    return [
        {"type": "message", "role": "user", "content": f"question {i}"},
        {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": f"c{i}",
            "name": "t",
            "status": "completed",
            "arguments": "{}",
        },
        {"type": "function_call_output", "call_id": f"c{i}", "output": "done"},
    ]


SAFE = [x for i in range(5) for x in turn(i)]
UNSAFE = [*SAFE, {"type": "function_call_output", "call_id": "nobody", "output": "x"}]


def jsonl(items: list[Any]) -> str:
    return "\n".join(json.dumps(x) for x in items) + "\n"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.json").write_text(json.dumps(SAFE))
    (tmp_path / "sub" / "b.jsonl").write_text(jsonl(UNSAFE))
    (tmp_path / "sub" / "c.jsonl").write_text(jsonl(SAFE))
    (tmp_path / "notes.txt").write_text("not a transcript")
    return tmp_path


def test_collect_files_walks_directories_for_known_suffixes(store: Path) -> None:
    found = inputs.find_files([str(store)])
    assert [Path(f.path).relative_to(store).as_posix() for f in found] == ["a.json", "sub/b.jsonl", "sub/c.jsonl"]
    assert not any(f.error for f in found)


@pytest.mark.parametrize("jobs", [None, 1, 2])
def test_directory_check_reports_each_file_and_a_summary(
    store: Path, jobs: int | None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", str(store)] + ([] if jobs is None else ["--jobs", str(jobs)])
    assert main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "checked 3 files: 2 replay-safe, 1 with violations, 0 unreadable"
    assert any("b.jsonl:16:1: item 15: output_without_function_call" in line for line in out)
    order = [line.split(":")[0] for line in out if "replay-safe:" in line or "NOT replay-safe" in line]
    assert [Path(x).name for x in order] == ["a.json", "b.jsonl", "c.jsonl"]  # input order, not finish order


def test_unreadable_files_make_exit_2_and_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SAFE))
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert main(["check", str(good), str(bad), str(tmp_path / "missing.json"), "--format", "json", "--jobs", "2"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"] == {"files": 3, "replay_safe": 1, "with_violations": 0, "unreadable": 2}
    assert doc["files"][0]["report"]["ok"] is True and doc["files"][0]["report"]["items"] == len(SAFE)
    assert doc["files"][1]["exit"] == 2 and "neither JSON nor JSONL" in doc["files"][1]["error"]
    assert doc["files"][2]["exit"] == 2 and "cannot read" in doc["files"][2]["error"]


def test_no_progress_bar_on_a_pipe(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(store), "--jobs", "2"])
    assert capsys.readouterr().err == ""  # pytest's capture is not a terminal


@pytest.mark.parametrize("items", [SAFE, UNSAFE, UNSAFE[:-2], [{"type": "reasoning", "id": "rs", "summary": []}]])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_streamed_jsonl_prints_exactly_what_the_whole_file_path_prints(
    tmp_path: Path,
    items: list[Any],
    fmt: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text(jsonl(items))
    code = main(["check", str(f), "--format", fmt])
    streamed = capsys.readouterr().out
    monkeypatch.setattr(files, "is_item_stream", lambda first: False)  # force the whole-file path
    assert main(["check", str(f), "--format", fmt]) == code
    assert capsys.readouterr().out == streamed


def test_streamed_jsonl_never_reads_the_whole_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text(jsonl(UNSAFE))
    monkeypatch.setattr(files.Input, "value", lambda self: pytest.fail("the whole file was read"))
    assert main(["check", str(f)]) == 1


def test_jsonl_of_responses_or_events_still_goes_the_whole_file_way(tmp_path: Path) -> None:
    assert files.is_item_stream({"object": "response", "output": SAFE[:1]}) is False
    assert files.is_item_stream({"type": "response.created", "sequence_number": 0}) is False
    assert files.is_item_stream({"model": "m", "input": []}) is False
    assert files.is_item_stream(SAFE[0]) is True


def test_a_bad_line_in_a_streamed_jsonl_is_exit_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text(jsonl(SAFE) + "{oops\n")
    assert main(["check", str(f)]) == 2
    assert "line 16" in capsys.readouterr().err
