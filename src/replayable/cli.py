"""The `replayable` command line.

    replayable check FILE|- [--tools TOOLS.json] [--target SLUG] [--provider openai] [--pending-ok]
                            [--format text|json]
    replayable check FILE|DIR ... [--jobs N]     (many files: see `replayable.batch`)
    replayable check --agents [--chain] EVENTS.jsonl
    replayable diff ORIGINAL CANDIDATE [--format text|json]
    replayable schema [--side input|output|agents-events|...] [-o FILE]

`check` reads a stored transcript (a JSON array of items, JSONL, a Response object, or a request body)
and reports every replay rule it breaks. It also reads a recorded stream (an SSE capture: a `.sse` file
or `text/event-stream` content; or a JSON array / JSONL of stream events) and checks both the streaming
rules and the items the stream assembles (see `replayable.stream`). Exit status: 0 replay-safe,
1 violations, 2 unreadable input or bad usage (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import stream
from ._json import READER_DEPTH, JSONError, iter_jsonl, loads
from .items import ItemError
from .replay import TranscriptReport, Violation, ViolationCode, check_tool, check_transcript

__all__ = ["main"]

EXIT_OK, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2


class InputError(Exception):
    """Input that cannot be read as anything `check` understands (exit status 2)."""


def read_source(path: str) -> bytes:
    """Read FILE, or standard input for `-`. Raises `InputError` when it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def load_json_or_jsonl(data: bytes, name: str) -> Any:
    """A JSON document, or JSONL read as a list of values, both read by the library's one strict reader
    (`replayable._json`: duplicate keys, NaN, invalid UTF-8, ... refused; one leading BOM ignored; JSONL
    lines end at `\\n` only). Raises `InputError` when it is neither."""
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise InputError(f"{name} is empty")
    try:
        return loads(data, what=name, max_depth=READER_DEPTH)
    except JSONError as first:
        if first.reason == "invalid_utf8":
            raise InputError(f"{name} is not UTF-8 text: {first.detail}") from None
        if first.reason != "not_json":  # one JSON text that breaks a rule: duplicate key, NaN, too deep, ...
            raise InputError(str(first)) from None
        values = []
        try:
            for _, value in iter_jsonl(data, what=f"{name}, line", max_depth=READER_DEPTH):
                values.append(value)
        except JSONError as exc:
            if exc.reason != "not_json":
                raise InputError(str(exc)) from None
            raise InputError(f"{name} is neither JSON nor JSONL ({exc.detail})") from None
        if len(values) < 2:
            raise InputError(f"{name} is not valid JSON: {first.detail}") from None
        return values


@dataclass
class Transcript:
    """What `check` found in the input: the items, and what the envelope says about them."""

    items: list[Any]
    kind: str
    side: str | None = None
    tools: list[Any] | None = None
    allowed_tools: list[str] | None = None
    tool_findings: list[Violation] = field(default_factory=list)


