"""The `openai` target: what OpenAI's Responses API accepts in `input`, as data.

Sources, cited per row:
- `OpenAPI <Name>`: the component `<Name>` of OpenAI's OpenAPI document (2.3.0; kept for reference in
  `shared/reference/openai-openapi.json`), the `InputItem` union and its members. Field lists and
  nullability are read from it (`tests/rules/test_profiles.py` checks every row against the document when it
  is present, and against the `openai` SDK's `types/responses/*_param` types).
- `corpus <file>`: a request recorded from real traffic that OpenAI accepted (`shared/corpus`); where the
  API accepts more than its OpenAPI document says, the recorded request wins (no false alarms).
- `case <id>` / a URL: a public report of what the API refused.

Id prefixes: OpenAI refuses an input item whose `id` is not in its own format ("Invalid 'input[66].id':
'item_...'. Expected an ID that begins with 'rs'", https://github.com/jlcodes99/cockpit-tools/issues/2090).
A prefix is listed only for item types whose ids OpenAI's recorded output (`shared/corpus`) or its
OpenAPI `example` shows; other types take any id.
"""

from __future__ import annotations

from types import MappingProxyType

from .model import BodyRules, ItemRule, PartRule, Profile, fields

__all__ = ["OPENAI"]

_ID_SOURCE = "jlcodes99/cockpit-tools#2090 (prefix rule); ids of OpenAI's recorded output in shared/corpus"


_PARTS_IN = {
    "message": ("content",),
    "function_call_output": ("output",),
    "custom_tool_call_output": ("output",),
    "reasoning": ("summary", "content"),
}
_SINGLE_PART = {"computer_call_output": ("output", "computer_screenshot")}


def _item(type_: str, spec: dict[str, str], source: str, prefix: str | None = None, id_source: str = "") -> ItemRule:
    return ItemRule(
        type_,
        fields(spec),
        source,
        prefix,
        id_source or (_ID_SOURCE if prefix else ""),
        _PARTS_IN.get(type_, ()),
        _SINGLE_PART.get(type_),
    )


