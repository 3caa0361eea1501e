"""Running `replayable check`: one input, or many files and directories in worker processes.

`check_one` checks one input (a file, or standard input for `-`) with every rule that applies to what
it holds (see `replayable._cli.inputs` for how that is decided): an SSE capture or a list of stream events
goes through `replayable.stream.check_stream`; an Agents API event log (`--agents`) through
`replayable.agents` (without `--agents`, a log is refused with one line saying to pass it); a file of
tool definitions is linted (`check_tool`); anything else is a transcript for `check_transcript`. A
JSONL of items is checked with `replayable.replay.check_stream`, from a file or from standard input,
its lines read and validated in batches (`jsonl_items`), so memory holds one batch and the rule state
(ids, call ids, open calls, violations), never the whole input or its items; a JSON array of items is
read whole, then checked the same way, in batches (`_list_items`). Each input's report is a record of
`replayable.render`, written in the format asked for; a large input shows progress on a terminal
(`replayable._cli.progress`).

`run` checks several inputs: `replayable check A.jsonl B.json DIR/ --jobs 4` checks every file (a
directory is searched recursively for `*.json`, `*.jsonl` and `*.sse`; one that cannot be listed is
unreadable) in up to `N` worker processes (never more than `MAX_JOBS` nor than there are files;
standard input is read by the main process), prints each file's report in the order the files were
given, then a summary (with `--format sarif` one SARIF log for all; `github`, the annotations and the
summary). A progress bar is drawn on standard error when it is a terminal and `rich` is installed (the
`progress` extra); reports always go to standard output. The exit status is the worst
of the files': 2 if any file is unreadable, else 1 if any has violations, else 0.

The path runs one way: `command` (arguments) -> `batch` (what to check) -> `inputs` (reading) -> the
one reader (`replayable.reading`) -> the rules (`replayable.rules`, `stream`, `agents`, `chain`) ->
`replayable.render` (records, text, JSON) -> `output` (standard output, exit statuses).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeGuard

from replayable import render as reports
from replayable._json import printable
from replayable.items import ITEM_ADAPTERS, ItemError, Provider, gc_paused
from replayable.names import shown
from replayable.reading import DocumentKind, chat_envelope
from replayable.replay import Violation, check_transcript
from replayable.replay import check_stream as check_item_stream

from . import output
from .inputs import (
    BATCH_LINES,
    DEFAULT_MAX_BYTES,
    Input,
    InputError,
    Kind,
    check_depth,
    display_name,
    find_files,
    is_item_stream,
    lint_tools,
    load_tools,
    read_document,
    read_input,
    tools_of,
    transcript_of,
)
from .output import EXIT_OK, EXIT_UNREADABLE, EXIT_VIOLATIONS, Output
from .progress import FileProgress, files_bar, one_file

__all__ = ["MAX_JOBS", "FileResult", "check_file", "check_one", "clamp_jobs", "jsonl_items", "run"]

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
    large input shows its progress on a terminal's standard error (`replayable._cli.progress`)."""
    max_bytes = _max_bytes(args)
    if getattr(args, "chain", False) and not getattr(args, "agents", False):
        raise InputError("--chain needs --agents (it links an Agents API event log)")
    _agents_flags(args)

    def tools() -> list[Any] | None:
        return load_tools(args.tools, max_bytes=max_bytes) if args.tools else None

    previous = _previous(args, max_bytes)
    with one_file(display_name(path), _size(path) if progress else None, enabled=progress) as bar:
        bar.reading()
        inp = read_input(path, max_bytes=max_bytes)  # bytes -> an input of a known container
        try:
            record = _check_input(args, inp, tools, out, previous, bar)  # -> the reader -> the rules
        finally:
            inp.close()
        return record if isinstance(record, int) else _emit(record, args, out)  # -> the renderer, once


def _size(path: str) -> int | None:
    """The size in bytes of a regular file (standard input too, when redirected from one), else None."""
    try:
        st = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


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
    """Write one input's record in `args.format`; its exit status (2 for a record with an `error`)."""
    text = reports.render(record, args.format, output.cli_message)
    if text:
        out.write(text)
    if record.get("error"):
        return EXIT_UNREADABLE
    return EXIT_OK if record["ok"] else EXIT_VIOLATIONS


