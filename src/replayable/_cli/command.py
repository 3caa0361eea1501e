"""The `replayable` command line: arguments in, one command run, its exit status out.

    replayable check FILE|- [--tools TOOLS.json] [--target SLUG] [--provider openai] [--pending-ok]
                            [--format text|json|sarif|github] [--max-bytes N]
    replayable check FILE|DIR|- [FILE ...] [--jobs N]     (many inputs: see `replayable._cli.batch`)
    replayable check --agents [--chain] EVENTS.jsonl
    replayable --version
    replayable diff ORIGINAL CANDIDATE [--format text|json]
    replayable convert --from|--to chat-completions FILE
    replayable prepare --target SLUG FILE [--tools TOOLS.json] [--provider openai] [--report | --diff]
    replayable schema [--side input|output|agents-events|...] [--provider openai] [-o FILE]
    replayable explain [CODE] [--format text|json]
    replayable show FILE [--html OUT.html] [--tools TOOLS.json] [--target SLUG] [--provider openai] [--agents]

`check` reads a stored transcript (a JSON array of items, JSONL, a Response object, or a request body)
and reports every replay rule it breaks. It also reads a recorded stream (an SSE capture: a `.sse` file
or `text/event-stream` content; or a JSON array / JSONL of stream events) and checks both the streaming
rules and the items the stream assembles (see `replayable.stream`). What an input holds is decided in
`replayable._cli.inputs`; reports are rendered by `replayable._render` (formats `text`, `json`, and
`sarif` / `github` from `replayable._ci_formats`), exit statuses live in `replayable._cli.output`: 0
replay-safe, 1 violations, 2 unreadable input or bad usage (one line on stderr, never a traceback; with
`--format json`, `sarif` or `github` also the error in that format on stdout).

This module only parses arguments and dispatches: `cli` -> `batch` (check) -> `inputs` -> the rules ->
`replayable._render` and `output`; nothing below imports it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from replayable._messages import Door, spelled
from replayable._names import shown
from replayable._reading import InputError, display_name
from replayable._reading.files import DEFAULT_MAX_BYTES, read_input
from replayable._render import render
from replayable.items import ItemError

from . import batch, show
from .inputs import Transcript, load_tools, parse_size, read_transcript
from .output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_OUTPUT_CLOSED,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    FORMATS,
    Output,
    as_json,
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


def _transcript(value: Any, path: str, args: argparse.Namespace) -> Transcript:
    """The one way `diff`, `convert` and `prepare` read a transcript: the reader, with the `--provider`
    the command was given (as `check` reads it)."""
    return read_transcript(value, display_name(path), provider=getattr(args, "provider", None))


def _one_line(exc: ItemError) -> str:
    said = exc.worded(Door.CLI)  # the options it names, as flags
    first: dict[str, Any] = exc.errors[0] if exc.errors else {"loc": (), "msg": said, "type": "error"}
    loc = tuple(first["loc"])
    head = f"#{loc[0]}" if loc and isinstance(loc[0], int) else ""
    rest = loc[1:] if head else loc
    where = " ".join(filter(None, [head, ("field " + ".".join(map(str, rest))) if rest else ""]))
    more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
    title = said.splitlines()[0].split(" (")[0]
    msg = spelled(first["msg"], Door.CLI)
    return f"{title}: {where + ': ' if where else ''}{msg} [{first['type']}]{more}"


def cmd_convert(args: argparse.Namespace, out: Output) -> int:
    """`convert --from chat-completions FILE` / `convert --to chat-completions FILE`: JSON on stdout."""
    from replayable._interop import from_chat_completions, to_chat_completions  # noqa: PLC0415
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
            transcript = _transcript(value, args.file, args)
            result = to_chat_completions(transcript.items, provider=args.provider)
    except ItemError as exc:
        raise InputError(f"{name}: {_one_line(exc)}") from None
    out.write(as_json(result))
    return EXIT_OK


def cmd_prepare(args: argparse.Namespace, out: Output) -> int:
    """`prepare --target SLUG FILE`: the replay-safe input items as a JSON array on stdout (`--report`:
    with what was repaired, dropped and changed; `--diff`: a unified diff of the input's items and the
    result instead). The certain repairs (`replayable._repair`) are made first; what was repaired,
    dropped and changed is listed on stderr, one line each."""
    from replayable._interop import prepare_replay  # noqa: PLC0415
    from replayable._repair import repair_document  # noqa: PLC0415
    from replayable.items import dump_items  # noqa: PLC0415

    name = display_name(args.file)
    original = _document(args.file, args)
    value, repairs, origin = repair_document(original)
    transcript = _transcript(value, args.file, args)
    tools = load_tools(args.tools, max_bytes=args.max_bytes) if args.tools else transcript.tools
    try:
        source = transcript.document if transcript.document is not None else transcript.items
        # the document, not its items alone: a body's allowed_tools, settings and continuation apply too
        items, report = prepare_replay(source, target=args.target, tools=tools, provider=args.provider)
    except ItemError as exc:
        raise InputError(f"{name}: {_one_line(exc)}") from None
    dumped = dump_items(items)

    def at(i: int) -> int:  # the input index of an item of the repaired history
        return origin[i] if origin is not None and i < len(origin) else i

    dropped = [{"index": at(i), "reason": r} for i, r in report.dropped]
    changed = [{"index": at(i), "change": c} for i, c in report.changed]
    for r in repairs:
        _say(f"{name}: item {r.index}: repaired ({r.code}): {r.change}")
    for d in dropped:
        _say(f"{name}: item {d['index']}: dropped: {d['reason']}")
    for c in changed:
        _say(f"{name}: item {c['index']}: changed: {c['change']}")
    _say(
        f"{name}: prepared for {args.target}: {len(dumped)} of {_count(original, transcript)} items kept, "
        f"{len(repairs)} repaired, {len(dropped)} dropped, {len(changed)} changed"
    )
    if args.diff:
        diff = _unified_diff(_input_items(original, transcript), dumped, name, args.target)
        if diff:  # nothing changed: no diff, as diff(1) prints none
            out.write(diff)
    elif args.report:
        out.write(
            as_json(
                {
                    "input": dumped,
                    "repaired": [r.as_dict() for r in repairs],
                    "dropped": dropped,
                    "changed": changed,
                }
            )
        )
    else:
        out.write(as_json(dumped))
    return EXIT_OK


def _say(line: str) -> None:
    """One line of what `prepare` did, on stderr (stdout holds the items or the diff)."""
    try:
        print(shown(line), file=sys.stderr)
    except (OSError, ValueError):
        pass


def _input_items(original: Any, transcript: Transcript) -> list[Any]:
    """The input's items as given (a list, a body's `input`, a Response's `output`; one item as a list)."""
    if isinstance(original, list):
        return original
    if isinstance(original, dict):
        key = {"request": "input", "response": "output"}.get(transcript.kind)
        if key is not None and isinstance(original.get(key), list):
            return list(original[key])
        if transcript.kind == "item":
            return [original]
    return list(transcript.items)


