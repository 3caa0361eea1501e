"""OpenAI mode's forms of the spec items: the same fields, with the `null` values OpenAI sends.

OpenAI's SDK (`openai.types.responses` 3.57) types every optional field of the spec's items
`Optional[...]`, and OpenAI's servers and the SDK's `model_dump()` write `null` for them: an output
message's `phase`, a reasoning item's `encrypted_content` and `content`, a compaction item's `created_by`,
an `output_text` part's `logprobs`, an input assistant message's `phase`, an output `input_file` part's
`filename` and `file_url`; an output `input_image` may lack `image_url` (an image sent by `file_id`), an
input reasoning item may carry its raw `content` back, and a Response's function tools may lack
`description`, `parameters` and `strict` and carry OpenAI's own options. Its `input_image.detail` also
takes `"original"` (the image as sent, not resized). The official Open Responses document allows none of
these, so strict mode (`provider=None`) keeps refusing them; with `provider="openai"` these subclasses
read them, keep them (`None`, inside the annotation) and dump them back as read. The widened parts are
read wherever OpenAI places them: a message's content (input user messages, output messages) and a
`function_call_output`'s output parts (both sides). Each is a subclass of the spec model it widens, so
`isinstance(item, Message)` holds in both modes. Where OpenAI's OpenAPI document (2.3.0) and the SDK
disagree, the SDK wins (schemas/README.md, "Deliberate differences").
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field
from pydantic.experimental.missing_sentinel import MISSING

from ._base import WireModel
from ._generated.open_responses import content as _content
from ._generated.open_responses.assistant_message_param import AssistantMessageParam
from ._generated.open_responses.common import LongText, MessagePhase
from ._generated.open_responses.compaction import Compaction
from ._generated.open_responses.function_call_output import FunctionCallOutput
from ._generated.open_responses.function_call_output_param import FunctionCallOutputParam
from ._generated.open_responses.function_tool import FunctionTool
from ._generated.open_responses.input_file import InputFileContent
from ._generated.open_responses.input_file_param import InputFileContentParam
from ._generated.open_responses.input_image import InputImageContent
from ._generated.open_responses.input_image_param import InputImageContentParam
from ._generated.open_responses.input_text import InputTextContent
from ._generated.open_responses.input_video import InputVideoContent
from ._generated.open_responses.log_prob import LogProb
from ._generated.open_responses.message import Message
from ._generated.open_responses.output_text import OutputTextContent
from ._generated.open_responses.reasoning import Reasoning
from ._generated.open_responses.reasoning_param import ReasoningParam
from ._generated.open_responses.reasoning_text import ReasoningTextContent
from ._generated.open_responses.refusal import RefusalContent
from ._generated.open_responses.summary_text import SummaryTextContent
from ._generated.open_responses.text_content import TextContent
from ._generated.open_responses.user_message_param import UserMessageParam

__all__ = [
    "OPENAI_FORMS",
    "OpenAIStreamLogProb",
    "OpenAIStreamTopLogProb",
    "OpenAIAssistantMessageParam",
    "OpenAICompaction",
    "OpenAIFunctionCallOutput",
    "OpenAIFunctionCallOutputParam",
    "OpenAIFunctionOutputContent",
    "OpenAIFunctionOutputContentParam",
    "OpenAIFunctionTool",
    "OpenAIImageDetail",
    "OpenAIInputFile",
    "OpenAIInputImage",
    "OpenAIInputImageParam",
    "OpenAIMessage",
    "OpenAIMessageContent",
    "OpenAIOutputText",
    "OpenAIReasoning",
    "OpenAIReasoningParam",
    "OpenAIUserContentParam",
    "OpenAIUserMessageParam",
]

OpenAIImageDetail: TypeAlias = Literal["low", "high", "auto", "original"]
"""An image's detail level as OpenAI takes it: the spec's `low`, `high`, `auto`, and OpenAI's `original`
(the image at its own resolution; SDK 3.57 `ImageDetail`)."""


class OpenAIInputImageParam(InputImageContentParam):
    """An input `input_image` part as OpenAI's SDK writes it: `detail` may be `"original"`."""

    detail: OpenAIImageDetail | None | MISSING = MISSING  # type: ignore[assignment]
    """Detail level: `low`, `high`, `auto` (when absent) or OpenAI's `original`."""


