"""For every finding code: a minimal input that shows it and how to fix it (`replayable explain CODE`).

One table, `EXAMPLES`, beside the table of codes (`replayable._codes`, which holds each code's scope,
severity, meaning and message): for each code, the text of a file that `replayable check` (with the
flags given) reports that code for, and the fix. A test runs every example through the command line's
own check (`replayable._cli`, the same door as `replayable check FILE`) and asserts that it reports its
code, so that no example drifts from the rules.

Examples are written as the files they are: a JSON array with one item a line, JSONL, or an SSE
capture (`file` says which). Stream and Agents API examples are built from a few events by small
helpers here, so that each shows only what matters; their snapshots are the minimal ones (a stream's
final snapshot then also gets the `snapshot_schema` note, which blocks nothing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["EXAMPLES", "Example", "example"]


@dataclass(frozen=True, slots=True)
class Example:
    """The example of one code: `text` is the file (named `file`, whose ending says what it is), `flags`
    the `replayable check` options it needs, `fix` what to do about the finding (one or two sentences)."""

    code: str
    scope: str
    text: str
    fix: str
    file: str = "example.json"
    flags: tuple[str, ...] = ()
    #: where the code is reported: `check` (`replayable check`), or `check_tool` (the notes of
    #: `replayable.check_tool(tool)`, for one tool definition: `text`)
    door: str = "check"
    #: the reading the `check_tool` door asks for (`provider=`), None for Open Responses
    provider: str | None = None

    def command(self) -> str:
        """What shows the code: `replayable check [FLAGS] FILE`, or the library call."""
        if self.door == "check_tool":
            extra = f", provider={self.provider!r}" if self.provider else ""
            call = f'replayable.check_tool(json.load(open("{self.file}")){extra}).notes'
            return f"python -c 'import json, replayable; print({call})'"
        return " ".join(["replayable check", *self.flags, self.file])


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _items(*items: Any) -> str:
    """A JSON array, one item a line (as the bundled examples are written)."""
    return "[\n" + ",\n".join("  " + _j(i) for i in items) + "\n]\n"


def _doc(value: Any) -> str:
    """A JSON object with one key a line, and each element of a list value on a line of its own."""
    if not isinstance(value, dict):
        return _j(value) + "\n"
    lines = []
    for n, (key, v) in enumerate(value.items()):
        comma = "," if n < len(value) - 1 else ""
        if isinstance(v, list) and v:
            inner = ",\n".join("    " + _j(x) for x in v)
            lines.append(f"  {_j(key)}: [\n{inner}\n  ]{comma}")
        else:
            lines.append(f"  {_j(key)}: {_j(v)}{comma}")
    return "{\n" + "\n".join(lines) + "\n}\n"


USER: dict[str, Any] = {"type": "message", "role": "user", "content": "Weather in Paris?"}
CALL: dict[str, Any] = {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Paris"}'}
OUT: dict[str, Any] = {"type": "function_call_output", "call_id": "call_1", "output": "18C, clear"}
ANSWER: dict[str, Any] = {"type": "message", "role": "assistant", "content": "It is 18C and clear."}
TOOL: dict[str, Any] = {
    "type": "function",
    "name": "get_weather",
    "strict": True,
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
}


def _tools(*tools: Any) -> str:
    return _items(*tools)


def _body(**fields: Any) -> str:
    return _doc({"model": "gpt-5", **fields})


# --- streams -----------------------------------------------------------------------------------------------

_MSG: dict[str, Any] = {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []}
_TEXT: dict[str, Any] = {"type": "output_text", "text": "Hi", "annotations": []}
_DONE_MSG: dict[str, Any] = {**_MSG, "status": "completed", "content": [_TEXT]}


def _resp(status: str, output: list[Any]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "status": status, "output": output}


def _ev(t: str, **fields: Any) -> dict[str, Any]:
    return {"type": t, **fields}


def _message_events(item_id: str = "msg_1") -> list[dict[str, Any]]:
    """A message streamed whole: added, its part and text, done (no sequence numbers yet)."""
    where = {"item_id": item_id, "output_index": 0, "content_index": 0}
    return [
        _ev("response.output_item.added", output_index=0, item={**_MSG, "id": item_id}),
        _ev("response.content_part.added", **where, part={**_TEXT, "text": ""}),
        _ev("response.output_text.delta", **where, delta="Hi"),
        _ev("response.output_text.done", **where, text="Hi"),
        _ev("response.content_part.done", **where, part=_TEXT),
        _ev("response.output_item.done", output_index=0, item={**_DONE_MSG, "id": item_id}),
    ]


def _stream(
    middle: list[dict[str, Any]] | None = None,
    *,
    final: list[Any] | None = None,
    terminal: str | None = "response.completed",
    status: str = "completed",
    done: bool = True,
    numbered: bool = True,
) -> str:
    """An SSE capture: response.created, `middle` (default: one message), the terminal event with a
    snapshot of `final` output (default: the message), then `data: [DONE]`."""
    events = [_ev("response.created", response=_resp("in_progress", []))]
    events += _message_events() if middle is None else middle
    if terminal is not None:
        events.append(_ev(terminal, response=_resp(status, [_DONE_MSG] if final is None else final)))
    out = []
    for n, e in enumerate(events):
        e = {"type": e["type"], "sequence_number": n, **e} if numbered and "sequence_number" not in e else e
        out.append(f"event: {e['type']}\ndata: {_j(e)}\n\n")
    return "".join(out) + ("data: [DONE]\n\n" if done else "")


def _raw_stream(frames: list[str]) -> str:
    return "".join(frames)


# --- Agents API logs ------------------------------------------------------------------------------------------

_AGENT_TOOL: dict[str, Any] = {**TOOL, "defer_loading": False}


def _session(status: str = "idle", actions: list[Any] | None = None, tools: list[Any] | None = None, sid: str = "sess_1") -> dict[str, Any]:
    return {
        "id": sid,
        "object": "agent.session",
        "status": status,
        "required_actions": actions or [],
        "agent": {"id": "agt_1", "model": "m", "tools": [_AGENT_TOOL] if tools is None else tools},
    }


_ACTION: dict[str, Any] = {"type": "function_call", "turn_id": "turn_1", "call_id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}


def _log(*events: Any) -> str:
    return "".join(_j(e) + "\n" for e in events)


def _created(tools: list[Any] | None = None, **session: Any) -> dict[str, Any]:
    return {"type": "agent.session.created", "event_id": "e0", "session": {**_session(tools=tools), **session}}


def _requires(*actions: Any, tools: list[Any] | None = None, sid: str = "sess_1") -> dict[str, Any]:
    return {
        "type": "agent.session.requires_action",
        "event_id": "e1",
        "session": _session("requires_action", list(actions) or [_ACTION], tools, sid),
    }


def _result(call_id: str = "call_1", turn_id: str = "turn_1", success: bool = True, output: Any = "18C") -> dict[str, Any]:
    return {"type": "agent.session.input.tool_result", "turn_id": turn_id, "call_id": call_id, "success": success, "output": output}


_AGENTS = ("--agents",)


def _x(
    code: str, scope: str, text: str, fix: str, file: str = "example.json", flags: tuple[str, ...] = (), door: str = "check",
    provider: str | None = None,
) -> Example:
    return Example(code, scope, text, fix, file, flags, door, provider)


_T, _A, _S, _N = "transcript", "agents", "stream", "note"
_SSE, _JSONL = "example.sse", "example.jsonl"
_TOOLS_FILE = "tools.json"

# One row a code, in the order of `replayable._codes` (long lines kept: each row reads as one entry).
# fmt: off
_ROWS: tuple[Example, ...] = (
    # --- transcript --------------------------------------------------------------------------------------------
    _x("item_invalid", _T, _items(USER, {**CALL, "name": 42}, OUT),
       "Give the field the type the spec gives it (here `name` is a string); the finding names the field."),
    _x("unknown_item_type", _T, _items(USER, {"type": "web_lookup", "query": "Paris"}),
       "Use a type the spec defines, or name a provider extension `slug:name` (`acme:web_lookup`)."),
    _x("function_arguments_not_string", _T, _items(USER, {**CALL, "arguments": {"city": "Paris"}}, OUT),
       "Store `arguments` as the JSON text of the object (`json.dumps(arguments)`); "
       "`replayable prepare` does it for you."),
    _x("output_not_string_or_content_parts", _T, _items(USER, CALL, {**OUT, "output": {"temp": 18}}),
       "Store the output as a string (`json.dumps` of an object) or as a list of content parts."),
    _x("reasoning_missing_summary", _T, _items(USER, {"type": "reasoning", "content": []}, ANSWER),
       "Keep the reasoning item's `summary`, even when it is empty (`\"summary\": []`)."),
    _x("chat_completions_envelope", _T, _items(USER, CALL, {"role": "tool", "tool_call_id": "call_1", "content": "18C"}),
       "Convert Chat Completions messages to items (`replayable convert --from chat-completions`, "
       "`replayable.from_chat_completions`); `replayable prepare` converts them in place."),
    _x("function_call_in_content", _T,
       _items(USER, {"type": "message", "role": "assistant", "content": [{"type": "function_call", "name": "get_weather", "arguments": "{}"}]}),
       "Make the call its own `function_call` item (with a `call_id`) after the message, not a content part."),
    _x("output_without_function_call", _T, _items(USER, {**OUT, "call_id": "call_9"}),
       "Drop the output, or restore the `function_call` it answers (same `call_id`, byte for byte) before it."),
    _x("function_call_without_output", _T, _items(USER, CALL, ANSWER),
       "Answer the call with a `function_call_output` right after it, or drop the call; a call the "
       "application is still running is pending (`--pending-ok`) only at the very end."),
    _x("duplicate_call_id", _T, _items(USER, CALL, OUT, {**CALL, "arguments": '{"city":"Lyon"}'}, OUT),
       "Give every call its own `call_id` (and answer each once)."),
    _x("duplicate_output", _T, _items(USER, CALL, OUT, OUT),
       "Keep one `function_call_output` per call; drop the second."),
    _x("incomplete_call_replayed", _T, _items(USER, {**CALL, "arguments": '{"ci', "status": "incomplete"}),
       "Drop the cut-off call (and anything answering it), or run the model again; its arguments may be truncated."),
    _x("in_progress_call_replayed", _T, _items(USER, {**CALL, "status": "in_progress"}),
       "Wait for the call to finish (`status: completed`) before storing or replaying it, or drop it."),
    _x("output_for_unfinished_call", _T, _items(USER, {**CALL, "status": "incomplete"}, OUT),
       "Drop the call and its output: an unfinished call is never answered."),
    _x("call_id_empty", _T,
       _doc(_resp("completed", [{**CALL, "id": "fc_1", "call_id": "", "status": "completed"}])),
       "A call needs a `call_id` of 1-64 characters; fix the producer that stored an empty one."),
    _x("incomplete_not_last", _T,
       _doc(_resp("incomplete", [{**_DONE_MSG, "status": "incomplete"}, {**_DONE_MSG, "id": "msg_2"}])),
       "Only the last item of a response may be `incomplete`; drop what follows it."),
    _x("response_not_incomplete", _T,
       _doc(_resp("completed", [{**_DONE_MSG, "status": "incomplete"}])),
       "Store the Response's real `status` (`incomplete` when its last item is), or finish the item."),
    _x("response_not_finished", _T, _doc(_resp("in_progress", [_DONE_MSG])),
       "Check (and store) a Response once it is `completed` or `incomplete`; a failed or cancelled one is not replayed."),
    _x("duplicate_item_id", _T, _items(USER, {**CALL, "id": "fc_1"}, OUT, {**CALL, "id": "fc_1", "call_id": "call_2"}, {**OUT, "call_id": "call_2"}),
       "Give each item its own `id`, or remove the ids (they are optional on input)."),
    _x("reasoning_without_following_item", _T,
       _items(USER, {"type": "reasoning", "id": "rs_1", "summary": []}),
       "Keep the item the reasoning produced (with its `id`) right after it, or drop the reasoning too."),
    _x("foreign_extension_item", _T,
       _items(USER, {"type": "openai:web_search_call", "id": "ws_1", "status": "completed"}, ANSWER),
       "Drop items of another provider before replaying to this target (`replayable prepare --target`).",
       flags=("--target", "acme")),
    _x("foreign_provider_state", _T,
       _items(USER, {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA..."}, {**ANSWER, "id": "msg_1"}),
       "Drop reasoning `encrypted_content` and compaction items when replaying to another provider "
       "(`replayable prepare --target`), or say where they came from (`--provider`).",
       flags=("--target", "acme")),
    _x("safety_check_not_acknowledged", _T,
       _items(USER,
              {"type": "computer_call", "id": "cu_1", "call_id": "call_1", "action": {"type": "screenshot"},
               "pending_safety_checks": [{"id": "sc_1", "code": "malicious_instructions", "message": "check"}], "status": "completed"},
              {"type": "computer_call_output", "call_id": "call_1",
               "output": {"type": "computer_screenshot", "image_url": "https://example.com/s.png"}}),
       "List every `pending_safety_checks` entry of the call in the output's `acknowledged_safety_checks` "
       "(only once a person has reviewed them).",
       flags=("--provider", "openai")),
    _x("unknown_tool", _T, _body(input=[USER, {**CALL, "name": "get_time"}, OUT], tools=[TOOL]),
       "Call only tools the request defines, or add the tool's definition to `tools` (or `--tools`)."),
    _x("tool_not_allowed", _T,
       _body(input=[USER, CALL, OUT], tools=[TOOL, {**TOOL, "name": "get_time"}],
             tool_choice={"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "get_time"}]}),
       "Call only the tools `allowed_tools` lists, or list the tool there."),
    _x("arguments_parse", _T, _body(input=[USER, {**CALL, "arguments": "{'city': 'Paris'}"}, OUT], tools=[TOOL]),
       "Store arguments as strict JSON text (double quotes, no NaN, no duplicate keys)."),
    _x("arguments_schema", _T, _body(input=[USER, {**CALL, "arguments": '{"town":"Paris"}'}, OUT], tools=[TOOL]),
       "Make the arguments fit the tool's `parameters` (the finding names the rule), or fix the schema."),
    _x("invalid_tool", _T, _tools({"type": "function", "name": "get weather!", "parameters": TOOL["parameters"]}),
       "Give the tool a name of letters, digits, `_` and `-` (at most 64) and a valid JSON Schema.", file=_TOOLS_FILE),
    _x("parameters_not_object", _T, _tools({**TOOL, "strict": False, "parameters": {"type": "string"}}),
       "Make `parameters` an object schema (`{\"type\": \"object\", \"properties\": {...}}`): arguments are a JSON object.",
       file=_TOOLS_FILE),
    _x("strict_schema_additional_properties", _T,
       _tools({**TOOL, "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}),
       "Add `\"additionalProperties\": false` to every object schema of a strict tool.", file=_TOOLS_FILE),
    _x("strict_schema_required_incomplete", _T,
       _tools({**TOOL, "parameters": {**TOOL["parameters"], "properties": {"city": {"type": "string"}, "unit": {"type": "string"}}}}),
       "List every property in `required`; make an optional one nullable (`\"type\": [\"string\", \"null\"]`).",
       file=_TOOLS_FILE),
    _x("strict_schema_type_missing", _T,
       _tools({**TOOL, "parameters": {**TOOL["parameters"], "properties": {"city": {}}}}),
       "Give every schema node of a strict tool a `type`.", file=_TOOLS_FILE),
    _x("strict_schema_keyword", _T,
       _tools({**TOOL, "parameters": {**TOOL["parameters"], "properties": {"city": {"type": "string", "if": {"minLength": 1}, "then": {}}}}}),
       "Use only the keywords of OpenAI's strict-mode subset, or set `strict: false`.", file=_TOOLS_FILE),
    _x("strict_schema_limit", _T,
       _tools({**TOOL, "parameters": {**TOOL["parameters"], "properties": {"city": {"type": "string", "enum": [f"c{n}" for n in range(1001)]}}}}),
       "Stay within the strict-mode limits (nesting depth, number of properties, enum values), or split the tool.",
       file=_TOOLS_FILE),
    _x("field_not_accepted", _T, _items(USER, {**CALL, "role": "assistant"}, OUT),
       "Remove the key the target does not declare (`replayable prepare --target openai` does).",
       flags=("--target", "openai")),
    _x("field_shape", _T,
       _items(USER, {"type": "tool_search_call", "id": "tsc_1", "call_id": "call_1", "arguments": "{}", "status": "completed", "execution": "server"}),
       "Give the field the JSON type the target documents (here an object, not a string).",
       flags=("--target", "openai")),
    _x("null_not_accepted", _T, _items({**USER, "status": None}),
       "Leave the key out instead of sending `null` (`replayable prepare --target openai` does).",
       flags=("--target", "openai")),
    _x("id_format", _T, _items(USER, {**CALL, "id": "toolu_01A"}, OUT),
       "Remove ids another provider minted (they are optional on input); `replayable prepare` does.",
       flags=("--target", "openai")),
    _x("computer_output_not_screenshot", _T,
       _items(USER, {"type": "computer_call", "id": "cu_1", "call_id": "call_1", "action": {"type": "screenshot"}, "pending_safety_checks": [], "status": "completed"},
              {"type": "computer_call_output", "call_id": "call_1", "output": "done"}),
       "Answer a computer call with a `computer_screenshot` object holding `image_url` or `file_id`.",
       flags=("--target", "openai", "--provider", "openai")),
    _x("image_source_missing", _T,
       _items({"type": "message", "role": "user", "content": [{"type": "input_image", "detail": "auto"}]}),
       "Give the image an `image_url` (or `data:` URL) or a `file_id`, or drop the part.",
       flags=("--target", "openai")),
    _x("data_url_invalid", _T,
       _items({"type": "message", "role": "user", "content": [{"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,"}]}),
       "Send a non-empty base64 `data:` URL of an accepted media type, or a URL.",
       flags=("--target", "openai")),
    _x("compaction_trigger_not_last", _T, _body(input=[USER, {"type": "compaction_trigger"}, USER]),
       "Send `compaction_trigger` once, as the last input item.", flags=("--provider", "openai")),
    _x("tool_choice_not_declared", _T, _body(input=[USER], tools=[TOOL], tool_choice={"type": "function", "name": "get_time"}),
       "Name in `tool_choice` (and in `allowed_tools`) only tools the body's `tools` declare, or declare the tool."),
    _x("file_data_without_filename", _T,
       _items({"type": "message", "role": "user", "content": [{"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0xLjQK"}]}),
       "Give an `input_file` with inline `file_data` its `filename` (`notes.pdf`).", flags=("--target", "openai")),
    _x("reasoning_not_persisted", _T,
       _body(store=False, input=[USER, {"type": "reasoning", "id": "rs_1", "summary": []}, {**ANSWER, "id": "msg_1"}]),
       "With `store: false`, send reasoning with its `encrypted_content` (ask for `reasoning.encrypted_content` "
       "in `include`), or drop it.",
       flags=("--target", "openai")),
    _x("item_reference_not_persisted", _T,
       _body(store=False, input=[USER, {"type": "item_reference", "id": "msg_1"}]),
       "With `store: false` nothing is stored to refer to: send the item itself.",
       flags=("--target", "openai")),
    _x("include_invalid", _T, _body(input=[USER], include=["reasoning.summary"]),
       "Ask only for `include` values the target defines.", flags=("--target", "openai")),
    _x("body_conflict", _T, _body(input=[USER], previous_response_id="resp_1", conversation="conv_1"),
       "Continue either a previous response or a conversation, not both.", flags=("--target", "openai")),
    _x("body_invalid", _T, _body(input=[USER], store="yes"),
       "Give the body's field the type its schema says (here `store` is a boolean)."),
    # --- Agents API ------------------------------------------------------------------------------------------
    _x("event_invalid", _A, _log(_created(), {**_requires(), "session": {"id": "sess_1", "status": 5}}),
       "Log events as the API sent them; the finding names the field that does not parse.", _JSONL, _AGENTS),
    _x("malformed_result", _A, _log(_created(), _requires(), _result(output=None)),
       "Give a tool result its `output` (a string), or report the failure with `success: false`.", _JSONL, _AGENTS),
    _x("result_without_action", _A, _log(_created(), _requires(), _result(), _result(call_id="call_9")),
       "Answer only pending actions: the (turn_id, call_id) of a required function_call.", _JSONL, _AGENTS),
    _x("double_answer", _A, _log(_created(), _requires(), _result(), _result(output="19C")),
       "Answer each required action once; resend the same answer if a retry is needed.", _JSONL, _AGENTS),
    _x("unanswered_action", _A, _log(_created(), _requires()),
       "Answer every required function_call (or approval request) with `agent.session.input.*`.", _JSONL, _AGENTS),
    _x("unknown_tool", _A, _log(_created(), _requires({**_ACTION, "name": "get_time"})),
       "Run only calls to the agent's function tools; answer others with `success: false`.", _JSONL, _AGENTS),
    _x("arguments_schema", _A, _log(_created(), _requires({**_ACTION, "arguments": {"town": "Paris"}})),
       "Refuse calls whose arguments fail the tool's schema (`check_arguments`): answer with `success: false`.",
       _JSONL, _AGENTS),
    _x("duplicate_tool", _A, _log(_created(tools=[_AGENT_TOOL, _AGENT_TOOL])),
       "Give each function tool of the agent its own name.", _JSONL, _AGENTS),
    _x("action_conflict", _A,
       _log(_created(), _requires(), _requires({**_ACTION, "arguments": {"city": "Lyon"}}), _result()),
       "One (turn_id, call_id) is one call: fix the producer that reused it with other arguments.", _JSONL, _AGENTS),
    _x("executed_rejected_call", _A, _log(_created(), _requires({**_ACTION, "name": "get_time"}), _result(call_id="call_1")),
       "Do not run a call `check_arguments` refused; answer it with `success: false` and the reason.", _JSONL, _AGENTS),
    _x("mixed_sessions", _A, _log(_created(), _requires(), _requires(sid="sess_2")),
       "Check each session's events in a log of their own.", _JSONL, _AGENTS),
    # --- streams ---------------------------------------------------------------------------------------------
    _x("sse_malformed", _S, _stream().replace('data: {"type": "response.output_text.delta"', '{"type": "response.output_text.delta"', 1),
       "Prefix every data line with `data: ` and end every frame with a blank line.", _SSE),
    _x("sse_truncated", _S, _stream(done=False).rstrip("\n") + "\n",
       "Keep the capture whole: the last frame ends with a blank line (the capture was cut off).", _SSE),
    _x("after_done_marker", _S,
       _stream() + 'data: {"type":"response.output_text.delta","sequence_number":99,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"!"}\n\n',
       "Save the capture as it ends: nothing follows `data: [DONE]`; events after it are a second stream or a "
       "corrupted capture.", _SSE),
    _x("done_missing", _S, _stream(done=False),
       "End the capture with `data: [DONE]` (OpenAI streams do not: check them with `--provider openai`).", _SSE),
    _x("event_name", _S, _stream().replace("event: response.output_text.delta", "event: response.output_text.added", 1),
       "Make each frame's `event:` line the body's `type`.", _SSE),
    _x("event_schema", _S,
       _stream([*_message_events()[:2], {**_message_events()[2], "delta": 5}, *_message_events()[3:]]),
       "Send events that match their type's model (here `delta` is a string).", _SSE),
    _x("unknown_event", _S, _stream([*_message_events(), _ev("response.thinking", text="hm")]),
       "Use the spec's event types, or name an extension event `slug:name`.", _SSE),
    _x("sequence_missing", _S, _stream(numbered=False),
       "Number every event (`sequence_number`, counting up).", _SSE),
    _x("sequence_order", _S,
       _stream([{**e, "sequence_number": 9 - n} for n, e in enumerate(_message_events(), 1)]),
       "Number events strictly upwards, in the order they are sent.", _SSE),
    _x("not_added", _S, _stream(_message_events()[1:]),
       "Announce every item with `response.output_item.added` before its other events.", _SSE),
    _x("item_id", _S,
       _stream([*_message_events()[:2], {**_message_events()[2], "item_id": "msg_9"}, *_message_events()[3:]]),
       "Give each event the `item_id` of the item at its `output_index`.", _SSE),
    _x("added_twice", _S, _stream([_message_events()[0], *_message_events()]),
       "Announce each item once.", _SSE),
    _x("output_index", _S,
       _stream([{**e, "output_index": 1} for e in _message_events()], final=[_DONE_MSG]),
       "Count `output_index` from 0, one up for each item added.", _SSE),
    _x("duplicate_id", _S,
       _stream([*_message_events(), *[{**e, "output_index": 1} for e in _message_events()]], final=[_DONE_MSG, _DONE_MSG]),
       "Give each item of a response its own `id`.", _SSE),
    _x("after_done", _S, _stream([*_message_events(), _message_events()[2]]),
       "Send no event for an item after its `response.output_item.done`.", _SSE),
    _x("item_schema", _S,
       _stream([*_message_events()[:5], {**_message_events()[5], "item": {**_DONE_MSG, "role": 7}}]),
       "Send items that are valid output items (the finding names the field).", _SSE),
    _x("item_changed", _S,
       _stream([*_message_events()[:5], {**_message_events()[5], "item": {**_DONE_MSG, "id": "msg_2"}}]),
       "Keep an item's `type`, `id`, `call_id` and `name` from added to done.", _SSE),
    _x("done_status", _S,
       _stream([*_message_events()[:5], {**_message_events()[5], "item": {**_DONE_MSG, "status": "in_progress"}}]),
       "Send the finished status (`completed` or `incomplete`) in `output_item.done`.", _SSE),
    _x("wrong_item", _S,
       _stream([*_message_events()[:5], _ev("response.function_call_arguments.delta", item_id="msg_1", output_index=0, delta="{}"), _message_events()[5]]),
       "Send argument events only for calls, text events only for messages.", _SSE),
    _x("part_order", _S, _stream([_message_events()[0], *_message_events()[2:]]),
       "Add each content part (`response.content_part.added`) before its deltas, once.", _SSE),
    _x("text_mismatch", _S,
       _stream([*_message_events()[:3], {**_message_events()[3], "text": "Hi "}, *_message_events()[4:]]),
       "Send in `.done` exactly the text the deltas add up to.", _SSE),
    _x("arguments_mismatch", _S,
       _stream([
           _ev("response.output_item.added", output_index=0, item={**CALL, "id": "fc_1", "arguments": "", "status": "in_progress"}),
           _ev("response.function_call_arguments.delta", item_id="fc_1", output_index=0, delta='{"city":"Par'),
           _ev("response.function_call_arguments.done", item_id="fc_1", output_index=0, arguments='{"city":"Paris"}'),
           _ev("response.output_item.done", output_index=0, item={**CALL, "id": "fc_1", "status": "completed"}),
       ], final=[{**CALL, "id": "fc_1", "status": "completed"}]),
       "Send in `.done` exactly the arguments the deltas add up to.", _SSE),
    _x("after_incomplete", _S,
       _stream([*_message_events()[:5], {**_message_events()[5], "item": {**_DONE_MSG, "status": "incomplete"}},
                *[{**e, "output_index": 1, **({"item_id": "msg_2"} if "item_id" in e else {}), **({"item": {**e["item"], "id": "msg_2"}} if "item" in e else {})} for e in _message_events()]],
               terminal="response.incomplete", status="incomplete", final=[{**_DONE_MSG, "status": "incomplete"}, {**_DONE_MSG, "id": "msg_2"}]),
       "Stop the response after an `incomplete` item: it must be the last one.", _SSE),
    _x("response_status", _S, _stream(status="failed"),
       "Send the terminal event that matches the response's status (`response.failed` for `failed`).", _SSE),
    _x("after_terminal", _S,
       _stream().replace("data: [DONE]", "event: response.in_progress\ndata: " + _j(_ev("response.in_progress", sequence_number=99, response=_resp("in_progress", []))) + "\n\ndata: [DONE]"),
       "Send nothing after `response.completed` / `failed` / `incomplete` but `data: [DONE]`.", _SSE),
    _x("snapshot_mismatch", _S, _stream(final=[]),
       "Send in the terminal snapshot's `output` the items the stream sent.", _SSE),
    _x("snapshot_schema", _S, _stream(),
       "Send the whole Response in the terminal event (every key the spec lists); this note blocks nothing.", _SSE),
    _x("no_terminal", _S, _stream(terminal=None),
       "End every stream with `response.completed`, `response.failed` or `response.incomplete`; a stream "
       "without one was cut off and is not a finished turn.", _SSE),
    # --- notes -----------------------------------------------------------------------------------------------
    _x("unconstrained_identifier", _N,
       _doc({**TOOL, "parameters": {**TOOL["parameters"], "properties": {"city": {"type": "string"}, "order_id": {"type": "string"}}, "required": ["city", "order_id"]}}),
       "Constrain id-like string properties (`pattern`, `enum`, `const` or `format`) so that a model cannot invent one.",
       "tool.json", door="check_tool"),
    _x("hosted_tool", _N, _doc({"type": "web_search"}),
       "Nothing to do: a hosted tool runs on the provider's side and has no parameters schema to check.",
       "tool.json", door="check_tool"),
    _x("strict_fallback", _N,
       _doc({"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}),
       "Close the schema for strict mode (`additionalProperties: false`, every property in `required`), or say "
       "`strict: false` on purpose.",
       "tool.json", door="check_tool", provider="openai"),
    _x("deferred_without_tool_search", _N,
       _log(_created(tools=[{**_AGENT_TOOL, "defer_loading": True}])),
       "Add a `tool_search` tool beside a deferred function tool, or load the tool up front (`defer_loading: false`).",
       _JSONL, _AGENTS),
    _x("text_format_not_applied", _N,
       _log(_created(agent={"id": "agt_1", "model": "m", "tools": [_AGENT_TOOL],
                            "text": {"format": {"type": "json_schema", "name": "card", "schema": {"type": "object"}}, "verbosity": "medium"}})),
       "Check the session's answer yourself (`replayable.agents.check_card`): a session does not apply `text.format`.",
       _JSONL, _AGENTS),
    _x("subagents_without_function_tools", _N,
       _log(_created(agent={"id": "agt_1", "model": "m", "tools": [_AGENT_TOOL], "multi_agent": {"enabled": True}})),
       "Give subagents what they need another way: they do not get the agent's function tools.", _JSONL, _AGENTS),
)

# fmt: on

#: The example of each code, by (scope, code) (a code such as `unknown_tool` has a row in two scopes).
EXAMPLES: dict[tuple[str, str], Example] = {(e.scope, e.code): e for e in _ROWS}


def example(code: str, scope: str | None = None) -> list[Example]:
    """The examples of `code` (one per scope it has a row in; `scope` picks one), or []."""
    return [e for (s, c), e in EXAMPLES.items() if c == code and (scope is None or s == scope)]