def _count(original: Any, transcript: Transcript) -> int:
    return len(_input_items(original, transcript))


def _unified_diff(before: list[Any], after: list[Any], name: str, target: str) -> str:
    """A unified diff (`difflib`) of two item lists, one item a line as compact JSON (so that each line of
    the diff is one item); empty when nothing changed."""
    import difflib  # noqa: PLC0415

    def lines(items: list[Any]) -> list[str]:
        return [json.dumps(i, ensure_ascii=False) for i in items]

    diff = difflib.unified_diff(
        lines(before), lines(after), fromfile=name, tofile=f"{name} (prepared for {target})", lineterm="", n=1
    )
    return "\n".join(diff)


def cmd_diff(args: argparse.Namespace, out: Output) -> int:
    """`diff ORIGINAL CANDIDATE`: the differences between two items or transcripts (items, lists, a
    Response, a request body). Exit 1 when a difference blocks a replay, else 0."""
    from replayable._compare import compare_items  # noqa: PLC0415

    sides = []
    for path in (args.original, args.candidate):
        sides.append(_transcript(_document(path, args), path, args).items)
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


def cmd_explain(args: argparse.Namespace, out: Output) -> int:
    """`explain CODE`: what a finding code means, its severity, its message, a minimal example that shows
    it and how to fix it (`replayable._codes`, `replayable._explanations`); `explain` alone lists every
    code. Raises `InputError` (exit 2) for an unknown code, naming the closest ones."""
    from replayable._codes import CODES  # noqa: PLC0415
    from replayable._explanations import example  # noqa: PLC0415

    if args.code is None:
        if args.format == "json":
            out.write(as_json([_code_entry(info, None) for info in CODES]))
        else:
            width = max(len(info.code) for info in CODES)
            for info in CODES:
                out.write(f"{info.code:<{width}}  {info.scope:<10}  {info.severity:<9}  {info.meaning}")
        return EXIT_OK
    code = args.code.strip().lower()
    infos = [info for info in CODES if info.code == code]
    if not infos:
        import difflib  # noqa: PLC0415

        names = sorted({info.code for info in CODES})
        starts = [name for name in names if code and name.startswith(code)]
        close = [*starts, *(m for m in difflib.get_close_matches(code, names, n=3, cutoff=0.5) if m not in starts)][:3]
        hint = f"; did you mean {' or '.join(close)}?" if close else "; `replayable explain` lists every code"
        raise InputError(f"unknown code {shown(args.code)!r}{hint}")
    entries = [_code_entry(info, next(iter(example(info.code, info.scope)), None)) for info in infos]
    if args.format == "json":
        out.write(as_json(entries))
        return EXIT_OK
    blocks = []
    for e in entries:
        lines = [f"{e['code']} ({e['scope']}, {e['severity']})", "", e["meaning"], "", "Message:", f"  {e['message']}"]
        ex = e["example"]
        if ex is not None:
            lines += ["", f"Example ({ex['file']}), shown by: {ex['command']}"]
            lines += ["  " + line for line in ex["text"].rstrip("\n").split("\n")]
            lines += ["", "Fix:", f"  {e['fix']}"]
        blocks.append("\n".join(lines))
    out.write("\n\n".join(blocks))
    return EXIT_OK


