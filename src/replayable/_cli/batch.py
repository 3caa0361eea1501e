"""Running `replayable check`: one input, or many files and directories in worker processes.

`check_one` checks one input (a file, or standard input for `-`) as one pipeline: the library's file
reader (`replayable._reading.read_file`) makes one `Document` of it, whose kind the reader decides from
what the data says; the checker of that kind (`replayable._checking.check_document`, one table from kind
to checker) makes one record; the renderer (`replayable._render`) writes it in the format asked for. An
Agents API event log is read as one only with `--agents` (without it, it is refused with one line saying
to pass it; with it, a Responses stream is refused). A JSONL of items stays open and is read, validated
and checked in batches (`replayable._checking.jsonl_items`), so memory holds one batch and the rule state
(ids, call ids, open calls, violations), never the whole input or its items; a JSON array of items is
read whole, then checked the same way, in batches. A large input shows progress on a terminal
(`replayable._cli.progress`, an observer the checker is handed).

`run` checks several inputs: `replayable check A.jsonl B.json DIR/ --jobs 4` checks every file (a
directory is searched recursively for `*.json`, `*.jsonl` and `*.sse`; one that cannot be listed is
unreadable) in up to `N` worker processes (never more than `MAX_JOBS` nor than there are files;
standard input is read by the main process), prints each file's report in the order the files were
given, then a summary (with `--format sarif` one SARIF log for all; `github`, the annotations and the
summary). A progress bar is drawn on standard error when it is a terminal and `rich` is installed (the
`progress` extra); reports always go to standard output. The exit status is the worst
of the files': 2 if any file is unreadable, else 1 if any has violations, else 0.

The path runs one way: `command` (arguments) -> `batch` -> `replayable._reading` (bytes -> document)
-> `replayable._checking` (document -> record: the rules of `replayable._replay`, `stream`, `agents`)
-> `replayable._render` (records, text, JSON) -> `output` (standard output, exit statuses).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from replayable import _render as reports
from replayable._checking import CheckOptions, agents_events, check_document
from replayable._messages import Door, spelled
from replayable._names import shown
from replayable._reading import InputError, display_name, function_tools, read_file
from replayable._reading.files import DEFAULT_MAX_BYTES, read_input
from replayable._tool_lint import lint_tools
from replayable.errors import ReplayableError
from replayable.items import ItemError

from . import output
from .inputs import find_files, load_tools
from .output import EXIT_OK, EXIT_UNREADABLE, EXIT_VIOLATIONS, Output
from .progress import files_bar, one_file

__all__ = ["MAX_JOBS", "FileResult", "chain_one", "check_file", "check_one", "clamp_jobs", "one_input", "run"]

#: Most worker processes `--jobs` starts, whatever is asked (also never more than there are files).
MAX_JOBS = 64


@dataclass(frozen=True, slots=True)
class FileResult:
    """One file's outcome: `exit` is its single-file exit status (0 safe, 1 violations, 2 unreadable),
    `output` the report `check` printed for it, `error` the one-line message of an unreadable file."""

    file: str
    exit: int
    output: str
    error: str = ""


def _max_bytes(args: argparse.Namespace) -> int:
    value = getattr(args, "max_bytes", None)
    return DEFAULT_MAX_BYTES if value is None else int(value)


def check_one(args: argparse.Namespace, path: str, out: Output, *, progress: bool = True) -> int:
    """The single-input `check` of `path` (`-`: standard input) with the options in `args`; writes the
    report to `out` in `args.format` and returns the exit status (0 or 1; 2 for an `--agents` log in
    which nothing is an Agents API event, reported in JSON). Raises `InputError` (or `ItemError`,
    `ValueError`) for unreadable input: the caller reports it with exit status 2. With `progress`, a
    large input shows its progress on a terminal's standard error (`replayable._cli.progress`).

    One pipeline: the file reader (`replayable._reading.read_file`: bytes -> one `Document`, a JSONL of
    items left open to be read in batches), the checker of the document's kind
    (`replayable._checking.check_document`) -> one record, the renderer (`_emit`)."""
    _agents_flags(args)
    options = _options(args)
    with one_file(path, enabled=progress) as bar:  # the progress names the input (`bar.name`)
        bar.reading()
        doc = read_file(
            path, provider=args.provider, max_bytes=_max_bytes(args), lazy=options.previous is None, agents=args.agents
        )
        try:
            record = check_document(doc, dataclasses.replace(options, file=bar.file, name=bar.name, progress=bar))
        finally:
            if doc.source is not None:
                doc.source.close()
    return _emit(record, args, out)


def _options(args: argparse.Namespace) -> CheckOptions:
    """What `args` ask of a check: the function tools of a `--tools` file and their lint findings
    (`check_tool`), the `--previous` document (the input's own names, `file` and `name`, come with its
    progress). Raises `InputError` for a `--tools` or `--previous` file that cannot be read."""
    tools = load_tools(args.tools, max_bytes=_max_bytes(args)) if args.tools else None
    return CheckOptions(
        tools=None if tools is None else function_tools(tools),
        tool_findings=() if tools is None else lint_tools(tools, args.provider),
        target=args.target,
        provider=args.provider,
        pending_ok=args.pending_ok,
        previous=_previous(args, _max_bytes(args)),
    )


def _previous(args: argparse.Namespace, max_bytes: int) -> Any:
    """The `--previous` document (the response a request continues, or its output), or None."""
    path = getattr(args, "previous", None)
    if path is None:
        return None
    prev = read_input(path, max_bytes=max_bytes)
    try:
        return prev.value()
    finally:
        prev.close()


def _emit(record: dict[str, Any], args: argparse.Namespace, out: Output) -> int:
    """Write one input's record in `args.format`; its exit status (2 for a record with an `error`). In
    text, a record with an `error` (an `--agents` log in which nothing is an Agents API event) is an
    `InputError`, one line on stderr; in JSON the record stays on stdout."""
    if record.get("error") and args.format == "text":
        raise InputError(f"{shown(str(record['file']))}: {spelled(record['error'], Door.CLI)}")
    text = reports.render(record, args.format, Door.CLI)
    if text:
        out.write(text)
    if record.get("error"):
        return EXIT_UNREADABLE
    return EXIT_OK if record["ok"] else EXIT_VIOLATIONS


#: `check` options that mean nothing for an Agents API event log (`--agents`): refused, never ignored.
_NOT_FOR_AGENTS = (("target", "--target"), ("provider", "--provider"), ("pending_ok", "--pending-ok"))


def _agents_flags(args: argparse.Namespace) -> None:
    """Refuse (`InputError`, exit 2) the options `--agents` cannot honour: `--target`, `--provider`,
    `--pending-ok` (they concern Responses items), and `--tools` with `--chain` (the chain judges no
    arguments). `--tools` with `--agents` judges the log's calls against those tools."""
    if not getattr(args, "agents", False):
        return
    given = [flag for key, flag in _NOT_FOR_AGENTS if getattr(args, key, None)]
    if given:
        one = len(given) == 1
        raise InputError(
            f"{', '.join(given)} {'means' if one else 'mean'} nothing for an Agents API event log (--agents): "
            f"drop {'it' if one else 'them'} (--tools gives the function tools the log's calls are checked against)"
        )
    if getattr(args, "chain", False) and getattr(args, "tools", None):
        raise InputError("--tools means nothing with --chain (the link chain judges no arguments): drop it")


