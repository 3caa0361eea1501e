"""OpenAI's native items and annotations as typed namespaced models.

OpenAI's Responses API has item types the Open Responses spec does not define (`web_search_call`,
`mcp_call`, `custom_tool_call`, ...). Under the spec's extension rules they are namespaced items of the
`openai` slug: `openai:web_search_call`. This module names the models generated from `schemas/openai/`
and says which model reads which type on which side:

- `OUTPUT_TYPES` / `INPUT_TYPES`: namespaced type (`openai:<name>`) -> model, for a response's `output`
  (OpenAI's `ResponseOutputItem`) and for a request's `input` (`ResponseInputItem`). Where OpenAI's input
  form differs (ids and statuses optional) the input side has a `*Param` model.
- `ANNOTATION_TYPES`: `openai:file_citation`, `openai:container_file_citation`, `openai:file_path`.

Every typed model is a subclass of `NamespacedItem` (or `NamespacedPart`): code that treats provider
items as opaque keeps working, `slug` is `openai`, and in OpenAI mode (`provider="openai"`) the
un-prefixed type is read and dumped back exactly as OpenAI sent it. A known OpenAI type always
validates against its model: a malformed one is an error, never an opaque fallback. Unknown `slug:name`
types stay `NamespacedItem`. Source: OpenAI's OpenAPI document 2.3.0 and `openai.types.responses` 3.57.

The models load on first use (a lookup in one of the tables, or a model name read from this module), so
that `import replayable` does not build forty OpenAI models a transcript of spec items never needs.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ._base import SPEC_ITEM_TYPES, SPEC_TOOL_TYPES, NamespacedPartBase, NamespacedToolBase
from ._item_routes import ROUTES

if TYPE_CHECKING:
    from ._generated.open_responses.namespaced_item import NamespacedItem
    from ._generated.open_responses.namespaced_part import NamespacedPart
    from ._generated.openai.additional_tools import AdditionalTools
    from ._generated.openai.additional_tools_param import AdditionalToolsParam
    from ._generated.openai.apply_patch_call import ApplyPatchCall
    from ._generated.openai.apply_patch_call_output import ApplyPatchCallOutput
    from ._generated.openai.apply_patch_call_output_param import ApplyPatchCallOutputParam
    from ._generated.openai.apply_patch_call_param import ApplyPatchCallParam
    from ._generated.openai.code_interpreter_call import CodeInterpreterCall
    from ._generated.openai.compaction_trigger_param import CompactionTriggerParam
    from ._generated.openai.computer_call import ComputerCall
    from ._generated.openai.computer_call_output import ComputerCallOutput
    from ._generated.openai.computer_call_output_param import ComputerCallOutputParam
    from ._generated.openai.configuration_update_param import ConfigurationUpdateParam
    from ._generated.openai.container_file_citation import ContainerFileCitation
    from ._generated.openai.custom_tool_call import CustomToolCall
    from ._generated.openai.custom_tool_call_output import CustomToolCallOutput
    from ._generated.openai.custom_tool_call_output_param import CustomToolCallOutputParam
    from ._generated.openai.custom_tool_call_param import CustomToolCallParam
    from ._generated.openai.file_citation import FileCitation
    from ._generated.openai.file_path import FilePath
    from ._generated.openai.file_search_call import FileSearchCall
    from ._generated.openai.image_generation_call import ImageGenerationCall
    from ._generated.openai.local_shell_call import LocalShellCall
    from ._generated.openai.local_shell_call_output import LocalShellCallOutput
    from ._generated.openai.mcp_approval_request import McpApprovalRequest
    from ._generated.openai.mcp_approval_response import McpApprovalResponse
    from ._generated.openai.mcp_approval_response_param import McpApprovalResponseParam
    from ._generated.openai.mcp_call import McpCall
    from ._generated.openai.mcp_list_tools import McpListTools
    from ._generated.openai.program import Program
    from ._generated.openai.program_output import ProgramOutput
    from ._generated.openai.shell_call import ShellCall
    from ._generated.openai.shell_call_output import ShellCallOutput
    from ._generated.openai.shell_call_output_param import ShellCallOutputParam
    from ._generated.openai.shell_call_param import ShellCallParam
    from ._generated.openai.tool_search_call import ToolSearchCall
    from ._generated.openai.tool_search_call_param import ToolSearchCallParam
    from ._generated.openai.tool_search_output import ToolSearchOutput
    from ._generated.openai.tool_search_output_param import ToolSearchOutputParam
    from ._generated.openai.web_search_call import WebSearchCall

__all__ = [
    "ANNOTATION_TYPES",
    "INPUT_TYPES",
    "OUTPUT_TYPES",
    "OPENAI_TOOL_CHOICE_TYPES",
    "OPENAI_TOOL_TYPES",
    "AdditionalTools",
    "AdditionalToolsParam",
    "ApplyPatchCall",
    "ApplyPatchCallOutput",
    "ApplyPatchCallOutputParam",
    "ApplyPatchCallParam",
    "CodeInterpreterCall",
    "CompactionTriggerParam",
    "ComputerCall",
    "ComputerCallOutput",
    "ComputerCallOutputParam",
    "ConfigurationUpdateParam",
    "ContainerFileCitation",
    "CustomToolCall",
    "CustomToolCallOutput",
    "CustomToolCallOutputParam",
    "CustomToolCallParam",
    "FileCitation",
    "FilePath",
    "FileSearchCall",
    "ImageGenerationCall",
    "LocalShellCall",
    "LocalShellCallOutput",
    "McpApprovalRequest",
    "McpApprovalResponse",
    "McpApprovalResponseParam",
    "McpCall",
    "McpListTools",
    "Program",
    "ProgramOutput",
    "ShellCall",
    "ShellCallOutput",
    "ShellCallOutputParam",
    "ShellCallParam",
    "ToolSearchCall",
    "ToolSearchCallParam",
    "ToolSearchOutput",
    "ToolSearchOutputParam",
    "WebSearchCall",
    "closest_item_types",
    "input_fields",
    "is_openai_item_type",
    "typed_model",
]

#: Every un-prefixed type OpenAI takes in a request's `tools` (its hosted tools: the pinned SDK's `ToolParam`
#: union, `function` aside; `tests/contracts/test_openai_tool_types.py` compares them), dated spellings
#: included. In OpenAI mode any other un-prefixed, non-spec tool type is refused, never read as an opaque
#: `openai:` tool; in strict mode the error names that reading instead of a renamed `slug:name` type.
OPENAI_TOOL_TYPES = frozenset(
    {
        "apply_patch", "code_interpreter", "computer", "computer_use_preview", "custom", "file_search",
        "image_generation", "local_shell", "mcp", "namespace", "programmatic_tool_calling", "shell",
        "tool_search", "web_search", "web_search_2025_08_26", "web_search_preview", "web_search_preview_2025_03_11",
    }
)  # fmt: skip
#: Every un-prefixed type OpenAI takes as a `tool_choice` (the SDK's `ToolChoice` union, `function` and
#: `allowed_tools` aside). An `allowed_tools` choice lists tool definitions, so a tool choice model reads
#: these and `OPENAI_TOOL_TYPES` both.
OPENAI_TOOL_CHOICE_TYPES = frozenset(
    {
        "apply_patch", "code_interpreter", "computer", "computer_use", "computer_use_preview", "custom", "file_search",
        "image_generation", "mcp", "programmatic_tool_calling", "shell", "web_search_preview",
        "web_search_preview_2025_03_11",
    }
)  # fmt: skip


def _openai_tool_type_problem(cls: type, type_: str) -> str | None:
    """In OpenAI mode, why an un-prefixed tool (`cls` `NamespacedTool`) or tool choice (`NamespacedToolChoice`)
    `type_` is none of OpenAI's, naming the closest known types; None when it is one."""
    from ._generated.open_responses.namespaced_tool_choice import NamespacedToolChoice  # noqa: PLC0415  loaded

    choice = issubclass(cls, NamespacedToolChoice)
    known = OPENAI_TOOL_TYPES | OPENAI_TOOL_CHOICE_TYPES if choice else OPENAI_TOOL_TYPES
    if type_ in known or type_ in SPEC_TOOL_TYPES:
        return None
    what = "tool choice" if choice else "tool"
    close = closest(type_, known | SPEC_TOOL_TYPES)
    hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
    return (
        f"unknown {what} type '{type_}'{hint}: it is neither a spec nor an OpenAI {what} type, and a type outside "
        f"the spec must be prefixed with its provider's slug as slug:name (for example 'acme:{type_ or 'name'}')"
    )


