"""The official sweep: valid and invalid instances of every one of the 108 schemas
of the official Open Responses OpenAPI document (2026-04-24, read from the `openresponses-py` package
data, never copied here), each read through the public API that reads that shape.

A schema that has a reader of its own is read by it (items by `parse_item(side=...)`, bodies by
`parse_request` / `parse_compact_request`, Responses by `parse_response` / `parse_compact_response`,
stream events by `replayable.stream.parse_event`, WebSocket messages by
`replayable.websocket.parse_websocket_event`); a piece of one (a content part, an enum, a tool, usage,
...) is read where the document places it, inside a minimal host of the reader that reads it (`HOSTS`).

- **valid**: instances generated from the official schema (hypothesis-jsonschema, derandomized, not
  shrunk; an object's properties are drawn one by one, and for the schemas that hold a whole
  `ResponseResource` (`BIG`) also a tagged union's members and an array's items, with fewer examples,
  which keeps each schema to seconds) are read typed
  (never a fallback: no `NamespacedItem`, no generic `ExtensionEvent`) and dump back equal;
- **invalid**: each valid instance mutated at one place (a key removed, a value of the wrong JSON type,
  a string no enum holds), kept when the official schema refuses it, is refused with an error whose
  location names the mutated field (or, inside an untagged union, the union's own field); a stream
  error's locations are its `.errors`, as an item error's are;
- a valid instance we refuse, or an invalid one we accept, must be one of the deliberate differences of
  `schemas/differences.json`, the one list that `schemas/README.md` renders as its table
  (`test_the_readme_table_is_the_list`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import FULL_RESPONSE
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import replayable as rp
from replayable import stream as S
from replayable import websocket as W

OFFICIAL = json.loads((resources.files("openresponses") / "openapi" / "2026-04-24.json").read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = OFFICIAL["components"]["schemas"]
ROOT = Path(__file__).resolve().parent.parents[1]
DIFFERENCES: list[dict[str, Any]] = json.loads((ROOT / "schemas" / "differences.json").read_text(encoding="utf-8"))
#: Valid instances per schema, mutations per instance: the whole file runs in a few minutes on 2 cores.
EXAMPLES = 6
MUTATIONS = 4
#: Valid instances per `BIG` schema (a whole Response each, each mutated MUTATIONS times).
BIG_EXAMPLES = 4


def _inline(x: Any) -> Any:
    """The schema with every `$ref` replaced by its target (the document has no recursive schema)."""
    if isinstance(x, dict):
        if "$ref" in x:
            target = _inline(SCHEMAS[x["$ref"].rsplit("/", 1)[1]])
            rest = {k: _inline(v) for k, v in x.items() if k != "$ref"}
            return {"allOf": [target, rest]} if rest else target
        return {k: _inline(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_inline(v) for v in x]
    return x


def _impossible(schema: Any) -> bool:
    """A property the document forbids by an unsatisfiable schema (`x-openresponses-disallowed`), also as
    one part of an `allOf` (an object merged from two, `WebSocketResponseCreateEvent`)."""
    if schema is False:
        return True
    if not isinstance(schema, dict):
        return False
    return bool(schema.get("x-openresponses-disallowed")) or any(_impossible(p) for p in schema.get("allOf", ()))


def _object_parts(schema: dict[str, Any]) -> tuple[dict[str, Any], set[str]] | None:
    """(properties, required) of an object schema, `allOf` of objects merged; None for anything else."""
    if "properties" in schema and not any(k in schema for k in ("oneOf", "anyOf")):
        return dict(schema["properties"]), set(schema.get("required", ()))
    if "allOf" in schema and set(schema) <= {"allOf", "title", "description", "x-openresponses-added-in"}:
        props: dict[str, Any] = {}
        required: set[str] = set()
        for part in schema["allOf"]:
            if isinstance(part, dict) and set(part) <= {"description", "title"}:
                continue  # a description only (`{"allOf": [{"$ref": ...}, {"description": ...}]}`)
            got = _object_parts(part)
            if got is None:
                return None
            for k, v in got[0].items():
                props[k] = {"allOf": [props[k], v]} if k in props else v
            required |= got[1]
        return props, required
    return None


def _strategy(schema: Any, depth: int, budget: int = 2) -> st.SearchStrategy[Any]:
    """Valid instances of `schema`, `depth` levels down. Above `budget` levels, an object's properties
    are drawn one by one; with a budget past 2 (the big schemas) also a tagged union's members one by one
    and an array's items (at most 2), where hypothesis-jsonschema takes minutes (the `output` of a
    `ResponseResource`). Below the budget, hypothesis-jsonschema draws the whole value."""
    if depth >= budget:
        return from_schema(schema)
    parts = _object_parts(schema)
    if parts is not None:
        props, required = parts
        props = {k: v for k, v in props.items() if not _impossible(v)}
        return st.fixed_dictionaries(
            {k: _strategy(v, depth + 1, budget) for k, v in props.items() if k in required},
            optional={k: _strategy(v, depth + 1, budget) for k, v in props.items() if k not in required},
        )
    if budget > 2 and isinstance(schema, dict):
        keys = set(schema) - {"description", "title"}
        if keys == {"oneOf", "discriminator"}:  # members told apart by their tag: any member is valid
            return st.one_of([_strategy(m, depth + 1, budget) for m in schema["oneOf"]])
        if keys == {"type", "items"} and schema["type"] == "array":
            return st.lists(_strategy(schema["items"], depth + 1, budget), max_size=2)
    return from_schema(schema)


#: The schemas that hold a whole `ResponseResource`: generated with a deeper budget (its `output` item by
#: item) and fewer examples (`BIG_EXAMPLES`), so that each takes seconds, not minutes.
BIG = {
    "ResponseResource",
    *(n for n in SCHEMAS if n.endswith("StreamingEvent") and "response" in SCHEMAS[n].get("properties", {})),
}


def strategy(name: str) -> st.SearchStrategy[Any]:
    """Valid instances of an official schema: an object's properties drawn one by one (two levels deep,
    so the `ResponseResource` inside an event too; five for the `BIG` schemas, with unions and arrays),
    anything else by hypothesis-jsonschema."""
    return _strategy(_inline(SCHEMAS[name]), 0, 5 if name in BIG else 2)


VALIDATOR = {name: jsonschema_rs.validator_for(_inline(schema)) for name, schema in SCHEMAS.items()}

# --- readers and hosts ------------------------------------------------------------------------------

Dump = Callable[[Any], Any]


def _model_dump(x: Any) -> Any:
    return x.model_dump(mode="json", by_alias=True, exclude_unset=True)


def _typed_item(x: Any) -> None:
    assert not isinstance(x, rp.NamespacedItem), f"read as a fallback: {type(x).__name__}"


def _typed_event(x: Any) -> None:
    assert type(x) is not S.ExtensionEvent, "read as the generic ExtensionEvent"


#: reader name -> (read, dump, typed check)
READERS: dict[str, tuple[Callable[[Any], Any], Dump, Callable[[Any], None]]] = {
    "input": (lambda v: rp.parse_item(v, side="input"), rp.dump_item, _typed_item),
    "output": (lambda v: rp.parse_item(v, side="output"), rp.dump_item, _typed_item),
    "request": (rp.parse_request, rp.dump_request, lambda x: None),
    "response": (rp.parse_response, rp.dump_response, lambda x: None),
    "compact-request": (rp.parse_compact_request, rp.dump_request, lambda x: None),
    "compact-response": (rp.parse_compact_response, rp.dump_response, lambda x: None),
    "event": (S.parse_event, _model_dump, _typed_event),
    "websocket": (W.parse_websocket_event, _model_dump, lambda x: None),
}

RESP = {**FULL_RESPONSE, "status": "completed"}
USAGE = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2, "input_tokens_details": {"cached_tokens": 0},
         "output_tokens_details": {"reasoning_tokens": 0}}  # fmt: skip
USER = {"type": "message", "role": "user", "content": []}
ASSISTANT = {"type": "message", "role": "assistant", "content": []}
MESSAGE = {"type": "message", "id": "m1", "status": "completed", "role": "assistant", "content": []}
OUTPUT_TEXT = {"type": "output_text", "text": "t", "annotations": [], "logprobs": []}
LOGPROB = {"token": "t", "logprob": 0.0, "bytes": [116], "top_logprobs": []}
Path_ = tuple[Any, ...]


def _at(host: dict[str, Any], path: Path_) -> Callable[[Any], Any]:
    """A host builder: `host` with the value put at `path` (an index appends to that list)."""

    def build(value: Any) -> Any:
        doc = json.loads(json.dumps(host))
        node = doc
        for key in path[:-1]:
            node = node[key]
        if isinstance(node, list) and path[-1] == len(node):
            node.append(value)
        else:
            node[path[-1]] = value
        return doc

    return build


#: schema -> (reader, host builder, the path of the value inside the host). Absent: read as it is.
HOSTS: dict[str, tuple[str, Callable[[Any], Any], Path_]] = {}


def _host(names: str, reader: str, host: dict[str, Any], path: Path_) -> None:
    for name in names.split():
        HOSTS[name] = (reader, _at(host, path), path)


_host("InputTextContentParam InputImageContentParamAutoParam InputFileContentParam", "input", USER, ("content", 0))
_host("OutputTextContentParam RefusalContentParam", "input", ASSISTANT, ("content", 0))
_host("UrlCitationParam", "input", {**ASSISTANT, "content": [{"type": "output_text", "text": "t", "annotations": [0]}]},
      ("content", 0, "annotations", 0))  # fmt: skip
_host("ReasoningSummaryContentParam", "input", {"type": "reasoning", "summary": [0]}, ("summary", 0))
_host("DetailEnum", "input", {**USER, "content": [{"type": "input_image", "image_url": "https://x.test/i.png"}]},
      ("content", 0, "detail"))  # fmt: skip
_host("FunctionCallItemStatus", "input", {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
      ("status",))  # fmt: skip
_host("IncludeEnum", "request", {"include": [0]}, ("include", 0))
_host("FunctionToolParam ResponsesToolParam", "request", {"tools": [0]}, ("tools", 0))
_host("EmptyModelParam", "request", {"tools": [{"type": "function", "name": "f"}]}, ("tools", 0, "parameters"))
_host("SpecificFunctionParam SpecificToolChoiceParam ToolChoiceValueEnum AllowedToolsParam ToolChoiceParam",
      "request", {}, ("tool_choice",))  # fmt: skip
_host("MetadataParam", "request", {}, ("metadata",))
_host("VerbosityEnum", "request", {"text": {}}, ("text", "verbosity"))
_host("TextParam", "request", {}, ("text",))
_host("JsonSchemaResponseFormatParam TextFormatParam", "request", {"text": {}}, ("text", "format"))
_host("StreamOptionsParam", "request", {}, ("stream_options",))
_host("ReasoningEffortEnum", "request", {"reasoning": {}}, ("reasoning", "effort"))
_host("ReasoningSummaryEnum", "request", {"reasoning": {}}, ("reasoning", "summary"))
_host("ReasoningParam", "request", {}, ("reasoning",))
_host("TruncationEnum", "request", {}, ("truncation",))
_host("ServiceTierEnum", "request", {}, ("service_tier",))
_host("IncompleteDetails", "response", {**RESP, "status": "incomplete"}, ("incomplete_details",))
_host("Error", "response", {**RESP, "status": "failed"}, ("error",))
_host("FunctionTool Tool", "response", RESP, ("tools", 0))
_host("FunctionToolChoice AllowedToolChoice", "response", RESP, ("tool_choice",))
_host("TextResponseFormat JsonObjectResponseFormat JsonSchemaResponseFormat", "response", RESP, ("text", "format"))
_host("TextField", "response", RESP, ("text",))
_host("Reasoning", "response", RESP, ("reasoning",))
_host("Usage", "response", RESP, ("usage",))
_host("InputTokensDetails", "response", {**RESP, "usage": USAGE}, ("usage", "input_tokens_details"))
_host("OutputTokensDetails", "response", {**RESP, "usage": USAGE}, ("usage", "output_tokens_details"))
_host("MessageRole", "output", MESSAGE, ("role",))
_host("MessageStatus", "output", MESSAGE, ("status",))
_host("InputTextContent OutputTextContent TextContent SummaryTextContent ReasoningTextContent RefusalContent "
      "InputImageContent InputFileContent InputVideoContent", "output", MESSAGE, ("content", 0))  # fmt: skip
_host("UrlCitationBody Annotation", "output", {**MESSAGE, "content": [OUTPUT_TEXT]}, ("content", 0, "annotations", 0))
_host("LogProb", "output", {**MESSAGE, "content": [OUTPUT_TEXT]}, ("content", 0, "logprobs", 0))
_host("TopLogProb", "output", {**MESSAGE, "content": [{**OUTPUT_TEXT, "logprobs": [LOGPROB]}]},
      ("content", 0, "logprobs", 0, "top_logprobs", 0))  # fmt: skip
_host("ImageDetail", "output", {**MESSAGE, "content": [{"type": "input_image", "image_url": None}]},
      ("content", 0, "detail"))  # fmt: skip
_host("FunctionCallStatus", "output", {"type": "function_call", "id": "f1", "call_id": "c", "name": "f",
      "arguments": "{}"}, ("status",))  # fmt: skip
_host("FunctionCallOutputStatusEnum", "output", {"type": "function_call_output", "id": "o1", "call_id": "c",
      "output": "x"}, ("status",))  # fmt: skip
_host("ErrorPayload", "event", {"type": "error", "sequence_number": 0}, ("error",))

#: schema -> reader, for the schemas read as they are.
DIRECT = {
    **{n: "input" for n in ("ItemReferenceParam", "ReasoningItemParam", "CompactionSummaryItemParam",
                            "UserMessageItemParam", "SystemMessageItemParam", "DeveloperMessageItemParam",
                            "AssistantMessageItemParam", "FunctionCallItemParam", "FunctionCallOutputItemParam",
                            "ItemParam")},
    **{n: "output" for n in ("Message", "FunctionCall", "FunctionCallOutput", "ReasoningBody", "CompactionBody",
                             "ItemField")},
    "CreateResponseBody": "request",
    "ResponseResource": "response",
    "CompactResponseMethodPublicBody": "compact-request",
    "CompactResource": "compact-response",
    "WebSocketResponseCreateEvent": "websocket",
    "WebSocketErrorEvent": "websocket",
    **{n: "event" for n in SCHEMAS if n.endswith("StreamingEvent")},
}  # fmt: skip


def test_every_official_schema_has_a_reader() -> None:
    assert len(SCHEMAS) == 108
    assert set(HOSTS) | set(DIRECT) == set(SCHEMAS), sorted(set(SCHEMAS) - set(HOSTS) - set(DIRECT))
    assert not set(HOSTS) & set(DIRECT)


def reader_of(name: str) -> tuple[str, Callable[[Any], Any], Path_]:
    if name in DIRECT:
        return DIRECT[name], (lambda v: v), ()
    return HOSTS[name]


# --- the deliberate differences ---------------------------------------------------------------------


def _error_locs(exc: Exception) -> list[tuple[tuple[Any, ...], str]]:
    """(location, error type) of each problem an error reports."""
    if isinstance(exc, rp.ItemError):
        return [(tuple(e.get("loc", ())), str(e.get("type", ""))) for e in exc.errors]
    if isinstance(exc, S.StreamError):
        return [(tuple(e["loc"]), str(e["type"])) for e in exc.errors]
    raise AssertionError(f"not a library error: {type(exc).__name__}: {exc}")


def _fields(loc: tuple[Any, ...]) -> list[str]:
    return [p for p in loc if isinstance(p, str)]


def explained_refusal(name: str, errors: list[tuple[tuple[Any, ...], str]], text: str) -> str | None:
    """The id of the deliberate difference that explains refusing a valid instance of `name`, if any:
    every error names a field (and, where listed, an error type or message) of a listed difference (the
    ids joined by `+` when the errors need more than one)."""
    ids: set[str] = set()
    for loc, etype in errors or [((), "")]:
        why = _explaining(name, loc, etype, text)
        if why is None:
            return None
        ids.add(why)
    return "+".join(sorted(ids))


def _explaining(name: str, loc: tuple[Any, ...], etype: str, text: str) -> str | None:
    for diff in DIFFERENCES:
        if diff.get("direction") != "refuses" or not ({"*", name} & set(diff["schemas"])):
            continue
        fields = set(diff.get("fields", ()))
        types = set(diff.get("error_types", ()))
        if fields and not set(_fields(loc)) & fields or types and etype not in types:
            continue
        if all(m in text for m in diff.get("message_contains", ())):
            return str(diff["id"])
    return None


def explained_acceptance(name: str, path: Path_) -> str | None:
    """The id of the deliberate difference that explains accepting an invalid instance mutated at `path`."""
    for diff in DIFFERENCES:
        if diff.get("direction") == "accepts" and {"*", name} & set(diff["schemas"]):
            if set(_fields(path)) & set(diff.get("fields", ())):
                return str(diff["id"])
    return None


# --- mutations --------------------------------------------------------------------------------------


def _paths(value: Any, here: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield here, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*here, i))


def _wrong(value: Any) -> list[Any]:
    if isinstance(value, bool) or value is None:
        return ["zz_wrong"]
    if isinstance(value, int | float):
        return ["zz_wrong"]
    if isinstance(value, str):
        return [12345, "zz_not_in_any_enum"]
    return [12345]


def _put(value: Any, path: Path_, new: Any, delete: bool = False) -> Any:
    doc = json.loads(json.dumps(value))
    if not path:
        return new
    node = doc
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = new
    return doc


def mutations(value: Any, name: str) -> list[tuple[Path_, Any]]:
    """Up to MUTATIONS invalid variants of a valid instance, each with the path it changed, spread over
    the instance (deterministic)."""
    out: list[tuple[Path_, Any]] = []
    for path, node in _paths(value):
        if isinstance(node, dict):
            for k in node:
                out.append(((*path, k), _put(value, (*path, k), None, delete=True)))
        for w in _wrong(node):
            out.append((path, _put(value, path, w)))
    invalid = [(p, v) for p, v in out if not VALIDATOR[name].is_valid(v)]
    if len(invalid) <= MUTATIONS:
        return invalid
    step = len(invalid) / MUTATIONS
    return [invalid[int(i * step)] for i in range(MUTATIONS)]


# --- the sweep --------------------------------------------------------------------------------------

TALLY: Counter[tuple[str, str]] = Counter()


def _names_the_field(errors: list[tuple[tuple[Any, ...], str]], want: Path_, host: Path_) -> bool:
    """An error's location is the mutated path, lies below it, or is a field above it inside the value
    (an untagged union reports at its own field, a removed tag at the object it tagged, an event's unknown
    type at the event). A stream error's locations are its `.errors`, as an item error's are."""
    for loc, etype in errors:
        if (
            want[-1:] == ("type",)
            and loc == want[:-1]
            and etype in ("namespaced_type", "union_tag_invalid", "unknown_event")
        ):
            return True  # a tag no one knows, reported at the tagged object with the rule it breaks
        if loc[: len(want)] == want:
            return True
        if want[: len(loc)] == loc and len(loc) > len(host) and isinstance(loc[-1], str):
            return True
        if want[: len(loc)] == loc and len(loc) > len(host) and len(want) - len(loc) <= 2:
            return True
    return not want[len(host) :] and any(loc[: len(host)] == host for loc, _ in errors)


#: Not swept yet: none. A schema that fails a first run waits here, with its reason, until its
#: findings are fixed or listed in schemas/differences.json.
PENDING: set[str] = set()
#: `SWEEP_SCHEMAS="Name Other" pytest tests/contracts/test_sweep_official.py -k official_sweep` sweeps just those
#: schemas (pending or not): how a pending schema is tried before it leaves the list.
SWEPT = (
    sorted(os.environ["SWEEP_SCHEMAS"].split()) if os.environ.get("SWEEP_SCHEMAS") else sorted(set(SCHEMAS) - PENDING)
)


def test_every_schema_is_swept() -> None:
    assert not PENDING
    if not os.environ.get("SWEEP_SCHEMAS"):
        assert SWEPT == sorted(SCHEMAS)


@pytest.mark.slow
@pytest.mark.parametrize("name", SWEPT)
def test_official_sweep(name: str) -> None:
    reader, build, at = reader_of(name)
    read, dump, typed = READERS[reader]

    # no shrinking: a failure names its instance, and shrinking a big event can take minutes
    @settings(max_examples=BIG_EXAMPLES if name in BIG else EXAMPLES, deadline=None, derandomize=True, database=None,
              phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy(name))
    def check(value: Any) -> None:
        assert VALIDATOR[name].is_valid(value)
        doc = build(value)
        known: set[tuple[tuple[Any, ...], str]] = set()  # the errors of a valid instance refused by choice
        untagged: list[tuple[Any, ...]] = []
        try:
            got = read(doc)
        except (rp.ItemError, S.StreamError) as exc:
            known = set(_error_locs(exc))
            # an object refused for its missing tag cannot be typed: nothing inside it can be judged
            untagged = [loc[:-1] for loc, etype in known if etype in ("union_tag_not_found", "missing_type")]
            why = explained_refusal(name, _error_locs(exc), str(exc))
            assert why is not None, f"{name}: a valid instance refused: {exc}\n{json.dumps(value)[:400]}"
            TALLY[(name, f"valid refused ({why})")] += 1
        else:
            typed(got)
            assert dump(got) == doc, f"{name}: dumped differently"
            TALLY[(name, "valid read")] += 1
        for path, bad in mutations(value, name):
            want = (*at, *path)
            try:
                read(build(bad))
            except (rp.ItemError, S.StreamError) as exc:
                errors = [e for e in _error_locs(exc) if e not in known]
                if not errors and any(want[: len(u)] == u for u in untagged):
                    TALLY[(name, "invalid refused (its object has no tag: refused by choice)")] += 1
                    continue
                assert errors, f"{name}: mutated at {want}, refused only for the deliberate difference: {exc}"
                assert _names_the_field(errors, want, at), f"{name}: mutated at {want}, error at {errors}: {exc}"
                TALLY[(name, "invalid refused")] += 1
            else:
                why = explained_acceptance(name, want)
                assert why is not None, f"{name}: an invalid instance (at {want}) accepted: {json.dumps(bad)[:400]}"
                TALLY[(name, f"invalid accepted ({why})")] += 1

    check()
    assert TALLY[(name, "valid read")] + sum(v for (n, k), v in TALLY.items() if n == name and "refused (" in k)


# --- the list of differences is the README's table --------------------------------------------------


def render_table(differences: list[dict[str, Any]]) -> str:
    """The markdown table `schemas/README.md` shows (its "Deliberate differences" section)."""
    lines = ["| Difference | Official document | Ours | Why |", "|---|---|---|---|"]
    for d in differences:
        lines.append(f"| {d['title']} | {d['official']} | {d['ours']} | {d['why']} |")
    return "\n".join(lines) + "\n"


def test_the_readme_table_is_the_list() -> None:
    readme = (ROOT / "schemas" / "README.md").read_text(encoding="utf-8")
    assert render_table(DIFFERENCES) in readme, "schemas/README.md: render the table from schemas/differences.json"
    ids = [d["id"] for d in DIFFERENCES]
    assert len(ids) == len(set(ids))
    for d in DIFFERENCES:
        assert d.get("direction") in ("refuses", "accepts", "documents"), d["id"]
        assert set(d["schemas"]) <= {*SCHEMAS, "*"}, d["id"]


@pytest.mark.parametrize("diff", [d for d in DIFFERENCES if "example" in d], ids=lambda d: str(d["id"]))
def test_each_listed_difference_is_real(diff: dict[str, Any]) -> None:
    """Each example is valid for the official schema and refused by us (or the other way round), as the
    list says."""
    name = diff["schemas"][0]
    reader, build, _ = reader_of(name)
    read = READERS[reader][0]
    value = diff["example"]
    if diff["direction"] == "refuses":
        assert VALIDATOR[name].is_valid(value)
        with pytest.raises((rp.ItemError, S.StreamError)) as exc:
            read(build(value))
        assert explained_refusal(name, _error_locs(exc.value), str(exc.value)) == diff["id"]
    else:
        assert not VALIDATOR[name].is_valid(value)
        read(build(value))
