"""openai-agents glue: a tool input guardrail that gates each call, and a session that refuses to store
an unsafe history.

```python
from agents import Agent, SQLiteSession, function_tool
from replayable.integrations.agents import CheckedSession, replay_guardrail

@function_tool(tool_input_guardrails=[replay_guardrail])
def refund(order_id: str, amount: int) -> str: ...

session = CheckedSession(SQLiteSession("user-42", "history.db"))
```

`replay_guardrail` (a `ToolInputGuardrail`) runs before the tool: it gates the call's arguments, as the
model sent them, against the tool's `params_json_schema` with `replayable.gate`, and when the gate
refuses (a duplicate key, an unexpected key, `"5"` where the schema says integer, NaN, a truncated
call, ...) it answers `ToolGuardrailFunctionOutput.reject_content(...)`: the tool does not run and the
model is told why, so it can call again. The SDK itself would run such calls: its argument model reads
`"5"` as 5 and keeps the last of two duplicate keys.

`CheckedSession(session, **check_kwargs)` wraps any `Session` (`get_items`, `add_items`, `pop_item`,
`clear_session`, `session_id`): `add_items` checks the whole stored history plus the new items with
`check_transcript(..., provider="openai", pending_ok=True, **check_kwargs)` and raises `ReplayError`,
writing nothing, when that history would be unsafe. How the SDK's own items are read (no false alarms):

- a `function_call` with `status: None` (what Chat Completions-backed models produce, and what the SDK
  stores without `status`) counts as finished, as any input-form call without a status does;
- the placeholder id `"__fake_id__"` (`agents.models.fake_id.FAKE_RESPONSES_ID`), which the SDK puts on
  items from models that assign no ids and strips before sending them anywhere, is read as no id, so
  two items carrying it are not duplicate ids (the stored items are not changed);
- a user message stored as `{"role": "user", "content": ...}` without `type` is the shorthand message
  that `provider="openai"` reads;
- trailing calls without their outputs yet are pending (the SDK stores a call before its output);
- the arguments of a call are not the session's business (`SETTLED_BY_THE_SDK`): the SDK stores every
  call the model made, as the model made it, then its answer: the tool's result, the refusal of a
  guardrail such as `replay_guardrail`, or the SDK's own error text for arguments it could not read.
  So `arguments_parse` and `arguments_schema` findings are left out of the session's report; gate
  the arguments where they run, with `replay_guardrail`. Every other rule refuses.

This module imports `agents` (the openai-agents package) only when `replay_guardrail` is first used.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import sys
import threading
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from replayable._json import is_openai_model, to_plain
from replayable._replay import GateResult, TranscriptReport, ViolationCode, check_transcript, gate
from replayable.errors import ReplayError
from replayable.integrations._modes import LOGGER, Mode, check_mode, guard_items

if TYPE_CHECKING:
    from agents import ToolGuardrailFunctionOutput, ToolInputGuardrail, ToolInputGuardrailData

__all__ = ["CheckedSession", "FAKE_ID", "SETTLED_BY_THE_SDK", "check_tool_call", "replay_guardrail"]

replay_guardrail: ToolInputGuardrail[Any]
"""The tool input guardrail (built on first access, see `__getattr__`): pass it in
`function_tool(..., tool_input_guardrails=[replay_guardrail])`."""

#: Transcript rules a `CheckedSession` does not refuse on: the arguments of stored calls, which the SDK
#: stores as the model sent them and answers itself (see the module docstring).
SETTLED_BY_THE_SDK = frozenset({ViolationCode.ARGUMENTS_PARSE, ViolationCode.ARGUMENTS_SCHEMA})

#: The openai-agents SDK's placeholder item id (`agents.models.fake_id.FAKE_RESPONSES_ID`): read as no id.
FAKE_ID = "__fake_id__"


# --- the tool input guardrail ---------------------------------------------------------------------------


def _tool_namespace(tool: Any) -> str | None:
    namespace = getattr(tool, "_tool_namespace", None)  # set by agents.tool_namespace()
    return namespace if isinstance(namespace, str) and namespace else None


def _find_tool(agent: Any, name: str, namespace: str | None) -> Any:
    """The agent's one function tool called `name` in the call's `namespace`, or None. A call is never
    matched to a tool of another namespace, even when that is the only tool of the name (a namespace equal
    to the call's own name, or none, is the top level: OpenAI's form for a deferred tool)."""
    want = None if not namespace or namespace == name else namespace
    found = [
        t
        for t in getattr(agent, "tools", None) or ()
        if getattr(t, "name", None) == name
        and isinstance(getattr(t, "params_json_schema", None), Mapping)
        and _tool_namespace(t) in (want, name if want is None else want)
    ]
    return found[0] if len(found) == 1 else None


def check_tool_call(tool: Any, arguments: Any, *, status: Any = None) -> GateResult:
    """Gate one call of an openai-agents `FunctionTool` (or any object with `name` and
    `params_json_schema`): `arguments` is the JSON text the model sent; `status` the call's status when
    the model gave one (`None`, what Chat Completions-backed models give, counts as completed).

    The call is checked by `replayable.gate` as a `function_call` `{type, call_id, name, arguments,
    status}` against `{type: "function", name, parameters: tool.params_json_schema}`, with a neutral
    `call_id` and `name`: the SDK has already matched the call to this tool by name, and neither plays a
    part in whether the arguments may run. Returns the `GateResult`; raises `SchemaError` when the tool's
    schema is unusable.
    """
    call = {
        "type": "function_call",
        "call_id": "call",
        "name": "tool",
        "arguments": arguments,
        "status": "completed" if status is None else status,
    }
    return gate(call, {"type": "function", "name": "tool", "parameters": tool.params_json_schema})


def _rejection(name: str, why: str) -> str:
    return (
        f"The call to {name!r} was rejected before it ran (replayable): {why}. "
        "Call the tool again with arguments that match its JSON Schema exactly."
    )


def _guardrail_function(data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
    from agents import ToolGuardrailFunctionOutput

    ctx = data.context
    tool = _find_tool(data.agent, ctx.tool_name, getattr(ctx, "tool_namespace", None))
    if tool is None:
        why = f"agent {getattr(data.agent, 'name', '?')!r} has no single function tool named {ctx.tool_name!r}"
        return ToolGuardrailFunctionOutput.reject_content(_rejection(ctx.tool_name, why), output_info=None)
    call = getattr(ctx, "tool_call", None)
    try:
        result = check_tool_call(tool, ctx.tool_arguments, status=getattr(call, "status", None))
    except ValueError as exc:  # the tool's own schema cannot be used: fail closed
        return ToolGuardrailFunctionOutput.reject_content(_rejection(ctx.tool_name, str(exc)), output_info=None)
    if result.ok:
        return ToolGuardrailFunctionOutput.allow(output_info=result)
    why = "; ".join(result.violation_lines())
    return ToolGuardrailFunctionOutput.reject_content(_rejection(ctx.tool_name, why), output_info=result)


def _make_guardrail() -> ToolInputGuardrail[Any]:
    from agents import ToolInputGuardrail

    return ToolInputGuardrail(guardrail_function=_guardrail_function, name="replay_guardrail")


def __getattr__(name: str) -> Any:
    """`replay_guardrail` is built (and `agents` imported) on first access."""
    if name == "replay_guardrail":
        guardrail = _make_guardrail()
        globals()["replay_guardrail"] = guardrail
        return guardrail
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- the session wrapper --------------------------------------------------------------------------------


def _as_checked(item: Any) -> Any:
    """The item as it is checked: the SDK's placeholder id removed (a copy; the item is not changed)."""
    if is_openai_model(item):
        item = to_plain(item)
    if isinstance(item, Mapping) and item.get("id") == FAKE_ID:
        return {k: v for k, v in item.items() if k != "id"}
    return item