class OpenAIInputImage(InputImageContent):
    """An output `input_image` part as OpenAI sends it: `detail` may be `"original"`, and `image_url` may be
    absent (an image sent by `file_id`; SDK `ResponseInputImage`, `image_url` optional)."""

    image_url: str | None | MISSING = MISSING  # type: ignore[assignment]
    """URL or data URL of the image; absent or null when the image was sent by `file_id`."""
    detail: OpenAIImageDetail  # type: ignore[assignment]
    """Detail level used for the image: `low`, `high`, `auto` or OpenAI's `original`."""


class OpenAIInputFile(InputFileContent):
    """An output `input_file` part as OpenAI sends it: `filename` and `file_url` may be `null`
    (SDK `ResponseInputFile`, every field `Optional`)."""

    filename: str | None | MISSING = MISSING  # type: ignore[assignment]
    """Name of the file; `null` when OpenAI has none."""
    file_url: str | None | MISSING = MISSING  # type: ignore[assignment]
    """URL of the file; `null` when the file was sent otherwise."""


class OpenAIStreamTopLogProb(WireModel):
    """One alternative token in OpenAI's streamed logprobs (`ResponseTextDeltaEvent.LogprobTopLogprob`):
    both fields optional, no `bytes`."""

    token: str | None | MISSING = MISSING
    logprob: float | None | MISSING = MISSING


class OpenAIStreamLogProb(WireModel):
    """One token of the `logprobs` OpenAI streams in `response.output_text.delta` / `.done` events
    (`ResponseTextDeltaEvent.Logprob` in the openai SDK 3.57): `token` and `logprob`, optional
    `top_logprobs`; unlike a part's `LogProb`, no `bytes` (kept when sent, as any unknown field)."""

    token: str
    logprob: float
    top_logprobs: list[OpenAIStreamTopLogProb] | None | MISSING = MISSING


class OpenAIOutputText(OutputTextContent):
    """An `output_text` part as OpenAI sends it: `logprobs` may be `null`."""

    logprobs: list[LogProb] | None | MISSING = MISSING  # type: ignore[assignment]
    """Token log probabilities, when requested with `include`; `null` in OpenAI's dumps otherwise."""


OpenAIMessageContent: TypeAlias = Annotated[
    InputTextContent
    | OpenAIOutputText
    | TextContent
    | SummaryTextContent
    | ReasoningTextContent
    | RefusalContent
    | OpenAIInputImage
    | OpenAIInputFile
    | InputVideoContent,
    Field(discriminator="type"),
]
"""A content part of an output message in OpenAI mode (the spec's `MessageContent`; `output_text`,
`input_image` and `input_file` widened)."""

OpenAIUserContentParam: TypeAlias = Annotated[
    InputTextContent | OpenAIInputImageParam | InputFileContentParam,
    Field(discriminator="type"),
]
"""A content part of an input user message in OpenAI mode (the spec's `UserContentParam`, `input_image`
widened; the input `input_file` already takes `null`s)."""

OpenAIFunctionOutputContentParam: TypeAlias = Annotated[
    InputTextContent | OpenAIInputImageParam | InputFileContentParam | InputVideoContent,
    Field(discriminator="type"),
]
"""A part of an input function_call_output's output in OpenAI mode (the spec's `FunctionOutputContentParam`,
`input_image` widened)."""

OpenAIFunctionOutputContent: TypeAlias = Annotated[
    InputTextContent | OpenAIInputImage | OpenAIInputFile,
    Field(discriminator="type"),
]
"""A part of an output function_call_output's output in OpenAI mode (the spec's `FunctionOutputContent`,
`input_image` and `input_file` widened)."""


class OpenAIMessage(Message):
    """An output `message` as OpenAI sends it: `phase` may be `null`, `output_text.logprobs` too."""

    content: list[OpenAIMessageContent]  # type: ignore[assignment]
    """The content parts, in order."""
    phase: MessagePhase | None | MISSING = MISSING  # type: ignore[assignment]
    """commentary or final_answer on assistant messages; `null` when OpenAI sets none."""


