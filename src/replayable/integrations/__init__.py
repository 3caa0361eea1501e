"""Checking where apps already work: glue for the SDKs they use.

- `replayable.integrations.openai`: `event_hooks()` / `async_event_hooks()` for the `openai` SDK's http
  client (`openai.DefaultHttpxClient(event_hooks=...)`): every `POST .../responses` body, and the items
  added through the Conversations API (`POST .../conversations`, `.../conversations/{id}/items`), are
  checked before they are sent.
- `replayable.integrations.agents`: `replay_guardrail`, an openai-agents tool input guardrail, and
  `CheckedSession`, a session wrapper that refuses to store an unsafe history.

Importing this package imports no SDK; each module imports its SDK only when it is used.
"""
