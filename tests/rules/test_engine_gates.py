"""The check engine's shortcuts never change a finding (`replayable._rules.engine`, `.whole`, `.plans`).

- Gates (`replayable._rules.state.Gate`, a row's `gate`): a rule is skipped on a plain item only where it
  would find nothing, so the table run with every gate ignored gives the same findings, in the same order.
- The whole-list pass (`Engine._whole`, with the rows' `sweep`s): a list it calls clean is one the item by
  item loop finds nothing in, with the same calls pending; anything else is checked item by item.
- Rule sets and plans are kept per table and switches: one made per combination, a swapped table honoured.

Transcripts are generated (derandomized, bounded): duplicate ids, calls unfinished, repeated, answered twice
or across a barrier, outputs of no call, data URLs, arguments that do not read, hosted and namespaced calls,
safety checks, with and without tools, pending calls, either side, dicts and parsed models alike.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replayable as rp
from replayable._rules import engine, item_rules, plans, table, whole
from replayable._rules.engine import Engine
from replayable._rules.item_rules import data_urls_possible
from replayable._rules.plans import rule_set
from replayable._rules.state import Context
from replayable._rules.tool_rules import arguments_possible

TOOLS = [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}]
IDS = st.sampled_from([None, "a1", "a2", "a3"])
KEYS = st.sampled_from(["c1", "c2", "c3"])
SEARCH = {"type": "search", "query": "q"}


def _with_id(item: dict[str, Any], item_id: str | None) -> dict[str, Any]:
    return item if item_id is None else {**item, "id": item_id}


ITEM = st.one_of(
    st.builds(
        lambda i: _with_id({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "q"}]}, i),
        IDS,
    ),
    st.builds(
        lambda i, s: _with_id(
            {"type": "message", "role": "assistant", "status": s, "content": [{"type": "output_text", "text": "a"}]}, i
        ),
        IDS,
        st.sampled_from(["completed", "incomplete"]),
    ),
    st.builds(
        lambda i, c, a, s: _with_id(
            {"type": "function_call", "call_id": c, "name": "f", "arguments": a, **({"status": s} if s else {})}, i
        ),
        IDS,
        KEYS,
        st.sampled_from(['{"n":1}', ' {"n":2}', '{"n":"x"}', "{", "[1]", '{"n":1e400}', "{}"]),
        st.sampled_from([None, "completed", "completed", "in_progress", "incomplete"]),
    ),
    st.builds(
        lambda c, o: {"type": "function_call_output", "call_id": c, "output": o},
        KEYS,
        st.sampled_from(
            ["done", [{"type": "input_text", "text": "x"}], [{"type": "input_image", "image_url": "data:"}]]
        ),
    ),
    st.builds(
        lambda i: {"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": i}]},
        st.sampled_from(
            ["https://x/y.png", "data:image/png;base64,", "data:image/png;base64,aGk=", " data:text/plain,x"]
        ),
    ),
    st.builds(
        lambda i: _with_id({"type": "openai:web_search_call", "status": "completed"}, i),
        st.sampled_from(["ws_1", "ws_2"]),
    ),
    st.builds(lambda n: {"type": "reasoning", "id": f"rs_{n}", "summary": []}, st.integers(0, 1)),
    st.just({"type": "custom_tool_call", "call_id": "c1", "name": "t", "input": "x"}),
    st.just({"type": "custom_tool_call_output", "call_id": "c1", "output": "y"}),
    st.just(
        {
            "type": "computer_call",
            "id": "cu_1",
            "call_id": "c7",
            "action": {"type": "screenshot"},
            "pending_safety_checks": [{"id": "sc_1", "code": "x", "message": "m"}],
            "status": "completed",
        }
    ),
    st.just(
        {"type": "computer_call_output", "call_id": "c7", "output": {"type": "computer_screenshot", "image_url": "u"}}
    ),
    st.just({"type": "item_reference", "id": "a2"}),
    st.just({"type": "acme:trace", "data": 1}),
    st.just({"type": ["not", "a", "string"]}),
    st.just({"type": "function_call", "call_id": ["c1"], "name": "f", "arguments": "{}"}),
    # what a target's profile reads: unknown keys, nulls, ids in another provider's format, parts' fields
    st.builds(
        lambda extra: {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"}],
                       **extra},
        st.sampled_from([{"foo": 1}, {"status": None}, {"id": "x_1"}, {"id": "msg_1"}, {"phase": "final_answer"}]),
    ),  # fmt: skip
    st.builds(
        lambda part: {"type": "message", "role": "user", "content": [part]},
        st.sampled_from(
            [{"type": "input_text", "text": "q", "foo": 1}, {"type": "input_image", "detail": "auto"},
             {"type": "input_file", "file_data": "data:application/pdf;base64,aGk="},
             {"type": "output_text", "text": "a", "annotations": [], "logprobs": None}]
        ),
    ),  # fmt: skip
    st.builds(
        lambda i, extra: {"type": "function_call", "call_id": "c4", "name": "f", "arguments": "{}", "id": i, **extra},
        st.sampled_from(["fc_1", "call_1"]),
        st.sampled_from([{}, {"role": "assistant"}, {"status": None}]),
    ),
    st.just({"type": "reasoning", "id": "rs_9", "summary": [], "encrypted_content": "e"}),
)
ITEMS = st.lists(ITEM, min_size=1, max_size=9)
SETTINGS = st.fixed_dictionaries(
    {
        "provider": st.sampled_from([None, "openai"]),
        "tools": st.sampled_from([None, TOOLS]),
        "pending_ok": st.booleans(),
        "side": st.sampled_from([None, "input", "output"]),
        "target": st.sampled_from([None, None, "openai", "acme"]),
    }
)


def _findings(items: list[Any], kw: dict[str, Any]) -> Any:
    try:
        report = rp.check_transcript(items, **kw)
    except (ValueError, rp.ItemError) as exc:
        return ("raised", type(exc).__name__, str(exc))
    return report.ok, [(v.index, str(v.code), v.path, v.message) for v in report.violations], report.pending


def _doors(items: list[Any], kw: dict[str, Any]) -> list[Any]:
    """The findings of the dicts and, where they parse, of the parsed models."""
    out = [_findings(items, kw)]
    try:
        parsed = rp.parse_items(items, provider=kw["provider"], side=kw["side"] or "input")
    except rp.ItemError:
        return out
    return [*out, _findings(parsed, kw)]


def _item_by_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Engine, "_whole", lambda self, *args: False)


def _whole_list_told(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What the whole-list pass answers in each check from now on (appended to the list returned)."""
    told: list[bool] = []
    real = Engine._whole

    def spy(self: Engine, views: Any, *args: Any) -> bool:
        told.append(real(self, views, *args))
        return told[-1]

    monkeypatch.setattr(Engine, "_whole", spy)
    return told


