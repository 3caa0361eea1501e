"""Checks of OpenAI Agents API sessions: `check_arguments` (a required function call against its tool,
before it runs) and `check_event_log` (the rules over a whole event log). Part of `replayable.agents`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from replayable._agents_base import KNOWN_EVENT_TYPES
from replayable._arguments import SchemaFailure, compile_schema, schema_failures, value_problem
from replayable._generated.agents.function_call_action import FunctionCallAction
from replayable._generated.agents.function_tool import FunctionTool
from replayable._generated.agents.function_tool_resource import FunctionToolResource
from replayable._generated.agents.function_tool_snapshot import FunctionToolSnapshot
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable._notes import Note, agent_notes
from replayable._pointers import json_pointer
from replayable._tools import ToolSpec, read_tool, tool_table
from replayable.errors import ToolResultError, Verdict
from replayable.items import ItemError

from ._events import (
    checked_tool_result_adapter,
    dump,
    is_unknown,
    parse_event,
    parse_input,
    parse_required_action,
    plain_value,
    session_of,
)
from ._ledger import PendingActions, duplicate_tool_names
from ._report import AgentsReport, AgentsViolation, AgentsViolationCode


@dataclass(frozen=True, slots=True)
class ArgumentCheck(Verdict):
    """The result of `check_arguments`.

    `execute` (also `passed`) is true only when the action's name matches the tool and its arguments
    pass the tool's `parameters`; `failures` lists each failure as a `SchemaFailure` (JSON Pointer
    `path` of the offending value and the failing JSON Schema `keyword`, e.g. `/refund`
    `additionalProperties`; a name mismatch is path `""`, keyword `name`). `record()` is the check as
    one JSON audit record, `passing_paths()` the argument values that passed.
    """

    action: FunctionCallAction
    failures: tuple[SchemaFailure, ...]
    schema: Any = None
    """The JSON Schema the arguments were checked against (the tool's `parameters`)."""
    tool_name: str | None = None
    """The tool's name (None for a bare JSON Schema)."""

    @property
    def execute(self) -> bool:
        """Whether the tool may be executed."""
        return not self.failures

    @property
    def passed(self) -> bool:
        """Same as `execute`."""
        return not self.failures

    @property
    def ok(self) -> bool:
        """Same as `execute` (the verdict `raise_for_violations()` reads)."""
        return not self.failures

    def violation_lines(self) -> list[str]:
        """One line per failure (`path (keyword): message`), as `ReplayError` prints them."""
        return [f"{f.path or '/'} ({f.keyword}): {f.message}" for f in self.failures]

    def error_message(self) -> str:
        """A readable message naming each failing path and rule (empty when the check passed)."""
        if not self.failures:
            return ""
        parts = [
            f"{f.path or '/'} ({f.keyword}): {f.message}" if f.message else f"{f.path or '/'} ({f.keyword})"
            for f in self.failures
        ]
        return f"arguments for {self.action.name!r} were rejected before execution: " + "; ".join(parts)

    def passing_paths(self) -> list[str]:
        """JSON Pointers of the argument values that passed: every value inside `arguments` (the root
        excluded), in document order, except the failing ones, those inside them and those that hold
        one. A `name` failure (the action calls another tool) concerns the call, not a value."""
        failing = {f.path for f in self.failures if f.keyword != "name"}
        holders = {f[:i] for f in failing for i in range(len(f)) if f[i] == "/"}
        out: list[str] = []
        if "" in failing:
            return out
        stack: list[tuple[Any, str]] = [(self.action.arguments, "")]
        while stack:
            value, path = stack.pop()
            children: list[tuple[Any, str]] = []
            if isinstance(value, Mapping):
                children = [(v, path + json_pointer([k])) for k, v in value.items()]
            elif isinstance(value, list):
                children = [(v, path + json_pointer([i])) for i, v in enumerate(value)]
            for child, child_path in reversed(children):
                if child_path in failing:
                    continue
                stack.append((child, child_path))
            if path and path not in holders:
                out.append(path)
        return out

    def record(self) -> dict[str, Any]:
        """This check as one JSON-ready audit record, the host-side record of the three-doors article
        (`{check, schema, pass, fail, execute}`), then fields of our own:

        - `check`: the tool's name (the tool the call asked for);
        - `schema`: `"parameters"`, the part of the tool the arguments were checked against;
        - `pass`: the names of the declared arguments (the `properties` of `parameters`) that the call
          supplied, in the call's order, whether or not their value passed (the article lists
          `order_id` although its pattern fails);
        - `fail`: `[{path, reason}]`, each failure's JSON Pointer and failing JSON Schema keyword
          (`name` at path `""` when the action calls another tool);
        - `execute`: whether the tool may run;
        - `schema_sha256`: `"sha256:<hex>"`, the SHA-256 of the tool's `parameters` as compact JSON with
          sorted keys, so a log names the exact schema that judged the call;
        - `passing_paths`: JSON Pointers of the argument values that passed (`passing_paths()`);
        - `call`: `{turn_id, call_id, name}` of the required action.
        """
        text = json.dumps(self.schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
        props = self.schema.get("properties") if isinstance(self.schema, Mapping) else None
        args = self.action.arguments
        supplied = [k for k in args if isinstance(props, Mapping) and k in props] if isinstance(args, Mapping) else []
        return {
            "check": self.tool_name if self.tool_name is not None else self.action.name,
            "schema": "parameters",
            "pass": supplied,
            "fail": [{"path": f.path, "reason": f.keyword} for f in self.failures],
            "execute": self.execute,
            "schema_sha256": "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
            "passing_paths": self.passing_paths(),
            "call": {"turn_id": self.action.turn_id, "call_id": self.action.call_id, "name": self.action.name},
        }

    def tool_result(self) -> SessionInputToolResult:
        """A ready `agent.session.input.tool_result` with `success: false`, the action's `turn_id` and
        `call_id`, and an `error` naming each failing path and rule. Raises `ToolResultError`
        (`check_passed`) when the check passed: execute the tool and answer with its output instead."""
        if not self.failures:
            raise ToolResultError(
                "check_passed",
                "the check passed: execute the tool and answer with its output",
                turn_id=self.action.turn_id,
                call_id=self.action.call_id,
            )
        return checked_tool_result_adapter.validate_python(
            {
                "type": "agent.session.input.tool_result",
                "turn_id": self.action.turn_id,
                "call_id": self.action.call_id,
                "success": False,
                "error": self.error_message(),
            }
        )


def check_arguments(action: Any, tool: Any, *, registry: Mapping[str, Any] | None = None) -> ArgumentCheck:
    """Check a required `function_call` action against its function tool before executing it.

    `action` is a `FunctionCallAction` or its JSON (`{type: "function_call", turn_id, call_id, name,
    arguments: {...}}`; `arguments` is a JSON object in the Agents API). `tool` is a bare JSON Schema or
    a tool in any shape `replayable.check_tool` accepts (Agents `FunctionTool`, Responses or Chat
    Completions function tool, MCP `{name, inputSchema}`); a tool's name must match the action's
    (else a failure at path `""`, keyword `name`). Arguments nested deeper than
    `replayable.MAX_DEPTH` (64 levels) fail with keyword `too_deep` (and are never handed to the
    validator), values JSON cannot hold with `not_json`. The arguments are checked with jsonschema-rs
    exactly as `replayable.gate` does (`registry`: shared
    schemas for `$ref`, in-process only). Raises `ItemError` when the action is not a valid
    function_call action and `SchemaError` when the tool is in no known shape or its schema is not
    valid or refers outside itself (nothing is ever fetched).
    """
    parsed = parse_required_action(action)
    if not isinstance(parsed, FunctionCallAction):
        raise ItemError(
            [
                {
                    "loc": ("type",),
                    "type": "not_function_call",
                    "msg": f"only function_call actions carry arguments, got {getattr(parsed, 'type', '')!r}",
                }
            ],
            "invalid required action",
        )
    spec = read_tool(tool)
    compile_schema(spec.schema, registry=registry)  # a broken or reaching schema is an error first
    failures: list[SchemaFailure] = []
    if spec.name is not None and spec.name != parsed.name:
        failures.append(SchemaFailure("", "name", f"the action calls {parsed.name!r}, the tool is {spec.name!r}"))
    problem = value_problem(parsed.arguments)
    if problem is not None:
        failures.append(problem)
    else:
        failures.extend(schema_failures(parsed.arguments, spec.schema, registry=registry))
    return ArgumentCheck(parsed, tuple(failures), spec.schema, spec.name)


_RESULT_CODES = {
    "malformed": AgentsViolationCode.MALFORMED_RESULT,
    "response_mismatch": AgentsViolationCode.MALFORMED_RESULT,
    "unknown_call": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "turn_mismatch": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "unknown_request": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "already_answered": AgentsViolationCode.DOUBLE_ANSWER,
}
_ANSWER_TYPES = frozenset(
    {
        "agent.session.input.tool_result",
        "agent.session.input.mcp_approval_request_result",
        "agent.session.input.computer_use_approval_request_result",
    }
)


def _function_tools(session: Any) -> dict[str, Any] | None:
    """The session agent's function tools by name, or None when the snapshot has no agent.

    A trimmed tool without `name` cannot be matched (calls to it are refused as unknown); one without
    `parameters` is kept, and `check_arguments` refuses its calls (no schema to check against)."""
    agent = getattr(session, "agent", None)
    tools = getattr(agent, "tools", None)
    if not isinstance(tools, list):
        return None
    # as plain JSON: every tool reader takes a function tool dict, whatever model class held it
    kinds = FunctionTool | FunctionToolResource | FunctionToolSnapshot
    table: dict[str, Any] = {}
    for tl in tools:
        if isinstance(tl, kinds) and isinstance(tl.name, str):
            # two tools of one name: a call to it is a guess, refused (`duplicate_tool`), never the last one
            table[tl.name] = _AMBIGUOUS if tl.name in table else dump(tl)
    return table


_AMBIGUOUS = object()  # the tool of a name that two function tools of the agent share

#: Why a call answered with `success: true` cannot be judged when no tool is known at all.
_NO_SCHEMA = (
    "no tool schema is known: the log carries no agent tools and none were given (tools=, --tools); "
    "an executed call must be checked against its tool"
)


def _given_tools(tools: Any) -> dict[str, Any]:
    """The function tools given to `check_event_log(tools=...)` by name (`replayable._tools.tool_table`:
    a list of tools in any shape `read_tool` knows, or a name -> tool mapping). Raises `SchemaError`."""
    return dict(tool_table(tools))


class _Log:
    """State of one `check_event_log` pass (one session: the first session id seen)."""

    def __init__(self, tools: dict[str, Any] | None = None) -> None:
        self.violations: list[AgentsViolation] = []
        self.refused: list[AgentsViolation] = []
        self.ledger = PendingActions()
        self.origin: dict[Any, int] = {}  # (turn_id, call_id) or request_id -> index of the requires_action event
        self.where: dict[tuple[str, str], tuple[int, str]] = {}  # call -> (event index, path) of its action
        self.rejected: dict[tuple[str, str], str] = {}  # refused calls -> why
        self.given = tools is not None  # tools passed by the caller: the log's agent tools are not used
        self.tools: dict[str, Any] | None = tools
        self.version = 0  # bumped whenever the known tools change
        self.judged: dict[tuple[str, str], int] = {}  # call -> the tools version it was judged against
        self.session_id: str | None = None
        self.foreign: set[str] = set()  # other sessions' ids already reported (`mixed_sessions`)
        self.duplicates: set[str] = set()  # tool names already reported as shared by two tools

    def same_session(self, i: int, sid: Any) -> bool:
        """Whether an event of session `sid` (None: unnamed) belongs to this log's session; the first
        session id seen is the log's. An event of another session is reported once per session
        (`mixed_sessions`) and never acted on: a tool result names no session, so state kept per session
        could not tell which one it answers."""
        if not isinstance(sid, str):
            return True
        if self.session_id is None:
            self.session_id = sid
        if sid == self.session_id:
            return True
        if sid not in self.foreign:
            self.foreign.add(sid)
            params = {"session_id": sid, "first": self.session_id}
            self.violations.append(AgentsViolation(i, AgentsViolationCode.MIXED_SESSIONS, params=params))
        return False

    def answer(self, i: int, raw: Any) -> None:
        tid = raw.get("turn_id") if isinstance(raw, Mapping) else getattr(raw, "turn_id", None)
        cid = raw.get("call_id") if isinstance(raw, Mapping) else getattr(raw, "call_id", None)
        resent = isinstance(tid, str) and isinstance(cid, str) and self.ledger.is_answered(tid, cid)
        try:
            r = self.ledger.accept(raw, resubmit=True)
        except ToolResultError as exc:
            code = _RESULT_CODES.get(exc.reason, AgentsViolationCode.MALFORMED_RESULT)
            self.violations.append(AgentsViolation(i, code, str(exc)))
            return
        if not isinstance(r, SessionInputToolResult) or resent:
            return  # an approval answer, or the same result resent: nothing new
        key = (r.turn_id, r.call_id)
        if r.success and key not in self.rejected and self.judged.get(key) != self.version:
            # executed: judged against the tools known now, even when none were known at the action
            action = self.ledger.call(*key)
            if action is not None:
                at, path = self.where.get(key, (i, ""))
                self.judge_call(at, action, path, final=True)
        why = self.rejected.get(key)
        if r.success and why is not None:
            self.violations.append(
                AgentsViolation(
                    i, AgentsViolationCode.EXECUTED_REJECTED_CALL, params={"call_id": r.call_id, "why": why}
                )
            )

    def session(self, i: int, session: Any) -> None:
        if not self.same_session(i, getattr(session, "id", None)):
            return  # another session's snapshot changes nothing of this session
        tools = None if self.given else _function_tools(session)
        if tools is not None and tools != self.tools:
            self.tools = tools
            self.version += 1
            for call, (at, path) in self.where.items():  # calls waiting for tools: judged now
                action = self.ledger.call(*call)
                if call not in self.judged and action is not None and not self.ledger.is_answered(*call):
                    self.judge_call(at, action, path)
        for n, name in duplicate_tool_names(session):
            if name not in self.duplicates:
                self.duplicates.add(name)
                self.violations.append(
                    AgentsViolation(
                        i,
                        AgentsViolationCode.DUPLICATE_TOOL,
                        None,
                        f"/session/agent/tools/{n}/name",
                        params={"name": name},
                    )
                )
        actions = getattr(session, "required_actions", None)
        actions = actions if isinstance(actions, list) else []
        for n, a in enumerate(actions):
            key = (a.turn_id, a.call_id) if isinstance(a, FunctionCallAction) else getattr(a, "request_id", None)
            if isinstance(a, FunctionCallAction) and key in self.origin:
                why = self.ledger.conflict(a)
                if why is not None:
                    self.rejected.setdefault(
                        (a.turn_id, a.call_id), why
                    )  # which call a result answers is a guess: never run it
                    self.violations.append(
                        AgentsViolation(i, AgentsViolationCode.ACTION_CONFLICT, why, f"/session/required_actions/{n}")
                    )
                continue
            if key is None or key in self.origin or is_unknown(a) or a.type == "environment_connection":
                continue
            self.origin[key] = i
            self.ledger.add([a])
            if isinstance(a, FunctionCallAction):
                self.where[(a.turn_id, a.call_id)] = (i, f"/session/required_actions/{n}")
                if self.tools is not None:
                    self.judge_call(i, a, f"/session/required_actions/{n}")

    def judge_call(self, i: int, a: FunctionCallAction, path: str, *, final: bool = False) -> None:
        """Check a required call against the tools known now; a refusal is a warning (`refused`), a
        violation only once the call is run anyway. With no tool known at all, the call is refused only
        when it is run (`final`): tools may still arrive before its answer."""
        key = (a.turn_id, a.call_id)
        self.judged[key] = self.version
        if self.tools is None:
            if final:
                params = {"name": a.name, "detail": _NO_SCHEMA, "variant": "unusable"}
                self.refuse(key, AgentsViolation(i, AgentsViolationCode.ARGUMENTS_SCHEMA, None, path, params=params))
            return
        tool = self.tools.get(a.name)
        if tool is _AMBIGUOUS or tool is None:
            variant = "shared" if tool is _AMBIGUOUS else ""
            params = {"call_id": a.call_id, "name": a.name, "variant": variant}
            self.refuse(key, AgentsViolation(i, AgentsViolationCode.UNKNOWN_TOOL, None, path, params=params))
            return
        try:
            if isinstance(tool, ValueError):  # a given tool that cannot be read (`tool_table`)
                raise tool
            if isinstance(tool, ToolSpec):
                tool = tool.schema
            elif "parameters" not in tool:  # a trimmed snapshot tool: no schema to check against
                raise ValueError("the session snapshot gives the tool without `parameters`")
            chk = check_arguments(a, tool)
        except ValueError as exc:
            params = {"name": a.name, "detail": str(exc), "variant": "unusable"}
            self.refuse(key, AgentsViolation(i, AgentsViolationCode.ARGUMENTS_SCHEMA, None, path, params=params))
            return
        if not chk.execute:
            params = {"detail": chk.error_message()}
            self.refuse(
                key, AgentsViolation(i, AgentsViolationCode.ARGUMENTS_SCHEMA, None, path + "/arguments", params=params)
            )

    def refuse(self, key: tuple[str, str], finding: AgentsViolation) -> None:
        """Record a call refused before execution (a warning: a violation only once it is run anyway)."""
        self.rejected[key] = finding.message
        self.refused.append(finding)


def _recognised(t: Any) -> bool:
    return isinstance(t, str) and (t in KNOWN_EVENT_TYPES or t.startswith("agent."))


def check_event_log(events: Iterable[Any], *, tools: Any = None) -> AgentsReport:
    """Check an Agents API event log of one session: server events and the client's input events, in order.

    Reports (`AgentsViolationCode`): events that do not parse, malformed tool results and approval
    answers (including answers that do not fit their request), answers whose (turn_id, call_id) pair or
    request_id is not pending, a second *different* answer for one action (resending the same answer
    is fine), required function calls and approval requests left unanswered at the end, and
    `success: true` answers to calls that `check_arguments` refused against the tool schemas of the
    session's agent, two function tools of the agent with one name (`duplicate_tool`; calls to that
    name are refused), and a later required function_call that reuses a (turn_id, call_id) with
    another name or other arguments (`action_conflict`; the same action listed again is fine). A
    refused call answered with `success: false` is the safe outcome: it is listed in `refused`, never
    as a violation.

    A call answered with `success: true` is judged against the tools known when the answer arrives
    (the agent's tools of the latest session snapshot that carries them, even when the requires_action
    snapshot was trimmed), and when no tool is known at all it is an `executed_rejected_call` (nothing
    could check it, as `gate(call)` refuses with `no_schema`). `tools`: the function tools the host
    runs (a list of tools in any shape `replayable.check_tool` accepts, or a name -> tool mapping);
    given, every call is judged against them and the log's agent tools are not used.

    The log is one session's: the first session id seen (a snapshot's `id`, an event's `session_id`)
    is the log's; an event of another session is a `mixed_sessions` violation (once per session) and
    is not acted on, since a tool result names no session. Every event is read by `parse_event` (a
    session snapshot may be trimmed: `parse_session_snapshot`). Unknown event types are listed in
    `unknown_events` and never acted on (a session inside one changes nothing); a log with events but
    no Agents API event at all is not `ok` (`nothing_recognised`). Never raises on bad events; raises
    `ItemError` only when `events` is not a list of events, `SchemaError` when `tools` is not a
    collection of tools.
    """
    if isinstance(events, Mapping | str | bytes | bytearray) or not isinstance(events, Iterable):
        got = "null" if events is None else type(events).__name__
        raise ItemError(
            [{"loc": (), "type": "list_type", "msg": f"events must be a list of events, got {got}"}], "invalid events"
        )
    log = _Log(None if tools is None else _given_tools(tools))
    unknown: list[int] = []
    recognised = 0
    notes: list[Note] = []
    seen_notes: set[tuple[str, str]] = set()
    n = 0
    for i, raw in enumerate(events):
        n = i + 1
        try:
            raw = plain_value(raw)
        except ItemError as exc:
            log.violations.append(
                AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, str(exc).splitlines()[-1].strip())
            )
            continue
        t = raw.get("type") if isinstance(raw, Mapping) else getattr(raw, "type", None)
        recognised += _recognised(t)
        if isinstance(t, str) and t.startswith("agent.session.input."):
            if t in _ANSWER_TYPES:
                log.answer(i, raw)
                continue
            try:
                parse_input(raw)
            except ItemError as exc:
                log.violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc)))
            continue
        try:
            ev = parse_event(raw)
            session = session_of(ev) if isinstance(t, str) and t.startswith("agent.session.") else None
        except ItemError as exc:
            path = "/session" if exc.errors and exc.errors[0]["loc"][:1] == ("session",) else ""
            log.violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc), path))
            continue
        if is_unknown(ev):
            unknown.append(i)  # kept verbatim, never acted on (`session_of` gives None)
            continue
        if not log.same_session(i, getattr(ev, "session_id", None)):
            continue
        if session is not None:
            log.session(i, session)
            for note in agent_notes(getattr(session, "agent", None) and dump(session.agent), "/session/agent", i):
                if (note.code, note.message) not in seen_notes:  # once per session, not once per event
                    seen_notes.add((note.code, note.message))
                    notes.append(note)
    pending: list[tuple[int, Any]] = [(log.origin[(a.turn_id, a.call_id)], a) for a in log.ledger.pending]
    pending += [(log.origin[a.request_id], a) for a in log.ledger.pending_approvals]
    pending.sort(key=lambda p: p[0])
    violations = log.violations
    for idx, a in pending:
        params = (
            {"call_id": a.call_id, "name": a.name, "turn_id": a.turn_id}
            if isinstance(a, FunctionCallAction)
            else {"type": a.type, "request_id": a.request_id, "turn_id": a.turn_id, "variant": "approval"}
        )
        violations.append(AgentsViolation(idx, AgentsViolationCode.UNANSWERED_ACTION, params=params))
    return AgentsReport(
        tuple(violations),
        tuple(unknown),
        log.session_id,
        n,
        tuple(pending),
        tuple(sorted(log.refused, key=lambda f: f.index if f.index is not None else -1)),
        recognised,
        tuple(notes),
    )


def session_notes(value: Any) -> list[Note]:
    """Notes (advice, not violations; `replayable.Note`) about a session, a session create body or a
    session update body, as JSON, JSON text or a model: `subagents_without_function_tools` when its
    `agent` enables `multi_agent` and has function tools (subagents do not get them; the doors and IDs
    articles), `deferred_without_tool_search` for a deferred function tool with no `tool_search` tool,
    `text_format_not_applied` for a Responses-style `agent.text.format`.
    Paths point into `value` (`/agent/multi_agent`). Raises `ItemError` when `value` is not a JSON object."""
    data = plain_value(value)
    data = dump(data)
    if not isinstance(data, Mapping):
        got = "null" if data is None else type(data).__name__
        raise ItemError([{"loc": (), "type": "object_type", "msg": f"a session or body is a JSON object, got {got}"}])
    return agent_notes(data.get("agent"), "/agent")


def _first(exc: ItemError) -> str:
    errs = exc.errors
    if errs:
        e = errs[0]
        where = ".".join(map(str, e["loc"])) or "event"
        return f"{where}: {e['msg']} [{e['type']}]"
    return str(exc).splitlines()[0]
