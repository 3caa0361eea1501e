"""Rules that a function call's tool adds: the name is allowed and declared, and the arguments are a strict
JSON object that passes the tool's `parameters` (the status rule of `gate` does not apply here: status is
judged by `replayable._rules.call_rules.finished_call`). Registered in `replayable._rules.table.RULES`."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from operator import itemgetter
from typing import Any

from replayable._arguments import (
    MAX_DEPTH,
    ArgumentsError,
    SchemaError,
    json_syntax_error,
    object_failure,
    parse_arguments,
    schema_failures,
)
from replayable._codes import ViolationCode
from replayable._findings import Finding
from replayable._json import reads_cleanly
from replayable._rules.state import Context, Facts, found
from replayable._rules.view import View, field

__all__ = ["allowed_tool", "arguments_fit_tool", "arguments_possible", "called_name"]


def called_name(v: View) -> Any:
    """The name a call calls its tool by: its `name`, or `namespace.name` when it names a tool inside a
    `namespace` tool (OpenAI's `namespace` field). Tools are known by their top-level names only, so a
    call into a namespace never matches a top-level tool of the same name (it would be checked against
    another tool's schema than the one that runs): it is an unknown tool, and not an allowed one. A
    namespace equal to the name is the top-level tool itself (OpenAI sends a deferred function tool
    loaded by `tool_search` so: `{"name": "get_weather", "namespace": "get_weather"}`)."""
    name = field(v, "name")
    namespace = field(v, "namespace")
    if namespace is None or namespace == name or not isinstance(name, str):
        return name
    return f"{namespace if isinstance(namespace, str) else repr(namespace)}.{name}"


def allowed_tool(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`tool_not_allowed` (with `allowed_tools`): a call to a tool outside the allowed names."""
    allowed = ctx.allowed
    if allowed is None:
        return ()
    name = called_name(item.view)
    if isinstance(name, str) and name not in allowed:
        listed = ", ".join(sorted(allowed)) or "none"
        return (found(item.index, ViolationCode.TOOL_NOT_ALLOWED, "/name", name=name, listed=listed),)
    return ()


def arguments_possible(ctx: Context, vtype: str, views: list[View]) -> bool:
    """The sweep of `arguments_fit_tool` (`replayable._rules.table.Rule.sweep`) over finished calls: without
    `tools`, whether any call's arguments may not be a strict JSON object. No when every string of
    arguments starts with `{` and reads cleanly (`reads_cleanly`, the rule's own short way), told without
    asking the rule of each call; with `tools`, each call is asked. `views`: dicts (`Rule.sweep`)."""
    if ctx.tool_params is not None:
        return True
    values: list[Any] = list(map(dict.get, views, repeat("arguments")))  # type: ignore[arg-type]
    # arguments of another type are not this rule's; a text sent by many calls is read once (an unhashable
    # value, a list read from JSON, makes the engine ask the rule of each call)
    texts: set[str] = {text for text in set(values) if type(text) is str}
    if not all(map(reads_cleanly, texts, repeat(MAX_DEPTH))):
        return True
    return bool(texts) and not set(map(itemgetter(0), texts)) <= {"{"}


def arguments_fit_tool(ctx: Context, item: Facts) -> Iterable[Finding]:
    """`unknown_tool`, `arguments_parse`, `arguments_schema`, `invalid_tool`: with `tools`, the call names a
    declared tool and its arguments pass its schema; without them, a finished call's arguments are still a
    strict JSON object (a call whose arguments are not could not have run)."""
    tool_params, v, i = ctx.tool_params, item.view, item.index
    if tool_params is None:
        arguments = v.get("arguments")
        if type(arguments) is str and item.finished:
            why = json_syntax_error(arguments)
            if why is not None:
                return (found(i, ViolationCode.ARGUMENTS_PARSE, "/arguments", detail=why),)
            if arguments.lstrip(" \t\r\n")[:1] != "{":
                return (found(i, ViolationCode.ARGUMENTS_SCHEMA, "/arguments", variant="not_object"),)
        return ()
    name = called_name(v)
    if not isinstance(name, str):
        return ()
    if name not in tool_params:
        return (found(i, ViolationCode.UNKNOWN_TOOL, "/name", name=name),)
    arguments = v.get("arguments")
    if not isinstance(arguments, str):
        return ()  # reported as function_arguments_not_string by the item's own validation
    try:
        value = parse_arguments(arguments)
    except ArgumentsError as exc:
        return (found(i, ViolationCode.ARGUMENTS_PARSE, "/arguments", detail=str(exc)),)
    spec = tool_params[name]
    if isinstance(spec, SchemaError):
        return (found(i, ViolationCode.INVALID_TOOL, "/name", name=name, detail=str(spec), variant="unusable"),)
    try:
        failures = schema_failures(value, spec.schema, registry=ctx.registry)
    except SchemaError as exc:
        return (found(i, ViolationCode.INVALID_TOOL, "/name", name=name, detail=str(exc), variant="schema"),)
    not_object = object_failure(value)
    if not_object is not None:
        failures = [not_object]
    code = ViolationCode.ARGUMENTS_SCHEMA
    return [
        found(i, code, "/arguments" + f.path, at=f.path or "/", keyword=f.keyword, detail=f.message) for f in failures
    ]