def _check_input(
    args: argparse.Namespace,
    inp: Input,
    tools: Callable[[], list[Any] | None],
    out: Output,
    previous: Any = None,
    bar: FileProgress | None = None,
) -> dict[str, Any] | int:
    """Check one opened input: read it (`inputs`, then the one reader, `replayable.reading`) and run the
    rules that apply to its kind. Returns its record (for `_emit`), or the exit status when the output is
    already written (`--agents --chain`)."""
    name, file = inp.name, inp.file or inp.name
    bar = bar or FileProgress(name, None, None)
    if previous is not None and (inp.kind is Kind.SSE or args.agents):
        raise InputError(f"{name}: --previous applies to a request body or a list of items, not to a stream")
    if inp.kind is Kind.SSE and args.agents:  # an Agents API log captured as SSE: read as the log it is
        from replayable.stream import parse_sse  # noqa: PLC0415

        return _agents(list(parse_sse(inp.data, provider="openai")), args, name, file, out, tools)
    if inp.kind is Kind.SSE:
        report = _stream_check(inp.data, args, tools)
        agents_event = next((f for f in report.findings if _is_agents_type(f.event_type)), None)
        if agents_event is not None:  # an Agents API event in a Responses stream: the log door's refusal
            raise _agents_log(
                [{"type": agents_event.event_type}],
                name,
                first=agents_event.index or 0,
                unit="event",
                what="a Responses stream",
            )
        return reports.stream_record(report, file)
    if inp.kind is Kind.JSONL and not args.agents and previous is None and is_item_stream(inp.first):
        function_tools, findings = _tool_file(tools())
        count = [0]
        bar.checking(None)
        report = check_item_stream(
            jsonl_items(inp, args.provider, count, bar),
            tools=function_tools,
            target=args.target,
            provider=args.provider,
            pending_ok=args.pending_ok,
        )
        return reports.transcript_record(report, findings, count[0], file)
    value = inp.value()
    if args.agents:  # the flag says what the file is: a Responses stream in it is nothing recognised
        return _agents(value, args, name, file, out, tools)
    doc = read_document(value, name, args.provider, streams=True)  # the one reader decides what it is
    if doc.kind is DocumentKind.EVENTS:
        if previous is not None:
            raise InputError(f"{name}: --previous applies to a request body or a list of items, not to a stream")
        return reports.stream_record(_stream_check(value, args, tools), file)
    if doc.kind is DocumentKind.TOOLS and previous is None:
        return _tools(value, name, file)
    if doc.kind is DocumentKind.AGENTS_LOG:
        raise _agents_log(value if isinstance(value, list) else [value], name)
    if doc.kind is DocumentKind.TOOLS:  # with --previous: read as the transcript it is given as
        doc = read_document(value, name, args.provider)
    transcript = transcript_of(doc, name)
    function_tools, findings = transcript.tools, transcript.tool_findings
    if args.tools:  # a --tools file replaces the request body's tools
        function_tools, findings = _tool_file(tools())
    if doc.kind is DocumentKind.ITEMS and previous is None:
        # a JSON array of items is checked as a JSONL of items is, in batches (same violations)
        bar.checking(len(doc.items))
        context = {"provider": "openai"} if doc.provider == "openai" else None
        many = ITEM_ADAPTERS[("input", doc.provider == "openai")][1]
        report = check_item_stream(
            _list_items(many, doc.items, context, bar),
            tools=function_tools,
            target=args.target,
            provider=doc.provider,
            pending_ok=args.pending_ok,
        )
    else:
        report = check_transcript(
            doc,  # read once: check_transcript takes the reader's document as it is
            tools=function_tools,
            target=args.target,
            provider=args.provider,
            pending_ok=args.pending_ok,
            previous=previous,
        )
    return reports.transcript_record(report, findings, len(doc.items), file)


def _stream_check(source: Any, args: argparse.Namespace, tools: Callable[[], list[Any] | None]) -> Any:
    from replayable import stream  # noqa: PLC0415  the streaming models load only for a stream (import time)

    return stream.check_stream(source, provider=args.provider, tools=tools(), target=args.target)


def _list_items(many: Any, values: list[Any], context: Any, bar: FileProgress) -> Iterator[Any]:
    """The items of a JSON array for check_stream, validated in batches of `BATCH_LINES` (see
    `jsonl_items`)."""
    with gc_paused():
        for start in range(0, len(values), BATCH_LINES):
            batch = values[start : start + BATCH_LINES]
            yield from _batch_items(many, batch, context)
            bar.advance(len(batch))


def _is_agents_type(t: Any) -> TypeGuard[str]:
    return isinstance(t, str) and t.startswith("agent.")


def _agents_log(
    values: list[Any], name: str, *, first: int = 0, unit: str = "value", what: str = "a transcript"
) -> InputError:
    """The one-line error for an OpenAI Agents API event log given without `--agents`: its `agent.*`
    events are no Open Responses items (nor Responses stream events: `what`, `unit`, `first` the index
    of `values[0]`), and one error per event would hide what to do."""
    for n, v in enumerate(values):
        t = v.get("type") if isinstance(v, dict) else None
        if _is_agents_type(t):
            return InputError(
                f"{name} is an OpenAI Agents API event log ({unit} {first + n} is an {printable(t[:80])!r} event), "
                f"not {what}: check it with --agents"
            )
    return InputError(f"{name} is an OpenAI Agents API event log, not {what}: check it with --agents")


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