class OpenAIUserMessageParam(UserMessageParam):
    """An input user message as OpenAI's SDK writes it: its `input_image` parts may have `detail: "original"`."""

    content: LongText | list[OpenAIUserContentParam]  # type: ignore[assignment]
    """The text, or the content parts in order."""


class OpenAIFunctionCallOutputParam(FunctionCallOutputParam):
    """An input `function_call_output` as OpenAI's SDK writes it: its image parts may have
    `detail: "original"`."""

    output: LongText | list[OpenAIFunctionOutputContentParam]  # type: ignore[assignment]
    """The tool's result: a string, or content parts."""


class OpenAIFunctionCallOutput(FunctionCallOutput):
    """An output `function_call_output` as OpenAI sends it: image parts may have `detail: "original"`,
    file parts `filename: null` / `file_url: null`."""

    output: str | list[OpenAIFunctionOutputContent]  # type: ignore[assignment]
    """The tool's result: a string, or content parts."""


class OpenAIReasoning(Reasoning):
    """A `reasoning` item as OpenAI sends it: `content` and `encrypted_content` may be `null`."""

    content: list[_content.ReasoningContent] | None | MISSING = MISSING  # type: ignore[assignment]
    """Raw reasoning parts, when the provider exposes them; `null` when it does not."""
    encrypted_content: str | None | MISSING = MISSING  # type: ignore[assignment]
    """Opaque reasoning state for round trips; `null` unless requested with `include`."""


class OpenAIReasoningParam(ReasoningParam):
    """An input `reasoning` item as OpenAI's SDK writes it (`ResponseReasoningItemParam`): its raw
    `content` (`reasoning_text` parts) may be sent back, which the spec's input form refuses (always null)."""

    content: list[ReasoningTextContent] | None | MISSING = MISSING  # type: ignore[assignment]
    """Raw reasoning parts sent back (OpenAI's open-weight models return them); `null` or absent otherwise."""


class OpenAICompaction(Compaction):
    """A `compaction` item as OpenAI sends it: `created_by` may be `null`."""

    created_by: str | None | MISSING = MISSING  # type: ignore[assignment]
    """What created the compaction; `null` when OpenAI does not say."""


class OpenAIAssistantMessageParam(AssistantMessageParam):
    """An input assistant message as OpenAI's SDK writes it (`EasyInputMessageParam`,
    `ResponseOutputMessageParam`): `phase` may be `null`."""

    phase: MessagePhase | None | MISSING = MISSING  # type: ignore[assignment]
    """commentary or final_answer; `null` as the SDK writes it when there is none."""


class OpenAIFunctionTool(FunctionTool):
    """A function tool as OpenAI's Response echoes it (SDK `FunctionTool`): `description`, `parameters` and
    `strict` may be absent, and OpenAI's own options (`allowed_callers`, `async`, `defer_loading`,
    `output_schema`) may follow."""

    description: str | None | MISSING = MISSING  # type: ignore[assignment]
    """What the function does; absent or null when none was given."""
    parameters: dict[str, Any] | None | MISSING = MISSING  # type: ignore[assignment]
    """The JSON Schema of the arguments; absent or null when none was given."""
    strict: bool | None | MISSING = MISSING  # type: ignore[assignment]
    """Whether arguments follow `parameters` exactly; absent or null for OpenAI's default."""
    allowed_callers: list[str] | None | MISSING = MISSING
    """Who may call the tool (`direct`, `programmatic`)."""
    async_: Annotated[bool | None | MISSING, Field(alias="async")] = MISSING
    """Whether calls run asynchronously."""
    defer_loading: bool | None | MISSING = MISSING
    """Whether the tool is loaded only when a tool search finds it."""
    output_schema: dict[str, Any] | None | MISSING = MISSING
    """The JSON Schema of the tool's output, when declared."""


#: The classes above: an item of one of them was read in OpenAI mode, and converts in OpenAI mode.
OPENAI_FORMS: tuple[type, ...] = (
    OpenAIMessage,
    OpenAIUserMessageParam,
    OpenAIFunctionCallOutputParam,
    OpenAIFunctionCallOutput,
    OpenAIInputImageParam,
    OpenAIInputImage,
    OpenAIInputFile,
    OpenAIReasoning,
    OpenAIReasoningParam,
    OpenAICompaction,
    OpenAIOutputText,
    OpenAIAssistantMessageParam,
)