def _accepts_wrapper(method: Any) -> bool:
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
    p = params.get("wrapper")
    return p is not None and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


async def _call(method: Any, *args: Any, wrapper: Any = None, **kwargs: Any) -> Any:
    if wrapper is not None and _accepts_wrapper(method):
        kwargs["wrapper"] = wrapper
    result = method(*args, **kwargs)
    return await result if inspect.isawaitable(result) else result


class _SessionLock:
    """One check-and-write at a time for one session: across the tasks of an event loop (an `asyncio.Lock`
    per loop) and across threads, each running its own loop (a `threading.Lock`, taken without blocking
    the loop: tried, then awaited in short sleeps, so that a cancelled waiter never holds it)."""

    def __init__(self) -> None:
        self._thread_lock = threading.Lock()
        self._guard = threading.Lock()
        self._loop_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        with self._guard:
            loop_lock = self._loop_locks.get(loop)
            if loop_lock is None:
                loop_lock = self._loop_locks[loop] = asyncio.Lock()
        async with loop_lock:  # the other tasks of this loop wait here, without polling
            delay = 0.0005
            while not self._thread_lock.acquire(blocking=False):  # another thread's loop holds it
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.02)
            try:
                yield
            finally:
                self._thread_lock.release()


#: The lock of each session id while a `CheckedSession` holds it (two wrappers of one session, or of two
#: session objects of one stored history, share it); freed with the last wrapper.
_SESSION_LOCKS: weakref.WeakValueDictionary[Any, _SessionLock] = weakref.WeakValueDictionary()
_SESSION_LOCKS_GUARD = threading.Lock()


