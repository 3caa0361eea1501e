"""The `replayable` command line: arguments in, one command run, its exit status out.

    replayable check FILE|- [--tools TOOLS.json] [--target SLUG] [--provider openai] [--pending-ok]
                            [--format text|json|sarif|github] [--max-bytes N]
    replayable check FILE|DIR|- [FILE ...] [--jobs N]     (many inputs: see `replayable._cli.batch`)
    replayable check --agents [--chain] EVENTS.jsonl
    replayable --version
    replayable diff ORIGINAL CANDIDATE [--format text|json]
    replayable convert --from|--to chat-completions FILE
    replayable prepare --target SLUG FILE [--tools TOOLS.json] [--report]
    replayable schema [--side input|output|agents-events|...] [--provider openai] [-o FILE]
    replayable show FILE [--html OUT.html] [--tools TOOLS.json] [--target SLUG] [--provider openai] [--agents]

`check` reads a stored transcript (a JSON array of items, JSONL, a Response object, or a request body)
and reports every replay rule it breaks. It also reads a recorded stream (an SSE capture: a `.sse` file
or `text/event-stream` content; or a JSON array / JSONL of stream events) and checks both the streaming
rules and the items the stream assembles (see `replayable.stream`). What an input holds is decided in
`replayable._cli.inputs`; reports are rendered by `replayable.render` (formats `text`, `json`, and
`sarif` / `github` from `replayable.ci_formats`), exit statuses live in `replayable._cli.output`: 0
replay-safe, 1 violations, 2 unreadable input or bad usage (one line on stderr, never a traceback; with
`--format json`, `sarif` or `github` also the error in that format on stdout).

This module only parses arguments and dispatches: `cli` -> `batch` (check) -> `inputs` -> the rules ->
`replayable.render` and `output`; nothing below imports it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from replayable.items import ItemError
from replayable.names import shown
from replayable.reading import InputError, display_name
from replayable.reading.files import DEFAULT_MAX_BYTES, read_input
from replayable.render import render

from . import batch, show
from .inputs import load_tools, parse_size, read_transcript
from .output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_OUTPUT_CLOSED,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    FORMATS,
    Output,
    as_json,
    cli_message,
    error_report,
)
from .startup import skip_pydantic_plugins

__all__ = ["InputError", "main"]


def cmd_check(args: argparse.Namespace, out: Output) -> int:
    """`check`: one input in this process, or many (or `--jobs`, or a directory) through `batch.run`."""
    args.file, args.more = args.files[0], args.files[1:]
    if args.more or args.jobs is not None or (args.file != "-" and os.path.isdir(args.file)):
        return batch.run(args, out)
    return batch.one_input(args)(args, args.file, out)


def _document(path: str, args: argparse.Namespace) -> Any:
    """The JSON value of a `diff`, `convert` or `prepare` input (a document, or JSONL as a list)."""
    return read_input(path, max_bytes=args.max_bytes).value()


def _one_line(exc: ItemError) -> str:
    first = exc.errors[0] if exc.errors else {"loc": (), "msg": str(exc), "type": "error"}
    loc = tuple(first["loc"])
    head = f"#{loc[0]}" if loc and isinstance(loc[0], int) else ""
    rest = loc[1:] if head else loc
    where = " ".join(filter(None, [head, ("field " + ".".join(map(str, rest))) if rest else ""]))
    more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
    title = str(exc).splitlines()[0].split(" (")[0]
    return f"{title}: {where + ': ' if where else ''}{first['msg']} [{first['type']}]{more}"


def cmd_convert(args: argparse.Namespace, out: Output) -> int:
    """`convert --from chat-completions FILE` / `convert --to chat-completions FILE`: JSON on stdout."""
    from replayable.interop import from_chat_completions, to_chat_completions  # noqa: PLC0415
    from replayable.items import dump_items  # noqa: PLC0415

    name = display_name(args.file)
    value = _document(args.file, args)
    try:
        if args.from_format:
            if isinstance(value, dict) and isinstance(value.get("messages"), list):
                value = value["messages"]  # a Chat Completions request body
            if not isinstance(value, list):
                raise InputError(f"{name}: expected a JSON array of Chat Completions messages")
            result: Any = dump_items(from_chat_completions(value))
        else:
            transcript = read_transcript(value, name)
            result = to_chat_completions(transcript.items, provider=args.provider)
    except ItemError as exc:
        raise InputError(f"{name}: {_one_line(exc)}") from None
    out.write(as_json(result))
    return EXIT_OK


def cmd_prepare(args: argparse.Namespace, out: Output) -> int:
    """`prepare --target SLUG FILE`: the replay-safe input items as a JSON array on stdout."""
    from replayable.interop import prepare_replay  # noqa: PLC0415
    from replayable.items import dump_items  # noqa: PLC0415

    name = display_name(args.file)
    transcript = read_transcript(_document(args.file, args), name)
    tools = load_tools(args.tools, max_bytes=args.max_bytes) if args.tools else transcript.tools
    try:
        source = transcript.document if transcript.document is not None else transcript.items
        # the document, not its items alone: a body's allowed_tools, settings and continuation apply too
        items, report = prepare_replay(source, target=args.target, tools=tools, provider=args.provider)
    except ItemError as exc:
        raise InputError(f"{name}: {_one_line(exc)}") from None
    dumped = dump_items(items)
    if args.report:
        out.write(
            as_json(
                {
                    "input": dumped,
                    "dropped": [{"index": i, "reason": r} for i, r in report.dropped],
                    "changed": [{"index": i, "change": c} for i, c in report.changed],
                }
            )
        )
    else:
        out.write(as_json(dumped))
    return EXIT_OK


def cmd_diff(args: argparse.Namespace, out: Output) -> int:
    """`diff ORIGINAL CANDIDATE`: the differences between two items or transcripts (items, lists, a
    Response, a request body). Exit 1 when a difference blocks a replay, else 0."""
    from replayable.compare import compare_items  # noqa: PLC0415

    sides = []
    for path in (args.original, args.candidate):
        sides.append(read_transcript(_document(path, args), display_name(path)).items)
    try:
        diffs = compare_items(sides[0], sides[1])
    except ItemError as exc:
        raise InputError(_one_line(exc)) from None
    blocking = [d for d in diffs if d.blocking]
    if args.format == "json":
        out.write(as_json({"ok": not blocking, "differences": [d.as_dict() for d in diffs]}))
    else:
        for d in diffs:  # paths and messages quote the input: escaped, so that each stays one line
            blocks = " (blocks replay)" if d.blocking else ""
            out.write(f"{shown(d.path or '/')}: {d.change}{blocks}: {shown(d.message)}")
        verdict = "NOT replay-safe" if blocking else "replay-safe"
        out.write(f"{verdict}: {len(diffs)} difference(s), {len(blocking)} blocking")
    return EXIT_VIOLATIONS if blocking else EXIT_OK


def cmd_schema(args: argparse.Namespace, out: Output) -> int:
    """`replayable schema`: print (or write to `-o FILE`) the JSON Schema 2020-12 bundle of one side."""
    from replayable.schema import json_schema  # noqa: PLC0415

    text = json.dumps(json_schema(args.side, provider=args.provider), indent=2, ensure_ascii=False) + "\n"
    if args.output and args.output != "-":
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        out.write(text.removesuffix("\n"))
    return EXIT_OK


class _VersionAction(argparse.Action):
    """`--version`: like argparse's own, but the installed version is looked up only when asked for
    (reading the package metadata is a noticeable part of a one-file `check`)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show program's version number and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: Any = None) -> None:
        from replayable.ci_formats import package_version  # noqa: PLC0415  loaded only for --version

        parser._print_message(f"{parser.prog} {package_version()}\n", sys.stdout)
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="replayable",
        description="Check stored Open Responses transcripts before they are replayed.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser(
        "check",
        help="check a transcript (items, JSONL, a Response, a request body, a stream, an Agents log or "
        "tool definitions) for replay rules",
        description="Exit 0 when replay-safe, 1 on violations, 2 on unreadable input or bad usage, 3 when the "
        "report could not be written. Several files, a directory or --jobs end with a summary line.",
    )
    check.add_argument(
        "files",
        metavar="FILE",
        nargs="+",
        help="a transcript, event log or stream capture (- for standard input), or a directory; several may be given",
    )
    check.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="check several files or directories in N worker processes (0: one per CPU; at most "
        f"{batch.MAX_JOBS} and one per file)",
    )
    check.add_argument("--tools", metavar="TOOLS.json", help="function tool definitions to check arguments against")
    check.add_argument("--target", metavar="SLUG", help="provider the items are replayed to (e.g. openai, acme)")
    check.add_argument("--provider", choices=["openai"], help="read OpenAI's native item types and shorthand messages")
    check.add_argument(
        "--pending-ok", action="store_true", help="trailing calls without output are pending, not errors"
    )
    check.add_argument(
        "--previous",
        metavar="RESPONSE.json",
        help="the response a request body continues (previous_response_id), or its output items: the "
        "request's function_call_outputs are paired with that response's calls",
    )
    check.add_argument(
        "--format",
        choices=list(FORMATS),
        default="text",
        help="output format: text, json, sarif (SARIF 2.1.0 for code scanning) or github (workflow "
        "annotations); default: text",
    )
    check.add_argument(
        "--agents", action="store_true", help="FILE is an Agents API event log (JSONL, a JSON array or SSE)"
    )
    check.add_argument(
        "--chain", action="store_true", help="with --agents: print the session link chain as JSON (only that)"
    )
    _add_max_bytes(check)
    check.set_defaults(func=cmd_check)

    diff = sub.add_parser(
        "diff",
        help="compare two items or transcripts and say which differences block a replay",
        description="Exit 0 when nothing blocks a replay, 1 when something does, 2 on unreadable input.",
    )
    diff.add_argument("original", metavar="ORIGINAL", help="the original item(s), or - for standard input")
    diff.add_argument("candidate", metavar="CANDIDATE", help="the candidate item(s) to replay instead")
    diff.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    _add_max_bytes(diff)
    diff.set_defaults(func=cmd_diff)

    convert = sub.add_parser(
        "convert",
        help="convert a Chat Completions history to Open Responses input items (or back)",
        description="Print the converted JSON on stdout. Exit 2 on unreadable or unconvertible input.",
    )
    direction = convert.add_mutually_exclusive_group(required=True)
    direction.add_argument(
        "--from",
        dest="from_format",
        choices=["chat-completions"],
        help="FILE holds Chat Completions messages (or a request body with 'messages')",
    )
    direction.add_argument(
        "--to",
        dest="to_format",
        choices=["chat-completions"],
        help="FILE holds Open Responses items (or a Response / request body)",
    )
    convert.add_argument("file", metavar="FILE", help="the input, or - for standard input")
    convert.add_argument(
        "--provider", choices=["openai"], help="read OpenAI's native item types and shorthand messages"
    )
    _add_max_bytes(convert)
    convert.set_defaults(func=cmd_convert)

    prepare = sub.add_parser(
        "prepare",
        help="keep what can be replayed to a target provider (prints input items as JSON)",
        description="Print the replay-safe input items on stdout. Exit 2 on unreadable input.",
    )
    prepare.add_argument("file", metavar="FILE", help="the transcript, or - for standard input")
    prepare.add_argument("--target", metavar="SLUG", required=True, help="provider the items are replayed to")
    prepare.add_argument("--tools", metavar="TOOLS.json", help="function tool definitions calls must satisfy")
    prepare.add_argument("--provider", choices=["openai"], help="the items come from OpenAI (native item types)")
    prepare.add_argument(
        "--report", action="store_true", help="print {input, dropped, changed} instead of the bare item array"
    )
    _add_max_bytes(prepare)
    prepare.set_defaults(func=cmd_prepare)

    show.add_parser(sub, _add_max_bytes)

    from replayable.schema import sides  # noqa: PLC0415

    schema = sub.add_parser(
        "schema",
        help="print the JSON Schema 2020-12 bundle of one side (input or output items, an Agents API kind)",
        description="Print the self-contained JSON Schema bundle of one side (see schemas/README.md).",
    )
    schema.add_argument(
        "--side", choices=sides(), default="input", help="which values the schema describes (default: input)"
    )
    schema.add_argument("-o", "--output", metavar="FILE", help="write the schema to FILE instead of standard output")
    schema.add_argument(
        "--provider",
        choices=["openai"],
        help="describe OpenAI's items as sent (sides input, output): types un-prefixed (web_search_call), "
        "OpenAI's nulls and omitted keys, shorthand messages",
    )
    schema.set_defaults(func=cmd_schema)
    return parser


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_max_bytes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-bytes",
        type=_size,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help="largest JSON document or SSE capture read whole, and longest JSONL line "
        f"(default {DEFAULT_MAX_BYTES // (1 << 20)}M; suffixes K, M, G)",
    )


