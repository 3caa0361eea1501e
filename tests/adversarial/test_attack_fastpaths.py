"""The fast paths give the plain paths' verdicts: a JSON array read in pieces (`_json_array.iter_array`),
JSONL read a chunk of lines at a time, the fields sets parsed items tell by their values
(`_model_slots.derives_fields_set`) and their shared empty extras (`_model_slots.SharedExtras`), the check engine's whole-list pass (`Engine._whole`) and OpenAI mode built on
first use. Each shortcut must give exactly the verdict, values, errors and findings of the
plain path it replaces, whatever the input's form (str, bytes, subclasses of either, lists of dicts or
models) and length (just under and over each threshold)."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import subprocess
import sys
from typing import Any

import pytest

import replayable as rp
from replayable import _json
from replayable._json_array import ARRAY_PIECE, iter_array
from replayable._model_slots import NO_EXTRAS
from replayable._reading.document import read_document
from replayable._rules import engine
from replayable._rules.engine import WHOLE_FROM, Engine
from replayable._rules.view import model_views, view_of


def _message(i: int, text: str = "hello") -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": f"{text} {i}"}


def _call(i: int) -> dict[str, Any]:
    return {"type": "function_call", "call_id": f"c{i}", "name": "f", "arguments": '{"n":1}', "status": "completed"}


#: A JSON array long enough to be read in pieces (`iter_array` reads texts of 2 pieces and more so).
_LONG = 4 * ARRAY_PIECE // 40


def _array_text(items: list[Any], **kw: Any) -> str:
    text = json.dumps(items, **kw)
    assert len(text) >= 2 * ARRAY_PIECE
    return text


# --- a str or bytes subclass is read as what it holds (medium: two doors disagreed) --------------------


class _LyingStr(str):
    """A str whose `encode` (and `removeprefix`, `split`) say other characters than it holds."""

    lie = ""

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        return self.lie.encode()

    def removeprefix(self, prefix: str) -> str:  # type: ignore[override]
        return self.lie

    def split(self, *args: Any, **kwargs: Any) -> list[str]:  # type: ignore[override]
        return self.lie.split(*args, **kwargs)


class _LyingBytes(bytes):
    lie = b""

    def __bytes__(self) -> bytes:
        return self.lie


def _calls_text(jsonl: bool) -> str:
    calls = [_call(i) for i in range(_LONG)]
    return "\n".join(map(json.dumps, calls)) if jsonl else json.dumps(calls)


@pytest.mark.parametrize("jsonl", [False, True], ids=["array", "jsonl"])
def test_a_str_subclass_is_read_as_the_characters_it_holds(jsonl: bool) -> None:
    """`parse_items` read a long JSON array (and JSONL) of a `str` subclass through its own `encode`: items
    that are not in the text (here: calls to execute) came out, where `loads`, `read_document` and a plain
    `str` read messages."""
    messages = [_message(i) for i in range(_LONG)]
    text = "\n".join(map(json.dumps, messages)) if jsonl else json.dumps(messages)
    lying = _LyingStr(text)
    lying.lie = _calls_text(jsonl)
    expected = [rp.dump_item(x) for x in rp.parse_items(text)]
    assert [rp.dump_item(x) for x in rp.parse_items(lying)] == expected
    assert [rp.dump_item(x) for x in rp.iter_items(lying)] == expected
    if not jsonl:
        assert _json.loads(lying, what="items") == messages


@pytest.mark.parametrize("jsonl", [False, True], ids=["array", "jsonl"])
def test_a_bytes_subclass_is_read_as_the_bytes_it_holds(jsonl: bool) -> None:
    messages = [_message(i) for i in range(_LONG)]
    text = ("\n".join(map(json.dumps, messages)) if jsonl else json.dumps(messages)).encode()
    lying = _LyingBytes(text)
    lying.lie = _calls_text(jsonl).encode()
    expected = [rp.dump_item(x) for x in rp.parse_items(text)]
    assert [rp.dump_item(x) for x in rp.parse_items(lying)] == expected
    if not jsonl:
        assert _json.loads(lying, what="items") == messages
        assert list(itertools.chain.from_iterable(iter_array(lying, max_depth=201))) == messages


def test_read_document_reads_a_str_subclass_as_the_characters_it_holds() -> None:
    body = {"model": "m", "input": [_message(0)]}
    lying = _LyingStr(json.dumps(body))
    lying.lie = json.dumps({"model": "m", "input": [_call(0)]})
    got, expected = read_document(lying), read_document(json.dumps(body))
    assert got.kind == expected.kind
    assert list(got.items) == list(expected.items) == [_message(0)]


# --- the array read in pieces: the same values and errors as `loads` ------------------------------------

_HARD_STRINGS = [
    "},",
    '"},"',
    '\\"},',
    '}, {"type": "message"',
    "\\\\},",
    "\\u007d,",
    "}}},{{",
    "\u2028},\u2029",
    "\U0001f600},",
]


def _hostile_arrays() -> list[tuple[str, bytes]]:
    """Texts long enough to be cut, where a cut lands inside strings, escapes, nested objects and arrays,
    after blanks, and where the error (or the value `loads` reads otherwise) is in a later piece."""
    out: list[tuple[str, bytes]] = []
    for n, s in enumerate(_HARD_STRINGS):
        items = [{"type": "message", "role": "user", "content": s * (1 + i % 7)} for i in range(_LONG)]
        out.append((f"strings{n}", json.dumps(items).encode()))
        out.append((f"strings{n}-blanks", json.dumps(items, indent=1, separators=(" ,\n", " : ")).encode()))
    nested = [{"a": {"b": {"c": [{"d": "},"}] * (i % 3)}}, "n": i} for i in range(_LONG)]
    out.append(("nested", json.dumps(nested).encode()))
    arrays = [[{"x": i}, {"y": "},"}] for i in range(_LONG)]
    out.append(("arrays-as-items", json.dumps(arrays).encode()))
    out.append(("one-array-item", json.dumps([[{"x": i} for i in range(_LONG * 2)]]).encode()))
    scalars = [i if i % 3 else {"k": i} for i in range(_LONG * 6)]
    out.append(("mixed", json.dumps(scalars).encode()))
    base = json.dumps([_message(i) for i in range(_LONG)]).encode()
    late = len(base) * 3 // 4
    cut = base.rfind(b"},", 0, late) + 2  # a late element boundary
    for name, insert in [
        ("dup-key", b'{"a": 1, "a": 2},'),
        ("overflow", b'{"n": 1e400},'),
        ("underflow", b'{"n": 1e-400},'),
        ("nan", b'{"n": NaN},'),
        ("bad-utf8", b'{"s": "\xff"},'),
        ("surrogate", b'{"s": "\\ud800"},'),
        ("deep", b"[" * 205 + b"]" * 205 + b","),
        ("deep-ok", b"[" * 198 + b"]" * 198 + b","),
        ("long-int", b'{"n": ' + b"1" * 4301 + b"},"),
        ("big-int-ok", b'{"n": ' + b"1" * 4300 + b"},"),
        ("lossy", b'{"n": 0.1000000000000000055511151231257827},'),
        ("bom-inside", b'"\xef\xbb\xbf",'),
        ("brace-garbage", b"},"),
        ("unbalanced", b"{,"),
    ]:
        out.append((name, base[:cut] + insert + base[cut:]))
    out.append(("trailing-garbage", base + b" x"))
    out.append(("trailing-bracket", base + b"]"))
    out.append(("trailing-blank", base + b" \n\t"))
    out.append(("leading-bom", b"\xef\xbb\xbf" + base))
    out.append(("two-boms", b"\xef\xbb\xbf\xef\xbb\xbf" + base))
    out.append(("leading-blank", b" \n" + base))
    out.append(("no-close", base[:-1]))
    out.append(("comma-close", base[:-1] + b",]"))
    budget = b"[" + b",".join([b'{"a":[{}]}'] * 4000) + b"]"
    out.append(("container-budget", budget))
    return out


def _read(fn: Any) -> Any:
    try:
        return ("ok", fn())
    except _json.JSONError as exc:
        return ("error", exc.reason, str(exc), exc.detail, getattr(exc, "offset", None))


@pytest.mark.parametrize(("name", "raw"), _hostile_arrays(), ids=[n for n, _ in _hostile_arrays()])
def test_the_array_read_in_pieces_reads_what_loads_reads(name: str, raw: bytes) -> None:
    forms: list[Any] = [raw, bytearray(raw), memoryview(raw)]
    try:
        forms.append(raw.decode())
    except UnicodeDecodeError:
        pass
    for form, piece in itertools.product(forms, (64, 1024, ARRAY_PIECE)):
        for depth in (201, 202):
            pieces = _read(lambda: list(iter_array(form, what="items", max_depth=depth, piece=piece)))  # noqa: B023
            whole = _read(lambda: _json.loads(form, what="items", max_depth=depth))  # noqa: B023
            if pieces[0] == "ok":
                assert whole[0] == "ok"
                assert all(pieces[1]) or len(pieces[1]) == 1  # no empty piece but a whole empty array
                assert list(itertools.chain.from_iterable(pieces[1])) == whole[1]
            else:
                assert pieces == whole


@pytest.mark.parametrize(("name", "raw"), _hostile_arrays()[:6], ids=[n for n, _ in _hostile_arrays()[:6]])
def test_parse_items_reads_a_long_array_as_its_list_of_values(name: str, raw: bytes) -> None:
    values = json.loads(raw)
    for side in ("input", "output"):
        try:
            expected: Any = [rp.dump_item(x) for x in rp.parse_items(values, side=side)]
        except rp.ItemError as exc:
            expected = exc.errors
        for form in (raw, raw.decode()):
            try:
                got: Any = [rp.dump_item(x) for x in rp.parse_items(form, side=side)]
            except rp.ItemError as exc:
                got = exc.errors
            assert got == expected


def test_an_item_error_in_a_later_piece_is_the_one_the_whole_list_gives() -> None:
    items: list[Any] = [_message(i) for i in range(_LONG * 3)]
    items[5] = {"type": "message", "role": "user"}
    items[-3] = {"type": "function_call", "call_id": "c", "name": "f", "arguments": 1}
    items[-1] = 7
    with pytest.raises(rp.ItemError) as from_list:
        rp.parse_items(items)
    for text in (json.dumps(items), json.dumps(items).encode(), "\n".join(map(json.dumps, items))):
        with pytest.raises(rp.ItemError) as from_text:
            rp.parse_items(text)
        assert from_text.value.errors == from_list.value.errors


@pytest.mark.parametrize("n", [63, 64, 65, 129])
def test_jsonl_read_in_chunks_of_lines_names_the_line_iter_jsonl_names(n: int) -> None:
    lines = [json.dumps(_message(i)) for i in range(n)]
    lines.insert(10, "")
    lines.insert(40, "   \r")
    for bad in ('{"a":1,"a":2}', '{"n":1e400}', "[", '{"s":"\\ud800"}', "\ufeff{}"):
        broken = [*lines[:-1], bad]
        text = "\n".join(broken)
        try:
            list(_json.iter_jsonl(text, what="line"))
        except _json.JSONError:
            pass
        else:
            pytest.fail("the line reads")
        with pytest.raises(rp.ItemError) as whole:
            rp.parse_items(text)
        with pytest.raises(rp.ItemError) as by_line:
            list(rp.iter_items(text.split("\n")))
        assert [e["type"] for e in whole.value.errors] == [e["type"] for e in by_line.value.errors]


# --- the fields sets told by the values ---------------------------------------------------------------


def test_a_name_spelled_as_a_field_while_the_field_came_by_alias_is_an_unknown_field_held() -> None:
    """`{"async": true, "async_": 1}`: the field `async_` came by its alias, and the key `async_` is kept as
    an unknown field, though the fields set names no field the class lacks. The views of `parse_items`'
    models must hold that unknown field, as the single item's does."""
    raw = {"type": "custom_tool_call", "call_id": "c", "name": "t", "input": "x", "async": None, "async_": 1}
    many = rp.parse_items([raw, {**raw, "call_id": "d"}], provider="openai")
    one = rp.parse_item(raw, provider="openai")
    assert many[0].model_extra == one.model_extra == {"async_": 1}
    assert many[0].model_fields_set == one.model_fields_set
    views = model_views(many, "input")
    assert views is not None
    assert dict(views[0]) == dict(view_of(one))
    plain = rp.parse_items([{k: v for k, v in raw.items() if k != "async_"}] * 2, provider="openai")
    assert plain[0].model_fields_set == many[0].model_fields_set and not plain[0].model_extra


