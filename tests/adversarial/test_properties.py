"""Property tests: arbitrary JSON never raises anything but ItemError, and parse -> dump -> parse is the
identity on generated valid items."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import replayable as rp

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
types = st.sampled_from(
    [
        "message",
        "function_call",
        "function_call_output",
        "reasoning",
        "compaction",
        "item_reference",
        "acme:thing",
        "web_search_call",
        "",
        ":",
        "x:",
        None,
        3,
    ]
)


@st.composite
def item_like(draw: Any) -> Any:
    base = draw(
        st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "call_id",
                    "name",
                    "arguments",
                    "output",
                    "role",
                    "content",
                    "status",
                    "summary",
                    "encrypted_content",
                    "phase",
                    "extra",
                ]
            ),
            json_values,
            max_size=6,
        )
    )
    if draw(st.booleans()):
        base["type"] = draw(types)
    return base


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, item_like()), st.sampled_from(["input", "output"]), st.sampled_from([None, "openai"]))
def test_random_json_raises_only_item_error(data: Any, side: str, provider: str | None) -> None:
    try:
        parsed = rp.parse_item(data, side=side, provider=provider)  # type: ignore[arg-type]
    except rp.ItemError as exc:
        assert exc.errors and all({"loc", "type", "msg"} <= set(e) for e in exc.errors)
    else:
        assert rp.dump_item(parsed) == data  # whatever parses comes back exactly


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(json_values, item_like()), max_size=6))
def test_check_transcript_never_raises(items: list[Any]) -> None:
    report = rp.check_transcript(items)
    assert report.ok == (not report.violations)
    assert all(v.index is not None and 0 <= v.index < len(items) for v in report.violations)


text = st.text(max_size=30)
ids = st.text(st.characters(codec="utf-8"), min_size=1, max_size=64)
names = st.from_regex(r"[a-zA-Z0-9_-]{1,64}", fullmatch=True)
arguments = json_values.map(json.dumps)
input_parts = st.one_of(
    st.builds(lambda t: {"type": "input_text", "text": t}, text),
    st.builds(
        lambda u, d: {"type": "input_image", "image_url": u, "detail": d},
        st.none() | text,
        st.sampled_from(["low", "high", "auto", None]),
    ),
)
valid_input_items = st.one_of(
    st.builds(lambda c: {"type": "message", "role": "user", "content": c}, text | st.lists(input_parts, max_size=3)),
    st.builds(
        lambda r, c: {"type": "message", "role": r, "content": c}, st.sampled_from(["system", "developer"]), text
    ),
    st.builds(
        lambda c, p: {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": c}],
            **({"phase": p} if p else {}),
        },
        text,
        st.sampled_from([None, "commentary", "final_answer"]),
    ),
    st.builds(
        lambda c, n, a, s: {
            "type": "function_call",
            "call_id": c,
            "name": n,
            "arguments": a,
            **({"status": s} if s != "absent" else {}),
        },
        ids,
        names,
        arguments,
        st.sampled_from(["absent", None, "completed", "in_progress", "incomplete"]),
    ),
    st.builds(
        lambda c, o: {"type": "function_call_output", "call_id": c, "output": o},
        ids,
        text | st.lists(input_parts, max_size=2),
    ),
    st.builds(
        lambda s, e: {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": x} for x in s],
            "encrypted_content": e,
        },
        st.lists(text, max_size=2),
        st.none() | text,
    ),
    st.builds(lambda e: {"type": "compaction", "encrypted_content": e}, text),
    st.builds(lambda i: {"type": "item_reference", "id": i}, text),
    st.builds(
        lambda s, n, extra: {"type": f"{s}:{n}", **extra},
        st.from_regex(r"[a-z]{1,8}", fullmatch=True),
        st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True),
        st.dictionaries(st.sampled_from(["a", "b", "action"]), json_values),
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(valid_input_items, max_size=5),
    st.dictionaries(st.sampled_from(["x_extra", "meta"]), json_values, max_size=1),
)
def test_parse_dump_parse_is_the_identity(items: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    items = [i if i["type"] == "item_reference" else {**i, **extra} for i in items]  # references are closed
    parsed = rp.parse_items(items)
    dumped = rp.dump_items(parsed)
    assert dumped == items
    assert rp.dump_items(rp.parse_items(json.dumps(dumped))) == items
