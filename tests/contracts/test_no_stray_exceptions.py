"""The crashes found by review, one test per class: each entry point ends in a result or its
documented error (`ItemError`, `StreamError`, `ToolResultError`, ...), never `TypeError`,
`RecursionError`, `UnicodeEncodeError` or the interpreter's int-limit `ValueError`, and what parses
dumps again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import _compare as rp_compare
from replayable import _json
from replayable import agents as A
from replayable import stream as S
from replayable._cli import main
from replayable._replay import ViolationCode


def nest(n: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(n):
        value = {"a": value}
    return value


SURROGATE_ITEM = {"type": "message\ud800", "role": "user", "content": "x"}


def prints(text: str) -> str:
    text.encode("utf-8")
    return text


# ------------------------------------------------------------------ UnicodeEncodeError


def test_a_lone_surrogate_in_type_is_an_item_error_that_prints() -> None:
    with pytest.raises(rp.ItemError) as info:
        rp.parse_item(SURROGATE_ITEM)
    assert "lone_surrogate" in prints(str(info.value))
    assert info.value.errors[0]["type"] == "lone_surrogate"
    report = rp.check_transcript([SURROGATE_ITEM])
    assert not report.ok
    for v in report.violations:
        prints(v.message)
    prints(rp.gate(SURROGATE_ITEM, None).message)


def test_a_lone_surrogate_in_the_stream_paths_is_a_stream_error() -> None:
    event = {"type": "response.output_item.added", "sequence_number": 0, "output_index": 0, "item": SURROGATE_ITEM}
    with pytest.raises(S.StreamError) as info:
        S.StreamAssembler().feed(event)
    prints(str(info.value))
    for source in ('data: {"type":"acme:x\ud800"}\n\n', ['data: {"type":"acme:x\ud800"}\n', "\n"]):
        with pytest.raises(S.StreamError) as info:
            list(S.parse_sse(source))
        prints(str(info.value))
    with pytest.raises(S.StreamError):
        list(S.parse_sse('data: {"type":"acme:x","t":"\\udc00"}\n\n'))


def test_a_lone_surrogate_in_agents_paths_is_reported_printably() -> None:
    report = A.check_event_log([{"type": "agent.session.input.tool_result", "turn_id": "t\ud800", "call_id": "c"}])
    assert not report.ok
    for v in report.violations:
        prints(v.message)
    with pytest.raises(A.ToolResultError) as info:
        A.PendingActions().accept({"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "\ud800"})
    prints(str(info.value))


# ------------------------------------------------------------------ TypeError


def test_from_chat_completions_with_a_list_role_or_no_list() -> None:
    with pytest.raises(rp.ItemError) as info:
        rp.from_chat_completions([{"role": ["user"], "content": "x"}])
    assert info.value.errors[0]["loc"] == (0, "role")
    for bad in (None, 5):
        with pytest.raises(rp.ItemError):
            rp.from_chat_completions(bad)


def test_link_chain_with_a_list_item_type() -> None:
    chain = A.link_chain(
        [
            {"type": "agent.session.turn.item.done", "item": {"type": ["function_call"], "call_id": "c"}},
            {"type": ["x"]},
        ]
    )
    assert chain.ok and chain.links == ()


@pytest.mark.parametrize("bad", [b"bytes", {1, 2}, frozenset(), (1, 2), bytearray(b"x")])
def test_bytes_and_sets_inside_items(bad: Any) -> None:
    item = {"type": "message", "role": "user", "content": "x", "meta": {"v": bad}}
    with pytest.raises(rp.ItemError) as info:
        rp.compare_items(item, {**item, "meta": {}})
    assert info.value.errors[0]["type"] == "not_json"
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed({"type": "response.created", "sequence_number": 0, "response": {"x": bad}})
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed(
            {"type": "response.output_item.added", "sequence_number": 0, "output_index": 0, "item": item}
        )


def test_json_schema_with_a_wrong_type_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="side must be"):
        rp.json_schema(["input"])  # type: ignore[arg-type]


# ------------------------------------------------------------------ RecursionError


def test_compare_items_on_a_400_deep_unknown_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = {"type": "message", "role": "user", "content": "x", "meta": nest(400)}
    b = {**a, "meta": nest(400, 2)}
    with pytest.raises(rp.ItemError) as info:
        rp.compare_items(a, b)
    assert info.value.errors[0]["type"] == "too_deep"
    fa, fb = tmp_path / "a.json", tmp_path / "b.json"
    fa.write_text(json.dumps([a]))
    fb.write_text(json.dumps([b]))
    assert main(["diff", str(fa), str(fb)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "deeper" in err


def test_compare_items_just_within_the_limit_reports_the_leaf() -> None:
    depth = _json.MAX_ITEM_DEPTH - 2  # the item and the leaf are levels too
    a = {"type": "message", "role": "user", "content": "x", "meta": nest(depth)}
    diffs = rp.compare_items(a, {**a, "meta": nest(depth, 2)})
    assert [d.change for d in diffs] == [rp.Change.FIELD]
    assert diffs[0].path == "/meta" + "/a" * depth
    assert rp_compare.json_equal(nest(5000), nest(5000))  # iterative: any depth


# ------------------------------------------------------------------ the int limit


def test_integers_over_4300_digits_are_the_documented_error() -> None:
    big = 10**4300
    item = {"type": "message", "role": "user", "content": "x", "n": big}
    for call in (
        lambda: rp.parse_item(item),
        lambda: rp.compare_items(item, item),
        lambda: A.parse_event({"type": "agent.session.zzz", "n": big}),
    ):
        with pytest.raises(rp.ItemError) as info:
            call()
        assert info.value.errors[0]["type"] == "number_too_long"
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed({"type": "acme:x", "sequence_number": 0, "n": big})
    assert [v.code for v in rp.check_transcript([item]).violations] == [ViolationCode.ITEM_INVALID]
    with pytest.raises(rp.ArgumentsError) as args_info:
        rp.parse_arguments('{"n":' + "1" * 4301 + "}")
    assert args_info.value.reason == "number_too_long"


# ------------------------------------------------------------------ dumps after a successful parse


def test_a_900_deep_unknown_event_is_refused_at_parse() -> None:
    with pytest.raises(rp.ItemError) as info:
        A.parse_event({"type": "agent.session.zzz", "x": nest(900)})
    assert info.value.errors[0]["type"] == "too_deep"
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed({"type": "acme:x", "sequence_number": 0, "x": nest(900)})


def test_what_parses_at_the_limit_dumps() -> None:
    event = A.parse_event({"type": "agent.session.zzz", "x": nest(_json.MAX_ITEM_DEPTH - 2)})
    json.dumps(A.dump(event))
    item = rp.parse_item({"type": "message", "role": "user", "content": "x", "x": nest(_json.MAX_ITEM_DEPTH - 2)})
    json.dumps(rp.dump_item(item))


def test_gate_and_check_tool_never_repr_a_deep_value() -> None:
    deep = nest(3000)
    res = rp.gate({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": deep}, None)
    assert res.reason is rp.GateReason.STATUS and "dict" in res.detail
    found = rp.check_tool({"type": "function", "name": deep, "parameters": {"type": "object"}})
    assert [v.path for v in found][:1] == ["/name"]


# ------------------------------------------------------------------ one exception root
#
# Every exception class the library defines derives from `replayable.errors.ReplayableError`, and every
# public entry point given bad data raises only those: `except ReplayableError` catches all of it.


def _library_modules() -> list[str]:
    package = Path(rp.__file__).parent
    names = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if "_generated" in parts or parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_exception_class_of_the_library_derives_from_the_root() -> None:
    import importlib
    import inspect

    classes = set()
    for name in _library_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name:
                classes.add(value)
    assert {c.__name__ for c in classes} >= {"ItemError", "SchemaError", "StreamError", "SchemaLoopError"}
    stray = sorted(f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, rp.ReplayableError))
    assert not stray, f"exception classes outside the root ReplayableError: {stray}"


class _Opaque:
    pass


BAD_DATA: dict[str, Any] = {
    "none": None,
    "number": 5,
    "nan": float("nan"),
    "not_json_text": "not json {",
    "not_utf8": b"\xff\xfe",
    "type_not_a_string": {"type": 5},
    "list_of_numbers": [1],
    "lone_surrogate": SURROGATE_ITEM,
    "deep": nest(3000),
    "set": {1, 2},
    "opaque_object": _Opaque(),
    "empty_object": {},
    "chat_completions_body": {"model": "m", "messages": [{"role": "user", "content": "x"}]},
}
_CALL = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": "completed"}
_TOOL = {"type": "function", "name": "f", "parameters": {"type": "object"}}
_AGENTS_CALL = {"type": "function_call", "turn_id": "t", "call_id": "c", "name": "f", "arguments": {}}
_MCP_ACTION = {
    "type": "mcp_approval_request",
    "request_id": "r",
    "turn_id": "t",
    "request": {"type": "mcp_tool_call", "server_label": "s", "name": "n", "arguments": "{}", "message": "m"},
}


def _websocket(data: Any) -> Any:
    from replayable.websocket import parse_websocket_event

    return parse_websocket_event(data)


def _schema_profile(data: Any) -> Any:
    from replayable._schema_budget import schema_profile

    return schema_profile(data)


ENTRY_POINTS: dict[str, Any] = {
    "parse_item": lambda d: rp.parse_item(d),
    "parse_item_output": lambda d: rp.parse_item(d, side="output", provider="openai"),
    "parse_items": lambda d: rp.parse_items(d),
    "iter_items": lambda d: list(rp.iter_items(d)),
    "dump_item": lambda d: rp.dump_item(d),
    "dump_items": lambda d: rp.dump_items(d),
    "parse_request": lambda d: rp.parse_request(d),
    "parse_response": lambda d: rp.parse_response(d),
    "parse_compact_request": lambda d: rp.parse_compact_request(d),
    "parse_compact_response": lambda d: rp.parse_compact_response(d),
    "dump_request": lambda d: rp.dump_request(d),
    "dump_response": lambda d: rp.dump_response(d),
    "parse_arguments": lambda d: rp.parse_arguments(d),
    "check_transcript": lambda d: rp.check_transcript(d),
    "check_transcript(tools=)": lambda d: rp.check_transcript([_CALL], tools=d),
    "check_transcript(allowed_tools=)": lambda d: rp.check_transcript([_CALL], allowed_tools=d),
    "check_transcript(previous=)": lambda d: rp.check_transcript({"input": [], "previous_response_id": "r"}, previous=d),
    "check_tool": lambda d: rp.check_tool(d),
    "gate(item)": lambda d: rp.gate(d, {}),
    "gate(tool)": lambda d: rp.gate(_CALL, d),
    "prepare_replay": lambda d: rp.prepare_replay(d, target="openai"),
    "prepare_replay(tools=)": lambda d: rp.prepare_replay([_CALL], target="openai", tools=d),
    "to_input": lambda d: rp.to_input(d),
    "from_chat_completions": lambda d: rp.from_chat_completions(d),
    "to_chat_completions": lambda d: rp.to_chat_completions(d),
    "compare_items": lambda d: rp.compare_items(d, d),
    "websocket": _websocket,
    "schema_budget.schema_profile": _schema_profile,
    "stream.parse_sse": lambda d: list(S.parse_sse(d)),
    "stream.parse_event": lambda d: S.parse_event(d),
    "stream.check_stream": lambda d: S.check_stream(d),
    "StreamAssembler.feed": lambda d: S.StreamAssembler().feed(d),
    "StreamAssembler.feed_sse": lambda d: list(S.StreamAssembler().feed_sse(d)),
    "agents.parse_event": lambda d: A.parse_event(d),
    "agents.parse_input": lambda d: A.parse_input(d),
    "agents.parse_session": lambda d: A.parse_session(d),
    "agents.parse_session_item": lambda d: A.parse_session_item(d),
    "agents.parse_session_snapshot": lambda d: A.parse_session_snapshot(d),
    "agents.parse_create_params": lambda d: A.parse_create_params(d),
    "agents.parse_update_params": lambda d: A.parse_update_params(d),
    "agents.parse_events_body": lambda d: A.parse_events_body(d),
    "agents.parse_required_action": lambda d: A.parse_required_action(d),
    "agents.check_arguments(action)": lambda d: A.check_arguments(d, _TOOL),
    "agents.check_arguments(tool)": lambda d: A.check_arguments(_AGENTS_CALL, d),
    "agents.check_event_log": lambda d: A.check_event_log(d),
    "agents.link_chain": lambda d: A.link_chain(d),
    "agents.check_card(items)": lambda d: A.check_card(d, {}),
    "agents.check_card(schema)": lambda d: A.check_card([], d),
    "agents.approval_problems": lambda d: A.approval_problems(A.parse_required_action(_MCP_ACTION), d),
    "agents.session_notes": lambda d: A.session_notes(d),
    "PendingActions.accept": lambda d: A.PendingActions().accept(d),
    "PendingActions.from_event": lambda d: A.PendingActions.from_event(d),
    "PendingActions.from_session": lambda d: A.PendingActions.from_session(d),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_every_entry_point_raises_only_under_the_root_on_bad_data(entry: str) -> None:
    """Each bad value ends in a result or in an exception `except ReplayableError` catches, never a
    `TypeError`, `AttributeError`, `KeyError` or a plain `ValueError` from somewhere inside."""
    call = ENTRY_POINTS[entry]
    escaped = []
    for name, data in BAD_DATA.items():
        try:
            call(data)
        except rp.ReplayableError as exc:
            assert str(exc)  # a message that says what is wrong
            prints(str(exc))
        except Exception as exc:  # noqa: BLE001  the point of the test
            escaped.append(f"{name}: {type(exc).__name__}: {str(exc)[:120]}")
    assert not escaped, f"{entry} raised outside ReplayableError:\n" + "\n".join(escaped)


def test_the_errors_fixed_for_the_root_name_what_is_wrong() -> None:
    with pytest.raises(rp.SchemaError, match="tools must be a list"):
        rp.prepare_replay([_CALL], target="openai", tools=5)
    with pytest.raises(rp.SchemaError, match="allowed_tools must be a collection"):
        rp.check_transcript([_CALL], allowed_tools=5)
    with pytest.raises(rp.ItemError, match="previous must be the response") as info:
        rp.check_transcript({"input": [], "previous_response_id": "r"}, previous=5)
    assert info.value.errors[0]["loc"] == ("previous",)
    with pytest.raises(rp.ItemError, match="items must be a list"):
        rp.dump_items(None)
    with pytest.raises(rp.ItemError, match="events must be a list"):
        A.check_event_log(5)
    with pytest.raises(S.StreamError, match="an SSE source is"):
        list(S.parse_sse(None))
    with pytest.raises(rp.ItemError, match="answer must be a parsed approval answer"):
        A.approval_problems(A.parse_required_action(_MCP_ACTION), {"type": "x"})
    from replayable._schema_budget import SchemaLoopError, schema_profile

    with pytest.raises(SchemaLoopError) as loop:
        schema_profile({"allOf": [{"$ref": "#"}]})
    assert isinstance(loop.value, rp.ReplayableError) and isinstance(loop.value, ValueError)


def test_every_exception_class_is_defined_in_errors() -> None:
    """One home for the library's exceptions: `replayable.errors` defines every one of them (the modules
    that raise them, and the public modules that re-export them, import them from there). Read from the
    source as well as from the imported classes, so a class defined under `if TYPE_CHECKING` or inside a
    function is found too."""
    import ast
    import importlib
    import inspect

    package = Path(rp.__file__).parent
    defined_elsewhere = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        if "_generated" in rel.parts or rel.as_posix() == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name | ast.Attribute)
                and (base.id if isinstance(base, ast.Name) else base.attr).endswith(("Error", "Exception", "Warning"))
                for base in node.bases
            ):
                defined_elsewhere.append(f"{rel.as_posix()}:{node.lineno} {node.name}")
    for name in _library_modules():
        for value in vars(importlib.import_module(name)).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("replayable")
                and value.__module__ != "replayable.errors"
            ):
                defined_elsewhere.append(f"{value.__module__}.{value.__qualname__}")
    assert not defined_elsewhere, f"exception classes outside replayable/errors.py: {sorted(set(defined_elsewhere))}"
    from replayable import errors

    moved = ("ItemError", "ModelError", "JSONError", "InputError", "ArgumentsError", "SchemaError")
    assert all(getattr(errors, name).__module__ == "replayable.errors" for name in moved)
    assert rp.ItemError is errors.ItemError and S.StreamError is errors.StreamError
    assert A.ToolResultError is errors.ToolResultError
