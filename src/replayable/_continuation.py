"""Bodies as transcripts: read the items of a request body or a whole Response, and continuation requests.

`check_transcript` and `prepare_replay` take a request body (`CreateResponseBody`, `CompactRequestBody`,
or its JSON object) or a response (`Response`, `CompactResource`, its JSON object, an `openai` SDK
`Response`) wherever they take a list of items: a request stands for its `input` (a string `input` is
one user message), a response for its `output` (checked as output: an `incomplete` item must be last;
the calls it ends with are pending, waiting to be executed, as with `pending_ok=True`).

A request with `previous_response_id` continues that response: the server's context is the previous
input, then the previous output, then this `input` (spec `CreateResponseBody.previous_response_id`). Its
`function_call_output` items normally answer calls of the previous output. Given `previous=` (that
response, or its `output` list), the check pairs across: the previous output is read first and indexes
stay those of this request's `input`. The previous output's own problems are the server's (a call in it
that fails its tool's schema may be answered with a refusal, as the quickstart does), but a call of it
the request leaves unanswered is the request's: the server refuses such a request, so it is reported
(`function_call_without_output`, no index, a `/previous/N` path). A previous Response whose `id` is not the request's
`previous_response_id` is refused (`ItemError`, loc `previous`); one whose status is not `completed` or
`incomplete` is `response_not_finished`. Without it, an output whose call is not in the request is
listed in `TranscriptReport.external` (answering a call outside the request), not reported as
`output_without_function_call`.

A Response checked on its own whose status is `queued`, `in_progress`, `failed` or `cancelled` is
`response_not_finished` too: its output is not final.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ._chat_shapes import refuse_chat_completions_body
from ._codes import ViolationCode
from ._findings import Finding, TranscriptReport
from ._reading import Document, DocumentKind, read_previous
from .items import ItemError, Provider, Side

__all__ = ["Unwrapped", "refuse_chat_completions_body", "unwrap"]


@dataclasses.dataclass(slots=True)
class Unwrapped:
    """What `check_transcript` checks: `items` (the previous output first when one was given, `offset`
    items long), the `side` and `provider` to read them with, and whether `continues` a response."""

    items: list[Any]
    side: Side | None
    provider: Provider
    offset: int = 0
    continues: bool = False
    response: bool = False
    #: the response's own `status` (None when the checked value is not a response or has none)
    status: Any = None
    #: the status of the previous response given as `previous=` (None: not given, or its output items)
    previous_status: Any = None

    def finish(self, report: TranscriptReport) -> TranscriptReport:
        """The report in terms of the checked body: indexes shifted to the request's `input`; of the
        previous output's own findings only its calls this request leaves unanswered (with no index and a
        `/previous/N` path: the server refuses such a request); unpaired outputs of a continuation listed
        as `external`; a response that is not finished reported."""
        off = self.offset
        status = self.status
        if not off and not self.continues and self.previous_status is None:
            if (status is None or (type(status) is str and status in _FINISHED)) and self._incomplete_last() is None:
                return report  # nothing to shift, add or move: the report as it is
        violations = [
            v.shifted(off) if off else v
            for v in report.violations
            if v.index is None or v.index >= off or v.code is ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT
        ]
        statuses = ((self.status, "/status", None), (self.previous_status, "/previous/status", "previous"))
        for status, path, variant in statuses:
            if isinstance(status, str) and status not in _FINISHED:
                params = {"status": status, "variant": variant} if variant else {"status": status}
                violations.append(Finding(None, ViolationCode.RESPONSE_NOT_FINISHED, None, path, params=params))
        external: list[int] = []
        if self.continues and off == 0:  # every unpaired output may answer a call the server holds
            kept = []
            for v in violations:
                if v.code == ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL and v.index is not None:
                    external.append(v.index)
                else:
                    kept.append(v)
            violations = kept
        last = self._incomplete_last()
        if last is not None:
            violations.append(
                Finding(last, ViolationCode.RESPONSE_NOT_INCOMPLETE, None, "/status", params={"status": self.status})
            )
        return dataclasses.replace(
            report,
            violations=tuple(violations),
            pending=tuple(p - off for p in report.pending if p >= off),
            items=report.items[off:],
            external=tuple(external),
        )


    def _incomplete_last(self) -> int | None:
        """The index of a response's last output item when it is `incomplete` and the response is not."""
        if not self.response or not self.items or not isinstance(self.status, str) or self.status == "incomplete":
            return None
        last = self.items[-1]
        status = last.get("status") if isinstance(last, Mapping) else getattr(last, "status", None)
        return len(self.items) - 1 if status == "incomplete" else None


#: The statuses of a response whose output is final (spec `ResponseResource.status`).
_FINISHED = frozenset({"completed", "incomplete"})


def unwrap(doc: Document, previous: Any, side: Side | None) -> Unwrapped:
    """What `check_transcript` checks of the document `doc` (see the module docstring): a Response's
    output as output (its own status kept), a request's input (with `previous`, that response's output
    first). `previous` is None, a response (any form) or a list of its output items; raises `ItemError`
    (loc `previous`) when it is neither."""
    provider: Provider = doc.provider
    response = doc.kind is DocumentKind.RESPONSE
    if previous is None:
        return Unwrapped(
            doc.items, side or doc.side, provider, 0, doc.continues, response, doc.status if response else None
        )
    prev = read_previous(previous)
    named = doc.previous_response_id
    if prev.response_id is not None and named is not None and prev.response_id != named:
        msg = (
            f"previous is response {prev.response_id!r}, but the request continues {doc.previous_response_id!r}: "
            "pass the response it names"
        )
        raise ItemError([{"loc": ("previous",), "type": "previous_mismatch", "msg": msg}], "invalid previous response")
    return Unwrapped(
        prev.items + doc.items, side, prev.provider or provider, len(prev.items), doc.continues,
        previous_status=prev.status,
    )  # fmt: skip