def _allowed_from_tool_choice(choice: Any) -> list[str] | None:
    if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
        tools = choice.get("tools")
        if isinstance(tools, list):
            return [t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        return []
    return None


def lint_tools(tools: list[Any]) -> list[Violation]:
    """`check_tool` findings for the function tools of a request body or a --tools file (paths under
    `/tools/N`); a tool that is not a JSON object is a finding too."""
    findings: list[Violation] = []
    for n, tool in enumerate(tools):
        if not isinstance(tool, dict):
            findings.append(
                Violation(None, ViolationCode.INVALID_TOOL, f"tools[{n}] is not a tool definition", f"/tools/{n}")
            )
        elif tool.get("type") in (None, "function"):
            findings.extend(
                Violation(None, v.code, f"tools[{n}]: {v.message}", f"/tools/{n}{v.path}") for v in check_tool(tool)
            )
    return findings


def read_transcript(value: Any, name: str) -> Transcript:
    """Find the items in a parsed document: a list, a Response (`output`), a request body (`input`,
    `tools`, `tool_choice`) or one item. Raises `InputError` for anything else."""
    if isinstance(value, list):
        return Transcript(value, "items")
    if isinstance(value, dict):
        if isinstance(value.get("output"), list) and ("object" in value or "input" not in value):
            return Transcript(value["output"], "response", side="output")
        if "input" in value:
            inp = value["input"]
            if isinstance(inp, str):
                inp = [{"type": "message", "role": "user", "content": inp}]
            if not isinstance(inp, list):
                raise InputError(f"{name}: request body 'input' must be a string or a list of items")
            tools = value.get("tools")
            tools = tools if isinstance(tools, list) else None
            findings = lint_tools(tools or [])
            function_tools = [t for t in tools or [] if isinstance(t, dict) and t.get("type") == "function"] or None
            return Transcript(
                inp,
                "request",
                tools=function_tools,
                allowed_tools=_allowed_from_tool_choice(value.get("tool_choice")),
                tool_findings=findings,
            )
        if "type" in value or "role" in value:
            return Transcript([value], "item")
    raise InputError(
        f"{name}: expected a JSON array of items, JSONL, a Response object (with 'output') or a request body "
        "(with 'input')"
    )


def load_tools(path: str) -> list[Any]:
    value = load_json_or_jsonl(read_source(path), path)
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise InputError(f"{path}: expected a JSON array of tool definitions")
    return value


def format_report(report: TranscriptReport, extra: Sequence[Violation], n_items: int, fmt: str, name: str) -> str:
    violations = [*extra, *report.violations]
    if fmt == "json":
        return json.dumps(
            {
                "file": name,
                "ok": not violations,
                "items": n_items,
                "violations": [v.as_dict() for v in violations],
                "pending": list(report.pending),
            },
            indent=2,
        )
    lines = []
    for v in violations:
        where = "tools" if v.index is None else f"item {v.index}"
        lines.append(f"{name}: {where}: {v.code}: {v.message}")
    if report.pending:
        lines.append(f"{name}: pending calls (awaiting output) at items {', '.join(map(str, report.pending))}")
    if violations:
        bad = len({v.index for v in violations})
        lines.append(f"{name}: NOT replay-safe: {len(violations)} violation(s) in {bad} place(s), {n_items} items")
    else:
        lines.append(f"{name}: replay-safe: {n_items} items")
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    if getattr(args, "more", None) or getattr(args, "jobs", None) is not None or Path(args.file).is_dir():
        from . import batch  # noqa: PLC0415  several files or a directory, optionally in worker processes

        return batch.run(args)
    if args.file.endswith(".jsonl"):  # a JSONL of items is checked line by line, in bounded memory
        from . import batch  # noqa: PLC0415

        streamed = batch.check_jsonl(args)
        if streamed is not None:
            return streamed
    data = read_source(args.file)
    name = "<stdin>" if args.file == "-" else args.file
    value = None if stream.looks_like_sse(data, name) else load_json_or_jsonl(data, name)
    if value is None or stream.is_event_list(value):  # an SSE capture, or a list of stream events
        tools_ = load_tools(args.tools) if args.tools else None
        source = data if value is None else value
        sreport = stream.check_stream(source, provider=args.provider, tools=tools_, target=args.target)
        print(stream.format_stream_report(sreport, args.format, name))
        return EXIT_OK if sreport.ok else EXIT_VIOLATIONS
    if args.chain and not args.agents:
        raise InputError("--chain needs --agents (it links an Agents API event log)")
    if args.agents and args.chain:  # the session link chain as JSON on stdout, nothing else
        from .chain import link_chain  # noqa: PLC0415

        if not isinstance(value, list | dict):
            raise InputError(f"{name}: expected Agents API events as JSONL or a JSON array")
        chain = link_chain(value if isinstance(value, list) else [value])
        print(json.dumps(chain.as_dict(), indent=2, ensure_ascii=False))
        return EXIT_OK if chain.ok else EXIT_VIOLATIONS
    if args.agents:  # an Agents API event log: server events and the client's inputs, in order
        from .agents import check_event_log  # noqa: PLC0415
        from .agents import format_report as format_agents_report

        if not isinstance(value, list | dict):
            raise InputError(f"{name}: expected Agents API events as JSONL or a JSON array")
        agents_report = check_event_log(value if isinstance(value, list) else [value])
        print(format_agents_report(agents_report, args.format, name))
        return EXIT_OK if agents_report.ok else EXIT_VIOLATIONS
    transcript = read_transcript(value, name)
    tools, findings = transcript.tools, transcript.tool_findings
    if args.tools:
        loaded = load_tools(args.tools)
        findings = lint_tools(loaded)
        tools = [t for t in loaded if isinstance(t, dict) and t.get("type") in (None, "function")]
    report = check_transcript(
        transcript.items,
        tools=tools,
        target=args.target,
        provider=args.provider,
        pending_ok=args.pending_ok or transcript.kind == "response",  # a response asks for its calls to run
        allowed_tools=transcript.allowed_tools,
        side=transcript.side,  # type: ignore[arg-type]
    )
    print(format_report(report, findings, len(transcript.items), args.format, name))
    return EXIT_OK if report.ok and not findings else EXIT_VIOLATIONS


def _one_line(exc: ItemError) -> str:
    first = exc.errors[0] if exc.errors else {"loc": (), "msg": str(exc), "type": "error"}
    loc = tuple(first["loc"])
    head = f"#{loc[0]}" if loc and isinstance(loc[0], int) else ""
    rest = loc[1:] if head else loc
    where = " ".join(filter(None, [head, ("field " + ".".join(map(str, rest))) if rest else ""]))
    more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
    title = str(exc).splitlines()[0].split(" (")[0]
    return f"{title}: {where + ': ' if where else ''}{first['msg']} [{first['type']}]{more}"


def cmd_convert(args: argparse.Namespace) -> int:
    """`convert --from chat-completions FILE` / `convert --to chat-completions FILE`: JSON on stdout."""
    from .interop import from_chat_completions, to_chat_completions  # noqa: PLC0415
    from .items import dump_items  # noqa: PLC0415

    name = "<stdin>" if args.file == "-" else args.file
    value = load_json_or_jsonl(read_source(args.file), name)
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
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_prepare(args: argparse.Namespace) -> int:
    """`prepare --target SLUG FILE`: the replay-safe input items as a JSON array on stdout."""
    from .interop import prepare_replay  # noqa: PLC0415
    from .items import dump_items  # noqa: PLC0415

    name = "<stdin>" if args.file == "-" else args.file
    transcript = read_transcript(load_json_or_jsonl(read_source(args.file), name), name)
    tools = load_tools(args.tools) if args.tools else transcript.tools
    try:
        items, report = prepare_replay(transcript.items, target=args.target, tools=tools, provider=args.provider)
    except ItemError as exc:
        raise InputError(f"{name}: {_one_line(exc)}") from None
    out = dump_items(items)
    if args.report:
        print(
            json.dumps(
                {
                    "input": out,
                    "dropped": [{"index": i, "reason": r} for i, r in report.dropped],
                    "changed": [{"index": i, "change": c} for i, c in report.changed],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    """`diff ORIGINAL CANDIDATE`: the differences between two items or transcripts (items, lists, a
    Response, a request body). Exit 1 when a difference blocks a replay, else 0."""
    from .compare import compare_items  # noqa: PLC0415

    sides = []
    for path in (args.original, args.candidate):
        name = "<stdin>" if path == "-" else path
        value = load_json_or_jsonl(read_source(path), name)
        sides.append(read_transcript(value, name).items)
    try:
        diffs = compare_items(sides[0], sides[1])
    except ItemError as exc:
        raise InputError(_one_line(exc)) from None
    blocking = [d for d in diffs if d.blocking]
    if args.format == "json":
        print(
            json.dumps({"ok": not blocking, "differences": [d.as_dict() for d in diffs]}, indent=2, ensure_ascii=False)
        )
    else:
        for d in diffs:
            print(f"{d.path or '/'}: {d.change}{' (blocks replay)' if d.blocking else ''}: {d.message}")
        verdict = "NOT replay-safe" if blocking else "replay-safe"
        print(f"{verdict}: {len(diffs)} difference(s), {len(blocking)} blocking")
    return EXIT_VIOLATIONS if blocking else EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    """`replayable schema`: print (or write to `-o FILE`) the JSON Schema 2020-12 bundle of one side."""
    from .schema import json_schema  # noqa: PLC0415

    text = json.dumps(json_schema(args.side), indent=2, ensure_ascii=False) + "\n"
    if args.output and args.output != "-":
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="replayable",
        description="Check stored Open Responses transcripts before they are replayed.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser(
        "check",
        help="check a transcript (items, JSONL, a Response or a request body) for replay rules",
        description="Exit 0 when replay-safe, 1 on violations, 2 on unreadable input.",
    )
    check.add_argument(
        "file", metavar="FILE", help="the transcript (- for standard input); more FILEs or directories may follow"
    )
    check.add_argument("more", metavar="...", nargs="*", help=argparse.SUPPRESS)
    check.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="check several files or directories in N worker processes (0: one per CPU); prints a summary",
    )
    check.add_argument("--tools", metavar="TOOLS.json", help="function tool definitions to check arguments against")
    check.add_argument("--target", metavar="SLUG", help="provider the items are replayed to (e.g. openai, acme)")
    check.add_argument("--provider", choices=["openai"], help="read OpenAI's native item types and shorthand messages")
    check.add_argument(
        "--pending-ok", action="store_true", help="trailing calls without output are pending, not errors"
    )
    check.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    check.add_argument("--agents", action="store_true", help="FILE is an Agents API event log (JSONL)")
    check.add_argument(
        "--chain", action="store_true", help="with --agents: print the session link chain as JSON (only that)"
    )
    check.set_defaults(func=cmd_check)

    diff = sub.add_parser(
        "diff",
        help="compare two items or transcripts and say which differences block a replay",
        description="Exit 0 when nothing blocks a replay, 1 when something does, 2 on unreadable input.",
    )
    diff.add_argument("original", metavar="ORIGINAL", help="the original item(s), or - for standard input")
    diff.add_argument("candidate", metavar="CANDIDATE", help="the candidate item(s) to replay instead")
    diff.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
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
    prepare.set_defaults(func=cmd_prepare)

    from .schema import sides  # noqa: PLC0415

    schema = sub.add_parser(
        "schema",
        help="print the JSON Schema 2020-12 of one item (or Agents API value) for other languages",
        description="Print the self-contained JSON Schema bundle of one side (see schemas/README.md).",
    )
    schema.add_argument(
        "--side", choices=sides(), default="input", help="which values the schema describes (default: input)"
    )
    schema.add_argument("-o", "--output", metavar="FILE", help="write the schema to FILE instead of standard output")
    schema.set_defaults(func=cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used as the console script)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (InputError, ItemError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"replayable: error: {first}", file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