def test_a_parsed_items_set_and_extras_never_change_and_never_leak() -> None:
    items = rp.parse_items([_message(i) for i in range(3)])
    a, b = items[0], items[1]
    assert a.model_extra is NO_EXTRAS and b.model_extra is NO_EXTRAS
    with pytest.raises(TypeError):
        a.model_extra["x"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        NO_EXTRAS.update(x=1)
    a.model_fields_set.add("x")  # changed in place: `a`'s own set from now on, as a pydantic set; never `b`'s
    assert "x" in a.model_fields_set and "x" not in b.model_fields_set
    assert rp.dump_item(a) == _message(0)  # a name no field or unknown key has dumps nothing
    with pytest.raises(ValueError, match="frozen"):  # pydantic refuses before the extras are reached
        a.zz = 1  # type: ignore[attr-defined]
    changed = a.model_copy(update={"zz": 1, "content": "other"})
    assert changed.model_extra == {"zz": 1} and "zz" in changed.model_fields_set
    assert NO_EXTRAS == {} and b.model_extra == {} and "zz" not in b.model_fields_set
    assert rp.dump_item(b) == _message(1)
    for other in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):  # noqa: S301
        assert type(other.model_extra) is dict and type(other.model_fields_set) is set
        assert other == a and rp.dump_item(other) == rp.dump_item(a)
    assert a == rp.parse_item(_message(0)) and hash(a) == hash(rp.parse_item(_message(0)))
    report = rp.check_transcript([changed, *items])
    assert report.ok, report.violations