_ITEMS = (
    _item(
        "message",
        {"id": "string", "role": "string", "content": "array|string", "status": "string", "phase": "string?"},
        "OpenAPI EasyInputMessage, InputMessage, OutputMessage (the union of their fields)",
        "msg",
    ),
    _item(
        "function_call",
        {
            "id": "string",
            "call_id": "string",
            "name": "string",
            "namespace": "string",
            "arguments": "string",
            "status": "string?",
            "caller": "object?",
            "async": "boolean",
        },
        "OpenAPI FunctionToolCall; SDK ResponseFunctionToolCallParam (`async`); `status: null` accepted: corpus "
        "pai-03, pai-07 (recorded requests OpenAI answered)",
        "fc",
    ),
    _item(
        "function_call_output",
        {
            "id": "string?",
            "call_id": "string?",
            "output": "array|string",
            "name": "string?",
            "namespace": "string?",
            "caller": "object?",
            "status": "string?",
        },
        "OpenAPI FunctionCallOutputItemParam",
    ),
    _item(
        "reasoning",
        {"id": "string", "encrypted_content": "string?", "summary": "array", "content": "array", "status": "string"},
        "OpenAPI ReasoningItem",
        "rs",
    ),
    _item("compaction", {"id": "string?", "encrypted_content": "string"}, "OpenAPI CompactionSummaryItemParam", "cmp"),
    _item("compaction_trigger", {"id": "string?"}, "OpenAPI CompactionTriggerItemParam; SDK CompactionTrigger (`id`)"),
    _item(
        "configuration_update",
        {"id": "string?", "reasoning": "object", "text": "object"},
        "SDK ResponseConfigurationUpdateItemParamParam",
    ),
    _item("item_reference", {"id": "string"}, "OpenAPI ItemReferenceParam (`type` itself may be null)"),
    _item(
        "file_search_call",
        {"id": "string", "status": "string", "queries": "array", "results": "array?"},
        "OpenAPI FileSearchToolCall",
        "fs",
    ),
    _item(
        "web_search_call",
        {"id": "string", "status": "string", "action": "object"},
        "OpenAPI WebSearchToolCall",
        "ws",
    ),
    _item(
        "computer_call",
        {
            "id": "string",
            "call_id": "string",
            "action": "object",
            "actions": "array",
            "pending_safety_checks": "array",
            "status": "string",
        },
        "OpenAPI ComputerToolCall",
        "cu",
    ),
    _item(
        "computer_call_output",
        {
            "id": "string?",
            "call_id": "string",
            "output": "object",
            "acknowledged_safety_checks": "array?",
            "status": "string?",
        },
        "OpenAPI ComputerCallOutputItemParam (`output` is a ComputerScreenshotImage)",
        "cuo",
        "OpenAPI ComputerCallOutputItemParam.id example `cuo_123`",
    ),
    _item(
        "tool_search_call",
        {"id": "string?", "call_id": "string?", "execution": "string", "arguments": "object", "status": "string?"},
        "OpenAPI ToolSearchCallItemParam (`arguments` is an object, EmptyModelParam; corpus pai-22)",
        "tsc",
    ),
    _item(
        "tool_search_output",
        {"id": "string?", "call_id": "string?", "execution": "string", "tools": "array", "status": "string?"},
        "OpenAPI ToolSearchOutputItemParam",
        "tso",
    ),
    _item(
        "additional_tools",
        {"id": "string?", "role": "string", "tools": "array"},
        "OpenAPI AdditionalToolsItemParam",
    ),
    _item(
        "image_generation_call",
        {
            "id": "string",
            "status": "string",
            "result": "string?",
            "action": "string?",
            "background": "string?",
            "error": "object",
            "output_format": "string?",
            "quality": "string?",
            "revised_prompt": "string?",
            "size": "string?",
            "svg_usage": "object",
        },
        "OpenAPI ImageGenToolCall; SDK ImageGenerationCall (the fields after `result`)",
        "ig",
    ),
    _item(
        "code_interpreter_call",
        {"id": "string", "status": "string", "container_id": "string", "code": "string?", "outputs": "array?"},
        "OpenAPI CodeInterpreterToolCall",
        "ci",
    ),
    _item(
        "local_shell_call",
        {"id": "string", "call_id": "string", "action": "object", "status": "string"},
        "OpenAPI LocalShellToolCall",
        "lsh",
    ),
    _item(
        "local_shell_call_output",
        {"id": "string", "call_id": "string", "output": "string", "status": "string?"},
        "OpenAPI LocalShellToolCallOutput (its `required` lists `call_id`; case R45: paired by `call_id` alone)",
    ),
    _item(
        "shell_call",
        {
            "id": "string?",
            "call_id": "string",
            "caller": "object?",
            "action": "object",
            "status": "string?",
            "environment": "object?",
        },
        "OpenAPI FunctionShellCallItemParam",
        "sh",
    ),
    _item(
        "shell_call_output",
        {
            "id": "string?",
            "call_id": "string",
            "caller": "object?",
            "output": "array",
            "status": "string?",
            "max_output_length": "integer?",
        },
        "OpenAPI FunctionShellCallOutputItemParam",
        "sho",
    ),
    _item(
        "apply_patch_call",
        {"id": "string?", "call_id": "string", "caller": "object?", "status": "string", "operation": "object"},
        "OpenAPI ApplyPatchToolCallItemParam",
        "apc",
    ),
    _item(
        "apply_patch_call_output",
        {"id": "string?", "call_id": "string", "caller": "object?", "status": "string", "output": "string?"},
        "OpenAPI ApplyPatchToolCallOutputItemParam",
        "apco",
        "OpenAPI ApplyPatchToolCallOutputItemParam.id example `apco_123`",
    ),
    _item(
        "mcp_list_tools",
        {"id": "string", "server_label": "string", "tools": "array", "error": "string?"},
        "OpenAPI MCPListTools",
        "mcpl",
    ),
    _item(
        "mcp_approval_request",
        {"id": "string", "server_label": "string", "name": "string", "arguments": "string"},
        "OpenAPI MCPApprovalRequest",
        "mcpr",
    ),
    _item(
        "mcp_approval_response",
        {"id": "string?", "approval_request_id": "string", "approve": "boolean", "reason": "string?"},
        "OpenAPI MCPApprovalResponse",
    ),
    _item(
        "mcp_call",
        {
            "id": "string",
            "server_label": "string",
            "name": "string",
            "arguments": "string",
            "output": "string?",
            "error": "object?",
            "status": "string",
            "approval_request_id": "string?",
        },
        "OpenAPI MCPToolCall",
        "mcp",
    ),
    _item(
        "custom_tool_call",
        {
            "id": "string",
            "call_id": "string",
            "caller": "object?",
            "namespace": "string",
            "name": "string",
            "input": "string",
            "async": "boolean",
        },
        "OpenAPI CustomToolCall; SDK ResponseCustomToolCallParam (`async`)",
        "ctc",
    ),
    _item(
        "custom_tool_call_output",
        {"id": "string", "call_id": "string", "caller": "object?", "output": "array|string"},
        "OpenAPI CustomToolCallOutput",
    ),
    _item(
        "program",
        {"id": "string", "call_id": "string", "code": "string", "fingerprint": "string"},
        "OpenAPI ProgramItemParam",
        "cm",
    ),
    _item(
        "program_output",
        {"id": "string", "call_id": "string", "result": "string", "status": "string"},
        "OpenAPI ProgramOutputItemParam",
        "cmo",
    ),
)

