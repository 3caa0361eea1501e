"""Reading inputs (`replayable._cli.inputs`): one place decides SSE / JSON / JSONL for files and standard input,
standard input is streamed like a file, and every limit ends with exit status 2 and one line."""

from __future__ import annotations

import concurrent.futures
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from replayable._cli import batch, inputs, main
from replayable._reading import files
from replayable._reading.files import InputError, read_input
from replayable._reading.files import InputKind as Kind

USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"q":"x"}'}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "x"}


def jsonl(values: list[Any]) -> bytes:
    return b"".join(json.dumps(v).encode() + b"\n" for v in values)


def write(tmp_path: Path, name: str, data: bytes) -> str:
    f = tmp_path / name
    f.write_bytes(data)
    return str(f)


class _Stdin:
    """A stand-in for sys.stdin with a binary buffer."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]

    def close(self) -> None:  # what a worker process does to its standard input
        pass


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Any:
    def feed(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", _Stdin(data))

    return feed


# --- what an input holds -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (json.dumps([USER, CALL, OUT]).encode(), Kind.JSON),
        (json.dumps([USER, CALL, OUT], indent=2).encode(), Kind.JSON),
        (json.dumps(USER).encode() + b"\n\n  \n", Kind.JSON),
        (jsonl([USER, CALL, OUT]), Kind.JSONL),
        (b"\n\n" + jsonl([USER, OUT]), Kind.JSONL),
        (b'event: response.created\ndata: {"type": "response.created"}\n\n', Kind.SSE),
        (b"\r\n: a comment first\ndata: {}\n\n", Kind.SSE),
    ],
)
def test_one_place_decides_the_kind(tmp_path: Path, data: bytes, kind: Kind) -> None:
    assert read_input(write(tmp_path, "in.txt", data)).kind is kind


def test_a_sse_name_is_a_capture_whatever_it_holds(tmp_path: Path) -> None:
    assert read_input(write(tmp_path, "x.sse", b"[]")).kind is Kind.SSE


def test_jsonl_lines_split_only_at_newlines_never_at_u2028(tmp_path: Path) -> None:
    msg = {"type": "message", "role": "user", "content": "a\u2028b\u0085c"}
    f = write(tmp_path, "t.jsonl", json.dumps(msg, ensure_ascii=False).encode() + b"\n" + json.dumps(USER).encode())
    inp = read_input(f)
    assert inp.kind is Kind.JSONL and list(inp.values()) == [msg, USER]


def test_values_of_a_one_line_file_is_its_document_never_nothing(tmp_path: Path) -> None:
    inp = read_input(write(tmp_path, "one.jsonl", json.dumps(USER).encode() + b"\n"))
    assert inp.kind is Kind.JSON and list(inp.values()) == [USER]
    with pytest.raises(InputError):
        list(inp.batches())
    with pytest.raises(InputError):
        list(read_input(write(tmp_path, "x.sse", b"data: {}\n\n")).values())


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b'{"type": "message", "type": "message"}\n' + jsonl([USER]), "duplicate key"),
        (jsonl([USER]) + b'{"role": "user", "content": NaN}\n', "line 2"),
        (jsonl([USER]) + b'{"role": "user", "content": 1e400}\n', "line 2"),
        (jsonl([USER]) + b'{"role": "user", "content": "\xff"}\n', "not UTF-8"),
        (jsonl([USER]) + b"\xef\xbb\xbf" + jsonl([USER]), "byte order mark"),
    ],
)
def test_strict_json_on_every_line_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, needle: str
) -> None:
    f = write(tmp_path, "in.jsonl", data)
    assert main(["check", f]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


# --- standard input is streamed like a file ----------------------------------------------------------


def test_stdin_jsonl_is_checked_line_by_line(
    stdin: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files.Input, "value", lambda self: pytest.fail("standard input was read whole"))
    stdin(jsonl([USER, CALL, OUT] * 1000 + [ORPHAN]))
    assert main(["check", "-"]) == 1
    out = capsys.readouterr().out
    assert "<stdin>:3001:1: item 3000: output_without_function_call" in out and "3001 items" in out


def test_stdin_gives_the_same_report_as_the_file(
    tmp_path: Path, stdin: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    data = jsonl([USER, CALL, ORPHAN])
    f = write(tmp_path, "t.jsonl", data)
    code = main(["check", f, "--format", "json"])
    from_file = json.loads(capsys.readouterr().out)
    stdin(data)
    assert main(["check", "-", "--format", "json"]) == code == 1
    from_stdin = json.loads(capsys.readouterr().out)
    assert from_stdin == {**from_file, "file": "<stdin>"}


def test_stdin_works_with_jobs_and_beside_files(tmp_path: Path, stdin: Any, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.json", json.dumps([USER, CALL, OUT]).encode())
    stdin(jsonl([USER, ORPHAN]))
    assert main(["check", "-", good, good, "--jobs", "2"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("<stdin>:2:1: item 1: output_without_function_call")
    assert out[-1] == "checked 3 files: 2 replay-safe, 1 with violations, 0 unreadable"
    stdin(jsonl([USER, CALL, OUT]))
    assert main(["check", "-", "--jobs", "4"]) == 0


def test_the_streamed_and_whole_paths_agree_on_duplicate_keys(tmp_path: Path) -> None:
    line = b'{"type": "message", "role": "user", "role": "assistant", "content": "x"}'
    streamed = write(tmp_path, "a.jsonl", line + b"\n" + jsonl([USER]))
    whole = write(tmp_path, "a.json", b"[" + line + b"]")
    assert main(["check", streamed]) == main(["check", whole]) == 2


# --- limits ------------------------------------------------------------------------------------------


def test_dev_zero_is_refused_with_one_line_naming_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    assert main(["check", "/dev/zero", "--max-bytes", "64K"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "65536-byte limit" in err and "--max-bytes" in err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_oversized_document_is_exit_2_not_a_memory_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    f = write(tmp_path, "big.json", json.dumps([USER] * 200).encode())
    assert main(["check", f, "--max-bytes", "1K", "--format", fmt]) == 2
    out, err = capsys.readouterr()
    assert "1024-byte limit" in err and err.count("\n") == 1
    if fmt == "json":
        assert "1024-byte limit" in json.loads(out)["error"]


def test_a_jsonl_file_is_limited_per_line_not_in_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    turns = [x for i in range(100) for x in ({**CALL, "call_id": f"c{i}"}, {**OUT, "call_id": f"c{i}"})]
    f = write(tmp_path, "t.jsonl", jsonl([USER, *turns]))
    assert main(["check", f, "--max-bytes", "1K"]) == 0
    long_line = {**USER, "content": "x" * 2000}
    g = write(tmp_path, "u.jsonl", jsonl([USER, USER, long_line]))
    assert main(["check", g, "--max-bytes", "1K"]) == 2
    assert "line 3 is larger than the 1024-byte limit" in capsys.readouterr().err


def test_stdin_is_limited_too(stdin: Any, capsys: pytest.CaptureFixture[str]) -> None:
    stdin(b"[" + b" " * 5000 + b"]")
    assert main(["check", "-", "--max-bytes", "4K"]) == 2
    assert "<stdin>: the input is larger than the 4096-byte limit" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "value"), [("1", 1), ("512K", 512 << 10), ("64m", 64 << 20), ("2GiB", 2 << 30)])
def test_size_flag_values(text: str, value: int) -> None:
    assert inputs.parse_size(text) == value


@pytest.mark.parametrize("text", ["0", "-1", "", "12X", "1.5M", "9" * 40])
def test_bad_size_flag_is_a_usage_error(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError):
        inputs.parse_size(text)
    assert main(["check", "x.json", "--max-bytes", text]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_limit_applies_to_diff_convert_prepare_and_tools(tmp_path: Path) -> None:
    big = write(tmp_path, "big.json", json.dumps([USER] * 200).encode())
    small = write(tmp_path, "small.json", json.dumps([USER]).encode())
    assert main(["diff", big, small, "--max-bytes", "1K"]) == 2
    assert main(["convert", "--to", "chat-completions", big, "--max-bytes", "1K"]) == 2
    assert main(["prepare", "--target", "acme", big, "--max-bytes", "1K"]) == 2
    assert main(["check", small, "--tools", big, "--max-bytes", "1K"]) == 2
    assert main(["diff", big, big]) == 0


# --- directories ---------------------------------------------------------------------------------------


def _lock(monkeypatch: pytest.MonkeyPatch, directory: Path) -> None:
    """Make `directory` impossible to list: chmod 000, or (as root, which chmod does not stop) an
    os.scandir that fails with EACCES there, as it would for anyone else."""
    directory.chmod(0)
    try:
        with_access = list(Path(directory).iterdir()) is not None
    except PermissionError:
        with_access = False
    if with_access:  # running as root
        real = inputs.os.scandir

        def scandir(path: Any) -> Any:
            if Path(path) == directory:
                raise PermissionError(13, "Permission denied", str(path))
            return real(path)

        monkeypatch.setattr(inputs.os, "scandir", scandir)


def test_a_subdirectory_that_cannot_be_listed_is_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.json").write_text(json.dumps([USER]))
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.json").write_text(json.dumps([ORPHAN]))
    _lock(monkeypatch, locked)
    try:
        found = inputs.find_files([str(tmp_path)])
        assert [(Path(f.path).name, bool(f.error)) for f in found] == [("locked", True), ("a.json", False)]
        assert "Permission denied" in found[0].error
        assert main(["check", str(tmp_path)]) == 2
        out = capsys.readouterr().out
        assert f"{locked}: unreadable: cannot list {locked}" in out
        assert out.splitlines()[-1] == "checked 2 files: 1 replay-safe, 0 with violations, 1 unreadable"
        assert main(["check", str(tmp_path), "--format", "json", "--jobs", "2"]) == 2
        doc = json.loads(capsys.readouterr().out)
        assert doc["summary"]["unreadable"] == 1 and doc["files"][0]["exit"] == 2
    finally:
        locked.chmod(0o755)


def test_a_top_directory_that_cannot_be_listed_is_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "store"
    locked.mkdir()
    _lock(monkeypatch, locked)
    try:
        assert main(["check", str(locked)]) == 2
        assert "unreadable: cannot list" in capsys.readouterr().out
    finally:
        locked.chmod(0o755)


def test_a_symlink_loop_is_walked_once(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("[]")
    (tmp_path / "loop").symlink_to(tmp_path)
    assert [Path(f.path).name for f in inputs.find_files([str(tmp_path)])] == ["a.json"]


def test_a_directory_given_as_a_file_is_unreadable_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(files.InputError, match="Is a directory"):
        read_input(str(tmp_path))
    assert main(["diff", str(tmp_path), str(tmp_path)]) == 2
    assert "Traceback" not in capsys.readouterr().err


# --- --jobs ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "files", "want"), [(None, 5, 1), (1, 5, 1), (300, 2, 2), (10**30, 500, batch.MAX_JOBS), (4, 0, 1)]
)
def test_jobs_are_clamped(requested: int | None, files: int, want: int) -> None:
    assert batch.clamp_jobs(requested, files) == want


def test_jobs_zero_is_one_per_cpu_within_the_clamp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.os, "cpu_count", lambda: 6)
    assert batch.clamp_jobs(0, 100) == 6 and batch.clamp_jobs(0, 3) == 3


def test_huge_or_negative_jobs_never_trace_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.json", json.dumps([USER]).encode())
    assert main(["check", good, good, "--jobs", str(10**40)]) == 0
    assert main(["check", good, "--jobs", "-3"]) == 2
    assert "--jobs takes 0" in capsys.readouterr().err


def test_no_more_workers_than_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor  # batch imports it when it starts workers

    def pool(max_workers: int) -> Any:
        started.append(max_workers)
        return real(max_workers=max_workers)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    good = write(tmp_path, "good.json", json.dumps([USER]).encode())
    assert main(["check", good, good, "--jobs", "300"]) == 0
    assert started == [2]


def test_no_standard_input_at_all_is_unreadable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["check", "-", "--format", "json"]) == 2
    assert "no standard input" in json.loads(capsys.readouterr().out)["error"]


def test_endless_blank_lines_after_a_document_end_at_the_limit(stdin: Any, capsys: pytest.CaptureFixture[str]) -> None:
    stdin(json.dumps([USER]).encode() + b"\n" + b"\n" * 5000)
    assert main(["check", "-", "--max-bytes", "1K"]) == 2
    assert "1024-byte limit" in capsys.readouterr().err


def test_a_strict_rule_broken_inside_a_big_array_names_the_item(tmp_path: Path) -> None:
    """From a new user's report: a duplicate key in item 777 of a one-line array was reported as
    'neither JSON nor JSONL' with a column only. The item is named; a syntax error keeps its message."""
    items = [{"type": "message", "role": "user", "content": "x \u00e9"}] * 800
    text = json.dumps(items)
    at = text.index('"content"', len(json.dumps(items[:777])) - 5)
    path = tmp_path / "dup.json"
    path.write_text(text[:at] + '"content": "y", ' + text[at:], encoding="utf-8")
    with pytest.raises(InputError, match=r"dup\.json: item 777: duplicate key"):
        read_input(str(path))
    broken = tmp_path / "broken.json"
    broken.write_text(text[:-1] + ",", encoding="utf-8")
    with pytest.raises(InputError, match="neither JSON nor JSONL"):
        read_input(str(broken))
