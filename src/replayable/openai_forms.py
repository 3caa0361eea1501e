"""OpenAI mode's forms of the spec items: the same fields, with the `null` values OpenAI sends.

OpenAI's SDK (`openai.types.responses` 3.57) types every optional field of the spec's items
`Optional[...]`, and OpenAI's servers and the SDK's `model_dump()` write `null` for them: an output
message's `phase`, a reasoning item's `encrypted_content` and `content`, a compaction item's `created_by`,
an `output_text` part's `logprobs`, an input assistant message's `phase`. The official Open Responses
document does not allow `null` there, so strict mode (`provider=None`) keeps refusing it; with
`provider="openai"` these subclasses read it, keep it (`None`, inside the annotation) and dump it back as
`null`. Each is a subclass of the spec model it widens, so `isinstance(item, Message)` holds in both
modes. Where OpenAI's OpenAPI document (2.3.0) and the SDK disagree, the SDK wins (README, "Deliberate
differences").
"""

from __future__ import annotations

from typing import Annotated, TypeAlias

from pydantic import Field
from pydantic.experimental.missing_sentinel import MISSING

from ._generated.open_responses import content as _content
from ._generated.open_responses.assistant_message_param import AssistantMessageParam
from ._generated.open_responses.common import MessagePhase
from ._generated.open_responses.compaction import Compaction
from ._generated.open_responses.input_file import InputFileContent
from ._generated.open_responses.input_image import InputImageContent
from ._generated.open_responses.input_text import InputTextContent
from ._generated.open_responses.input_video import InputVideoContent
from ._generated.open_responses.log_prob import LogProb
from ._generated.open_responses.message import Message
from ._generated.open_responses.output_text import OutputTextContent
from ._generated.open_responses.reasoning import Reasoning
from ._generated.open_responses.reasoning_text import ReasoningTextContent
from ._generated.open_responses.refusal import RefusalContent
from ._generated.open_responses.summary_text import SummaryTextContent
from ._generated.open_responses.text_content import TextContent

__all__ = [
    "OPENAI_FORMS",
    "OpenAIAssistantMessageParam",
    "OpenAICompaction",
    "OpenAIMessage",
    "OpenAIMessageContent",
    "OpenAIOutputText",
    "OpenAIReasoning",
]


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
    | InputImageContent
    | InputFileContent
    | InputVideoContent,
    Field(discriminator="type"),
]
"""A content part of an output message in OpenAI mode (the spec's `MessageContent`, `output_text` widened)."""


class OpenAIMessage(Message):
    """An output `message` as OpenAI sends it: `phase` may be `null`, `output_text.logprobs` too."""

    content: list[OpenAIMessageContent]  # type: ignore[assignment]
    """The content parts, in order."""
    phase: MessagePhase | None | MISSING = MISSING  # type: ignore[assignment]
    """commentary or final_answer on assistant messages; `null` when OpenAI sets none."""


class OpenAIReasoning(Reasoning):
    """A `reasoning` item as OpenAI sends it: `content` and `encrypted_content` may be `null`."""

    content: list[_content.ReasoningContent] | None | MISSING = MISSING  # type: ignore[assignment]
    """Raw reasoning parts, when the provider exposes them; `null` when it does not."""
    encrypted_content: str | None | MISSING = MISSING  # type: ignore[assignment]
    """Opaque reasoning state for round trips; `null` unless requested with `include`."""


class OpenAICompaction(Compaction):
    """A `compaction` item as OpenAI sends it: `created_by` may be `null`."""

    created_by: str | None | MISSING = MISSING  # type: ignore[assignment]
    """What created the compaction; `null` when OpenAI does not say."""


class OpenAIAssistantMessageParam(AssistantMessageParam):
    """An input assistant message as OpenAI's SDK writes it (`EasyInputMessageParam`,
    `ResponseOutputMessageParam`): `phase` may be `null`."""

    phase: MessagePhase | None | MISSING = MISSING  # type: ignore[assignment]
    """commentary or final_answer; `null` as the SDK writes it when there is none."""


#: The classes above: an item of one of them was read in OpenAI mode, and converts in OpenAI mode.
OPENAI_FORMS: tuple[type, ...] = (
    OpenAIMessage,
    OpenAIReasoning,
    OpenAICompaction,
    OpenAIOutputText,
    OpenAIAssistantMessageParam,
)
