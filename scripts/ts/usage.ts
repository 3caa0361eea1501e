// Compiled (never run) with `tsc --noEmit --strict` by scripts/check_typescript.sh, against the types
// json-schema-to-typescript generates from schemas/dist/. It proves the exported unions narrow the way a
// TypeScript developer writes code: a plain `switch (x.type)` (or `===`) selects exactly one known
// branch, with no cast and no hand-written guard. What is left in `default` is the namespaced
// (`slug:name`) item or extension event, or the Agents API's unknown fallback.
import type {
  FunctionCallParam,
  InputItem,
  ItemReferenceParam,
} from "./gen/input";
import type { FunctionCall, Message, NamespacedItem, OutputItem } from "./gen/output";
import type { ExtensionEvent, StreamEvent } from "./gen/stream-events";
import type { AgentsSessionEvent } from "./gen/agents-events";
import type { AgentsSessionItem, UnknownSessionItem } from "./gen/agents-items";
import type { AgentsRequiredAction, UnknownRequiredAction } from "./gen/agents-required-actions";
import type { AgentsSessionInput } from "./gen/agents-input";

// --- items, output side -------------------------------------------------------------------------------

export function describeOutput(item: OutputItem): string {
  switch (item.type) {
    case "message":
      return item.role + ": " + textOf(item);
    case "function_call":
      return item.name + "(" + item.arguments + ") as " + item.call_id + ", " + item.status;
    case "function_call_output":
      return "answer to " + item.call_id + " (" + item.id + ")";
    case "reasoning":
      return item.summary.map((part) => part.text).join(" ");
    case "compaction":
      return "compaction " + item.encrypted_content;
    case "openai:web_search_call":
      return "web search, " + item.status; // OpenAI's typed items narrow like the spec's
    case "openai:custom_tool_call":
      return item.name + "(" + item.input + ") as " + item.call_id;
    default: {
      // the other typed openai: items and the slug:name branch; every one has a namespaced `type`
      const extension: { type: `${string}:${string}` } = item;
      const [slug] = extension.type.split(":");
      return "extension from " + slug;
    }
  }
}

export function textOf(message: Message): string {
  return message.content
    .map((part) => {
      switch (part.type) {
        case "output_text":
          return part.text + part.annotations.map((a) => (a.type === "url_citation" ? ` [${a.url}]` : "")).join("");
        case "refusal":
          return "refused: " + part.refusal;
        default:
          return "";
      }
    })
    .join("");
}

export function completedCalls(items: OutputItem[]): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const item of items) {
    if (item.type === "function_call" && item.status === "completed") calls.push(item);
  }
  return calls;
}

export function callIdOf(item: OutputItem): string {
  if (item.type === "message") {
    // @ts-expect-error narrowed to Message, which has no call_id (an unknown extra key at most)
    const id: string = item.call_id;
    return id;
  }
  return item.type === "function_call" || item.type === "function_call_output" ? item.call_id : "";
}

// --- items, input side --------------------------------------------------------------------------------

export function describeInput(item: InputItem): string {
  switch (item.type) {
    case "message":
      switch (item.role) {
        case "user":
          return typeof item.content === "string" ? item.content : `${item.content.length} parts`;
        case "assistant":
          return "assistant" + (item.phase === "final_answer" ? " (final)" : "");
        case "system":
        case "developer":
          return item.role;
      }
    case "function_call":
      return item.name + "(" + item.arguments + ") as " + item.call_id;
    case "function_call_output":
      return "answer to " + item.call_id;
    case "reasoning":
      return `${item.summary.length} summary parts`;
    case "compaction":
      return "compaction";
    case "item_reference":
    case null:
    case undefined: {
      const ref: ItemReferenceParam = item;
      return "reference to " + ref.id;
    }
    case "openai:custom_tool_call":
      return item.name + "(" + item.input + ") as " + item.call_id;
    default: {
      const extension: { type: `${string}:${string}` } = item; // other openai: items, other slugs
      return "extension " + extension.type;
    }
  }
}

const user: InputItem = { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] };
const call: FunctionCallParam = {
  type: "function_call",
  call_id: "call_1",
  name: "get_weather",
  arguments: '{"city":"Paris"}',
  status: "completed",
};
export const transcript: InputItem[] = [
  user,
  call,
  { type: "function_call_output", call_id: "call_1", output: "18C, sunny" },
  { id: "msg_123" },
  { type: "acme:search_result", id: "sr_1", hits: [1, 2] },
  { type: "message", role: "system", content: "Be brief." },
];

// @ts-expect-error arguments is a JSON string, never an object
export const badArguments: FunctionCallParam = { type: "function_call", call_id: "c", name: "f", arguments: { city: "Paris" } };
// @ts-expect-error status is in_progress, completed or incomplete
export const badStatus: FunctionCallParam = { type: "function_call", call_id: "c", name: "f", arguments: "{}", status: "done" };
// @ts-expect-error an output item always carries id and status
export const missingId: FunctionCall = { type: "function_call", call_id: "c", name: "f", arguments: "{}" };
// @ts-expect-error an un-prefixed type is no namespaced item: extensions are named slug:name
export const unprefixed: NamespacedItem = { type: "web_search_call", id: "ws_1" };

// --- stream events ------------------------------------------------------------------------------------

