"""Checking where apps already work: glue for the SDKs they use.

- `replayable.integrations.openai`: `event_hooks()` / `async_event_hooks()` for the `openai` SDK's http
  client (`openai.DefaultHttpxClient(event_hooks=...)`): every `POST .../responses` body, and the items
  added through the Conversations API (`POST .../conversations`, `.../conversations/{id}/items`), are
  checked before they are sent.
- `replayable.integrations.agents`: `replay_guardrail`, an openai-agents tool input guardrail, and
  `CheckedSession`, a session wrapper that refuses to store an unsafe history.
- `replayable.integrations.litellm`: `ReplayGuard`, LiteLLM's SDK callback and proxy guardrail.
- `replayable.integrations.langchain`: `messages_to_items`, `ReplayCheckMiddleware` for
  `create_agent`, `audit_checkpoints` for LangGraph threads.
- `replayable.integrations.pydantic_ai`: `messages_to_items`, `check_history`, `replay_history_processor`.
- `replayable.integrations._modes`: what each of them does with an unsafe history, `raise`, `repair` or
  `log` (logger `replayable`).

Importing this package imports no SDK. `openai` and `agents` import their SDK only when it is used;
`litellm`, `langchain` and `pydantic_ai` import theirs when they are imported (they subclass its
classes), each only its own.
"""