def jsonl_items(
    inp: Input, provider: Provider, count: list[int] | None = None, bar: FileProgress | None = None
) -> Iterator[Any]:
    """The items of a JSONL input for `replayable.replay.check_stream`, in order: parsed items, or the
    JSON value itself where check_stream must read it (and report its problems) one item at a time.

    Lines are read in batches (`Input.batches`) by the one strict reader, and a batch is validated by
    one call to the input items' list adapter, as `parse_items` does; a batch that does not validate is
    split in halves until the items that do not parse are found, which are then yielded as JSON values.
    So a JSONL of valid items costs about what parsing it in memory does, and check_stream sees the
    same items, reports the same violations (item index, field, rule) and raises the same `InputError`
    for a line that is not JSON as it would reading the values one by one. Values `check_stream` reads
    before parsing (not an object, a Chat Completions message, a call inside a message's content) are
    always yielded as they are; a line nested deeper than an item may is unreadable (`InputError`).
    `count[0]` counts the items; `bar` (`replayable._cli.progress`) is advanced after each batch.

    The garbage collector is paused while the items are read and checked (parsed items and the rule
    state hold no cycles; see `replayable.items.gc_paused`); between batches only its young generations
    are collected, so that whatever a batch left behind is freed and the rule state is not rescanned."""
    many = ITEM_ADAPTERS[("input", provider == "openai")][1]
    context = {"provider": "openai"} if provider == "openai" else None
    with gc_paused():  # parsed items and the rule state hold no cycles: the collector would only rescan them
        for values in inp.batches():
            if count is not None:
                count[0] += len(values)
            yield from _batch_items(many, values, context)
            if bar is not None:
                bar.advance(len(values), inp.tell())
            del values
            gc.collect(1)  # whatever a batch left behind, young objects only: the rule state is not rescanned


def _batch_items(many: Any, values: list[Any], context: Any) -> list[Any]:
    """One batch's items for check_stream: parsed items, or the values check_stream reads itself."""
    plain = [n for n, v in enumerate(values) if type(v) is dict and not chat_envelope(v)]
    if len(plain) == len(values):
        return _validated(many, values, context)
    parsed = iter(_validated(many, [values[n] for n in plain], context))
    keep = set(plain)
    return [next(parsed) if n in keep else value for n, value in enumerate(values)]


def _validated(many: Any, values: list[Any], context: Any) -> list[Any]:
    """The parsed items of `values`, each one that does not parse left as its JSON value."""
    if not values:
        return []
    try:
        return many.validate_python(values, context=context)  # type: ignore[no-any-return]
    except (ValueError, TypeError, RecursionError):  # ValidationError: find the items that do not parse
        if len(values) <= 8:
            return values
    half = len(values) // 2
    return _validated(many, values[:half], context) + _validated(many, values[half:], context)


def _tool_file(tools: list[Any] | None) -> tuple[list[Any] | None, list[Violation]]:
    """The function tools of a --tools file (None without one) and their `check_tool` findings."""
    if tools is None:
        return None, []
    return [t for t in tools if isinstance(t, dict) and t.get("type") in (None, "function")], lint_tools(tools)


def _tools(value: Any, name: str, file: str) -> dict[str, Any]:
    """A file of tool definitions given to `check` (or found in a directory): linted with `check_tool`
    (strict-mode rules, schemas that compile, unique names), as a `--tools` file is."""
    tools = tools_of(value, name)
    return reports.tools_record(lint_tools(tools), len(tools), file)


def _agents(
    value: Any,
    args: argparse.Namespace,
    name: str,
    file: str,
    out: Output,
    tools: Callable[[], list[Any] | None] = lambda: None,
) -> dict[str, Any] | int:
    if not isinstance(value, list | dict):
        raise InputError(f"{name}: expected Agents API events as JSONL or a JSON array")
    if isinstance(value, dict):
        check_depth(value, name)  # one event: as deep as it may be in an array or a JSONL line
    events = value if isinstance(value, list) else [value]
    if args.chain:  # the session link chain as JSON on stdout, nothing else
        from replayable.agents.chain import link_chain  # noqa: PLC0415

        chain = link_chain(events)
        out.write(output.as_json(chain.as_dict()))
        return EXIT_OK if chain.ok else EXIT_VIOLATIONS
    from replayable.agents import check_event_log  # noqa: PLC0415

    record = reports.agents_record(check_event_log(events, tools=_tool_file(tools())[0]), file)
    if record.get("error") and args.format == "text":
        # e.g. a Responses transcript: unreadable as an Agents log, so exit 2 with the reason on stderr
        raise InputError(f"{name}: {record['error']}")
    return record  # in JSON the record (recognised: 0, error) stays on stdout


def first_line(exc: BaseException) -> str:
    """The one-line message of an error (its first line, or its type's name), with anything quoted from
    the input that could break the line escaped (`replayable.names.shown`). A title that ends in `:`
    (`invalid previous response (1 problem):`, an `ItemError`) is joined with its first problem, so
    the line says what is wrong."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
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
        code = check_one(args, path, Output(buf), progress=False)
    except (InputError, ItemError, ValueError) as exc:
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), output.cli_message(first_line(exc)))
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
        from replayable import ci_formats  # noqa: PLC0415

        each = [
            r["report"] if isinstance(r["report"], dict) else {"file": r["file"], "error": r["error"]} for r in records
        ]
        text = ci_formats.render(each, fmt)
        if text:
            out.write(text)
        if fmt == "github":
            out.write(output.summary_line(counts, len(found)))
    else:
        out.write(output.summary_line(counts, len(found)))
    return output.worst(counts)
