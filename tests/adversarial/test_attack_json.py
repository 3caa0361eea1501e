"""Attack on the strict check of Python values (`replayable._json.check_value`): the value that is
checked must be the value that is returned, whatever the subclasses handed over do when read again."""

from __future__ import annotations

import collections
import enum
import math
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from conftest import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

import replayable as rp
from replayable import _json
from replayable import _replay as rp_replay


class _NanFloat(float):
    def __float__(self) -> float:
        return math.nan


class _HugeInt(int):
    def __int__(self) -> int:
        return 10**5000


class _ShortInt(int):
    def bit_length(self) -> int:
        return 0


class _SurrogateStr(str):
    __slots__ = ()

    def __str__(self) -> str:
        return "\ud800"


class _ItemsDict(dict[str, Any]):
    def items(self) -> Any:
        return [("a", math.nan)]


class _ItemsMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        return {"a": 1}[key]

    def __iter__(self) -> Iterator[str]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1

    def items(self) -> Any:
        return [("a", math.inf)]


class _IdKey(str):
    """A key equal only to itself: a dict can hold it twice with the same text."""

    __slots__ = ()

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


class _Raising(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        return 1


class _Color(enum.StrEnum):
    RED = "red"


def _assert_plain(value: Any) -> None:
    stack = [value]
    while stack:
        node = stack.pop()
        assert type(node) in (dict, list, str, int, float, bool, type(None)), type(node)
        if type(node) is dict:
            assert all(type(k) is str for k in node)
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        pytest.param([_NanFloat(1.0)], None, id="float subclass whose __float__ is nan"),
        pytest.param([_HugeInt(1)], None, id="int subclass whose __int__ is 5001 digits"),
        pytest.param([_ShortInt(10**5000)], "number_too_long", id="int subclass lying about bit_length"),
        pytest.param([_SurrogateStr("x")], None, id="str subclass whose __str__ is a lone surrogate"),
        pytest.param(_ItemsDict(a=1), "not_json", id="dict subclass whose items() hold nan"),  # they lie
        pytest.param(_ItemsMapping(), "non_finite_number", id="Mapping whose items() hold inf"),
    ],
)
def test_the_checked_value_is_the_returned_value(value: Any, reason: str | None) -> None:
    """Either refused, or the returned copy is plain and passes the check itself (never NaN, a huge
    int or a lone surrogate slipped in by an overridden conversion)."""
    try:
        out = _json.check_value(value)
    except _json.JSONError as exc:
        if reason is not None:
            assert exc.reason == reason
        return
    assert reason is None, f"accepted, expected {reason}"
    _assert_plain(out)
    assert _json.check_value(out) is out  # plain and valid


def test_str_subclass_keys_that_collapse_are_a_duplicate_key() -> None:
    value = {_IdKey("amount"): 1, _IdKey("amount"): 1000000}
    assert len(value) == 2
    with pytest.raises(_json.JSONError) as info:
        _json.check_value(value)
    assert info.value.reason == "duplicate_key"


def test_str_subclass_keys_are_copied_as_str() -> None:
    out = _json.check_value({_Color.RED: 1})
    assert out == {"red": 1}
    assert all(type(k) is str for k in out)


def test_a_mapping_copy_keeps_the_key_order() -> None:
    value = collections.OrderedDict([("z", 1), ("a", 2), ("m", [collections.OrderedDict([("y", 1), ("b", 2)])])])
    out = _json.check_value(value)
    assert list(out) == ["z", "a", "m"]
    assert list(out["m"][0]) == ["y", "b"]


def test_a_mapping_item_keeps_its_unknown_fields_in_order() -> None:
    item = rp.parse_item(collections.OrderedDict(type="message", role="user", content="x", zz=1, aa=2))
    assert list(rp.dump_item(item)) == ["type", "role", "content", "zz", "aa"]


def test_a_mapping_that_fails_when_read_is_a_json_error() -> None:
    with pytest.raises(_json.JSONError) as info:
        _json.check_value({"a": _Raising()})
    assert info.value.reason == "not_json"


def test_an_item_with_a_mapping_that_fails_when_read_is_an_item_error() -> None:
    with pytest.raises(rp.ItemError):
        rp.parse_item({"type": "message", "role": "user", "content": "x", "extra": _Raising()})


