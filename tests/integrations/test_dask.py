"""The Dask example of docs/large-stores.md, run as it is on a local cluster of two worker processes ("past
one machine"): over a few hundred generated JSONL files (replay-safe ones, ones with violations, and
hostile ones the command line refuses as unreadable), each file's record equals what
`replayable check --format json` says of it: the same verdict, the same violations, the same error.

The block is read from docs/large-stores.md (after its `dask-example` marker) and executed unchanged, so
the page cannot drift from what is tested."""

from __future__ import annotations

import json
import logging
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import dask.bag as db
import pytest
from conftest import ROOT
from distributed import Client, LocalCluster, get_task_stream

from replayable._messages import Door, spelled

PAGE = ROOT / "docs" / "large-stores.md"
MARKER = "<!-- dask-example:"


def page_block() -> str:
    """The Python block right after the page's dask-example marker."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(MARKER)
    match = re.compile(r"```python\n(.*?)```\n", re.S).search(text, start)
    assert match is not None, "docs/large-stores.md: no python block after the dask-example marker"
    return match.group(1)


# --- the generated store -----------------------------------------------------------------------------


def _msg(text: str, role: str = "user") -> dict[str, Any]:
    return {"type": "message", "role": role, "content": text}


def _turn(n: int, status: str = "completed") -> list[dict[str, Any]]:
    call = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": "lookup", "arguments": "{}"}
    call["status"] = status
    return [_msg(f"question {n}"), call, {"type": "function_call_output", "call_id": f"call_{n}", "output": "42"}]


def _lines(items: list[Any]) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in items)


def _safe(rng: random.Random) -> list[dict[str, Any]]:
    return [x for n in range(rng.randint(1, 6)) for x in _turn(n)] + [_msg("thanks", "assistant")]


def _case(kind: str, rng: random.Random) -> bytes:
    """One file's bytes; `kind` says what it holds."""
    items = _safe(rng)
    at = rng.randint(1, len(items) - 1)
    if kind == "safe":
        return _lines(items)
    if kind == "safe_one_line":
        return _lines([_msg("only one")])
    if kind == "safe_blank_lines_crlf_bom":
        return b"\xef\xbb\xbf" + _lines(items).replace(b"\n", b"\r\n\n")
    if kind == "safe_extension_item":
        return _lines([*items[:at], {"type": "acme:note", "text": "kept"}, *items[at:]])
    if kind == "output_without_call":
        return _lines([*items[:at], {"type": "function_call_output", "call_id": "nobody", "output": "x"}])
    if kind == "incomplete_call_answered":
        return _lines([*items, *_turn(99, status="incomplete")])
    if kind == "call_without_output":
        return _lines([*items, _turn(98)[1]])
    if kind == "unknown_type":
        return _lines([*items[:at], {"type": "note", "text": "no slug"}, *items[at:]])
    if kind == "duplicate_item_id":
        return _lines([*items, *_turn(0)])
    if kind == "arguments_not_string":
        return _lines([*items[:at], {"type": "function_call", "call_id": "c", "name": "t", "arguments": {}}])
    if kind == "invalid_item":
        return _lines([*items[:at], {"type": "message", "content": "no role"}, *items[at:]])
    # hostile lines: the command line refuses the whole file (exit status 2)
    body = _lines(items)
    cut = body.index(b"\n", len(body) // 2) + 1  # a line boundary past the first line
    if kind == "bad_json_line":
        return body[:cut] + b'{"type": "message", "role": \n' + body[cut:]
    if kind == "bad_json_first_line":
        return b"{not json\n" + body
    if kind == "duplicate_key":
        return body[:cut] + b'{"type": "message", "role": "user", "content": "a", "content": "b"}\n' + body[cut:]
    if kind == "nan":
        return body[:cut] + b'{"type": "function_call_output", "call_id": "call_0", "output": NaN}\n' + body[cut:]
    if kind == "bad_utf8":
        return body[:cut] + b'{"type": "message", "role": "user", "content": "\xff\xfe"}\n' + body[cut:]
    if kind == "bom_mid_file":
        return body[:cut] + b"\xef\xbb\xbf" + body[cut:]
    if kind == "empty":
        return b"\n\n"
    raise AssertionError(kind)


KINDS = [
    "safe",
    "safe_one_line",
    "safe_blank_lines_crlf_bom",
    "safe_extension_item",
    "output_without_call",
    "incomplete_call_answered",
    "call_without_output",
    "unknown_type",
    "duplicate_item_id",
    "arguments_not_string",
    "invalid_item",
    "bad_json_line",
    "bad_json_first_line",
    "duplicate_key",
    "nan",
    "bad_utf8",
    "bom_mid_file",
    "empty",
]
FILES = 300


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`logs/` with FILES JSONL files in a few folders, every kind at least a dozen times."""
    root = tmp_path_factory.mktemp("dask")
    rng = random.Random(16)
    for n in range(FILES):
        kind = KINDS[n % len(KINDS)]
        folder = root / "logs" / f"day{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{n:03d}_{kind}.jsonl").write_bytes(_case(kind, rng))
    return root


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """A local cluster of two worker processes, one thread each, on localhost only, no dashboards;
    generous timeouts (a fresh 2-core machine starts workers slowly); always closed."""
    with dask.config.set({"distributed.comm.timeouts.connect": "120s", "distributed.comm.timeouts.tcp": "120s"}):
        cluster = LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
            worker_dashboard_address=None,
            memory_limit=0,  # never paused or restarted for memory on a busy machine
            silence_logs=logging.ERROR,
        )
        try:
            with Client(cluster, timeout="120s", set_as_default=True) as c:
                c.wait_for_workers(2, timeout=180)
                yield c
        finally:
            cluster.close(timeout=120)


def cli_records(logs: Path) -> dict[str, dict[str, Any]]:
    """`replayable check LOGS --format json` in a fresh process: each file's record by its path."""
    proc = subprocess.run(
        [sys.executable, "-m", "replayable", "check", str(logs), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 2, proc.stderr  # the worst file is unreadable
    out = json.loads(proc.stdout)
    assert out["summary"]["files"] == FILES
    return {r["file"]: r for r in out["files"]}


def verdict(record: dict[str, Any]) -> tuple[int, list[dict[str, Any]], str | None]:
    """(exit status, violations, error) of one record of the page's `check`, its messages worded as
    the command line words them (`--pending-ok`, not `pending_ok=True`)."""
    violations = [{**v, "message": spelled(v["message"], Door.CLI)} for v in record["violations"]]
    if record["error"] is not None:
        return 2, violations, record["error"]
    return (0 if record["ok"] else 1), violations, None


def cli_verdict(record: dict[str, Any]) -> tuple[int, list[dict[str, Any]], str | None]:
    report = record["report"] or {}
    if record["exit"] != 2:
        assert report["ok"] is (record["exit"] == 0)
    return record["exit"], report.get("violations", []), record["error"]


def test_docs_dask_example_equals_the_command_line_file_by_file(
    store: Path, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(store)
    cli = cli_records(Path("logs").absolute())  # the paths the page's block maps over

    namespace: dict[str, Any] = {"__name__": "docs_dask_example"}
    with get_task_stream(client) as tasks:
        exec(compile(page_block(), str(PAGE), "exec"), namespace)  # the page's block, unchanged
    # it ran on the cluster, on both worker processes, none of them this one
    workers = {t["worker"] for t in tasks.data}
    assert workers == set(client.scheduler_info()["workers"]) and len(workers) == 2
    assert os.getpid() not in set(client.run(os.getpid).values())

    paths = namespace["paths"]
    assert len(paths) == FILES and sorted(paths) == sorted(cli)

    # every file's full record, computed on the cluster with the page's `check`
    records = db.from_sequence(paths, npartitions=32).map(namespace["check"]).compute()
    assert [r["file"] for r in records] == paths
    for record in records:
        assert verdict(record) == cli_verdict(cli[record["file"]]), record["file"]

    # the page's own result: exactly the files the command line does not call replay-safe
    failed = {r["file"]: r for r in namespace["failed"]}
    assert set(failed) == {path for path, r in cli.items() if r["exit"] != 0}
    for path, record in failed.items():
        assert verdict(record) == cli_verdict(cli[path])

    # the store is not trivial: every verdict and every rule the generator aims at is there
    by_kind: dict[str, set[int]] = {}
    codes = set()
    for record in records:
        kind = Path(record["file"]).stem.split("_", 1)[1]
        by_kind.setdefault(kind, set()).add(verdict(record)[0])
        codes |= {v["code"] for v in record["violations"]}
    assert by_kind == {k: ({0} if k.startswith("safe") else {2} if k in HOSTILE else {1}) for k in KINDS}
    assert codes >= {
        "output_without_function_call",
        "function_call_without_output",
        "unknown_item_type",
        "duplicate_item_id",
        "item_invalid",
        "function_arguments_not_string",
        "incomplete_call_replayed",
        "output_for_unfinished_call",
    }


HOSTILE = {"bad_json_line", "bad_json_first_line", "duplicate_key", "nan", "bad_utf8", "bom_mid_file", "empty"}


def test_docs_check_refuses_what_json_loads_would_let_through(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flaw the old example had: `json.loads` keeps the last of two duplicate keys and reads NaN,
    so those files came out as different items; the page's `check` calls them unreadable."""
    monkeypatch.chdir(store)
    namespace: dict[str, Any] = {"__name__": "docs_dask_example"}
    block = page_block()
    exec(compile(block[: block.index("\npaths = ")], str(PAGE), "exec"), namespace)  # `check` only
    for kind in ("duplicate_key", "nan"):
        path = next(p for p in sorted(Path("logs").rglob(f"*_{kind}.jsonl")))
        for line in path.read_bytes().splitlines():
            json.loads(line)  # what the old example did: no error
        record = namespace["check"](str(path))
        assert record["ok"] is False and record["violations"] == []
        assert ("duplicate key" if kind == "duplicate_key" else "NaN") in record["error"]