def _session_lock(session: Any) -> _SessionLock:
    try:
        key: Any = ("id", type(session).__qualname__, str(session.session_id))
    except Exception:  # a session without a readable id: locked on its own object
        key = ("object", id(session))
    with _SESSION_LOCKS_GUARD:
        lock = _SESSION_LOCKS.get(key)
        if lock is None:
            lock = _SESSION_LOCKS[key] = _SessionLock()
        return lock


class CheckedSession:
    """An openai-agents `Session` that refuses to store an unsafe history (see the module docstring).

    `session` is any object with the `Session` protocol (`SQLiteSession`, `RedisSession`, your own);
    `check_kwargs` go to `check_transcript` (`tools=`, `target=`, `allowed_tools=`, ...) after the
    defaults `provider="openai"` and `pending_ok=True`. `.session` is the wrapped session: reach its own
    methods (`close()`, ...) there. Only `add_items` is checked; `get_items`, `pop_item` and
    `clear_session` pass through (a `limit`ed window of the history may well start with an output
    whose call is older, which is not a fault). Every call checks the whole stored history: a history
    that is already unsafe (a store that lost a row) refuses every addition until it is repaired
    through `.session`; `await checked.check()` says what is wrong.

    `mode` says what an addition that would make the history unsafe gets (`replayable.integrations._modes`):
    `"raise"` (the default) refuses it, storing nothing; `"log"` stores it and logs each finding;
    `"repair"` stores what `prepare_replay(..., interrupted_output=interrupted_output)` makes of the
    history followed by the new items (trailing calls still awaiting their output are kept as they are):
    when the stored history is kept as it is, only the repaired new items are added, else the session is
    cleared and the whole repaired history stored (each change logged).

    `run_compaction` is not passed through (compaction rewrites the history outside `add_items`); to
    compact a checked history, wrap the other way round:
    `OpenAIResponsesCompactionSession(session_id, underlying_session=CheckedSession(...))`, whose
    rewrites then go through `clear_session` and the checked `add_items`.
    """

    def __init__(
        self, session: Any, *, mode: Mode = "raise", interrupted_output: str | None = None, **check_kwargs: Any
    ) -> None:
        self.mode: Mode = check_mode(mode)
        self.interrupted_output = interrupted_output
        for name in ("get_items", "add_items", "pop_item", "clear_session"):
            if not callable(getattr(session, name, None)):
                got = type(session).__name__
                raise TypeError(f"CheckedSession needs an openai-agents Session; {got} has no {name}()")
        self.session = session
        self._lock = _session_lock(session)
        self.check_kwargs: dict[str, Any] = {"provider": "openai", "pending_ok": True, **check_kwargs}
        check_transcript([], **self.check_kwargs)  # bad arguments fail here, not at the first add_items

    @property
    def session_id(self) -> str:
        """The wrapped session's `session_id` (set through to it: the SDK's `Session` protocol lets it be set)."""
        return str(self.session.session_id)

    @session_id.setter
    def session_id(self, value: str) -> None:
        self.session.session_id = value

    @property
    def session_settings(self) -> Any:
        return getattr(self.session, "session_settings", None)

    @session_settings.setter
    def session_settings(self, value: Any) -> None:
        self.session.session_settings = value

    def __repr__(self) -> str:
        return f"CheckedSession({self.session!r})"

    async def _history(self, wrapper: Any) -> list[Any]:
        """The whole stored history, whatever `session_settings.limit` says."""
        settings = self.session_settings
        limit = settings.get("limit") if isinstance(settings, Mapping) else getattr(settings, "limit", None)
        if limit is None:
            items = await _call(self.session.get_items, wrapper=wrapper)
        else:
            items = await _call(self.session.get_items, limit=sys.maxsize, wrapper=wrapper)
        return list(items or ())

    def check_items(self, items: list[Any]) -> TranscriptReport:
        """`check_transcript` of `items` as this session checks them: placeholder ids read as no id, and
        the findings in `SETTLED_BY_THE_SDK` left out (see the module docstring)."""
        report = check_transcript([_as_checked(i) for i in items], **self.check_kwargs)
        kept = tuple(v for v in report.violations if v.code not in SETTLED_BY_THE_SDK)
        return report if len(kept) == len(report.violations) else dataclasses.replace(report, violations=kept)

    async def check(self, wrapper: Any = None) -> TranscriptReport:
        """The report of the whole stored history (`check_items` of it)."""
        return self.check_items(await self._history(wrapper))

    async def get_items(self, limit: int | None = None, wrapper: Any = None) -> list[Any]:
        """The wrapped session's `get_items`, unchanged."""
        return list(await _call(self.session.get_items, limit, wrapper=wrapper))

    async def add_items(self, items: list[Any], wrapper: Any = None) -> None:
        """Store `items` when the stored history followed by them is replay-safe (pending calls allowed).

        Raises `ReplayError` (its `.report` indexes the stored history followed by `items`: the new items
        start at the length of the history) and stores nothing otherwise.

        The read, the check and the write are one step per session: concurrent `add_items` on one session
        (tasks of one event loop, or threads each running a loop; two `CheckedSession`s of the same
        `session_id` and session class included) run one after the other, so two outputs for one call
        added at once are never both stored (the second sees the first). Additions that bypass the
        wrapper (through `.session`) are not serialized.
        """
        items = list(items)
        if not items:
            await _call(self.session.add_items, items, wrapper=wrapper)
            return
        async with self._lock.held():
            history = await self._history(wrapper)
            whole = [*history, *items]
            report = self.check_items(whole)
            if report.ok:
                await _call(self.session.add_items, items, wrapper=wrapper)
                return
            n, k = len(history), len(items)
            where = f"item {n}" if k == 1 else f"items {n}-{n + k - 1}"
            if self.mode == "raise":
                raise ReplayError(
                    report,
                    f"session {self.session_id!r}: refused to store {where} (after {n} stored); the history "
                    "would not be replay-safe:\n" + "\n".join(f"  {line}" for line in report.violation_lines()),
                )
            if self.mode == "log":
                guard_items([_as_checked(i) for i in whole], mode="log", where=f"session {self.session_id!r}",
                            keep=lambda v: v.code not in SETTLED_BY_THE_SDK, **self.check_kwargs)
                await _call(self.session.add_items, items, wrapper=wrapper)
                return
            await self._store_repaired(whole, report, n, wrapper)

    async def _store_repaired(self, whole: list[Any], report: TranscriptReport, n: int, wrapper: Any) -> None:
        """Store the repair of `whole` (the `n` stored items followed by the new ones): trailing pending
        calls kept as they are; only the new part added when the stored part is unchanged."""
        checked = [_as_checked(i) for i in whole]
        cut = len(checked)
        while cut and cut - 1 in report.pending:  # calls still to be answered: not a fault, not repaired
            cut -= 1
        kwargs = {k: v for k, v in self.check_kwargs.items() if k != "pending_ok"}
        guarded = guard_items(
            checked[:cut], mode="repair", where=f"session {self.session_id!r}",
            interrupted_output=self.interrupted_output, **kwargs,
        )
        if guarded.replay is None:  # the part before the pending calls is fine: the findings are theirs
            raise ReplayError(
                report,
                f"session {self.session_id!r}: refused to store calls still to be answered that are not "
                "replay-safe (a pending call is never repaired):\n"
                + "\n".join(f"  {line}" for line in report.violation_lines()),
            )
        rep = guarded.replay
        repaired = [*(guarded.items or []), *checked[cut:]]
        after = self.check_items(repaired)  # the pending calls kept as they are must pass too
        if not after.ok:
            raise ReplayError(
                after,
                f"session {self.session_id!r}: refused to store a repair that is still not replay-safe:\n"
                + "\n".join(f"  {line}" for line in after.violation_lines()),
            )
        kept = [*rep.kept, *range(cut, len(checked))]
        touched = {i for i, _ in rep.dropped} | {i for i, what in rep.changed if not what.startswith("shorthand")}
        if not any(i < n for i in touched) and kept[:n] == list(range(n)):  # the stored history stays
            await _call(self.session.add_items, repaired[n:], wrapper=wrapper)
            return
        LOGGER.warning("session %r repaired: the stored history changed, storing it again", self.session_id)
        await _call(self.session.clear_session, wrapper=wrapper)
        await _call(self.session.add_items, repaired, wrapper=wrapper)

    async def pop_item(self, wrapper: Any = None) -> Any:
        """The wrapped session's `pop_item`, unchanged (not while an `add_items` checks and writes)."""
        async with self._lock.held():  # never between another addition's check and its write
            return await _call(self.session.pop_item, wrapper=wrapper)

    async def clear_session(self, wrapper: Any = None) -> None:
        """The wrapped session's `clear_session`, unchanged (not while an `add_items` checks and writes)."""
        async with self._lock.held():
            await _call(self.session.clear_session, wrapper=wrapper)