class _ItemsRaise(Mapping[str, Any]):
    """A Mapping that reads through `__iter__`/`__getitem__` but fails in `items()`."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def items(self) -> Any:
        raise RuntimeError("boom")


def _chain(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [3, 199, 300])
@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(lambda x: rp.parse_item(x), id="parse_item"),
        pytest.param(lambda x: rp.parse_item(x, side="output", provider="openai"), id="parse_item output openai"),
        pytest.param(lambda x: rp.parse_items([x]), id="parse_items"),
        pytest.param(lambda x: list(rp.iter_items([x])), id="iter_items"),
        pytest.param(lambda x: rp.check_transcript([x]), id="check_transcript"),
        pytest.param(lambda x: rp_replay.check_transcript_iter(iter([x])), id="check_transcript_iter"),
    ],
)
def test_a_mapping_item_that_fails_when_read_is_refused_cleanly(entry: Any, depth: int) -> None:
    """Never a RuntimeError from the caller's object: an ItemError, or a report that is not ok."""
    item = _ItemsRaise({"type": "message", "role": "user", "content": "x", "extra": _chain(depth)})
    try:
        result = entry(item)
    except rp.ItemError:
        return
    assert not result.ok


# ------------------------------------------------------------------ check_value against a plain reference


class _List(list[Any]):
    pass


class _Str(str):
    __slots__ = ()


class _Int(int):
    pass


class _Float(float):
    pass


class _Level(enum.IntEnum):
    ONE = 1


def _reference(value: Any, limit: int, count_values: bool, depth: int = 1) -> tuple[str | None, Any]:
    """(None, plain copy) or (a rule broken, None): the rules of the module docstring, recursively."""
    if isinstance(value, Mapping | list):
        if depth > limit:
            return "too_deep", None
        if isinstance(value, Mapping):
            out: Any = {}
            for k, v in value.items():
                if not isinstance(k, str):
                    return "not_json", None
                if any(0xD800 <= ord(c) <= 0xDFFF for c in k):
                    return "lone_surrogate", None
                why, out[str.__str__(k)] = _reference(v, limit, count_values, depth + 1)
                if why:
                    return why, None
            return None, out
        out = []
        for v in value:
            why, copy = _reference(v, limit, count_values, depth + 1)
            if why:
                return why, None
            out.append(copy)
        return None, out
    if count_values and depth > limit:
        return "too_deep", None
    if isinstance(value, bool) or value is None:
        return None, value
    if isinstance(value, str):
        if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            return "lone_surrogate", None
        return None, str.__str__(value)
    if isinstance(value, int):
        return ("number_too_long", None) if abs(int.__int__(value)) >= 10**4300 else (None, int.__int__(value))
    if isinstance(value, float):
        return (None, float.__float__(value)) if math.isfinite(value) else ("non_finite_number", None)
    return "not_json", None


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (a != a and b != b)


def _big(sign: int) -> int:
    """10**4300 (the first 4301-digit int), its negative, or 10**4300 - 1 (the largest allowed)."""
    return sign * 10**4300 if sign else 10**4300 - 1


_KEYS = st.one_of(st.text(max_size=3), st.sampled_from(["\ud800", 1, None, _Str("k"), _Str("\udc00")]))
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=3),
    st.sampled_from([1, -1, 0]).map(_big),
    st.sampled_from(
        [_Level.ONE, _Color.RED, _Str("\ud800"), _Int(7), _Float(math.nan)]
        + [_Float(-0.0), -0.0, 1e308, b"x", (1,), frozenset(), 1j, "\ud800", "a\udfff"]
    ),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(_List),
        st.dictionaries(_KEYS, inner, max_size=3),
        st.dictionaries(st.text(max_size=2), inner, max_size=3).map(collections.OrderedDict),
    ),
    max_leaves=12,
)


@fuzz_settings(300)
@given(value=_VALUES, limit=st.integers(0, 5), count_values=st.booleans())
def test_check_value_agrees_with_the_reference(value: Any, limit: int, count_values: bool) -> None:
    why, copy = _reference(value, limit, count_values)
    try:
        out = _json.check_value(value, max_depth=limit, count_values=count_values)
    except _json.JSONError as exc:
        assert why is not None, f"refused ({exc.reason}), the reference accepts"
        return
    assert why is None, f"accepted, the reference refuses ({why})"
    _assert_plain(out)
    assert _same(out, copy)