_FILENAME_SOURCE = (
    "laravel/ai#321 (OpenAI 400 \"Missing required parameter: 'input[1].content[1]'\" for file_data without "
    "filename; case R64); openai/openai-agents-js#88"
)

_PARTS = (
    PartRule("input_text", fields({"text": "string", "prompt_cache_breakpoint": "object?"}),
             "OpenAPI InputTextContent, InputTextContentParam"),
    PartRule(
        "input_image",
        fields({"image_url": "string?", "file_id": "string?", "detail": "string?",
                "prompt_cache_breakpoint": "object?"}),
        "OpenAPI InputImageContent, InputImageContentParamAutoParam (image_url: 'a fully qualified URL or base64 "
        "encoded image in a data URL')",
        one_of=("image_url", "file_id"),
    ),
    PartRule(
        "input_file",
        fields({
            "file_id": "string?",
            "filename": "string?",
            "file_data": "string?",
            "file_url": "string?",
            "detail": "string",
            "prompt_cache_breakpoint": "object?",
        }),
        "OpenAPI InputFileContent, InputFileContentParam",
        needs=(("file_data", "filename", "file_data_without_filename", _FILENAME_SOURCE),),
    ),
    PartRule("output_text", fields({"text": "string", "annotations": "array", "logprobs": "array"}),
             "OpenAPI OutputTextContent"),
    PartRule("refusal", fields({"refusal": "string"}), "OpenAPI RefusalContent"),
    PartRule("summary_text", fields({"text": "string"}), "OpenAPI SummaryTextContent"),
    PartRule("reasoning_text", fields({"text": "string"}), "OpenAPI ReasoningTextContent"),
    PartRule(
        "computer_screenshot",
        fields({"image_url": "string", "file_id": "string"}),
        "OpenAPI ComputerScreenshotImage",
        one_of=("image_url", "file_id"),
    ),
)  # fmt: skip

#: The keys of a `POST /responses` (or `/responses/compact`) body OpenAI accepts: OpenAPI `CreateResponse`
#: (with `stream`) and `CompactResponseMethodPublicBody`, and the openai SDK's `ResponseCreateParams`.
_REQUEST_KEYS = frozenset(
    {
        "access_programs", "background", "background_options", "context_management", "conversation", "image",
        "include", "input", "instructions", "max_output_tokens", "max_tool_calls", "metadata", "model",
        "moderation", "parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key",
        "prompt_cache_options", "prompt_cache_retention", "reasoning", "safety_identifier", "service_tier",
        "store", "stream", "stream_options", "temperature", "text", "tool_choice", "tools", "top_logprobs",
        "top_p", "truncation", "user",
    }
)  # fmt: skip

