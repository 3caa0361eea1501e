"""Checking large stores: many files in worker processes, and JSONL files in bounded memory.

`replayable check A.jsonl B.json DIR/ --jobs 4` checks every file (a directory is searched
recursively for `*.json`, `*.jsonl` and `*.sse`) with exactly the rules of a single-file `check`, in
`N` worker processes, prints each file's report in the order the files were given, then a summary;
a progress bar is drawn on standard error when it is a terminal and `rich` is installed (the
`progress` extra), never on a pipe. The exit status is the worst of the files': 2 if any file is
unreadable, else 1 if any has violations, else 0.

A `.jsonl` file of items is checked as a stream (`check_jsonl`): lines are read and checked one at a
time with `replayable.replay.check_stream`, so memory holds the rule state (ids, call ids, open
calls, violations) and never the file or its items.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import _json

__all__ = ["FileResult", "check_file", "check_jsonl", "collect_files", "iter_jsonl", "run"]

#: File name endings a directory is searched for.
SUFFIXES = (".json", ".jsonl", ".sse")


@dataclass(frozen=True, slots=True)
class FileResult:
    """One file's outcome: `exit` is its single-file exit status (0 safe, 1 violations, 2 unreadable),
    `output` the report `check` printed for it, `error` the one-line message of an unreadable file."""

    file: str
    exit: int
    output: str
    error: str = ""


def collect_files(paths: Iterable[str]) -> list[str]:
    """The files to check: each path as given, and for a directory every `*.json`, `*.jsonl` and `*.sse`
    under it, sorted. A path that does not exist is kept (it is reported as unreadable)."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*")) if f.is_file() and f.name.endswith(SUFFIXES))
        else:
            out.append(p)
    return out


def iter_jsonl(path: str) -> Iterator[Any]:
    """Yield the JSON value of each non-blank line of `path`, reading one line at a time with the
    library's strict reader (`replayable._json.iter_jsonl`). Raises `replayable.cli.InputError` naming
    the line when a line is not strict JSON or not UTF-8."""
    from .cli import InputError  # noqa: PLC0415

    try:
        with open(path, "rb") as f:
            for _, value in _json.iter_jsonl(f, what=f"{path}: line", max_depth=_json.READER_DEPTH):
                yield value
    except _json.JSONError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def _first_value(path: str) -> Any:
    """The JSON value of the first non-blank line, or None when it is not JSON (or unreadable)."""
    try:
        with open(path, "rb") as f:
            for _, value in _json.iter_jsonl(f, max_depth=_json.READER_DEPTH):
                return value
    except (OSError, _json.JSONError):
        return None
    return None


def _streamable(first: Any) -> bool:
    """Is a file starting with `first` a JSONL of items (what the streaming path reads the same way as
    the whole-file path)? Responses, request bodies and stream events go the whole-file way."""
    if not isinstance(first, dict) or not ("type" in first or "role" in first):
        return False
    t = first.get("type")
    if isinstance(t, str) and (t.startswith("response.") or t == "error"):
        return False
    return not (isinstance(first.get("output"), list) or "input" in first)


def check_jsonl(args: argparse.Namespace) -> int | None:
    """`check FILE.jsonl` in bounded memory; returns the exit status, or None when the file is not a
    JSONL of items (the caller then reads it whole). Prints the same report as the whole-file path."""
    from .cli import EXIT_OK, EXIT_VIOLATIONS, format_report, load_tools  # noqa: PLC0415
    from .replay import check_stream  # noqa: PLC0415

    path: str = args.file
    if path == "-" or not path.endswith(".jsonl") or getattr(args, "agents", False):
        return None
    if not _streamable(_first_value(path)):
        return None
    tools = load_tools(args.tools) if args.tools else None
    count = 0

    def counted() -> Iterator[Any]:
        nonlocal count
        for value in iter_jsonl(path):
            count += 1
            yield value

    report = check_stream(
        counted(), tools=tools, target=args.target, provider=args.provider, pending_ok=args.pending_ok
    )
    print(format_report(report, [], count, args.format, path))
    return EXIT_OK if report.ok else EXIT_VIOLATIONS


def check_file(args: argparse.Namespace, path: str) -> FileResult:
    """Run the single-file `check` on `path` with the options in `args`, capturing its report. Never
    raises for a bad file: unreadable input (and any unexpected error) is exit status 2."""
    from .cli import EXIT_UNREADABLE, InputError, cmd_check  # noqa: PLC0415
    from .items import ItemError  # noqa: PLC0415

    one = argparse.Namespace(**{**vars(args), "file": path, "more": [], "jobs": None})
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            code = cmd_check(one)
    except (InputError, ItemError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), first)
    except Exception as exc:  # a worker must report, never die: this is a bug of ours, say so
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), f"internal error {type(exc).__name__}: {exc}")
    return FileResult(path, code, buf.getvalue())


def _check_in_worker(job: tuple[dict[str, Any], str]) -> FileResult:
    opts, path = job
    return check_file(argparse.Namespace(**opts), path)


def _progress(total: int) -> Any:
    """A rich progress bar on a terminal's standard error, or None (no terminal, or rich missing)."""
    if not sys.stderr.isatty():
        return None
    try:
        from rich.console import Console  # noqa: PLC0415
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn  # noqa: PLC0415
    except ImportError:
        return None
    return Progress(
        TextColumn("checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )


def _results(args: argparse.Namespace, files: Sequence[str], jobs: int) -> Iterator[FileResult]:
    if jobs <= 1 or len(files) <= 1:
        for path in files:
            yield check_file(args, path)
        return
    opts = {k: v for k, v in vars(args).items() if k != "func"}
    chunk = max(1, min(64, len(files) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_check_in_worker, [(opts, f) for f in files], chunksize=chunk)


def run(args: argparse.Namespace) -> int:
    """`check` over several files or directories (see the module docstring); returns the exit status."""
    files = collect_files([args.file, *(getattr(args, "more", None) or [])])
    if not files:
        print("replayable: error: no *.json, *.jsonl or *.sse files to check", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None else 1
    if jobs < 0:
        print("replayable: error: --jobs takes 0 (one per CPU) or a positive number", file=sys.stderr)
        return 2
    if jobs == 0:
        jobs = os.cpu_count() or 1
    as_json = args.format == "json"
    counts = {0: 0, 1: 0, 2: 0}
    records: list[dict[str, Any]] = []
    bar = _progress(len(files))
    ctx = bar if bar is not None else contextlib.nullcontext()
    with ctx:
        task = bar.add_task("check", total=len(files)) if bar is not None else None
        for res in _results(args, files, jobs):
            counts[res.exit if res.exit in counts else 2] += 1
            if as_json:
                try:
                    report = json.loads(res.output) if res.output.strip() else None
                except ValueError:
                    report = res.output
                records.append({"file": res.file, "exit": res.exit, "report": report, "error": res.error or None})
            else:
                if res.output:
                    sys.stdout.write(res.output)
                if res.error:
                    print(f"{res.file}: unreadable: {res.error}")
            if bar is not None:
                bar.advance(task)
    summary = {"files": len(files), "replay_safe": counts[0], "with_violations": counts[1], "unreadable": counts[2]}
    if as_json:
        print(json.dumps({"files": records, "summary": summary}, indent=2, ensure_ascii=False))
    else:
        print(
            f"checked {len(files)} file(s): {counts[0]} replay-safe, {counts[1]} with violations, "
            f"{counts[2]} unreadable"
        )
    return 2 if counts[2] else 1 if counts[1] else 0
