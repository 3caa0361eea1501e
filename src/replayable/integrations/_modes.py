"""What an integration does with a history that is not replay-safe: `raise`, `repair` or `log`.

Every integration (the openai SDK hooks, `CheckedSession`, the LiteLLM guard, the LangChain middleware,
the pydantic-ai history processor) takes `mode=`:

- `"raise"` (the default): refuse, with `ReplayError` (its `.report` says why), before anything is sent
  or stored;
- `"repair"`: send what `replayable.prepare_replay` makes of the history (unanswered calls dropped, or
  answered with `interrupted_output=` when given; duplicate outputs dropped; ids of another provider
  removed, ...) and log what it changed, one `WARNING` per dropped or changed item; a history that has no
  safe repair (a message that breaks a rule) is refused as in `raise`;
- `"log"`: send the history unchanged and log each finding (one `WARNING` each), as a rollout in
  production starts: see what would be refused before refusing it.

Logs go to the `logging` logger `replayable` (`LOGGER`), each record carrying `extra={"replayable":
{...}}` with the finding (`index`, `code`, `message`) or the repair (`index`, `action`, `what`).
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from replayable._interop import ReplayReport, prepare_replay
from replayable._reading import Document
from replayable._repair import repair_document
from replayable._replay import TranscriptReport, Violation, ViolationCode, check_transcript
from replayable.errors import ReplayError
from replayable.items import ItemError, dump_items

__all__ = ["LOGGER", "MODES", "Guarded", "Mode", "check_mode", "guard_items", "unreadable", "with_items"]

Mode = Literal["raise", "repair", "log"]
"""What to do with a history that is not replay-safe (see the module docstring)."""
MODES: tuple[str, ...] = get_args(Mode)

#: The logger every integration logs its findings and repairs to.
LOGGER = logging.getLogger("replayable")

#: The target `repair` prepares for when none is given: the Open Responses profile (no provider rules),
#: the items read as coming from it (nothing is foreign, so no id is removed for being another's).
_NEUTRAL = "openresponses"


def check_mode(mode: Any) -> Mode:
    """`mode` when it is one of `MODES`; raises `ValueError` naming the choices otherwise."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(map(repr, MODES))}, got {mode!r:.60}")
    return mode  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Guarded:
    """What `guard_items` decided: `items` the history to send (None: send it unchanged), `report` the
    check of the history as given; for a repair, `replay` is `prepare_replay`'s report (`dropped`,
    `changed`, `kept`: the input index of each item of `items`)."""

    items: list[Any] | None
    report: TranscriptReport
    replay: ReplayReport | None = None

    @property
    def repaired(self) -> bool:
        """Whether `items` is a repair of the history."""
        return self.replay is not None


def guard_items(
    items: Any,
    *,
    mode: Mode = "raise",
    where: str | None = None,
    interrupted_output: str | None = None,
    keep: Callable[[Any], bool] | None = None,
    **check_kwargs: Any,
) -> Guarded:
    """Check `items` (anything `check_transcript` takes: a list of items, a request body) with
    `check_transcript(items, **check_kwargs)` and act on the verdict as `mode` says (module docstring).
    `where` names the history in messages and logs (`"session 'user-42'"`; None: `ReplayError`'s own
    message, "not replay-safe: N violations", and "history" in logs). `keep`, when
    given, says which findings count (the others are ignored, as `CheckedSession` ignores the arguments
    the SDK settles itself).

    Returns a `Guarded`: for a safe history, or in `log` mode, `items` None (send as is); in `repair`
    mode, the repaired items in their JSON form (`replayable.dump_items`), which pass the same check
    (`check_transcript(..., **check_kwargs)`, the body's own fields included). Raises `ReplayError` in
    `raise` mode for an unsafe history, and in `repair` mode for one without a safe repair (an item that
    does not parse, a message that breaks a rule, a finding about the body rather than an item, a repair
    that would still be refused). Raises `ValueError` for a bad `mode` or `check_kwargs`."""
    check_mode(mode)
    unknown = sorted(set(check_kwargs) - _CHECK_KWARGS)
    if unknown:
        takes = ", ".join(sorted(_CHECK_KWARGS))
        raise ValueError(f"unknown check argument(s) {', '.join(unknown)}: check_transcript takes {takes}")
    # read once: a generator (of items, or of tools) would be used up by the first of the checks
    items = _once(items)
    check_kwargs = {k: _once(v) if k in ("tools", "allowed_tools") else v for k, v in check_kwargs.items()}
    report = check_transcript(items, **check_kwargs)
    if keep is not None:
        report = dataclasses.replace(report, violations=tuple(v for v in report.violations if keep(v)))
    if report.ok:
        return Guarded(None, report)
    lines = report.violation_lines()
    refusal = f"{where} is not replay-safe:\n" + "\n".join(f"  {line}" for line in lines) if where else None
    where = where or "history"
    if mode == "log":
        for v, line in zip(report.violations, lines, strict=True):
            LOGGER.warning(
                "%s is not replay-safe (sent unchanged): %s", where, line,
                extra={"replayable": {"index": v.index, "code": str(v.code), "message": v.message}},
            )
        return Guarded(None, report)
    if mode == "raise":
        raise ReplayError(report, refusal)
    whole = [v for v in report.violations if v.index is None]
    if whole:  # the body's own fields, or what it continues: repairing its items cannot fix those
        raise ReplayError(report, f"{refusal or ReplayError(report)}\nand it has no safe repair: "
                          f"{whole[0].code} is not about one item")
    try:
        repaired, replay = _repair(items, where, interrupted_output, check_kwargs)
    except (ItemError, ReplayError) as exc:
        failed = exc.report if isinstance(exc, ReplayError) else report
        raise ReplayError(failed, f"{refusal or ReplayError(report)}\nand it has no safe repair: {exc}") from None
    after = check_transcript(with_items(items, repaired), **check_kwargs)  # what is sent passes the same check
    if keep is not None:
        after = dataclasses.replace(after, violations=tuple(v for v in after.violations if keep(v)))
    if not after.ok:
        raise ReplayError(after, f"{refusal or ReplayError(report)}\nand its repair is not replay-safe either:\n"
                          + "\n".join(f"  {line}" for line in after.violation_lines()))
    return Guarded(repaired, report, replay)


