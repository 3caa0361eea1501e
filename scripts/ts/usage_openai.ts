// Compiled (never run) with `tsc --noEmit --strict` by scripts/check_typescript.sh, against the types
// json-schema-to-typescript generates from `replayable schema --provider openai` (OpenAI's data as sent).
// It proves a frontend types OpenAI's stored conversations without a cast: OpenAI's own types narrow
// un-prefixed (`case "web_search_call"`), the nulls OpenAI writes are in the types, shorthand messages
// type, and a typo in a property name does not compile where the spec closes an object. gen/openai/data.ts
// (scripts/ts/openai_data.py) types OpenAI's recorded data with the same types.
import type { OpenAIInputItem, ItemReferenceParam } from "./gen/openai/input";
import type { Message, OpenAIOutputItem, WebSearchCall } from "./gen/openai/output";
import { input, output } from "./gen/openai/data";

export function describe(item: OpenAIOutputItem): string {
  switch (item.type) {
    case "message":
      return item.role + (item.phase === null ? "" : " (" + (item.phase ?? "no phase") + ")");
    case "function_call":
      return item.name + "(" + item.arguments + ") as " + item.call_id;
    case "web_search_call":
      return "web search, " + item.status; // OpenAI's type as sent narrows to its own interface
    case "mcp_call":
      return item.server_label + "." + item.name;
    case "custom_tool_call":
      return item.name + "(" + item.input + ")";
    case "reasoning":
      return item.encrypted_content ?? "no encrypted content"; // OpenAI writes null
    default:
      return "other";
  }
}

export function describeInput(item: OpenAIInputItem): string {
  if (!("type" in item) || item.type === undefined) {
    // a shorthand message, or an item_reference without its type
    return "role" in item ? item.role : "reference to " + item.id;
  }
  switch (item.type) {
    case "function_call_output":
      return "answer to " + item.call_id;
    case "web_search_call":
      return "web search " + item.id;
    default:
      return item.type ?? "item_reference"; // an item_reference may send `type: null`
  }
}

export const texts: string[] = [...output.map(describe), ...input.map(describeInput)];

// OpenAI's nulls and omitted keys type as sent
export const message: Message = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  phase: null,
  content: [{ type: "output_text", text: "Sunny.", annotations: [], logprobs: null }],
};
export const shorthand: OpenAIInputItem[] = [{ role: "user", content: "What's the weather?" }];

// @ts-expect-error a typo (`stauts`) in an object the spec closes does not compile
export const typo: ItemReferenceParam = { type: "item_reference", id: "msg_1", stauts: "completed" };
// @ts-expect-error the `openai:` spelling is the library's own, never OpenAI's wire
export const prefixed: WebSearchCall["type"] = "openai:web_search_call";
// @ts-expect-error a shorthand message has no `type`, and no role outside the four
export const badRole: OpenAIInputItem = { role: "tool", content: "x" };
