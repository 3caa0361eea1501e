"""Running `replayable check`: one input, or many files and directories in worker processes.

`check_one` checks one input (a file, or standard input for `-`) with every rule that applies to what
it holds (see `replayable.inputs` for how that is decided): an SSE capture or a list of stream events
goes through `replayable.stream.check_stream`; an Agents API event log (`--agents`) through
`replayable.agents`; anything else is a transcript for `check_transcript`. A JSONL of items is checked
with `replayable.replay.check_stream`, from a file or from standard input, its lines read and validated
in batches (`jsonl_items`), so memory holds one batch and the rule state (ids, call ids, open calls,
violations), never the whole input or its items.

`run` checks several inputs: `replayable check A.jsonl B.json DIR/ --jobs 4` checks every file (a
directory is searched recursively for `*.json`, `*.jsonl` and `*.sse`; one that cannot be listed is
unreadable) in up to `N` worker processes (never more than `MAX_JOBS` nor than there are files;
standard input is read by the main process), prints each file's report in the order the files were
given, then a summary. A progress bar is drawn on standard error when it is a terminal and `rich` is
installed (the `progress` extra); reports always go to standard output. The exit status is the worst
of the files': 2 if any file is unreadable, else 1 if any has violations, else 0.

The path runs one way: `cli` (arguments) -> `batch` (what to check) -> `inputs` (reading) -> the rules
(`replay`, `stream`, `agents`, `chain`) -> `reports` (formatting, exit statuses).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from . import reports
from .inputs import (
    DEFAULT_MAX_BYTES,
    Input,
    InputError,
    Kind,
    find_files,
    is_item_stream,
    lint_tools,
    load_tools,
    read_input,
    read_transcript,
)
from .items import _ADAPTERS, ItemError, Provider, _gc_paused
from .replay import Violation, _chat_shape, _nested_call, check_transcript
from .replay import check_stream as check_item_stream
from .reports import EXIT_OK, EXIT_UNREADABLE, EXIT_VIOLATIONS, Output

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


def check_one(args: argparse.Namespace, path: str, out: Output) -> int:
    """The single-input `check` of `path` (`-`: standard input) with the options in `args`; writes the
    report to `out` and returns the exit status (0 or 1). Raises `InputError` (or `ItemError`,
    `ValueError`) for unreadable input: the caller reports it with exit status 2."""
    max_bytes = _max_bytes(args)
    if getattr(args, "chain", False) and not getattr(args, "agents", False):
        raise InputError("--chain needs --agents (it links an Agents API event log)")

    def tools() -> list[Any] | None:
        return load_tools(args.tools, max_bytes=max_bytes) if args.tools else None

    inp = read_input(path, max_bytes=max_bytes)
    try:
        return _check_input(args, inp, tools, out, _previous(args, max_bytes))
    finally:
        inp.close()


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


def _check_input(
    args: argparse.Namespace, inp: Input, tools: Callable[[], list[Any] | None], out: Output, previous: Any = None
) -> int:
    name = inp.name
    if previous is not None and (inp.kind is Kind.SSE or args.agents):
        raise InputError(f"{name}: --previous applies to a request body or a list of items, not to a stream")
    if inp.kind is Kind.SSE:
        from . import stream  # noqa: PLC0415  the streaming models load only for a stream (import time)

        return _stream(
            stream.check_stream(inp.data, provider=args.provider, tools=tools(), target=args.target), args, name, out
        )
    if inp.kind is Kind.JSONL and not args.agents and is_item_stream(inp.first) and previous is None:
        function_tools, findings = _tool_file(tools())
        count = [0]
        report = check_item_stream(
            jsonl_items(inp, args.provider, count),
            tools=function_tools,
            target=args.target,
            provider=args.provider,
            pending_ok=args.pending_ok,
        )
        out.write(reports.format_report(report, findings, count[0], args.format, name))
        return EXIT_OK if report.ok and not findings else EXIT_VIOLATIONS
    value = inp.value()
    if _may_be_events(value):
        from . import stream  # noqa: PLC0415

        if stream.is_event_list(value):
            if previous is not None:
                raise InputError(f"{name}: --previous applies to a request body or a list of items, not to a stream")
            return _stream(
                stream.check_stream(value, provider=args.provider, tools=tools(), target=args.target), args, name, out
            )
    if args.agents:
        return _agents(value, args, name, out)
    transcript = read_transcript(value, name)
    function_tools, findings = transcript.tools, transcript.tool_findings
    if args.tools:  # a --tools file replaces the request body's tools
        function_tools, findings = _tool_file(tools())
    report = check_transcript(
        # a request body as a whole: with previous_response_id its outputs may answer calls outside it
        # a Response as a whole when it says so: its own status is checked against its last item
        value if transcript.kind == "request" or (_whole_response(value) and previous is None) else transcript.items,
        tools=function_tools,
        target=args.target,
        provider=args.provider,
        pending_ok=args.pending_ok or transcript.kind == "response",  # a response asks for its calls to run
        allowed_tools=transcript.allowed_tools,
        side=transcript.side,  # type: ignore[arg-type]
        previous=previous,
    )
    out.write(reports.format_report(report, findings, len(transcript.items), args.format, name))
    return EXIT_OK if report.ok and not findings else EXIT_VIOLATIONS


def _whole_response(value: Any) -> bool:
    return isinstance(value, dict) and value.get("object") in ("response", "response.compaction")


def jsonl_items(inp: Input, provider: Provider, count: list[int] | None = None) -> Iterator[Any]:
    """The items of a JSONL input for `replayable.replay.check_stream`, in order: parsed items, or the
    JSON value itself where check_stream must read it (and report its problems) one item at a time.

    Lines are read in batches (`Input.batches`) by the one strict reader, and a batch is validated by
    one call to the input items' list adapter, as `parse_items` does; a batch that does not validate is
    split in halves until the items that do not parse are found, which are then yielded as JSON values.
    So a JSONL of valid items costs about what parsing it in memory does, and check_stream sees the
    same items, reports the same violations (item index, field, rule) and raises the same `InputError`
    for a line that is not JSON as it would reading the values one by one. Values `check_stream` reads
    before parsing (not an object, a Chat Completions message, a call inside a message's content) or
    nested deeper than an item may are always yielded as they are. `count[0]` counts the items.

    The garbage collector is paused while the items are read and checked (parsed items and the rule
    state hold no cycles; see `replayable.items._gc_paused`); between batches only its young generations
    are collected, so that whatever a batch left behind is freed and the rule state is not rescanned."""
    many = _ADAPTERS[("input", provider == "openai")][1]
    context = {"provider": "openai"} if provider == "openai" else None
    with _gc_paused():  # parsed items and the rule state hold no cycles: the collector would only rescan them
        for values, deep in inp.batches():
            if count is not None:
                count[0] += len(values)
            yield from _batch_items(many, values, deep, context)
            del values, deep
            gc.collect(1)  # whatever a batch left behind, young objects only: the rule state is not rescanned


def _batch_items(many: Any, values: list[Any], deep: set[int], context: Any) -> list[Any]:
    """One batch's items for check_stream: parsed items, or the values check_stream reads itself."""
    plain = [
        n
        for n, v in enumerate(values)
        if type(v) is dict and n not in deep and _chat_shape(v) is None and _nested_call(v) is None
    ]
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


def _may_be_events(value: Any) -> bool:
    """Could `value` be a list of stream events (`replayable.stream.is_event_list` needs a `response.*`
    event)? False means surely not, so that checking items never loads the streaming models."""
    return isinstance(value, list) and any(
        isinstance(v, dict) and isinstance(v.get("type"), str) and v["type"].startswith("response.") for v in value
    )


def _tool_file(tools: list[Any] | None) -> tuple[list[Any] | None, list[Violation]]:
    """The function tools of a --tools file (None without one) and their `check_tool` findings."""
    if tools is None:
        return None, []
    return [t for t in tools if isinstance(t, dict) and t.get("type") in (None, "function")], lint_tools(tools)


def _stream(report: Any, args: argparse.Namespace, name: str, out: Output) -> int:
    out.write(reports.format_stream_report(report, args.format, name))
    return EXIT_OK if report.ok else EXIT_VIOLATIONS


def _agents(value: Any, args: argparse.Namespace, name: str, out: Output) -> int:
    if not isinstance(value, list | dict):
        raise InputError(f"{name}: expected Agents API events as JSONL or a JSON array")
    events = value if isinstance(value, list) else [value]
    if args.chain:  # the session link chain as JSON on stdout, nothing else
        from .chain import link_chain  # noqa: PLC0415

        chain = link_chain(events)
        out.write(reports.as_json(chain.as_dict()))
        return EXIT_OK if chain.ok else EXIT_VIOLATIONS
    from .agents import check_event_log  # noqa: PLC0415
    from .agents import format_report as format_agents_report  # noqa: PLC0415

    agents_report = check_event_log(events)
    if agents_report.nothing_recognised and args.format != "json":
        # e.g. a Responses transcript: unreadable as an Agents log, so exit 2 with the reason on stderr
        raise InputError(format_agents_report(agents_report, "text", name))
    out.write(format_agents_report(agents_report, args.format, name))
    if agents_report.nothing_recognised:  # the JSON report (recognised: 0) stays on stdout
        return EXIT_UNREADABLE
    return EXIT_OK if agents_report.ok else EXIT_VIOLATIONS


def first_line(exc: BaseException) -> str:
    """The one-line message of an error (its first line, or its type's name)."""
    text = str(exc)
    return text.splitlines()[0] if text.strip() else type(exc).__name__


def check_file(args: argparse.Namespace, path: str) -> FileResult:
    """Run `check_one` on `path`, capturing its report. Never raises for a bad file: unreadable input
    (and any unexpected error, which is a bug of ours and says so) is exit status 2."""
    buf = io.StringIO()
    try:
        code = check_one(args, path, Output(buf))
    except (InputError, ItemError, ValueError) as exc:
        return FileResult(path, EXIT_UNREADABLE, buf.getvalue(), reports.cli_message(first_line(exc)))
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


def _progress(total: int) -> Any:
    """A rich progress bar on a terminal's standard error, or None (no terminal, or rich missing).
    It never takes over standard output: reports written there reach a pipe or a file unchanged."""
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
        redirect_stdout=False,
        redirect_stderr=False,
    )


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
                    raise InputError(f"a worker process died while checking {f.path} (try fewer --jobs)") from None


