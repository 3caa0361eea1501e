"""Checks of OpenAI Agents API sessions: `check_arguments` (a required function call against its tool,
before it runs) and `check_event_log` (the rules over a whole event log). Part of `replayable.agents`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from replayable._generated.agents.function_call_action import FunctionCallAction
from replayable._generated.agents.function_tool import FunctionTool
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable.arguments import SchemaFailure, schema_failures
from replayable.items import ItemError

from .events import ToolResultError, _parse_action, _plain, _tool_result_adapter, is_unknown, parse_event, parse_input
from .ledger import PendingActions, _actions_of
from .report import AgentsReport, AgentsViolation, AgentsViolationCode


@dataclass(frozen=True, slots=True)
class ArgumentCheck:
    """The result of `check_arguments`.

    `execute` (also `passed`) is true only when the action's name matches the tool and its arguments
    pass the tool's `parameters`; `failures` lists each failure as a `SchemaFailure` (JSON Pointer
    `path` of the offending value and the failing JSON Schema `keyword`, e.g. `/refund`
    `additionalProperties`; a name mismatch is path `""`, keyword `name`).
    """

    action: FunctionCallAction
    failures: tuple[SchemaFailure, ...]

    @property
    def execute(self) -> bool:
        """Whether the tool may be executed."""
        return not self.failures

    @property
    def passed(self) -> bool:
        """Same as `execute`."""
        return not self.failures

    def error_message(self) -> str:
        """A readable message naming each failing path and rule (empty when the check passed)."""
        if not self.failures:
            return ""
        parts = [
            f"{f.path or '/'} ({f.keyword}): {f.message}" if f.message else f"{f.path or '/'} ({f.keyword})"
            for f in self.failures
        ]
        return f"arguments for {self.action.name!r} were rejected before execution: " + "; ".join(parts)

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
        return _tool_result_adapter.validate_python(
            {
                "type": "agent.session.input.tool_result",
                "turn_id": self.action.turn_id,
                "call_id": self.action.call_id,
                "success": False,
                "error": self.error_message(),
            }
        )


def _tool_parts(tool: Any) -> tuple[str | None, Any]:
    tool = _plain(tool)
    if isinstance(tool, FunctionTool):
        return tool.name, tool.parameters
    if isinstance(tool, Mapping):
        if "parameters" in tool or tool.get("type") == "function":
            name = tool.get("name")
            return (name if isinstance(name, str) else None), tool.get("parameters", {})
        return None, tool  # a bare JSON Schema
    if isinstance(tool, bool):
        return None, tool
    raise ItemError(
        [
            {
                "loc": (),
                "type": "tool_type",
                "msg": f"a tool must be a function tool object or a JSON Schema, got {type(tool).__name__}",
            }
        ],
        "invalid tool",
    )


def check_arguments(action: Any, tool: Any) -> ArgumentCheck:
    """Check a required `function_call` action against its function tool before executing it.

    `action` is a `FunctionCallAction` or its JSON (`{type: "function_call", turn_id, call_id, name,
    arguments: {...}}`; `arguments` is a JSON object in the Agents API). `tool` is a function tool
    (`{type: "function", name, parameters, ...}`, a `FunctionTool`) or a bare JSON Schema. The
    arguments are checked with jsonschema-rs through `replayable.arguments.schema_failures`, exactly as
    `replayable.gate` does. Raises `ItemError` when the action is not a valid function_call action and
    `SchemaError` when the tool's schema is not valid JSON Schema.
    """
    parsed = _parse_action(action)
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
    name, schema = _tool_parts(tool)
    failures: list[SchemaFailure] = []
    if name is not None and name != parsed.name:
        failures.append(SchemaFailure("", "name", f"the action calls {parsed.name!r}, the tool is {name!r}"))
    failures.extend(schema_failures(parsed.arguments, schema))
    return ArgumentCheck(parsed, tuple(failures))


_RESULT_CODES = {
    "malformed": AgentsViolationCode.MALFORMED_RESULT,
    "unknown_call": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "turn_mismatch": AgentsViolationCode.RESULT_WITHOUT_ACTION,
    "already_answered": AgentsViolationCode.DOUBLE_ANSWER,
}


def check_event_log(events: Iterable[Any]) -> AgentsReport:
    """Check an Agents API event log: server events and the client's input events, in order.

    Reports (`AgentsViolationCode`): events that do not parse, malformed tool results, results for a
    (turn_id, call_id) pair that is not pending, double answers, required function calls left
    unanswered at the end, and required calls whose arguments fail the tool schemas of the session's
    agent (or name no tool), plus `success: true` answers to such calls. A requires_action event's
    session is read leniently (only `required_actions` is needed). Unknown event types are listed in
    `unknown_events`, not acted on. Never raises on bad events.
    """
    violations: list[AgentsViolation] = []
    unknown: list[int] = []
    ledger = PendingActions()
    origin: dict[tuple[str, str], int] = {}
    rejected: set[tuple[str, str]] = set()
    tools: dict[str, Any] | None = None
    session_id: str | None = None
    n = 0
    for i, raw in enumerate(events):
        n = i + 1
        try:
            raw = _plain(raw)
        except ItemError as exc:
            violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, str(exc).splitlines()[-1].strip()))
            continue
        t = raw.get("type") if isinstance(raw, Mapping) else None
        if isinstance(t, str) and t.startswith("agent.session.input."):
            if t != "agent.session.input.tool_result":
                try:
                    parse_input(raw)
                except ItemError as exc:
                    violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc)))
                continue
            try:
                r = ledger.accept(raw)
            except ToolResultError as exc:
                violations.append(
                    AgentsViolation(i, _RESULT_CODES.get(exc.reason, AgentsViolationCode.MALFORMED_RESULT), str(exc))
                )
                continue
            key = (r.turn_id, r.call_id)
            if r.success and key in rejected:
                violations.append(
                    AgentsViolation(
                        i,
                        AgentsViolationCode.EXECUTED_REJECTED_CALL,
                        f"call {r.call_id!r} failed its tool schema but was answered with success: true",
                    )
                )
            continue
        session: Any = raw.get("session") if isinstance(raw, Mapping) else None
        if t == "agent.session.requires_action" or (
            isinstance(t, str) and t.startswith("agent.session.") and isinstance(session, Mapping)
        ):
            # lenient: a partial session still gives its required_actions
            if isinstance(session, Mapping):
                sid = session.get("id")
                session_id = sid if isinstance(sid, str) else session_id
                agent = session.get("agent")
                if isinstance(agent, Mapping) and isinstance(agent.get("tools"), list):
                    tools = {
                        tl["name"]: tl
                        for tl in agent["tools"]
                        if isinstance(tl, Mapping) and tl.get("type") == "function" and isinstance(tl.get("name"), str)
                    }
            try:
                actions = _actions_of(session, "the event's session")
            except ItemError as exc:
                violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc), "/session"))
                continue
            new = [a for a in actions if isinstance(a, FunctionCallAction) and (a.turn_id, a.call_id) not in origin]
            ledger.add(new)
            for a in new:
                key = (a.turn_id, a.call_id)
                origin[key] = i
                path = f"/session/required_actions/{actions.index(a)}"
                if tools is None:
                    continue
                tool = tools.get(a.name)
                if tool is None:
                    rejected.add(key)
                    violations.append(
                        AgentsViolation(
                            i,
                            AgentsViolationCode.UNKNOWN_TOOL,
                            f"call {a.call_id!r} names {a.name!r}, which is not a function tool of the agent",
                            path,
                        )
                    )
                    continue
                try:
                    chk = check_arguments(a, tool)
                except ValueError as exc:
                    violations.append(
                        AgentsViolation(i, AgentsViolationCode.ARGUMENTS_SCHEMA, f"tool {a.name!r}: {exc}", path)
                    )
                    continue
                if not chk.execute:
                    rejected.add(key)
                    violations.append(
                        AgentsViolation(
                            i, AgentsViolationCode.ARGUMENTS_SCHEMA, chk.error_message(), path + "/arguments"
                        )
                    )
            continue
        try:
            ev = parse_event(raw)
        except ItemError as exc:
            violations.append(AgentsViolation(i, AgentsViolationCode.EVENT_INVALID, _first(exc)))
            continue
        if is_unknown(ev):
            unknown.append(i)
        sid = getattr(ev, "session_id", None)
        if session_id is None and isinstance(sid, str):
            session_id = sid
    pending = tuple((origin[(a.turn_id, a.call_id)], a) for a in ledger.pending)
    for idx, a in pending:
        violations.append(
            AgentsViolation(
                idx,
                AgentsViolationCode.UNANSWERED_ACTION,
                f"call {a.call_id!r} ({a.name!r}, turn {a.turn_id!r}) was never answered",
            )
        )
    return AgentsReport(tuple(violations), tuple(unknown), session_id, n, pending)


def _first(exc: ItemError) -> str:
    errs = exc.errors
    if errs:
        e = errs[0]
        where = ".".join(map(str, e["loc"])) or "event"
        return f"{where}: {e['msg']} [{e['type']}]"
    return str(exc).splitlines()[0]
