"""`gate`: decide whether one function call may be executed (Open Responses 2026-04-24, "Tool calling").

The call is read once, at the boundary, into plain JSON values (a dict of `str`/`int`/`float`/`bool`/
`None`/lists/dicts): a parsed model is dumped with no coercion and that copy is checked (a model changed
by `model_copy(update=...)` or built with `model_construct` gets the verdict its JSON would get); a `str`
subclass or a `Mapping` is copied by the base class's own reading, so a value that answers differently
each time it is read cannot pass one check and fail the next. The tool, or the tool collection, is read
once too: its validator is compiled from the same snapshot the cache remembers, so a tool changed by
another thread during a call never pairs its new schema with its old validator.

Spec rules: only a completed `function_call` runs; `arguments` is a JSON string holding a JSON object;
the tool named by the call must be one the request declares (and allows).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple, NotRequired

from pydantic import BaseModel, ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict

from ._arguments import (
    CACHE_SIZE,
    ArgumentsError,
    SchemaError,
    SchemaFailure,
    compile_schema,
    exact_copy,
    object_failure,
    parse_arguments,
    validator_failures,
    validator_passes,
)
from ._base import read_field
from ._families import by_call_type, program_call_waiting
from ._generated.open_responses.function_call_param import FunctionCallParam
from ._json import MAX_ITEM_DEPTH, READER_DEPTH, JSONError, check_value, printable, to_plain
from ._tools import ToolSpec, is_tool_collection, read_tool, tool_json, tool_table
from .errors import Verdict
from .items import ItemError, parse_item

__all__ = ["GateReason", "GateResult", "allowed_tool_names", "gate", "program_ids"]

_FUNCTION = by_call_type["function_call"]


class GateReason(StrEnum):
    """Why `gate` allowed or refused a call, in the order the checks run."""

    OK = "ok"
    """A completed function call whose arguments are strict JSON and pass the tool's schema."""
    NAMESPACED = "namespaced"
    """`type` is `slug:name` (or not a string): a provider item, never executed by us."""
    NOT_FUNCTION_CALL = "not_function_call"
    """Not a `function_call` item."""
    STATUS = "status"
    """`status` is not `completed` (still streaming, cut off, or absent)."""
    ARGUMENTS_TYPE = "arguments_type"
    """`arguments` is not a string."""
    ITEM_INVALID = "item_invalid"
    """The call is not a valid `function_call` item in its input form (no `call_id`, an empty or
    over-long `call_id`, a `name` that is not a valid function name, a value JSON has no form for, a
    model that cannot be dumped, ...): it could not be answered."""
    NOT_ALLOWED = "not_allowed"
    """`allowed_tools` was given and the call names a tool outside it: declared is not permitted."""
    UNKNOWN_TOOL = "unknown_tool"
    """A tool collection (a list, or a name -> tool mapping) was given and declares no function tool of
    the call's name: an app that looks its tool up and finds nothing never runs the call."""
    NO_SCHEMA = "no_schema"
    """No tool was given (`None`): nothing to check the arguments against. Pass `{}` to say "any JSON
    object" explicitly."""
    NAME = "name"
    """The call names another tool than the one given (a whole tool was passed, with its name)."""
    ARGUMENTS_PARSE = "arguments_parse"
    """`arguments` is not strict JSON (duplicate keys, NaN, too deep, truncated, ...)."""
    ARGUMENTS_SCHEMA = "arguments_schema"
    """The parsed arguments are not a JSON object (path `""`, keyword `type`) or fail the tool's JSON
    Schema; see `failures`."""


