"""Public names for content parts and annotations (replayable.parts): every spec part type has a model
there, built by keyword with its `type` filled in."""

from __future__ import annotations

import typing

from pydantic import BaseModel

import replayable as rp
from replayable import parts
from replayable._base import SPEC_PART_TYPES


def part_models() -> dict[str, list[type[BaseModel]]]:
    out: dict[str, list[type[BaseModel]]] = {}
    for name in parts.__all__:
        obj = getattr(parts, name)
        if isinstance(obj, type) and issubclass(obj, BaseModel) and "type" in obj.model_fields:
            ann = obj.model_fields["type"].annotation
            if typing.get_origin(ann) is typing.Literal:
                for tag in typing.get_args(ann):
                    out.setdefault(tag, []).append(obj)
    return out


def test_every_spec_part_type_has_a_public_model() -> None:
    models = part_models()
    assert SPEC_PART_TYPES <= set(models), SPEC_PART_TYPES - set(models)
    # the input forms that differ from the response forms are there too
    for tag in ("input_image", "input_file", "output_text", "summary_text", "url_citation"):
        assert len(models[tag]) == 2, (tag, models[tag])


def test_parts_build_by_keyword_and_dump_their_type() -> None:
    built = [
        parts.InputTextContent(text="t"),
        parts.InputImageContentParam(image_url="https://example.com/a.png"),
        parts.InputFileContentParam(file_url="https://example.com/a.pdf"),
        parts.InputVideoContent(video_url="https://example.com/a.mp4"),
        parts.OutputTextContentParam(text="t", annotations=[parts.UrlCitationParam(url="u", start_index=0, end_index=1, title="T")]),
        parts.RefusalContent(refusal="no"),
        parts.SummaryTextContentParam(text="s"),
        parts.ReasoningTextContent(text="r"),
    ]
    for part in built:
        out = part.model_dump(mode="json", exclude_unset=True)
        assert out["type"] == type(part).model_fields["type"].annotation.__args__[0]
    message = rp.AssistantMessageParam(content=[built[4], built[5]])
    assert rp.dump_item(message)["content"][0]["annotations"][0]["type"] == "url_citation"
    assert rp.parse_item(rp.dump_item(message)) == message


def test_parts_module_is_lazy_and_public() -> None:
    assert rp.parts is parts
    assert all(not n.startswith("_") for n in parts.__all__)