# OpenAI mode reads OpenAI's own tool and tool choice types un-prefixed (`web_search` as `openai:web_search`),
# and no other (asked of the class being read: a tool or a tool choice).
NamespacedToolBase.native_problem = classmethod(_openai_tool_type_problem)  # type: ignore[assignment]

#: Models read and dumped identically on both sides (OpenAI's input form equals its output form).
_BOTH = (
    "WebSearchCall",
    "FileSearchCall",
    "ComputerCall",
    "CodeInterpreterCall",
    "ImageGenerationCall",
    "LocalShellCall",
    "LocalShellCallOutput",
    "McpCall",
    "McpListTools",
    "McpApprovalRequest",
    "Program",
    "ProgramOutput",
)
#: (output form, input form) where OpenAI's input form is looser (id and status optional).
_PAIRS = (
    ("ComputerCallOutput", "ComputerCallOutputParam"),
    ("ShellCall", "ShellCallParam"),
    ("ShellCallOutput", "ShellCallOutputParam"),
    ("ApplyPatchCall", "ApplyPatchCallParam"),
    ("ApplyPatchCallOutput", "ApplyPatchCallOutputParam"),
    ("McpApprovalResponse", "McpApprovalResponseParam"),
    ("CustomToolCall", "CustomToolCallParam"),
    ("CustomToolCallOutput", "CustomToolCallOutputParam"),
    ("ToolSearchCall", "ToolSearchCallParam"),
    ("ToolSearchOutput", "ToolSearchOutputParam"),
    ("AdditionalTools", "AdditionalToolsParam"),
)
#: Item types OpenAI only accepts as input.
_INPUT_ONLY = ("CompactionTriggerParam", "ConfigurationUpdateParam")
_ANNOTATIONS = ("FileCitation", "ContainerFileCitation", "FilePath")
_MODELS = frozenset({*_BOTH, *(m for pair in _PAIRS for m in pair), *_INPUT_ONLY, *_ANNOTATIONS})
_LOCK = threading.Lock()
_LOADED: dict[str, MappingProxyType[str, Any]] = {}