def _wanted_format(argv: Sequence[str]) -> str | None:
    """The machine-readable `--format` asked for (json, sarif, github), read from raw arguments that
    argparse refused, or None."""
    args = list(argv)
    for fmt in FORMATS[1:]:
        if f"--format={fmt}" in args or any(a == "--format" and b == fmt for a, b in zip(args, args[1:], strict=False)):
            return fmt
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used as the console script).

    Unreadable input is exit status 2 with one line on stderr (and, with `--format json`, an error
    object on stdout); a reader that closes stdout early never turns the verdict into 0. Called without
    `argv` (the console script, `python -m replayable`), it owns the process and skips pydantic's plugin
    discovery unless `PYDANTIC_DISABLE_PLUGINS` is set (`replayable._cli.startup`)."""
    if argv is None:  # the process's own command line: the console script or `python -m replayable`
        skip_pydantic_plugins()
    argv = list(sys.argv[1:] if argv is None else argv)
    out = Output(sys.stdout)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        code = exc.code if isinstance(exc.code, int) else EXIT_UNREADABLE
        fmt = _wanted_format(argv) if code else None
        if fmt == "json":
            out.write(error_report("bad usage (see --help)", None))
        elif fmt is not None:
            out.write(render({"file": None, "ok": False, "exit": code, "error": "bad usage (see --help)"}, fmt))
        out.flush()
        return code
    func: Callable[[argparse.Namespace, Output], int] = args.func
    try:
        code = func(args, out)
    except (InputError, ItemError, ValueError, MemoryError, RecursionError) as exc:
        message = cli_message(batch.first_line(exc))
        if isinstance(exc, MemoryError):
            message = "out of memory reading the input (lower --max-bytes)"
        elif isinstance(exc, RecursionError):
            message = "input nested too deeply"
        try:
            print(f"replayable: error: {shown(message)}", file=sys.stderr)
        except (OSError, ValueError):
            pass
        fmt = getattr(args, "format", None)
        if fmt in ("json", "sarif", "github"):
            name = getattr(args, "file", None)
            file = ("<stdin>" if name == "-" else name) if isinstance(name, str) else None
            if fmt == "json":
                out.write(error_report(message, file))
            else:
                out.write(render({"file": file, "ok": False, "exit": EXIT_UNREADABLE, "error": message}, fmt))
        code = EXIT_UNREADABLE
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    except BrokenPipeError:  # written around Output: the verdict was not reached
        out.flush()
        code = EXIT_OUTPUT_CLOSED
    out.flush()
    if out.error is not None:
        try:
            print(f"replayable: error: cannot write the report to standard output: {out.error}", file=sys.stderr)
        except (OSError, ValueError):
            pass
    return out.status(code)


if __name__ == "__main__":
    sys.exit(main())