@pytest.fixture(autouse=True)
def _every_list_tried_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short lists too go through the whole-list pass here (`WHOLE_FROM`: it is for long ones otherwise)."""
    monkeypatch.setattr(engine, "WHOLE_FROM", 0)


@settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(ITEMS, SETTINGS, st.sampled_from([1, 2, 3, 4, whole.BLOCK]))
def test_the_whole_list_pass_changes_no_finding(items: list[Any], kw: dict[str, Any], block: int) -> None:
    """In blocks of every size (`whole.BLOCK`): a call, its output, a barrier between them, an id or a key
    twice each fall in one block or in two."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(whole, "BLOCK", block)
        fast = _doors(items, kw)
    with pytest.MonkeyPatch.context() as mp:
        _item_by_item(mp)
        slow = _doors(items, kw)
    assert fast == slow


@settings(max_examples=250, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(ITEMS, SETTINGS)
def test_gates_skip_only_rules_that_find_nothing(items: list[Any], kw: dict[str, Any]) -> None:
    gated = _doors(items, kw)
    with pytest.MonkeyPatch.context() as mp:
        _item_by_item(mp)
        mp.setattr(plans, "ungated", lambda rows, kind: table.select(rows, kind))  # every rule asked of every item
        mp.setattr(plans, "_RULE_SETS", {})
        ungated = _doors(items, kw)
    assert gated == ungated


@pytest.mark.parametrize("block", [7, whole.BLOCK])
def test_a_long_clean_list_takes_the_whole_list_pass(monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """What `check.py perf` times: parsed models, every call answered, one namespaced call in five; in blocks
    that split calls from their outputs, and in the library's own."""
    monkeypatch.setattr(whole, "BLOCK", block)
    items: list[Any] = []
    for i in range(200):
        items += [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"q{i}"}]},
            {"type": "function_call", "id": f"fc_{i}", "call_id": f"c{i}", "name": "f", "arguments": '{"n":1}'},
            {"type": "function_call_output", "call_id": f"c{i}", "output": "x"},
            {"type": "openai:web_search_call", "id": f"ws_{i}", "status": "completed", "action": SEARCH},
        ]
    items.append({"type": "function_call", "call_id": "last", "name": "f", "arguments": "{}", "status": "completed"})
    told = _whole_list_told(monkeypatch)
    for value in (items, rp.parse_items(items)):
        report = rp.check_transcript(value, pending_ok=True)
        assert report.ok and report.pending == (len(items) - 1,)
        assert told.pop() is True
    report = rp.check_transcript(rp.parse_items(items))  # the last call left open: `finish` reports it
    assert [(v.index, str(v.code)) for v in report.violations] == [(len(items) - 1, "function_call_without_output")]
    assert told.pop() is True
    items[401] = {**items[401], "id": "fc_3"}  # an id twice: found item by item
    report = rp.check_transcript(rp.parse_items(items), pending_ok=True)
    assert [(v.index, str(v.code)) for v in report.violations] == [(401, "duplicate_item_id")]
    assert told.pop() is False