#: The keyword arguments `check_transcript` takes (what `guard_items` passes on).
_CHECK_KWARGS = frozenset(
    n for n, p in inspect.signature(check_transcript).parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY
)


def _once(value: Any) -> Any:
    """An iterator as a list (it can then be read by every check); anything else as it is."""
    return list(value) if isinstance(value, Iterator) else value


def with_items(history: Any, items: list[Any]) -> Any:
    """`history` with its items replaced by `items`: a request body (a mapping with `input`, or the one
    reader's `Document` of one) keeps its own fields (its `tools`, `tool_choice`, ...), so the repaired
    history is checked as it will be sent; anything else is the list `items`."""
    value = history.value if isinstance(history, Document) else history
    if isinstance(value, Mapping) and "input" in value:
        return {**value, "input": items}
    return items


def _repair(
    items: Any, where: str, interrupted_output: str | None, check_kwargs: Mapping[str, Any]
) -> tuple[list[Any], ReplayReport]:
    target = check_kwargs.get("target")
    tools = check_kwargs.get("tools")
    provider = check_kwargs.get("provider")
    # first the repairs that are certain, as `replayable prepare` makes them (object arguments -> their
    # JSON text, Chat Completions messages -> items); `prepare_replay` never rewrites what an item says
    value = items.value if isinstance(items, Document) else items
    fixed, certain, origin = repair_document(value) if isinstance(value, list | Mapping) else (value, [], None)
    for r in certain:
        LOGGER.warning("%s repaired: item %s: %s", where, r.index, r.change,
                       extra={"replayable": {"index": r.index, "action": "repaired", "what": r.change}})
    if certain:
        items = fixed
    repaired, rep = prepare_replay(
        items,
        target=target or _NEUTRAL,
        tools=tools,
        provider=provider,
        source=None if target else _NEUTRAL,
        interrupted_output=interrupted_output,
    )
    if certain and origin is not None:  # every index says which item of the history as given it was
        rep = dataclasses.replace(
            rep,
            dropped=tuple((origin[i], why) for i, why in rep.dropped),
            changed=tuple(sorted({
                *((origin[i], what) for i, what in rep.changed), *((r.index, r.change) for r in certain)
            })),
            kept=tuple(origin[i] for i in rep.kept),
        )
    for index, why in rep.dropped:
        LOGGER.warning("%s repaired: item %s dropped: %s", where, index, why,
                       extra={"replayable": {"index": index, "action": "dropped", "what": why}})
    for index, what in rep.changed:
        LOGGER.warning("%s repaired: item %s changed: %s", where, index, what,
                       extra={"replayable": {"index": index, "action": "changed", "what": what}})
    return dump_items(repaired), rep


def unreadable(exc: ItemError, *, mode: Mode, where: str) -> None:
    """A history an integration cannot read as items at all (a message or part with no Open Responses form,
    named by `exc`): logged and sent unchanged in `log` mode (nothing can be checked, and nothing is
    changed), refused with `ReplayError` otherwise (no repair guesses what such a message meant)."""
    first = exc.errors[0] if exc.errors else {}
    loc = first.get("loc") or (None,)
    index = loc[0] if isinstance(loc[0], int) else None
    code = "output_without_function_call" if first.get("type") == "chat_orphan_tool_message" else "item_invalid"
    if mode == "log":
        LOGGER.warning("%s cannot be checked (sent unchanged): %s", where, exc,
                       extra={"replayable": {"index": index, "code": code, "message": str(exc)}})
        return
    report = TranscriptReport((Violation(index, ViolationCode(code), str(exc)),))
    raise ReplayError(report, f"{where} is not replay-safe (it cannot be read as items):\n  {exc}")