def run(args: argparse.Namespace, out: Output) -> int:
    """`check` over several files or directories (see the module docstring); returns the exit status."""
    found = find_files([args.file, *(getattr(args, "more", None) or [])])
    if not found:
        raise InputError("no *.json, *.jsonl or *.sse files to check")
    jobs = clamp_jobs(args.jobs, sum(1 for f in found if not f.error and f.path != "-"))
    as_json = args.format == "json"
    counts = {EXIT_OK: 0, EXIT_VIOLATIONS: 0, EXIT_UNREADABLE: 0}
    records: list[dict[str, Any]] = []
    bar = _progress(len(found))
    with bar if bar is not None else contextlib.nullcontext():
        task = bar.add_task("check", total=len(found)) if bar is not None else None
        for res in _results(args, found, jobs):
            counts[res.exit if res.exit in counts else EXIT_UNREADABLE] += 1
            if as_json:
                try:
                    report = json.loads(res.output) if res.output.strip() else None
                except ValueError:
                    report = res.output
                records.append({"file": res.file, "exit": res.exit, "report": report, "error": res.error or None})
            else:
                if res.output:
                    out.write(res.output.rstrip("\n"))
                if res.error:
                    out.write(f"{res.file}: unreadable: {res.error}")
            if bar is not None:
                bar.advance(task)
    summary = {
        "files": len(found),
        "replay_safe": counts[EXIT_OK],
        "with_violations": counts[EXIT_VIOLATIONS],
        "unreadable": counts[EXIT_UNREADABLE],
    }
    if as_json:
        out.write(json.dumps({"files": records, "summary": summary}, indent=2, ensure_ascii=False))
    else:
        out.write(reports.summary_line(counts, len(found)))
    return reports.worst(counts)