def _call(key: str, **more: Any) -> dict[str, Any]:
    return {"type": "function_call", "call_id": key, "name": "f", "arguments": "{}", **more}


def _output(key: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": key, "output": "x"}


USER = {"type": "message", "role": "user", "content": "q"}


@pytest.mark.parametrize(
    ("items", "at_once", "found"),
    [
        # outputs out of the calls' order, across blocks: paired by key from there on, nothing to find
        ([_call("a"), _call("b"), _call("c"), _output("b"), _output("a"), _output("c")], True, []),
        # the first answered in order, then out of order, one left open at the end
        ([_call("a"), _output("a"), _call("b"), _call("c"), _output("c")], True, []),
        # an id of the first block again in the second
        ([_call("a", id="fc_1"), _output("a"), USER, _call("b", id="fc_1"), _output("b")], False, [(3, "duplicate_item_id")]),
        # a key of the first block again in the second
        ([_call("a"), _output("a"), USER, _call("a"), _output("a")], False, [(3, "duplicate_call_id"), (4, "duplicate_output")]),
        # an output in the second block answering a call of the first across a barrier
        ([_call("a"), USER, USER, _output("a")], False, [(0, "function_call_without_output")]),
        # two outputs not right after their calls, in two blocks: a barrier between the second pair
        ([_call("a"), _call("b"), _output("a"), USER, _output("b")], False, [(1, "function_call_without_output")]),
        # a call left open, the conversation moving on in the next block
        ([_call("a"), _output("a"), _call("b"), USER], False, [(2, "function_call_without_output")]),
        # an output answering twice, in order first
        ([_call("a"), _output("a"), _call("b"), _output("a"), _output("b")], False, [(3, "duplicate_output")]),
        # an output before its call, in the block before
        ([USER, _output("a"), USER, _call("a")], False, [(1, "output_without_function_call")]),
    ],
)
@pytest.mark.parametrize("block", [1, 2, 3])
def test_blocks_carry_ids_keys_and_barriers_to_the_next(
    monkeypatch: pytest.MonkeyPatch, items: list[Any], at_once: bool, found: list[tuple[int, str]], block: int
) -> None:
    """The whole-list pass read one, two or three items at a time: what one block leaves to the next decides
    as one block would, and whatever it refuses is found item by item."""
    monkeypatch.setattr(whole, "BLOCK", block)
    told = _whole_list_told(monkeypatch)
    for value in (items, rp.parse_items(items)):
        report = rp.check_transcript(value, pending_ok=True)
        assert [(v.index, str(v.code)) for v in report.violations] == found
        assert told.pop() is at_once


@pytest.mark.parametrize(
    ("items", "code"),
    [
        ([{"type": "message", "role": "user", "content": "x", "id": "m"}] * 2, "duplicate_item_id"),
        (
            [
                {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                {"type": "message", "role": "user", "content": "x"},
                {"type": "function_call_output", "call_id": "c", "output": "x"},
            ],
            "function_call_without_output",
        ),
        ([{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{"}], "arguments_parse"),
        ([{"type": "function_call", "call_id": "c", "name": "f", "arguments": "[]"}], "arguments_schema"),
        (
            [
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_image", "image_url": "data:image/png;base64,"}],
                }
            ],
            "data_url_invalid",
        ),
    ],
)
def test_what_the_whole_list_pass_refuses_is_found_item_by_item(items: list[Any], code: str) -> None:
    for value in (items, rp.parse_items(items)):
        report = rp.check_transcript(value, pending_ok=True)
        assert code in {str(v.code) for v in report.violations}


def _types(views: list[Any], classes: list[type]) -> list[Any]:
    """The type of each item as the whole-list pass tells it: by its key (its class, or its type read)."""
    keys, key_types = whole._keys(views, classes)
    return [key_types[k] for k in keys]


def test_a_model_s_class_tells_its_type_as_its_storage_does() -> None:
    """The whole-list pass reads the types of validated models from their classes (`whole._keys`); each
    class pins the one type validation gave its items, and a class that pins none (the generic namespaced
    item) has its items' types read from their storages."""
    done = {"status": "completed"}
    values = [
        {"type": "message", "role": "user", "content": "q"},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "a", "annotations": []}],
            "id": "m",
            **done,
        },
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "id": "fc", **done},
        {"type": "function_call_output", "call_id": "c", "output": "x", "id": "fco", **done},
        {"type": "openai:web_search_call", "id": "ws", "action": SEARCH, **done},
        {"type": "reasoning", "id": "rs", "summary": []},
        {"type": "item_reference", "id": "m0"},
    ]
    for provider in (None, "openai"):
        for side in ("input", "output"):
            models = []
            for value in values:  # each item that reads on this side, with this provider
                try:
                    models.append(rp.parse_item(value, provider=provider, side=side))
                except rp.ItemError:
                    continue
            assert len(models) >= 5
            views = [m.__dict__ for m in models]
            assert _types(views, list(map(type, models))) == [v["type"] for v in views]
    generic = rp.parse_items([*values[:3], {"type": "acme:trace", "data": 1}])
    assert whole._pinned_type(type(generic[-1])) is None
    assert _types([m.__dict__ for m in generic], list(map(type, generic))) == [
        "message",
        "message",
        "function_call",
        "acme:trace",
    ]


@pytest.mark.parametrize("role", ["assistant", "user"])
def test_a_part_appended_to_a_parsed_message_is_seen_by_every_path(monkeypatch: pytest.MonkeyPatch, role: str) -> None:
    """A parsed model is frozen, but the list it holds its parts in can still be changed in place: what the
    sweeps read is that list as it is now, never what the model's class admits, so the whole-list pass and
    the item-by-item walk report the same (found by an attacker against an exemption by class that the
    assistant messages once had)."""
    part = {"type": "output_text", "text": "ok", "annotations": []} if role == "assistant" else {"type": "input_text", "text": "q"}
    items = [{"type": "message", "role": role, "content": [part]} for _ in range(40)]
    for provider in (None, "openai"):
        parsed = rp.parse_items(items, provider=provider)
        parsed[-1].content.append({"type": "input_image", "image_url": "data:image/png;base64,!!"})
        want = [(39, "data_url_invalid", "/content/1/image_url")]
        for at_once in (True, False):
            with pytest.MonkeyPatch.context() as mp:
                if not at_once:
                    _item_by_item(mp)
                report = rp.check_transcript(parsed)
            assert [(v.index, str(v.code), v.path) for v in report.violations] == want


def test_a_data_url_among_assistant_messages_is_found_in_a_long_list() -> None:
    items: list[Any] = []
    for i in range(40):
        items.append({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": f"a{i}"}]})
    bad = {"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,"}]}
    for at in (0, 20, 40):
        listed = [*items[:at], bad, *items[at:]]
        for value in (listed, rp.parse_items(listed)):
            report = rp.check_transcript(value)
            assert [(v.index, str(v.code)) for v in report.violations] == [(at, "data_url_invalid")]


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(ITEMS, SETTINGS.map(lambda kw: {**kw, "target": "openai"}))
def test_the_profile_is_asked_of_every_item_it_may_refuse(items: list[Any], kw: dict[str, Any]) -> None:
    """`profile_possible` (the target's profile told by an item's fields, in bulk and item by item) says no only
    where the profile, asked of the item's JSON, finds nothing: with it never saying no, the findings are the
    same, in the same order."""
    told = _doors(items, kw)
    with pytest.MonkeyPatch.context() as mp:
        _item_by_item(mp)  # no sweep is asked
        mp.setattr(item_rules, "profile_possible", lambda ctx, vtype, views: True)  # nor the walk's shortcut
        asked = _doors(items, kw)
    assert told == asked


def test_the_sweeps_say_no_only_where_their_rule_finds_nothing() -> None:
    ctx = Context(None, None, None, None)
    plain = [{"type": "input_text", "text": "x"}]
    bad = [{"type": "input_image", "image_url": "data:image/png;base64,"}]
    message = rp.parse_items([{"type": "message", "role": "user", "content": plain}])[0].__dict__
    assert not data_urls_possible(ctx, "message", [message, {"content": "text"}, {"content": None}])
    assert data_urls_possible(ctx, "message", [message, {"content": bad}])
    assert data_urls_possible(ctx, "message", [message, {"content": plain}])  # a part read from JSON: asked
    assert data_urls_possible(ctx, "computer_call_output", [{"output": {"type": "computer_screenshot"}}])
    calls = [{"arguments": '{"n":1}'}, {"arguments": '{"n":1}'}, {"arguments": None}]
    assert not arguments_possible(ctx, "function_call", calls)
    for arguments in ("{", "[1]", ' {"n":1}', '{"n":1e400}', "", '{"a":1,"a":2}'):
        assert arguments_possible(ctx, "function_call", [*calls, {"arguments": arguments}])
    assert arguments_possible(Context(None, {}, None, None), "function_call", calls)  # with tools: each call asked


def test_a_rule_set_is_made_once_per_table_and_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    plain, target = Context(None, None, None, None), Context("openai", None, None, None)
    assert rule_set(plain) is rule_set(Context(None, None, None, None))
    assert rule_set(target) is not rule_set(plain)
    monkeypatch.setattr(table, "RULES", table.RULES[:1])
    assert rule_set(plain).rows["item"] == [r for r in table.RULES if r.on == "item" and r.when is None]


def test_a_gate_belongs_to_its_rows_stage() -> None:
    with pytest.raises(ValueError, match="cannot be gated"):
        table.Rule(lambda ctx, item: (), "item", (rp.ViolationCode.DUPLICATE_CALL_ID,), gate=table.Gate.KEY_SEEN)


def _clean(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        out.append({"type": "function_call", "call_id": f"c{i}", "name": "f", "arguments": "{}", "status": "completed"})
        out.append({"type": "function_call_output", "call_id": f"c{i}", "output": "x"})
    return out


def test_the_reader_s_word_on_plain_models_is_trusted_only_in_the_call_that_read_them() -> None:
    from replayable._reading.document import read_document  # noqa: PLC0415

    parsed = rp.parse_items(_clean(40))
    assert rp.check_transcript(parsed).ok
    doc = read_document(parsed)
    assert doc._item_classes is not None  # what the reader told: plain models only
    # a Document handed in whose list changed since it was read: its items are read again, not trusted
    doc.items.append({"type": "function_call_output", "call_id": "c0", "output": "again", "extra": {1, 2}})
    doc.items.append(rp.parse_item({"type": "function_call_output", "call_id": "nobody", "output": "x"}))
    codes = [str(v.code) for v in rp.check_transcript(doc).violations]
    assert codes == ["item_invalid", "output_without_function_call"]