# --- the whole-list pass: the findings of the walk, whatever the length -------------------------------

_FINDINGS: list[tuple[str, list[Any]]] = [
    ("dup-id", [{**_message(0), "id": "m1"}, {**_message(1), "id": "m1"}]),
    ("answered-twice", [_call(0), {"type": "function_call_output", "call_id": "c0", "output": "x"}] * 1
     + [{"type": "function_call_output", "call_id": "c0", "output": "y"}]),
    ("output-first", [{"type": "function_call_output", "call_id": "c0", "output": "x"}, _call(0)]),
    ("barrier", [_call(0), {"type": "compaction", "encrypted_content": "e"},
                 {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("reasoning-between", [_call(0), {"type": "reasoning", "id": "rs_1", "summary": []},
                           {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("namespaced-between", [_call(0), {"type": "acme:trace"},
                            {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("cross-family", [_call(0), {"type": "custom_tool_call", "call_id": "c0", "name": "t", "input": "i"},
                      {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("unfinished", [{**_call(0), "status": "in_progress"}, {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("data-url", [{"type": "message", "role": "user",
                   "content": [{"type": "input_image", "image_url": "data:image/png;base64,"}]}]),
    ("data-url-in-output", [_call(0), {"type": "function_call_output", "call_id": "c0",
                                       "output": [{"type": "input_file", "file_data": "data:,%"}]}]),
    ("arguments", [{**_call(0), "arguments": '{"a":1,"a":2}'}, {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("arguments-blank", [{**_call(0), "arguments": "\t[]"}, {"type": "function_call_output", "call_id": "c0", "output": "x"}]),
    ("unanswered", [_call(0), _message(9)]),
    ("keyless-output", [{"type": "function_call_output", "call_id": None, "output": "x"}]),
    ("not-an-object", ["text"]),
]  # fmt: skip


def _verdict(items: Any, **kw: Any) -> Any:
    try:
        report = rp.check_transcript(items, **kw)
    except (ValueError, rp.ItemError) as exc:
        return ("raised", str(exc))
    return [(v.index, str(v.code), v.path, v.message) for v in report.violations], report.pending


def _padded(core: list[Any], n: int, front: int) -> list[Any]:
    pad = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"p{i}"}]} for i in range(n)]
    return pad[:front] + core + pad[front:]


@pytest.mark.parametrize(("name", "core"), _FINDINGS, ids=[n for n, _ in _FINDINGS])
def test_a_finding_is_found_at_every_length_around_the_whole_list_threshold(name: str, core: list[Any]) -> None:
    for total in (WHOLE_FROM - 1, WHOLE_FROM, WHOLE_FROM + 1, 40):
        for front in (0, (total - len(core)) // 2, total - len(core)):
            items = _padded(core, total - len(core), front)
            for kw in ({}, {"pending_ok": True}, {"provider": "openai"}, {"side": "input"}):
                fast = _verdict(items, **kw)
                with pytest.MonkeyPatch.context() as mp:
                    mp.setattr(Engine, "_whole", lambda self, *args: False)
                    slow = _verdict(items, **kw)
                assert fast == slow, (total, front, kw)
                assert bool(fast[0] or fast[1]) is (name != "namespaced-between"), (total, front, kw)
                lazy = rp.check_transcript_iter(iter(items), **kw)
                assert [(v.index, str(v.code)) for v in lazy.violations] == [(i, c) for i, c, _, _ in fast[0]]


def test_a_long_list_mixing_dicts_models_and_unchecked_models_is_checked_as_each_alone() -> None:
    core = [_call(0), {"type": "function_call_output", "call_id": "c0", "output": "x"}, _call(1)]
    items: list[Any] = _padded(core, 40, 20)
    parsed = rp.parse_items(items)
    bad = type(parsed[21]).model_construct(**{**parsed[21].__dict__, "call_id": "c1"})  # the output answers c1 now
    mixed: list[Any] = [parsed[i] if i % 2 else items[i] for i in range(len(items))]
    mixed[21] = bad
    expected = _verdict([*items[:21], {**items[21], "call_id": "c1"}, *items[22:]])
    assert _verdict(mixed) == expected
    assert expected[0]  # c0 unanswered, c1 answered before it was called


def test_the_whole_list_pass_is_tried_on_a_clean_long_list() -> None:
    """The attacks above would prove nothing if the whole-list pass never ran."""
    told: list[bool] = []
    whole = Engine._whole

    def spy(self: Engine, views: Any, *args: Any) -> bool:
        told.append(whole(self, views, *args))
        return told[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Engine, "_whole", spy)
        rp.check_transcript(_padded([_call(0), {"type": "function_call_output", "call_id": "c0", "output": "x"}], 40, 5))
    assert told == [True]
    assert engine.WHOLE_FROM == WHOLE_FROM


# --- OpenAI mode built on first use ------------------------------------------------------------------

_FIRST_USE = r"""
import json, pickle, sys, threading
import replayable as rp
assert "replayable._openai_forms" not in sys.modules
items = [{"role": "user", "content": "hi"},
         {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}},
         {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
         {"type": "function_call_output", "call_id": "c1", "output": [{"type": "input_image", "image_url": "https://x", "detail": "original"}]}]
out, gate = {}, threading.Barrier(6)
def work(k):
    gate.wait()
    if k % 3 == 0:
        r = rp.check_transcript(items, provider="openai"); out[k] = (r.ok, [str(v.code) for v in r.violations])
    elif k % 3 == 1:
        out[k] = [type(x).__name__ for x in rp.parse_items(json.dumps(items), provider="openai")]
    else:
        out[k] = (rp.items.OpenAIInputItem is rp.items.OpenAIInputItem, callable(rp.check_tool))
threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
[t.start() for t in threads]; [t.join() for t in threads]
print(json.dumps([out[k] for k in range(6)]))
"""


def test_openai_mode_made_by_many_threads_at_once_reads_as_made_by_one() -> None:
    run = subprocess.run([sys.executable, "-c", _FIRST_USE], capture_output=True, text=True, check=True, timeout=120)
    got = json.loads(run.stdout)
    assert got[0] == got[3] == [True, []]
    assert got[1] == got[4] == ["OpenAIUserMessageParam", "WebSearchCall", "FunctionCallParam", "OpenAIFunctionCallOutputParam"]
    assert got[2] == got[5] == [True, True]
