"""The one table of finding codes: for every code, its scope, severity, meaning and message template.

A finding (`replayable._findings.Finding`) carries a code and the parameters of its message; its text is
made from the template here, once, when it is read (`Finding.message`) or rendered. The code enums
(`ViolationCode`, `AgentsViolationCode`, `StreamRule`, `NoteCode`) are checked against this table when
the module loads, and the table of codes in docs/codes.md is generated from it (`markdown_table`, written
by `scripts/docs_tables.py`; a test compares the two).

Scopes: `transcript` (items and tools: `check_transcript`, `check_transcript_iter`, `check_tool`), `agents`
(`replayable.agents.check_event_log`), `stream` (`replayable.stream`), `note` (advice: `replayable._notes`).
Severities: `violation` (not safe: it makes a report not ok), `warning` (refused before it could do harm:
safe while the refusal is honoured, such as an Agents call that `check_arguments` refused), `note`
(advice that blocks nothing). A stream rule's severity is its default: lenient readers record some as
notes (`StreamWarning.violation`).

A template is a `str.format` pattern over the finding's parameters (an option it tells the reader to set
is a `{option:NAME}` field, spelled by each door: `replayable.errors.OPTIONS`); `variants` holds the few other
wordings of one code (picked by the parameter `variant`). `{detail}` is text made by another reader (a
pydantic error, a JSON syntax error, a schema failure): it is quoted as it is. A finding made from
another (the note `strict_fallback` from a strict-mode finding) names it as `{cause.code}` and
`{cause.message}`, so its text is that finding's own, from its own template.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

from replayable._messages import said_from

__all__ = [
    "CODES",
    "AgentsViolationCode",
    "CodeInfo",
    "NoteCode",
    "Scope",
    "Severity",
    "StreamRule",
    "ViolationCode",
    "code_info",
    "markdown_table",
]


class Severity(StrEnum):
    """How much a finding weighs: `violation` blocks, `warning` was refused in time, `note` is advice."""

    VIOLATION = "violation"
    WARNING = "warning"
    NOTE = "note"


Scope = Literal["transcript", "agents", "stream", "note"]


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """One row of the table: `code`, `scope`, default `severity`, `meaning` (one sentence, for the docs)
    and `template` (the message, a `str.format` pattern over the finding's parameters), plus `variants`,
    the other wordings of the same code by name."""

    code: str
    scope: Scope
    severity: Severity
    meaning: str
    template: str
    variants: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def render(self, params: Any) -> str:
        """The message for `params` (a mapping): the template named by `params["variant"]`, else the main one
        (a `replayable.errors.Said` when it names an option, `{option:NAME}`)."""
        variant = params.get("variant")
        template = self.variants[variant] if variant else self.template
        return said_from(template, params)


V, W, N = Severity.VIOLATION, Severity.WARNING, Severity.NOTE
_DETAIL = "{detail}"


def _row(
    scope: Scope, code: str, severity: Severity, meaning: str, template: str = _DETAIL, **variants: str
) -> CodeInfo:
    return CodeInfo(code, scope, severity, meaning, template, MappingProxyType(variants))


_CHAT_HINT = (
    "convert it to Responses items: each tool_calls entry becomes a function_call item "
    "{{type, call_id, name, arguments}} and each tool message a function_call_output item "
    "{{type, call_id, output}} (replayable.from_chat_completions does this)"
)
_UNFINISHED = (
    "{family} status is {status!r}: only a finished call may be replayed or answered (its arguments may be truncated)"
)
_NAME_OWNER = (
    "name the provider the items came from with source= (check_transcript, prepare_replay); items of OpenAI's are "
    "OpenAI's when read with {option:provider} (parse_items, parse_response, replayable check --provider openai)"
)
_PROGRAM_HINT = "; a call issued by a program waits for its output only while that program item is in view"

#: The table: every code the library reports, in the order of the docs.
CODES: tuple[CodeInfo, ...] = (
    # --- items (check_transcript, check_transcript_iter) -----------------------------------------------
    _row("transcript", "item_invalid", V,
        "The item does not parse (a field has the wrong type, a required field is missing, ...).",
        not_json="item is not JSON: {detail} [{reason}]",
        sdk_not_json="item is not JSON: {detail}",
    ),
    _row("transcript", "unknown_item_type", V,
        "An un-prefixed `type` that the spec does not define (extensions must be `slug:name`).",
    ),
    _row("transcript", "function_arguments_not_string", V,
        "`function_call.arguments` is not a JSON string (often an object that was not serialized).",
        "function_call.arguments must be a JSON string (serialize the object with json.dumps): {detail}",
    ),
    _row(
        "transcript",
        "output_not_string_or_content_parts",
        V,
        "`function_call_output.output` is neither a string nor a list of content parts.",
        "function_call_output.output must be a string or a list of input_text/input_image/input_file parts "
        "(serialize JSON values to a string): {detail}",
    ),
    _row(
        "transcript",
        "reasoning_missing_summary",
        V,
        "A reasoning item without `summary` (required even when empty).",
        "a reasoning item needs 'summary', even when it is empty ([]): {detail}",
    ),
    _row(
        "transcript",
        "chat_completions_envelope",
        V,
        'A Chat Completions shape (`tool_calls`, `role: "tool"`, `tool_call_id`, `role: "function"`, a message\'s '
        "legacy `function_call`); the path names the key.",
        "{shape} is not a Responses item: " + _CHAT_HINT,
    ),
    _row(
        "transcript",
        "function_call_in_content",
        V,
        "A function call nested inside a message's content instead of being its own item.",
        "content part {part} is a {part_type}: calls and their outputs are items of their own "
        "(function_call / function_call_output), never parts of a message",
    ),
    _row(
        "transcript",
        "output_without_function_call",
        V,
        "A `function_call_output` whose `call_id` answers no earlier `function_call`.",
        "no earlier {family} has {call_key} {key!r} (a {output_type} pairs with its call by {call_key}, byte for byte)",
        keyless="the {output_type} names no {family}: its {call_key} is missing (an output pairs with its call by "
        "{call_key})",
    ),
    _row(
        "transcript",
        "function_call_without_output",
        V,
        "A call left unanswered once the conversation moved on (or at the end, unless `pending_ok`).",
        "{family} {key!r} has no {output_type} before item {next_index}; answer every call before the "
        "conversation moves on",
        end="{family} {key!r} has no {output_type} (pass {option:pending_ok} when the transcript ends with calls "
        "still to be executed)",
        previous="{family} {key!r} of the previous response has no {output_type} in this request: a request "
        "that continues a response must answer every call of it",
    ),
    _row(
        "transcript",
        "duplicate_call_id",
        V,
        "Two function calls with the same `call_id`.",
        "{call_key} {key!r} already used by item {call_index}",
    ),
    _row(
        "transcript",
        "duplicate_output",
        V,
        "A second `function_call_output` for one call.",
        "{family} {key!r} (item {call_index}) was already answered",
    ),
    _row(
        "transcript",
        "incomplete_call_replayed",
        V,
        "A call whose status is `incomplete` (cut off; its arguments may be truncated).",
        _UNFINISHED,
        program=_UNFINISHED + _PROGRAM_HINT,
    ),
    _row(
        "transcript",
        "in_progress_call_replayed",
        V,
        "A call whose status is `in_progress` (not finished).",
        _UNFINISHED,
        program=_UNFINISHED + _PROGRAM_HINT,
    ),
    _row(
        "transcript",
        "output_for_unfinished_call",
        V,
        "An output answering an `in_progress` or `incomplete` call.",
        "{family} {key!r} (item {call_index}) is not finished; an unfinished call is never answered",
    ),
    _row(
        "transcript",
        "call_id_empty",
        V,
        "A call still waiting for its output at the end of a Response's `output` or a stream, whose `call_id` "
        "is empty: no output can answer it (an input `call_id` is 1-64 characters).",
        "{family} has an empty {call_key}: no {output_type} can answer it (a {call_key} sent back as input is "
        "1-64 characters)",
    ),
    _row(
        "transcript",
        "incomplete_not_last",
        V,
        "In one response's output, an `incomplete` item that is not the last item.",
        "an incomplete item is terminal and must be the last item of its response",
    ),
    _row(
        "transcript",
        "response_not_incomplete",
        V,
        "A response whose last output item is `incomplete` but whose own `status` is not `incomplete`.",
        "the last output item is incomplete, so the response must be incomplete too, but its status is {status!r}",
    ),
    _row(
        "transcript",
        "response_not_finished",
        V,
        "A Response (or the previous response a continuation is checked with) whose `status` is not "
        "`completed` or `incomplete`: its output is not final (`queued`, `in_progress`) or was abandoned "
        "(`failed`, `cancelled`).",
        "the response's status is {status!r}: only a completed or incomplete response's output is final",
        previous="the previous response's status is {status!r}: only a completed or incomplete response can "
        "be continued",
    ),
    _row(
        "transcript",
        "duplicate_item_id",
        V,
        "Two items with the same `id`.",
        "item id {id!r} already used by item {first_index}",
    ),
    _row(
        "transcript",
        "reasoning_without_following_item",
        V,
        "A reasoning item with an `id` not immediately followed by an item with an `id` (the item it produced), "
        "or followed by another reasoning item.",
        "reasoning item {id!r} must be immediately followed by the item it produced (which carries its own id), "
        "but item {next_index} has no id",
        last="reasoning item {id!r} must be immediately followed by the item it produced (which carries its own "
        "id), but nothing follows it",
        reasoning="reasoning item {id!r} must be immediately followed by the item it produced, but item {next_index} "
        "is another reasoning item ({next_id!r}): store each reasoning item right before the item it produced "
        "(OpenAI refuses the request: \"Item '...' was provided without its required 'reasoning' item\")",
    ),
    _row(
        "transcript",
        "foreign_extension_item",
        V,
        "A namespaced item of a provider other than the replay target (or, in a request body's `tools`, a "
        "provider's own tool: `acme:lookup`, or OpenAI's `web_search` read with `provider=\"openai\"`).",
        "{type} belongs to provider {slug!r}, not to the target {target!r}: provider items are not portable; drop "
        "it or convert it to portable content (replayable.prepare_replay)",
        tool="the tool {type!r} belongs to provider {slug!r}, not to the target {target!r}: a provider's own tool "
        "is not portable; remove it from the request's tools",
    ),
    _row(
        "transcript",
        "foreign_provider_state",
        V,
        "Reasoning `encrypted_content` or a compaction item written by a provider other than the target.",
        "reasoning encrypted_content belongs to provider {owner!r}, not {target!r} (replayable.prepare_replay "
        "drops it)",
        compaction="compaction state belongs to provider {owner!r}, not {target!r} (replayable.prepare_replay "
        "drops it)",
        unknown="reasoning encrypted_content was written by a provider nobody named, so it may not be {target!r} "
        "(replayable.prepare_replay drops it): " + _NAME_OWNER,
        compaction_unknown="compaction state was written by a provider nobody named, so it may not be {target!r} "
        "(replayable.prepare_replay drops it): " + _NAME_OWNER,
    ),
    _row(
        "transcript",
        "safety_check_not_acknowledged",
        V,
        "A computer_call_output that does not acknowledge every pending safety check of its call.",
        "{family} {key!r} (item {call_index}) raised {raised} {missing}, which this output does not list in {field}",
    ),
    # --- a call's tool --------------------------------------------------------------------------------
    _row(
        "transcript", "unknown_tool", V, "A call to a tool that is not in `tools`.", "no tool named {name!r} in tools"
    ),
    _row(
        "transcript",
        "tool_not_allowed",
        V,
        "A call to a tool outside `allowed_tools`.",
        "tool {name!r} is not in allowed_tools ({listed})",
    ),
    _row("transcript", "arguments_parse", V, "Arguments are not strict JSON."),
    _row(
        "transcript",
        "arguments_schema",
        V,
        "Arguments fail the tool's `parameters` schema.",
        "arguments: {at} fails {keyword}: {detail}",
        not_object="function-call arguments must be a JSON object",
    ),
    # --- tool definitions (check_tool) ----------------------------------------------------------------
    _row(
        "transcript",
        "invalid_tool",
        V,
        "A tool definition that is malformed (no name, name not allowed, schema not valid or referring outside "
        "itself).",
        _DETAIL,
        not_tool="not a tool definition: {detail}",
        not_object="a tool is a JSON object, got {got}",
        bare_schema="not a tool definition: a bare JSON Schema has no name (pass the whole tool)",
        item="not a tool definition: a {type} item (a transcript's, not a tool)",
        unknown_type="tool type {type!r} is neither 'function', a hosted tool type nor a provider's 'slug:name'",
        name="tool name {shown} must be 1-64 letters, digits, '_' or '-'",
        too_deep="{at} nests too deeply to check",
        unusable="tool {name!r} cannot be checked against: {detail}",
        schema="tool {name!r}: {detail}",
    ),
    _row("transcript", "parameters_not_object", V,
        'A tool\'s argument schema whose root is not an object schema (`type: "object"`): arguments are always a '
        "JSON object.",
        "the argument schema's root must be an object schema (type: 'object'), got type {got!r}: arguments are "
        "always a JSON object",
    ),
    _row("transcript", "strict_schema_additional_properties", V,
        "A strict tool's object schema without `additionalProperties: false`.",
        "object schema at {at} must set additionalProperties: false",
    ),
    _row("transcript", "strict_schema_required_incomplete", V,
        "A strict tool's object schema whose `required` does not list every property.",
        "object schema at {at} must list every property in required (make optional ones nullable instead): "
        "missing {missing}",
    ),
    _row("transcript", "strict_schema_type_missing", V,
        "A strict tool's schema node without a `type` (`{}` in `anyOf`, `items: {}`, a typeless property).",
        "schema at {at} has no 'type' (strict mode needs one on every node; use strict: false for an untyped value)",
        boolean="schema at {at} is {value}: strict mode needs a typed schema",
    ),
    _row("transcript", "strict_schema_keyword", V,
        "A strict tool's schema uses a keyword outside OpenAI's strict-mode subset.",
        "schema at {at} uses {keyword!r}, which strict mode does not support",
    ),
    _row("transcript", "strict_schema_limit", V,
        "A strict tool's schema exceeds a documented strict-mode limit (nesting, properties, enum size).",
        "the schema has {count} {what}; strict mode allows {limit}",
        nesting="objects nest {count} levels deep (at {at}); strict mode allows {limit}",
        large_enum="enum at {at} has {values} values of {count} characters in all: more than {values_limit} string "
        "values may total at most {limit}",
        characters="property names, definition names, enum and const values total {count} characters; strict mode "
        "allows {limit}",
    ),
    # --- target profiles (replayable._profiles): what the target accepts in `input` ----------------------
    _row("transcript", "field_not_accepted", V, "A key the target's input form of the item (or content part), or its "
        "request body, does not declare.", "{what} does not accept {key!r}{hint}; accepted: {listed} [{source}]",
        body="request key {key!r} is not one {profile} accepts [{source}]"),
    _row("transcript", "field_shape", V, "A field of a JSON type the target does not accept there.",
        "{what}.{key} must be {takes}, got {got} [{source}]"),
    _row("transcript", "null_not_accepted", V, "An explicit `null` the target refuses (the key may be absent).",
        "{what}.{key} may be absent but not null (it takes {takes}); leave the key out [{source}]"),
    _row("transcript", "id_format", V, "An item `id` in another provider's format (the target requires its own "
        "prefix).", "{what}.id {id!r} is not in {profile}'s format (it begins with {prefix!r}); an id from another "
        "provider is refused: remove it (replayable.prepare_replay does) [{source}]"),
    _row("transcript", "computer_output_not_screenshot", V, "A `computer_call_output` whose `output` is not a "
        "screenshot object with `image_url` or `file_id`.", "{what}.{key} must be a {want} object {{type: {want!r}, "
        "image_url | file_id}}, got {got} [{source}]",
        part="{ptype} needs {needs} (neither is given) [{source}]"),
    _row("transcript", "image_source_missing", V, "An `input_image` with neither `image_url` nor `file_id`.",
        "{ptype} needs {needs} (neither is given) [{source}]"),
    _row(
        "transcript",
        "data_url_invalid",
        V,
        "A `data:` URL in a content part that is empty, not base64, does not decode, or (an image) is not "
        "`image/*`: refused for every target.",
        "{part_type}.{field} data: URL {why} [OpenAPI InputImageContent.image_url ('a fully qualified URL or base64 "
        "encoded image in a data URL'), InputFileContent.file_data; RFC 2397]",
    ),
    _row("transcript", "reasoning_not_persisted", V, "With `store: false`, a reasoning item sent as a bare id without "
        "`encrypted_content`.", "reasoning {id!r} is sent as a bare id without encrypted_content, but with store: "
        "false nothing is kept server-side: request include: ['reasoning.encrypted_content'] and send the blob back, "
        "or drop the item"),
    _row("transcript", "item_reference_not_persisted", V, "With `store: false`, an `item_reference` (nothing is stored "
        "to refer to).", "with store: false nothing is kept server-side, so an item_reference points at nothing: "
        "send the item itself"),
    _row("transcript", "include_invalid", V, "An `include` value the target does not define.",
        "include value {value!r} is not one {profile} defines: {defined} [{source}]"),
    _row("transcript", "body_conflict", V, "Two request keys the target refuses together (`previous_response_id` and "
        "`conversation`).", "{a} and {b} cannot be used together [{source}]"),
    _row(
        "transcript",
        "body_invalid",
        V,
        "A request body field other than `input` that breaks the body's schema (`model: 5`, "
        "`store: \"yes\"`, a `tool_choice` or a tool of an unknown type, a tool whose `parameters` are no "
        "object): what the body says decides how its items are checked (what it continues, which tools are "
        "allowed), and its tools are sent with it, so a field that cannot be read is refused, never ignored, "
        "whether or not a call names the tool.",
        "field {field}: {msg} [{rule}]",
    ),
    # --- order, company and provenance: what a provider enforces across items and body fields ----------
    _row(
        "transcript",
        "compaction_trigger_not_last",
        V,
        "A `compaction_trigger` that is not the final input item, or one of two (OpenAI: \"The "
        "'compaction_trigger' item must be the final input item.\").",
        "compaction_trigger must be the final input item, but item {next_index} follows it (move it to the end) "
        "[OpenAPI CompactionTriggerItemParam; case R61]",
        twice="only one compaction_trigger may be sent, and as the final input item: item {next_index} is another "
        "(keep one, at the end) [OpenAPI CompactionTriggerItemParam; case R61]",
    ),
    _row(
        "transcript",
        "tool_choice_not_declared",
        V,
        "A `tool_choice` or `allowed_tools` entry naming a tool the body's `tools` do not declare (a function or "
        "custom tool by name, an MCP server by `server_label`, a hosted tool by type).",
        "{where} names {what}, but tools declares no such tool{hint} [OpenAI: \"Tool choice '...' not found in "
        "'tools' parameter.\", case R68]",
    ),
    _row("transcript", "file_data_without_filename", V, "An `input_file` with inline `file_data` but no `filename`.",
        "{ptype}.{key} is given without {needed}: {profile} refuses it (add {needed}) [{source}]"),
    # --- Agents API event logs (replayable.agents.check_event_log) ------------------------------------
    _row("agents", "event_invalid", V, "A known event or an input event that does not parse."),
    _row(
        "agents",
        "malformed_result",
        V,
        "A tool result or approval answer that breaks its rule (or does not fit its approval request).",
    ),
    _row(
        "agents",
        "result_without_action",
        V,
        "A tool result whose (turn_id, call_id) pair, or an approval answer whose request_id, is not pending.",
    ),
    _row(
        "agents",
        "double_answer",
        V,
        "A second, different answer for one pending action (resending the same answer is fine).",
    ),
    _row(
        "agents",
        "unanswered_action",
        V,
        "A required function_call or approval request that nothing answers by the end of the log.",
        "call {call_id!r} ({name!r}, turn {turn_id!r}) was never answered",
        approval="{type} {request_id!r} (turn {turn_id!r}) was never answered",
    ),
    _row(
        "agents",
        "unknown_tool",
        W,
        "A required function_call naming no function tool of the session's agent (refused before execution: a "
        "violation only as `executed_rejected_call`).",
        "call {call_id!r} names {name!r}, which is not a function tool of the agent",
        shared="call {call_id!r} names {name!r}, which two function tools of the agent share",
    ),
    _row(
        "agents",
        "arguments_schema",
        W,
        "A required function_call whose arguments fail its tool's `parameters` (refused before execution: a "
        "violation only as `executed_rejected_call`).",
        _DETAIL,
        unusable="tool {name!r} cannot be checked: {detail}",
    ),
    _row(
        "agents",
        "duplicate_tool",
        V,
        "Two function tools of the session's agent share one name: which one a call to it runs would be a guess, "
        "so calls to that name are refused too.",
        "two function tools of the agent are named {name!r}: which one a call runs would be a guess",
    ),
    _row(
        "agents",
        "action_conflict",
        V,
        "A later required function_call reuses a (turn_id, call_id) pair with another name or other arguments.",
    ),
    _row(
        "agents",
        "executed_rejected_call",
        V,
        "A `success: true` result for a call that `check_arguments` refused (unknown tool, arguments that fail "
        "the tool schema, or a tool schema that cannot be checked).",
        "call {call_id!r} was refused before execution but answered with success: true ({why})",
    ),
    _row(
        "agents",
        "mixed_sessions",
        V,
        "Events of more than one session in one log: a tool result names no session, so which session it "
        "answers would be a guess; the other session's events are not acted on (check each session's log alone).",
        "an event of session {session_id!r} in the log of session {first!r}: a tool result names no session, so "
        "which one it answers would be a guess (check each session's log on its own)",
    ),
    # --- streams (replayable.stream) -------------------------------------------------------------------
    _row("stream", "sse_malformed", V, "SSE framing that cannot be read."),
    _row("stream", "sse_truncated", V, "The last frame of an SSE capture lacks its terminating blank line."),
    _row(
        "stream",
        "done_missing",
        V,
        'An SSE capture does not end with `data: [DONE]` (a note in lenient reading and with `provider="openai"`).',
    ),
    _row(
        "stream",
        "after_done_marker",
        V,
        "An SSE frame after `data: [DONE]`, the end of the stream (what follows is never dropped silently).",
    ),
    _row("stream", "event_name", V, "The SSE `event:` line differs from the body's `type`."),
    _row("stream", "event_schema", V, "An event does not match the model of its type."),
    _row("stream", "unknown_event", V, "An un-prefixed event `type` that is not a spec event."),
    _row(
        "stream", "sequence_missing", V, 'An event without `sequence_number` (a note, once, with `provider="openai"`).'
    ),
    _row("stream", "sequence_order", V, "`sequence_number` not strictly increasing."),
    _row("stream", "not_added", V, "An event for an `output_index` never announced by `response.output_item.added`."),
    _row("stream", "item_id", V, "An event whose `item_id` is not the id of the item at its `output_index`."),
    _row("stream", "added_twice", V, "A second `response.output_item.added` for one `output_index`."),
    _row("stream", "output_index", V, "A `response.output_item.added` whose `output_index` is not the next position."),
    _row("stream", "duplicate_id", V, "An item whose `id` or `call_id` is already another item's in this response."),
    _row("stream", "after_done", V, "An event for an item after its `response.output_item.done`."),
    _row("stream", "item_schema", V, "The item of `output_item.added` / `.done` is not a valid output item."),
    _row(
        "stream", "item_changed", V, "The done item's `type`, `id`, `call_id` or `name` differs from the added item's."
    ),
    _row("stream", "done_status", V, "An `output_item.done` spec item whose `status` is still `in_progress`."),
    _row("stream", "wrong_item", V, "Argument or content events for an item of a type that has none."),
    _row("stream", "part_order", V, "A delta or done for a content part never added, already done, or added twice."),
    _row("stream", "text_mismatch", V, "A done text or part that differs from the concatenated deltas."),
    _row(
        "stream", "arguments_mismatch", V, "Done arguments (or input, code) that differ from the concatenated deltas."
    ),
    _row("stream", "after_incomplete", V, "An item added after an `incomplete` item (which must be the last one)."),
    _row("stream", "response_status", V, "A terminal event whose status disagrees with its items or its snapshot."),
    _row("stream", "after_terminal", V, "An event after `response.completed` / `failed` / `incomplete`."),
    _row("stream", "snapshot_mismatch", V, "The terminal snapshot's `output` disagrees with the streamed items."),
    _row(
        "stream",
        "snapshot_schema",
        N,
        "The terminal snapshot is not a complete `ResponseResource` (real ones often miss keys).",
    ),
    _row("stream", "no_terminal", V, "The stream was closed before any terminal event."),
    # --- notes (replayable._notes) ----------------------------------------------------------------------
    _row(
        "note",
        "unconstrained_identifier",
        N,
        "A string property named like an id, code or status without `pattern`, `enum`, `const` or `format`, or a "
        "money `amount` without them (or a numeric bound).",
        "{key!r} looks like an identifier or code but is a bare string (no pattern, enum or format), which lets "
        "any value through ('1042' where 'A-1042' is meant); constrain it",
        amount="{key!r} looks like a money amount but has no enum, format, pattern or bound, which lets any value "
        "through ('10.5' where cents are meant, a negative refund); amounts and statuses want an enum or an explicit "
        "format: constrain it",
    ),
    _row(
        "note",
        "hosted_tool",
        N,
        "A hosted tool (`web_search`, `mcp`, `custom`, ...): not a function tool, it has no parameters schema to "
        "check.",
        "{type!r} is a hosted tool, not a function tool: it has no parameters schema to check (its calls are "
        "not function calls)",
        custom="'custom' is a custom tool, not a function tool: its input is free text (its 'format', if any, "
        "constrains it), so there is no parameters schema to check",
    ),
    _row(
        "note",
        "subagents_without_function_tools",
        N,
        "`multi_agent` is enabled and the agent has function tools, which subagents do not get.",
        "multi_agent is enabled and the agent has function tools ({tools}): subagents do not get function tools, "
        "so only the parent agent can call them",
    ),
    _row(
        "note",
        "deferred_without_tool_search",
        N,
        "A function tool with `defer_loading: true` and no `tool_search` tool: a deferred tool is loaded only "
        "through tool search, so the model never sees it.",
        "tool {name!r} is deferred (defer_loading: true) but no tool_search tool is listed: a deferred tool is "
        "loaded only through tool search, so the model never sees it; add {{\"type\": \"tool_search\"}} or drop "
        "defer_loading",
    ),
    _row(
        "note",
        "text_format_not_applied",
        N,
        "A Responses-style `agent.text.format` on an Agents API session: the session does not apply it.",
        "agent.text.format ({type!r}) is how a Responses request asks for structured output; an Agents session does "
        "not apply it to its answers, so check the final answer yourself (or give a function tool the schema)",
    ),
    _row(
        "note",
        "strict_fallback",
        N,
        "A function tool without `strict` whose schema strict mode cannot take: OpenAI falls back to non-strict "
        "validation for it (a violation only with `strict: true`).",
        "strict is not set and strict mode cannot take this schema ({cause.code}: {cause.message}): OpenAI falls "
        "back to non-strict validation, so arguments may not fit the schema (replayable.gate checks them); fix the "
        "schema or set strict: false [OpenAPI FunctionToolParam.strict]",
    ),
)

_BY_SCOPE: dict[str, dict[str, CodeInfo]] = {}
for _info in CODES:
    _BY_SCOPE.setdefault(_info.scope, {})[_info.code] = _info


class ViolationCode(StrEnum):
    """Stable codes of transcript and tool violations (meaning and message: the table of codes, docs/codes.md)."""

    ITEM_INVALID = "item_invalid"
    UNKNOWN_ITEM_TYPE = "unknown_item_type"
    FUNCTION_ARGUMENTS_NOT_STRING = "function_arguments_not_string"
    OUTPUT_NOT_STRING_OR_CONTENT_PARTS = "output_not_string_or_content_parts"
    REASONING_MISSING_SUMMARY = "reasoning_missing_summary"
    CHAT_COMPLETIONS_ENVELOPE = "chat_completions_envelope"
    FUNCTION_CALL_IN_CONTENT = "function_call_in_content"
    OUTPUT_WITHOUT_FUNCTION_CALL = "output_without_function_call"
    FUNCTION_CALL_WITHOUT_OUTPUT = "function_call_without_output"
    DUPLICATE_CALL_ID = "duplicate_call_id"
    DUPLICATE_OUTPUT = "duplicate_output"
    INCOMPLETE_CALL_REPLAYED = "incomplete_call_replayed"
    IN_PROGRESS_CALL_REPLAYED = "in_progress_call_replayed"
    OUTPUT_FOR_UNFINISHED_CALL = "output_for_unfinished_call"
    CALL_ID_EMPTY = "call_id_empty"
    INCOMPLETE_NOT_LAST = "incomplete_not_last"
    RESPONSE_NOT_INCOMPLETE = "response_not_incomplete"
    RESPONSE_NOT_FINISHED = "response_not_finished"
    DUPLICATE_ITEM_ID = "duplicate_item_id"
    REASONING_WITHOUT_FOLLOWING_ITEM = "reasoning_without_following_item"
    FOREIGN_EXTENSION_ITEM = "foreign_extension_item"
    FOREIGN_PROVIDER_STATE = "foreign_provider_state"
    SAFETY_CHECK_NOT_ACKNOWLEDGED = "safety_check_not_acknowledged"
    UNKNOWN_TOOL = "unknown_tool"
    TOOL_NOT_ALLOWED = "tool_not_allowed"
    ARGUMENTS_PARSE = "arguments_parse"
    ARGUMENTS_SCHEMA = "arguments_schema"
    INVALID_TOOL = "invalid_tool"
    PARAMETERS_NOT_OBJECT = "parameters_not_object"
    STRICT_SCHEMA_ADDITIONAL_PROPERTIES = "strict_schema_additional_properties"
    STRICT_SCHEMA_REQUIRED_INCOMPLETE = "strict_schema_required_incomplete"
    STRICT_SCHEMA_TYPE_MISSING = "strict_schema_type_missing"
    STRICT_SCHEMA_KEYWORD = "strict_schema_keyword"
    STRICT_SCHEMA_LIMIT = "strict_schema_limit"
    FIELD_NOT_ACCEPTED = "field_not_accepted"
    FIELD_SHAPE = "field_shape"
    NULL_NOT_ACCEPTED = "null_not_accepted"
    ID_FORMAT = "id_format"
    COMPUTER_OUTPUT_NOT_SCREENSHOT = "computer_output_not_screenshot"
    IMAGE_SOURCE_MISSING = "image_source_missing"
    DATA_URL_INVALID = "data_url_invalid"
    REASONING_NOT_PERSISTED = "reasoning_not_persisted"
    ITEM_REFERENCE_NOT_PERSISTED = "item_reference_not_persisted"
    INCLUDE_INVALID = "include_invalid"
    BODY_CONFLICT = "body_conflict"
    BODY_INVALID = "body_invalid"
    COMPACTION_TRIGGER_NOT_LAST = "compaction_trigger_not_last"
    TOOL_CHOICE_NOT_DECLARED = "tool_choice_not_declared"
    FILE_DATA_WITHOUT_FILENAME = "file_data_without_filename"


class AgentsViolationCode(StrEnum):
    """Stable codes of `check_event_log` (meaning and message: the table of codes, docs/codes.md)."""

    EVENT_INVALID = "event_invalid"
    MALFORMED_RESULT = "malformed_result"
    RESULT_WITHOUT_ACTION = "result_without_action"
    DOUBLE_ANSWER = "double_answer"
    UNANSWERED_ACTION = "unanswered_action"
    UNKNOWN_TOOL = "unknown_tool"
    ARGUMENTS_SCHEMA = "arguments_schema"
    DUPLICATE_TOOL = "duplicate_tool"
    ACTION_CONFLICT = "action_conflict"
    EXECUTED_REJECTED_CALL = "executed_rejected_call"
    MIXED_SESSIONS = "mixed_sessions"


class StreamRule(StrEnum):
    """Stable codes of the streaming rules (see `replayable.stream` for what breaks each)."""

    SSE_MALFORMED = "sse_malformed"
    SSE_TRUNCATED = "sse_truncated"
    DONE_MISSING = "done_missing"
    AFTER_DONE_MARKER = "after_done_marker"
    EVENT_NAME = "event_name"
    EVENT_SCHEMA = "event_schema"
    UNKNOWN_EVENT = "unknown_event"
    SEQUENCE_MISSING = "sequence_missing"
    SEQUENCE_ORDER = "sequence_order"
    NOT_ADDED = "not_added"
    ITEM_ID = "item_id"
    ADDED_TWICE = "added_twice"
    OUTPUT_INDEX = "output_index"
    DUPLICATE_ID = "duplicate_id"
    AFTER_DONE = "after_done"
    ITEM_SCHEMA = "item_schema"
    ITEM_CHANGED = "item_changed"
    DONE_STATUS = "done_status"
    WRONG_ITEM = "wrong_item"
    PART_ORDER = "part_order"
    TEXT_MISMATCH = "text_mismatch"
    ARGUMENTS_MISMATCH = "arguments_mismatch"
    AFTER_INCOMPLETE = "after_incomplete"
    RESPONSE_STATUS = "response_status"
    AFTER_TERMINAL = "after_terminal"
    SNAPSHOT_MISMATCH = "snapshot_mismatch"
    SNAPSHOT_SCHEMA = "snapshot_schema"
    NO_TERMINAL = "no_terminal"


class NoteCode(StrEnum):
    """The stable codes of notes (meaning and message: the table of codes, docs/codes.md)."""

    UNCONSTRAINED_IDENTIFIER = "unconstrained_identifier"
    HOSTED_TOOL = "hosted_tool"
    SUBAGENTS_WITHOUT_FUNCTION_TOOLS = "subagents_without_function_tools"
    DEFERRED_WITHOUT_TOOL_SEARCH = "deferred_without_tool_search"
    TEXT_FORMAT_NOT_APPLIED = "text_format_not_applied"
    STRICT_FALLBACK = "strict_fallback"


#: Each code enum and the scope of the table it must match, member for member.
_ENUMS: dict[type[StrEnum], Scope] = {
    ViolationCode: "transcript",
    AgentsViolationCode: "agents",
    StreamRule: "stream",
    NoteCode: "note",
}


def _check_enums() -> None:
    for enum, scope in _ENUMS.items():
        members, rows = [m.value for m in enum], list(_BY_SCOPE[scope])
        if members != rows:  # pragma: no cover - a code added to one side only
            raise RuntimeError(f"{enum.__name__} and the {scope!r} rows of replayable._codes.CODES differ")


_check_enums()


def code_info(code: str) -> CodeInfo:
    """The table row of `code`: a member of one of the code enums (its scope decides the row: the agents
    `unknown_tool` is not the transcript one), or a plain string (looked up in the transcript, agents,
    stream and note rows, in that order). Raises `KeyError` for a code not in the table."""
    scope = _ENUMS.get(type(code))  # type: ignore[arg-type]
    if scope is not None:
        return _BY_SCOPE[scope][code]
    for rows in _BY_SCOPE.values():
        if code in rows:
            return rows[code]
    raise KeyError(code)


_HEADINGS: dict[str, str] = {
    "transcript": "Items and tools (`ViolationCode`)",
    "agents": "Agents API event logs (`AgentsViolationCode`)",
    "stream": "Streams (`StreamRule`)",
    "note": "Notes (`NoteCode`)",
}


def markdown_table() -> str:
    """The table of codes in docs/codes.md (between its `begin: table of finding codes` and `end: ...`
    markers), generated from `CODES`."""
    lines: list[str] = []
    for scope, heading in _HEADINGS.items():
        lines += ["", f"**{heading}**", "", "| Code | Severity | Meaning |", "| --- | --- | --- |"]
        lines += [f"| `{i.code}` | {i.severity} | {i.meaning} |" for i in _BY_SCOPE[scope].values()]
    return "\n".join(lines[1:])