class GateResult(Verdict):
    """The verdict of `gate` (treat it as read-only).

    `reason` is a `GateReason`; `ok` is true only for `GateReason.OK`, the one verdict that allows
    executing the tool and appending a `function_call_output`. `failures` lists each schema failure as
    (JSON Pointer path, keyword, message); `arguments` holds the parsed arguments once they parsed;
    `message` explains a refusal.

    A refusal for the schema (`arguments_schema`) is decided when the call is gated; its `failures` are
    listed on first access (from the call's own arguments text, read again: changing `arguments` in
    place does not change them), so a gate that only needs the verdict never pays for the messages.
    """

    __slots__ = ("_failures", "_pending", "arguments", "detail", "reason")
    __match_args__ = ("reason", "failures", "arguments", "detail")

    reason: GateReason
    arguments: Any
    detail: str

    def __init__(
        self, reason: GateReason, failures: tuple[SchemaFailure, ...] = (), arguments: Any = None, detail: str = ""
    ) -> None:
        self.reason = reason
        self._failures: tuple[SchemaFailure, ...] | None = failures
        self._pending: tuple[Any, str] | None = None
        self.arguments = arguments
        self.detail = detail if detail.isascii() else printable(detail)  # it may quote the item: never a lone surrogate

    @classmethod
    def _schema_refusal(cls, arguments: Any, validator: Any, text: str) -> GateResult:
        """`arguments_schema` for arguments (read from `text`) that `validator` refuses; the failures are
        listed on first access."""
        result = cls(GateReason.ARGUMENTS_SCHEMA, (), arguments)
        result._failures, result._pending = None, (validator, text)
        return result

    @property
    def failures(self) -> tuple[SchemaFailure, ...]:
        failures = self._failures
        if failures is None:
            validator, text = self._pending  # type: ignore[misc]
            # the text read at gate time, read again (at the reader's own depth limit: a depth setting
            # changed since then cannot make it fail; a limit only refuses, it never changes the value)
            value = parse_arguments(text, max_depth=READER_DEPTH)
            failures = self._failures = tuple(validator_failures(validator, value))
            self._pending = None
        return failures

    @failures.setter
    def failures(self, value: tuple[SchemaFailure, ...]) -> None:
        self._failures, self._pending = value, None

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        o: GateResult = other
        return (self.reason, self.failures, self.arguments, self.detail) == (
            o.reason,
            o.failures,
            o.arguments,
            o.detail,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value (as the dataclass it was)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(reason={self.reason!r}, failures={self.failures!r}, "
            f"arguments={self.arguments!r}, detail={self.detail!r})"
        )

    def __reduce__(self) -> Any:
        return (type(self), (self.reason, self.failures, self.arguments, self.detail))

    @property
    def ok(self) -> bool:
        return self.reason is GateReason.OK

    @property
    def message(self) -> str:
        """A readable explanation (empty for `ok`)."""
        if self.failures:
            return "; ".join(f"{f.path or '/'} fails {f.keyword}: {f.message}" for f in self.failures)
        return self.detail

    def __bool__(self) -> bool:
        return self.ok

    def violation_lines(self) -> list[str]:
        """The refusal as one line per failure (`reason: path (keyword): message`), or `reason: message`,
        as `ReplayError` prints it (`gate(...).raise_for_violations()`)."""
        if self.failures:
            return [f"{self.reason}: {f.path or '/'} ({f.keyword}): {f.message}" for f in self.failures]
        return [f"{self.reason}: {self.detail}" if self.detail else str(self.reason)]


# --- reading the call once --------------------------------------------------------------------------


def _read_call(item: Any) -> tuple[dict[str, Any] | None, str]:
    """The item as a plain JSON object read once, or (None, why not). Only refusals read the original."""
    if type(item) is dict:
        for key, value in item.items():  # the common case: flat, exact types, nothing to copy
            if type(key) is not str or (type(value) is not str and value is not None):
                break
        else:
            return item, ""
    elif isinstance(item, BaseModel):
        try:
            item = to_plain(item)
        except JSONError as exc:
            return None, exc.detail
    elif not isinstance(item, Mapping):
        return None, ""
    try:
        plain = check_value(item, what="item", max_depth=MAX_ITEM_DEPTH)
    except JSONError as exc:
        return None, exc.detail
    return (plain, "") if type(plain) is dict else (None, "")


def _get(item: Any, name: str) -> Any:
    """A field of an item that did not read as plain JSON (only to choose which refusal to give)."""
    try:
        return read_field(item, name) if isinstance(item, Mapping | BaseModel) else None
    except Exception:  # a Mapping that fails while read: refused all the same
        return None


def _call_problem(item: dict[str, Any]) -> str | None:
    """Why `item` (a plain JSON object already known to be a completed `function_call` with string
    arguments) is not a valid function_call item in its input form (the form it is answered and
    replayed in), or None."""
    if _CALL_FIELDS.issuperset(item):  # hot path: the model's fields, no model
        # Accepted here only when every value is a plain `str` without a lone surrogate (or None) and
        # the strict fields check says yes; anything else takes the parser below for its verdict and
        # its precise error (tests/rules/test_gate_fast_paths.py proves the two agree).
        for value in item.values():
            if type(value) is str:
                if value.isascii() or not _SURROGATE.search(value):
                    continue
            elif value is None:
                continue
            break
        else:
            try:
                (_CALL_FIELDS_CHECK or _call_fields_check())(item)
                return None
            except ValueError:
                pass
    try:
        parse_item(item, side="input")
    except ItemError as exc:
        return str(exc)
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")  # a lone surrogate: the parser gives the precise error
_CALL_FIELDS = frozenset(FunctionCallParam.model_fields)
# The input-form function_call's fields `gate` has not checked yet (`type`, `status` and `arguments`
# it has), with their types from the generated model (the one home of the rules) and the model's
# value settings (`strict`: no bytes for a string), validated as a TypedDict: the same verdict as the
# model without building one. Built on the first `gate` (a schema built at import costs the import).
_CALL_FIELDS_CHECK: Any = None


def _call_fields_check() -> Any:
    global _CALL_FIELDS_CHECK
    adapter: TypeAdapter[Any] = TypeAdapter(
        with_config(
            ConfigDict(
                **{k: v for k, v in FunctionCallParam.model_config.items() if k == "strict" or k.startswith("str_")}  # type: ignore[typeddict-item]
            )
        )(
            TypedDict(  # type: ignore[operator]
                "_CallFields",
                {
                    k: (f.rebuild_annotation() if f.is_required() else NotRequired[f.rebuild_annotation()])
                    for k, f in FunctionCallParam.model_fields.items()
                    if k not in ("type", "status", "arguments")
                },
            )
        )
    )
    _CALL_FIELDS_CHECK = adapter.validator.validate_python
    return _CALL_FIELDS_CHECK


# --- reading the tools once -------------------------------------------------------------------------


class _Tool(NamedTuple):
    """One tool as the gate uses it: its name (None for a bare schema) and compiled validator."""

    name: str | None
    validator: Any


class _Tools(NamedTuple):
    """A tool collection: name -> the tool (or why it cannot be used)."""

    by_name: dict[str, _Tool | SchemaError]


# The tool arguments `gate` saw last: id -> (the argument, an exact copy of the snapshot it was read from,
# what was read). A hit needs the argument to equal that copy now (see `replayable._arguments.exact_copy`):
# content decides, never identity; and the copy and the validators come from one snapshot.
_GATE_TOOLS: dict[int, tuple[Any, Any, _Tool | _Tools]] = {}


def _snapshot(tool: Any) -> Any:
    """A deep copy of a JSON tool argument taken once (None when it is not strict JSON: it is then read
    directly, and its reader names what is wrong)."""
    try:
        check_value(tool, what="tool", max_depth=MAX_ITEM_DEPTH, count_values=False)
        return json.loads(json.dumps(tool, allow_nan=False))
    except (JSONError, TypeError, ValueError, RecursionError):
        return None


def _compile(spec: ToolSpec, registry: Mapping[str, Any] | None) -> _Tool:
    return _Tool(spec.name, compile_schema(spec.schema, registry=registry))


def _read_tools(arg: Any, registry: Mapping[str, Any] | None) -> _Tool | _Tools:
    """The tool or tool collection `gate` was given, read from one snapshot. Raises `SchemaError`
    (a single tool in no known shape or with a bad schema) and `ValueError` (two tools of one name)."""
    if not is_tool_collection(arg):
        return _compile(read_tool(arg), registry)
    table = tool_table(arg)
    by_name: dict[str, _Tool | SchemaError] = {}
    for name, spec in table.items():
        if isinstance(spec, SchemaError):
            by_name[name] = spec
            continue
        try:
            by_name[name] = _compile(spec, registry)
        except SchemaError as exc:  # refused when a call names it, not for the other tools' calls
            by_name[name] = exc
    return _Tools(by_name)


def _gate_tools(arg: Any, registry: Mapping[str, Any] | None) -> _Tool | _Tools:
    if registry is None:
        seen = _GATE_TOOLS.get(id(arg))
        if seen is not None and seen[0] is arg and seen[1] == arg:
            return seen[2]
    if type(arg) is dict or type(arg) is list:
        snap = _snapshot(arg)
        if snap is not None:
            read = _read_tools(snap, registry)
            if registry is None:
                copy = exact_copy(snap)
                if copy is not None:
                    if len(_GATE_TOOLS) >= CACHE_SIZE:
                        _GATE_TOOLS.clear()
                    _GATE_TOOLS[id(arg)] = (arg, copy, read)
            return read
    if isinstance(arg, list | tuple):
        arg = [tool_json(t) for t in arg]
    elif not isinstance(arg, Mapping | bool):
        arg = tool_json(arg)
    return _read_tools(arg, registry)


def program_ids(programs: Any) -> frozenset[str]:
    """The `call_id`s of the `program` items `programs` holds (items in any form, or `call_id` strings);
    empty for None. Raises `ValueError` for `programs` that is not a collection (a string, a number)."""
    if programs is None:
        return frozenset()
    if isinstance(programs, str | bytes | Mapping) or not isinstance(programs, Iterable):
        raise ValueError(f"programs must be a collection of program items or call_ids, got {type(programs).__name__}")
    ids: set[str] = set()
    for p in programs:
        if isinstance(p, str):
            ids.add(p)
        elif _get(p, "type") in ("program", "openai:program") and isinstance(cid := _get(p, "call_id"), str):
            ids.add(cid)
    return frozenset(ids)


def allowed_tool_names(allowed_tools: Any) -> frozenset[str] | None:
    """The names `allowed_tools` permits: `None` (no limit) stays `None`; a collection of names; or a
    request's `tool_choice` of type `allowed_tools` (`{"type": "allowed_tools", "mode", "tools":
    [{"type": "function", "name"}, ...]}`, a dict or a model), whose function entries name the tools
    (hosted entries are not function calls); with `mode: "none"` nothing may be called. Raises
    `SchemaError` for a string (which would read as its
    letters), a non-name, or another mapping."""
    if allowed_tools is None:
        return None
    if isinstance(allowed_tools, BaseModel):
        try:
            allowed_tools = to_plain(allowed_tools)
        except JSONError as exc:
            raise SchemaError(f"allowed_tools: {exc.detail}") from None
    if isinstance(allowed_tools, Mapping):
        choice = dict(allowed_tools)
        tools = choice.get("tools")
        if choice.get("type") != "allowed_tools" or not isinstance(tools, list | tuple):
            raise SchemaError(
                "allowed_tools must be tool names or a tool_choice {'type': 'allowed_tools', 'tools': [...]}, "
                f"got a mapping with type {choice.get('type')!r}"
            )
        names: list[Any] = []
        if choice.get("mode") == "none":  # "restrict the model from calling any tools" (ToolChoiceValueEnum)
            tools = ()
        for n, entry in enumerate(tools):
            if not isinstance(entry, Mapping):
                raise SchemaError(f"allowed_tools.tools[{n}] must be an object, got {type(entry).__name__}")
            if entry.get("type") == "function":
                names.append(entry.get("name"))
    elif isinstance(allowed_tools, str | bytes | bytearray) or not isinstance(allowed_tools, Iterable):
        raise SchemaError(
            f"allowed_tools must be a collection of tool names (e.g. ['get_weather']), got "
            f"{type(allowed_tools).__name__} {allowed_tools!r:.60}"
        )
    else:
        names = list(allowed_tools)
    for name in names:
        if type(name) is not str:
            raise SchemaError(f"allowed_tools holds tool names (strings), got {type(name).__name__} {name!r:.60}")
    return frozenset(names)


# --- the gate ---------------------------------------------------------------------------------------


def gate(
    item: Any,
    tool_schema: Any = None,
    *,
    registry: Mapping[str, Any] | None = None,
    allowed_tools: Any = None,
    programs: Any = None,
) -> GateResult:
    """Decide whether a function call may be executed.

    `item` is a raw JSON object, a parsed item or an `openai` SDK object; it is read once into plain
    JSON (a model is dumped without coercion) and that copy is what is checked. `tool_schema` is:

    - the tool's argument JSON Schema, or the whole tool in any shape `replayable.check_tool` accepts
      knows (Responses or Agents function tool, Chat Completions function tool, MCP `{name,
      inputSchema}`, an openai-agents `FunctionTool`, a pydantic-ai `ToolDefinition`); `{}` means "no
      check beyond the object rule", said explicitly, and is the one spelling of it: the boolean schema
      `True` (and a tool whose `parameters` is `true`) is refused (`SchemaError`), never read as
      "anything goes";
    - or a tool collection: a list of tools (a request's `tools`; hosted tools are skipped) or a mapping
      of name -> tool or schema; the call's `name` picks its tool;
    - `None` (the default): refused with `no_schema`, never run unchecked.

    `allowed_tools` is what the request permits: `None` (no limit), a collection of names, or the
    request's `tool_choice` object of type `allowed_tools`. `programs` are the `program` items in view (the
    items, or their `call_id`s): a call a program issued (`caller: {type: "program", caller_id}`) waits
    `in_progress` for its output only inside that program's turn, so it runs only when its program is among
    them (OpenAI programmatic tool calling; issue 31). `registry` maps absolute URIs to JSON
    Schemas that `$ref`s may name (shared definitions, resolved in-process; nothing is ever fetched).

    The checks run in this order and the first that fails is the reason: `namespaced` (type contains
    `:` or is not a string), `not_function_call`, `status` (not `completed`, except an `in_progress` call
    whose `caller` is a program listed in `programs`: it waits for its output), `arguments_type` (not a string),
    `item_invalid` (not a valid function_call item in its input form: `call_id` missing or not 1-64
    characters, invalid `name`, a value JSON has no form for, ...), `unknown_tool` (the call names a tool
    inside a `namespace` tool, OpenAI's `namespace` field other than the call's own name: only
    top-level function tools are known, and the same-named top-level tool is not the one that runs),
    `not_allowed` (the name is outside
    `allowed_tools`), `unknown_tool` (a collection declares no tool of that name), `no_schema` (no
    tool given), `name` (a whole tool was given and the call names another), `arguments_parse` (not
    strict JSON, see `replayable.parse_arguments`), `arguments_schema` (not a JSON object,
    or fails the schema), else `ok`.

    Never raises on a bad item. Raises `replayable.SchemaError` when the tool the call uses
    is neither a JSON Schema nor a known tool shape, refers outside itself (`$ref`/`$schema` to a URL or
    file), or is not valid; `ValueError` for a collection with two tools of one name and for
    `allowed_tools` that is not names nor an `allowed_tools` choice. Validators are cached by content.
    Spec: Open Responses 2026-04-24, "Tool calling" (`arguments` is a JSON string) and "Items are state
    machines" (only a `completed` call runs).
    """
    tools = None if tool_schema is None else _gate_tools(tool_schema, registry)
    allowed = allowed_tool_names(allowed_tools)
    running = program_ids(programs)
    call, why = _read_call(item)
    src: Any = call if call is not None else item
    if call is not None:
        get = call.get
        t, status, args = get("type"), get("status"), get("arguments")
    else:
        t, status, args = _get(src, "type"), _get(src, "status"), _get(src, "arguments")
    if type(t) is not str or ":" in t:
        what = "a provider item (slug:name)" if isinstance(t, str) else "an item without a string type"
        return GateResult(GateReason.NAMESPACED, detail=f"{what} is not portable and is never executed")
    if t != "function_call":
        return GateResult(GateReason.NOT_FUNCTION_CALL, detail=f"a {t} item is not a function call")
    caller = call.get("caller") if call is not None else None
    if status != "completed" and not program_call_waiting(_FUNCTION, status, caller, running):
        shown = repr(status) if status is None or type(status) is str else f"a {type(status).__name__}"
        if program_call_waiting(_FUNCTION, status, caller, None):
            return GateResult(GateReason.STATUS, detail=f"status is {shown} and the call waits on program "
                              f"{_get(caller, 'caller_id')!r}, which is not among programs=: a program's call runs "
                              "only inside that program's turn (pass the program item)")  # fmt: skip
        return GateResult(GateReason.STATUS, detail=f"status is {shown}; only a completed call may run")
    if type(args) is not str:
        return GateResult(
            GateReason.ARGUMENTS_TYPE, detail=f"arguments must be a JSON string, got {type(args).__name__}"
        )
    if call is None:
        return GateResult(
            GateReason.ITEM_INVALID, detail=f"not a valid function_call item: {why or 'not a JSON object'}"
        )
    problem = _call_problem(call)
    if problem is not None:
        return GateResult(GateReason.ITEM_INVALID, detail=f"not a valid function_call item: {problem}")
    name: str = call["name"]
    namespace = call.get("namespace")
    # a tool inside a `namespace` tool is never the top-level tool of that name (a namespace equal to the
    # name is the top-level tool itself: OpenAI's form for a deferred tool loaded by `tool_search`)
    if namespace is not None and namespace != name:
        shown = namespace if isinstance(namespace, str) else repr(namespace)
        return GateResult(
            GateReason.UNKNOWN_TOOL,
            detail=f"the call names {name!r} in namespace {shown!r}, a tool that is not among the tools given "
            "(only top-level function tools are known); never run it",
        )
    if allowed is not None and name not in allowed:
        listed = ", ".join(sorted(map(repr, allowed))) or "none"
        return GateResult(
            GateReason.NOT_ALLOWED, detail=f"tool {name!r} is not in allowed_tools ({listed}); never run it"
        )
    if tools is None:
        return GateResult(
            GateReason.NO_SCHEMA,
            detail="no tool schema given: the arguments cannot be checked; pass the tool (or {} to accept any "
            "JSON object)",
        )
    if isinstance(tools, _Tools):
        tool = tools.by_name.get(name)
        if tool is None:
            known = ", ".join(sorted(map(repr, tools.by_name))) or "none"
            return GateResult(
                GateReason.UNKNOWN_TOOL, detail=f"no function tool named {name!r} is declared (declared: {known})"
            )
        if isinstance(tool, SchemaError):
            raise SchemaError(f"tool {name!r}: {tool}")
    else:
        tool = tools
    if tool.name is not None and name != tool.name:
        return GateResult(
            GateReason.NAME, detail=f"the call names {name!r} but the tool given is {tool.name!r}; never run it"
        )
    try:
        value = parse_arguments(args)
    except ArgumentsError as exc:
        return GateResult(GateReason.ARGUMENTS_PARSE, detail=str(exc))
    if type(value) is not dict:  # arguments are a JSON object, whatever the schema says
        return GateResult(GateReason.ARGUMENTS_SCHEMA, (object_failure(value),), value)  # type: ignore[arg-type]
    if validator_passes(tool.validator, value):
        return GateResult(GateReason.OK, (), value)
    return GateResult._schema_refusal(value, tool.validator, args)