def chain_one(args: argparse.Namespace, path: str, out: Output, *, progress: bool = True) -> int:
    """`check --agents --chain` of `path`: the session link chain of the Agents API event log as JSON on
    standard output, nothing else (exit status 0 when the chain holds, else 1). Raises `InputError` as
    `check_one` does."""
    from replayable.agents._chain import link_chain  # noqa: PLC0415

    if not getattr(args, "agents", False):
        raise InputError("--chain needs --agents (it links an Agents API event log)")
    _agents_flags(args)
    doc = read_file(path, provider=args.provider, max_bytes=_max_bytes(args), agents=True)
    chain = link_chain(agents_events(doc, display_name(path)))
    out.write(output.as_json(chain.as_dict()))
    return EXIT_OK if chain.ok else EXIT_VIOLATIONS


def one_input(args: argparse.Namespace) -> Callable[..., int]:
    """What `check` runs on each input: `chain_one` with `--chain`, else `check_one`."""
    return chain_one if getattr(args, "chain", False) else check_one


def first_line(exc: BaseException) -> str:
    """The one-line message of an error (its first line, or its type's name), with anything quoted from
    the input that could break the line escaped (`replayable._names.shown`). A title that ends in `:`
    (`invalid previous response (1 problem):`, an `ItemError`) is joined with its first problem, so
    the line says what is wrong."""
    message = exc.worded(Door.CLI) if isinstance(exc, ReplayableError) else str(exc)  # options as flags
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    text = lines[0]
    if text.endswith(":") and len(lines) > 1:
        text = f"{text} {lines[1]}" + (f" (and {len(lines) - 2} more)" if len(lines) > 2 else "")
    return shown(text)


