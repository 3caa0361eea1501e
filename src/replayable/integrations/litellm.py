"""LiteLLM glue: one guard for both doors, the SDK's callbacks and the proxy's guardrails.

```python
import litellm
from replayable.integrations.litellm import ReplayGuard

litellm.callbacks = [ReplayGuard()]  # every Responses call is checked before it is sent
```

On the proxy, the same class is a guardrail (`config.yaml`):

```yaml
guardrails:
  - guardrail_name: replayable
    litellm_params:
      guardrail: replayable.integrations.litellm.ReplayGuard
      mode: pre_call
```

`ReplayGuard(mode="raise", target=None, interrupted_output=None)` checks the history of a request:

- in the SDK, in its deployment hook (`async_pre_call_deployment_hook`), which LiteLLM runs once the
  deployment is chosen, just before the request is sent: for `litellm.responses` / `aresponses` (also
  when LiteLLM bridges the Responses call to another provider, such as Anthropic's Messages API) and for
  `acompletion`;
- on the proxy, in `async_pre_call_hook`, before the request is routed.

A Responses request's `input` is checked with `check_transcript(input, provider="openai", target=...)`
(LiteLLM takes OpenAI's Responses shapes); a Chat Completions request's `messages` are read with
`replayable.from_chat_completions` first (a `tool` message answering no call is refused there, naming
the message; other findings index the items the messages become). The target is the deployment's
provider: `openai` for `openai` and `azure` (their Responses API), otherwise the provider LiteLLM
names (`custom_llm_provider`, or the model's `provider/` prefix, such as `anthropic`), unless `target=`
is given. `mode` (`replayable.integrations._modes`):
`"raise"` refuses the request with `ReplayError` (the report's lines in its message) before anything is
sent; `"repair"` sends what `prepare_replay` makes of the history (for `messages`, converted back with
`to_chat_completions`) and logs each change; `"log"` sends the request unchanged and logs each finding.

This module imports `litellm` (it subclasses its `CustomGuardrail`): import it only where LiteLLM is
installed (`pip install 'replayable[litellm]'`); `import replayable` never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from litellm.integrations.custom_guardrail import CustomGuardrail
from litellm.types.guardrails import GuardrailEventHooks

from replayable._interop import from_chat_completions, to_chat_completions
from replayable._profiles import check_target
from replayable.integrations._modes import Mode, check_mode, guard_items, unreadable
from replayable.items import ItemError

__all__ = ["ReplayGuard", "target_for"]

#: LiteLLM providers whose Responses API is OpenAI's own (`openai`, `azure`: Azure OpenAI).
_OPENAI_PROVIDERS = frozenset({"openai", "azure", "azure_ai_openai"})
#: LiteLLM's guardrail event hooks: the proxy's config passes one as `mode`.
_EVENT_HOOKS = frozenset(h.value for h in GuardrailEventHooks)


def target_for(model: Any, custom_llm_provider: Any = None) -> str | None:
    """The target a request to `model` is checked for: `openai` when the provider (LiteLLM's
    `custom_llm_provider`, else the model's `provider/` prefix) is `openai` or `azure`; else that
    provider's name when it is a provider slug (`anthropic`, `bedrock`, `vertex_ai` is no slug: None);
    None when neither names one (a proxy's model group name)."""
    provider = custom_llm_provider if isinstance(custom_llm_provider, str) and custom_llm_provider else None
    if provider is None and isinstance(model, str) and "/" in model:
        provider = model.split("/", 1)[0]
    if provider is None:
        return None
    provider = provider.lower()
    if provider in _OPENAI_PROVIDERS:
        return "openai"
    try:
        check_target(provider)
    except ValueError:
        return None
    return provider


#: The keys of a Responses call's keyword arguments that are its request body's, read with its `input`
#: (what decides which calls may run and what the history continues); LiteLLM's own are not.
_BODY_KEYS = ("model", "input", "tools", "tool_choice", "previous_response_id", "conversation", "store", "include")


class ReplayGuard(CustomGuardrail):
    """Check a request's history before LiteLLM sends it (see the module docstring).

    `mode`: `"raise"`, `"repair"` or `"log"`; `target`: the provider slug to check for (None: from the
    deployment); `interrupted_output`: in `repair` mode, the output given to a call whose run was
    interrupted instead of dropping it (`prepare_replay`). Other keyword arguments go to LiteLLM's
    `CustomGuardrail` (`guardrail_name`, `event_hook`, `default_on`, as the proxy's config passes them).
    Raises `ValueError` for a bad `mode` or `target`."""

    def __init__(
        self,
        mode: Mode | None = None,
        target: str | None = None,
        interrupted_output: str | None = None,
        **kwargs: Any,
    ) -> None:
        hook = kwargs.pop("event_hook", None)
        if isinstance(mode, str) and mode in _EVENT_HOOKS and hook is None:  # the proxy config's `mode:` key
            hook, mode = mode, None
        self.mode: Mode = check_mode("raise" if mode is None else mode)
        check_target(target)
        self.target = target
        self.interrupted_output = interrupted_output
        kwargs.setdefault("guardrail_name", "replayable")
        kwargs.setdefault("default_on", True)
        if hook is None:
            hook = GuardrailEventHooks.pre_call
        elif isinstance(hook, str):
            hook = GuardrailEventHooks(hook)
        super().__init__(event_hook=hook, **kwargs)

    # --- the check ------------------------------------------------------------------------------------

    def check_request(self, data: Mapping[str, Any], target: str | None = None) -> dict[str, Any] | None:
        """Check one request's keyword arguments (`input` of a Responses call, or `messages`) for
        `target` (default: the guard's, else from the deployment). Returns None to send the request as
        it is, else the request with its repaired history. Raises `ReplayError` as `mode` says."""
        if target is None:
            target = self.target or target_for(data.get("model"), data.get("custom_llm_provider"))
        model = data.get("model")
        where = f"LiteLLM request to {model!r}" if isinstance(model, str) else "LiteLLM request"
        if isinstance(data.get("input"), list):
            # the Responses body as it is sent: its tools and tool_choice limit the calls, as the openai
            # SDK hooks read them (LiteLLM's own keyword arguments are left out)
            body = {k: data[k] for k in _BODY_KEYS if k in data}
            guarded = guard_items(
                body, mode=self.mode, where=where, provider="openai", target=target,
                interrupted_output=self.interrupted_output,
            )
            return None if guarded.items is None else {**data, "input": guarded.items}
        messages = data.get("messages")
        if not isinstance(messages, list) or not messages:
            return None  # a string input, a prompt: no history to check
        try:
            items = from_chat_completions(messages)
        except ItemError as exc:  # no Open Responses form, or a tool message answering no call
            unreadable(exc, mode=self.mode, where=where)
            return None
        guarded = guard_items(
            items, mode=self.mode, where=where, target=target, interrupted_output=self.interrupted_output
        )
        if guarded.items is None:
            return None
        return {**data, "messages": to_chat_completions(guarded.items)}

    # --- LiteLLM's hooks ------------------------------------------------------------------------------

    async def async_pre_call_deployment_hook(self, kwargs: dict[str, Any], call_type: Any) -> dict[str, Any] | None:
        """LiteLLM's SDK hook, run once the deployment is chosen and before the request is sent."""
        return self.check_request(kwargs)

    async def async_pre_call_hook(
        self, user_api_key_dict: Any, cache: Any, data: dict[str, Any], call_type: Any
    ) -> dict[str, Any] | None:
        """The proxy's hook, run before the request is routed: the request body as the client sent it."""
        return self.check_request(data)