export function onEvent(event: StreamEvent, text: Map<string, string>): string | undefined {
  switch (event.type) {
    case "response.output_text.delta":
      text.set(event.item_id, (text.get(event.item_id) ?? "") + event.delta);
      return undefined;
    case "response.function_call_arguments.done":
      return event.arguments;
    case "response.output_item.done":
      return `item ${event.output_index} done`;
    case "response.completed":
    case "response.incomplete":
    case "response.failed":
      return event.response.status;
    case "error":
      return event.error.message;
    default:
      return undefined;
  }
}

// The item of response.output_item.added / .done is the output-item union (issue 24, point 7): a finished
// call is found by narrowing `event.item.type`, with no cast.
export function finishedCall(event: StreamEvent): string | undefined {
  if (event.type !== "response.output_item.done" || event.item == null) return undefined;
  const item = event.item;
  switch (item.type) {
    case "function_call":
      return item.status === "completed" ? item.name + "(" + item.arguments + ") as " + item.call_id : undefined;
    case "message":
      return item.role + ": " + textOf(item);
    case "reasoning":
      return item.summary.map((part) => part.text).join(" ");
    case "openai:web_search_call":
      return "web search, " + item.status;
    default:
      return undefined;
  }
}

export function addedCallId(event: StreamEvent): string {
  if (event.type === "response.output_item.added" && event.item?.type === "function_call") {
    return event.item.call_id; // narrowed on the property access itself
  }
  return "";
}

// What is left once the spec's events are handled has a namespaced `type`: OpenAI's typed events (which
// narrow like the spec's), the `slug:name` ExtensionEvent of every other slug and OpenAI's untyped ones.
export function ignoreExtensions(events: StreamEvent[]): { type: `${string}:${string}` }[] {
  const out: { type: `${string}:${string}` }[] = [];
  for (const event of events) {
    switch (event.type) {
      case "response.created":
      case "response.queued":
      case "response.in_progress":
      case "response.completed":
      case "response.failed":
      case "response.incomplete":
      case "response.output_item.added":
      case "response.output_item.done":
      case "response.content_part.added":
      case "response.content_part.done":
      case "response.output_text.delta":
      case "response.output_text.done":
      case "response.output_text.annotation.added":
      case "response.refusal.delta":
      case "response.refusal.done":
      case "response.reasoning.delta":
      case "response.reasoning.done":
      case "response.reasoning_summary_part.added":
      case "response.reasoning_summary_part.done":
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_summary_text.done":
      case "response.function_call_arguments.delta":
      case "response.function_call_arguments.done":
      case "error":
        break;
      case "openai:response.mcp_call.completed":
        if (event.output_index >= 0) out.push(event); // OpenAI's typed events narrow: its fields are typed
        break;
      default:
        out.push(event); // every spec event is handled above: only namespaced events are left
    }
  }
  return out;
}

export function extensionSlug(event: ExtensionEvent): string {
  return event.type.split(":")[0];
}

// --- Agents API ---------------------------------------------------------------------------------------

export function onSessionEvent(event: AgentsSessionEvent): string {
  switch (event.type) {
    case "agent.session.created":
      return "session " + event.session.id;
    case "agent.session.requires_action":
      return (event.session.required_actions ?? []).map(describeAction).join("; ");
    case "agent.session.turn.output_text.delta":
      return event.delta;
    case "agent.session.turn.item.done":
      return describeSessionItem(event.item);
    case "error":
      return event.error.message;
    default:
      return "not handled here";
  }
}

export function describeAction(action: AgentsRequiredAction): string {
  switch (action.type) {
    case "function_call":
      return action.name + JSON.stringify(action.arguments) + " for " + action.turn_id + "/" + action.call_id;
    case "environment_connection":
    case "mcp_approval_request":
    case "computer_use_approval_request":
      return action.type;
    default: {
      const unknown: UnknownRequiredAction = action; // never answered automatically
      return "unknown action, kept verbatim: " + JSON.stringify(unknown);
    }
  }
}

export function describeSessionItem(item: AgentsSessionItem): string {
  switch (item.type) {
    case "function_call":
      return item.name + " " + item.call_id + " " + item.status + " " + Object.keys(item.arguments).join(",");
    case "function_call_output":
      return "output for " + item.call_id;
    case "message":
      return "message " + item.id;
    case "reasoning":
    case "agent_message":
    case "mcp_call":
    case "web_search_call":
    case "command_execution":
    case "create_subagent_call":
    case "send_subagent_input_call":
    case "resume_subagent_call":
    case "interrupt_subagent_call":
    case "close_subagent_call":
    case "wait_for_subagents_call":
    case "computer_use_call":
    case "computer_use_approval_request":
    case "computer_use_approval_request_result":
      return item.type;
    default: {
      const unknown: UnknownSessionItem = item;
      return "unknown item, kept verbatim: " + JSON.stringify(unknown);
    }
  }
}

export function toolResultText(input: AgentsSessionInput): string {
  switch (input.type) {
    case "agent.session.input.tool_result":
      return input.success ? JSON.stringify(input.output) : "failed: " + input.error;
    case "agent.session.input.message":
      return `${input.input.length} messages`;
    case "agent.session.input.cancel":
      return "cancel";
    case "agent.session.input.mcp_approval_request_result":
    case "agent.session.input.computer_use_approval_request_result":
      return "answer to " + input.request_id;
  }
}