def _model(name: str) -> Any:
    """A generated model by class name (`McpCall` lives in `_generated/openai/mcp_call.py`)."""
    module = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return getattr(importlib.import_module(f"._generated.openai.{module}", __package__), name)


def _tag(model: type[Any]) -> str:
    """The namespaced type a generated model pins (`openai:web_search_call`)."""
    literal: Any = model.model_fields["type"].annotation
    (value,) = literal.__args__
    return str(value)


def _tables() -> dict[str, MappingProxyType[str, Any]]:
    """Import the models and build the three tables (once); the plain part table replaces the lazy one on
    `NamespacedPartBase`."""
    if _LOADED:
        return _LOADED
    with _LOCK:
        if not _LOADED:
            out = [_model(n) for n in (*_BOTH, *(o for o, _ in _PAIRS))]
            inp = [_model(n) for n in (*_BOTH, *(i for _, i in _PAIRS), *_INPUT_ONLY)]
            notes = [_model(n) for n in _ANNOTATIONS]
            tables = {
                "output": MappingProxyType({_tag(m): m for m in out}),
                "input": MappingProxyType({_tag(m): m for m in inp}),
                "annotation": MappingProxyType({_tag(m): m for m in notes}),
            }
            NamespacedPartBase.typed_models = tables["annotation"]
            _LOADED.update(tables)
    return _LOADED


class _Table(Mapping[str, Any]):
    """A read-only table of namespaced type -> model whose models load on its first lookup."""

    def __init__(self, which: str) -> None:
        self._which = which

    def _data(self) -> Mapping[str, Any]:
        data = _tables()[self._which]
        self.get = data.get  # type: ignore[method-assign,assignment]  # later lookups go straight to the table
        return data

    def get(self, key: str, default: Any = None) -> Any:
        return self._data().get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self._data())!r})"