def check_file(args: argparse.Namespace, path: str) -> FileResult:
    """Run `check_one` on `path`, capturing its report. Never raises for a bad file: unreadable input
    (and any unexpected error, which is a bug of ours and says so) is exit status 2."""
    buf = io.StringIO()
    try:
        code = one_input(args)(args, path, Output(buf), progress=False)
    except (InputError, ItemError, ValueError) as exc:
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), first_line(exc))
    except MemoryError:
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), "out of memory (lower --max-bytes)")
    except Exception as exc:  # a worker must report, never die
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), f"internal error {type(exc).__name__}: {exc}")
    return FileResult(path, code, buf.getvalue())


def _check_in_worker(job: tuple[dict[str, Any], str]) -> FileResult:
    opts, path = job
    return check_file(argparse.Namespace(**opts), path)


def clamp_jobs(requested: int | None, files: int) -> int:
    """Worker processes for `--jobs N`: None is 1, 0 is one per CPU; never more than `MAX_JOBS` nor
    than `files` (at least 1). Raises `InputError` for a negative number."""
    if requested is None:
        return 1
    if requested < 0:
        raise InputError("--jobs takes 0 (one per CPU) or a positive number")
    jobs = requested or (os.cpu_count() or 1)
    return max(1, min(jobs, MAX_JOBS, files))


def _results(args: argparse.Namespace, found: list[Any], jobs: int) -> Iterator[FileResult]:
    """Each input's result in the order given; files in `jobs` workers, standard input in this process."""
    from concurrent.futures import BrokenExecutor, ProcessPoolExecutor  # noqa: PLC0415  only many files need it

    work = [f.path for f in found if not f.error and f.path != "-"]
    with contextlib.ExitStack() as stack:
        if jobs > 1 and len(work) > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            opts = {k: v for k, v in vars(args).items() if k != "func"}
            chunk = max(1, min(64, len(work) // (jobs * 8)))
            mapped: Iterator[FileResult] = pool.map(_check_in_worker, [(opts, p) for p in work], chunksize=chunk)
        else:
            mapped = (check_file(args, p) for p in work)
        for f in found:
            if f.error:
                yield FileResult(f.path, EXIT_UNREADABLE, "", f.error)
            elif f.path == "-":
                yield check_file(args, "-")
            else:
                try:
                    yield next(mapped)
                except BrokenExecutor:  # a worker was killed (out of memory, a signal): no traceback
                    raise InputError(
                        f"a worker process died while checking {display_name(f.path)} (try fewer --jobs)"
                    ) from None


def run(args: argparse.Namespace, out: Output) -> int:
    """`check` over several files or directories (see the module docstring); returns the exit status."""
    found = find_files([args.file, *(getattr(args, "more", None) or [])])
    if not found:
        raise InputError("no *.json, *.jsonl or *.sse files to check")
    jobs = clamp_jobs(args.jobs, sum(1 for f in found if not f.error and f.path != "-"))
    fmt = args.format
    if fmt in ("sarif", "github"):  # each file's record as JSON, rendered together at the end
        args = argparse.Namespace(**{**vars(args), "format": "json"})
    counts = {EXIT_OK: 0, EXIT_VIOLATIONS: 0, EXIT_UNREADABLE: 0}
    records: list[dict[str, Any]] = []
    bar = files_bar(len(found))
    with bar if bar is not None else contextlib.nullcontext():
        task = bar.add_task("check", total=len(found)) if bar is not None else None
        for res in _results(args, found, jobs):
            counts[res.exit if res.exit in counts else EXIT_UNREADABLE] += 1
            if fmt != "text":
                try:
                    report = json.loads(res.output) if res.output.strip() else None
                except ValueError:
                    report = res.output
                records.append({"file": res.file, "exit": res.exit, "report": report, "error": res.error or None})
            else:
                if res.output:
                    out.write(res.output.rstrip("\n"))
                if res.error:
                    out.write(f"{shown(res.file)}: unreadable: {res.error}")
            if bar is not None:
                bar.advance(task)
    summary = {
        "files": len(found),
        "replay_safe": counts[EXIT_OK],
        "with_violations": counts[EXIT_VIOLATIONS],
        "unreadable": counts[EXIT_UNREADABLE],
    }
    if fmt == "json":
        out.write(json.dumps({"files": records, "summary": summary}, indent=2, ensure_ascii=False))
    elif fmt in ("sarif", "github"):
        from replayable import _ci_formats as ci_formats  # noqa: PLC0415

        each = [
            r["report"] if isinstance(r["report"], dict) else {"file": r["file"], "error": r["error"]} for r in records
        ]
        text = ci_formats.ci_report(each, fmt)
        if text:
            out.write(text)
        if fmt == "github":
            out.write(output.summary_line(counts, len(found)))
    else:
        out.write(output.summary_line(counts, len(found)))
    return output.worst(counts)