_INCLUDE = frozenset(
    {
        "file_search_call.results",
        "web_search_call.results",
        "web_search_call.action.sources",
        "message.input_image.image_url",
        "computer_call_output.output.image_url",
        "code_interpreter_call.outputs",
        "reasoning.encrypted_content",
        "message.output_text.logprobs",
    }
)

OPENAI = Profile(
    name="openai",
    description="OpenAI's Responses API (OpenAPI 2.3.0, openai SDK 3.57 *_param types, recorded requests)",
    items=MappingProxyType({r.type: r for r in _ITEMS}),
    parts=MappingProxyType({r.type: r for r in _PARTS}),
    body=BodyRules(
        stateless_references=True,
        include=_INCLUDE,
        exclusive=(("previous_response_id", "conversation"),),
        keys=_REQUEST_KEYS,
        sources=MappingProxyType(
            {
                "keys": "OpenAPI CreateResponse and CompactResponseMethodPublicBody properties, with the openai "
                "SDK's ResponseCreateParams (the SDK wins: access_programs, background_options, image)",
                "stateless_references": "case R43 (vercel/ai#7543: 'Items are not persisted when store is set to "
                "false'); OpenAPI CreateResponse.include (reasoning.encrypted_content for stateless use)",
                "include": "OpenAPI IncludeEnum",
                "exclusive": "OpenAPI CreateResponse.previous_response_id ('Cannot be used in conjunction with "
                "conversation')",
            }
        ),
    ),
    closed=True,
    native_slug="openai",
    refusals=(
        ("a key an item's input form does not declare (a Chat Completions `role` on a `function_call`, ...)",
         "field_not_accepted", "OpenAPI InputItem members (one row per item type)"),
        ("a request body key OpenAI does not accept (`tmperature`, a case file's `expect`)", "field_not_accepted",
         "OpenAPI CreateResponse, CompactResponseMethodPublicBody; openai SDK ResponseCreateParams"),
        ("a field of the wrong JSON type (`tool_search_call.arguments` as a string; it is an object there and a "
         "string on `function_call`)", "field_shape", "OpenAPI ToolSearchCallItemParam, FunctionToolCall"),
        ("an explicit `null` where the input form has no null (`status: null` on a message or reasoning item); "
         "an absent key is fine", "null_not_accepted",
         "OpenAPI nullability per field; `function_call.status: null` accepted (corpus pai-03, pai-07)"),
        ("an item `id` in another provider's format (`fc_` for `function_call`, `msg_`, `rs_`, ...)", "id_format",
         "jlcodes99/cockpit-tools#2090; OpenAI's recorded ids (shared/corpus)"),
        ("a `computer_call_output` whose `output` is not a `computer_screenshot` object with `image_url` or "
         "`file_id`", "computer_output_not_screenshot", "OpenAPI ComputerCallOutputItemParam, ComputerScreenshotImage"),
        ("an `input_image` with neither `image_url` nor `file_id`", "image_source_missing",
         "OpenAPI InputImageContent"),
        ("an `input_file` with inline `file_data` but no `filename`", "file_data_without_filename",
         "laravel/ai#321 (400 \"Missing required parameter\"; case R64)"),
        ("with `store: false`, a reasoning item sent as a bare `id` without `encrypted_content`",
         "reasoning_not_persisted", "case R43 (vercel/ai#7543)"),
        ("with `store: false`, an `item_reference`", "item_reference_not_persisted", "case R43 (vercel/ai#7543)"),
        ("an `include` value OpenAI does not define", "include_invalid", "OpenAPI IncludeEnum"),
        ("`previous_response_id` together with `conversation`", "body_conflict",
         "OpenAPI CreateResponse.previous_response_id"),
    ),
)  # fmt: skip
"""The `openai` profile."""