OUTPUT_TYPES: Mapping[str, type[NamespacedItem]] = _Table("output")
"""Namespaced type -> model for the items of a response's `output` (OpenAI's `ResponseOutputItem`)."""

INPUT_TYPES: Mapping[str, type[NamespacedItem]] = _Table("input")
"""Namespaced type -> model for the items of a request's `input` (OpenAI's `ResponseInputItem`)."""

ANNOTATION_TYPES: Mapping[str, type[NamespacedPart]] = _Table("annotation")
"""Namespaced type -> model for OpenAI's own annotations inside `output_text`."""

# A namespaced part asks this table on its first validation (`NamespacedBase._read_native_types`), which
# loads the models and puts the plain table in its place.
NamespacedPartBase.typed_models = ANNOTATION_TYPES
# Every item union's namespaced branch (`replayable._item_routes`) reads OpenAI's typed items by these.
ROUTES["input"], ROUTES["output"] = INPUT_TYPES, OUTPUT_TYPES


def __getattr__(name: str) -> Any:
    if name == "NATIVE_NAMES":
        value: Any = frozenset(t.split(":", 1)[1] for t in (*OUTPUT_TYPES, *INPUT_TYPES, *ANNOTATION_TYPES))
    elif name in _MODELS:
        _tables()
        value = _model(name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "NATIVE_NAMES"})


def typed_model(type_: str, side: str = "output") -> type[NamespacedItem] | None:
    """The model of an OpenAI item type on `side` ("input" or "output"), prefixed (`openai:mcp_call`) or
    as OpenAI sends it (`mcp_call`); `None` when the type has no model (it is then an opaque
    `NamespacedItem`)."""
    table = INPUT_TYPES if side == "input" else OUTPUT_TYPES
    return table.get(type_ if ":" in type_ else "openai:" + type_)


def input_fields(item: NamespacedItem) -> frozenset[str] | None:
    """The wire names of the fields OpenAI's input form of this typed item declares (what `to_input` and
    `prepare_replay` keep), or None for an item without a typed input form."""
    model = INPUT_TYPES.get(getattr(item, "type", ""))
    if model is None or not item.pinned:
        return None
    own = model.__annotations__  # the fields its schema declares, not the generic parent's id and status
    return frozenset(f.alias or name for name, f in model.model_fields.items() if name in own)


_ITEM_NAMES: list[frozenset[str]] = []


def _openai_item_types() -> frozenset[str]:
    """Every item type OpenAI's Responses API sends or takes, un-prefixed (either side)."""
    if not _ITEM_NAMES:
        _ITEM_NAMES.append(frozenset(t.split(":", 1)[1] for t in (*OUTPUT_TYPES, *INPUT_TYPES)))
    return _ITEM_NAMES[0]


def is_openai_item_type(type_: str) -> bool:
    """Whether an un-prefixed `type` is one of OpenAI's own item types (`web_search_call`, `mcp_call`,
    ...; on either side). In OpenAI mode any other un-prefixed, non-spec type is an unknown type, refused
    like in strict mode, never read as an opaque `openai:` item."""
    return type_ in _openai_item_types()


def closest_item_types(type_: str, provider: str | None = None) -> list[str]:
    """The known item types closest to `type_` (at most three, closest first, by `difflib`): the spec's,
    and with `provider="openai"` OpenAI's too. For an error message that names what was probably meant
    (`function_call_outptu` -> `function_call_output`)."""
    return closest(type_, SPEC_ITEM_TYPES | _openai_item_types() if provider == "openai" else SPEC_ITEM_TYPES)


def closest(type_: str, known: frozenset[str]) -> list[str]:
    """The names of `known` closest to `type_` (at most three, closest first, by `difflib`), for a message
    that names what a misspelt type probably meant (item types, tool types)."""
    import difflib  # noqa: PLC0415  (only for a misspelt type's message: not at `import replayable`)

    return difflib.get_close_matches(type_, sorted(known), n=3, cutoff=0.6)