def _code_entry(info: Any, ex: Any) -> dict[str, Any]:
    """One code as `explain --format json` prints it."""
    entry: dict[str, Any] = {
        "code": info.code,
        "scope": info.scope,
        "severity": str(info.severity),
        "meaning": info.meaning,
        "message": info.template,
    }
    if ex is not None:
        entry["example"] = {"file": ex.file, "command": ex.command(), "text": ex.text}
        entry["fix"] = ex.fix
    return entry


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
        from replayable._ci_formats import package_version  # noqa: PLC0415  loaded only for --version

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
    _add_tools(check, "function tool definitions to check arguments against")
    _add_target(check, required=False)
    _add_provider(check)
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
    _add_provider(diff)
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
    _add_provider(convert)
    _add_max_bytes(convert)
    convert.set_defaults(func=cmd_convert)

    prepare = sub.add_parser(
        "prepare",
        help="repair what is certain and keep what can be replayed to a target provider (prints input items as JSON)",
        description="Make the certain repairs (function_call arguments given as an object become their JSON "
        "text; Chat Completions messages become items), drop what cannot be replayed to the target, and print "
        "the replay-safe input items on stdout (or, with --diff, a unified diff of the input and the result); "
        "what was repaired, dropped and changed is listed on stderr. Exit 2 on unreadable input or what has "
        "no safe repair.",
    )
    prepare.add_argument("file", metavar="FILE", help="the transcript, or - for standard input")
    _add_target(prepare, required=True)
    _add_tools(prepare, "function tool definitions calls must satisfy")
    _add_provider(prepare)
    shown_as = prepare.add_mutually_exclusive_group()
    shown_as.add_argument(
        "--report",
        action="store_true",
        help="print {input, repaired, dropped, changed} instead of the bare item array",
    )
    shown_as.add_argument(
        "--diff",
        action="store_true",
        help="print a unified diff of the input's items and the prepared items (one item a line) instead",
    )
    _add_max_bytes(prepare)
    prepare.set_defaults(func=cmd_prepare)

    explain = sub.add_parser(
        "explain",
        help="say what a finding code means, show an example and how to fix it",
        description="Print what a finding code means, its severity and message, a minimal example that shows "
        "it and how to fix it; without CODE, list every code. Exit 2 for an unknown code.",
    )
    explain.add_argument("code", metavar="CODE", nargs="?", help="a finding code, e.g. output_without_function_call")
    explain.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    explain.set_defaults(func=cmd_explain)
    shown = show.add_parser(sub)
    _add_tools(shown, "function tool definitions to check arguments against")
    _add_target(shown, required=False)
    _add_provider(shown)
    _add_max_bytes(shown)

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


# The options several commands take, each defined once: every command reads them the same way.


def _add_provider(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--provider",
        choices=["openai"],
        help="read OpenAI's native item types and shorthand messages (as the library's provider='openai')",
    )


def _add_target(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument(
        "--target", metavar="SLUG", required=required, help="provider the items are replayed to (e.g. openai, acme)"
    )


def _add_tools(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--tools", metavar="TOOLS.json", help=text)


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
        message = batch.first_line(exc)
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
