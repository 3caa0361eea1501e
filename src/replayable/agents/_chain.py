"""The session link chain of an OpenAI Agents API event log: who called what, in which turn, and what
answered it.

`link_chain` reads events leniently (plain dicts, our models or `openai` SDK objects; an event only
needs the fields a link is made of) and links: the session's agents, its turns, each function call by
(turn_id, call_id) (from `session.required_actions` and from `function_call` session items), each tool
result by the same pair (from `agent.session.input.tool_result` events and `function_call_output`
items), the subagents announced by `agent.session.subagent.created` or by the `create_subagent_call`
item that spawned them (`subagent_id`, as in the IDs article), and the messages and calls sent to them.
`SessionChain.id_chain()` gives the article's `{session_id, links: [{object, id, via}]}`. Field reference:
the `openai` package's `openai.types.beta` (`agent_session_event.py`, `agent_session.py`,
`agent_session_item.py`, `agent_session_input_param.py`). Exposed as `replayable.agents.link_chain`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replayable._agents_base import KNOWN_EVENT_TYPES
from replayable._item_json import plain_json
from replayable.errors import Verdict
from replayable.items import ItemError

__all__ = ["Link", "LinkKind", "SessionChain", "link_chain"]


class LinkKind(StrEnum):
    """What a `Link` stands for."""

    AGENT = "agent"
    """An agent of the session (`session.agent.id`, a turn's `agent_id`, a subagent's parent)."""
    TURN = "turn"
    """A turn (`agent.session.turn.*` events); its parent is its subagent or agent."""
    FUNCTION_CALL = "function_call"
    """A function call, keyed by (turn_id, call_id); its parent is its turn."""
    TOOL_RESULT = "tool_result"
    """The result of a function call, keyed by the same pair; its parent is the call_id."""
    SUBAGENT = "subagent"
    """A subagent announced by `agent.session.subagent.created` or by the `create_subagent_call` item that
    spawned it (`subagent_id`); its parent is its parent agent (the item's `agent_id`)."""
    SUBAGENT_MESSAGE = "subagent_message"
    """An `agent_message` or a subagent call (`send_subagent_input_call`, `resume_`/`interrupt_`/
    `close_subagent_call`, `wait_for_subagents_call`); its parent is the recipient."""
    APPROVAL_REQUEST = "approval_request"
    """An approval request (`mcp_approval_request` / `computer_use_approval_request` required actions, and
    `computer_use_approval_request` items), keyed by `request_id`; its parent is its turn."""
    APPROVAL_ANSWER = "approval_answer"
    """The answer to an approval request (`agent.session.input.*_approval_request_result` inputs and
    `computer_use_approval_request_result` items), keyed by the same `request_id`, its parent."""
    EVENT = "event"
    """An event that cannot be read at all, or one of another session (only in `broken`)."""


@dataclass(frozen=True, slots=True)
class Link:
    """One link of the chain.

    `kind` is a `LinkKind`; `id` is what the link is (agent, turn or subagent id, the call_id of a call
    or result, the item id of a subagent message); `parent` is what it hangs from (see `LinkKind`);
    `event` is the index of the event it came from; `source` the event or item type that gave it.
    `problem` says why a link is broken (`None` for a sound link).
    """

    kind: LinkKind
    id: str | None
    event: int
    parent: str | None = None
    turn_id: str | None = None
    call_id: str | None = None
    source: str = ""
    problem: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the fields (unset optional fields omitted)."""
        out: dict[str, Any] = {"kind": str(self.kind), "id": self.id, "event": self.event}
        for k in ("parent", "turn_id", "call_id", "problem"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        if self.source:
            out["source"] = self.source
        return out


@dataclass(frozen=True, slots=True)
class SessionChain(Verdict):
    """The result of `link_chain`.

    `session_id` is the first session id seen (`None` if none). `links` are the sound links in event
    order; `pending` the calls and approval requests named by `session.required_actions` without a
    result or answer yet (not an error; a `function_call` history item is never pending on its own);
    `broken` the links that match nothing: a result whose (turn_id, call_id) matches no call, a second,
    different result for one call, an approval answer to no request or a second, different one, a
    message or call to a subagent never announced, events that are not JSON objects and events of
    another session. `ok` is true when nothing is broken.
    """

    session_id: str | None
    links: tuple[Link, ...] = ()
    pending: tuple[Link, ...] = ()
    broken: tuple[Link, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.broken

    def __bool__(self) -> bool:
        return self.ok

    def violation_lines(self) -> list[str]:
        """One line per broken link (`event N: kind: problem`), as `ReplayError` prints them."""
        return [f"event {x.event}: {x.kind} {x.id!r}: {x.problem}" for x in self.broken]

    def id_chain(self) -> dict[str, Any]:
        """The chain in the IDs article's shape: `{session_id, links: [{object, id, via}]}`, one entry per
        sound link in event order: `object` what the id names (a `LinkKind`: `agent`, `turn`,
        `function_call`, `subagent`, ...), `id` the id, `via` the event or item type it was linked through
        (`agent.session.subagent.created`, `create_subagent_call`, `required_action`, ...)."""
        return {
            "session_id": self.session_id,
            "links": [{"object": str(x.kind), "id": x.id, "via": x.source} for x in self.links],
        }

    def as_dict(self) -> dict[str, Any]:
        """`{session_id, ok, links, pending, broken}` as JSON-ready values (what `replayable check
        --agents --chain` prints)."""
        return {
            "session_id": self.session_id,
            "ok": self.ok,
            "links": [x.as_dict() for x in self.links],
            "pending": [x.as_dict() for x in self.pending],
            "broken": [x.as_dict() for x in self.broken],
        }


_TO_SUBAGENT = frozenset(
    {"send_subagent_input_call", "resume_subagent_call", "interrupt_subagent_call", "close_subagent_call"}
)


_APPROVALS = frozenset({"mcp_approval_request", "computer_use_approval_request"})
_ANSWERS = frozenset(
    {"agent.session.input.mcp_approval_request_result", "agent.session.input.computer_use_approval_request_result"}
)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class _Chain:
    def __init__(self) -> None:
        self.session_id: str | None = None
        self.links: list[Link] = []
        self.broken: list[Link] = []
        self.agents: set[str] = set()
        self.turns: set[str] = set()
        self.subagents: set[str] = set()  # ids and names
        self.calls: dict[tuple[str, str], Link] = {}
        self.results: dict[tuple[str, str], str] = {}  # pair -> source of the first result ("input" or item id)
        self.required: set[tuple[str, str]] = set()  # pairs named by session.required_actions
        self.sent: dict[tuple[str, str], str] = {}  # pair -> canonical JSON of the first tool_result input
        self.items: set[str] = set()  # subagent message item ids already linked
        self.requests: dict[str, Link] = {}  # request_id -> approval request
        self.asked: set[str] = set()  # request_ids named by session.required_actions
        self.answers: dict[str, str] = {}  # request_id -> "item" or the canonical JSON of the first input

    def agent(self, agent_id: Any, i: int, source: str) -> None:
        if isinstance(agent_id, str) and agent_id not in self.agents:
            self.agents.add(agent_id)
            self.links.append(Link(LinkKind.AGENT, agent_id, i, source=source))

    def call(self, turn_id: Any, call_id: Any, i: int, source: str) -> None:
        if not (isinstance(turn_id, str) and isinstance(call_id, str)):
            return
        key = (turn_id, call_id)
        if source == "required_action":
            self.required.add(key)
        if key not in self.calls:
            link = Link(LinkKind.FUNCTION_CALL, call_id, i, turn_id, turn_id, call_id, source)
            self.calls[key] = link
            self.links.append(link)

    def result(self, turn_id: Any, call_id: Any, i: int, source: str, origin: str, body: str = "") -> None:
        """`origin` is `input` for a tool_result event, else the output item's id (items are echoes);
        `body` is the canonical JSON of a tool_result event (the same result resent is no new answer)."""
        tid, cid = _str(turn_id), _str(call_id)
        link = Link(LinkKind.TOOL_RESULT, cid, i, cid, tid, cid, source)
        if tid is None or cid is None:
            self.broken.append(_problem(link, "a tool result needs string turn_id and call_id"))
            return
        key = (tid, cid)
        if key not in self.calls:
            turns = sorted(t for t, c in self.calls if c == cid)
            why = (
                f"call {cid!r} belongs to turn {turns[0]!r}, not {tid!r}"
                if turns
                else f"no function call has (turn_id, call_id) ({tid!r}, {cid!r})"
            )
            self.broken.append(_problem(link, why))
            return
        first = self.results.get(key)
        if origin == "input":
            if key in self.sent and self.sent[key] == body:
                return  # the same tool result resent (e.g. after a dropped connection): idempotent
            self.sent.setdefault(key, body)
        if first is None:
            self.results[key] = origin
            self.links.append(link)
        elif first == origin and origin != "input":
            return  # the same output item again (item.added, then item.done)
        elif (first == "input") != (origin == "input"):
            return  # a function_call_output item echoing the client's tool_result (or the reverse)
        else:
            self.broken.append(_problem(link, f"call {cid!r} of turn {tid!r} was already answered"))

    def request(self, a: Mapping[str, Any], i: int, source: str) -> None:
        rid, tid = _str(a.get("request_id")), _str(a.get("turn_id"))
        if rid is None:
            return
        if source == "required_action":
            self.asked.add(rid)
        if rid not in self.requests:
            link = Link(LinkKind.APPROVAL_REQUEST, rid, i, tid, tid, source=source)
            self.requests[rid] = link
            self.links.append(link)

    def answer(self, a: Mapping[str, Any], i: int, source: str, body: str) -> None:
        """`body` is the canonical JSON of an input answer, or "item" for a history item echoing one."""
        rid = _str(a.get("request_id"))
        link = Link(LinkKind.APPROVAL_ANSWER, rid, i, rid, _str(a.get("turn_id")), source=source)
        if rid is None:
            self.broken.append(_problem(link, "an approval answer needs a string request_id"))
            return
        if rid not in self.requests:
            self.broken.append(_problem(link, f"no approval request has request_id {rid!r}"))
            return
        first = self.answers.get(rid)
        if first is None:
            self.answers[rid] = body
            self.links.append(link)
        elif first != body and "item" not in (first, body):
            self.broken.append(_problem(link, f"approval request {rid!r} was already answered differently"))

    def to_subagent(self, item: Mapping[str, Any], t: str, i: int) -> None:
        iid = _str(item.get("id"))
        if iid is not None:
            if iid in self.items:
                return
            self.items.add(iid)
        recipients = (
            item.get("recipient_agent_ids") if t == "wait_for_subagents_call" else [item.get("recipient_agent_id")]
        )
        known = self.subagents | self.agents if t == "agent_message" else self.subagents
        for to in recipients if isinstance(recipients, list) else [recipients]:
            link = Link(LinkKind.SUBAGENT_MESSAGE, iid, i, _str(to), _str(item.get("turn_id")), source=t)
            if isinstance(to, str) and to in known:
                self.links.append(link)
            else:
                what = "agent" if t == "agent_message" else "subagent"
                self.broken.append(
                    _problem(
                        link,
                        f"{t} names {what} {to!r}, which no agent.session.subagent.created event or "
                        "create_subagent_call item announced",
                    )
                )

    def subagent(self, sid: Any, parent: Any, name: Any, i: int, source: str) -> None:
        """A subagent announced by `agent.session.subagent.created` or by its `create_subagent_call` item."""
        if not isinstance(sid, str):
            return
        self.agent(parent, i, source)
        if sid not in self.subagents:
            self.links.append(Link(LinkKind.SUBAGENT, sid, i, _str(parent), source=source))
        self.subagents.add(sid)
        if isinstance(name, str):
            self.subagents.add(name)

    def item(self, item: Mapping[str, Any], turn_id: Any, i: int) -> None:
        t = item.get("type")
        if not isinstance(t, str):
            return  # not an item this chain links (a type that is not a string is no known type)
        tid = item.get("turn_id") if isinstance(item.get("turn_id"), str) else turn_id
        if t == "function_call":
            self.call(tid, item.get("call_id"), i, "function_call")
        elif t == "function_call_output":
            self.result(tid, item.get("call_id"), i, "function_call_output", _str(item.get("id")) or f"#{i}")
        elif t == "agent_message" or t in _TO_SUBAGENT or t == "wait_for_subagents_call":
            self.to_subagent(item, t, i)
        elif t == "create_subagent_call":
            # the IDs article: the item that spawned a subagent names it (`subagent_id`), its parent is the
            # requesting agent (`agent_id`)
            self.subagent(item.get("subagent_id"), item.get("agent_id"), None, i, t)
        elif t == "computer_use_approval_request":
            self.request(item, i, t)
        elif t == "computer_use_approval_request_result":
            self.answer(item, i, t, "item")

    def other_session(self, ev: Mapping[str, Any], i: int, t: str) -> bool:
        """Whether `ev` belongs to another session than the log's (the first session id seen): then it is
        a broken `event` link and is not linked (a tool result names no session)."""
        session = ev.get("session")
        for sid in (ev.get("session_id"), session.get("id") if isinstance(session, Mapping) else None):
            if not isinstance(sid, str):
                continue
            if self.session_id is None:
                self.session_id = sid
            elif sid != self.session_id:
                why = f"an event of session {sid!r} in the log of session {self.session_id!r}: not linked"
                self.broken.append(Link(LinkKind.EVENT, None, i, source=t, problem=why))
                return True
        return False

    def event(self, ev: Mapping[str, Any], i: int) -> None:
        t = ev.get("type")
        t = t if isinstance(t, str) else ""
        if t.startswith("agent.") and t not in KNOWN_EVENT_TYPES and not t.startswith("agent.session.input."):
            return  # an unknown event: kept by the readers, never acted on (its session is not read)
        if self.other_session(ev, i, t):
            return
        session = ev.get("session")
        if isinstance(session, Mapping):
            agent = session.get("agent")
            if isinstance(agent, Mapping):
                self.agent(agent.get("id"), i, t)
            actions = session.get("required_actions")
            for a in actions if isinstance(actions, list) else []:
                if isinstance(a, Mapping) and a.get("type") == "function_call":
                    self.call(a.get("turn_id"), a.get("call_id"), i, "required_action")
                elif isinstance(a, Mapping) and a.get("type") in _APPROVALS:
                    self.request(a, i, "required_action")
        turn = ev.get("turn")
        if isinstance(turn, Mapping):
            self.agent(turn.get("agent_id"), i, t)
            tid = _str(turn.get("id")) or _str(ev.get("turn_id"))
            if tid is not None and tid not in self.turns:
                self.turns.add(tid)
                parent = _str(turn.get("subagent_id")) or _str(turn.get("agent_id"))
                self.links.append(Link(LinkKind.TURN, tid, i, parent, tid, source=t))
        if t == "agent.session.input.tool_result":
            body = json.dumps(ev, sort_keys=True, default=str)
            self.result(ev.get("turn_id"), ev.get("call_id"), i, t, "input", body)
        elif t in _ANSWERS:
            self.answer(ev, i, t, json.dumps(ev, sort_keys=True, default=str))
        elif t == "agent.session.subagent.created":
            sub = ev.get("subagent")
            if isinstance(sub, Mapping):
                self.subagent(sub.get("id"), sub.get("parent_agent_id"), sub.get("name"), i, t)
        elif t.startswith("agent.session.turn.item."):
            item = ev.get("item")
            if isinstance(item, Mapping):
                self.item(item, ev.get("turn_id"), i)
        elif not t.startswith(("agent.", "error")) and t:  # a session item on its own (GET .../items)
            self.item(ev, None, i)


def _problem(link: Link, why: str) -> Link:
    return Link(link.kind, link.id, link.event, link.parent, link.turn_id, link.call_id, link.source, why)


def link_chain(events: Any) -> SessionChain:
    """Link an Agents API event log (server events and the client's input events, in order).

    `events` is a list (or iterable) of events as JSON objects, our models, `openai` SDK objects or JSON
    texts; session items on their own (as `GET .../items` lists them) are read too. Reading is lenient:
    a partial event gives what it has, an unknown `agent.*` event type is skipped (whatever session it
    carries), and an event of another session than the first one seen is a broken `event` link, not
    linked (a tool result names no session). Calls come from
    `session.required_actions` and `function_call` items (one per (turn_id, call_id)); results from
    `agent.session.input.tool_result` events and `function_call_output` items (an output item echoing
    a tool result already sent is the same result, and so is the same tool_result event resent). Only a
    call from `required_actions` can be pending. Approval requests (from `required_actions` and
    `computer_use_approval_request` items) link to their answers by `request_id` the same way. A
    recipient (`recipient_agent_id`, or each of `wait_for_subagents_call.recipient_agent_ids`) may be a
    subagent's id or its name; an
    `agent_message` may also go to a known agent (e.g. a subagent answering its parent).

    Returns a `SessionChain`; a broken link is reported there, never raised; an event that is not
    strict JSON (docs/strict-json.md: duplicate keys, too deep, a set inside, ...) is a broken `event`
    link. Raises `ItemError` only when `events` is not a list of events (e.g. a single dict or `None`).
    """
    events = plain_json(events, "events")
    if isinstance(events, Mapping) or not isinstance(events, Iterable) or isinstance(events, str | bytes | bytearray):
        got = "null" if events is None else type(events).__name__
        raise ItemError(
            [{"loc": (), "type": "list_type", "msg": f"events must be a list of events, got {got}"}], "invalid events"
        )
    chain = _Chain()
    for i, raw in enumerate(events):
        try:
            ev = plain_json(raw, f"event {i}")
        except ItemError as exc:  # not strict JSON (duplicate key, too deep, a set, ...): unreadable
            why = exc.errors[0]["msg"] if exc.errors else str(exc)
            chain.broken.append(Link(LinkKind.EVENT, None, i, problem=f"the event is not strict JSON: {why}"))
            continue
        if not isinstance(ev, Mapping):
            chain.broken.append(Link(LinkKind.EVENT, None, i, problem="the event is not a JSON object"))
            continue
        chain.event(ev, i)
    # only session.required_actions makes a call pending; a history function_call item never does
    pending = tuple(link for key, link in chain.calls.items() if key in chain.required and key not in chain.results)
    waiting = [link for rid, link in chain.requests.items() if rid in chain.asked and rid not in chain.answers]
    pending += tuple(waiting)
    broken = tuple(sorted(chain.broken, key=lambda x: x.event))
    return SessionChain(chain.session_id, tuple(chain.links), pending, broken)
