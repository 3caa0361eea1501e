"""Bases of the Agents API fallback models (`UnknownSessionEvent`, `UnknownSessionItem`,
`UnknownRequiredAction`).

A fallback keeps a value of a type this library does not know verbatim and marks it unknown, so a
stream goes on when OpenAI adds an event type and replay code can tell it must not act on it. It never
takes a *known* type: a known event with a bad field is an error, not an unknown event. The known
type lists below mirror the discriminator mappings in `schemas/agents/` and the `not: {enum}` lists of the
fallback schemas' `type` (a test keeps them in step).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import model_validator
from pydantic_core import PydanticCustomError

from ._base import WireModel

__all__ = [
    "KNOWN_ACTION_TYPES",
    "KNOWN_EVENT_TYPES",
    "KNOWN_ITEM_TYPES",
    "SESSION_STATUS_EVENT_TYPES",
    "UnknownBase",
    "UnknownRequiredActionBase",
    "UnknownSessionEventBase",
    "UnknownSessionItemBase",
]

#: The session status events, each carrying the whole session (`agent.session.<status>`; the SDK's
#: `AgentSession*Event` with a `session` field). `budget_reached` came with openai 3.60.
SESSION_STATUS_EVENT_TYPES = frozenset(
    f"agent.session.{t}" for t in ("created", "in_progress", "idle", "requires_action", "failed", "budget_reached")
)

#: Event types of `AgentSessionEvent` modelled by `replayable.agents` (OpenAI Agents API beta).
KNOWN_EVENT_TYPES = frozenset(
    {
        "error",
        "agent.output.command_execution_output.delta",
        *SESSION_STATUS_EVENT_TYPES,
        *(f"agent.session.turn.{t}" for t in ("created", "in_progress", "completed", "failed", "cancelled")),
        "agent.session.turn.item.added",
        "agent.session.turn.item.done",
        "agent.session.turn.content_part.added",
        "agent.session.turn.content_part.done",
        "agent.session.turn.output_text.delta",
        "agent.session.turn.output_text.done",
        "agent.session.turn.reasoning_summary_part.added",
        "agent.session.turn.reasoning_summary_part.done",
        "agent.session.turn.reasoning_summary_text.delta",
        "agent.session.turn.reasoning_summary_text.done",
        *(
            f"agent.session.environment.{t}"
            for t in (
                "pending",
                "ready",
                "connected",
                "disconnected",
                "failed",
                "suspended",
                "expired",
                "reset",
            )
        ),
        *(f"agent.session.subagent.{t}" for t in ("created", "active", "closed")),
    }
)
#: Session item types modelled by `replayable.agents`.
KNOWN_ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "agent_message",
        "mcp_call",
        "web_search_call",
        "command_execution",
        "computer_use_call",
        "computer_use_approval_request",
        "computer_use_approval_request_result",
        "create_subagent_call",
        "send_subagent_input_call",
        "resume_subagent_call",
        "wait_for_subagents_call",
        "interrupt_subagent_call",
        "close_subagent_call",
    }
)
#: Required-action types modelled by `replayable.agents`.
KNOWN_ACTION_TYPES = frozenset(
    {"function_call", "environment_connection", "mcp_approval_request", "computer_use_approval_request"}
)


class UnknownBase(WireModel):
    """A value of an unknown `type`, kept verbatim. `unknown` is always true: never act on it."""

    known_types: ClassVar[frozenset[str]] = frozenset()
    what: ClassVar[str] = "value"

    @model_validator(mode="before")
    @classmethod
    def _refuse_known(cls, data: Any) -> Any:
        if isinstance(data, dict):
            t = data.get("type")
            if not isinstance(t, str) or not t:
                raise PydanticCustomError(
                    "missing_type", "every {what} needs a non-empty string 'type'", {"what": cls.what}
                )
            if t in cls.known_types:
                raise PydanticCustomError(
                    "known_type",
                    "'{type}' is a known {what} type and must match its own model",
                    {"type": t, "what": cls.what},
                )
        return data

    @property
    def unknown(self) -> bool:
        """Always true: this value's type is not known here, so it must not be acted on."""
        return True


class UnknownSessionEventBase(UnknownBase):
    """Base of `UnknownSessionEvent`."""

    known_types: ClassVar[frozenset[str]] = KNOWN_EVENT_TYPES
    what: ClassVar[str] = "event"


class UnknownSessionItemBase(UnknownBase):
    """Base of `UnknownSessionItem`."""

    known_types: ClassVar[frozenset[str]] = KNOWN_ITEM_TYPES
    what: ClassVar[str] = "item"


class UnknownRequiredActionBase(UnknownBase):
    """Base of `UnknownRequiredAction`."""

    known_types: ClassVar[frozenset[str]] = KNOWN_ACTION_TYPES
    what: ClassVar[str] = "required action"
