"""Content parts and annotations: the public names of the pieces inside items.

Each spec content part has a model here, in its response form (`InputImageContent`) and, where the
request form differs, its input form (`InputImageContentParam`); the unions name the parts allowed at
each place (a user message, an assistant message sent back, a function_call_output, ...). Every model is
built by keyword with its `type` filled in (`InputTextContent(text="hi")` dumps as
`{"type": "input_text", "text": "hi"}`). A provider's own `slug:name` part or annotation is a
`NamespacedPart`, kept verbatim. Spec: Open Responses 2026-04-24, "Items" (content parts, annotations,
logprobs).

    from replayable.parts import InputTextContent, InputImageContentParam
"""

from __future__ import annotations

import base64
import binascii

from ._generated.open_responses.content import (
    AssistantContentParam,
    FunctionOutputContent,
    FunctionOutputContentParam,
    InstructionContentParam,
    MessageContent,
    ReasoningContent,
    UserContentParam,
)
from ._generated.open_responses.input_file import InputFileContent
from ._generated.open_responses.input_file_param import InputFileContentParam
from ._generated.open_responses.input_image import InputImageContent
from ._generated.open_responses.input_image_param import InputImageContentParam
from ._generated.open_responses.input_text import InputTextContent
from ._generated.open_responses.input_video import InputVideoContent
from ._generated.open_responses.log_prob import LogProb, TopLogProb
from ._generated.open_responses.namespaced_part import NamespacedPart
from ._generated.open_responses.output_text import Annotation, OutputTextContent
from ._generated.open_responses.output_text_param import AnnotationParam, OutputTextContentParam
from ._generated.open_responses.reasoning_text import ReasoningTextContent
from ._generated.open_responses.refusal import RefusalContent
from ._generated.open_responses.summary_text import SummaryTextContent
from ._generated.open_responses.summary_text_param import SummaryTextContentParam
from ._generated.open_responses.text_content import TextContent
from ._generated.open_responses.url_citation import UrlCitation
from ._generated.open_responses.url_citation_param import UrlCitationParam

__all__ = [
    "Annotation",
    "AnnotationParam",
    "AssistantContentParam",
    "FunctionOutputContent",
    "FunctionOutputContentParam",
    "InputFileContent",
    "InputFileContentParam",
    "InputImageContent",
    "InputImageContentParam",
    "InputTextContent",
    "InputVideoContent",
    "InstructionContentParam",
    "LogProb",
    "MessageContent",
    "NamespacedPart",
    "OutputTextContent",
    "OutputTextContentParam",
    "ReasoningContent",
    "ReasoningTextContent",
    "RefusalContent",
    "SummaryTextContent",
    "SummaryTextContentParam",
    "TextContent",
    "TopLogProb",
    "UrlCitation",
    "UrlCitationParam",
    "UserContentParam",
    "data_url_problem",
]


def data_url_problem(url: str, media: tuple[str, ...] = ()) -> str | None:
    """Why a `data:` URL (RFC 2397) is unusable, or None when it is a non-empty base64 payload whose media type
    is of one of the families in `media` (`("image",)`; empty: any media type). Shapes: `data:<type>/<sub>
    [;param]*;base64,<payload>`. Read by the transcript rule `data_url_invalid` for every target."""
    head, comma, payload = url[5:].partition(",")
    if not comma:
        return "has no ',' before its payload"
    params = head.split(";")
    mediatype = params[0].strip().lower()
    if "base64" not in (p.strip().lower() for p in params[1:]):
        return "is not base64 (no ';base64')"
    family = mediatype.split("/", 1)[0]
    if media and (not mediatype or family not in media or "/" not in mediatype):
        return f"has media type {mediatype or 'none'!r}, not {' or '.join(m + '/*' for m in media)}"
    if not payload.strip():
        return "is empty"
    try:
        base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return "payload is not valid base64"
    return None
